import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

@Suite struct CSVReaderTests {
  private func fields(_ text: String, lenient: Bool = false) throws -> [[String]] {
    try CSVReader.records(in: Data(text.utf8), lenient: lenient).map(\.fields)
  }

  /// csv-spectrum v2.0.0: each csvs/NAME.csv against json/NAME.json (objects keyed by header).
  /// `location_coordinates` is skipped: upstream its JSON disagrees with its CSV (issue #20).
  @Test(arguments: [
    "comma_in_quotes", "empty", "empty_crlf", "escaped_quotes", "json", "newlines",
    "newlines_crlf", "quotes_and_newlines", "simple", "simple_crlf", "utf8",
  ])
  func csvSpectrum(name: String) throws {
    let csv = try Data(contentsOf: Fixtures.shared("csv/csv-spectrum/csvs/\(name).csv"))
    let json = try Data(contentsOf: Fixtures.shared("csv/csv-spectrum/json/\(name).json"))
    let expected = try #require(try JSONSerialization.jsonObject(with: json) as? [[String: String]])
    let records = try CSVReader.records(in: csv)
    let header = try #require(records.first).fields
    let objects = records.dropFirst().map { record in
      Dictionary(uniqueKeysWithValues: zip(header, record.fields))
    }
    #expect(objects == expected)
  }

  /// Apache Commons CSV `test.csv` against `test_rfc4180.txt`. Commons keeps stray quotes in
  /// unquoted fields, so this reads leniently; Commons reports an empty line as a record of one
  /// empty field, where this reader skips empty lines, so those are left out of the comparison.
  @Test func apacheCommonsRFC4180() throws {
    let csv = try Data(contentsOf: Fixtures.shared("csv/apache-commons-csv/CSVFileParser/test.csv"))
    let spec = try String(
      contentsOf: Fixtures.shared("csv/apache-commons-csv/CSVFileParser/test_rfc4180.txt"), encoding: .utf8)
    var expected: [[String]] = []
    for line in spec.split(separator: "\n").dropFirst(2) {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let count = Int(line[..<colon]) ?? -1
      let inner = line[line.index(colon, offsetBy: 2)..<line.index(before: line.endIndex)]
      let parts = inner.isEmpty ? [""] : inner.components(separatedBy: ", ")
      #expect(parts.count == count, "the expectation line \(line) splits cleanly")
      if parts != [""] { expected.append(parts) }
    }
    let records = try CSVReader.records(in: csv, lenient: true).map(\.fields)
    #expect(records == expected)
  }

  @Test func byteOrderMarkIsNotPartOfTheFirstHeader() throws {
    let papa = try CSVReader.records(
      in: Data(contentsOf: Fixtures.shared("csv/papaparse/utf-8-bom-sample.csv")))
    #expect(papa.first?.fields.first == "A")
    let commons = try CSVReader.records(
      in: Data(contentsOf: Fixtures.shared("csv/apache-commons-csv/CSVFileParser/bom.csv")))
    #expect(commons.first?.fields == ["Date", " Open", " High", " Low", " Close", " Volume"])
    #expect(commons.count == 252)  // `grep -c . bom.csv`: a header and 251 rows
  }

  @Test func lineEndsOfEveryKind() throws {
    #expect(try fields("a,b\r\nc,d\r\n") == [["a", "b"], ["c", "d"]])
    #expect(try fields("a,b\nc,d") == [["a", "b"], ["c", "d"]])
    #expect(try fields("a,b\rc,d\r") == [["a", "b"], ["c", "d"]])
    #expect(try fields("a\n\n\nb\n") == [["a"], ["b"]])
    #expect(try fields("\"x\r\ny\",z\r\n") == [["x\r\ny", "z"]])
    #expect(try fields("a,\r\n") == [["a", ""]])
    #expect(try fields("\"\"\r\n") == [[""]])
  }

  @Test func recordsKnowTheirLine() throws {
    let records = try CSVReader.records(in: Data("h\r\n\"two\nlines\"\r\nnext\r\n".utf8))
    #expect(records.map(\.line) == [1, 2, 4])
  }

  @Test func strictErrorsNameLineAndColumn() {
    #expect(throws: CSVReadError(problem: .unterminatedQuote, line: 2, column: 3)) {
      try fields("a,b\r\nc,\"open\r\nmore")
    }
    #expect(throws: CSVReadError(problem: .quoteInUnquotedField, line: 1, column: 4)) {
      try fields("a,b\"c\r\n")
    }
    #expect(throws: CSVReadError(problem: .textAfterClosingQuote, line: 1, column: 6)) {
      try fields("\"abc\"d,e\r\n")
    }
  }

  @Test func invalidUTF8IsAnErrorNotACrash() {
    let bytes = Data([0x61, 0x2C, 0xFF, 0xFE, 0x0D, 0x0A])
    #expect(throws: CSVReadError(problem: .invalidUTF8, line: 1, column: 3)) {
      try CSVReader.records(in: bytes)
    }
    #expect(
      CSVReadError(problem: .invalidUTF8, line: 1, column: 3).description
        == "line 1, column 3: the bytes are not UTF-8 text")
  }

  /// QA: bytes that are not UTF-8 were named at the start of their field (`A,"line1\n\xE9"`:
  /// line 2, column 3); the bad byte's own line and column are, counted as every error's
  /// are (1-based, in bytes from the line's start; a line break inside quotes counts).
  @Test func theByteThatIsNotUTF8IsNamedByItsLineAndColumn() throws {
    let cases: [(bytes: [UInt8], line: Int, column: Int)] = [
      (Array("Name,Notes\nA,\"line1\n".utf8) + [0xE9] + Array("\"\n".utf8), 3, 1),
      (Array("Name,Notes\r\nA,ab".utf8) + [0xE9, 0x0D, 0x0A], 2, 5),
      (Array("Name,Notes\r\nA,\"l1\r\nab".utf8) + [0xC3] + Array("\"".utf8), 3, 3),
      (Array("Name,Notes\nA,\"l1\r\r".utf8) + [0xFF] + Array("\"".utf8), 4, 1),
      // A doubled quote is two bytes of the line; a sequence cut short is named where it begins.
      (Array("Name,Notes\nA,\"a\"\"".utf8) + [0xE9] + Array("\"".utf8), 2, 7),
      (Array("Name,Notes\nA,\"é".utf8) + [0xE2, 0x82] + Array("\"".utf8), 2, 6),
      // A UTF-16 surrogate written as UTF-8 (ED A0 80) is not UTF-8.
      (Array("Name,Notes\nA,x".utf8) + [0xED, 0xA0, 0x80], 2, 4),
    ]
    for (bytes, line, column) in cases {
      for lenient in [false, true] {
        #expect(throws: CSVReadError(problem: .invalidUTF8, line: line, column: column), "\(bytes)") {
          try CSVReader.records(in: Data(bytes), lenient: lenient)
        }
      }
    }
  }

  /// A zero byte in the first line (the header) is in no text file: a binary file is refused
  /// where the byte is, not as UTF-16 (`00 01 02 binary` was "UTF-16 text"). A NUL in a later
  /// record is read, for the row's rules to name.
  @Test func aZeroByteInTheFirstLineIsNotText() throws {
    let inputs: [([UInt8], Int)] = [
      ([0x00, 0x01, 0x02] + Array("binary".utf8), 1),
      // A pair with one zero byte, then bytes that are not UTF-16's pattern.
      ([0x4E, 0x00] + Array("ame,Brand,Colorway\r\nRios,Malabrigo,Azul\r\n".utf8), 2),
      ([0xEF, 0xBB, 0xBF] + Array("Name,Br".utf8) + [0x00] + Array("and\r\n".utf8), 8),
    ]
    for (bytes, column) in inputs {
      for lenient in [false, true] {
        #expect(throws: CSVReadError(problem: .notText, line: 1, column: column), "\(bytes)") {
          try CSVReader.records(in: Data(bytes), lenient: lenient)
        }
      }
    }
    let later = Array("Name,Brand\r\nRios,Mala".utf8) + [0x00] + Array("brigo\r\n".utf8)
    #expect(
      try CSVReader.records(in: Data(later)).map(\.fields) == [
        ["Name", "Brand"], ["Rios", "Mala\u{0}brigo"],
      ])
  }

  /// UTF-16 text, with its byte order mark (FF FE little-endian, FE FF big-endian) or without
  /// (`N` then a zero byte), is named as such in either mode; a UTF-8 file never begins with
  /// a zero byte.
  @Test func utf16IsNamedAsSuch() throws {
    let utf16 = CSVReadError(problem: .utf16, line: 1, column: nil)
    let inputs: [[UInt8]] = [
      [0xFF, 0xFE, 0x4E, 0x00, 0x0D, 0x00, 0x0A, 0x00],
      [0xFE, 0xFF, 0x00, 0x4E, 0x00, 0x0D, 0x00, 0x0A],
      [0x4E, 0x00, 0x61, 0x00],
      [0x00, 0x4E, 0x00, 0x61],
      // Mostly ASCII: three pairs in four with the zero on one side (a CJK column name).
      Array("Name,\u{540D},ab".data(using: .utf16LittleEndian)!),
      Array("Name,\u{540D},ab".data(using: .utf16BigEndian)!),
    ]
    for bytes in inputs {
      for lenient in [false, true] {
        #expect(throws: utf16, "\(bytes)") { try CSVReader.records(in: Data(bytes), lenient: lenient) }
      }
    }
    #expect(utf16.description == "the file is UTF-16 text, not UTF-8")
    // A UTF-8 byte order mark is still read past.
    #expect(try CSVReader.records(in: Data([0xEF, 0xBB, 0xBF, 0x4E, 0x0D, 0x0A])).map(\.fields) == [["N"]])
  }

  @Test func lenientModeKeepsStrayQuotesAndSaysWhere() throws {
    // YarnBuddy wrapped every field in quotes without doubling inner ones: a quote closes a
    // field only before a delimiter or a line end.
    let text = "\"Shelter \"Almanac\"\",\"x\"\r\nok,fine\r\n\"a \"b\" c\",\"5\" needles\"\r\n"
    var reader = CSVReader(data: Data(text.utf8), lenient: true)
    let first = try #require(try reader.next())
    #expect(first.fields == ["Shelter \"Almanac\"", "x"])
    #expect(first.quoted == [true, true])
    #expect(try reader.next()?.fields == ["ok", "fine"])
    #expect(try reader.next()?.fields == ["a \"b\" c", "5\" needles"])
    #expect(reader.guessedLines == [1, 3])
  }

  @Test func lenientModeUsesTheFieldCountToChoose() throws {
    // YarnBuddy writes `x"` and `"y` as `"x"",""y"`: read strictly that is one field, `x","y`.
    let data = Data("\"x\"\",\"\"y\"\r\n".utf8)
    #expect(try CSVReader.records(in: data, lenient: true).map(\.fields) == [["x\",\"y"]])
    var reader = CSVReader(data: data, lenient: true)
    reader.expectedFieldCount = 2
    #expect(try reader.next()?.fields == ["x\"", "\"y"])
    #expect(reader.guessedLines == [1])
    // Read strictly, `"x""",y` is `x"` and `y`: the expected two fields, so no guess.
    var counted = CSVReader(data: Data("\"x\"\"\",y\r\n".utf8), lenient: true)
    counted.expectedFieldCount = 2
    #expect(try counted.next()?.fields == ["x\"", "y"])
    #expect(counted.guessedLines.isEmpty)
  }

  @Test func lenientModeEndsAQuoteThatNeverClosesAtTheLineEnd() throws {
    var reader = CSVReader(data: Data("\"open,b\r\nc,d\r\n".utf8), lenient: true)
    #expect(try reader.next()?.fields == ["\"open", "b"])
    #expect(try reader.next()?.fields == ["c", "d"])
    #expect(reader.guessedLines == [1])
  }

  @Test func writerOutputReadsBackForTrickyValues() throws {
    let rows: [[String]] = [
      ["quote \" inside", "comma, inside", "cr\rlf\ncrlf\r\n", "  spaces  ", "'apostrophe"],
      ["emoji 🧶🧵", "e\u{301}", "\"\u{301}", "", "日本語"],
    ]
    let bytes = CSVWriter.encode(rows.map { $0.map(CSVField.text) }, options: CSVOptions(formulaGuard: false))
    #expect(try CSVReader.records(in: Data(bytes)).map(\.fields) == rows)
  }

  /// Every record of a reader, and its guessed lines and bytes read at the end.
  private func readAll(_ reader: inout CSVReader) throws -> (records: [CSVRecord], guessed: [Int], read: Int)
  {
    reader.expectedFieldCount = 2
    var records: [CSVRecord] = []
    while let record = try reader.next() { records.append(record) }
    return (records, reader.guessedLines, reader.bytesRead)
  }

  /// A file is read in pieces of 64 KiB (`CSVInput.file`), the bytes before the current
  /// record dropped: it gives the same records, lines, quoting and guesses as the same bytes
  /// in memory, with records, quoted line breaks and CRLFs across the pieces' boundaries.
  @Test(arguments: [false, true])
  func aFileReadInPiecesReadsAsTheSameBytesInMemory(lenient: Bool) throws {
    var text = "\u{FEFF}Name,Notes\r\n"
    for row in 1...10_000 {
      switch row % 4 {
      case 0: text += "\"Yarn \"\"\(row)\"\"\",\"two\r\nlines, \(row)\"\r\n"
      case 1: text += "Yarn \(row),plain \(row)\n"
      case 2: text += "\r\n\r\nY\u{301} \(row),\(String(repeating: "x", count: row % 37))\r"
      default:
        // A stray quote: an error read strictly, guessed when lenient.
        text += lenient ? "\"YarnBuddy \"\(row)\" wool\",\"n\"\r\n" : "Quoted \(row),\"n\"\r\n"
      }
    }
    let data = Data(text.utf8)
    #expect(data.count > 4 * CSVReader.chunkSize, "more than four pieces")
    let directory = try Fixtures.temporaryDirectory()
    defer { Fixtures.cleanUp(directory) }
    let file = directory.appendingPathComponent("stash.csv")
    try data.write(to: file)
    var inMemory = CSVReader(data: data, lenient: lenient)
    var inPieces = try CSVReader(input: .file(path: file.path), lenient: lenient)
    let expected = try readAll(&inMemory)
    let read = try readAll(&inPieces)
    #expect(read.records.count == 10_001 && read.records == expected.records)
    #expect(read.records[0].fields == ["Name", "Notes"])
    // Line 2 is row 1; row 2 starts after two empty lines (line 5), row 4 on line 7.
    #expect(read.records[4].line == 7 && read.records[4].fields == ["Yarn \"4\"", "two\r\nlines, 4"])
    #expect(read.guessed == expected.guessed && read.guessed.count == (lenient ? 2500 : 0))
    #expect(inPieces.byteCount == data.count && read.read == data.count && expected.read == data.count)
  }

  /// A grammar error or bytes that are not UTF-8 past the first piece are named at the same
  /// line and column as in memory; a file that cannot be opened is a `CSVFileError`.
  @Test func aFileReadInPiecesNamesErrorsWhereTheBytesInMemoryDo() throws {
    let rows = String(repeating: "Yarn,\"quoted\r\nnote\"\r\n", count: 10_000)
    let directory = try Fixtures.temporaryDirectory()
    defer { Fixtures.cleanUp(directory) }
    // 10,000 rows of two lines: line 20,002 is the header's and the rows' next.
    let bad: [(tail: [UInt8], error: CSVReadError)] = [
      (Array("ab\"c,d\r\n".utf8), CSVReadError(problem: .quoteInUnquotedField, line: 20_002, column: 3)),
      (
        Array("a,\"never closed\r\n".utf8), CSVReadError(problem: .unterminatedQuote, line: 20_002, column: 3)
      ),
      ([0x61, 0x2C, 0xFF, 0x0D, 0x0A], CSVReadError(problem: .invalidUTF8, line: 20_002, column: 3)),
    ]
    for (index, case_) in bad.enumerated() {
      let data = Data(Array(("Name,Notes\r\n" + rows).utf8) + case_.tail)
      let file = directory.appendingPathComponent("bad-\(index).csv")
      try data.write(to: file)
      #expect(throws: case_.error) { try CSVReader.records(in: data) }
      var reader = try CSVReader(input: .file(path: file.path))
      #expect(throws: case_.error) { while try reader.next() != nil {} }
    }
    let missing = directory.appendingPathComponent("missing.csv").path
    #expect(throws: CSVFileError(path: missing, reason: "no such file or directory")) {
      try CSVReader(input: .file(path: missing))
    }
  }
}
