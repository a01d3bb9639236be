import YarnModel

/// The words and figures shown to people, kept in one place so that the CLI's tables, the
/// year-in-review card (`YearCard`) and the export's `index.html` (`ExportIndex`) print the
/// same thing for the same value.
public enum DisplayText {
  /// A duration: `1h 30m`, `45m`, `2h`, `0m`; seconds are shown only under a minute (`40s`).
  /// Minutes are rounded down.
  ///
  /// - Parameter seconds: whole seconds; zero or less is `0m`.
  public static func duration(_ seconds: Int64) -> String {
    if seconds <= 0 { return "0m" }
    if seconds < 60 { return "\(seconds)s" }
    let minutes = seconds / 60
    let hours = minutes / 60
    let rest = minutes % 60
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

  /// Grams rounded to hundredths, as `yarn summary` shows them: `412.5 g`, `0 g`.
  public static func grams(_ value: Double) -> String {
    "\(Amount.format((value * 100).rounded() / 100)) g"
  }

  /// The name of the local days `first` through `last`, as `yarn summary` heads them: `2026`
  /// for a whole calendar year, `December 2026` for a whole month, `2026-12-02` for one day,
  /// else `2026-11-30 to 2026-12-06`.
  public static func period(from first: CalendarDate, through last: CalendarDate) -> String {
    if first == last { return first.iso8601 }
    let startsMonth = first.day == 1
    let endsMonth = last.adding(days: 1).day == 1
    if startsMonth && endsMonth && first.year == last.year {
      if first.month == 1 && last.month == 12 { return String(first.year) }
      if first.month == last.month { return "\(PeriodSummary.monthName(first.month)) \(first.year)" }
    }
    return "\(first.iso8601) to \(last.iso8601)"
  }
}
