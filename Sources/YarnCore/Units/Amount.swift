import Foundation

/// An amount of yarn: a value in a unit, such as 3 skeins, 250 g or 220 yd.
///
/// Encoded in JSON as `{"value": 3, "unit": "skein"}`; `value` is never negative, NaN or infinite
/// when the amount came through `init(parsing:)`.
public struct Amount: Codable, Hashable, Sendable, CustomStringConvertible {
  /// The number of `unit`s.
  public var value: Double
  /// The unit of `value`.
  public var unit: YarnUnit

  public init(_ value: Double, _ unit: YarnUnit) {
    self.value = value
    self.unit = unit
  }

  /// The largest value `init(parsing:)` accepts: a billion of any unit is no real stash.
  public static let maximumValue = 1_000_000_000.0

  /// Parses an amount as people write it: a number and a unit, with or without a space, in any
  /// case: `3 skeins`, `1.5 balls`, `1,5 skeins` (a decimal comma), `250g`, `8.8 oz`,
  /// `220 yds`, `200 metres`.
  ///
  /// - Throws: `AmountParseError` when the text is empty, the number is missing, negative, not
  ///   finite or above `maximumValue`, or the unit is missing or unknown; the error quotes the
  ///   input and lists the accepted units.
  public init(parsing text: String) throws(AmountParseError) {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty else { throw AmountParseError(input: text, problem: .empty) }
    let scalars = Array(trimmed.unicodeScalars)
    var index = 0
    var numberText = ""
    while index < scalars.count {
      let scalar = scalars[index]
      if ("0"..."9").contains(scalar) || scalar == "." || scalar == "," || scalar == "-"
        || scalar == "+"
      {
        numberText.unicodeScalars.append(scalar == "," ? "." : scalar)
        index += 1
      } else {
        break
      }
    }
    let unitText = String(String.UnicodeScalarView(scalars[index...]))
      .trimmingCharacters(in: .whitespaces)
    guard !numberText.isEmpty else { throw AmountParseError(input: text, problem: .missingNumber) }
    if numberText.hasPrefix("-") { throw AmountParseError(input: text, problem: .negative) }
    guard numberText.first != "+", numberText.filter({ $0 == "." }).count <= 1,
      numberText != ".", let value = Double(numberText)
    else { throw AmountParseError(input: text, problem: .badNumber) }
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

  /// `value` rounded to at most 2 decimals with trailing zeros trimmed: `2.5`, `3`, `0.33`.
  public static func format(_ value: Double) -> String {
    guard value.isFinite else { return String(value) }
    let rounded = (value * 100).rounded() / 100
    if rounded == rounded.rounded(), abs(rounded) < 1e15 {
      let whole = Int64(rounded)
      return whole == 0 ? "0" : String(whole)
    }
    var text = String(format: "%.2f", rounded)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text
  }
}

/// Thrown by `Amount(parsing:)`: what was wrong with the text, which it quotes.
public struct AmountParseError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The text as given.
  public let input: String
  /// What was wrong.
  public let problem: Problem

  public enum Problem: Equatable, Sendable {
    case empty, missingNumber, badNumber, negative, outOfRange, missingUnit
    case unknownUnit(String)
  }

  public var description: String {
    let reason: String
    switch problem {
    case .empty: reason = "an amount is empty"
    case .missingNumber: reason = "\"\(input)\" has no number"
    case .badNumber: reason = "\"\(input)\" is not a number followed by a unit"
    case .negative: reason = "\"\(input)\" is negative; an amount is zero or more"
    case .outOfRange:
      reason = "\"\(input)\" is out of range (at most \(Int(Amount.maximumValue)))"
    case .missingUnit: reason = "\"\(input)\" has no unit"
    case .unknownUnit(let word): reason = "\"\(input)\" has an unknown unit \"\(word)\""
    }
    return "\(reason); accepted units: \(YarnUnit.acceptedWords)"
  }
}
