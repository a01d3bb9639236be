import YarnModel
import YarnStore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Time sessions as CSV: one record per session under a header row (`time.csv` of `yarn
/// export`, and `yarn time log --format csv`).
///
/// Columns: `Project` (the name), `Start` and `End` (ISO 8601 UTC, `2026-03-29T14:30:00Z`, so
/// that a file means the same in every time zone), `Seconds` (a number), `Duration` (`h:mm`,
/// text). A running session has empty `End`, `Seconds` and `Duration` cells: the file
/// records what is known, not a value that depends on when it was written.
package enum TimeCSV {
  /// The header record's names, in order.
  package static let header = ["Project", "Start", "End", "Seconds", "Duration"]

  /// Writes every session of `store`, oldest first, and flushes `writer`.
  ///
  /// - Returns: the number of sessions written.
  /// - Throws: the store's errors; what `writer`'s sink throws.
  package static func export(from store: LibraryStore, to writer: CSVWriter) throws -> Int {
    try export(from: store, to: writer, range: (nil, nil), projectID: nil)
  }

  /// Writes the header and the sessions that share time with `range` (`[start, end)`, UTC
  /// instants, either bound optional), of one project or all, oldest first, and flushes
  /// `writer`. The sessions stream from the store (`LibraryStore.forEachSession`): memory
  /// does not grow with their number.
  ///
  /// - Parameter columns: positions in `header` to write, in order, or `nil` for all.
  /// - Returns: the number of sessions written.
  /// - Throws: the store's errors; what `writer`'s sink throws.
  package static func export(
    from store: LibraryStore, to writer: CSVWriter, range: (start: Date?, end: Date?), projectID: String?,
    columns: [Int]? = nil
  ) throws -> Int {
    try writer.write(pick(header.map { .text($0) }, columns))
    var count = 0
    try store.forEachSession(from: range.start, to: range.end, projectID: projectID) { session, name in
      try writer.write(pick(record(for: session, projectName: name), columns))
      count += 1
    }
    try writer.flush()
    return count
  }

  /// The header of a report of `grouping`: `Period` (or `Project`), `Seconds`, `Duration`.
  package static func reportHeader(_ grouping: TimeReport.Grouping) -> [String] {
    [grouping == .project ? "Project" : "Period", "Seconds", "Duration"]
  }

  /// The positions in `header` of a comma-separated list of column names such as
  /// `Project,Seconds`, matched in any case with surrounding spaces ignored, in the list's
  /// order (`--columns` of `time log` and `time report`).
  ///
  /// - Throws: `CSVColumnError` for the first name that is not in `header` or is named twice.
  package static func columns(parsing list: String, header: [String]) throws(CSVColumnError) -> [Int] {
    try CSVColumns.positions(parsing: list, in: header)
  }

  /// `fields` at `columns` (positions, in order), or all of them when `columns` is `nil`.
  private static func pick(_ fields: [CSVField], _ columns: [Int]?) -> [CSVField] {
    guard let columns else { return fields }
    return columns.map { fields.indices.contains($0) ? fields[$0] : .empty }
  }

  /// The record of one session.
  package static func record(for session: TimeSession, projectName: String) -> [CSVField] {
    let seconds = session.end.map { _ in session.seconds() }
    return [
      .text(projectName),
      .text(JSONCoding.formatInstant(session.start)),
      .text(session.end.map { JSONCoding.formatInstant($0) }),
      .number(seconds.map { Double($0) }),
      .text(seconds.map { TimeInput.hoursAndMinutes($0) }),
    ]
  }

  /// Writes a report: a header (`reportHeader`: `Period` or `Project`, `Seconds`, `Duration`)
  /// and one record per row (the seconds as a number, the duration as `h:mm`), and flushes
  /// `writer`.
  ///
  /// - Parameter columns: positions in `reportHeader` to write, in order, or `nil` for all.
  /// - Returns: the number of rows written.
  /// - Throws: what `writer`'s sink throws.
  @discardableResult
  package static func write(_ report: TimeReport, columns: [Int]? = nil, to writer: CSVWriter) throws -> Int {
    try writer.write(pick(reportHeader(report.grouping).map { .text($0) }, columns))
    for row in report.rows {
      try writer.write(
        pick(
          [.text(row.key), .number(Double(row.seconds)), .text(TimeInput.hoursAndMinutes(row.seconds))],
          columns))
    }
    try writer.flush()
    return report.rows.count
  }
}
