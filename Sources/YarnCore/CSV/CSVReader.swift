import YarnModel
import YarnStore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
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
    /// Thrown when the first line holds a zero byte (NUL), which no text file's header holds:
    /// a binary file (a NUL in a later record is read, for its row's rules to refuse by name).
    case notText
    /// Thrown when the file is UTF-16 text: it begins with a UTF-16 byte-order mark (FF FE
    /// or FE FF), or its first bytes (up to `CSVReader.utf16Sample`) have the pattern of
    /// mostly-ASCII UTF-16 without a mark: a zero byte at every other place, on the same side
    /// of at least three pairs of bytes in four (UTF-8 text never has a zero byte).
    case utf16
    /// Thrown (by the stash import) when the header is split by another delimiter than the
    /// one given (`found`: `;`, TAB or `,`), before any row is read: a file exported with
    /// `--delimiter semicolon`, read with the default comma.
    case headerDelimiter(found: UInt8, given: UInt8)
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
    case .invalidUTF8: return "\(place): the bytes are not UTF-8 text"
    case .notText: return "\(place): a zero byte (NUL), which no text file holds: this is not a CSV file"
    case .utf16: return "the file is UTF-16 text, not UTF-8"
    case .headerDelimiter(let found, let given):
      return "\(place): the header is split by \(Self.shown(found)), not by \(Self.shown(given))"
    }
  }

  /// A delimiter as messages show it: `';'`, `','`, `TAB`.
  private static func shown(_ delimiter: UInt8) -> String {
    delimiter == UInt8(ascii: "\t") ? "TAB" : "'\(String(decoding: [delimiter], as: UTF8.self))'"
  }
}

/// Where the bytes of a CSV file come from.
public enum CSVInput: Sendable {
  /// The whole file, in memory.
  case bytes(Data)
  /// A file read in pieces (`CSVReader.chunkSize` bytes at a time), so that memory does not
  /// grow with the file: the reader holds the record it reads and one piece ahead.
  case file(path: String)

  /// The input's first `count` bytes (all of it when it is shorter); `nil` when the file
  /// cannot be read. For a look at the header line.
  public func prefix(_ count: Int) -> Data? {
    switch self {
    case .bytes(let data): return data.prefix(count)
    case .file(let path):
      var bytes: [UInt8] = []
      guard let file = try? CSVFile(path: path), (try? file.read(appendingTo: &bytes, count: count)) != nil
      else { return nil }
      return Data(bytes)
    }
  }
}

/// Thrown when a CSV file cannot be opened or read (not for what it holds: that is
/// `CSVReadError`).
public struct CSVFileError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file's path, as given.
  public let path: String
  /// The system's words, in lower case (`no such file or directory`).
  public let reason: String

  /// `cannot read stash.csv: input/output error`.
  public var description: String { "cannot read \(LineText.visible(path)): \(reason)" }
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
/// - Complexity: O(n) in the bytes of the input. Input given as `Data` is held in memory; a
///   file (`CSVInput.file`) is read in pieces of `chunkSize` bytes, the bytes before the
///   current record dropped, so memory grows with the longest record, not with the file.
struct CSVReader {
  /// The input's bytes from `dropped` on: the current record and what was read ahead.
  private var bytes: [UInt8]
  /// How many bytes of the input came before `bytes[0]`.
  private var dropped = 0
  /// The file the rest of the input comes from, until its end; `nil` for input in memory.
  private var file: CSVFile?
  private let delimiter: UInt8
  private let lenient: Bool
  private var position: Int
  private var line = 1
  private var lineStart: Int
  /// Whether the input is UTF-16 text (`CSVReadError.Problem.utf16`), told by its first
  /// bytes (`looksLikeUTF16`).
  private let isUTF16: Bool
  /// The 1-based column of a zero byte in the first line (of the first `utf16Sample`
  /// bytes), when the input is not UTF-16: a binary file, refused as not UTF-8 text.
  private let zeroByteColumn: Int?
  /// Lines (1-based) where lenient mode had to guess what a stray quote meant.
  private(set) var guessedLines: [Int] = []
  /// The number of fields every record should have (the header's), when known. Lenient mode
  /// uses it to decide between a strict reading and a guessed one; strict mode ignores it.
  var expectedFieldCount: Int?
  /// How many bytes of the input were read so far, for progress.
  var bytesRead: Int { dropped + position }
  /// The size of the input in bytes (a file's size when it was opened).
  let byteCount: Int
  /// The bytes read from a file at a time: 64 KiB.
  static let chunkSize = 1 << 16
  /// How many of the first bytes `looksLikeUTF16` looks at: 512.
  static let utf16Sample = 512

  /// - Parameters:
  ///   - data: the whole input.
  ///   - delimiter: the field delimiter byte.
  ///   - lenient: guess what stray quotes mean instead of throwing (see the type's notes).
  init(data: Data, delimiter: UInt8 = UInt8(ascii: ","), lenient: Bool = false) {
    self.init(bytes: [UInt8](data), file: nil, delimiter: delimiter, lenient: lenient)
  }

  /// A reader of `input`: in memory, or a file opened now and read piece by piece.
  ///
  /// - Throws: `CSVFileError` when the file cannot be opened or read.
  init(input: CSVInput, delimiter: UInt8 = UInt8(ascii: ","), lenient: Bool = false) throws {
    switch input {
    case .bytes(let data):
      self.init(data: data, delimiter: delimiter, lenient: lenient)
    case .file(let path):
      var first: [UInt8] = []
      let file = try CSVFile(path: path)
      let more = try file.read(appendingTo: &first, count: CSVReader.chunkSize)
      self.init(bytes: first, file: more ? file : nil, delimiter: delimiter, lenient: lenient)
    }
  }

  private init(bytes: [UInt8], file: CSVFile?, delimiter: UInt8, lenient: Bool) {
    self.bytes = bytes
    self.file = file
    self.byteCount = file?.size ?? bytes.count
    self.delimiter = delimiter
    self.lenient = lenient
    let hasBOM = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    let sample = bytes.prefix(CSVReader.utf16Sample)
    isUTF16 = CSVReader.looksLikeUTF16(sample)
    let start = hasBOM ? 3 : 0
    zeroByteColumn =
      isUTF16
      ? nil
      : sample.dropFirst(start).prefix { $0 != 0x0A && $0 != 0x0D }.firstIndex(of: 0).map { $0 - start + 1 }
    self.position = hasBOM ? 3 : 0
    self.lineStart = position
  }

  /// Whether `bytes`, a file's first bytes, are UTF-16 text: they begin with a byte order mark
  /// (FF FE or FE FF), or, taken in pairs, at least three pairs in four (and one at least)
  /// hold one zero byte on the same side (the high byte of an ASCII character in UTF-16LE or
  /// BE). A binary file's scattered zero bytes are not that (`CSVReadError.Problem.notText`
  /// names one in the first line).
  static func looksLikeUTF16(_ bytes: ArraySlice<UInt8>) -> Bool {
    let start = bytes.startIndex
    guard bytes.count >= 2 else { return false }
    let (first, second) = (bytes[start], bytes[start + 1])
    if (first == 0xFF && second == 0xFE) || (first == 0xFE && second == 0xFF) { return true }
    var (little, big, pairs) = (0, 0, 0)
    for index in stride(from: start, to: bytes.endIndex - 1, by: 2) {
      let (low, high) = (bytes[index], bytes[index + 1])
      pairs += 1
      if low != 0 && high == 0 { little += 1 }
      if low == 0 && high != 0 { big += 1 }
    }
    return max(little, big) * 4 >= pairs * 3
  }

  /// Whether the input holds a byte at `index` (of `bytes`), reading more of the file when
  /// `bytes` ends before it.
  @inline(__always)
  private mutating func has(_ index: Int) throws -> Bool {
    if index < bytes.count { return true }
    while file != nil, index >= bytes.count { try fill() }
    return index < bytes.count
  }

  /// Appends the file's next piece to `bytes`; at the file's end, closes it.
  private mutating func fill() throws {
    guard let file else { return }
    if try !file.read(appendingTo: &bytes, count: CSVReader.chunkSize) { self.file = nil }
  }

  /// Drops the bytes before `position` (a record's start) once they are a piece or more, so
  /// that a file's bytes are not all kept.
  private mutating func dropReadBytes() {
    guard file != nil, position >= CSVReader.chunkSize else { return }
    bytes.removeSubrange(0..<position)
    dropped += position
    lineStart -= position
    position = 0
  }

  /// The next record, or `nil` at the end of the input. Empty lines are skipped.
  ///
  /// - Throws: `CSVReadError`: in strict mode for the grammar errors; in any mode for bytes
  ///   that are not UTF-8.
  mutating func next() throws -> CSVRecord? {
    if isUTF16 { throw CSVReadError(problem: .utf16, line: 1, column: nil) }
    if let zeroByteColumn, line == 1 {
      throw CSVReadError(problem: .notText, line: 1, column: zeroByteColumn)
    }
    while try has(position), bytes[position] == 0x0A || bytes[position] == 0x0D {
      try consumeLineBreak()
    }
    guard try has(position) else { return nil }
    dropReadBytes()
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
    } catch let error as CSVReadError where error.problem != .invalidUTF8 && error.problem != .notText {
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
      let fieldStart = (position, line, lineStart)
      var isQuoted = false
      if try has(position), bytes[position] == 0x22 {
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
      fields.append(try string(field, from: fieldStart))
      quoted.append(isQuoted)
      field.removeAll(keepingCapacity: true)
      if try has(position), bytes[position] == delimiter {
        position += 1
        continue
      }
      if try has(position) { try consumeLineBreak() }
      return CSVRecord(fields: fields, line: startLine, quoted: quoted)
    }
  }

  /// Reads a quoted field from its opening quote to just after its closing quote (and, when
  /// guessing, the spaces after it). Returns false when guessing found no closing quote.
  private mutating func quotedField(into field: inout [UInt8], guessing: Bool) throws -> Bool {
    let openLine = line
    let openColumn = position - lineStart + 1
    position += 1
    while try has(position) {
      let byte = bytes[position]
      if byte == 0x22 {
        if guessing {
          var after = position + 1
          while try has(after), bytes[after] == 0x20 { after += 1 }
          if try !has(after) || isBoundary(bytes[after]) {
            position = after
            return true
          }
          field.append(0x22)
          position += 1
          continue
        }
        if try has(position + 1), bytes[position + 1] == 0x22 {
          field.append(0x22)
          position += 2
          continue
        }
        position += 1
        if try has(position), !isBoundary(bytes[position]) {
          throw CSVReadError(problem: .textAfterClosingQuote, line: line, column: position - lineStart + 1)
        }
        return true
      }
      if byte == 0x0D || byte == 0x0A {
        // Kept verbatim; counted as a line for error positions.
        field.append(byte)
        if byte == 0x0D, try has(position + 1), bytes[position + 1] == 0x0A {
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
    // Found first, then copied at once (reading more of a file only appends to `bytes`).
    let start = position
    while try has(position) {
      let byte = bytes[position]
      if isBoundary(byte) { break }
      if byte == 0x22, !guessing {
        throw CSVReadError(problem: .quoteInUnquotedField, line: line, column: position - lineStart + 1)
      }
      position += 1
    }
    field.append(contentsOf: bytes[start..<position])
  }

  private func isBoundary(_ byte: UInt8) -> Bool {
    byte == delimiter || byte == 0x0D || byte == 0x0A
  }

  private mutating func consumeLineBreak() throws {
    if bytes[position] == 0x0D, try has(position + 1), bytes[position + 1] == 0x0A {
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

  /// The text of a field's bytes `field`, which the input holds from `start` (its index in
  /// `bytes`, line and line start) to `position`.
  ///
  /// - Throws: `CSVReadError` `.invalidUTF8` naming the line and column of the first byte that
  ///   is not UTF-8 (`badByte(from:)`).
  private func string(_ field: [UInt8], from start: (index: Int, line: Int, lineStart: Int)) throws -> String
  {
    // Decoding replaces invalid sequences with U+FFFD; any change means the bytes were invalid.
    // ASCII alone (most cells) is valid: told without comparing. (`String(validating:)` cost
    // twice as much as this, unspecialized.)
    let text = String(decoding: field, as: UTF8.self)
    guard field.allSatisfy({ $0 < 0x80 }) || text.utf8.elementsEqual(field) else {
      let (line, column) = badByte(from: start)
      throw CSVReadError(problem: .invalidUTF8, line: line, column: column)
    }
    return text
  }

  /// The line and column of the first byte from `start` (an index of `bytes`, its line and
  /// line start) to `position` that is not UTF-8. The input's bytes are read, quotes and line
  /// breaks included: a quote is ASCII, so the field's bytes are UTF-8 where these are.
  private func badByte(from start: (index: Int, line: Int, lineStart: Int)) -> (line: Int, column: Int) {
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes[start.index..<position].makeIterator()
    var bad = start.index
    scan: while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let scalar): bad += scalar.count
      case .error, .emptyInput: break scan
      }
    }
    var (index, line, lineStart) = start
    while index < bad {
      let byte = bytes[index]
      index += 1
      guard byte == 0x0A || byte == 0x0D else { continue }
      if byte == 0x0D, index < bad, bytes[index] == 0x0A { index += 1 }
      line += 1
      lineStart = index
    }
    return (line, bad - lineStart + 1)
  }
}

/// A CSV file open for reading, closed when the last reader lets go of it.
private final class CSVFile {
  let path: String
  let fd: Int32
  /// Its size in bytes when it was opened.
  let size: Int

  /// - Throws: `CSVFileError` when it cannot be opened.
  init(path: String) throws {
    let fd = POSIX.open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw CSVFileError(path: path, reason: POSIX.errnoText()) }
    var status = stat()
    self.size = fstat(fd, &status) == 0 ? Int(status.st_size) : 0
    self.path = path
    self.fd = fd
  }

  deinit { POSIX.close(fd) }

  /// Appends up to `count` bytes to `bytes`, fewer only at the end of the file; returns
  /// whether the file may hold more (false at its end).
  ///
  /// - Throws: `CSVFileError` when read(2) fails.
  func read(appendingTo bytes: inout [UInt8], count: Int) throws -> Bool {
    let start = bytes.count
    bytes.append(contentsOf: repeatElement(0, count: count))
    var got = 0
    var more = true
    while got < count {
      let n = bytes.withUnsafeMutableBytes { buffer in
        POSIX.read(fd, buffer.baseAddress.map { $0 + start + got }, count - got)
      }
      if n < 0, errno == EINTR { continue }
      guard n >= 0 else {
        let reason = POSIX.errnoText()
        bytes.removeLast(count)
        throw CSVFileError(path: path, reason: reason)
      }
      if n == 0 {
        more = false
        break
      }
      got += n
    }
    bytes.removeLast(count - got)
    return more
  }
}
