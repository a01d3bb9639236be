import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

/// The rules of `yarn time add`, `edit`, `rm`, `start --at` and `stop --at` (issue 6), on a
/// real store. Instants are written in UTC; `now` is fixed.
@Suite struct TimeRulesTests {
  /// 2026-06-15T16:00:00Z.
  let now = Date(timeIntervalSince1970: 1_781_539_200)
  let newYork = TimeZone(identifier: "America/New_York") ?? .current
  let berlin = TimeZone(identifier: "Europe/Berlin") ?? .current

  func at(_ text: String) throws -> Date { try #require(JSONCoding.parseInstant(text)) }

  func withTracker(_ body: (TimeTracker, LibraryStore) throws -> Void) throws {
    try withTemporaryDirectory { root in
      let store = try LibraryStore(directory: root, mode: .readWrite)
      try store.insert(Project(id: "socks", name: "Vanilla socks"))
      try store.insert(Project(id: "hat", name: "Barley hat"))
      try body(TimeTracker(store: store), store)
    }
  }

  @Test func nowCheck() {
    #expect(JSONCoding.formatInstant(now) == "2026-06-15T16:00:00Z")
  }

  @Test func addRecordsAFinishedSession() throws {
    try withTracker { tracker, store in
      let added = try tracker.add(
        projectID: "socks", start: try at("2026-06-15T10:00:00Z"), end: try at("2026-06-15T11:30:00Z"),
        note: "heel", now: now)
      #expect(added.seconds() == 5_400)
      #expect(added.note == "heel")
      #expect(try store.sessions() == [added])
    }
  }

  @Test func endMustBeAfterStart() throws {
    try withTracker { tracker, store in
      for end in ["2026-06-15T10:00:00Z", "2026-06-15T09:59:59Z"] {
        do {
          _ = try tracker.add(
            projectID: "socks", start: try at("2026-06-15T10:00:00Z"), end: try at(end), note: nil, now: now)
          Issue.record("a session ending at \(end) was recorded")
        } catch TimeError.endNotAfterStart(let start, let stop) {
          #expect(start == (try at("2026-06-15T10:00:00Z")))
          #expect(stop == (try at(end)))
        }
      }
      #expect(try store.sessions().isEmpty)
    }
  }

  @Test func nothingEndsOrStartsInTheFuture() throws {
    try withTracker { tracker, store in
      // Ending one second after now.
      do {
        _ = try tracker.add(
          projectID: "socks", start: try at("2026-06-15T15:00:00Z"), end: try at("2026-06-15T16:00:01Z"),
          note: nil, now: now)
        Issue.record("a session ending in the future was recorded")
      } catch TimeError.inFuture(let edge, let instant, _) {
        #expect(edge == .end)
        #expect(instant == (try at("2026-06-15T16:00:01Z")))
      }
      // Ending exactly now is allowed.
      _ = try tracker.add(
        projectID: "socks", start: try at("2026-06-15T15:00:00Z"), end: now, note: nil, now: now)
      do {
        _ = try tracker.start(projectID: "hat", at: try at("2026-06-15T16:05:00Z"), note: nil, now: now)
        Issue.record("a timer started in the future")
      } catch TimeError.inFuture(let edge, _, _) {
        #expect(edge == .start)
      }
      _ = try tracker.start(projectID: "hat", at: now, note: nil, now: now)
      do {
        _ = try tracker.stop(at: try at("2026-06-15T17:00:00Z"), now: now)
        Issue.record("a timer stopped in the future")
      } catch TimeError.inFuture(let edge, _, _) {
        #expect(edge == .end)
      }
      #expect(try store.sessions().count == 2)
    }
  }

  @Test func overlapsAreRefusedNamingTheOtherSession() throws {
    try withTracker { tracker, store in
      let first = try tracker.add(
        projectID: "socks", start: try at("2026-06-15T10:00:00Z"), end: try at("2026-06-15T11:00:00Z"),
        note: nil, now: now)
      // Inside, straddling either end, and covering it all.
      for (start, end) in [("10:15", "10:45"), ("09:30", "10:01"), ("10:59", "11:30"), ("09:00", "12:00")] {
        do {
          _ = try tracker.add(
            projectID: "hat", start: try at("2026-06-15T\(start):00Z"), end: try at("2026-06-15T\(end):00Z"),
            note: nil, now: now)
          Issue.record("\(start)–\(end) overlapped and was recorded")
        } catch TimeError.overlaps(let other, let projectName, let subject) {
          #expect(other == first)
          #expect(projectName == "Vanilla socks")
          let message = String(
            describing: TimeError.overlaps(other, projectName: projectName, subject: subject))
          #expect(message.contains("\"Vanilla socks\" from 2026-06-15T10:00:00Z to 2026-06-15T11:00:00Z"))
        }
      }
      #expect(try store.sessions() == [first])
      // Touching ends are no overlap: 09:00–10:00 and 11:00–12:00 both fit.
      _ = try tracker.add(
        projectID: "hat", start: try at("2026-06-15T09:00:00Z"), end: try at("2026-06-15T10:00:00Z"),
        note: nil,
        now: now)
      _ = try tracker.add(
        projectID: "hat", start: try at("2026-06-15T11:00:00Z"), end: try at("2026-06-15T12:00:00Z"),
        note: nil,
        now: now)
      // --allow-overlap records it anyway.
      _ = try tracker.add(
        projectID: "hat", start: try at("2026-06-15T10:15:00Z"), end: try at("2026-06-15T10:45:00Z"),
        note: nil,
        allowOverlap: true, now: now)
      #expect(try store.sessions().count == 4)
    }
  }

  /// QA: the API's error said `it overlaps …` where `yarn` says which session: the words are
  /// YarnCore's, the new or the edited session.
  @Test func anOverlapSaysWhetherTheNewOrTheEditedSessionOverlaps() throws {
    try withTracker { tracker, _ in
      let first = try tracker.add(
        projectID: "socks", start: try at("2026-06-15T10:00:00Z"), end: try at("2026-06-15T11:00:00Z"),
        note: nil, now: now)
      let second = try tracker.add(
        projectID: "hat", start: try at("2026-06-15T12:00:00Z"), end: try at("2026-06-15T13:00:00Z"),
        note: nil, now: now)
      let over = "overlaps the session on \"Vanilla socks\" from 2026-06-15T10:00:00Z to 2026-06-15T11:00:00Z"
      do {
        _ = try tracker.add(
          projectID: "hat", start: try at("2026-06-15T10:30:00Z"), end: try at("2026-06-15T11:30:00Z"),
          note: nil, now: now)
        Issue.record("an overlapping session was recorded")
      } catch {
        #expect("\(error)" == "the new session \(over) (session \(first.id))")
      }
      do {
        _ = try tracker.start(projectID: "hat", at: try at("2026-06-15T10:30:00Z"), note: nil, now: now)
        Issue.record("a timer started inside a recorded session")
      } catch {
        #expect("\(error)" == "the new session \(over) (session \(first.id))")
      }
      do {
        _ = try tracker.edit(sessionID: second.id, start: try at("2026-06-15T10:30:00Z"), now: now)
        Issue.record("an edit overlapping the first session was stored")
      } catch {
        #expect("\(error)" == "the edited session \(over) (session \(first.id))")
      }
    }
  }

  @Test func theRunningSessionOccupiesUntilNow() throws {
    try withTracker { tracker, _ in
      let running = try tracker.start(
        projectID: "socks", at: try at("2026-06-15T14:00:00Z"), note: nil, now: now)
      do {
        _ = try tracker.add(
          projectID: "hat", start: try at("2026-06-15T15:00:00Z"), end: try at("2026-06-15T15:30:00Z"),
          note: nil,
          now: now)
        Issue.record("a session inside the running one was recorded")
      } catch TimeError.overlaps(let other, _, _) {
        #expect(other == running)
      }
      // Before the running one started it fits.
      _ = try tracker.add(
        projectID: "hat", start: try at("2026-06-15T13:00:00Z"), end: try at("2026-06-15T14:00:00Z"),
        note: nil,
        now: now)
    }
  }

  @Test func startAtAPastTimeChecksOverlapAndSwitchLeavesNoGap() throws {
    try withTracker { tracker, store in
      let recorded = try tracker.add(
        projectID: "socks", start: try at("2026-06-15T12:00:00Z"), end: try at("2026-06-15T13:00:00Z"),
        note: nil,
        now: now)
      do {
        _ = try tracker.start(projectID: "hat", at: try at("2026-06-15T12:30:00Z"), note: nil, now: now)
        Issue.record("a timer started inside a recorded session")
      } catch TimeError.overlaps(let other, _, _) {
        #expect(other == recorded)
      }
      let first = try tracker.start(projectID: "hat", at: try at("2026-06-15T13:00:00Z"), note: nil, now: now)
      let second = try tracker.start(
        projectID: "socks", at: try at("2026-06-15T15:00:00Z"), note: nil, switching: true, now: now)
      let sessions = try store.sessions()
      #expect(sessions.map(\.id) == [recorded.id, first.id, second.id])
      #expect(sessions[1].end == (try at("2026-06-15T15:00:00Z")))
      #expect(sessions[2].start == sessions[1].end)
      let stopped = try tracker.stop(at: try at("2026-06-15T15:45:00Z"), now: now)
      #expect(stopped.seconds() == 2_700)
    }
  }

  @Test func aDurationAloneEndsAtTheWholeMinuteAndOneFromAStartRunsFromIt() throws {
    // 53 seconds past 16:00: the clock shows 16:00.
    let ticking = Date(timeIntervalSince1970: 1_781_539_253)
    try withTracker { tracker, store in
      let justNow = try tracker.add(projectID: "socks", seconds: 2_700, note: nil, now: ticking)
      #expect(justNow.start == (try at("2026-06-15T15:15:00Z")))
      #expect(justNow.end == (try at("2026-06-15T16:00:00Z")))
      // Its end, as shown (16:00), typed back as the next start meets it: no overlap.
      let next = try tracker.start(
        projectID: "hat", at: try at("2026-06-15T16:00:00Z"), note: nil, now: ticking)
      #expect(next.start == justNow.end)
      _ = try tracker.cancel()
      // 45 s ending at 16:00 begin at 15:59:15, inside the first session.
      do {
        _ = try tracker.add(projectID: "hat", seconds: 45, note: nil, now: ticking)
        Issue.record("a duration overlapping the last session was recorded")
      } catch TimeError.overlaps(let other, _, _) {
        #expect(other == justNow)
      }
      // From a start: 1 h 30 min from 18:00Z ends at 19:30Z; a start with seconds keeps them.
      let evening = try tracker.add(
        projectID: "hat", seconds: 5_400, from: try at("2026-06-10T18:00:00Z"), note: "brim", now: ticking)
      #expect(evening.start == (try at("2026-06-10T18:00:00Z")))
      #expect(evening.end == (try at("2026-06-10T19:30:00Z")))
      #expect(evening.note == "brim")
      let odd = try tracker.add(
        projectID: "hat", seconds: 60, from: try at("2026-06-12T09:00:30Z"), note: nil, now: ticking)
      #expect(odd.end == (try at("2026-06-12T09:01:30Z")))
      // One hour from 16:00:00Z ends at 17:00Z, after now (16:00:53Z).
      do {
        _ = try tracker.add(
          projectID: "hat", seconds: 3_600, from: try at("2026-06-15T16:00:00Z"), note: nil, now: ticking)
        Issue.record("a session ending in the future was recorded")
      } catch TimeError.inFuture(let edge, let instant, let present) {
        #expect(edge == .end)
        #expect(instant == (try at("2026-06-15T17:00:00Z")))
        #expect(present == ticking)
      }
      #expect(throws: TimeError.self) {
        _ = try tracker.add(projectID: "hat", seconds: 0, note: nil, now: ticking)
      }
      #expect(try store.sessions().count == 3)
    }
  }

  @Test func editKeepsTheRulesAndIgnoresItself() throws {
    try withTracker { tracker, store in
      let a = try tracker.add(
        projectID: "socks", start: try at("2026-06-15T10:00:00Z"), end: try at("2026-06-15T11:00:00Z"),
        note: "a",
        now: now)
      let b = try tracker.add(
        projectID: "hat", start: try at("2026-06-15T12:00:00Z"), end: try at("2026-06-15T13:00:00Z"),
        note: nil,
        now: now)
      // Moving a's end later within its own time is no overlap with itself.
      let longer = try tracker.edit(sessionID: a.id, end: try at("2026-06-15T11:30:00Z"), now: now)
      #expect(longer.seconds() == 5_400)
      do {
        _ = try tracker.edit(sessionID: a.id, end: try at("2026-06-15T12:30:00Z"), now: now)
        Issue.record("an edit overlapping b was stored")
      } catch TimeError.overlaps(let other, _, _) {
        #expect(other == b)
      }
      do {
        _ = try tracker.edit(sessionID: a.id, start: try at("2026-06-15T12:00:00Z"), now: now)
        Issue.record("an edit starting after its end was stored")
      } catch TimeError.endNotAfterStart {}
      #expect(throws: TimeError.self) {
        _ = try tracker.edit(sessionID: a.id, end: try at("2026-06-15T17:00:00Z"), now: now)
      }
      let moved = try tracker.edit(sessionID: a.id, projectID: "hat", note: .some(nil), now: now)
      #expect(moved.projectID == "hat")
      #expect(moved.note == nil)
      do {
        _ = try tracker.edit(sessionID: a.id, projectID: "nope", now: now)
        Issue.record("moved to a missing project")
      } catch StoreError.notFound(let kind, _) {
        #expect(kind == .project)
      }
      #expect(try store.sessions() == [moved, b])
      // --to on the running session stops it.
      let running = try tracker.start(
        projectID: "socks", at: try at("2026-06-15T14:00:00Z"), note: nil, now: now)
      let stopped = try tracker.edit(sessionID: running.id, end: try at("2026-06-15T15:00:00Z"), now: now)
      #expect(stopped.end == (try at("2026-06-15T15:00:00Z")))
      #expect(try store.runningSession() == nil)
    }
  }

  /// One maximum session length, 24 hours (`Rules.maximumSessionSeconds`), for every way a
  /// session is made: add (both forms), edit, start --at, stop; 24 hours exactly is kept.
  @Test func noSessionLastsLongerThanOneSitting() throws {
    let tooLong = "the session's length 24h 0m 1s is over the limit of 24h (one sitting)"
    func refusal(_ body: () throws -> Any) -> String? {
      do {
        _ = try body()
        return nil
      } catch {
        return "\(error)"
      }
    }
    try withTracker { tracker, store in
      #expect(
        refusal {
          try tracker.add(
            projectID: "socks", start: try at("2026-06-14T15:59:59Z"), end: now, note: nil, now: now)
        } == tooLong)
      #expect(
        refusal {
          try tracker.add(projectID: "socks", seconds: 86_401, note: nil, now: now)
        } == tooLong)
      #expect(
        refusal {
          try tracker.start(projectID: "socks", at: try at("2026-06-14T15:59:59Z"), note: nil, now: now)
        }
          == tooLong)
      #expect(try store.sessions().isEmpty)
      let day = try tracker.add(
        projectID: "socks", start: try at("2026-06-14T16:00:00Z"), end: now, note: nil, now: now)
      #expect(day.seconds() == 86_400)
      #expect(
        refusal { try tracker.edit(sessionID: day.id, start: try at("2026-06-14T15:59:59Z"), now: now) }
          == tooLong)
      _ = try tracker.remove(sessionID: day.id)
      // A timer left running past a day cannot be stopped as it is; earlier, it can.
      _ = try tracker.start(projectID: "hat", at: try at("2026-06-14T17:00:00Z"), note: nil, now: now)
      let later = try at("2026-06-15T18:00:00Z")
      #expect(refusal { try tracker.stop(at: try at("2026-06-15T17:00:01Z"), now: later) } == tooLong)
      let stopped = try tracker.stop(at: try at("2026-06-15T17:00:00Z"), now: later)
      #expect(stopped.seconds() == 86_400)
    }
  }

  @Test func sessionsAreNamedByIDOrUniquePrefix() throws {
    try withTracker { tracker, store in
      try store.insert(
        TimeSession(
          id: "abcd1111", projectID: "socks", start: try at("2026-06-01T10:00:00Z"),
          end: try at("2026-06-01T11:00:00Z")))
      try store.insert(
        TimeSession(
          id: "abcd2222", projectID: "hat", start: try at("2026-06-02T10:00:00Z"),
          end: try at("2026-06-02T11:00:00Z")))
      #expect(try tracker.session(matching: "abcd1111").projectID == "socks")
      #expect(try tracker.session(matching: "ABCD2").projectID == "hat")
      do {
        _ = try tracker.session(matching: "abcd")
        Issue.record("an ambiguous prefix matched")
      } catch TimeError.ambiguousSession(_, let ids) {
        #expect(ids == ["abcd1111", "abcd2222"])
      }
      // Under 4 characters a prefix names nothing, even when unique.
      for reference in ["abc", "", "zzzz", "abcd%"] {
        do {
          _ = try tracker.session(matching: reference)
          Issue.record("\"\(reference)\" matched")
        } catch TimeError.sessionNotFound {}
      }
      let removed = try tracker.remove(sessionID: "abcd1111")
      #expect(removed.projectID == "socks")
      #expect(try store.sessions().map(\.id) == ["abcd2222"])
      #expect(throws: StoreError.self) { _ = try tracker.remove(sessionID: "abcd1111") }
    }
  }

  @Test func aTimerOverTwelveHoursIsLikelyForgotten() throws {
    let start = try at("2026-06-15T04:00:00Z")
    let running = TimeSession(id: "r", projectID: "p", start: start)
    // now − start: 12 h exactly is not over 12 h; 12 h and 1 s is.
    #expect(!TimeTracker.isLikelyForgotten(running, now: try at("2026-06-15T16:00:00Z")))
    #expect(TimeTracker.isLikelyForgotten(running, now: try at("2026-06-15T16:00:01Z")))
    let finished = TimeSession(id: "f", projectID: "p", start: start, end: try at("2026-06-15T17:00:00Z"))
    #expect(!TimeTracker.isLikelyForgotten(finished, now: try at("2026-06-16T00:00:00Z")))
  }
}
