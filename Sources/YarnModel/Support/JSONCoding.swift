#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The JSON conventions of every document this package writes: keys sorted, instants as
/// ISO 8601 in UTC with whole seconds (`2026-03-29T14:30:00Z`), slashes not escaped.
///
/// Sorted keys and a fixed date form make the output byte-identical for equal values, which
/// the backup law (backup → restore → backup) relies on.
package enum JSONCoding {
  /// An encoder with the package's conventions; `pretty` adds indentation for people.
  package static func encoder(pretty: Bool = true) -> JSONEncoder {
    let encoder = JSONEncoder()
    var format: JSONEncoder.OutputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    if pretty { format.insert(.prettyPrinted) }
    encoder.outputFormatting = format
    encoder.dateEncodingStrategy = .custom { date, encoder in
      var container = encoder.singleValueContainer()
      try container.encode(JSONCoding.formatInstant(date))
    }
    encoder.nonConformingFloatEncodingStrategy = .throw
    return encoder
  }

  /// A decoder that reads what `encoder` writes, and instants with fractional seconds or an
  /// offset (`2026-03-29T16:30:00.250+02:00`).
  package static func decoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { decoder in
      let container = try decoder.singleValueContainer()
      let text = try container.decode(String.self)
      guard let date = JSONCoding.parseInstant(text) else {
        if TimeInput.isAbsoluteInstantOutOfRange(text) {
          throw DecodingError.dataCorruptedError(
            in: container,
            debugDescription:
              "the instant \(LineText.quoted(text)) falls outside \(JSONCoding.instantRangeText) in UTC")
        }
        throw DecodingError.dataCorruptedError(
          in: container,
          debugDescription:
            "expected an ISO 8601 instant such as 2026-03-29T14:30:00Z, found \(LineText.quoted(text))"
            + CalendarDate.impossibilityClause(in: text))
      }
      return date
    }
    return decoder
  }

  /// The first instant this package stores and writes: 0001-01-01T00:00:00Z
  /// (−62,135,596,800 s from 1970-01-01T00:00:00Z).
  ///
  /// Instants are written as ISO 8601 in UTC with a four-digit year (ISO 8601 writes other
  /// years only in an expanded form by agreement; RFC 3339 §5.6 has `date-fullyear = 4DIGIT`),
  /// and days are `CalendarDate`s of the years 1...9999, so the years 0001–9999 are all that
  /// `formatInstant` can write and `parseInstant` read back. An instant outside
  /// `earliestInstant...latestInstant` in UTC — even one written with an offset inside the
  /// years, such as `0001-01-01T00:00:00+18:00` (0000-12-31T06:00:00Z) — is refused where
  /// instants come in (`TimeInput`, `parseInstant`), so that every stored instant restores.
  package static let earliestInstant = Date(timeIntervalSince1970: Double(earliestSecond))

  /// The last whole second this package stores and writes: 9999-12-31T23:59:59Z
  /// (253,402,300,799 s from 1970-01-01T00:00:00Z); see `earliestInstant`. A fraction of it
  /// (`9999-12-31T23:59:59.5Z`) is read too, and truncated to it by the store and by
  /// `formatInstant`.
  package static let latestInstant = Date(timeIntervalSince1970: Double(latestSecond))

  /// `earliestInstant` and `latestInstant` in whole seconds from 1970-01-01T00:00:00Z.
  static let earliestSecond: Int64 = -62_135_596_800
  static let latestSecond: Int64 = 253_402_300_799

  /// The range in words, for error messages.
  package static let instantRangeText = "0001-01-01T00:00:00Z … 9999-12-31T23:59:59Z"

  /// Whether `date`, truncated to whole seconds as the store and `formatInstant` truncate it,
  /// lies within `earliestInstant...latestInstant`.
  package static func isInInstantRange(_ date: Date) -> Bool {
    let seconds = date.timeIntervalSince1970.rounded(.down)
    return seconds >= Double(earliestSecond) && seconds <= Double(latestSecond)
  }

  /// `2026-03-29T14:30:00Z`: ISO 8601 in UTC, whole seconds (fractions are truncated). Meant
  /// for instants within `earliestInstant...latestInstant`, which read back as written;
  /// others are written with a year that is not four digits and that `parseInstant` refuses.
  /// Beyond ±2^62 s (a row written outside yarn, up to ±2^63 s) the instant is written as
  /// ±2^62 s: the arithmetic below would overflow there, and such a text is refused anyway.
  package static func formatInstant(_ date: Date) -> String {
    let bound = Double(Int64(1) << 62)
    let exact = date.timeIntervalSince1970.rounded(.down)
    let seconds = Int64(exact.isNaN ? 0 : min(max(exact, -bound), bound))
    // Civil-from-days (H. Hinnant, "chrono-Compatible Low-Level Date Algorithms"): no
    // Calendar or formatter, so no locale and no ICU on this path.
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let secondOfDay = seconds - days * 86_400
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
    var yearText = String(year)
    while yearText.count < 4 { yearText = "0" + yearText }
    return
      "\(yearText)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))Z"
  }

  /// Parses an ISO 8601 / RFC 3339 instant: `YYYY-MM-DDTHH:MM[:SS[.fff]]` then `Z` or a
  /// `±HH:MM` / `±HHMM` offset, with its fractional seconds; `nil` otherwise.
  ///
  /// Read by integer arithmetic on the proleptic Gregorian calendar (`TimeInput.absoluteInstant`),
  /// so that every instant of the years 0001–9999 reads back as written, in any of these forms;
  /// an impossible time (`2026-02-30T00:00:00Z`, `24:00:00`, an offset over 18 hours) is `nil`,
  /// and so is one whose UTC falls outside `earliestInstant...latestInstant`
  /// (`9999-12-31T23:59:59-18:00` is 10000-01-01T17:59:59Z). A fraction never carries into the
  /// next second: `9999-12-31T23:59:59.999999999Z` is read, and truncates to 23:59:59.
  static func parseInstant(_ text: String) -> Date? {
    TimeInput.absoluteInstant(text, keepingFraction: true)
  }
}

extension KeyedEncodingContainer {
  /// Encodes `elements` as the member `key`, the array `Array`'s own encoding writes (an
  /// unkeyed container of the elements in order), in a nested unkeyed container: JSONEncoder
  /// makes a nested encoder for an `Encodable` value given to `encode(_:forKey:)`, and none
  /// for a nested container.
  ///
  /// - Throws: what encoding an element throws.
  package mutating func encodeElements<Element: Encodable>(
    _ elements: [Element], forKey key: Key
  ) throws {
    var nested = nestedUnkeyedContainer(forKey: key)
    for element in elements { try nested.encode(element) }
  }

  /// Encodes `elements` as the member `key`, as `encodeElements(_:forKey:)` does, each
  /// element given to the container as a `String`.
  ///
  /// - Throws: what the container throws.
  package mutating func encodeElements(_ elements: [String], forKey key: Key) throws {
    var nested = nestedUnkeyedContainer(forKey: key)
    for element in elements { try nested.encode(element) }
  }
}
