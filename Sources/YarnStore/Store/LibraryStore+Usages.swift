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
          throw row.invalid("stored status \(LineText.quoted(statusText)) is unknown")
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

  /// The ID and name of the yarns ``Lookup/find(_:in:id:name:)`` chooses among for `text`
  /// (what was typed), in creation order, found by index, so that a lookup need not read
  /// every name.
  ///
  /// Exactly: the yarns whose name has the key of `text` (`Lookup.key`: trimmed, lower-cased,
  /// NFC) and, when that key has at least 4 characters, those whose ID begins with it (ASCII
  /// case aside, as the rule of ID prefixes takes them); when none of them is taken by the
  /// rules, the yarns whose name's key begins with the key instead (a name prefix). Always
  /// with them, for Swift to decide: the yarns whose ID has a character outside ASCII (rare:
  /// yarn makes ASCII IDs), and the yarns a writer other than yarn changed since yarn last
  /// wrote (their keys may be out of date). `Lookup.find` over these picks what it picks
  /// over every yarn, and lists the same candidates of an ambiguity.
  ///
  /// - Complexity: O(k log n): index lookups and ranges on `name_key` and `id`, returning
  ///   O(k) rows.
  /// - Throws: `StoreError.busy`, `.closed`, `.database`.
  public func yarnNames(mayMatch text: String) throws -> [ItemName] {
    try names(of: "yarn", mayMatch: text)
  }

  /// The ID and name of the projects `Lookup.find` chooses among for `text`: as
  /// `yarnNames(mayMatch:)`, for projects.
  ///
  /// - Complexity: O(k log n), as `yarnNames(mayMatch:)`.
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

  /// The other yarns, projects or tools named `name` as a reference compares names
  /// (`Lookup.key`: case, spaces around it and Unicode form aside), by the name key's index:
  /// the items a reference by that name would fit besides the one `id`, in the order added.
  ///
  /// - Parameters:
  ///   - name: the name given to the item `id`.
  ///   - kind: `.yarn`, `.project` or `.tool` (any other kind has no name: empty).
  ///   - id: the item itself, left out.
  /// - Throws: `StoreError.busy`, `.closed`, `.database`.
  public func namesakes(of name: String, kind: StoreError.Kind, besides id: String) throws -> [ItemName] {
    guard [.yarn, .project, .tool].contains(kind) else { return [] }
    return try read {
      try connection.query(
        "SELECT id, name FROM \(kind.rawValue) WHERE name_key = ? AND id <> ? ORDER BY seq",
        [.text(Lookup.key(name)), .text(id)]
      ) { ItemName(id: $0.text(0) ?? "", name: $0.text(1) ?? "") }
    }
  }

  func names(of table: String, mayMatch text: String) throws -> [ItemName] {
    let key = Lookup.key(text)
    let end = LibraryStore.keyRangeEnd(key)
    return try read {
      var found: [Int64: ItemName] = [:]
      func add(_ sql: String, _ arguments: [SQLValue]) throws {
        try connection.forEach("SELECT seq, id, name FROM \(table) WHERE " + sql, arguments) {
          found[$0.int64(0)] = ItemName(id: $0.text(1) ?? "", name: $0.text(2) ?? "")
        }
      }
      try add("name_key = ?", [.text(key)])
      if key.count >= 4 {
        if let end {
          try add(
            "id COLLATE NOCASE >= ? AND id COLLATE NOCASE < ?", [.text(key), .text(end)])
        } else {
          try add("id COLLATE NOCASE >= ?", [.text(key)])
        }
      }
      // NOCASE folds ASCII letters alone, and an ID equal to the reference in another
      // Unicode form is not equal in bytes: an ID outside ASCII is a candidate always.
      try add(Schema.wideID, [])
      try add(
        "id IN (SELECT row FROM history_step WHERE change IS NULL AND item = ?)", [.text(table)])
      // A name prefix counts only when no ID or name is taken before (`Lookup.find`).
      let taken = found.values.contains {
        Lookup.takesBeforePrefixes(id: $0.id, name: $0.name, reference: text)
      }
      if !taken, !key.isEmpty {
        if let end {
          try add("name_key >= ? AND name_key < ?", [.text(key), .text(end)])
        } else {
          try add("name_key >= ?", [.text(key)])
        }
      }
      return found.sorted { $0.key < $1.key }.map(\.value)
    }
  }

  /// The least string greater than every string that begins with `key` (by SQLite's BINARY
  /// order, bytes of UTF-8, which is the order of Unicode scalars): `key` with its last scalar
  /// replaced by the next one; `nil` when every scalar is the last one (U+10FFFF), where no
  /// such bound exists.
  static func keyRangeEnd(_ key: String) -> String? {
    var scalars = Array(key.unicodeScalars)
    while let last = scalars.popLast() {
      var next = last.value + 1
      if next == 0xD800 { next = 0xE000 }  // past the surrogates, which are not scalars
      if let scalar = Unicode.Scalar(next) {
        scalars.append(scalar)
        var out = String.UnicodeScalarView()
        out.append(contentsOf: scalars)
        return String(out)
      }
    }
    return nil
  }

  private func name(of table: String, id: String) throws -> String? {
    try read {
      try connection.query("SELECT name FROM \(table) WHERE id = ?", [.text(id)]) {
        $0.text(0) ?? ""
      }.first
    }
  }
}
