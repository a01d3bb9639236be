import Foundation
import Testing
import YarnCore

/// Names and other one-line fields through the built binary: spaces around are dropped, a
/// control character or more than 200 Characters is a usage error (64) naming the option and
/// the character, and changes nothing; notes stay free text over several lines.
@Suite struct NameRulesCLITests {
  @Test func spacesAroundANameAreDroppedAndTheNameLooksItUp() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "  Cascade 220 ", "--brand", " Cascade Yarns ", "--dye-lot", " 42 "])
    let shown = try #require(
      try yarn.ok(["--json", "stash", "show", "Cascade 220"]).json() as? [String: Any])
    #expect(shown["name"] as? String == "Cascade 220")
    #expect(shown["brand"] as? String == "Cascade Yarns")
    #expect(shown["dyeLot"] as? String == "42")
    try yarn.ok(["stash", "edit", "cascade 220", "--name", " Cascade 220 Superwash\u{A0}"])
    #expect(
      try yarn.ok(["stash", "show", "Cascade 220 Superwash"]).stdout.hasPrefix(
        "Name:         Cascade 220 Superwash\n"))

    try yarn.ok([
      "project", "add", " Flax ", "--pattern", "  Flax Light ", "--pattern-url", " https://example.com/f ",
    ])
    let project = try #require(try yarn.ok(["--json", "project", "show", "Flax"]).json() as? [String: Any])
    #expect(project["name"] as? String == "Flax")
    let pattern = try #require(project["pattern"] as? [String: Any])
    #expect(pattern["name"] as? String == "Flax Light")
    #expect(pattern["url"] as? String == "https://example.com/f")
    // Spaces only still clear a field.
    try yarn.ok(["stash", "edit", "Cascade 220 Superwash", "--brand", "   "])
    let cleared = try #require(
      try yarn.ok(["--json", "stash", "show", "Cascade 220 Superwash"]).json() as? [String: Any])
    #expect(cleared["brand"] == nil || cleared["brand"] is NSNull)
  }

  /// A name of invisible format characters alone is blank, as one of spaces (NBSP) is (QA:
  /// U+200B or U+FEFF alone was taken and shown as an empty name).
  @Test func aNameOfInvisibleCharactersIsBlank() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    for name in ["\u{A0}", "\u{200B}", "\u{FEFF}", "\u{200C}\u{200D}", " \u{2060} "] {
      for command in [
        ["stash", "add", name], ["project", "add", name], ["tool", "add", name, "--kind", "cable"],
      ] {
        let result = try yarn.run(command)
        #expect(result.status == 64, "\(command): \(result.stderr)")
        #expect(result.stderr.contains(": is blank"), "\(command): \(result.stderr)")
      }
    }
    #expect(
      try yarn.run(["--json", "tool", "list"]).stdout.filter { !$0.isWhitespace } == "[]")
  }

  /// An optional field of invisible characters alone is unknown, left out, as one of spaces
  /// is (QA: `--brand $'\u200b'` was refused with 65 naming a yarn that was never made).
  @Test func anOptionalFieldOfInvisibleCharactersIsUnknown() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let blank = "\u{200B}"
    try yarn.ok([
      "stash", "add", "Rios", "--brand", blank, "--colorway", "\u{FEFF}", "--dye-lot", "\u{2060}",
      "--fiber", " \u{200B} ", "--location", blank, "--stored-in", blank, "--color-family", blank,
    ])
    let shown = try #require(try yarn.ok(["--json", "stash", "show", "Rios"]).json() as? [String: Any])
    for key in ["brand", "colorway", "dyeLot", "fiber", "purchaseLocation", "storedIn", "colorFamily"] {
      #expect(shown[key] == nil || shown[key] is NSNull, "\(key): \(shown[key] ?? "")")
    }
    try yarn.ok(["stash", "edit", "Rios", "--brand", "Malabrigo"])
    // In an edit, it clears the field, as spaces do.
    try yarn.ok(["stash", "edit", "Rios", "--brand", blank])
    let cleared = try #require(try yarn.ok(["--json", "stash", "show", "Rios"]).json() as? [String: Any])
    #expect(cleared["brand"] == nil || cleared["brand"] is NSNull)
    try yarn.ok([
      "project", "add", "Flax", "--pattern", blank, "--size-made", blank, "--made-for", blank,
      "--pattern-url", blank,
    ])
    let project = try #require(try yarn.ok(["--json", "project", "show", "Flax"]).json() as? [String: Any])
    #expect(project["pattern"] == nil || project["pattern"] is NSNull, "\(project["pattern"] ?? "")")
    #expect(project["sizeMade"] == nil || project["sizeMade"] is NSNull)
    #expect(project["madeFor"] == nil || project["madeFor"] is NSNull)
    try yarn.ok(["tool", "add", "Cable", "--kind", "cable", "--material", blank])
    let tool = try #require(try yarn.ok(["--json", "tool", "show", "Cable"]).json() as? [String: Any])
    #expect(tool["material"] == nil || tool["material"] is NSNull)
  }

  /// A tag of invisible characters alone is empty, as one of spaces is: a usage error.
  @Test func aTagOfInvisibleCharactersIsEmpty() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    for tag in ["   ", "\u{200B}", "\u{2060}\u{FEFF}"] {
      let result = try yarn.run(["stash", "add", "Rios", "--tag", tag])
      #expect(result.status == 64, "\(result.stderr)")
      #expect(result.stderr.contains("for --tag: is empty"), "\(result.stderr)")
    }
    #expect(try yarn.run(["--json", "stash", "list"]).stdout.filter { !$0.isWhitespace } == "[]")
  }

  @Test func aControlCharacterIsAUsageErrorNamingItAndChangesNothing() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios"])
    try yarn.ok(["project", "add", "Flax"])
    let before = try yarn.librarySnapshot()

    let newline = try yarn.run(["stash", "add", "Cascade\n220"])
    #expect(newline.status == 64)
    #expect(
      newline.stderr
        == "error: bad value 'Cascade\\n220' for <name>: holds a line break (U+000A); it must be one line\n"
        + "usage: yarn stash add <name> [<options>]\n"
        + "hint: see 'yarn stash add --help'\n")
    // At either end too: refused, not trimmed.
    #expect(try yarn.run(["stash", "add", "Cascade 220\n"]).status == 64)

    let tab = try yarn.run(["stash", "edit", "Rios", "--colorway", "Azul\tProfundo"])
    #expect(tab.status == 64)
    #expect(
      tab.stderr.hasPrefix(
        "error: bad value 'Azul\\tProfundo' for --colorway: holds a tab (U+0009), a control character, which is not allowed\n"
      ))

    let nel = try yarn.run(["project", "edit", "Flax", "--name", "Flax\u{85}Light"])
    #expect(nel.status == 64)
    #expect(
      nel.stderr.hasPrefix(
        "error: bad value 'Flax\\u{85}Light' for --name: holds a line break (U+0085); it must be one line\n"
      ))

    let escape = try yarn.run(["project", "add", "Hat", "--pattern", "\u{1B}[31mRed"])
    #expect(escape.status == 64)
    #expect(
      escape.stderr.contains("for --pattern: holds a control character (U+001B), which is not allowed\n"))

    #expect(try yarn.librarySnapshot() == before)
  }

  @Test func twoHundredCharactersFitAndTwoHundredAndOneDoNot() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let family = "👩\u{200D}👩\u{200D}👧"  // one Character
    let fits = family + String(repeating: "a", count: 199)
    try yarn.ok(["stash", "add", fits])
    let before = try yarn.librarySnapshot()
    let long = try yarn.run(["stash", "add", fits + "b"])
    #expect(long.status == 64)
    #expect(
      long.stderr.hasPrefix(
        "error: bad value '\(family)\(String(repeating: "a", count: 39))…' for <name>: is 201 "
          + "characters long; the limit is 200\n"))
    let brand = try yarn.run(["stash", "edit", fits, "--brand", String(repeating: "b", count: 201)])
    #expect(brand.status == 64)
    #expect(
      brand.stderr.contains("for --brand: is 201 characters long; the limit is 200"))
    #expect(try yarn.librarySnapshot() == before)
    let list = try #require(try yarn.ok(["--json", "stash", "list"]).json() as? [[String: Any]])
    #expect(list.map { $0["name"] as? String } == [fits])
  }

  /// A length limit also bounds Unicode scalars, 4 for each Character of the limit, for
  /// every way in: one letter with 50,000 combining marks is one Character, and `stash add`
  /// took it as a 100 KB name, a stash import 4 MB Name and Tags cells (QA).
  @Test func aLetterWithThousandsOfCombiningMarksIsTooLongEveryWayIn() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios"])
    let before = try yarn.librarySnapshot()
    let bomb = "a" + String(repeating: "\u{301}", count: 50_000)
    let shown = "a" + String(repeating: "\u{301}", count: 159) + "…"
    let words =
      "is 1 character but 50001 Unicode code points long; the limit is 800 code points "
      + "(4 for each of the 200 characters allowed)"
    let name = try yarn.run(["stash", "add", bomb])
    #expect(name.status == 64)
    #expect(name.stderr.hasPrefix("error: bad value '\(shown)' for <name>: \(words)\n"))
    let brand = try yarn.run(["stash", "edit", "Rios", "--brand", bomb])
    #expect(brand.status == 64)
    #expect(brand.stderr.hasPrefix("error: bad value '\(shown)' for --brand: \(words)\n"))
    let tag = try yarn.run(["stash", "edit", "Rios", "--tag", bomb])
    #expect(tag.status == 64)
    #expect(
      tag.stderr.hasPrefix(
        "error: bad value '\(shown)' for --tag: \"a\(String(repeating: "\u{301}", count: 399))…\" "
          + "is 1 character but 50001 Unicode code "
          + "points long; the limit is 200 code points (4 for each of the 50 characters allowed)\n"))
    let note = try yarn.run(
      ["note", "add", "--yarn", "Rios", "-"],
      stdin: Data(("n" + String(repeating: "\u{301}", count: 400_000)).utf8))
    #expect(note.status == 65)
    #expect(
      note.stderr.hasPrefix(
        "error: standard input: the note's text is 1 character but 400001 Unicode code points long; "
          + "the limit is 400000 code points (4 for each of the 100000 characters allowed)\n"))
    _ = try yarn.file("in.csv", Data("Name,Tags\r\n\(bomb),\"cozy,\(bomb)\"\r\n".utf8))
    let imported = try yarn.run(["stash", "import", "in.csv"])
    #expect(imported.status == 65)
    #expect(imported.stderr.contains("line 2, column \"Name\": \(words)\n"), "\(imported.stderr.prefix(600))")
    #expect(imported.stderr.contains("column \"Tags\""), "\(imported.stderr.prefix(600))")
    #expect(imported.stderr.utf8.count < 4000)
    #expect(try yarn.librarySnapshot() == before)
  }

  @Test func notesStayFreeTextOverSeveralLines() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["project", "add", "Flax"])
    try yarn.ok(["note", "add", "--project", "Flax", "Sleeves:\n\t2 rows shorter"])
    try yarn.ok(["time", "add", "Flax", "--duration", "1h", "--note", "cuffs\nand collar"])
    let shown = try yarn.ok(["project", "show", "Flax"]).stdout
    #expect(shown.contains("Sleeves:\n"))
    let log = try #require(try yarn.ok(["--json", "time", "log"]).json() as? [[String: Any]])
    #expect(log.first?["note"] as? String == "cuffs\nand collar")
  }

  /// A session's `--note` is a note by the rule `note add` reads its text by: blank (empty,
  /// spaces, line breaks, invisible characters) is refused (64) by every command that makes
  /// a session (QA: `time add --note "   "` and `time continue --note "  "` exited 0 and
  /// stored no note); in `time edit`, a blank note clears it, as an empty one does.
  @Test func aBlankSessionNoteIsRefusedAsABlankNoteIs() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["project", "add", "Flax"])
    try yarn.ok(["time", "add", "Flax", "--duration", "5m", "--note", "cuffs"])
    let before = try yarn.librarySnapshot()
    for (arguments, shown) in [
      (["time", "add", "Flax", "--duration", "5m", "--note", "   "], "   "),
      (["time", "add", "Flax", "--duration", "5m", "--note", ""], ""),
      (["time", "start", "Flax", "--note", " \n "], " \\n "),
      (["time", "continue", "--note", "  "], "  "),
      (["time", "continue", "--note", "\u{200B}"], "\\u{200B}"),
    ] {
      let result = try yarn.run(arguments)
      #expect(result.status == 64, "\(arguments)")
      #expect(
        result.stderr.hasPrefix("error: bad value '\(shown)' for --note: is blank\n"), "\(result.stderr)")
    }
    #expect(try yarn.librarySnapshot() == before)
    // The words of `note add`.
    let note = try yarn.run(["note", "add", "--project", "Flax", "   "])
    #expect(note.status == 64)
    #expect(note.stderr.hasPrefix("error: bad value '   ' for <text>: is blank\n"))
    // An edit clears the note with a blank value, spaces or invisible characters alike.
    let log = try #require(try yarn.ok(["--json", "time", "log"]).json() as? [[String: Any]])
    let session = try #require(log.first?["id"] as? String)
    for blank in ["  ", "\u{200B}"] {
      try yarn.ok(["time", "edit", session, "--note", "cuffs"])
      try yarn.ok(["time", "edit", session, "--note", blank])
      let edited = try #require(try yarn.ok(["--json", "time", "log"]).json() as? [[String: Any]])
      #expect(
        edited.first?["note"] == nil || edited.first?["note"] is NSNull,
        "\(blank.unicodeScalars.map(\.value))")
    }
  }

  /// QA: a bad value holding U+200B was shown without it (`bad value '' for --weight`) by
  /// most commands: every one escapes it, as a name or an unknown option is.
  @Test func anInvisibleCharacterInABadValueIsShown() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let z = "\u{200B}"
    for arguments in [
      ["stash", "list", "--weight", z], ["stash", "list", "--status", z], ["stash", "list", "--sort", z],
      ["project", "list", "--craft", z], ["stash", "add", "Rios", "--quantity", "3\(z) skeins"],
      ["stash", "add", "Rios", "--price", z], ["convert", "1g", "--to", z], ["convert", z, "--to", "g"],
      ["time", "log", "--from", z], ["time", "add", "Hat", "--duration", z],
      ["time", "add", "Hat", "--from", "-1h", "--to", z], ["stash", "export", "--delimiter", z],
      ["stash", "export", "--columns", z], ["completions", z],
    ] {
      let result = try yarn.run(arguments)
      #expect(result.status == 64, "\(arguments): \(result.stderr)")
      // The value quoted (the reason after it may quote it again, as its own words do).
      let quoted = result.stderr.components(separatedBy: "' for ").first ?? ""
      #expect(quoted.hasPrefix("error: bad value '"), "\(arguments): \(result.stderr)")
      #expect(quoted.contains("\\u{200B}") && !quoted.contains(z), "\(arguments): \(result.stderr)")
    }
  }

  /// QA: the value was escaped in `bad value '3 g\u{200B}'` but not in the reason after it,
  /// which quoted it raw (an ESC as U+FFFD): YarnCore's reasons quote it escaped alike, for
  /// an amount, a duration, a time, CSV columns, a needle size and `convert`.
  @Test func anInvisibleCharacterInTheReasonIsEscapedAsInTheValue() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["project", "add", "Hat"])
    let z = "\u{200B}"
    let units = "; accepted units: skeins (skein, sk, ball, hank), grams (g, gram)"
    for (arguments, message) in [
      (
        ["stash", "add", "Rios", "--quantity", "3 g\(z)"],
        "bad value '3 g\\u{200B}' for --quantity: \"3 g\\u{200B}\" has an unknown unit \"g\\u{200B}\"\(units)"
      ),
      (
        ["stash", "add", "Rios", "--length-per-skein", "x\u{1B}"],
        "bad value 'x\\u{1B}' for --length-per-skein: \"x\\u{1B}\" has no number\(units)"
      ),
      (
        ["stash", "add", "Rios", "--price", "3 U\(z)SD"],
        "bad value '3 U\\u{200B}SD' for --price: \"U\\u{200B}SD\" is not a currency code (three letters"
      ),
      (
        ["time", "add", "Hat", "--duration", "1h\(z)"],
        "bad value '1h\\u{200B}' for --duration: cannot read the duration \"1h\\u{200B}\"; use 1h30m"
      ),
      (
        ["time", "add", "Hat", "--from", "14:3\(z)", "--duration", "1h"],
        "bad value '14:3\\u{200B}' for --from: cannot read the time \"14:3\\u{200B}\"; use 14:30"
      ),
      (
        ["stash", "export", "--columns", "Name,Na\(z)me"],
        "bad value 'Name,Na\\u{200B}me' for --columns: unknown column \"Na\\u{200B}me\"; the columns are: Name,"
      ),
      (
        ["project", "add", "Flax", "--needle", "4\(z)"],
        "bad value '4\\u{200B}' for --needle: \"4\\u{200B}\" is not a needle or hook size"
      ),
      (
        ["convert", "US 4\(z)", "--to", "mm"],
        "bad value 'US 4\\u{200B}' for <amount-or-size>: \"US 4\\u{200B}\" is not a US needle size"
      ),
      (
        ["convert", "3\(z) g", "--to", "m"],
        "bad value '3\\u{200B} g' for <amount-or-size>: \"3\\u{200B} g\" has an unknown unit \"\\u{200B} g\"\(units)"
      ),
    ] {
      let result = try yarn.run(arguments)
      #expect(result.status == 64, "\(arguments): \(result.stderr)")
      #expect(result.stderr.hasPrefix("error: " + message), "\(arguments): \(result.stderr)")
      let first = result.stderr.prefix { $0 != "\n" }
      #expect(!first.unicodeScalars.contains { $0 == "\u{200B}" || $0 == "\u{1B}" || $0 == "\u{FFFD}" })
    }
  }

  /// QA: a value of 5,000 characters was quoted whole, up to three times on one line (a
  /// 15 KB message): the `bad value` quote and YarnCore's reasons quote its first 80
  /// characters and `…`, for every option.
  @Test func aLongValueIsQuotedByItsStart() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["project", "add", "Hat"])
    let long = "1" + String(repeating: "x", count: 5000)
    let start = "1" + String(repeating: "x", count: 79) + "…"
    let x80 = String(repeating: "x", count: 80) + "…"
    for (arguments, message) in [
      (
        ["stash", "add", "A", "--quantity", long + " g"],
        "bad value '\(start)' for --quantity: \"\(start)\" has an unknown unit \"\(x80)\"; accepted units: "
      ),
      (
        ["stash", "add", "A", "--price", long],
        "bad value '\(start)' for --price: \"\(x80)\" is not a currency code (three letters"
      ),
      (["stash", "add", "A", "--weight", long], "bad value '\(start)' for --weight: expected a yarn weight"),
      (
        ["time", "add", "Hat", "--duration", long],
        "bad value '\(start)' for --duration: cannot read the duration \"\(start)\"; use 1h30m"
      ),
      (
        ["project", "edit", "Hat", "--needle", long],
        "bad value '\(start)' for --needle: \"\(start)\" is not a needle or hook size"
      ),
      (
        ["project", "edit", "Hat", "--tool", long, "--remove-tool", long],
        "give '--tool' or '--remove-tool', not both: both name “\(start)”\n"
      ),
      (
        ["project", "edit", "Hat", "--remove-tool", long, "--remove-tool", long],
        "bad value '\(start)' for --remove-tool: the tool “\(start)” is given twice; name each tool to "
          + "remove once (given already as \"\(start)\")\n"
      ),
    ] {
      let result = try yarn.run(arguments)
      #expect(result.status == 64, "\(arguments): \(result.stderr)")
      #expect(result.stderr.hasPrefix("error: " + message), "\(arguments): \(result.stderr.prefix(400))")
      #expect(result.stderr.count < 1000, "\(arguments)")
    }
  }

  @Test func stashImportRefusesANameWithANulOrALineBreak() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    _ = try yarn.file(
      "in.csv",
      Data("Name,Brand\r\n\"Nul\u{0}Yarn\",Drops\r\n\"Two\nLines\",Drops\r\n\" Rios \",Malabrigo\r\n".utf8))
    let result = try yarn.run(["stash", "import", "in.csv"])
    #expect(result.status == 65)
    #expect(
      result.stderr == """
        error: in.csv: 2 bad rows; nothing was imported:
          line 2, column "Name": holds a NUL character (U+0000), a control character, which is not allowed
          line 3, column "Name": holds a line break (U+000A); it must be one line
        hint: fix or remove these rows and import again

        """)
    #expect(!FileManager.default.fileExists(atPath: yarn.library.path))
    _ = try yarn.file("good.csv", Data("Name,Brand\r\n\" Rios \", Malabrigo\r\n".utf8))
    try yarn.ok(["stash", "import", "good.csv"])
    let shown = try #require(try yarn.ok(["--json", "stash", "show", "Rios"]).json() as? [String: Any])
    #expect(shown["name"] as? String == "Rios")
    #expect(shown["brand"] as? String == "Malabrigo")
  }
}
