import Foundation
import Testing

/// A reference to a yarn, project, tool, note, session or photo that is empty or only spaces
/// and line breaks names nothing at all: a usage error (64) naming the argument or option, found before the
/// library is opened, never "no project matches ''" (65).
@Suite struct BlankReferenceCLITests {
  @Test func aBlankReferenceIsAUsageError() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios"])
    try yarn.ok(["project", "add", "Flax"])
    let cases: [([String], String, String)] = [
      (["time", "start", ""], "''", "<project>"),
      (["time", "start", "  "], "'  '", "<project>"),
      (["stash", "show", ""], "''", "<yarn>"),
      (["stash", "edit", " ", "--brand", "M"], "' '", "<yarn>"),
      (["project", "show", ""], "''", "<project>"),
      (["project", "use", "Flax", "", "1 skein"], "''", "<yarn>"),
      (["project", "edit", "Flax", "--tool", ""], "''", "--tool"),
      (["tool", "show", ""], "''", "<tool>"),
      (["note", "show", ""], "''", "<note>"),
      (["note", "add", "soft", "--yarn", ""], "''", "--yarn"),
      (["time", "rm", ""], "''", "<session>"),
      (["time", "log", "--project", ""], "''", "--project"),
      // Line breaks alone name nothing either; they are shown escaped, on one line.
      (["stash", "show", "\n"], "'\\n'", "<yarn>"),
      (["time", "start", " \r\n "], "' \\r\\n '", "<project>"),
      (["stash", "show", "\u{2028}"], "'\\u{2028}'", "<yarn>"),
      (["stash", "show", "\u{0B}\u{0C}\u{85}"], "'\\u{B}\\u{C}\\u{85}'", "<yarn>"),
    ]
    let before = try yarn.librarySnapshot()
    for (arguments, shown, name) in cases {
      let result = try yarn.run(arguments)
      #expect(result.status == 64, "\(arguments): \(result.stderr)")
      #expect(
        result.stderr.hasPrefix("error: bad value \(shown) for \(name): a reference cannot be blank"),
        "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains("\nusage: yarn "), "\(arguments): \(result.stderr)")
    }
    #expect(try yarn.librarySnapshot() == before)
    // Before the library is opened: a missing library is not created, nor warned about.
    let missing = yarn.directory.appendingPathComponent("missing")
    let result = try yarn.run(["--library", missing.path, "time", "start", ""], useLibrary: false)
    #expect(result.status == 64)
    #expect(!result.stderr.contains("warning"))
    #expect(!FileManager.default.fileExists(atPath: missing.path))
  }

  /// An item whose ID is blank or holds a control character (an older yarn restored such IDs
  /// from backups) is named in messages with its ID quoted and escaped (`Rules.shown(id:)`),
  /// never as `Rios (  )`.
  @Test func aBlankOrControlIDIsShownQuotedInMessages() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios"])
    try yarn.ok(["stash", "add", "Tweed"])
    try yarn.ok(["project", "add", "Hat"])
    try yarn.setID(of: "yarn", named: "Rios", to: "  ")
    try yarn.setID(of: "yarn", named: "Tweed", to: "y\u{1B}1")
    try yarn.setID(of: "project", to: "\t")
    let cases: [([String], String)] = [
      (["stash", "edit", "Rios", "--brand", "Malabrigo"], #"updated yarn Rios ("  ")"#),
      (
        ["stash", "edit", "Rios", "--brand", "Malabrigo"],
        #"yarn Rios ("  ") already had those values; nothing changed"#
      ),
      (["project", "edit", "Hat", "--craft", "knitting"], #"updated project Hat ("\t")"#),
      (["project", "rm", "Hat"], #"removed project Hat ("\t")"#),
      (["stash", "rm", "Tweed"], #"removed yarn Tweed ("y\u{1B}1")"#),
    ]
    for (arguments, message) in cases {
      let result = try yarn.run(arguments)
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
      #expect(result.stderr == message + "\n", "\(arguments)")
    }
  }
}
