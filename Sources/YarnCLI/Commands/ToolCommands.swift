import YarnCore

/// `yarn tool`: the needles and hooks (issue 14).
struct ToolCommand: CommandGroup {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "tool", abstract: "Add, list, show, edit and remove knitting needles and crochet hooks.",
      discussion: """
        Sizes are kept in millimetres and shown with the US size (and hook name) of the Craft
        Yarn Council's tables; a size between the tables' rows is shown in mm only. --size
        reads 4.5mm, "4.5 mm", US 7, US7, UK 7 (old UK sizes), hook names, US before them or
        not (H-8, H, "US H-8"), and steel hooks (steel 7). docs/UNITS.md has the tables.
        """,
      subcommands: [ToolAdd.self, ToolList.self, ToolShow.self, ToolEdit.self, ToolRemove.self])
  }
}

/// The fields a user sets with `tool add` and `tool edit`: `nil` is "not given"; in `edit`
/// an empty value clears an optional field (`.some(nil)`).
struct ToolFields {
  static func options(kindRequired: Bool) -> [OptionSpec] {
    [
      .value(
        "kind", "kind",
        "straight, circular, dpn (double-pointed), interchangeable (tips), cable or hook.",
        required: kindRequired, completion: .cases(of: ToolKind.self)),
      .value("size", "size", "The size: 4.5mm, US 7, UK 7, H-8, H, \"US H-8\" or steel 7 (not for a cable)."),
      .value(
        "length", "length",
        "The length: 80cm, 32in or 800mm (a circular's tip to tip; a cable's, the circular it makes)."),
      .value("material", "text", "What it is made of: bamboo, metal, wood, plastic, carbon, ..."),
      .value("count", "number", "How many of it you have (a set counts as one; default 1)."),
    ]
  }

  var kind: ToolKind?
  var size: NeedleSize??
  var length: Double??
  var material: String??
  var count: Int?

  init(_ values: ParsedValues) throws {
    kind = try values.typed("kind", expected: "a kind: \(ToolKind.acceptedWords)") {
      ToolKind(parsing: $0)
    }
    if let text = values.value("size") {
      size =
        text.trimmingSpaces().isEmpty
        ? .some(nil) : .some(try values.typed("size", expected: "a size") { try NeedleSize(parsing: $0) })
    }
    if let text = values.value("length") {
      length =
        text.trimmingSpaces().isEmpty
        ? .some(nil)
        : .some(
          try values.typed("length", expected: "a length such as 80cm, 32in or 800mm") {
            try ToolFields.centimetres($0)
          })
    }
    material = try values.singleLine("material")
    count = try values.typed("count", expected: "a whole number of at least 1") { text in
      Int(text.trimmingSpaces()).flatMap { $0 >= 1 ? $0 : nil }
    }
  }

  /// Reads a length in cm, mm or inches (`80cm`, `80 cm`, `800mm`, `32in`, `32"`, `80,5 cm`),
  /// its number as `DecimalNumber` reads one: its value in centimetres (1 in = 2.54 cm
  /// exactly; a length in mm or inches converted and rounded to 15 significant digits,
  /// `UnitConversion.rounded`), or `nil` for anything else. A length of 0 or over the limit is read: the store
  /// refuses it in the words of `Rules.toolLength`.
  ///
  /// - Throws: `DecimalNumberError` for an ambiguous comma (`1,200mm`) or a number too small
  ///   to be kept as anything but 0.
  static func centimetres(_ text: String) throws(DecimalNumberError) -> Double? {
    let lowered = text.trimmingSpaces().lowercased()
    let units: [(suffix: String, factor: Double)] = [
      ("cm", 1), ("mm", 0.1), ("inches", 2.54), ("inch", 2.54), ("in", 2.54), ("\"", 2.54),
    ]
    for (suffix, factor) in units where lowered.hasSuffix(suffix) {
      let number = String(lowered.dropLast(suffix.count)).trimmingSpaces()
      let value: Double
      do {
        value = try DecimalNumber.value(of: number, input: text.trimmingSpaces())
      } catch {
        if error.problem == .malformed { return nil }
        throw error
      }
      guard value.isFinite else { return nil }
      // Converted, rounded to 15 digits as every conversion is (docs/UNITS.md): 10000.1 mm is
      // 1000.01 cm, not 1000.0100000000001.
      return factor == 1 ? value : UnitConversion.rounded(value * factor)
    }
    return nil
  }

  /// Sets every given field of `tool`.
  func apply(to tool: inout Tool) {
    if let kind { tool.kind = kind }
    if let size { tool.size = size }
    if let length { tool.lengthCentimetres = length }
    if let material { tool.material = material }
    if let count { tool.count = count }
  }
}

/// A tool as `--json` prints it: the stored fields, the size's names from the tables, and its
/// projects by ID and name.
struct ToolJSON: Encodable {
  struct ProjectRef: Encodable {
    let id: String
    let name: String
  }
  let id: String
  let name: String
  let kind: String
  let sizeMillimetres: Double?
  let usSize: String?
  let hookSize: String?
  let lengthCentimetres: Double?
  let material: String?
  let count: Int
  let projects: [ProjectRef]

  init(_ tool: Tool, projectNames: [String: String]) {
    id = tool.id
    name = tool.name
    kind = tool.kind.rawValue
    sizeMillimetres = tool.size?.millimetres
    usSize = tool.kind.isHook ? nil : tool.size?.usNeedle
    hookSize = tool.kind.isHook ? tool.size?.hook : nil
    lengthCentimetres = tool.lengthCentimetres
    material = tool.material
    count = tool.count
    projects = tool.projectIDs.map { ProjectRef(id: $0, name: projectNames[$0] ?? $0) }
  }

  func encode(to encoder: any Encoder) throws {
    enum Keys: String, CodingKey {
      case id, name, kind, sizeMillimetres, usSize, hookSize, lengthCentimetres, material, count
      case projects
    }
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode(id, forKey: .id)
    try container.encode(name, forKey: .name)
    try container.encode(kind, forKey: .kind)
    try container.encode(sizeMillimetres, forKey: .sizeMillimetres)
    try container.encode(usSize, forKey: .usSize)
    try container.encode(hookSize, forKey: .hookSize)
    try container.encode(lengthCentimetres, forKey: .lengthCentimetres)
    try container.encode(material, forKey: .material)
    try container.encode(count, forKey: .count)
    try container.encode(projects, forKey: .projects)
  }
}

/// The names of `tools`' projects, by ID.
private func projectNames(of tools: [Tool], in store: LibraryStore) throws -> [String: String] {
  try store.projectNames(ids: tools.flatMap(\.projectIDs))
}

/// `80 cm`, `81.28 cm`.
private func lengthText(_ centimetres: Double) -> String { "\(Amount.format(centimetres)) cm" }

enum ToolReferences {
  /// The tool `reference` names in `store` (`References.toolID(_:in:)`: by `Lookup.find`'s
  /// rules, found by the tools' indexes), read with its projects.
  ///
  /// - Throws: `CLIError.notFound` (with the nearest names) or `.ambiguous`; `StoreError`.
  static func tool(_ reference: String, in store: LibraryStore) throws -> Tool {
    let id = try References.toolID(reference, in: store)
    guard let tool = try store.tool(id: id) else { throw StoreError.notFound(kind: .tool, id: id) }
    return tool
  }
}

/// `yarn tool add NAME --kind KIND [--size SIZE] [options]`.
struct ToolAdd: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "add", abstract: "Add a knitting needle or crochet hook to the inventory.",
      discussion: """
        Every kind but a cable needs --size.

        EXAMPLES:
          yarn tool add "ChiaoGoo Red Lace" --kind circular --size US8 --length 80cm --material metal
          yarn tool add "Clover Amour" --kind hook --size H-8
          yarn tool add "Sock DPNs" --kind dpn --size 2.5mm --length 15cm --count 2
        """,
      arguments: [.required("name", "What you call it, such as \"ChiaoGoo Red Lace 80 cm\".")],
      options: ToolFields.options(kindRequired: true))
  }

  var name: String
  var fields: ToolFields

  init(from values: ParsedValues) throws {
    name = try values.nonEmptyName(values.requiredArgument("name"), label: "<name>")
    fields = try ToolFields(values)
    guard fields.kind != nil else {
      throw CLIError.missingOption(command: values.command, option: "--kind")
    }
  }

  func run(in context: Context) throws {
    var tool = Tool(id: Identifier.make(), name: name, kind: fields.kind ?? .straight)
    fields.apply(to: &tool)
    let namesakes = try context.write { store in
      try store.insert(tool)
      return try store.namesakes(of: tool.name, kind: .tool, besides: tool.id)
    }
    if context.global.json { try context.printJSON(ToolJSON(tool, projectNames: [:])) }
    context.message("added tool \(visible: tool.name) (\(shownID(tool.id)))")
    context.warnOfNamesakes(namesakes, kind: .tool, name: tool.name)
  }
}

/// `yarn tool list`.
struct ToolList: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "list", abstract: "List the needles and hooks.",
      options: [.value("kind", "kind", "Only tools of this kind.", completion: .cases(of: ToolKind.self))],
      aliases: ["ls"])
  }

  var kind: ToolKind?

  init(from values: ParsedValues) throws {
    kind = try values.typed("kind", expected: "a kind: \(ToolKind.acceptedWords)") {
      ToolKind(parsing: $0)
    }
  }

  func run(in context: Context) throws {
    let (tools, names) = try context.read { store in
      let tools = try store.tools().filter { kind == nil || $0.kind == kind }
      return (tools, try projectNames(of: tools, in: store))
    }
    if context.global.json {
      try context.printJSON(tools.map { ToolJSON($0, projectNames: names) })
      return
    }
    guard !tools.isEmpty else {
      context.message(
        kind == nil
          ? "no tools yet; add one with '\(context.yarnCommand("tool add NAME --kind KIND --size SIZE"))'"
          : "no tools of that kind")
      return
    }
    var table = Table(
      ["ID", "NAME", "KIND", "SIZE", "LENGTH", "COUNT", "PROJECTS"], shrinkable: [1, 6])
    for tool in tools {
      table.add([
        shortID(tool.id), tool.name, tool.kind.rawValue, tool.sizeText ?? "-",
        tool.lengthCentimetres.map(lengthText) ?? "-", String(tool.count),
        tool.projectIDs.map { names[$0] ?? $0 }.joined(separator: ", "),
      ])
    }
    context.output.write(table.text(fitting: context.tableWidth))
  }
}

/// `yarn tool show TOOL`.
struct ToolShow: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "show", abstract: "Show a needle or hook: its size, length, material and projects.",
      arguments: [.required("tool", "The tool: its name, ID or an ID prefix.")])
  }

  var reference: String

  init(from values: ParsedValues) throws {
    reference = try values.reference("tool")
  }

  func run(in context: Context) throws {
    let (tool, names) = try context.read { store in
      let tool = try ToolReferences.tool(reference, in: store)
      return (tool, try projectNames(of: [tool], in: store))
    }
    if context.global.json {
      try context.printJSON(ToolJSON(tool, projectNames: names))
      return
    }
    let projects = tool.projectIDs.map { names[$0] ?? $0 }
    context.output.write(
      Formatting.fields([
        ("Name", tool.name),
        ("ID", tool.id),
        ("Kind", tool.kind.words),
        ("Size", tool.sizeText),
        ("Length", tool.lengthCentimetres.map(lengthText)),
        ("Material", tool.material),
        ("Count", String(tool.count)),
        ("Projects", projects.isEmpty ? nil : projects.joined(separator: "\n")),
      ]))
  }
}

/// `yarn tool edit TOOL [options]`.
struct ToolEdit: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "edit",
      abstract: "Change a needle's or hook's facts; an empty value (--material \"\") clears one.",
      arguments: [.required("tool", "The tool: its name, ID or an ID prefix.")],
      options: [.value("name", "text", "A new name.")] + ToolFields.options(kindRequired: false))
  }

  var reference: String
  var newName: String?
  var fields: ToolFields

  init(from values: ParsedValues) throws {
    reference = try values.reference("tool")
    newName = try values.value("name").map { try values.nonEmptyName($0, label: "--name") }
    fields = try ToolFields(values)
  }

  func run(in context: Context) throws {
    let (tool, names, changed, namesakes) = try context.write { store in
      var tool = try ToolReferences.tool(reference, in: store)
      let before = tool
      if let newName { tool.name = newName }
      fields.apply(to: &tool)
      try store.update(tool)
      let namesakes =
        tool.name == before.name ? [] : try store.namesakes(of: tool.name, kind: .tool, besides: tool.id)
      return (tool, try projectNames(of: [tool], in: store), tool != before, namesakes)
    }
    if context.global.json { try context.printJSON(ToolJSON(tool, projectNames: names)) }
    context.message(
      changed
        ? "updated tool \(visible: tool.name) (\(shownID(tool.id)))"
        : "tool \(visible: tool.name) (\(shownID(tool.id))) already had those values; nothing changed"
    )
    context.warnOfNamesakes(namesakes, kind: .tool, name: tool.name)
  }
}

/// `yarn tool rm TOOL [--force]`.
struct ToolRemove: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "rm", abstract: "Remove a needle or hook from the inventory.",
      discussion: """
        A tool that projects use is removed only with --force (it then leaves them); the error
        lists them. --json prints the tool removed.
        """,
      arguments: [.required("tool", "The tool: its name, ID or an ID prefix.")],
      options: [.flag("force", "Remove it even though projects use it (it leaves them).")],
      aliases: ["remove"])
  }

  var reference: String
  var force: Bool

  init(from values: ParsedValues) throws {
    reference = try values.reference("tool")
    force = values.flag("force")
  }

  func run(in context: Context) throws {
    let (tool, names, effects) = try context.write { store in
      let tool = try ToolReferences.tool(reference, in: store)
      let names = try projectNames(of: [tool], in: store)
      return (tool, names, try store.deleteTool(id: tool.id, force: force))
    }
    if context.global.json { try context.printJSON(ToolJSON(tool, projectNames: names)) }
    let with = effects.removals.isEmpty ? "" : " with " + effects.removalList
    context.message("removed tool \(visible: tool.name) (\(shownID(tool.id)))\(with)")
  }
}
