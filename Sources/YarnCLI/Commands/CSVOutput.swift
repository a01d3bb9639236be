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

/// The options every CSV export takes (`stash export`, `project export`; `time log` and
/// `time report` with `--format csv`): where the CSV goes and how it is written. `--columns` is each command's own, as the columns differ.
struct CSVOutput {
  /// `--output`, `--force`, `--delimiter`, `--bom`, `--no-formula-guard`.
  static let options: [OptionSpec] = [
    .value(
      "output", "file",
      "Write to FILE (through a temporary file, renamed when complete) instead of standard output.",
      short: "o"),
    .flag("force", "Replace FILE when it exists."),
    .value(
      "delimiter", "delimiter", "comma (default), semicolon or tab.", completion: .delimiters),
    .flag("bom", "Begin with a UTF-8 byte order mark (for Excel)."),
    .flag("no-formula-guard", "Do not prefix cells that look like formulas with '."),
  ]

  var output: String?
  var force: Bool
  var options: CSVOptions

  /// `--output`, `--force` and `csvOptions(_:)`, for a command whose `--json` is another
  /// format (`time log`, `time report`).
  ///
  /// - Throws: `CLIError.badValue` (64) for an unknown delimiter.
  init(options values: ParsedValues) throws(CLIError) {
    output = values.value("output")
    force = values.flag("force")
    options = try Self.csvOptions(values)
  }

  /// - Throws: `CLIError.badValue` (64) for an unknown delimiter; `.optionDoesNotApply` (64)
  ///   for `--json`: the export writes CSV, and the same data as JSON is `list --json`'s.
  init(_ values: ParsedValues) throws {
    if values.flag("json") {
      let noun = values.command.dropFirst().first ?? "stash"
      throw CLIError.optionDoesNotApply(
        command: values.command, option: "--json",
        reason:
          "it writes CSV; for JSON use '\(Context.yarnCommand("\(noun) list --json", library: values.value("library")))'"
      )
    }
    try self.init(options: values)
  }

  /// The CSV options of `--delimiter` (`delimiter(_:)`), `--bom` and `--no-formula-guard`.
  static func csvOptions(_ values: ParsedValues) throws(CLIError) -> CSVOptions {
    CSVOptions(
      delimiter: try delimiter(values), byteOrderMark: values.flag("bom"),
      formulaGuard: !values.flag("no-formula-guard"))
  }

  /// `--delimiter`: comma (the default), semicolon or tab.
  static func delimiter(_ values: ParsedValues) throws(CLIError) -> UInt8 {
    try values.typed("delimiter", expected: "comma, semicolon or tab") { CSVOptions.delimiter(named: $0) }
      ?? UInt8(ascii: ",")
  }

  /// Runs `body` with a writer to `--output` or standard output and returns what it returns.
  ///
  /// FILE `-` means standard output. A FILE of the library of `context` is refused, even with
  /// `--force` (`OutputError.refuseLibraryFile`). An existing regular FILE is refused without `--force`; the CSV goes to a temporary file beside
  /// FILE that is fsynced and renamed over it only when complete, so FILE is never half
  /// written, and a failed export leaves an existing FILE as it was. A new FILE gets the
  /// usual permissions (0666 less the umask); a replaced one keeps its own.
  ///
  /// - Throws: `OutputError.intoLibrary` (73) for a file of the library;
  ///   `CLIError.outputExists` (73) without `--force`; `.cannotCreateOutput` (73) for a
  ///   directory; `AtomicFile.WriteError` (73); `CLIError.io` (74) when standard output
  ///   fails; what `body` throws.
  func write(in context: Context, _ body: (CSVWriter) throws -> Int) throws -> Int {
    guard let output, output != "-" else {
      do {
        return try body(CSVWriter(fileDescriptor: 1, options: options))
      } catch let error as AtomicFile.WriteError {
        throw CLIError.io(path: "standard output", reason: error.reason)
      }
    }
    try OutputError.refuseLibraryFile(output, of: try context.libraryURL)
    if InputFile.isDirectory(output) {
      throw CLIError.cannotCreateOutput(path: output, reason: "it is a directory")
    }
    // Only a regular file can be lost by replacing it; a FIFO or a device such as
    // /dev/stdout is written in place (AtomicFile does so) and needs no --force.
    var info = stat()
    let exists = stat(output, &info) == 0
    let isRegularFile = exists && (info.st_mode & S_IFMT) == S_IFREG
    if isRegularFile && !force { throw CLIError.outputExists(path: output) }
    let mode = CSVOutput.mode(forReplacing: exists ? output : nil)
    var count = 0
    try AtomicFile.write(to: URL(fileURLWithPath: output)) { fd in
      _ = fchmod(fd, mode)
      count = try body(CSVWriter(fileDescriptor: fd, options: options, path: output))
    }
    return count
  }

  /// The permission bits of `path`, or 0666 less the process's umask for a new file.
  private static func mode(forReplacing path: String?) -> mode_t {
    var info = stat()
    if let path, stat(path, &info) == 0 { return info.st_mode & 0o7777 }
    let mask = umask(0o022)
    umask(mask)
    return 0o666 & ~mask
  }
}
