import YarnCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `yarn summary [--year YYYY]`: a year in review (YarnCore's `YearSummary`).
struct SummaryCommand: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "summary", abstract: "A year in review: finished projects, time, and yarn used.",
      discussion: """
        Finished projects: status finished with a finished day in the year. Time logged: all
        time inside the year's local days, any project. A finished project's time is all the
        time ever logged on it; the average and the longest project are over those. Yarn used:
        the usages of the projects finished in the year, converted to grams with each yarn's
        put-up and summed by weight category; a usage that cannot be converted (the put-up
        lacks a fact) is listed apart, never guessed.
        """,
      options: [.value("year", "year", "The year, such as 2026 (default: this year).")])
  }

  var year: Int?

  init(from values: ParsedValues) throws {
    year = try values.typed("year", expected: "a year such as 2026") { text in
      Int(text.trimmingSpaces()).flatMap { (1...9999).contains($0) ? $0 : nil }
    }
  }

  func run(in context: Context) throws {
    let zone = context.timeZone
    let year = self.year ?? LocalCalendar.day(containing: context.now, in: zone).year
    let summary = try context.read { store in
      try YearSummary(store: store, year: year, timeZone: zone, now: context.now)
    }
    if context.global.json {
      try context.printJSON(SummaryJSON(summary: summary))
      return
    }
    context.output.write(SummaryCommand.text(summary, width: context.tableWidth))
  }

  /// The summary for people, its tables fitted to `width` display columns when given
  /// (`Context.tableWidth`).
  static func text(_ summary: YearSummary, width: Int? = nil) -> String {
    // The tables are indented by two spaces.
    let tableWidth = width.map { max(1, $0 - 2) }
    var out = "\(summary.year) in review\n\n"
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
    out += "\nTime logged in \(summary.year): \(Formatting.duration(summary.loggedSeconds))"
    out += " on \(Formatting.count(summary.perProject.count, "project"))\n"
    if !summary.perProject.isEmpty {
      var table = Table(["PROJECT", "TIME", "H:MM"], shrinkable: [0])
      for entry in summary.perProject {
        table.add([
          entry.project.name, Formatting.duration(entry.seconds), TimeInput.hoursAndMinutes(entry.seconds),
        ])
      }
      out += indent(table.text(fitting: tableWidth))
    }
    out += "\nYarn used by the projects finished in \(summary.year): \(grams(summary.totalGrams))\n"
    if !summary.yarnByWeight.isEmpty {
      var table = Table(["WEIGHT", "GRAMS", "USAGES"])
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
    "\(Amount.format((value * 100).rounded() / 100)) g"
  }

  private static func indent(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "  " + $0 }
      .joined(separator: "\n")
  }
}

/// `yarn summary --json`: `{"year", "finished": [{"id", "name", "finished", "seconds"}],
/// "finishedSeconds", "averageSecondsPerFinished" (null when none), "longest" (a finished
/// entry or null), "loggedSeconds", "perProject": [{"id", "name", "seconds"}], "yarnByWeight":
/// [{"weight" (0–7 or null), "name", "grams", "usages"}], "totalGrams", "unconverted":
/// [{"projectID", "project", "yarnID", "yarn", "weight", "amount", "missing"}]}`.
struct SummaryJSON: Encodable {
  let summary: YearSummary

  private struct ProjectEntry: Encodable {
    let id: String
    let name: String
    let finished: CalendarDate?
    let seconds: Int64

    init(_ entry: YearSummary.ProjectTime, withDay: Bool) {
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
  }

  private enum Key: String, CodingKey {
    case year, finished, finishedSeconds, averageSecondsPerFinished, longest, loggedSeconds, perProject
    case yarnByWeight, totalGrams, unconverted
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
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
  }
}
