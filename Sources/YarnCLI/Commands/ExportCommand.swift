import YarnCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `yarn export FILE.zip`: the library as a zip for people (spreadsheets and folders), not for
/// restore.
struct ExportCommand: CancellableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "export",
      abstract: "Write the library as a zip for people: CSV tables and a folder per project and yarn.",
      discussion: """
        The zip holds stash.csv, projects.csv and time.csv, then projects/NAME/ with
        project.txt, the project's photos and its pattern PDF, and yarns/NAME/ with yarn.txt
        and the yarn's photos, and index.html: one page to browse the stash and the projects
        (photos, statuses, remaining amounts, yarns used, time, pattern PDFs), with no scripts
        and links only to files inside the zip. Names are made safe for Windows, macOS and Linux, and names
        that collide are numbered: Flax, Flax (2). This is not a backup: restore needs
        'yarn backup create'. An existing FILE is replaced only with --force; FILE never
        holds a partial export.

        EXAMPLE:
          yarn export stash-for-people.zip
        """,
      arguments: [.required("file", "The zip file to write.")],
      options: [
        .flag("force", "Replace FILE if it exists."),
        .value(
          "delimiter", "delimiter", "The CSV delimiter: comma (default), semicolon or tab.",
          completion: .delimiters),
        .flag("bom", "Begin each CSV with a UTF-8 byte order mark (for Excel)."),
        .flag("no-formula-guard", "Do not prefix CSV cells that look like formulas with '."),
      ])
  }

  var file: String
  var force: Bool
  var options: CSVOptions

  init(from values: ParsedValues) throws {
    file = try values.requiredArgument("file")
    try ZipOutput.check(file, command: values.command)
    force = values.flag("force")
    options = try CSVOutput.csvOptions(values)
  }

  func run(in context: Context) throws {
    if InputFile.isDirectory(file) {
      throw CLIError.cannotCreateOutput(path: file, reason: "it is a directory")
    }
    let bar = ProgressBar("exporting", context: context)
    defer { bar.finish() }
    let summary = try context.withStore(.readOnly) { store in
      try LibraryExport.write(
        from: store, to: URL(fileURLWithPath: file), force: force, now: context.now,
        csvOptions: options, progress: bar.callback, listingEntries: context.global.json)
    }
    bar.finish()
    if context.global.json {
      try context.printJSON(summary.entries)
    } else {
      context.output.line(file)
    }
    context.message(
      "exported \(Plural.count(summary.yarns, "yarn")), "
        + "\(Plural.count(summary.projects, "project")) and "
        + "\(Plural.count(summary.files, "file")) to \(visible: file)")
  }
}
