import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

/// The small replacements for swift-corelibs Foundation that YarnCore carries so that it
/// builds on FoundationEssentials alone (no ICU, no CoreFoundation in the `yarn` binary).
@Suite struct EssentialsSupportTests {
  @Test func pathPartsMatchNSStringRules() {
    // Expected values are NSString's deletingLastPathComponent / lastPathComponent.
    #expect(POSIX.directory(of: "/a/b/c") == "/a/b")
    #expect(POSIX.directory(of: "/a/b/c/") == "/a/b")
    #expect(POSIX.directory(of: "/c") == "/")
    #expect(POSIX.directory(of: "c") == "")
    #expect(POSIX.directory(of: "a//b") == "a")
    #expect(POSIX.lastComponent(of: "/a/b/c") == "c")
    #expect(POSIX.lastComponent(of: "/a/b/") == "b")
    #expect(POSIX.lastComponent(of: "/") == "/")
    #expect(POSIX.lastComponent(of: "name.zip") == "name.zip")
    #expect(POSIX.join("/a", "b") == "/a/b")
    #expect(POSIX.join("/a/", "b") == "/a/b")
    #expect(POSIX.join("", "b") == "b")
  }

  @Test func trimmingUsesFoundationsCharacterSets() {
    // CharacterSet.whitespaces: category Zs and TAB; not line breaks.
    #expect(" \t\u{A0}\u{3000}wool\u{2009} ".trimmingSpaces() == "wool")
    #expect("\nwool\n".trimmingSpaces() == "\nwool\n")
    #expect("".trimmingSpaces() == "")
    // Inside the text nothing changes; a combining mark after a space stays with the text.
    #expect(" a b ".trimmingSpaces() == "a b")
    #expect("x\u{301} ".trimmingSpaces() == "x\u{301}")
  }

  @Test func amountsFormatToTwoDecimalsWithoutFoundationsFormatter() {
    #expect(Amount.format(2.5) == "2.5")
    #expect(Amount.format(0.333) == "0.33")
    #expect(Amount.format(0.005) == "0.01")
    #expect(Amount.format(0.05) == "0.05")
    #expect(Amount.format(1.10) == "1.1")
    #expect(Amount.format(-1.25) == "-1.25")
    // Above 0 (or below) and too small for two decimals: two significant digits, not 0.
    #expect(Amount.format(-0.004) == "-0.004")
    #expect(Amount.format(0.0049) == "0.0049")
    #expect(Amount.format(250) == "250")
    // 8.818490487395... oz = 250 g / 28.349523125 g.
    #expect(Amount.format(250 / 28.349_523_125) == "8.82")
    // Past Int64 cents: the whole number's digits, no exponent.
    #expect(Amount.format(1e20) == "100000000000000000000")
    // Every Double, however large: digits (Python: str(int(1e308)), 309 digits).
    let huge = Amount.format(1e308)
    #expect(huge.count == 309 && huge.hasPrefix("1000000000000000010979063629440455417404"))
    #expect(huge.hasSuffix("0223118336"))
    let largest = Amount.format(-1.7976931348623157e308)
    #expect(largest.count == 310 && largest.hasPrefix("-179769313486231570814527423731704356798"))
    #expect(largest.hasSuffix("4124858368"))
  }

  @Test func instantsWithOffsetsBeforeTheGregorianReformAreProlepticGregorian() {
    // Python: (datetime(1500, 3, 1) - datetime(1970, 1, 1)).total_seconds() - 3600.
    #expect(JSONCoding.parseInstant("1500-03-01T00:00:00+01:00")?.timeIntervalSince1970 == -14_826_675_600)
    // 01:00:00.5 at +01:00 is 00:00:00.5 UTC: 3,600 s after the instant above, plus half a second.
    #expect(
      JSONCoding.parseInstant("1500-03-01T01:00:00.5+01:00")?.timeIntervalSince1970 == -14_826_671_999.5)
    #expect(
      JSONCoding.parseInstant("2026-03-29T14:30:00.123456789123Z")?.timeIntervalSince1970
        == 1_774_794_600.123456789)
    #expect(JSONCoding.parseInstant("2026-03-29T14:30:00+25:00") == nil)
  }

  @Test func hashingAFileThatCannotBeReadSaysWhy() {
    let missing = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)")
    #expect(throws: SHA256Error.unreadable(path: missing.path, reason: "no such file or directory")) {
      try SHA256Hasher.hexDigest(ofFileAt: missing)
    }
  }
}

@Suite struct JSONValueTests {
  @Test func everyKindOfValueIsReadAndWritten() throws {
    let text = #"{"a":[1,2.5,"x",null,true,{"b":9007199254740993}],"c":-0.5e1}"#
    let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    // 2^53 + 1 = 9,007,199,254,740,993 does not fit a Double: it stays an exact integer.
    let expected = JSONValue.object([
      "a": .array([
        .integer(1), .number(2.5), .string("x"), .null, .bool(true),
        .object(["b": .integer(9_007_199_254_740_993)]),
      ]),
      // -0.5e1 is the whole number −5: an integer, as the doc comment says.
      "c": .integer(-5),
    ])
    #expect(value == expected)
    #expect(value.object?["a"]?.array?.count == 6)
    #expect(value.array == nil)
    let again = try JSONDecoder().decode(JSONValue.self, from: try JSONEncoder().encode(value))
    #expect(again == expected)
  }
}

@Suite struct TimeZoneNameTests {
  @Test func knownZonesAreFilesOrPOSIXRules() {
    // tz database names (files under /usr/share/zoneinfo on Debian).
    #expect(SystemTimeZone.isKnown("Europe/Berlin"))
    #expect(SystemTimeZone.isKnown(":America/New_York"))
    #expect(SystemTimeZone.isKnown("UTC"))
    #expect(SystemTimeZone.isKnown(""))
    // POSIX rules (POSIX.1-2017 8.3): a name of 3+ letters or <...>, then an offset.
    #expect(SystemTimeZone.isKnown("EST5EDT"))
    #expect(SystemTimeZone.isKnown("CET-1CEST,M3.5.0,M10.5.0/3"))
    #expect(SystemTimeZone.isKnown("<+0530>-5:30"))
    // What glibc silently reads as UTC.
    #expect(!SystemTimeZone.isKnown("garbage"))
    #expect(!SystemTimeZone.isKnown("Europe/Berlinn"))
    #expect(!SystemTimeZone.isKnown("ES5"))
    #expect(!SystemTimeZone.isKnown("../../etc/passwd"))
    #expect(!SystemTimeZone.isKnown("Europe"))  // a folder, not a zone
    // A file by its path is a zone only when it is a tz database file (TZif; QA: TZ=/etc/passwd
    // was read as UTC without a warning).
    #expect(SystemTimeZone.isKnown("/usr/share/zoneinfo/Europe/Berlin"))
    #expect(!SystemTimeZone.isKnown("/etc/passwd"))
    #expect(!SystemTimeZone.isKnown(":/etc/hostname"))
  }
}
