import Foundation
import Testing
import YarnCore

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

  @Test func anErrorQuotingATypedEscapeSequenceIsPrintable() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Cascade 220"])
    let result = try yarn.run(["stash", "show", "\u{1B}[31mred"])
    #expect(result.status == 65)
    #expect(!result.stderr.unicodeScalars.contains("\u{1B}"))
    #expect(result.stderr.hasPrefix("error: no yarn matches '\u{FFFD}[31mred'"))
  }

  @Test func aMessageNamingAStoredEscapeSequenceIsPrintable() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    // A name as a library changed outside yarn may hold it (the store refuses it).
    try yarn.storeBreakingTheRules(Yarn(id: "y-title", name: "Sock\u{1B}]0;owned\u{07}"))
    let result = try yarn.run(["stash", "rm", "y-title"])
    #expect(result.status == 0)
    #expect(!result.stderr.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" })
    #expect(result.stderr == "removed yarn Sock\u{FFFD}]0;owned\u{FFFD} (y-title)\n")
  }
}
