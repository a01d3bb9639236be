import Foundation

/// Starts and stops the timer on a project: the rules of DESIGN.md "Time tracking" over a
/// `LibraryStore`.
///
/// Every change runs in one `store.write` (`BEGIN IMMEDIATE`), so two processes starting a
/// timer at once serialize: the second sees the first one's session and is refused. The
/// schema's `one_running_session` index backs the rule up. Instants are truncated to whole
/// seconds, as the store keeps them; the returned sessions carry the stored values.
///
/// Not `Sendable`: it uses the store's connection.
public struct TimeTracker {
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
  ///   - at: when work began (truncated to whole seconds).
  ///   - note: a note for the session, such as `sleeve cuffs`.
  ///   - switching: when a session is running, stop it at `at` and start the new one at the
  ///     same instant (no gap, no overlap) instead of refusing.
  /// - Returns: the new running session (a new lower-case UUID as its ID).
  /// - Throws: `TimeError.alreadyRunning` naming the running session's project and start when
  ///   one runs and `switching` is false; `TimeError.endBeforeStart` when switching at an
  ///   instant before the running session's start; `StoreError.notFound` when no project has
  ///   `projectID`; the store's errors (`.readOnly`, `.busy`, …).
  public func start(projectID: String, at: Date, note: String?, switching: Bool = false) throws
    -> TimeSession
  {
    let start = LibraryStore.truncated(at)
    return try store.write {
      guard try store.exists("project", id: projectID) else {
        throw StoreError.notFound(kind: .project, id: projectID)
      }
      if let running = try store.runningSession() {
        guard switching else {
          throw TimeError.alreadyRunning(running, projectName: try projectName(running.projectID))
        }
        try finish(running, at: start)
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
  /// - Parameter at: when work ended (truncated to whole seconds).
  /// - Returns: the stopped session, with its end set.
  /// - Throws: `TimeError.notRunning` when no session runs; `TimeError.endBeforeStart` when
  ///   `at` is before the running session's start; the store's errors.
  public func stop(at: Date) throws -> TimeSession {
    try store.write {
      guard let running = try store.runningSession() else { throw TimeError.notRunning }
      return try finish(running, at: LibraryStore.truncated(at))
    }
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

  /// The running session and its project, or `nil` when no session runs.
  ///
  /// - Parameter now: the present instant. Finding the session does not need it; callers
  ///   pass it so that the elapsed time (`session.seconds(now:)`) and, in a later version,
  ///   the forgotten-timer warning of issue 6 are computed from one instant.
  /// - Throws: the store's errors; `StoreError.missingReference` if the session's project is
  ///   gone (the schema's foreign key makes that impossible in a sound database).
  public func status(now: Date) throws -> (session: TimeSession, project: Project)? {
    try store.read {
      guard let running = try store.runningSession() else { return nil }
      guard let project = try store.project(id: running.projectID) else {
        throw StoreError.missingReference(
          kind: .project, id: running.projectID, from: .session, fromID: running.id)
      }
      return (running, project)
    }
  }

  @discardableResult
  private func finish(_ running: TimeSession, at end: Date) throws -> TimeSession {
    guard end >= running.start else { throw TimeError.endBeforeStart(running, end: end) }
    var stopped = running
    stopped.end = end
    try store.update(stopped)
    return stopped
  }

  private func projectName(_ id: String) throws -> String {
    try store.project(id: id)?.name ?? id
  }
}

/// An error of a `TimeTracker` rule.
public enum TimeError: Error, CustomStringConvertible {
  /// Thrown by `start` when a session is already running (and not switching): the running
  /// session and its project's name.
  case alreadyRunning(TimeSession, projectName: String)
  /// Thrown by `stop` and `cancel` when no session is running.
  case notRunning
  /// Thrown when a session would end (at `end`) before it started.
  case endBeforeStart(TimeSession, end: Date)

  public var description: String {
    switch self {
    case .alreadyRunning(let session, let projectName):
      return "a timer is already running on \"\(projectName)\" since "
        + "\(JSONCoding.formatInstant(session.start)) (session \(session.id))"
    case .notRunning:
      return "no timer is running"
    case .endBeforeStart(let session, let end):
      return "the session on project \(session.projectID) would end at "
        + "\(JSONCoding.formatInstant(end)), before it started at "
        + "\(JSONCoding.formatInstant(session.start))"
    }
  }
}
