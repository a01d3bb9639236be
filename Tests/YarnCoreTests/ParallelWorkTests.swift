import Dispatch
import Foundation
import Testing

@testable import YarnCore

#if canImport(Glibc)
  import Glibc
#endif

/// The threads that code `library.json` (`WorkerPool`, `WorkSlot`).
@Suite struct ParallelWorkTests {
  @Test func everySlotGetsItsOwnResultInOrder() throws {
    let slots = (0..<200).map { index in WorkSlot.start { index * index } }
    // 0, 1, 4, …, 199² = 39,601: each slot holds the square of its own index.
    #expect(try slots.map { try $0.take() } == (0..<200).map { $0 * $0 })
  }

  @Test func anErrorReachesTheSlotThatThrewIt() {
    struct Refused: Error {}
    let good = WorkSlot.start { "kept" }
    let bad = WorkSlot<String>.start { throw Refused() }
    #expect(throws: Refused.self) { try bad.take() }
    #expect((try? good.take()) == "kept")
  }

  @Test func jobsStartInTheOrderTheyAreSubmitted() {
    // One thread: the jobs run one after another, so their order is the submission order.
    let pool = WorkerPool(threads: 1)
    let seen = Locked<[Int]>([])
    let done = DispatchSemaphore(value: 0)
    for index in 0..<50 {
      pool.submit {
        seen.withLock { $0.append(index) }
        if index == 49 { done.signal() }
      }
    }
    done.wait()
    #expect(seen.withLock { $0 } == Array(0..<50))
  }

  #if os(Linux)
    @Test func workersRunTenNiceLevelsBelowTheirProcess() {
      // Linux keeps the nice value per thread (setpriority(2), BUGS): a worker reads its own.
      errno = 0
      let mine = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
      let workers = WorkSlot.start { () -> Int32 in
        getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
      }
      // Nice values stop at 19.
      #expect((try? workers.take()) == min(mine + 10, 19))
      // This thread keeps its own priority.
      #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) == mine)
    }
  #endif
}
