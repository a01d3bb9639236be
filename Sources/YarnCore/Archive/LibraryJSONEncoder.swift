import Foundation

/// Writes the items of `library.json` byte for byte as `JSONCoding.encoder()` (Foundation's
/// `JSONEncoder`: pretty printed, keys sorted, slashes not escaped, instants as
/// `JSONCoding.formatInstant`) would, without `Codable`: about ten times faster, which is what
/// lets a backup of 100,000 yarns keep up with `zip` (bench/backup.sh).
///
/// The output is checked against `JSONEncoder` by the tests (`BackupLawTests`,
/// `BackupFormatTests`): `JSONEncoder` stays the definition, this is a faster way to the same
/// bytes. Its conventions, as observed on swift-corelibs/swift-foundation:
/// - an object is `{`, then each present key on its own line, indented two more spaces than
///   the object, as `"key" : value`, separated by `,`; then a line break and `}` at the
///   object's own indentation; an empty object or array is `{\n\n<indent>}` / `[\n\n<indent>]`;
/// - keys in byte order (the model's keys sort the same way in every order Foundation uses);
///   optionals that are `nil` are left out;
/// - a string escapes `"` and `\` with a backslash, U+0008, U+000C, LF, CR and TAB as `\b`,
///   `\f`, `\n`, `\r`, `\t`, other controls below U+0020 as `\u00xx` (lower-case hex), and
///   nothing else (not `/`, not U+007F, not U+2028);
/// - a double is Swift's shortest round-trip `description`, with a final `.0` removed
///   (`220`, `2.5`, `1e-300`, `1.7976931348623157e+308`); an integer its decimal digits.
struct LibraryJSONEncoder {
  var buffer: [UInt8] = []

  init() { buffer.reserveCapacity(1 << 18) }

  // MARK: Primitives

  @inline(__always) mutating func raw(_ text: StaticString) {
    text.withUTF8Buffer { buffer.append(contentsOf: $0) }
  }

  @inline(__always) mutating func spaces(_ count: Int) {
    buffer.append(contentsOf: repeatElement(0x20, count: count))
  }

  mutating func string(_ text: String) {
    buffer.append(0x22)
    var text = text
    text.withUTF8 { bytes in
      var start = 0
      for index in 0..<bytes.count {
        let byte = bytes[index]
        guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
        if start < index { buffer.append(contentsOf: bytes[start..<index]) }
        start = index + 1
        buffer.append(0x5C)
        switch byte {
        case 0x22: buffer.append(0x22)
        case 0x5C: buffer.append(0x5C)
        case 0x08: buffer.append(UInt8(ascii: "b"))
        case 0x0C: buffer.append(UInt8(ascii: "f"))
        case 0x0A: buffer.append(UInt8(ascii: "n"))
        case 0x0D: buffer.append(UInt8(ascii: "r"))
        case 0x09: buffer.append(UInt8(ascii: "t"))
        default:
          let hex: [UInt8] = Array("0123456789abcdef".utf8)
          buffer.append(contentsOf: [
            UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)],
          ])
        }
      }
      if start < bytes.count { buffer.append(contentsOf: bytes[start..<bytes.count]) }
    }
    buffer.append(0x22)
  }

  mutating func number(_ value: Double) throws {
    guard value.isFinite else {
      throw EncodingError.invalidValue(
        value, .init(codingPath: [], debugDescription: "\(value) is not a finite number"))
    }
    var text = value.description
    if text.hasSuffix(".0") { text.removeLast(2) }
    buffer.append(contentsOf: text.utf8)
  }

  mutating func integer(_ value: Int64) {
    buffer.append(contentsOf: String(value).utf8)
  }

  mutating func bool(_ value: Bool) {
    if value { raw("true") } else { raw("false") }
  }

  // MARK: Objects and arrays

  /// The state of an object being written.
  struct Object {
    let indent: Int
    var empty = true
  }

  mutating func beginObject(indent: Int) -> Object {
    buffer.append(0x7B)
    return Object(indent: indent)
  }

  /// Starts the value of `key`.
  mutating func key(_ key: StaticString, in object: inout Object) {
    if object.empty { buffer.append(0x0A) } else { raw(",\n") }
    object.empty = false
    spaces(object.indent + 2)
    buffer.append(0x22)
    raw(key)
    raw("\" : ")
  }

  mutating func end(_ object: Object) {
    if object.empty { buffer.append(0x0A) }
    buffer.append(0x0A)
    spaces(object.indent)
    buffer.append(0x7D)
  }

  /// An array of `items`, each written by `element` at the array's indentation + 2.
  mutating func array<T>(
    _ items: [T], indent: Int, _ element: (inout LibraryJSONEncoder, T, Int) throws -> Void
  ) rethrows {
    buffer.append(0x5B)
    for (index, item) in items.enumerated() {
      if index == 0 { buffer.append(0x0A) } else { raw(",\n") }
      spaces(indent + 2)
      try element(&self, item, indent + 2)
    }
    if items.isEmpty { buffer.append(0x0A) }
    buffer.append(0x0A)
    spaces(indent)
    buffer.append(0x5D)
  }

  // MARK: The model

  mutating func amount(_ amount: Amount, indent: Int) throws {
    var object = beginObject(indent: indent)
    key("unit", in: &object)
    string(amount.unit.rawValue)
    key("value", in: &object)
    try number(amount.value)
    end(object)
  }

  mutating func attachment(_ attachment: Attachment, indent: Int) {
    var object = beginObject(indent: indent)
    key("byteCount", in: &object)
    integer(attachment.byteCount)
    key("fileName", in: &object)
    string(attachment.fileName)
    key("mediaType", in: &object)
    string(attachment.mediaType)
    key("sha256", in: &object)
    string(attachment.sha256)
    end(object)
  }

  mutating func attachments(_ list: [Attachment], indent: Int) {
    array(list, indent: indent) { encoder, item, indent in encoder.attachment(item, indent: indent) }
  }

  mutating func yarn(_ yarn: Yarn, indent: Int) throws {
    var o = beginObject(indent: indent)
    if let value = yarn.brand { key("brand", in: &o); string(value) }
    if let value = yarn.colorFamily { key("colorFamily", in: &o); string(value) }
    if let value = yarn.colorway { key("colorway", in: &o); string(value) }
    if let value = yarn.dateAdded { key("dateAdded", in: &o); string(value.iso8601) }
    if let value = yarn.dyeLot { key("dyeLot", in: &o); string(value) }
    if let value = yarn.fiber { key("fiber", in: &o); string(value) }
    key("id", in: &o)
    string(yarn.id)
    key("isStashed", in: &o)
    bool(yarn.isStashed)
    if let value = yarn.lengthPerSkein {
      key("lengthPerSkein", in: &o)
      try amount(value, indent: indent + 2)
    }
    key("name", in: &o)
    string(yarn.name)
    if let value = yarn.netWeightPerSkein {
      key("netWeightPerSkein", in: &o)
      try amount(value, indent: indent + 2)
    }
    key("photos", in: &o)
    attachments(yarn.photos, indent: indent + 2)
    if let value = yarn.purchaseLocation { key("purchaseLocation", in: &o); string(value) }
    if let value = yarn.quantity {
      key("quantity", in: &o)
      try amount(value, indent: indent + 2)
    }
    if let value = yarn.remainingOverride {
      key("remainingOverride", in: &o)
      try amount(value, indent: indent + 2)
    }
    if let value = yarn.weight { key("weight", in: &o); integer(Int64(value.rawValue)) }
    end(o)
  }

  mutating func project(_ project: Project, indent: Int) throws {
    var o = beginObject(indent: indent)
    if let value = project.craft { key("craft", in: &o); string(value.rawValue) }
    if let value = project.finished { key("finished", in: &o); string(value.iso8601) }
    key("id", in: &o)
    string(project.id)
    key("name", in: &o)
    string(project.name)
    if let pattern = project.pattern {
      key("pattern", in: &o)
      var p = beginObject(indent: indent + 2)
      if let value = pattern.name { key("name", in: &p); string(value) }
      if let value = pattern.pdf {
        key("pdf", in: &p)
        attachment(value, indent: indent + 4)
      }
      if let value = pattern.url { key("url", in: &p); string(value) }
      end(p)
    }
    key("photos", in: &o)
    attachments(project.photos, indent: indent + 2)
    if let value = project.started { key("started", in: &o); string(value.iso8601) }
    key("status", in: &o)
    string(project.status.rawValue)
    key("usages", in: &o)
    try array(project.usages, indent: indent + 2) { encoder, usage, indent in
      var u = encoder.beginObject(indent: indent)
      encoder.key("amount", in: &u)
      try encoder.amount(usage.amount, indent: indent + 2)
      encoder.key("yarnID", in: &u)
      encoder.string(usage.yarnID)
      encoder.end(u)
    }
    end(o)
  }

  mutating func note(_ note: Note, indent: Int) {
    var o = beginObject(indent: indent)
    key("created", in: &o)
    string(JSONCoding.formatInstant(note.created))
    key("id", in: &o)
    string(note.id)
    key("modified", in: &o)
    string(JSONCoding.formatInstant(note.modified))
    if let value = note.projectID { key("projectID", in: &o); string(value) }
    key("text", in: &o)
    string(note.text)
    if let value = note.yarnID { key("yarnID", in: &o); string(value) }
    end(o)
  }

  mutating func session(_ session: TimeSession, indent: Int) {
    var o = beginObject(indent: indent)
    if let value = session.end { key("end", in: &o); string(JSONCoding.formatInstant(value)) }
    key("id", in: &o)
    string(session.id)
    if let value = session.note { key("note", in: &o); string(value) }
    key("projectID", in: &o)
    string(session.projectID)
    key("start", in: &o)
    string(JSONCoding.formatInstant(session.start))
    end(o)
  }
}
