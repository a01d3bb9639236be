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

/// The `yarn` tool: parses the command line, runs the command, and reports an error.
///
/// `main` is the only function that prints an error, and it returns the exit status that
/// `main.swift` exits with.
enum YarnTool {
  /// The tool's version, shown by `--version` and written into backups as the generator.
  static let version = "0.1.0"

  /// The root of the command tree.
  static var root: any ParsableCommand.Type { RootCommand.self }

  /// Runs one command line (without the program name) and returns the exit status.
  /// `notUTF8` names the variables yarn reads whose value is not UTF-8 text (not in
  /// `environment`): only a command that uses one fails (`Context.notUTF8`).
  static func main(
    arguments: [String], environment: [String: String], notUTF8: Set<String> = [], output: TextOutput,
    messages: TextOutput, now: Date = Date()
  ) -> Int32 {
    let parser = CommandParser(root: root)
    // The library's database file, named in a report of its errors once it is known.
    var database: String?
    // The words of the command run, once parsed (the error's report fits its hints to them),
    // and its `--library`, which the commands its hints show repeat.
    var command: [String] = []
    var library: String?
    do {
      switch try parser.parse(arguments) {
      case .help(let path):
        output.write(HelpGenerator.help(for: path))
      case .version:
        output.line("yarn \(version)")
      case .run(let type, let values):
        command = values.command
        library = GlobalOptions(values).library
        let context = Context(
          global: GlobalOptions(values), environment: environment, notUTF8: notUTF8, now: now, output: output,
          messages: messages, arguments: arguments)
        database = (try? context.libraryURL)?.appendingPathComponent(LibraryStore.databaseFileName).path
        let command = try type.init(from: values)
        try command.run(in: context)
      }
      try output.flush()
      // The messages say what was done: when they cannot be written (`2>/dev/full`, a closed
      // standard error), it is done all the same, and the status says so (a script that
      // retried on 74 would make the change twice).
      try? messages.flush()
      return ExitCode.success.rawValue
    } catch {
      try? output.flush()
      if isBrokenPipe(error) {
        // The reader of standard output went away (`yarn time log | head -1`): what it
        // wanted was delivered; end quietly, as other tools in a pipeline do. The same when
        // the reader of the messages went away (`yarn stash add X 2>&1 >/dev/null | true`):
        // the command did its work, and an error status would say it had not.
        try? messages.flush()
        return ExitCode.success.rawValue
      }
      var report = ErrorPresenter.report(
        for: error, root: root, database: database, command: command, library: library)
      if case CLIError.io(let path, _) = error, path == "standard output" {
        // The output is written after the command's transaction commits: say so, so that a
        // script does not run a change again because its output was lost.
        report.hint =
          "the command's change to the library, if it made one, was saved before its output failed"
      }
      // Messages quote what was typed and what the library holds (names from a restored
      // backup): made printable like table cells, so an escape sequence is never sent.
      messages.write(Table.printable(report.text))
      try? messages.flush()
      return report.code.rawValue
    }
  }

  /// The usage error (64) for the first of `rawArguments` (the command line's bytes, after
  /// the program's name) that is not UTF-8 text, or `nil` when all are: such bytes (a
  /// Latin-1 terminal's `é`) would reach the commands as U+FFFD and be stored so. The bytes
  /// outside ASCII are shown as `\xE9`.
  static func nonUTF8Argument(_ rawArguments: [[UInt8]]) -> CLIError? {
    for (index, bytes) in rawArguments.enumerated() where String(validating: bytes, as: UTF8.self) == nil {
      var shown = ""
      for byte in bytes {
        shown += byte < 0x80 ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16, uppercase: true)
      }
      return .badValue(
        command: ["yarn"], name: "argument \(index + 1)", value: shown,
        reason: "it is not UTF-8 text (set the terminal to UTF-8, such as LANG=en_US.UTF-8)")
    }
    return nil
  }

  /// Whether `arguments` run a `CancellableCommand` (a command line that does not parse is
  /// not: its error is printed at once).
  static func isCancellable(_ arguments: [String]) -> Bool {
    guard case .run(let type, _)? = try? CommandParser(root: root).parse(arguments) else {
      return false
    }
    return type.isCancellable
  }

  /// Whether `error` is a write to standard output or standard error that failed because its
  /// reader closed the pipe (EPIPE; SIGPIPE is ignored in main.swift).
  /// A write to a pipe given as a file (`-o /dev/stdout`, a FIFO) whose reader left is one
  /// too.
  static func isBrokenPipe(_ error: any Error) -> Bool {
    let brokenPipe = String(cString: strerror(EPIPE)).lowercased()
    if let error = error as? AtomicFile.WriteError {
      return error.midway && error.reason.lowercased() == brokenPipe
    }
    guard case CLIError.io(let path, let reason) = error else { return false }
    return (path == "standard output" || path == "standard error") && reason.lowercased() == brokenPipe
  }
}
