#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Reads the times and durations people type at a terminal.
///
/// Local times are read in `timeZone` (the process's zone by default, so `TZ` is respected)
/// and turned into absolute instants; durations are whole seconds. The rules for local times
/// that a DST change skips or repeats follow RFC 5545 §3.3.5's reading of local time, made
/// strict: a time inside a spring-forward gap does not exist and is refused; a time that occurs
/// twice (fall-back) means its first occurrence unless an offset is written.
package enum TimeInput {
  /// Thrown when a time or a duration cannot be read; it quotes the input and says what forms
  /// are accepted.
  package struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
    package enum Problem: Hashable, Sendable {
      /// Thrown when the text is no accepted form of time.
      case unreadableTime
      /// Thrown when the text is no accepted form of duration.
      case unreadableDuration
      /// Thrown when a part (`hours`, `minutes`, `seconds`, `offset's minutes`) of a time or a
      /// duration is not under `limit` (`partUnder`): hours of 24 or more in a time (`24:00`,
      /// `2026-03-29T24:00:00Z`), minutes or seconds of 60 or more in a time (`23:60`), in
      /// its UTC offset (`+05:60`) or after a larger part of a duration (`1h60m`, `1:60`, a
      /// relative time `-1h60m`).
      case partNotUnder(limit: Int64, part: String, of: Reading)
      /// Thrown when the date of a time names no day (`2026-02-30T10:00:00Z`, `2026-13-01
      /// 14:30`): `CalendarDate.impossibility(in:)`, its first part, said before the others.
      case impossibleDate(CalendarDate.ImpossibleDate)
      /// Thrown when an absolute time's UTC offset is over `maximumOffsetHours` (`+18:01`).
      case offsetTooLarge
      /// Thrown when the local time falls in a DST gap (the clock skipped it).
      case nonexistentLocalTime(zone: String)
      /// Thrown when a duration is zero or too long (over `Rules.maximumSessionSeconds`, 24 h).
      case durationOutOfRange
      /// Thrown when the time, in UTC, falls outside the instants yarn stores and writes
      /// (`JSONCoding.earliestInstant...latestInstant`): `0001-01-01T00:00:00+18:00` is
      /// 0000-12-31T06:00:00Z.
      case timeOutOfRange
    }
    /// What the text was read as: a time (`instant`) or a duration (`duration`).
    package enum Reading: String, Hashable, Sendable {
      case time, duration
    }
    package let input: String
    package let problem: Problem

    package var description: String {
      switch problem {
      case .unreadableTime:
        return
          "cannot read the time \(LineText.quoted(input)); use 14:30, yesterday 20:00, 2026-03-29 14:30, "
          + "2026-03-29T14:30:00Z, 2026-03-29T14:30+02:00, now, or -15m / -2h"
      case .unreadableDuration:
        return "cannot read the duration \(LineText.quoted(input)); use 1h30m, 90m, 45s or 1:30"
      case .partNotUnder(let limit, let part, let reading):
        return
          "cannot read the \(reading.rawValue) \(LineText.quoted(input)): its \(part) must be under \(limit)"
      case .impossibleDate(let impossible):
        return "cannot read the time \(LineText.quoted(input)): \(impossible)"
      case .offsetTooLarge:
        return
          "cannot read the time \(LineText.quoted(input)): its offset must be at most \(maximumOffsetHours) hours"
      case .nonexistentLocalTime(let zone):
        return
          "\(LineText.quoted(input)) does not exist in \(LineText.visible(zone)): the clocks skipped it for daylight saving time"
      case .durationOutOfRange:
        return "the duration \(LineText.quoted(input)) must be more than zero and at most "
          + "\(Rules.duration(Rules.maximumSessionSeconds)), the longest a session may last"
      case .timeOutOfRange:
        return "the time \(LineText.quoted(input)) falls outside \(JSONCoding.instantRangeText) in UTC, "
          + "the instants yarn can store"
      }
    }
  }

  /// The largest UTC offset an absolute time may have, in hours: 18 (`+18:00`, `-18:00`), the
  /// bound of Foundation's `TimeZone(secondsFromGMT:)`.
  static let maximumOffsetHours = 18

  /// Reads an instant.
  ///
  /// Accepted: `now`; `-15m`, `-2h`, `-1h30m` (before `now`); `14:30` or `14:30:15` (today);
  /// `today 14:30`, `yesterday 20:00`; `2026-03-29 14:30`, `2026-03-29T14:30[:SS]` (local);
  /// ISO 8601 with `Z` or an offset, `2026-03-29T14:30:00+02:00` (absolute).
  ///
  /// - Parameters:
  ///   - text: what the user typed.
  ///   - now: the current instant (for `now`, relative times, `today` and `yesterday`).
  ///   - timeZone: the zone local times are read in.
  /// - Returns: the instant, truncated to whole seconds, within
  ///   `JSONCoding.earliestInstant...latestInstant`.
  /// - Throws: `ParseError` when the text is unreadable, names a local time that does not
  ///   exist, or names an instant outside that range (`.timeOutOfRange`: `0001-01-01 00:00` in
  ///   a zone ahead of UTC, `9999-12-31T23:59:59-18:00`, `-999999999h`). A part out of its
  ///   range is named, whatever the form (`.impossibleDate`, `.partNotUnder`,
  ///   `.offsetTooLarge`: `2026-02-30T10:00:00Z`, `23:60`, `2026-03-29T24:00:00Z`, `…+05:60`,
  ///   `…+18:01`, `-1h60m`).
  package static func instant(_ text: String, now: Date, timeZone: any UTCOffsetProvider = SystemTimeZone())
    throws(ParseError)
    -> Date
  {
    let instant = try unboundedInstant(text, now: now, timeZone: timeZone)
    guard JSONCoding.isInInstantRange(instant) else {
      throw ParseError(input: text, problem: .timeOutOfRange)
    }
    return instant
  }

  /// `instant(_:now:timeZone:)` without the range check.
  private static func unboundedInstant(_ text: String, now: Date, timeZone: any UTCOffsetProvider)
    throws(ParseError)
    -> Date
  {
    let trimmed = text.trimmingSpaces()
    let lowered = trimmed.lowercased()
    let nowSeconds = now.timeIntervalSince1970.rounded(.down)
    if lowered == "now" { return Date(timeIntervalSince1970: nowSeconds) }
    if lowered.hasPrefix("-") {
      let seconds: Int64
      do {
        seconds = try durationSeconds(String(lowered.dropFirst()), input: text, of: .time)
      } catch {
        // A part out of range is named (`-1h60m`); anything else is no time.
        guard case .partNotUnder = error.problem else {
          throw ParseError(input: text, problem: .unreadableTime)
        }
        throw error
      }
      guard seconds > 0 else { throw ParseError(input: text, problem: .unreadableTime) }
      return Date(timeIntervalSince1970: nowSeconds - Double(seconds))
    }
    if let impossible = CalendarDate.impossibility(in: trimmed) {
      throw ParseError(input: text, problem: .impossibleDate(impossible))
    }
    if let parts = try absoluteParts(trimmed, input: text) {
      return Date(timeIntervalSince1970: Double(parts.seconds))
    }

    var day: CalendarDate
    var clock: Substring
    var spaced = Array(lowered)
    // `2026-03-29t14:30`: the ISO 8601 date-time separator reads as a space.
    if spaced.count > 10, spaced[10] == "t", CalendarDate(iso8601: String(spaced[0..<10])) != nil {
      spaced[10] = " "
    }
    let parts = String(spaced).split(separator: " ")
    let today = LocalCalendar.day(containing: now, in: timeZone)
    switch parts.count {
    case 1:
      day = today
      clock = parts[0]
    case 2:
      if parts[0] == "today" {
        day = today
      } else if parts[0] == "yesterday" {
        day = today.adding(days: -1)
      } else if let date = CalendarDate(iso8601: String(parts[0])) {
        day = date
      } else {
        throw ParseError(input: text, problem: .unreadableTime)
      }
      clock = parts[1]
    default:
      throw ParseError(input: text, problem: .unreadableTime)
    }
    let (hour, minute, second) = try clockTime(clock, input: text)
    guard let instant = localInstant(day: day, hour: hour, minute: minute, second: second, in: timeZone)
    else {
      throw ParseError(input: text, problem: .nonexistentLocalTime(zone: timeZone.identifier))
    }
    return instant
  }

  /// Reads a duration: `1h30m`, `2h`, `90m`, `45s`, `1h5m30s`, or `H:MM` (`1:30`). Minutes or
  /// seconds after a larger part are under 60 (`1h60m`, like `1:60`, is unreadable).
  ///
  /// - Returns: whole seconds, more than zero and at most `Rules.maximumSessionSeconds`.
  /// - Throws: `ParseError`.
  package static func duration(_ text: String) throws(ParseError) -> Int64 {
    let seconds = try durationSeconds(text.trimmingSpaces().lowercased(), input: text, of: .duration)
    guard seconds > 0, seconds <= Rules.maximumSessionSeconds else {
      throw ParseError(input: text, problem: .durationOutOfRange)
    }
    return seconds
  }

  /// `h:mm` for a number of seconds (`1:30` for 5,400 s; `0:00` for less than a minute).
  package static func hoursAndMinutes(_ seconds: Int64) -> String {
    let minutes = max(0, seconds) / 60
    let m = minutes % 60
    return "\(minutes / 60):\(m < 10 ? "0" : "")\(m)"
  }

  /// The instant of a local wall-clock time in `timeZone`: the first occurrence when the time
  /// occurs twice, `nil` when the clocks skipped it.
  static func localInstant(
    day: CalendarDate, hour: Int, minute: Int, second: Int, in timeZone: any UTCOffsetProvider
  )
    -> Date?
  {
    // The wall time read as if it were UTC, then each offset in force near it tried.
    let wall = Double(day.daysSince1970 * 86_400 + Int64(hour * 3600 + minute * 60 + second))
    var offsets = Set<Int>()
    for probe in [wall - 86_400, wall, wall + 86_400] {
      offsets.insert(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: probe)))
    }
    let valid = offsets.map { wall - Double($0) }.filter { candidate in
      Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: candidate))) == wall - candidate
    }
    guard let first = valid.min() else { return nil }
    return Date(timeIntervalSince1970: first)
  }

  /// The seconds of the duration `text` (trimmed, lower case), in `input` read as `reading`
  /// (a duration, or a time before now: `-1h30m`).
  ///
  /// - Throws: `ParseError` for `input`: `.unreadableDuration`, or `.partNotUnder` for
  ///   minutes or seconds of 60 or more after a larger part.
  private static func durationSeconds(_ text: String, input: String, of reading: ParseError.Reading)
    throws(ParseError) -> Int64
  {
    let unreadable = ParseError(input: input, problem: .unreadableDuration)
    if text.isEmpty { throw unreadable }
    if text.contains(":") {
      let parts = text.split(separator: ":", omittingEmptySubsequences: false)
      guard parts.count == 2, let hours = Int64(parts[0]), parts[1].count == 2, let minutes = Int64(parts[1]),
        hours >= 0, hours <= 100_000, minutes >= 0
      else { throw unreadable }
      try partUnder(60, minutes, "minutes", of: reading, input: input)
      return hours * 3600 + minutes * 60
    }
    var total: Int64 = 0
    var number = ""
    var sawUnit = false
    var lastRank = 0
    for character in text {
      if character.isASCII, character.isNumber {
        number.append(character)
        continue
      }
      // Spaces between the parts, as yarn prints a duration (`1h 30m`).
      if character == " ", number.isEmpty { continue }
      let rank: Int
      let factor: Int64
      switch character {
      case "h": (rank, factor) = (1, 3600)
      case "m": (rank, factor) = (2, 60)
      case "s": (rank, factor) = (3, 1)
      default: throw unreadable
      }
      guard rank > lastRank, !number.isEmpty, number.count <= 9, let value = Int64(number) else {
        throw unreadable
      }
      // Minutes or seconds after a larger part are under 60, as in `H:MM`: `1h60m` is
      // refused as `23:60` is; a first part may be any size (`90m`).
      if lastRank > 0 {
        try partUnder(60, value, rank == 2 ? "minutes" : "seconds", of: reading, input: input)
      }
      total += value * factor
      number = ""
      sawUnit = true
      lastRank = rank
    }
    guard sawUnit, number.isEmpty else { throw unreadable }
    return total
  }

  /// The rule of a clock's parts, in a time and in a duration: `value`, the `part` (`hours`,
  /// `minutes`, `seconds`) of what `input` is read as, is under `limit` (24 hours; 60 minutes
  /// or seconds).
  ///
  /// - Throws: `ParseError` `.partNotUnder` when it is not.
  private static func partUnder(
    _ limit: Int64, _ value: Int64, _ part: String, of reading: ParseError.Reading, input: String
  ) throws(ParseError) {
    guard value < limit else {
      throw ParseError(input: input, problem: .partNotUnder(limit: limit, part: part, of: reading))
    }
  }

  /// The hour, minute and second of a clock time (`14:30`, `9:05`, `14:30:15`) in `input`.
  ///
  /// - Throws: `ParseError` `.unreadableTime`, or `.partNotUnder` for hours of 24 or more,
  ///   minutes or seconds of 60 or more (`23:60`).
  private static func clockTime(_ text: Substring, input: String) throws(ParseError) -> (Int, Int, Int) {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    let numbers = parts.compactMap { Int64($0) }
    guard parts.count == 2 || parts.count == 3, numbers.count == parts.count, numbers.allSatisfy({ $0 >= 0 }),
      parts.allSatisfy({ $0.count == 2 || ($0.count == 1 && $0 == parts[0]) })
    else { throw ParseError(input: input, problem: .unreadableTime) }
    let limits: [(part: String, limit: Int64)] = [("hours", 24), ("minutes", 60), ("seconds", 60)]
    for (value, (part, limit)) in zip(numbers, limits) {
      try partUnder(limit, value, part, of: .time, input: input)
    }
    return (Int(numbers[0]), Int(numbers[1]), numbers.count == 3 ? Int(numbers[2]) : 0)
  }

  /// ISO 8601 / RFC 3339 with a zone designator: `2026-03-29T14:30[:SS[.fff]]` then `Z`,
  /// `±HH:MM` or `±HHMM` (`T` or `t`; the fraction is dropped unless `keepingFraction`).
  /// Read strictly by hand — a real day, hours 0–23, minutes and seconds 0–59, an offset of
  /// at most 18 hours (`maximumOffsetHours`) — where ISO8601DateFormatter would accept
  /// `+25:00`; and without ICU.
  /// `nil` for anything else, and for an instant whose UTC falls outside
  /// `JSONCoding.earliestInstant...latestInstant` (whole seconds; a kept fraction never
  /// carries into the next second, so the result truncates to the second written).
  package static func absoluteInstant(_ text: String, keepingFraction: Bool = false) -> Date? {
    guard let parts = try? absoluteParts(text, input: text), parts.seconds >= JSONCoding.earliestSecond,
      parts.seconds <= JSONCoding.latestSecond
    else { return nil }
    guard keepingFraction, parts.fraction > 0 else {
      return Date(timeIntervalSince1970: Double(parts.seconds))
    }
    // Near year 9999 a double holds about 30 µs steps: `.999999999` would round up into the
    // next second, which the store would then keep.
    let value = min(Double(parts.seconds) + parts.fraction, Double(parts.seconds + 1).nextDown)
    return Date(timeIntervalSince1970: value)
  }

  /// Whether `text` is an instant `absoluteInstant` would read but for its range, such as
  /// `9999-12-31T23:59:59-18:00`. (`0000-12-31T00:00:00Z` is not one but unreadable: its day
  /// is no `CalendarDate`.)
  static func isAbsoluteInstantOutOfRange(_ text: String) -> Bool {
    guard let parts = try? absoluteParts(text, input: text) else { return false }
    return parts.seconds < JSONCoding.earliestSecond || parts.seconds > JSONCoding.latestSecond
  }

  /// The parts of an ISO 8601 / RFC 3339 instant (see `absoluteInstant`), unbounded: whole
  /// seconds from 1970-01-01T00:00:00Z, and the fraction of a second, 0 ≤ fraction < 1; `nil`
  /// for text of another form.
  ///
  /// - Throws: `ParseError` for `input` when the text has the form but a part is out of its
  ///   range (`partUnder`): the first of the hours, minutes, seconds and offset's minutes
  ///   (`.partNotUnder`), else an offset over `maximumOffsetHours` (`.offsetTooLarge`).
  private static func absoluteParts(_ text: String, input: String) throws(ParseError) -> (
    seconds: Int64, fraction: Double
  )? {
    let bytes = Array(text.utf8)
    guard bytes.count >= 17, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"),
      let day = CalendarDate(iso8601: String(decoding: bytes[0..<10], as: UTF8.self))
    else { return nil }
    func number(_ start: Int, _ count: Int) -> Int? {
      guard start + count <= bytes.count else { return nil }
      var value = 0
      for byte in bytes[start..<start + count] {
        guard byte >= 0x30, byte <= 0x39 else { return nil }
        value = value * 10 + Int(byte - 0x30)
      }
      return value
    }
    // The first part out of range, said once the whole text has the form (`…T24:00:00Zx` is
    // no time at all).
    var outOfRange: (value: Int, limit: Int64, part: String)?
    func check(_ value: Int, under limit: Int64, _ part: String) {
      if outOfRange == nil, value >= limit { outOfRange = (value, limit, part) }
    }
    guard let hour = number(11, 2), bytes[13] == UInt8(ascii: ":"), let minute = number(14, 2) else {
      return nil
    }
    check(hour, under: 24, "hours")
    check(minute, under: 60, "minutes")
    var index = 16
    var second = 0
    var fraction = 0.0
    if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
      guard let value = number(index + 1, 2) else { return nil }
      second = value
      check(second, under: 60, "seconds")
      index += 3
      if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ",") {
        index += 1
        let digitsStart = index
        // Up to nanoseconds, as a whole number over a power of ten (`250` → 250 / 1000).
        var numerator = 0
        var denominator = 1
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
          if denominator < 1_000_000_000 {
            numerator = numerator * 10 + Int(bytes[index] - 0x30)
            denominator *= 10
          }
          index += 1
        }
        fraction = Double(numerator) / Double(denominator)
        guard index > digitsStart else { return nil }
      }
    }
    guard index < bytes.count else { return nil }
    var offset = 0
    let sign = bytes[index]
    if sign == UInt8(ascii: "Z") || sign == UInt8(ascii: "z") {
      guard index + 1 == bytes.count else { return nil }
    } else if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
      let rest = bytes.count - index - 1
      guard let hours = number(index + 1, 2) else { return nil }
      let minutes: Int?
      if rest == 5, bytes[index + 3] == UInt8(ascii: ":") {
        minutes = number(index + 4, 2)
      } else if rest == 4 {
        minutes = number(index + 3, 2)
      } else {
        return nil
      }
      guard let minutes else { return nil }
      check(minutes, under: 60, "offset's minutes")
      offset = (hours * 3600 + minutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
    } else {
      return nil
    }
    if let (value, limit, part) = outOfRange {
      try partUnder(limit, Int64(value), part, of: .time, input: input)
    }
    guard abs(offset) <= maximumOffsetHours * 3600 else {
      throw ParseError(input: input, problem: .offsetTooLarge)
    }
    let wall = day.daysSince1970 * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    return (wall - Int64(offset), fraction)
  }
}

extension CalendarDate {
  /// Days from 1970-01-01 to this day (negative before), by the proleptic Gregorian calendar
  /// (H. Hinnant's days-from-civil algorithm).
  package var daysSince1970: Int64 {
    let y = Int64(month <= 2 ? year - 1 : year)
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let m = Int64(month)
    let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  /// The day `days` after this one (before it when negative); the same day when that would
  /// leave the years 1...9999.
  package func adding(days: Int) -> CalendarDate {
    CalendarDate(daysSince1970: daysSince1970 + Int64(days)) ?? self
  }
}
