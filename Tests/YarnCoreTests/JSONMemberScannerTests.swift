import Foundation
import Testing

@testable import YarnCore

/// `JSONMemberScanner`: the pieces of a JSON document read in pieces of any size, and the
/// documents it refuses. The events expected are written by hand from the documents.
@Suite struct JSONMemberScannerTests {
  typealias Event = JSONMemberScanner.Event

  /// The events of `text` fed in pieces of `size` bytes (all at once when `nil`), or the
  /// failure.
  private func scan(_ text: String, size: Int? = nil, limit: Int = 1 << 20) -> Result<[Event], Error> {
    var scanner = JSONMemberScanner(maxPieceBytes: limit)
    var events: [Event] = []
    let bytes = Array(text.utf8)
    let step = max(1, size ?? bytes.count)
    do {
      var start = 0
      while start < bytes.count {
        let end = min(bytes.count, start + step)
        try bytes[start..<end].withUnsafeBytes { try scanner.feed($0) { events.append($0) } }
        start = end
      }
      try scanner.finish { events.append($0) }
      return .success(events)
    } catch {
      return .failure(error)
    }
  }

  private func events(_ text: String, size: Int? = nil) -> [Event]? {
    try? scan(text, size: size).get()
  }

  private func failure(_ text: String, limit: Int = 1 << 20) -> JSONMemberScanner.Failure? {
    guard case .failure(let error) = scan(text, limit: limit) else { return nil }
    return error as? JSONMemberScanner.Failure
  }

  private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  @Test func membersAndElementsAreHandedOneByOne() {
    let text = #" {"notes" : [ {"a":1} , 2 ,"x" ] ,"n":null, "o":{"k":[1]}, "e":[]} "#
    let expected: [Event] = [
      .object, .key(bytes(#""notes""#)), .arrayStart, .element(bytes(#"{"a":1}"#)),
      .element(bytes("2")), .element(bytes(#""x""#)), .arrayEnd, .key(bytes(#""n""#)),
      .value(bytes("null")), .key(bytes(#""o""#)), .value(bytes(#"{"k":[1]}"#)),
      .key(bytes(#""e""#)), .arrayStart, .arrayEnd,
    ]
    #expect(events(text) == expected)
    // The same events however the bytes are split: every piece size from 1 to the whole.
    for size in 1...text.utf8.count { #expect(events(text, size: size) == expected, "size \(size)") }
  }

  @Test func stringsHideBracketsQuotesAndEscapes() {
    let element = #"{"t":"]}[{,\"\\","u":"\u005d\ud83e\uddf6","k\"]":[["]"]]}"#
    let text = #"{"yarns":["# + element + #","\"]"]}"#
    let expected: [Event] = [
      .object, .key(bytes(#""yarns""#)), .arrayStart, .element(bytes(element)),
      .element(bytes(#""\"]""#)), .arrayEnd,
    ]
    for size in [1, 2, 3, 7, 1000] { #expect(events(text, size: size) == expected, "size \(size)") }
  }

  @Test func aKeyKeepsItsEscapes() {
    #expect(
      events(#"{"y\u0061rns":[]}"#) == [.object, .key(bytes(#""y\u0061rns""#)), .arrayStart, .arrayEnd])
  }

  @Test func aDocumentThatIsNotAnObjectIsHandedWhole() {
    #expect(events("[1,[2]]") == [.arrayStart, .element(bytes("1")), .element(bytes("[2]")), .arrayEnd])
    #expect(events(" 12.5e3 ") == [.value(bytes("12.5e3"))])
    #expect(events("-1") == [.value(bytes("-1"))])
    #expect(events(#""a{""#) == [.value(bytes(#""a{""#))])
    #expect(events("true") == [.value(bytes("true"))])
    #expect(events("{}") == [.object])
  }

  @Test func aTrailingCommaIsAllowedAsJSONDecoderAllowsIt() {
    #expect(
      events(#"{"a":[1,],}"#) == [
        .object, .key(bytes(#""a""#)), .arrayStart, .element(bytes("1")), .arrayEnd,
      ])
  }

  @Test func oneByteOrderMarkIsSkipped() {
    #expect(events("\u{FEFF}{}") == [.object])
    #expect(failure("\u{FEFF}\u{FEFF}{}") == .invalid)
    // A byte order mark cut short (EF, then what is not BB: U+FFFD is EF BF BD).
    #expect(failure(String(decoding: [0xEF, 0x7B, 0x7D] as [UInt8], as: UTF8.self)) == .invalid)
  }

  @Test(arguments: [
    "", " ", "{", "}", "[", "{\"a\"}", "{\"a\" 1}", "{\"a\":}", "{\"a\":1 \"b\":2}", "{,}",
    "{,\"a\":1}", "{\"a\":1,,\"b\":2}", "{\"a\":[,]}", "{\"a\":[1,,]}", "{\"a\":[1 2]}",
    "{\"a\":[{}{}]}", "{\"a\":1} x", "{\"a\":1}{}", "{\"a\":1},", "{a:1}", "{\"a\":.5}",
    "{\"a\":+1}", "{\"a\":[]]}", "[1]]", "{\"a\":1}\u{0}", "{\"a\":\u{0B}1}", "{\"a\":'x'}",
    "{\"a\":\"x}", "{\"a\":[\"x]}", "{\"a\":[{\"b\":\"]}\"]}", "{1:2}", "{\"a\":[}]}",
  ])
  func malformedDocumentsAreRefused(text: String) {
    #expect(failure(text) == .invalid, "\(text)")
  }

  @Test func everyProperPrefixOfADocumentIsRefused() {
    let text = #"{"notes":[{"a":"x\"y"},[1,{}]],"k":{"b":[true,null]},"n":-1.5}"#
    #expect(events(text) != nil)
    let bytes = Array(text.utf8)
    for end in 0..<bytes.count {
      let prefix = String(decoding: bytes[..<end], as: UTF8.self)
      #expect(failure(prefix) == .invalid, "\(prefix)")
    }
  }

  @Test func nestingDeeperThan512LevelsIsRefused() {
    // The top-level object is level 1 and the member's array level 2: 510 more fit.
    func element(_ depth: Int) -> String {
      #"{"a":["# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "]}"
    }
    #expect(events(element(510)) != nil)
    #expect(failure(element(511)) == .tooDeep)
    func value(_ depth: Int) -> String {
      #"{"a":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
    }
    #expect(events(value(511)) != nil)
    #expect(failure(value(512)) == .tooDeep)
    // Deeper still: refused without recursion.
    #expect(failure(element(100_000)) == .tooDeep)
  }

  @Test func aPieceLongerThanTheLimitIsRefused() {
    // "12345678" with its quotes is 10 bytes: at the limit, not over it.
    #expect(failure(#"{"a":["12345678"]}"#, limit: 10) == nil)
    #expect(failure(#"{"a":["123456789"]}"#, limit: 10) == .tooLarge(limit: 10))
    #expect(failure(#"{"abcdefghijk":1}"#, limit: 10) == .tooLarge(limit: 10))
    #expect(failure(#"{"a":"abcdefghijk"}"#, limit: 10) == .tooLarge(limit: 10))
  }
}
