import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

@Suite struct TimeTrackerTests {
  /// 2026-03-29T14:30:00Z, as Unix seconds (20541 days × 86400 + 14.5 h).
  static let halfPastTwo = 1_774_794_600

  func withTracker(_ body: (TimeTracker, LibraryStore) throws -> Void) throws {
    try withTemporaryDirectory { root in
      let store = try LibraryStore(directory: root, mode: .readWrite)
      try store.insert(Project(id: "socks", name: "Vanilla socks"))
      try store.insert(Project(id: "hat", name: "Barley hat"))
      try body(TimeTracker(store: store), store)
    }
  }

  @Test func startStatusStop() throws {
    try withTracker { tracker, store in
      #expect(try tracker.status(now: instant(Self.halfPastTwo)) == nil)
      let started = try tracker.start(
        projectID: "socks", at: instant(Self.halfPastTwo), note: "heel", now: instant(Self.halfPastTwo))
      #expect(started.projectID == "socks")
      #expect(started.start == instant(Self.halfPastTwo))
      #expect(started.end == nil)
      #expect(started.note == "heel")
      #expect(UUID(uuidString: started.id) != nil)
      #expect(started.id == started.id.lowercased())

      let status = try #require(try tracker.status(now: instant(Self.halfPastTwo + 60)))
      #expect(status.session == started)
      #expect(status.projectName == "Vanilla socks")

      let stopped = try tracker.stop(at: instant(Self.halfPastTwo + 5_400))
      #expect(stopped.id == started.id)
      #expect(stopped.end == instant(Self.halfPastTwo + 5_400))
      #expect(stopped.seconds() == 5_400)
      #expect(try tracker.status(now: instant(Self.halfPastTwo + 6_000)) == nil)
      #expect(try store.sessions() == [stopped])
    }
  }

  @Test func startingWhileRunningNamesTheRunningProjectAndWhen() throws {
    try withTracker { tracker, store in
      let running = try tracker.start(
        projectID: "socks", at: instant(Self.halfPastTwo), note: nil, now: instant(Self.halfPastTwo))
      do {
        _ = try tracker.start(
          projectID: "hat", at: instant(Self.halfPastTwo + 60), note: nil, now: instant(Self.halfPastTwo + 60)
        )
        Issue.record("a second timer started")
      } catch TimeError.alreadyRunning(let session, let projectName) {
        #expect(session == running)
        #expect(projectName == "Vanilla socks")
        let message = String(
          describing: TimeError.alreadyRunning(session, projectName: projectName))
        #expect(message.contains("\"Vanilla socks\""))
        #expect(message.contains("2026-03-29T14:30:00Z"))
      }
      #expect(try store.sessions() == [running])
    }
  }

  @Test func switchingStopsTheOldSessionAtTheSameInstant() throws {
    try withTracker { tracker, store in
      let first = try tracker.start(projectID: "socks", at: instant(1_000), note: nil, now: instant(2_000))
      let second = try tracker.start(
        projectID: "hat", at: instant(1_600), note: "brim", switching: true, now: instant(2_000))
      let sessions = try store.sessions()
      #expect(sessions.count == 2)
      #expect(sessions[0].id == first.id)
      #expect(sessions[0].end == instant(1_600))
      #expect(sessions[1] == second)
      #expect(second.start == instant(1_600))
      #expect(try store.runningSession() == second)
      // Switching to an instant before the running start is refused; nothing changes.
      #expect(throws: TimeError.self) {
        _ = try tracker.start(
          projectID: "socks", at: instant(1_599), note: nil, switching: true, now: instant(2_000))
      }
      #expect(try store.sessions() == sessions)
      // Switching to the project already running would split its session: refused as a
      // plain start is, and nothing changes (QA: it stopped and restarted it).
      do {
        _ = try tracker.start(
          projectID: "hat", at: instant(1_900), note: nil, switching: true, now: instant(2_000))
        Issue.record("a switch to the running project split its session")
      } catch TimeError.alreadyRunning(let session, let projectName) {
        #expect(session == second)
        #expect(projectName == "Barley hat")
      }
      #expect(try store.sessions() == sessions)
    }
  }

  @Test func stopRules() throws {
    try withTracker { tracker, store in
      do {
        _ = try tracker.stop(at: instant(10))
        Issue.record("stopped without a running timer")
      } catch TimeError.notRunning {}
      #expect(throws: TimeError.self) { _ = try tracker.cancel() }

      let running = try tracker.start(projectID: "hat", at: instant(1_000), note: nil, now: instant(2_000))
      do {
        _ = try tracker.stop(at: instant(999))
        Issue.record("a session ended before it started")
      } catch TimeError.endBeforeStart(let session, let end) {
        #expect(session == running)
        #expect(end == instant(999))
      }
      #expect(try store.runningSession() == running)
      // Ending in the second it started: no time passed, so nothing is recorded (every
      // recorded session ends after it starts) and no timer runs any more.
      let stopped = try tracker.stop(at: instant(1_000))
      #expect(stopped.seconds() == 0)
      #expect(try store.sessions().isEmpty)
      #expect(try store.runningSession() == nil)
    }
  }

  @Test func aStartInTheFutureIsNamedAsSuch() throws {
    try withTracker { tracker, _ in
      // From 1,000 s ahead to "now": the start is the first thing wrong, and is named.
      do {
        _ = try tracker.add(
          projectID: "hat", start: instant(6_000), end: instant(5_000), note: nil, now: instant(5_000))
        Issue.record("a session starting in the future was recorded")
      } catch TimeError.inFuture(let edge, let when, let now) {
        #expect(edge == .start)
        #expect(when == instant(6_000))
        #expect(now == instant(5_000))
      }
    }
  }

  @Test func switchingInTheSecondATimerStartedKeepsOnlyTheNewOne() throws {
    try withTracker { tracker, store in
      _ = try tracker.start(projectID: "hat", at: instant(1_000), note: nil, now: instant(2_000))
      let socks = try tracker.start(
        projectID: "socks", at: instant(1_000), note: nil, switching: true, now: instant(2_000))
      #expect(try store.sessions() == [socks])
    }
  }

  @Test func aSessionOfNoTimeIsNeverRecorded() throws {
    try withTracker { tracker, store in
      // A session lasts at least a second (`Rules.session`): the store refuses one of none.
      #expect(throws: StoreError.self) {
        try store.insert(
          TimeSession(id: "old", projectID: "hat", start: instant(1_000), end: instant(1_000), note: nil))
      }
      let sessions = try store.sessions()
      #expect(sessions == [])
      _ = tracker
    }
  }

  @Test func aNoteCanBeSetOnARecordedSession() throws {
    try withTracker { tracker, store in
      try store.insert(
        TimeSession(id: "old", projectID: "hat", start: instant(1_000), end: instant(1_001), note: nil))
      let edited = try tracker.edit(sessionID: "old", note: .some("cast on"), now: instant(5_000))
      #expect(edited.note == "cast on")
      #expect(edited.end == instant(1_001))
      // Changing its times applies the rules.
      do {
        _ = try tracker.edit(sessionID: "old", end: instant(1_000), now: instant(5_000))
        Issue.record("a session of no time was accepted")
      } catch TimeError.endNotAfterStart(let start, let end) {
        #expect(start == instant(1_000))
        #expect(end == instant(1_000))
      }
    }
  }

  @Test func instantsAreTruncatedAndCancelDeletes() throws {
    try withTracker { tracker, store in
      let running = try tracker.start(
        projectID: "socks", at: Date(timeIntervalSince1970: 1_000.75), note: nil, now: instant(2_000))
      #expect(running.start == instant(1_000))
      #expect(try store.runningSession() == running)
      #expect(try tracker.cancel() == running)
      #expect(try store.sessions().isEmpty)
    }
  }

  /// A running session's seconds count to the present truncated to a whole second, as a stop
  /// at that instant records it (QA: `time status --json` said 2 s where `time stop` right
  /// after recorded 1 s, 1.6 s in).
  @Test func aRunningSessionCountsWhatAStopWouldRecord() throws {
    try withTracker { tracker, _ in
      let running = try tracker.start(projectID: "socks", at: instant(1_000), note: nil, now: instant(1_000))
      let now = Date(timeIntervalSince1970: 1_001.6)
      #expect(running.seconds(now: now) == 1)
      #expect(try tracker.status(now: now)?.session.seconds(now: now) == 1)
      // Counted whole when no range is asked (QA: `time log` said "0s of it inside").
      #expect(running.seconds(inside: (nil, nil), now: now) == 1)
      #expect(try tracker.stop(at: now, now: now).seconds() == 1)
    }
  }

  @Test func unknownProjectIsNotFound() throws {
    try withTracker { tracker, store in
      do {
        _ = try tracker.start(projectID: "nope", at: instant(0), note: nil, now: instant(2_000))
        Issue.record("a timer started on a missing project")
      } catch StoreError.notFound(let kind, let id) {
        #expect(kind == .project)
        #expect(id == "nope")
      }
      #expect(try store.sessions().isEmpty)
    }
  }

  @Test func twoTrackersStartingAtOnceLeaveExactlyOneRunning() async throws {
    try await withTemporaryDirectoryAsync { root in
      let setup = try LibraryStore(directory: root, mode: .readWrite)
      try setup.insert(Project(id: "socks", name: "Vanilla socks"))
      try setup.insert(Project(id: "hat", name: "Barley hat"))
      try setup.close()
      let outcomes = try await withThrowingTaskGroup(of: String.self) { group in
        for project in ["socks", "hat"] {
          group.addTask {
            try await onThread {
              let store = try LibraryStore(directory: root, mode: .readWrite)
              do {
                _ = try TimeTracker(store: store).start(
                  projectID: project, at: instant(1_000), note: nil, now: instant(2_000))
                return "started"
              } catch TimeError.alreadyRunning {
                return "refused"
              }
            }
          }
        }
        var all: [String] = []
        for try await outcome in group { all.append(outcome) }
        return all.sorted()
      }
      #expect(outcomes == ["refused", "started"])
      let store = try LibraryStore(directory: root, mode: .readOnly)
      #expect(try store.sessions().count == 1)
    }
  }
}
