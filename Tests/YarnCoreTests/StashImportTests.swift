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

  /// Imports `text` row by row (`importCSV`) and returns the plan `importPlan` made of it
  /// first, after checking that the two say the same: the same counts, changes, overrides,
  /// warnings and problems; and that a dry run and a refused import change nothing.
  func importing(_ text: String, into store: LibraryStore, lenient: Bool = false) throws
    -> StashCSV.ImportPlan
  {
    let data = Data(text.utf8)
    let plan = try StashCSV.importPlan(from: data, store: store, options: options(lenient: lenient))
    let before = try store.yarns()
    let dry = try StashCSV.importCSV(
      from: data, into: store, options: options(lenient: lenient), dryRun: true)
    let done = try StashCSV.importCSV(from: data, into: store, options: options(lenient: lenient))
    for result in [dry, done] {
      #expect(result.problems == plan.problems && result.warnings == plan.warnings)
      // (A new yarn without an ID in the file gets a new ID each time.)
      #expect(result.changes == plan.changes)
      #expect(
        result.remainingOverrides.map { "\($0.line) \($0)" }
          == plan.remainingOverrides.map { "\($0.line) \($0)" })
      #expect(result.unchanged == plan.unchanged && result.added == plan.creates.count)
      #expect(result.notesAdded == plan.notes.count && result.dialect == plan.dialect)
      #expect(result.ignoredColumns == plan.ignoredColumns && result.guessedLines == plan.guessedLines)
      #expect(result.creates == [] && result.updates == [] && result.notes == [])
    }
    if !plan.problems.isEmpty { #expect(try store.yarns() == before) }
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
          status: StashStatus.allCases[index % StashStatus.allCases.count],
          price: index % 3 == 0
            ? nil : Price(minorUnits: Int64(index) * 137, currency: ["USD", "JPY", "KWD"][index % 3]),
          storedIn: index % 2 == 0 || line.isEmpty ? nil : line,
          tags: index % 4 == 0 ? [] : ["tag \(index)", "Zwei"]))
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
    #expect(yarn.status == .inStash)
  }

  /// QA: a rule the whole yarn breaks (`Yarn.ruleViolations`, checked once the row is read)
  /// was listed without a column (`line 3: quantity …`): it is listed at the column of its
  /// field, as the file spells the header (YarnBuddy's `Length` too), as a cell's problem is;
  /// without one only when the file has no such column. Every field a yarn's rules name has
  /// its column.
  @Test func aRuleOfTheWholeYarnIsNamedByItsFieldsColumn() {
    let layout = StashHeaderLayout(
      CSVRecord(fields: ["name", "QUANTITY", "Quantity Unit", "Length", "Price", "Tags"], line: 1))
    #expect(layout.header(of: RuleViolation(field: "quantity", reason: "-1 g is negative")) == "QUANTITY")
    #expect(layout.header(of: RuleViolation(field: "length per skein", reason: "")) == "Length")
    #expect(layout.header(of: RuleViolation(field: "price", reason: "")) == "Price")
    #expect(layout.header(of: RuleViolation(field: "name", reason: "is blank")) == "name")
    #expect(layout.header(of: RuleViolation(field: "stored in", reason: "")) == nil)
    var yarn = Yarn(id: "y", name: "")
    (yarn.brand, yarn.colorway, yarn.colorFamily, yarn.dyeLot, yarn.fiber) = ("", "", "", "", "")
    (yarn.purchaseLocation, yarn.storedIn, yarn.tags) = ("", "", [""])
    yarn.lengthPerSkein = Amount(-1, .meter)
    yarn.netWeightPerSkein = Amount(-1, .gram)
    yarn.quantity = Amount(-1, .skein)
    yarn.remainingOverride = Amount(-1, .skein)
    let all = StashHeaderLayout(CSVRecord(fields: StashCSV.Column.allCases.map(\.rawValue), line: 1))
    let violations = yarn.ruleViolations()
    #expect(violations.count == 13)
    for violation in violations {
      #expect(all.header(of: violation) != nil, "\(violation)")
    }
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
        // QA: it did not say why; 2024 is a leap year.
        "line 3, column \"Date Added\": \"2024-02-30\" is not a date (YYYY-MM-DD): day 30 is past the end of "
          + "February 2024, which has 29 days",
        "line 3, column \"ID\": the ID good-1 is also on line 2",
        "line 3, column \"Stashed\": \"maybe\" is not yes or no",
        "line 5: 2 fields where the header has 7 (a quote the exporter did not double? try --lenient)",
        "line 6, column \"Name\": holds a line break (U+000A); it must be one line",
        "line 6, column \"Quantity\": \"-1\" is negative",
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

  /// QA: a bad cell was quoted raw in its reason (`"D​K" is not a yarn weight`, ESC sent to
  /// the terminal as U+FFFD): every cell, and a header's names, are quoted escaped, as the
  /// values of the tool's options are.
  @Test func aBadCellIsQuotedEscaped() throws {
    let directory = try Fixtures.temporaryDirectory()
    defer { Fixtures.cleanUp(directory) }
    let store = try LibraryStore(directory: directory, mode: .readWrite)
    let text =
      "Name,Quantity,Weight,Date Added,Price,Stashed\r\n"
      + "Rios,3 g\u{200B},D\u{200B}K,2026-01-0\u{200B}1,3 U\u{1B}SD,y\u{2060}\r\n"
    let plan = try StashCSV.importPlan(from: Data(text.utf8), store: store, options: options())
    #expect(
      plan.problems.map(\.description) == [
        "line 2, column \"Quantity\": \"3 g\\u{200B}\" has an unknown unit \"g\\u{200B}\"; "
          + "accepted units: \(YarnUnit.acceptedWords)",
        "line 2, column \"Weight\": \"D\\u{200B}K\" is not a yarn weight (0-7, lace … jumbo, DK, worsted, 8 ply, …)",
        "line 2, column \"Date Added\": \"2026-01-0\\u{200B}1\" is not a date (YYYY-MM-DD)",
        "line 2, column \"Price\": \"3 U\\u{1B}SD\": \"U\\u{1B}SD\" is not a currency code "
          + "(three letters of ISO 4217, such as USD or EUR)",
        "line 2, column \"Stashed\": \"y\\u{2060}\" is not yes or no",
      ])
    let header = try StashCSV.importPlan(
      from: Data("Na\u{200B}me,Quantity\r\nRios,3 g\r\n".utf8), store: store, options: options())
    #expect(
      header.problems.map(\.reason) == [
        "the header has neither a Name nor an ID column (it has \"Na\\u{200B}me\", \"Quantity\"); "
          + "a stash CSV needs one of the two, to tell which yarn each row is"
      ])
  }

  /// The match key's text: lower case, one space for each run of white space, none around;
  /// text that already is so (the fast path) comes back as it is.
  @Test func matchKeyTextIsLowerCaseWithSingleSpaces() {
    let cases: [(String, String)] = [
      ("cascade 220", "cascade 220"), ("Cascade 220", "cascade 220"), ("cascade  220", "cascade 220"),
      (" cascade 220", "cascade 220"), ("cascade 220 ", "cascade 220"), ("cascade\t220", "cascade 220"),
      ("a\r\nb", "a b"), ("", ""), (" ", ""), ("x", "x"), ("ÀB c", "àb c"), ("a\u{A0}b", "a b"),
      ("lot #7-b", "lot #7-b"), ("a\u{1}b", "a\u{1}b"), ("Yarn Number 5", "yarn number 5"),
      ("A  B", "a b"), ("@[Z]`{", "@[z]`{"), ("ÉCRU Wool", "écru wool"),
    ]
    for (text, key) in cases {
      #expect(StashMatchKey.normalized(text) == key, "\(text.debugDescription)")
    }
  }

  /// The error lists every problem of the first 100 bad rows (`listedRowLimit`), then counts
  /// the rows it leaves out: 102 bad rows, the first with two problems, give 101 listed
  /// problems and `and 2 more bad rows`; 101 rows, `and 1 more bad row`; 100 rows, no such line.
  @Test func theErrorListsTheFirstHundredBadRowsAndCountsTheRest() {
    #expect(StashCSV.ImportError.listedRowLimit == 100)
    func error(rows: Int) -> StashCSV.ImportError {
      var problems = [StashCSV.ImportProblem(line: 2, column: "Name", reason: "is blank")]
      for line in 2..<(2 + rows) {
        problems.append(.init(line: line, column: nil, reason: "row \(line)"))
      }
      return StashCSV.ImportError(problems: problems)
    }
    let lines = error(rows: 102).description.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 1 + 101 + 1)
    #expect(lines.first == "102 bad rows; nothing was imported:")
    #expect(lines[1] == "  line 2, column \"Name\": is blank")
    #expect(lines[2] == "  line 2: row 2")
    #expect(lines[101] == "  line 101: row 101")
    #expect(lines.last == "  and 2 more bad rows")
    #expect(error(rows: 101).description.hasSuffix("\n  line 101: row 101\n  and 1 more bad row"))
    let hundred = error(rows: 100).description
    #expect(hundred.hasPrefix("100 bad rows; nothing was imported:\n"))
    #expect(hundred.hasSuffix("\n  line 101: row 101"))
    #expect(!hundred.contains("more bad row"))
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
      // A row with another problem still has its note checked: both are listed.
      + "Both,3 bananas,,,,,,\"bad\u{1}note\"\r\n"
    let plan = try StashCSV.importPlan(from: Data(text.utf8), store: store, options: options())
    #expect(
      plan.problems.map(\.description) == [
        "line 2, column \"Quantity\": 2000000000 g is over the limit of 1000000000",
        "line 3, column \"Length per Skein\": 0 m must be more than 0",
        "line 4, column \"Net Weight per Skein\": 100 yd is not in g, kg, oz or lb",
        "line 5, column \"Notes\": holds a control character (U+0007); "
          + "a note may hold line feeds (U+000A), carriage returns and tabs, no other "
          + "control or separator character",
        "line 8, column \"Quantity\": \"3 bananas\" has an unknown unit \"bananas\"; accepted units: skeins "
          + "(skein, sk, ball, hank), grams (g, gram), kilograms (kg, kilo), ounces (oz, ounce), pounds (lb, "
          + "lbs, pound), yards (yd, yds, yard), meters (m, meter, metre)",
        "line 8, column \"Notes\": holds a control character (U+0001); "
          + "a note may hold line feeds (U+000A), carriage returns and tabs, no other "
          + "control or separator character",
      ])
    let fine = try #require(plan.creates.first)
    #expect(plan.creates.count == 1)
    #expect(fine.quantity == Amount(1_000_000_000, .gram))
    #expect(fine.lengthPerSkein == Amount(0.5, .yard))
    #expect(fine.netWeightPerSkein == Amount(5e-324, .ounce))
    #expect(plan.notes.map(\.text) == ["two\nlines"])
  }

  /// A blank cell — spaces, NBSP, or invisible characters such as U+200B only
  /// (`LineText.isBlank`) — is an empty one in every column (docs/CSV.md): no note, no ID,
  /// weight, day, price or amount, the default status (QA: a Notes cell of U+200B alone was a
  /// bad row, `is blank`, while one of spaces was no note; a Weight, Status or Price cell of
  /// spaces was refused, a Quantity or Stashed cell of U+200B too).
  @Test func aBlankCellIsAnEmptyOne() throws {
    let store = try LibraryStore.inMemory()
    let columns = [
      "ID", "Notes", "Weight", "Date Added", "Status", "Stashed", "Price", "Quantity", "Quantity Unit",
      "Remaining", "Remaining Source",
    ]
    var text = "Name," + columns.joined(separator: ",") + "\r\n"
    for (name, blank) in [
      ("Wool", "\u{200B}"), ("Silk", "   "), ("Flax", "\u{A0}"), ("Hemp", " \u{2060}\u{FEFF}"),
    ] {
      text += name + String(repeating: ",\"\(blank)\"", count: columns.count) + "\r\n"
    }
    let plan = try importing(text, into: store)
    #expect(plan.problems.isEmpty, "\(plan.problems)")
    #expect(plan.notes.isEmpty)
    let yarns = try store.yarns()
    #expect(Set(yarns.map(\.name)) == ["Wool", "Silk", "Flax", "Hemp"])
    for yarn in yarns {
      #expect(
        yarn == Yarn(id: yarn.id, name: yarn.name), "\(yarn)")
      #expect(try store.notes(about: .yarn(yarn.id)).isEmpty)
    }
  }

  /// QA: a Name cell of invisible characters only (U+200B) said `line 2: name is blank`; a
  /// blank name is named by its column, as an empty one and every other cell are
  /// (docs/CSV.md: `line 3, column "Name": is blank`).
  @Test func aBlankNameIsNamedByItsColumn() throws {
    let store = try LibraryStore.inMemory()
    var text = "Name,Notes\r\n"
    for blank in ["", "   ", "\u{200B}", "\u{A0}", " \u{2060}\u{FEFF}"] {
      text += "\"\(blank)\",x\r\n"
    }
    let plan = try StashCSV.importPlan(from: Data(text.utf8), store: store, options: options())
    #expect(plan.problems.map(\.description) == (2...6).map { "line \($0), column \"Name\": is blank" })
  }

  @Test func headerProblems() throws {
    let directory = try Fixtures.temporaryDirectory()
    defer { Fixtures.cleanUp(directory) }
    let store = try LibraryStore(directory: directory, mode: .readWrite)
    let empty = try StashCSV.importPlan(from: Data(), store: store, options: options())
    #expect(empty.problems.map(\.description) == ["line 1: the file is empty: no header row"])
    // A header problem is said alone: no row is read (a row with a bad quantity, here).
    let twice = try StashCSV.importPlan(
      from: Data("Name,name,Quantity\r\nx,y,3 bananas\r\n".utf8), store: store, options: options())
    #expect(
      twice.problems.map(\.description) == [
        "line 1, column \"name\": the column Name appears twice (fields 1 and 2)"
      ])
    // QA: a file that is no stash CSV (Apache Commons CSV's bom.csv: a BOM, then stock
    // prices) said "252 bad rows" and listed 100 identical errors after the header's. It is
    // one problem, the header's, naming the columns found (the first 10).
    let prices =
      "\u{FEFF}Date, Open, High, Low, Close, Volume\n"
      + String(repeating: "14-Mar-14,223.80,225.20,220.85,221.51,79448141\n", count: 251)
    let nameless = try StashCSV.importPlan(from: Data(prices.utf8), store: store, options: options())
    #expect(
      nameless.problems.map(\.description) == [
        "line 1: the header has neither a Name nor an ID column (it has \"Date\", \" Open\", \" High\", "
          + "\" Low\", \" Close\", \" Volume\"); a stash CSV needs one of the two, to tell which yarn each row is"
      ])
    #expect(nameless.problems.map(\.isHeader) == [true])
    #expect(
      StashCSV.ImportError(problems: nameless.problems).description
        == "\(nameless.problems[0]); nothing was imported")
    #expect(
      StashCSV.ImportError(problems: twice.problems + empty.problems).description == """
        the header is refused; nothing was imported:
          line 1, column "name": the column Name appears twice (fields 1 and 2)
          line 1: the file is empty: no header row
        """)
    let wide = (1...12).map { "C\($0)" }.joined(separator: ",")
    let many = try StashCSV.importPlan(from: Data((wide + "\r\n").utf8), store: store, options: options())
    #expect(
      many.problems.map(\.reason) == [
        "the header has neither a Name nor an ID column (it has "
          + (1...10).map { "\"C\($0)\"" }.joined(separator: ", ")
          + ", …); a stash CSV needs one of the two, to tell which yarn each row is"
      ])
    #expect(try store.yarns().isEmpty)
  }

  /// A file split by `;` (yarn's own `--delimiter semicolon` export) or TAB, read with a
  /// comma, is refused for its header before any row: a later row's quotes, errors only when
  /// split by the wrong byte, were said first, with a hint to use --lenient (and --lenient
  /// listed every row as nameless). Nothing is written; a file read in pieces says the same.
  @Test func aHeaderSplitByAnotherDelimiterIsSaidFirst() throws {
    let directory = try Fixtures.temporaryDirectory()
    defer { Fixtures.cleanUp(directory) }
    let store = try LibraryStore(directory: directory, mode: .readWrite)
    let semicolons = "Name;Brand;Price;ID\r\nRios;Malabrigo;5.00 EUR;\r\n\"Say \"\"hi\"\"\";\"A; B\";;\r\n"
    let cases: [(text: String, delimiter: Character, error: CSVReadError)] = [
      (
        semicolons, ",",
        CSVReadError(problem: .headerDelimiter(found: 0x3B, given: 0x2C), line: 1, column: nil)
      ),
      (
        "Name\tBrand\r\nRios\t\"a\"b\r\n", ",",
        CSVReadError(problem: .headerDelimiter(found: 0x09, given: 0x2C), line: 1, column: nil)
      ),
      (
        "Name,Brand\r\nRios,Malabrigo\r\n", ";",
        CSVReadError(problem: .headerDelimiter(found: 0x2C, given: 0x3B), line: 1, column: nil)
      ),
      // Empty lines before the header, a UTF-8 BOM, and a header that is not CSV as read.
      (
        "\u{FEFF}\r\n\n\"Name\";\"Brand\"\r\n\"a\";\"b\"\r\n", ",",
        CSVReadError(problem: .headerDelimiter(found: 0x3B, given: 0x2C), line: 3, column: nil)
      ),
    ]
    let file = directory.appendingPathComponent("in.csv")
    for (text, delimiter, error) in cases {
      try Data(text.utf8).write(to: file)
      for lenient in [false, true] {
        var options = options(lenient: lenient)
        options.delimiter = try #require(delimiter.asciiValue)
        #expect(throws: error, "\(text)") {
          try StashCSV.importPlan(from: Data(text.utf8), store: store, options: options)
        }
        #expect(throws: error, "\(text)") {
          try StashCSV.importCSV(from: .file(path: file.path), into: store, options: options)
        }
      }
    }
    #expect(try store.yarns().isEmpty)
    #expect(cases[0].error.description == "line 1: the header is split by ';', not by ','")
    #expect(cases[1].error.description == "line 1: the header is split by TAB, not by ','")
    // Read with its own delimiter, the file imports; a file whose header has the delimiter
    // given keeps its row problems.
    var semicolon = options()
    semicolon.delimiter = 0x3B
    #expect(try StashCSV.importPlan(from: Data(semicolons.utf8), store: store, options: semicolon).added == 2)
    let nameless = try StashCSV.importPlan(
      from: Data("Brand;Colorway\r\nx\r\n".utf8), store: store, options: semicolon)
    #expect(
      nameless.problems.first?.description.hasPrefix("line 1: the header has neither a Name nor an ID column")
        == true)
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
    // Remaining Source override without a Remaining column keeps an override; a new yarn
    // has none to keep.
    let missing = try StashCSV.importPlan(
      from: Data("Name,Remaining Source\r\nD,override\r\n".utf8), store: store, options: options())
    #expect(
      missing.problems.map(\.description) == [
        "line 2, column \"Remaining Source\": Remaining Source is override, but the file has no Remaining column to give the figure"
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
    // Imported again, the rows match the yarns by name, colorway and dye lot: only the days
    // that fall on the next day in Auckland change (Rios at 21:00 and Mystery lace at 16:03
    // there stay on their day).
    let there = try StashCSV.importPlan(from: data, store: store, options: auckland)
    #expect(there.creates == [] && there.unchanged == 2)
    #expect(
      there.changes.map { "\($0.line) \($0.name): \($0.changes.map(\.description))" } == [
        "2 Cascade 220: [\"Date Added 2021-06-12 → 2021-06-13\"]",
        "6 Shelter \"Almanac\": [\"Date Added 2021-08-20 → 2021-08-21\"]",
        "8 Lion Brand Wool-Ease: [\"Date Added 2020-11-02 → 2020-11-03\"]",
        "9 Jamieson's Spindrift: [\"Date Added 2022-01-15 → 2022-01-16\"]",
      ])
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

/// Importing a file whose rows are already in the library (issue 12, item 8).
extension StashImportTests {
  /// Cascade 220 (3 skeins of 220 yd and 100 g; a finished project used 1 skein and one in
  /// progress 110 yd, so 2 skeins are left, or 1.5 counting the one in progress); Lace (1
  /// skein of 300 yd, 100 yd used: 2/3 of a skein left); Malabrigo Rios (250 g, 100 g by
  /// override); Mystery (no quantity). A note on Cascade 220.
  func matchingLibrary(in store: LibraryStore) throws {
    try store.insert(
      library: Library(
        yarns: [
          Yarn(
            id: "c", name: "Cascade 220", brand: "Cascade Yarns", colorway: "Ruby", dyeLot: "A1",
            lengthPerSkein: Amount(220, .yard), netWeightPerSkein: Amount(100, .gram),
            quantity: Amount(3, .skein)),
          Yarn(id: "l", name: "Lace", lengthPerSkein: Amount(300, .yard), quantity: Amount(1, .skein)),
          Yarn(
            id: "r", name: "Malabrigo Rios", colorway: "Archangel", quantity: Amount(250, .gram),
            remainingOverride: Amount(100, .gram)),
          Yarn(id: "m", name: "Mystery"),
        ],
        projects: [
          Project(
            id: "p1", name: "Hat", status: .finished, started: CalendarDate(year: 2026, month: 1, day: 1),
            finished: CalendarDate(year: 2026, month: 1, day: 5),
            usages: [
              YarnUsage(yarnID: "c", amount: Amount(1, .skein)),
              YarnUsage(yarnID: "l", amount: Amount(100, .yard)),
            ]),
          Project(
            id: "p2", name: "Scarf", status: .inProgress, started: CalendarDate(year: 2026, month: 2, day: 1),
            usages: [YarnUsage(yarnID: "c", amount: Amount(110, .yard))]),
        ],
        notes: [Note(id: "n1", subject: .yarn("c"), text: "soft", created: Self.now)]))
  }

  func plan(_ text: String, _ store: LibraryStore, lenient: Bool = false) throws -> StashCSV.ImportPlan {
    try StashCSV.importPlan(from: Data(text.utf8), store: store, options: options(lenient: lenient))
  }

  @Test func anExportImportedBackIntoItsLibraryChangesNothing() throws {
    let directory = try Fixtures.temporaryDirectory()
    defer { Fixtures.cleanUp(directory) }
    let store = try LibraryStore(directory: directory, mode: .readWrite)
    try matchingLibrary(in: store)
    let before = try store.yarns()
    let withoutID = StashCSV.defaultColumns.filter { $0 != .id }
    for (columns, active) in [
      (StashCSV.defaultColumns, false), (StashCSV.defaultColumns, true), (withoutID, false),
    ] {
      let csv = try StashCSV.export(from: store, columns: columns, includeActive: active)
      let plan = try StashCSV.importPlan(from: csv, store: store, options: options())
      #expect(plan.problems == [] && plan.warnings == [])
      #expect(plan.unchanged == 4, "columns \(columns.count), include active \(active)")
      #expect(plan.creates == [] && plan.updates == [] && plan.remainingOverrides == [])
      try StashCSV.apply(plan, to: store)
      #expect(try store.yarns() == before)
      #expect(try store.notes().map(\.text) == ["soft"])
    }
  }

  @Test func importingAFileTwiceIsImportingItOnce() throws {
    let directory = try Fixtures.temporaryDirectory()
    defer { Fixtures.cleanUp(directory) }
    let store = try LibraryStore(directory: directory, mode: .readWrite)
    // Two equal rows are two yarns (the file says so); no ID column.
    let text =
      "Name,Colorway,Quantity,Remaining\r\nRios,Archangel,3 skeins,3 skeins\r\nRios,Archangel,3 skeins,3 skeins\r\n"
      + "Cascade 220,,2 skeins,1 skein\r\n"
    let first = try importing(text, into: store)
    #expect(first.creates.map(\.name) == ["Rios", "Rios", "Cascade 220"])
    #expect(
      first.remainingOverrides.map(\.description) == [
        "Remaining of “Cascade 220” taken as 1 skein (estimate 2 skeins)"
      ])
    let once = try store.yarns()
    let second = try importing(text, into: store)
    #expect(second.creates == [] && second.updates == [] && second.remainingOverrides == [])
    #expect(second.unchanged == 3)
    #expect(try store.yarns() == once)
    // YarnBuddy's file likewise: its six yarns once.
    let yarnBuddy = try String(contentsOf: Self.yarnBuddyFile, encoding: .utf8)
    #expect(try importing(yarnBuddy, into: store, lenient: true).creates.count == 6)
    let again = try importing(yarnBuddy, into: store, lenient: true)
    #expect(again.creates == [] && again.updates == [] && again.unchanged == 6 && again.warnings == [])
    #expect(try store.yarns().count == 9)
    // A Notes cell of spaces is no note: no note the first time, no warning the second.
    let spaces = "Name,Notes\r\nBlank,   \r\n"
    #expect(try importing(spaces, into: store).notes.isEmpty)
    #expect(try importing(spaces, into: store).warnings.isEmpty)
  }

  @Test func spreadsheetEditsUpdateTheYarnAndSayWhat() throws {
    let directory = try Fixtures.temporaryDirectory()
    defer { Fixtures.cleanUp(directory) }
    let store = try LibraryStore(directory: directory, mode: .readWrite)
    try matchingLibrary(in: store)
    // Cascade: colorway edited, Remaining left at the estimate (2 skeins, here as 200 g at
    // 100 g a skein); Lace: 0.6666666666666667 saved as 0.67; Rios: override edited; Mystery
    // as exported.
    let edited = """
      ID,Name,Colorway,Quantity,Quantity Unit,Remaining,Remaining Unit,Remaining Source\r
      c,Cascade 220,Garnet,3,skein,200,g,estimate\r
      l,Lace,,1,skein,0.67,skein,estimate\r
      r,Malabrigo Rios,Archangel,250,g,120,g,override\r
      m,Mystery,,,,,,unknown\r

      """
    let plan = try importing(edited, into: store)
    #expect(plan.problems == [] && plan.creates == [] && plan.unchanged == 2)
    #expect(
      plan.changes.map { "\($0.line) \($0.yarnID): \($0.changes.map(\.description))" } == [
        "2 c: [\"Colorway Ruby → Garnet\"]", "4 r: [\"Remaining override 100 g → 120 g\"]",
      ])
    #expect(
      plan.remainingOverrides.map(\.description) == [
        "Remaining of “Malabrigo Rios” taken as 120 g (estimate 250 g)"
      ])
    #expect(try store.yarn(id: "c")?.colorway == "Garnet")
    #expect(try store.yarn(id: "c")?.remainingOverride == nil)
    #expect(try store.yarn(id: "r")?.remainingOverride == Amount(120, .gram))
    // Without IDs, rows match by name and colorway, case and spaces aside. A Remaining other
    // than the estimate (Lace: 0.5 where 0.67 is left) is the override.
    let trimmed =
      "Name,Colorway,Remaining,Remaining Unit\r\nLace,,0.5,skein\r\ncascade   220,GARNET,200,g\r\n"
    let second = try importing(trimmed, into: store)
    #expect(second.creates == [] && second.unchanged == 1)
    #expect(
      second.changes.map(\.changes) == [
        [StashCSV.FieldChange(column: .remaining, old: nil, new: "0.5 skeins")]
      ])
    #expect(
      second.remainingOverrides.map(\.description) == [
        "Remaining of “Lace” taken as 0.5 skeins (estimate 0.67 skeins)"
      ])
    #expect(try store.yarn(id: "l")?.remainingOverride == Amount(0.5, .skein))
    // Remaining Source changed alone leaves Rios's 120 g, which is not the estimate (250 g):
    // still the override. An empty Remaining drops it.
    let sourceOnly = try importing(
      "ID,Remaining,Remaining Unit,Remaining Source\r\nr,120,g,estimate\r\n", into: store)
    #expect(sourceOnly.unchanged == 1 && sourceOnly.updates == [])
    let emptied = try importing(
      "ID,Remaining,Remaining Unit,Remaining Source\r\nr,,,estimate\r\n", into: store)
    #expect(
      emptied.changes.map(\.changes) == [[StashCSV.FieldChange(column: .remaining, old: "120 g", new: nil)]])
    #expect(emptied.remainingOverrides == [])
    #expect(try store.yarn(id: "r")?.remainingOverride == nil)
    // A yarn matched by name keeps its photo when a row updates it.
    let photoFile = directory.appendingPathComponent("p.jpg")
    try Data([0xFF, 0xD8, 0xFF, 0xD9]).write(to: photoFile)
    let photo = try store.importAttachment(from: photoFile)
    var withPhoto = try #require(try store.yarn(id: "m"))
    withPhoto.photos = [photo]
    try store.update(withPhoto)
    let bought = try importing("Name,Colorway,Quantity\r\nMystery,,2 skeins\r\n", into: store)
    #expect(
      bought.changes.map(\.changes) == [[StashCSV.FieldChange(column: .quantity, old: nil, new: "2 skeins")]])
    #expect(try store.yarn(id: "m")?.photos == [photo])
    // A colorway edited in a file without IDs names another yarn: the row adds it.
    let renamed = try importing("Name,Colorway,Quantity\r\nMalabrigo Rios,Azul,250 g\r\n", into: store)
    #expect(renamed.creates.map(\.colorway) == ["Azul"] && renamed.updates == [])
  }

  @Test func rowsThatFitSeveralYarnsOrOneYarnTwiceAreRefused() throws {
    let directory = try Fixtures.temporaryDirectory()
    defer { Fixtures.cleanUp(directory) }
    let store = try LibraryStore(directory: directory, mode: .readWrite)
    try store.insert(
      library: Library(yarns: [
        Yarn(id: "a", name: "Rios", colorway: "Archangel", quantity: Amount(3, .skein)),
        Yarn(id: "b", name: "Rios", colorway: "Archangel", quantity: Amount(5, .skein)),
        Yarn(id: "c", name: "Cascade 220", quantity: Amount(2, .skein)),
      ]))
    let before = try store.yarns()
    // One row, two yarns: refused, and nothing is imported.
    let several = try plan("Name,Colorway,Quantity\r\nRios,Archangel,4 skeins\r\n", store)
    #expect(
      several.problems.map(\.description) == [
        "line 2: fits 2 yarns of the library by name and colorway (IDs a and b); give the yarn's ID in an ID column to say which"
      ])
    #expect(throws: StashCSV.ImportError.self) { try StashCSV.apply(several, to: store) }
    #expect(try store.yarns() == before)
    // Two rows, one yarn: both refused.
    let twice = try plan("Name,Quantity\r\nCascade 220,1 skein\r\n CASCADE 220 ,4 skeins\r\n", store)
    #expect(
      twice.problems.map(\.description) == [
        "line 2: fits the yarn “Cascade 220” (ID c) by name, as line 3 does too; give the yarn's ID in an ID column to say which",
        "line 3: fits the yarn “Cascade 220” (ID c) by name, as line 2 does too; give the yarn's ID in an ID column to say which",
      ])
    // A row equal to one of the yarns is that yarn; the one row left then updates the one
    // yarn left.
    let paired = try plan(
      "Name,Colorway,Quantity\r\nRios,Archangel,4 skeins\r\nRios,Archangel,3 skeins\r\n", store)
    #expect(paired.problems == [] && paired.unchanged == 1)
    #expect(paired.changes.map { "\($0.line) \($0.yarnID)" } == ["2 b"])
    #expect(paired.updates.map(\.quantity) == [Amount(4, .skein)])
    // A yarn named by ID is not matched by another row; an ID no yarn has adds a yarn, with
    // a warning when the library has one of the same name and colorway.
    let ids = try plan(
      "ID,Name,Colorway,Quantity\r\na,Rios,Archangel,3 skeins\r\n,Rios,Archangel,5 skeins\r\nzz,Cascade 220,,2 skeins\r\n",
      store)
    #expect(ids.problems == [] && ids.unchanged == 2 && ids.creates.map(\.id) == ["zz"])
    #expect(
      ids.warnings.map(\.description) == [
        "line 4, column \"ID\": no yarn has this ID, so the row adds a yarn, though the yarn c has the same name and colorway"
      ])
  }
}

extension StashImportTests {
  /// `matchingLibrary` and: Gram (400 g at 100 g a skein; a finished project used a third of
  /// a skein, 33.33… g, so 366.666… g are left, shown `366.67 g ≈ 3.67 skeins ≈ 12.93 oz`);
  /// Plain (2 skeins, 1 skein by override); Pinned (2 skeins, 2 skeins by override: the
  /// estimate is the same); two Twins of one name (1 skein red; 2 skeins blue, 0.5 oz by
  /// override, no put-up); Odd (no quantity, 1/3 oz by override); Over (1 skein, 2 used:
  /// overdrawn, 0 left); Partial (2 skeins, no put-up; 1 skein used and 50 g that do not
  /// convert: incomplete, 1 skein left).
  func columnsLibrary(in store: LibraryStore) throws {
    try matchingLibrary(in: store)
    try store.insert(
      library: Library(
        yarns: [
          Yarn(id: "g", name: "Gram", netWeightPerSkein: Amount(100, .gram), quantity: Amount(400, .gram)),
          Yarn(id: "pl", name: "Plain", quantity: Amount(2, .skein), remainingOverride: Amount(1, .skein)),
          Yarn(id: "pi", name: "Pinned", quantity: Amount(2, .skein), remainingOverride: Amount(2, .skein)),
          Yarn(id: "t1", name: "Twin", colorway: "Red", quantity: Amount(1, .skein)),
          Yarn(
            id: "t2", name: "Twin", colorway: "Blue", quantity: Amount(2, .skein),
            remainingOverride: Amount(0.5, .ounce)),
          Yarn(id: "o", name: "Odd", remainingOverride: Amount(1.0 / 3.0, .ounce)),
          Yarn(id: "ov", name: "Over", quantity: Amount(1, .skein)),
          Yarn(id: "pa", name: "Partial", quantity: Amount(2, .skein)),
        ],
        projects: [
          Project(
            id: "p3", name: "Cowl", status: .finished, started: CalendarDate(year: 2026, month: 3, day: 1),
            finished: CalendarDate(year: 2026, month: 3, day: 2),
            usages: [
              YarnUsage(yarnID: "g", amount: Amount(1.0 / 3.0, .skein)),
              YarnUsage(yarnID: "ov", amount: Amount(2, .skein)),
              YarnUsage(yarnID: "pa", amount: Amount(1, .skein)),
              YarnUsage(yarnID: "pa", amount: Amount(50, .gram)),
            ])
        ]))
  }

  @Test func everyChoiceOfColumnsImportsBackIntoItsLibraryUnchanged() throws {
    let directory = try Fixtures.temporaryDirectory()
    defer { Fixtures.cleanUp(directory) }
    let store = try LibraryStore(directory: directory, mode: .readWrite)
    try columnsLibrary(in: store)
    let before = try store.yarns()
    #expect(before.count == 12)
    // Without its unit column an amount carries its unit; a unit column alone is ignored.
    // What usages left keeps its own 15 significant digits, no finer than those of half the
    // larger of the quantity and the total used (1 skein less 1/3: 2/3 = 0.666…, to 15 digits
    // of its own, 0.666666666666667 skeins; half 1 skein, 0.5, is below it).
    let nameAndRemaining = try StashCSV.export(from: store, columns: [.name, .remaining])
    #expect(
      String(decoding: nameAndRemaining, as: UTF8.self)
        == [
          "Name,Remaining", "Cascade 220,2 skeins", "Lace,0.666666666666667 skeins", "Malabrigo Rios,100 g",
          "Mystery,", "Gram,366.666666666667 g", "Plain,1 skein", "Pinned,2 skeins", "Twin,1 skein",
          "Twin,0.5 oz", "Odd,0.3333333333333333 oz", "Over,0 skeins", "Partial,1 skein", "",
        ].joined(separator: "\r\n"))
    let sources = String(
      decoding: try StashCSV.export(from: store, columns: [.id, .remainingSource]), as: UTF8.self)
    #expect(
      sources.contains("\r\nov,overdrawn\r\npa,incomplete\r\n") && sources.contains("\r\npi,override\r\n"))
    var choices: [[StashCSV.Column]] = [
      [.name, .remaining], [.name, .quantity, .remaining], [.name, .colorway, .remainingSource],
      [.name, .remainingUnit], [.name, .remainingUnit, .remainingSource],
      [.id, .remaining, .remainingSource],
      [.name, .lengthPerSkein, .netWeightPerSkein, .quantity, .remaining, .remainingSource],
    ]
    for column in StashCSV.Column.allCases {
      choices.append(column == .name ? [.name] : [.name, column])
      if column != .id { choices.append([.id, column]) }
      choices.append(StashCSV.defaultColumns.filter { $0 != column })
    }
    for columns in choices {
      for active in [false, true] {
        let csv = try StashCSV.export(from: store, columns: columns, includeActive: active)
        let plan = try StashCSV.importPlan(from: csv, store: store, options: options())
        let label = "\(columns.map(\.rawValue)), include active \(active)"
        #expect(plan.problems == [], "\(label)")
        #expect(plan.warnings == [], "\(label)")
        #expect(plan.unchanged == 12, "\(label)")
        #expect(plan.creates == [] && plan.changes == [] && plan.remainingOverrides == [], "\(label)")
      }
    }
    #expect(try store.yarns() == before)
  }

  @Test func remainingAsYarnPrintsItIsTheEstimateAndAnEmptyCellClearsTheOverride() throws {
    let directory = try Fixtures.temporaryDirectory()
    defer { Fixtures.cleanUp(directory) }
    let store = try LibraryStore(directory: directory, mode: .readWrite)
    try columnsLibrary(in: store)
    let header = "ID,Remaining,Remaining Unit,Remaining Source\r\n"
    func gram(_ value: String, _ unit: String, source: String = "estimate") throws -> StashCSV.ImportPlan {
      try plan(header + "g,\(value),\(unit),\(source)\r\n", store)
    }
    // Gram's estimate is 400 - 100/3 = 366.666… g: printed 366.67 g ≈ 3.67 skeins ≈ 12.93 oz.
    // 3.67 skeins is 367 g (0.33 g off) but 0.0033 skein off; 12.93 oz is 0.0036 oz off;
    // 366.674 g is 0.0073 g off but prints 366.67 g. All are the estimate.
    for (value, unit) in [("366.67", "g"), ("3.67", "skein"), ("12.93", "oz"), ("366.674", "g")] {
      let read = try gram(value, unit)
      #expect(read.problems == [] && read.unchanged == 1 && read.remainingOverrides == [], "\(value) \(unit)")
    }
    // 366.7 g is not (0.033 g off, printed 366.7): where Remaining Source does not say who
    // made it, an override, and the two figures differ.
    let other = try gram("366.7", "g", source: "")
    #expect(other.updates.map(\.remainingOverride) == [Amount(366.7, .gram)])
    #expect(
      other.remainingOverrides.map(\.description) == [
        "Remaining of “Gram” taken as 366.7 g (estimate 366.67 g)"
      ])
    // Plain: 2 skeins, 1 skein by override. An empty Remaining clears the override whatever
    // the unit cell and Remaining Source say, as does the estimate (2 skeins) written there.
    for row in [
      "pl,,skein,override", "pl,,,override", "pl,,skein,estimate", "pl,2,skein,estimate", "pl,2 skeins,,",
    ] {
      let read = try plan(header + row + "\r\n", store)
      #expect(read.problems == [], "\(row)")
      #expect(
        read.changes.map(\.changes) == [[StashCSV.FieldChange(column: .remaining, old: "1 skein", new: nil)]],
        "\(row)")
      #expect(read.remainingOverrides == [], "\(row)")
    }
    // The override itself, as printed, keeps it as it is (Odd: 1/3 oz saved as 0.33).
    let kept = try plan(header + "pl,1.00,skein,estimate\r\no,0.33,oz,override\r\n", store)
    #expect(kept.problems == [] && kept.unchanged == 2)
    // Remaining Source override keeps a figure equal to the estimate as the override, and says
    // so without printing two equal figures.
    let pinned = try plan(header + "pl,2,skein,override\r\n", store)
    #expect(pinned.updates.map(\.remainingOverride) == [Amount(2, .skein)])
    #expect(
      pinned.remainingOverrides.map(\.description) == [
        "Remaining of “Plain” taken as 2 skeins: Remaining Source says override (the estimate is the same)"
      ])
    // Without a Remaining column, Remaining Source override keeps an override (Plain's) and
    // is a problem where there is none to keep (Gram's); estimate clears it.
    let sourceOnly = try plan("ID,Remaining Source\r\npl,override\r\ng,override\r\npi,estimate\r\n", store)
    #expect(
      sourceOnly.problems.map(\.description) == [
        "line 3, column \"Remaining Source\": Remaining Source is override, but the file has no Remaining column to give the figure"
      ])
    #expect(sourceOnly.changes.map(\.yarnID) == ["pi"])
    // In the full export, emptying Plain's Remaining cell (its unit and `override` left) drops
    // the override: the QA's spreadsheet edit.
    let full = String(decoding: try StashCSV.export(from: store), as: UTF8.self)
    let edited = full.replacingOccurrences(
      of: ",2,skein,1,skein,override,", with: ",2,skein,,skein,override,")
    #expect(edited != full)
    let dropped = try importing(edited, into: store)
    #expect(dropped.problems == [] && dropped.unchanged == 11 && dropped.changes.map(\.yarnID) == ["pl"])
    #expect(try store.yarn(id: "pl")?.remainingOverride == nil)
  }

  /// QA: yarn's own export, imported again after a project that used the yarn was finished,
  /// pinned the estimate of the day (3 skeins) as the override, so that later usage no longer
  /// counted; the only sign was `taken as 3 skeins (estimate 2 skeins)`. A Remaining that
  /// Remaining Source says was yarn's estimate is never the override: the yarn keeps its
  /// estimate, and a warning says when the figure is not the estimate now. Where the file
  /// does not say (`unknown`, an empty cell, no column), the rule is as before.
  @Test func aRemainingTheFileSaysWasYarnsEstimateIsNeverTheOverride() throws {
    let directory = try Fixtures.temporaryDirectory()
    defer { Fixtures.cleanUp(directory) }
    let store = try LibraryStore(directory: directory, mode: .readWrite)
    let wool = Yarn(
      id: "w", name: "Wool", lengthPerSkein: Amount(200, .yard), netWeightPerSkein: Amount(100, .gram),
      quantity: Amount(3, .skein))
    var hat = Project(
      id: "h", name: "Hat", status: .inProgress, started: CalendarDate(year: 2026, month: 1, day: 1),
      usages: [YarnUsage(yarnID: "w", amount: Amount(1, .skein))])
    try store.insert(library: Library(yarns: [wool], projects: [hat]))
    let old = String(decoding: try StashCSV.export(from: store), as: UTF8.self)
    #expect(old.contains(",3,skein,3,skein,estimate,"))
    hat.status = .finished
    hat.finished = CalendarDate(year: 2026, month: 1, day: 9)
    try store.update(hat)
    let again = try importing(old, into: store)
    #expect(again.problems == [] && again.unchanged == 1 && again.changes == [])
    #expect(again.remainingOverrides == [])
    #expect(
      again.warnings.map(\.description) == [
        "line 2, column \"Remaining\": 3 skeins was yarn's estimate when the file was written "
          + "(Remaining Source estimate), not an override: the remaining is the estimate now, 2 skeins; "
          + "to keep 3 skeins as the override, write override in Remaining Source"
      ])
    #expect(try store.yarn(id: "w")?.remainingOverride == nil)
    #expect(try store.remaining(of: wool).remaining == Amount(2, .skein))
    // 3 - 1 = 2 skeins left, 200 g at 100 g a skein. Each source with 2.5 skeins, and with
    // the estimate itself (no warning).
    let header = "ID,Remaining,Remaining Unit,Remaining Source\r\n"
    let ignored = { (source: String) in
      "line 2, column \"Remaining\": 2.5 skeins was yarn's estimate when the file was written "
        + "(Remaining Source \(source)), not an override: the remaining is the estimate now, 2 skeins; "
        + "to keep 2.5 skeins as the override, write override in Remaining Source"
    }
    for (row, override, warnings) in [
      ("w,2.5,skein,estimate", nil, [ignored("estimate")]),
      ("w,2.5,skein,incomplete", nil, [ignored("incomplete")]),
      ("w,2.5,skein,overdrawn", nil, [ignored("overdrawn")]),
      ("w,2.5,skein, Estimate ", nil, [ignored("estimate")]),
      ("w,200,g,estimate", nil, []), ("w,2.5,skein,override", Amount(2.5, .skein), []),
      ("w,2.5,skein,unknown", Amount(2.5, .skein), []), ("w,2.5,skein,", Amount(2.5, .skein), []),
    ] as [(String, Amount?, [String])] {
      let read = try plan(header + row + "\r\n", store)
      #expect(read.problems == [], "\(row)")
      #expect((read.updates.first ?? wool).remainingOverride == override, "\(row)")
      #expect(read.warnings.map(\.description) == warnings, "\(row)")
    }
    let noSource = try plan("ID,Remaining\r\nw,2.5 skeins\r\n", store)
    #expect(noSource.updates.map(\.remainingOverride) == [Amount(2.5, .skein)])
    // A new yarn's estimate is its quantity; without one there is none.
    let new = try plan(
      "Name,Quantity,Remaining,Remaining Source\r\nNew,3 skeins,2 skeins,estimate\r\nBare,,2 skeins,estimate\r\n",
      store)
    #expect(new.creates.map(\.remainingOverride) == [nil, nil] && new.remainingOverrides == [])
    #expect(
      new.warnings.map(\.description) == [
        "line 2, column \"Remaining\": 2 skeins was yarn's estimate when the file was written "
          + "(Remaining Source estimate), not an override: the remaining is the estimate now, 3 skeins; "
          + "to keep 2 skeins as the override, write override in Remaining Source",
        "line 3, column \"Remaining\": 2 skeins was yarn's estimate when the file was written "
          + "(Remaining Source estimate), not an override: without a quantity there is no estimate; "
          + "to keep 2 skeins as the override, write override in Remaining Source",
      ])
  }

  @Test func amountsThatAreNotTheSameNeverPrintAlike() {
    let estimate = Amount(400 - 100.0 / 3.0, .gram)
    let putUp = Yarn(id: "x", name: "x", netWeightPerSkein: Amount(100, .gram)).putUp
    #expect(estimate.description == "366.67 g")
    var same = 0
    for step in 0...400 {
      let cell = Amount(366.5 + Double(step) * 0.001, .gram)
      if StashCSV.isSame(cell, as: estimate, putUp: putUp) {
        same += 1
      } else {
        #expect(cell.description != estimate.description, "\(cell.value)")
      }
    }
    // 366.6617 to 366.675 (print 366.67, or within 0.005): 366.662 … 366.674, 13 of them.
    #expect(same == 13)
    // A spreadsheet's own rounding, within 0.005: 0.125 saved as 0.12 (yarn prints 0.13).
    #expect(StashCSV.isSame(Amount(0.12, .skein), as: Amount(0.125, .skein), putUp: putUp))
    // Units that do not convert are never the same.
    #expect(!StashCSV.isSame(Amount(1, .yard), as: Amount(1, .gram), putUp: putUp))
  }
}

extension StashImportTests {
  /// `importCSV` writes each row as it reads it: rows with and without an ID, matched and
  /// new, end up as `importPlan` + `apply` leave them, new yarns in the file's order; the
  /// import is one change that undo takes back; a bad last row leaves the library and its
  /// history as they were.
  @Test func rowByRowImportIsThePlanAppliedAndUndoesAsOneChange() throws {
    let text = """
      ID,Name,Colorway,Quantity,Notes\r
      ,Zephyr,Blue,2 skeins,first\r
      c,Cascade 220,Garnet,3 skeins,\r
      new-1,Alpaca,,1 skein,soft one\r
      ,Lace,,2 skeins,\r
      ,Yak,,1 skein,\r
      new-2,Mystery,,4 skeins,\r

      """
    let directories = try (0..<2).map { _ in try Fixtures.temporaryDirectory() }
    defer { directories.forEach(Fixtures.cleanUp) }
    let planned = try LibraryStore(directory: directories[0], mode: .readWrite)
    let streamed = try LibraryStore(directory: directories[1], mode: .readWrite)
    for store in [planned, streamed] { try matchingLibrary(in: store) }
    let before = try streamed.yarns()
    let historyBefore = try streamed.history().count
    // A bad row on the last line: nothing of the rows before it stays, no change recorded.
    let bad = try StashCSV.importCSV(
      from: Data((text + ",Broken,,-1 skein,\r\n").utf8), into: streamed, options: options())
    #expect(bad.problems.map(\.line) == [8])
    #expect(try streamed.yarns() == before && streamed.history().count == historyBefore)
    let plan = try StashCSV.importPlan(from: Data(text.utf8), store: planned, options: options())
    try StashCSV.apply(plan, to: planned)
    let result = try StashCSV.importCSV(from: Data(text.utf8), into: streamed, options: options())
    #expect(result.problems == [] && result.added == 4 && result.changes.map(\.yarnID) == ["c", "l"])
    /// Every yarn and note but the IDs made for rows without one.
    func contents(_ store: LibraryStore) throws -> [String] {
      let yarns = try store.yarns().map { yarn in
        var yarn = yarn
        if yarn.id.count > 10 { yarn.id = "made" }
        return "\(yarn)"
      }
      return yarns + (try store.notes().map(\.text))
    }
    #expect(try contents(streamed) == contents(planned))
    #expect(
      try streamed.yarns().map(\.name) == [
        "Cascade 220", "Lace", "Malabrigo Rios", "Mystery", "Zephyr", "Alpaca", "Yak", "Mystery",
      ])
    #expect(try streamed.history().count == historyBefore + 1)
    _ = try streamed.undo()
    #expect(try streamed.yarns() == before && streamed.notes().map(\.text) == ["soft"])
  }

  /// A file read in pieces (`CSVInput.file`) imports as its bytes in memory do: into an
  /// empty library (no row's ID is looked up there) as one change that undo takes back whole
  /// and redo makes again, the same library; and again into that library, read twice (to
  /// match the rows without an ID), every row unchanged.
  @Test func aFileReadInPiecesImportsAsItsBytesAndUndoesWhole() throws {
    var text = "ID,Name,Colorway,Quantity,Notes\r\n"
    for row in 1...3000 {
      let note = row % 4 == 0 ? "\"note \(row),\r\nsecond line\"" : ""
      text +=
        "\(row % 2 == 0 ? "id-\(row)" : ""),\"Yarn, number \(row)\",Blue \(row % 7),"
        + "\(row % 5 + 1) skeins,\(note)\r\n"
    }
    #expect(text.utf8.count > 2 * CSVReader.chunkSize)
    let directories = try (0..<3).map { _ in try Fixtures.temporaryDirectory() }
    defer { directories.forEach(Fixtures.cleanUp) }
    let file = directories[0].appendingPathComponent("stash.csv")
    try Data(text.utf8).write(to: file)
    let fromFile = try LibraryStore(directory: directories[1], mode: .readWrite)
    let fromBytes = try LibraryStore(directory: directories[2], mode: .readWrite)
    let done = try StashCSV.importCSV(from: .file(path: file.path), into: fromFile, options: options())
    let same = try StashCSV.importCSV(from: Data(text.utf8), into: fromBytes, options: options())
    #expect(done.problems == [] && done.added == 3000 && done.notesAdded == 750)
    #expect(same.added == done.added && same.notesAdded == done.notesAdded)
    /// Every yarn and note, the IDs made for rows without one left out.
    func contents(_ store: LibraryStore) throws -> [String] {
      let yarns = try store.yarns().map { yarn in
        var yarn = yarn
        if !yarn.id.hasPrefix("id-") { yarn.id = "made" }
        return "\(yarn)"
      }
      return yarns + (try store.notes().map(\.text).sorted())
    }
    let imported = try contents(fromFile)
    let fromBytesContents = try contents(fromBytes)
    #expect(imported.count == 3750 && imported == fromBytesContents)
    #expect(try fromFile.yarn(id: "id-3000")?.name == "Yarn, number 3000")
    #expect(try fromFile.notes().contains { $0.text == "note 3000,\r\nsecond line" })
    // One change: undo leaves the library empty, redo gives back the same library.
    #expect(try fromFile.history().count == 1)
    let library = try JSONCoding.encoder().encode(try fromFile.library())
    _ = try fromFile.undo()
    #expect(try fromFile.yarns().isEmpty && fromFile.notes().isEmpty)
    _ = try fromFile.redo()
    #expect(try JSONCoding.encoder().encode(try fromFile.library()) == library)
    // Into the library holding them: read twice, every row its yarn's, nothing changes.
    let again = try StashCSV.importCSV(from: .file(path: file.path), into: fromFile, options: options())
    #expect(again.problems == [] && again.added == 0 && again.changes.isEmpty && again.unchanged == 3000)
    #expect(try contents(fromFile) == imported)
    // A file that cannot be read imports nothing.
    let missing = directories[0].appendingPathComponent("missing.csv").path
    #expect(throws: CSVFileError(path: missing, reason: "no such file or directory")) {
      try StashCSV.importCSV(from: .file(path: missing), into: fromFile, options: options())
    }
  }

  /// The store finds a taken ID by its UNIQUE constraint, not by a look-up first: an ID
  /// given on two good rows, or an ID a library yarn has, is still named with its line, and
  /// nothing is written.
  @Test func aRepeatedIDIsNamedWithItsLineAndNothingIsWritten() throws {
    let directory = try Fixtures.temporaryDirectory()
    defer { Fixtures.cleanUp(directory) }
    let store = try LibraryStore(directory: directory, mode: .readWrite)
    try store.insert(Yarn(id: "kept", name: "Kept"))
    let before = try store.yarns()
    let text = "ID,Name,Notes\r\nnew-1,First,a note\r\nnew-1,Second,\r\nkept,Kept,\r\n"
    let plan = try StashCSV.importCSV(from: Data(text.utf8), into: store, options: options())
    #expect(plan.problems.map(\.description) == ["line 3, column \"ID\": the ID new-1 is also on line 2"])
    #expect(try store.yarns() == before && store.notes().isEmpty)
  }

  @Test func columnOrdinalsAreTheirPlacesInAllCases() {
    #expect(StashCSV.Column.allCases.map(\.ordinal) == Array(0..<StashCSV.Column.allCases.count))
  }

  /// QA: an update's line printed the values it changes raw: a U+202E RIGHT-TO-LEFT
  /// OVERRIDE in a colorway reversed the rest of the line. They are escaped as every message
  /// escapes a value.
  @Test func aChangedValueIsShownEscaped() {
    let change = StashCSV.FieldChange(column: .colorway, old: "Ru\u{202E}by", new: nil)
    #expect(change.description == "Colorway Ru\\u{202E}by → (none)")
  }
}
