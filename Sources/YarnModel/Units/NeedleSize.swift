#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The size of a knitting needle or crochet hook: its diameter in millimetres, the canonical
/// unit (the names below are aliases read on input and shown beside it).
///
/// Tables (docs/UNITS.md, "Needle and hook sizes"), from ../shared/data/reference/README.md:
/// - knitting needles, metric and US: Craft Yarn Council,
///   craftyarncouncil.com/standards/hooks-and-needles (`usNeedles`);
/// - old UK and Canadian needle numbers: thefemininetouchdesigns.co.uk (2023) and
///   superglobalcalculator.com, which agree (`ukNeedles`);
/// - crochet hooks, metric and US letter/number: Craft Yarn Council, as above (`hooks`);
/// - steel hooks: the CYC yarn weight table's category 0 row, "steel 1.6–1.4 (6, 7, 8)"
///   (`steelHooks`; its ends are 6 = 1.6 mm and 8 = 1.4 mm, 7 = 1.5 mm its middle). Steel
///   numbers differ between makers; millimetres are what is kept.
///
/// "Source: Craft Yarn Council's www.YarnStandards.com".
public struct NeedleSize: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The diameter in millimetres, in whole thousandths (`precision`): more than 0, at most
  /// `maximumMillimetres`.
  public let millimetres: Double

  /// The largest size accepted, 100 mm (the tables end at 25 mm; the schema's CHECK allows
  /// up to 100).
  public static let maximumMillimetres = 100.0

  /// The smallest size read from what people type or import, 0.5 mm: below the finest size
  /// the tables' sources list (a steel hook #14, 0.9 mm, in ../shared/data/reference), with
  /// room for the finer steel hooks some makers sell; a smaller one is no needle or hook
  /// (`0.001mm`). A size under it that a library or backup of an older yarn holds is kept.
  public static let minimumMillimetres = 0.5

  /// A size of `millimetres` rounded to the nearest 0.001 mm (a size above 0 that rounds to 0
  /// is kept as 0.001 mm), or `nil` when it is not more than 0, not finite or, rounded, over
  /// `maximumMillimetres` (`100.0004` is 100 mm, as `0.4995` is 0.5 mm). 0.001 mm is the
  /// finest step the tables' sources give (`3.125 mm`, a US 3 in some charts); rounding when
  /// a size is made (`4.4999 mm` is `4.5 mm`) keeps what is shown, compared and named.
  /// It does not apply `minimumMillimetres`, so that a size an older yarn stored is read;
  /// `Rules.needleSize(_:field:)` does, for new input.
  public init?(millimetres: Double) {
    guard millimetres.isFinite, millimetres > 0 else { return nil }
    let rounded = max((millimetres * 1000).rounded(), 1) / 1000
    guard rounded <= NeedleSize.maximumMillimetres else { return nil }
    self.millimetres = rounded
  }

  /// Whether `lhs` is the smaller size, by millimetres.
  public static func < (lhs: NeedleSize, rhs: NeedleSize) -> Bool {
    lhs.millimetres < rhs.millimetres
  }

  /// Which names to show beside the millimetres.
  public enum Names: Sendable {
    /// A knitting needle: the US size.
    case needle
    /// A crochet hook: the US hook name (letter and number, or steel number).
    case hook
    /// Unknown which: the US needle size and the hook name.
    case both
  }

  // MARK: Tables

  /// Craft Yarn Council knitting needle sizes: millimetres and US size.
  public static let usNeedles: [(mm: Double, us: String)] = [
    (1.5, "000"), (1.75, "00"), (2, "0"), (2.25, "1"), (2.75, "2"), (3.25, "3"), (3.5, "4"),
    (3.75, "5"), (4, "6"), (4.5, "7"), (5, "8"), (5.5, "9"), (6, "10"), (6.5, "10½"),
    (8, "11"), (9, "13"), (10, "15"), (12.75, "17"), (15, "19"), (19, "35"), (25, "50"),
  ]

  /// Old UK and Canadian needle numbers: a larger number is a smaller needle.
  public static let ukNeedles: [(mm: Double, uk: String)] = [
    (2, "14"), (2.25, "13"), (2.75, "12"), (3, "11"), (3.25, "10"), (3.75, "9"), (4, "8"),
    (4.5, "7"), (5, "6"), (5.5, "5"), (6, "4"), (6.5, "3"), (7, "2"), (7.5, "1"), (8, "0"),
    (9, "00"), (10, "000"),
  ]

  /// Craft Yarn Council crochet hook sizes: millimetres and US letter/number
  /// (craftyarncouncil.com/standards/hooks-and-needles, as copied in
  /// shared/data/reference/README.md). The 4.5 mm hook has a number and no letter there, `7`.
  public static let hooks: [(mm: Double, us: String)] = [
    (2.25, "B-1"), (2.75, "C-2"), (3.25, "D-3"), (3.5, "E-4"), (3.75, "F-5"), (4, "G-6"),
    (4.5, "7"), (5, "H-8"), (5.5, "I-9"), (6, "J-10"), (6.5, "K-10½"), (8, "L-11"),
    (9, "M/N-13"), (10, "N/P-15"), (11.5, "P-16"), (15, "P/Q"), (15.75, "Q"), (19, "S"),
    (25, "T/U/X"),
  ]

  /// Steel crochet hooks in the CYC table: millimetres and steel number.
  public static let steelHooks: [(mm: Double, steel: String)] = [
    (1.4, "8"), (1.5, "7"), (1.6, "6"),
  ]

  /// Whether `mm`, a row of a table, is this size: equal in whole thousandths of a
  /// millimetre (`precision`), as sizes are kept.
  private func isRow(_ mm: Double) -> Bool { (mm * 1000).rounded() == (millimetres * 1000).rounded() }

  /// The US knitting needle size (`8`, `10½`), or `nil` between the table's rows.
  public var usNeedle: String? { NeedleSize.usNeedles.first { isRow($0.mm) }?.us }
  /// The old UK needle number (`6`, `000`), or `nil` between the table's rows.
  public var ukNeedle: String? { NeedleSize.ukNeedles.first { isRow($0.mm) }?.uk }
  /// The US crochet hook name (`H-8`, `7`, `steel 7`), or `nil` between the table's rows.
  public var hook: String? {
    if let row = NeedleSize.hooks.first(where: { isRow($0.mm) }) { return row.us }
    return NeedleSize.steelHooks.first { isRow($0.mm) }.map { "steel \($0.steel)" }
  }

  /// The millimetres as they are kept and people read them: at most 3 decimals
  /// (`precision`), trailing zeros trimmed, `mm` after a space: `5 mm`, `3.25 mm`,
  /// `3.125 mm`, `4.499 mm`.
  public var millimetreText: String { "\(NeedleSize.format(millimetres)) mm" }

  /// `millimetres` in whole thousandths, trailing zeros trimmed: `4.5`, `4.499`, `0.001`.
  static func format(_ millimetres: Double) -> String {
    guard millimetres.isFinite, abs(millimetres) < 1e12 else { return Rules.number(millimetres) }
    let thousandths = Int64((millimetres * 1000).rounded())
    let magnitude = thousandths.magnitude
    var text = (thousandths < 0 ? "-" : "") + String(magnitude / 1000)
    var fraction = magnitude % 1000
    guard fraction != 0 else { return text }
    var digits = 3
    while fraction % 10 == 0 {
      fraction /= 10
      digits -= 1
    }
    let shown = String(fraction)
    text += "." + String(repeating: "0", count: digits - shown.count) + shown
    return text
  }

  /// `5 mm (US 8 / H-8)`: the millimetres with the names `names` asks for that the tables
  /// give; a size between the rows is shown in millimetres only (`4.2 mm`), never as the
  /// name of a nearby row.
  public func text(_ names: Names) -> String {
    var shown: [String] = []
    if names != .hook, let us = usNeedle { shown.append("US \(us)") }
    if names != .needle, let hook, !(names == .both && hook == usNeedle) {
      // A hook named by a number alone (CYC's `7`, 4.5 mm) is shown as a US size, `US 7`,
      // so that it is not read as a steel hook's number (`steel 7` is 1.5 mm).
      shown.append(hook.first?.isNumber == true ? "US \(hook)" : hook)
    }
    return shown.isEmpty ? millimetreText : "\(millimetreText) (\(shown.joined(separator: " / ")))"
  }

  /// `text(.both)`.
  public var description: String { text(.both) }

  // MARK: Parsing

  /// Reads a size, case-insensitively, spaces around ignored:
  /// - millimetres: `4.5mm`, `4.5 mm`, `4,5 mm` (a decimal comma; `1,000mm` is refused as
  ///   ambiguous, as amounts refuse it), any size above 0 and up to 100 mm, in the tables or
  ///   not;
  /// - a US needle size: `US 7`, `US7`, `US 10½`, `US 10.5`, `US 10 1/2`, `US 000`;
  /// - an old UK needle number: `UK 7`, `UK7`, `UK 000`;
  /// - a crochet hook: its name whole (`H-8`, `K-10½`, `M/N-13`, `T/U/X`, `H8`) or its
  ///   letters alone (`H`, `M/N`);
  /// - a steel hook: `steel 7`, `steel7`;
  /// - `US` before a hook's name: that hook (`US H-8`, `US H`, `US K-10½`, `US steel 7`).
  ///   After `US` a number is a US needle size: each number of the hook table is the size of
  ///   the US needle of that number (the table's `7`, a number alone, is 4.5 mm either way)
  ///   but P-16's, and there is no US 16.
  ///
  /// - Throws: `NeedleSizeParseError` saying what is wrong: empty; a number without a unit
  ///   (`7`, which could be mm, US or UK); 0 mm, a negative size, or over 100 mm; a US, UK,
  ///   hook or steel name that the tables do not have (`US 99`, `US Z-20`), with the names
  ///   they have;
  ///   anything else (`abc`).
  public init(parsing input: String) throws(NeedleSizeParseError) {
    var text = input.trimmingSpaces().lowercased()
      .replacing("½", with: ".5").replacing(" 1/2", with: ".5")
    guard !text.isEmpty else { throw NeedleSizeParseError(input: input, problem: .empty) }

    func name(after prefix: String) -> String? {
      guard text.hasPrefix(prefix) else { return nil }
      return String(text.dropFirst(prefix.count)).trimmingSpaces()
    }
    // `US` before a hook's name (a letter first; no hook's name begins with `US` or `UK`) is
    // read without it.
    if let hook = name(after: "us"), let first = hook.unicodeScalars.first, ("a"..."z").contains(first),
      !hook.hasPrefix("us"), !hook.hasPrefix("uk")
    {
      text = hook
    }
    func normalizedNumber(_ text: String) -> String {
      // `10.5` is the table's `10½`.
      text.replacing(".5", with: "½")
    }
    if let us = name(after: "us") {
      guard let row = NeedleSize.usNeedles.first(where: { $0.us == normalizedNumber(us) }) else {
        throw NeedleSizeParseError(input: input, problem: .unknownName(.us))
      }
      self.millimetres = row.mm
      return
    }
    if let uk = name(after: "uk") {
      guard let row = NeedleSize.ukNeedles.first(where: { $0.uk == uk }) else {
        throw NeedleSizeParseError(input: input, problem: .unknownName(.uk))
      }
      self.millimetres = row.mm
      return
    }
    if let steel = name(after: "steel") {
      guard let row = NeedleSize.steelHooks.first(where: { $0.steel == steel }) else {
        throw NeedleSizeParseError(input: input, problem: .unknownName(.steel))
      }
      self.millimetres = row.mm
      return
    }
    if let first = text.unicodeScalars.first, ("a"..."z").contains(first),
      !text.hasSuffix("mm")
    {
      guard let mm = NeedleSize.hook(named: text) else {
        // A letter and perhaps a number (`Z`, `Z-20`) is meant as a hook; other words are not
        // sizes at all (`abc`).
        let isHookLike = NeedleSize.hookKey(text).unicodeScalars.dropFirst().allSatisfy {
          ("0"..."9").contains($0) || $0 == "½"
        }
        throw NeedleSizeParseError(input: input, problem: isHookLike ? .unknownName(.hook) : .unreadable)
      }
      self.millimetres = mm
      return
    }
    // Millimetres.
    var number = text
    let hasUnit = number.hasSuffix("mm")
    if hasUnit { number = String(number.dropLast(2)).trimmingSpaces() }
    let negative = number.hasPrefix("-")
    if negative { number.removeFirst() }
    let value: Double
    do {
      value = try DecimalNumber.value(of: number, maximum: NeedleSize.maximumMillimetres, input: input)
    } catch {
      switch error.problem {
      case .malformed: throw NeedleSizeParseError(input: input, problem: .unreadable)
      case .ambiguousComma(let thousands, let decimal):
        throw NeedleSizeParseError(
          input: input, problem: .ambiguousComma(thousands: thousands, decimal: decimal))
      case .tooSmall:
        throw NeedleSizeParseError(input: input, problem: negative ? .negative : .tooSmall)
      }
    }
    guard hasUnit else { throw NeedleSizeParseError(input: input, problem: .missingUnit) }
    if negative, value != 0 { throw NeedleSizeParseError(input: input, problem: .negative) }
    if value == 0 { throw NeedleSizeParseError(input: input, problem: .zero) }
    guard let size = NeedleSize(millimetres: value) else {
      throw NeedleSizeParseError(input: input, problem: .tooLarge)
    }
    if size.millimetres < NeedleSize.minimumMillimetres {
      throw NeedleSizeParseError(input: input, problem: .tooSmall)
    }
    self = size
  }
}

extension NeedleSize {
  /// Reads a size given in a field of `table`'s names (a WEFT `us_size`, `.us`, or
  /// `hook_size`, `.hook`), as `init(parsing:)` reads it (`US 8`, `H-8`, `US H-8`, `steel 7`,
  /// `5mm`), a name of the table alone with `US` before it: a US size (`8`, `10½`), and the
  /// hook table's `7` (4.5 mm, a number alone, which `init(parsing:)` refuses for its missing
  /// unit). One reading with `--size`'s.
  ///
  /// - Throws: `NeedleSizeParseError`: a size in mm out of range as `init(parsing:)` says it
  ///   (`"0.001mm" is under the smallest needle or hook size, 0.5 mm`); in a hook field a
  ///   steel number the steel table does not have as that table's; whatever else is wrong as a
  ///   name `table` does not have, with the names it has.
  package init(parsing input: String, namedIn table: NeedleSizeParseError.Table) throws(NeedleSizeParseError)
  {
    let alone =
      table == .us || (table == .hook && NeedleSize.hooks.contains { $0.us == input.trimmingSpaces() })
    if alone, let size = try? NeedleSize(parsing: "US \(input)") {
      self = size
      return
    }
    do {
      self = try NeedleSize(parsing: input)
    } catch {
      switch error.problem {
      // A size in mm out of range (or with a comma that could be either mark) is refused in
      // `--size`'s words, which name the range (`"0.001mm" is under the smallest …`).
      case .negative, .zero, .tooSmall, .tooLarge, .ambiguousComma: throw error
      case .unknownName(.steel) where table == .hook: throw error
      default: throw NeedleSizeParseError(input: input, problem: .unknownName(table))
      }
    }
  }

  /// `text` (lower-cased, `½` as `.5`) as a hook's name is compared: `10.5` as the table's
  /// `10½`, without hyphens and spaces.
  fileprivate static func hookKey(_ text: String) -> String {
    text.replacing(".5", with: "½").replacing("-", with: "").replacing(" ", with: "")
  }

  /// The millimetres of the hook `text` (lower-cased, `½` as `.5`) names: a name of the hook
  /// table whole, without its hyphen (`h-8`, `h8`, `k-10.5`, `7`), or its letters alone (`h`,
  /// `m/n`); `nil` for none.
  fileprivate static func hook(named text: String) -> Double? {
    let key = hookKey(text)
    return NeedleSize.hooks.first { row in
      let name = row.us.lowercased()
      let letters = name.split(separator: "-").first.map(String.init) ?? name
      return name.replacing("-", with: "") == key
        || (letters.unicodeScalars.first.map { ("a"..."z").contains($0) } == true && letters == key)
    }?.mm
  }
}

/// Thrown by `NeedleSize(parsing:)`: the input and what is wrong with it.
public struct NeedleSizeParseError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The text as given.
  public let input: String
  /// What is wrong.
  public let problem: Problem

  /// The error of `input` for `problem`.
  package init(input: String, problem: Problem) {
    self.input = input
    self.problem = problem
  }

  /// A table of names.
  public enum Table: Hashable, Sendable {
    /// US knitting needle sizes.
    case us
    /// Old UK needle numbers.
    case uk
    /// US crochet hook names.
    case hook
    /// Steel hook numbers.
    case steel
  }

  /// What is wrong with a size.
  public enum Problem: Hashable, Sendable {
    /// Nothing was given.
    case empty
    /// A number without `mm`, `US` or `UK`.
    case missingUnit
    /// Less than 0 mm.
    case negative
    /// 0 mm.
    case zero
    /// Over `NeedleSize.maximumMillimetres`.
    case tooLarge
    /// More than 0 mm and under `NeedleSize.minimumMillimetres`.
    case tooSmall
    /// A name that the table does not have.
    case unknownName(Table)
    /// A comma that may be a thousands separator or a decimal comma (`1,000mm`): the two
    /// readings (`1000`, `1`).
    case ambiguousComma(thousands: String, decimal: String)
    /// Not a size at all.
    case unreadable
  }

  /// Says what is wrong and what is accepted, for example `"US 99" is not a US needle size;
  /// US sizes: 000, 00, 0, 1, 2, …`.
  public var description: String {
    let quoted = LineText.quoted(input)
    switch problem {
    case .empty: return "a needle or hook size is empty; give it in mm (4.5mm), as US 7, UK 7 or H-8"
    case .missingUnit:
      // Only the forms that read as a size: 10.5 is US 10½ but no UK number.
      let number = input.trimmingSpaces()
      let forms = ["\(number)mm", "US \(number)", "UK \(number)"].filter {
        (try? NeedleSize(parsing: $0)) != nil
      }
      // A number no table has and out of the range in mm (`101`, `0.4`): the range.
      guard let last = forms.last else {
        return "\(quoted) has no unit, and is no size; \(Rules.needleSizeRange)"
      }
      let list = forms.count < 2 ? last : forms.dropLast().joined(separator: ", ") + " or " + last
      return "\(quoted) has no unit: write \(list)"
    case .negative: return "\(quoted) is negative; \(Rules.needleSizeRange)"
    case .zero: return "\(quoted) is 0; \(Rules.needleSizeRange)"
    case .tooLarge: return "\(quoted) is over \(Int(NeedleSize.maximumMillimetres)) mm"
    case .tooSmall: return "\(quoted) is under \(Rules.smallestNeedleSize)"
    case .unknownName(.us):
      return "\(quoted) is not a US needle size; US sizes: "
        + NeedleSize.usNeedles.map(\.us).joined(separator: ", ")
    case .unknownName(.uk):
      return "\(quoted) is not an old UK needle size; UK sizes: "
        + NeedleSize.ukNeedles.map(\.uk).joined(separator: ", ")
    case .unknownName(.hook):
      return "\(quoted) is not a crochet hook size; hooks: "
        + NeedleSize.hooks.map(\.us).joined(separator: ", ")
    case .unknownName(.steel):
      return "\(quoted) is not a steel hook size in the table; steel hooks: "
        + NeedleSize.steelHooks.map(\.steel).joined(separator: ", ")
    case .ambiguousComma(let thousands, let decimal):
      return DecimalNumberError(
        input: input, problem: .ambiguousComma(thousands: thousands, decimal: decimal)
      )
      .description
    case .unreadable:
      return "\(quoted) is not a needle or hook size; give it in mm (4.5mm), as US 7, UK 7, "
        + "a hook (H-8, H) or a steel hook (steel 7)"
    }
  }
}

extension Rules {
  /// `the smallest needle or hook size, 0.5 mm`.
  static var smallestNeedleSize: String {
    "the smallest needle or hook size, \(NeedleSize.format(NeedleSize.minimumMillimetres)) mm"
  }

  /// `a size is 0.5 to 100 mm`.
  static var needleSizeRange: String {
    "a size is \(NeedleSize.format(NeedleSize.minimumMillimetres)) to "
      + "\(Int(NeedleSize.maximumMillimetres)) mm"
  }

  /// A project's needle sizes (`Project.needleSizes`): each once, equal in whole thousandths
  /// of a millimetre as sizes are kept (`4.5` and `4.4999` are one size). The index of the
  /// first size given again and its violation: `4.5 mm is given twice; a project lists each
  /// needle size once`. The store checks it of sizes given (a project added, its sizes
  /// changed), not of a repeat an older yarn stored, which a restore keeps.
  public static func repeatedNeedleSize(
    _ sizes: [NeedleSize], field: String = "needle size"
  ) -> (index: Int, violation: RuleViolation)? {
    var seen = Set<NeedleSize>()
    for (index, size) in sizes.enumerated() where !seen.insert(size).inserted {
      return (
        index,
        RuleViolation(
          field: field, reason: "\(size.millimetreText) is given twice; a project lists each needle size once"
        )
      )
    }
    return nil
  }

  /// A needle or hook size in millimetres read from what people type or import (`tool
  /// add`, `--needle`, a WEFT file): finite, at least `NeedleSize.minimumMillimetres` and at
  /// most `NeedleSize.maximumMillimetres` once kept to `NeedleSize.precision`. The words
  /// of `NeedleSize(parsing:)`'s errors: `0.001 mm is under the smallest needle or hook size,
  /// 0.5 mm`. The store checks it of a size given (a tool or project added, a size changed
  /// in an update), not of one stored, so that a library or backup of an older yarn, which
  /// took any size above 0, still opens, restores (`insert(library:)`) and is edited.
  public static func needleSize(_ millimetres: Double, field: String = "size") -> RuleViolation? {
    let shown = "\(number(millimetres)) mm"
    guard millimetres.isFinite else {
      return RuleViolation(field: field, reason: "\(shown) is not a finite number")
    }
    if millimetres < 0 {
      return RuleViolation(field: field, reason: "\(shown) is negative; \(needleSizeRange)")
    }
    if millimetres == 0 { return RuleViolation(field: field, reason: "\(shown) is 0; \(needleSizeRange)") }
    guard let size = NeedleSize(millimetres: millimetres) else {
      return RuleViolation(field: field, reason: "\(shown) is over \(Int(NeedleSize.maximumMillimetres)) mm")
    }
    if size.millimetres < NeedleSize.minimumMillimetres {
      return RuleViolation(field: field, reason: "\(shown) is under \(smallestNeedleSize)")
    }
    return nil
  }
}
