import YarnCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A JSON array written one element at a time, as its elements stream from the store: byte
/// for byte what `Context.printJSON` writes for the whole array (the package's pretty
/// encoder, each element's lines indented by two spaces, a line feed at the end), without
/// holding the elements.
struct JSONArrayPrinter {
  private let output: TextOutput
  private let encoder = JSONCoding.encoder()
  private var count = 0

  init(output: TextOutput) {
    self.output = output
  }

  /// Writes the next element given as the encoder's text for it alone (top-level
  /// indentation, no final line feed).
  mutating func append(encoded data: [UInt8]) {
    var bytes: [UInt8] = count == 0 ? Array("[\n  ".utf8) : Array(",\n  ".utf8)
    bytes.reserveCapacity(bytes.count + data.count + data.count / 8)
    for byte in data {
      bytes.append(byte)
      // A line feed inside a string is written `\n`, so every one here ends a line.
      if byte == UInt8(ascii: "\n") { bytes.append(contentsOf: [UInt8(ascii: " "), UInt8(ascii: " ")]) }
    }
    output.write(String(decoding: bytes, as: UTF8.self))
    count += 1
  }

  /// Ends the array (an empty one as the encoder writes it) and its line.
  ///
  /// - Throws: `EncodingError`, never in practice (an empty array).
  func finish() throws {
    if count == 0 {
      output.line(String(decoding: try encoder.encode([Int]()), as: UTF8.self))
    } else {
      output.write("\n]\n")
    }
  }
}

/// A table written line by line, in two passes over rows that can be read twice (a query
/// run again): `measure` every row, optionally `fit` it to a terminal's width, then write
/// `headerLine` and each row's `line`. The lines are those of `Table.text(fitting:)` for the
/// same rows, and no row is held.
struct StreamedTable {
  private let headers: [String]
  /// The positions of the columns that may be shortened to fit.
  private let shrinkable: Set<Int>
  /// The positions of the columns whose cells are a kind word, a space and a name (`project
  /// Hitchhiker shawl`): a cell cut to fit loses the kind word first, so that the name keeps
  /// the room (`Hitchhi…`, not `project…`).
  private let kindFirst: Set<Int>
  /// Each column's width so far, in display columns.
  private var widths: [Int]
  /// The widths lines are padded to: `widths`, or narrower once fitted.
  private var shown: [Int]?

  init(_ headers: [String], shrinkable: Set<Int> = [], kindFirst: Set<Int> = []) {
    self.headers = headers
    self.shrinkable = shrinkable
    self.kindFirst = kindFirst
    widths = headers.map { DisplayWidth.columns(of: Table.flatten($0)) }
  }

  /// Widens the columns to `row`'s cells (made one-line and printable, as `Table` shows them).
  mutating func measure(_ row: [String]) {
    for index in 0..<min(row.count, widths.count) {
      widths[index] = max(widths[index], DisplayWidth.columns(of: Table.flatten(row[index])))
    }
  }

  /// Widens column `column` to `count` display columns.
  mutating func widen(_ column: Int, to count: Int) {
    widths[column] = max(widths[column], count)
  }

  /// Widens column `column` to fit `cell` as shown (one-line and printable).
  mutating func widen(_ column: Int, toFit cell: String) {
    widen(column, to: DisplayWidth.columns(of: Table.flatten(cell)))
  }

  /// Fits the measured table to `width` display columns (`Table.fittedWidths`); `nil` leaves
  /// it as wide as it is.
  mutating func fit(to width: Int?) {
    shown = width.map { Table.fittedWidths(widths, shrinkable: shrinkable, within: $0) }
  }

  /// The header line, ending in a line feed.
  var headerLine: String { line(headers) }

  /// `row`'s line, padded to the measured (or fitted) widths, ending in a line feed.
  func line(_ row: [String]) -> String {
    var bytes: [UInt8] = []
    append(row, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends `row`'s line to `bytes`: each cell made one-line and printable (`Table.flatten`),
  /// cut with `…` when the table was fitted narrower than the cell (`DisplayWidth.truncate`;
  /// in a `kindFirst` column, without its first word first), padded to its column's width and two spaces but the last; no space at the end of the
  /// line; a line feed.
  func append(_ row: [String], to bytes: inout [UInt8]) {
    let natural = widths
    let widths = shown ?? natural
    let start = bytes.count
    for index in 0..<min(row.count, widths.count) {
      var cell = Table.flatten(row[index])
      var columns = DisplayWidth.columns(of: cell)
      if widths[index] < natural[index], columns > widths[index] {
        if kindFirst.contains(index), let space = cell.firstIndex(of: " ") {
          cell = String(cell[cell.index(after: space)...])
          columns = DisplayWidth.columns(of: cell)
        }
        if columns > widths[index] {
          cell = DisplayWidth.truncate(cell, to: widths[index])
          columns = DisplayWidth.columns(of: cell)
        }
      }
      bytes.append(contentsOf: cell.utf8)
      if index < widths.count - 1 {
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: max(0, widths[index] - columns) + 2))
      }
    }
    while bytes.count > start, bytes.last == UInt8(ascii: " ") { bytes.removeLast() }
    bytes.append(UInt8(ascii: "\n"))
  }
}
