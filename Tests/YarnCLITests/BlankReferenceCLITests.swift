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
}
