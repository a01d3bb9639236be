import Foundation
import YarnCore

/// `yarn stash export [--output FILE] [--columns LIST] [--delimiter D] [--bom]
/// [--no-formula-guard] [--include-active]`.
struct StashExport: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "export", abstract: "Write the stash as CSV (RFC 4180) for a spreadsheet.",
      discussion: """
        One record per yarn under a header row, CRLF line ends, UTF-8. Amounts are split into
        a number column and a unit column; dates are YYYY-MM-DD; unknown values are empty.
        The default columns: \(StashCSV.defaultColumns.map(\.rawValue).joined(separator: ", ")).

        A text cell that begins with =, +, -, @, TAB or CR is prefixed with ' so that a
        spreadsheet does not run it as a formula (--no-formula-guard turns this off).

        EXAMPLES:
          yarn stash export --output stash.csv
          yarn stash export --columns "Name,Colorway,Remaining,Remaining Unit" --bom > stash.csv
        """,
      options: [
        .value(
          "output", "file", "Write to FILE (replaced atomically) instead of standard output.", short: "o"),
        .value("columns", "list", "The columns, comma-separated, in order (default: all)."),
        .value("delimiter", "delimiter", "comma (default), semicolon or tab."),
        .flag("bom", "Begin with a UTF-8 byte order mark (for Excel)."),
        .flag("no-formula-guard", "Do not prefix cells that look like formulas."),
        .flag("include-active", "Count the usages of projects in progress in Remaining."),
      ])
  }

  var output: String?
  var columns: [StashCSV.Column]
  var options: CSVOptions
  var includeActive: Bool

  init(from values: ParsedValues) throws {
    output = values.value("output")
    columns =
      try values.typed("columns", expected: "column names") { try StashCSV.columns(parsing: $0) }
      ?? StashCSV.defaultColumns
    if columns.isEmpty {
      throw CLIError.badValue(
        command: values.command, name: "--columns", value: values.value("columns") ?? "",
        reason: "no column named")
    }
    let delimiter =
      try values.typed("delimiter", expected: "comma, semicolon or tab") {
        CSVOptions.delimiter(named: $0)
      } ?? UInt8(ascii: ",")
    options = CSVOptions(
      delimiter: delimiter, byteOrderMark: values.flag("bom"),
      formulaGuard: !values.flag("no-formula-guard"))
    includeActive = values.flag("include-active")
  }

  func run(in context: Context) throws {
    try context.output.flush()
    var count = 0
    try context.withStore(.readOnly) { store in
      if let output {
        try AtomicFile.write(to: URL(fileURLWithPath: output)) { fd in
          count = try StashCSV.export(
            from: store, to: CSVWriter(fileDescriptor: fd, options: options), columns: columns,
            includeActive: includeActive)
        }
      } else {
        do {
          count = try StashCSV.export(
            from: store, to: CSVWriter(fileDescriptor: 1, options: options), columns: columns,
            includeActive: includeActive)
        } catch let error as AtomicFile.WriteError {
          throw CLIError.io(path: "standard output", reason: error.reason)
        }
      }
    }
    if let output { context.message("exported \(Formatting.count(count, "yarn")) to \(output)") }
  }
}
