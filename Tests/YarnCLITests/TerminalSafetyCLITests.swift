import Foundation
import Testing
import YarnCore

/// Standard error is made printable as tables are: an escape sequence in what was typed or
/// in a name the library holds (restored from a backup made elsewhere) reaches the terminal
/// as U+FFFD, never as ESC or BEL, so it cannot recolor, move the cursor or retitle it.
@Suite struct TerminalSafetyCLITests {
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
    // A name as an older library or a restored backup may hold it (the CLI refuses it now).
    do {
      let store = try LibraryStore(directory: yarn.library, mode: .readWrite)
      defer { try? store.close() }
      try store.insert(Yarn(id: "y-title", name: "Sock\u{1B}]0;owned\u{07}"))
    }
    let result = try yarn.run(["stash", "rm", "y-title"])
    #expect(result.status == 0)
    #expect(!result.stderr.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" })
    #expect(result.stderr == "removed yarn Sock\u{FFFD}]0;owned\u{FFFD} (y-title)\n")
  }
}
