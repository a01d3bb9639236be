import Foundation
import Testing
import YarnCore

@testable import YarnCLI

/// Tables, `show` and standard error are made printable: an escape sequence in what was typed
/// or in a name the library holds (restored from a backup made elsewhere) reaches the terminal
/// as U+FFFD, never as ESC or BEL, so it cannot recolor, move the cursor or retitle it. JSON
/// keeps the name as it is. (The store refuses such names, `Rules`; a library changed
/// outside yarn may still hold them.)
@Suite struct TerminalSafetyCLITests {
  /// Names holding terminal escapes (which the command line refuses, but a library written
  /// before that rule or restored from its backup may hold) are shown inert in tables and in
  /// `show`; JSON keeps them.
  @Test func controlCharactersAreNotSentToTheTerminal() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.storeBreakingTheRules(Yarn(id: Identifier.make(), name: "Red\u{1B}[31m\u{7}", colorway: "a\rb"))
    let list = try yarn.ok(["stash", "list"])
    #expect(!list.stdout.contains("\u{1B}"))
    #expect(!list.stdout.contains("\r"))
    #expect(list.stdout.contains("Red\u{FFFD}[31m\u{FFFD}"))
    let show = try yarn.ok(["stash", "show", "Red\u{1B}[31m\u{7}"])
    #expect(!show.stdout.contains("\u{1B}"))
    #expect(show.stdout.contains("Colorway:     a\u{FFFD}b\n"))
    let json = try #require(try yarn.ok(["stash", "list", "--json"]).json() as? [[String: Any]])
    #expect(json.first?["name"] as? String == "Red\u{1B}[31m\u{7}")
  }

  /// A table's cells are made one line and printable once, as rows are added; the widths
  /// count the cells as shown.
  @Test func tableCellsAreFlattenedAndAligned() {
    var table = Table(["NAME", "NOTE"])
    table.add(["a\r\nb", "x"])  // CR LF is one line break: one space
    table.add(["\u{1B}[1m", "tab\there"])
    table.add(["c\u{2028}d\u{85}e\rf", "\u{9B}\r"])  // a lone CR is a line break too
    #expect(
      table.text
        == "NAME     NOTE\n"
        + "a b      x\n"
        + "\u{FFFD}[1m     tab here\n"
        + "c d e f  \u{FFFD}\n")
    #expect(Table.flatten("plain") == "plain")
    // A right-to-left override (or isolate) would reverse the rest of the row (QA): U+FFFD.
    // Right-to-left letters themselves, and a zero-width joiner in an emoji, stay.
    #expect(Table.flatten("Evil\u{202E}loow \u{2067}x") == "Evil\u{FFFD}loow \u{FFFD}x")
    #expect(Table.flatten("שלום 👩\u{200D}👧") == "שלום 👩\u{200D}👧")
    #expect(Table.printable("a\r\nb\rc\u{7}\td\n") == "a\nb\u{FFFD}c\u{FFFD}\td\n")
    #expect(Table.printable("end\r") == "end\u{FFFD}")
  }

  @Test func anErrorQuotingATypedEscapeSequenceIsPrintable() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Cascade 220"])
    let result = try yarn.run(["stash", "show", "\u{1B}[31mred"])
    #expect(result.status == 65)
    #expect(!result.stderr.unicodeScalars.contains("\u{1B}"))
    // Written as an escape, as a refused name is: what was typed, on one line, no ESC.
    #expect(result.stderr.hasPrefix("error: no yarn matches '\\u{1B}[31mred'"))
  }

  /// QA: a path was quoted raw in `cannot read '…'` (ESC as U+FFFD, a line break splitting
  /// the message): a path in a message is escaped as a value is, the tool's and YarnCore's.
  @Test func aPathInAMessageIsEscaped() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios"])
    let path = "no\u{1B}[31m\npe\u{200B}.csv"
    for command in [
      ["stash", "import", path], ["stash", "attach", "Rios", path], ["backup", "verify", path],
    ] {
      let result = try yarn.run(command)
      #expect(result.status == 66, "\(command)")
      #expect(
        result.stderr
          == "error: cannot read 'no\\u{1B}[31m\\npe\\u{200B}.csv': no such file or directory\n"
          + "hint: check the path\n", "\(command)")
    }
    // A path in YarnCore's words: an output whose folder is missing, one in the library.
    let export = try yarn.run(["stash", "export", "--output", "no\u{1B}dir/x.csv"])
    #expect(export.status != 0)
    #expect(export.stderr.hasPrefix("error: cannot write "))
    #expect(export.stderr.contains("no\\u{1B}dir/x.csv: no such file or directory\n"))
    let inside = try yarn.run(["backup", "create", yarn.library.path + "/attachments/x\u{200B}.zip"])
    #expect(inside.status == 73)
    #expect(
      inside.stderr.hasPrefix(
        "error: cannot create '\(yarn.library.path)/attachments/x\\u{200B}.zip': it is inside the library's "
          + "attachments folder"))
    for result in [export, inside] {
      #expect(
        !result.stderr.unicodeScalars.contains { $0 == "\u{200B}" || $0 == "\u{1B}" || $0 == "\u{FFFD}" })
    }
  }

  @Test func aMessageNamingAStoredEscapeSequenceIsPrintable() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    // A name as a library changed outside yarn may hold it (the store refuses it).
    try yarn.storeBreakingTheRules(Yarn(id: "y-title", name: "Sock\u{1B}]0;owned\u{07}"))
    let result = try yarn.run(["stash", "rm", "y-title"])
    #expect(result.status == 0)
    #expect(!result.stderr.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" })
    // Escaped as every name in a message is (it was U+FFFD: what it held did not show).
    #expect(result.stderr == "removed yarn Sock\\u{1B}]0;owned\\u{7} (y-title)\n")
  }

  /// QA: a name holding an invisible or a bidi character (U+200B, U+202E RIGHT-TO-LEFT
  /// OVERRIDE, which reversed the rest of the line) was printed raw in confirmations and in
  /// the warning of a name another item has. Names in messages are escaped as values are
  /// (`LineText.visible`), once: a backslash before `u` is doubled, not the escapes.
  @Test func aNameInAMessageIsEscapedOnce() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let name = "Wo\u{202E}ol \\u"
    let shown = "Wo\\u{202E}ol \\\\u"
    func ids(_ kind: String) throws -> [String] {
      let items = try #require(try yarn.ok(["--json", kind, "list"]).json() as? [[String: Any]])
      return items.compactMap { ($0["id"] as? String).map { String($0.prefix(8)) } }
    }
    var results = [try yarn.ok(["stash", "add", name])]
    let first = try ids("stash")[0]
    #expect(results[0].stderr.hasSuffix("\nadded yarn \(shown) (\(first))\n"))
    results.append(try yarn.ok(["stash", "add", name]))
    let second = try #require(try ids("stash").first { $0 != first })
    #expect(
      results[1].stderr
        == "added yarn \(shown) (\(second))\nwarning: another yarn is named \"\(shown)\" (\(first)) too; "
        + "name them by ID, or rename one\n")
    results.append(try yarn.ok(["stash", "edit", first, "--brand", "Malabrigo"]))
    #expect(results[2].stderr == "updated yarn \(shown) (\(first))\n")
    results.append(try yarn.ok(["project", "add", "Hat\u{200B}"]))
    let hat = try ids("project")[0]
    #expect(results[3].stderr == "added project Hat\\u{200B} (\(hat))\n")
    results.append(try yarn.ok(["note", "add", "--yarn", first, "soft"]))
    #expect(results[4].stderr == "added a note to yarn \(shown)\n")
    results.append(try yarn.ok(["time", "start", hat]))
    #expect(results[5].stderr.hasPrefix("started Hat\\u{200B} at "))
    results.append(try yarn.ok(["tool", "add", "Ad\u{200B}di", "--kind", "circular", "--size", "4mm"]))
    #expect(results[6].stderr.hasPrefix("added tool Ad\\u{200B}di ("))
    results.append(try yarn.ok(["stash", "rm", second]))
    #expect(results[7].stderr == "removed yarn \(shown) (\(second))\n")
    results.append(try yarn.ok(["time", "stop"]))
    #expect(results[8].stderr.hasPrefix("stopped Hat\\u{200B} "))
    results.append(try yarn.ok(["project", "rm", hat, "--force"]))
    #expect(results[9].stderr.hasPrefix("removed project Hat\\u{200B} (\(hat))"))
    for result in results {
      #expect(
        !result.stderr.unicodeScalars.contains { $0 == "\u{202E}" || $0 == "\u{200B}" }, "\(result.stderr)")
    }
  }

  /// QA: a few lines still printed a name raw, a U+202E in it reversing the rest of the
  /// line: the yarns a removed finished project gives back to the stash, and `time status`.
  @Test func theNamesOfARemovalAndOfTheTimerAreEscaped() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Wo\u{202E}ol", "--quantity", "100 g"])
    try yarn.ok(["project", "add", "Hat"])
    try yarn.ok(["project", "use", "Hat", "Wo\u{202E}ol", "50 g"])
    try yarn.ok(["project", "finish", "Hat"])
    let removed = try yarn.ok(["project", "rm", "Hat", "--force"]).stderr
    #expect(removed.hasSuffix("; what it used of \"Wo\\u{202E}ol\" is back in the stash\n"), "\(removed)")
    try yarn.ok(["project", "add", "Cap\u{202E}"])
    try yarn.ok(["time", "start", "Cap\u{202E}"])
    let status = try yarn.ok(["time", "status"]).stdout
    #expect(status.hasPrefix("Cap\\u{202E}: running since "), "\(status)")
    #expect(!(removed + status).unicodeScalars.contains("\u{202E}"))
  }
}
