import YarnCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `yarn weft`: the library as WEFT documents (WEFT, luxxyarns/weft, CC-BY-4.0).
struct WEFTCommand: CommandGroup {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "weft", abstract: "Export the library as WEFT documents, or import WEFT documents.",
      discussion: """
        WEFT (Widely Exchangeable Format for Textiles, luxxyarns/weft, CC-BY-4.0) is an open
        JSON format for craft data that other apps read and write. docs/WEFT.md maps every
        WEFT field to yarn's, or says it is not kept.
        """,
      subcommands: [WEFTExportCommand.self, WEFTImportCommand.self])
  }
}

/// `yarn weft export DIR [--force]`.
struct WEFTExportCommand: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "export", abstract: "Write the library as WEFT documents into a folder.",
      discussion: """
        Writes DIR/material.weft (the stash), DIR/project.weft (the projects, with the yarns,
        needle sizes and tools they use), DIR/progress.weft (each project's time sessions as
        its timer sessions) and DIR/tool.weft (the needles and hooks), each valid against
        WEFT 1.0's JSON schema. DIR is made when missing; a
        file already there is replaced only with --force. Photos, the pattern PDF and
        session notes are not written (WEFT has no place for them), nor a running session:
        the export says how many it leaves out.

        EXAMPLE:
          yarn weft export my-stash-weft
        """,
      arguments: [.required("dir", "The folder to write the documents into.")],
      options: [.flag("force", "Replace the documents if they exist.")])
  }

  var directory: String
  var force: Bool

  init(from values: ParsedValues) throws {
    directory = try values.requiredArgument("dir")
    force = values.flag("force")
  }

  func run(in context: Context) throws {
    if FileManager.default.fileExists(atPath: directory), !InputFile.isDirectory(directory) {
      throw CLIError.cannotCreateOutput(path: directory, reason: "it is not a folder")
    }
    let summary: WEFTExport.Summary
    let bar = ProgressBar("exporting", context: context)
    defer { bar.finish() }
    do {
      summary = try context.withStore(.readOnly) { store in
        try WEFTExport.write(
          from: store, to: URL(fileURLWithPath: directory), force: force, now: context.now,
          app: YarnTool.version, progress: bar.callback)
      }
    } catch WEFTExportError.exists(let path) {
      throw CLIError.outputExists(path: path)
    }
    bar.finish()
    if context.global.json {
      try context.printJSON(summary)
    } else {
      for file in summary.files { context.output.line(file) }
    }
    if summary.runningLeftOut > 0 {
      context.warning(
        "the running session is not exported: a WEFT timer session needs its length (stop it first)")
    }
    context.message(
      "exported \(Plural.count(summary.yarns, "yarn")), \(Plural.count(summary.projects, "project")), "
        + "\(Plural.count(summary.sessions, "session")) and \(Plural.count(summary.tools, "tool")) to \(visible: directory)"
    )
    if summary.notInWEFT != WEFTExport.NotInWEFT() {
      context.message("not in WEFT: \(summary.notInWEFT) (docs/WEFT.md)")
    }
  }
}

/// `yarn weft import FILE… [--dry-run]`.
struct WEFTImportCommand: CancellableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "import", abstract: "Add or update yarns, projects, tools and time sessions from WEFT documents.",
      discussion: """
        Reads WEFT 1.x documents of type material (yarn only), project, progress (its timer
        sessions), tool (needles and hooks) or bundle, from yarn or any other app, such as Stash2Go's and the
        Ravelry-profile exports. Files are read together: a project's yarns and a progress's
        project may be in another file. An item whose id is an ID of the library updates it
        (the fields the item gives; a field it leaves out keeps the library's value, and
        photos and notes are kept), a material whose id is not one
        yarn keeps is matched by name, brand, colorway and dye lot as 'yarn stash import'
        matches rows, and others are added with their id; an item equal to its library item
        changes nothing, so importing the same files twice adds nothing. Every field yarn
        has no place for is listed as not kept. All or nothing: when any field is bad, each
        is listed with its file and JSON path, nothing is imported and the exit status is
        65. See docs/WEFT.md. A FILE - reads a document from standard input (named
        "standard input" in messages; once). A progress bar is shown on standard error when
        it is a terminal.

        EXAMPLES:
          yarn weft import material.weft project.weft progress.weft --dry-run
          yarn weft import stash2go-backup.weft
          curl -s https://example.org/stash.weft | yarn weft import -
        """,
      arguments: [.variadic("file", "The WEFT files (.weft, JSON); - for standard input.")],
      options: [
        .flag("dry-run", "Check the files and say what would change, changing nothing."),
        .flag("list-not-kept", "List every field not kept with its JSON path, not only their names."),
        .flag(
          "allow-overlap",
          "Take sessions that overlap others, as 'yarn time add --allow-overlap' records them."),
      ])
  }

  var files: [String]
  var dryRun: Bool
  var listAll: Bool
  var allowOverlap: Bool
  var command: [String]

  init(from values: ParsedValues) throws {
    files = values.argumentList("file")
    if files.isEmpty { _ = try values.requiredArgument("file") }
    command = values.command
    if files.filter({ $0 == "-" }).count > 1 {
      throw CLIError.badValue(
        command: values.command, name: "<file>", value: "-",
        reason: "standard input can be read once; give - once")
    }
    dryRun = values.flag("dry-run")
    listAll = values.flag("list-not-kept")
    allowOverlap = values.flag("allow-overlap")
  }

  /// What `--json` prints.
  struct Summary: Encodable {
    struct Update: Encodable {
      var file: String
      var path: String
      var kind: String
      var id: String
      var name: String
      var changes: [String]
    }
    struct NotKept: Encodable {
      var file: String
      var path: String
      var reason: String?
    }
    var files: [String]
    var dryRun: Bool
    var yarns: [String: Int]
    var projects: [String: Int]
    var sessions: [String: Int]
    var tools: [String: Int]
    var notes: Int
    var updates: [Update]
    var remainingOverrides: [String]
    var notKept: [NotKept]
    var warnings: [String]
  }

  /// Plans the import of `sources` and applies it in one write transaction of `store`, rolled
  /// back when the plan has problems (the plan is returned, listing them) or a write fails.
  static func importing(
    _ sources: [WEFTImport.Source], into store: LibraryStore, now: Date, allowOverlap: Bool,
    progress: ((Double) -> Void)?
  ) throws -> WEFTImport.Plan {
    /// Carries the plan of a refused import out of the transaction it rolls back.
    struct Refused: Error {
      let plan: WEFTImport.Plan
    }
    do {
      return try store.write {
        let plan = try WEFTImport.plan(
          sources, store: store, now: now, allowOverlap: allowOverlap, progress: progress)
        guard plan.problems.isEmpty else { throw Refused(plan: plan) }
        try WEFTImport.apply(plan, to: store, progress: progress)
        return plan
      }
    } catch let refused as Refused {
      return refused.plan
    }
  }

  func run(in context: Context) throws {
    var sources: [WEFTImport.Source] = []
    for file in files {
      let input = try InputFile.open(file, command: command, library: context.global.library, name: "<file>")
      defer { input.remove() }
      do {
        sources.append(WEFTImport.Source(name: input.name, data: try Data(contentsOf: input.url)))
      } catch {
        throw CLIError.io(path: input.name, reason: "\(error)")
      }
    }
    let bar = ProgressBar(dryRun ? "checking" : "importing", context: context)
    defer { bar.finish() }
    let plan: WEFTImport.Plan
    do {
      if dryRun {
        plan = try context.read(warnIfMissing: false) { store in
          try WEFTImport.plan(
            sources, store: store, now: context.now, allowOverlap: allowOverlap, progress: bar.callback)
        }
      } else {
        // Planned once, inside the write transaction, and applied there; a plan with problems
        // rolls it back, and a new library is built aside and kept only when the import is
        // (`Context.create`): bad files change nothing, not even by creating the library.
        let importing = { (store: LibraryStore) in
          try WEFTImportCommand.importing(
            sources, into: store, now: context.now, allowOverlap: allowOverlap, progress: bar.callback)
        }
        plan =
          try context.libraryIsMissing
          ? try context.create(importing, keep: { $0.problems.isEmpty })
          : try context.withStore(.readWrite, importing)
      }
    } catch let error as WEFTImport.ImportError {
      throw CLIError.invalidData(message: "\(error)", hint: "import again")
    }
    bar.finish()
    guard plan.problems.isEmpty else {
      // Files that are not JSON: the fix of their fault, when they share one.
      let fixes = Set(plan.problems.map(\.fix))
      let fix =
        fixes.contains(nil)
        ? "fix these fields (each named by its file and JSON path)"
        : fixes.count == 1 ? (fixes.first ?? nil) ?? "" : "fix the JSON where it is named"
      throw CLIError.invalidData(
        message: "\(WEFTImport.ImportError(problems: plan.problems))", hint: "\(fix) and import again")
    }
    for warning in plan.warnings { context.warning(warning.description) }
    report(plan, in: context)
    if context.global.json {
      try context.printJSON(
        Summary(
          files: files, dryRun: dryRun,
          yarns: [
            "added": plan.yarnCreates.count, "updated": plan.yarnUpdates.count,
            "unchanged": plan.yarnsUnchanged,
          ],
          projects: [
            "added": plan.projectCreates.count, "updated": plan.projectUpdates.count,
            "unchanged": plan.projectsUnchanged,
          ],
          sessions: ["added": plan.sessionCreates.count, "unchanged": plan.sessionsUnchanged],
          tools: [
            "added": plan.toolCreates.count, "updated": plan.toolUpdates.count,
            "unchanged": plan.toolsUnchanged,
          ],
          notes: plan.notes.count,
          updates: plan.changes.map {
            Summary.Update(
              file: $0.file, path: $0.path, kind: $0.kind, id: $0.id, name: $0.name, changes: $0.changes)
          },
          remainingOverrides: plan.remainingOverrides.map(\.description),
          notKept: plan.omissions.map { Summary.NotKept(file: $0.file, path: $0.path, reason: $0.reason) },
          warnings: plan.warnings.map(\.description)))
    }
    let verb = dryRun ? ("to add", "to update") : ("added", "updated")
    func counts(_ noun: String, _ added: Int, _ updated: Int?, _ unchanged: Int) -> String {
      "\(Plural.count(added, noun)) \(verb.0)" + (updated.map { ", \($0) \(verb.1)" } ?? "")
        + ", \(unchanged) unchanged"
    }
    let summary = [
      counts("yarn", plan.yarnCreates.count, plan.yarnUpdates.count, plan.yarnsUnchanged),
      counts("project", plan.projectCreates.count, plan.projectUpdates.count, plan.projectsUnchanged),
      counts("session", plan.sessionCreates.count, nil, plan.sessionsUnchanged),
      counts("tool", plan.toolCreates.count, plan.toolUpdates.count, plan.toolsUnchanged),
    ].joined(separator: "; ")
    context.message(dryRun ? "dry run: \(summary); nothing was changed" : "imported: \(summary)")
  }

  /// The updates, the overrides set on new yarns and the fields not kept, on standard
  /// error: each field with a reason on a line of its own, the others by name per file
  /// (every path with `--list-not-kept`).
  private func report(_ plan: WEFTImport.Plan, in context: Context) {
    for change in plan.changes {
      context.message(
        "\(visible: change.file): \(change.path): \(dryRun ? "would update" : "updated") \(change.kind) “\(visible: change.name)”: "
          + change.changes.joined(separator: "; "))
    }
    for taken in plan.remainingOverrides { context.message(taken.description) }
    var byFile: [String: [String]] = [:]
    var order: [String] = []
    for omission in plan.omissions {
      if omission.reason != nil || listAll {
        context.message(omission.description)
        continue
      }
      if byFile[omission.file] == nil { order.append(omission.file) }
      if !(byFile[omission.file] ?? []).contains(omission.field) {
        byFile[omission.file, default: []].append(omission.field)
      }
    }
    for file in order {
      context.message(
        "\(visible: file): not kept (yarn has no place for them): "
          + (byFile[file] ?? []).joined(separator: ", "))
    }
  }
}
