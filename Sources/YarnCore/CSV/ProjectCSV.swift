import YarnModel
import YarnStore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The projects as CSV (`projects.csv`): one record per project under a header row
/// (docs/CSV.md).
///
/// The yarns a project used are one text cell, `Cascade 220: 550 yd; Rios: 1 skein` (each
/// usage's yarn name and amount, rounded as `Amount.description` does, in the order
/// recorded), so that a project stays one row; the time logged is a number of seconds, which a
/// spreadsheet can sum, and the same time as `h:mm` text for people. Days are `YYYY-MM-DD`;
/// an unknown value is an empty cell.
package enum ProjectCSV {
  /// A column of the projects CSV.
  package enum Column: String, CaseIterable, Sendable, CSVColumn {
    case name = "Name"
    case craft = "Craft"
    case status = "Status"
    case pattern = "Pattern"
    case patternURL = "Pattern URL"
    case started = "Started"
    case finished = "Finished"
    /// The gauge as people write it: `18 sts x 24 rows = 10 cm` (`Gauge.description`).
    case gauge = "Gauge"
    case sizeMade = "Size Made"
    case madeFor = "Made For"
    /// The tags joined by `, `.
    case tags = "Tags"
    case yarns = "Yarns"
    case time = "Time"
    case seconds = "Seconds"
    case id = "ID"
  }

  /// The default columns, in order.
  package static let defaultColumns: [Column] = Column.allCases

  /// Parses a comma-separated list of column headers such as `Name,Status,Seconds`.
  ///
  /// - Throws: `CSVColumnError` for the first header that is not a column or that is named
  ///   twice.
  package static func columns(parsing list: String) throws(CSVColumnError) -> [Column] {
    try CSVColumns.cases(parsing: list, of: Column.self)
  }

  /// Writes every project as CSV with the default columns: the header, then one record per
  /// project in creation order.
  ///
  /// - Returns: the number of projects written.
  /// - Throws: `StoreError` when the store cannot be read; what `writer`'s sink throws.
  @discardableResult
  package static func export(from store: LibraryStore, to writer: CSVWriter) throws -> Int {
    try export(from: store, to: writer, columns: defaultColumns)
  }

  /// Writes every project as CSV: the header, then one record per project in creation order.
  ///
  /// Streams the projects from the store one at a time; the yarn names (for the Yarns cell)
  /// and the seconds logged per project (one grouped query) are read first, so memory grows
  /// with the number of yarns' names but not with the number of projects or sessions. Only
  /// finished time sessions count: a running timer is not logged time yet.
  ///
  /// - Parameters:
  ///   - store: the library; read in one transaction, so the export is a consistent snapshot.
  ///   - writer: where the CSV goes; flushed at the end.
  ///   - columns: which columns, in which order.
  /// - Returns: the number of projects written.
  /// - Throws: `StoreError` when the store cannot be read; what `writer`'s sink throws.
  @discardableResult
  package static func export(from store: LibraryStore, to writer: CSVWriter, columns: [Column]) throws -> Int
  {
    try store.read {
      var yarnNames: [String: String] = [:]
      if columns.contains(.yarns) {
        for item in try store.yarnNames() { yarnNames[item.id] = item.name }
      }
      var seconds: [String: Int64] = [:]
      if columns.contains(.time) || columns.contains(.seconds) {
        seconds = try store.loggedSecondsByProject(countingRunningUntil: nil)
      }
      try writer.write(columns.map { .text($0.rawValue) })
      var count = 0
      try store.forEachProject { project in
        try writer.write(
          record(for: project, yarnNames: yarnNames, seconds: seconds[project.id] ?? 0, columns: columns))
        count += 1
      }
      try writer.flush()
      return count
    }
  }

  /// The record of one project.
  ///
  /// - Parameters:
  ///   - yarnNames: yarn names by ID; a usage of a yarn not in it shows the yarn's ID.
  ///   - seconds: the time logged on the project, in seconds.
  package static func record(
    for project: Project, yarnNames: [String: String], seconds: Int64, columns: [Column]
  ) -> [CSVField] {
    columns.map { column in
      switch column {
      case .name: .text(project.name)
      case .craft: .text(project.craft?.rawValue)
      case .status: .text(project.status.rawValue)
      case .pattern: .text(project.pattern?.name)
      case .patternURL: .text(project.pattern?.url)
      case .started: .text(project.started?.iso8601)
      case .finished: .text(project.finished?.iso8601)
      case .gauge: .text(project.gauge?.description)
      case .sizeMade: .text(project.sizeMade)
      case .madeFor: .text(project.madeFor)
      case .tags: project.tags.isEmpty ? .empty : .text(Tags.cell(project.tags))
      case .yarns:
        project.usages.isEmpty
          ? .empty
          : .text(
            project.usages.map { "\(yarnNames[$0.yarnID] ?? $0.yarnID): \($0.amount)" }
              .joined(separator: "; "))
      case .time: .text(hoursAndMinutes(seconds))
      case .seconds: .number(Double(seconds))
      case .id: .text(project.id)
      }
    }
  }

  /// Seconds as `h:mm`, the minutes rounded down: `0:00`, `1:05`, `125:30`.
  package static func hoursAndMinutes(_ seconds: Int64) -> String {
    let minutes = max(0, seconds) / 60
    let rest = minutes % 60
    return "\(minutes / 60):\(rest < 10 ? "0" : "")\(rest)"
  }
}
