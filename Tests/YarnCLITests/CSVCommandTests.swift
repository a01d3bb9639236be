import Foundation
import Testing
import YarnCore

/// `stash export`, `stash import` and `project export` through the built `yarn` binary.
@Suite struct CSVCommandTests {
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// A library holding every kind of value a yarn can: tricky text in the notes as it is and
  /// in every one-line field as such a field can hold it (`LineText`: control characters as
  /// spaces, no spaces around), every unit, weight, missing values, an override without a
  /// quantity, unstashed yarns.
  static func trickyLibrary() -> Library {
    let texts = [
      "quote \" inside", "comma, inside", "semi; colon", "cr\rinside", "lf\ninside", "crlf\r\ninside",
      "=HYPERLINK(\"http://x\")", "+1", "-2", "@SUM(A1)", "\tTAB", "\rCR", "\nLF", "  spaces  ",
      "'apostrophe",
      "'=x", "''+y, z", "'+safe", "emoji 🧶", "e\u{301}", "\"\u{301}", ",\u{301}", "日本語",
    ]
    var yarns: [Yarn] = []
    var notes: [Note] = []
    for (index, text) in texts.enumerated() {
      let id = "id-\(index)"
      let unit = YarnUnit.allCases[index % 5]
      let line = String(
        String.UnicodeScalarView(text.unicodeScalars.map { LineText.isRefused($0) ? " " : $0 })
      ).trimmingSpaces()
      yarns.append(
        Yarn(
          id: id, name: line, brand: line, colorway: index % 2 == 0 ? line : nil, colorFamily: line,
          dyeLot: index % 3 == 0 ? nil : line, weight: YarnWeight(rawValue: index % 9), fiber: line,
          lengthPerSkein: index % 4 == 0 ? nil : Amount(Double(index) + 0.5, index % 2 == 0 ? .yard : .meter),
          netWeightPerSkein: index % 5 == 0
            ? nil : Amount(0.1 * Double(index + 1), index % 2 == 0 ? .gram : .ounce),
          quantity: index % 6 == 5 ? nil : Amount(Double(index) * 1.25, unit),
          remainingOverride: index % 3 == 1 ? Amount(1.0 / 3.0, unit) : nil, purchaseLocation: line,
          dateAdded: index % 2 == 0 ? CalendarDate(year: 1990 + index, month: 12, day: 31) : nil,
          status: StashStatus.allCases[index % StashStatus.allCases.count],
          price: index % 3 == 0
            ? nil : Price(minorUnits: Int64(index) * 137, currency: ["USD", "JPY", "KWD"][index % 3]),
          storedIn: index % 2 == 0 || line.isEmpty ? nil : line,
          tags: index % 4 == 0 ? [] : ["tag \(index)", "Zwei"]))
      notes.append(
        Note(id: "n\(index)", subject: .yarn(id), text: text, created: Date(timeIntervalSince1970: 0)))
    }
    return Library(yarns: yarns, notes: notes)
  }

  @Test func roundTripLawThroughTheBinary() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let store = try LibraryStore(directory: yarn.library, mode: .readWrite)
    try store.write { try store.insert(library: Self.trickyLibrary()) }
    try store.close()
    let runs = [[], ["--delimiter", "semicolon", "--bom"], ["--delimiter", "tab", "--no-formula-guard"]]
    for (run, options) in runs.enumerated() {
      let name = "export-\(run).csv"
      try yarn.ok(["stash", "export", "-o", name] + options)
      let second = yarn.directory.appendingPathComponent("second-\(run)").path
      // The reader skips a BOM by itself; the delimiter and the guard are said again.
      let imported = try yarn.run(
        ["--library", second, "stash", "import", name] + options.filter { $0 != "--bom" }, useLibrary: false)
      #expect(imported.status == 0, "\(imported.stderr)")
      #expect(imported.stderr.contains("23 yarns added"))
      let again = try yarn.run(
        ["--library", second, "stash", "export", "-o", "again-\(run).csv"] + options, useLibrary: false)
      #expect(again.status == 0)
      let first = try Data(contentsOf: yarn.directory.appendingPathComponent(name))
      let back = try Data(contentsOf: yarn.directory.appendingPathComponent("again-\(run).csv"))
      #expect(!first.isEmpty && first == back, "options \(options)")
    }
  }

  /// Tiny and long numbers are written in plain decimals with full precision, never with an
  /// exponent (QA: `0.0000001 skeins` was exported as `1e-07`), and read back exactly.
  @Test func numbersAreExportedInPlainDecimalsAndReadBackExactly() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Tiny", "--quantity", "0.0000001 skeins"])
    try yarn.ok(["stash", "add", "Long", "--quantity", "0.000000012345678901234567 g"])
    try yarn.ok(["stash", "export", "-o", "tiny.csv"])
    let text = try String(contentsOf: yarn.directory.appendingPathComponent("tiny.csv"), encoding: .utf8)
    #expect(text.contains(",0.0000001,skein,0.0000001,skein,"), "\(text)")
    #expect(text.contains(",0.000000012345678901234567,g,0.000000012345678901234567,g,"), "\(text)")
    let second = yarn.directory.appendingPathComponent("second").path
    let imported = try yarn.run(["--library", second, "stash", "import", "tiny.csv"], useLibrary: false)
    #expect(imported.status == 0, "\(imported.stderr)")
    let again = try yarn.run(["--library", second, "stash", "export", "-o", "again.csv"], useLibrary: false)
    #expect(again.status == 0)
    let back = try String(contentsOf: yarn.directory.appendingPathComponent("again.csv"), encoding: .utf8)
    #expect(back == text)
    // A number cell is read by the one rule of typed numbers: `1,000` is ambiguous (it was
    // read as 1), `2,5` a decimal comma.
    try Data("Name,Quantity,Quantity Unit\r\nX,\"1,000\",g\r\nY,\"2,5\",skein\r\n".utf8)
      .write(to: yarn.directory.appendingPathComponent("comma.csv"))
    let comma = try yarn.run(["stash", "import", "comma.csv"])
    #expect(comma.status == 65)
    #expect(comma.stderr.contains("line 2, column \"Quantity\": \"1,000\" is ambiguous: write 1000 or 1\n"))
    #expect(!comma.stderr.contains("line 3"))
  }

  /// 103 bad rows: the first 100 are listed, the other 3 counted.
  @Test func aFileWithMoreThanAHundredBadRowsListsTheFirstHundred() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let csv =
      "Name,Quantity,Quantity Unit\r\n" + String(repeating: ",1,skein\r\n", count: 103)
      + "Good,1,skein\r\n"
    _ = try yarn.file("many.csv", Data(csv.utf8))
    let result = try yarn.run(["stash", "import", "many.csv"])
    #expect(result.status == 65)
    let listed = (2...101).map { "  line \($0), column \"Name\": is blank\n" }.joined()
    #expect(
      result.stderr
        == "error: many.csv: 103 bad rows; nothing was imported:\n" + listed
        + "  and 3 more bad rows\nhint: fix or remove these rows and import again\n")
    #expect(!FileManager.default.fileExists(atPath: yarn.library.path))
  }

  /// QA: a file with neither a Name nor an ID column (Apache Commons CSV's bom.csv: stock
  /// prices under a BOM) said `252 bad rows` and listed 100 identical errors after the
  /// header's. One error, the header's, with the columns found; nothing is created.
  @Test func aHeaderWithoutNameOrIDIsOneError() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let csv =
      "\u{FEFF}Date, Open, High, Low, Close, Volume\n"
      + String(repeating: "14-Mar-14,223.80,225.20,220.85,221.51,79448141\n", count: 251)
    _ = try yarn.file("bom.csv", Data(csv.utf8))
    let result = try yarn.run(["stash", "import", "bom.csv"])
    #expect(result.status == 65)
    #expect(
      result.stderr == """
        error: bom.csv: line 1: the header has neither a Name nor an ID column (it has "Date", " Open", \
        " High", " Low", " Close", " Volume"); a stash CSV needs one of the two, to tell which yarn each \
        row is; nothing was imported
        hint: the first line of a stash CSV names its columns, each once, Name or ID among them (docs/CSV.md)

        """)
    #expect(!FileManager.default.fileExists(atPath: yarn.library.path))
  }

  /// QA: yarn's own export, imported after the project using the yarn was finished, pinned
  /// `Remaining: 3 skeins (override)`; the yarn keeps its estimate, 2 skeins, and a warning
  /// says why the file's 3 skeins is not kept.
  @Test func reimportingAnOlderExportKeepsTheEstimate() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok([
      "stash", "add", "Wool", "--length-per-skein", "200yd", "--net-weight-per-skein", "100g", "--quantity",
      "3 skeins",
    ])
    try yarn.ok(["project", "add", "Hat", "--status", "in-progress"])
    try yarn.ok(["project", "use", "Hat", "Wool", "1 skein"])
    try yarn.ok(["stash", "export", "-o", "w.csv"])
    try yarn.ok(["project", "finish", "Hat"])
    let imported = try yarn.ok(["stash", "import", "w.csv"])
    #expect(
      imported.stderr == """
        warning: line 2, column "Remaining": 3 skeins was yarn's estimate when the file was written \
        (Remaining Source estimate), not an override: the remaining is the estimate now, 2 skeins; \
        to keep 3 skeins as the override, write override in Remaining Source
        imported w.csv: 0 yarns added, 0 updated, 1 unchanged

        """)
    let shown = try yarn.ok(["stash", "show", "Wool"]).stdout
    #expect(
      shown.contains("Remaining:    2 skeins ≈ 200 g ≈ 7.05 oz ≈ 400 yd ≈ 365.76 m (estimate)"), "\(shown)")
  }

  @Test func aBadFileIsRefusedWholeWithEveryLineNamed() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let csv =
      "Name,Quantity,Quantity Unit,Weight\r\nGood,1,skein,dk\r\n,2,skein,\r\nAlso good,,,\r\nBad,3 bananas,,purple\r\n"
    _ = try yarn.file("bad.csv", Data(csv.utf8))
    let result = try yarn.run(["stash", "import", "bad.csv"])
    #expect(result.status == 65)
    #expect(
      result.stderr == """
        error: bad.csv: 2 bad rows; nothing was imported:
          line 3, column "Name": is blank
          line 5, column "Quantity": "3 bananas" has an unknown unit "bananas"; accepted units: \(YarnUnit.acceptedWords)
          line 5, column "Weight": "purple" is not a yarn weight (0-7, lace … jumbo, DK, worsted, 8 ply, …)
        hint: fix or remove these rows and import again

        """)
    // Nothing imported: the library was not even created, and the temporary file it was
    // built in is gone.
    #expect(!FileManager.default.fileExists(atPath: yarn.library.path))
    #expect(try FileManager.default.contentsOfDirectory(atPath: yarn.directory.path).sorted() == ["bad.csv"])
    let dry = try yarn.run(["stash", "import", "bad.csv", "--dry-run"])
    #expect(dry.status == 65)
    // A grammar error names its line and column and suggests --lenient.
    _ = try yarn.file("quote.csv", Data("Name\r\n\"a\"b\r\n".utf8))
    let quote = try yarn.run(["stash", "import", "quote.csv"])
    #expect(quote.status == 65)
    #expect(
      quote.stderr.hasPrefix(
        "error: quote.csv: line 2, column 4: text after a closing quote; nothing was imported\n"))
    #expect(quote.stderr.contains("--lenient"))
    #expect(try yarn.run(["stash", "import", "missing.csv"]).status == 66)
  }

  /// A cell of invisible characters alone (U+200B) is unknown, as one of spaces is, and a
  /// tag of them is dropped as an empty one is (QA: U+200B was "line 3: brand is blank").
  @Test func aCellOfInvisibleCharactersIsUnknownAsSpacesAre() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let csv =
      "Name,Brand,Colorway,Stored In,Tags\r\nRios,   ,\u{200B},\u{FEFF}\u{2060},\"\u{200B}, ok,  \"\r\n"
      + "Arroyo,\u{200B},x,,\r\n"
    _ = try yarn.file("blank.csv", Data(csv.utf8))
    try yarn.ok(["stash", "import", "blank.csv"])
    let rios = try #require(try yarn.ok(["--json", "stash", "show", "Rios"]).json() as? [String: Any])
    for key in ["brand", "colorway", "storedIn"] {
      #expect(rios[key] == nil || rios[key] is NSNull, "\(key): \(rios[key] ?? "")")
    }
    #expect(rios["tags"] as? [String] == ["ok"])
    let arroyo = try #require(try yarn.ok(["--json", "stash", "show", "Arroyo"]).json() as? [String: Any])
    #expect(arroyo["brand"] == nil || arroyo["brand"] is NSNull)
    #expect(arroyo["colorway"] as? String == "x")
  }

  /// Ctrl-C during an import into a new library leaves no library and no temporary file.
  @Test func ctrlCDuringAnImportIntoANewLibraryLeavesNothing() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let rows = (1...20_000).map { "Yarn number \($0),\($0 % 12 + 1),skeins\r\n" }.joined()
    _ = try yarn.file("big.csv", Data(("Name,Quantity,Quantity Unit\r\n" + rows).utf8))
    let result = try BackupCLITests.runAndSignal(
      ["--library", yarn.library.path, "stash", "import", "big.csv"], in: yarn.directory, signal: SIGINT,
      after: 0.3)
    #expect(result.status == 130)
    #expect(try FileManager.default.contentsOfDirectory(atPath: yarn.directory.path) == ["big.csv"])
  }

  /// Bytes that are not UTF-8 cannot be fixed by --lenient, which the hint suggested. The
  /// bad byte is named where it is (`Caf\xE9`: column 4), not at the start of its field (QA).
  @Test func invalidUTF8HintSaysToSaveAsUTF8() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let file = try yarn.file("latin1.csv", Data("Name\r\nCaf".utf8) + Data([0xE9]) + Data("\r\n".utf8))
    for extra in [[], ["--lenient"]] {
      let result = try yarn.run(["stash", "import", file.path] + extra)
      #expect(result.status == 65)
      #expect(
        result.stderr
          == """
          error: \(file.path): line 2, column 4: the bytes are not UTF-8 text; nothing was imported
          hint: save the file as UTF-8 text (in a spreadsheet: CSV UTF-8) and import again

          """)
    }
    // A binary file is not text, not UTF-16 text as a zero byte first made it.
    let binary = try yarn.file("b.csv", Data([0x00, 0x01, 0x02]) + Data("binary".utf8))
    let result = try yarn.run(["stash", "import", binary.path])
    #expect(result.status == 65)
    #expect(
      result.stderr
        == "error: \(binary.path): line 1, column 1: a zero byte (NUL), which no text file holds: this "
        + "is not a CSV file; nothing was imported\nhint: name the CSV file (in a spreadsheet: save as CSV "
        + "UTF-8)\n")
  }

  /// A UTF-16 file (what some spreadsheets call "Unicode text") is named as such, with or
  /// without its byte order mark; the library is not created.
  @Test func aUTF16FileIsNamedAsSuch() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let text = "Name,Brand\r\nMalabrigo,Rios\r\n"
    let little = try yarn.file("le.csv", Data([0xFF, 0xFE]) + text.data(using: .utf16LittleEndian)!)
    let big = try yarn.file("be.csv", text.data(using: .utf16BigEndian)!)
    for file in [little, big] {
      let result = try yarn.run(["stash", "import", file.path])
      #expect(result.status == 65)
      #expect(
        result.stderr
          == """
          error: \(file.path): the file is UTF-16 text, not UTF-8; nothing was imported
          hint: save the file as UTF-8 text (in a spreadsheet: CSV UTF-8) and import again

          """)
    }
    #expect(!FileManager.default.fileExists(atPath: yarn.library.path))
  }

  /// A file exported with `--delimiter semicolon` (or by a spreadsheet in a decimal-comma
  /// locale) imported without `--delimiter` was refused row by row ("the file has no Name
  /// column") with no word about the delimiter; the hint now names it.
  @Test func importWithTheWrongDelimiterSaysWhich() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let semicolons = try yarn.file("semi.csv", Data("Name;Brand\r\nRios;Malabrigo\r\n".utf8))
    let tabs = try yarn.file("tabs.csv", Data("Name\tBrand\r\nRios\tMalabrigo\r\n".utf8))
    let commas = try yarn.file("commas.csv", Data("Name,Brand\r\nRios,Malabrigo\r\n".utf8))
    for (file, extra, split, name) in [
      (semicolons, [String](), "';', not by ','", "semicolon"),
      (tabs, [], "TAB, not by ','", "tab"),
      (commas, ["--delimiter", "semicolon"], "',', not by ';'", "comma"),
    ] {
      let result = try yarn.run(["stash", "import", file.path] + extra)
      #expect(result.status == 65)
      #expect(
        result.stderr
          == """
          error: \(file.path): line 1: the header is split by \(split); nothing was imported
          hint: import with --delimiter \(name)

          """, "\(file.lastPathComponent)")
    }
    #expect(try yarn.run(["stash", "import", semicolons.path, "--delimiter", "semicolon"]).status == 0)
    // yarn's own export with a quote in a field: a later line's quote was said first, with a
    // hint to use --lenient; --lenient listed every row as nameless.
    try yarn.ok(["stash", "add", "Say \"hi\"", "--brand", "A; B"])
    for (delimiter, split) in [("semicolon", "';'"), ("tab", "TAB")] {
      try yarn.ok(["stash", "export", "--delimiter", delimiter, "-o", "own-\(delimiter).csv"])
      for extra in [[], ["--lenient"]] {
        let result = try yarn.run(["stash", "import", "own-\(delimiter).csv"] + extra)
        #expect(result.status == 65)
        #expect(
          result.stderr
            == """
            error: own-\(delimiter).csv: line 1: the header is split by \(split), not by ','; nothing was imported
            hint: import with --delimiter \(delimiter)

            """)
      }
      try yarn.ok(["stash", "import", "own-\(delimiter).csv", "--delimiter", delimiter])
    }
    // A bad row in a file whose delimiter is right keeps the usual hint.
    let bad = try yarn.file("bad.csv", Data("Name,Quantity\r\nRios,3 bananas\r\n".utf8))
    let result = try yarn.run(["stash", "import", bad.path])
    #expect(result.stderr.hasSuffix("hint: fix or remove these rows and import again\n"))
  }

  @Test func dryRunChangesNothingAndUnknownColumnsAreReported() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    _ = try yarn.file("in.csv", Data("NAME;Rating;quantity\r\nRios;5;2 skeins\r\n".utf8))
    let dry = try yarn.ok(["stash", "import", "in.csv", "--delimiter", "semicolon", "--dry-run"])
    #expect(
      dry.stderr
        == "warning: ignored unknown column \"Rating\"\ndry run of in.csv: 1 yarn to add, 0 to update, 0 unchanged; nothing was changed\n"
    )
    #expect(!FileManager.default.fileExists(atPath: yarn.library.path))
    let real = try yarn.ok(["stash", "import", "in.csv", "--delimiter", "semicolon", "--json"])
    let summary = try #require(try real.json() as? [String: Any])
    #expect(summary["added"] as? Int == 1)
    #expect(summary["ignoredColumns"] as? [String] == ["Rating"])
    let list = try yarn.ok(["stash", "list", "--json"])
    let yarns = try #require(try list.json() as? [[String: Any]])
    #expect(yarns.map { $0["name"] as? String } == ["Rios"])
  }

  @Test func importingTheSameFileTwiceAddsNothingAndEditsAreListed() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let header = "Name,Colorway,Quantity,Remaining\r\n"
    _ = try yarn.file(
      "in.csv",
      Data((header + "Rios,Archangel,3 skeins,3 skeins\r\nCascade 220,Ruby,2 skeins,1 skein\r\n").utf8))
    let first = try yarn.ok(["stash", "import", "in.csv"])
    #expect(
      first.stderr
        == "created a new library at \(yarn.library.path)\n"
        + "line 3: Remaining of “Cascade 220” taken as 1 skein (estimate 2 skeins)\n"
        + "imported in.csv: 2 yarns added, 0 updated, 0 unchanged\n")
    let dry = try yarn.ok(["stash", "import", "in.csv", "--dry-run", "--json"])
    #expect(
      dry.stderr == "dry run of in.csv: 0 yarns to add, 0 to update, 2 unchanged; nothing was changed\n")
    let summary = try #require(try dry.json() as? [String: Any])
    #expect(summary["added"] as? Int == 0 && summary["updated"] as? Int == 0)
    #expect(summary["unchanged"] as? Int == 2 && summary["overrides"] as? Int == 0)
    let second = try yarn.ok(["stash", "import", "in.csv"])
    #expect(second.stderr == "imported in.csv: 0 yarns added, 0 updated, 2 unchanged\n")
    // Rios's Remaining edited in a spreadsheet: an override, said per yarn.
    _ = try yarn.file(
      "edited.csv",
      Data((header + "Rios,Archangel,3 skeins,2 skeins\r\nCascade 220,Ruby,2 skeins,1 skein\r\n").utf8))
    let edited = try yarn.ok(["stash", "import", "edited.csv", "--json"])
    #expect(
      edited.stderr
        == "line 2: updated “Rios”: Remaining override (none) → 2 skeins\n"
        + "line 2: Remaining of “Rios” taken as 2 skeins (estimate 3 skeins)\n"
        + "imported edited.csv: 0 yarns added, 1 updated, 1 unchanged\n")
    let counts = try #require(try edited.json() as? [String: Any])
    #expect(
      counts["updated"] as? Int == 1 && counts["unchanged"] as? Int == 1 && counts["overrides"] as? Int == 1)
    let overrides = try #require(counts["remainingOverrides"] as? [[String: Any]])
    #expect(overrides.map { $0["name"] as? String } == ["Rios"])
    #expect((overrides.first?["remaining"] as? [String: Any])?["value"] as? Double == 2)
    let list = try yarn.ok(["stash", "list", "--json"])
    #expect((try list.json() as? [[String: Any]])?.count == 2)
  }

  @Test func everyColumnsExportImportsBackUnchangedAndAnEmptyRemainingDropsTheOverride() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let store = try LibraryStore(directory: yarn.library, mode: .readWrite)
    // Gram: 400 g less a third of a 100 g skein used, 366.666… g left; Plain: 1 skein of 2
    // by override.
    try store.write {
      try store.insert(
        library: Library(
          yarns: [
            Yarn(id: "g", name: "Gram", netWeightPerSkein: Amount(100, .gram), quantity: Amount(400, .gram)),
            Yarn(id: "pl", name: "Plain", quantity: Amount(2, .skein), remainingOverride: Amount(1, .skein)),
            Yarn(id: "r", name: "Rios", colorway: "Azul", quantity: Amount(3, .skein)),
            Yarn(id: "m", name: "Mystery"),
          ],
          projects: [
            Project(
              id: "p", name: "Cowl", status: .finished, started: CalendarDate(year: 2026, month: 3, day: 1),
              finished: CalendarDate(year: 2026, month: 3, day: 2),
              usages: [YarnUsage(yarnID: "g", amount: Amount(1.0 / 3.0, .skein))])
          ]))
    }
    try store.close()
    let choices = [
      "Name,Remaining", "Name,Quantity,Remaining", "Name,Colorway,Remaining Source", "Name,Quantity",
      "Name,Remaining Unit", "ID,Remaining,Remaining Source", "Name,Net Weight per Skein,Remaining Unit",
    ]
    for (index, columns) in choices.enumerated() {
      let name = "columns-\(index).csv"
      try yarn.ok(["stash", "export", "-o", name, "--columns", columns])
      let back = try yarn.run(["stash", "import", name, "--dry-run"])
      #expect(back.status == 0, "\(columns): \(back.stderr)")
      #expect(
        back.stderr == "dry run of \(name): 0 yarns to add, 0 to update, 4 unchanged; nothing was changed\n",
        "\(columns)")
    }
    let shown = try yarn.ok(["stash", "export", "--columns", "Name,Remaining"])
    #expect(
      shown.stdout
        == "Name,Remaining\r\nGram,366.666666666667 g\r\nPlain,1 skein\r\nRios,3 skeins\r\nMystery,\r\n")
    // The full export with Plain's Remaining cell emptied, its unit and `override` left.
    try yarn.ok(["stash", "export", "-o", "full.csv"])
    let full = try String(contentsOf: yarn.directory.appendingPathComponent("full.csv"), encoding: .utf8)
    let edited = full.replacingOccurrences(
      of: ",2,skein,1,skein,override,", with: ",2,skein,,skein,override,")
    #expect(edited != full)
    _ = try yarn.file("edited.csv", Data(edited.utf8))
    let dropped = try yarn.ok(["stash", "import", "edited.csv"])
    #expect(
      dropped.stderr
        == "line 3: updated “Plain”: Remaining override 1 skein → (none)\n"
        + "imported edited.csv: 0 yarns added, 1 updated, 3 unchanged\n")
  }

  @Test func yarnBuddyExportMovesOverWithLenient() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let fixture = Self.packageRoot.appendingPathComponent("Tests/Fixtures/yarnbuddy-stash.csv").path
    let strict = try yarn.run(["stash", "import", fixture])
    #expect(strict.status == 65)
    #expect(strict.stderr.contains("line 6, column 11: text after a closing quote"))
    let lenient = try yarn.ok(["stash", "import", fixture, "--lenient"])
    #expect(
      lenient.stderr.contains("warning: line 6: quotes were not doubled; guessed where each field ends"))
    #expect(lenient.stderr.contains("(a YarnBuddy export): 6 yarns added"))
    let out = try yarn.ok([
      "stash", "export", "--columns", "Name,Quantity,Quantity Unit,Remaining,Remaining Source,Weight",
    ])
    #expect(
      out.stdout
        == [
          "Name,Quantity,Quantity Unit,Remaining,Remaining Source,Weight",
          // Remaining Unit is not among the columns: Remaining carries its unit.
          "Cascade 220,3,skein,1.5 skeins,override,4 Medium (worsted)",
          "Malabrigo Rios,250,g,250 g,estimate,4 Medium (worsted)",
          "\"Shelter \"\"Almanac\"\"\",2,skein,2 skeins,estimate,3 Light (DK)",
          "Lion Brand Wool-Ease,6,oz,0 oz,override,4 Medium (worsted)",
          "Jamieson's Spindrift,10,skein,10 skeins,estimate,1 Super Fine (fingering)",
          "Mystery lace,1,skein,1 skein,estimate,0 Lace", "",
        ].joined(separator: "\r\n"))
  }

  @Test func outputFilesAreRefusedWithoutForceAndProjectsExport() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Cascade 220", "--quantity", "3 skeins"])
    try yarn.ok([
      "project", "add", "Flax", "--craft", "knitting", "--status", "in-progress", "--started", "2026-01-02",
    ])
    try yarn.ok(["project", "use", "Flax", "Cascade 220", "1.5 skeins"])
    _ = try yarn.file("projects.csv", Data("keep me".utf8))
    let refused = try yarn.run(["project", "export", "-o", "projects.csv"])
    #expect(refused.status == 73)
    #expect(refused.stderr.hasPrefix("error: 'projects.csv' already exists\n"))
    let path = yarn.directory.appendingPathComponent("projects.csv")
    #expect(try String(contentsOf: path, encoding: .utf8) == "keep me")
    try yarn.ok([
      "project", "export", "-o", "projects.csv", "--force", "--columns",
      "Name,Craft,Status,Started,Yarns,Seconds",
    ])
    #expect(
      try String(contentsOf: path, encoding: .utf8)
        == "Name,Craft,Status,Started,Yarns,Seconds\r\nFlax,knitting,in-progress,2026-01-02,Cascade 220: 1.5 skeins,0\r\n"
    )
    try yarn.ok([
      "project", "export", "-o", "tab.csv", "--delimiter", "tab", "--bom", "--columns", "Name,Time",
    ])
    let tab = try Data(contentsOf: yarn.directory.appendingPathComponent("tab.csv"))
    #expect(Array(tab) == [0xEF, 0xBB, 0xBF] + Array("Name\tTime\r\nFlax\t0:00\r\n".utf8))
    let badColumn = try yarn.run(["project", "export", "--columns", "Name,Hours"])
    #expect(badColumn.status == 64)
  }

  /// A column named twice would give a file that `stash import` refuses: refused at once.
  @Test func exportRefusesAColumnNamedTwice() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    _ = try yarn.ok(["stash", "add", "Rios"])
    let result = try yarn.run(["stash", "export", "--columns", "Name,name"])
    #expect(result.status == 64)
    #expect(result.stdout == "")
    #expect(result.stderr.contains("the column \"Name\" is named twice"))
  }

  /// `--json` on an export that writes CSV printed CSV (which no JSON reader takes) with
  /// status 0; it is a usage error, as `time log --format csv --json` is.
  @Test func jsonOnACSVExportIsAUsageError() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios"])
    for noun in ["stash", "project"] {
      let result = try yarn.run([noun, "export", "--json"])
      #expect(result.status == 64, "\(noun)")
      #expect(result.stdout == "")
      #expect(
        result.stderr
          == """
          error: '--json' does not apply to 'yarn \(noun) export': it writes CSV; for JSON use '\(yarn.command("\(noun) list --json"))'
          usage: yarn \(noun) export [<options>]
          hint: see 'yarn \(noun) export --help'

          """)
    }
    let file = yarn.directory.appendingPathComponent("stash.csv")
    #expect(try yarn.run(["stash", "export", "-o", file.path, "--json"]).status == 64)
    #expect(!FileManager.default.fileExists(atPath: file.path))
  }
}
