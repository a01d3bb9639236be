/// A unit in which an amount of yarn is measured.
///
/// The raw value is the token used in JSON, CSV and SQLite: `skein`, `g`, `oz`, `yd`, `m`,
/// `kg`, `lb`. (Kilograms and pounds came last, in schema v5: they are listed after the first
/// five so that the order of the older units stays as it was.)
public enum YarnUnit: String, Codable, CaseIterable, Hashable, Sendable {
  /// Whole or partial skeins (balls, hanks): the put-up as sold.
  case skein
  /// Grams of net weight.
  case gram = "g"
  /// Avoirdupois ounces of net weight (exactly 28.349523125 g; `UnitConversion.gramsPerOunce`).
  case ounce = "oz"
  /// International yards of length (exactly 0.9144 m; `UnitConversion.metersPerYard`).
  case yard = "yd"
  /// Meters of length.
  case meter = "m"
  /// Kilograms of net weight (exactly 1000 g; `UnitConversion.gramsPerKilogram`).
  case kilogram = "kg"
  /// Avoirdupois pounds of net weight (exactly 453.59237 g; `UnitConversion.gramsPerPound`).
  case pound = "lb"

  /// What the unit measures.
  public enum Dimension: String, Sendable {
    /// Skeins.
    case count
    /// Net weight: grams, kilograms, ounces and pounds.
    case mass
    /// Length: yards and meters.
    case length
  }

  /// Whether the unit counts skeins, weighs yarn or measures its length.
  public var dimension: Dimension {
    switch self {
    case .skein: .count
    case .gram, .ounce, .kilogram, .pound: .mass
    case .yard, .meter: .length
    }
  }

  /// The unit's name for `value` in human output: `skein`/`skeins`; the others are symbols.
  func symbol(for value: Double) -> String {
    switch self {
    case .skein: value == 1 ? "skein" : "skeins"
    default: rawValue
    }
  }

  /// Reads a unit word, case-insensitively: `skein(s)`, `sk`, `sks`, `ball(s)`, `hank(s)`;
  /// `g`, `gr`, `gram(s)`, `gramme(s)`; `oz`, `ounce(s)`; `yd`, `yds`, `yard(s)`; `m`,
  /// `meter(s)`, `metre(s)`; `kg`, `kgs`, `kilo(s)`, `kilogram(s)`, `kilogramme(s)`; `lb`,
  /// `lbs`, `pound(s)`. `nil` for anything else (spaces are not trimmed).
  public init?(parsing text: String) {
    switch text.lowercased() {
    case "skein", "skeins", "sk", "sks", "ball", "balls", "hank", "hanks": self = .skein
    case "g", "gr", "gram", "grams", "gramme", "grammes": self = .gram
    case "oz", "ounce", "ounces": self = .ounce
    case "yd", "yds", "yard", "yards": self = .yard
    case "m", "meter", "meters", "metre", "metres": self = .meter
    case "kg", "kgs", "kilo", "kilos", "kilogram", "kilograms", "kilogramme", "kilogrammes":
      self = .kilogram
    case "lb", "lbs", "pound", "pounds": self = .pound
    default: return nil
    }
  }

  /// The units people see an amount converted into beside its own (`yarn stash show`'s
  /// remaining figure): the first five; kilograms and pounds are shown only when an amount is
  /// in them, so that a figure does not grow to seven parts.
  package static let shownBeside: [YarnUnit] = [.skein, .gram, .ounce, .yard, .meter]

  /// The words `init(parsing:)` accepts, for error messages.
  package static let acceptedWords =
    "skeins (skein, sk, ball, hank), grams (g, gram), kilograms (kg, kilo), ounces (oz, ounce), pounds (lb, lbs, pound), yards (yd, yds, yard), meters (m, meter, metre)"
}
