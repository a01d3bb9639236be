/// Reads a decimal number as people type it: the one rule for amounts, gauge counts and
/// lengths, needle and hook sizes in mm and tool lengths.
///
/// Digits with at most one decimal point or decimal comma (`2.5`, `2,5`, `.5`), no sign;
/// `exponent` also reads `1e3`. A comma followed by exactly three digits after a whole part
/// other than 0 (`1,000`, `2,500`) is a thousands separator to some readers and a decimal
/// comma to others: it is refused rather than guessed (`0,125` is a decimal comma), unless the
/// thousands reading is over the caller's `maximum`, so that only the decimal one can be meant
/// (`3,125 mm`, a needle size, is 3.125: no needle is 3125 mm). A number
/// other than 0 too small for a `Double` (`1e-400`) is refused rather than kept as 0.
package enum DecimalNumber {
  /// The value of `number`, a number without sign or unit; `input` is the text quoted in an
  /// error (the whole text typed, `1,000 g`). A number too large for a `Double` is infinite:
  /// the caller's range check refuses it. `maximum` is the largest value the caller takes:
  /// a comma whose thousands reading is over it is a decimal comma.
  ///
  /// - Throws: `DecimalNumberError` for a malformed, ambiguous or too small number.
  package static func value(
    of number: String, exponent: Bool = false, maximum: Double = .infinity, input: String
  ) throws(DecimalNumberError) -> Double {
    let scalars = Array(number.unicodeScalars)
    func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
    var index = 0
    var whole = ""
    var fraction = ""
    var separator: Unicode.Scalar?
    while index < scalars.count,
      isDigit(scalars[index]) || ((scalars[index] == "." || scalars[index] == ",") && separator == nil)
    {
      if isDigit(scalars[index]) {
        if separator == nil {
          whole.unicodeScalars.append(scalars[index])
        } else {
          fraction.unicodeScalars.append(scalars[index])
        }
      } else {
        separator = scalars[index]
      }
      index += 1
    }
    var exponentText = ""
    if exponent, index < scalars.count, scalars[index] == "e" || scalars[index] == "E" {
      index += 1
      if index < scalars.count, scalars[index] == "-" || scalars[index] == "+" {
        exponentText.unicodeScalars.append(scalars[index])
        index += 1
      }
      let start = index
      while index < scalars.count, isDigit(scalars[index]) { index += 1 }
      guard index > start else { throw DecimalNumberError(input: input, problem: .malformed) }
      exponentText += String(String.UnicodeScalarView(scalars[start..<index]))
    }
    guard index == scalars.count, !(whole.isEmpty && fraction.isEmpty) else {
      throw DecimalNumberError(input: input, problem: .malformed)
    }
    let power = exponentText.isEmpty ? "" : "e" + exponentText
    if separator == ",", fraction.count == 3, !whole.isEmpty, whole.contains(where: { $0 != "0" }),
      (Double(whole + fraction + power) ?? .infinity) <= maximum
    {
      var decimal = fraction
      while decimal.last == "0" { decimal.removeLast() }
      throw DecimalNumberError(
        input: input,
        problem: .ambiguousComma(
          thousands: whole + fraction + power, decimal: whole + (decimal.isEmpty ? "" : "." + decimal) + power
        ))
    }
    guard let value = Double((whole.isEmpty ? "0" : whole) + "." + fraction + "0" + power) else {
      throw DecimalNumberError(input: input, problem: .malformed)
    }
    if value == 0, (whole + fraction).contains(where: { $0 != "0" }) {
      throw DecimalNumberError(input: input, problem: .tooSmall)
    }
    return value
  }
}

/// Thrown by `DecimalNumber.value(of:exponent:input:)`: what was wrong with the number, in
/// the words every reader of numbers uses.
package struct DecimalNumberError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The text as given, quoted in the message.
  package let input: String
  /// What was wrong.
  package let problem: Problem

  /// The ways a number can be wrong.
  package enum Problem: Equatable, Sendable {
    /// Not digits with at most one decimal point or comma (`1.2.3`).
    case malformed
    /// A comma that may be a thousands separator or a decimal comma (`2,500`): the two
    /// readings (`2500`, `2.5`).
    case ambiguousComma(thousands: String, decimal: String)
    /// More than 0, but too small to be kept as anything but 0 (`1e-400`).
    case tooSmall
  }

  /// `"1,000 g" is ambiguous: write 1000 or 1`, `"1e-400 g" is too small: it would be kept as
  /// 0`, `"1.2.3" is not a number`.
  package var description: String {
    switch problem {
    case .malformed: return "\"\(input)\" is not a number"
    case .ambiguousComma(let thousands, let decimal):
      return "\"\(input)\" is ambiguous: write \(thousands) or \(decimal)"
    case .tooSmall: return "\"\(input)\" is too small: it would be kept as 0"
    }
  }
}
