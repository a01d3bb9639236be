import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

@Suite struct AmountParsingTests {
  @Test(arguments: [
    ("3 skeins", 3.0, YarnUnit.skein), ("3sk", 3, .skein), ("1.5 balls", 1.5, .skein),
    ("1,5 skeins", 1.5, .skein), ("2 hanks", 2, .skein), ("250g", 250, .gram),
    ("250 grams", 250, .gram), ("8.8 oz", 8.8, .ounce), ("8.8 Ounces", 8.8, .ounce),
    ("220 yds", 220, .yard), ("220 YARDS", 220, .yard), ("200 metres", 200, .meter),
    ("  200 m ", 200, .meter), ("3 skein", 3, .skein), ("250 g", 250, .gram),
    ("8.8 ounces", 8.8, .ounce), ("220 yd", 220, .yard), ("220 yards", 220, .yard),
    ("200 m", 200, .meter), ("200 meters", 200, .meter), ("3 SKEINS", 3, .skein),
    ("1 ball", 1, .skein), ("1 hank", 1, .skein), ("250 gr", 250, .gram),
  ])
  func parses(text: String, value: Double, unit: YarnUnit) throws {
    let amount = try Amount(parsing: text)
    #expect(amount == Amount(value, unit))
  }

  /// Every bad amount of docs/UNITS.md, with the problem it must be refused for.
  @Test(arguments: [
    ("", AmountParseError.Problem.empty), ("   ", .empty), ("skeins", .missingNumber),
    ("-3 skeins", .negative), ("-0 g", .negative), ("3 bananas", .unknownUnit("bananas")),
    ("3", .missingUnit), ("1.2.3 g", .badNumber), ("+3 g", .badNumber), (". g", .badNumber),
    ("nan g", .notFinite), ("NaN g", .notFinite), ("inf m", .notFinite),
    ("Infinity yd", .notFinite), ("1e400 g", .outOfRange), ("1e10 g", .outOfRange),
    ("1000000001 g", .outOfRange), ("3 g g", .unknownUnit("g g")), ("3e g", .unknownUnit("e g")),
    ("1,000 g", .ambiguousComma(thousands: "1000", decimal: "1")),
    ("2,500 yd", .ambiguousComma(thousands: "2500", decimal: "2.5")),
    // A number above 0 that a Double keeps as 0 (QA: `1e-400 g` was stored as 0 g).
    ("1e-400 g", .tooSmall), ("0." + String(repeating: "0", count: 400) + "1 g", .tooSmall),
  ])
  func rejects(text: String, problem: AmountParseError.Problem) {
    do {
      let amount = try Amount(parsing: text)
      Issue.record("\"\(text)\" parsed as \(amount)")
    } catch {
      #expect(error.problem == problem, "\"\(text)\"")
      #expect(error.input == text)
      // How it is written: the units are listed; its value: the rule's words, no units.
      // An ambiguous or too small number is in the words of `DecimalNumber`, as everywhere.
      let ofValue =
        [.negative, .notFinite, .outOfRange, .tooSmall].contains(problem)
        || problem.isAmbiguous
      #expect(error.description.hasSuffix("; accepted units: \(YarnUnit.acceptedWords)") != ofValue)
    }
  }

  /// The edges that are accepted: the largest value, zero, an exponent, and a decimal comma
  /// that cannot be a thousands separator.
  @Test(arguments: [
    ("1000000000 g", 1_000_000_000.0, YarnUnit.gram), ("0 g", 0, .gram), ("2e3 g", 2000, .gram),
    ("0,125 oz", 0.125, .ounce), ("10,5 g", 10.5, .gram), ("1,25 sk", 1.25, .skein),
    (".5 skein", 0.5, .skein),
  ])
  func acceptsEdges(text: String, value: Double, unit: YarnUnit) throws {
    #expect(try Amount(parsing: text) == Amount(value, unit))
  }

  @Test func messagesQuoteTheInput() {
    let units = "; accepted units: \(YarnUnit.acceptedWords)"
    let cases: [(String, String)] = [
      ("", "an amount is empty" + units),
      // A value the library's rule refuses, in its words (`Rules.amount`), without the units.
      ("-1 g", "\"-1 g\" is negative"),
      ("nan g", "\"nan g\" is not a finite number"),
      ("2000000000 g", "\"2000000000 g\" is over the limit of 1000000000"),
      ("2,500 yd", "\"2,500 yd\" is ambiguous: write 2500 or 2.5"),
      ("1e-400 g", "\"1e-400 g\" is too small: it would be kept as 0"),
      ("3", "\"3\" has no unit" + units),
      ("3 bananas", "\"3 bananas\" has an unknown unit \"bananas\"" + units),
    ]
    for (text, message) in cases {
      do {
        _ = try Amount(parsing: text)
        Issue.record("\"\(text)\" parsed")
      } catch {
        #expect(error.description == message)
      }
    }
  }

  /// QA: the reason quoted the text raw after `bad value '3 g\u{200B}'` (`"3 g​" has an
  /// unknown unit "g​"`): it escapes invisible and control characters as the value is.
  @Test func messagesQuoteTheInputEscaped() {
    let units = "; accepted units: \(YarnUnit.acceptedWords)"
    for (text, message) in [
      ("3 g\u{200B}", "\"3 g\\u{200B}\" has an unknown unit \"g\\u{200B}\"" + units),
      ("x\u{1B}", "\"x\\u{1B}\" has no number" + units),
      ("3\u{2060}", "\"3\\u{2060}\" has an unknown unit \"\\u{2060}\"" + units),
    ] {
      do {
        _ = try Amount(parsing: text)
        Issue.record("\"\(text)\" parsed")
      } catch {
        #expect(error.description == message)
      }
    }
  }

  /// One rule reads the numbers people type, with the same words everywhere: amounts, gauge
  /// counts and lengths, needle sizes, tool lengths (QA: `1,200mm` was read as 1.2 mm).
  @Test func oneRuleForTypedNumbers() throws {
    #expect(try DecimalNumber.value(of: "2,5", input: "x") == 2.5)
    #expect(try DecimalNumber.value(of: "0,125", input: "x") == 0.125)
    #expect(try DecimalNumber.value(of: "1,2000", input: "x") == 1.2)
    #expect(try DecimalNumber.value(of: ".5", input: "x") == 0.5)
    #expect(try DecimalNumber.value(of: "2e3", exponent: true, input: "x") == 2000)
    #expect(throws: DecimalNumberError(input: "x", problem: .malformed)) {
      try DecimalNumber.value(of: "2e3", input: "x")
    }
    #expect(
      throws: DecimalNumberError(
        input: "1,200mm", problem: .ambiguousComma(thousands: "1200", decimal: "1.2"))
    ) {
      try DecimalNumber.value(of: "1,200", input: "1,200mm")
    }
    #expect(
      DecimalNumberError(input: "1,200mm", problem: .ambiguousComma(thousands: "1200", decimal: "1.2"))
        .description == "\"1,200mm\" is ambiguous: write 1200 or 1.2")
    #expect(throws: DecimalNumberError(input: "y", problem: .tooSmall)) {
      try DecimalNumber.value(of: "1e-400", exponent: true, input: "y")
    }
    #expect(try DecimalNumber.value(of: "0e-400", exponent: true, input: "y") == 0)
    // The same words from each reader.
    let amount = #""1,000 g" is ambiguous: write 1000 or 1"#
    #expect(
      throws: AmountParseError(input: "1,000 g", problem: .ambiguousComma(thousands: "1000", decimal: "1"))
    ) {
      try Amount(parsing: "1,000 g")
    }
    #expect(
      AmountParseError(input: "1,000 g", problem: .ambiguousComma(thousands: "1000", decimal: "1"))
        .description
        == amount)
    // The same rule reads a needle size; 1000 mm is over the largest size, so only 1 mm
    // can be meant.
    #expect(try NeedleSize(parsing: "1,000mm").millimetres == 1)
  }

  /// The forms the rule reads, each to its value by hand, and those it refuses: a point or a
  /// comma before or after the digits, an exponent with or without a sign (either case of
  /// `e`), a character outside ASCII (Arabic-Indic digits), a second separator, an exponent
  /// without digits or with a sign after them.
  @Test func decimalNumberForms() throws {
    let read: [(String, Double)] = [
      ("5.", 5), (".25", 0.25), ("007", 7), ("1E3", 1000), ("1e+3", 1000), ("2.5e-1", 0.25),
      ("1,5e2", 150), (",5", 0.5), ("0,000", 0), ("0.000e5", 0),
      ("12345678901234567890", 12345678901234567890),
    ]
    for (text, value) in read {
      #expect(try DecimalNumber.value(of: text, exponent: true, input: text) == value, "\(text)")
    }
    for text in [
      "", ".", ",", "e5", "1e", "1e+", "1e5-", "1.2.3", "1,2.3", "1e5.3", "\u{661}\u{662}", "5 ", "-5", "1e5",
    ] {
      let exponent = text != "1e5"
      #expect(throws: DecimalNumberError(input: text, problem: .malformed), "\(text)") {
        try DecimalNumber.value(of: text, exponent: exponent, input: text)
      }
    }
    // The exponent goes with both readings of an ambiguous comma, written with a small `e`.
    #expect(
      throws: DecimalNumberError(input: "x", problem: .ambiguousComma(thousands: "2500e1", decimal: "2.5e1"))
    ) {
      try DecimalNumber.value(of: "2,500E1", exponent: true, input: "x")
    }
    #expect(throws: DecimalNumberError(input: "x", problem: .tooSmall)) {
      try DecimalNumber.value(of: "0,5e-400", exponent: true, input: "x")
    }
  }

  /// Numbers in messages and CSV files are plain digits with full precision, never an
  /// exponent (QA: `1e+20 g is over the limit`, `1e-07`).
  @Test func numbersForPeopleArePlainDigits() {
    #expect(Rules.number(3) == "3")
    #expect(Rules.number(-5) == "-5")
    #expect(Rules.number(2.5) == "2.5")
    #expect(Rules.number(1e20) == "100000000000000000000")
    #expect(Rules.number(1e15) == "1000000000000000")
    #expect(Rules.number(1234567890123456.5) == "1234567890123456.5")
    #expect(Rules.number(1e-7) == "0.0000001")
    #expect(Rules.number(-2.5e-7) == "-0.00000025")
    #expect(Rules.number(1e-10) == "0.0000000001")
    #expect(Rules.number(1.0 / 3.0) == "0.3333333333333333")
    #expect(
      Rules.amount(Amount(1e20, .gram), field: "quantity")?.reason
        == "100000000000000000000 g is over the limit of 1000000000")
    #expect(
      Rules.needleSize(1e-10)?.reason == "0.0000000001 mm is under the smallest needle or hook size, 0.5 mm")
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
    // An amount above 0 too small for two decimals shows its first two significant digits,
    // in plain digits (QA: a put-up of 0.0000001 m showed as 0 m).
    #expect(Amount(0.004, .gram).description == "0.004 g")
    #expect(Amount(0.0000001, .meter).description == "0.0000001 m")
    #expect(Amount(1e-10, .gram).description == "0.0000000001 g")
    #expect(Amount(0.0012345, .ounce).description == "0.0012 oz")
    #expect(Amount(0.00999, .skein).description == "0.01 skeins")
    #expect(Amount(-0.003, .gram).description == "-0.003 g")
    // Large numbers in digits, never an exponent (QA: `≈ 1e+21 g ≈ 35273961949580410880 oz`):
    // 10^21 g is 10^21 / 28.349523125 oz, 35273961949580412000 to 17 digits; the Double
    // nearest is 35273961949580410880.
    #expect(Amount(1e21, .gram).description == "1000000000000000000000 g")
    #expect(Amount(1e21 / 28.349523125, .ounce).description == "35273961949580410880 oz")
    #expect(Amount.format(1e30) == "1000000000000000019884624838656")
    #expect(Amount.format(-1e17) == "-100000000000000000")
    #expect(Amount(0, .skein).description == "0 skeins")
    #expect(Amount(0.995, .skein).description == "1 skein")
    #expect(Amount(1_000_000_000, .meter).description == "1000000000 m")
    #expect(Amount(301.752, .meter).description == "301.75 m")
    // A half rounds away from zero as typed (QA: 1.005 g showed as 1 g, 2.675 g as 2.68 g:
    // their binary values are 1.00499999999999989… and 2.67499999999999982…).
    #expect(Amount(1.005, .gram).description == "1.01 g")
    #expect(Amount(2.675, .gram).description == "2.68 g")
    #expect(Amount(-1.005, .gram).description == "-1.01 g")
    #expect(Amount(0.125, .ounce).description == "0.13 oz")
    #expect(Amount(1.0049, .gram).description == "1 g")
    #expect(Amount(0.005, .gram).description == "0.01 g")
    #expect(Amount(99.995, .yard).description == "100 yd")
    // The noise of arithmetic does not decide a half (QA): 5 − 0.685 is 4.3149999999999995,
    // 2 − 0.515 is 1.4849999999999999, by hand 4.315 and 1.485.
    #expect(Amount(5 - 0.685, .gram).description == "4.32 g")
    #expect(Amount(2 - 0.515, .skein).description == "1.49 skeins")
    #expect(Amount(-(2.675 - 2), .gram).description == "-0.68 g")
    #expect(Amount(999_999_999.995, .gram).description == "1000000000 g")
    #expect(Amount(0.1 + 0.2, .gram).description == "0.3 g")
    #expect(Amount(12.344999, .meter).description == "12.34 m")
  }
}

extension AmountParseError.Problem {
  fileprivate var isAmbiguous: Bool {
    if case .ambiguousComma = self { return true }
    return false
  }
}
