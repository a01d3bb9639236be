import YarnModel
import YarnStore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Starts and stops the timer on a project: the rules of docs/CLI.md ("time") over a
/// `LibraryStore`.
///
/// Every change runs in one `store.write` (`BEGIN IMMEDIATE`), so two processes starting a
/// timer at once serialize: the second sees the first one's session and is refused. The
/// schema's `one_running_session` index backs the rule up. Instants are absolute (`Date`,
/// stored in UTC) and truncated to whole seconds, as the store keeps them; the returned
/// sessions carry the stored values. Inside a `store.write { }` of the caller, a change
/// joins that transaction.
///
/// Threads: not `Sendable`. A tracker uses its store's SQLite connection, so it belongs to
/// the thread (or task) that uses the store, under the same rule as `LibraryStore`: never
/// from two threads at once.
public final class TimeTracker {
  /// The library the sessions are recorded in.
  public let store: LibraryStore

  /// A tracker recording sessions in `store` (which must be `.readWrite` to start or stop).
  public init(store: LibraryStore) {
    self.store = store
  }

  /// Starts a session on a project at `at`.
  ///
  /// - Parameters:
  ///   - projectID: the `Project.id` to time.
  ///   - at: when work began (truncated to whole seconds); not after `now`.
  ///   - note: a note for the session, such as `sleeve cuffs`.
  ///   - switching: when a session is running on another project, stop it at `at` and start
  ///     the new one at the same instant (no gap, no overlap) instead of refusing; a running
  ///     session that started at `at` lasted no time and is not kept. A session running on
  ///     `projectID` itself is refused as without `switching`.
  ///   - now: the present instant.
  /// - Returns: the new running session (a new lower-case UUID as its ID).
  /// - Throws: `TimeError.inFuture` when `at` is after `now`; `TimeError.alreadyRunning`
  ///   naming the running session's project and start when one runs and `switching` is false
  ///   or it runs on `projectID`;
  ///   `TimeError.endBeforeStart` when switching at an instant before the running session's
  ///   start; `TimeError.overlaps` when `at` is in the past and a recorded session ends after
  ///   it; `StoreError.notFound` when no project has `projectID`; the store's errors
  ///   (`.readOnly`, `.busy`, …).
  public func start(
    projectID: String, at: Date, note: String?, switching: Bool = false, now: Date = Date()
  ) throws -> TimeSession {
    let start = LibraryStore.truncated(at)
    let present = LibraryStore.truncated(now)
    guard start <= present else { throw TimeError.inFuture(.start, start, now: present) }
    // A session started longer ago than one may last could never be stopped.
    if let violation = Rules.length(from: start, to: present) {
      throw TimeError.brokenRule(violation)
    }
    return try store.write {
      guard try store.exists("project", id: projectID) else {
        throw StoreError.notFound(kind: .project, id: projectID)
      }
      var switched: String?
      if let running = try store.runningSession() {
        // A switch to the project already timed would only split its session in two.
        guard switching, running.projectID != projectID else {
          throw TimeError.alreadyRunning(running, projectName: try projectName(running.projectID))
        }
        try finish(running, at: start)
        switched = running.id
      }
      // A start at the present instant cannot overlap a recorded session, since none may end
      // in the future; only a start in the past is checked (which keeps `time start` from
      // reading old sessions).
      if start < present {
        try checkOverlap(start: start, end: nil, excluding: switched, now: present, subject: .new)
      }
      let session = TimeSession(
        id: Identifier.make(), projectID: projectID, start: start, end: nil, note: note)
      do {
        try store.insert(session)
      } catch StoreError.sessionAlreadyRunning(let running) {
        throw TimeError.alreadyRunning(running, projectName: try projectName(running.projectID))
      }
      return session
    }
  }

  /// Stops the running session at `at`.
  ///
  /// - Parameters:
  ///   - at: when work ended (truncated to whole seconds); not after `now`.
  ///   - now: the present instant.
  /// - Returns: the stopped session, with its end set; one stopped in the second it started
  ///   (`end == start`) lasted no time and is not kept.
  /// - Throws: `TimeError.inFuture` when `at` is after `now`; `TimeError.notRunning` when no
  ///   session runs; `TimeError.endBeforeStart` when `at` is before the running session's
  ///   start; the store's errors.
  public func stop(at: Date, now: Date = Date()) throws -> TimeSession {
    let end = LibraryStore.truncated(at)
    let present = LibraryStore.truncated(now)
    guard end <= present else { throw TimeError.inFuture(.end, end, now: present) }
    return try store.write {
      guard let running = try store.runningSession() else { throw TimeError.notRunning }
      return try finish(running, at: end)
    }
  }

  /// Records a finished session `[start, end)` on a project (`yarn time add --from --to`).
  ///
  /// - Parameters:
  ///   - projectID: the `Project.id`.
  ///   - start: when work began (truncated to whole seconds).
  ///   - end: when it ended (truncated); after `start`, not after `now`.
  ///   - note: a note for the session.
  ///   - allowOverlap: record it even when it shares time with another session.
  ///   - now: the present instant.
  /// - Returns: the new session.
  /// - Throws: `TimeError.inFuture` when `start` is after `now`; `TimeError.endNotAfterStart`;
  ///   `TimeError.inFuture` when `end` is after `now`;
  ///   `TimeError.overlaps` naming the first session it shares time with (a running session
  ///   counts until `now`) unless `allowOverlap`; `StoreError.notFound` for an unknown
  ///   project; the store's errors.
  public func add(
    projectID: String, start: Date, end: Date, note: String?, allowOverlap: Bool = false,
    now: Date = Date()
  ) throws -> TimeSession {
    let from = LibraryStore.truncated(start)
    let to = LibraryStore.truncated(end)
    let present = LibraryStore.truncated(now)
    guard from <= present else { throw TimeError.inFuture(.start, from, now: present) }
    guard to > from else { throw TimeError.endNotAfterStart(start: from, end: to) }
    guard to <= present else { throw TimeError.inFuture(.end, to, now: present) }
    if let violation = Rules.length(from: from, to: to) {
      throw TimeError.brokenRule(violation)
    }
    return try store.write {
      guard try store.exists("project", id: projectID) else {
        throw StoreError.notFound(kind: .project, id: projectID)
      }
      if !allowOverlap {
        try checkOverlap(start: from, end: to, excluding: nil, now: present, subject: .new)
      }
      let session = TimeSession(id: Identifier.make(), projectID: projectID, start: from, end: to, note: note)
      try store.insert(session)
      return session
    }
  }

  /// Records a finished session of `seconds` (`yarn time add --duration [--from]`).
  ///
  /// With `start` the session runs from `start` (truncated to whole seconds) for `seconds`.
  /// Without it, the session ends at the whole minute at or before `now` (`now` 13:15:53 ends
  /// it at 13:15:00) and starts `seconds` earlier: its end is the minute `yarn time log`
  /// shows, so typing that minute back as the start of the next session (`time start Q --at
  /// 13:15`) meets it exactly instead of overlapping it by seconds that are not shown. (Minutes
  /// are whole in UTC and in every zone of today, whose offsets are whole minutes.) No clock
  /// time is ever made up: a duration is placed at a time typed or at the present.
  ///
  /// - Parameters:
  ///   - projectID: the `Project.id`.
  ///   - seconds: the duration in whole seconds, more than zero.
  ///   - start: when work began, or `nil` for "ending just now".
  ///   - note: a note for the session.
  ///   - allowOverlap: as for `add(projectID:start:end:note:allowOverlap:now:)`.
  ///   - now: the present instant.
  /// - Returns: the new session.
  /// - Throws: as `add(projectID:start:end:note:allowOverlap:now:)` (`TimeError.inFuture`
  ///   when the session from `start` would end after `now`); `TimeError.endNotAfterStart`
  ///   for `seconds` of zero or less; `TimeError.brokenRule` for more than
  ///   `Rules.maximumSessionSeconds`.
  public func add(
    projectID: String, seconds: Int64, from start: Date? = nil, note: String?,
    allowOverlap: Bool = false, now: Date = Date()
  ) throws -> TimeSession {
    let present = LibraryStore.truncated(now)
    guard seconds > 0 else {
      throw TimeError.endNotAfterStart(start: present, end: present)
    }
    if let violation = Rules.length(seconds) { throw TimeError.brokenRule(violation) }
    let from: Date
    let to: Date
    if let start {
      from = LibraryStore.truncated(start)
      to = from.addingTimeInterval(Double(seconds))
    } else {
      to = Date(timeIntervalSince1970: (present.timeIntervalSince1970 / 60).rounded(.down) * 60)
      from = to.addingTimeInterval(-Double(seconds))
    }
    return try add(
      projectID: projectID, start: from, end: to, note: note, allowOverlap: allowOverlap, now: present)
  }

  /// Changes a recorded (or the running) session (`yarn time edit`).
  ///
  /// - Parameters:
  ///   - sessionID: the session's ID.
  ///   - start: a new start, or `nil` to keep it.
  ///   - end: a new end, or `nil` to keep it; giving one to the running session stops it.
  ///   - projectID: a new project, or `nil` to keep it.
  ///   - note: `.some(text)` to set the note, `.some(nil)` to clear it, `nil` to keep it.
  ///   - allowOverlap: accept a result that shares time with another session.
  ///   - now: the present instant.
  /// - Returns: the session as stored.
  /// - Throws: `StoreError.notFound` for an unknown session or project;
  ///   `TimeError.endNotAfterStart` when the result would not end after it starts (a running
  ///   session may not start after `now`); `TimeError.inFuture` for a start or an end after
  ///   `now`; `TimeError.overlaps` unless `allowOverlap`; the store's errors.
  public func edit(
    sessionID: String, start: Date? = nil, end: Date? = nil, projectID: String? = nil,
    note: String?? = nil, allowOverlap: Bool = false, now: Date = Date()
  ) throws -> TimeSession {
    let present = LibraryStore.truncated(now)
    return try store.write {
      guard var session = try store.session(id: sessionID) else {
        throw StoreError.notFound(kind: .session, id: sessionID)
      }
      if let start { session.start = LibraryStore.truncated(start) }
      if let end { session.end = LibraryStore.truncated(end) }
      if let projectID {
        guard try store.exists("project", id: projectID) else {
          throw StoreError.notFound(kind: .project, id: projectID)
        }
        session.projectID = projectID
      }
      if let note { session.note = note }
      // The time rules are checked when the times change: a note or a project can be set on a
      // session recorded before a rule existed (such as one of no time).
      if start != nil || end != nil {
        guard session.start <= present else { throw TimeError.inFuture(.start, session.start, now: present) }
        if let end = session.end {
          guard end > session.start else { throw TimeError.endNotAfterStart(start: session.start, end: end) }
          guard end <= present else { throw TimeError.inFuture(.end, end, now: present) }
          if let violation = Rules.length(from: session.start, to: end) {
            throw TimeError.brokenRule(violation)
          }
        } else if let violation = Rules.length(from: session.start, to: present) {
          throw TimeError.brokenRule(violation)
        }
        if !allowOverlap {
          try checkOverlap(
            start: session.start, end: session.end, excluding: session.id, now: present, subject: .edited)
        }
      }
      try store.update(session)
      return session
    }
  }

  /// Deletes a session (`yarn time rm`).
  ///
  /// - Returns: the session deleted.
  /// - Throws: `StoreError.notFound` when no session has `sessionID`; the store's errors.
  public func remove(sessionID: String) throws -> TimeSession {
    try store.write {
      guard let session = try store.session(id: sessionID) else {
        throw StoreError.notFound(kind: .session, id: sessionID)
      }
      try store.deleteSession(id: session.id)
      return session
    }
  }

  /// The session `reference` names: its full ID, or a unique prefix of its ID of at least 4
  /// characters (case-insensitive), as tables show the first 8.
  ///
  /// - Throws: `TimeError.sessionNotFound`; `TimeError.ambiguousSession` listing the IDs
  ///   that begin with the prefix; the store's errors.
  package func session(matching reference: String) throws -> TimeSession {
    let wanted = reference.trimmingSpaces()
    guard !wanted.isEmpty else { throw TimeError.sessionNotFound(reference: reference) }
    let found = try store.sessions(idPrefix: wanted, limit: 10)
    if found.count == 1, found[0].id == wanted || wanted.count >= 4 { return found[0] }
    guard wanted.count >= 4, found.count > 1 else { throw TimeError.sessionNotFound(reference: reference) }
    throw TimeError.ambiguousSession(reference: reference, ids: found.map(\.id))
  }

  /// Deletes the running session without recording it (`yarn time cancel`).
  ///
  /// - Returns: the session that was deleted.
  /// - Throws: `TimeError.notRunning` when no session runs; the store's errors.
  public func cancel() throws -> TimeSession {
    try store.write {
      guard let running = try store.runningSession() else { throw TimeError.notRunning }
      try store.deleteSession(id: running.id)
      return running
    }
  }

  /// The running session and its project's name (one row each, found by index), or `nil` when
  /// no session runs.
  ///
  /// - Parameter now: the present instant, from which callers compute the elapsed time
  ///   (`session.seconds(now:)`) and the forgotten-timer warning (`isLikelyForgotten`).
  /// - Throws: the store's errors; `StoreError.missingReference` if the session's project is
  ///   gone (the schema's foreign key makes that impossible in a sound database).
  public func status(now: Date) throws -> (session: TimeSession, projectName: String)? {
    try store.read {
      guard let running = try store.runningSession() else { return nil }
      guard let name = try store.projectName(id: running.projectID) else {
        throw StoreError.missingReference(
          kind: .project, id: running.projectID, from: .session, fromID: running.id)
      }
      return (running, name)
    }
  }

  /// A timer running longer than this (12 hours) is likely forgotten: no knitting session
  /// runs that long, and a timer left on overnight would otherwise pass unnoticed.
  public static let forgottenAfterSeconds: Int64 = 12 * 3600

  /// Whether `session` is running and has run longer than `forgottenAfterSeconds` at `now`.
  public static func isLikelyForgotten(_ session: TimeSession, now: Date) -> Bool {
    session.isRunning && session.seconds(now: now) > forgottenAfterSeconds
  }

  @discardableResult
  /// Ends `running` at `end`. A session stopped in the second it started lasted no time: it is
  /// deleted rather than recorded (every recorded session ends after it starts), and returned
  /// with `end == start`.
  private func finish(_ running: TimeSession, at end: Date) throws -> TimeSession {
    guard end >= running.start else { throw TimeError.endBeforeStart(running, end: end) }
    if let violation = Rules.length(from: running.start, to: end) {
      throw TimeError.brokenRule(violation)
    }
    var stopped = running
    stopped.end = end
    if end == running.start {
      try store.deleteSession(id: running.id)
    } else {
      try store.update(stopped)
    }
    return stopped
  }

  /// Throws `TimeError.overlaps` for the first session (by start) other than `excluding`
  /// that shares an instant with `[start, end)` (`TimeSession.overlaps(_:now:)`), naming
  /// `[start, end)` as `subject`; `end == nil` is a running session, counting until `now` (no
  /// recorded session ends later).
  private func checkOverlap(
    start: Date, end: Date?, excluding: String?, now: Date, subject: TimeError.Subject
  ) throws {
    let candidate = TimeSession(id: excluding ?? "", projectID: "", start: start, end: end)
    for other in try store.sessions(from: start, to: end)
    where other.id != excluding && candidate.overlaps(other, now: now) {
      throw TimeError.overlaps(other, projectName: try projectName(other.projectID), subject: subject)
    }
  }

  private func projectName(_ id: String) throws -> String {
    try store.projectName(id: id) ?? id
  }
}

/// An error of a `TimeTracker` rule. Instants in messages are ISO 8601 UTC; the CLI shows
/// them in local time.
public enum TimeError: Error, Sendable, CustomStringConvertible {
  /// Which end of a session an instant is.
  public typealias Edge = Rules.Edge

  /// The session a rule refuses, as the error's words name it.
  public enum Subject: String, Sendable {
    /// One being recorded (`start`, `add`): `the new session`.
    case new = "the new session"
    /// One being changed (`edit`): `the edited session`.
    case edited = "the edited session"
  }

  /// Thrown by `start` when a session is already running (and not switching, or on the
  /// project being started): the running session and its project's name.
  case alreadyRunning(TimeSession, projectName: String)
  /// Thrown by `stop` and `cancel` when no session is running.
  case notRunning
  /// Thrown when the running session would end (at `end`) before it started.
  case endBeforeStart(TimeSession, end: Date)
  /// Thrown by `add` and `edit` when a session would not end after it starts.
  case endNotAfterStart(start: Date, end: Date)
  /// Thrown when a session would start or end after the present instant `now`.
  case inFuture(Edge, Date, now: Date)
  /// Thrown when a session (`subject`: the new or the edited one) would share time with
  /// another one: that session and its project's name.
  case overlaps(TimeSession, projectName: String, subject: Subject)
  /// Thrown when the session would break a rule of the model (`Rules`): it would last longer
  /// than `Rules.maximumSessionSeconds` (`add`, `edit`, `stop`, and `start` at an instant
  /// longer ago than that).
  case brokenRule(RuleViolation)
  /// Thrown when no session has the ID or ID prefix `reference` (or the prefix is shorter
  /// than 4 characters).
  case sessionNotFound(reference: String)
  /// Thrown when several sessions' IDs begin with `reference`: their IDs.
  case ambiguousSession(reference: String, ids: [String])

  /// A lower-case sentence, such as `no timer is running`; instants in it are ISO 8601 UTC
  /// (`2026-03-29T14:30:00Z`) and durations `h:mm`.
  public var description: String {
    switch self {
    case .alreadyRunning(let session, let projectName):
      return "a timer is already running on \(LineText.quoted(projectName)) since "
        + "\(JSONCoding.formatInstant(session.start)) (session \(Rules.shown(id: session.id)))"
    case .notRunning:
      return "no timer is running"
    case .endBeforeStart(let session, let end):
      return "the session on project \(Rules.shown(id: session.projectID)) would end at "
        + "\(JSONCoding.formatInstant(end)), before it started at "
        + "\(JSONCoding.formatInstant(session.start))"
    case .endNotAfterStart(let start, let end):
      return "the session's \(Rules.endNotAfterStart(start: start, end: end))"
    case .inFuture(let edge, let instant, let now):
      return "the \(Rules.future(edge, instant, now: now))"
    case .brokenRule(let violation):
      return "the session's \(violation)"
    case .overlaps(let session, let projectName, let subject):
      return "\(subject.rawValue) "
        + TimeError.overlapping(
          session, projectName: projectName, instant: JSONCoding.formatInstant,
          id: Rules.shown(id: session.id))
    case .sessionNotFound(let reference):
      if let tooShort = Lookup.tooShortIDPrefix(reference, kind: "session") { return tooShort }
      return "no session has the id or id prefix \(LineText.quoted(LineText.shortened(reference)))"
    case .ambiguousSession(let reference, let ids):
      return
        "\(LineText.quoted(reference)) begins the ids of \(ids.count) sessions: \(ids.joined(separator: ", "))"
    }
  }

  /// The words of `.overlaps` after its subject: `overlaps the session on "Flax" from START
  /// to END (session ID)`, END `now (running)` for a running session; the instants written by
  /// `instant` (ISO 8601 UTC here, local time in `yarn`), the session shown as `id`. A
  /// restore's and an import's conflicts say them of `it`, the session they would add.
  package static func overlapping(
    _ session: TimeSession, projectName: String, instant: (Date) -> String, id: String
  ) -> String {
    "overlaps the session on \(LineText.quoted(projectName)) from \(instant(session.start)) "
      + "to \(session.end.map(instant) ?? "now (running)") (session \(id))"
  }
}
