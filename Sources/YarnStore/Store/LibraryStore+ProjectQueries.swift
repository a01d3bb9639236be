import YarnModel

// Queries that read projects without their parts, or only some projects (issue 13): the
// period's finished projects through the `project_by_finished` index, names for a reference.

extension LibraryStore {
  /// The projects whose status is `finished` and whose finished day falls in `first` through
  /// `last` (both included), each with its usages, photos and pattern, in creation order.
  ///
  /// - Parameters:
  ///   - first: the first day, such as 2026-01-01.
  ///   - last: the last day, included, such as 2026-12-31; before `first` there are none.
  /// - Complexity: O(k log n) for the k projects finished in the days, through the
  ///   `project_by_finished` index.
  /// - Throws: `StoreError.invalidData` for a row that cannot be read back; `.busy`,
  ///   `.closed`, `.database`.
  public func projects(finishedFrom first: CalendarDate, through last: CalendarDate) throws -> [Project] {
    try read {
      // Finished days are stored as `YYYY-MM-DD` text, which sorts as the days do.
      let ids = try connection.query(
        """
        SELECT id FROM project WHERE status = 'finished' AND finished >= ? AND finished <= ?
        ORDER BY seq
        """, [.text(first.iso8601), .text(last.iso8601)]
      ) { $0.text(0) ?? "" }
      return try ids.compactMap { try project(id: $0) }
    }
  }
}
