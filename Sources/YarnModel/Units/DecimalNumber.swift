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
    // One pass over the UTF-8 bytes, counting: every character the rule takes is ASCII, and
    // a byte of any other character is none of them. (Scalar by scalar into strings, as it
    // was, this was 6% of a stash import's instructions.)
    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    var wholeDigits = 0
    var fractionDigits = 0
    var separator: UInt8?
    var wholeIsZero = true
    var fractionIsZero = true
    var exponentDigits: Int?  // from the `e` on
    var signAllowed = false
    for byte in number.utf8 {
      if let digits = exponentDigits {
        if isDigit(byte) {
          exponentDigits = digits + 1
          signAllowed = false
        } else if signAllowed, byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") {
          signAllowed = false
        } else {
          throw DecimalNumberError(input: input, problem: .malformed)
        }
      } else if isDigit(byte) {
        if separator == nil {
          wholeDigits += 1
          wholeIsZero = wholeIsZero && byte == UInt8(ascii: "0")
        } else {
          fractionDigits += 1
          fractionIsZero = fractionIsZero && byte == UInt8(ascii: "0")
        }
      } else if separator == nil, byte == UInt8(ascii: ".") || byte == UInt8(ascii: ",") {
        separator = byte
      } else if exponent, byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
        exponentDigits = 0
        signAllowed = true
      } else {
        throw DecimalNumberError(input: input, problem: .malformed)
      }
    }
    guard exponentDigits != 0, wholeDigits + fractionDigits > 0 else {
      throw DecimalNumberError(input: input, problem: .malformed)
    }
    // Digits, a point or none, digits and an exponent are what `Double` reads, to the same
    // value as `0.50` for `.5` or `5.0` for `5.`; a decimal comma becomes a point.
    var value = separator == UInt8(ascii: ",") ? nil : Double(number)
    if separator == UInt8(ascii: ",") {
      let bytes = Array(number.utf8)
      let whole = bytes[0..<wholeDigits]
      let fraction = bytes[(wholeDigits + 1)..<(wholeDigits + 1 + fractionDigits)]
      // `e`, its sign and digits.
      let power: ArraySlice<UInt8> =
        exponentDigits == nil ? [] : [UInt8(ascii: "e")] + bytes[(wholeDigits + fractionDigits + 2)...]
      func text(_ parts: ArraySlice<UInt8>...) -> String { String(decoding: parts.joined(), as: UTF8.self) }
      if fractionDigits == 3, !wholeIsZero, (Double(text(whole, fraction, power)) ?? .infinity) <= maximum {
        var decimal = fraction
        while decimal.last == UInt8(ascii: "0") { decimal.removeLast() }
        throw DecimalNumberError(
          input: input,
          problem: .ambiguousComma(
            thousands: text(whole, fraction, power),
            decimal: text(whole, decimal.isEmpty ? [] : [UInt8(ascii: ".")] + decimal, power)))
      }
      value = Double(text(whole, [UInt8(ascii: ".")], fraction, power))
    }
    guard let value else { throw DecimalNumberError(input: input, problem: .malformed) }
    if value == 0, !(wholeIsZero && fractionIsZero) {
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
    case .malformed: return "\(LineText.quoted(input)) is not a number"
    case .ambiguousComma(let thousands, let decimal):
      return "\(LineText.quoted(input)) is ambiguous: write \(thousands) or \(decimal)"
    case .tooSmall: return "\(LineText.quoted(input)) is too small: it would be kept as 0"
    }
  }
}
