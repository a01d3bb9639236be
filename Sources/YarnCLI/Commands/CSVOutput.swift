import Foundation
import YarnCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The options every CSV export takes (`stash export`, `project export`): where the CSV
/// goes and how it is written. `--columns` is each command's own, as the columns differ.
struct CSVOutput {
  /// `--output`, `--force`, `--delimiter`, `--bom`, `--no-formula-guard`.
  static let options: [OptionSpec] = [
    .value(
      "output", "file",
      "Write to FILE (through a temporary file, renamed when complete) instead of standard output.",
      short: "o"),
    .flag("force", "Replace FILE when it exists."),
    .value("delimiter", "delimiter", "comma (default), semicolon or tab."),
    .flag("bom", "Begin with a UTF-8 byte order mark (for Excel)."),
    .flag("no-formula-guard", "Do not prefix cells that look like formulas with '."),
  ]

  var output: String?
  var force: Bool
  var options: CSVOptions

  init(_ values: ParsedValues) throws {
    output = values.value("output")
    force = values.flag("force")
    let delimiter =
      try values.typed("delimiter", expected: "comma, semicolon or tab") {
        CSVOptions.delimiter(named: $0)
      } ?? UInt8(ascii: ",")
    options = CSVOptions(
      delimiter: delimiter, byteOrderMark: values.flag("bom"),
      formulaGuard: !values.flag("no-formula-guard"))
  }

  /// Runs `body` with a writer to `--output` or standard output and returns what it returns.
  ///
  /// An existing FILE is refused without `--force`; the CSV goes to a temporary file beside
  /// FILE that is fsynced and renamed over it only when complete, so FILE is never half
  /// written, and a failed export leaves an existing FILE as it was. A new FILE gets the
  /// usual permissions (0666 less the umask); a replaced one keeps its own.
  ///
  /// - Throws: `CLIError.outputExists` (73) without `--force`; `.cannotCreateOutput` (73)
  ///   for a directory; `AtomicFile.WriteError` (73); `CLIError.io` (74) when standard
  ///   output fails; what `body` throws.
  func write(_ body: (CSVWriter) throws -> Int) throws -> Int {
    guard let output else {
      do {
        return try body(CSVWriter(fileDescriptor: 1, options: options))
      } catch let error as AtomicFile.WriteError {
        throw CLIError.io(path: "standard output", reason: error.reason)
      }
    }
    var isDirectory: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory)
    if exists && isDirectory.boolValue {
      throw CLIError.cannotCreateOutput(path: output, reason: "it is a directory")
    }
    if exists && !force { throw CLIError.outputExists(path: output) }
    let mode = CSVOutput.mode(forReplacing: exists ? output : nil)
    var count = 0
    try AtomicFile.write(to: URL(fileURLWithPath: output)) { fd in
      _ = fchmod(fd, mode)
      count = try body(CSVWriter(fileDescriptor: fd, options: options))
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
