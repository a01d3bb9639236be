#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Pretty JSON written piece by piece, in exactly the bytes `JSONCoding.encoder()` gives the
/// whole value (sorted keys, two spaces a level, `"key" : value`, no line feed at the end), so
/// that memory does not grow with the number of elements of an array: the elements are
/// encoded a bounded batch at a time and indented as the encoder indents them inside their
/// array.
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

  /// The most elements encoded by one call of the encoder (`array`), so that memory stays
  /// flat. Any batch spares the re-indenting of each element at depth 0; of batches of 1 to
  /// 256, 16 was the fastest for `stash list --json` at 100,000 yarns, by little
  /// (bench/README.md, "After the `listfast` branch"). An array whose elements can be large
  /// (a WEFT progress item holds every session of its project) is written one at a time:
  /// the encoder's tree of 16 of them took 65 MB at 100,000 sessions.
  package static let batchSize = 16

  /// Writes an array from its `[` to its `]`, `depth` levels deep (0: the document itself; 1:
  /// a member of the document's object), handing `body` the function that writes one element.
  ///
  /// The elements are encoded `batchSize` at a time (default `JSONStream.batchSize`), as an
  /// array: the encoder writes the
  /// elements of an array exactly as they stand in any array at the top level (each line
  /// indented by two spaces, `,\n` between elements), so the bytes between that array's
  /// `[\n` and `\n]` go out as they are at depth 0. Deeper, `2 × depth` more spaces follow
  /// each line feed but on an empty line (that of an empty array inside an element; a
  /// string's line feeds are escaped, so every byte 0x0A ends a line). An empty array is
  /// `[`, two line feeds, the array's indentation and `]`.
  ///
  /// - Returns: the number of elements written.
  /// - Throws: what `body`, the encoder (`EncodingError`: a number that is not finite) or the
  ///   sink throws; when `body` throws, the elements before it are written first; when the
  ///   encoder throws, none of its batch is.
  @discardableResult
  package func array<T: Encodable>(
    depth: Int = 0, batchSize: Int = JSONStream.batchSize, _ body: ((T) throws -> Void) throws -> Void
  ) throws -> Int {
    let indent = [UInt8](repeating: 0x20, count: 2 * depth)
    var count = 0
    var batch: [T] = []
    var bytes: [UInt8] = []
    func flush() throws {
      guard !batch.isEmpty else { return }
      let data = try encoder.encode(batch)
      bytes.removeAll(keepingCapacity: true)
      bytes += (count == 0 ? "[\n" : ",\n").utf8
      // `data` is `[\n`, the elements, `\n]`.
      try data.withUnsafeBytes { encoded in
        let elements = UnsafeRawBufferPointer(rebasing: encoded[2..<(encoded.count - 2)])
        if indent.isEmpty {
          bytes += elements
        } else {
          bytes += indent
          JSONStream.append(elements, indent: indent, to: &bytes)
        }
      }
      try bytes.withUnsafeBytes { try sink($0) }
      count += batch.count
      batch.removeAll(keepingCapacity: true)
    }
    do {
      try body { element in
        batch.append(element)
        if batch.count >= batchSize { try flush() }
      }
    } catch {
      try? flush()
      throw error
    }
    try flush()
    let close = String(repeating: "  ", count: depth) + "]"
    try write(count == 0 ? "[\n\n" + close : "\n" + close)
    return count
  }

  /// Writes `value` (a string, a number, an object…) `depth` levels deep, as the value of a
  /// member written by `key(_:depth:first:)`.
  ///
  /// - Throws: what the encoder (`EncodingError`) or the sink throws.
  package func value<T: Encodable>(_ value: T, depth: Int) throws {
    let data = try encoder.encode(value)
    var bytes: [UInt8] = []
    data.withUnsafeBytes { encoded in
      JSONStream.append(encoded, indent: [UInt8](repeating: 0x20, count: 2 * depth), to: &bytes)
    }
    try bytes.withUnsafeBytes { try sink($0) }
  }

  /// Appends `encoded` to `bytes` with `indent` after each line feed but on an empty line.
  /// Done on the bytes: splitting the text into lines took as long as encoding it.
  private static func append(
    _ encoded: UnsafeRawBufferPointer, indent: [UInt8], to bytes: inout [UInt8]
  ) {
    bytes.reserveCapacity(bytes.count + encoded.count + encoded.count / 4)
    var previous: UInt8 = 0
    for byte in encoded {
      if previous == 0x0A, byte != 0x0A { bytes += indent }
      bytes.append(byte)
      previous = byte
    }
  }
}
