import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

/// DST facts used (IANA tz database): America/New_York springs forward 2026-03-08 02:00 EST →
/// 03:00 EDT and falls back 2026-11-01 02:00 EDT → 01:00 EST; Europe/Berlin springs forward
/// 2026-03-29 02:00 CET → 03:00 CEST and falls back 2026-10-25 03:00 CEST → 02:00 CET.
@Suite struct TimeInputTests {
  let newYork = TimeZone(identifier: "America/New_York") ?? .current
  let berlin = TimeZone(identifier: "Europe/Berlin") ?? .current
  /// 2026-06-15T16:45:30Z: 12:45:30 EDT in New York, 18:45:30 CEST in Berlin.
  let now = Date(timeIntervalSince1970: 1_781_541_930)

  private func utc(_ text: String, zone: TimeZone? = nil) throws -> String {
    JSONCoding.formatInstant(try TimeInput.instant(text, now: now, timeZone: zone ?? newYork))
  }

  @Test func nowCheck() {
    #expect(JSONCoding.formatInstant(now) == "2026-06-15T16:45:30Z")
  }

  @Test func localForms() throws {
    #expect(try utc("14:30") == "2026-06-15T18:30:00Z")
    #expect(try utc("9:05") == "2026-06-15T13:05:00Z")
    #expect(try utc("today 08:00:15") == "2026-06-15T12:00:15Z")
    #expect(try utc("yesterday 20:00") == "2026-06-15T00:00:00Z")
    #expect(try utc("2026-01-10 14:30") == "2026-01-10T19:30:00Z")  // EST, UTC−5
    #expect(try utc("2026-01-10T14:30") == "2026-01-10T19:30:00Z")
    #expect(try utc("14:30", zone: berlin) == "2026-06-15T12:30:00Z")
  }

  @Test func absoluteAndRelativeForms() throws {
    #expect(try utc("2026-03-29T14:30:00Z") == "2026-03-29T14:30:00Z")
    #expect(try utc("2026-03-29T16:30:00+02:00") == "2026-03-29T14:30:00Z")
    #expect(try utc("2026-03-29T16:30+02:00") == "2026-03-29T14:30:00Z")
    #expect(try utc("2026-03-29T16:30:00.750+0200") == "2026-03-29T14:30:00Z")
    #expect(try utc("2026-03-29t09:00-05:30") == "2026-03-29T14:30:00Z")
    #expect(try utc("2026-03-29T14:30z") == "2026-03-29T14:30:00Z")
    #expect(try utc("now") == "2026-06-15T16:45:30Z")
    #expect(try utc("-15m") == "2026-06-15T16:30:30Z")
    #expect(try utc("-2h") == "2026-06-15T14:45:30Z")
    #expect(try utc("-1h30m") == "2026-06-15T15:15:30Z")
  }

  @Test func springForwardGapDoesNotExist() {
    #expect(
      throws: TimeInput.ParseError(
        input: "2026-03-08 02:30", problem: .nonexistentLocalTime(zone: "America/New_York"))
    ) {
      try TimeInput.instant("2026-03-08 02:30", now: now, timeZone: newYork)
    }
    #expect(throws: TimeInput.ParseError.self) {
      try TimeInput.instant("2026-03-29 02:30", now: now, timeZone: berlin)
    }
  }

  @Test func berlinForms() throws {
    // Winter (CET, UTC+1) and summer (CEST, UTC+2) on either side of 2026-03-29.
    #expect(try utc("2026-03-28 12:00", zone: berlin) == "2026-03-28T11:00:00Z")
    #expect(try utc("2026-03-29 03:00", zone: berlin) == "2026-03-29T01:00:00Z")
    #expect(try utc("2026-03-29 01:59", zone: berlin) == "2026-03-29T00:59:00Z")
    // 02:00 and 02:59 do not exist that night; in New York 02:00–02:59 on 2026-03-08 neither.
    for text in ["2026-03-29 02:00", "2026-03-29 02:59"] {
      #expect(throws: TimeInput.ParseError.self) { try TimeInput.instant(text, now: now, timeZone: berlin) }
    }
    #expect(throws: TimeInput.ParseError.self) {
      try TimeInput.instant("2026-03-08 02:00", now: now, timeZone: newYork)
    }
    // An offset picks either 02:30 of Berlin's fall-back night.
    #expect(try utc("2026-10-25T02:30:00+01:00", zone: berlin) == "2026-10-25T01:30:00Z")
    #expect(try utc("2026-10-25T02:30+02:00", zone: berlin) == "2026-10-25T00:30:00Z")
  }

  @Test func fallBackTakesTheFirstOccurrence() throws {
    // 01:30 on 2026-11-01 happens at 05:30Z (EDT) and again at 06:30Z (EST).
    #expect(try utc("2026-11-01 01:30") == "2026-11-01T05:30:00Z")
    #expect(try utc("2026-11-01T01:30:00-05:00") == "2026-11-01T06:30:00Z")
    // 02:30 on 2026-10-25 in Berlin: 00:30Z (CEST) first, then 01:30Z (CET).
    #expect(try utc("2026-10-25 02:30", zone: berlin) == "2026-10-25T00:30:00Z")
  }

  @Test(arguments: [
    "", "25:00", "14:60", "14", "tomorrow 10:00", "2026-02-30 10:00", "-", "-5x", "yesterday", "14:30 pm",
    "2026-03-29 14:30 extra", "24:00", "10:00:60", "2026-13-01 10:00", "2026-03-29 1430", "+15m", "-0m",
    "-15", "yesterday 20", "now now", " ", "2026-03-29T25:00Z", "10:5", "-1.5h", "ten past two",
    "2026-03-29T14:30+25:00", "2026-03-29T14:30:00+0", "2026-03-29T14:30:00Zz", "2026-02-30T10:00:00Z",
    "2026-03-29T24:00:00Z", "2026-03-29T14:30:00.Z", "2026-03-29T14:30:00+02:60",
  ])
  func unreadableTimes(text: String) {
    #expect(throws: TimeInput.ParseError.self) { try TimeInput.instant(text, now: now, timeZone: newYork) }
  }

  @Test func durations() throws {
    #expect(try TimeInput.duration("1h30m") == 5400)
    #expect(try TimeInput.duration("90m") == 5400)
    #expect(try TimeInput.duration("1:30") == 5400)
    #expect(try TimeInput.duration("2h") == 7200)
    #expect(try TimeInput.duration("45s") == 45)
    #expect(try TimeInput.duration("1h5m30s") == 3930)
    // As yarn prints durations: parts apart.
    #expect(try TimeInput.duration("1h 30m") == 5400)
    #expect(try TimeInput.duration(" 2h 5m 30s ") == 7530)
    // A first part may be any size; later parts are under 60.
    #expect(try TimeInput.duration("90s") == 90)
    #expect(try TimeInput.duration("1h59m59s") == 7199)
    #expect(TimeInput.hoursAndMinutes(5400) == "1:30")
    #expect(TimeInput.hoursAndMinutes(59) == "0:00")
    #expect(TimeInput.hoursAndMinutes(36_000 + 540) == "10:09")
  }

  @Test(arguments: [
    "", "0m", "1:3", "1:60", "m30", "30m1h", "1.5h", "abc", "-1h", "1001h", "1h1h", "0:00", "1 h", "1h 3 0m",
    ":30",
    "1::30", "1000h1s", "9999999999m", "h", "1:30:00", "1d",
    // Minutes or seconds after a larger part are under 60, as `1:60` is refused (QA).
    "1h60m", "23h60m", "1m60s", "1h 5m 75s", "1h60s",
  ])
  func badDurations(text: String) {
    #expect(throws: TimeInput.ParseError.self) { try TimeInput.duration(text) }
  }

  /// QA: `1h60m` was "cannot read the duration": what is wrong is said, as for `23:60`.
  @Test func minutesOrSecondsOf60AfterALargerPartAreNamed() {
    for (text, part) in [
      ("1h60m", "minutes"), ("23:60", "minutes"), ("1m60s", "seconds"), ("1h 5m 75s", "seconds"),
    ] {
      #expect(
        throws: TimeInput.ParseError(
          input: text, problem: .partNotUnder(limit: 60, part: part, of: .duration))
      ) {
        try TimeInput.duration(text)
      }
    }
    #expect(
      TimeInput.ParseError(input: "1h60m", problem: .partNotUnder(limit: 60, part: "minutes", of: .duration))
        .description == "cannot read the duration \"1h60m\": its minutes must be under 60")
  }

  /// QA: `--at 23:60` was "cannot read the time" without why: a clock time's hours are under
  /// 24, its minutes and seconds under 60, and the part that is not is named, by the rule
  /// durations are read by.
  @Test func aClockTimesPartOutOfRangeIsNamed() {
    for (text, part, limit) in [
      ("23:60", "minutes", 60), ("9:99", "minutes", 60), ("24:00", "hours", 24), ("25:00", "hours", 24),
      ("10:00:60", "seconds", 60), ("yesterday 20:75", "minutes", 60), ("2026-03-29 24:30", "hours", 24),
      ("2026-03-29T14:60", "minutes", 60),
    ] {
      let error = #expect(throws: TimeInput.ParseError.self) {
        try TimeInput.instant(text, now: now, timeZone: newYork)
      }
      #expect(error?.description == "cannot read the time \"\(text)\": its \(part) must be under \(limit)")
    }
    // What is not a clock time at all is still unreadable, with the forms to use.
    for text in ["10:5", "14", "10:-5", "1:2:3:4", "14:6x"] {
      #expect(throws: TimeInput.ParseError(input: text, problem: .unreadableTime)) {
        try TimeInput.instant(text, now: now, timeZone: newYork)
      }
    }
  }

  /// QA: `2026-03-29T24:00:00Z`, `…+05:60`, `…+18:01` and `-1h60m` said only "cannot read the
  /// time", where `23:60` names its minutes: a part out of range is named whatever the form,
  /// by the same rule (the first part wrong, in reading order; an offset is at most 18 hours).
  @Test func anAbsoluteOrRelativeTimesPartOutOfRangeIsNamed() throws {
    for (text, why) in [
      ("2026-03-29T24:00:00Z", "its hours must be under 24"),
      ("2026-03-29T23:60:00Z", "its minutes must be under 60"),
      ("2026-03-29T23:00:60Z", "its seconds must be under 60"),
      ("2026-03-29t23:60z", "its minutes must be under 60"),
      ("2026-03-29T25:61:00+05:60", "its hours must be under 24"),
      ("2026-03-29T23:00:00+05:60", "its offset's minutes must be under 60"),
      ("2026-03-29T23:00+0575", "its offset's minutes must be under 60"),
      ("2026-03-29T23:00:00+18:01", "its offset must be at most 18 hours"),
      ("2026-03-29T23:00:00-1900", "its offset must be at most 18 hours"),
      ("-1h60m", "its minutes must be under 60"),
      ("-1h30m60s", "its seconds must be under 60"),
      ("-1:60", "its minutes must be under 60"),
    ] {
      let error = #expect(throws: TimeInput.ParseError.self, "\(text)") {
        try TimeInput.instant(text, now: now, timeZone: newYork)
      }
      #expect(error?.description == "cannot read the time \"\(text)\": \(why)")
    }
    // At the bounds, read; what has not the form at all is still unreadable.
    #expect(try utc("2026-03-29T23:59:59+18:00") == "2026-03-29T05:59:59Z")
    #expect(try utc("2026-03-29T23:59:59-17:59") == "2026-03-30T17:58:59Z")
    #expect(try utc("-1h59m59s") == "2026-06-15T14:45:31Z")
    for text in [
      "2026-03-29T24:00:00Zx", "2026-03-29T24:00:00+05:6", "-1h60x", "-60m60m",
    ] {
      #expect(throws: TimeInput.ParseError(input: text, problem: .unreadableTime)) {
        try TimeInput.instant(text, now: now, timeZone: newYork)
      }
    }
    // A document's instant (`absoluteInstant`) is still `nil`, for its own error.
    #expect(TimeInput.absoluteInstant("2026-03-29T24:00:00Z") == nil)
  }

  /// QA: `2026-02-30T10:00:00Z` said only "cannot read the time": a date that names no day
  /// says why, in every form, before any other part (`CalendarDate.impossibility(in:)`).
  @Test func anImpossibleDateSaysWhy() {
    for (text, why) in [
      ("2026-02-30T10:00:00Z", "day 30 is past the end of February 2026, which has 28 days"),
      ("2024-02-30T10:00:00+02:00", "day 30 is past the end of February 2024, which has 29 days"),
      ("2026-02-29 14:30", "day 29 is past the end of February 2026, which has 28 days"),
      ("2026-04-31t14:30", "day 31 is past the end of April 2026, which has 30 days"),
      ("2100-02-29T24:00:00Z", "day 29 is past the end of February 2100, which has 28 days"),
      ("2026-13-01T10:00:00Z", "there is no month 13; months are 01 to 12"),
      ("2026-00-10 10:00", "there is no month 00; months are 01 to 12"),
      ("2026-03-00T10:00:00Z", "there is no day 00; days are numbered from 01"),
      ("0000-12-31T23:59:59Z", "there is no year 0000; years are 0001 to 9999"),
    ] {
      let error = #expect(throws: TimeInput.ParseError.self, "\(text)") {
        try TimeInput.instant(text, now: now, timeZone: newYork)
      }
      #expect(error?.description == "cannot read the time \"\(text)\": \(why)")
    }
    // A real day is read; text not of a date's form is no time at all.
    #expect(CalendarDate.impossibility(in: "2024-02-29") == nil)
    #expect(CalendarDate.impossibility(in: "2026-02-30x") == nil)
    #expect(CalendarDate.impossibility(in: "2026-2-30") == nil)
    #expect(CalendarDate.impossibility(in: "2026-02-30") == .day(30, month: 2, year: 2026))
  }

  /// QA: `--duration 1h<U+200B>` quoted it raw in the reason; it is escaped, as the value is.
  @Test func aDurationOrTimeIsQuotedEscaped() {
    #expect(
      TimeInput.ParseError(input: "1h\u{200B}", problem: .unreadableDuration).description
        == "cannot read the duration \"1h\\u{200B}\"; use 1h30m, 90m, 45s or 1:30")
    #expect(throws: TimeInput.ParseError(input: "1h\u{200B}", problem: .unreadableDuration)) {
      try TimeInput.duration("1h\u{200B}")
    }
    #expect(
      TimeInput.ParseError(input: "14:3\u{1B}", problem: .unreadableTime).description.hasPrefix(
        "cannot read the time \"14:3\\u{1B}\"; use 14:30"))
  }

  @Test func daysSince1970() throws {
    #expect(CalendarDate(year: 1970, month: 1, day: 1)?.daysSince1970 == 0)
    #expect(CalendarDate(year: 2000, month: 3, day: 1)?.daysSince1970 == 11_017)
    #expect(CalendarDate(year: 1969, month: 12, day: 31)?.daysSince1970 == -1)
    #expect(CalendarDate(year: 2026, month: 3, day: 1)?.adding(days: -1).iso8601 == "2026-02-28")
  }
}
