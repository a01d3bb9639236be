/// What is known of a yarn's put-up: the length and the net weight of one skein.
///
/// Either may be unknown (`nil`). `lengthPerSkein` is in yards or meters and
/// `netWeightPerSkein` in grams, kilograms, ounces or pounds; a fact in a unit of the wrong dimension, or that is
/// not greater than zero, counts as unknown.
public struct PutUp: Hashable, Sendable {
  /// The length of one skein (`yd` or `m`).
  public var lengthPerSkein: Amount?
  /// The net weight of one skein (`g`, `kg`, `oz` or `lb`).
  public var netWeightPerSkein: Amount?

  /// The facts as known; a missing one is `nil`.
  public init(lengthPerSkein: Amount? = nil, netWeightPerSkein: Amount? = nil) {
    self.lengthPerSkein = lengthPerSkein
    self.netWeightPerSkein = netWeightPerSkein
  }

  /// The length per skein, when known and usable (a length above 0).
  var usableLength: Amount? {
    guard let length = lengthPerSkein, length.unit.dimension == .length,
      length.value > 0, length.value.isFinite
    else { return nil }
    return length
  }

  /// The net weight per skein, when known and usable (a mass above 0).
  var usableNetWeight: Amount? {
    guard let weight = netWeightPerSkein, weight.unit.dimension == .mass,
      weight.value > 0, weight.value.isFinite
    else { return nil }
    return weight
  }

  /// The usable fact that measures one skein in `dimension` (length or mass).
  func perSkein(in dimension: YarnUnit.Dimension) -> Amount? {
    switch dimension {
    case .length: usableLength
    case .mass: usableNetWeight
    case .count: Amount(1, .skein)
    }
  }
}

/// A fact of the put-up that a conversion needs. The raw value is the fact's name in words.
public enum PutUpFact: String, Codable, Hashable, Sendable, CustomStringConvertible {
  /// The length of one skein (`PutUp.lengthPerSkein`), `length per skein`.
  case lengthPerSkein = "length per skein"
  /// The net weight of one skein (`PutUp.netWeightPerSkein`), `net weight per skein`.
  case netWeightPerSkein = "net weight per skein"

  /// The raw value: `length per skein` or `net weight per skein`.
  public var description: String { rawValue }
}

/// Thrown when a conversion needs a put-up fact that is unknown.
public struct ConversionError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The unit converted from.
  public let from: YarnUnit
  /// The unit asked for.
  public let to: YarnUnit
  /// The facts that are missing, never empty: the length per skein first when both are.
  public let missing: [PutUpFact]

  /// `converting skein to g needs the net weight per skein`.
  public var description: String {
    let facts = missing.map { "the \($0)" }.joined(separator: " and ")
    return "converting \(from.rawValue) to \(to.rawValue) needs \(facts)"
  }
}

/// Conversions between the seven yarn units (docs/UNITS.md).
///
/// Mass and length convert within their dimension by exact constants (`gramsPerOunce`,
/// `gramsPerPound`, `gramsPerKilogram`, `metersPerYard`); between dimensions, and to or from skeins, the put-up decides: through
/// the number of skeins, by the grams and meters of one skein. Results are not rounded.
public enum UnitConversion {
  /// Grams in one avoirdupois ounce, exactly: 1 lb = 0.45359237 kg by the International Yard and
  /// Pound agreement of 1959 (NIST Handbook 44, Appendix C), and 1 oz = 1/16 lb.
  public static let gramsPerOunce = 28.349523125
  /// Grams in one avoirdupois pound, exactly: 1 lb = 0.45359237 kg (International Yard and
  /// Pound agreement, 1959; NIST Handbook 44, Appendix C).
  public static let gramsPerPound = 453.59237
  /// Grams in one kilogram (SI), exactly.
  public static let gramsPerKilogram = 1000.0
  /// Meters in one international yard, exactly (International Yard and Pound agreement, 1959).
  public static let metersPerYard = 0.9144

  /// The value in the dimension's base unit: skeins, grams or meters.
  static func toBase(_ value: Double, _ unit: YarnUnit) -> Double {
    switch unit {
    case .skein, .gram, .meter: value
    case .ounce: value * gramsPerOunce
    case .kilogram: value * gramsPerKilogram
    case .pound: value * gramsPerPound
    case .yard: value * metersPerYard
    }
  }

  static func fromBase(_ value: Double, _ unit: YarnUnit) -> Double {
    switch unit {
    case .skein, .gram, .meter: value
    case .ounce: value / gramsPerOunce
    case .kilogram: value / gramsPerKilogram
    case .pound: value / gramsPerPound
    case .yard: value / metersPerYard
    }
  }

  /// How many significant digits a computed figure keeps: 15, the most that any decimal
  /// keeps through a binary64 double (`DBL_DIG`, IEEE 754-2008 §5.12.2; C11 §5.2.4.2.2).
  /// Past them a figure made by arithmetic holds only its noise: 3 × 0.1 kg is
  /// 0.30000000000000004 kg in binary, 0.3 kg to 15 digits.
  public static let significantDigits = 15

  /// `value`, computed by arithmetic on amounts, as the double nearest to it rounded to
  /// `significantDigits` significant digits of the larger of `value` and half `magnitude`, so
  /// that JSON and CSV carry `0.3`, not `0.30000000000000004`. Values that are not finite,
  /// and values when that larger one is below 1e-8 or from 1e21 on, are returned as they are
  /// (the powers of ten needed are not exact there). Only computed figures go through it:
  /// what a person entered is kept as entered.
  ///
  /// A figure made by subtracting keeps 15 digits of its own, but none finer than the 15th of
  /// half the largest figure that went into it: each term is off in binary by up to 2⁻⁵³
  /// (1.1 × 10⁻¹⁶) of itself, and when nearly equal terms cancel, that noise stays where it
  /// is while the result gets smaller. The 15th digit of half the largest term is a step of
  /// at least 5 × 10⁻¹⁶ of it, so noise of two such errors rounds away. 7 yd less 6.1 m is
  /// 0.300800000000001 m to 15 digits of its own, but 0.3008 m (exactly 7 × 0.9144 − 6.1) to
  /// the 15 of half 7 yd, 3.2004 m; where little cancels, the result's own 15 digits are
  /// finer and are kept: 1 yd less 0.1 m and 0.2 m is 0.671916010498688 yd (half 1 yd is
  /// 0.5 yd).
  ///
  /// - Parameters:
  ///   - value: the computed figure.
  ///   - magnitude: for a difference, the largest figure that went into it (for the remaining
  ///     estimate, the larger of the quantity and the total used), in the unit of `value`;
  ///     0, the default, for a conversion or a sum of figures that are not negative, whose
  ///     result is the largest.
  /// - Returns: `value` rounded to `significantDigits` digits of the larger of `value` and
  ///   half `magnitude`.
  public static func rounded(_ value: Double, toPrecisionOf magnitude: Double = 0) -> Double {
    let reference = max(abs(value), abs(magnitude) / 2)
    guard value.isFinite, reference >= 1e-8, reference < 1e21 else { return value }
    // The decimal exponent of the first significant digit, -8 to 20. 10^k is exact for
    // k ≤ 22 and an integer below 10^15 is exact (|value| ≤ `reference`), so the last
    // division or product, of two exact values, is correctly rounded: the double nearest the
    // decimal. From the binary exponent (log10 2 ≈ 0.30103), then set right by comparison.
    var exponent = min(20, max(-8, Int((Double(reference.exponent) * 0.30103).rounded(.down))))
    while exponent > -8, reference < powerOfTen(exponent) { exponent -= 1 }
    while exponent < 20, reference >= powerOfTen(exponent + 1) { exponent += 1 }
    let shift = significantDigits - 1 - exponent
    if shift >= 0 {
      let scale = powerOfTen(shift)
      return (value * scale).rounded() / scale
    }
    let scale = powerOfTen(-shift)
    return (value / scale).rounded() * scale
  }

  /// 10^0 to 10^22, each exact (a product of exact powers that a double holds is exact).
  private static let powersOfTen: [Double] = (0...22).map { k in
    (0..<k).reduce(1.0) { power, _ in power * 10 }
  }

  /// 10^`k` for -22 ≤ k ≤ 22: exact from 10^0 up; the negative ones (1 / 10^-k) only for
  /// comparisons.
  private static func powerOfTen(_ k: Int) -> Double {
    k < 0 ? 1 / powersOfTen[-k] : powersOfTen[k]
  }

  /// `value` in `from` as a number of `to` of the same dimension: itself when the units are
  /// the same, else through the dimension's base unit.
  static func within(_ value: Double, from: YarnUnit, to: YarnUnit) -> Double {
    from == to ? value : fromBase(toBase(value, from), to)
  }

  /// Converts `amount` to `unit`.
  ///
  /// Across dimensions the amount goes through the number of skeins, each put-up fact taken
  /// in its own unit: 3 skeins of 170 yd are 510 yd (through meters, 510.00000000000006),
  /// 200 g of 231 yd per 50 g are 924 yd. The result is `rounded` to 15 significant digits
  /// (3 skeins of 0.1 kg are 0.3 kg).
  ///
  /// - Parameters:
  ///   - amount: the amount to convert.
  ///   - unit: the unit wanted.
  ///   - putUp: the yarn's put-up; needed only across dimensions.
  /// - Returns: the same quantity of yarn in `unit`.
  /// - Throws: `ConversionError` naming the missing facts: skeins↔mass need the net weight per
  ///   skein, skeins↔length the length per skein, mass↔length both.
  public static func convert(_ amount: Amount, to unit: YarnUnit, putUp: PutUp = PutUp())
    throws(ConversionError) -> Amount
  {
    if amount.unit == unit { return amount }
    return Amount(rounded(try unroundedValue(of: amount, in: unit, putUp: putUp)), unit)
  }

  /// The value of `amount` in `unit` that `convert` rounds: what a sum or a difference of
  /// conversions adds or subtracts before it rounds the result once (`StashMatch`,
  /// `RemainingEstimate`, `PeriodSummary`), as figures each rounded first could differ in the
  /// 15th digit. `amount.value` itself in its own unit.
  ///
  /// - Throws: `ConversionError`, as `convert`.
  package static func unroundedValue(of amount: Amount, in unit: YarnUnit, putUp: PutUp)
    throws(ConversionError) -> Double
  {
    if amount.unit == unit { return amount.value }
    let from = amount.unit.dimension
    let to = unit.dimension
    if from == to { return within(amount.value, from: amount.unit, to: unit) }

    let source = putUp.perSkein(in: from)
    let target = putUp.perSkein(in: to)
    guard let source, let target else {
      var missing: [PutUpFact] = []
      if from == .length || to == .length, putUp.usableLength == nil { missing.append(.lengthPerSkein) }
      if from == .mass || to == .mass, putUp.usableNetWeight == nil { missing.append(.netWeightPerSkein) }
      throw ConversionError(from: amount.unit, to: unit, missing: missing)
    }
    let skeins = within(amount.value, from: amount.unit, to: source.unit) / source.value
    return within(skeins * target.value, from: target.unit, to: unit)
  }
}
