import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel

/// `--today`, `--week`, `--month`, `--year` and `time report --chart` (issue 15, item 5).
/// Days and ISO 8601 weeks are worked out by hand from a calendar: 2026-01-01 is a Thursday,
/// so week 1 of 2026 begins on Monday 2025-12-29.
@Suite struct CalendarPeriodChartTests {
  func day(_ text: String) throws -> CalendarDate { try #require(CalendarDate(iso8601: text)) }
  func days(_ period: CalendarPeriod, _ text: String) throws -> [String] {
    let span = period.days(containing: try day(text))
    return [span.first.iso8601, span.last.iso8601]
  }

  @Test func periodsAroundAWednesday() throws {
    // 2026-12-02 is a Wednesday.
    #expect(try days(.today, "2026-12-02") == ["2026-12-02", "2026-12-02"])
    #expect(try days(.week, "2026-12-02") == ["2026-11-30", "2026-12-06"])
    #expect(try days(.month, "2026-12-02") == ["2026-12-01", "2026-12-31"])
    #expect(try days(.year, "2026-12-02") == ["2026-01-01", "2026-12-31"])
  }

  @Test func weeksRunMondayThroughSunday() throws {
    #expect(try days(.week, "2026-11-30") == ["2026-11-30", "2026-12-06"])  // a Monday
    #expect(try days(.week, "2026-12-06") == ["2026-11-30", "2026-12-06"])  // a Sunday
    // Across the year: 2027-01-01, a Friday, is in 2026-W53 (its Thursday is 2026-12-31).
    #expect(try days(.week, "2027-01-01") == ["2026-12-28", "2027-01-03"])
    #expect(ISOWeek(containing: try day("2027-01-01")).description == "2026-W53")
  }

  @Test func monthsEndOnTheirLastDay() throws {
    #expect(try days(.month, "2028-02-10") == ["2028-02-01", "2028-02-29"])  // a leap year
    #expect(try days(.month, "2027-02-10") == ["2027-02-01", "2027-02-28"])
    #expect(try days(.month, "2026-04-30") == ["2026-04-01", "2026-04-30"])
  }

  let utc = TimeZone(identifier: "UTC") ?? .current
  let now = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15T08:00:00Z

  func session(_ start: String, seconds: Int64) throws -> TimeSession {
    let begin = try #require(JSONCoding.parseInstant(start))
    return TimeSession(
      id: UUID().uuidString.lowercased(), projectID: "p", start: begin,
      end: begin.addingTimeInterval(TimeInterval(seconds)))
  }

  /// 2h 15m on Monday 2026-11-30, 45m on Wednesday, 1h 7m 30s on Thursday, none else.
  func weekReport() throws -> TimeReport {
    TimeReport(
      sessions: [
        try session("2026-11-30T10:00:00Z", seconds: 8_100),
        try session("2026-12-02T10:00:00Z", seconds: 2_700),
        try session("2026-12-03T10:00:00Z", seconds: 4_050),
      ], projectNames: [:], grouping: .day, timeZone: utc, now: now)
  }

  @Test func aBarPerDayOfTheWeek() throws {
    let chart = TimeChart(days: try weekReport(), first: try day("2026-11-30"), last: try day("2026-12-06"))
    #expect(!chart.byWeek)
    #expect(
      chart.bars.map(\.label) == [
        "2026-11-30", "2026-12-01", "2026-12-02", "2026-12-03", "2026-12-04", "2026-12-05", "2026-12-06",
      ])
    #expect(chart.bars.map(\.seconds) == [8_100, 0, 2_700, 4_050, 0, 0, 0])
    // Longest 40: 8100 → 40; 2700 × 40 / 8100 = 13.3 → 13; 4050 × 40 / 8100 = 20.
    #expect(chart.lengths(width: 40) == [40, 0, 13, 20, 0, 0, 0])
    // Longest 41: 2700 → 13.67 → 14; 4050 → 20.5 → 21 (halves up).
    #expect(chart.lengths(width: 41) == [41, 0, 14, 21, 0, 0, 0])
    // Any time shows: 60 s of 8100 at 40 is 0.3, drawn as 1.
    let small = TimeReport(
      sessions: [
        try session("2026-11-30T10:00:00Z", seconds: 8_100), try session("2026-12-01T10:00:00Z", seconds: 60),
      ],
      projectNames: [:], grouping: .day, timeZone: utc, now: now)
    #expect(TimeChart(days: small).lengths(width: 40) == [40, 1])
  }

  /// Without bounds the chart runs from the first to the last day with time.
  @Test func unboundedChartsSpanTheDaysWithTime() throws {
    let chart = TimeChart(days: try weekReport())
    #expect(chart.bars.map(\.label) == ["2026-11-30", "2026-12-01", "2026-12-02", "2026-12-03"])
  }

  /// 2026-11-01 through 2026-12-06 are 36 days, more than 31: a bar per ISO week, from
  /// 2026-W44 (2026-10-26 to 2026-11-01) through 2026-W49 (2026-11-30 to 2026-12-06).
  @Test func moreThanThirtyOneDaysChartWeeks() throws {
    let report = TimeReport(
      sessions: [
        try session("2026-11-01T10:00:00Z", seconds: 3_600),
        try session("2026-11-30T10:00:00Z", seconds: 8_100),
        try session("2026-12-02T10:00:00Z", seconds: 2_700),
        try session("2026-12-03T10:00:00Z", seconds: 4_050),
      ], projectNames: [:], grouping: .day, timeZone: utc, now: now)
    let chart = TimeChart(days: report, first: try day("2026-11-01"), last: try day("2026-12-06"))
    #expect(chart.byWeek)
    #expect(
      chart.bars.map(\.label) == ["2026-W44", "2026-W45", "2026-W46", "2026-W47", "2026-W48", "2026-W49"])
    #expect(chart.bars.map(\.seconds) == [3_600, 0, 0, 0, 0, 14_850])
    // 3600 × 20 / 14850 = 4.85 → 5.
    #expect(chart.lengths(width: 20) == [5, 0, 0, 0, 0, 20])
    // 31 days are still charted by day.
    #expect(!TimeChart(days: report, first: try day("2026-11-06"), last: try day("2026-12-06")).byWeek)
  }
}
