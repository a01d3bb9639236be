import Foundation
import Testing

@testable import YarnCore

/// `yarn weft export` and `yarn weft import` end to end (docs/CLI.md, docs/WEFT.md).
@Suite struct WEFTCLITests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/weft")

  static func examples(_ profile: String) -> [String] {
    ["yarn-stash", "knitting-project", "knitting-progress"].map {
      fixtures.appendingPathComponent("\($0)-\(profile).weft").path
    }
  }

  @Test func dryRunChangesNothingThenImportThenAgainAddsNothing() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let dry = try yarn.ok(["weft", "import", "--dry-run"] + Self.examples("ravelry"))
    #expect(
      dry.stderr.contains(
        "dry run: 1 yarn to add, 0 to update, 0 unchanged; 1 project to add, 0 to update, 0 unchanged; "
          + "2 sessions to add, 0 unchanged; 0 tools to add, 0 to update, 0 unchanged; nothing was changed"))
    #expect(!FileManager.default.fileExists(atPath: yarn.library.path))
    let first = try yarn.ok(["weft", "import"] + Self.examples("ravelry"))
    #expect(first.stderr.contains("imported: 1 yarn added"))
    // The fields not kept, by name per file, and those with a reason on their own line.
    #expect(
      first.stderr.contains("yarn-stash-ravelry.weft: not kept (yarn has no place for them): care, craft,"))
    #expect(
      first.stderr.contains(
        "knitting-project-ravelry.weft: items[0].materials_used[0]: not kept (the material mat-001 is in neither the files nor the library)"
      ))
    let shown = try yarn.ok(["stash", "show", "98765", "--json"])
    let object = try #require(try shown.json() as? [String: Any])
    #expect(object["dyeLot"] as? String == "B1234")
    let again = try yarn.ok(["weft", "import", "--json"] + Self.examples("ravelry"))
    let summary = try #require(try again.json() as? [String: Any])
    #expect(summary["yarns"] as? [String: Int] == ["added": 0, "updated": 0, "unchanged": 1])
    #expect(summary["sessions"] as? [String: Int] == ["added": 0, "unchanged": 2])
    #expect((summary["notKept"] as? [Any])?.isEmpty == false)
    // One step of undo takes the first import back.
    try yarn.ok(["undo"])
    #expect((try yarn.ok(["stash", "list", "--json"]).json() as? [Any])?.isEmpty == true)
  }

  @Test func aBadFileIsRefusedByFileAndPathWithExitStatus65() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Before"])
    let before = try yarn.librarySnapshot()
    let bad = try yarn.file(
      "bad.weft",
      Data(
        #"{"weft_version": "1.0", "type": "material", "items": [{"id": "x", "name": "X", "material_type": "yarn", "status": "in-stash", "quantity": {"units_count": "3"}}]}"#
          .utf8))
    let result = try yarn.run(["weft", "import", Self.examples("stash2go")[0], bad.path])
    #expect(result.status == 65)
    #expect(result.stderr.contains("1 problem; nothing was imported:"))
    #expect(
      result.stderr.contains("\(bad.path): items[0].quantity.units_count: expected a number, found \"3\""))
    #expect(try yarn.librarySnapshot() == before)
    // Into a library that is not there yet: planned once in the new library's transaction,
    // which is thrown away; no library is created.
    let fresh = YarnRunner.withLibrary(yarn, "fresh")
    let refused = try fresh.run(["weft", "import", Self.examples("stash2go")[0], bad.path])
    #expect(refused.status == 65)
    #expect(
      refused.stderr.contains("\(bad.path): items[0].quantity.units_count: expected a number, found \"3\""))
    #expect(!FileManager.default.fileExists(atPath: fresh.library.path))
    // A negative figure beside a count of skeins is refused (it was said not kept, exit 0);
    // an empty file is said to be empty.
    let negative = try yarn.file(
      "negative.weft",
      Data(
        #"{"weft_version": "1.0", "type": "material", "items": [{"id": "x", "name": "X", "material_type": "yarn", "status": "in-stash", "quantity": {"units_count": 3, "weight_grams": -300}, "packs": [{"weight_per_unit_grams": 100}]}]}"#
          .utf8))
    let empty = try yarn.file("empty.weft", Data())
    let refusedNegative = try yarn.run(["weft", "import", negative.path, empty.path])
    #expect(refusedNegative.status == 65)
    #expect(
      refusedNegative.stderr.contains(
        "\(negative.path): items[0].quantity.weight_grams: quantity -300 g is negative"))
    #expect(refusedNegative.stderr.contains("\(empty.path): is empty; a WEFT document is a JSON object"))
    #expect(try yarn.librarySnapshot() == before)
    // A file that is not JSON: where, with a hint for a syntax error (it said only "the given
    // data was not valid JSON." and to fix the fields named by their JSON path).
    let broken = try yarn.file(
      "bj.weft", Data("{\n  \"weft_version\": \"1.0\",\n  \"items\": [\n    {,\n  ]\n}\n".utf8))
    let refusedBroken = try yarn.run(["weft", "import", broken.path])
    #expect(refusedBroken.status == 65)
    #expect(
      refusedBroken.stderr
        == """
        error: 1 problem; nothing was imported:
          \(broken.path): not JSON at line 4, column 6: unexpected ',' where a key belongs
        hint: fix the JSON where it is named (a missing or extra comma, quote or bracket) and import again

        """)
    let missing = try yarn.run(["weft", "import", "nowhere.weft"])
    #expect(missing.status == 66)
    let none = try yarn.run(["weft", "import"])
    #expect(none.status == 64)
  }

  /// A file that is not JSON for a fault other than a missing or extra comma, quote or bracket
  /// gets the hint of its fault (QA: `1e400`, `"\ud800"` and a Latin-1 `é` each got "a
  /// missing or extra comma, quote or bracket"); files of different faults, one that fits all.
  @Test func aFileThatIsNotJSONGetsTheHintOfItsFault() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let start = #"{"weft_version": "1.0", "type": "material", "items": [], "x": "#
    let big = try yarn.file("big.weft", Data((start + "1e400}").utf8))
    let lone = try yarn.file("lone.weft", Data((start + #""\ud800"}"#).utf8))
    let latin = try yarn.file("latin.weft", Data((start + #""Caf"#).utf8) + [0xE9] + Data(#""}"#.utf8))
    for (file, problem, hint) in [
      (
        big, "not JSON at line 1, column 63: the number 1e400 is too large to read",
        "write a number a double holds where it is named (at most 1.7976931348623157e308 in size)"
      ),
      (
        lone,
        #"not JSON at line 1, column 64: a lone surrogate escape '\ud800' (half of a UTF-16 pair, not a character)"#,
        #"write the character itself where it is named, or both halves of its UTF-16 pair (\ud83e\uddf6)"#
      ),
      (
        latin, "not JSON at line 1, column 67: byte 0xE9 is not UTF-8",
        "save the file as UTF-8, the encoding of JSON (RFC 8259 §8.1)"
      ),
    ] {
      let result = try yarn.run(["weft", "import", file.path])
      #expect(result.status == 65)
      #expect(
        result.stderr
          == "error: 1 problem; nothing was imported:\n  \(file.path): \(problem)\nhint: \(hint) and import again\n"
      )
    }
    let both = try yarn.run(["weft", "import", big.path, latin.path])
    #expect(both.status == 65)
    #expect(both.stderr.hasSuffix("\nhint: fix the JSON where it is named and import again\n"))
  }

  /// Every problem of an item, each at its path with the value found: a currency of the
  /// wrong type does not hide the amount beside it, nor a tag of the wrong type the bad tag
  /// beside it (QA: one problem each, `expected a string` without the value, exit 65).
  @Test func aWrongTypeHidesNoOtherProblemAndIsShownWithItsValue() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let bad = try yarn.file(
      "bad.weft",
      Data(
        #"{"weft_version": "1.0", "type": "material", "items": [{"id": "x", "name": "X", "material_type": "yarn", "status": "in-stash", "acquired_price": {"amount": -5, "currency": 5}, "tags": ["a,b", 7], "fiber_content": [{"fiber": "silk", "percentage": "lots"}]}]}"#
          .utf8))
    let result = try yarn.run(["weft", "import", bad.path])
    #expect(result.status == 65)
    #expect(result.stderr.contains("5 problems; nothing was imported:"))
    for line in [
      "items[0].acquired_price.currency: expected a string, found 5",
      "items[0].acquired_price.amount: price amount -5 is negative",
      "items[0].tags[1]: expected a string, found 7",
      "items[0].tags[0]: tag \"a,b\" holds a comma; a comma separates tags (use two tags)",
      "items[0].fiber_content[0].percentage: expected a number, found \"lots\"",
    ] {
      #expect(result.stderr.contains("\(bad.path): \(line)\n"), "\(line)")
    }
    #expect(!FileManager.default.fileExists(atPath: yarn.library.path))
  }

  /// On the sample library the export says, on standard error and in its JSON, what it
  /// leaves out (QA: nothing was said). By hand from samples/demo/library.json: a photo on
  /// each of the yarns Cascade 220 and Peer Gynt and of the projects Flax for Leo, Granny
  /// Square Blanket and Selbuvotter, 5 (two of them one file); the blanket's pattern PDF;
  /// 21 of the 40 sessions have a note.
  @Test func exportSaysWhatTheDocumentsDoNotCarry() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["backup", "restore", SampleEndToEndTests.sample.path])
    let out = yarn.directory.appendingPathComponent("out").path
    let result = try yarn.ok(["weft", "export", out])
    #expect(
      result.stderr.hasSuffix(
        "exported 15 yarns, 8 projects, 40 sessions and 0 tools to \(out)\n"
          + "not in WEFT: 5 photos, 1 pattern PDF, 21 session notes (docs/WEFT.md)\n"))
    let json = try yarn.ok(["weft", "export", out, "--force", "--json"])
    let object = try #require(try json.json() as? [String: Any])
    #expect(object["notInWEFT"] as? [String: Int] == ["photos": 5, "patternPDFs": 1, "sessionNotes": 21])
  }

  /// QA's round trip: a `will-trade` yarn exported and imported into a new library is
  /// `will-trade`, still in the stash (it came back `other`, out of `stash list --in-stash`).
  @Test func aWillTradeYarnComesBackWillTradeInTheStash() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Kureyon", "--status", "will-trade"])
    let out = yarn.directory.appendingPathComponent("out").path
    try yarn.ok(["weft", "export", out])
    let fresh = YarnRunner.withLibrary(yarn, "fresh")
    try fresh.ok(["weft", "import"] + WEFTExport.fileNames.map { "\(out)/\($0)" })
    let listed = try #require(
      try fresh.ok(["stash", "list", "--in-stash", "--json"]).json() as? [[String: Any]])
    #expect(listed.map { $0["name"] as? String } == ["Kureyon"])
    #expect(listed.first?["status"] as? String == "will-trade")
  }

  /// QA's steps: yarn's export of the day Hat was in progress, imported after Hat was
  /// finished, pinned that day's estimate (`Remaining: 3 skeins (override)`). The export now
  /// says the figure was the estimate (`yarn.remaining_source`), and the import leaves the
  /// estimate, 2 skeins, with the CSV's warning.
  @Test func anOlderEstimateImportedAfterAProjectFinishedIsNoOverride() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok([
      "stash", "add", "Wool", "--length-per-skein", "200yd", "--net-weight-per-skein", "100g", "--quantity",
      "3 skeins",
    ])
    try yarn.ok(["project", "add", "Hat", "--status", "in-progress"])
    try yarn.ok(["project", "use", "Hat", "Wool", "1 skein"])
    let out = yarn.directory.appendingPathComponent("wx").path
    try yarn.ok(["weft", "export", out])
    try yarn.ok(["project", "finish", "Hat"])
    let result = try yarn.ok(["weft", "import", "\(out)/material.weft"])
    #expect(
      result.stderr.contains(
        "warning: \(out)/material.weft: items[0].quantity: 3 skeins was yarn's estimate when the file was "
          + "written (yarn.remaining_source estimate), not an override: the remaining is the estimate now, "
          + "2 skeins; to keep 3 skeins as the override, write override in yarn.remaining_source\n"),
      "\(result.stderr)")
    #expect(result.stderr.contains("imported: 0 yarns added, 0 updated, 1 unchanged"), "\(result.stderr)")
    let shown = try yarn.ok(["stash", "show", "Wool"]).stdout
    #expect(shown.contains("Remaining:    2 skeins"), "\(shown)")
    #expect(!shown.contains("(override)"), "\(shown)")
    // A file that does not say (an export from before the field) sets an override on a new
    // yarn: listed, in the dry run and in --json, as an update's is (it was not).
    let older = try yarn.file(
      "m.weft",
      Data(
        #"{"weft_version": "1.0", "type": "material", "items": [{"id": "w", "name": "Wool", "material_type": "yarn", "status": "in-stash", "original_quantity": {"units_count": 3}, "quantity": {"units_count": 2}}]}"#
          .utf8))
    let fresh = YarnRunner.withLibrary(yarn, "fresh")
    let line = "\(older.path): items[0].quantity: Remaining of “Wool” taken as 2 skeins (estimate 3 skeins)"
    let dry = try fresh.ok(["weft", "import", "--dry-run", older.path])
    #expect(dry.stderr.contains(line + "\n"), "\(dry.stderr)")
    let json = try #require(try fresh.ok(["weft", "import", "--json", older.path]).json() as? [String: Any])
    #expect(json["remainingOverrides"] as? [String] == [line])
  }

  /// QA's steps: a tool exported, its item cut down to its ID, kind and size, imported back.
  /// The dry run listed its name, length, material and projects as cleared, and the import
  /// cleared them; the fields left out keep the library's values, so nothing changes.
  @Test func aToolItemGivingOnlyItsIDKindAndSizeChangesNothing() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok([
      "tool", "add", "Red Lace", "--kind", "circular", "--size", "5mm", "--length", "80cm",
      "--material", "bamboo",
    ])
    try yarn.ok(["project", "add", "Hat"])
    try yarn.ok(["project", "edit", "Hat", "--tool", "Red Lace"])
    let out = yarn.directory.appendingPathComponent("out")
    try yarn.ok(["weft", "export", out.path])
    let before = try yarn.ok(["tool", "show", "Red Lace", "--json"]).stdout
    let id = try #require(
      (try JSONSerialization.jsonObject(with: Data(before.utf8)) as? [String: Any])?["id"])
    let cut = try yarn.file(
      "tool.weft",
      Data(
        #"{"weft_version": "1.0", "type": "tool", "items": [{"id": "\#(id)", "tool_type": "circular", "metric_size_mm": 5}]}"#
          .utf8))
    let dry = try yarn.ok(["weft", "import", "--dry-run", cut.path])
    #expect(!dry.stderr.contains("would update"), "\(dry.stderr)")
    #expect(dry.stderr.contains("0 tools to add, 0 to update, 1 unchanged"), "\(dry.stderr)")
    try yarn.ok(["weft", "import", cut.path])
    #expect(try yarn.ok(["tool", "show", "Red Lace", "--json"]).stdout == before)
  }

  @Test func exportWritesThreeDocumentsAndRefusesToReplaceThemWithoutForce() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["weft", "import"] + Self.examples("stash2go"))
    let out = yarn.directory.appendingPathComponent("out").path
    let result = try yarn.ok(["weft", "export", out])
    #expect(
      result.stdout == ["material", "project", "progress", "tool"].map { "\(out)/\($0).weft\n" }.joined())
    #expect(result.stderr.contains("exported 1 yarn, 1 project, 2 sessions and 0 tools to \(out)"))
    let again = try yarn.run(["weft", "export", out])
    #expect(again.status == 73)
    try yarn.ok(["weft", "export", out, "--force"])
    // Into another, empty library: the same yarn back.
    let other = YarnRunner.withLibrary(yarn, "other")
    let files = ["material", "project", "progress", "tool"].map { "\(out)/\($0).weft" }
    try other.ok(["weft", "import"] + files)
    let a = try yarn.ok(["stash", "list", "--json"]).stdout
    let b = try other.ok(["stash", "list", "--json"]).stdout
    #expect(a == b)
  }
}

extension YarnRunner {
  /// A runner in the same directory with another library.
  static func withLibrary(_ runner: YarnRunner, _ name: String) -> YarnRunner {
    YarnRunner(directory: runner.directory, library: runner.directory.appendingPathComponent(name))
  }

  private init(directory: URL, library: URL) {
    self.directory = directory
    self.library = library
  }
}
