import YarnModel
import YarnStore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension StashCSV {
  /// One field an import changes in an existing yarn, as people read it.
  public struct FieldChange: Hashable, Sendable, CustomStringConvertible {
    /// The column whose value changes (`.remaining` for the remaining override).
    public let column: Column
    /// The value before, as text (`Ruby`, `3 skeins`, `2024-05-01`), or `nil` for unknown.
    public let old: String?
    /// The value after, or `nil` for unknown.
    public let new: String?

    /// `Colorway Ruby → Garnet`; an unknown value is `(none)`; the remaining override is
    /// called `Remaining override`.
    public var description: String {
      FieldChange.text(column == .remaining ? "Remaining override" : column.rawValue, old: old, new: new)
    }

    /// `Colorway Ruby → Garnet`, as both imports say a field changes: an unknown value is
    /// `(none)`, and the values are shown as every message shows one (`LineText.visible`: a
    /// U+202E RIGHT-TO-LEFT OVERRIDE in a colorway would reverse the rest of the line).
    static func text(_ name: String, old: String?, new: String?) -> String {
      "\(name) \(old.map(LineText.visible) ?? "(none)") → \(new.map(LineText.visible) ?? "(none)")"
    }
  }

  /// An existing yarn a row of the file changes: which yarn, on which line, and every field
  /// that changes, so that nothing an import replaces goes unsaid.
  public struct YarnUpdate: Hashable, Sendable {
    /// The 1-based line the row starts on.
    public let line: Int
    /// The yarn's ID (it does not change).
    public let yarnID: String
    /// The yarn's name after the import.
    public let name: String
    /// The fields that change, in the columns' order.
    public let changes: [FieldChange]
  }

  /// A Remaining cell the import takes as the yarn's remaining override (Remaining Source
  /// says `override`, or does not say and it differs from the estimate).
  public struct RemainingOverride: Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line the row starts on.
    public let line: Int
    /// The yarn's ID.
    public let yarnID: String
    /// The yarn's name.
    public private(set) var name: String
    /// The override the import stores.
    public let remaining: Amount
    /// The estimate from the finished projects (quantity less usages) of the yarn as the
    /// row makes it; `nil` when there is no quantity.
    public let estimate: Amount?
    /// Whether `remaining` is the same amount as `estimate` (`StashCSV.isSame(_:as:putUp:)`):
    /// only where Remaining Source says `override`, which keeps such a figure as the override.
    public let isSameAsEstimate: Bool

    init(line: Int, yarnID: String, name: String, remaining: Amount, estimate: Amount?, putUp: PutUp) {
      self.line = line
      self.yarnID = yarnID
      self.name = name
      self.remaining = remaining
      self.estimate = estimate
      isSameAsEstimate = StashCSV.isSame(remaining, as: estimate, putUp: putUp)
    }

    /// The same override for the yarn named `name`.
    func named(_ name: String) -> RemainingOverride {
      var copy = self
      copy.name = name
      return copy
    }

    /// `Remaining of “Cascade 220” taken as 120 g (estimate 150 g)`
    /// (`StashCSV.taken(_:of:estimate:isSameAsEstimate:field:)`).
    public var description: String {
      StashCSV.taken(
        remaining, of: name, estimate: estimate, isSameAsEstimate: isSameAsEstimate, field: "Remaining Source"
      )
    }
  }

  /// A figure taken as a yarn's remaining override, in the words of both imports: `Remaining
  /// of “Cascade 220” taken as 120 g (estimate 150 g)` (`no estimate: the quantity is
  /// unknown` without a quantity); where the two are the same amount (`field`, the file's
  /// word for who made the figure, said `override`), `Remaining of “Plain” taken as 2 skeins:
  /// Remaining Source says override (the estimate is the same)`, so that the two figures
  /// printed never look equal.
  static func taken(
    _ remaining: Amount, of name: String, estimate: Amount?, isSameAsEstimate: Bool, field: String
  ) -> String {
    let head = "Remaining of “\(LineText.visible(name))” taken as \(remaining)"
    if isSameAsEstimate { return head + ": \(field) says override (the estimate is the same)" }
    return head + " (" + (estimate.map { "estimate \($0)" } ?? "no estimate: the quantity is unknown") + ")"
  }

  /// Why a figure the file says was yarn's estimate (`RemainingReading.ignoredEstimate`) is
  /// no override, in the words of both imports: `3 skeins was yarn's estimate when the file
  /// was written (Remaining Source estimate), not an override: the remaining is the estimate
  /// now, 2 skeins; to keep 3 skeins as the override, write override in Remaining Source`.
  ///
  /// - Parameters:
  ///   - figure: the figure the file gives.
  ///   - field: where the file says who made it (`Remaining Source`, `yarn.remaining_source`).
  ///   - said: what it says there (`estimate`).
  ///   - yarn: the yarn as the file makes it; its estimate now is said.
  ///   - usages: the usages counted against the yarn.
  static func ignoredEstimate(
    _ figure: Amount, field: String, said: String, yarn: Yarn, usages: CountedUsages
  ) -> String {
    var plain = yarn
    plain.remainingOverride = nil
    return "\(figure) was yarn's estimate when the file was written (\(field) \(said)), not an override: "
      + (usages.remaining(of: plain).remaining.map { "the remaining is the estimate now, \($0)" }
        ?? "without a quantity there is no estimate")
      + "; to keep \(figure) as the override, write override in \(field)"
  }

  /// The fields that differ between `old` and `new`, in the columns' order.
  static func changes(from old: Yarn, to new: Yarn) -> [FieldChange] {
    let columns: [(Column, (Yarn) -> String?)] = [
      (.name, { $0.name }), (.brand, \.brand), (.colorway, \.colorway), (.colorFamily, \.colorFamily),
      (.dyeLot, \.dyeLot), (.weight, { $0.weight?.label }), (.fiber, \.fiber),
      (.lengthPerSkein, { $0.lengthPerSkein.map(exact) }),
      (.netWeightPerSkein, { $0.netWeightPerSkein.map(exact) }),
      (.quantity, { $0.quantity.map(exact) }), (.remaining, { $0.remainingOverride.map(exact) }),
      (.purchaseLocation, \.purchaseLocation), (.dateAdded, { $0.dateAdded?.iso8601 }),
      (.status, { $0.status.rawValue }), (.price, { $0.price?.description }),
      (.storedIn, \.storedIn), (.tags, { $0.tags.isEmpty ? nil : Tags.cell($0.tags) }),
    ]
    return columns.compactMap { column, text in
      let before = text(old)
      let after = text(new)
      return before == after ? nil : FieldChange(column: column, old: before, new: after)
    }
  }

  /// An amount as yarn shows it (`2.5 skeins`, `0.33 oz`), or with every digit the CSV
  /// writes when two decimals would round it (so that a change is never shown as
  /// `2.33 skeins → 2.33 skeins`).
  static func exact(_ amount: Amount) -> String {
    if Double(Amount.format(amount.value)) == amount.value { return amount.description }
    return text(amount)
  }

  /// An amount with every digit the CSV writes and its unit: `3 skeins`, `1 skein`,
  /// `266.66666666666663 g`; `Amount(parsing:)` reads it back as the same amount. The export
  /// writes an amount so when its unit column is not among the columns.
  static func text(_ amount: Amount) -> String { amount.exactDescription }
}

/// What a row without an ID is matched on: the name, brand, colorway and dye lot, compared
/// without regard to case and to runs of spaces; a column the file does not have is not
/// compared (`nil`), and an unknown value is the empty string.
struct StashMatchKey: Hashable {
  var name: String
  var brand: String?
  var colorway: String?
  var dyeLot: String?

  /// The key of a library yarn, comparing only the columns `compared` holds.
  init(_ yarn: Yarn, comparing compared: Set<StashCSV.Column>) {
    self.init(
      name: yarn.name, brand: compared.contains(.brand) ? .some(yarn.brand) : nil,
      colorway: compared.contains(.colorway) ? .some(yarn.colorway) : nil,
      dyeLot: compared.contains(.dyeLot) ? .some(yarn.dyeLot) : nil)
  }

  /// A key from values; the outer `nil` of a field means "not compared", the inner one
  /// "unknown".
  init(name: String, brand: String??, colorway: String??, dyeLot: String??) {
    self.name = StashMatchKey.normalized(name)
    self.brand = brand.map { StashMatchKey.normalized($0 ?? "") }
    self.colorway = colorway.map { StashMatchKey.normalized($0 ?? "") }
    self.dyeLot = dyeLot.map { StashMatchKey.normalized($0 ?? "") }
  }

  /// What becomes of one item without an ID among those that share a key
  /// (`settle(_:among:unchanged:)`).
  enum Outcome<Item> {
    /// The item leaves this library yarn as it is (the item as read against it).
    case unchanged(Item, Yarn)
    /// The item updates this library yarn: the one item and the one yarn of the key left.
    case update(Item, Yarn)
    /// The item adds a yarn: no library yarn of the key is left.
    case create(Item)
    /// The item cannot be matched: it and the other `items` fit the `yarns` left.
    case ambiguous(Item, items: [Item], yarns: [Yarn])
  }

  /// The rule of matching items without an ID (CSV rows, WEFT materials whose ID is no
  /// yarn ID) to the library yarns of one key: each item, in order, takes the first yarn of
  /// `free` it leaves unchanged (`unchanged` returns the item as read against the yarn, or
  /// `nil` when it would change it); of the items and yarns left, a single item updates a
  /// single yarn, items with no yarn left add yarns, and any other case (one item, several
  /// yarns; several items, one yarn or more) leaves each such item ambiguous.
  ///
  /// - Throws: `CancellationError` when the current task is cancelled (checked per item).
  static func settle<Item>(
    _ items: [Item], among free: [Yarn], unchanged: (Item, Yarn) throws -> Item?
  ) throws -> [Outcome<Item>] {
    var free = free
    var outcomes: [Outcome<Item>] = []
    var left: [Item] = []
    for item in items {
      try Task.checkCancellation()
      var found: (index: Int, item: Item)?
      for (position, yarn) in free.enumerated() {
        if let read = try unchanged(item, yarn) {
          found = (position, read)
          break
        }
      }
      if let found {
        outcomes.append(.unchanged(found.item, free.remove(at: found.index)))
      } else {
        left.append(item)
      }
    }
    if free.isEmpty {
      outcomes += left.map { .create($0) }
    } else if left.count == 1 && free.count == 1, let item = left.first {
      outcomes.append(.update(item, free[0]))
    } else {
      outcomes += left.map { .ambiguous($0, items: left, yarns: free) }
    }
    return outcomes
  }

  /// `text` in lower case (Unicode's full mapping), without spaces around it and with every
  /// run of white space inside as one space: `Cascade  220 ` and `cascade 220` are one key.
  static func normalized(_ text: String) -> String {
    // Printable ASCII without spaces at either end or two spaces in a row (most cells): its
    // key is itself with A-Z in lower case, made without splitting it into words.
    var previous: UInt8 = 0x20
    var isSimple = true
    var hasCapital = false
    for byte in text.utf8 {
      guard (0x20...0x7E).contains(byte), byte != 0x20 || previous != 0x20 else {
        isSimple = false
        break
      }
      if (0x41...0x5A).contains(byte) { hasCapital = true }
      previous = byte
    }
    if isSimple && previous != 0x20 {
      guard hasCapital else { return text }
      return String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
    return text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }
}

extension StashCSV {
  /// Whether `cell` is the same amount as `other` as yarn shows amounts: converted (with
  /// `putUp`) to `other`'s unit, or `other` converted to `cell`'s, the two are within 0.005
  /// of each other (half the last of the two decimals yarn shows amounts with), or are
  /// equal once rounded to two decimals as `Amount`'s description rounds them. So the
  /// estimate as `stash show` prints it in any unit (`266.67 g ≈ 2.67 skeins` for
  /// 266.666… g) is the estimate, and a spreadsheet that saved 2.3333333333333335 as `2.33`
  /// or `2.333333` has not changed it; and two amounts that are not the same never print
  /// alike in one unit. `false` when `other` is `nil` or the units do not convert.
  static func isSame(_ cell: Amount, as other: Amount?, putUp: PutUp) -> Bool {
    guard let other else { return false }
    func close(_ a: Amount, _ b: Amount) -> Bool {
      guard let a = try? UnitConversion.convert(a, to: b.unit, putUp: putUp) else { return false }
      return abs(a.value - b.value) <= 0.005 + 1e-9 * abs(b.value)
        || Amount.format(a.value) == Amount.format(b.value)
    }
    return close(cell, other) || close(other, cell)
  }

  /// Who made a figure of what is left of a yarn that a file gives (a CSV Remaining cell, a
  /// WEFT material's `quantity` beside `original_quantity`), as the file says.
  enum FigureSource {
    /// The user: Remaining Source `override`.
    case user
    /// yarn, as the yarn's estimate when it wrote the file: Remaining Source `estimate`,
    /// `incomplete` or `overdrawn`.
    case estimate
    /// The file does not say: no Remaining Source column (another program's file), an
    /// empty or blank cell, `unknown` (yarn writes no figure beside it), a WEFT material without
    /// `yarn.remaining_source`.
    case unsaid

    /// Who made a figure, by the word yarn writes for it (`RemainingEstimate.Source`'s raw
    /// values, in a CSV's Remaining Source or a WEFT material's `yarn.remaining_source`), in
    /// any case, the spaces around it aside; empty or blank (`LineText.isBlank`: spaces, or
    /// invisible characters such as U+200B only) is unsaid. `nil` for any other word.
    init?(said word: String) {
      switch LineText.isBlank(word) ? "" : word.trimmingSpaces().lowercased() {
      case "override": self = .user
      case "estimate", "incomplete", "overdrawn": self = .estimate
      case "", "unknown": self = .unsaid
      default: return nil
      }
    }
  }

  /// What a figure of what is left makes of a yarn's remaining override
  /// (`remaining(_:source:yarn:base:usages:)`).
  enum RemainingReading {
    /// The yarn's override is this amount (the figure, or the yarn's own override it is).
    case override(Amount)
    /// No override: the figure is the yarn's estimate.
    case estimate
    /// No override: the figure is an estimate yarn made when it wrote the file, and not the
    /// estimate now.
    case ignoredEstimate
  }

  /// The one rule of a figure of what is left, read by the stash CSV import and the WEFT
  /// import (docs/CSV.md, "Remaining: estimate or override"), for a figure that is there:
  ///
  /// 1. the yarn's own override (`base`'s, `isSame(_:as:putUp:)`, so as an export or `stash
  ///    show` prints it) keeps it as it is;
  /// 2. a figure of the user's is the override;
  /// 3. a figure that is the estimate of the yarn, as the library has it (`base`) or as the
  ///    file makes it (`yarn`), counting the finished projects or those in progress too, is
  ///    no override;
  /// 4. any other figure is the override when the file does not say who made it, and no
  ///    override (`ignoredEstimate`) when the file says it was yarn's estimate: yarn's own
  ///    figure never pins the stash.
  ///
  /// - Parameters:
  ///   - figure: the figure the file gives.
  ///   - source: who made it, as the file says.
  ///   - yarn: the yarn as the file makes it (its override not counted).
  ///   - base: the library's yarn it updates, or `nil` for a new yarn.
  ///   - usages: the usages counted against the yarn.
  static func remaining(
    _ figure: Amount, source: FigureSource, yarn: Yarn, base: Yarn?, usages: CountedUsages
  ) -> RemainingReading {
    if let own = base?.remainingOverride, isSame(figure, as: own, putUp: yarn.putUp) { return .override(own) }
    if source == .user { return .override(figure) }
    let isEstimate = [yarn, base].contains { candidate in
      guard var plain = candidate else { return false }
      plain.remainingOverride = nil
      return [false, true].contains { active in
        isSame(figure, as: usages.remaining(of: plain, includeActive: active).remaining, putUp: plain.putUp)
      }
    }
    if isEstimate { return .estimate }
    return source == .estimate ? .ignoredEstimate : .override(figure)
  }
}

/// Settles each row of a stash CSV against the library, building the import's plan.
///
/// A row with an ID is settled as it is read: the yarn with that ID, or a new yarn with it.
/// A row without an ID is matched by `StashMatchKey` among the library yarns as they were
/// before the import: within one key, each row takes the first library yarn it leaves
/// unchanged; of the rows and yarns left, a single row updates a single yarn, rows with no
/// yarn left are added, and any other case (one row, several yarns; several rows, one yarn
/// or more) is a problem of each such row. A library yarn that a row names by ID is matched
/// by no other row.
///
/// The matches are made by a first reading of the file (`collect(_:)` each record, then
/// `match()`), which keeps only the rows whose key a library yarn has; the second reading
/// (`read(_:)`) settles every row in the file's order and puts what it settles into the
/// destination, so new yarns are created in the file's order.
struct StashMerger {
  let layout: StashHeaderLayout
  let options: StashCSV.ImportOptions
  let library: StashCSV.ImportLibrary
  let fieldCount: Int
  let destination: StashCSV.Destination
  /// The key columns other than Name that the file has.
  let compared: Set<StashCSV.Column>
  private var plan: StashCSV.ImportPlan
  private var rowsByID: [String: Int] = [:]
  /// Whether the library held yarns before the import. When it held none, no yarn has a
  /// row's ID (a second row with an ID is refused before any look-up), so none is looked up.
  var libraryHasYarns = false
  /// The library yarns' IDs by key, in creation order, as they were before the import.
  private var keyIndex: [StashMatchKey: [String]] = [:]
  /// The first reading's: the IDs the rows give, and the rows without one whose key is in
  /// `keyIndex`, by key, the keys in the order they first appear.
  private var named: Set<String> = []
  private var waiting: [StashMatchKey: [StashRowReader]] = [:]
  private var keyOrder: [StashMatchKey] = []
  /// What `match()` decided for a row without an ID, by line; a row without a decision adds
  /// a yarn.
  private var decisions: [Int: Decision] = [:]

  enum Decision {
    /// The row is read into this library yarn (photos included).
    case yarn(Yarn)
    /// The row fits several yarns, or its yarn fits other rows too.
    case ambiguous(StashCSV.ImportProblem)
  }

  init(
    layout: StashHeaderLayout, options: StashCSV.ImportOptions, library: StashCSV.ImportLibrary,
    fieldCount: Int, destination: StashCSV.Destination
  ) {
    self.layout = layout
    self.options = options
    self.library = library
    self.fieldCount = fieldCount
    self.destination = destination
    compared = Set([StashCSV.Column.brand, .colorway, .dyeLot].filter { layout.index[$0] != nil })
    plan = StashCSV.ImportPlan(dialect: layout.dialect)
    plan.ignoredColumns = layout.ignored
    plan.problems = layout.problems
  }

  /// What the key compares, for messages: `name, colorway and dye lot`.
  var keyWords: String {
    let words =
      ["name"]
      + [(StashCSV.Column.brand, "brand"), (.colorway, "colorway"), (.dyeLot, "dye lot")]
      .filter { compared.contains($0.0) }.map(\.1)
    guard words.count > 1, let last = words.last else { return "name" }
    return words.dropLast().joined(separator: ", ") + " and " + last
  }

  /// Indexes the library's yarns by key (one walk over the stash without photos), before
  /// the import changes any.
  mutating func indexLibrary() throws {
    var index: [StashMatchKey: [String]] = [:]
    let compared = compared
    try library.forEachYarn { yarn in
      index[StashMatchKey(yarn, comparing: compared), default: []].append(yarn.id)
    }
    keyIndex = index
  }

  /// The first reading of a record: notes the ID it gives, or keeps the row when it has
  /// none and its key is a library yarn's.
  mutating func collect(_ record: CSVRecord) {
    let row = StashRowReader(record: record, layout: layout, options: options, expectedCount: fieldCount)
    guard row.fieldCountIsRight else { return }
    if let given = row.cell(.id), !LineText.isBlank(given) {
      // A row with an ID cell is never matched by key, whether the ID is good or not.
      if StashCSV.isValidImportedID(given) { named.insert(given) }
    } else if let key = row.matchKey(comparing: compared), keyIndex[key] != nil {
      if waiting[key] == nil { keyOrder.append(key) }
      waiting[key, default: []].append(row)
    }
  }

  /// Matches the rows `collect(_:)` kept to the library yarns of their key (see the type's
  /// rules), deciding each one's yarn before the second reading.
  mutating func match() throws {
    for key in keyOrder {
      let free: [Yarn] = try (keyIndex[key] ?? []).filter { !named.contains($0) }.compactMap {
        try library.yarn($0)
      }
      // The rule of `StashMatchKey.settle`, shared with the WEFT import.
      let outcomes = try StashMatchKey.settle(
        waiting[key, default: []], among: free,
        unchanged: { row, yarn in
          let attempt = try reading(row, matching: yarn)
          return attempt.problems.isEmpty && attempt.yarn == yarn ? row : nil
        })
      for outcome in outcomes {
        switch outcome {
        case .unchanged(let row, let yarn), .update(let row, let yarn):
          decisions[row.record.line] = .yarn(yarn)
        case .create:
          break  // the rows left add yarns
        case .ambiguous(let row, let rows, let yarns):
          decisions[row.record.line] = .ambiguous(
            ambiguity(of: row.record.line, rows: rows.map(\.record.line), yarns: yarns))
        }
      }
    }
    named = []
    waiting = [:]
    keyOrder = []
  }

  /// The second reading of a record: settles it against the yarn with its ID, the yarn
  /// `match()` chose, or as a new yarn.
  mutating func read(_ record: CSVRecord) throws {
    var row = StashRowReader(record: record, layout: layout, options: options, expectedCount: fieldCount)
    guard row.fieldCountIsRight else {
      plan.problems.append(contentsOf: row.problems)
      return
    }
    if let id = row.readID(rowsByID: &rowsByID) {
      let existing = libraryHasYarns ? try library.yarn(id) : nil
      // The key is made only when some library yarn could have it.
      if existing == nil, !keyIndex.isEmpty, let key = row.matchKey(comparing: compared),
        let others = keyIndex[key]
      {
        plan.warnings.append(
          .init(
            line: record.line, column: layout.header(of: .id),
            reason: "no yarn has this ID, so the row adds a yarn, though "
              + (others.count == 1 ? "the yarn \(others[0]) has" : "the yarns \(list(others)) have")
              + " the same \(keyWords)"))
      }
      row.read(base: existing, id: id, usages: try usages(of: existing))
      try settle(row, base: existing)
    } else if row.problems.isEmpty, let decision = decisions.removeValue(forKey: record.line) {
      switch decision {
      case .yarn(let yarn):
        try settle(reading(row, matching: yarn), base: yarn)
      case .ambiguous(let problem):
        row.read(base: nil, id: nil)
        plan.problems.append(contentsOf: row.problems)
        plan.problems.append(problem)
      }
    } else {
      row.read(base: nil, id: nil)
      try settle(row, base: nil)
    }
  }

  /// The plan, its problems and warnings in line order.
  mutating func finish() -> StashCSV.ImportPlan {
    plan.problems.sort { $0.line < $1.line }
    plan.warnings.sort { $0.line < $1.line }
    return plan
  }

  /// The counted usages of a library yarn (none for a new one).
  private func usages(of yarn: Yarn?) throws -> StashCSV.CountedUsages {
    guard let yarn else { return .none }
    return StashCSV.CountedUsages(
      finished: try library.usages(yarn.id, false), active: try library.usages(yarn.id, true))
  }

  /// `row` read into `yarn`, which it matches by key: where the row spells the name, brand,
  /// colorway or dye lot otherwise only in case or spaces, the yarn keeps its own spelling
  /// (the match says they are the same).
  private func reading(_ row: StashRowReader, matching yarn: Yarn) throws -> StashRowReader {
    var row = row
    row.read(base: yarn, id: nil, usages: try usages(of: yarn))
    guard var read = row.yarn else { return row }
    let fields: [WritableKeyPath<Yarn, String?>] = [\.brand, \.colorway, \.dyeLot]
    for field in fields
    where StashMatchKey.normalized(read[keyPath: field] ?? "")
      == StashMatchKey.normalized(yarn[keyPath: field] ?? "")
    {
      read[keyPath: field] = yarn[keyPath: field]
    }
    if StashMatchKey.normalized(read.name) == StashMatchKey.normalized(yarn.name) { read.name = yarn.name }
    row.yarn = read
    row.remainingTaken = row.remainingTaken?.named(read.name)
    return row
  }

  /// The problem of a row that fits several yarns, or a yarn that other rows fit too.
  private func ambiguity(of line: Int, rows: [Int], yarns: [Yarn]) -> StashCSV.ImportProblem {
    let hint = "; give the yarn's ID in an ID column to say which"
    if yarns.count > 1 {
      return .init(
        line: line, column: nil,
        reason: "fits \(yarns.count) yarns of the library by \(keyWords) (IDs \(list(yarns.map(\.id))))"
          + hint)
    }
    let others = rows.filter { $0 != line }.map(String.init)
    let lines =
      others.count == 1
      ? "line \(others[0]) does"
      : "lines \(others.dropLast().joined(separator: ", ")) and \(others.last ?? "") do"
    return .init(
      line: line, column: nil,
      reason:
        "fits the yarn “\(LineText.visible(yarns.map(\.name).joined()))” (ID \(yarns.map(\.id).joined())) by \(keyWords), as \(lines) too"
        + hint)
  }

  private func list(_ ids: [String]) -> String {
    ids.count <= 1 ? ids.joined() : ids.dropLast().joined(separator: ", ") + " and " + (ids.last ?? "")
  }

  /// Records a row read against `base` (or as a new yarn): its problems, or what it adds,
  /// changes or leaves as it is; what it adds or changes goes to the destination.
  private mutating func settle(_ row: StashRowReader, base: Yarn?) throws {
    let line = row.record.line
    // A blank Notes cell (spaces, line breaks, or invisible characters such as U+200B only) is
    // no note.
    let notesText = row.notesText.flatMap { LineText.isBlank($0) ? nil : $0 }
    // The new note's rule is checked whatever else the row breaks, so that every problem of
    // the row is listed at once.
    var noteProblem: StashCSV.ImportProblem?
    if base == nil, let text = notesText, let violation = Rules.noteText(text, field: "note") {
      noteProblem = .init(line: line, column: layout.header(of: .notes), reason: violation.reason)
    }
    plan.problems.append(contentsOf: row.problems)
    guard row.problems.isEmpty, let yarn = row.yarn else {
      if let noteProblem { plan.problems.append(noteProblem) }
      return
    }
    // Every rule of the model the row's yarn and new note would break (`Rules`), in its
    // words, so that nothing the store would refuse reaches it; at the column of its field
    // when the file has one, as a cell's problem is (QA: listed without a column).
    var broken = yarn.ruleViolations().map { violation in
      let column = layout.header(of: violation)
      return StashCSV.ImportProblem(
        line: line, column: column, reason: column == nil ? "\(violation)" : violation.reason)
    }
    if let noteProblem { broken.append(noteProblem) }
    guard broken.isEmpty else {
      plan.problems.append(contentsOf: broken)
      return
    }
    // Written only while no row is bad: a bad row rolls the whole import back.
    let store: LibraryStore?
    if case .store(let target) = destination, plan.problems.isEmpty { store = target } else { store = nil }
    if let ignored = row.remainingIgnored { plan.warnings.append(ignored) }
    if let base {
      if let text = notesText, text != (try library.notes(base.id)).joined(separator: "\n\n") {
        plan.warnings.append(
          .init(
            line: line, column: layout.header(of: .notes),
            reason:
              "differs from the notes of yarn \(Rules.shown(id: base.id)); import adds no notes to an existing yarn"
          ))
      }
      if yarn == base {
        plan.unchanged += 1
        return
      }
      plan.changes.append(
        StashCSV.YarnUpdate(
          line: line, yarnID: yarn.id, name: yarn.name, changes: StashCSV.changes(from: base, to: yarn)))
      if case .plan = destination { plan.updates.append(yarn) }
      try store?.update(yarn)
    } else {
      plan.added += 1
      if case .plan = destination { plan.creates.append(yarn) }
      // The rules are checked above, every one the row breaks named: not again in the store.
      try store?.insert(yarn, checkingRules: false)
      if let text = notesText {
        let note = Note(id: Identifier.make(), subject: .yarn(yarn.id), text: text, created: options.now)
        plan.notesAdded += 1
        if case .plan = destination { plan.notes.append(note) }
        try store?.insert(note, checkingRules: false)
      }
    }
    if let taken = row.remainingTaken { plan.remainingOverrides.append(taken) }
  }
}
