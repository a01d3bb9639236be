import YarnCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Reading the times, days and formats of `yarn time` and `yarn summary`, which need the
/// command's `now` and time zone and so are read in `run(in:)`, not in `init(from:)`.
enum TimeOptions {
  /// What `time log` and `time report` say when nothing is found: in the range asked, on the
  /// project asked, or (neither asked) anywhere, with how to start (`context`'s library).
  static func nothingLogged(range: (start: Date?, end: Date?), project: String?, context: Context) -> String {
    let ranged = range.start != nil || range.end != nil
    switch (ranged, project != nil) {
    case (true, true): return "no time logged in that range on that project"
    case (true, false): return "no time logged in that range"
    case (false, true): return "no time logged on that project"
    case (false, false):
      return "no time logged; start a timer with '\(context.yarnCommand("time start PROJECT"))'"
    }
  }

  /// An instant typed for `name` (`--at`, `--from`, `--to`), read by `TimeInput.instant`.
  ///
  /// - Throws: `CLIError.badValue` naming the option, with TimeInput's reason (an unreadable
  ///   time, or a local time the clocks skipped); `EnvironmentVariableError` for a `$TZ` that is not
  ///   UTF-8.
  static func instant(_ text: String, option name: String, command: [String], context: Context) throws -> Date
  {
    let zone = try context.timeZone
    do {
      return try TimeInput.instant(text, now: context.now, timeZone: zone)
    } catch {
      throw CLIError.badValue(command: command, name: name, value: text, reason: error.description)
    }
  }

  /// A duration typed for `--duration`, read by `TimeInput.duration`.
  static func duration(_ text: String, command: [String]) throws(CLIError) -> Int64 {
    do {
      return try TimeInput.duration(text)
    } catch {
      throw .badValue(command: command, name: "--duration", value: text, reason: error.description)
    }
  }

  /// A local day typed for `name`: `YYYY-MM-DD`, `today` or `yesterday`.
  static func day(_ text: String, option name: String, command: [String], context: Context) throws
    -> CalendarDate
  {
    let today = LocalCalendar.day(containing: context.now, in: try context.timeZone)
    let read: CalendarDate?
    do {
      read = try ParsedValues.parseDate(text, today: today)
    } catch {
      throw CLIError.badValue(command: command, name: name, value: text, reason: error.description)
    }
    guard let day = read else {
      throw CLIError.badValue(
        command: command, name: name, value: text,
        reason: "expected a date as YYYY-MM-DD, 'today' or 'yesterday'")
    }
    return day
  }

  /// The ID and name of the project `reference` names (the project of `time start`, `time
  /// add`, `--project` of `time edit`, `time log` and `time report`), found by index
  /// (`References.projectID(_:in:)`), without reading every project's name nor its usages,
  /// photos or pattern.
  ///
  /// - Throws: `CLIError.notFound`/`.ambiguous` for the reference; the store's errors.
  static func project(_ reference: String, in store: LibraryStore) throws -> (id: String, name: String) {
    let id = try projectID(reference, in: store)
    return (id, try store.projectName(id: id) ?? id)
  }

  /// The ID of the project `reference` names (`References.projectID(_:in:)`).
  static func projectID(_ reference: String, in store: LibraryStore) throws -> String {
    try References.projectID(reference, in: store)
  }

  /// `--today`, `--week`, `--month`, `--year [YYYY]`: the local calendar period holding
  /// today, or the year given.
  static let periodOptions: [OptionSpec] = [
    .flag("today", "Only today (local day); one period at most."),
    .flag("week", "Only this ISO week, Monday through Sunday."),
    .flag("month", "Only this calendar month."),
    .optionalNumber("year", "year", "Only this calendar year, or the year given (such as 2025)."),
  ]

  /// A period option as given: the period, and the year `--year YYYY` named.
  struct Period {
    var period: CalendarPeriod
    var year: Int?
  }

  /// The period option given, if any.
  ///
  /// - Throws: `CLIError.conflictingOptions` (exit 64) for two of them, or one with
  ///   `--from` or `--to`; `CLIError.badValue` for a year that is not 1 to 9999.
  static func period(_ values: ParsedValues) throws(CLIError) -> Period? {
    let given = CalendarPeriod.allCases.filter {
      values.flag($0.rawValue) || values.value($0.rawValue) != nil
    }
    guard let period = given.first else { return nil }
    if given.count > 1 {
      throw .conflictingOptions(
        command: values.command, options: ["--\(given[0].rawValue)", "--\(given[1].rawValue)"],
        reason: "one period at most: --today, --week, --month or --year")
    }
    for name in ["from", "to"] where values.value(name) != nil {
      throw .conflictingOptions(
        command: values.command, options: ["--\(period.rawValue)", "--\(name)"],
        reason: "--\(period.rawValue) already says which days")
    }
    let year = try values.typed("year", expected: "a year from 1 to 9999, such as 2026") { text in
      text.allSatisfy({ $0.isASCII && $0.isNumber })
        ? Int(text).flatMap { (1...9999).contains($0) ? $0 : nil } : nil
    }
    return Period(period: period, year: year)
  }

  /// The first and last local day of `period` around today, or of the year given.
  static func days(of period: Period, context: Context) throws -> (first: CalendarDate, last: CalendarDate) {
    let today = LocalCalendar.day(containing: context.now, in: try context.timeZone)
    let day = period.year.flatMap { CalendarDate(year: $0, month: 1, day: 1) } ?? today
    return period.period.days(containing: day)
  }

  /// The instants `[start, end)` of the inclusive local days `--from` … `--to` (either
  /// optional), or of `period` around today when given.
  ///
  /// - Throws: `CLIError.badValue` for an unreadable day or `--from` after `--to`.
  static func range(
    from: String?, to: String?, period: Period? = nil, command: [String], context: Context
  ) throws -> (start: Date?, end: Date?) {
    if let period {
      let days = try days(of: period, context: context)
      let interval = LocalCalendar.interval(from: days.first, through: days.last, in: try context.timeZone)
      return (interval.start, interval.end)
    }
    let first = try from.map { text in
      try day(text, option: "--from", command: command, context: context)
    }
    let last = try to.map { text in
      try day(text, option: "--to", command: command, context: context)
    }
    if let first, let last, first > last {
      throw CLIError.badValue(
        command: command, name: "--to", value: to ?? "", reason: "it is before --from \(first.iso8601)")
    }
    let zone = try context.timeZone
    return (
      first.map { LocalCalendar.startOfDay($0, in: zone) },
      last.map { LocalCalendar.endOfDay($0, in: zone) }
    )
  }

  /// How a listing is printed.
  enum Format: String {
    case table, csv, json
  }

  static let formatOption = OptionSpec.value(
    "format", "format", "table (default), csv or json (--json is --format json).",
    completion: .choices(["table", "csv", "json"]))

  /// The CSV options shared with `stash export`.
  static let csvOptions: [OptionSpec] = [
    .value(
      "output", "file",
      "With --format csv: write FILE (through a temporary file, renamed when complete), not standard output.",
      short: "o"),
    .flag("force", "With --format csv: replace FILE when it exists."),
    .value("columns", "list", "With --format csv: the columns, comma-separated, in order (default: all)."),
    .value(
      "delimiter", "delimiter", "With --format csv: comma (default), semicolon or tab.",
      completion: .delimiters),
    .flag("bom", "With --format csv: begin with a UTF-8 byte order mark (for Excel)."),
    .flag("no-formula-guard", "With --format csv: do not prefix cells that look like formulas."),
  ]

  /// `--format`, with the global `--json` as `json`.
  ///
  /// - Throws: `CLIError.badValue` for an unknown format or one that contradicts `--json`.
  static func format(_ values: ParsedValues) throws(CLIError) -> Format {
    let json = values.flag("json")
    guard let text = values.value("format") else { return json ? .json : .table }
    guard let format = Format(rawValue: text.lowercased()) else {
      throw .badValue(
        command: values.command, name: "--format", value: text, reason: "expected table, csv or json")
    }
    if json && format != .json {
      throw .badValue(
        command: values.command, name: "--format", value: text,
        reason: "--json asks for json; give one of them")
    }
    return format
  }

  /// Refuses the CSV-only options with another format.
  static func checkCSVOnly(_ values: ParsedValues, format: Format) throws(CLIError) {
    guard format != .csv else { return }
    for name in ["output", "delimiter", "columns"] where values.value(name) != nil {
      throw .badValue(
        command: values.command, name: "--\(name)", value: values.value(name) ?? "",
        reason: "it applies only to --format csv")
    }
    for name in ["force", "bom", "no-formula-guard"] where values.flag(name) {
      throw .optionDoesNotApply(
        command: values.command, option: "--\(name)", reason: "it applies only to --format csv")
    }
  }

  /// Runs `body`, turning a `TimeError` into words with instants in `context`'s zone and
  /// hints that fit `command` (`ErrorPresenter.report(for:timeZone:command:)`).
  static func presenting<T>(_ context: Context, command: [String], _ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as TimeError {
      let report = ErrorPresenter.report(
        for: error, timeZone: try context.timeZone, command: command, library: context.global.library)
      throw CLIError.invalidData(message: report.message, hint: report.hint)
    }
  }

  /// A session's times for people: `2026-03-29 14:30 – 16:00` (the end's day shown only
  /// when it differs), or `since 2026-03-29 14:30` while running; when `exact`, with the
  /// seconds of an instant that has them (`10:00 – 10:01:30`, `Formatting.exactLocalTime`).
  static func span(_ session: TimeSession, timeZone: any UTCOffsetProvider, exact: Bool = false) -> String {
    func text(_ instant: Date) -> String {
      exact
        ? Formatting.exactLocalTime(instant, timeZone: timeZone) : LocalCalendar.text(instant, in: timeZone)
    }
    let start = text(session.start)
    guard let end = session.end else { return "\(start) – now (running)" }
    let endText = text(end)
    if endText.prefix(10) == start.prefix(10) { return "\(start) – \(endText.dropFirst(11))" }
    return "\(start) – \(endText)"
  }
}
