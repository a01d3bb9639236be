import YarnModel

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension LibraryStore {
  static let projectColumns = """
    id, name, craft, status, has_pattern, pattern_name, pattern_url, started, finished,
    gauge_stitches, gauge_rows, gauge_length, gauge_unit, size_made, made_for, tags
    """

  /// Every project, in creation order, with its usages, photos and pattern.
  ///
  /// - Complexity: O(n) rows, all held in memory.
  /// - Throws: `StoreError.invalidData` for a row that cannot be read back; `.busy`,
  ///   `.closed`, `.database`.
  public func projects() throws -> [Project] {
    var out: [Project] = []
    try forEachProject { out.append($0) }
    return out
  }

  /// Hands each project to `body` in creation order as it is read, so memory stays flat
  /// however many projects there are; all in one read transaction. `body` may read from the
  /// store.
  ///
  /// - Throws: what `body` throws (which stops the walk); the errors of `projects()`.
  public func forEachProject(_ body: (Project) throws -> Void) throws {
    try read {
      try connection.forEach("SELECT \(LibraryStore.projectColumns) FROM project ORDER BY seq") {
        try body(try project(from: $0))
      }
    }
  }

  /// The project with `id`, or `nil` when there is none.
  ///
  /// - Throws: the errors of `projects()`.
  public func project(id: String) throws -> Project? {
    try read {
      let statement = try connection.prepare(
        "SELECT \(LibraryStore.projectColumns) FROM project WHERE id = ?")
      try statement.bind([.text(id)])
      guard try statement.step() else { return nil }
      return try project(from: statement)
    }
  }

  /// Adds `project` (after every project already there) with its usages (in order), photos
  /// and pattern.
  ///
  /// - Throws: `StoreError.duplicateID` when its ID is taken; `.missingReference` when a
  ///   usage names a yarn that is not in the library; `.missingAttachment` when a photo's or
  ///   the pattern PDF's bytes are not stored; `.brokenRule` naming the first field that
  ///   breaks a rule of `Rules` (a blank ID, a blank name, a negative amount, a finished project without
  ///   a finished day, …); `.invalidData` for a malformed digest; `.readOnly`, `.busy`,
  ///   `.closed`, `.database`.
  public func insert(_ project: Project) throws {
    try insert(project, keepingOlderSizes: false)
  }

  /// `insert(_:)`; with `keepingOlderSizes`, a needle size under
  /// `NeedleSize.minimumMillimetres`, which an older yarn took, is kept (`insert(library:)`,
  /// a restore).
  package func insert(_ project: Project, keepingOlderSizes: Bool) throws {
    try write {
      try LibraryStore.refuseNew(id: project.id, kind: .project, name: project.name)
      try LibraryStore.refuse(
        project.ruleViolations(), kind: .project, id: project.id, name: project.name)
      if !keepingOlderSizes {
        try LibraryStore.refuseNewSizes(
          project.needleSizes ?? [], kept: [], field: "needle size", kind: .project, id: project.id,
          name: project.name)
        try LibraryStore.refuseRepeatedSizes(
          project.needleSizes ?? [], kept: [], kind: .project, id: project.id, name: project.name)
      }
      if try exists("project", id: project.id) {
        throw StoreError.duplicateID(kind: .project, id: project.id)
      }
      try connection.run(
        """
        INSERT INTO project (\(LibraryStore.projectColumns), name_key)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """, values(of: project) + [.text(Lookup.key(project.name))])
      try insertParts(of: project)
      try writeNeedleSizes(of: project, replacing: nil)
    }
  }

  /// Replaces the stored project that has `project.id` with `project`, usages, photos and
  /// pattern included; its place in creation order, its notes and its sessions are kept.
  ///
  /// - Throws: `StoreError.notFound` when no project has that ID; otherwise as `insert(_:)`.
  public func update(_ project: Project) throws {
    try write {
      guard let stored = try self.project(id: project.id) else {
        throw StoreError.notFound(kind: .project, id: project.id)
      }
      // A blank tag an older yarn stored stays through an edit of another field.
      try LibraryStore.refuse(
        project.ruleViolations(keptTags: stored.tags), kind: .project, id: project.id,
        name: project.name)
      // A needle size is checked when it is new: one an older yarn stored stays.
      try LibraryStore.refuseNewSizes(
        project.needleSizes ?? [], kept: stored.needleSizes ?? [], field: "needle size", kind: .project,
        id: project.id, name: project.name)
      try LibraryStore.refuseRepeatedSizes(
        project.needleSizes ?? [], kept: stored.needleSizes ?? [], kind: .project, id: project.id,
        name: project.name)
      var bound = values(of: project)
      bound.append(.text(Lookup.key(project.name)))
      bound.append(bound.removeFirst())  // the ID goes last, into WHERE
      try connection.run(
        """
        UPDATE project SET name = ?, craft = ?, status = ?, has_pattern = ?, pattern_name = ?,
          pattern_url = ?, started = ?, finished = ?, gauge_stitches = ?, gauge_rows = ?,
          gauge_length = ?, gauge_unit = ?, size_made = ?, made_for = ?, tags = ?, name_key = ?
        WHERE id = ?
        """, bound)
      // Only the parts that differ are written again, so that the undo history records
      // what changed (a new name is not also "2 usages removed and added").
      try writeList(
        "yarn_usage", of: project.id, from: stored.usages, to: project.usages,
        insert: insertUsage(of: project))
      try writeNeedleSizes(of: project, replacing: stored.needleSizes)
      if stored.photos != project.photos {
        try replaceAttachments(
          stored.photos, with: project.photos, owner: .project(project.id), role: "photo")
      }
      if stored.pattern?.pdf != project.pattern?.pdf {
        try replaceAttachments(
          stored.pattern?.pdf.map { [$0] } ?? [], with: project.pattern?.pdf.map { [$0] } ?? [],
          owner: .project(project.id), role: "pattern")
      }
    }
  }

  /// Deletes the project with `id` and, through the schema's `ON DELETE CASCADE`, its yarn
  /// usages, notes, time sessions and attachment records; once the change commits, the
  /// attachment files that no other item refers to are deleted.
  ///
  /// Safe removal: a project goes alone, or with what goes with it (and, for a finished one,
  /// its usages stopping to count against the stash) only when `force` is true.
  ///
  /// - Returns: what went with it (`effectsOfRemoving(projectID:)`).
  /// - Throws: `StoreError.removalRefused` listing what would go when that is not nothing and
  ///   `force` is false; `.lostAttachment` when a photo's or the pattern's file is missing
  ///   (undo could not give it back); `.notFound` when no project has that ID; `.readOnly`, `.busy`,
  ///   `.closed`, `.database`.
  @discardableResult
  public func deleteProject(id: String, force: Bool = false) throws -> RemovalEffects {
    try write {
      let effects = try effectsOfRemoving(projectID: id)
      guard effects.isEmpty || force else {
        throw StoreError.removalRefused(
          kind: .project, name: try project(id: id)?.name ?? id, effects: effects)
      }
      try refuseLostAttachments(of: .project(id), name: try project(id: id)?.name ?? id)
      try dropAttachments(where: "project_id = ?", [.text(id)])
      try connection.run("DELETE FROM project WHERE id = ?", [.text(id)])
      guard connection.changes == 1 else { throw StoreError.notFound(kind: .project, id: id) }
      return effects
    }
  }

  // MARK: Rows

  private func insertParts(of project: Project) throws {
    let insertUsage = insertUsage(of: project)
    for (position, usage) in project.usages.enumerated() { try insertUsage(position, usage) }
    try insertAttachments(project.photos, owner: .project(project.id), role: "photo")
    if let pdf = project.pattern?.pdf {
      try insertAttachments([pdf], owner: .project(project.id), role: "pattern")
    }
  }

  /// What inserts a usage of `project` at a position (`writeList`).
  private func insertUsage(of project: Project) -> (Int, YarnUsage) throws -> Void {
    let row = RowWriter(kind: .project, id: project.id)
    return { position, usage in
      guard try self.exists("yarn", id: usage.yarnID) else {
        throw StoreError.missingReference(
          kind: .yarn, id: usage.yarnID, from: .project, fromID: project.id)
      }
      try self.connection.run(
        """
        INSERT INTO yarn_usage (project_id, position, yarn_id, amount_value, amount_unit)
        VALUES (?, ?, ?, ?, ?)
        """,
        [.text(project.id), .integer(Int64(position)), .text(usage.yarnID)]
          + row.amount(usage.amount))
    }
  }

  /// Writes the rows of the project `id`'s list `table` (`yarn_usage`, `project_needle`:
  /// keyed by project and position), stored as `old`, so that they hold `new`, touching only
  /// what differs: the rows of a longest list both keep in order stay, the other old rows are
  /// deleted and the other new ones inserted (`insert`, given each one's position). A row
  /// that stays moves to its new position by an update of the position alone, which the undo
  /// history counts as no change (`LibraryStore.history()`). So removing usages records those
  /// removals, not the renumbering of those after them, nor a kept one written again (QA:
  /// A, B, A with A removed was "changed 1 yarn usage; removed 2").
  ///
  /// The rows the lists begin and end with alike stay (a typical edit changes one place);
  /// the longest list both keep is looked for only between them (`keptBetween`), so that an
  /// edit of one place in a list of 10,000 takes time and memory in proportion to the list,
  /// not to its square (800 MB). As many rows stay as the whole lists' longest common list
  /// holds; where several lists are as long, the one kept may differ from the one a search
  /// of the whole lists found (a row of the common end stays there, not paired with an
  /// equal row before it).
  ///
  /// - Complexity: O(n) for an edit of one place; O(k · l) time and memory for the k old and
  ///   l new rows between the common start and end, which `keptBetween` bounds.
  func writeList<Element: Equatable>(
    _ table: String, of id: String, from old: [Element], to new: [Element],
    insert: (Int, Element) throws -> Void
  ) throws {
    var start = 0
    while start < old.count, start < new.count, old[start] == new[start] { start += 1 }
    var end = 0
    while end < old.count - start, end < new.count - start,
      old[old.count - 1 - end] == new[new.count - 1 - end]
    {
      end += 1
    }
    let kept =
      (0..<start).map { (from: $0, to: $0) }
      + LibraryStore.keptBetween(old[start..<old.count - end], new[start..<new.count - end])
      + (0..<end).map { (from: old.count - end + $0, to: new.count - end + $0) }
    let (keptOld, keptNew) = (Set(kept.map(\.from)), Set(kept.map(\.to)))
    for position in old.indices.reversed() where !keptOld.contains(position) {
      try connection.run(
        "DELETE FROM \(table) WHERE project_id = ? AND position = ?", [.text(id), .integer(Int64(position))])
    }
    // Those moving down from the first, those moving up from the last: each into a free place.
    let moves = kept.filter { $0.to < $0.from } + kept.reversed().filter { $0.to > $0.from }
    for move in moves {
      try connection.run(
        "UPDATE \(table) SET position = ? WHERE project_id = ? AND position = ?",
        [.integer(Int64(move.to)), .text(id), .integer(Int64(move.from))])
    }
    for position in new.indices where !keptNew.contains(position) { try insert(position, new[position]) }
  }

  /// The most cells (old rows × new rows, between a list's common start and end) of the
  /// table `keptBetween` fills: 1,000,000, 8 MB. No rule caps how long a project's list of
  /// usages or needle sizes is, so an edit that rewrites thousands of rows at once could
  /// otherwise take gigabytes.
  static let maximumListTableCells = 1_000_000

  /// The pairs of positions (in `old`, in `new`: the slices' own indices) of a longest list
  /// both hold in order, first match first: at each step an equal pair is kept, else the
  /// side whose next row leaves the longer rest is skipped (the old row on a tie). Empty when
  /// the table would exceed `maximumListTableCells`: then every old row between the common
  /// start and end is deleted and every new one inserted, the same rows written with more
  /// steps in the undo history.
  static func keptBetween<Element: Equatable>(_ old: ArraySlice<Element>, _ new: ArraySlice<Element>)
    -> [(from: Int, to: Int)]
  {
    let (rows, columns) = (old.count + 1, new.count + 1)
    guard !old.isEmpty, !new.isEmpty, rows * columns <= maximumListTableCells else { return [] }
    // `longest[i * columns + j]`: the length of the longest common subsequence of the rest of
    // `old` from its i-th row and the rest of `new` from its j-th.
    var longest = [Int](repeating: 0, count: rows * columns)
    for i in (0..<old.count).reversed() {
      for j in (0..<new.count).reversed() {
        longest[i * columns + j] =
          old[old.startIndex + i] == new[new.startIndex + j]
          ? longest[(i + 1) * columns + j + 1] + 1
          : max(longest[(i + 1) * columns + j], longest[i * columns + j + 1])
      }
    }
    var kept: [(from: Int, to: Int)] = []
    var (i, j) = (0, 0)
    while i < old.count, j < new.count {
      if old[old.startIndex + i] == new[new.startIndex + j] {
        kept.append((old.startIndex + i, new.startIndex + j))
        (i, j) = (i + 1, j + 1)
      } else if longest[(i + 1) * columns + j] >= longest[i * columns + j + 1] {
        i += 1
      } else {
        j += 1
      }
    }
    return kept
  }

  private func values(of project: Project) -> [SQLValue] {
    let row = RowWriter(kind: .project, id: project.id)
    return [
      .text(project.id), .text(project.name), .text(project.craft?.rawValue),
      .text(project.status.rawValue), .integer(project.pattern == nil ? 0 : 1),
      .text(project.pattern?.name), .text(project.pattern?.url), row.day(project.started),
      row.day(project.finished),
    ] + row.gauge(project.gauge) + [
      .text(project.sizeMade), .text(project.madeFor), .text(RowWriter.tags(project.tags)),
    ]
  }

  func project(from statement: Statement) throws -> Project {
    var row = RowReader(statement, kind: .project)
    let id = try row.id()
    let name = try row.text()
    var craft: Craft?
    if let text = row.optionalText() {
      guard let known = Craft(rawValue: text) else {
        throw row.invalid("stored craft \(LineText.quoted(text)) is unknown")
      }
      craft = known
    }
    let statusText = try row.text()
    guard let status = ProjectStatus(rawValue: statusText) else {
      throw row.invalid("stored status \(LineText.quoted(statusText)) is unknown")
    }
    let hasPattern = try row.bool()
    let patternName = row.optionalText()
    let patternURL = row.optionalText()
    let started = try row.day()
    let finished = try row.day()
    let gauge = try row.gauge()
    let sizeMade = row.optionalText()
    let madeFor = row.optionalText()
    let tags = RowReader.tags(row.optionalText())
    let usages = try connection.query(
      """
      SELECT yarn_id, amount_value, amount_unit FROM yarn_usage
      WHERE project_id = ? ORDER BY position
      """, [.text(id)]
    ) { statement in
      var usage = RowReader(statement, kind: .project, id: id)
      let yarnID = try usage.text()
      return YarnUsage(yarnID: yarnID, amount: try usage.requiredAmount())
    }
    var pattern: Pattern?
    if hasPattern {
      let pdf = try attachments(of: .project(id), role: "pattern").first
      pattern = Pattern(name: patternName, url: patternURL, pdf: pdf)
    }
    var project = Project(
      id: id, name: name, craft: craft, status: status, pattern: pattern, started: started,
      finished: finished, usages: usages, photos: try attachments(of: .project(id), role: "photo"),
      gauge: gauge, sizeMade: sizeMade, madeFor: madeFor, tags: tags)
    project.needleSizes = try needleSizes(ofProject: id)
    return project
  }
}
