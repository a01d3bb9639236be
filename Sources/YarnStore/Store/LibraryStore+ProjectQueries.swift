import YarnModel

// Queries that read projects without their parts, or only some projects (issue 13): the
// year's finished projects through the `project_by_finished` index, names for a reference.

extension LibraryStore {
  /// The projects whose status is `finished` and whose finished day falls in `year`, each
  /// with its usages, photos and pattern, in creation order.
  ///
  /// - Parameter year: the year of the finished day, such as 2026; outside 1...9999 there
  ///   are none.
  /// - Complexity: O(k log n) for the k projects finished in the year, through the
  ///   `project_by_finished` index.
  /// - Throws: `StoreError.invalidData` for a row that cannot be read back; `.busy`,
  ///   `.closed`, `.database`.
  public func projects(finishedIn year: Int) throws -> [Project] {
    guard (1...9999).contains(year) else { return [] }
    let prefix = String(repeating: "0", count: 4 - String(year).count) + String(year)
    return try read {
      let ids = try connection.query(
        """
        SELECT id FROM project WHERE status = 'finished' AND finished >= ? AND finished <= ?
        ORDER BY seq
        """, [.text(prefix + "-01-01"), .text(prefix + "-12-31")]
      ) { $0.text(0) ?? "" }
      return try ids.compactMap { try project(id: $0) }
    }
  }
}
