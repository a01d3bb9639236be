#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Local days, local midnights, ISO 8601 weeks and wall-clock text for a time zone, computed
/// from the zone's UTC offsets alone (`TimeZone.secondsFromGMT(for:)`) and integer day
/// arithmetic — no `Calendar` and no `DateFormatter`, so that commands on the hot path (`yarn
/// time start`) do not pay for ICU's calendar and formatter set-up.
///
/// A local day runs from its first instant (local midnight, or the end of a DST gap that
/// swallows midnight) to the first instant of the next day; every instant belongs to exactly
/// one local day.
package enum LocalCalendar {
  /// The local day that contains `instant` in `timeZone`; the nearest day of the years
  /// 1...9999 when the local day falls outside them (0001-01-01T00:00:00Z is 0000-12-31 in
  /// New York: 0001-01-01 is given).
  package static func day(containing instant: Date, in timeZone: any UTCOffsetProvider) -> CalendarDate {
    let seconds = Int64(instant.timeIntervalSince1970.rounded(.down))
    let local = seconds + Int64(timeZone.secondsFromGMT(for: instant))
    let days = floorDivide(local, 86_400)
    return CalendarDate(daysSince1970: days) ?? (days < 0 ? CalendarDate.first : CalendarDate.last)
  }

  /// The first instant of `day` in `timeZone`: local midnight, its first occurrence when the
  /// clocks repeat it, or — in a zone whose clocks skip midnight for DST — the instant the
  /// day's clock starts at (such as 01:00). For 0001-01-01, the first day a `CalendarDate`
  /// holds, `JSONCoding.earliestInstant`, so that the day holds every instant
  /// `day(containing:)` gives it (0001-01-01T00:00:00Z is 0000-12-31 19:03 in New York), as
  /// `endOfDay` does for 9999-12-31.
  package static func startOfDay(_ day: CalendarDate, in timeZone: any UTCOffsetProvider) -> Date {
    if day == CalendarDate.first { return JSONCoding.earliestInstant }
    if let midnight = TimeInput.localInstant(day: day, hour: 0, minute: 0, second: 0, in: timeZone) {
      return midnight
    }
    // Midnight lies in a gap: the day begins at the transition. The offsets in force just
    // before (a) and after (b > a) bound it: it lies in (wall − b, wall − a].
    let wall = day.daysSince1970 * 86_400
    var offsets: [Int64] = []
    for probe in [wall - 86_400, wall, wall + 86_400] {
      offsets.append(Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(probe)))))
    }
    var low = wall - (offsets.max() ?? 0)  // reads before midnight
    var high = wall - (offsets.min() ?? 0)  // reads at or after midnight
    while high - low > 1 {
      let middle = low + (high - low) / 2
      let offset = Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(middle))))
      if middle + offset >= wall { high = middle } else { low = middle }
    }
    return Date(timeIntervalSince1970: Double(high))
  }

  /// The instants `[start, end)` covered by the local days `from` through `to`, inclusive.
  package static func interval(
    from: CalendarDate, through to: CalendarDate, in timeZone: any UTCOffsetProvider
  )
    -> (start: Date, end: Date)
  {
    (startOfDay(from, in: timeZone), endOfDay(to, in: timeZone))
  }

  /// The first instant after `day` in `timeZone`: the start of the next day; for 9999-12-31,
  /// the last day a `CalendarDate` holds, 10000-01-01T00:00:00Z, just after
  /// `JSONCoding.latestInstant`, so that the day holds every instant after its start.
  package static func endOfDay(_ day: CalendarDate, in timeZone: any UTCOffsetProvider) -> Date {
    let next = day.adding(days: 1)
    guard next != day else { return Date(timeIntervalSince1970: Double(JSONCoding.latestSecond + 1)) }
    return startOfDay(next, in: timeZone)
  }

  /// `instant` as local wall-clock text: `2026-03-29 14:30` (24-hour clock, no seconds). A
  /// wall-clock time that the zone shows twice (the hour repeated when the clocks fall back)
  /// carries its UTC offset, so that the two read differently: `2026-11-01 01:30 -04:00` and
  /// `2026-11-01 01:30 -05:00` in New York.
  package static func text(_ instant: Date, in timeZone: any UTCOffsetProvider) -> String {
    let seconds = Int64(instant.timeIntervalSince1970.rounded(.down))
    let offset = Int64(timeZone.secondsFromGMT(for: instant))
    let local = seconds + offset
    let days = floorDivide(local, 86_400)
    let clock = local - days * 86_400
    // Written as bytes: `time log` makes two of these per session.
    var bytes: [UInt8] = []
    bytes.reserveCapacity(24)
    appendDay(days, to: &bytes)
    bytes.append(UInt8(ascii: " "))
    appendTwoDigits(clock / 3600, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
    appendTwoDigits(clock % 3600 / 60, to: &bytes)
    if isRepeated(instant, offset: offset, in: timeZone) {
      let magnitude = abs(offset)
      bytes.append(UInt8(ascii: " "))
      bytes.append(UInt8(ascii: offset < 0 ? "-" : "+"))
      appendTwoDigits(magnitude / 3600, to: &bytes)
      bytes.append(UInt8(ascii: ":"))
      appendTwoDigits(magnitude % 3600 / 60, to: &bytes)
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends `dayText(days)` to `bytes`.
  private static func appendDay(_ days: Int64, to bytes: inout [UInt8]) {
    let (year, month, day) = CalendarDate.civil(fromDays: days)
    // Years 0...99999: an instant yarn stores is in the local years 0 to 10000.
    let shown = min(max(0, year), 99_999)
    if shown >= 10_000 { bytes.append(UInt8(ascii: "0") + UInt8(shown / 10_000)) }
    appendTwoDigits(shown / 100, to: &bytes)
    appendTwoDigits(shown % 100, to: &bytes)
    bytes.append(UInt8(ascii: "-"))
    appendTwoDigits(month, to: &bytes)
    bytes.append(UInt8(ascii: "-"))
    appendTwoDigits(day, to: &bytes)
  }

  /// Appends `value` (0...99) as two digits.
  private static func appendTwoDigits(_ value: Int64, to bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "0") + UInt8(value / 10 % 10))
    bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
  }

  /// The number of Characters of `text(instant, in:)`, found without making the text (to
  /// measure a table's column): 16 (`2026-03-29 14:30`), one more for a five-digit year,
  /// and 7 more for a wall-clock time shown twice (` -04:00`).
  package static func textCount(_ instant: Date, in timeZone: any UTCOffsetProvider) -> Int {
    let seconds = Int64(instant.timeIntervalSince1970.rounded(.down))
    let offset = Int64(timeZone.secondsFromGMT(for: instant))
    let year = CalendarDate.civil(fromDays: floorDivide(seconds + offset, 86_400)).year
    return max(4, String(year).count) + 12 + (isRepeated(instant, offset: offset, in: timeZone) ? 7 : 0)
  }

  /// Whether the local wall-clock time of `instant` occurs twice in `timeZone`: it falls in
  /// the hour (or half hour) that repeats when the clocks go back. Found from the offsets in
  /// force a day before and a day after (one change at most in between, as in every zone of
  /// the tz database): the other offset's instant with the same wall time must exist.
  static func isRepeated(_ instant: Date, in timeZone: any UTCOffsetProvider) -> Bool {
    isRepeated(instant, offset: Int64(timeZone.secondsFromGMT(for: instant)), in: timeZone)
  }

  /// `isRepeated(_:in:)` given the offset in force at `instant`, already looked up.
  private static func isRepeated(_ instant: Date, offset: Int64, in timeZone: any UTCOffsetProvider) -> Bool {
    let seconds = Int64(instant.timeIntervalSince1970.rounded(.down))
    for probe in [seconds - 86_400, seconds + 86_400] {
      let other = Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(probe))))
      guard other != offset else { continue }
      // The instant that shows the same wall-clock time under the other offset.
      let twin = seconds + offset - other
      if Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(twin)))) == other {
        return true
      }
    }
    return false
  }

  /// `instant` in ISO 8601 with the zone's offset in force then: `2026-03-29T16:30:00+02:00`.
  package static func iso8601(_ instant: Date, in timeZone: any UTCOffsetProvider) -> String {
    let seconds = Int64(instant.timeIntervalSince1970.rounded(.down))
    let offset = Int64(timeZone.secondsFromGMT(for: instant))
    let local = seconds + offset
    let days = floorDivide(local, 86_400)
    let clock = local - days * 86_400
    let sign = offset < 0 ? "-" : "+"
    let magnitude = abs(offset)
    return dayText(days) + "T" + twoDigits(clock / 3600) + ":" + twoDigits(clock % 3600 / 60) + ":"
      + twoDigits(clock % 60) + sign + twoDigits(magnitude / 3600) + ":" + twoDigits(magnitude % 3600 / 60)
  }

  /// `YYYY-MM-DD` for the day `days` after 1970-01-01, also outside the years 1...9999 that a
  /// `CalendarDate` holds: the local day of an instant near either end of the instants yarn
  /// stores may be 0000-12-31 or 10000-01-01.
  static func dayText(_ days: Int64) -> String {
    let (year, month, day) = CalendarDate.civil(fromDays: days)
    let y = String(year)
    return String(repeating: "0", count: max(0, 4 - y.count)) + y + "-" + twoDigits(month) + "-"
      + twoDigits(day)
  }

  static func twoDigits(_ value: Int64) -> String {
    value < 10 ? "0\(value)" : "\(value)"
  }

  static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
    let quotient = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
  }
}

/// An ISO 8601 week (ISO 8601-1:2019 §5.2.4.1): weeks begin on Monday, and week 1 of a year
/// is the week holding its first Thursday, so a week belongs to the year of its Thursday.
package struct ISOWeek: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The ISO week-numbering year (for 2027-01-01, a Friday, it is 2026).
  package let year: Int
  /// The week, 1...53.
  package let week: Int

  /// The week that holds `day`.
  package init(containing day: CalendarDate) {
    let days = day.daysSince1970
    let thursday = days - Int64(day.isoWeekday - 1) + 3
    let thursdayDate = CalendarDate(daysSince1970: thursday) ?? day
    let januaryFirst = CalendarDate(year: thursdayDate.year, month: 1, day: 1) ?? thursdayDate
    year = thursdayDate.year
    week = Int((thursday - januaryFirst.daysSince1970) / 7) + 1
  }

  /// `2026-W23`; the year has four digits (`0001-W01`), so that labels sort as text.
  package var description: String {
    let y = String(year)
    return String(repeating: "0", count: max(0, 4 - y.count)) + y + "-W\(week < 10 ? "0" : "")\(week)"
  }

  package static func < (lhs: ISOWeek, rhs: ISOWeek) -> Bool {
    (lhs.year, lhs.week) < (rhs.year, rhs.week)
  }
}

extension CalendarDate {
  /// 0001-01-01, the first day a `CalendarDate` holds.
  static let first = CalendarDate(uncheckedYear: 1, month: 1, day: 1)
  /// 9999-12-31, the last day a `CalendarDate` holds.
  static let last = CalendarDate(uncheckedYear: 9999, month: 12, day: 31)

  /// The day `days` after 1970-01-01 (before it when negative), by the proleptic Gregorian
  /// calendar (H. Hinnant's civil-from-days algorithm); `nil` outside the years 1...9999.
  init?(daysSince1970 days: Int64) {
    let (year, month, day) = CalendarDate.civil(fromDays: days)
    guard year >= 1, year <= 9999 else { return nil }
    self.init(year: Int(year), month: Int(month), day: Int(day))
  }

  /// Year, month and day of the day `days` after 1970-01-01, unbounded (H. Hinnant's
  /// civil-from-days algorithm).
  static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    return (year, month, day)
  }

  /// The ISO 8601 day of the week: 1 Monday … 7 Sunday.
  var isoWeekday: Int {
    // 1970-01-01 was a Thursday (4).
    let fromMonday = (daysSince1970 + 3) % 7
    return Int(fromMonday < 0 ? fromMonday + 7 : fromMonday) + 1
  }

  /// `2026-06`: the year and month.
  package var yearMonth: String {
    let y = String(year)
    return String(repeating: "0", count: max(0, 4 - y.count)) + y + "-" + (month < 10 ? "0" : "")
      + String(month)
  }

  /// A date from numbers already known to name a real day.
  private init(uncheckedYear year: Int, month: Int, day: Int) {
    self.year = year
    self.month = month
    self.day = day
  }
}

/// A calendar period around a day, named by `--today`, `--week`, `--month` and `--year` of
/// `yarn time log`, `yarn time report`: the local day, its ISO 8601 week (Monday through
/// Sunday, ISO 8601-1:2019 §5.2.4.1), its month or its year.
package enum CalendarPeriod: String, CaseIterable, Sendable {
  case today, week, month, year

  /// The first and last local day of the period holding `day` (both included): for
  /// 2026-12-02, a Wednesday, the week is 2026-11-30 through 2026-12-06, the month
  /// 2026-12-01 through 2026-12-31, the year 2026-01-01 through 2026-12-31. Clamped to the
  /// days a `CalendarDate` holds.
  package func days(containing day: CalendarDate) -> (first: CalendarDate, last: CalendarDate) {
    switch self {
    case .today:
      return (day, day)
    case .week:
      let monday = day.adding(days: 1 - day.isoWeekday)
      return (monday, monday.adding(days: 6))
    case .month:
      let first = CalendarDate(year: day.year, month: day.month, day: 1) ?? day
      let next =
        day.month == 12
        ? CalendarDate(year: day.year + 1, month: 1, day: 1)
        : CalendarDate(year: day.year, month: day.month + 1, day: 1)
      return (first, next.map { $0.adding(days: -1) } ?? CalendarDate.last)
    case .year:
      return (
        CalendarDate(year: day.year, month: 1, day: 1) ?? day,
        CalendarDate(year: day.year, month: 12, day: 31) ?? day
      )
    }
  }
}
