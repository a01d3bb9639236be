import YarnCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `yarn project export [--output FILE] [--force] [--columns LIST] [--delimiter D] [--bom]
/// [--no-formula-guard]`.
struct ProjectExport: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "export", abstract: "Write the projects as CSV (RFC 4180) for a spreadsheet.",
      discussion: """
        One record per project under a header row, CRLF line ends, UTF-8. The default
        columns: \(ProjectCSV.defaultColumns.map(\.rawValue).joined(separator: ", ")).
        Yarns lists each yarn used with its amount ("Cascade 220: 550 yd; Rios: 1 skein");
        Seconds is the time logged (finished sessions) as a number a spreadsheet can sum, and
        Time the same as h:mm. See docs/CSV.md.

        EXAMPLES:
          yarn project export --output projects.csv
          yarn project export --columns "Name,Status,Seconds" --delimiter semicolon
        """,
      options: CSVOutput.options + [
        .value("columns", "list", "The columns, comma-separated, in order (default: all).")
      ])
  }

  var output: CSVOutput
  var columns: [ProjectCSV.Column]

  init(from values: ParsedValues) throws {
    output = try CSVOutput(values)
    columns = try values.columns { try ProjectCSV.columns(parsing: $0) } ?? ProjectCSV.defaultColumns
  }

  func run(in context: Context) throws {
    try context.output.flush()
    let count = try context.withStore(.readOnly) { store in
      try output.write(in: context) { writer in
        try ProjectCSV.export(from: store, to: writer, columns: columns)
      }
    }
    if let path = output.output, path != "-" {
      context.message("exported \(Plural.count(count, "project")) to \(visible: path)")
    }
  }
}
