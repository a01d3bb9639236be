import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

/// Reports split at local midnight across the 2026 DST changes (zone facts in
/// LocalCalendarTests). Every expected figure is worked out by hand in the comments.
@Suite struct TimeReportTests {
  let newYork = TimeZone(identifier: "America/New_York") ?? .current
  let berlin = TimeZone(identifier: "Europe/Berlin") ?? .current
  let now = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15T08:00:00Z, after them all

  func at(_ text: String) throws -> Date { try #require(JSONCoding.parseInstant(text)) }
  func local(_ text: String, _ zone: TimeZone) throws -> Date {
    try TimeInput.instant(text, now: now, timeZone: zone)
  }
  func session(_ start: Date, _ end: Date?, project: String = "p") -> TimeSession {
    TimeSession(id: UUID().uuidString.lowercased(), projectID: project, start: start, end: end)
  }
  func rows(_ report: TimeReport) -> [String: Int64] {
    Dictionary(report.rows.map { ($0.key, $0.seconds) }, uniquingKeysWith: +)
  }

  @Test func durationsComeFromInstantsAcrossDST() throws {
    // New York, spring: 01:30 EST (06:30Z) to 03:30 EDT (07:30Z) is 1 h.
    let spring = session(try local("2026-03-08 01:30", newYork), try local("2026-03-08 03:30", newYork))
    #expect(spring.seconds() == 3_600)
    // New York, fall: 01:30 EDT, the first one (05:30Z), to 03:30 EST (08:30Z) is 3 h.
    let fall = session(try local("2026-11-01 01:30", newYork), try local("2026-11-01 03:30", newYork))
    #expect(fall.seconds() == 10_800)
    // Berlin, spring: 01:30 CET (00:30Z) to 03:30 CEST (01:30Z) is 1 h.
    let berlinSpring = session(try local("2026-03-29 01:30", berlin), try local("2026-03-29 03:30", berlin))
    #expect(berlinSpring.seconds() == 3_600)
    // Berlin, fall: 01:30 CEST (2026-10-24T23:30Z) to 03:30 CET (02:30Z) is 3 h.
    let berlinFall = session(try local("2026-10-25 01:30", berlin), try local("2026-10-25 03:30", berlin))
    #expect(berlinFall.seconds() == 10_800)
  }

  @Test func newYorkDSTNightsSplitAtLocalMidnight() throws {
    // Spring: 2026-03-07 23:00 EST (03-08T04:00Z) to 03-08 04:00 EDT (08:00Z), 4 h in all:
    // 1 h before midnight (05:00Z), then 05:00Z–08:00Z = 3 h on the short day.
    let spring = session(try local("2026-03-07 23:00", newYork), try local("2026-03-08 04:00", newYork))
    // Fall: 2026-10-31 22:00 EDT (11-01T02:00Z) to 11-01 03:00 EST (08:00Z), 6 h in all:
    // 2 h before midnight (04:00Z), then 04:00Z–08:00Z = 4 h on the long day.
    let fall = session(try local("2026-10-31 22:00", newYork), try local("2026-11-01 03:00", newYork))
    let report = TimeReport(
      sessions: [spring, fall], projectNames: [:], grouping: .day, timeZone: newYork, now: now)
    #expect(report.rows.map(\.key) == ["2026-03-07", "2026-03-08", "2026-10-31", "2026-11-01"])
    #expect(report.rows.map(\.seconds) == [3_600, 10_800, 7_200, 14_400])
    #expect(report.totalSeconds == spring.seconds() + fall.seconds())
    #expect(report.totalSeconds == 36_000)  // 4 h + 6 h
  }

  @Test func berlinDSTNightsSplitAtLocalMidnight() throws {
    // Spring: 2026-03-28 23:30 CET (22:30Z) to 03-29 03:30 CEST (01:30Z), 3 h: 30 min before
    // midnight (23:00Z), then 23:00Z–01:30Z = 2 h 30 min.
    let spring = session(try local("2026-03-28 23:30", berlin), try local("2026-03-29 03:30", berlin))
    // Fall: 2026-10-24 23:00 CEST (21:00Z) to 10-25 03:00 CET (02:00Z), 5 h: 1 h before
    // midnight (22:00Z), then 22:00Z–02:00Z = 4 h.
    let fall = session(try local("2026-10-24 23:00", berlin), try local("2026-10-25 03:00", berlin))
    let report = TimeReport(
      sessions: [fall, spring], projectNames: [:], grouping: .day, timeZone: berlin, now: now)
    #expect(
      rows(report) == ["2026-03-28": 1_800, "2026-03-29": 9_000, "2026-10-24": 3_600, "2026-10-25": 14_400])
    #expect(report.rows.map(\.key) == ["2026-03-28", "2026-03-29", "2026-10-24", "2026-10-25"])
  }

  @Test func weeksAndMonthsCountEachPartInItsDay() throws {
    // 2026-05-31 (a Sunday, 2026-W22) 23:00 EDT to 06-01 (Monday, W23) 01:00 EDT: 1 h each side.
    let across = session(try local("2026-05-31 23:00", newYork), try local("2026-06-01 01:00", newYork))
    // 2026-06-03 10:00–12:30 EDT: 2 h 30 min in W23 and June.
    let june = session(try local("2026-06-03 10:00", newYork), try local("2026-06-03 12:30", newYork))
    let weeks = TimeReport(
      sessions: [across, june], projectNames: [:], grouping: .week, timeZone: newYork, now: now)
    #expect(weeks.rows.map(\.key) == ["2026-W22", "2026-W23"])
    #expect(weeks.rows.map(\.seconds) == [3_600, 3_600 + 9_000])
    let months = TimeReport(
      sessions: [across, june], projectNames: [:], grouping: .month, timeZone: newYork, now: now)
    #expect(months.rows.map(\.key) == ["2026-05", "2026-06"])
    #expect(months.rows.map(\.seconds) == [3_600, 12_600])
    // The same instants in Berlin (UTC+2 in summer): 05:00Z–07:00Z on June 1 and
    // 14:00Z–16:30Z on June 3 are all June, all W23.
    let inBerlin = TimeReport(
      sessions: [across, june], projectNames: [:], grouping: .month, timeZone: berlin, now: now)
    #expect(inBerlin.rows.map(\.key) == ["2026-06"])
    #expect(inBerlin.rows.map(\.seconds) == [16_200])
  }

  @Test func rangeCountsOnlyTheTimeInside() throws {
    // 2026-02-14 22:40 EST to 02-15 00:35 EST: 1 h 20 min on the 14th, 35 min on the 15th.
    let valentine = session(try local("2026-02-14 22:40", newYork), try local("2026-02-15 00:35", newYork))
    let bounds = LocalCalendar.interval(
      from: try #require(CalendarDate(iso8601: "2026-02-15")),
      through: try #require(CalendarDate(iso8601: "2026-02-15")),
      in: newYork)
    let report = TimeReport(
      sessions: [valentine], projectNames: ["p": "Blanket"], grouping: .project,
      range: (bounds.start, bounds.end),
      timeZone: newYork, now: now)
    #expect(report.rows == [TimeReport.Row(key: "Blanket", projectID: "p", seconds: 2_100)])
    let before = TimeReport(
      sessions: [valentine], projectNames: [:], grouping: .day, range: (nil, bounds.start), timeZone: newYork,
      now: now)
    #expect(before.rows.map(\.seconds) == [4_800])
  }

  @Test func projectsMostTimeFirstAndRunningCountsUntilNow() throws {
    let a = session(try at("2026-06-01T10:00:00Z"), try at("2026-06-01T11:00:00Z"), project: "a")
    let b = session(try at("2026-06-02T10:00:00Z"), try at("2026-06-02T12:00:00Z"), project: "b")
    let c = session(try at("2026-06-03T10:00:00Z"), try at("2026-06-03T11:00:00Z"), project: "c")
    // Running since 07:00Z on 2027-01-15, one hour before `now`.
    let running = session(try at("2027-01-15T07:00:00Z"), nil, project: "a")
    let report = TimeReport(
      sessions: [a, b, c, running], projectNames: ["a": "Zed", "b": "Hat", "c": "Alpha"], grouping: .project,
      timeZone: newYork, now: now)
    // Zed 1 h + 1 h running = 2 h, Hat 2 h (tie: by name, Hat before Zed), Alpha 1 h.
    #expect(report.rows.map(\.key) == ["Hat", "Zed", "Alpha"])
    #expect(report.rows.map(\.seconds) == [7_200, 7_200, 3_600])
  }

  @Test func aSessionOverSeveralDaysCountsInEach() throws {
    // 2026-06-01 12:00 EDT to 06-03 12:00 EDT: 12 h, 24 h, 12 h.
    let long = session(try local("2026-06-01 12:00", newYork), try local("2026-06-03 12:00", newYork))
    let report = TimeReport(sessions: [long], projectNames: [:], grouping: .day, timeZone: newYork, now: now)
    #expect(report.rows.map(\.seconds) == [43_200, 86_400, 43_200])
    // Ending exactly at midnight adds no empty row for the next day.
    let toMidnight = session(try local("2026-06-05 22:00", newYork), try local("2026-06-06 00:00", newYork))
    let second = TimeReport(
      sessions: [toMidnight], projectNames: [:], grouping: .day, timeZone: newYork, now: now)
    #expect(second.rows == [TimeReport.Row(key: "2026-06-05", projectID: nil, seconds: 7_200)])
  }

  @Test func csvOfSessionsAndReports() throws {
    let done = TimeSession(
      id: "s1", projectID: "p", start: try at("2026-03-08T06:20:00Z"), end: try at("2026-03-08T07:50:00Z"))
    let running = TimeSession(id: "s2", projectID: "q", start: try at("2026-03-09T10:00:00Z"))
    let store = try LibraryStore.inMemory()
    try store.insert(Project(id: "p", name: "Socks, plain"))
    try store.insert(Project(id: "q", name: "=Hat"))
    try store.insert(done)
    try store.insert(running)
    var bytes: [UInt8] = []
    let writer = CSVWriter { bytes.append(contentsOf: $0) }
    let count = try TimeCSV.export(from: store, to: writer)
    #expect(count == 2)
    // 06:20Z–07:50Z is 5,400 s, 1:30. The running one has no end, seconds or duration; the
    // formula guard prefixes "=Hat".
    #expect(
      String(decoding: bytes, as: UTF8.self)
        == "Project,Start,End,Seconds,Duration\r\n"
        + "\"Socks, plain\",2026-03-08T06:20:00Z,2026-03-08T07:50:00Z,5400,1:30\r\n"
        + "\"'=Hat\",2026-03-09T10:00:00Z,,,\r\n")
    var reportBytes: [UInt8] = []
    let report = TimeReport(sessions: [done], projectNames: [:], grouping: .day, timeZone: newYork, now: now)
    try TimeCSV.write(
      report,
      to: CSVWriter(options: CSVOptions(delimiter: UInt8(ascii: ";"))) { reportBytes.append(contentsOf: $0) })
    // 06:20Z is 01:20 EST on March 8.
    #expect(
      String(decoding: reportBytes, as: UTF8.self) == "Period;Seconds;Duration\r\n2026-03-08;5400;1:30\r\n")
  }
}
