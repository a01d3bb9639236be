import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

@Suite struct CSVWriterTests {
  private func written(_ rows: [[String]], options: CSVOptions = CSVOptions()) -> String {
    String(
      decoding: CSVWriter.encode(rows.map { $0.map { CSVField.text($0) } }, options: options), as: UTF8.self)
  }

  /// Every vector of shared/data/csv/writer-vectors.json (CPython, OWASP, PapaParse).
  @Test func externalWriterVectors() throws {
    let data = try Data(contentsOf: Fixtures.shared("csv/writer-vectors.json"))
    let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let vectors = try #require(root["vectors"] as? [[String: Any]])
    #expect(vectors.count >= 12)
    var checked = 0
    for vector in vectors {
      let source = vector["src"] as? String ?? "?"
      if let input = vector["input"] as? String, let expected = vector["expect_rows"] as? [[String]] {
        let records = try CSVReader.records(in: Data(input.utf8))
        #expect(records.map(\.fields) == expected, "\(source)")
        checked += 1
        continue
      }
      guard let rows = vector["rows"] as? [[String]], let expect = vector["expect"] as? String else {
        Issue.record("vector without rows/expect: \(source)")
        continue
      }
      // The CPython vectors describe a plain RFC 4180 writer; OWASP's and PapaParse's describe
      // the formula guard.
      let guarded = source.hasPrefix("OWASP") || source.contains("PapaParse")
      let output = written(rows, options: CSVOptions(formulaGuard: guarded))
      if expect == "ROUNDTRIP" {
        let back = try CSVReader.records(in: Data(output.utf8)).map(\.fields)
        #expect(back == rows, "\(source)")
      } else if expect.hasSuffix("\r\n") || rows == [[]] {
        #expect(output == expect, "\(source)")
      } else {
        // OWASP's page and PapaParse write no final line break; RFC 4180 output ends every
        // record with CRLF, which is the only difference allowed here.
        #expect(output == expect + "\r\n", "\(source)")
      }
      checked += 1
    }
    #expect(checked == vectors.count)
  }

  @Test func aRecordOfOneEmptyFieldIsNotAnEmptyLine() throws {
    // Python: csv.writer(f, lineterminator="\r\n").writerows([["a"], [""], [None]]) writes
    // 'a\r\n""\r\n""\r\n'; an empty line would be skipped by a reader (a lost row).
    let bytes = CSVWriter.encode([[.text("a")], [.text("")], [.empty], [.empty, .empty]])
    #expect(String(decoding: bytes, as: UTF8.self) == "a\r\n\"\"\r\n\"\"\r\n,\r\n")
    var reader = CSVReader(data: Data(bytes), delimiter: 0x2C, lenient: false)
    var count = 0
    while try reader.next() != nil { count += 1 }
    #expect(count == 4)
  }

  @Test func quotesOnlyWhatNeedsIt() {
    #expect(written([["plain", "with space ", " lead"]]) == "plain,with space , lead\r\n")
    #expect(
      written([["a,b", "say \"hi\"", "two\nlines", "cr\rhere", "crlf\r\nx"]])
        == "\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\"cr\rhere\",\"crlf\r\nx\"\r\n")
  }

  @Test func quoteBeforeCombiningAccentIsStillAQuote() {
    // U+0022 followed by U+0301 is one Character in Swift; the writer must still double it.
    #expect(written([["a\"\u{301}b"]]) == "\"a\"\"\u{301}b\"\r\n")
    #expect(written([[",\u{301}"]]) == "\",\u{301}\"\r\n")
  }

  @Test func formulaGuardOnTextOnlyAndOptional() {
    let cells: [CSVField] = [.text("=SUM(A1)"), .text("@me"), .number(-3), .text("-2"), .empty]
    let guarded = String(decoding: CSVWriter.encode([cells]), as: UTF8.self)
    #expect(guarded == "\"'=SUM(A1)\",\"'@me\",-3,\"'-2\",\r\n")
    let open = String(
      decoding: CSVWriter.encode([cells], options: CSVOptions(formulaGuard: false)), as: UTF8.self)
    #expect(open == "=SUM(A1),@me,-3,-2,\r\n")
  }

  @Test func guardedApostrophesStayReversible() {
    // Unquoted '+safe is left alone (PapaParse); a quoted one gets the guard's apostrophe, so
    // a quoted field beginning ' + ('…) + = + - @ TAB CR LF always carries one of the guard's.
    #expect(
      written([["'+safe", "'+safe, x", "''=y\n", "'plain, x"]])
        == "'+safe,\"''+safe, x\",\"'''=y\n\",\"'plain, x\"\r\n")
  }

  @Test func delimiterAndBOM() {
    let options = CSVOptions(delimiter: UInt8(ascii: ";"), byteOrderMark: true)
    let bytes = CSVWriter.encode([[.text("a;b"), .text("c,d"), .number(2.5)]], options: options)
    #expect(Array(bytes.prefix(3)) == [0xEF, 0xBB, 0xBF])
    #expect(String(decoding: bytes.dropFirst(3), as: UTF8.self) == "\"a;b\";c,d;2.5\r\n")
    let tab = CSVWriter.encode(
      [[.text("a\tb"), .text("c")]], options: CSVOptions(delimiter: 9, formulaGuard: false))
    #expect(String(decoding: tab, as: UTF8.self) == "\"a\tb\"\tc\r\n")
  }

  @Test func numbersInPlainDecimal() {
    #expect(CSVWriter.format(3) == "3")
    #expect(CSVWriter.format(2.5) == "2.5")
    #expect(CSVWriter.format(0.1) == "0.1")
    #expect(CSVWriter.format(28.349523125) == "28.349523125")
    #expect(Double(CSVWriter.format(1.0 / 3.0)) == 1.0 / 3.0)
    // Never an exponent (QA: `1e-07`), and every digit kept: read back, the same Double.
    #expect(CSVWriter.format(1e-7) == "0.0000001")
    #expect(CSVWriter.format(1.5e-10) == "0.00000000015")
    #expect(CSVWriter.format(1e20) == "100000000000000000000")
    #expect(CSVWriter.format(1.2345678901234567e-8) == "0.000000012345678901234567")
    let bytes = CSVWriter.encode([[.number(1e-7), .number(2.5e16)]])
    #expect(String(decoding: bytes, as: UTF8.self) == "0.0000001,25000000000000000\r\n")
    for value in [1e-7, 1.0 / 3.0, 1.2345678901234567e-8, 5e-324, 1e20, 123_456.789_012_345_6, 0.1 + 0.2] {
      #expect(StashRowReader.number(CSVWriter.format(value)) == value, "\(value)")
    }
  }

  @Test func streamsThroughTheSinkInPieces() throws {
    var pieces = 0
    var total = 0
    let writer = CSVWriter { bytes in
      pieces += 1
      total += bytes.count
    }
    let row: [CSVField] = [.text(String(repeating: "x", count: 98))]  // 100 bytes with CRLF
    for _ in 0..<10_000 { try writer.write(row) }
    try writer.flush()
    #expect(total == 1_000_000)
    #expect(pieces > 10)  // flushed as it went, not held until the end
  }
}
