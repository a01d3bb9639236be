import Testing

@testable import YarnCore

@Suite struct AmountParsingTests {
  @Test(arguments: [
    ("3 skeins", 3.0, YarnUnit.skein), ("3sk", 3, .skein), ("1.5 balls", 1.5, .skein),
    ("1,5 skeins", 1.5, .skein), ("2 hanks", 2, .skein), ("250g", 250, .gram),
    ("250 grams", 250, .gram), ("8.8 oz", 8.8, .ounce), ("8.8 Ounces", 8.8, .ounce),
    ("220 yds", 220, .yard), ("220 YARDS", 220, .yard), ("200 metres", 200, .meter),
    ("  200 m ", 200, .meter),
  ])
  func parses(text: String, value: Double, unit: YarnUnit) throws {
    let amount = try Amount(parsing: text)
    #expect(amount == Amount(value, unit))
  }

  @Test(arguments: ["", "   ", "skeins", "-3 skeins", "3 bananas", "3", "1.2.3 g", "nan g", "1e400 g"])
  func rejects(text: String) {
    #expect(throws: AmountParseError.self) { try Amount(parsing: text) }
  }

  @Test func unknownUnitErrorQuotesInputAndListsUnits() {
    do {
      _ = try Amount(parsing: "3 bananas")
      Issue.record("expected an error")
    } catch {
      #expect(error.description.contains("\"3 bananas\""))
      #expect(error.description.contains("skeins"))
      #expect(error.description.contains("yards"))
    }
  }

  @Test func humanOutputRoundsTrimsAndPluralizes() {
    #expect(Amount(1, .skein).description == "1 skein")
    #expect(Amount(2.5, .skein).description == "2.5 skeins")
    #expect(Amount(1.004, .skein).description == "1 skein")
    #expect(Amount(0.333333, .ounce).description == "0.33 oz")
    #expect(Amount(250, .gram).description == "250 g")
    #expect(Amount(2.999, .yard).description == "3 yd")
  }
}
