import YarnModel
import YarnStore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A period in review (`yarn summary --year YYYY`, `--month`, `--week`, `--today`): the
/// projects finished in a range of local days, the time logged in them, and the yarn those
/// projects used by weight category.
///
/// Definitions (docs/CLI.md, "summary"):
/// - **The period**: the local days `first` through `last`, both included (a calendar year is
///   January 1 to December 31).
/// - **Finished in the period**: status `finished` and a finished day in the period (frogged
///   projects are not finished, whatever their day says).
/// - **Time logged in the period**: every session's time inside the period's local days
///   (from the start of `first` to the end of `last` in `timeZone`), any project; a session
///   across a bound counts its part inside. `perProject` splits it by project.
/// - **Time of a finished project**: all time ever logged on it, whatever the period, since a
///   project started in December and finished in January took all of it. The average per
///   finished project divides their sum by their number; the longest project is the finished
///   project with the most time (ties: the one finished first).
/// - **Yarn used**: the usages recorded on the projects finished in the period, each converted
///   to grams with its yarn's put-up (`UnitConversion`), summed by the yarn's CYC weight
///   (`nil` for a yarn of unknown weight), unrounded, each sum and the total rounded to 15
///   significant digits once. A usage that cannot be converted (skeins or a
///   length without the net weight per skein, …) is not guessed: it is listed in
///   `unconverted` with the facts it lacks, and counted in no weight's total.
/// - **Busiest month**: the month with the most time logged in the period (the time logged
///   in the period split by local day, then summed by month; ties: the earlier month); `nil`
///   when no time was logged in the period, or when the period lies inside one calendar month
///   (there is no other month to compare).
public struct PeriodSummary: Hashable, Sendable {
  /// A project and a number of seconds.
  public struct ProjectTime: Hashable, Sendable {
    /// The project.
    public let project: Project
    /// Whole seconds logged on it (see the summary's definitions for which).
    public let seconds: Int64
  }

  /// The grams of yarn of one weight category used by the projects finished in the period.
  public struct WeightUse: Hashable, Sendable {
    /// The CYC category, or `nil` for yarns of unknown weight.
    public let weight: YarnWeight?
    /// Grams (net weight), the full number (round for people).
    public let grams: Double
    /// How many usages the grams come from.
    public let usages: Int
  }

  /// A usage of a finished project that could not be converted to grams.
  public struct UnconvertedUse: Hashable, Sendable {
    /// The finished project's `Project.id`.
    public let projectID: String
    /// The finished project's name.
    public let projectName: String
    /// The `Yarn.id` the usage names.
    public let yarnID: String
    /// The yarn's name, or its ID when the yarn is not in the library.
    public let yarnName: String
    /// The yarn's CYC weight, or `nil` when unknown or the yarn is not in the library.
    public let weight: YarnWeight?
    /// The amount used, in the unit the project recorded.
    public let amount: Amount
    /// The put-up facts the conversion lacks (empty when the yarn is not in the library).
    public let missing: [PutUpFact]
  }

  /// The first local day of the period.
  public let first: CalendarDate
  /// The last local day of the period (included).
  public let last: CalendarDate
  /// The projects finished in the period, by finished day, then name, each with all its time.
  public let finished: [ProjectTime]
  /// Time logged inside the period, by project: the most first (ties by name).
  public let perProject: [ProjectTime]
  /// Time logged inside the period, all projects, in whole seconds.
  public let loggedSeconds: Int64
  /// The finished project with the most time, or `nil` when none was finished.
  public let longest: ProjectTime?
  /// Grams used per weight category, lace (0) to jumbo (7), unknown weight last; only
  /// categories with a usage appear.
  public let yarnByWeight: [WeightUse]
  /// A month and the time logged in it.
  public struct MonthTime: Hashable, Sendable {
    /// The year of the month, such as 2026.
    public let year: Int
    /// The month, 1 (January) to 12.
    public let month: Int
    /// Whole seconds logged in it.
    public let seconds: Int64
  }

  /// The usages that could not be converted to grams, in project and usage order.
  public let unconverted: [UnconvertedUse]
  /// The month with the most time logged in the period, with its whole seconds; `nil` when
  /// no time was logged in it or it lies inside one month (see the definitions).
  public let busiestMonth: MonthTime?

  /// The English name of month 1...12 (`January`), or `""` outside.
  public static func monthName(_ month: Int) -> String {
    let names = [
      "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
      "November", "December",
    ]
    return (1...12).contains(month) ? names[month - 1] : ""
  }

  /// The year, when the period is exactly one calendar year (January 1 through December 31);
  /// otherwise `nil`.
  public var year: Int? {
    first.month == 1 && first.day == 1 && last.year == first.year && last.month == 12 && last.day == 31
      ? first.year : nil
  }

  /// The time of the finished projects together, in whole seconds.
  public var finishedSeconds: Int64 { finished.reduce(0) { $0 + $1.seconds } }

  /// The average time per finished project, in whole seconds rounded to the nearest (a half
  /// up: 5 s over 3 projects is 2 s, 3 s over 2 is 2 s), or `nil` when none was finished.
  public var averageSecondsPerFinished: Int64? {
    let count = Int64(finished.count)
    return count == 0 ? nil : (finishedSeconds + count / 2) / count
  }

  /// The grams of yarn used, all categories (the unconverted usages are not in it): the
  /// usages' unrounded conversions added, the sum rounded to 15 significant digits once
  /// (`UnitConversion.rounded`), not the rounded sums of `yarnByWeight` added.
  public let totalGrams: Double

  /// Summarizes the local days `first` through `last` of `library`.
  ///
  /// - Parameters:
  ///   - library: the whole library (`LibraryStore.library()`).
  ///   - first: the first local day, such as 2026-01-01.
  ///   - last: the last local day, included, such as 2026-12-31; before `first`, the period
  ///     holds no day and so nothing.
  ///   - timeZone: the zone whose midnights bound the days, such as `TimeZone.current`.
  ///   - now: where a running session ends.
  /// - Complexity: O(n) for everything the library holds.
  public init(
    library: Library, from first: CalendarDate, through last: CalendarDate, timeZone: any UTCOffsetProvider,
    now: Date
  ) {
    let yarns = Dictionary(library.yarns.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    let projects = Dictionary(library.projects.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })

    // Time, all of it and inside the period.
    var allTime: [String: Int64] = [:]
    for session in library.sessions {
      allTime[session.projectID, default: 0] += session.seconds(now: max(now, session.start))
    }
    let range = PeriodSummary.range(from: first, through: last, in: timeZone)
    var totals = TimeReport.Totals(grouping: .project, range: range, timeZone: timeZone, now: now)
    var months = TimeReport.Totals(grouping: .month, range: range, timeZone: timeZone, now: now)
    for session in library.sessions {
      totals.add(session)
      months.add(session)
    }
    let done = library.projects.filter { project in
      project.status == .finished && project.finished.map { first <= $0 && $0 <= last } == true
    }
    self.init(
      first: first, last: last, totals: totals, months: months, projects: projects, finished: done,
      allTime: allTime,
      yarns: yarns)
  }

  /// Summarizes the local days `first` through `last` of the library in `store`, reading
  /// only what the period holds: the sessions that share time with it
  /// (`LibraryStore.forEachSession`, streamed), the projects those sessions name, the
  /// projects finished in it (`LibraryStore.projects(finishedFrom:through:)`), each one's
  /// time ever logged (summed by SQL, `LibraryStore.loggedSeconds(projectID:now:)`), and the
  /// yarns their usages name. The result is the same as
  /// `init(library:from:through:timeZone:now:)` on the whole library.
  ///
  /// - Parameters:
  ///   - store: the library, read in one transaction.
  ///   - first: the first local day, such as 2026-01-01.
  ///   - last: the last local day, included, such as 2026-12-31.
  ///   - timeZone: the zone whose midnights bound the days.
  ///   - now: where a running session ends.
  /// - Complexity: O((s + f + p + u) log n) for the s sessions of the period, the f sessions
  ///   of the projects finished in it (summed by SQL through the `time_session_by_project`
  ///   index, not read out), the p projects named, and the u usages of the finished ones;
  ///   memory holds one total per project, not the sessions.
  /// - Throws: the store's errors (`StoreError`).
  public init(
    store: LibraryStore, from first: CalendarDate, through last: CalendarDate,
    timeZone: any UTCOffsetProvider,
    now: Date
  ) throws {
    self = try store.read {
      let range = PeriodSummary.range(from: first, through: last, in: timeZone)
      var totals = TimeReport.Totals(grouping: .project, range: range, timeZone: timeZone, now: now)
      var months = TimeReport.Totals(grouping: .month, range: range, timeZone: timeZone, now: now)
      try store.forEachSession(from: range.start, to: range.end, namingProjects: false) { session, _ in
        totals.add(session)
        months.add(session)
      }
      var projects: [String: Project] = [:]
      for id in totals.projectIDs {
        projects[id] = try store.project(id: id)
      }
      let done = try store.projects(finishedFrom: first, through: last)
      var allTime: [String: Int64] = [:]
      var yarns: [String: Yarn] = [:]
      for project in done {
        projects[project.id] = project
        allTime[project.id] = try store.loggedSeconds(projectID: project.id, now: now)
        for usage in project.usages where yarns[usage.yarnID] == nil {
          yarns[usage.yarnID] = try store.yarn(id: usage.yarnID)
        }
      }
      return PeriodSummary(
        first: first, last: last, totals: totals, months: months, projects: projects, finished: done,
        allTime: allTime,
        yarns: yarns)
    }
  }

  /// The instants of the local days `first` through `last`, `[start, end)`; an empty range
  /// when `last` is before `first`.
  private static func range(
    from first: CalendarDate, through last: CalendarDate, in timeZone: any UTCOffsetProvider
  ) -> (start: Date?, end: Date?) {
    guard first <= last else { return (Date.distantFuture, Date.distantFuture) }
    let bounds = LocalCalendar.interval(from: first, through: last, in: timeZone)
    return (bounds.start, bounds.end)
  }

  /// The summary from what it needs.
  ///
  /// - Parameters:
  ///   - totals: the time inside the period, by project.
  ///   - months: the time inside the period, by month.
  ///   - projects: at least the projects of `totals` and `finished`, by ID.
  ///   - finished: the projects finished in the period, any order.
  ///   - allTime: all the time of each finished project, by ID.
  ///   - yarns: at least the yarns the finished projects' usages name (when in the library).
  private init(
    first: CalendarDate, last: CalendarDate, totals: TimeReport.Totals, months: TimeReport.Totals,
    projects: [String: Project],
    finished done: [Project], allTime: [String: Int64], yarns: [String: Yarn]
  ) {
    self.first = first
    self.last = last
    // Month rows come in time order (`YYYY-MM`); the first with the most time wins.
    var busiest: MonthTime?
    for row in months.report(projectNames: [:]).rows where row.seconds > (busiest?.seconds ?? 0) {
      if let year = Int(row.key.prefix(4)), let month = Int(row.key.suffix(2)) {
        busiest = MonthTime(year: year, month: month, seconds: row.seconds)
      }
    }
    let oneMonth = first.year == last.year && first.month == last.month
    busiestMonth = oneMonth ? nil : busiest
    let names = projects.mapValues(\.name)
    let report = totals.report(projectNames: names)
    perProject = report.rows.compactMap { row in
      row.projectID.flatMap { projects[$0] }.map { ProjectTime(project: $0, seconds: row.seconds) }
    }
    loggedSeconds = report.totalSeconds

    // The projects finished in the period.
    let done = done.sorted {
      ($0.finished?.iso8601 ?? "", $0.name, $0.id) < ($1.finished?.iso8601 ?? "", $1.name, $1.id)
    }
    finished = done.map { ProjectTime(project: $0, seconds: allTime[$0.id] ?? 0) }
    var longest: ProjectTime?
    for entry in finished where entry.seconds > (longest?.seconds ?? -1) {
      longest = entry
    }
    self.longest = longest

    // Yarn used by those projects, in grams by weight.
    var grams: [Int: (Double, Int)] = [:]  // weight raw value, or 8 for unknown
    var unconverted: [UnconvertedUse] = []
    for project in done {
      for usage in project.usages {
        guard let yarn = yarns[usage.yarnID] else {
          unconverted.append(
            UnconvertedUse(
              projectID: project.id, projectName: project.name, yarnID: usage.yarnID, yarnName: usage.yarnID,
              weight: nil, amount: usage.amount, missing: []))
          continue
        }
        do {
          let converted = try UnitConversion.unroundedValue(of: usage.amount, in: .gram, putUp: yarn.putUp)
          let key = yarn.weight?.rawValue ?? 8
          let sum = grams[key] ?? (0, 0)
          grams[key] = (sum.0 + converted, sum.1 + 1)
        } catch {
          unconverted.append(
            UnconvertedUse(
              projectID: project.id, projectName: project.name, yarnID: yarn.id, yarnName: yarn.name,
              weight: yarn.weight, amount: usage.amount, missing: error.missing))
        }
      }
    }
    // Each figure shown is a sum of unrounded conversions rounded once: 1 m and 1 m of 300 m
    // per 100 g are 0.666666666666667 g, where their rounded grams added were ...666.
    let keys = grams.keys.sorted()
    yarnByWeight = keys.map { key in
      WeightUse(
        weight: YarnWeight(rawValue: key), grams: UnitConversion.rounded(grams[key]?.0 ?? 0),
        usages: grams[key]?.1 ?? 0)
    }
    totalGrams = UnitConversion.rounded(keys.reduce(0) { $0 + (grams[$1]?.0 ?? 0) })
    self.unconverted = unconverted
  }
}
