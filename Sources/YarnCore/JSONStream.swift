#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Pretty JSON written piece by piece, in exactly the bytes `JSONCoding.encoder()` gives the
/// whole value (sorted keys, two spaces a level, `"key" : value`, no line feed at the end), so
/// that memory does not grow with the number of elements of an array: each element is
/// encoded alone and indented as the encoder indents it inside its array.
///
/// The one place this is done: `yarn … --json` lists (`printJSONArray`) and a backup's
/// `library.json` (`BackupWriter`) both write through it.
package struct JSONStream {
  private let encoder = JSONCoding.encoder()
  private let sink: (UnsafeRawBufferPointer) throws -> Void

  /// A stream handing its bytes, in pieces, to `sink`; what `sink` throws is thrown by the
  /// call that wrote them.
  package init(_ sink: @escaping (UnsafeRawBufferPointer) throws -> Void) {
    self.sink = sink
  }

  /// Writes `text` as it is (the punctuation between values, such as `{\n`).
  package func write(_ text: String) throws {
    var text = text
    try text.withUTF8 { try sink(UnsafeRawBufferPointer($0)) }
  }

  /// Writes `"key" : ` of an object's member at `depth` (1 for a member of the document's
  /// own object), preceded by `,\n` unless it is the object's first; the value follows at
  /// the same `depth`. `key` must need no escaping (letters, digits, `_`): the keys are the
  /// caller's, already in sorted order.
  package func key(_ key: String, depth: Int, first: Bool) throws {
    try write((first ? "" : ",\n") + String(repeating: "  ", count: depth) + "\"" + key + "\" : ")
  }

  /// Writes an array from its `[` to its `]`, `depth` levels deep (0: the document itself; 1:
  /// a member of the document's object), handing `body` the function that writes one element.
  ///
  /// The encoder writes an element of such an array with `2 × (depth + 1)` spaces after each
  /// line feed, but none on the empty line of an empty array inside it (a string's line feeds
  /// are escaped, so every byte 0x0A ends a line); elements are separated by `,\n`; an empty
  /// array is `[`, two line feeds, the array's indentation and `]`.
  ///
  /// - Returns: the number of elements written.
  /// - Throws: what `body`, the encoder (`EncodingError`: a number that is not finite) or the
  ///   sink throws; the elements before it are written.
  @discardableResult
  package func array<T: Encodable>(
    depth: Int = 0, _ body: ((T) throws -> Void) throws -> Void
  ) throws -> Int {
    let indent = [UInt8](repeating: 0x20, count: 2 * (depth + 1))
    var count = 0
    var bytes: [UInt8] = []
    try body { element in
      bytes.removeAll(keepingCapacity: true)
      bytes += (count == 0 ? "[\n" : ",\n").utf8
      bytes += indent
      try append(element, indent: indent, to: &bytes)
      try bytes.withUnsafeBytes { try sink($0) }
      count += 1
    }
    let close = String(repeating: "  ", count: depth) + "]"
    try write(count == 0 ? "[\n\n" + close : "\n" + close)
    return count
  }

  /// Writes `value` (a string, a number, an object…) `depth` levels deep, as the value of a
  /// member written by `key(_:depth:first:)`.
  ///
  /// - Throws: what the encoder (`EncodingError`) or the sink throws.
  package func value<T: Encodable>(_ value: T, depth: Int) throws {
    var bytes: [UInt8] = []
    try append(value, indent: [UInt8](repeating: 0x20, count: 2 * depth), to: &bytes)
    try bytes.withUnsafeBytes { try sink($0) }
  }

  /// Appends `value`'s encoding to `bytes` with `indent` after each line feed but on an empty
  /// line. Done on the bytes: splitting the text into lines took as long as encoding it.
  private func append<T: Encodable>(_ value: T, indent: [UInt8], to bytes: inout [UInt8]) throws {
    let data = try encoder.encode(value)
    bytes.reserveCapacity(bytes.count + data.count + data.count / 4)
    var previous: UInt8 = 0
    for byte in data {
      if previous == 0x0A, byte != 0x0A { bytes += indent }
      bytes.append(byte)
      previous = byte
    }
  }
}
