import YarnCore

/// The needle sizes and tools a project is made with (issue 14): `--needle SIZE` and
/// `--tool TOOL` of `project add` and `project edit` (each may be given several times), and
/// `--remove-tool TOOL` of `project edit`. Kept apart from `ProjectFields` so that the other
/// project facts can change beside it.
struct ProjectNeedleFields {
  static let options: [OptionSpec] = [
    .value(
      "needle", "size",
      "A needle or hook size it calls for: 4.5mm, US 7, UK 7, H-8 (repeatable; in edit the sizes given replace the old ones, --needle \"\" clears them)."
    ),
    .value("tool", "tool", "A needle or hook of 'yarn tool list' it is made with (repeatable)."),
  ]
  static let editOptions: [OptionSpec] =
    options + [.value("remove-tool", "tool", "A tool it is no longer made with (repeatable).")]

  /// `nil` when no `--needle` was given; empty to clear them.
  var needles: [NeedleSize]?
  var tools: [String]
  var removedTools: [String]
  /// The command, for the errors `link` throws.
  let command: [String]

  init(_ values: ParsedValues) throws {
    command = values.command
    let given = values.options["needle"] ?? []
    if given.isEmpty {
      needles = nil
    } else if given.count == 1, given[0].trimmingSpaces().isEmpty {
      needles = []
    } else {
      var sizes: [NeedleSize] = []
      for text in given {
        let size: NeedleSize
        do {
          size = try NeedleSize(parsing: text)
        } catch {
          throw CLIError.badValue(
            command: values.command, name: "--needle", value: text, reason: ErrorPresenter.valueReason(error))
        }
        // The rule of the store (`Rules.repeatedNeedleSize`), in its words, said before any
        // change as a bad value (64).
        if let index = sizes.firstIndex(of: size),
          let repeated = Rules.repeatedNeedleSize(sizes + [size])
        {
          throw CLIError.badValue(
            command: values.command, name: "--needle", value: text,
            reason: "\(repeated.violation.reason) (given already as \(quoted: given[index]))")
        }
        sizes.append(size)
      }
      needles = sizes
    }
    tools = try values.references(option: "tool")
    removedTools = try values.references(option: "remove-tool")
    // The same words (`Lookup.key`) given twice to one option, or in both, name the same
    // tool, or the same missing one: a usage error, said before any lookup (which would call
    // a missing tool "not found", 65). Two spellings of one tool are found by `link` once
    // they are looked up.
    for (option, references) in [("--tool", tools), ("--remove-tool", removedTools)] {
      if let repeated = Rules.repeatedToolReference(references, removing: option == "--remove-tool") {
        throw CLIError.badValue(
          command: values.command, name: option, value: references[repeated.index],
          reason:
            "\(repeated.violation.reason) (given already as \(quoted: references[repeated.first]))")
      }
    }
    let added = Set(tools.map(Lookup.key))
    if let both = removedTools.first(where: { added.contains(Lookup.key($0)) }) {
      let shown = tools.first { Lookup.key($0) == Lookup.key(both) } ?? both
      throw CLIError.conflictingOptions(
        command: values.command, options: ["--tool", "--remove-tool"],
        reason: "both name “\(shown: shown.trimmingSpaces())”")
    }
  }

  /// Sets the project's needle sizes when `--needle` was given.
  func apply(to project: inout Project) {
    if let needles { project.needleSizes = needles.isEmpty ? nil : needles }
  }

  /// Puts the project `projectID` in the `--tool` tools and takes it out of the
  /// `--remove-tool` ones, inside the caller's write.
  ///
  /// - Returns: whether a tool changed.
  /// - Throws: `CLIError.notFound` or `.ambiguous` for a tool reference;
  ///   `CLIError.badValue` for a tool given twice to `--tool` or to `--remove-tool`
  ///   (`Rules.repeatedTool`), before any change; `CLIError.conflictingOptions` for a tool
  ///   both added and removed under two spellings (the same words in both are refused by
  ///   `init` before any lookup); `StoreError`.
  func link(projectID: String, in store: LibraryStore) throws -> Bool {
    var changed = false
    let linked = try lookUp(tools, option: "--tool", in: store)
    let removed = try lookUp(removedTools, option: "--remove-tool", in: store)
    let added = Set(linked.map(\.id))
    if let both = removed.first(where: { added.contains($0.id) }) {
      throw CLIError.conflictingOptions(
        command: command, options: ["--tool", "--remove-tool"],
        reason: "both name the tool “\(visible: both.name)”")
    }
    for var tool in linked {
      guard !tool.projectIDs.contains(projectID) else { continue }
      tool.projectIDs.append(projectID)
      try store.update(tool)
      changed = true
    }
    for var tool in removed {
      guard tool.projectIDs.contains(projectID) else { continue }
      tool.projectIDs.removeAll { $0 == projectID }
      try store.update(tool)
      changed = true
    }
    return changed
  }

  /// The tools `references` (the values of `option`) name, each once: one named again, in
  /// any spelling, is the core's rule (`Rules.repeatedTool`), in its words, said as a bad
  /// value (64), as a needle size given twice is.
  private func lookUp(_ references: [String], option: String, in store: LibraryStore) throws -> [Tool] {
    let found = try references.map { try ToolReferences.tool($0, in: store) }
    if let repeated = Rules.repeatedTool(found, removing: option == "--remove-tool"),
      let first = found.firstIndex(where: { $0.id == found[repeated.index].id })
    {
      throw CLIError.badValue(
        command: command, name: option, value: references[repeated.index],
        reason: "\(repeated.violation.reason) (given already as \(quoted: references[first]))")
    }
    return found
  }

  /// The lines `project show` prints: the sizes (`5 mm (US 8 / H-8)`) and the tools
  /// (`Red Lace: circular needle, 5 mm (US 8), 80 cm`).
  static func shown(_ project: Project, tools: [Tool]) -> (needles: String?, tools: String?) {
    let sizes = (project.needleSizes ?? []).map { size -> String in
      switch project.craft {
      case .knitting: size.text(.needle)
      case .crochet: size.text(.hook)
      default: size.text(.both)
      }
    }
    let toolLines = tools.map { tool in
      ([tool.name + ": " + tool.kind.words] + [tool.sizeText].compactMap { $0 }).joined(separator: ", ")
    }
    return (
      sizes.isEmpty ? nil : sizes.joined(separator: "\n"),
      toolLines.isEmpty ? nil : toolLines.joined(separator: "\n")
    )
  }
}
