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
        .value("output", "file", "Write to FILE (replaced atomically) instead of standard output.", short: "o"),
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
    try context.read { store in
      if let output {
        let url = URL(fileURLWithPath: output)
        try AtomicFile.write(to: url) { fd in
          count = try write(from: store, to: CSVWriter(fileDescriptor: fd, options: options))
        }
      } else {
        do {
          count = try write(from: store, to: CSVWriter(fileDescriptor: 1, options: options))
        } catch let error as AtomicFile.WriteError {
          throw CLIError.io(path: "standard output", reason: error.reason)
        }
      }
    }
    if let output { context.message("exported \(Formatting.count(count, "yarn")) to \(output)") }
  }

  /// Streams the header and one record per yarn (`StashCSV.record`) to `writer`.
  ///
  /// - Returns: the number of yarns written.
  private func write(from store: LibraryStore, to writer: CSVWriter) throws -> Int {
    let library = Library(projects: try store.projects())
    var notes: [String: [String]] = [:]
    for note in try store.notes() {
      if let yarnID = note.yarnID { notes[yarnID, default: []].append(note.text) }
    }
    try writer.write(StashCSV.header(columns))
    var count = 0
    try store.forEachYarn { yarn in
      let remaining = library.remaining(of: yarn, includeActive: includeActive)
      try writer.write(
        StashCSV.record(for: yarn, remaining: remaining, notes: notes[yarn.id] ?? [], columns: columns))
      count += 1
    }
    try writer.flush()
    return count
  }
}
