import YarnModel

/// The words and figures shown to people, kept in one place so that the CLI's tables, the
/// year-in-review card (`YearCard`) and the export's `index.html` (`ExportIndex`) print the
/// same thing for the same value.
public enum DisplayText {
  /// A duration: `1h 30m`, `45m`, `2h`, `0m`; seconds are shown only under a minute (`40s`).
  /// Minutes are rounded down, unless `exact`: then the seconds of a duration that is not
  /// whole minutes are shown too (`1m 30s`, `2h 0m 5s`), as the confirmation of a session
  /// recorded shows what was stored.
  ///
  /// - Parameters:
  ///   - seconds: whole seconds; zero or less is `0m`.
  ///   - exact: show the seconds that are not whole minutes.
  public static func duration(_ seconds: Int64, exact: Bool = false) -> String {
    if seconds <= 0 { return "0m" }
    if seconds < 60 { return "\(seconds)s" }
    let minutes = seconds / 60
    let hours = minutes / 60
    let rest = minutes % 60
    if exact, seconds % 60 != 0 {
      return (hours == 0 ? "" : "\(hours)h ") + "\(rest)m \(seconds % 60)s"
    }
    if hours == 0 { return "\(rest)m" }
    return rest == 0 ? "\(hours)h" : "\(hours)h \(rest)m"
  }

  /// The remaining figure as `yarn stash list` shows it: `2.5 skeins`, `0 skeins (overdrawn)`,
  /// `1 skein (override)`, `-` when unknown; an incomplete figure is marked `(incomplete)`.
  public static func remaining(_ estimate: RemainingEstimate) -> String {
    guard let remaining = estimate.remaining else { return "-" }
    switch estimate.source {
    case .estimate: return remaining.description
    case .override, .incomplete, .overdrawn, .unknown:
      return "\(remaining.description) (\(estimate.source.rawValue))"
    }
  }

  /// Grams as `yarn summary` shows them, in the words of every amount (`Amount.format`):
  /// rounded to hundredths (`412.5 g`, `0 g`), one above 0 too small for them by its first
  /// two significant digits (`0.004 g`), not as 0.
  public static func grams(_ value: Double) -> String {
    "\(Amount.format(value)) g"
  }

  /// The name of the local days `first` through `last`, as `yarn summary` heads them: `2026`
  /// for a whole calendar year, `December 2026` for a whole month, `2026-12-02` for one day,
  /// else `2026-11-30 to 2026-12-06`. Years have four digits (`0001`), as in ISO 8601.
  public static func period(from first: CalendarDate, through last: CalendarDate) -> String {
    let year = String(repeating: "0", count: max(0, 4 - String(first.year).count)) + String(first.year)
    if first == last { return first.iso8601 }
    let sameMonth = first.year == last.year && first.month == last.month
    let endsMonth = (last.month == 12 && last.day == 31) || last.adding(days: 1).day == 1
    if first.year == last.year, first.month == 1, first.day == 1, last.month == 12, last.day == 31 {
      return year
    }
    if sameMonth, first.day == 1, endsMonth { return "\(PeriodSummary.monthName(first.month)) \(year)" }
    return "\(first.iso8601) to \(last.iso8601)"
  }

  /// A month with its year, as the summary and the card name the busiest month: `June 2026`.
  public static func month(_ month: PeriodSummary.MonthTime) -> String {
    let year = String(repeating: "0", count: max(0, 4 - String(month.year).count)) + String(month.year)
    return "\(PeriodSummary.monthName(month.month)) \(year)"
  }
}
