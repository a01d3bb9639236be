#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// An amount of yarn: a value in a unit, such as 3 skeins, 250 g or 220 yd.
///
/// Encoded in JSON as `{"value": 3, "unit": "skein"}`; `value` is never negative, NaN or infinite
/// when the amount came through `init(parsing:)`.
public struct Amount: Codable, Hashable, Sendable, CustomStringConvertible {
  /// The number of `unit`s.
  public var value: Double
  /// The unit of `value`.
  public var unit: YarnUnit

  /// `value` of `unit`, taken as given (the store refuses a value that breaks
  /// `Rules.amount(_:field:dimension:)` — NaN, infinite, negative, above
  /// `Rules.maximumAmount` — with `StoreError.brokenRule`; use `init(parsing:)` for what
  /// people type).
  public init(_ value: Double, _ unit: YarnUnit) {
    self.value = value
    self.unit = unit
  }

  /// The largest value `init(parsing:)` accepts, 1,000,000,000 of any unit: a billion of
  /// anything is no real stash.
  public static let maximumValue = 1_000_000_000.0

  /// Parses an amount as people write it: a number and a unit, with or without a space, in any
  /// case: `3 skeins`, `1.5 balls`, `1,5 skeins` (a decimal comma), `250g`, `8.8 oz`,
  /// `220 yds`, `200 metres`. An exponent is read (`1e3 g`) so that a huge number is reported
  /// as out of range.
  ///
  /// - Throws: `AmountParseError` when the text is empty, the number is missing, malformed,
  ///   negative, NaN or infinite, above `maximumValue`, more than 0 but too small to be kept
  ///   as anything but 0 (`1e-400 g`), or has a comma followed by exactly three digits
  ///   (`1,000 g`: a thousands separator or a decimal comma?), as `DecimalNumber` reads
  ///   numbers, or the unit is missing or unknown; the error quotes the input and lists the
  ///   accepted units.
  public init(parsing text: String) throws(AmountParseError) {
    let trimmed = text.trimmingSpaces()
    guard !trimmed.isEmpty else { throw AmountParseError(input: text, problem: .empty) }
    let scalars = Array(trimmed.unicodeScalars)
    var index = 0
    var numberText = ""
    func isDigit(_ offset: Int) -> Bool {
      offset < scalars.count && ("0"..."9").contains(scalars[offset])
    }
    while index < scalars.count {
      let scalar = scalars[index]
      if ("0"..."9").contains(scalar) || scalar == "." || scalar == "," || scalar == "-"
        || scalar == "+"
      {
        numberText.unicodeScalars.append(scalar)
        index += 1
      } else if (scalar == "e" || scalar == "E"), !numberText.isEmpty,
        isDigit(index + 1)
          || ((scalars.indices.contains(index + 1)
            && (scalars[index + 1] == "-" || scalars[index + 1] == "+")) && isDigit(index + 2))
      {
        // An exponent (`1e3`): read so that `1e400 g` is out of range, not an unknown unit.
        numberText.unicodeScalars.append("e")
        numberText.unicodeScalars.append(scalars[index + 1])
        index += 2
      } else {
        break
      }
    }
    let unitText = String(String.UnicodeScalarView(scalars[index...]))
      .trimmingSpaces()
    guard !numberText.isEmpty else {
      let word = unitText.lowercased()
      if ["nan", "inf", "infinity", "∞"].contains(where: { word.hasPrefix($0) }) {
        throw AmountParseError(input: text, problem: .notFinite)
      }
      throw AmountParseError(input: text, problem: .missingNumber)
    }
    if numberText.hasPrefix("-") { throw AmountParseError(input: text, problem: .negative) }
    let value: Double
    do {
      value = try DecimalNumber.value(of: numberText, exponent: true, input: text)
    } catch {
      switch error.problem {
      case .malformed: throw AmountParseError(input: text, problem: .badNumber)
      case .ambiguousComma(let thousands, let decimal):
        throw AmountParseError(input: text, problem: .ambiguousComma(thousands: thousands, decimal: decimal))
      case .tooSmall: throw AmountParseError(input: text, problem: .tooSmall)
      }
    }
    guard value.isFinite, value <= Amount.maximumValue else {
      throw AmountParseError(input: text, problem: .outOfRange)
    }
    guard !unitText.isEmpty else { throw AmountParseError(input: text, problem: .missingUnit) }
    guard let unit = YarnUnit(parsing: unitText) else {
      throw AmountParseError(input: text, problem: .unknownUnit(unitText))
    }
    self.init(value, unit)
  }

  /// The amount for people: at most 2 decimals, no trailing zeros, and `skein` or `skeins`
  /// by the shown value: `1 skein`, `2.5 skeins`, `250 g`, `0.33 oz`.
  public var description: String {
    let shown = Amount.format(value)
    let shownValue = Double(shown) ?? value
    return "\(shown) \(unit.symbol(for: shownValue))"
  }

  /// The amount with every digit of its value (`Rules.number`, which reads back as the same
  /// value) and `skein` or `skeins`: `8.8185 oz`, `1 skein`, `266.66666666666663 g`. What a
  /// person gave, shown as given (`stash match`'s need), where `description` would round it.
  package var exactDescription: String {
    "\(Rules.number(value)) \(unit.symbol(for: value))"
  }

  /// `value` in plain digits, never with an exponent: rounded to at most 2 decimals with
  /// trailing zeros trimmed (`2.5`, `3`, `0.33`, `35273961949580410880`); a value other than
  /// 0 that would round to 0 with its first two significant digits (`0.0012`,
  /// `0.0000001`), so that it is not shown as 0.
  ///
  /// A half is rounded away from zero on the shortest decimal that reads back as `value`
  /// (what was typed), to 12 significant digits (past the noise of arithmetic): `1.005` and
  /// `2.675` show as `1.01` and `2.68` alike, where rounding the binary values (1.00499999…
  /// and 2.67499999…) times 100 gave `1` and `2.68`; 5 g less 0.685 g shows as `4.32`.
  package static func format(_ value: Double) -> String {
    guard value.isFinite else { return String(value) }
    // Only a value near a half of a hundredth needs its decimal form (a table of 100,000
    // yarns formats 200,000 amounts): elsewhere rounding the binary value gives the same.
    let hundredths = value * 100
    let nearHalf = abs(abs(hundredths - hundredths.rounded(.towardZero)) - 0.5) < 1e-6
    let scaled = (nearHalf ? decimalHundredths(value) : nil) ?? hundredths.rounded()
    guard abs(scaled) < 9e18, let cents = Int64(exactly: scaled) else {
      // Past 9 × 10^16 every Double is a whole number: all its digits.
      return wholeDigits(value)
    }
    if cents == 0 { return value == 0 ? "0" : smallDigits(value) }
    let magnitude = cents.magnitude
    var text = (cents < 0 ? "-" : "") + String(magnitude / 100)
    let fraction = magnitude % 100
    if fraction != 0 {
      text += fraction < 10 ? ".0\(fraction)" : fraction % 10 == 0 ? ".\(fraction / 10)" : ".\(fraction)"
    }
    return text
  }

  /// `value` × 100 rounded half away from zero on its shortest decimal form (Swift's
  /// `description`, which reads back as the same `Double`), first taken to 12 significant
  /// digits, which the noise of a conversion or a subtraction does not reach (5 − 0.685 is
  /// 4.3149999999999995, shown as 4.32); `nil` when that form has an exponent (under 0.0001 or
  /// from 2^53 up) or more whole digits than 15.
  private static func decimalHundredths(_ value: Double) -> Double? {
    let text = value.magnitude.description
    guard !text.contains("e") else { return nil }
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count <= 2, parts[0].count <= 15 else { return nil }
    var whole = parts[0].count
    var digits = Array((parts[0] + (parts.count == 2 ? parts[1] : "")).utf8).map {
      Int64($0) - Int64(UInt8(ascii: "0"))
    }
    /// Keeps the first `count` digits, the next one rounding them half up; a carry out of the
    /// first digit adds a whole digit.
    func round(keeping count: Int) {
      guard count >= 0, digits.count > count else { return }
      let up = digits[count] >= 5
      digits.removeLast(digits.count - count)
      guard up else { return }
      var index = count - 1
      while index >= 0 {
        if digits[index] < 9 {
          digits[index] += 1
          return
        }
        digits[index] = 0
        index -= 1
      }
      digits.insert(1, at: 0)
      whole += 1
    }
    if let first = digits.firstIndex(where: { $0 != 0 }) { round(keeping: first + 12) }
    round(keeping: whole + 2)
    while digits.count < whole + 2 { digits.append(0) }
    let hundredths = digits.reduce(Int64(0)) { $0 * 10 + $1 }
    return Double(value < 0 ? -hundredths : hundredths)
  }

  /// The exact decimal digits of `value`, a finite whole number (`1000000000000000000000`
  /// for 1e21), with its sign.
  private static func wholeDigits(_ value: Double) -> String {
    // value = significand × 2^exponent, the significand a whole number below 2^53: its digits
    // (least significant first), doubled `exponent` times.
    let magnitude = abs(value)
    let exponent = Int(magnitude.exponent) - Double.significandBitCount
    var digits: [UInt8] = []
    var significand = UInt64(magnitude.significandBitPattern) | (1 << UInt64(Double.significandBitCount))
    while significand > 0 {
      digits.append(UInt8(significand % 10))
      significand /= 10
    }
    for _ in 0..<max(0, exponent) {
      var carry: UInt8 = 0
      for index in digits.indices {
        let doubled = digits[index] * 2 + carry
        digits[index] = doubled % 10
        carry = doubled / 10
      }
      if carry > 0 { digits.append(carry) }
    }
    return (value < 0 ? "-" : "") + String(digits.reversed().map { Character(String($0)) })
  }

  /// A value other than 0 whose size is under 0.005, to its first two significant digits in
  /// plain digits: `0.0012`, `0.0000001`, `-0.003`.
  private static func smallDigits(_ value: Double) -> String {
    // The shortest round-trip digits of the value kept to two significant figures
    // (`1.2e-07`), written out without the exponent.
    let magnitude = abs(value)
    var leadingZeros = 0
    var scaled = magnitude
    while scaled < 0.1 {
      scaled *= 10
      leadingZeros += 1
    }
    // `scaled` is in [0.1, 1): two significant digits are its first two decimals.
    var twoDigits = Int((scaled * 100).rounded())
    if twoDigits == 100 {
      // 0.0999… rounds up to 0.1: one zero fewer.
      twoDigits = 10
      leadingZeros -= 1
    }
    var shown = String(twoDigits)
    if shown.hasSuffix("0") { shown.removeLast() }
    return (value < 0 ? "-" : "") + "0." + String(repeating: "0", count: leadingZeros) + shown
  }
}

extension Amount {
  private enum CodingKeys: String, CodingKey { case value, unit }

  /// Encodes `{"value": number, "unit": "token"}`; the unit as its raw value, which is what
  /// `YarnUnit`'s own encoding writes, given to the container as a `String` (JSONEncoder
  /// makes a nested encoder for each other `Encodable` value).
  ///
  /// - Throws: `EncodingError` for a value that is not finite.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try write(to: &container)
  }

  /// Encodes the amount as the member `key` of `container`, in the shape of `encode(to:)`, in
  /// a nested container: JSONEncoder makes a nested encoder for an `Encodable` value given to
  /// `encode(_:forKey:)`, and none for a nested container.
  ///
  /// - Throws: `EncodingError` for a value that is not finite.
  package func encode<Key: CodingKey>(
    to container: inout KeyedEncodingContainer<Key>, forKey key: Key
  ) throws {
    var nested = container.nestedContainer(keyedBy: CodingKeys.self, forKey: key)
    try write(to: &nested)
  }

  private func write(to container: inout KeyedEncodingContainer<CodingKeys>) throws {
    try container.encode(value, forKey: .value)
    try container.encode(unit.rawValue, forKey: .unit)
  }
}

/// Thrown by `Amount(parsing:)`: what was wrong with the text, which it quotes.
public struct AmountParseError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The text as given.
  public let input: String
  /// What was wrong.
  public let problem: Problem

  /// The ways the text of an amount can be wrong.
  public enum Problem: Equatable, Sendable {
    /// Nothing but spaces.
    case empty
    /// No number before the unit (`skeins`).
    case missingNumber
    /// A malformed number (`1.2.3 g`, `+3 g`).
    case badNumber
    /// Below zero (`-1 g`).
    case negative
    /// NaN or infinity (`nan g`, `inf m`).
    case notFinite
    /// Above `Amount.maximumValue` (`2000000000 g`, `1e400 g`).
    case outOfRange
    /// A comma that may be a thousands separator or a decimal comma (`2,500 yd`): the two
    /// readings (`2500`, `2.5`).
    case ambiguousComma(thousands: String, decimal: String)
    /// More than 0 but too small to be kept as anything but 0 (`1e-400 g`).
    case tooSmall
    /// A number without a unit (`3`).
    case missingUnit
    /// A unit word that is not known (`3 bananas`).
    case unknownUnit(String)
  }

  /// The message for people, quoting the input; a problem of how it is written ends with
  /// the accepted units (`"3 bananas" has an unknown unit "bananas"; accepted units: skeins
  /// (skein, sk, …), …`), one of its value is in the words of the library's rule
  /// (`Rules.amount`: `"-5 g" is negative`, `"2000000000 g" is over the limit of 1000000000`).
  public var description: String {
    let reason: String
    let quoted = LineText.quoted(input)
    switch problem {
    case .empty: reason = "an amount is empty"
    case .missingNumber: reason = "\(quoted) has no number"
    case .badNumber: reason = "\(quoted) is not a number followed by a unit"
    case .negative: return "\(quoted) is negative"
    case .notFinite: return "\(quoted) is not a finite number"
    case .ambiguousComma(let thousands, let decimal):
      return DecimalNumberError(
        input: input, problem: .ambiguousComma(thousands: thousands, decimal: decimal)
      )
      .description
    case .tooSmall: return DecimalNumberError(input: input, problem: .tooSmall).description
    case .outOfRange:
      return "\(quoted) is over the limit of \(Int(Amount.maximumValue))"
    case .missingUnit: reason = "\(quoted) has no unit"
    case .unknownUnit(let word): reason = "\(quoted) has an unknown unit \(LineText.quoted(word))"
    }
    return "\(reason); accepted units: \(YarnUnit.acceptedWords)"
  }
}
