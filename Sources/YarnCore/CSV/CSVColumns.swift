import YarnModel
import YarnStore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Thrown when a `--columns` list names a column that does not exist, or names one twice.
package struct CSVColumnError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What is wrong with the name.
  package enum Problem: Hashable, Sendable {
    /// Thrown when no column has that name.
    case unknown
    /// Thrown when the list names the column a second time (a file with two columns of one
    /// name could not be imported back).
    case repeated
  }

  /// The name as the list gave it, without surrounding spaces.
  package let name: String
  package let problem: Problem
  /// Every column there is, in order.
  package let columns: [String]

  package init(name: String, problem: Problem = .unknown, columns: [String]) {
    self.name = name
    self.problem = problem
    self.columns = columns
  }

  package var description: String {
    switch problem {
    case .unknown:
      "unknown column \(LineText.quoted(name)); the columns are: " + columns.joined(separator: ", ")
    case .repeated: "the column \(LineText.quoted(name)) is named twice"
    }
  }
}

/// Reads `--columns` lists: comma-separated column names such as `Name,Colorway,Remaining`,
/// matched in any case with surrounding spaces ignored.
enum CSVColumns {
  /// The positions in `columns` of the names in `list`, in the list's order.
  ///
  /// - Throws: `CSVColumnError` for the first name that is not a column or that the list
  ///   names twice.
  static func positions(parsing list: String, in columns: [String]) throws(CSVColumnError) -> [Int] {
    let keys = columns.map { $0.lowercased() }
    var out: [Int] = []
    for part in list.split(separator: ",", omittingEmptySubsequences: true) {
      let name = part.trimmingSpaces()
      guard let index = keys.firstIndex(of: name.lowercased()) else {
        throw CSVColumnError(name: name, columns: columns)
      }
      guard !out.contains(index) else {
        throw CSVColumnError(name: columns[index], problem: .repeated, columns: columns)
      }
      out.append(index)
    }
    return out
  }

  /// The cases of `Column` named in `list` (see `positions(parsing:in:)`).
  static func cases<Column: RawRepresentable & CaseIterable>(
    parsing list: String, of _: Column.Type
  ) throws(CSVColumnError) -> [Column] where Column.RawValue == String {
    let all = Array(Column.allCases)
    return try positions(parsing: list, in: all.map(\.rawValue)).map { all[$0] }
  }
}

/// A column of one of the CSV files: its raw value is its header.
protocol CSVColumn: RawRepresentable, CaseIterable, Sendable where RawValue == String {}

extension CSVColumn {
  /// Finds a column by its header, ignoring case and surrounding spaces.
  init?(header: String) {
    let key = header.trimmingSpaces().lowercased()
    guard let found = Self.allCases.first(where: { $0.rawValue.lowercased() == key }) else {
      return nil
    }
    self = found
  }
}
