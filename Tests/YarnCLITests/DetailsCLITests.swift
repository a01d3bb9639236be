import Foundation
import Testing

@testable import YarnCore

/// Issue 14, items 2 and 3, through the built binary: `--status`, `--price`, `--stored-in`,
/// the tag options, `--gauge`, `--size-made`, `--made-for`; their JSON, text, CSV, undo and
/// errors.
@Suite struct DetailsCLITests {
  @Test func aYarnsDetailsAreSetShownAndEdited() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok([
      "stash", "add", "Rios", "--status", "will trade or sell", "--price", "29.99 EUR",
      "--stored-in", "blue bin", "--tag", " Gift ", "--tag", "worsted", "--tag", "GIFT",
    ])
    let shown = try #require(try yarn.ok(["stash", "show", "Rios", "--json"]).json() as? [String: Any])
    #expect(shown["status"] as? String == "will-trade")
    #expect(shown["price"] as? [String: String] == ["amount": "29.99", "currency": "EUR"])
    #expect(shown["storedIn"] as? String == "blue bin")
    #expect(shown["tags"] as? [String] == ["Gift", "worsted"])
    let text = try yarn.ok(["stash", "show", "Rios"]).stdout
    #expect(text.contains("Status:") && text.contains("will-trade (in the stash)"))
    #expect(text.contains("29.99 EUR") && text.contains("Gift, worsted"))

    try yarn.ok([
      "stash", "edit", "Rios", "--untag", "gift", "--tag", "lace", "--status", "gifted", "--price", "",
    ])
    let edited = try #require(try yarn.ok(["stash", "show", "Rios", "--json"]).json() as? [String: Any])
    #expect(edited["tags"] as? [String] == ["worsted", "lace"])
    #expect(edited["status"] as? String == "gifted")
    #expect(edited["price"] == nil)
    try yarn.ok(["stash", "edit", "Rios", "--no-tags"])
    let cleared = try #require(try yarn.ok(["stash", "show", "Rios", "--json"]).json() as? [String: Any])
    #expect(cleared["tags"] as? [String] == [])
    // The older --stashed still works: no keeps a status that is not in the stash (gifted),
    // yes makes it in-stash, and yes keeps a status still in the stash (allocated).
    func status() throws -> String? {
      let list = try #require(try yarn.ok(["stash", "list", "--json"]).json() as? [[String: Any]])
      return list.first?["status"] as? String
    }
    try yarn.ok(["stash", "edit", "Rios", "--stashed", "no"])
    #expect(try status() == "gifted")
    try yarn.ok(["stash", "edit", "Rios", "--stashed", "yes"])
    #expect(try status() == "in-stash")
    try yarn.ok(["stash", "edit", "Rios", "--status", "allocated"])
    try yarn.ok(["stash", "edit", "Rios", "--stashed", "yes"])
    #expect(try status() == "allocated")
    try yarn.ok(["stash", "edit", "Rios", "--stashed", "no"])
    #expect(try status() == "used-up")
    // The help and the manual page say so (QA: they said "yes is in-stash, no is used-up").
    let words =
      "The older form of --status: yes keeps a status still in the stash and makes any other "
      + "in-stash; no keeps a status that is not and makes any other used-up."
    for command in [["stash", "add", "--help"], ["stash", "edit", "--help"]] {
      let help = try yarn.ok(command).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
      #expect(help.contains(words), "\(command)")
    }
    let page = try yarn.run(["help", "--man"], useLibrary: false).stdout
    #expect(page.contains(words.replacing("-", with: "\\-")))
  }

  @Test func badDetailsAreRefusedClearlyAndChangeNothing() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios"])
    try yarn.ok(["project", "add", "Flax"])
    let before = try yarn.librarySnapshot()
    let cases: [([String], String)] = [
      (
        ["stash", "edit", "Rios", "--price", "29.999 USD"],
        "error: bad value '29.999 USD' for --price: 29.999 USD has 3 decimals; USD has at most 2"
      ),
      (
        ["stash", "edit", "Rios", "--price", "-3 EUR"],
        "error: bad value '-3 EUR' for --price: -3 EUR is negative"
      ),
      (
        ["stash", "edit", "Rios", "--price", "29 EURO"],
        "error: bad value '29 EURO' for --price: \"EURO\" is not a currency code"
      ),
      // The code first names it too, as `stash import` does (it named "5").
      (
        ["stash", "edit", "Rios", "--price", "EURO 5"],
        "error: bad value 'EURO 5' for --price: \"EURO\" is not a currency code"
      ),
      (["stash", "edit", "Rios", "--status", "lost"], "expected a stash status: in-stash, allocated"),
      (["stash", "edit", "Rios", "--tag", "a,b"], "holds a comma"),
      // QA: a tag given to both was added (exit 0); refused as `--tool` with `--remove-tool` is.
      (
        ["stash", "edit", "Rios", "--tag", "Lace", "--untag", " lace"],
        "error: give '--tag' or '--untag', not both: tag “Lace” is both added and removed\n"
      ),
      (
        ["project", "edit", "Flax", "--untag", "x", "--tag", "X"],
        "error: give '--tag' or '--untag', not both: tag “X” is both added and removed\n"
      ),
      (
        ["stash", "edit", "Rios", "--stashed", "no", "--status", "gifted"],
        "error: give '--status' or '--stashed', not both: --stashed is the older yes/no form of --status"
      ),
      (
        ["project", "edit", "Flax", "--gauge", "lots of sts"],
        "error: bad value 'lots of sts' for --gauge: \"lots\" is not a number (the stitch count)"
      ),
      (
        ["project", "edit", "Flax", "--gauge", "18 sts = 10 furlongs"], "expected the length's unit, cm or in"
      ),
      // A new item has no tag to remove: --untag and --no-tags are for edit.
      (
        ["stash", "add", "Tosh", "--tag", "x", "--untag", "x"],
        "error: '--untag' does not apply to 'yarn stash add': a new item has no tags to remove; it is for edit"
      ),
      (["project", "add", "Yoke", "--no-tags"], "error: '--no-tags' does not apply to 'yarn project add'"),
    ]
    for (arguments, message) in cases {
      let result = try yarn.run(arguments)
      #expect(result.status == 64, "\(arguments)")
      #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
    }
    #expect(try yarn.librarySnapshot() == before)
  }

  @Test func aProjectsDetailsAreSetShownAndEdited() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok([
      "project", "add", "Flax", "--gauge", "18 sts and 24 rows to 10 cm", "--size-made", "2T",
      "--made-for", "Leo", "--tag", "baby",
    ])
    let shown = try #require(try yarn.ok(["project", "show", "Flax", "--json"]).json() as? [String: Any])
    let gauge = try #require(shown["gauge"] as? [String: Any])
    #expect(gauge["stitches"] as? Double == 18)
    #expect(gauge["rows"] as? Double == 24)
    #expect(gauge["length"] as? Double == 10)
    #expect(gauge["unit"] as? String == "cm")
    #expect(shown["sizeMade"] as? String == "2T")
    #expect(shown["madeFor"] as? String == "Leo")
    #expect(shown["tags"] as? [String] == ["baby"])
    let text = try yarn.ok(["project", "show", "Flax"]).stdout
    #expect(text.contains("18 sts x 24 rows = 10 cm"))
    try yarn.ok(["project", "edit", "Flax", "--gauge", "18 sts = 4 in", "--made-for", ""])
    let edited = try #require(try yarn.ok(["project", "show", "Flax", "--json"]).json() as? [String: Any])
    #expect((edited["gauge"] as? [String: Any])?["rows"] == nil)
    #expect((edited["gauge"] as? [String: Any])?["unit"] as? String == "in")
    #expect(edited["madeFor"] == nil)
  }

  @Test func listsFilterByStatusAndTag() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios", "--status", "allocated", "--tag", "Lace"])
    try yarn.ok(["stash", "add", "Wool", "--status", "gifted"])
    try yarn.ok(["stash", "add", "Silk"])
    func names(_ arguments: [String]) throws -> [String] {
      let list = try #require(try yarn.ok(arguments + ["--json"]).json() as? [[String: Any]])
      return list.map { $0["name"] as? String ?? "" }
    }
    #expect(try names(["stash", "list"]) == ["Rios", "Wool", "Silk"])
    #expect(try names(["stash", "list", "--in-stash"]) == ["Rios", "Silk"])
    #expect(try names(["stash", "list", "--status", "gifted"]) == ["Wool"])
    #expect(try names(["stash", "list", "--tag", "LACE"]) == ["Rios"])
    #expect(try yarn.ok(["stash", "list", "--tag", "none"]).stderr == "no yarn matches\n")
    try yarn.ok(["project", "add", "Flax", "--tag", "baby"])
    try yarn.ok(["project", "add", "Hat"])
    #expect(try names(["project", "list", "--tag", "Baby"]) == ["Flax"])
  }

  /// Each new kind of edit is reversed by `yarn undo` and made again by `yarn redo`.
  @Test func everyNewEditUndoes() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let undo = UndoCLITests()
    try yarn.ok(["stash", "add", "Rios"])
    try yarn.ok(["project", "add", "Flax"])
    try undo.expectUndone(["stash", "edit", "Rios", "--status", "sold"], in: yarn)
    try undo.expectUndone(["stash", "edit", "Rios", "--price", "12.50 USD"], in: yarn)
    try undo.expectUndone(["stash", "edit", "Rios", "--stored-in", "attic"], in: yarn)
    try undo.expectUndone(["stash", "edit", "Rios", "--tag", "gift"], in: yarn)
    try yarn.ok(["stash", "edit", "Rios", "--tag", "gift", "--tag", "lace"])
    try undo.expectUndone(["stash", "edit", "Rios", "--untag", "GIFT"], in: yarn)
    try undo.expectUndone(["stash", "edit", "Rios", "--no-tags"], in: yarn)
    try undo.expectUndone(["project", "edit", "Flax", "--gauge", "18 sts = 4 in"], in: yarn)
    try undo.expectUndone(["project", "edit", "Flax", "--size-made", "M"], in: yarn)
    try undo.expectUndone(["project", "edit", "Flax", "--made-for", "Leo"], in: yarn)
    try undo.expectUndone(["project", "edit", "Flax", "--tag", "baby"], in: yarn)
  }

  /// The new columns export and import back: into an empty library the same yarns; an old
  /// file with a Stashed column still imports.
  @Test func theNewColumnsRoundTripThroughCSV() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok([
      "stash", "add", "Rios", "--status", "allocated", "--price", "1500 JPY", "--stored-in", "bin, top",
      "--tag", "=odd", "--tag", "lace",
    ])
    try yarn.ok(["stash", "add", "Wool", "--status", "used-up"])
    try yarn.ok(["stash", "export", "-o", "out.csv"])
    let csv = try String(contentsOf: yarn.directory.appendingPathComponent("out.csv"), encoding: .utf8)
    #expect(csv.hasPrefix("Name,"))
    #expect(csv.contains(",Date Added,Status,Price,Stored In,Tags,Notes,ID\r\n"))
    #expect(csv.contains(",allocated,1500 JPY,\"bin, top\",\"'=odd, lace\",,"))
    let second = yarn.directory.appendingPathComponent("second").path
    let imported = try yarn.run(["--library", second, "stash", "import", "out.csv"], useLibrary: false)
    #expect(imported.status == 0, "\(imported.stderr)")
    let again = try yarn.run(["--library", second, "stash", "export", "-o", "again.csv"], useLibrary: false)
    #expect(again.status == 0)
    #expect(try Data(contentsOf: yarn.directory.appendingPathComponent("again.csv")) == Data(csv.utf8))
    // Importing the export into its own library changes nothing, for the Stashed column too.
    try yarn.ok(["stash", "export", "-o", "stashed.csv", "--columns", "Name,ID,Stashed"])
    let same = try yarn.ok(["stash", "import", "stashed.csv"])
    #expect(same.stderr.contains("2 unchanged"), "\(same.stderr)")
    // A file of before the status: Stashed no is used up.
    _ = try yarn.file("old.csv", Data("Name,Stashed\r\nCotton,no\r\nSilk,yes\r\n".utf8))
    try yarn.ok(["stash", "import", "old.csv"])
    let list = try #require(try yarn.ok(["stash", "list", "--json"]).json() as? [[String: Any]])
    let statuses = Dictionary(
      uniqueKeysWithValues: list.map { ($0["name"] as? String ?? "", $0["status"] as? String ?? "") })
    #expect(statuses["Cotton"] == "used-up" && statuses["Silk"] == "in-stash")
    // An empty Status cell beside a Stashed cell that says no leaves a gifted yarn gifted.
    try yarn.ok(["stash", "edit", "Silk", "--status", "gifted"])
    _ = try yarn.file("both.csv", Data("Name,Stashed,Status\r\nSilk,no,\r\n".utf8))
    try yarn.ok(["stash", "import", "both.csv"])
    let after = try #require(try yarn.ok(["stash", "show", "Silk", "--json"]).json() as? [String: Any])
    #expect(after["status"] as? String == "gifted")
    // A bad cell names its line and column.
    _ = try yarn.file("bad.csv", Data("Name,Status,Price,Tags\r\nX,lost,9.999 USD,\"a, a\"\r\n".utf8))
    let bad = try yarn.run(["stash", "import", "bad.csv"])
    #expect(bad.status == 65)
    #expect(bad.stderr.contains("line 2, column \"Status\": \"lost\" is not a stash status"))
    #expect(bad.stderr.contains("line 2, column \"Price\": \"9.999 USD\": 9.999 USD has 3 decimals"))
  }
}
