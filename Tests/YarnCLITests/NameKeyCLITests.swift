import Foundation
import Testing

@testable import YarnCLI
@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

/// Yarns and projects are found by their name's key (`name_key`, `Lookup.key`), which the
/// store keeps right through every way a name is written: add, edit, undo, redo, import,
/// restore; the rules of naming are those of `Lookup.find`.
@Suite struct NameKeyCLITests {
  /// The items whose stored key is not their name's (`table id`), read past the store.
  private static func wrongKeys(_ yarn: YarnRunner) throws -> [String] {
    let path = yarn.library.appendingPathComponent(LibraryStore.databaseFileName).path
    let raw = try Connection(path: path, flags: 0x1)  // READONLY
    defer { try? raw.close() }
    var wrong: [String] = []
    for table in ["yarn", "project"] {
      wrong += try raw.query("SELECT id, name, name_key FROM \(table) ORDER BY seq") { row in
        row.text(2) == Lookup.key(row.text(1) ?? "") ? nil : "\(table) \(row.text(0) ?? "")"
      }.compactMap { $0 }
    }
    return wrong
  }

  private static func shownName(_ yarn: YarnRunner, _ arguments: [String]) throws -> String? {
    let shown = try yarn.ok(arguments + ["--json"]).json() as? [String: Any]
    return shown?["name"] as? String
  }

  @Test func aKelvinSignAndNamesInNFDAreFoundAsTyped() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "\u{212A}id Mohair"])  // KELVIN SIGN, lower-cased a k
    try yarn.ok(["stash", "add", "Ne\u{301}ge"])  // NFD
    try yarn.ok(["project", "add", "\u{C5}ngstr\u{F6}m Shawl"])  // NFC
    #expect(try Self.shownName(yarn, ["stash", "show", "KID MOHAIR"]) == "\u{212A}id Mohair")
    #expect(try Self.shownName(yarn, ["stash", "show", "kid"]) == "\u{212A}id Mohair")
    #expect(try Self.shownName(yarn, ["stash", "show", " n\u{E9}ge "]) == "Ne\u{301}ge")
    #expect(try Self.shownName(yarn, ["stash", "show", "NE\u{301}"]) == "Ne\u{301}ge")
    #expect(
      try Self.shownName(yarn, ["project", "show", "a\u{30A}ngstro\u{308}m"])
        == "\u{C5}ngstr\u{F6}m Shawl")
    #expect(try Self.wrongKeys(yarn) == [])
    let missing = try yarn.run(["stash", "show", "Neige"])
    #expect(missing.status == 65)
    #expect(missing.stderr.hasPrefix("error: no yarn matches 'Neige'; did you mean 'Ne\u{301}ge'?\n"))
  }

  /// A character canonically equivalent to an ASCII one (U+037E GREEK QUESTION MARK is `;`)
  /// names the ASCII name exactly, not a longer name it begins; a reference of 60,000
  /// characters is simply not found (SQLite's LIKE refused patterns over 50,000 bytes).
  @Test func equivalentCharactersAndVeryLongReferences() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Semi;colon"])
    try yarn.ok(["stash", "add", "Semi;colon ü"])
    #expect(
      try yarn.ok(["stash", "show", "Semi\u{37E}colon"]).stdout.hasPrefix("Name:         Semi;colon\n"))
    let long = try yarn.run(["stash", "show", String(repeating: "a", count: 60_000)])
    #expect(long.status == 65)
    #expect(long.stderr.hasPrefix("error: no yarn matches 'aaaa"))
  }

  /// QA: `stash show` of a name of 5,000 characters quoted all of it in its error, as did
  /// `note add --yarn`: a reference not found is quoted by its first 40 characters and `…`,
  /// by the tool's lookups and by YarnCore's (a note, a session).
  @Test func aLongReferenceNotFoundIsQuotedByItsStart() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios"])
    let long = String(repeating: "x", count: 4_999) + "\u{1B}"
    let start = String(repeating: "x", count: 40) + "…"
    for (arguments, message) in [
      (["stash", "show", long], "no yarn matches '\(start)'"),
      (["note", "add", "--yarn", long, "hello"], "no yarn matches '\(start)'"),
      (["project", "show", long], "no project matches '\(start)'"),
      (["note", "show", long], "no note with id \(start) in the library"),
      (["time", "rm", long], "no session has the id or id prefix \"\(start)\""),
    ] {
      let result = try yarn.run(arguments)
      #expect(result.status == 65, "\(arguments.prefix(2))")
      #expect(
        result.stderr.hasPrefix("error: \(message)\n"), "\(arguments.prefix(2)): \(result.stderr.prefix(300))"
      )
    }
  }

  @Test func aPrefixSharedBySeveralIsAmbiguousAndAnExactNameWins() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    for name in ["Malabrigo Rios", "Mala", "Malabrigo Sock", "malabrigo"] {
      try yarn.ok(["stash", "add", name])
    }
    try yarn.ok(["stash", "add", "Mal\u{E0}"])  // shares the key prefix "mal", not "mala"
    // The names equal to the reference, before any name it begins.
    #expect(try Self.shownName(yarn, ["stash", "show", "MALA"]) == "Mala")
    #expect(try Self.shownName(yarn, ["stash", "show", "mala "]) == "Mala")
    #expect(try Self.shownName(yarn, ["stash", "show", "MALABRIGO "]) == "malabrigo")
    let several = try yarn.run(["stash", "show", "Malab"])
    #expect(several.status == 64)
    #expect(several.stderr.contains("'Malab' matches 3 yarns: "))
    for name in ["(Malabrigo Rios)", "(Malabrigo Sock)", "(malabrigo)"] {
      #expect(several.stderr.contains(name), "\(name)")
    }
    let all = try yarn.run(["stash", "show", "Mal"])
    #expect(all.stderr.contains("'Mal' matches 5 yarns: "))
    #expect(try Self.shownName(yarn, ["stash", "show", "malabrigo s"]) == "Malabrigo Sock")
  }

  @Test func theKeyFollowsARenameItsUndoAndItsRedo() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios"])
    try yarn.ok(["project", "add", "Flax"])
    try yarn.ok(["stash", "edit", "Rios", "--name", "Arroyo"])
    try yarn.ok(["project", "edit", "Flax", "--name", "Hitchhiker"])
    #expect(try Self.wrongKeys(yarn) == [])
    #expect(try Self.shownName(yarn, ["stash", "show", "arroyo"]) == "Arroyo")
    #expect(try yarn.run(["stash", "show", "Rios"]).status == 65)
    #expect(try Self.shownName(yarn, ["project", "show", "hitch"]) == "Hitchhiker")
    try yarn.ok(["undo"])
    try yarn.ok(["undo"])
    #expect(try Self.wrongKeys(yarn) == [])
    #expect(try Self.shownName(yarn, ["stash", "show", "rios"]) == "Rios")
    #expect(try yarn.run(["stash", "show", "Arroyo"]).status == 65)
    #expect(try Self.shownName(yarn, ["project", "show", "flax"]) == "Flax")
    try yarn.ok(["redo"])
    #expect(try Self.wrongKeys(yarn) == [])
    #expect(try Self.shownName(yarn, ["stash", "show", "arroyo"]) == "Arroyo")
    // Removed and brought back: the row comes back with its key.
    try yarn.ok(["stash", "rm", "Arroyo", "--force"])
    try yarn.ok(["undo"])
    #expect(try Self.wrongKeys(yarn) == [])
    #expect(try Self.shownName(yarn, ["stash", "show", "ARR"]) == "Arroyo")
  }

  @Test func importedAndRestoredItemsHaveTheirKeys() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    _ = try yarn.file(
      "stash.csv", Data("Name,Quantity,Quantity Unit\r\n\u{212A}nit Picks,1,skein\r\nSilk,,\r\n".utf8))
    try yarn.ok(["stash", "import", "stash.csv"])
    try yarn.ok(["project", "add", "Ne\u{301}ge Hat"])
    #expect(try Self.wrongKeys(yarn) == [])
    #expect(try Self.shownName(yarn, ["stash", "show", "knit picks"]) != nil)
    try yarn.ok(["backup", "create", "b.zip"])
    let other = yarn.directory.appendingPathComponent("other").path
    let restored = try yarn.run(["--library", other, "backup", "restore", "b.zip"], useLibrary: false)
    #expect(restored.status == 0, "\(restored.stderr)")
    try yarn.ok(["stash", "add", "Extra"])
    try yarn.ok(["backup", "restore", "b.zip", "--replace"])
    #expect(try Self.wrongKeys(yarn) == [])
    #expect(try yarn.run(["stash", "show", "extra"]).status == 65)
    #expect(try Self.shownName(yarn, ["project", "show", "n\u{E9}ge"]) == "Ne\u{301}ge Hat")
    let inOther = try yarn.run(
      ["--library", other, "project", "show", "NE\u{301}GE HAT", "--json"], useLibrary: false)
    #expect(inOther.status == 0, "\(inOther.stderr)")
  }
}
