#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A day on the calendar with no time and no time zone, such as the day a yarn was added to the
/// stash or the day a project was finished.
///
/// Written as ISO 8601 calendar date `YYYY-MM-DD` (ISO 8601-1:2019 §5.2.2) in JSON, CSV and
/// SQLite. A day is not an instant: it is never shifted by a time zone.
public struct CalendarDate: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The year, 1...9999.
  public let year: Int
  /// The month, 1...12.
  public let month: Int
  /// The day of the month, 1...31 (checked against the month and leap years).
  public let day: Int

  /// Creates a date, or returns `nil` when the three numbers name no real day
  /// (Gregorian calendar, years 1...9999).
  public init?(year: Int, month: Int, day: Int) {
    guard (1...9999).contains(year), (1...12).contains(month), day >= 1,
      day <= CalendarDate.daysIn(month: month, year: year)
    else { return nil }
    self.year = year
    self.month = month
    self.day = day
  }

  /// Parses `YYYY-MM-DD` exactly (four-digit year, two-digit month and day); `nil` otherwise.
  /// (`impossibility(in:)` says why text of that form names no day.)
  public init?(iso8601 text: String) {
    guard let (year, month, day) = CalendarDate.iso8601Numbers(text) else { return nil }
    self.init(year: year, month: month, day: day)
  }

  /// The day that contains `instant` in `timeZone` (by default the process's own zone, read
  /// through the C library: `$TZ`, else `/etc/localtime`; see `SystemTimeZone`). An instant
  /// whose local day falls outside the years 1...9999 gives 0001-01-01 or 9999-12-31.
  public init(containing instant: Date, in timeZone: any UTCOffsetProvider = SystemTimeZone()) {
    self = LocalCalendar.day(containing: instant, in: timeZone)
  }

  /// `YYYY-MM-DD`, such as `2026-03-29` (ISO 8601 calendar date, extended format).
  public var iso8601: String {
    // Digits as bytes (every day stored is written so): `init` keeps the year in 1...9999.
    let zero = UInt8(ascii: "0")
    let dash = UInt8(ascii: "-")
    let digits: [UInt8] = [
      zero + UInt8(year / 1000), zero + UInt8(year / 100 % 10), zero + UInt8(year / 10 % 10),
      zero + UInt8(year % 10), dash, zero + UInt8(month / 10), zero + UInt8(month % 10), dash,
      zero + UInt8(day / 10), zero + UInt8(day % 10),
    ]
    return String(decoding: digits, as: UTF8.self)
  }

  /// The same as `iso8601`: `2026-03-29`.
  public var description: String { iso8601 }

  /// Whether `lhs` is an earlier day than `rhs`.
  public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
    (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
  }

  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2:
      let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
      return leap ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }
}

extension CalendarDate {
  /// Why text of the form `YYYY-MM-DD` names no day: the part out of its range, the first in
  /// reading order (the year, the month, then the day).
  public enum ImpossibleDate: Error, Hashable, Sendable, CustomStringConvertible {
    /// The year is 0000: years are 0001 to 9999.
    case year
    /// The month is not 01 to 12.
    case month(Int)
    /// The day is 00, or past the last of `month` (1...12) of `year`.
    case day(Int, month: Int, year: Int)

    /// `day 30 is past the end of February 2026, which has 28 days`, `there is no month 13;
    /// months are 01 to 12`.
    public var description: String {
      func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
      switch self {
      case .year:
        return "there is no year 0000; years are 0001 to 9999"
      case .month(let month):
        return "there is no month \(twoDigits(month)); months are 01 to 12"
      case .day(0, _, _):
        return "there is no day 00; days are numbered from 01"
      case .day(let day, let month, let year):
        let months = [
          "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December",
        ]
        return "day \(day) is past the end of \(months[month - 1]) \(year), which has "
          + "\(CalendarDate.daysIn(month: month, year: year)) days"
      }
    }
  }

  /// Why the date that `text` starts with names no day, when it has the form of one: the
  /// whole text `YYYY-MM-DD`, or those ten characters before `T`, `t` or a space (an instant,
  /// `2026-02-30T10:00:00Z`, `2026-02-30 14:30`). `nil` for a real day, and for text of
  /// another form. The one rule by which every reader of days and instants says why
  /// (`2026-02-30`: `day 30 is past the end of February 2026, which has 28 days`).
  public static func impossibility(in text: String) -> ImpossibleDate? {
    let bytes = Array(text.utf8.prefix(11))
    guard
      bytes.count == 10 || [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")].contains(bytes.last),
      let (year, month, day) = iso8601Numbers(String(decoding: bytes.prefix(10), as: UTF8.self))
    else { return nil }
    if year == 0 { return .year }
    if !(1...12).contains(month) { return .month(month) }
    if day < 1 || day > daysIn(month: month, year: year) { return .day(day, month: month, year: year) }
    return nil
  }

  /// `impossibility(in:)` as the clause that ends a refusal of `text`: `: day 30 is past the
  /// end of February 2026, which has 28 days`; empty for a real day or text of another form.
  package static func impossibilityClause(in text: String) -> String {
    impossibility(in: text).map { ": \($0)" } ?? ""
  }

  /// The numbers of text of the form `YYYY-MM-DD` (digits and dashes only), whatever their
  /// values; `nil` for another form.
  static func iso8601Numbers(_ text: String) -> (year: Int, month: Int, day: Int)? {
    let bytes = Array(text.utf8)
    guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else {
      return nil
    }
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for index in range {
        let byte = bytes[index]
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
      }
      return value
    }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else {
      return nil
    }
    return (year, month, day)
  }
}

extension CalendarDate: Codable {
  /// Decodes a JSON string `YYYY-MM-DD`.
  ///
  /// - Throws: `DecodingError.typeMismatch` for a value that is not a string;
  ///   `DecodingError.dataCorrupted` for a string that is not exactly `YYYY-MM-DD` or names no
  ///   real day (`2026-02-30`).
  public init(from decoder: Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let date = CalendarDate(iso8601: text) else {
      throw DecodingError.dataCorruptedError(
        in: container,
        debugDescription: "expected a date as YYYY-MM-DD, found \(LineText.quoted(text))"
          + CalendarDate.impossibilityClause(in: text))
    }
    self = date
  }

  /// Encodes the day as the string `YYYY-MM-DD`.
  ///
  /// - Throws: what `encoder` throws.
  public func encode(to encoder: Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(iso8601)
  }

  /// Encodes the day as the member `key` of `container`, the string `encode(to:)` writes,
  /// given as a `String`: JSONEncoder makes a nested encoder for an `Encodable` value given to
  /// `encode(_:forKey:)`, and none for a string.
  ///
  /// - Throws: what `container` throws.
  package func encode<Key: CodingKey>(
    to container: inout KeyedEncodingContainer<Key>, forKey key: Key
  ) throws {
    try container.encode(iso8601, forKey: key)
  }
}
