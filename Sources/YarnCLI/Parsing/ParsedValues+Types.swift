import YarnCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Typed readers for the values the commands take; each bad value is `CLIError.badValue`
/// naming the option (or argument) and the value.
extension ParsedValues {
  /// An amount such as `3 skeins` or `220yd` (`Amount(parsing:)`).
  func amount(_ name: String) throws(CLIError) -> Amount? {
    try typed(name, expected: "an amount such as '3 skeins'") { try Amount(parsing: $0) }
  }

  /// A length per skein: an amount in `yd` or `m`.
  func length(_ name: String) throws(CLIError) -> Amount? {
    try typed(name, expected: "a length above zero in yd or m, such as '220 yd' or '200 m'") { text in
      let amount = try Amount(parsing: text)
      return amount.unit.dimension == .length && amount.value > 0 ? amount : nil
    }
  }

  /// A net weight per skein: an amount in `g` or `oz`.
  func mass(_ name: String) throws(CLIError) -> Amount? {
    try typed(name, expected: "a weight above zero in g, kg, oz or lb, such as '100 g' or '3.5 oz'") { text in
      let amount = try Amount(parsing: text)
      return amount.unit.dimension == .mass && amount.value > 0 ? amount : nil
    }
  }

  /// A CYC yarn weight such as `DK`, `worsted` or `4` (`YarnWeight(parsing:)`).
  func yarnWeight(_ name: String) throws(CLIError) -> YarnWeight? {
    try typed(
      name,
      expected:
        "a yarn weight: 0-7, lace, fingering, sport, DK, worsted, aran, bulky, super bulky, jumbo, or '8 ply'"
    ) { YarnWeight(parsing: $0) }
  }

  /// A day: `YYYY-MM-DD`, `today` or `yesterday` (local time).
  func date(
    _ name: String, today: CalendarDate = CalendarDate(containing: Date())
  ) throws(CLIError) -> CalendarDate? {
    try typed(name, expected: "a date as YYYY-MM-DD, 'today' or 'yesterday'") {
      try ParsedValues.parseDate($0, today: today)
    }
  }

  /// A project status (`ProjectStatus(parsing:)`).
  func status(_ name: String) throws(CLIError) -> ProjectStatus? {
    try typed(
      name,
      expected: "a status: \(ProjectStatus.allCases.map(\.rawValue).joined(separator: ", "))"
    ) { ProjectStatus(parsing: $0) }
  }

  /// A craft (`Craft(parsing:)`).
  func craft(_ name: String) throws(CLIError) -> Craft? {
    try typed(name, expected: "a craft: \(Craft.allCases.map(\.rawValue).joined(separator: ", "))") {
      Craft(parsing: $0)
    }
  }

  /// One of the raw values of `T` (`in-stash`, `name`, ...), case and spaces around it
  /// aside.
  func choice<T: RawRepresentable & CaseIterable>(_ name: String, _ type: T.Type)
    throws(CLIError) -> T? where T.RawValue == String
  {
    let names = T.allCases.map(\.rawValue)
    return try typed(name, expected: "one of: \(names.joined(separator: ", "))") { text in
      T(rawValue: text.trimmingSpaces().lowercased())
    }
  }

  /// The text of a search or filter option (`--search`, `--brand`): one line, not blank,
  /// and not made only of accents (what `Lookup.folded` removes), which would find anything.
  func searchText(_ name: String) throws(CLIError) -> String? {
    guard let text = try singleLine(name) else { return nil }
    guard let text, !Lookup.folded(text).isEmpty else {
      throw .badValue(
        command: command, name: "--\(name)", value: value(name) ?? "", reason: "expected some text")
    }
    return text
  }

  /// A unit word (`YarnUnit(parsing:)`).
  func unit(_ name: String) throws(CLIError) -> YarnUnit? {
    try typed(name, expected: "a unit: \(YarnUnit.acceptedWords)") { YarnUnit(parsing: $0) }
  }

  /// `--columns`: the columns `parse` reads from the comma-separated list, or `nil` when it
  /// is not given.
  ///
  /// - Throws: `CLIError.badValue` naming `--columns` for a name `parse` refuses (in its
  ///   words) or a list that names no column.
  func columns<Column>(_ parse: (String) throws -> [Column]) throws(CLIError) -> [Column]? {
    guard let columns = try typed("columns", expected: "column names", parse) else { return nil }
    if columns.isEmpty {
      throw .badValue(
        command: command, name: "--columns", value: value("columns") ?? "", reason: "no column named")
    }
    return columns
  }

  /// An edit's option that an empty value clears: `nil` when it is absent, `.some(nil)` when
  /// it is empty or only spaces, else `.some` of what `read` makes of it.
  func clearing<T>(_ name: String, _ read: (String) throws -> T?) throws -> T?? {
    guard let text = value(name) else { return nil }
    if text.trimmingSpaces().isEmpty { return .some(nil) }
    return .some(try read(name))
  }

  /// A session's note (`--note`): free text that may span lines, by the rule of a note's
  /// text (`Rules.noteText(_:field:)`: not blank, not too long, no control character other
  /// than a line break or a tab), the rule `note add` reads its text by. In an edit
  /// (`clearing`), a blank value (empty, spaces, invisible characters) clears the note instead,
  /// as an empty value clears any field.
  ///
  /// Returns `nil` when the option is absent, `.some(nil)` for a blank value when `clearing`.
  /// - Throws: `CLIError.badValue` naming the option when the text breaks the rule
  ///   (`bad value '  ' for --note: is blank`).
  func note(_ name: String, clearing: Bool = false) throws(CLIError) -> String?? {
    guard let text = value(name) else { return nil }
    if clearing && LineText.isBlank(text) { return .some(nil) }
    if let violation = Rules.noteText(text) {
      throw .badValue(
        command: command, name: "--\(name)", value: String(text.prefix(40)),
        reason: violation.reason)
    }
    return .some(text)
  }

  /// `YYYY-MM-DD`, `today` or `yesterday`.
  ///
  /// - Throws: `CalendarDate.ImpossibleDate` for a `YYYY-MM-DD` that names no day
  ///   (`2026-02-30`), saying why.
  static func parseDate(_ text: String, today: CalendarDate) throws(CalendarDate.ImpossibleDate)
    -> CalendarDate?
  {
    switch text.lowercased().trimmingSpaces() {
    case "today": return today
    case "yesterday": return today.previousDay
    default:
      if let impossible = CalendarDate.impossibility(in: text.trimmingSpaces()) { throw impossible }
      return CalendarDate(iso8601: text.trimmingSpaces())
    }
  }
}

extension CalendarDate {
  /// The day before.
  var previousDay: CalendarDate {
    if let day = CalendarDate(year: year, month: month, day: day - 1) { return day }
    if month > 1 {
      let days = CalendarDate.lastDay(ofMonth: month - 1, year: year)
      return CalendarDate(year: year, month: month - 1, day: days) ?? self
    }
    return CalendarDate(year: year - 1, month: 12, day: 31) ?? self
  }

  static func lastDay(ofMonth month: Int, year: Int) -> Int {
    for day in stride(from: 31, through: 28, by: -1)
    where CalendarDate(year: year, month: month, day: day) != nil {
      return day
    }
    return 28
  }
}
