import YarnModel
import YarnStore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension StashCSV {
  /// How a stash CSV is read by `importPlan(from:store:options:)`.
  public struct ImportOptions: Sendable {
    /// The field delimiter byte: `,` (the default, RFC 4180), `;` or TAB; the file's own is
    /// not guessed.
    public var delimiter: UInt8
    /// Guess what unescaped quotes mean instead of refusing the file: files from exporters
    /// that quote every field without doubling the quotes inside (YarnBuddy's). A record is
    /// read strictly first; when that fails, or gives another number of fields than the
    /// header, a quote closes a field only before a delimiter, a line end or the end of the
    /// file. Every line guessed is listed in the plan's `guessedLines`.
    public var lenient: Bool
    /// Undo the formula guard: drop the `'` that `StashCSV.export` puts before a cell that
    /// begins with `=`, `+`, `-`, `@`, TAB, CR or LF. Only a quoted field is changed (the
    /// export always quotes a guarded cell).
    public var undoFormulaGuard: Bool
    /// The time zone whose calendar day an instant in Date Added falls on (YarnBuddy writes
    /// instants such as `2021-06-12 18:25:43 +0000`); by default the process's own.
    public var timeZone: any UTCOffsetProvider
    /// The creation instant of the notes the import adds.
    public var now: Date

    /// Options; by default a strict reading of comma-separated UTF-8 that undoes the formula
    /// guard, in the process's time zone, with notes created now.
    public init(
      delimiter: UInt8 = UInt8(ascii: ","), lenient: Bool = false, undoFormulaGuard: Bool = true,
      timeZone: any UTCOffsetProvider = SystemTimeZone(), now: Date = Date()
    ) {
      self.delimiter = delimiter
      self.lenient = lenient
      self.undoFormulaGuard = undoFormulaGuard
      self.timeZone = timeZone
      self.now = now
    }
  }

  /// Which exporter a file comes from, told by its header; the raw value names it in the
  /// CLI's JSON output.
  public enum Dialect: String, Sendable {
    /// This tool's own `yarn stash export` (or a file with its column names).
    case yarn
    /// YarnBuddy's 13-column stash export (Name, Colorway, Color Family, Dye Lot, Quantity,
    /// Remaining, Weight, Length, Net Weight, Fiber Type, Purchase Location, Date Added,
    /// Notes): amounts as text such as `3.0 skeins`, weights as its labels, dates as
    /// instants.
    case yarnBuddy
  }

  /// A reason a row (or the header, line 1) cannot be imported.
  public struct ImportProblem: Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line the record starts on.
    public let line: Int
    /// The column's header as the file spells it, when the problem is one cell's.
    public let column: String?
    /// What is wrong, in lower case.
    public let reason: String
    /// Whether it is a problem of the header (or of a file without one): the import then
    /// stops there, reading no row.
    public let isHeader: Bool

    init(line: Int, column: String?, reason: String, isHeader: Bool = false) {
      self.line = line
      self.column = column
      self.reason = reason
      self.isHeader = isHeader
    }

    /// `line 3, column "Quantity": REASON`, or `line 3: REASON` for a whole row.
    public var description: String {
      column.map { "line \(line), column \(LineText.quoted($0)): \(reason)" } ?? "line \(line): \(reason)"
    }
  }

  /// What an import would do (or did), and what stops it.
  ///
  /// Built by `importPlan(from:store:options:)` and carried out by `apply(_:to:)`, which
  /// refuses a plan with any problem: an import is all or nothing. `importCSV(from:into:
  /// options:dryRun:)` writes each row as it reads it instead, and returns the plan without
  /// the yarns and notes themselves (`creates`, `updates` and `notes` empty; the counts set).
  public struct ImportPlan: Sendable {
    /// The exporter the header looks like.
    public var dialect: Dialect
    /// How many yarns the import adds.
    public var added = 0
    /// How many notes the import adds (one per new yarn with a Notes cell).
    public var notesAdded = 0
    /// New yarns, in the file's order (filled by `importPlan` only).
    public var creates: [Yarn] = []
    /// Existing yarns (matched by ID, or by name, brand, colorway and dye lot) with the
    /// file's values, in the file's order (filled by `importPlan` only).
    public var updates: [Yarn] = []
    /// What changes in each yarn updated, in the file's order: the line and every field.
    public var changes: [YarnUpdate] = []
    /// Rows whose yarn already holds exactly the file's values.
    public var unchanged = 0
    /// The Remaining cells taken as a yarn's remaining override where the import sets or
    /// changes it (new and updated yarns), in the file's order.
    public var remainingOverrides: [RemainingOverride] = []
    /// The notes to add: one per new yarn whose Notes cell is not empty (filled by
    /// `importPlan` only).
    public var notes: [Note] = []
    /// Bad rows, or the header's problems alone (`ImportProblem.isHeader`: no row is read
    /// after a header problem); when not empty, nothing may be imported.
    public var problems: [ImportProblem] = []
    /// Things worth saying that do not stop the import, such as a Notes cell that differs
    /// from an existing yarn's notes (import never changes existing notes).
    public var warnings: [ImportProblem] = []
    /// Headers that name no column, as the file spells them; their cells are ignored.
    public var ignoredColumns: [String] = []
    /// Lines (1-based) where the lenient reader guessed what a stray quote meant.
    public var guessedLines: [Int] = []

    init(dialect: Dialect) {
      self.dialect = dialect
    }
  }

  /// Thrown by `apply(_:to:)` for a plan with problems: nothing was imported.
  public struct ImportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Every problem, in line order.
    public let problems: [ImportProblem]

    package init(problems: [ImportProblem]) {
      self.problems = problems
    }

    /// How many bad rows `description` lists (every problem of each); the others are
    /// counted, not listed (docs/CSV.md).
    public static let listedRowLimit = 100

    /// `2 bad rows; nothing was imported:` then each problem on a line of its own, for the
    /// first `listedRowLimit` bad rows; then `and 3 more bad rows` when there are more.
    /// Problems of the header alone (no row is read after one) are said as such: `line 1:
    /// REASON; nothing was imported`, or `the header is refused; nothing was imported:` then
    /// each on a line of its own.
    public var description: String {
      if !problems.isEmpty, problems.allSatisfy(\.isHeader) {
        if problems.count == 1 { return "\(problems[0]); nothing was imported" }
        return "the header is refused; nothing was imported:\n"
          + problems.map { "  \($0)" }.joined(separator: "\n")
      }
      var shown = Set<Int>()
      var listed: [String] = []
      for problem in problems {
        if !shown.contains(problem.line) {
          guard shown.count < ImportError.listedRowLimit else { continue }
          shown.insert(problem.line)
        }
        listed.append("  \(problem)")
      }
      let rows = Set(problems.map(\.line)).count
      let more = rows - shown.count
      if more > 0 { listed.append("  and \(Plural.count(more, "more bad row"))") }
      return Plural.count(rows, "bad row") + "; nothing was imported:\n"
        + listed.joined(separator: "\n")
    }
  }

  /// Reads a stash CSV and plans the import against `store`, changing nothing.
  ///
  /// Rules (docs/CSV.md): columns are found by header name, in any order, ignoring case and
  /// surrounding spaces; YarnBuddy's `Length`, `Net Weight` and `Fiber Type` are read too,
  /// and unknown headers are listed in `ignoredColumns`. A row whose ID is an existing
  /// yarn's updates that yarn (only the columns present; an empty cell clears a field, photos
  /// and notes are kept); a row without an ID is matched by name, brand, colorway and dye lot
  /// (case and runs of spaces aside; a column the file lacks is not compared), each library
  /// yarn to at most one row, a row equal to a yarn first; a row that fits several yarns, or
  /// a yarn that several rows fit, is a problem. A row equal to its yarn is unchanged; any
  /// other row creates a yarn, with its ID when it has one. An amount is a number with its
  /// unit column, or text such as `3.0 skeins`. Remaining is the override when Remaining
  /// Source is `override`; never when it says the figure was yarn's estimate (`estimate`,
  /// `incomplete`, `overdrawn`: a figure that is not the estimate now is a warning); and
  /// otherwise when it differs from the estimate (of the yarn in the library or as the row
  /// makes it, finished projects counted, or those in progress too). A new yarn's Notes
  /// cell becomes one note.
  ///
  /// The plan holds every new and changed yarn: for an import that writes, `importCSV(from:
  /// into:options:dryRun:)` does the same row by row without holding them.
  ///
  /// - Parameters:
  ///   - data: the file's bytes.
  ///   - store: the library the rows are matched against; only read.
  ///   - options: delimiter, leniency, guard, time zone and clock.
  /// - Returns: the plan; check `problems` before applying it.
  /// - Throws: `CSVReadError` naming the line and column when the file is not CSV (strict
  ///   mode) or not UTF-8, or the line of a header split by another delimiter than
  ///   `options.delimiter` (`headerDelimiter`, said before any row is read); `StoreError` when the store cannot be read; `CancellationError`
  ///   when the current task is cancelled (checked before each row).
  public static func importPlan(
    from data: Data, store: LibraryStore, options: ImportOptions = ImportOptions()
  ) throws -> ImportPlan {
    try store.read {
      try importPlan(from: .bytes(data), options: options, library: ImportLibrary(store), destination: .plan)
    }
  }

  /// Imports a stash CSV into `store` row by row, in one write transaction: each row is
  /// checked (the rules of `importPlan(from:store:options:)`) and written as it is read, by
  /// the store's own inserts and updates (so the undo history records the import as one
  /// change). All or nothing: when any row is bad, the transaction is rolled back and the
  /// returned plan lists every problem; the library is as it was.
  ///
  /// Memory does not grow with the rows written: the plan keeps the counts, the changes of
  /// existing yarns, the Remaining overrides, warnings and problems, not the yarns and notes
  /// (`creates`, `updates` and `notes` stay empty). The file is read twice when the library
  /// holds yarns (once to match the rows without an ID, once to write).
  ///
  /// - Parameters:
  ///   - data: the file's bytes.
  ///   - store: the library; opened read-write unless `dryRun`.
  ///   - options: delimiter, leniency, guard, time zone and clock.
  ///   - dryRun: check every row and count what would change in a read transaction, writing
  ///     nothing.
  ///   - progress: called on the calling thread with the fraction of the work done, 0...1,
  ///     after each row: the bytes of `data` read, over both readings when the file is read
  ///     twice (each is half). The values never go down; the last is 1 when every row was
  ///     read (also when some are bad).
  /// - Returns: what was imported (or would be); when `problems` is not empty, nothing was.
  /// - Throws: the errors of `importPlan(from:store:options:)`; `StoreError` when the store
  ///   refuses a write (nothing is imported); `CancellationError` when the current task is
  ///   cancelled (checked before each row; nothing is imported).
  public static func importCSV(
    from data: Data, into store: LibraryStore, options: ImportOptions = ImportOptions(),
    dryRun: Bool = false, progress: ((Double) -> Void)? = nil
  ) throws -> ImportPlan {
    try importCSV(from: .bytes(data), into: store, options: options, dryRun: dryRun, progress: progress)
  }

  /// `importCSV(from:into:options:dryRun:progress:)` of `input`: bytes in memory, or a file
  /// read in pieces (`CSVInput.file`), so that memory does not grow with the file; progress
  /// is then the bytes read over the file's size when it was opened.
  ///
  /// - Throws: the errors of `importCSV(from:into:options:dryRun:progress:)`; `CSVFileError`
  ///   when the file cannot be opened or read (nothing is imported).
  public static func importCSV(
    from input: CSVInput, into store: LibraryStore, options: ImportOptions = ImportOptions(),
    dryRun: Bool = false, progress: ((Double) -> Void)? = nil
  ) throws -> ImportPlan {
    if dryRun {
      return try store.read {
        try importPlan(
          from: input, options: options, library: ImportLibrary(store), destination: .count,
          progress: progress)
      }
    }
    /// Carries the plan of a refused import out of the transaction it rolls back.
    struct Refused: Error {
      let plan: ImportPlan
    }
    do {
      return try store.write {
        let plan = try importPlan(
          from: input, options: options, library: ImportLibrary(store), destination: .store(store),
          progress: progress)
        guard plan.problems.isEmpty else { throw Refused(plan: plan) }
        return plan
      }
    } catch let refused as Refused {
      return refused.plan
    }
  }

  /// Where an import puts what it settles.
  enum Destination {
    /// Into the plan's `creates`, `updates` and `notes`.
    case plan
    /// Nowhere: only counted.
    case count
    /// Into the store, row by row, while no row is bad (the caller rolls back otherwise).
    case store(LibraryStore)
  }

  /// The library as an import reads it, through functions (for tests, and for stores other
  /// than `LibraryStore`).
  struct ImportLibrary {
    /// The yarn with an ID, photos included, or `nil`.
    var yarn: (String) throws -> Yarn?
    /// The texts of a yarn's notes, oldest first.
    var notes: (String) throws -> [String]
    /// Whether the stash holds any yarn.
    var hasYarns: () throws -> Bool
    /// Hands every yarn, photos left out, to a function in creation order.
    var forEachYarn: (_ body: (Yarn) throws -> Void) throws -> Void
    /// The usages counted against a yarn (by ID): of the finished projects, or of those in
    /// progress too; they make the remaining estimates.
    var usages: (_ yarnID: String, _ includeActive: Bool) throws -> [RemainingEstimate.CountedUsage]

    /// `store`'s, each a query of what it needs.
    init(_ store: LibraryStore) {
      yarn = { try store.yarn(id: $0) }
      notes = { try store.notes(about: .yarn($0)).map(\.text) }
      hasYarns = { try store.hasYarns() }
      forEachYarn = { try store.forEachYarn(includingPhotos: false, $0) }
      usages = { try store.countedUsages(ofYarn: $0, includeActive: $1) }
    }
  }

  /// The usages counted against one yarn, for its remaining estimates.
  struct CountedUsages {
    var finished: [RemainingEstimate.CountedUsage] = []
    var active: [RemainingEstimate.CountedUsage] = []

    /// A new yarn's: none.
    static let none = CountedUsages()

    /// The estimate of `yarn` (finished projects counted, or those in progress too).
    func remaining(of yarn: Yarn, includeActive: Bool = false) -> RemainingEstimate {
      RemainingEstimate(yarn: yarn, usages: includeActive ? active : finished)
    }
  }

  /// The plan of an import against `library`, what it settles put into `destination`.
  ///
  /// When the library holds yarns, the file is read twice: first to match the rows without
  /// an ID whose key some library yarn has (`StashMerger.match`), then to settle every row
  /// in the file's order. Otherwise once.
  ///
  /// `progress` gets the fraction of the bytes read after each row (each reading is half
  /// when there are two), and 1 at the end.
  ///
  /// - Throws: `CSVReadError` (`headerDelimiter` when the header has neither a Name nor an ID
  ///   column, or is not CSV, and is split by another delimiter: `otherDelimiter(in:than:)`);
  ///   what `library`'s functions throw; `CancellationError` when the current task is
  ///   cancelled (checked before each row).
  static func importPlan(
    from input: CSVInput, options: ImportOptions, library: ImportLibrary, destination: Destination,
    progress: ((Double) -> Void)? = nil
  ) throws -> ImportPlan {
    var counter = ProgressCounter(total: 1, report: progress)
    var reader = try CSVReader(input: input, delimiter: options.delimiter, lenient: options.lenient)
    // A header split by another delimiter is said first, before any row's problem (a quote
    // that is an error only when the line is split by the wrong byte).
    let header: CSVRecord?
    do {
      header = try reader.next()
    } catch let error as CSVReadError
      where error.problem != .invalidUTF8 && error.problem != .utf16 && error.problem != .notText
    {
      if let other = otherDelimiter(in: input, than: options.delimiter) { throw other }
      throw error
    }
    guard let header else {
      counter.finish()
      var plan = ImportPlan(dialect: .yarn)
      plan.problems.append(
        ImportProblem(line: 1, column: nil, reason: "the file is empty: no header row", isHeader: true))
      return plan
    }
    let layout = StashHeaderLayout(header)
    if layout.index[.name] == nil, layout.index[.id] == nil,
      let other = otherDelimiter(in: input, than: options.delimiter)
    {
      throw other
    }
    // A header problem is said alone: rows read under a header that is wrong would each say
    // what it lacks (every row of a file without a Name column would need a name).
    guard layout.problems.isEmpty else {
      counter.finish()
      var plan = ImportPlan(dialect: layout.dialect)
      plan.problems = layout.problems
      return plan
    }
    var merger = StashMerger(
      layout: layout, options: options, library: library, fieldCount: header.fields.count,
      destination: destination)
    // The fraction of a reading done: its bytes read, over all bytes.
    func fraction(_ reader: CSVReader) -> Double {
      reader.byteCount > 0 ? Double(reader.bytesRead) / Double(reader.byteCount) : 1
    }
    var readings = 1.0
    if try library.hasYarns() {
      merger.libraryHasYarns = true
      readings = 2
      try merger.indexLibrary()
      var first = try CSVReader(input: input, delimiter: options.delimiter, lenient: options.lenient)
      _ = try first.next()
      first.expectedFieldCount = header.fields.count
      while let record = try first.next() {
        try Task.checkCancellation()
        merger.collect(record)
        counter.set(fraction(first) / readings)
      }
      try merger.match()
    }
    let before = readings - 1
    reader.expectedFieldCount = header.fields.count
    while let record = try reader.next() {
      try Task.checkCancellation()
      try merger.read(record)
      counter.set((before + fraction(reader)) / readings)
    }
    counter.finish()
    var plan = merger.finish()
    plan.guessedLines = reader.guessedLines
    return plan
  }

  /// The error for a header split by another delimiter than `delimiter`: when the header
  /// line (the first that is not empty, in the input's first 64 KiB) holds no `delimiter`
  /// but a `;`, a TAB or a `,` (tried in that order: a file exported with `--delimiter
  /// semicolon` or `tab`, or by a spreadsheet in a locale with a decimal comma); else `nil`.
  static func otherDelimiter(in input: CSVInput, than delimiter: UInt8) -> CSVReadError? {
    guard var data = input.prefix(CSVReader.chunkSize) else { return nil }
    if data.starts(with: [0xEF, 0xBB, 0xBF]) { data = data.dropFirst(3) }
    var line = 1
    while let first = data.first, first == 0x0A || first == 0x0D {
      // CRLF is one line break.
      if first == 0x0A || data.dropFirst().first != 0x0A { line += 1 }
      data = data.dropFirst()
    }
    let header = data.prefix { $0 != 0x0A && $0 != 0x0D }
    guard !header.contains(delimiter) else { return nil }
    return [UInt8(ascii: ";"), UInt8(ascii: "\t"), UInt8(ascii: ",")]
      .first { $0 != delimiter && header.contains($0) }
      .map { CSVReadError(problem: .headerDelimiter(found: $0, given: delimiter), line: line, column: nil) }
  }

  /// Carries out `plan` in one write transaction: inserts the new yarns and their notes,
  /// updates the changed ones.
  ///
  /// - Throws: `ImportError` when the plan has problems (nothing is written); `StoreError`
  ///   when the store refuses a change, or `CancellationError` when the current task is
  ///   cancelled (checked before each yarn): then the transaction is rolled back, nothing is
  ///   imported.
  public static func apply(_ plan: ImportPlan, to store: LibraryStore) throws {
    guard plan.problems.isEmpty else { throw ImportError(problems: plan.problems) }
    try store.write {
      for yarn in plan.creates {
        try Task.checkCancellation()
        try store.insert(yarn)
      }
      for yarn in plan.updates { try store.update(yarn) }
      for note in plan.notes { try store.insert(note) }
    }
  }

  /// Whether `id` may name a new yarn: 1 to 128 ASCII letters, digits, `-`, `_` or `.`
  /// (a lower-case UUID, as yarn makes them, or another tool's plain ID).
  static func isValidImportedID(_ id: String) -> Bool {
    let bytes = Array(id.utf8)
    guard (1...128).contains(bytes.count) else { return false }
    return bytes.allSatisfy { byte in
      (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
        || byte == 0x2D || byte == 0x5F || byte == 0x2E
    }
  }
}

/// Where each known column is in a header, and what is wrong with the header.
struct StashHeaderLayout {
  var index: [StashCSV.Column: Int] = [:]
  /// `index` by `StashCSV.Column.ordinal`.
  private(set) var positions: [Int?] = []
  var names: [String]
  var ignored: [String] = []
  var problems: [StashCSV.ImportProblem] = []
  var dialect: StashCSV.Dialect = .yarn

  init(_ header: CSVRecord) {
    names = header.fields
    var sawYarnBuddyName = false
    for (position, name) in header.fields.enumerated() {
      guard let column = StashHeaderLayout.column(named: name, yarnBuddy: &sawYarnBuddyName) else {
        ignored.append(name)
        continue
      }
      if let earlier = index[column] {
        problems.append(
          .init(
            line: header.line, column: name,
            reason: "the column \(column.rawValue) appears twice (fields \(earlier + 1) and \(position + 1))",
            isHeader: true))
        continue
      }
      index[column] = position
    }
    if sawYarnBuddyName && index[.id] == nil { dialect = .yarnBuddy }
    if index[.name] == nil && index[.id] == nil {
      let shown = names.prefix(10).map(LineText.quoted) + (names.count > 10 ? ["…"] : [])
      problems.append(
        .init(
          line: header.line, column: nil,
          reason: "the header has neither a Name nor an ID column (it has \(shown.joined(separator: ", ")));"
            + " a stash CSV needs one of the two, to tell which yarn each row is",
          isHeader: true))
    }
    positions = StashCSV.Column.allCases.map { index[$0] }
  }

  /// The column a header names: ours, or YarnBuddy's three other names.
  static func column(named name: String, yarnBuddy: inout Bool) -> StashCSV.Column? {
    if let column = StashCSV.Column(header: name) { return column }
    switch name.trimmingSpaces().lowercased() {
    case "length":
      yarnBuddy = true
      return .lengthPerSkein
    case "net weight":
      yarnBuddy = true
      return .netWeightPerSkein
    case "fiber type":
      yarnBuddy = true
      return .fiber
    default: return nil
    }
  }

  func header(of column: StashCSV.Column) -> String? { index[column].map { names[$0] } }

  /// The file's header of the column of the field `violation` is about (`quantity`,
  /// Quantity; `tag`, Tags), the number's column of an amount, as a cell's problem names it;
  /// `nil` when the file has no such column.
  func header(of violation: RuleViolation) -> String? {
    StashHeaderLayout.fieldColumns[violation.field].flatMap(header(of:))
  }

  /// The column of each field `Yarn.ruleViolations` names.
  static let fieldColumns: [String: StashCSV.Column] = [
    "name": .name, "brand": .brand, "colorway": .colorway, "color family": .colorFamily, "dye lot": .dyeLot,
    "fiber": .fiber, "length per skein": .lengthPerSkein, "net weight per skein": .netWeightPerSkein,
    "quantity": .quantity, "remaining": .remaining, "purchase location": .purchaseLocation, "price": .price,
    "stored in": .storedIn, "tag": .tags,
  ]
}

/// Reads one record into a yarn, collecting every problem of the row.
struct StashRowReader {
  let record: CSVRecord
  let layout: StashHeaderLayout
  let options: StashCSV.ImportOptions
  var problems: [StashCSV.ImportProblem] = []
  /// The yarn with the row's values.
  var yarn: Yarn?
  /// The Remaining cell taken as an override that the yarn did not have, when it is one.
  var remainingTaken: StashCSV.RemainingOverride?
  /// The warning of a Remaining cell that Remaining Source says was yarn's estimate, which
  /// the import does not keep since it is not the estimate now.
  var remainingIgnored: StashCSV.ImportProblem?
  /// The Notes cell (YarnBuddy's trailing line break removed), when the column is there.
  var notesText: String?

  init(record: CSVRecord, layout: StashHeaderLayout, options: StashCSV.ImportOptions, expectedCount: Int) {
    self.record = record
    self.layout = layout
    self.options = options
    if record.fields.count != expectedCount {
      let found = record.fields.count
      problems.append(
        .init(
          line: record.line, column: nil,
          reason: "\(Plural.count(found, "field")) where the header has \(expectedCount)"
            + (options.lenient ? "" : " (a quote the exporter did not double? try --lenient)")))
    }
  }

  var fieldCountIsRight: Bool { problems.isEmpty }

  /// The cell of `column`: `nil` when the file has no such column; the formula guard undone.
  func cell(_ column: StashCSV.Column) -> String? {
    guard let position = layout.positions[column.ordinal], position < record.fields.count else { return nil }
    let text = record.fields[position]
    guard options.undoFormulaGuard, record.quoted[position] else { return text }
    return StashRowReader.unguarded(text)
  }

  /// `text` without the guard's apostrophe: one `'` dropped from `'`…`'` + `=`/`+`/`-`/`@`/
  /// TAB/CR/LF (see `CSVWriter.needsGuard(_:quoted:)`).
  static func unguarded(_ text: String) -> String {
    let utf8 = text.utf8
    guard utf8.first == 0x27 else { return text }
    guard let next = utf8.first(where: { $0 != 0x27 }), CSVWriter.isFormulaStart(next) else {
      return text
    }
    return String(text.unicodeScalars.dropFirst())
  }

  mutating func problem(_ column: StashCSV.Column, _ reason: String) {
    problems.append(.init(line: record.line, column: layout.header(of: column), reason: reason))
  }

  /// The row's ID: `nil` when the cell is empty or blank, missing or refused (a problem is
  /// recorded for an ID that is not one, or that an earlier row has).
  mutating func readID(rowsByID: inout [String: Int]) -> String? {
    guard let given = cell(.id), !LineText.isBlank(given) else { return nil }
    if let earlier = rowsByID[given] {
      problem(.id, "the ID \(given) is also on line \(earlier)")
    } else if !StashCSV.isValidImportedID(given) {
      problem(.id, "\(LineText.quoted(given)) is not an ID (1 to 128 letters, digits, '-', '_' or '.')")
    } else {
      rowsByID[given] = record.line
      return given
    }
    return nil
  }

  /// The row's match key (`StashMatchKey`), comparing the columns of `compared` that the
  /// file has; `nil` without a Name column or when a key cell is refused or the name empty
  /// (reading the row records why).
  func matchKey(comparing compared: Set<StashCSV.Column>) -> StashMatchKey? {
    func value(_ column: StashCSV.Column) -> String?? {
      guard let text = cell(column), case .success(let value) = LineText.optional(text) else { return nil }
      return .some(value)
    }
    guard let name = value(.name), let name, !name.isEmpty else { return nil }
    var parts: [StashCSV.Column: String?] = [:]
    for column in compared {
      guard let part = value(column) else { return nil }
      parts[column] = part
    }
    return StashMatchKey(name: name, brand: parts[.brand], colorway: parts[.colorway], dyeLot: parts[.dyeLot])
  }

  /// Reads the row into `base` (an existing yarn it matches), or into a new yarn with `id`
  /// (a new ID when `nil`).
  ///
  /// - Parameters:
  ///   - base: the library yarn the row matches, or `nil` for a new yarn.
  ///   - id: the row's ID, for a new yarn.
  ///   - usages: the counted usages of `base` (none for a new yarn: no project uses it yet).
  mutating func read(base: Yarn?, id: String?, usages: StashCSV.CountedUsages = .none) {
    var yarn = base ?? Yarn(id: id ?? Identifier.make(), name: "")
    if let cell = cell(.name) {
      if let name = line(.name, cell) {
        // Blank as the rule has it (invisible characters such as U+200B only too), named by
        // its column as other cells are (QA: `line 2: name is blank`).
        if LineText.isBlank(name) {
          problem(.name, Rules.name(name).map(\.reason) ?? "is blank")
        } else {
          yarn.name = name
        }
      }
    } else if base == nil {
      problems.append(
        .init(
          line: record.line, column: nil, reason: "a new yarn needs a name, and the file has no Name column"))
    }
    /// A cell: `nil` without the column, `.some(nil)` when blank (`LineText.isBlank`: empty,
    /// spaces, or invisible characters such as U+200B only), as an empty cell is.
    func text(_ column: StashCSV.Column) -> String?? {
      cell(column).map { LineText.isBlank($0) ? nil : $0 }
    }
    /// A one-line text cell: `nil` without the column or when the cell is refused (a problem
    /// is recorded), `.some(nil)` when blank (unknown, as `LineText.optional` has it: empty,
    /// spaces only, or invisible characters only such as U+200B).
    func oneLine(_ column: StashCSV.Column) -> String?? {
      guard let text = cell(column), let value = line(column, text) else {
        return nil
      }
      return .some(LineText.isBlank(value) ? nil : value)
    }
    if let value = oneLine(.brand) { yarn.brand = value }
    if let value = oneLine(.colorway) { yarn.colorway = value }
    if let value = oneLine(.colorFamily) { yarn.colorFamily = value }
    if let value = oneLine(.dyeLot) { yarn.dyeLot = value }
    if let value = oneLine(.fiber) { yarn.fiber = value }
    if let value = oneLine(.purchaseLocation) { yarn.purchaseLocation = value }
    if let value = text(.weight) {
      if let value {
        if let weight = YarnWeight(parsing: value) {
          yarn.weight = weight
        } else {
          problem(
            .weight,
            "\(LineText.quoted(value)) is not a yarn weight (0-7, lace … jumbo, DK, worsted, 8 ply, …)")
        }
      } else {
        yarn.weight = nil
      }
    }
    if let value = amount(.lengthPerSkein, .lengthUnit, dimension: .length, what: "length per skein") {
      yarn.lengthPerSkein = value
    }
    if let value = amount(
      .netWeightPerSkein, .netWeightUnit, dimension: .mass, what: "net weight per skein")
    {
      yarn.netWeightPerSkein = value
    }
    if let value = amount(.quantity, .quantityUnit, dimension: nil, what: "quantity") {
      yarn.quantity = value
    }
    readRemaining(into: &yarn, base: base, usages: usages)
    if let value = text(.dateAdded) {
      if let value {
        if let day = day(value) {
          yarn.dateAdded = day
        } else {
          problem(
            .dateAdded,
            "\(LineText.quoted(value)) is not a date (YYYY-MM-DD)"
              + CalendarDate.impossibilityClause(in: value.trimmingSpaces()))
        }
      } else {
        yarn.dateAdded = nil
      }
    }
    // Stashed (files made before the status): `StashStatus.settingStashed`. A Status cell,
    // when the file has one, says more and wins; an empty one beside a Stashed cell that
    // says yes or no leaves the status to it.
    var stashedGiven = false
    if let value = text(.stashed) {
      switch value?.trimmingSpaces().lowercased() ?? "" {
      case "", "yes", "y", "true", "1":
        yarn.status = yarn.status.settingStashed(true)
        stashedGiven = value != nil
      case "no", "n", "false", "0":
        yarn.status = yarn.status.settingStashed(false)
        stashedGiven = true
      default: problem(.stashed, "\(LineText.quoted(value ?? "")) is not yes or no")
      }
    }
    if let value = text(.status), value != nil || !stashedGiven {
      if let value {
        if let status = StashStatus(parsing: value) {
          yarn.status = status
        } else {
          problem(.status, "\(LineText.quoted(value)) is not a stash status (\(StashStatus.tokens))")
        }
      } else {
        yarn.status = .inStash
      }
    }
    if let value = text(.price) {
      if let value {
        do {
          yarn.price = try Price(parsing: value)
        } catch {
          problem(.price, "\(LineText.quoted(value)): \(error.reason)")
        }
      } else {
        yarn.price = nil
      }
    }
    if let value = oneLine(.storedIn) { yarn.storedIn = value }
    if let value = cell(.tags) {
      let tags = Tags.parsing(value)
      if let violation = Rules.tags(tags) {
        problem(.tags, violation.reason)
      } else {
        yarn.tags = tags
      }
    }
    // Left to right, as people read the row.
    if problems.count > 1 {
      let positions = Dictionary(
        layout.names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
      problems = problems.enumerated().sorted { left, right in
        let a = left.element.column.flatMap { positions[$0] } ?? -1
        let b = right.element.column.flatMap { positions[$0] } ?? -1
        return (a, left.offset) < (b, right.offset)
      }.map(\.element)
    }
    if var notes = cell(.notes) {
      if layout.dialect == .yarnBuddy {
        // YarnBuddy ends every note with a line feed.
        while notes.hasSuffix("\n") || notes.hasSuffix("\r\n") { notes.removeLast() }
      }
      notesText = notes
    }
    if let override = yarn.remainingOverride, override != base?.remainingOverride {
      var plain = yarn
      plain.remainingOverride = nil
      remainingTaken = StashCSV.RemainingOverride(
        line: record.line, yarnID: yarn.id, name: yarn.name, remaining: override,
        estimate: usages.remaining(of: plain).remaining, putUp: yarn.putUp)
    }
    self.yarn = yarn
  }

  /// `text` of a one-line cell without the spaces around it (`LineText`), or `nil` with a
  /// problem recorded in the words of the model's rule (`Rules.line(_:field:limit:)`) when it
  /// holds a control character (`holds a line break (U+000A); it must be one line`) or is
  /// over `Rules.maximumNameLength` Characters.
  mutating func line(_ column: StashCSV.Column, _ text: String) -> String? {
    switch LineText.checked(text) {
    case .success(let value):
      return value
    case .failure(let failure):
      problem(column, Rules.line(text, field: "")?.reason ?? "\(failure)")
      return nil
    }
  }

  /// The Remaining cells (docs/CSV.md, "Remaining: estimate or override"):
  ///
  /// - an empty Remaining cell: no override, whatever the unit cell and Remaining Source say;
  /// - otherwise the figure is read by `StashCSV.remaining(_:source:yarn:base:usages:)`, told
  ///   by Remaining Source who made it: `override` the user, `estimate`, `incomplete` or
  ///   `overdrawn` yarn (a figure that is not the estimate now is then no override, and a
  ///   warning says so: `remainingIgnored`), `unknown`, an empty cell or no column: unsaid.
  ///
  /// Without a Remaining column, Remaining Source `override` keeps the yarn's override (a
  /// yarn without one is a problem: there is no figure), any other value clears it; without
  /// either column the override is kept.
  mutating func readRemaining(into yarn: inout Yarn, base: Yarn?, usages: StashCSV.CountedUsages) {
    let value = amount(.remaining, .remainingUnit, dimension: nil, what: "remaining")
    let source = cell(.remainingSource)
    guard let madeBy = source == nil ? .unsaid : StashCSV.FigureSource(said: source ?? "") else {
      problem(
        .remainingSource,
        "\(LineText.quoted(source ?? "")) is not override, estimate, incomplete, overdrawn or unknown")
      return
    }
    guard let value else {
      // No Remaining column: Remaining Source alone says whether the override stays.
      guard source != nil else { return }
      if madeBy != .user {
        yarn.remainingOverride = nil
      } else if base?.remainingOverride == nil {
        problem(
          .remainingSource,
          "Remaining Source is override, but the file has no Remaining column to give the figure")
      }
      return
    }
    guard let amount = value else {
      yarn.remainingOverride = nil
      return
    }
    switch StashCSV.remaining(amount, source: madeBy, yarn: yarn, base: base, usages: usages) {
    case .override(let override):
      yarn.remainingOverride = override
    case .estimate:
      yarn.remainingOverride = nil
    case .ignoredEstimate:
      yarn.remainingOverride = nil
      remainingIgnored = .init(
        line: record.line, column: layout.header(of: .remaining),
        reason: StashCSV.ignoredEstimate(
          amount, field: "Remaining Source", said: source?.trimmingSpaces().lowercased() ?? "", yarn: yarn,
          usages: usages))
    }
  }

  /// An amount from a number cell and its unit cell, or from text such as `3.0 skeins` in
  /// the number cell. `nil` when the number column is not in the file (its unit column alone
  /// says nothing); `.some(nil)` when the number cell is empty (whatever the unit cell says)
  /// or the amount is bad (a problem is recorded).
  mutating func amount(
    _ valueColumn: StashCSV.Column, _ unitColumn: StashCSV.Column, dimension: YarnUnit.Dimension?,
    what: String
  ) -> Amount?? {
    // Without the number column the amount is not given (a unit column alone is ignored);
    // an empty number cell is no amount, whatever its unit cell says.
    guard let valueCell = cell(valueColumn) else { return nil }
    // A blank cell (spaces, or invisible characters such as U+200B only) is an empty one.
    if LineText.isBlank(valueCell) { return .some(nil) }
    let valueText = valueCell.trimmingSpaces()
    let unitText = (cell(unitColumn).map { LineText.isBlank($0) ? "" : $0 } ?? "").trimmingSpaces()
    var amount: Amount
    if let number = StashRowReader.number(valueText) {
      guard !unitText.isEmpty else {
        problem(layout.index[unitColumn] == nil ? valueColumn : unitColumn, "\(valueText) has no unit")
        return .some(nil)
      }
      guard let unit = YarnUnit(parsing: unitText) else {
        problem(unitColumn, "\(LineText.quoted(unitText)) is not a unit: \(YarnUnit.acceptedWords)")
        return .some(nil)
      }
      amount = Amount(number, unit)
    } else {
      do {
        amount = try Amount(parsing: valueText)
      } catch {
        problem(valueColumn, error.description)
        return .some(nil)
      }
      if !unitText.isEmpty, YarnUnit(parsing: unitText) != amount.unit {
        problem(
          unitColumn, "\(LineText.quoted(unitText)) disagrees with the unit in \(LineText.quoted(valueText))")
        return .some(nil)
      }
    }
    // The model's rule (`Rules.amount`), in its words; the column names the field.
    if let violation = Rules.amount(amount, field: what, dimension: dimension) {
      problem(valueColumn, violation.reason)
      return .some(nil)
    }
    return .some(amount)
  }

  /// A plain decimal number as `DecimalNumber` reads one (`3`, `2.5`, `1e+20`, or `2,5` with
  /// a decimal comma); `nil` for anything else, such as `3.0 skeins`, `1,000` (ambiguous) or
  /// `1e-400` (too small), which `Amount(parsing:)` then refuses in its words.
  static func number(_ text: String) -> Double? {
    guard let value = try? DecimalNumber.value(of: text, exponent: true, input: text), value.isFinite
    else { return nil }
    return value
  }

  /// A day: `YYYY-MM-DD`, or an instant as Swift's `Date` description writes it
  /// (`2021-06-12 18:25:43 +0000`, YarnBuddy) or ISO 8601 (`2021-06-12T18:25:43Z`), taken
  /// as the day it falls on in `options.timeZone`.
  func day(_ text: String) -> CalendarDate? {
    let trimmed = text.trimmingSpaces()
    if let day = CalendarDate(iso8601: trimmed) { return day }
    var iso = trimmed
    // `2021-06-12 18:25:43 +0000` → `2021-06-12T18:25:43+0000`.
    let bytes = Array(trimmed.utf8)
    if bytes.count == 25, bytes[10] == UInt8(ascii: " "), bytes[19] == UInt8(ascii: " "),
      bytes[20] == UInt8(ascii: "+") || bytes[20] == UInt8(ascii: "-")
    {
      iso = String(
        decoding: bytes[0..<10] + [UInt8(ascii: "T")] + bytes[11..<19] + bytes[20...], as: UTF8.self)
    }
    guard let instant = TimeInput.absoluteInstant(iso) else { return nil }
    return CalendarDate(containing: instant, in: options.timeZone)
  }
}
