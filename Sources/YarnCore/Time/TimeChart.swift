import YarnModel

/// The bars of `yarn time report --chart`: total time per local day, or per ISO 8601 week
/// when the days charted are more than `maximumDays`, from a `.day` report (the same totals
/// as the report, regrouped: no second query).
///
/// The days charted run from `first` (else the report's first day with time) through `last`
/// (else its last day with time); periods with no time in between are kept, with no bar.
public struct TimeChart: Hashable, Sendable {
  /// The most days charted one bar a day; more are charted one bar per ISO week.
  public static let maximumDays = 31

  /// One bar.
  public struct Bar: Hashable, Sendable {
    /// `2026-11-30`, or `2026-W49` for a week.
    public let label: String
    /// Whole seconds in the period.
    public let seconds: Int64
  }

  /// The bars, in time order.
  public let bars: [Bar]
  /// Whether each bar is an ISO week (else a day).
  public let byWeek: Bool

  /// The chart of `report`, a `.day` report (another grouping gives no bars).
  ///
  /// - Parameters:
  ///   - first: the first day charted, or `nil` for the report's first day with time.
  ///   - last: the last day charted, or `nil` for its last day with time.
  public init(days report: TimeReport, first: CalendarDate? = nil, last: CalendarDate? = nil) {
    var seconds: [CalendarDate: Int64] = [:]
    for row in report.rows where report.grouping == .day {
      if let day = CalendarDate(iso8601: row.key) { seconds[day, default: 0] += row.seconds }
    }
    guard let start = first ?? seconds.keys.min(), let end = last ?? seconds.keys.max(), start <= end else {
      bars = []
      byWeek = false
      return
    }
    let count = end.daysSince1970 - start.daysSince1970 + 1
    byWeek = count > Int64(TimeChart.maximumDays)
    var bars: [Bar] = []
    var day = start
    while true {
      let label = byWeek ? ISOWeek(containing: day).description : day.iso8601
      let time = seconds[day] ?? 0
      if let lastBar = bars.last, lastBar.label == label {
        bars[bars.count - 1] = Bar(label: label, seconds: lastBar.seconds + time)
      } else {
        bars.append(Bar(label: label, seconds: time))
      }
      let next = day.adding(days: 1)
      if day >= end || next == day { break }
      day = next
    }
    self.bars = bars
  }

  /// Each bar's length in characters for a longest bar of `width`: `seconds × width ÷ the
  /// most seconds`, rounded to the nearest (halves up), at least 1 for a period with any
  /// time; 0 for none.
  public func lengths(width: Int) -> [Int] {
    let most = bars.map(\.seconds).max() ?? 0
    guard most > 0, width > 0 else { return bars.map { _ in 0 } }
    return bars.map { bar in
      guard bar.seconds > 0 else { return 0 }
      let scaled = (bar.seconds * Int64(width) * 2 + most) / (most * 2)
      return max(1, Int(scaled))
    }
  }
}
