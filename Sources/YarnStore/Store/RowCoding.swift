import YarnModel

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Reads the columns of a result row in order, turning SQL values into model values; a value
/// that cannot be one (an unknown unit token, an impossible day) is `StoreError.invalidData`
/// naming the row's item.
struct RowReader {
  private let statement: Statement
  private var column: Int32 = 0
  let kind: StoreError.Kind
  /// The item's ID, for messages; set by the first `id()` read.
  private(set) var itemID = "?"

  init(_ statement: Statement, kind: StoreError.Kind, id: String = "?") {
    self.statement = statement
    self.kind = kind
    self.itemID = id
  }

  private mutating func next() -> Int32 {
    defer { column += 1 }
    return column
  }

  mutating func skip(_ count: Int32 = 1) { column += count }

  func invalid(_ reason: String) -> StoreError {
    .invalidData(kind: kind, id: itemID, reason: reason)
  }

  mutating func id() throws -> String {
    let value = try text()
    itemID = value
    return value
  }

  mutating func text() throws -> String {
    let index = next()
    guard let value = statement.text(index) else { throw invalid("column \(index) is NULL") }
    return value
  }

  mutating func optionalText() -> String? { statement.text(next()) }

  mutating func integer() throws -> Int64 {
    guard let value = try optionalInteger() else { throw invalid("column \(column - 1) is NULL") }
    return value
  }

  /// The column's INTEGER, `nil` when NULL. Any other value (TEXT such as `hello`, a REAL, a
  /// BLOB — which SQLite would read as 0 or truncate) is `invalidData`: only a library
  /// changed outside yarn holds one, and it must not turn silently into another value.
  mutating func optionalInteger() throws -> Int64? {
    let index = next()
    if statement.isNull(index) { return nil }
    guard statement.isInteger(index) else {
      throw invalid(
        "column \(index) holds \(String(reflecting: statement.text(index) ?? "")), not an integer")
    }
    return statement.int64(index)
  }

  mutating func bool() throws -> Bool { try integer() != 0 }

  mutating func instant() throws -> Date { Date(timeIntervalSince1970: Double(try integer())) }

  mutating func optionalInstant() throws -> Date? {
    try optionalInteger().map { Date(timeIntervalSince1970: Double($0)) }
  }

  mutating func day() throws -> CalendarDate? {
    guard let text = optionalText() else { return nil }
    guard let date = CalendarDate(iso8601: text) else {
      throw invalid(
        "stored day \(LineText.quoted(text)) is not a real YYYY-MM-DD date"
          + CalendarDate.impossibilityClause(in: text))
    }
    return date
  }

  /// An `Amount` from two columns (REAL value, TEXT unit); `nil` when the value is NULL.
  mutating func amount() throws -> Amount? {
    let valueIndex = next()
    let unitText = optionalText()
    guard !statement.isNull(valueIndex) else { return nil }
    guard statement.isNumber(valueIndex) else {
      throw invalid(
        "stored amount \(String(reflecting: statement.text(valueIndex) ?? "")) is not a number")
    }
    let value = statement.double(valueIndex)
    guard let unitText, let unit = YarnUnit(rawValue: unitText) else {
      throw invalid(
        "stored unit \(unitText.map(LineText.quoted) ?? "NULL") is not one of skein, g, oz, yd, m, kg, lb")
    }
    return Amount(value, unit)
  }

  /// A column of tags (v5: the tags joined by a line feed, NULL for none) as a list.
  static func tags(_ text: String?) -> [String] {
    guard let text, !text.isEmpty else { return [] }
    return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  /// A `Gauge` from four columns (REAL stitches, REAL rows, REAL length, TEXT unit); `nil`
  /// when the unit is NULL.
  mutating func gauge() throws -> Gauge? {
    let stitchesIndex = next()
    let rowsIndex = next()
    let lengthIndex = next()
    guard let unitText = optionalText() else { return nil }
    guard let unit = GaugeUnit(rawValue: unitText) else {
      throw invalid("stored gauge unit \(LineText.quoted(unitText)) is not cm or in")
    }
    for index in [stitchesIndex, lengthIndex] where !statement.isNumber(index) {
      throw invalid("stored gauge column \(index) is not a number")
    }
    let rows: Double? = statement.isNull(rowsIndex) ? nil : statement.double(rowsIndex)
    return Gauge(
      stitches: statement.double(stitchesIndex), rows: rows, length: statement.double(lengthIndex),
      unit: unit)
  }

  mutating func requiredAmount() throws -> Amount {
    guard let amount = try amount() else { throw invalid("an amount is NULL") }
    return amount
  }
}

/// Turns model values into bound SQL values, checking what the schema would refuse so the
/// error can say which item and why.
struct RowWriter {
  let kind: StoreError.Kind
  let id: String

  /// Unix seconds, truncated toward the past (so 12:00:00.9 is stored as 12:00:00).
  func instant(_ date: Date) throws -> SQLValue {
    .integer(try LibraryStore.unixSeconds(date, kind: kind, id: id))
  }

  func instant(_ date: Date?) throws -> SQLValue {
    guard let date else { return .null }
    return try instant(date)
  }

  func day(_ date: CalendarDate?) -> SQLValue { .text(date?.iso8601) }

  /// The value and unit columns of an amount (which the item's rules have checked:
  /// `Rules.amount(_:field:dimension:)`).
  func amount(_ amount: Amount?) -> [SQLValue] {
    let columns = amountColumns(amount)
    return [columns.value, columns.unit]
  }

  /// `amount(_:)` as a pair, for a row written as one array.
  func amountColumns(_ amount: Amount?) -> (value: SQLValue, unit: SQLValue) {
    guard let amount else { return (.null, .null) }
    return (.real(amount.value), .text(amount.unit.rawValue))
  }

  /// The tags column: the tags joined by a line feed (which `Rules.tags` keeps out of a
  /// tag), `nil` (NULL) for none.
  static func tags(_ tags: [String]) -> String? {
    tags.isEmpty ? nil : tags.joined(separator: "\n")
  }

  /// The four gauge columns (stitches, rows, length, unit), all NULL for none.
  func gauge(_ gauge: Gauge?) -> [SQLValue] {
    guard let gauge else { return [.null, .null, .null, .null] }
    return [.real(gauge.stitches), .real(gauge.rows), .real(gauge.length), .text(gauge.unit.rawValue)]
  }
}

extension LibraryStore {
  /// Throws the first of `violations` (an item's `ruleViolations()`) as
  /// `StoreError.brokenRule` naming the item (and its `name`); nothing when there is none.
  static func refuse(
    _ violations: [RuleViolation], kind: StoreError.Kind, id: String, name: String? = nil
  ) throws {
    if let first = violations.first {
      throw StoreError.brokenRule(kind: kind, id: id, name: name, violation: first)
    }
  }

  /// Throws `StoreError.brokenRule` when `id`, the ID of an item being added, breaks
  /// `Rules.id(_:)` (it is blank). Checked on insert only: an update keeps the ID it finds
  /// (`Rules`, "An ID").
  static func refuseNew(id: String, kind: StoreError.Kind, name: String? = nil) throws {
    if let violation = Rules.id(id) {
      throw StoreError.brokenRule(kind: kind, id: id, name: name, violation: violation)
    }
  }

  /// `date` as whole Unix seconds, truncated toward the past, the form instants are stored in.
  ///
  /// - Throws: `StoreError.invalidData` when the instant is not finite or beyond ±2^63 s.
  static func unixSeconds(_ date: Date, kind: StoreError.Kind, id: String) throws -> Int64 {
    guard let seconds = Int64(exactly: date.timeIntervalSince1970.rounded(.down)) else {
      throw StoreError.invalidData(
        kind: kind, id: id, reason: "instant \(date.timeIntervalSince1970) is out of range")
    }
    return seconds
  }

  /// `date` truncated to whole seconds, as the store keeps it.
  package static func truncated(_ date: Date) -> Date {
    Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
  }
}
