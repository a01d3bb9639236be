import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

@Suite struct StashImportTests {
  static let utc = TimeZone(secondsFromGMT: 0) ?? .current
  static let now = Date(timeIntervalSince1970: 1_700_000_000)

  func options(lenient: Bool = false, guardUndo: Bool = true) -> StashCSV.ImportOptions {
    StashCSV.ImportOptions(lenient: lenient, undoFormulaGuard: guardUndo, timeZone: Self.utc, now: Self.now)
  }

  func export(_ store: LibraryStore) throws -> String {
    var bytes: [UInt8] = []
    try StashCSV.export(from: store, to: CSVWriter { bytes.append(contentsOf: $0) })
    return String(decoding: bytes, as: UTF8.self)
  }

  func importing(_ text: String, into store: LibraryStore, lenient: Bool = false) throws
    -> StashCSV.ImportPlan
  {
    let plan = try StashCSV.importPlan(
      from: Data(text.utf8), store: store, options: options(lenient: lenient))
    if plan.problems.isEmpty { try StashCSV.apply(plan, to: store) }
    return plan
  }

  /// `text` as a one-line field can hold it (`LineText`): control characters as spaces, no
  /// spaces around.
  static func oneLine(_ text: String) -> String {
    String(String.UnicodeScalarView(text.unicodeScalars.map { LineText.isRefused($0) ? " " : $0 }))
      .trimmingSpaces()
  }

  /// Every kind of tricky text, with every unit and weight: in the notes as it is, in every
  /// one-line field (name, brand, …) as such a field can hold it.
  static func trickyLibrary() -> Library {
    let texts = [
      "quote \" inside", "comma, inside", "cr\rinside", "lf\ninside", "crlf\r\ninside", "=SUM(A1:A9)",
      "+1", "-2 skeins", "@me", "\tTAB first", "\rCR first", "\nLF first", "  spaces  ", "'apostrophe",
      "'=already guarded?", "''+two", "'+safe", "'+safe, but quoted", "emoji 🧶🧵", "e\u{301}te\u{301}",
      "\"\u{301}quote+accent", ",\u{301}", "日本語", " ", "a;b\tc",
    ]
    var yarns: [Yarn] = []
    var notes: [Note] = []
    let units: [YarnUnit] = YarnUnit.allCases
    for (index, text) in texts.enumerated() {
      let id = "tricky-\(index)"
      let line = oneLine(text)
      yarns.append(
        Yarn(
          id: id, name: line.isEmpty ? "blank \(index)" : line,
          brand: line.isEmpty ? nil : line, colorway: index % 2 == 0 && !line.isEmpty ? line : nil,
          colorFamily: line.isEmpty ? nil : line,
          dyeLot: index % 3 == 0 || line.isEmpty ? nil : line, weight: YarnWeight(rawValue: index % 9),
          fiber: line.isEmpty ? nil : line,
          lengthPerSkein: index % 4 == 0 ? nil : Amount(Double(index) + 0.1, index % 2 == 0 ? .yard : .meter),
          netWeightPerSkein: index % 5 == 0
            ? nil : Amount(1.0 / 3.0 + Double(index), index % 2 == 0 ? .gram : .ounce),
          quantity: index % 6 == 5 ? nil : Amount(Double(index) * 2.5, units[index % units.count]),
          remainingOverride: index % 3 == 1 ? Amount(0.25, units[(index + 1) % units.count]) : nil,
          purchaseLocation: line.isEmpty ? nil : line,
          dateAdded: index % 2 == 0 ? CalendarDate(year: 2000 + index, month: 2, day: 29 - index % 2) : nil,
          isStashed: index % 4 != 3))
      // A note is never blank (`Rules.noteText`).
      if !text.allSatisfy(\.isWhitespace) {
        notes.append(Note(id: "n\(index)", subject: .yarn(id), text: text, created: now))
      }
    }
    return Library(yarns: yarns, notes: notes)
  }

  @Test func roundTripLawForEveryTrickyValue() throws {
    let first = try Fixtures.temporaryDirectory()
    let second = try Fixtures.temporaryDirectory()
    defer {
      Fixtures.cleanUp(first)
      Fixtures.cleanUp(second)
    }
    let source = try LibraryStore(directory: first, mode: .readWrite)
    try source.write { try source.insert(library: Self.trickyLibrary()) }
    let csv = try export(source)
    let target = try LibraryStore(directory: second, mode: .readWrite)
    let plan = try importing(csv, into: target)
    #expect(plan.problems == [])
    #expect(plan.creates.count == 25)
    #expect(try export(target) == csv)
    // Every yarn comes back equal, field by field (notes: one per yarn, joined).
    let original = Self.trickyLibrary()
    let back = try target.yarns()
    #expect(back == original.yarns)
    // Importing the same file again changes nothing.
    let again = try importing(csv, into: target)
    #expect(again.unchanged == 25 && again.creates.isEmpty && again.updates.isEmpty)
  }

  @Test func guardIsUndoneOnlyWhereTheWriterAddedIt() throws {
    let directory = try Fixtures.temporaryDirectory()
    defer { Fixtures.cleanUp(directory) }
    let store = try LibraryStore(directory: directory, mode: .readWrite)
    // Quoted '= loses its apostrophe; unquoted '+safe keeps it; quoted ''+x loses one.
    let text = "Name,Brand,Colorway,Dye Lot\r\n\"'=1+2\",'+safe,\"''+x, y\",\"'plain\"\r\n"
    _ = try importing(text, into: store)
    let yarn = try #require(try store.yarns().first)
    #expect(yarn.name == "=1+2")
    #expect(yarn.brand == "'+safe")
    #expect(yarn.colorway == "'+x, y")
    #expect(yarn.dyeLot == "'plain")
    let kept = try StashCSV.importPlan(
      from: Data(text.utf8), store: store, options: options(guardUndo: false))
    #expect(kept.creates.first?.name == "'=1+2")
  }

  @Test func anyOrderAnyCaseUnknownColumnsIgnored() throws {
    let directory = try Fixtures.temporaryDirectory()
    defer { Fixtures.cleanUp(directory) }
    let store = try LibraryStore(directory: directory, mode: .readWrite)
    let text = "quantity unit,FAVOURITE, name ,Quantity,weight\r\nskeins,yes,Rios,2.5,worsted\r\n"
    let plan = try importing(text, into: store)
    #expect(plan.ignoredColumns == ["FAVOURITE"])
    let yarn = try #require(try store.yarns().first)
    #expect(yarn.name == "Rios")
    #expect(yarn.quantity == Amount(2.5, .skein))
    #expect(yarn.weight == .medium)
    #expect(yarn.dateAdded == nil)  // no column: unknown, never today
    #expect(yarn.isStashed)
  }

  @Test func everyBadRowIsReportedAndNothingIsImported() throws {
    let directory = try Fixtures.temporaryDirectory()
    defer { Fixtures.cleanUp(directory) }
    let store = try LibraryStore(directory: directory, mode: .readWrite)
    let text = """
      Name,Quantity,Quantity Unit,Weight,Date Added,ID,Stashed\r
      Good,3,skein,dk,2024-01-02,good-1,yes\r
      ,3,bananas,medium,2024-02-30,good-1,maybe\r
      Also good,,,,,,\r
      Short,1\r
      "Multi
      line",-1,g,purple,,,\r
      Fine,2,g,,,bad id!,\r

      """
    let plan = try StashCSV.importPlan(from: Data(text.utf8), store: store, options: options())
    let described = plan.problems.map(\.description)
    #expect(
      described == [
        "line 3, column \"Name\": is blank",
        "line 3, column \"Quantity Unit\": \"bananas\" is not a unit: \(YarnUnit.acceptedWords)",
        "line 3, column \"Date Added\": \"2024-02-30\" is not a date (YYYY-MM-DD)",
        "line 3, column \"ID\": the ID good-1 is also on line 2",
        "line 3, column \"Stashed\": \"maybe\" is not yes or no",
        "line 5: 2 fields where the header has 7 (a quote the exporter did not double? try --lenient)",
        "line 6, column \"Name\": holds a line break (U+000A); it must be one line",
        "line 6, column \"Quantity\": \"-1\" is negative; an amount is zero or more; accepted units: \(YarnUnit.acceptedWords)",
        "line 6, column \"Weight\": \"purple\" is not a yarn weight (0-7, lace … jumbo, DK, worsted, 8 ply, …)",
        "line 8, column \"ID\": \"bad id!\" is not an ID (1 to 128 letters, digits, '-', '_' or '.')",
      ])
    do {
      try StashCSV.apply(plan, to: store)
      Issue.record("a plan with problems was applied")
    } catch let error as StashCSV.ImportError {
      #expect(error.description.hasPrefix("4 bad rows; nothing was imported:\n  line 3, column \"Name\""))
    }
    #expect(try store.yarns().isEmpty)
  }

  /// Amounts and notes that break the model's rules (`Rules`) are named by line and column
  /// in the rule's words; values at the edges (the ceiling, tiny fractions) are taken.
  @Test func amountsAndNotesBreakingTheRulesAreNamedInTheRulesWords() throws {
    let directory = try Fixtures.temporaryDirectory()
    defer { Fixtures.cleanUp(directory) }
    let store = try LibraryStore(directory: directory, mode: .readWrite)
    let text =
      "Name,Quantity,Quantity Unit,Length per Skein,Length Unit,Net Weight per Skein,Net Weight Unit,Notes\r\n"
      + "Huge,2000000000,g,,,,,\r\n"
      + "Zero,1,skein,0,m,,,\r\n"
      + "Kilo,1,skein,,,100,yd,\r\n"
      + "Bell,1,skein,,,,,\"ding\u{7}\"\r\n"
      + "Fine,1000000000,g,0.5,yd,5e-324,oz,\"two\nlines\"\r\n"
    let plan = try StashCSV.importPlan(from: Data(text.utf8), store: store, options: options())
    #expect(
      plan.problems.map(\.description) == [
        "line 2, column \"Quantity\": 2000000000 g is over the limit of 1000000000",
        "line 3, column \"Length per Skein\": 0 m must be more than 0",
        "line 4, column \"Net Weight per Skein\": 100 yd is not in g or oz",
        "line 5, column \"Notes\": holds a control character (U+0007); "
          + "a note may hold line breaks and tabs, no other control character",
      ])
    let fine = try #require(plan.creates.first)
    #expect(plan.creates.count == 1)
    #expect(fine.quantity == Amount(1_000_000_000, .gram))
    #expect(fine.lengthPerSkein == Amount(0.5, .yard))
    #expect(fine.netWeightPerSkein == Amount(5e-324, .ounce))
    #expect(plan.notes.map(\.text) == ["two\nlines"])
  }

  @Test func headerProblems() throws {
    let directory = try Fixtures.temporaryDirectory()
    defer { Fixtures.cleanUp(directory) }
    let store = try LibraryStore(directory: directory, mode: .readWrite)
    let empty = try StashCSV.importPlan(from: Data(), store: store, options: options())
    #expect(empty.problems.map(\.description) == ["line 1: the file is empty: no header row"])
    let twice = try StashCSV.importPlan(
      from: Data("Name,name\r\nx,y\r\n".utf8), store: store, options: options())
    #expect(
      twice.problems.map(\.description) == [
        "line 1, column \"name\": the column Name appears twice (fields 1 and 2)"
      ])
    let nameless = try StashCSV.importPlan(
      from: Data("Brand\r\nx\r\n".utf8), store: store, options: options())
    #expect(
      nameless.problems.map(\.description) == [
        "line 1: the header has neither a Name nor an ID column",
        "line 2: a new yarn needs a name, and the file has no Name column",
      ])
  }

  @Test func rowsWithAnExistingIDUpdateOnlyTheirColumns() throws {
    let directory = try Fixtures.temporaryDirectory()
    defer { Fixtures.cleanUp(directory) }
    let store = try LibraryStore(directory: directory, mode: .readWrite)
    let photoFile = directory.appendingPathComponent("p.jpg")
    try Data([0xFF, 0xD8, 0xFF, 0xD9]).write(to: photoFile)
    let photo = try store.importAttachment(from: photoFile)
    let yarn = Yarn(
      id: "y1", name: "Cascade 220", brand: "Cascade", fiber: "wool", quantity: Amount(3, .skein),
      remainingOverride: Amount(1, .skein), photos: [photo])
    try store.write {
      try store.insert(yarn)
      try store.insert(Note(id: "n1", subject: .yarn("y1"), text: "old note", created: Self.now))
    }
    let text =
      "ID,Name,Brand,Remaining,Remaining Unit,Remaining Source,Notes\r\ny1,Cascade 220 Superwash,,,,estimate,new note\r\n"
    let plan = try importing(text, into: store)
    #expect(plan.updates.count == 1 && plan.creates.isEmpty)
    #expect(plan.warnings.map(\.line) == [2])
    let updated = try #require(try store.yarn(id: "y1"))
    var expected = yarn
    expected.name = "Cascade 220 Superwash"
    expected.brand = nil  // an empty cell clears
    expected.remainingOverride = nil  // not an override any more
    #expect(updated == expected)  // fiber, quantity and the photo kept
    #expect(try store.notes(about: .yarn("y1")).map(\.text) == ["old note"])
  }

  @Test func remainingWithoutASourceColumnIsAnOverrideWhenItDiffers() throws {
    let directory = try Fixtures.temporaryDirectory()
    defer { Fixtures.cleanUp(directory) }
    let store = try LibraryStore(directory: directory, mode: .readWrite)
    let text = "Name,Quantity,Remaining\r\nA,3 skeins,3 skeins\r\nB,250 g,100 g\r\nC,,2 skeins\r\n"
    _ = try importing(text, into: store)
    let yarns = try store.yarns()
    #expect(yarns.map(\.remainingOverride) == [nil, Amount(100, .gram), Amount(2, .skein)])
    let missing = try StashCSV.importPlan(
      from: Data("Name,Remaining,Remaining Unit,Remaining Source\r\nD,,,override\r\n".utf8), store: store,
      options: options())
    #expect(
      missing.problems.map(\.description) == [
        "line 2, column \"Remaining\": Remaining Source is override, so Remaining and its unit are needed"
      ])
  }

  static let yarnBuddyFile = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/yarnbuddy-stash.csv")

  @Test func yarnBuddyStashNeedsLenientAndSaysWhere() throws {
    let directory = try Fixtures.temporaryDirectory()
    defer { Fixtures.cleanUp(directory) }
    let store = try LibraryStore(directory: directory, mode: .readWrite)
    let data = try Data(contentsOf: Self.yarnBuddyFile)
    #expect(throws: CSVReadError(problem: .textAfterClosingQuote, line: 6, column: 11)) {
      try StashCSV.importPlan(from: data, store: store, options: options())
    }
    let plan = try StashCSV.importPlan(from: data, store: store, options: options(lenient: true))
    #expect(plan.problems == [])
    #expect(plan.dialect == .yarnBuddy)
    #expect(plan.guessedLines == [6])
    #expect(plan.ignoredColumns == [])
    try StashCSV.apply(plan, to: store)
    let yarns = try store.yarns()
    #expect(yarns.count == 6)
    guard yarns.count == 6 else { return }
    func strip(_ yarn: Yarn) -> Yarn {
      var copy = yarn
      copy.id = "-"
      return copy
    }
    #expect(
      strip(yarns[0])
        == Yarn(
          id: "-", name: "Cascade 220", colorway: "Ruby", colorFamily: "Red", dyeLot: "A1234",
          weight: .medium,
          fiber: "100% Peruvian Highland Wool", lengthPerSkein: Amount(220, .yard),
          netWeightPerSkein: Amount(100, .gram), quantity: Amount(3, .skein),
          remainingOverride: Amount(1.5, .skein),
          purchaseLocation: "Knit Happens", dateAdded: CalendarDate(year: 2021, month: 6, day: 12)))
    #expect(
      strip(yarns[1])
        == Yarn(
          id: "-", name: "Malabrigo Rios", colorway: "Archangel", colorFamily: "Red", weight: .medium,
          fiber: "100% Merino", lengthPerSkein: Amount(210, .yard), netWeightPerSkein: Amount(100, .gram),
          quantity: Amount(250, .gram), dateAdded: CalendarDate(year: 2021, month: 7, day: 1)))
    #expect(yarns[2].name == "Shelter \"Almanac\"")
    #expect(yarns[2].weight == .light)
    #expect(yarns[2].dateAdded == CalendarDate(year: 2021, month: 8, day: 20))
    #expect(yarns[3].remainingOverride == Amount(0, .ounce))
    #expect(yarns[3].netWeightPerSkein == Amount(3, .ounce))
    #expect(yarns[4].lengthPerSkein == Amount(115, .meter))
    #expect(yarns[4].weight == .superFine)
    #expect(yarns[5].weight == .lace)
    #expect(yarns[5].lengthPerSkein == nil && yarns[5].fiber == nil)
    let notes = try store.notes().map(\.text)
    #expect(notes == ["Lovely stitch definition\nBought on sale", "Named \"Almanac\" on the band"])
    // 23:30 UTC is already the next day in Auckland (UTC+12 in August).
    var auckland = options(lenient: true)
    auckland.timeZone = TimeZone(identifier: "Pacific/Auckland") ?? Self.utc
    let there = try StashCSV.importPlan(from: data, store: store, options: auckland)
    #expect(there.creates[2].dateAdded == CalendarDate(year: 2021, month: 8, day: 21))
  }

  @Test func yarnBuddyWeightLabelsAllParse() {
    let labels = [
      "Lace (0), Light Fingering, 1-3 ply", "Super Fine (1), Fingering, 4 ply", "Fine (2), Sport, 5 ply",
      "Light (3), DK, 8 ply", "Medium (4), Worsted/Aran, 10 ply", "Bulky (5), Chunky, 12 ply",
      "Super Bulky (6), Roving", "Jumbo (7)",
    ]
    #expect(labels.map { YarnWeight(parsing: $0) } == YarnWeight.allCases.map { $0 })
  }
}
