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
}
