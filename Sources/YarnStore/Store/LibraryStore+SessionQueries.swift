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
  /// - Throws: `StoreError.invalidData` for a row that cannot be read back; `.busy`,
  ///   `.closed`, `.database`.
  public func sessions(from start: Date?, to end: Date?, projectID: String? = nil) throws -> [TimeSession] {
    var conditions: [String] = []
    var values: [SQLValue] = []
    if let end {
      conditions.append("start_time < ?")
      values.append(.integer(Int64(end.timeIntervalSince1970.rounded(.down))))
    }
    if let start {
      let seconds = Int64(start.timeIntervalSince1970.rounded(.down))
      conditions.append("(end_time IS NULL OR end_time > ? OR (end_time = start_time AND start_time >= ?))")
      values.append(.integer(seconds))
      values.append(.integer(seconds))
    }
    if let projectID {
      conditions.append("project_id = ?")
      values.append(.text(projectID))
    }
    let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
    return try read {
      try connection.query(
        "SELECT \(LibraryStore.sessionColumns) FROM time_session\(filter) ORDER BY start_time, seq", values
      ) { try session(from: $0) }
    }
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

  /// The number of sessions recorded.
  ///
  /// - Throws: `StoreError.busy`, `.closed`, `.database`.
  func sessionCount() throws -> Int {
    try read { Int(try connection.integer("SELECT count(*) FROM time_session") ?? 0) }
  }
}
