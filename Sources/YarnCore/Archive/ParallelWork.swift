import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// State shared between threads, touched only inside `withLock` (a serial dispatch queue used
/// with `sync`). The one place of the backup code that vouches for thread safety by hand:
/// `State` is `Sendable`, so what goes in or comes out is safe to hand over, and every access
/// to `state` is serialized by `queue`.
final class Locked<State: Sendable>: @unchecked Sendable {
  private let queue = DispatchQueue(label: "yarn.locked")
  private var state: State

  init(_ state: State) { self.state = state }

  /// Runs `body` with the state, alone.
  func withLock<T>(_ body: (inout State) throws -> T) rethrows -> T {
    try queue.sync { try body(&state) }
  }
}

/// The result of one piece of work done on another thread, waited for by the thread that
/// needs it: `put` once (on the worker), `take` once (on the consumer).
final class WorkSlot<Value: Sendable>: Sendable {
  private let done = DispatchSemaphore(value: 0)
  private let result = Locked<Result<Value, Error>?>(nil)

  /// Stores the result and wakes the consumer.
  func put(_ result: Result<Value, Error>) {
    self.result.withLock { $0 = result }
    done.signal()
  }

  /// Waits for the result.
  func take() throws -> Value {
    done.wait()
    guard let result = result.withLock({ $0 }) else { throw CancellationError() }
    return try result.get()
  }

  /// Runs `work` on `ParallelWork.workers` and returns the slot its result goes to.
  static func start(_ work: @escaping @Sendable () throws -> Value) -> WorkSlot<Value> {
    let slot = WorkSlot<Value>()
    ParallelWork.workers.submit { slot.put(Result { try work() }) }
    return slot
  }
}

/// Where the CPU-bound pieces of a backup or restore run (encoding or decoding a batch of
/// items): a `WorkerPool` as wide as the machine has cores (no wider than `inFlight`, the
/// batches that can be waiting), below the other threads' priority. Work sent there never waits on anything, so it cannot starve the threads that
/// do (`ParallelWork.thread`).
enum ParallelWork {
  static let workers = WorkerPool(
    threads: min(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), inFlight))

  /// Items per batch handed to a worker: large enough that the hand-over costs little
  /// beside the coding, small enough that a few batches in flight stay a few MB.
  static let batchSize = 256

  /// Batches in flight at once (being coded or waiting to be taken): one per core and a few
  /// more, so that no core waits for the thread handing them out.
  static let inFlight = 6

  /// Runs `body` on a thread of its own (a serial queue, which libdispatch backs with its own
  /// thread even when the workers are busy), for work that blocks: reading a file, waiting
  /// for room in a `BatchQueue`. `done` is signalled when it returns.
  static func thread(_ label: String, _ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
    let done = DispatchSemaphore(value: 0)
    let box = BodyBox(body)
    DispatchQueue(label: label).async {
      box.run()
      done.signal()
    }
    return done
  }
}

/// Holds a thread's body and lets go of it (and of what it captured) as soon as it has run,
/// before the waiter is woken: a caller that lent the body a closure through
/// `withoutActuallyEscaping` finds it released again, however long libdispatch keeps the
/// block itself.
private final class BodyBox: Sendable {
  private let body: Locked<(@Sendable () -> Void)?>
  init(_ body: @escaping @Sendable () -> Void) { self.body = Locked(body) }
  func run() {
    body.withLock { $0 }?()
    body.withLock { $0 = nil }
  }
}

/// Batches handed from one thread to another: at most `capacity` wait (memory stays
/// bounded); either side can end it. The semaphores count the batches and the free places.
final class BatchQueue<Element: Sendable>: Sendable {
  private struct State: Sendable {
    var batches: [Element] = []
    var finished = false
    var cancelled = false
    var stored: Error?
  }
  private let state = Locked(State())
  private let room: DispatchSemaphore
  private let ready = DispatchSemaphore(value: 0)

  init(capacity: Int = 8) {
    room = DispatchSemaphore(value: capacity)
  }

  /// Why the producing side stopped early, once it has finished.
  var failure: Error? { state.withLock { $0.stored } }

  /// Waits for room, then adds `batch`; `false` when the consumer cancelled.
  func push(_ batch: Element) -> Bool {
    room.wait()
    let accepted = state.withLock { state in
      guard !state.cancelled else { return false }
      state.batches.append(batch)
      return true
    }
    if accepted {
      ready.signal()
    } else {
      room.signal()  // wake the next push too
    }
    return accepted
  }

  /// Says that no more batches come (`error` when producing failed).
  func finish(_ error: Error?) {
    state.withLock { state in
      state.finished = true
      state.stored = error
    }
    ready.signal()
  }

  /// Waits for the next batch; `nil` when the producer has finished and all were taken.
  func pop() -> Element? {
    ready.wait()
    let next: Element? = state.withLock { state in
      state.batches.isEmpty ? nil : state.batches.removeFirst()
    }
    if next != nil {
      room.signal()
    } else {
      ready.signal()  // finished: every later pop returns nil as well
    }
    return next
  }

  /// Stops the producer at its next push.
  func cancel() {
    state.withLock { $0.cancelled = true }
    room.signal()
  }
}

/// The threads that encode and decode `library.json` (`ParallelWork.workers`): one per core,
/// started on first use and kept for the life of the process, each taking jobs in the order
/// they were submitted.
///
/// They run at a lower scheduling priority than the process's other threads (Linux: nice +10
/// on each of them, which Linux applies per thread — setpriority(2), "BUGS"; Apple systems: the
/// utility QoS class). A backup or restore is bound by the CPU of every core, and its one
/// thread that moves the attachments (reading, CRC-32, SHA-256, writing, fsync) is the one
/// the whole command waits for at its end: at equal priority the scheduler gave it a third
/// of its share while two workers were busy, and it finished alone with the other core idle.
/// With the workers below it, it runs as soon as it is ready and the workers fill the rest
/// (bench/README.md, step 17). The threads are their own (each a serial queue whose one job
/// never ends), so no thread of Dispatch's shared pool is left at the lower priority.
final class WorkerPool: Sendable {
  private let jobs = Locked<[@Sendable () -> Void]>([])
  private let ready = DispatchSemaphore(value: 0)

  /// Starts `threads` worker threads (at least one).
  init(threads: Int) {
    for index in 0..<max(1, threads) {
      let ready = self.ready
      let jobs = self.jobs
      DispatchQueue(label: "yarn.worker.\(index)").async {
        WorkerPool.lowerPriority()
        while true {
          ready.wait()
          guard let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
          job()
        }
      }
    }
  }

  /// Runs `job` on the first free worker; jobs start in the order they are submitted.
  func submit(_ job: @escaping @Sendable () -> Void) {
    jobs.withLock { $0.append(job) }
    ready.signal()
  }

  /// Lowers the calling thread's priority (only this thread's; failures are ignored, as
  /// the work is the same at any priority).
  private static func lowerPriority() {
    #if os(Linux)
      _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
    #elseif canImport(Darwin)
      _ = pthread_set_qos_class_self_np(QOS_CLASS_UTILITY, 0)
    #endif
  }
}
