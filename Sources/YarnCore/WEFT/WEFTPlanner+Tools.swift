import YarnModel
import YarnStore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// MARK: Tools (05-tool) and a project's needles

extension WEFTPlanner {
  /// The yarn kind of a WEFT tool: its `tool_type` (`kind(ofType:)`), else its `category`
  /// `hook`. `nil` for any other tool (looms, wheels, machines, …), and for `category`
  /// `needle` alone, a needle of a type it does not say (`readTools` settles it).
  static func kind(of tool: WEFT.Tool) -> ToolKind? {
    kind(ofType: tool.toolType) ?? (tool.category?.lowercased() == "hook" ? .hook : nil)
  }

  /// The yarn kind a `tool_type` names: `straight`, `circular`, `dpn`, `interchangeable`,
  /// `cable`; `crochet-hook`, `hook`, `tunisian` are hooks. `nil` for any other type.
  static func kind(ofType type: String?) -> ToolKind? {
    switch type?.lowercased() {
    case "crochet-hook", "hook", "tunisian", "tunisian-hook": .hook
    case let type?: ToolKind(rawValue: type)
    case nil: nil
    }
  }

  /// Reads the tools: each needle or hook as a tool of the library (matched by ID, else added
  /// with it; the fields an item leaves out keep the library tool's values, `keepAbsent`),
  /// its projects the files' or the library's; then adds each project's `tools_used` to its
  /// tool, and takes a library project that gives `tools_used` out of the library's other
  /// tools, unless an entry names no tool of the files or the library (then its tools are
  /// left as they are: the tool may come later, as for `materials_used`). A tool item that
  /// gives `project_assignments` keeps the projects the files give it; when an entry names a
  /// project of neither, a library tool's projects are left as they are, likewise.
  mutating func readTools() throws {
    var byWEFTID: [String: Int] = [:]
    for item in tools {
      try Task.checkCancellation()
      // Every field is checked, each bad one listed; an item with a problem is not kept.
      let before = plan.problems.count
      guard var weft = decode(WEFT.Tool.self, item) else { continue }
      // A blank kind or size name is none, as null is (docs/CLI.md: a blank field is left out).
      for field in [\WEFT.Tool.category, \.toolType, \.usSize, \.hookSize] {
        if let text = weft[keyPath: field], LineText.isBlankLine(text.trimmingSpaces()) {
          weft[keyPath: field] = nil
        }
      }
      let base: Tool? = try weft.id.flatMap { StashCSV.isValidImportedID($0) ? try store.tool(id: $0) : nil }
      // `brand` and `model` make the name of a tool without a name of its own.
      let named = [weft.brand, weft.model].compactMap { $0?.trimmingSpaces() }.filter {
        !LineText.isBlankLine($0)
      }
      let ownName = weft.name.map { !LineText.isBlankLine($0.trimmingSpaces()) } ?? false
      // A kind the item does not give (neither `tool_type` nor `category`, each absent, null or
      // blank: a tool always has a kind) is the library tool's.
      // Category `needle` alone is a knitting needle (the category of the needle types,
      // 05-tool/tool.schema.json) of a type it does not say: a library needle keeps its kind.
      let givesKind = weft.toolType != nil || weft.category != nil
      let needleOfNoType = weft.category?.lowercased() == "needle" && weft.toolType == nil
      let keptKind = base.flatMap { !givesKind || (needleOfNoType && !$0.kind.isHook) ? $0.kind : nil }
      guard let kind = WEFTPlanner.kind(of: weft) ?? keptKind else {
        // What the report calls the item: its name, else its brand and model, else the library
        // tool's name; its position alone when it has none.
        let called =
          (ownName ? weft.name?.trimmingSpaces() : named.isEmpty ? base?.name : named.joined(separator: " "))
          .map { "“\(LineText.visible($0))”: " } ?? ""
        let category = weft.category.map(LineText.visible)
        let type = weft.toolType.map(LineText.visible)
        let needles = "yarn keeps a needle as straight, circular, dpn, interchangeable or cable"
        let tools = "yarn keeps knitting needles and crochet hooks"
        let why =
          if needleOfNoType {
            "a needle (category needle) without a tool_type; \(needles), and cannot tell which"
              + (base != nil ? "; the library's tool is a crochet hook" : "")
          } else if let type, category?.lowercased() == "needle" {
            "a needle of tool_type \(type), which yarn does not keep; \(needles)"
          } else if let what = category.map({ "category \($0)" }) ?? type.map({ "tool_type \($0)" }) {
            "a tool of \(what), which yarn does not keep; \(tools)"
          } else {
            "a tool without a category or tool_type; \(tools), and cannot tell which"
          }
        omit(item.file, item.path, called + why)
        continue
      }
      let given = required(weft.id, item, "id")
      if let given, isRepeated(given, kind: "tool", item) { continue }
      let id = given ?? ""
      // `brand` and `model` that name the tool are kept; beside a name of its own they are not.
      let naming = ownName ? [] : ["brand", "model"].map { "\(item.path).\($0)" }
      for path in WEFTKept.tool.unkept(in: item.value, at: item.path) where !naming.contains(path) {
        omit(item.file, path)
      }
      var tool = Tool(
        id: StashCSV.isValidImportedID(id) ? id : Identifier.make(), name: "", kind: kind,
        count: weft.quantity ?? 1)
      let sizeKey: String
      (tool.size, sizeKey) = toolSize(weft, kind: kind, item, kept: base?.size)
      tool.name = line(weft.name, item, "name") ?? named.joined(separator: " ")
      // Inches converted as every figure is, rounded to 15 digits: 33 in is 83.82 cm.
      tool.lengthCentimetres =
        weft.lengthCm ?? weft.lengthInches.map { UnitConversion.rounded($0 * 2.54) }
      tool.material = line(weft.material, item, "material")
      // A size the item does not give (none of `metric_size_mm`, `us_size`, `hook_size`, each
      // absent, null or blank: a tool has a size unless it is a cable) is the library tool's.
      let sizes = [
        ("metric_size_mm", weft.metricSizeMm != nil), ("us_size", weft.usSize != nil),
        ("hook_size", weft.hookSize != nil),
      ]
      let givesSize = sizes.contains { $0.1 }
      if let base { keepAbsent(&tool, base, item, givesSize: givesSize) }
      // No name, brand or model given or kept: named by its size (given or kept) and kind.
      if tool.name.isEmpty {
        tool.name = [tool.sizeText, kind.words].compactMap { $0 }.joined(separator: " ")
      }
      // The reports of what is not kept call the tool by the name it is kept with.
      let called = "“\(LineText.visible(tool.name))”: "
      // `tool_type` is the type within the category (tool.schema.json): beside a category of
      // another tool it gives the kind, and the category is said not kept.
      if let category = weft.category, let typed = WEFTPlanner.kind(ofType: weft.toolType),
        category.lowercased() != (typed.isHook ? "hook" : "needle")
      {
        omit(
          item.file, "\(item.path).category",
          called + "category \(LineText.visible(category)) contradicts tool_type "
            + "\(LineText.visible(weft.toolType ?? "")); tool_type, the more specific of the two, is taken: "
            + "kind \(typed.rawValue)")
      }
      // A cable has no size (`Tool.ruleViolations`): one given is not kept.
      for (key, given) in sizes where kind == .cable && given {
        omit(item.file, "\(item.path).\(key)", called + "a cable has no size")
      }
      // A `us_size` or `hook_size` beside the size kept from another field is lost unless it
      // names that size, read as it would be were it the one taken: refused by that reading,
      // it is said in its words; read as another size, it is said not to be the size kept.
      for (key, text, read, names) in WEFTPlanner.namedSizes(weft) where key != sizeKey {
        guard let size = tool.size else { continue }
        switch read {
        case .success(size): continue
        case .success:
          omit(
            item.file, "\(item.path).\(key)",
            called
              + "\(key) \(LineText.quoted(text)) is not \(size.text(names)), the size kept from \(sizeKey)"
          )
        case .failure(let refusal): omit(item.file, "\(item.path).\(key)", called + "\(key) \(refusal)")
        }
      }
      // An entry naming no project found leaves a library tool's projects as they are, as
      // one of `materials_used` or `tools_used` leaves a project's (the project may come
      // later); a new tool gets the projects that are found.
      let kept = base != nil ? "; the tool's projects are left as they are" : ""
      var incomplete = false
      for (index, weftProject) in (weft.projectAssignments ?? []).enumerated() {
        let path = "\(item.path).project_assignments[\(index)]"
        if let projectID = try projectID(weftProject) {
          // Each project once: one given again is said not kept, as a tool given again in
          // `tools_used` is.
          if tool.projectIDs.contains(projectID) {
            omit(item.file, path, called + "the project \(weftProject) is given before")
          } else {
            tool.projectIDs.append(projectID)
          }
        } else {
          omit(
            item.file, path,
            called + "the project \(weftProject) is in neither the files nor the library" + kept)
          incomplete = true
        }
      }
      if let base, incomplete { tool.projectIDs = base.projectIDs }
      rules(
        tool.ruleViolations(), item,
        fields: [
          "name": "name", "size": sizeKey,
          "length": weft.lengthCm == nil && weft.lengthInches != nil ? "length_inches" : "length_cm",
          "material": "material",
          "count": "quantity", "projects": "project_assignments",
        ])
      guard plan.problems.count == before else { continue }
      byWEFTID[id] = toolDrafts.count
      toolDrafts.append((item, tool, base))
    }
    var replaced = toolsReplaced
    var named = Set<String>()
    for link in toolLinks {
      let kept = toolsReplaced[link.projectID] != nil ? "; the project's tools are left as they are" : ""
      guard let toolID = link.toolID else {
        omit(link.file, link.path, "names no tool_id, so no tool of the library" + kept)
        replaced[link.projectID] = nil
        continue
      }
      named.insert(link.projectID + "\u{0}" + toolID)
      if let index = byWEFTID[toolID] {
        if !toolDrafts[index].tool.projectIDs.contains(link.projectID) {
          toolDrafts[index].tool.projectIDs.append(link.projectID)
        }
      } else if StashCSV.isValidImportedID(toolID), var tool = try store.tool(id: toolID) {
        // A library tool the files have no item of is planned (and counted) only when a
        // project is added to it, as a yarn that `materials_used` names is not counted.
        guard !tool.projectIDs.contains(link.projectID) else { continue }
        tool.projectIDs.append(link.projectID)
        byWEFTID[toolID] = toolDrafts.count
        toolDrafts.append(
          (WEFTItem(file: link.file, path: link.path, value: .null), tool, try store.tool(id: toolID)))
      } else {
        omit(link.file, link.path, "the tool \(toolID) is in neither the files nor the library" + kept)
        replaced[link.projectID] = nil
      }
    }
    // The library tools a replacing project's `tools_used` does not name leave it. (A
    // library tool keeps its ID in the files, so a link names it by its ID.)
    if !replaced.isEmpty {
      for libraryTool in try store.tools() {
        let leaving = libraryTool.projectIDs.filter {
          replaced[$0] != nil && !named.contains($0 + "\u{0}" + libraryTool.id)
        }
        guard let first = leaving.first, let field = replaced[first] else { continue }
        if let index = byWEFTID[libraryTool.id] {
          // A tool item that gives its `project_assignments` keeps them.
          if !WEFTPlanner.gives(toolDrafts[index].item.value, "project_assignments") {
            toolDrafts[index].tool.projectIDs.removeAll { leaving.contains($0) }
          }
        } else {
          var tool = libraryTool
          tool.projectIDs.removeAll { leaving.contains($0) }
          byWEFTID[libraryTool.id] = toolDrafts.count
          toolDrafts.append((WEFTItem(file: field.file, path: field.path, value: .null), tool, libraryTool))
        }
      }
    }
    // The projects of the tools updated, by name: as this import leaves them (a project of
    // the files by its item's name), else as the library has them.
    let updated = toolDrafts.filter { $0.base != nil && $0.base != $0.tool }
    var projectNames = try store.projectNames(
      ids: updated.flatMap { $0.tool.projectIDs + ($0.base?.projectIDs ?? []) })
    for (_, project, _, _) in plannedProjects { projectNames[project.id] = project.name }
    for (item, tool, base) in toolDrafts {
      if let base, base == tool {
        plan.toolsUnchanged += 1
      } else if let base {
        plan.toolUpdates.append(tool)
        plan.changes.append(
          WEFTImport.Change(
            file: item.file, path: item.path, kind: "tool", id: tool.id, name: tool.name,
            changes: WEFTPlanner.toolChanges(from: base, to: tool, projectNames: projectNames)))
      } else {
        plan.toolCreates.append(tool)
      }
    }
  }

  /// The tool's fields the item leaves out, as the library's tool has them: a field absent
  /// from the item keeps the library's value, one present (even empty or null) replaces it.
  /// The name is given by `name`, `brand` or `model` (it is read from them), the length by
  /// `length_cm` or `length_inches`; the size is kept unless `givesSize` (a cable has none).
  /// (The kind and whether a size is given are settled by the caller.)
  private func keepAbsent(_ tool: inout Tool, _ base: Tool, _ item: WEFTItem, givesSize: Bool) {
    func keep<T>(_ field: WritableKeyPath<Tool, T>, _ keys: String...) {
      if !keys.contains(where: { WEFTPlanner.gives(item.value, $0) }) {
        tool[keyPath: field] = base[keyPath: field]
      }
    }
    keep(\.name, "name", "brand", "model")
    if tool.kind != .cable && !givesSize { tool.size = base.size }
    keep(\.lengthCentimetres, "length_cm", "length_inches")
    keep(\.material, "material")
    keep(\.count, "quantity")
    keep(\.projectIDs, "project_assignments")
  }

  /// The yarn project ID of a WEFT project ID: one of the files', or of the library.
  func projectID(_ weftID: String) throws -> String? {
    if let mapped = projectIDs[weftID] { return mapped }
    if StashCSV.isValidImportedID(weftID), try store.project(id: weftID) != nil { return weftID }
    return nil
  }

  /// A tool's size: `metric_size_mm`, else `us_size` (a US needle) or `hook_size` (a hook's
  /// name), read by `namedSizes`; `nil` (a problem when given and not a size). A cable's
  /// size is not kept. With the key of the field that gave the size (`metric_size_mm` when
  /// none did). `kept`, the size of the library tool the item updates, is taken though an
  /// older yarn stored it under the smallest size, as the store keeps it: a file exported
  /// from the library changes nothing when imported back.
  private mutating func toolSize(
    _ weft: WEFT.Tool, kind: ToolKind, _ item: WEFTItem, kept: NeedleSize?
  ) -> (NeedleSize?, String) {
    // A cable has no size (`Tool.ruleViolations`): one given is said not kept by the caller.
    guard kind != .cable else { return (nil, "metric_size_mm") }
    if let millimetres = weft.metricSizeMm {
      if let kept, NeedleSize(millimetres: millimetres) == kept { return (kept, "metric_size_mm") }
      // The rule of a size typed (`Rules.needleSize`), in its words.
      if let violation = Rules.needleSize(millimetres) {
        problem(item.file, "\(item.path).metric_size_mm", violation.reason)
        return (nil, "metric_size_mm")
      }
      return (NeedleSize(millimetres: millimetres), "metric_size_mm")
    }
    guard let (key, _, read, _) = WEFTPlanner.namedSizes(weft).first else { return (nil, "metric_size_mm") }
    switch read {
    case .success(let size): return (size, key)
    case .failure(let refusal):
      problem(item.file, "\(item.path).\(key)", "\(refusal)")
      return (nil, key)
    }
  }

  /// The size names a tool gives, in the order a size is taken from them: `us_size`, then
  /// `hook_size`; each with its reading, the one whether it is taken or beside the size
  /// taken, and the names its size is shown with. Both are read alike, by
  /// `NeedleSize(parsing:namedIn:)`: a name of the field's table (`us_size` `8`, `10½`;
  /// `hook_size` `H-8`, `steel 7`, and the table's `7`, as export writes 4.5 mm), else a size
  /// as `--size` reads it (`US 8`, `US H-8`, `5mm`); a refusal is in the field's table's words,
  /// quoting the text as the file gives it (`"99" is not a US needle size`, not the `US 99`
  /// read).
  private static func namedSizes(
    _ weft: WEFT.Tool
  ) -> [(key: String, text: String, read: Result<NeedleSize, NeedleSizeParseError>, names: NeedleSize.Names)]
  {
    [
      ("us_size", weft.usSize, NeedleSize.Names.needle, NeedleSizeParseError.Table.us),
      ("hook_size", weft.hookSize, .hook, .hook),
    ]
    .compactMap { key, text, names, table in
      text.map { text in
        let read = Result { () throws(NeedleSizeParseError) in try NeedleSize(parsing: text, namedIn: table) }
        return (key, text, read, names)
      }
    }
  }

  /// A project's needle and hook sizes: `ext.knitting.needle_sizes_mm` and
  /// `ext.crochet.hook_sizes_mm`, in order; `nil` for none. (The sizes of its `tools_used`
  /// are its tools'.) `kept`, the sizes of the library project the item updates, are taken
  /// as the store keeps them (`refuseNewSizes`, `refuseRepeatedSizes`): one under the
  /// smallest size or a repeat that an older yarn stored.
  mutating func needleSizes(_ weft: WEFT.Project, _ item: WEFTItem, kept: [NeedleSize]) -> [NeedleSize]? {
    var given: [(Double, String)] = []
    for (index, mm) in (weft.ext?.knitting?.needleSizesMm ?? []).enumerated() {
      given.append((mm, "ext.knitting.needle_sizes_mm[\(index)]"))
    }
    for (index, mm) in (weft.ext?.crochet?.hookSizesMm ?? []).enumerated() {
      given.append((mm, "ext.crochet.hook_sizes_mm[\(index)]"))
    }
    var sizes: [NeedleSize] = []
    for (mm, path) in given {
      let stored = NeedleSize(millimetres: mm).map { kept.contains($0) } ?? false
      guard stored || Rules.needleSize(mm) == nil, let size = NeedleSize(millimetres: mm) else {
        problem(item.file, "\(item.path).\(path)", Rules.needleSize(mm)?.reason ?? "")
        continue
      }
      // Each size once (`Rules.repeatedNeedleSize`), reported at the repeat's path.
      if let repeated = Rules.repeatedNeedleSize(sizes + [size]),
        (sizes + [size]).filter({ $0 == size }).count > kept.filter({ $0 == size }).count
      {
        problem(item.file, "\(item.path).\(path)", repeated.violation.reason)
        continue
      }
      sizes.append(size)
    }
    return sizes.isEmpty ? nil : sizes
  }

  /// The fields of a tool an update changes, each `Name old → new`. Its projects are named
  /// by `projectNames` (`naming`).
  static func toolChanges(from old: Tool, to new: Tool, projectNames: [String: String]) -> [String] {
    let named = naming(among: old.projectIDs + new.projectIDs, names: projectNames)
    let fields: [(String, (Tool) -> String?)] = [
      ("Name", { $0.name }), ("Kind", { $0.kind.rawValue }),
      // The size is compared in millimetres: its US size or hook name follows the kind, so
      // a change of kind alone is no change of size (`5 mm (US 8)` is `5 mm (H-8)`).
      ("Size", { old.size == new.size ? nil : $0.sizeText }),
      ("Length", { $0.lengthCentimetres.map { "\(Amount.format($0)) cm" } }), ("Material", { $0.material }),
      ("Count", { String($0.count) }),
      ("Projects", { $0.projectIDs.isEmpty ? nil : $0.projectIDs.map(named).joined(separator: ", ") }),
    ]
    return fields.compactMap { name, text in
      text(old) == text(new) ? nil : StashCSV.FieldChange.text(name, old: text(old), new: text(new))
    }
  }
}
