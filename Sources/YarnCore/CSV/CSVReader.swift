import YarnModel
import YarnStore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A record read from CSV, with the line it starts on (1-based, counting every line break,
/// including those inside quoted fields).
struct CSVRecord: Hashable, Sendable {
  /// The fields, decoded from UTF-8, quotes removed and doubled quotes undone.
  var fields: [String]
  /// The 1-based line the record starts on.
  var line: Int
  /// For each field, whether it was enclosed in double quotes in the file. The stash import
  /// uses it to undo the formula guard only where the writer could have added it.
  var quoted: [Bool]

  init(fields: [String], line: Int, quoted: [Bool]? = nil) {
    self.fields = fields
    self.line = line
    self.quoted = quoted ?? Array(repeating: false, count: fields.count)
  }
}

/// Thrown when a file is not CSV as RFC 4180 §2 defines it (by `StashCSV.importPlan`, unless
/// it reads leniently) or not UTF-8 (in any mode), naming where the problem is.
public struct CSVReadError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What is wrong at that place.
  public enum Problem: Hashable, Sendable {
    /// Thrown when a quoted field is still open at the end of the input.
    case unterminatedQuote
    /// Thrown when a `"` appears inside a field that did not start with one (RFC 4180 §2 rule 5).
    case quoteInUnquotedField
    /// Thrown when a closing quote is followed by something other than a delimiter or line end.
    case textAfterClosingQuote
    /// Thrown when the bytes are not valid UTF-8.
    case invalidUTF8
    /// Thrown (by callers that check) when a record has a different number of fields than the header.
    case fieldCount(expected: Int, found: Int)
  }

  /// What is wrong.
  public let problem: Problem
  /// 1-based line of the input (counting the line breaks inside quoted fields too).
  public let line: Int
  /// 1-based column (in bytes from the start of the line), when known.
  public let column: Int?

  init(problem: Problem, line: Int, column: Int?) {
    self.problem = problem
    self.line = line
    self.column = column
  }

  /// `line 3, column 17: a quoted field is never closed`.
  public var description: String {
    let place = column.map { "line \(line), column \($0)" } ?? "line \(line)"
    switch problem {
    case .unterminatedQuote: return "\(place): a quoted field is never closed"
    case .quoteInUnquotedField:
      return
        "\(place): a double quote inside a field that is not quoted (quote the field and double the quote)"
    case .textAfterClosingQuote: return "\(place): text after a closing quote"
    case .invalidUTF8: return "\(place): the bytes are not valid UTF-8"
    case .fieldCount(let expected, let found):
      return "\(place): \(found) field\(found == 1 ? "" : "s") where the header has \(expected)"
    }
  }
}

/// Reads CSV as RFC 4180 §2 describes it, and what real files hold besides: CRLF, LF or CR
/// line ends, a UTF-8 byte order mark, quoted fields holding delimiters and line breaks
/// (kept verbatim, CRLF included), doubled quotes, no final line break, empty lines (skipped).
///
/// Works on UTF-8 bytes: a delimiter followed by a combining accent is still a delimiter.
///
/// Strict mode (the default) throws `CSVReadError` naming the line and column of an
/// unterminated quote, a quote in an unquoted field or text after a closing quote.
///
/// Lenient mode is for files written by exporters that wrap every field in quotes without
/// doubling the quotes inside (YarnBuddy's stash export). Each record is first read strictly;
/// when that fails, or gives another number of fields than `expectedFieldCount`, the record
/// is read again from its start with a guess: a quote closes a quoted field only when a
/// delimiter, a line end or the end of the input follows it (spaces between are dropped), and
/// every other quote is text. The record's line is then added to `guessedLines`.
///
/// - Complexity: O(n) in the bytes of the input; the input is held in memory.
struct CSVReader {
  private let bytes: [UInt8]
  private let delimiter: UInt8
  private let lenient: Bool
  private var position: Int
  private var line = 1
  private var lineStart: Int
  /// Lines (1-based) where lenient mode had to guess what a stray quote meant.
  private(set) var guessedLines: [Int] = []
  /// The number of fields every record should have (the header's), when known. Lenient mode
  /// uses it to decide between a strict reading and a guessed one; strict mode ignores it.
  var expectedFieldCount: Int?
  /// How many bytes of the input were read so far, for progress.
  var bytesRead: Int { position }
  /// The size of the input in bytes.
  var byteCount: Int { bytes.count }

  /// - Parameters:
  ///   - data: the whole input.
  ///   - delimiter: the field delimiter byte.
  ///   - lenient: guess what stray quotes mean instead of throwing (see the type's notes).
  init(data: Data, delimiter: UInt8 = UInt8(ascii: ","), lenient: Bool = false) {
    self.bytes = [UInt8](data)
    self.delimiter = delimiter
    self.lenient = lenient
    let hasBOM = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    self.position = hasBOM ? 3 : 0
    self.lineStart = position
  }

  /// Reads every record.
  ///
  /// - Throws: `CSVReadError` (strict mode, or invalid UTF-8 in any mode).
  static func records(in data: Data, delimiter: UInt8 = UInt8(ascii: ","), lenient: Bool = false)
    throws -> [CSVRecord]
  {
    var reader = CSVReader(data: data, delimiter: delimiter, lenient: lenient)
    var out: [CSVRecord] = []
    while let record = try reader.next() { out.append(record) }
    return out
  }

  /// The next record, or `nil` at the end of the input. Empty lines are skipped.
  ///
  /// - Throws: `CSVReadError`: in strict mode for the grammar errors; in any mode for bytes
  ///   that are not UTF-8.
  mutating func next() throws -> CSVRecord? {
    while position < bytes.count, bytes[position] == 0x0A || bytes[position] == 0x0D {
      consumeLineBreak()
    }
    guard position < bytes.count else { return nil }
    guard lenient else { return try record(guessing: false) }
    let start = (position, line, lineStart)
    do {
      let strict = try record(guessing: false)
      guard let expected = expectedFieldCount, strict.fields.count != expected else { return strict }
      let end = (position, line, lineStart)
      (position, line, lineStart) = start
      if let guessed = try? record(guessing: true), guessed.fields.count == expected {
        noteGuess(guessed.line)
        return guessed
      }
      (position, line, lineStart) = end
      return strict
    } catch let error as CSVReadError where error.problem != .invalidUTF8 {
      (position, line, lineStart) = start
      let guessed = try record(guessing: true)
      noteGuess(guessed.line)
      return guessed
    }
  }

  /// Reads one record from `position`, which is not at a line break or the end.
  private mutating func record(guessing: Bool) throws -> CSVRecord {
    let startLine = line
    var fields: [String] = []
    var quoted: [Bool] = []
    var field: [UInt8] = []
    while true {
      let fieldLine = line
      let fieldColumn = position - lineStart + 1
      var isQuoted = false
      if position < bytes.count, bytes[position] == 0x22 {
        let opening = (position, line, lineStart)
        if try quotedField(into: &field, guessing: guessing) {
          isQuoted = true
        } else {
          // Guessing, and no quote closes the field: the opening quote is text and the
          // field ends like an unquoted one.
          (position, line, lineStart) = opening
          field.removeAll(keepingCapacity: true)
          try unquotedField(into: &field, guessing: true)
        }
      } else {
        try unquotedField(into: &field, guessing: guessing)
      }
      fields.append(try string(field, line: fieldLine, column: fieldColumn))
      quoted.append(isQuoted)
      field.removeAll(keepingCapacity: true)
      if position < bytes.count, bytes[position] == delimiter {
        position += 1
        continue
      }
      if position < bytes.count { consumeLineBreak() }
      return CSVRecord(fields: fields, line: startLine, quoted: quoted)
    }
  }

  /// Reads a quoted field from its opening quote to just after its closing quote (and, when
  /// guessing, the spaces after it). Returns false when guessing found no closing quote.
  private mutating func quotedField(into field: inout [UInt8], guessing: Bool) throws -> Bool {
    let openLine = line
    let openColumn = position - lineStart + 1
    position += 1
    while position < bytes.count {
      let byte = bytes[position]
      if byte == 0x22 {
        if guessing {
          var after = position + 1
          while after < bytes.count, bytes[after] == 0x20 { after += 1 }
          if after == bytes.count || isBoundary(bytes[after]) {
            position = after
            return true
          }
          field.append(0x22)
          position += 1
          continue
        }
        if position + 1 < bytes.count, bytes[position + 1] == 0x22 {
          field.append(0x22)
          position += 2
          continue
        }
        position += 1
        if position < bytes.count, !isBoundary(bytes[position]) {
          throw CSVReadError(problem: .textAfterClosingQuote, line: line, column: position - lineStart + 1)
        }
        return true
      }
      if byte == 0x0D || byte == 0x0A {
        // Kept verbatim; counted as a line for error positions.
        field.append(byte)
        if byte == 0x0D, position + 1 < bytes.count, bytes[position + 1] == 0x0A {
          field.append(0x0A)
          position += 1
        }
        position += 1
        line += 1
        lineStart = position
        continue
      }
      field.append(byte)
      position += 1
    }
    if guessing { return false }
    throw CSVReadError(problem: .unterminatedQuote, line: openLine, column: openColumn)
  }

  /// Reads an unquoted field up to the next delimiter or line end. A quote in it is an error
  /// unless guessing, when it is text.
  private mutating func unquotedField(into field: inout [UInt8], guessing: Bool) throws {
    while position < bytes.count {
      let byte = bytes[position]
      if isBoundary(byte) { return }
      if byte == 0x22, !guessing {
        throw CSVReadError(problem: .quoteInUnquotedField, line: line, column: position - lineStart + 1)
      }
      field.append(byte)
      position += 1
    }
  }

  private func isBoundary(_ byte: UInt8) -> Bool {
    byte == delimiter || byte == 0x0D || byte == 0x0A
  }

  private mutating func consumeLineBreak() {
    if bytes[position] == 0x0D, position + 1 < bytes.count, bytes[position + 1] == 0x0A {
      position += 2
    } else {
      position += 1
    }
    line += 1
    lineStart = position
  }

  private mutating func noteGuess(_ line: Int) {
    if guessedLines.last != line { guessedLines.append(line) }
  }

  private func string(_ bytes: [UInt8], line: Int, column: Int) throws -> String {
    // Decoding replaces invalid sequences with U+FFFD; any change means the bytes were invalid.
    // ASCII alone (most cells) is valid: told without comparing. (`String(validating:)` cost
    // twice as much as this, unspecialized.)
    let text = String(decoding: bytes, as: UTF8.self)
    guard bytes.allSatisfy({ $0 < 0x80 }) || text.utf8.elementsEqual(bytes) else {
      throw CSVReadError(problem: .invalidUTF8, line: line, column: column)
    }
    return text
  }
}
