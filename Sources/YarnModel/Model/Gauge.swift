/// The unit of a gauge's length. The raw value is the token in JSON and SQLite.
public enum GaugeUnit: String, Codable, CaseIterable, Hashable, Sendable {
  /// Centimetres, `cm`.
  case centimeter = "cm"
  /// Inches, `in`.
  case inch = "in"
}

/// A project's gauge (tension): so many stitches, and optionally rows, over a length of
/// fabric, as a pattern states it: `18 sts x 24 rows = 10 cm` or `18 sts = 4 in`.
///
/// The numbers are kept as given, with their unit (10 cm and 4 in are not converted into one
/// another: patterns give one or the other, and 4 in is 10.16 cm). Fractions are allowed
/// (`22.5 sts`).
public struct Gauge: Codable, Hashable, Sendable, CustomStringConvertible {
  /// The stitches over `length`, more than 0.
  public var stitches: Double
  /// The rows over `length`, more than 0, or `nil` when the pattern gives none.
  public var rows: Double?
  /// The length of fabric the counts are over, more than 0, in `unit`.
  public var length: Double
  /// `cm` or `in`.
  public var unit: GaugeUnit

  /// A gauge (not checked: see `Rules.gauge(_:)`).
  public init(stitches: Double, rows: Double? = nil, length: Double, unit: GaugeUnit) {
    self.stitches = stitches
    self.rows = rows
    self.length = length
    self.unit = unit
  }

  /// `18 sts x 24 rows = 10 cm`, `18 sts = 4 in`; numbers in the shortest form (`22.5`).
  public var description: String {
    var text = "\(Rules.number(stitches)) sts"
    if let rows { text += " x \(Rules.number(rows)) rows" }
    return text + " = \(Rules.number(length)) \(unit.rawValue)"
  }

  /// Why a gauge cannot be read, lower case.
  public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Why, such as `no stitch count: expected a number before "sts"`.
    public var reason: String
    /// The error for `reason`.
    public init(_ reason: String) { self.reason = reason }
    /// `reason` and what a gauge looks like.
    public var description: String {
      "\(reason) (a gauge looks like \"18 sts x 24 rows = 10 cm\" or \"18 sts = 4 in\")"
    }
  }

  /// Reads a gauge as patterns write it: a stitch count, optionally a row count, then the
  /// length they are over.
  ///
  /// - Counts: a number followed by `sts`, `st`, `stitch`, `stitches`; then optionally `x`,
  ///   `×`, `and`, `by`, `&` or `,` and a number followed by `rows`, `row`, `rnds`, `rnd`,
  ///   `rounds`, `round`.
  /// - Then `=`, `to`, `over`, `per`, `in` or `:` (or nothing), and a length: a number and
  ///   `cm`, `centimeters`, `centimetres`, `in`, `inch`, `inches`, `"` (`10cm`, `4"` too).
  ///   A length without a count of its own unit is refused.
  ///
  /// Accepted: `18 sts x 24 rows = 10 cm`, `18 sts = 4 in`, `18 sts and 24 rows to 10 cm`,
  /// `22.5 stitches per 4 inches`, `18 sts, 24 rows over 10cm`, `22,5 sts = 10 cm` (a decimal
  /// comma between digits, as `Amount(parsing:)` reads one; `1,000 sts` is refused as
  /// ambiguous, as amounts refuse it). Case does not matter.
  ///
  /// - Throws: `ParseError` naming the first part that is missing or not understood.
  public init(parsing text: String) throws(ParseError) {
    var tokens = Gauge.tokens(text.lowercased())
    func number(_ what: String) throws(ParseError) -> Double {
      guard let token = tokens.first else { throw ParseError("no \(what): the text ends early") }
      let value: Double
      do {
        value = try DecimalNumber.value(of: token, input: token)
      } catch {
        guard error.problem == .malformed else { throw ParseError(error.description) }
        throw ParseError("\(LineText.quoted(token)) is not a number (the \(what))")
      }
      guard value.isFinite else {
        throw ParseError("\(LineText.quoted(token)) is not a number (the \(what))")
      }
      tokens.removeFirst()
      return value
    }
    func take(_ words: Set<String>) -> Bool {
      guard let first = tokens.first, words.contains(first) else { return false }
      tokens.removeFirst()
      return true
    }
    guard !tokens.isEmpty else { throw ParseError("the gauge is empty") }
    let stitches = try number("stitch count")
    guard take(["sts", "st", "stitch", "stitches"]) else {
      throw ParseError("expected \"sts\" after the stitch count \(Rules.number(stitches))")
    }
    var rows: Double?
    let joined = take(["x", "×", "and", "by", "&", ","])
    if let first = tokens.first, first.first?.isNumber == true || first.first == ".",
      tokens.count > 1, ["rows", "row", "rnds", "rnd", "rounds", "round"].contains(tokens[1])
    {
      rows = try number("row count")
      tokens.removeFirst()
    } else if joined {
      throw ParseError("expected a row count such as \"24 rows\" after \"x\" or \"and\"")
    }
    _ = take(["=", "to", "over", "per", "in", ":", "on"])
    let length = try number("length")
    let unit: GaugeUnit
    if take(["cm", "centimeter", "centimeters", "centimetre", "centimetres"]) {
      unit = .centimeter
    } else if take(["in", "inch", "inches", "\"", "”"]) {
      unit = .inch
    } else {
      throw ParseError(
        "expected the length's unit, cm or in, after \(Rules.number(length))"
          + (tokens.first.map { ", not \(LineText.quoted($0))" } ?? ""))
    }
    if let rest = tokens.first {
      throw ParseError("\(LineText.quoted(rest)) after the length is not understood")
    }
    self.init(stitches: stitches, rows: rows, length: length, unit: unit)
    if let violation = Rules.gauge(self) { throw ParseError(violation.reason) }
  }

  /// The words and numbers of `text`: a number and the letters or sign after it
  /// (`10cm`, `4"`) are two tokens; `=`, `×`, `,`, `:` and `&` are tokens of their own,
  /// but a comma between digits is part of the number (`22,5`).
  private static func tokens(_ text: String) -> [String] {
    var out: [String] = []
    var current = ""
    func flush() {
      if !current.isEmpty { out.append(current) }
      current = ""
    }
    let characters = Array(text)
    for (index, character) in characters.enumerated() {
      if character == ",", current.last?.isNumber == true, current.allSatisfy({ $0.isNumber || $0 == "." }),
        characters.indices.contains(index + 1), characters[index + 1].isNumber
      {
        // A comma between digits is part of the number, read as `DecimalNumber` reads one:
        // `22,5 sts` is 22.5, `1,000 sts` is refused as ambiguous.
        current.append(",")
      } else if character == " " || character == "\t" {
        flush()
      } else if ["=", "×", ",", ":", "&", "\"", "”"].contains(character) {
        flush()
        out.append(String(character))
      } else if let last = current.last,
        (last.isNumber || last == "." || last == ",") != (character.isNumber || character == ".")
      {
        flush()
        current.append(character)
      } else {
        current.append(character)
      }
    }
    flush()
    return out
  }
}
