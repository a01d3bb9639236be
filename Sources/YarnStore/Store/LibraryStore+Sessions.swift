import CSQLite
import YarnModel

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension LibraryStore {
  static let sessionColumns = "id, project_id, start_time, end_time, note"

  /// Time sessions ordered by start (then creation), all of them or those of one project.
  ///
  /// - Parameter projectID: a `Project.id`, or `nil` for every project.
  /// - Throws: `StoreError.invalidData` for a row that cannot be read back; `.busy`,
  ///   `.closed`, `.database`.
  public func sessions(projectID: String? = nil) throws -> [TimeSession] {
    try read {
      if let projectID {
        return try connection.query(
          """
          SELECT \(LibraryStore.sessionColumns) FROM time_session WHERE project_id = ?
          ORDER BY start_time, seq
          """, [.text(projectID)]
        ) { try session(from: $0) }
      }
      return try connection.query(
        "SELECT \(LibraryStore.sessionColumns) FROM time_session ORDER BY start_time, seq"
      ) { try session(from: $0) }
    }
  }

  /// Every session in creation order, as a `Library` lists them.
  func sessionsInCreationOrder() throws -> [TimeSession] {
    var out: [TimeSession] = []
    try forEachSessionInCreationOrder { out.append($0) }
    return out
  }

  /// Hands each session to `body` in creation order (as a `Library` lists them, not by
  /// start) as it is read, so memory stays flat however many there are; all in one read
  /// transaction.
  ///
  /// - Throws: what `body` throws (which stops the walk); `StoreError.invalidData` for a row
  ///   that cannot be read back; `.busy`, `.closed`, `.database`.
  public func forEachSessionInCreationOrder(_ body: (TimeSession) throws -> Void) throws {
    try read {
      try connection.forEach(
        "SELECT \(LibraryStore.sessionColumns) FROM time_session ORDER BY seq"
      ) { try body(try session(from: $0)) }
    }
  }

  /// The running session (no end), or `nil`. The schema allows at most one.
  ///
  /// - Throws: `StoreError.invalidData` for a row that cannot be read back; `.busy`,
  ///   `.closed`, `.database`.
  public func runningSession() throws -> TimeSession? {
    try read {
      try connection.query(
        "SELECT \(LibraryStore.sessionColumns) FROM time_session WHERE end_time IS NULL"
      ) { try session(from: $0) }.first
    }
  }

  /// The session that started last (the latest start; of those, the last created), running
  /// or not, or `nil` when there is none: what `yarn time continue` continues.
  ///
  /// - Throws: `StoreError.invalidData` for a row that cannot be read back; `.busy`,
  ///   `.closed`, `.database`.
  public func latestSession() throws -> TimeSession? {
    try read {
      try connection.query(
        "SELECT \(LibraryStore.sessionColumns) FROM time_session ORDER BY start_time DESC, seq DESC LIMIT 1"
      ) { try session(from: $0) }.first
    }
  }

  /// Adds `session`. Its instants are stored as whole Unix seconds, truncated.
  ///
  /// - Throws: `StoreError.sessionAlreadyRunning` (carrying the running one) when `session`
  ///   has no end and another session is running: the schema's unique partial index
  ///   `one_running_session` refuses it; `.duplicateID` when its ID is taken;
  ///   `.missingReference` when its project is not in the library; `.brokenRule` when it
  ///   breaks a rule of `Rules` at `clock()` (a blank ID, it ends before it starts, lasts longer than
  ///   `Rules.maximumSessionSeconds`, starts or ends in the future, a note that is not one
  ///   line); `.readOnly`, `.busy`, `.closed`, `.database`.
  public func insert(_ session: TimeSession) throws {
    try write {
      try LibraryStore.refuseNew(id: session.id, kind: .session)
      if try exists("time_session", id: session.id) {
        throw StoreError.duplicateID(kind: .session, id: session.id)
      }
      let bound = try values(of: session)
      try refusingSecondRunning {
        try connection.run(
          "INSERT INTO time_session (\(LibraryStore.sessionColumns)) VALUES (?, ?, ?, ?, ?)",
          bound)
      }
    }
  }

  /// Replaces the stored session that has `session.id`.
  ///
  /// - Throws: `StoreError.notFound` when no session has that ID; otherwise as `insert(_:)`.
  public func update(_ session: TimeSession) throws {
    try write {
      var bound = try values(of: session)
      bound.append(bound.removeFirst())  // the ID goes last, into WHERE
      try refusingSecondRunning {
        try connection.run(
          """
          UPDATE time_session SET project_id = ?, start_time = ?, end_time = ?, note = ?
          WHERE id = ?
          """, bound)
      }
      guard connection.changes == 1 else {
        throw StoreError.notFound(kind: .session, id: session.id)
      }
    }
  }

  /// Deletes the session with `id`.
  ///
  /// - Throws: `StoreError.notFound` when no session has that ID; `.readOnly`, `.busy`,
  ///   `.closed`, `.database`.
  public func deleteSession(id: String) throws {
    try write {
      try connection.run("DELETE FROM time_session WHERE id = ?", [.text(id)])
      guard connection.changes == 1 else { throw StoreError.notFound(kind: .session, id: id) }
    }
  }

  // MARK: Rows

  /// Runs `body`, turning a violation of the `one_running_session` index into
  /// `StoreError.sessionAlreadyRunning` carrying the running session.
  private func refusingSecondRunning(_ body: () throws -> Void) throws {
    do {
      try body()
    } catch let error as DatabaseError
      where error.extendedCode == LibraryStore.constraintUnique
      && error.message.contains("one_running_session")
    {
      guard let running = try runningSession() else { throw StoreError.database(error) }
      throw StoreError.sessionAlreadyRunning(running)
    }
  }

  /// SQLITE_CONSTRAINT_UNIQUE, (SQLITE_CONSTRAINT | (8 << 8)), a macro Swift does not import.
  static let constraintUnique: Int32 = SQLITE_CONSTRAINT | (8 << 8)

  private func values(of session: TimeSession) throws -> [SQLValue] {
    let row = RowWriter(kind: .session, id: session.id)
    try LibraryStore.refuse(session.ruleViolations(now: clock()), kind: .session, id: session.id)
    guard try exists("project", id: session.projectID) else {
      throw StoreError.missingReference(
        kind: .project, id: session.projectID, from: .session, fromID: session.id)
    }
    let start = try row.instant(session.start)
    let end = try row.instant(session.end)
    return [.text(session.id), .text(session.projectID), start, end, .text(session.note)]
  }

  func session(from statement: Statement) throws -> TimeSession {
    var row = RowReader(statement, kind: .session)
    let id = try row.id()
    let projectID = try row.text()
    let start = try row.instant()
    let end = try row.optionalInstant()
    let note = row.optionalText()
    return TimeSession(id: id, projectID: projectID, start: start, end: end, note: note)
  }
}
