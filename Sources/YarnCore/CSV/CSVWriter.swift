import YarnModel
import YarnStore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// How CSV is written (`StashCSV.export`, `LibraryExport.write`).
///
/// Records follow RFC 4180 §2: UTF-8, CRLF after every record (the last one too), a field
/// quoted when it holds the delimiter, a double quote, CR or LF, with a double quote inside
/// doubled. Numbers are plain decimals (`3`, `2.5`).
public struct CSVOptions: Hashable, Sendable {
  /// The field delimiter byte: `,` (RFC 4180, the default), `;` (for spreadsheets whose
  /// locale writes decimal commas) or TAB. Must not be `"`, CR or LF.
  public var delimiter: UInt8
  /// Write a UTF-8 byte order mark (EF BB BF) first, which Excel needs to read UTF-8.
  public var byteOrderMark: Bool
  /// The formula guard (OWASP, "CSV Injection"): a text cell that begins with `=`, `+`, `-`,
  /// `@`, TAB, CR or LF gets a leading `'` and is quoted, so that a spreadsheet shows it as
  /// text instead of running it; numbers are never prefixed. `StashCSV.ImportOptions`'s
  /// `undoFormulaGuard` takes the `'` off again.
  public var formulaGuard: Bool

  /// Options; by default RFC 4180 (comma, no byte order mark) with the formula guard on.
  public init(delimiter: UInt8 = UInt8(ascii: ","), byteOrderMark: Bool = false, formulaGuard: Bool = true) {
    self.delimiter = delimiter
    self.byteOrderMark = byteOrderMark
    self.formulaGuard = formulaGuard
  }

  /// Reads a delimiter as a user names it: `,`, `comma`, `;`, `semicolon`, `tab` or a TAB
  /// character; `nil` for anything else.
  package static func delimiter(named name: String) -> UInt8? {
    switch name.lowercased() {
    case ",", "comma": UInt8(ascii: ",")
    case ";", "semicolon": UInt8(ascii: ";")
    case "tab", "\t", "\\t": UInt8(ascii: "\t")
    default: nil
    }
  }

  /// The name `delimiter(named:)` reads for a delimiter byte: `comma`, `semicolon` or `tab`
  /// (`nil` for another byte).
  package static func name(ofDelimiter byte: UInt8) -> String? {
    switch byte {
    case UInt8(ascii: ","): "comma"
    case UInt8(ascii: ";"): "semicolon"
    case UInt8(ascii: "\t"): "tab"
    default: nil
    }
  }
}

/// One cell of a CSV record.
package enum CSVField: Hashable, Sendable {
  /// Text, written as its UTF-8 bytes (quoted when needed, formula-guarded when asked).
  case text(String)
  /// A number, written in plain decimal (`3`, `2.5`, `0.1`); never formula-guarded.
  case number(Double)
  /// An unknown value: an empty cell.
  case empty

  /// `.text(value)` when `value` is non-nil, else `.empty`.
  package static func text(_ value: String?) -> CSVField { value.map { .text($0) } ?? .empty }
  /// `.number(value)` when `value` is non-nil, else `.empty`.
  package static func number(_ value: Double?) -> CSVField { value.map { .number($0) } ?? .empty }

  /// Whether the field is written as no bytes at all (`.empty`, or empty text).
  var isEmptyText: Bool {
    switch self {
    case .empty: true
    case .text(let text): text.isEmpty
    case .number: false
    }
  }
}

/// Writes CSV records as RFC 4180 §2 describes them, streaming through a small buffer.
///
/// - Every record ends with CRLF, the last one too (§2 rules 1–2).
/// - A field is enclosed in double quotes when it holds the delimiter, a double quote, CR or
///   LF, and a double quote inside is doubled (§2 rules 5–7). A record of one empty field is
///   written `""` so that it is not an empty line. Spaces are kept as they are.
/// - Formula guard (OWASP "CSV Injection"): a text cell whose first character is `=`, `+`,
///   `-`, `@`, TAB, CR or LF gets a leading `'` and is quoted, so that a spreadsheet shows it as
///   text instead of running it. Numbers are never prefixed. A quoted cell that begins with
///   apostrophes followed by one of those gets one more, so that the guard can be undone
///   exactly (`needsGuard(_:quoted:)`).
///
/// The work is done on UTF-8 bytes, never on `Character`s: in Swift `"\r\n"` is one
/// Character, and a quote followed by a combining accent is one Character.
///
/// Memory is the buffer (64 KiB), whatever the number of records. Not `Sendable`.
package final class CSVWriter {
  private let options: CSVOptions
  private let sink: (UnsafeRawBufferPointer) throws -> Void
  private var buffer: [UInt8] = []
  private var wroteBOM = false
  private let capacity = 1 << 16

  /// - Parameters:
  ///   - options: delimiter, BOM and formula guard.
  ///   - sink: receives the bytes in pieces; what it throws is thrown from `write`/`flush`.
  package init(options: CSVOptions = CSVOptions(), sink: @escaping (UnsafeRawBufferPointer) throws -> Void) {
    self.options = options
    self.sink = sink
    buffer.reserveCapacity(capacity + 1024)
  }

  /// A writer to an open file descriptor (such as 1 for standard output); `path` names it in
  /// errors (by default `file descriptor N`).
  ///
  /// - Throws (from `write`/`flush`): `AtomicFile.WriteError` when the descriptor fails.
  package convenience init(fileDescriptor: Int32, options: CSVOptions = CSVOptions(), path: String? = nil) {
    let name = path ?? "file descriptor \(fileDescriptor)"
    self.init(options: options) { bytes in
      try AtomicFile.writeAll(fileDescriptor, bytes, path: name)
    }
  }

  /// Writes one record and its CRLF.
  ///
  /// - Throws: what the sink throws, when the buffer fills and is flushed.
  package func write(_ record: [CSVField]) throws {
    // Work on a local buffer (moved out and back, never copied): every access to a class's
    // stored property is checked for exclusivity at run time (bench/README.md, CSV export).
    var out: [UInt8] = []
    swap(&out, &buffer)
    if options.byteOrderMark && !wroteBOM {
      out.append(contentsOf: [0xEF, 0xBB, 0xBF])
    }
    wroteBOM = true
    // A record of one empty field would be an empty line, which readers skip (RFC 4180
    // gives no record for it): it is written as `""`, as Python's csv.writer does.
    if record.count == 1, record[0].isEmptyText {
      out.append(contentsOf: [0x22, 0x22])
    }
    let options = self.options
    for index in record.indices {
      if index > 0 { out.append(options.delimiter) }
      switch record[index] {
      case .empty: break
      case .number(let value): CSVWriter.appendNumber(value, to: &out)
      case .text(let text): CSVWriter.appendText(text, options: options, to: &out)
      }
    }
    out.append(0x0D)
    out.append(0x0A)
    swap(&out, &buffer)
    if buffer.count >= capacity { try flush() }
  }

  /// Writes the buffered bytes to the sink.
  package func flush() throws {
    if options.byteOrderMark && !wroteBOM {
      buffer.append(contentsOf: [0xEF, 0xBB, 0xBF])
      wroteBOM = true
    }
    guard !buffer.isEmpty else { return }
    try buffer.withUnsafeBytes { try sink($0) }
    buffer.removeAll(keepingCapacity: true)
  }

  /// The bytes of `records` written with `options`: a convenience for small outputs and tests.
  package static func encode(_ records: [[CSVField]], options: CSVOptions = CSVOptions()) -> [UInt8] {
    var out: [UInt8] = []
    let writer = CSVWriter(options: options) { out.append(contentsOf: $0) }
    // The sink above cannot throw, so neither can the writer.
    for record in records { try? writer.write(record) }
    try? writer.flush()
    return out
  }

  /// A number in plain decimal (`Rules.number`): whole numbers without a fraction (`3`),
  /// others with the shortest round-trip digits and never an exponent (`2.5`, `0.1`,
  /// `0.0000001`), so reading it back gives the same `Double`.
  package static func format(_ value: Double) -> String { Rules.number(value) }

  /// `format(value)`'s bytes; whole numbers (the usual case) through a small string, which
  /// needs no heap allocation.
  private static func appendNumber(_ value: Double, to out: inout [UInt8]) {
    if value == value.rounded(), abs(value) < 1e15 {
      out.append(contentsOf: String(Int64(value)).utf8)
    } else {
      out.append(contentsOf: Rules.number(value).utf8)
    }
  }

  private static func appendText(_ text: String, options: CSVOptions, to out: inout [UInt8]) {
    let done: Void? = text.utf8.withContiguousStorageIfAvailable {
      appendText(utf8: $0, options: options, to: &out)
    }
    if done == nil {
      Array(text.utf8).withUnsafeBufferPointer { appendText(utf8: $0, options: options, to: &out) }
    }
  }

  private static func appendText(utf8: UnsafeBufferPointer<UInt8>, options: CSVOptions, to out: inout [UInt8])
  {
    let delimiter = options.delimiter
    var quotes = 0
    var needsQuotes = false
    for byte in utf8 where byte == delimiter || byte == 0x22 || byte == 0x0D || byte == 0x0A {
      needsQuotes = true
      if byte == 0x22 { quotes += 1 }
    }
    let guarded = options.formulaGuard && needsGuard(utf8, quoted: needsQuotes)
    guard needsQuotes || guarded else {
      out.append(contentsOf: utf8)
      return
    }
    out.append(0x22)
    if guarded { out.append(0x27) }
    if quotes == 0 {
      out.append(contentsOf: utf8)
    } else {
      for byte in utf8 {
        if byte == 0x22 { out.append(0x22) }
        out.append(byte)
      }
    }
    out.append(0x22)
  }

  /// Whether the formula guard prefixes a cell of these bytes with `'`.
  ///
  /// A cell that begins with `=`, `+`, `-`, `@`, TAB, CR or LF (OWASP CSV Injection) is
  /// prefixed. So that a reader can undo the guard exactly (`StashCSV`'s import), a cell that
  /// must be quoted anyway and begins with apostrophes followed by one of those is prefixed
  /// too: a quoted field beginning `'` + (`'`…) + one of those bytes always carries one
  /// apostrophe of the guard's. A cell that needs no quotes and begins with an apostrophe is
  /// written as it is (`'+safe`), as PapaParse's `escapeFormulae` does.
  static func needsGuard(_ utf8: UnsafeBufferPointer<UInt8>, quoted: Bool) -> Bool {
    guard let first = utf8.first else { return false }
    if isFormulaStart(first) { return true }
    guard quoted, first == 0x27 else { return false }
    var index = 1
    while index < utf8.count, utf8[index] == 0x27 { index += 1 }
    return index < utf8.count && isFormulaStart(utf8[index])
  }

  /// First bytes that make a spreadsheet treat a cell as a formula (OWASP CSV Injection):
  /// `=`, `+`, `-`, `@`, TAB, CR, LF.
  static func isFormulaStart(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x3D, 0x2B, 0x2D, 0x40, 0x09, 0x0D, 0x0A: true
    default: false
    }
  }
}
