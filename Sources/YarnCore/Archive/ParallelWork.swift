import Dispatch

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The result of one piece of work done on another thread, waited for by the thread that
/// needs it: `put` once (on the worker), `take` once (on the consumer). The semaphore orders
/// the two, so `@unchecked Sendable` is sound.
final class WorkSlot<Value>: @unchecked Sendable {
  private let done = DispatchSemaphore(value: 0)
  private var result: Result<Value, Error>?

  /// Stores the result and wakes the consumer.
  func put(_ result: Result<Value, Error>) {
    self.result = result
    done.signal()
  }

  /// Waits for the result.
  func take() throws -> Value {
    done.wait()
    guard let result else { throw CancellationError() }
    return try result.get()
  }

  /// Runs `work` on `ParallelWork.workers` and returns the slot its result goes to.
  static func start(_ work: @escaping @Sendable () throws -> Value) -> WorkSlot<Value> {
    let slot = WorkSlot<Value>()
    ParallelWork.workers.async { slot.put(Result { try work() }) }
    return slot
  }
}

/// Where the CPU-bound pieces of a backup or restore run (encoding or decoding a batch of
/// items): the global concurrent queue, as wide as the machine has cores. Work sent there
/// never waits on anything, so it cannot starve the threads that do (`ParallelWork.thread`).
enum ParallelWork {
  static let workers = DispatchQueue.global(qos: .userInitiated)

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
private final class BodyBox: @unchecked Sendable {
  private var body: (@Sendable () -> Void)?
  init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  func run() {
    body?()
    body = nil
  }
}

/// Batches handed from one thread to another: at most `capacity` wait (memory stays
/// bounded); either side can end it.
///
/// `@unchecked Sendable` because the stored state is touched only inside `lock` (a serial
/// queue used with `sync`); the semaphores count the batches and the free places.
final class BatchQueue<Element>: @unchecked Sendable {
  private let lock = DispatchQueue(label: "yarn.batch-queue")
  private let room: DispatchSemaphore
  private let ready = DispatchSemaphore(value: 0)
  private var batches: [Element] = []
  private var finished = false
  private var cancelled = false
  private var stored: Error?

  init(capacity: Int = 8) {
    room = DispatchSemaphore(value: capacity)
  }

  /// Why the producing side stopped early, once it has finished.
  var failure: Error? { lock.sync { stored } }

  /// Waits for room, then adds `batch`; `false` when the consumer cancelled.
  func push(_ batch: Element) -> Bool {
    room.wait()
    let accepted = lock.sync {
      guard !cancelled else { return false }
      batches.append(batch)
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
    lock.sync {
      finished = true
      stored = error
    }
    ready.signal()
  }

  /// Waits for the next batch; `nil` when the producer has finished and all were taken.
  func pop() -> Element? {
    ready.wait()
    let next: Element? = lock.sync {
      batches.isEmpty ? nil : batches.removeFirst()
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
    lock.sync { cancelled = true }
    room.signal()
  }
}
