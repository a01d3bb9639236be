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
  public init?(iso8601 text: String) {
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
        in: container, debugDescription: "expected a date as YYYY-MM-DD, found \(LineText.quoted(text))")
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
