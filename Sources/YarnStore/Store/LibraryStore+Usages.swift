import YarnModel

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// The remaining estimate from the store (issue 13): one yarn's usages come from the
// `yarn_usage_by_yarn` index, joined to `project` for its status, order and name; a list's
// counted usages come from one query over the usages, grouped by yarn. Never a scan of every
// project per yarn.

extension LibraryStore {
  /// The SQL condition on `column` (a project's status) that holds for exactly the statuses
  /// whose usages count: made from `ProjectStatus.countsAgainstStash(includeActive:)`, the
  /// one statement of the rule, as an OR of equalities (the schema's form of a list), or
  /// `0` when none counts.
  static func countedStatusCondition(_ column: String, includeActive: Bool) -> String {
    let statuses = ProjectStatus.allCases.filter {
      $0.countsAgainstStash(includeActive: includeActive)
    }
    guard !statuses.isEmpty else { return "0" }
    return "(" + statuses.map { "\(column) = '\($0.rawValue)'" }.joined(separator: " OR ") + ")"
  }

  /// The usages counted against the yarn `yarnID`, in project creation order then position:
  /// those of the projects whose status `countsAgainstStash(includeActive:)` (finished, and
  /// in progress with `includeActive`). The same list as `Library.usages(of:includeActive:)`
  /// of the whole library, read by the yarn's index.
  ///
  /// - Parameters:
  ///   - yarnID: the yarn's ID; a yarn no project uses (or no yarn at all) has none.
  ///   - includeActive: count the usages of projects in progress too.
  /// - Complexity: O(u log u) for the yarn's u usages; independent of the number of yarns and
  ///   projects.
  /// - Throws: `StoreError.invalidData` for a usage whose amount cannot be read back;
  ///   `.busy`, `.closed`, `.database`.
  public func countedUsages(ofYarn yarnID: String, includeActive: Bool = false) throws
    -> [RemainingEstimate.CountedUsage]
  {
    try read {
      try connection.query(
        """
        SELECT u.project_id, u.amount_value, u.amount_unit FROM yarn_usage u
        JOIN project p ON p.id = u.project_id
        WHERE u.yarn_id = ? AND \(LibraryStore.countedStatusCondition("p.status", includeActive: includeActive))
        ORDER BY p.seq, u.position
        """, [.text(yarnID)]
      ) { statement in
        var row = RowReader(statement, kind: .project)
        let projectID = try row.id()
        return RemainingEstimate.CountedUsage(projectID: projectID, amount: try row.requiredAmount())
      }
    }
  }

  /// Every yarn's counted usages, by yarn ID, from one query: each list as
  /// `countedUsages(ofYarn:includeActive:)` gives it (project creation order, then position).
  /// A yarn with no counted usage has no entry.
  ///
  /// For lists and exports that walk the stash (`forEachYarn`) and need every yarn's estimate.
  ///
  /// - Parameter includeActive: count the usages of projects in progress too.
  /// - Complexity: O(u log u) time and O(u) memory for the u counted usages of the library;
  ///   independent of the number of yarns times projects.
  /// - Throws: the errors of `countedUsages(ofYarn:includeActive:)`.
  public func countedUsagesByYarn(includeActive: Bool = false) throws
    -> [String: [RemainingEstimate.CountedUsage]]
  {
    try read {
      var out: [String: [RemainingEstimate.CountedUsage]] = [:]
      try connection.forEach(
        """
        SELECT u.project_id, u.yarn_id, u.amount_value, u.amount_unit FROM yarn_usage u
        JOIN project p ON p.id = u.project_id
        WHERE \(LibraryStore.countedStatusCondition("p.status", includeActive: includeActive))
        ORDER BY p.seq, u.position
        """
      ) { statement in
        var row = RowReader(statement, kind: .project)
        let projectID = try row.id()
        let yarnID = try row.text()
        out[yarnID, default: []].append(
          RemainingEstimate.CountedUsage(projectID: projectID, amount: try row.requiredAmount()))
      }
      return out
    }
  }

  /// The remaining estimate of `yarn` against the stored projects: the same figure as
  /// `Library.remaining(of:includeActive:)` of the whole library, from the yarn's usages only.
  ///
  /// - Parameters:
  ///   - yarn: the yarn (its quantity, override and put-up; its ID finds the usages).
  ///   - includeActive: count the usages of projects in progress too.
  /// - Complexity: that of `countedUsages(ofYarn:includeActive:)`.
  /// - Throws: the errors of `countedUsages(ofYarn:includeActive:)`.
  public func remaining(of yarn: Yarn, includeActive: Bool = false) throws -> RemainingEstimate {
    RemainingEstimate(
      yarn: yarn, usages: try countedUsages(ofYarn: yarn.id, includeActive: includeActive))
  }

  /// Every usage of the yarn `yarnID`, whatever its project's status, in project creation
  /// order then position, each with its project's name and status.
  /// `uses.counted(includeActive:)` gives the usages of them that count.
  ///
  /// - Complexity: O(u log u) for the yarn's u usages (by the yarn's index).
  /// - Throws: `StoreError.invalidData` for a usage or status that cannot be read back;
  ///   `.busy`, `.closed`, `.database`.
  public func uses(ofYarn yarnID: String) throws -> [YarnUse] {
    try read {
      try connection.query(
        """
        SELECT u.project_id, p.name, p.status, u.amount_value, u.amount_unit FROM yarn_usage u
        JOIN project p ON p.id = u.project_id
        WHERE u.yarn_id = ?
        ORDER BY p.seq, u.position
        """, [.text(yarnID)]
      ) { statement in
        var row = RowReader(statement, kind: .project)
        let projectID = try row.id()
        let name = try row.text()
        let statusText = try row.text()
        guard let status = ProjectStatus(rawValue: statusText) else {
          throw row.invalid("stored status \"\(statusText)\" is unknown")
        }
        return YarnUse(
          projectID: projectID, projectName: name, projectStatus: status,
          amount: try row.requiredAmount())
      }
    }
  }

  // MARK: Names

  /// The ID and name of every yarn, in creation order: what a reference is matched against
  /// (`stash show NAME`) without reading the yarns.
  ///
  /// - Complexity: O(n) rows of two short strings.
  /// - Throws: `StoreError.busy`, `.closed`, `.database`.
  public func yarnNames() throws -> [ItemName] {
    try names(of: "yarn")
  }

  /// The ID and name of every project, in creation order.
  ///
  /// - Complexity: O(n) rows of two short strings.
  /// - Throws: `StoreError.busy`, `.closed`, `.database`.
  public func projectNames() throws -> [ItemName] {
    try names(of: "project")
  }

  /// The ID and name of every yarn that may match `text` by a name or ID rule, in creation
  /// order: a superset, filtered by SQLite, of the yarns whose lower-cased name or ID holds
  /// `text`, so that a lookup by name or ID prefix (`Lookup.find`, whose rules stay in Swift)
  /// need not read every name.
  ///
  /// Exactly: every yarn whose name or ID has a character outside ASCII (Unicode case
  /// mapping and canonical equivalence are left to Swift), and every other yarn whose name or
  /// ID contains `text`, ASCII case aside (`LIKE '%text%'`, where a `%` or `_` in `text`
  /// matches more). An ASCII name or ID that is equal to `text`, or begins with it, after
  /// Swift's `lowercased()` and the trimming of spaces, contains it, so it is always among
  /// them.
  ///
  /// - Parameter text: what was typed, already trimmed and lower-cased the way the rule does.
  /// - Complexity: one pass over the yarn table inside SQLite; O(k) rows returned.
  /// - Throws: `StoreError.busy`, `.closed`, `.database`.
  public func yarnNames(mayMatch text: String) throws -> [ItemName] {
    try names(of: "yarn", mayMatch: text)
  }

  /// The ID and name of every project that may match `text`: as `yarnNames(mayMatch:)`, for
  /// projects.
  ///
  /// - Complexity: one pass over the project table inside SQLite; O(k) rows returned.
  /// - Throws: `StoreError.busy`, `.closed`, `.database`.
  public func projectNames(mayMatch text: String) throws -> [ItemName] {
    try names(of: "project", mayMatch: text)
  }

  /// The name of the yarn `id`, or `nil` when there is none (by the ID's unique index).
  ///
  /// - Throws: `StoreError.busy`, `.closed`, `.database`.
  public func yarnName(id: String) throws -> String? {
    try name(of: "yarn", id: id)
  }

  /// The name of the project `id`, or `nil` when there is none (by the ID's unique index).
  ///
  /// - Throws: `StoreError.busy`, `.closed`, `.database`.
  public func projectName(id: String) throws -> String? {
    try name(of: "project", id: id)
  }

  private func names(of table: String) throws -> [ItemName] {
    try read {
      try connection.query("SELECT id, name FROM \(table) ORDER BY seq") {
        ItemName(id: $0.text(0) ?? "", name: $0.text(1) ?? "")
      }
    }
  }

  private func names(of table: String, mayMatch text: String) throws -> [ItemName] {
    // LIKE folds ASCII case only (this connection never sets `case_sensitive_like`); a `%`
    // or `_` in the text only widens the set. A text longer in bytes than in characters
    // holds a character outside ASCII. (Measured at 100,000 yarns: 5 times faster than
    // `GLOB '*[^ -~]*'` and `instr(lower(name), ?)`.)
    try read {
      try connection.query(
        """
        SELECT id, name FROM \(table)
        WHERE name LIKE ?1 OR id LIKE ?1
          OR length(CAST(name AS BLOB)) <> length(name) OR length(CAST(id AS BLOB)) <> length(id)
        ORDER BY seq
        """, [.text("%" + text + "%")]
      ) { ItemName(id: $0.text(0) ?? "", name: $0.text(1) ?? "") }
    }
  }

  private func name(of table: String, id: String) throws -> String? {
    try read {
      try connection.query("SELECT name FROM \(table) WHERE id = ?", [.text(id)]) {
        $0.text(0) ?? ""
      }.first
    }
  }
}
