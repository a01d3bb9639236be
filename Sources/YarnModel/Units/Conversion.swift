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

  /// Meters per skein, when known and usable.
  var metersPerSkein: Double? {
    guard let length = lengthPerSkein, length.unit.dimension == .length,
      length.value > 0, length.value.isFinite
    else { return nil }
    return UnitConversion.toBase(length.value, length.unit)
  }

  /// Grams per skein, when known and usable.
  var gramsPerSkein: Double? {
    guard let weight = netWeightPerSkein, weight.unit.dimension == .mass,
      weight.value > 0, weight.value.isFinite
    else { return nil }
    return UnitConversion.toBase(weight.value, weight.unit)
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

  /// Converts `amount` to `unit`.
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
    let from = amount.unit.dimension
    let to = unit.dimension
    let base = toBase(amount.value, amount.unit)
    if from == to { return Amount(fromBase(base, unit), unit) }

    var missing: [PutUpFact] = []
    let needsLength = from == .length || to == .length
    let needsMass = from == .mass || to == .mass
    if needsLength && putUp.metersPerSkein == nil { missing.append(.lengthPerSkein) }
    if needsMass && putUp.gramsPerSkein == nil { missing.append(.netWeightPerSkein) }
    guard missing.isEmpty else { throw ConversionError(from: amount.unit, to: unit, missing: missing) }

    // Through skeins: base value → skeins → target base.
    let skeins: Double
    switch from {
    case .count: skeins = base
    case .mass: skeins = base / (putUp.gramsPerSkein ?? 1)
    case .length: skeins = base / (putUp.metersPerSkein ?? 1)
    }
    let targetBase: Double
    switch to {
    case .count: targetBase = skeins
    case .mass: targetBase = skeins * (putUp.gramsPerSkein ?? 1)
    case .length: targetBase = skeins * (putUp.metersPerSkein ?? 1)
    }
    return Amount(fromBase(targetBase, unit), unit)
  }
}
