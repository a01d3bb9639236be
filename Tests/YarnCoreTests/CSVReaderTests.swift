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
}
