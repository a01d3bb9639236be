import Foundation

/// A record read from CSV, with the line it starts on (1-based, counting every line break,
/// including those inside quoted fields).
public struct CSVRecord: Hashable, Sendable {
  public var fields: [String]
  public var line: Int
}

/// Thrown by `CSVReader` in strict mode, naming where the problem is.
public struct CSVReadError: Error, Hashable, Sendable, CustomStringConvertible {
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

  public let problem: Problem
  /// 1-based line of the input.
  public let line: Int
  /// 1-based column (in bytes from the start of the line), when known.
  public let column: Int?

  public init(problem: Problem, line: Int, column: Int?) {
    self.problem = problem
    self.line = line
    self.column = column
  }

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
/// unterminated quote, a quote in an unquoted field or text after a closing quote. Lenient
/// mode keeps such quotes as text and records the line in `guessedLines`, for files written
/// by exporters that do not double quotes.
public struct CSVReader {
  private let bytes: [UInt8]
  private let delimiter: UInt8
  private let lenient: Bool
  private var position: Int
  private var line = 1
  private var lineStart: Int
  /// Lines (1-based) where lenient mode had to guess what a stray quote meant.
  public private(set) var guessedLines: [Int] = []

  /// - Parameters:
  ///   - data: the whole input.
  ///   - delimiter: the field delimiter byte.
  ///   - lenient: keep stray quotes as text instead of throwing.
  public init(data: Data, delimiter: UInt8 = UInt8(ascii: ","), lenient: Bool = false) {
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
  public static func records(in data: Data, delimiter: UInt8 = UInt8(ascii: ","), lenient: Bool = false)
    throws -> [CSVRecord]
  {
    var reader = CSVReader(data: data, delimiter: delimiter, lenient: lenient)
    var out: [CSVRecord] = []
    while let record = try reader.next() { out.append(record) }
    return out
  }

  /// The next record, or `nil` at the end of the input. Empty lines are skipped.
  ///
  /// - Throws: `CSVReadError`.
  public mutating func next() throws -> CSVRecord? {
    // Skip empty lines.
    while position < bytes.count, bytes[position] == 0x0A || bytes[position] == 0x0D {
      consumeLineBreak()
    }
    guard position < bytes.count else { return nil }
    let startLine = line
    var fields: [String] = []
    var field: [UInt8] = []
    while true {
      // At the start of a field.
      if position < bytes.count, bytes[position] == 0x22 {
        let openLine = line
        let openColumn = position - lineStart + 1
        position += 1
        var closed = false
        while position < bytes.count {
          let byte = bytes[position]
          if byte == 0x22 {
            if position + 1 < bytes.count, bytes[position + 1] == 0x22 {
              field.append(0x22)
              position += 2
              continue
            }
            position += 1
            closed = true
            break
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
        if !closed {
          if !lenient {
            throw CSVReadError(problem: .unterminatedQuote, line: openLine, column: openColumn)
          }
          noteGuess(openLine)
        }
        // After the closing quote: a delimiter, a line end, or the end.
        if position < bytes.count, bytes[position] != delimiter, bytes[position] != 0x0D,
          bytes[position] != 0x0A
        {
          if !lenient {
            throw CSVReadError(
              problem: .textAfterClosingQuote, line: line, column: position - lineStart + 1)
          }
          noteGuess(line)
          // Spaces alone after the closing quote are dropped (as Apache Commons CSV does);
          // anything else is kept as part of the field, the quote included.
          var rest: [UInt8] = []
          while position < bytes.count, bytes[position] != delimiter, bytes[position] != 0x0D,
            bytes[position] != 0x0A
          {
            rest.append(bytes[position])
            position += 1
          }
          if !rest.allSatisfy({ $0 == 0x20 }) {
            field.append(0x22)
            field.append(contentsOf: rest)
          }
        }
      } else {
        while position < bytes.count {
          let byte = bytes[position]
          if byte == delimiter || byte == 0x0D || byte == 0x0A { break }
          if byte == 0x22 {
            if !lenient {
              throw CSVReadError(
                problem: .quoteInUnquotedField, line: line, column: position - lineStart + 1)
            }
            noteGuess(line)
          }
          field.append(byte)
          position += 1
        }
      }
      fields.append(try string(field, line: line))
      field.removeAll(keepingCapacity: true)
      if position < bytes.count, bytes[position] == delimiter {
        position += 1
        continue
      }
      if position < bytes.count { consumeLineBreak() }
      return CSVRecord(fields: fields, line: startLine)
    }
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

  private func string(_ bytes: [UInt8], line: Int) throws -> String {
    // Decoding replaces invalid sequences with U+FFFD; any change means the bytes were invalid.
    let text = String(decoding: bytes, as: UTF8.self)
    guard text.utf8.elementsEqual(bytes) else {
      throw CSVReadError(problem: .invalidUTF8, line: line, column: nil)
    }
    return text
  }
}
