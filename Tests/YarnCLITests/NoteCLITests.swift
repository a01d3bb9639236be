import Foundation
import Testing

/// `yarn note add | list | show | edit | rm`, and notes in `stash show --json` and
/// `project show --json`.
@Suite struct NoteCLITests {
  /// The notes of the library as `note list --json` gives them.
  private func notes(_ yarn: YarnRunner, _ extra: [String] = []) throws -> [[String: Any]] {
    try #require(try yarn.ok(["note", "list", "--json"] + extra).json() as? [[String: Any]])
  }

  @Test func everyNoteCanBeListedShownEditedAndRemoved() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios"])
    try yarn.ok(["project", "add", "Flax"])
    try yarn.ok(["note", "add", "--yarn", "Rios", "soft, pills a little\nafter washing: fine"])
    try yarn.ok(["note", "add", "--project", "Flax", "sleeves 2 rows shorter"])

    let all = try notes(yarn)
    #expect(
      all.map { $0["text"] as? String } == [
        "soft, pills a little\nafter washing: fine", "sleeves 2 rows shorter",
      ])
    #expect(
      try notes(yarn, ["--project", "Flax"]).map { $0["text"] as? String } == ["sleeves 2 rows shorter"])
    let table = try yarn.ok(["note", "list"]).stdout
    #expect(table.contains("yarn Rios"))
    #expect(table.contains("soft, pills a little …"))  // the first line, more marked
    #expect(table.contains("project Flax"))
    // A CRLF ends the first line too: the cell is the line, marked, with nothing of the break.
    try yarn.ok(["note", "add", "--project", "Flax", "row 12\r\nrow 13"])
    #expect(try yarn.ok(["note", "list", "--project", "Flax"]).stdout.contains(" row 12 …\n"))
    // One subject's notes only; the columns line up (the table measures, then prints).
    let riosTable = try yarn.ok(["note", "list", "--yarn", "Rios"]).stdout.split(separator: "\n")
    #expect(riosTable.count == 2)
    #expect(riosTable.first?.hasPrefix("ID") == true)
    let aboutColumn = try #require(riosTable[0].range(of: "ABOUT")?.lowerBound.utf16Offset(in: riosTable[0]))
    #expect(riosTable[1].range(of: "yarn Rios")?.lowerBound.utf16Offset(in: riosTable[1]) == aboutColumn)

    let id = try #require(all[0]["id"] as? String)
    let prefix = String(id.prefix(6))
    let shown = try yarn.ok(["note", "show", prefix]).stdout
    #expect(shown.contains("About:        yarn Rios"))
    #expect(shown.hasSuffix("soft, pills a little\nafter washing: fine\n"))

    let edited = try #require(
      try yarn.ok(["note", "edit", prefix, "blooms", "after", "washing", "--json"]).json() as? [String: Any])
    #expect(edited["id"] as? String == id)
    #expect(edited["text"] as? String == "blooms after washing")
    #expect(edited["created"] as? String == all[0]["created"] as? String)
    #expect(edited["yarnID"] as? String == all[0]["yarnID"] as? String)
    // The same text again changes nothing: no undo step, and it says so.
    let steps = try yarn.ok(["undo", "--list", "--json"]).stdout
    let same = try yarn.ok(["note", "edit", prefix, "blooms after washing"])
    #expect(same.stderr == "note \(id.prefix(8)) already says that; nothing changed\n")
    #expect(try yarn.ok(["undo", "--list", "--json"]).stdout == steps)

    // stash show --json carries the yarn's notes; project show --json the project's.
    let rios = try #require(try yarn.ok(["stash", "show", "Rios", "--json"]).json() as? [String: Any])
    #expect((rios["notes"] as? [[String: Any]])?.map { $0["text"] as? String } == ["blooms after washing"])
    let flax = try #require(try yarn.ok(["project", "show", "Flax", "--json"]).json() as? [String: Any])
    #expect((flax["notes"] as? [[String: Any]])?.count == 2)

    let removed = try #require(try yarn.ok(["note", "rm", id, "--json"]).json() as? [String: Any])
    #expect(removed["text"] as? String == "blooms after washing")
    #expect(try notes(yarn).count == 2)
  }

  @Test func badReferencesAndTextChangeNothing() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios"])
    try yarn.ok(["note", "add", "--yarn", "Rios", "keep me"])
    let before = try notes(yarn)
    let id = try #require(before.first?["id"] as? String)

    for (command, status, words) in [
      (["note", "show", "zzzz"], Int32(65), "no note with id zzzz"),
      (["note", "rm", "ab"], 65, "an ID prefix of at least 4 characters"),  // too short
      (
        ["note", "edit", "097", "x"], 65,
        "error: \"097\" is too short to name a note: give its ID or 4 or more of its first characters\n"
      ),
      // The hint of sessions, from the one place (`ErrorPresenter.idPrefixHint`).
      (
        ["note", "show", "097"], 65,
        "\nhint: name a note by its ID or an ID prefix of at least 4 characters; see '\(yarn.command("note list"))'\n"
      ),
      (["note", "edit", id, ""], 64, "for <text>: is blank"),
      (["note", "edit", id], 64, "missing argument <text>"),
      (["note", "list", "--yarn", "Nope"], 65, "no yarn matches 'Nope'"),
      (["note", "list", "--yarn", "Rios", "--project", "X"], 64, "exactly one of --project or --yarn"),
    ] {
      let result = try yarn.run(command)
      #expect(result.status == status, "\(command): \(result.stderr)")
      #expect(result.stderr.contains(words), "\(command): \(result.stderr)")
    }
    #expect(try notes(yarn).map { $0["text"] as? String } == before.map { $0["text"] as? String })
    #expect(try notes(yarn).map { $0["modified"] as? String } == before.map { $0["modified"] as? String })
  }

  @Test func anEmptyLibraryHasNoNotes() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    #expect(try notes(yarn).isEmpty)
    let listed = try yarn.ok(["note", "list"])
    #expect(listed.stdout.isEmpty)
    #expect(listed.stderr.contains("no notes yet"))
    #expect(try yarn.ok(["note", "list", "--json"]).stdout == "[\n\n]\n")
    // A subject without notes: an empty list, said as such.
    try yarn.ok(["stash", "add", "Rios"])
    let aboutRios = try yarn.ok(["note", "list", "--yarn", "Rios"])
    #expect(aboutRios.stdout.isEmpty)
    #expect(aboutRios.stderr == "no notes about yarn Rios\n")
  }

  /// In a narrow terminal ABOUT is cut keeping the name: a cell that must be cut loses its
  /// kind word first (`Hitchhi…`, where it was `project…`); one that fits is as it is, and
  /// output that is not fitted (piped) is unchanged.
  @Test func aNarrowTerminalKeepsTheNameOfWhatANoteIsAbout() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["project", "add", "Hitchhiker shawl with a long name"])
    try yarn.ok(["stash", "add", "Rios"])
    try yarn.ok(["note", "add", "--project", "Hitchhiker", "soft and warm"])
    try yarn.ok(["note", "add", "--yarn", "Rios", "pills"])
    let piped = try yarn.ok(["note", "list"]).stdout.split(separator: "\n").map { $0.dropFirst(10) }
    #expect(piped[1].hasPrefix("project Hitchhiker shawl with a long name  "))
    #expect(piped[2].hasPrefix("yarn Rios                                  "))
    // 40 columns: ID 8, ABOUT and NOTE at their fewest (8), WRITTEN 16, 2 between.
    let narrow = try yarn.run(["note", "list"], environment: ["COLUMNS": "40", "YARN_FORCE_TERMINAL": "1"])
    #expect(narrow.status == 0)
    let lines = narrow.stdout.split(separator: "\n").map { $0.dropFirst(10) }
    #expect(lines.count == 3)
    #expect(lines[0].hasPrefix("ABOUT     WRITTEN"))
    #expect(lines[1].hasPrefix("Hitchhi…  "), "\(narrow.stdout)")
    #expect(lines[1].hasSuffix("  soft an…"), "\(narrow.stdout)")
    #expect(lines[2].hasPrefix("Rios      "), "\(narrow.stdout)")  // `yarn Rios` is 9 columns
    #expect(lines[2].hasSuffix("  pills"))
    // 60 columns: ABOUT gets 60 - 8 - 16 - 13 - 6 = 17; `yarn Rios` fits as it is.
    let wider = try yarn.run(["note", "list"], environment: ["COLUMNS": "60", "YARN_FORCE_TERMINAL": "1"])
    let wide = wider.stdout.split(separator: "\n").map { $0.dropFirst(10) }
    #expect(wide[1].hasPrefix("Hitchhiker shawl…  "), "\(wider.stdout)")
    #expect(wide[2].hasPrefix("yarn Rios          "), "\(wider.stdout)")
    for line in narrow.stdout.split(separator: "\n") + wider.stdout.split(separator: "\n") {
      #expect(line.count <= 60)
    }
  }
}
