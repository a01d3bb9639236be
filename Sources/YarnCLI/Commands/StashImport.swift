import YarnCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `yarn stash import FILE [--dry-run] [--delimiter D] [--lenient] [--no-formula-guard]`.
struct StashImport: CancellableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "import", abstract: "Add or update stash yarns from a CSV file (ours or YarnBuddy's).",
      discussion: """
        Reads 'yarn stash export' files and YarnBuddy's stash export. Columns are found by
        their header, in any order and any case; unknown columns are reported and ignored.
        A row whose ID is an existing yarn's updates that yarn (the columns present only; an
        empty cell clears a field); a row without an ID is matched by name, brand, colorway
        and dye lot. A row equal to its yarn changes nothing, so importing a file twice adds
        nothing the second time; every yarn updated is listed with what changes, and every
        Remaining taken as an override (Remaining Source says override, or the file does not
        say and it is not the estimate as yarn prints it; a Remaining that Remaining Source
        says was yarn's estimate never is; an empty Remaining clears the override). A column
        the file lacks keeps what the library has. Other rows add yarns.
        All or nothing: when any row is bad (or fits several yarns), every bad row is listed
        with its line and column, nothing is imported, and the exit status is 65; a header
        without a Name or an ID column, or with a column named twice, is said alone. See
        docs/CSV.md. FILE - reads the CSV from standard input (messages call it "standard
        input"). A progress bar is shown on standard error when it is a terminal.

        EXAMPLES:
          yarn stash import stash.csv --dry-run
          yarn stash import yarnbuddy-stash.csv --lenient
          curl -s https://example.org/stash.csv | yarn stash import -
        """,
      arguments: [.required("file", "The CSV file; - for standard input.")],
      options: [
        .flag("dry-run", "Check the file and say what would change, changing nothing."),
        .value(
          "delimiter", "delimiter", "comma (default), semicolon or tab.", completion: .delimiters),
        .flag(
          "lenient",
          "Guess what quotes mean in files whose exporter did not double them (YarnBuddy); each guessed line is reported."
        ),
        .flag("no-formula-guard", "Keep a leading ' that the export's formula guard added."),
      ])
  }

  var file: String
  var dryRun: Bool
  var options: StashCSV.ImportOptions
  var command: [String]

  init(from values: ParsedValues) throws {
    file = try values.requiredArgument("file")
    command = values.command
    dryRun = values.flag("dry-run")
    options = StashCSV.ImportOptions(
      delimiter: try CSVOutput.delimiter(values), lenient: values.flag("lenient"),
      undoFormulaGuard: !values.flag("no-formula-guard"))
  }

  /// What `--json` prints.
  struct Summary: Encodable {
    /// The file as given (`-` for standard input).
    var file: String
    var format: String
    var dryRun: Bool
    var added: Int
    var updated: Int
    var unchanged: Int
    var overrides: Int
    var notes: Int
    /// Each yarn updated: its line, ID, name and the fields that change.
    var updates: [Update]
    /// Each Remaining taken as an override.
    var remainingOverrides: [Override]
    var ignoredColumns: [String]
    var guessedLines: [Int]
    var warnings: [String]
  }

  func run(in context: Context) throws {
    let input = try InputFile.open(file, command: command, library: context.global.library, name: "<file>")
    defer { input.remove() }
    // Read in pieces as the rows are imported (twice when the library holds yarns), not
    // loaded whole: memory does not grow with the file.
    let data = CSVInput.file(path: input.url.path)
    // How messages name the file: its path as given, or `standard input`.
    let file = input.name
    let bar = ProgressBar(dryRun ? "checking" : "importing", context: context)
    defer { bar.finish() }
    var options = self.options
    options.now = context.now
    let plan: StashCSV.ImportPlan
    do {
      if dryRun {
        plan = try context.read(warnIfMissing: false) { store in
          try StashCSV.importCSV(
            from: data, into: store, options: options, dryRun: true, progress: bar.callback)
        }
      } else {
        // Each row checked and written as it is read, in one write transaction, rolled back
        // when any row is bad; a new library is built aside and kept only then.
        let importing = { (store: LibraryStore) in
          try StashCSV.importCSV(from: data, into: store, options: options, progress: bar.callback)
        }
        plan =
          try context.libraryIsMissing
          ? try context.create(importing, keep: { $0.problems.isEmpty })
          : try context.withStore(.readWrite, importing)
      }
    } catch let error as CSVFileError {
      throw CLIError.io(path: file, reason: error.reason + "; nothing was imported")
    } catch let error as CSVReadError {
      // --lenient helps with quotes only; bytes that are not UTF-8 need the file saved again.
      let hint =
        if case .headerDelimiter(let found, _) = error.problem {
          "import with --delimiter \(CSVOptions.name(ofDelimiter: found) ?? "")"
        } else if error.problem == .invalidUTF8 || error.problem == .utf16 {
          "save the file as UTF-8 text (in a spreadsheet: CSV UTF-8) and import again"
        } else if error.problem == .notText {
          "name the CSV file (in a spreadsheet: save as CSV UTF-8)"
        } else {
          options.lenient
            ? "the quotes cannot be guessed either; fix the line named"
            : "a file from an exporter that does not double quotes (YarnBuddy) reads with --lenient"
        }
      throw CLIError.invalidData(
        message: "\(visible: file): \(error); nothing was imported", hint: hint)
    }
    bar.finish()
    report(plan, in: context)
    guard plan.problems.isEmpty else {
      throw CLIError.invalidData(
        message: "\(visible: file): \(StashCSV.ImportError(problems: plan.problems))",
        hint: plan.problems.allSatisfy(\.isHeader)
          ? "the first line of a stash CSV names its columns, each once, Name or ID among them (docs/CSV.md)"
          : "fix or remove these rows and import again")
    }
    if context.global.json {
      try context.printJSON(
        Summary(
          file: self.file, format: plan.dialect.rawValue, dryRun: dryRun, added: plan.added,
          updated: plan.changes.count, unchanged: plan.unchanged, overrides: plan.remainingOverrides.count,
          notes: plan.notesAdded, updates: plan.changes.map(Update.init),
          remainingOverrides: plan.remainingOverrides.map(Override.init), ignoredColumns: plan.ignoredColumns,
          guessedLines: plan.guessedLines,
          warnings: plan.warnings.map(\.description)))
    }
    let counts = [
      Plural.count(plan.added, "yarn") + (dryRun ? " to add" : " added"),
      "\(plan.changes.count)" + (dryRun ? " to update" : " updated"),
      "\(plan.unchanged) unchanged",
    ].joined(separator: ", ")
    for update in plan.changes {
      context.message(
        "line \(update.line): \(dryRun ? "would update" : "updated") “\(visible: update.name)”: "
          + update.changes.map(\.description).joined(separator: "; "))
    }
    for taken in plan.remainingOverrides {
      context.message("line \(taken.line): \(taken)")
    }
    let source = plan.dialect == .yarnBuddy ? " (a YarnBuddy export)" : ""
    context.message(
      dryRun
        ? "dry run of \(visible: file)\(source): \(counts); nothing was changed"
        : "imported \(visible: file)\(source): \(counts)")
  }

  /// A yarn the import updates, in `--json`.
  struct Update: Encodable {
    struct Field: Encodable {
      var column: String
      var old: String?
      var new: String?
    }
    var line: Int
    var id: String
    var name: String
    var changes: [Field]

    init(_ update: StashCSV.YarnUpdate) {
      line = update.line
      id = update.yarnID
      name = update.name
      changes = update.changes.map {
        Field(
          column: $0.column == .remaining ? "Remaining override" : $0.column.rawValue, old: $0.old,
          new: $0.new)
      }
    }
  }

  /// A Remaining taken as an override, in `--json`.
  struct Override: Encodable {
    var line: Int
    var id: String
    var name: String
    var remaining: Amount
    var estimate: Amount?

    init(_ taken: StashCSV.RemainingOverride) {
      line = taken.line
      id = taken.yarnID
      name = taken.name
      remaining = taken.remaining
      estimate = taken.estimate
    }
  }

  /// Warnings on standard error: ignored columns, guessed lines, notes left alone.
  private func report(_ plan: StashCSV.ImportPlan, in context: Context) {
    if !plan.ignoredColumns.isEmpty {
      let names = plan.ignoredColumns.map(LineText.quoted).joined(separator: ", ")
      context.warning("ignored unknown \(Plural.word("column", count: plan.ignoredColumns.count)) \(names)")
    }
    for line in plan.guessedLines {
      context.warning(
        "line \(line): quotes were not doubled; guessed where each field ends (check this yarn)")
    }
    for warning in plan.warnings { context.warning(warning.description) }
  }
}
