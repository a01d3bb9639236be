import YarnModel
import YarnStore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Time totals per project, local day, ISO week or month (`yarn time report`).
///
/// Durations come from absolute instants, so a DST change never stretches or shrinks a
/// session. By day, week or month a session is split at each local midnight it crosses and
/// every part counts in its own day (and so in that day's week and month). Only time inside
/// the range counts: a session reaching over the range's edge counts with its part inside.
/// A running session counts until `now`.
public struct TimeReport: Hashable, Sendable {
  /// How the time is grouped; the raw value is the word `yarn time report --by` takes.
  public enum Grouping: String, CaseIterable, Sendable {
    /// One row per project, the most time first (ties by name).
    case project
    /// One row per local day, `2026-06-01`.
    case day
    /// One row per ISO 8601 week, `2026-W23` (ISO 8601-1:2019 §5.2.4.1: weeks begin on
    /// Monday, and week 1 holds the year's first Thursday, so 2027-01-01 is in `2026-W53`).
    case week
    /// One row per month, `2026-06`.
    case month
  }

  /// One line of the report.
  public struct Row: Hashable, Sendable {
    /// The period's label (`2026-06-01`, `2026-W23`, `2026-06`), or the project's name.
    public let key: String
    /// The project's ID for a row of a `.project` report, else `nil`.
    public let projectID: String?
    /// Whole seconds logged in the period (or on the project) within the range.
    public let seconds: Int64
  }

  /// The grouping the rows are in.
  public let grouping: Grouping
  /// The rows: periods in time order, projects by time (most first). Periods and projects
  /// with no time are left out.
  public let rows: [Row]

  /// The sum of the rows' seconds.
  public var totalSeconds: Int64 { rows.reduce(0) { $0 + $1.seconds } }

  /// Builds a report.
  ///
  /// - Parameters:
  ///   - sessions: the sessions to count (any order; those outside the range add nothing).
  ///   - projectNames: project names by ID, for `.project` rows (the ID stands in for a
  ///     missing name).
  ///   - grouping: how to group.
  ///   - range: the instants counted, `[start, end)`, either bound optional (for local days
  ///     D1 through D2, the first instant of D1 and the first instant of the day after D2).
  ///   - timeZone: the zone whose midnights split days, such as `TimeZone.current`.
  ///   - now: where a running session ends.
  /// - Complexity: O(n + d) for n sessions covering d local days in all.
  public init(
    sessions: [TimeSession], projectNames: [String: String], grouping: Grouping,
    range: (start: Date?, end: Date?) = (nil, nil), timeZone: any UTCOffsetProvider, now: Date
  ) {
    var totals = Totals(grouping: grouping, range: range, timeZone: timeZone, now: now)
    for session in sessions { totals.add(session) }
    self = totals.report(projectNames: projectNames)
  }

  private init(grouping: Grouping, rows: [Row]) {
    self.grouping = grouping
    self.rows = rows
  }

  /// A report's totals gathered one session at a time, so that the sessions can stream from
  /// the store (`LibraryStore.forEachSession`) and only the totals are held: one per project
  /// or per period, whatever the number of sessions. The rules are `TimeReport`'s.
  public struct Totals {
    /// The grouping the totals are kept by.
    public let grouping: Grouping
    private let range: (start: Date?, end: Date?)
    private let timeZone: any UTCOffsetProvider
    private let now: Date
    /// Whole seconds by project ID (`.project`).
    private var seconds: [String: Int64] = [:]
    /// Whole seconds by local day (`.day`, `.week`, `.month`), labelled by period only in
    /// `report`: one label per day, not per session.
    private var days: [CalendarDate: Int64] = [:]

    /// Empty totals.
    ///
    /// - Parameters:
    ///   - grouping: how to group.
    ///   - range: the instants counted, `[start, end)`, either bound optional.
    ///   - timeZone: the zone whose midnights split days.
    ///   - now: where a running session ends.
    public init(
      grouping: Grouping, range: (start: Date?, end: Date?) = (nil, nil), timeZone: any UTCOffsetProvider,
      now: Date
    ) {
      self.grouping = grouping
      self.range = range
      self.timeZone = timeZone
      self.now = now
    }

    /// The IDs of the projects with time so far (for `.project` totals; else empty), to look
    /// their names up.
    public var projectIDs: [String] { grouping == .project ? Array(seconds.keys) : [] }

    /// Counts `session`'s time inside the range.
    ///
    /// - Complexity: O(d) for the d local days the session covers (O(1) by project).
    public mutating func add(_ session: TimeSession) {
      guard let span = session.span(inside: range, now: now) else { return }
      switch grouping {
      case .project:
        seconds[session.projectID, default: 0] += TimeReport.seconds(span.start, span.end)
      case .day, .week, .month:
        for (day, part) in TimeReport.splitByDay(start: span.start, end: span.end, in: timeZone) {
          days[day, default: 0] += part
        }
      }
    }

    /// The report of the totals so far.
    ///
    /// - Parameter projectNames: project names by ID, for `.project` rows (the ID stands in
    ///   for a missing name).
    /// - Complexity: O(d + r log r) for the d local days with time and r rows.
    public func report(projectNames: [String: String]) -> TimeReport {
      let rows: [Row]
      switch grouping {
      case .project:
        rows = seconds.map { id, seconds in Row(key: projectNames[id] ?? id, projectID: id, seconds: seconds)
        }
        .sorted { ($1.seconds, $0.key, $0.projectID ?? "") < ($0.seconds, $1.key, $1.projectID ?? "") }
      case .day, .week, .month:
        var periods: [String: Int64] = [:]
        for (day, seconds) in days {
          periods[TimeReport.label(of: day, grouping), default: 0] += seconds
        }
        // The labels sort as text in time order (four-digit years, zero-padded numbers).
        rows = periods.map { Row(key: $0.key, projectID: nil, seconds: $0.value) }.sorted { $0.key < $1.key }
      }
      return TimeReport(grouping: grouping, rows: rows)
    }
  }

  /// The parts of `[start, end)` in each local day it touches, in order, as whole seconds.
  ///
  /// - Complexity: O(d) for d days.
  static func splitByDay(start: Date, end: Date, in timeZone: any UTCOffsetProvider)
    -> [(day: CalendarDate, seconds: Int64)]
  {
    var parts: [(CalendarDate, Int64)] = []
    var day = LocalCalendar.day(containing: start, in: timeZone)
    var cursor = start
    while cursor < end {
      let next = LocalCalendar.endOfDay(day, in: timeZone)
      let stop = min(next, end)
      if stop > cursor { parts.append((day, seconds(cursor, stop))) }
      guard next > cursor else { break }  // the last representable day
      cursor = stop
      day = day.adding(days: 1)
    }
    return parts
  }

  /// The period label of `day`: the day, its ISO week or its month.
  static func label(of day: CalendarDate, _ grouping: Grouping) -> String {
    switch grouping {
    case .day: day.iso8601
    case .week: ISOWeek(containing: day).description
    case .month: day.yearMonth
    case .project: day.iso8601
    }
  }

  private static func seconds(_ start: Date, _ end: Date) -> Int64 {
    Int64((end.timeIntervalSince1970 - start.timeIntervalSince1970).rounded())
  }
}

extension TimeReport {
  /// Builds a report of the sessions in `store` that share time with `range`, streamed from
  /// the store (`LibraryStore.forEachSession`) into `Totals`: memory holds one total per
  /// row, not the sessions. The same report as `init(sessions:…)` given those sessions.
  ///
  /// - Parameters:
  ///   - store: the library, read in one transaction.
  ///   - grouping: how to group.
  ///   - range: the instants counted, `[start, end)` (UTC instants, whole seconds), either
  ///     bound optional.
  ///   - projectID: only this project's time, or `nil` for all.
  ///   - timeZone: the zone whose midnights split days.
  ///   - now: where a running session ends.
  /// - Complexity: O(k log n + d) for the k sessions read (see `forEachSession`) covering d
  ///   local days.
  /// - Throws: the store's errors (`StoreError`).
  public init(
    store: LibraryStore, grouping: Grouping, range: (start: Date?, end: Date?), projectID: String? = nil,
    timeZone: any UTCOffsetProvider, now: Date
  ) throws {
    self = try store.read {
      var totals = Totals(grouping: grouping, range: range, timeZone: timeZone, now: now)
      try store.forEachSession(
        from: range.start, to: range.end, projectID: projectID, namingProjects: false
      ) { session, _ in totals.add(session) }
      return totals.report(projectNames: try store.projectNames(ids: totals.projectIDs))
    }
  }
}
