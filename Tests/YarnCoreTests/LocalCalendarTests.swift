import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

/// Zone facts used (IANA tz database, 2026): America/New_York springs forward 2026-03-08
/// 02:00 EST → 03:00 EDT (07:00Z) and falls back 2026-11-01 02:00 EDT → 01:00 EST (06:00Z);
/// Europe/Berlin springs forward 2026-03-29 02:00 CET → 03:00 CEST (01:00Z) and falls back
/// 2026-10-25 03:00 CEST → 02:00 CET (01:00Z); America/Santiago springs forward at midnight,
/// 2026-09-06 00:00 −04 → 01:00 −03 (04:00Z).
@Suite struct LocalCalendarTests {
  let newYork = TimeZone(identifier: "America/New_York") ?? .current
  let berlin = TimeZone(identifier: "Europe/Berlin") ?? .current
  let santiago = TimeZone(identifier: "America/Santiago") ?? .current

  func day(_ text: String) throws -> CalendarDate { try #require(CalendarDate(iso8601: text)) }
  func at(_ text: String) throws -> Date { try #require(JSONCoding.parseInstant(text)) }
  func utc(_ date: Date) -> String { JSONCoding.formatInstant(date) }

  @Test func daysFromNumbers() throws {
    #expect(CalendarDate(daysSince1970: 0) == CalendarDate(year: 1970, month: 1, day: 1))
    #expect(CalendarDate(daysSince1970: -1) == CalendarDate(year: 1969, month: 12, day: 31))
    // 2000-03-01: 30 years of 365 days + 7 leap days (72 … 96) + 31 + 29 = 11,017.
    #expect(CalendarDate(daysSince1970: 11_017) == CalendarDate(year: 2000, month: 3, day: 1))
    #expect(try day("2024-02-28").adding(days: 1) == (try day("2024-02-29")))
    #expect(try day("2026-12-31").adding(days: 1) == (try day("2027-01-01")))
    #expect(try day("2026-03-01").adding(days: -1) == (try day("2026-02-28")))
    #expect(CalendarDate(daysSince1970: -800_000) == nil)  // before year 1
  }

  @Test func weekdaysAndISOWeeks() throws {
    #expect(try day("1970-01-01").isoWeekday == 4)  // a Thursday
    #expect(try day("2026-06-01").isoWeekday == 1)  // a Monday
    #expect(try day("2026-05-31").isoWeekday == 7)
    // 2026-01-01 is a Thursday, so week 1 is 2025-12-29 … 2026-01-04.
    #expect(ISOWeek(containing: try day("2025-12-29")).description == "2026-W01")
    #expect(ISOWeek(containing: try day("2026-01-04")).description == "2026-W01")
    #expect(ISOWeek(containing: try day("2026-01-05")).description == "2026-W02")
    // 2026-06-01: the Thursday of its week is June 4, day 155 of the year; (155 − 1) / 7 + 1 = 23.
    #expect(ISOWeek(containing: try day("2026-06-01")).description == "2026-W23")
    #expect(ISOWeek(containing: try day("2026-05-31")).description == "2026-W22")
    // 2026 has 53 weeks (it begins on a Thursday): 2027-01-01, a Friday, is in 2026-W53.
    #expect(ISOWeek(containing: try day("2026-12-31")).description == "2026-W53")
    #expect(ISOWeek(containing: try day("2027-01-01")).description == "2026-W53")
    #expect(ISOWeek(containing: try day("2027-01-04")).description == "2027-W01")
    #expect(try day("2026-06-15").yearMonth == "2026-06")
  }

  @Test func localDayOfAnInstant() throws {
    // 2026-02-15T04:30Z is 23:30 EST on the 14th, 05:30 CET on the 15th.
    #expect(
      LocalCalendar.day(containing: try at("2026-02-15T04:30:00Z"), in: newYork) == (try day("2026-02-14")))
    #expect(
      LocalCalendar.day(containing: try at("2026-02-15T04:30:00Z"), in: berlin) == (try day("2026-02-15")))
    // One second before and at New York's midnight (05:00Z in winter).
    #expect(
      LocalCalendar.day(containing: try at("2026-02-15T04:59:59Z"), in: newYork) == (try day("2026-02-14")))
    #expect(
      LocalCalendar.day(containing: try at("2026-02-15T05:00:00Z"), in: newYork) == (try day("2026-02-15")))
  }

  @Test func startsOfDays() throws {
    // Midnight EST is 05:00Z, EDT 04:00Z, CET 23:00Z the day before, CEST 22:00Z.
    let expected: [(String, TimeZone, String)] = [
      ("2026-03-08", newYork, "2026-03-08T05:00:00Z"), ("2026-03-09", newYork, "2026-03-09T04:00:00Z"),
      ("2026-11-01", newYork, "2026-11-01T04:00:00Z"), ("2026-11-02", newYork, "2026-11-02T05:00:00Z"),
      ("2026-03-29", berlin, "2026-03-28T23:00:00Z"), ("2026-03-30", berlin, "2026-03-29T22:00:00Z"),
    ]
    for (text, zone, start) in expected {
      #expect(utc(LocalCalendar.startOfDay(try day(text), in: zone)) == start)
    }
    // The first day holds every instant `day(containing:)` gives it: 0001-01-01T00:00:00Z is
    // 0000-12-31 in New York (LMT, −4:56:02), clamped to 0001-01-01, so in every zone that
    // day starts at the earliest instant (and 0001-01-02 at its local midnight, 04:56:02Z).
    for zone in [newYork, berlin, TimeZone(identifier: "Pacific/Kiritimati")!] {
      #expect(utc(LocalCalendar.startOfDay(try day("0001-01-01"), in: zone)) == "0001-01-01T00:00:00Z")
      #expect(
        LocalCalendar.day(containing: try at("0001-01-01T00:00:00Z"), in: zone) == (try day("0001-01-01")))
    }
    #expect(utc(LocalCalendar.startOfDay(try day("0001-01-02"), in: newYork)) == "0001-01-02T04:56:02Z")
    // Santiago skips midnight: 2026-09-06 begins at 01:00 −03, which is 04:00Z.
    #expect(utc(LocalCalendar.startOfDay(try day("2026-09-06"), in: santiago)) == "2026-09-06T04:00:00Z")
    #expect(utc(LocalCalendar.startOfDay(try day("2026-09-05"), in: santiago)) == "2026-09-05T04:00:00Z")
    #expect(
      LocalCalendar.day(containing: try at("2026-09-06T04:00:00Z"), in: santiago) == (try day("2026-09-06")))
    #expect(
      LocalCalendar.day(containing: try at("2026-09-06T03:59:59Z"), in: santiago) == (try day("2026-09-05")))
  }

  @Test func wallClockText() throws {
    // 07:00Z on 2026-03-08 is the first instant of EDT: 03:00; one second earlier, 01:59:59 EST.
    #expect(LocalCalendar.text(try at("2026-03-08T07:00:00Z"), in: newYork) == "2026-03-08 03:00")
    #expect(LocalCalendar.text(try at("2026-03-08T06:59:59Z"), in: newYork) == "2026-03-08 01:59")
    // The two 01:30s of 2026-11-01 in New York: 05:30Z (EDT) and 06:30Z (EST).
    #expect(LocalCalendar.iso8601(try at("2026-11-01T05:30:00Z"), in: newYork) == "2026-11-01T01:30:00-04:00")
    #expect(LocalCalendar.iso8601(try at("2026-11-01T06:30:00Z"), in: newYork) == "2026-11-01T01:30:00-05:00")
    #expect(LocalCalendar.iso8601(try at("2026-03-29T14:30:00Z"), in: berlin) == "2026-03-29T16:30:00+02:00")
    #expect(LocalCalendar.text(try at("1969-12-31T23:59:00Z"), in: berlin) == "1970-01-01 00:59")
  }

  @Test func aWallClockTimeShownTwiceCarriesItsOffset() throws {
    // New York's repeated hour on 2026-11-01 is 01:00–01:59, first EDT (05:00Z–05:59Z), then
    // EST (06:00Z–06:59Z).
    #expect(LocalCalendar.text(try at("2026-11-01T05:30:00Z"), in: newYork) == "2026-11-01 01:30 -04:00")
    #expect(LocalCalendar.text(try at("2026-11-01T06:30:00Z"), in: newYork) == "2026-11-01 01:30 -05:00")
    #expect(LocalCalendar.text(try at("2026-11-01T04:59:00Z"), in: newYork) == "2026-11-01 00:59")
    #expect(LocalCalendar.text(try at("2026-11-01T07:00:00Z"), in: newYork) == "2026-11-01 02:00")
    // Berlin repeats 02:00–02:59 on 2026-10-25: 00:00Z–00:59Z (CEST), 01:00Z–01:59Z (CET).
    #expect(LocalCalendar.text(try at("2026-10-25T00:15:00Z"), in: berlin) == "2026-10-25 02:15 +02:00")
    #expect(LocalCalendar.text(try at("2026-10-25T01:15:00Z"), in: berlin) == "2026-10-25 02:15 +01:00")
    #expect(LocalCalendar.text(try at("2026-10-25T02:00:00Z"), in: berlin) == "2026-10-25 03:00")
    // A spring-forward night repeats nothing: 03:30 EDT on 2026-03-08 is shown plainly.
    #expect(!LocalCalendar.isRepeated(try at("2026-03-08T07:30:00Z"), in: newYork))
    #expect(!LocalCalendar.isRepeated(try at("2026-03-08T06:30:00Z"), in: newYork))
    #expect(!LocalCalendar.isRepeated(try at("2026-06-01T12:00:00Z"), in: newYork))
  }
}

@Suite struct SystemTimeZoneTests {
  /// The C library's zone of this process and Foundation's agree at the instants of the 2026 DST
  /// changes of New York (07:00Z, 06:00Z) and Berlin (01:00Z) and a second before, in any zone.
  @Test func agreesWithFoundationsCurrentZone() {
    let instants = [
      1_772_953_199, 1_772_953_200, 1_793_512_799, 1_793_512_800, 1_774_745_999, 1_774_746_000, 1_792_889_999,
      1_792_890_000, 0, 2_000_000_000,
    ]
    for seconds in instants {
      let date = Date(timeIntervalSince1970: TimeInterval(seconds))
      #expect(SystemTimeZone().secondsFromGMT(for: date) == TimeZone.current.secondsFromGMT(for: date))
    }
  }
}
