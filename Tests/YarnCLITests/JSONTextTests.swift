import Foundation
import Testing
import YarnCore

@testable import YarnCLI

/// `time log --format json` writes each session without `JSONEncoder`; the text must be the
/// encoder's, byte for byte. The oracle is Foundation's encoder with the package's settings.
@Suite struct JSONTextTests {
  /// Every ASCII character (the controls, DEL, the quote, the backslash, the slash), line and
  /// paragraph separators, accents, an emoji and a flag.
  static let strings: [String] = [
    "", "plain", String((0..<128).map { Character(Unicode.Scalar(UInt8($0))) }),
    "row 1\nrow 2\r\n\tend", "\u{2028}\u{2029}\u{85}", "é, ü, ß, 😀, 🇳🇴", "quote \" and \\ and /",
  ]

  @Test(arguments: strings)
  func aStringIsWrittenAsTheEncoderWritesIt(_ text: String) throws {
    var bytes: [UInt8] = []
    JSONText.appendString(text, to: &bytes)
    let encoded = try JSONCoding.encoder().encode([text])
    // The encoder's `[\n  "…"\n]` holds the string between the array's brackets.
    let inner = String(decoding: encoded, as: UTF8.self).dropFirst(4).dropLast(2)
    #expect(String(decoding: bytes, as: UTF8.self) == String(inner))
  }

  @Test func aSessionIsWrittenAsTheEncoderWritesIt() throws {
    let start = Date(timeIntervalSince1970: 1_774_794_600)
    let sessions = [
      TimeSession(
        id: "s1", projectID: "p1", start: start, end: start.addingTimeInterval(5_400), note: "cuffs"),
      TimeSession(id: "s2", projectID: "p\"2", start: start, end: nil, note: nil),
      TimeSession(id: "s3", projectID: "p3", start: start, end: start, note: Self.strings[2]),
    ]
    for session in sessions {
      for name in ["Flax", "Tab\there", Self.strings[5]] {
        let json = SessionJSON(session: session, projectName: name, now: start.addingTimeInterval(61))
        let encoded = try JSONCoding.encoder().encode(json)
        #expect(
          String(decoding: json.prettyBytes(), as: UTF8.self) == String(decoding: encoded, as: UTF8.self))
      }
    }
  }

  /// Numbers as amounts hold them: whole, fractional, tiny, huge, the shortest round trip.
  static let numbers: [Double] = [
    0, -0.0, 1, 220, 1.5, 0.1 + 0.2, 1.0 / 3.0, 2.0 / 3.0, 1e-7, 1e-300, 5e-324, 1e15, 1e16, 1e20, 1e21,
    123_456_789.123_456_79, 9_007_199_254_740_993, 1_000_000_000, 28.349523125, 0.9144,
  ]

  @Test(arguments: numbers)
  func aNumberIsWrittenAsTheEncoderWritesIt(_ value: Double) throws {
    var bytes: [UInt8] = []
    JSONText.appendNumber(value, to: &bytes)
    let encoded = try JSONCoding.encoder(pretty: false).encode([value])
    #expect("[" + String(decoding: bytes, as: UTF8.self) + "]" == String(decoding: encoded, as: UTF8.self))
  }

  /// `stash list --json` writes each yarn without `JSONEncoder` (`YarnJSON.prettyBytes`):
  /// every field present and absent, tricky text in each, photos, every kind of estimate.
  @Test func aYarnIsWrittenAsTheEncoderWritesIt() throws {
    let photo = Attachment(
      fileName: "a \"b\"/c.jpg", mediaType: "image/jpeg", byteCount: 1_234_567,
      sha256: String(repeating: "ab", count: 32))
    var yarns = [
      Yarn(id: "bare", name: "Bare"),
      Yarn(
        id: "full", name: Self.strings[2], brand: Self.strings[3], colorway: Self.strings[4],
        colorFamily: Self.strings[5], dyeLot: Self.strings[6], weight: .bulky, fiber: "wool/silk",
        lengthPerSkein: Amount(220, .yard), netWeightPerSkein: Amount(100, .gram),
        quantity: Amount(1.0 / 3.0, .skein), remainingOverride: nil, purchaseLocation: "=1+2",
        dateAdded: CalendarDate(year: 999, month: 1, day: 9), isStashed: false, photos: [photo]),
      Yarn(
        id: "over", name: "Over", weight: .lace, quantity: Amount(2.5, .ounce),
        remainingOverride: Amount(1e-7, .ounce), photos: [photo, photo]),
    ]
    for number in Self.numbers.filter({ $0 >= 0 }) {
      yarns.append(Yarn(id: "n", name: "N", quantity: Amount(number, .gram)))
    }
    let usages: [[RemainingEstimate.CountedUsage]] = [
      [], [.init(projectID: "p", amount: Amount(1, .skein))],
      [.init(projectID: "p", amount: Amount(1e9, .gram))],
    ]
    var written = 0
    for yarn in yarns {
      for used in usages {
        for withOverride in [false, true] {
          var yarn = yarn
          if !withOverride { yarn.remainingOverride = nil }
          let json = YarnJSON(
            yarn: yarn, remaining: RemainingEstimate(yarn: yarn, usages: used), projectNames: ["p": "Hat"])
          let encoded = String(decoding: try JSONCoding.encoder().encode(json), as: UTF8.self)
          guard let bytes = json.prettyBytes() else {
            // Only usages that do not convert are left to the encoder.
            #expect(!json.remaining.unconverted.isEmpty)
            continue
          }
          #expect(String(decoding: bytes, as: UTF8.self) == encoded)
          written += 1
        }
      }
    }
    #expect(written > 60)
    // Notes (`stash show`) are left to the encoder.
    let shown = YarnJSON(
      yarn: yarns[0], remaining: RemainingEstimate(yarn: yarns[0], usages: []), projectNames: [:],
      notes: [])
    #expect(shown.prettyBytes() == nil)
  }
}
