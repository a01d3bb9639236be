import YarnCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `yarn summary [--year [YYYY] | --month | --week | --today]`: a period in review (YarnCore's
/// `PeriodSummary`).
struct SummaryCommand: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "summary",
      abstract: "A year (or month, week, day) in review: finished projects, time, yarn used.",
      discussion: """
        The period: this calendar year by default; --year 2025 another year; --month, --week
        (ISO 8601: Monday through Sunday) and --today the local days of the period holding
        today. Finished projects: status finished with a finished day in the period. Time
        logged: all time inside the period's local days, any project. A finished project's
        time is all the time ever logged on it; the average and the longest project are over
        those. Yarn used: the usages of the projects finished in the period, converted to
        grams with each yarn's put-up and summed by weight category; a usage that cannot be
        converted (the put-up lacks a fact) is listed apart, never guessed. Busiest month: the
        month with the most time logged (not shown for a period inside one month).

        --card FILE (with a year only) also writes a share card: an SVG image of 1080x1350
        pixels (4:5 portrait) with the same figures and up to 4 photos of the finished
        projects (each project's first JPEG or PNG photo, at most 8 MiB together, embedded as
        they are). FILE is written through a temporary file and renamed; an existing FILE is
        replaced only with --force.

        EXAMPLE:
          yarn summary --year 2026 --card 2026.svg
        """,
      options: TimeOptions.periodOptions + [
        .value(
          "card", "file", "Also write the year's share card (SVG, 1080x1350) to FILE.", completion: .file),
        .flag("force", "Replace the card FILE if it exists."),
      ])
  }

  var period: TimeOptions.Period
  var card: String?
  var force: Bool

  init(from values: ParsedValues) throws {
    period = try TimeOptions.period(values) ?? TimeOptions.Period(period: .year)
    card = values.value("card")
    force = values.flag("force")
    if card != nil, period.period != .year {
      throw CLIError.conflictingOptions(
        command: values.command, options: ["--card", "--\(period.period.rawValue)"],
        reason: "the share card is drawn for a calendar year; give --year or no period")
    }
    if let card {
      if card == "-" {
        throw CLIError.badValue(
          command: values.command, name: "--card", value: card,
          reason: "give a file name for the SVG (./- for a file named -)")
      }
    } else if force {
      throw CLIError.optionDoesNotApply(
        command: values.command, option: "--force",
        reason: "it replaces the --card FILE; give --card (with a year)")
    }
  }

  func run(in context: Context) throws {
    let zone = try context.timeZone
    let days = try TimeOptions.days(of: period, context: context)
    var photos = YearCard.Photos()
    let summary = try context.read { store in
      let summary = try PeriodSummary(
        store: store, from: days.first, through: days.last, timeZone: zone, now: context.now)
      if card != nil { photos = try YearCard.photos(for: summary, in: store) }
      return summary
    }
    if let card { try write(card: card, YearCard.svg(summary, photos: photos), photos, context) }
    if context.global.json {
      try context.printJSON(SummaryJSON(summary: summary))
      return
    }
    context.output.write(SummaryCommand.text(summary, width: context.tableWidth))
  }

  /// Writes the card to `path`: refused over a file of the library
  /// (`OutputError.refuseLibraryFile`) and over an existing regular file without `--force`,
  /// written through a temporary file and renamed; a device or FIFO is written in place.
  private func write(card path: String, _ svg: String, _ photos: YearCard.Photos, _ context: Context) throws {
    try OutputError.refuseLibraryFile(path, of: try context.libraryURL)
    if InputFile.isDirectory(path) {
      throw CLIError.cannotCreateOutput(path: path, reason: "it is a directory")
    }
    // A device or FIFO is written in place, as `stash export -o` writes one (QA: `--card
    // /dev/full` asked for --force); a file that exists is kept without it.
    var info = stat()
    let special = stat(path, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG
    if !force, !special, lstat(path, &info) == 0 { throw CLIError.outputExists(path: path) }
    try AtomicFile.write(Data(svg.utf8), to: URL(fileURLWithPath: path))
    for name in photos.unreadable {
      context.warning(
        "the photo of \(visible: name) cannot be read from the library; it is not on the card")
    }
    var note = "wrote the card to \(visible: path)"
    if photos.overLimit > 0 {
      note += " (\(Plural.count(photos.overLimit, "photo")) left out: over 8 MiB of photos together)"
    }
    context.message(note)
  }

  /// The summary for people, its tables fitted to `width` display columns when given
  /// (`Context.tableWidth`).
  static func text(_ summary: PeriodSummary, width: Int? = nil) -> String {
    // The tables are indented by two spaces.
    let tableWidth = width.map { max(1, $0 - 2) }
    let name = DisplayText.period(from: summary.first, through: summary.last)
    var out = "\(name) in review\n\n"
    out += "Finished projects: \(summary.finished.count)\n"
    if !summary.finished.isEmpty {
      var table = Table(["FINISHED", "PROJECT", "TIME"], shrinkable: [1])
      for entry in summary.finished {
        table.add([
          entry.project.finished?.iso8601 ?? "", entry.project.name, Formatting.duration(entry.seconds),
        ])
      }
      out += indent(table.text(fitting: tableWidth))
      out += "Time on finished projects: \(Formatting.duration(summary.finishedSeconds)); "
      out += "average \(Formatting.duration(summary.averageSecondsPerFinished ?? 0)) per project\n"
      if let longest = summary.longest {
        out += "Longest project: \(longest.project.name) (\(Formatting.duration(longest.seconds)))\n"
      }
    }
    out += "\nTime logged in \(name): \(Formatting.duration(summary.loggedSeconds))"
    out += " on \(Plural.count(summary.perProject.count, "project"))\n"
    if !summary.perProject.isEmpty {
      var table = Table(["PROJECT", "TIME", "H:MM"], shrinkable: [0])
      for entry in summary.perProject {
        table.add([
          entry.project.name, Formatting.duration(entry.seconds), TimeInput.hoursAndMinutes(entry.seconds),
        ])
      }
      out += indent(table.text(fitting: tableWidth))
    }
    if let busiest = summary.busiestMonth {
      out +=
        "Busiest month: \(DisplayText.month(busiest)) (\(Formatting.duration(busiest.seconds)))\n"
    }
    out += "\nYarn used by the projects finished in \(name): \(grams(summary.totalGrams))\n"
    if !summary.yarnByWeight.isEmpty {
      var table = Table(["WEIGHT", "GRAMS", "USAGES"], shrinkable: [0])
      for use in summary.yarnByWeight {
        table.add([use.weight?.label ?? "unknown weight", grams(use.grams), String(use.usages)])
      }
      out += indent(table.text(fitting: tableWidth))
    }
    if !summary.unconverted.isEmpty {
      out += "Not converted to grams (not in the total):\n"
      for use in summary.unconverted {
        let lacking =
          use.missing.isEmpty
          ? "the yarn is not in the library"
          : "needs the " + use.missing.map(\.rawValue).joined(separator: " and ")
        out += "  \(use.projectName): \(use.amount) of \(use.yarnName) (\(lacking))\n"
      }
    }
    return out
  }

  private static func grams(_ value: Double) -> String {
    DisplayText.grams(value)
  }

  private static func indent(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "  " + $0 }
      .joined(separator: "\n")
  }
}

/// `yarn summary --json`: `{"from", "to" (the period's first and last local day, YYYY-MM-DD),
/// "year" (the year when the period is a calendar year, else null), "finished": [{"id", "name", "finished", "seconds"}],
/// "finishedSeconds", "averageSecondsPerFinished" (null when none), "longest" (a finished
/// entry or null), "loggedSeconds", "perProject": [{"id", "name", "seconds"}], "yarnByWeight":
/// [{"weight" (0–7 or null), "name", "grams", "usages"}], "totalGrams", "unconverted":
/// [{"projectID", "project", "yarnID", "yarn", "weight" (0–7 or null), "amount", "missing"}],
/// "busiestMonth": {"year", "month" (1–12), "name", "seconds"} or null}`.
struct SummaryJSON: Encodable {
  let summary: PeriodSummary

  private struct ProjectEntry: Encodable {
    let id: String
    let name: String
    let finished: CalendarDate?
    let seconds: Int64

    init(_ entry: PeriodSummary.ProjectTime, withDay: Bool) {
      id = entry.project.id
      name = entry.project.name
      finished = withDay ? entry.project.finished : nil
      seconds = entry.seconds
    }
  }

  private struct WeightEntry: Encodable {
    let weight: Int?
    let name: String
    let grams: Double
    let usages: Int

    private enum Key: String, CodingKey { case weight, name, grams, usages }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Key.self)
      try container.encode(weight, forKey: .weight)
      try container.encode(name, forKey: .name)
      try container.encode(grams, forKey: .grams)
      try container.encode(usages, forKey: .usages)
    }
  }

  private struct UnconvertedEntry: Encodable {
    let projectID: String
    let project: String
    let yarnID: String
    let yarn: String
    let weight: Int?
    let amount: Amount
    let missing: [String]

    // Written by hand so that an unknown weight is `null`, not left out (a synthesized
    // encoder skips nil).
    private enum Key: String, CodingKey { case projectID, project, yarnID, yarn, weight, amount, missing }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Key.self)
      try container.encode(projectID, forKey: .projectID)
      try container.encode(project, forKey: .project)
      try container.encode(yarnID, forKey: .yarnID)
      try container.encode(yarn, forKey: .yarn)
      try container.encode(weight, forKey: .weight)
      try container.encode(amount, forKey: .amount)
      try container.encode(missing, forKey: .missing)
    }
  }

  private enum Key: String, CodingKey {
    case from, to, year, finished, finishedSeconds, averageSecondsPerFinished, longest, loggedSeconds,
      perProject
    case yarnByWeight, totalGrams, unconverted, busiestMonth
  }

  private struct MonthEntry: Encodable {
    let year: Int
    let month: Int
    let name: String
    let seconds: Int64
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(summary.first, forKey: .from)
    try container.encode(summary.last, forKey: .to)
    try container.encode(summary.year, forKey: .year)
    try container.encode(summary.finished.map { ProjectEntry($0, withDay: true) }, forKey: .finished)
    try container.encode(summary.finishedSeconds, forKey: .finishedSeconds)
    try container.encode(summary.averageSecondsPerFinished, forKey: .averageSecondsPerFinished)
    try container.encode(summary.longest.map { ProjectEntry($0, withDay: true) }, forKey: .longest)
    try container.encode(summary.loggedSeconds, forKey: .loggedSeconds)
    try container.encode(summary.perProject.map { ProjectEntry($0, withDay: false) }, forKey: .perProject)
    try container.encode(
      summary.yarnByWeight.map {
        WeightEntry(
          weight: $0.weight?.rawValue, name: $0.weight?.name ?? "unknown weight", grams: $0.grams,
          usages: $0.usages)
      }, forKey: .yarnByWeight)
    try container.encode(summary.totalGrams, forKey: .totalGrams)
    try container.encode(
      summary.unconverted.map {
        UnconvertedEntry(
          projectID: $0.projectID, project: $0.projectName, yarnID: $0.yarnID, yarn: $0.yarnName,
          weight: $0.weight?.rawValue, amount: $0.amount, missing: $0.missing.map(\.rawValue))
      }, forKey: .unconverted)
    try container.encode(
      summary.busiestMonth.map {
        MonthEntry(
          year: $0.year, month: $0.month, name: PeriodSummary.monthName($0.month), seconds: $0.seconds)
      }, forKey: .busiestMonth)
  }
}
