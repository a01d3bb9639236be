import Foundation
import Testing

@testable import YarnCore
@testable import YarnStore

/// `yarn undo` and `yarn redo`: every kind of change a command makes is reversed exactly, and
/// the refusals say why.
@Suite struct UndoCLITests {
  /// The library's items as JSON (the document a backup holds): what undo must give back.
  func items(_ yarn: YarnRunner) throws -> Data {
    // Read-only: a library not yet made reads as empty, as it is after undoing its first change.
    let store = try LibraryStore(directory: yarn.library, mode: .readOnly)
    defer { try? store.close() }
    return try JSONCoding.encoder().encode(try store.library())
  }

  /// Runs `arguments`, then `yarn undo`: the library holds what it held before, and the undo
  /// names the command. Then `yarn redo` gives back what the command made.
  func expectUndone(
    _ arguments: [String], in yarn: YarnRunner, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let before = try items(yarn)
    try yarn.ok(arguments, sourceLocation: sourceLocation)
    let after = try items(yarn)
    #expect(after != before, "\(arguments) changed nothing", sourceLocation: sourceLocation)
    let undo = try yarn.ok(["undo"], sourceLocation: sourceLocation)
    #expect(
      undo.stderr.hasPrefix("undid \"yarn \(arguments[0]) "),
      "\(undo.stderr)", sourceLocation: sourceLocation)
    #expect(try items(yarn) == before, "undo of \(arguments)", sourceLocation: sourceLocation)
    try yarn.ok(["redo"], sourceLocation: sourceLocation)
    #expect(try items(yarn) == after, "redo of \(arguments)", sourceLocation: sourceLocation)
  }

  @Test func everyKindOfChangeIsUndoneAndRedone() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let photo = try yarn.file("swatch.jpg", YarnRunner.jpeg("abc"))
    let pdf = try yarn.file("hat.pdf", Data("%PDF-1.4\n".utf8))
    try expectUndone(
      ["stash", "add", "Rios", "--brand", "Malabrigo", "--quantity", "3 skeins"], in: yarn)
    try expectUndone(["stash", "edit", "Rios", "--colorway", "Azul"], in: yarn)
    try expectUndone(["stash", "edit", "Rios", "--stashed", "no"], in: yarn)
    try expectUndone(["stash", "attach", "Rios", photo.path], in: yarn)
    try expectUndone(["stash", "detach", "Rios", "swatch.jpg"], in: yarn)
    try expectUndone(["note", "add", "--yarn", "Rios", "soft"], in: yarn)
    try expectUndone(["project", "add", "Hat", "--status", "in-progress"], in: yarn)
    try expectUndone(["project", "use", "Hat", "Rios", "50 g"], in: yarn)
    try expectUndone(["project", "use", "Hat", "Rios", "80 g", "--set"], in: yarn)
    try expectUndone(["project", "attach", "Hat", pdf.path, "--pattern"], in: yarn)
    try expectUndone(["project", "edit", "Hat", "--status", "finished"], in: yarn)
    try expectUndone(["project", "unuse", "Hat", "Rios"], in: yarn)
    let noteID = try #require(
      (try yarn.ok(["note", "list", "--json"]).json() as? [[String: Any]])?.first?["id"] as? String)
    try expectUndone(["note", "edit", String(noteID.prefix(8)), "softer"], in: yarn)
    try expectUndone(["note", "rm", String(noteID.prefix(8))], in: yarn)
    try expectUndone(
      ["time", "add", "Hat", "--from", "2026-03-29 14:30", "--to", "2026-03-29 15:00"], in: yarn)
    let sessionID = try #require(
      (try yarn.ok(["time", "log", "--json"]).json() as? [[String: Any]])?.first?["id"] as? String)
    try expectUndone(["time", "edit", sessionID, "--to", "2026-03-29 15:15"], in: yarn)
    try expectUndone(["time", "rm", sessionID], in: yarn)
    // Each redo makes the change again: the timer runs after the first, stops after the second.
    try expectUndone(["time", "start", "Hat", "--at", "-50m"], in: yarn)
    try expectUndone(["time", "stop", "--at", "-5m"], in: yarn)
    try yarn.ok(["time", "start", "Hat", "--at", "-2m"])
    try expectUndone(["time", "cancel"], in: yarn)
    let csv = try yarn.file("in.csv", Data("Name,Brand\nArroyo,Malabrigo\nWorsted,Cascade\n".utf8))
    try expectUndone(["stash", "import", csv.path], in: yarn)
    try yarn.ok(["backup", "create", "b.zip"])
    try yarn.ok(["stash", "add", "Tosh Merino"])
    try expectUndone(["project", "rm", "Hat", "--force"], in: yarn)
    try expectUndone(["stash", "rm", "Rios", "--force"], in: yarn)
    try expectUndone(["backup", "restore", "b.zip", "--merge"], in: yarn)
  }

  /// An import that creates the library, from a file larger than the pieces it is read in,
  /// is one change: undo leaves an empty library, redo makes every yarn and note again.
  @Test func anImportIntoANewLibraryIsUndoneWhole() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    var csv = "ID,Name,Colorway,Quantity,Notes\r\n"
    for row in 1...4000 {
      let note = row % 4 == 0 ? "\"a note,\r\nover two lines\"" : ""
      csv += "\(row % 2 == 0 ? "id-\(row)" : ""),Yarn \(row),Blue,\(row % 5 + 1) skeins,\(note)\r\n"
    }
    #expect(csv.utf8.count > 2 * 65_536)
    let file = try yarn.file("stash.csv", Data(csv.utf8))
    try expectUndone(["stash", "import", file.path], in: yarn)
    let store = try LibraryStore(directory: yarn.library, mode: .readOnly)
    defer { try? store.close() }
    #expect(try store.yarns().count == 4000 && store.notes().count == 1000)
  }

  @Test func undoingARemovalBringsBackItsPhotoAndNotes() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios"])
    try yarn.ok(["stash", "attach", "Rios", try yarn.file("swatch.jpg", YarnRunner.jpeg("abc")).path])
    try yarn.ok(["note", "add", "--yarn", "Rios", "pools", "in", "stripes"])
    let shown = try yarn.ok(["stash", "show", "Rios", "--json"]).stdout
    try yarn.ok(["stash", "rm", "Rios", "--force"])
    #expect(try yarn.run(["stash", "show", "Rios"]).status == 65)

    let undo = try yarn.ok(["undo"]).stderr
    #expect(
      undo.hasPrefix("undid \"yarn stash rm Rios --force\" (made "))
    // The local time (TZ=UTC) it was made, then what it had done.
    #expect(undo.hasSuffix("); it had removed 1 yarn, 1 note and 1 photo\n"), "\(undo)")
    #expect(try yarn.ok(["stash", "show", "Rios", "--json"]).stdout == shown)
    // SHA-256 of FF D8 FF E0 "abc" (Python's hashlib): the photo's bytes are back too.
    let digest = "964dbefaad551579b528d6dcd6d448aecba5f9017e9bf4c291c257aa10389b78"
    let file = yarn.library.appendingPathComponent("attachments/96/" + digest)
    #expect(try Data(contentsOf: file) == YarnRunner.jpeg("abc"))
  }

  /// What a change did is counted as people see it: one more photo or usage is one added,
  /// whatever rows are written again, and a label's line break is shown as a space.
  @Test func aChangeIsDescribedByWhatItDidToTheItems() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios"])
    try yarn.ok(["stash", "add", "Arroyo"])
    try yarn.ok(["project", "add", "Hat"])
    try yarn.ok(["stash", "attach", "Rios", try yarn.file("a.jpg", YarnRunner.jpeg("abc")).path])
    try yarn.ok(["stash", "attach", "Rios", try yarn.file("b.jpg", YarnRunner.jpeg("xyz")).path])
    #expect(try yarn.ok(["undo"]).stderr.hasSuffix("; it had added 1 photo\n"))
    try yarn.ok(["redo"])
    try yarn.ok(["stash", "detach", "Rios", "a.jpg"])  // b.jpg moves to the first place
    #expect(try yarn.ok(["undo"]).stderr.hasSuffix("; it had changed 1 photo; removed 1 photo\n"))
    try yarn.ok(["project", "use", "Hat", "Rios", "50 g"])
    try yarn.ok(["project", "use", "Hat", "Arroyo", "20 g"])
    #expect(try yarn.ok(["undo"]).stderr.hasSuffix("; it had added 1 yarn usage\n"))
    try yarn.ok(["project", "use", "Hat", "Rios", "80 g", "--set"])
    #expect(try yarn.ok(["undo"]).stderr.hasSuffix("; it had changed 1 yarn usage\n"))
    // QA: removing the first of several usages listed the later ones moving up as changed
    // ("changed 2 yarn usages; removed 1 yarn usage"); it removed one. Its undo puts the
    // usages back in their order.
    try yarn.ok(["stash", "add", "Puno", "-q"])
    try yarn.ok(["project", "use", "Hat", "Arroyo", "20 g"])
    try yarn.ok(["project", "use", "Hat", "Puno", "30 g"])
    let before = try yarn.ok(["project", "show", "Hat", "--json"]).stdout
    try yarn.ok(["project", "unuse", "Hat", "Rios"])
    let listed = try #require(try yarn.ok(["undo", "--list", "--json"]).json() as? [[String: Any]])
    let effects = try #require(listed.first?["effects"] as? [[String: Any]])
    #expect(effects.count == 1, "\(effects)")
    #expect(effects.first?["item"] as? String == "yarn usage")
    #expect(effects.first?["action"] as? String == "removed")
    #expect(effects.first?["count"] as? Int == 1)
    #expect(try yarn.ok(["undo"]).stderr.hasSuffix("; it had removed 1 yarn usage\n"))
    #expect(try yarn.ok(["project", "show", "Hat", "--json"]).stdout == before)
    #expect(try yarn.ok(["redo"]).stderr.hasSuffix(", which removed 1 yarn usage\n"))
    // A usage changed in the middle is one changed, not it and those after it.
    try yarn.ok(["undo"])
    try yarn.ok(["project", "use", "Hat", "Arroyo", "25 g", "--set"])
    #expect(try yarn.ok(["undo"]).stderr.hasSuffix("; it had changed 1 yarn usage\n"))
    // QA: a yarn used several times, unused: its usages were removed, those of the others
    // only moved ("changed 1 yarn usage; removed 2 yarn usages" for A, B, A).
    for (uses, removed) in [
      (["Rios", "Puno", "Rios"], 2), (["Rios", "Puno", "Arroyo", "Rios", "Puno", "Rios"], 3),
    ] {
      try yarn.ok(["project", "add", "Cowl", "-q"])
      for (index, name) in uses.enumerated() {
        try yarn.ok(["project", "use", "Cowl", name, "\(index + 1) g"])
      }
      let used = try yarn.ok(["project", "show", "Cowl", "--json"]).stdout
      try yarn.ok(["project", "unuse", "Cowl", "Rios"])
      #expect(
        try yarn.ok(["undo"]).stderr.hasSuffix("; it had removed \(removed) yarn usages\n"), "\(uses)")
      #expect(try yarn.ok(["project", "show", "Cowl", "--json"]).stdout == used)
      try yarn.ok(["project", "rm", "Cowl", "--force"])
    }
    try yarn.ok(["note", "add", "--yarn", "Rios", "two\nlines"])
    let undo = try yarn.ok(["undo"]).stderr
    #expect(undo.contains("note add --yarn Rios 'two\\nlines'\" (made "), "\(undo)")
  }

  /// QA: the undo and redo confirmations printed the stored command line raw (a line break
  /// as a space): a U+202E RIGHT-TO-LEFT OVERRIDE in it reversed the rest of the terminal
  /// line. It is quoted as every message quotes a value (`LineText.quoted`): escaped, and a
  /// long one by its first 80 characters, as an undo's refusal quotes it.
  @Test func theCommandLineUndoneIsShownEscaped() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios"])
    try yarn.ok(["note", "add", "--yarn", "Rios", "x\u{202E}y\tz"])
    let shown = "\"yarn note add --yarn Rios 'x\\u{202E}y\\tz'\" (made "
    let undo = try yarn.ok(["undo"]).stderr
    #expect(undo.hasPrefix("undid " + shown), "\(undo)")
    let redo = try yarn.ok(["redo"]).stderr
    #expect(redo.hasPrefix("redid " + shown), "\(redo)")
    #expect(!(undo + redo).unicodeScalars.contains { $0 == "\u{202E}" || $0 == "\t" })
    // `yarn note add --yarn Rios ` is 26 characters: 54 of the x's follow, then `…`.
    try yarn.ok(["note", "add", "--yarn", "Rios", String(repeating: "x", count: 200)])
    #expect(
      try yarn.ok(["undo"]).stderr.hasPrefix(
        "undid \"yarn note add --yarn Rios \(String(repeating: "x", count: 54))…\" (made "))
  }

  /// An edit that changes nothing says so, and is no change: the next undo reverses the
  /// change before it, which the message had made plain.
  @Test func anEditThatChangesNothingSaysSo() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios", "--colorway", "Red"])
    try yarn.ok(["project", "add", "Hat", "--craft", "knitting"])
    let yarnID = try #require(
      (try yarn.ok(["stash", "show", "Rios", "--json"]).json() as? [String: Any])?["id"] as? String)
    #expect(
      try yarn.ok(["stash", "edit", "Rios", "--colorway", "Red"]).stderr
        == "yarn Rios (\(yarnID.prefix(8))) already had those values; nothing changed\n")
    #expect(
      try yarn.ok(["project", "edit", "Hat", "--craft", "knitting"]).stderr.hasSuffix(
        " already had those values; nothing changed\n"))
    #expect(
      try yarn.ok(["stash", "edit", "Rios", "--colorway", "Blue"]).stderr.hasPrefix("updated yarn Rios"))
    #expect((try yarn.ok(["undo", "--list", "--json"]).json() as? [Any])?.count == 3)
    // QA: a session's edit printed the session as changed.
    let session = try #require(
      (try yarn.ok(["time", "add", "Hat", "--from", "2026-03-29T14:00:00Z", "--duration", "1h", "--json"])
        .json()
        as? [String: Any])?["id"] as? String)
    #expect(try yarn.ok(["time", "edit", session, "--note", "cuffs"]).stderr.hasPrefix("session "))
    let same = try yarn.ok(["time", "edit", session, "--note", "cuffs", "--from", "2026-03-29T14:00:00Z"])
    #expect(same.stderr == "session \(session.prefix(8)) on Hat already had those values; nothing changed\n")
    #expect((try yarn.ok(["undo", "--list", "--json"]).json() as? [Any])?.count == 5)
  }

  @Test func theLabelIsTheCommandLineWithoutTheLibrary() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios", "--brand=Malabrigo Yarn", "--library=\(yarn.library.path)"])
    let list = try yarn.ok(["undo", "--list", "--json"]).json() as? [[String: Any]]
    #expect(list?.first?["label"] as? String == "yarn stash add Rios '--brand=Malabrigo Yarn'")
    #expect(list?.first?["detail"] is NSNull)
  }

  @Test func aRemovalWhosePhotoFileWasDeletedOutsideYarnIsNotUndone() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios"])
    try yarn.ok(["stash", "attach", "Rios", try yarn.file("a.jpg", YarnRunner.jpeg("abc")).path])
    try yarn.ok(["stash", "rm", "Rios", "--force"])
    // SHA-256 of FF D8 FF E0 "abc" (Python's hashlib).
    let digest = "964dbefaad551579b528d6dcd6d448aecba5f9017e9bf4c291c257aa10389b78"
    try FileManager.default.removeItem(
      at: yarn.library.appendingPathComponent("attachments/96/" + digest))
    let before = try items(yarn)
    let undo = try yarn.run(["undo"])
    #expect(undo.status == 65)
    #expect(
      undo.stderr.hasPrefix(
        "error: cannot reverse \"yarn stash rm Rios --force\": the "
          + "library was changed outside yarn since (the file of attachment \(digest) is missing "
          + "from attachments/)\nhint: the library is as it was; put back what was changed outside "
          + "yarn (a backup holds it) and undo again, or go on without undoing this change\n"),
      "\(undo.stderr)")
    #expect(try items(yarn) == before)
  }

  @Test func theListShowsWhatCanBeRedoneThenWhatCanBeUndone() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    #expect(try yarn.ok(["undo", "--list", "--json"]).stdout == "[\n\n]\n")
    try yarn.ok(["stash", "add", "Rios"])
    try yarn.ok(["stash", "add", "Arroyo"])
    try yarn.ok(["stash", "edit", "Rios", "--brand", "Malabrigo"])
    try yarn.ok(["undo"])
    let list = try #require(try yarn.ok(["undo", "--list", "--json"]).json() as? [[String: Any]])
    let prefix = "yarn "
    #expect(
      list.map { $0["label"] as? String } == [
        prefix + "stash edit Rios --brand Malabrigo", prefix + "stash add Arroyo",
        prefix + "stash add Rios",
      ])
    #expect(list.map { $0["stack"] as? String } == ["redo", "undo", "undo"])
    let effects = list.first?["effects"] as? [[String: Any]]
    #expect(effects?.count == 1)
    #expect(effects?.first?["item"] as? String == "yarn")
    #expect(effects?.first?["action"] as? String == "changed")
    #expect(effects?.first?["count"] as? Int == 1)

    let table = try yarn.ok(["undo", "--list"]).stdout.split(separator: "\n")
    #expect(table.count == 4)
    #expect(table[0].hasPrefix("UNDO  MADE"))
    #expect(table[1].hasPrefix("redo  "))
    #expect(table[1].hasSuffix("stash edit Rios --brand Malabrigo  changed 1 yarn"))
    #expect(table[2].hasPrefix("1     "))
    #expect(table[2].hasSuffix("stash add Arroyo                   added 1 yarn"))
    #expect(table[3].hasPrefix("2     "))
  }

  /// Runs `sql` on the library's database past yarn, as the sqlite3 shell would: the
  /// history's triggers record it, and nothing gathers it into a change.
  func changeOutsideYarn(_ yarn: YarnRunner, _ sql: String) throws {
    let path = yarn.library.appendingPathComponent(LibraryStore.databaseFileName).path
    let raw = try Connection(path: path, flags: 0x2)  // READWRITE
    try raw.execute(sql)
    try raw.close()
  }

  @Test func aChangeMadeOutsideYarnEndsWhatCanBeRedone() throws {
    for (sql, did) in [
      ("DELETE FROM yarn WHERE name = 'K'", "removed 1 yarn"),
      ("UPDATE yarn SET colorway = 'B' WHERE name = 'K'", "changed 1 yarn"),
    ] {
      let yarn = try YarnRunner()
      defer { yarn.cleanUp() }
      try yarn.ok(["stash", "add", "K", "--colorway", "Orig"])
      try yarn.ok(["stash", "add", "Other"])
      try yarn.ok(["stash", "edit", "K", "--colorway", "A"])
      try yarn.ok(["undo"])
      try changeOutsideYarn(yarn, sql)
      let outside = try items(yarn)
      let redo = try yarn.run(["redo"])
      #expect(redo.status == 65, "\(sql)")
      #expect(
        redo.stderr
          == "error: nothing to redo: no undone change is waiting (a change made after an undo "
          + "ends them)\nhint: see '\(yarn.command("undo --list"))'\n", "\(sql)")
      #expect(try items(yarn) == outside, "\(sql)")
      // The outside change is undone, giving back K as it was before it: not the undone edit.
      let undo = try yarn.ok(["undo"])
      #expect(undo.stderr.hasPrefix("undid \"changes made outside yarn\" (made "), "\(undo.stderr)")
      #expect(undo.stderr.hasSuffix("; it had \(did)\n"), "\(undo.stderr)")
      let shown = try yarn.ok(["stash", "show", "K", "--json"]).json() as? [String: Any]
      #expect(shown?["colorway"] as? String == "Orig", "\(sql)")
      try yarn.ok(["redo"])
      #expect(try items(yarn) == outside, "\(sql)")
    }
  }

  @Test func theListShowsAChangeMadeOutsideYarnFirstBeforeAnyCommandWrites() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "A"])
    try changeOutsideYarn(yarn, "UPDATE yarn SET name = 'B'")
    let list = try #require(try yarn.ok(["undo", "--list", "--json"]).json() as? [[String: Any]])
    #expect(
      list.map { $0["label"] as? String } == ["changes made outside yarn", "yarn stash add A"])
    #expect(list.map { $0["stack"] as? String } == ["undo", "undo"])
    #expect(list.map { $0["id"] as? Int } == [2, 1])
    let table = try yarn.ok(["undo", "--list"]).stdout.split(separator: "\n")
    #expect(table.count == 3)
    #expect(table[1].hasPrefix("1     "))
    #expect(table[1].hasSuffix("  changes made outside yarn  changed 1 yarn"))
    #expect(table[2].hasPrefix("2     "))
    #expect(table[2].hasSuffix("  yarn stash add A           added 1 yarn"))
    // As listed, undo reverses it first.
    let undo = try yarn.ok(["undo"])
    #expect(undo.stderr.hasPrefix("undid \"changes made outside yarn\" (made "), "\(undo.stderr)")
    let shown = try yarn.ok(["stash", "show", "A", "--json"]).json() as? [String: Any]
    #expect(shown?["name"] as? String == "A")
  }

  /// A day written outside yarn that names no day (the CHECK's GLOB lets it by) stops every
  /// command that reads the yarn; the refusal says why and points to undo, which reverses it
  /// (QA: no reason and no way out were given).
  @Test func whatYarnCannotReadPointsToUndo() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Wool", "--added", "2026-02-01"])
    try changeOutsideYarn(yarn, "UPDATE yarn SET date_added = '2026-02-30'")
    let list = try yarn.run(["stash", "list"])
    #expect(list.status == 65)
    // The history recorded the change: it is there to undo.
    let changes = try #require(try yarn.ok(["undo", "--list", "--json"]).json() as? [[String: Any]])
    #expect(
      changes.map { $0["label"] as? String } == [
        "changes made outside yarn", "yarn stash add Wool --added 2026-02-01",
      ])
    #expect(
      list.stderr.contains(
        ": stored day \"2026-02-30\" is not a real YYYY-MM-DD date: day 30 is past the end of February 2026, "
          + "which has 28 days\nhint: the library holds what yarn cannot read, written outside yarn (such as "
          + "with the sqlite3 shell); '\(yarn.command("undo"))' reverses such a change while the history "
          + "holds it, newest first (see '\(yarn.command("undo --list"))'), else correct the value named "
          + "above with the program that wrote it\n"), "\(list.stderr)")
    try yarn.ok(["undo"])
    let shown = try yarn.ok(["stash", "show", "Wool", "--json"]).json() as? [String: Any]
    #expect(shown?["dateAdded"] as? String == "2026-02-01")
  }

  /// A row another writer added gets its name key when yarn gathers the change (an update
  /// in the same change): it is still an added row, in the list and once undone (QA: undo
  /// said "it had changed 2 yarns" of a change listed as "added 1 yarn; changed 1 yarn").
  @Test func aRowAddedOutsideYarnIsCountedAddedOnceItsKeyIsWritten() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "A"])
    try changeOutsideYarn(yarn, "UPDATE yarn SET brand = 'Z'; INSERT INTO yarn (id, name) VALUES ('x1', 'B')")
    let listed = try #require(
      try yarn.ok(["undo", "--list"]).stdout.split(separator: "\n").dropFirst().first)
    #expect(listed.hasSuffix("  changes made outside yarn  added 1 yarn; changed 1 yarn"), "\(listed)")
    let undo = try yarn.ok(["undo"])
    #expect(undo.stderr.hasSuffix("; it had added 1 yarn; changed 1 yarn\n"), "\(undo.stderr)")
    let redo = try yarn.ok(["redo"])
    #expect(redo.stderr.hasSuffix("), which added 1 yarn; changed 1 yarn\n"), "\(redo.stderr)")
  }

  @Test func nothingToUndoOrRedoIsRefused() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let undo = try yarn.run(["undo"])
    #expect(undo.status == 65)
    #expect(
      undo.stderr
        == "error: nothing to undo: the library's history holds no change left to undo\n"
        + "hint: see '\(yarn.command("undo --list"))'\n")
    // Nor is a library made for it.
    #expect(try yarn.run(["redo"]).status == 65)
    #expect(!FileManager.default.fileExists(atPath: yarn.library.path))
    try yarn.ok(["stash", "add", "Rios"])
    let redo = try yarn.run(["redo"])
    #expect(redo.status == 65)
    #expect(
      redo.stderr
        == "error: nothing to redo: no undone change is waiting (a change made after an undo "
        + "ends them)\nhint: see '\(yarn.command("undo --list"))'\n")
    // A change after an undo ends what can be redone.
    try yarn.ok(["undo"])
    try yarn.ok(["stash", "add", "Arroyo"])
    #expect(try yarn.run(["redo"]).status == 65)
    #expect(try yarn.run(["undo", "extra"]).status == 64)
  }

  @Test func aReplaceRestoreIsNotUndoneAndUndoNamesItsSafetyBackup() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios"])
    try yarn.ok(["backup", "create", "b.zip"])
    try yarn.ok(["stash", "add", "Arroyo"])
    let restored = try yarn.ok(["backup", "restore", "b.zip", "--replace", "--json"])
    let safety = try #require(
      (try JSONSerialization.jsonObject(with: Data(restored.stdout.utf8)) as? [String: Any])?[
        "safetyBackup"] as? String)
    let before = try items(yarn)
    let undo = try yarn.run(["undo"])
    #expect(undo.status == 65)
    #expect(
      undo.stderr
        == "error: the last change (\"yarn backup restore b.zip "
        + "--replace --json\") cannot be undone: it replaced the whole library with the backup \(yarn.directory.appendingPathComponent("b.zip").path); the library before it "
        + "is in the safety backup \(safety)\n"
        + "hint: to go back to the library before the restore, restore the safety backup with "
        + "--replace: \(yarn.command("backup restore \(safety) --replace"))\n")
    #expect(try items(yarn) == before)
    let list = try yarn.ok(["undo", "--list", "--json"]).json() as? [[String: Any]]
    #expect(list?.map { $0["stack"] as? String } == ["barrier"])
  }

  /// A command a hint shows repeats the `--library` of the command line, quoted as a shell
  /// needs: typed as shown, it works on the same library (QA: after `yarn --library L undo`
  /// the hint's `yarn backup restore … --replace` would have replaced the default library).
  /// A library of `$YARN_LIBRARY` needs no option: the shell has it.
  @Test func hintsRepeatTheLibraryOption() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let library = yarn.directory.appendingPathComponent("my lib").path
    func run(_ arguments: [String]) throws -> YarnRunner.Result {
      try yarn.run(["--library", library] + arguments, useLibrary: false)
    }
    #expect(try run(["stash", "add", "Rios"]).status == 0)
    #expect(try run(["backup", "create", "b.zip"]).status == 0)
    let restored = try run(["backup", "restore", "b.zip", "--replace", "--json"])
    let safety = try #require(
      (try JSONSerialization.jsonObject(with: Data(restored.stdout.utf8)) as? [String: Any])?[
        "safetyBackup"] as? String)
    #expect(safety.hasPrefix(library + "/safety-backups/"))
    let undo = try run(["undo"])
    #expect(undo.status == 65)
    #expect(
      undo.stderr.hasSuffix(
        "hint: to go back to the library before the restore, restore the safety backup with "
          + "--replace: yarn --library \"\(library)\" backup restore \"\(safety)\" --replace\n"),
      "\(undo.stderr)")
    let stop = try run(["time", "stop"])
    #expect(
      stop.stderr.hasSuffix("hint: start one with 'yarn --library \"\(library)\" time start PROJECT'\n"))
    // From the environment: no option.
    let fromEnvironment = try yarn.run(
      ["time", "stop"], useLibrary: false, environment: ["YARN_LIBRARY": library])
    #expect(fromEnvironment.stderr.hasSuffix("hint: start one with 'yarn time start PROJECT'\n"))
  }
}
