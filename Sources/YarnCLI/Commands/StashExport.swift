import YarnCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `yarn stash export [--output FILE] [--force] [--columns LIST] [--delimiter D] [--bom]
/// [--no-formula-guard] [--include-active]`.
struct StashExport: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "export", abstract: "Write the stash as CSV (RFC 4180) for a spreadsheet.",
      discussion: """
        One record per yarn under a header row, CRLF line ends, UTF-8. Amounts are split into
        a number column and a unit column (without its unit column, an amount is written
        with its unit: 3 skeins); dates are YYYY-MM-DD; unknown values are empty.
        The default columns: \(StashCSV.defaultColumns.map(\.rawValue).joined(separator: ", ")).
        Remaining holds the override when Remaining Source is 'override', else the estimate.

        A text cell that begins with =, +, -, @, TAB, CR or LF is prefixed with ' so that a
        spreadsheet does not run it as a formula (--no-formula-guard turns this off).
        'yarn stash import' reads the file back. See docs/CSV.md.

        EXAMPLES:
          yarn stash export --output stash.csv
          yarn stash export --columns "Name,Colorway,Remaining,Remaining Unit" --bom > stash.csv
          yarn stash export --delimiter semicolon -o stash.csv --force
        """,
      options: CSVOutput.options + [
        .value("columns", "list", "The columns, comma-separated, in order (default: all)."),
        .flag("include-active", "Count the usages of projects in progress in Remaining."),
      ])
  }

  var output: CSVOutput
  var columns: [StashCSV.Column]
  var includeActive: Bool

  init(from values: ParsedValues) throws {
    output = try CSVOutput(values)
    columns = try values.columns { try StashCSV.columns(parsing: $0) } ?? StashCSV.defaultColumns
    includeActive = values.flag("include-active")
  }

  func run(in context: Context) throws {
    try context.output.flush()
    let count = try context.withStore(.readOnly) { store in
      try output.write(in: context) { writer in
        try StashCSV.export(from: store, to: writer, columns: columns, includeActive: includeActive)
      }
    }
    if let path = output.output, path != "-" {
      context.message("exported \(Plural.count(count, "yarn")) to \(visible: path)")
    }
  }
}
