import YarnCore

/// `SessionJSON` written without `JSONEncoder` (`time log --format json` writes one per
/// session; the encoder took two thirds of its time): byte for byte what the package's
/// pretty encoder (`JSONCoding.encoder()`) writes for it, checked against the encoder by
/// `TimeEndToEndTests` and `JSONTextTests`.
extension SessionJSON {
  /// The object as the pretty encoder writes it at the top level: keys sorted, ` : `
  /// between key and value, two spaces of indentation, no final line feed.
  func prettyBytes() -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(256)
    bytes.append(contentsOf: "{\n  \"end\" : ".utf8)
    if let end = session.end {
      JSONText.appendString(JSONCoding.formatInstant(end), to: &bytes)
    } else {
      bytes.append(contentsOf: "null".utf8)
    }
    bytes.append(contentsOf: ",\n  \"id\" : ".utf8)
    JSONText.appendString(session.id, to: &bytes)
    bytes.append(contentsOf: ",\n  \"note\" : ".utf8)
    if let note = session.note {
      JSONText.appendString(note, to: &bytes)
    } else {
      bytes.append(contentsOf: "null".utf8)
    }
    bytes.append(contentsOf: ",\n  \"project\" : ".utf8)
    JSONText.appendString(projectName, to: &bytes)
    bytes.append(contentsOf: ",\n  \"projectID\" : ".utf8)
    JSONText.appendString(session.projectID, to: &bytes)
    bytes.append(contentsOf: ",\n  \"seconds\" : ".utf8)
    bytes.append(contentsOf: String(session.seconds(now: now)).utf8)
    bytes.append(contentsOf: ",\n  \"start\" : ".utf8)
    JSONText.appendString(JSONCoding.formatInstant(session.start), to: &bytes)
    bytes.append(contentsOf: "\n}".utf8)
    return bytes
  }
}

/// JSON text as the package's encoder writes it.
enum JSONText {
  /// Appends `text` as a JSON string the way the encoder (with `.withoutEscapingSlashes`)
  /// writes it: `"` and `\` escaped, the control characters U+0000–U+001F as `\b`, `\t`,
  /// `\n`, `\f`, `\r` or `\u00xx` (lower-case hex), everything else (DEL, U+2028, non-ASCII)
  /// as its UTF-8.
  static func appendString(_ text: String, to bytes: inout [UInt8]) {
    let hex = Array("0123456789abcdef".utf8)
    bytes.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), byte])
      case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
      case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
      case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
      case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
      case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
      case 0x00..<0x20:
        bytes.append(contentsOf: Array("\\u00".utf8))
        bytes.append(hex[Int(byte >> 4)])
        bytes.append(hex[Int(byte & 0xF)])
      default: bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }
}
