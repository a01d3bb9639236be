import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel

/// `JSONStream.array` encodes its elements a batch at a time (`JSONStream.batchSize`); its
/// bytes are those `JSONCoding.encoder()` gives the whole array, at any depth, however the
/// elements fall into batches.
@Suite struct JSONStreamTests {
  /// An element with what the encoder indents in its own ways: nested objects, an empty
  /// array (an empty line), a string holding a line feed (escaped, no line of its own).
  struct Element: Encodable {
    let name: String
    let tags: [String]
    let amount: [String: Double]
  }

  static func elements(_ count: Int) -> [Element] {
    (0..<count).map { (index: Int) -> Element in
      let name: String = index % 3 == 0 ? "Yarn \"\(index)\"\nsecond line" : "Yarn \(index)"
      let tags: [String] = index % 2 == 0 ? [] : ["wool", "dk"]
      let value: Double = Double(index) + 0.5
      return Element(name: name, tags: tags, amount: ["value": value, "skeins": 1])
    }
  }

  /// What the stream writes of `elements` as an array `depth` levels deep: as the document
  /// (depth 0) or as the member `items` of objects nested `depth` deep.
  static func streamed(
    _ elements: [Element], depth: Int, batchSize: Int = JSONStream.batchSize
  ) throws -> (Data, Int) {
    var bytes = Data()
    let stream = JSONStream { bytes.append(contentsOf: $0) }
    for level in 0..<depth {
      try stream.write("{\n")
      try stream.key(level == depth - 1 ? "items" : "inner", depth: level + 1, first: true)
    }
    let count = try stream.array(depth: depth, batchSize: batchSize) {
      (write: (Element) throws -> Void) in
      for element in elements { try write(element) }
    }
    for level in (0..<depth).reversed() {
      try stream.write("\n" + String(repeating: "  ", count: level) + "}")
    }
    return (bytes, count)
  }

  /// The whole value the encoder writes for the same document.
  static func whole(_ elements: [Element], depth: Int) throws -> Data {
    let encoder = JSONCoding.encoder()
    switch depth {
    case 0: return try encoder.encode(elements)
    case 1: return try encoder.encode(["items": elements])
    default: return try encoder.encode(["inner": ["items": elements]])
    }
  }

  @Test(arguments: [0, 1, 2])
  func batchesSplitAnywhereGiveTheWholeEncodersBytes(depth: Int) throws {
    // The default size, and one at a time (a WEFT progress document's) and 3.
    for size in [JSONStream.batchSize, 1, 3] {
      for count in [0, 1, 2, size - 1, size, size + 1, 2 * size, 2 * size + 3] {
        let elements = Self.elements(count)
        let (bytes, written) = try Self.streamed(elements, depth: depth, batchSize: size)
        #expect(written == count)
        #expect(
          String(decoding: bytes, as: UTF8.self)
            == String(decoding: try Self.whole(elements, depth: depth), as: UTF8.self),
          "\(count) elements at depth \(depth), batches of \(size)")
      }
    }
  }

  @Test func oneElementAndTheEmptyArrayByHand() throws {
    let (empty, _) = try Self.streamed([], depth: 0)
    #expect(String(decoding: empty, as: UTF8.self) == "[\n\n]")
    let (one, _) = try Self.streamed([Element(name: "a\nb", tags: [], amount: [:])], depth: 1)
    let expected = """
      {
        "items" : [
          {
            "amount" : {

            },
            "name" : "a\\nb",
            "tags" : [

            ]
          }
        ]
      }
      """
    #expect(String(decoding: one, as: UTF8.self) == expected)
  }

  struct Stop: Error {}

  @Test func whenTheBodyThrowsTheElementsBeforeAreWritten() throws {
    var bytes = Data()
    let stream = JSONStream { bytes.append(contentsOf: $0) }
    let elements = Self.elements(3)
    #expect(throws: Stop.self) {
      try stream.array { (write: (Element) throws -> Void) in
        for element in elements { try write(element) }
        throw Stop()
      }
    }
    // The three elements, without the array's end.
    let whole = String(decoding: try Self.whole(elements, depth: 0), as: UTF8.self)
    #expect(String(decoding: bytes, as: UTF8.self) == String(whole.dropLast(2)))
  }
}
