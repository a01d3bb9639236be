import YarnCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the user is told about an error: the `error:` line, a `hint:` line, the usage line of a
/// usage error, and the exit status.
struct ErrorReport: Equatable {
  var message: String
  var hint: String?
  var usage: String?
  var code: ExitCode

  /// The lines for standard error: `error: …`, then `usage: …`, then `hint: …`.
  var text: String {
    var out = "error: \(message)\n"
    if let usage { out += "usage: \(usage)\n" }
    if let hint { out += "hint: \(hint)\n" }
    return out
  }
}

/// The one place that turns an error — the CLI's own `CLIError` or any YarnCore error — into
/// words and an exit status (sysexits(3)). Nothing else decides what an error says.
enum ErrorPresenter {
  /// - Parameters:
  ///   - database: the path of the library's `library.sqlite`, named in the report of an
  ///     error of the database itself (damaged, read-only); `nil` when not known yet.
  ///   - command: the words of the command that failed (`["yarn", "tool", "add"]`), once
  ///     parsed: hints name only the options it takes, and an add's message no ID.
  ///   - library: its `--library`, which a `yarn` command a hint shows repeats
  ///     (`Context.yarnCommand(_:library:)`).
  static func report(
    for error: any Error, root: any ParsableCommand.Type, database: String? = nil,
    command: [String] = [], library: String? = nil
  ) -> ErrorReport {
    if let error = error as? CLIError {
      return report(for: error, root: root, command: command, library: library)
    }
    if let error = error as? ConversionError {
      let facts = error.missing.map {
        "--\($0 == .lengthPerSkein ? "length-per-skein" : "net-weight-per-skein")"
      }
      return ErrorReport(
        message: error.description,
        hint:
          "give the yarn's put-up (\(facts.joined(separator: ", "))) to "
          + "'\(Context.yarnCommand("stash edit", library: library))' or 'yarn convert'",
        code: .dataError)
    }
    if let error = error as? AmountParseError {
      return ErrorReport(message: error.description, code: .dataError)
    }
    if let error = error as? EnvironmentVariableError {
      // A value as `--library "   "`'s is refused (`CommandParser.refuseEmptyNames`).
      return ErrorReport(
        message: error.value.map { "bad value '\(shown: $0)' for \(error.name): \(error.reason)" }
          ?? "the environment variable \(error.name) is \(error.reason)",
        hint: wayOut(for: error), code: .usage)
    }
    if let error = error as? OutputError {
      // The core names no option; a command with `--force` says that it does not help.
      let force = resolve(command, root: root).last?.configuration.options.contains { $0.name == "force" }
      return ErrorReport(
        message: error.description + (force == true ? ", even with --force" : ""), code: .cannotCreate)
    }
    if let error = error as? AtomicFile.WriteError {
      // A full disk is 74 even when the temporary file could not be created.
      let full = error.midway || POSIX.isDiskFull(error.reason)
      return ErrorReport(message: error.description, code: full ? .ioError : .cannotCreate)
    }
    if let report = storeReport(for: error, database: database, command: command, library: library) {
      return report
    }
    if let error = error as? SystemLibraryError {
      return ErrorReport(message: error.reason, code: .unavailable)
    }
    if let error = error as? CocoaError {
      return cocoaReport(for: error)
    }
    if let error = error as? EncodingError {
      return ErrorReport(message: "cannot encode the output: \(error)", code: .software)
    }
    if error is CancellationError {
      // Ctrl-C or SIGTERM (main.swift cancels the command's task; 143 for SIGTERM).
      return ErrorReport(
        message: "interrupted; nothing was left half-written",
        hint: "the library is as it was before the command", code: .interrupted)
    }
    // An error no case above knows is a fault of yarn's own.
    return ErrorReport(message: String(describing: error), code: .software)
  }

  /// What to do instead of the variable `error` refuses, in the CLI's terms (its `--library
  /// DIR`, which the store's error does not know): docs/CLI.md, "Where the library is".
  static func wayOut(for error: EnvironmentVariableError) -> String {
    switch (error.name, error.value) {
    case ("TZ", _): return "set it to a zone name such as Europe/Berlin, or unset it"
    case (_, nil): return "set it to a UTF-8 path, or give --library DIR"
    case ("HOME", _): return "set HOME to your home directory's absolute path, or give --library DIR"
    case ("YARN_LIBRARY", _):
      return "unset YARN_LIBRARY, set it to the library's folder, or give --library DIR"
    default: return "set \(error.name) to another value, or give --library DIR"
    }
  }

  /// - Parameters:
  ///   - command: the words of the command that failed, once parsed: the hint of an
  ///     unusable standard input names it.
  ///   - library: its `--library`, which a `yarn` command a hint shows repeats.
  static func report(
    for error: CLIError, root: any ParsableCommand.Type, command: [String] = [], library: String? = nil
  ) -> ErrorReport {
    var report = ErrorReport(message: "", code: .usage)
    if let command = error.command {
      let path = resolve(command, root: root)
      report.usage = HelpGenerator.usage(for: path)
      report.hint = "see '\(command.joined(separator: " ")) --help'"
    }
    func withHint(_ first: String) -> String {
      report.hint.map { "\(first) (\($0))" } ?? first
    }
    // Where a photo's names and digests are seen: a yarn's (`stash detach`) or a project's
    // (`project detach`).
    let photos =
      command.count > 1 && command[1] == "project" ? "project show PROJECT --json" : "stash show YARN --json"
    switch error {
    case .unknownCommand(let command, let given, let suggestions):
      report.message =
        command.count == 1
        ? "unknown command '\(shown: given)'"
        : "unknown subcommand '\(shown: given)' of '\(command.joined(separator: " "))'"
      if let guess = didYouMean(suggestions) { report.hint = withHint(guess) }
    case .commandAfterTerminator(let command, let given):
      report.message =
        "'\(given)' comes after '--', where it cannot name a subcommand of '\(command.joined(separator: " "))'"
      report.hint = "'--' ends the options and commands; put the command words before it"
    case .missingSubcommand(let command):
      let path = resolve(command, root: root)
      let names =
        path.last.map { CommandTree.visibleSubcommands(of: $0) }?.map { $0.configuration.name } ?? []
      report.message =
        "'\(command.joined(separator: " "))' needs a subcommand: \(names.joined(separator: ", "))"
    case .unknownOption(let command, let given, let suggestions):
      report.message = "unknown option '\(shown: given)' for '\(command.joined(separator: " "))'"
      if let guess = didYouMean(suggestions) { report.hint = withHint(guess) }
    case .missingValue(_, let option):
      report.message = "option '\(option)' needs a value"
    case .flagWithValue(_, let option):
      report.message = "option '\(option)' takes no value"
    case .shortOptionWithEquals(_, let option, let long, let placeholder):
      report.message = "option '\(option)' takes its value as the next word, not after '='"
      report.hint = withHint("write '\(option) \(placeholder)' or '\(long)=\(placeholder)'")
    case .combinedShortOptions(_, let given, let apart):
      report.message = "short options cannot be combined: '\(given)'"
      report.hint = withHint("write '\(apart)'")
    case .badValue(_, let name, let value, let reason):
      // Invisible characters escaped, as in a name or an unknown option (QA: `--weight
      // $'\u200b'` was `bad value ''`), for every value of every command; a long one by its
      // start (`LineText.shown`: a 5,000-character value was quoted whole).
      report.message = "bad value '\(shown: value)' for \(name): \(reason)"
    case .missingOption(_, let option):
      report.message = "option '\(option)' is required"
    case .missingArgument(_, let name):
      report.message = "missing argument <\(name)>"
    case .unexpectedArgument(_, let value):
      report.message = "unexpected argument '\(shown: value)'"
    case .needsExactlyOne(_, let options):
      let last = options.last ?? ""
      let others = options.dropLast().joined(separator: ", ")
      report.message = "give exactly one of " + (others.isEmpty ? last : "\(others) or \(last)")
    case .needsOneOf(_, let options):
      let last = options.last ?? ""
      let others = options.dropLast().joined(separator: ", ")
      report.message = "nothing to change: give " + (others.isEmpty ? last : "\(others) or \(last)")
    case .optionDoesNotApply(let command, let option, let to, let reason):
      report.message =
        "'\(option)' does not apply to \(to ?? "'\(command.joined(separator: " "))'"): \(reason)"
    case .conflictingOptions(_, let options, let reason):
      let quoted = options.map { "'\($0)'" }
      report.message = "give \(quoted.joined(separator: " or ")), not both: \(reason)"
    case .notFound(let kind, let reference, let suggestions):
      report.code = .dataError
      // A reference of 5,000 characters is quoted by its start.
      report.message =
        "no \(kind) matches '\(visible: LineText.shortened(reference))'"
        // A suggestion is a name or a file name: escaped as the reference is, on one line.
        + (didYouMean(suggestions.map(LineText.visible)).map { "; \($0)" } ?? "")
      let see = kind == "photo" ? photos : "\(kind == "yarn" ? "stash" : kind) list"
      report.hint =
        (kind == "photo"
          ? "name a photo by its whole file name or a SHA-256 prefix of at least 4 characters"
          : "name a \(kind) by its name or the start of it, its ID or an ID prefix of at least 4 characters")
        + "; see '\(Context.yarnCommand(see, library: library))'"
    case .ambiguous(let kind, let reference, let candidates):
      report.code = .usage
      let list = candidates.map { "\(Rules.shown(id: $0.id)) (\(visible: $0.name))" }.joined(
        separator: ", ")
      report.message = "'\(visible: reference)' matches \(candidates.count) \(kind)s: \(list)"
      // Items that share the name (case and spaces aside) are told apart by ID only.
      let shared = Set(candidates.map { Lookup.key($0.name) }).count == 1
      report.hint =
        switch (kind == "photo", shared) {
        case (true, true):
          "they share the file name: name the photo by a prefix of its SHA-256 of at least 4 characters; "
            + "see '\(Context.yarnCommand(photos, library: library))'"
        case (true, false): "name the photo by its file name, or a longer SHA-256 prefix"
        case (false, true):
          "they share the name: use the ID or an ID prefix of at least 4 characters, or rename one"
        case (false, false): "use more of the name, the ID or a longer ID prefix"
        }
    case .inputMissing(let path, let reason):
      report.code = .noInput
      report.message = "cannot read '\(visible: path)': \(reason)"
      report.hint = "check the path"
    case .inputUnusable(let path, let reason):
      report.code = .noInput
      report.message = "cannot read '\(visible: path)': \(reason)"
      if path != InputSource.standardInputName {
        report.hint = "give a regular file"
      } else if command.count > 1 && command[1] == "note" {
        report.hint = "give the note's text on standard input, or as words in place of '-'"
      } else {
        let words = command.dropFirst().joined(separator: " ") + " - < FILE"
        let example = command.isEmpty ? "" : " (as in '\(Context.yarnCommand(words, library: library))')"
        report.hint = "give the file on standard input\(example), or name it in place of '-'"
      }
    case .outputExists(let path):
      report.code = .cannotCreate
      report.message = "'\(visible: path)' already exists"
      report.hint = "give another file name, or --force to replace it"
    case .cannotCreateOutput(let path, let reason):
      report.code = .cannotCreate
      report.message = "cannot create '\(visible: path)': \(reason)"
    case .io(let path, let reason):
      report.code = .ioError
      report.message = "cannot write \(visible: path): \(reason)"
    case .invalidData(let message, let hint):
      report.code = .dataError
      report.message = message
      report.hint = hint
    }
    return report
  }

  /// A "did you mean" of unknown names, commands and options alike: `did you mean 'x'?` for
  /// one, `did you mean one of 'x', 'y'?` for several, in their order; nil for none.
  static func didYouMean(_ suggestions: [String]) -> String? {
    guard !suggestions.isEmpty else { return nil }
    let quoted = suggestions.map { "'\($0)'" }.joined(separator: ", ")
    return "did you mean \(suggestions.count == 1 ? "" : "one of ")\(quoted)?"
  }

  /// Why a value typed was refused (`bad value 'steel 14' for --size: …`): the error's own
  /// words, and for a steel hook number the table does not have, where any size is read, the
  /// hint to give it in mm (the error's words have none: a WEFT file's refusal is in them).
  static func valueReason(_ error: any Error) -> String {
    guard let error = error as? NeedleSizeParseError, error.problem == .unknownName(.steel) else {
      return "\(error)"
    }
    return "\(error) (or give the size in mm)"
  }

  /// The command types along `names` (the root first), as far as they resolve.
  static func resolve(_ names: [String], root: any ParsableCommand.Type) -> [any ParsableCommand.Type] {
    var path: [any ParsableCommand.Type] = [root]
    for name in names.dropFirst() {
      guard let last = path.last,
        let next = CommandParser.subcommand(named: name, in: last.configuration.subcommands)
      else { break }
      path.append(next)
    }
    return path
  }

  private static func cocoaReport(for error: CocoaError) -> ErrorReport {
    let path = error.filePath ?? error.url?.path ?? "a file"
    // The system's reason ("no space left on device"), else the code: Foundation's own text
    // ("The operation could not be completed") says nothing.
    let reason =
      (error.underlying as? POSIXError).map { String(cString: strerror($0.code.rawValue)).lowercased() }
      ?? "error \(error.code.rawValue)"
    switch error.code {
    case .fileReadNoSuchFile, .fileNoSuchFile:
      return ErrorReport(
        message: "cannot read '\(visible: path)': no such file or directory", hint: "check the path",
        code: .noInput)
    case .fileReadNoPermission:
      return ErrorReport(
        message: "cannot read '\(visible: path)': permission denied", code: .noInput)
    case .fileWriteNoPermission, .fileWriteOutOfSpace, .fileWriteVolumeReadOnly,
      .fileWriteFileExists, .fileWriteInvalidFileName:
      return ErrorReport(
        message: "cannot write '\(visible: path)': \(reason)", code: .cannotCreate)
    default:
      return ErrorReport(message: "i/o error on '\(visible: path)': \(reason)", code: .ioError)
    }
  }
}
