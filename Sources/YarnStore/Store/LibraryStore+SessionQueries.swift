import YarnModel

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// Range and prefix queries over time sessions, for `yarn time` (issue 6): they read only the
// rows asked for, through the `time_session_by_start` index where a range is bounded.

extension LibraryStore {
  /// The sessions that share some instant with `[start, end)`: those that start before
  /// `end` and end after `start` (a running one counts as reaching on forever), ordered by
  /// start, then creation. A session merely touching the range (ending at `start`) is not in
  /// it; a zero-length session inside it is.
  ///
  /// - Parameters:
  ///   - start: the range's first instant (truncated to whole seconds), or `nil` for no
  ///     lower bound.
  ///   - end: the instant after the range (truncated to whole seconds), or `nil` for no
  ///     upper bound. For whole local days, pass the first instant of the first day and of
  ///     the day after the last, as Foundation's `Calendar.startOfDay(for:)` gives them.
  ///   - projectID: only this project's sessions, or `nil` for all.
  /// - Complexity: as `forEachSession(from:to:projectID:_:)`, and the sessions are held in
  ///   memory.
  /// - Throws: `StoreError.invalidData` for a row that cannot be read back; `.busy`,
  ///   `.closed`, `.database`.
  public func sessions(from start: Date?, to end: Date?, projectID: String? = nil) throws -> [TimeSession] {
    var out: [TimeSession] = []
    try forEachSession(from: start, to: end, projectID: projectID) { session, _ in out.append(session) }
    return out
  }

  /// Hands each session that shares some instant with `[start, end)` to `body` as it is
  /// read, with its project's name, in the order and by the rules of
  /// `sessions(from:to:projectID:)`; all in one read transaction, so memory does not grow
  /// with the number of sessions. `body` may read from the store.
  ///
  /// The range is read through the `time_session_by_start` index: from `end` back to
  /// `start` less the longest closed session (read from the `time_session_by_length`
  /// index), or back to the running session's start when that is earlier, since no session
  /// that began before both can reach `start`.
  ///
  /// - Parameters:
  ///   - start: the range's first instant (UTC, truncated to whole seconds), or `nil`.
  ///   - end: the instant after the range (UTC, truncated to whole seconds), or `nil`.
  ///   - projectID: only this project's sessions, or `nil` for all.
  ///   - namingProjects: whether to look each session's project name up (a join); when
  ///     `false` (reports, which name projects once at the end) `body` gets the project's ID.
  ///   - body: called with each session and its project's name (the project's ID if the
  ///     project is missing, which the schema's foreign key does not allow).
  /// - Complexity: O(k log n) for k sessions read out of n: those of the range, and those
  ///   that start within the longest session's length before it.
  /// - Throws: what `body` throws (which stops the walk); `StoreError.invalidData` for a row
  ///   that cannot be read back; `.busy`, `.closed`, `.database`.
  public func forEachSession(
    from start: Date?, to end: Date?, projectID: String? = nil, namingProjects: Bool = true,
    _ body: (_ session: TimeSession, _ projectName: String) throws -> Void
  ) throws {
    try read {
      var conditions: [String] = []
      var values: [SQLValue] = []
      if let end {
        conditions.append("s.start_time < ?")
        values.append(.integer(LibraryStore.wholeSeconds(end)))
      }
      if let start {
        let seconds = LibraryStore.wholeSeconds(start)
        conditions.append("s.start_time >= ?")
        values.append(.integer(try earliestStart(reaching: seconds)))
        conditions.append(
          "(s.end_time IS NULL OR s.end_time > ? OR (s.end_time = s.start_time AND s.start_time >= ?))")
        values.append(.integer(seconds))
        values.append(.integer(seconds))
      }
      if let projectID {
        conditions.append("s.project_id = ?")
        values.append(.text(projectID))
      }
      let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
      let join =
        namingProjects
        ? ", p.name FROM time_session AS s LEFT JOIN project AS p ON p.id = s.project_id"
        : " FROM time_session AS s"
      try connection.forEach(
        "SELECT s.id, s.project_id, s.start_time, s.end_time, s.note\(join)\(filter) ORDER BY s.start_time, s.seq",
        values
      ) { statement in
        let session = try session(from: statement)
        try body(session, (namingProjects ? statement.text(5) : nil) ?? session.projectID)
      }
    }
  }

  /// The earliest start a session reaching past `seconds` (Unix seconds) can have: `seconds`
  /// less the longest closed session's length, or the running session's start when earlier.
  /// Two index look-ups.
  private func earliestStart(reaching seconds: Int64) throws -> Int64 {
    let longest = try connection.integer("SELECT max(end_time - start_time) FROM time_session") ?? 0
    var earliest = seconds - max(0, longest)
    if let running = try connection.integer("SELECT start_time FROM time_session WHERE end_time IS NULL") {
      earliest = min(earliest, running)
    }
    return earliest
  }

  /// Whole seconds logged on the project with `projectID`, every session it has: the closed
  /// ones summed by SQL over the `time_session_by_project` index, and a running one counted
  /// until `now` (`TimeSession.seconds(now:)`, never negative).
  ///
  /// - Parameters:
  ///   - projectID: a `Project.id`; an unknown one has no time (0).
  ///   - now: where a running session ends.
  /// - Complexity: O(k log n) for the project's k sessions.
  /// - Throws: `StoreError.invalidData` for a running row that cannot be read back; `.busy`,
  ///   `.closed`, `.database`.
  public func loggedSeconds(projectID: String, now: Date) throws -> Int64 {
    try read {
      let closed =
        try connection.integer(
          "SELECT sum(end_time - start_time) FROM time_session WHERE project_id = ? AND end_time IS NOT NULL",
          [.text(projectID)]) ?? 0
      guard let running = try runningSession(), running.projectID == projectID else { return closed }
      return closed + running.seconds(now: max(now, running.start))
    }
  }

  /// Whole seconds logged per project (by `Project.id`), every session: the closed ones
  /// summed by one grouped SQL query (no session is read out), and the running one counted
  /// until `now` (`TimeSession.seconds(now:)`) or left out when `now` is `nil`. A project
  /// with no session has no entry.
  ///
  /// - Parameter now: where a running session ends, or `nil` to count only closed sessions.
  /// - Complexity: O(n) for n sessions, in SQLite; memory holds one total per project.
  /// - Throws: `StoreError.invalidData` for a running row that cannot be read back; `.busy`,
  ///   `.closed`, `.database`.
  public func loggedSecondsByProject(countingRunningUntil now: Date?) throws -> [String: Int64] {
    try read {
      var totals: [String: Int64] = [:]
      try connection.forEach(
        """
        SELECT project_id, sum(end_time - start_time) FROM time_session WHERE end_time IS NOT NULL
        GROUP BY project_id
        """
      ) { totals[$0.text(0) ?? "", default: 0] += $0.int64(1) }
      if let now, let running = try runningSession() {
        totals[running.projectID, default: 0] += running.seconds(now: now)
      }
      return totals
    }
  }

  /// The names of the projects with the given IDs, each found by its ID (the `id` column's
  /// unique index); an ID no project has is left out.
  ///
  /// - Complexity: O(k log n) for k IDs.
  /// - Throws: `StoreError.busy`, `.closed`, `.database`.
  public func projectNames(ids: some Sequence<String>) throws -> [String: String] {
    try read {
      var names: [String: String] = [:]
      for id in ids where names[id] == nil { names[id] = try projectName(id: id) }
      return names
    }
  }

  static func wholeSeconds(_ instant: Date) -> Int64 {
    Int64(instant.timeIntervalSince1970.rounded(.down))
  }

  /// The sessions whose ID begins with `prefix` (case-insensitive), at most `limit` of them,
  /// in creation order; an exact ID match comes first.
  ///
  /// - Throws: `StoreError.busy`, `.closed`, `.database`.
  package func sessions(idPrefix prefix: String, limit: Int = 10) throws -> [TimeSession] {
    try read {
      try ids(in: "time_session", prefix: prefix, limit: limit).compactMap { try session(id: $0) }
    }
  }

  /// The IDs of `table` (`time_session`, `note`) that `prefix` names: the exact ID alone when
  /// there is one, else those that begin with `prefix` (case-insensitive), at most `limit`, in
  /// creation order.
  func ids(in table: String, prefix: String, limit: Int) throws -> [String] {
    if try connection.integer("SELECT count(*) FROM \(table) WHERE id = ?", [.text(prefix)]) == 1 {
      return [prefix]
    }
    // substr comparison rather than LIKE: `%` and `_` in the prefix are plain characters.
    let lowered = prefix.lowercased()
    return try connection.query(
      "SELECT id FROM \(table) WHERE lower(substr(id, 1, ?)) = ? ORDER BY seq LIMIT ?",
      [.integer(Int64(lowered.count)), .text(lowered), .integer(Int64(max(1, limit)))]
    ) { $0.text(0) ?? "" }
  }

  /// The session with `id`, or `nil`.
  ///
  /// - Throws: `StoreError.invalidData` for a row that cannot be read back; `.busy`,
  ///   `.closed`, `.database`.
  public func session(id: String) throws -> TimeSession? {
    try read {
      try connection.query(
        "SELECT \(LibraryStore.sessionColumns) FROM time_session WHERE id = ?", [.text(id)]
      ) { try session(from: $0) }.first
    }
  }
}
