/// A price paid: an exact amount of money in one currency.
///
/// The amount is kept in the currency's minor units (cents for USD and EUR, yen for JPY),
/// an integer, so that `29.99 EUR` is stored and printed as exactly that (no binary fraction).
/// The currency is an ISO 4217 alphabetic code, three upper-case ASCII letters (`USD`).
///
/// In JSON a price is `{"amount": "29.99", "currency": "EUR"}`: the amount a decimal string
/// with the currency's number of decimals (`Price.decimals(of:)`).
public struct Price: Hashable, Sendable, CustomStringConvertible {
  /// The amount in minor units of `currency`: 2999 for 29.99 EUR, 500 for 500 JPY.
  public var minorUnits: Int64
  /// The ISO 4217 code, such as `USD`.
  public var currency: String

  /// A price of `minorUnits` of `currency` (not checked: see `Rules.price(_:)`).
  public init(minorUnits: Int64, currency: String) {
    self.minorUnits = minorUnits
    self.currency = currency
  }

  /// The number of decimals (ISO 4217's "minor unit") of `currency`: 0 for the currencies
  /// without a minor unit in use (JPY, KRW, ISK, CLP, VND, …), 3 for BHD, IQD, JOD, KWD, LYD,
  /// OMR, TND, 4 for CLF and UYW, 2 for every other code (ISO 4217 List One, the SIX table).
  public static func decimals(of currency: String) -> Int {
    switch currency {
    case "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI",
      "VND", "VUV", "XAF", "XOF", "XPF":
      0
    case "BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND": 3
    case "CLF", "UYW": 4
    default: 2
    }
  }

  /// The amount as a decimal with the currency's decimals: `29.99`, `29.00`, `500`.
  public var amountText: String {
    let places = Price.decimals(of: currency)
    let sign = minorUnits < 0 ? "-" : ""
    let digits = String(minorUnits.magnitude)
    guard places > 0 else { return sign + digits }
    let padded = String(repeating: "0", count: max(0, places + 1 - digits.count)) + digits
    return sign + padded.dropLast(places) + "." + padded.suffix(places)
  }

  /// `29.99 EUR`: the amount with the currency's decimals, a space, the code.
  public var description: String { "\(amountText) \(currency)" }

  /// Why a price cannot be read, in the words messages use (lower case).
  public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Why, such as `"USDX" is not a currency code (three letters, ISO 4217, such as USD)`.
    public var reason: String
    /// The error for `reason`.
    public init(_ reason: String) { self.reason = reason }
    /// `reason`.
    public var description: String { reason }
  }

  /// Reads `29.00 USD` (also `USD 29.00`, `29 usd`, `29,99 EUR`, and the code written against
  /// the amount, `29EUR` or `EUR29`, as an amount's unit may be: `250g`; the code is
  /// upper-cased) into an exact price. The amount is read by the rule of every number people type
  /// (`DecimalNumber`): a decimal point or comma, and a comma before exactly three digits
  /// (`1,000 JPY`) refused as ambiguous, naming only the readings the currency takes.
  ///
  /// - Throws: `ParseError` when there is no amount or no code, the code is not three
  ///   letters, the amount is not a plain decimal (`1,000.00`, `1e3`), is ambiguous
  ///   (`1,000`), is negative, has more decimals than the currency has, zeros after them
  ///   aside (`29.999 USD`, `5.5 JPY`; `29.990 USD` is 29.99 USD) or is over
  ///   `Rules.maximumPrice`.
  public init(parsing text: String) throws(ParseError) {
    var words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    // One word of letters and then the rest, or the rest and then letters (`29EUR`, `EUR29`):
    // the code written against the amount, split where they meet.
    let isLetter: (Character) -> Bool = { $0.isASCII && $0.isLetter }
    if words.count == 1, let first = words[0].first,
      let cut = words[0].firstIndex(where: { isLetter($0) != isLetter(first) }),
      words[0][cut...].allSatisfy({ isLetter($0) != isLetter(first) })
    {
      words = [String(words[0][..<cut]), String(words[0][cut...])]
    }
    guard words.count == 2 else {
      throw ParseError("expected an amount and a currency code, such as \"29.00 USD\"")
    }
    // The code is the word of three letters, the second one when both are (`nan USD`); when
    // neither is, the one that does not begin as an amount does (a digit, `.`, `-` or `+`:
    // `EURO 5` names "EURO", as `5 EURO` does), else the second.
    let letters: (String) -> Bool = { word in
      word.count == 3
        && word.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("a"..."z").contains($0) }
    }
    let amountLike: (String) -> Bool = { word in
      word.unicodeScalars.first.map { ("0"..."9").contains($0) || ".-+".unicodeScalars.contains($0) } ?? false
    }
    let codeFirst =
      letters(words[1]) ? false : letters(words[0]) || (amountLike(words[1]) && !amountLike(words[0]))
    let (amount, code) = codeFirst ? (words[1], words[0]) : (words[0], words[1])
    guard letters(code) else {
      throw ParseError(
        "\(LineText.quoted(code)) is not a currency code (three letters of ISO 4217, such as USD or EUR)")
    }
    let currency = code.uppercased()
    // A decimal comma's ambiguity (`1,000`) in the words of every typed number, suggesting
    // only the readings the currency takes: the thousands one always fits (a whole number
    // within the limit), the decimal one when `init(amount:currency:)` takes it, not when it
    // has more decimals than the currency (`3,505 EUR` cannot be 3.505 EUR; `2,500 EUR` may
    // be 2.5 EUR). Still refused: which was meant is not guessed.
    if amount.contains(","), !amount.hasPrefix("-") {
      do {
        _ = try DecimalNumber.value(of: amount, maximum: Double(Rules.maximumPrice), input: text)
      } catch {
        if case .ambiguousComma(let thousands, let decimal) = error.problem {
          let places = Price.decimals(of: currency)
          if (try? Price(amount: decimal, currency: currency)) == nil {
            throw ParseError(
              "\(LineText.quoted(text)) is ambiguous: write \(thousands) (\(decimal) cannot be meant: \(currency) has "
                + (places == 0 ? "no decimals" : "at most \(places) decimals") + ")")
          }
          throw ParseError(error.description)
        }
      }
    }
    self = try Price(amount: amount, currency: currency)
  }

  /// The price of `amount` (a plain decimal such as `29.99`, or `29,99` with a decimal comma)
  /// in `currency` (checked to be three upper-case letters). Zeros past the currency's
  /// decimals are no more decimals: `29.990` USD is 29.99 USD, `5.0` JPY 5 JPY.
  ///
  /// - Throws: `ParseError` as `init(parsing:)`.
  public init(amount: String, currency: String) throws(ParseError) {
    guard currency.count == 3, currency.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) }) else {
      throw ParseError(
        "\(LineText.quoted(currency)) is not a currency code (three upper-case letters of ISO 4217, such as USD)"
      )
    }
    if amount.hasPrefix("-") { throw ParseError("\(LineText.visible(amount)) \(currency) is negative") }
    let parts = amount.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "." || $0 == "," })
    let ascii: (Substring) -> Bool = { $0.unicodeScalars.allSatisfy { ("0"..."9").contains($0) } }
    guard parts.count <= 2, !parts[0].isEmpty || parts.count == 2, parts.allSatisfy(ascii),
      parts.count == 1 || !parts[1].isEmpty
    else {
      // Groups of three digits (`1,000,000`; `1.234,50`, `1,000.00` with a last, other mark
      // the decimal one): said so, with the amount written without the separators.
      let marks = Array(amount.filter { $0 == "." || $0 == "," })
      let decimal = marks.count > 1 && marks.last != marks.first
      let groups = decimal ? Array(parts.dropLast()) : parts
      if parts.count > 2, parts.allSatisfy({ !$0.isEmpty && ascii($0) }),
        Set(marks.dropLast(decimal ? 1 : 0)).count == 1, (1...3).contains(groups[0].count),
        groups.dropFirst().allSatisfy({ $0.count == 3 })
      {
        let plain = groups.joined() + (decimal ? "." + parts[parts.count - 1] : "")
        throw ParseError("\(LineText.quoted(amount)) has a thousands separator: write \(plain)")
      }
      throw ParseError(
        "\(LineText.quoted(amount)) is not an amount (digits with a decimal point or comma, such as 29.99)")
    }
    let places = Price.decimals(of: currency)
    // Zeros after the currency's decimals add nothing (`29.990 USD` is 29.99 USD, `5.0 JPY`
    // 5 JPY): only other digits are more decimals than it has.
    var fraction = parts.count == 2 ? parts[1] : ""
    let typed = fraction.count
    while fraction.count > places, fraction.last == "0" { fraction.removeLast() }
    guard fraction.count <= places else {
      throw ParseError(
        "\(amount) \(currency) has \(Plural.count(typed, "decimal")); \(currency) has "
          + (places == 0 ? "none" : "at most \(places)"))
    }
    let whole = parts[0].drop { $0 == "0" }
    let over = "\(amount) \(currency) is over the limit of \(Rules.maximumPrice) \(currency)"
    guard whole.count <= 12, let units = Int64(whole.isEmpty ? "0" : String(whole)) else {
      throw ParseError(over)
    }
    var minor = units
    for _ in 0..<places { minor *= 10 }
    let padded = fraction + String(repeating: "0", count: places - fraction.count)
    minor += Int64(padded.isEmpty ? "0" : padded) ?? 0
    self.init(minorUnits: minor, currency: currency)
    // The rule of prices (`Rules.price`), so that a price read is one the store takes.
    if Rules.price(self) != nil { throw ParseError(over) }
  }
}

extension Price: Codable {
  private enum Key: String, CodingKey { case amount, currency }

  /// Reads `{"amount": "29.99", "currency": "EUR"}`.
  ///
  /// - Throws: `DecodingError.dataCorrupted` when the amount or the code cannot be read
  ///   (`init(amount:currency:)`'s reasons).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Key.self)
    let amount = try container.decode(String.self, forKey: .amount)
    let currency = try container.decode(String.self, forKey: .currency)
    do {
      self = try Price(amount: amount, currency: currency)
    } catch {
      throw DecodingError.dataCorruptedError(
        forKey: .amount, in: container, debugDescription: error.reason)
    }
  }

  /// Writes `{"amount": "29.99", "currency": "EUR"}`.
  ///
  /// - Throws: what the encoder's container throws (nothing for JSON).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(amountText, forKey: .amount)
    try container.encode(currency, forKey: .currency)
  }
}
