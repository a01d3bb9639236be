import Foundation

/// Why an item of `library.json` does not decode; `path` is inside the item (`photos[0].sha256`).
struct ItemDecodingError: Error, Equatable, CustomStringConvertible {
  var path: String
  var reason: String

  var description: String { path.isEmpty ? reason : "at \(path): \(reason)" }
}

/// Reads the items of `library.json` — a `Yarn`, `Project`, `Note` or `TimeSession` from its
/// own bytes — without `Codable`: a small RFC 8259 parser into `JSONValue`, then the model's
/// fields by hand, with the rules of the synthesized `Decodable` conformances and
/// `JSONCoding.decoder()`: unknown keys are ignored, an optional may be absent or `null`, a
/// required key must be there with a value of its type, enums take their raw values, days
/// are `YYYY-MM-DD`, instants ISO 8601 (`JSONCoding.parseInstant`). The tests check it
/// against `JSONDecoder` on generated libraries and on broken items (`LibraryJSONCodecTests`).
/// Nesting deeper than 64 levels is refused (no input can exhaust the stack).
enum LibraryItemDecoder {
  /// The deepest nesting of arrays and objects accepted in one item.
  static let maxDepth = 64

  static func decode(key: String, from bytes: UnsafeRawBufferPointer) throws -> LibraryItem {
    var parser = JSONParser(bytes)
    let value = try parser.parseDocument()
    let root = Field(value: value, path: "")
    switch key {
    case "yarns": return .yarn(try yarn(root))
    case "projects": return .project(try project(root))
    case "notes": return .note(try note(root))
    default: return .session(try session(root))
    }
  }

  // MARK: The model

  static func yarn(_ field: Field) throws -> Yarn {
    let o = try field.object()
    return Yarn(
      id: try o.string("id"), name: try o.string("name"), brand: try o.optionalString("brand"),
      colorway: try o.optionalString("colorway"), colorFamily: try o.optionalString("colorFamily"),
      dyeLot: try o.optionalString("dyeLot"),
      weight: try o.optional("weight") { field in
        let number = try field.integer()
        guard let weight = YarnWeight(rawValue: Int(exactly: number) ?? -1) else {
          throw field.error("\(number) is not a yarn weight (0 to 7)")
        }
        return weight
      },
      fiber: try o.optionalString("fiber"),
      lengthPerSkein: try o.optional("lengthPerSkein", amount),
      netWeightPerSkein: try o.optional("netWeightPerSkein", amount),
      quantity: try o.optional("quantity", amount),
      remainingOverride: try o.optional("remainingOverride", amount),
      purchaseLocation: try o.optionalString("purchaseLocation"),
      dateAdded: try o.optional("dateAdded", day), isStashed: try o.required("isStashed") { try $0.bool() },
      photos: try o.required("photos") { try $0.array(attachment) })
  }

  static func project(_ field: Field) throws -> Project {
    let o = try field.object()
    return Project(
      id: try o.string("id"), name: try o.string("name"),
      craft: try o.optional("craft") { try $0.rawValue(Craft.self) },
      status: try o.required("status") { try $0.rawValue(ProjectStatus.self) },
      pattern: try o.optional("pattern") { field in
        let p = try field.object()
        return Pattern(
          name: try p.optionalString("name"), url: try p.optionalString("url"),
          pdf: try p.optional("pdf", attachment))
      },
      started: try o.optional("started", day), finished: try o.optional("finished", day),
      usages: try o.required("usages") { field in
        try field.array { field in
          let u = try field.object()
          return YarnUsage(yarnID: try u.string("yarnID"), amount: try u.required("amount", amount))
        }
      },
      photos: try o.required("photos") { try $0.array(attachment) })
  }

  static func note(_ field: Field) throws -> Note {
    let o = try field.object()
    let id = try o.string("id")
    let yarnID = try o.optionalString("yarnID")
    let projectID = try o.optionalString("projectID")
    var note = Note(
      id: id, subject: .yarn(""), text: try o.string("text"),
      created: try o.required("created", instant), modified: try o.required("modified", instant))
    note.yarnID = yarnID
    note.projectID = projectID
    return note
  }

  static func session(_ field: Field) throws -> TimeSession {
    let o = try field.object()
    return TimeSession(
      id: try o.string("id"), projectID: try o.string("projectID"),
      start: try o.required("start", instant), end: try o.optional("end", instant),
      note: try o.optionalString("note"))
  }

  static func amount(_ field: Field) throws -> Amount {
    let o = try field.object()
    return Amount(
      try o.required("value") { try $0.double() }, try o.required("unit") { try $0.rawValue(YarnUnit.self) })
  }

  static func attachment(_ field: Field) throws -> Attachment {
    let o = try field.object()
    return Attachment(
      fileName: try o.string("fileName"), mediaType: try o.string("mediaType"),
      byteCount: try o.required("byteCount") { try $0.integer() }, sha256: try o.string("sha256"))
  }

  static func day(_ field: Field) throws -> CalendarDate {
    let text = try field.string()
    guard let day = CalendarDate(iso8601: text) else {
      throw field.error("expected a date as YYYY-MM-DD, found \"\(text)\"")
    }
    return day
  }

  static func instant(_ field: Field) throws -> Date {
    let text = try field.string()
    if let date = fastInstant(text) ?? JSONCoding.parseInstant(text) { return date }
    throw field.error("expected an ISO 8601 instant such as 2026-03-29T14:30:00Z, found \"\(text)\"")
  }

  /// `YYYY-MM-DDTHH:MM:SSZ` (what yarn writes) without a date formatter; `nil` for any other
  /// form or an impossible date, which then goes to `JSONCoding.parseInstant`.
  static func fastInstant(_ text: String) -> Date? {
    var text = text
    return text.withUTF8 { b -> Date? in
      guard b.count == 20, b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x54, b[13] == 0x3A, b[16] == 0x3A,
        b[19] == 0x5A
      else { return nil }
      func number(_ from: Int, _ count: Int) -> Int? {
        var value = 0
        for index in from..<(from + count) {
          let digit = Int(b[index]) - 48
          guard (0...9).contains(digit) else { return nil }
          value = value * 10 + digit
        }
        return value
      }
      guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
        let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
        CalendarDate(year: year, month: month, day: day) != nil, hour < 24, minute < 60, second < 60
      else { return nil }
      // Days from civil (H. Hinnant), the inverse of JSONCoding.formatInstant.
      let y = month <= 2 ? year - 1 : year
      let era = (y >= 0 ? y : y - 399) / 400
      let yoe = y - era * 400
      let mp = (month + 9) % 12
      let doy = (153 * mp + 2) / 5 + day - 1
      let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
      let days = era * 146_097 + doe - 719_468
      return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3600 + minute * 60 + second))
    }
  }
}

/// A JSON value (RFC 8259). Numbers keep their text, read when their type is known.
indirect enum JSONValue {
  /// Members in order (duplicates kept; the last one counts, as in `JSONDecoder`). Objects
  /// here are small, so a search beats hashing every key.
  case object([(key: String, value: JSONValue)])
  case array([JSONValue])
  case string(String)
  case number(String)
  case bool(Bool)
  case null

  var kind: String {
    switch self {
    case .object: "an object"
    case .array: "an array"
    case .string: "a string"
    case .number: "a number"
    case .bool: "a boolean"
    case .null: "null"
    }
  }
}

/// A value with its path, for errors that say where.
struct Field {
  let value: JSONValue
  let path: String

  func error(_ reason: String) -> ItemDecodingError { ItemDecodingError(path: path, reason: reason) }

  func mismatch(_ expected: String) -> ItemDecodingError {
    error("expected \(expected), found \(value.kind)")
  }

  func object() throws -> ObjectFields {
    guard case .object(let members) = value else { throw mismatch("an object") }
    return ObjectFields(members: members, path: path)
  }

  func array<T>(_ element: (Field) throws -> T) throws -> [T] {
    guard case .array(let items) = value else { throw mismatch("an array") }
    return try items.enumerated().map { index, item in
      try element(Field(value: item, path: path + "[\(index)]"))
    }
  }

  func string() throws -> String {
    guard case .string(let text) = value else { throw mismatch("a string") }
    return text
  }

  func bool() throws -> Bool {
    guard case .bool(let flag) = value else { throw mismatch("a boolean") }
    return flag
  }

  func double() throws -> Double {
    guard case .number(let text) = value else { throw mismatch("a number") }
    guard let number = Double(text), number.isFinite else {
      throw error("the number \(text) does not fit in a double")
    }
    return number
  }

  /// An integer: a number without a fraction that fits in 64 bits (`3`, also `3.0`, `3e0`).
  func integer() throws -> Int64 {
    guard case .number(let text) = value else { throw mismatch("a number") }
    if let number = Int64(text) { return number }
    if let number = Double(text), number.rounded() == number, let exact = Int64(exactly: number) {
      return exact
    }
    throw error("the number \(text) is not an integer that fits in 64 bits")
  }

  func rawValue<T: RawRepresentable>(_ type: T.Type) throws -> T where T.RawValue == String {
    let text = try string()
    guard let value = T(rawValue: text) else {
      throw error("\"\(text)\" is not a valid \(String(describing: T.self))")
    }
    return value
  }
}

/// The members of an object, read by key.
struct ObjectFields {
  let members: [(key: String, value: JSONValue)]
  let path: String

  /// The value of the last member named `key`.
  private func value(_ key: String) -> JSONValue? {
    members.last { $0.key == key }?.value
  }

  private func field(_ key: String, _ value: JSONValue) -> Field {
    Field(value: value, path: path.isEmpty ? key : path + "." + key)
  }

  func required<T>(_ key: String, _ read: (Field) throws -> T) throws -> T {
    guard let value = value(key) else {
      throw ItemDecodingError(path: path, reason: "missing key \"\(key)\"")
    }
    return try read(field(key, value))
  }

  func optional<T>(_ key: String, _ read: (Field) throws -> T) throws -> T? {
    guard let value = value(key) else { return nil }
    if case .null = value { return nil }
    return try read(field(key, value))
  }

  func string(_ key: String) throws -> String { try required(key) { try $0.string() } }
  func optionalString(_ key: String) throws -> String? { try optional(key) { try $0.string() } }
}

/// A strict RFC 8259 parser over bytes: UTF-8 checked, numbers by the JSON grammar, no
/// trailing data, nesting at most `LibraryItemDecoder.maxDepth`.
struct JSONParser {
  private let bytes: UnsafeRawBufferPointer
  private var index = 0
  private var depth = 0

  init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

  private func fail(_ reason: String) -> ItemDecodingError {
    ItemDecodingError(path: "", reason: "not valid JSON at byte \(index) of the item: \(reason)")
  }

  private mutating func skipSpace() {
    while index < bytes.count {
      let byte = bytes[index]
      guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
      index += 1
    }
  }

  mutating func parseDocument() throws -> JSONValue {
    let value = try parseValue()
    skipSpace()
    guard index == bytes.count else { throw fail("unexpected data after the value") }
    return value
  }

  private mutating func parseValue() throws -> JSONValue {
    skipSpace()
    guard index < bytes.count else { throw fail("unexpected end") }
    switch bytes[index] {
    case 0x7B: return try parseObject()
    case 0x5B: return try parseArray()
    case 0x22: return .string(try parseString())
    case 0x74: return try literal("true", .bool(true))
    case 0x66: return try literal("false", .bool(false))
    case 0x6E: return try literal("null", .null)
    default: return .number(try parseNumber())
    }
  }

  private mutating func literal(_ word: StaticString, _ value: JSONValue) throws -> JSONValue {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count else { throw fail("unexpected end") }
    for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
      throw fail("unknown literal")
    }
    index += count
    return value
  }

  private mutating func enter() throws {
    depth += 1
    guard depth <= LibraryItemDecoder.maxDepth else {
      throw fail("nested more than \(LibraryItemDecoder.maxDepth) levels deep")
    }
  }

  private mutating func parseObject() throws -> JSONValue {
    try enter()
    defer { depth -= 1 }
    index += 1
    var members: [(key: String, value: JSONValue)] = []
    skipSpace()
    if index < bytes.count, bytes[index] == 0x7D {
      index += 1
      return .object(members)
    }
    while true {
      skipSpace()
      guard index < bytes.count, bytes[index] == 0x22 else { throw fail("expected a key") }
      let key = try parseString()
      skipSpace()
      guard index < bytes.count, bytes[index] == 0x3A else { throw fail("expected ':'") }
      index += 1
      members.append((key, try parseValue()))
      skipSpace()
      guard index < bytes.count else { throw fail("unexpected end") }
      if bytes[index] == 0x2C {
        index += 1
        continue
      }
      guard bytes[index] == 0x7D else { throw fail("expected ',' or '}'") }
      index += 1
      return .object(members)
    }
  }

  private mutating func parseArray() throws -> JSONValue {
    try enter()
    defer { depth -= 1 }
    index += 1
    var items: [JSONValue] = []
    skipSpace()
    if index < bytes.count, bytes[index] == 0x5D {
      index += 1
      return .array(items)
    }
    while true {
      items.append(try parseValue())
      skipSpace()
      guard index < bytes.count else { throw fail("unexpected end") }
      if bytes[index] == 0x2C {
        index += 1
        continue
      }
      guard bytes[index] == 0x5D else { throw fail("expected ',' or ']'") }
      index += 1
      return .array(items)
    }
  }

  private mutating func parseNumber() throws -> String {
    let start = index
    func digits() -> Int {
      let from = index
      while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
      return index - from
    }
    if index < bytes.count, bytes[index] == 0x2D { index += 1 }
    guard index < bytes.count else { throw fail("a number ends too early") }
    if bytes[index] == 0x30 {
      index += 1
    } else {
      guard digits() > 0 else { throw fail("expected a value") }
    }
    if index < bytes.count, bytes[index] == 0x2E {
      index += 1
      guard digits() > 0 else { throw fail("expected digits after '.'") }
    }
    if index < bytes.count, bytes[index] == 0x65 || bytes[index] == 0x45 {
      index += 1
      if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D { index += 1 }
      guard digits() > 0 else { throw fail("expected digits in the exponent") }
    }
    return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
  }

  private mutating func hex4() throws -> UInt32 {
    guard index + 4 <= bytes.count else { throw fail("a \\u escape ends too early") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt8
      switch byte {
      case 0x30...0x39: digit = byte - 0x30
      case 0x41...0x46: digit = byte - 0x41 + 10
      case 0x61...0x66: digit = byte - 0x61 + 10
      default: throw fail("a \\u escape with a non-hex digit")
      }
      value = value << 4 | UInt32(digit)
      index += 1
    }
    return value
  }

  private mutating func parseString() throws -> String {
    index += 1  // the opening quote
    let start = index
    // Fast path: no escapes.
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 0x22 {
        let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
        index += 1
        guard let text = String(validating: raw, as: UTF8.self) else {
          throw fail("a string that is not UTF-8")
        }
        return text
      }
      if byte == 0x5C { break }
      guard byte >= 0x20 else { throw fail("a control character in a string") }
      index += 1
    }
    var out = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      switch byte {
      case 0x22:
        guard let text = String(validating: out, as: UTF8.self) else {
          throw fail("a string that is not UTF-8")
        }
        return text
      case 0x5C:
        guard index < bytes.count else { throw fail("a string ends too early") }
        let escape = bytes[index]
        index += 1
        switch escape {
        case 0x22: out.append(0x22)
        case 0x5C: out.append(0x5C)
        case 0x2F: out.append(0x2F)
        case 0x62: out.append(0x08)
        case 0x66: out.append(0x0C)
        case 0x6E: out.append(0x0A)
        case 0x72: out.append(0x0D)
        case 0x74: out.append(0x09)
        case 0x75:
          var scalar = try hex4()
          if (0xD800...0xDBFF).contains(scalar) {
            guard index + 2 <= bytes.count, bytes[index] == 0x5C, bytes[index + 1] == 0x75 else {
              throw fail("a lone surrogate in a \\u escape")
            }
            index += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw fail("a lone surrogate in a \\u escape") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
          } else if (0xDC00...0xDFFF).contains(scalar) {
            throw fail("a lone surrogate in a \\u escape")
          }
          guard let unicode = Unicode.Scalar(scalar) else { throw fail("an invalid \\u escape") }
          out.append(contentsOf: String(unicode).utf8)
        default: throw fail("an unknown escape")
        }
      default:
        guard byte >= 0x20 else { throw fail("a control character in a string") }
        out.append(byte)
      }
    }
    throw fail("a string ends too early")
  }
}
