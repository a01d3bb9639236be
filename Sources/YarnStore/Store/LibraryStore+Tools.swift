import YarnModel

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The tool inventory: needles and hooks (`Tool`, tables `tool` and `project_tool`, schema
/// v5). A tool's projects are the rows of `project_tool`, read in the order the projects were
/// created (`project.seq`), whatever order they were added to the tool in.
extension LibraryStore {
  private static let toolColumns = "id, name, kind, size_mm, length_cm, material, count"

  /// Every tool, in creation order, with its projects.
  ///
  /// - Complexity: O(n) rows of `tool` and of `project_tool`.
  /// - Throws: `StoreError.invalidData` for a row that cannot be read back; `.busy`,
  ///   `.closed`, `.database`.
  public func tools() throws -> [Tool] {
    try read {
      var projects: [String: [String]] = [:]
      try connection.forEach(
        "SELECT t.tool_id, t.project_id FROM project_tool t JOIN project p ON p.id = t.project_id ORDER BY p.seq"
      ) { projects[$0.text(0) ?? "", default: []].append($0.text(1) ?? "") }
      var out: [Tool] = []
      try connection.forEach("SELECT \(LibraryStore.toolColumns) FROM tool ORDER BY seq") {
        var tool = try tool(from: $0)
        tool.projectIDs = projects[tool.id] ?? []
        out.append(tool)
      }
      return out
    }
  }

  /// The tool with `id`, with its projects, or `nil` when there is none.
  ///
  /// - Throws: the errors of `tools()`.
  public func tool(id: String) throws -> Tool? {
    try read {
      var found = try connection.query(
        "SELECT \(LibraryStore.toolColumns) FROM tool WHERE id = ?", [.text(id)]
      ) { try tool(from: $0) }.first
      found?.projectIDs = try projectIDs(ofTool: id)
      return found
    }
  }

  /// The tools the project `projectID` is made with, in the tools' creation order.
  ///
  /// - Throws: the errors of `tools()`.
  public func tools(ofProject projectID: String) throws -> [Tool] {
    try read {
      let ids = try connection.query(
        """
        SELECT t.id FROM project_tool u JOIN tool t ON t.id = u.tool_id
        WHERE u.project_id = ? ORDER BY t.seq
        """, [.text(projectID)]
      ) { $0.text(0) ?? "" }
      return try ids.compactMap { try tool(id: $0) }
    }
  }

  /// The ID and name of every tool, in creation order.
  ///
  /// - Throws: `StoreError.busy`, `.closed`, `.database`.
  public func toolNames() throws -> [ItemName] {
    try read {
      try connection.query("SELECT id, name FROM tool ORDER BY seq") {
        ItemName(id: $0.text(0) ?? "", name: $0.text(1) ?? "")
      }
    }
  }

  /// The ID and name of the tools `Lookup.find` chooses among for `text`: as
  /// `yarnNames(mayMatch:)`, for tools (by the indexes `tool_by_name_key`, `tool_by_id_nocase`
  /// and `tool_with_wide_id`).
  ///
  /// - Throws: `StoreError.busy`, `.closed`, `.database`.
  public func toolNames(mayMatch text: String) throws -> [ItemName] {
    try names(of: "tool", mayMatch: text)
  }

  /// The name of the tool `id`, or `nil` when there is none.
  ///
  /// - Throws: `StoreError.busy`, `.closed`, `.database`.
  public func toolName(id: String) throws -> String? {
    try read {
      try connection.query("SELECT name FROM tool WHERE id = ?", [.text(id)]) { $0.text(0) ?? "" }
        .first
    }
  }

  /// Adds `tool` (after every tool already there), in its projects.
  ///
  /// - Throws: `StoreError.duplicateID` when its ID is taken; `.missingReference` when it
  ///   names a project that is not in the library; `.brokenRule` for a blank ID or naming the
  ///   first field that breaks a rule (`Tool.ruleViolations()`, or `Rules.needleSize`: a
  ///   size under 0.5 mm); `.readOnly`, `.busy`, `.closed`, `.database`.
  public func insert(_ tool: Tool) throws {
    try insert(tool, keepingOlderSizes: false)
  }

  /// `insert(_:)`; with `keepingOlderSizes`, a size under `NeedleSize.minimumMillimetres`,
  /// which an older yarn took, is kept (`insert(library:)`, a restore).
  package func insert(_ tool: Tool, keepingOlderSizes: Bool) throws {
    try write {
      try LibraryStore.refuseNew(id: tool.id, kind: .tool, name: tool.name)
      try LibraryStore.refuse(tool.ruleViolations(), kind: .tool, id: tool.id, name: tool.name)
      if !keepingOlderSizes {
        try LibraryStore.refuseNewSizes(
          tool.size.map { [$0] } ?? [], kept: [], field: "size", kind: .tool, id: tool.id, name: tool.name)
      }
      if try exists("tool", id: tool.id) { throw StoreError.duplicateID(kind: .tool, id: tool.id) }
      try connection.run(
        "INSERT INTO tool (\(LibraryStore.toolColumns), name_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        values(of: tool) + [.text(Lookup.key(tool.name))])
      try writeProjects(of: tool, replacing: [])
    }
  }

  /// Replaces the stored tool that has `tool.id` with `tool`, its projects included; its
  /// place in creation order is kept.
  ///
  /// - Throws: `StoreError.notFound` when no tool has that ID; otherwise as `insert(_:)`.
  public func update(_ tool: Tool) throws {
    try write {
      try LibraryStore.refuse(tool.ruleViolations(), kind: .tool, id: tool.id, name: tool.name)
      // A size is checked when it changes: one an older yarn stored stays through an edit of
      // another field.
      let stored = try connection.query("SELECT size_mm FROM tool WHERE id = ?", [.text(tool.id)]) {
        $0.isNull(0) ? nil : NeedleSize(millimetres: $0.double(0))
      }
      try LibraryStore.refuseNewSizes(
        tool.size.map { [$0] } ?? [], kept: stored.compactMap { $0 }, field: "size", kind: .tool, id: tool.id,
        name: tool.name)
      var bound = values(of: tool)
      bound.append(.text(Lookup.key(tool.name)))
      bound.append(bound.removeFirst())
      try connection.run(
        """
        UPDATE tool SET name = ?, kind = ?, size_mm = ?, length_cm = ?, material = ?, count = ?,
          name_key = ?
        WHERE id = ?
        """, bound)
      guard connection.changes == 1 else { throw StoreError.notFound(kind: .tool, id: tool.id) }
      try writeProjects(of: tool, replacing: try projectIDs(ofTool: tool.id))
    }
  }

  /// Deletes the tool with `id`, and with `force` its place in the projects it is in.
  ///
  /// Safe removal, as `deleteYarn(id:force:)`: a tool in no project goes alone; one in
  /// projects goes only when `force` is true.
  ///
  /// - Returns: what went with it (`effectsOfRemoving(toolID:)`).
  /// - Throws: `StoreError.removalRefused` listing the projects when it is in some and
  ///   `force` is false; `.notFound` when no tool has that ID; `.readOnly`, `.busy`,
  ///   `.closed`, `.database`.
  @discardableResult
  public func deleteTool(id: String, force: Bool = false) throws -> RemovalEffects {
    try write {
      let effects = try effectsOfRemoving(toolID: id)
      guard effects.isEmpty || force else {
        throw StoreError.removalRefused(kind: .tool, name: try toolName(id: id) ?? id, effects: effects)
      }
      try connection.run("DELETE FROM project_tool WHERE tool_id = ?", [.text(id)])
      try connection.run("DELETE FROM tool WHERE id = ?", [.text(id)])
      return effects
    }
  }

  /// What removing the tool with `id` would change: the projects it is in (it leaves them).
  ///
  /// - Throws: `StoreError.notFound` when no tool has that ID; `.busy`, `.closed`, `.database`.
  public func effectsOfRemoving(toolID id: String) throws -> RemovalEffects {
    try read {
      guard try exists("tool", id: id) else { throw StoreError.notFound(kind: .tool, id: id) }
      var effects = RemovalEffects()
      effects.projectsWithTool = try connection.query(
        """
        SELECT name FROM project
        WHERE id IN (SELECT project_id FROM project_tool WHERE tool_id = ?) ORDER BY seq
        """, [.text(id)]
      ) { $0.text(0) ?? "" }
      return effects
    }
  }

  // MARK: Rows

  private func projectIDs(ofTool id: String) throws -> [String] {
    try connection.query(
      """
      SELECT u.project_id FROM project_tool u JOIN project p ON p.id = u.project_id
      WHERE u.tool_id = ? ORDER BY p.seq
      """, [.text(id)]
    ) { $0.text(0) ?? "" }
  }

  /// Writes the rows of `project_tool` that differ from `old` (so that the undo history
  /// records only what changed).
  private func writeProjects(of tool: Tool, replacing old: [String]) throws {
    let wanted = Set(tool.projectIDs)
    for projectID in old where !wanted.contains(projectID) {
      try connection.run(
        "DELETE FROM project_tool WHERE project_id = ? AND tool_id = ?",
        [.text(projectID), .text(tool.id)])
    }
    let had = Set(old)
    for projectID in tool.projectIDs where !had.contains(projectID) {
      guard try exists("project", id: projectID) else {
        throw StoreError.missingReference(kind: .project, id: projectID, from: .tool, fromID: tool.id)
      }
      try connection.run(
        "INSERT INTO project_tool (project_id, tool_id) VALUES (?, ?)",
        [.text(projectID), .text(tool.id)])
    }
  }

  private func values(of tool: Tool) -> [SQLValue] {
    [
      .text(tool.id), .text(tool.name), .text(tool.kind.rawValue),
      tool.size.map { .real($0.millimetres) } ?? .null,
      tool.lengthCentimetres.map { .real($0) } ?? .null,
      .text(tool.material), .integer(Int64(tool.count)),
    ]
  }

  private func tool(from statement: Statement) throws -> Tool {
    var row = RowReader(statement, kind: .tool)
    let id = try row.id()
    let name = try row.text()
    let kindText = try row.text()
    guard let kind = ToolKind(rawValue: kindText) else {
      throw row.invalid("stored kind \(LineText.quoted(kindText)) is not one of \(ToolKind.acceptedWords)")
    }
    var size: NeedleSize?
    if !statement.isNull(3) {
      guard let found = NeedleSize(millimetres: statement.double(3)) else {
        throw row.invalid("stored size \(statement.double(3)) mm is out of range")
      }
      size = found
    }
    let length = statement.isNull(4) ? nil : statement.double(4)
    row.skip(2)
    let material = row.optionalText()
    let count = try row.integer()
    return Tool(
      id: id, name: name, kind: kind, size: size, lengthCentimetres: length, material: material,
      count: Int(clamping: count))
  }
}

/// A project's needle sizes (table `project_needle`, schema v5).
extension LibraryStore {
  /// Throws `StoreError.brokenRule` for the first of `sizes` that is not among `kept` (what
  /// the item has stored) and breaks `Rules.needleSize` (under 0.5 mm): a size is checked
  /// when it is given, so that one an older yarn stored (it took any size above 0) stays
  /// through an edit of another field and a library document restores.
  static func refuseNewSizes(
    _ sizes: [NeedleSize], kept: [NeedleSize], field: String, kind: StoreError.Kind, id: String, name: String
  ) throws {
    for size in sizes where !kept.contains(size) {
      if let violation = Rules.needleSize(size.millimetres, field: field) {
        throw StoreError.brokenRule(kind: kind, id: id, name: name, violation: violation)
      }
    }
  }

  /// Throws `StoreError.brokenRule` when `sizes` name one size twice
  /// (`Rules.repeatedNeedleSize`) more often than `kept` (what the project has stored) does:
  /// a repeat an older yarn stored (it kept `4.5` and `4.4999` apart) stays through an edit
  /// of another field and a restore; a new one is refused.
  static func refuseRepeatedSizes(
    _ sizes: [NeedleSize], kept: [NeedleSize], kind: StoreError.Kind, id: String, name: String
  ) throws {
    guard let (index, violation) = Rules.repeatedNeedleSize(sizes) else { return }
    let size = sizes[index]
    if sizes.filter({ $0 == size }).count > kept.filter({ $0 == size }).count {
      throw StoreError.brokenRule(kind: kind, id: id, name: name, violation: violation)
    }
  }

  /// The needle sizes of the project `id` in their order, `nil` when it has none.
  func needleSizes(ofProject id: String) throws -> [NeedleSize]? {
    let sizes = try connection.query(
      "SELECT size_mm FROM project_needle WHERE project_id = ? ORDER BY position", [.text(id)]
    ) { statement -> NeedleSize in
      guard let size = NeedleSize(millimetres: statement.double(0)) else {
        throw StoreError.invalidData(
          kind: .project, id: id, reason: "stored needle size \(statement.double(0)) mm is out of range")
      }
      return size
    }
    return sizes.isEmpty ? nil : sizes
  }

  /// Writes the needle sizes of `project` where they differ from `old` (the stored ones), so
  /// that the undo history records only a change; an empty list is stored as none.
  func writeNeedleSizes(of project: Project, replacing old: [NeedleSize]?) throws {
    try writeList("project_needle", of: project.id, from: old ?? [], to: project.needleSizes ?? []) {
      position, size in
      try connection.run(
        "INSERT INTO project_needle (project_id, position, size_mm) VALUES (?, ?, ?)",
        [.text(project.id), .integer(Int64(position)), .real(size.millimetres)])
    }
  }
}
