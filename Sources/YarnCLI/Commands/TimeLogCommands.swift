import YarnCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `yarn time log [--project P] [--from DATE] [--to DATE] [--format table|csv|json]`.
struct TimeLog: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "log", abstract: "List time sessions, oldest first, in local time.",
      discussion: """
        --from and --to are inclusive local days; a session that shares time with them is
        listed whole. --today, --week (ISO 8601: Monday through Sunday), --month and --year
        stand for the local days of the period holding today; --year 2025 for that year.
        CSV columns: Project, Start, End (ISO 8601 UTC), Seconds, Duration (h:mm); --columns
        picks some of them, in its order.
        """,
      options: [
        .value("project", "project", "Only the sessions of this project."),
        .value("from", "date", "The first day (YYYY-MM-DD, today, yesterday)."),
        .value("to", "date", "The last day, included."),
      ] + TimeOptions.periodOptions + [TimeOptions.formatOption] + TimeOptions.csvOptions)
  }

  var projectReference: String?
  var from: String?
  var to: String?
  var period: TimeOptions.Period?
  var format: TimeOptions.Format
  var csv: CSVOutput
  var columns: [Int]?
  var command: [String]

  init(from values: ParsedValues) throws {
    projectReference = try values.optionalReference(option: "project")
    from = values.value("from")
    to = values.value("to")
    period = try TimeOptions.period(values)
    format = try TimeOptions.format(values)
    try TimeOptions.checkCSVOnly(values, format: format)
    csv = try CSVOutput(options: values)
    columns = try values.columns { try TimeCSV.columns(parsing: $0, header: TimeCSV.header) }
    command = values.command
  }

  func run(in context: Context) throws {
    let range = try TimeOptions.range(from: from, to: to, period: period, command: command, context: context)
    // The sessions stream from one read transaction to the output: memory does not grow
    // with their number (issue 13).
    try context.read { store in
      let projectID = try projectReference.map { try TimeOptions.projectID($0, in: store) }
      let sessions = { (body: (TimeSession, String) throws -> Void) throws in
        try store.forEachSession(from: range.start, to: range.end, projectID: projectID, body)
      }
      switch format {
      case .json:
        try printJSON(sessions, in: context)
      case .csv:
        try context.output.flush()
        let count = try csv.write(in: context) { writer in
          try TimeCSV.export(from: store, to: writer, range: range, projectID: projectID, columns: columns)
        }
        if let path = csv.output, path != "-" {
          context.message("wrote \(Plural.count(count, "session")) to \(visible: path)")
        }
      case .table:
        try printTable(sessions, range: (range.start, range.end), in: context)
      }
    }
  }

  /// The sessions as a JSON array, written one element at a time, byte for byte what
  /// `Context.printJSON` writes for the whole array.
  private func printJSON(
    _ sessions: ((TimeSession, String) throws -> Void) throws -> Void, in context: Context
  ) throws {
    let now = context.now
    var array = JSONArrayPrinter(output: context.output)
    try sessions { session, name in
      array.append(encoded: SessionJSON(session: session, projectName: name, now: now).prettyBytes())
    }
    try array.finish()
  }

  /// The table, in two passes over the sessions: the first measures the columns, the second
  /// writes each line as it comes, so no row is held.
  private func printTable(
    _ sessions: ((TimeSession, String) throws -> Void) throws -> Void, range: (start: Date?, end: Date?),
    in context: Context
  ) throws {
    let now = context.now
    let zone = try context.timeZone
    func cells(_ session: TimeSession, _ name: String) -> [String] {
      [
        shortID(session.id), Formatting.localTime(session.start, timeZone: zone),
        session.end.map { Formatting.localTime($0, timeZone: zone) } ?? "running",
        Formatting.duration(session.seconds(now: now)), name, session.note ?? "",
      ]
    }
    var table = StreamedTable(["ID", "START", "END", "DURATION", "PROJECT", "NOTE"], shrinkable: [4, 5])
    var count = 0
    // Fitted to a terminal, PROJECT and NOTE may be shortened.
    let width = context.tableWidth
    // The first pass measures without making the cells it can count otherwise: the local
    // times by `textCount`, each project's name once; NOTE is last and never padded, so it
    // is measured only to fit a terminal.
    var nameWidths: [String: Int] = [:]
    try sessions { session, name in
      table.widen(0, toFit: shortID(session.id))
      table.widen(1, to: LocalCalendar.textCount(session.start, in: zone))
      table.widen(2, to: session.end.map { LocalCalendar.textCount($0, in: zone) } ?? "running".count)
      table.widen(3, to: Formatting.duration(session.seconds(now: now)).count)
      if let width = nameWidths[name] {
        table.widen(4, to: width)
      } else {
        let width = DisplayWidth.columns(of: Table.flatten(name))
        nameWidths[name] = width
        table.widen(4, to: width)
      }
      if width != nil, let note = session.note { table.widen(5, toFit: note) }
      count += 1
    }
    if count == 0 {
      context.message(TimeOptions.nothingLogged(range: range, project: projectReference, context: context))
      return
    }
    table.fit(to: width)
    context.output.write(table.headerLine)
    var total: Int64 = 0
    var inside: Int64 = 0
    try sessions { session, name in
      total += session.seconds(now: now)
      inside += session.seconds(inside: range, now: now)
      context.output.write(table.line(cells(session, name)))
    }
    // A session that began before the days asked for or ends after them is listed whole;
    // the part inside them is what `time report` counts for those days.
    let part = inside == total ? "" : ", \(Formatting.duration(inside)) of it inside the days asked for"
    context.message("total: \(Formatting.duration(total)) in \(Plural.count(count, "session"))\(part)")
  }
}

/// `yarn time report [--from DATE] [--to DATE] [--by project|day|week|month] [--project P]
/// [--format table|csv|json]`.
struct TimeReportCommand: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "report", abstract: "Total the time per project, day, week or month.",
      discussion: """
        By day, week or month a session is split at local midnight and each part counts in its
        own day. Weeks are ISO 8601 (Monday first, 2026-W23); months 2026-06. --from and --to
        are inclusive local days, and only the time inside them counts. A running timer counts
        until now. Periods with no time are left out. --today, --week (ISO 8601: Monday
        through Sunday), --month and --year stand for the local days of the period holding
        today; --year 2025 for that year.

        --chart draws the time as bars of '#', one line per local day, or per ISO week when
        the days charted are more than 31: 2026-11-30  ####### 2h 15m. The days run from
        --from (or the period's first day, else the first day with time) through --to (or
        the period's last day, else the last day with time); days with no time get no bar.
        The longest bar fills the terminal's width ($COLUMNS), or 80 columns when the output
        is not a terminal; every other is scaled to it (rounded, at least one '#' for any
        time). --by cannot be given with --chart.

        JSON: an array of {"period", "seconds"} (or {"project", "projectID", "seconds"} with
        --by project). CSV: Period (or Project), Seconds, Duration (h:mm).
        """,
      options: [
        .value("from", "date", "The first day (YYYY-MM-DD, today, yesterday)."),
        .value("to", "date", "The last day, included."),
        .value(
          "by", "grouping", "project (default), day, week or month.",
          completion: .cases(of: TimeReport.Grouping.self)),
        .value("project", "project", "Only this project's time."),
        .flag("chart", "Draw a bar per day (or per ISO week) instead of a table."),
      ] + TimeOptions.periodOptions + [TimeOptions.formatOption] + TimeOptions.csvOptions)
  }

  var from: String?
  var to: String?
  var period: TimeOptions.Period?
  var chart: Bool
  var grouping: TimeReport.Grouping
  var projectReference: String?
  var format: TimeOptions.Format
  var csv: CSVOutput
  var columns: [Int]?
  var command: [String]

  init(from values: ParsedValues) throws {
    from = values.value("from")
    to = values.value("to")
    period = try TimeOptions.period(values)
    chart = values.flag("chart")
    if chart, let by = values.value("by") {
      throw CLIError.badValue(
        command: values.command, name: "--by", value: by,
        reason: "--chart groups by day, or by ISO week over more than 31 days; give one or the other")
    }
    grouping =
      try values.typed("by", expected: "project, day, week or month") {
        TimeReport.Grouping(rawValue: $0.lowercased())
      } ?? .project
    projectReference = try values.optionalReference(option: "project")
    format = try TimeOptions.format(values)
    if chart && format != .table {
      throw CLIError.optionDoesNotApply(
        command: values.command, option: "--chart", reason: "a chart is drawn for people, not as \(format)")
    }
    if chart { grouping = .day }
    try TimeOptions.checkCSVOnly(values, format: format)
    csv = try CSVOutput(options: values)
    let header = TimeCSV.reportHeader(grouping)
    columns = try values.columns { try TimeCSV.columns(parsing: $0, header: header) }
    command = values.command
  }

  func run(in context: Context) throws {
    let range = try TimeOptions.range(from: from, to: to, period: period, command: command, context: context)
    let report = try context.read { store in
      try TimeReport(
        store: store, grouping: grouping, range: range,
        projectID: try projectReference.map { try TimeOptions.projectID($0, in: store) },
        timeZone: try context.timeZone, now: context.now)
    }
    if chart {
      try printChart(report, range: range, context: context)
      return
    }
    switch format {
    case .json:
      try context.printJSON(report.rows.map { ReportRowJSON(row: $0, grouping: grouping) })
    case .csv:
      try context.output.flush()
      let count = try csv.write(in: context) { writer in
        try TimeCSV.write(report, columns: columns, to: writer)
      }
      if let path = csv.output, path != "-" {
        context.message("wrote \(Plural.count(count, "row")) to \(visible: path)")
      }
    case .table:
      if report.rows.isEmpty {
        context.message(TimeOptions.nothingLogged(range: range, project: projectReference, context: context))
        return
      }
      let heading = grouping == .project ? "PROJECT" : grouping.rawValue.uppercased()
      var table = Table([heading, "TIME", "H:MM"], shrinkable: grouping == .project ? [0] : [])
      for row in report.rows {
        table.add([row.key, Formatting.duration(row.seconds), TimeInput.hoursAndMinutes(row.seconds)])
      }
      table.add([
        "total", Formatting.duration(report.totalSeconds), TimeInput.hoursAndMinutes(report.totalSeconds),
      ])
      context.output.write(table.text(fitting: context.tableWidth))
    }
  }
}

extension TimeReportCommand {
  /// The report (by day) as a chart of bars (`TimeChart`), fitted to `context.tableWidth`
  /// or 80 columns.
  func printChart(_ report: TimeReport, range: (start: Date?, end: Date?), context: Context) throws {
    var first: CalendarDate?
    var last: CalendarDate?
    if let period {
      (first, last) = try TimeOptions.days(of: period, context: context)
    } else {
      let zone = try context.timeZone
      first = range.start.map { LocalCalendar.day(containing: $0, in: zone) }
      last = range.end.map { LocalCalendar.day(containing: $0, in: zone).adding(days: -1) }
    }
    let chart = TimeChart(days: report, first: first, last: last)
    if chart.bars.allSatisfy({ $0.seconds == 0 }) {
      context.message(TimeOptions.nothingLogged(range: range, project: projectReference, context: context))
      return
    }
    let text = TimeReportCommand.chartText(chart, width: context.tableWidth ?? 80)
    context.output.write(text)
    context.message("total: \(Formatting.duration(report.totalSeconds))")
  }

  /// The chart's lines: `2026-11-30  ####### 2h 15m`, the longest bar as long as leaves the
  /// widest line `width` columns (at least 10).
  static func chartText(_ chart: TimeChart, width: Int) -> String {
    let labelWidth = chart.bars.map(\.label.count).max() ?? 0
    let durationWidth = chart.bars.map { Formatting.duration($0.seconds).count }.max() ?? 0
    let longest = max(10, width - labelWidth - 2 - 1 - durationWidth)
    var out = ""
    for (bar, length) in zip(chart.bars, chart.lengths(width: longest)) {
      out += bar.label + String(repeating: " ", count: labelWidth - bar.label.count + 2)
      if length > 0 { out += String(repeating: "#", count: length) + " " }
      out += Formatting.duration(bar.seconds) + "\n"
    }
    return out
  }
}

/// A report row: `{"period", "seconds"}`, or `{"project", "projectID", "seconds"}`.
struct ReportRowJSON: Encodable {
  let row: TimeReport.Row
  let grouping: TimeReport.Grouping

  private enum Key: String, CodingKey { case period, project, projectID, seconds }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    if grouping == .project {
      try container.encode(row.key, forKey: .project)
      try container.encode(row.projectID, forKey: .projectID)
    } else {
      try container.encode(row.key, forKey: .period)
    }
    try container.encode(row.seconds, forKey: .seconds)
  }
}
