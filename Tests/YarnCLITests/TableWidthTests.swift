import Foundation
import Testing
import YarnCore

@testable import YarnCLI

/// Tables count display columns (wide East Asian characters and emoji two, combining marks
/// none) and, on a terminal, fit its width by shortening their text columns with `…`
/// (issue 15, item 3). Widths here are counted by hand from the characters' East Asian
/// Width and emoji properties in the Unicode Character Database.
@Suite struct TableWidthTests {
  @Test func displayWidthsCountedByHand() {
    #expect(DisplayWidth.columns(of: "Flax") == 4)
    #expect(DisplayWidth.columns(of: "日本") == 4)  // two Wide ideographs
    #expect(DisplayWidth.columns(of: "e\u{301}") == 1)  // e + COMBINING ACUTE ACCENT
    #expect(DisplayWidth.columns(of: "Cafe\u{301} au lait") == 12)
    #expect(DisplayWidth.columns(of: "👍🏽") == 2)  // emoji + skin tone modifier: one cluster
    #expect(DisplayWidth.columns(of: "🇯🇵") == 2)  // two regional indicators: one flag
    #expect(DisplayWidth.columns(of: "👩‍👩‍👧") == 2)  // a ZWJ sequence
    #expect(DisplayWidth.columns(of: "a\u{200B}") == 1)  // ZERO WIDTH SPACE (Cf)
    #expect(DisplayWidth.columns(of: "❤\u{FE0F}") == 2)  // text heart asked to be an emoji
    #expect(DisplayWidth.columns(of: "❤") == 1)  // U+2764 alone: text presentation, Neutral
    #expect(DisplayWidth.columns(of: "한글") == 4)  // Hangul syllables: Wide
    #expect(DisplayWidth.columns(of: "Ｗ") == 2)  // FULLWIDTH LATIN CAPITAL LETTER W
    #expect(DisplayWidth.columns(of: "ｱ") == 1)  // HALFWIDTH KATAKANA LETTER A
    #expect(DisplayWidth.columns(of: "Ελληνικά") == 8)
  }

  @Test func truncationCutsWholeClustersAndAddsAnEllipsis() {
    #expect(DisplayWidth.truncate("日本語の毛糸", to: 7) == "日本語…")  // 6 + 1
    #expect(DisplayWidth.truncate("日本語の毛糸", to: 6) == "日本…")  // 4 + 1: no half ideograph
    #expect(DisplayWidth.truncate("Cafe\u{301} au lait", to: 6) == "Cafe\u{301} …")
    #expect(DisplayWidth.truncate("🇯🇵🇯🇵🇯🇵", to: 4) == "🇯🇵…")
    #expect(DisplayWidth.truncate("Flax", to: 4) == "Flax")
  }

  /// Each column starts at the same display column on every line, whatever the script.
  @Test func aTableWithCJKNamesIsAligned() {
    var table = Table(["ID", "NAME", "WEIGHT"])
    table.add(["a1", "日本の毛糸", "DK"])  // 10 columns
    table.add(["b2", "Flax", "worsted"])
    table.add(["c3", "👍🏽 yarn", "fingering"])  // 7 columns
    #expect(
      table.text
        == "ID  NAME        WEIGHT\n"
        + "a1  日本の毛糸  DK\n"
        + "b2  Flax        worsted\n"
        + "c3  👍🏽 yarn     fingering\n")
  }

  /// 8 + 32 + 23 + 5 columns and 3 gaps of 2 make 74; at 40 the 34 too many come off the
  /// shrinkable NAME and COLORWAY, the widest first: NAME 32 → 23, then both in turn
  /// (leftmost first on a tie) to NAME 10, COLORWAY 11: 8 + 10 + 11 + 5 + 6 = 40.
  @Test func fittingToFortyColumns() {
    var table = Table(["ID", "NAME", "COLORWAY", "GRAMS"], shrinkable: [1, 2])
    table.add(["abcd1234", "Malabrigo Rios Worsted Superwash", "Azul Profundo Deep Blue", "100"])
    #expect(Table.fittedWidths([8, 32, 23, 5], shrinkable: [1, 2], within: 40) == [8, 10, 11, 5])
    #expect(
      table.text(fitting: 40)
        == "ID        NAME        COLORWAY     GRAMS\n"
        + "abcd1234  Malabrigo…  Azul Profu…  100\n")
    // Wide enough: untouched.
    #expect(table.text(fitting: 74) == table.text)
    #expect(table.text(fitting: nil).contains("Malabrigo Rios Worsted Superwash"))
  }

  /// Never below 8 columns: a table that still does not fit is left to wrap; IDs and
  /// numbers are never cut.
  @Test func fittingStopsAtTheMinimum() {
    #expect(Table.fittedWidths([8, 32, 23, 5], shrinkable: [1, 2], within: 20) == [8, 8, 8, 5])
    #expect(Table.fittedWidths([36, 5, 4], shrinkable: [1], within: 20) == [36, 5, 4])
  }

  /// Wide characters are cut whole: a column of 9 holds 4 ideographs and the ellipsis.
  @Test func fittingCutsWideNamesWhole() {
    var table = Table(["ID", "NAME", "TIME"], shrinkable: [1])
    table.add(["abcd1234", "日本の毛糸で編むセーター", "2h 15m"])  // 24 columns
    // 8 + 24 + 6 + 4 = 42; at 30: NAME 24 → 12.
    #expect(
      table.text(fitting: 30)
        == "ID        NAME          TIME\n"
        + "abcd1234  日本の毛糸…   2h 15m\n")
  }

  /// On a terminal (forced for the test) `stash list` fits `COLUMNS`; piped it is not cut,
  /// whatever `COLUMNS` says, and `--json` never is.
  @Test func theCLIFitsOnlyATerminal() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let name = "Malabrigo Rios Worsted Superwash Merino 日本"
    try yarn.ok(["stash", "add", name])
    let piped = try yarn.run(["stash", "list"], environment: ["COLUMNS": "60"])
    #expect(piped.stdout.contains(name))
    let fitted = try yarn.run(
      ["stash", "list"], environment: ["COLUMNS": "60", "YARN_FORCE_TERMINAL": "1"])
    #expect(fitted.status == 0)
    #expect(!fitted.stdout.contains(name))
    #expect(fitted.stdout.contains("Malabrigo"))
    #expect(fitted.stdout.contains("…"))
    for line in fitted.stdout.split(separator: "\n") {
      #expect(DisplayWidth.columns(of: line) <= 60, "\(line)")
    }
    let json = try yarn.run(
      ["stash", "list", "--json"], environment: ["COLUMNS": "60", "YARN_FORCE_TERMINAL": "1"])
    #expect(json.stdout.contains(name))
  }

  /// `stash list` shortens the yarn weight's label too, so that it fits 65 columns: ID 8,
  /// QUANTITY 8, REMAINING 9 and five gaps of 2 leave 30 for NAME (32), COLORWAY (13) and
  /// WEIGHT ("1 Super Fine (fingering)", 24): NAME 32 → 24, then NAME and WEIGHT in turn to
  /// 13, then all three to 10. With the weight never cut the line could not be under 75.
  @Test func stashListCutsTheWeightToFit() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok([
      "stash", "add", "Cashmerino Aran, Grandma's stash", "--colorway", "Azul Profundo",
      "--weight", "fingering", "--quantity", "5 skeins",
    ])
    let fitted = try yarn.run(
      ["stash", "list"], environment: ["COLUMNS": "65", "YARN_FORCE_TERMINAL": "1"])
    let lines = fitted.stdout.split(separator: "\n").map { String($0.dropFirst(10)) }
    #expect(
      lines == [
        "NAME        COLORWAY    WEIGHT      QUANTITY  REMAINING",
        "Cashmerin…  Azul Prof…  1 Super F…  5 skeins  5 skeins",
      ])
  }

  /// `stash match`'s unknown yarns shorten MISSING too: ID 8, COLORWAY 8, DYE LOT 7,
  /// REMAINING 9 and five gaps of 2 leave 20 of 62 columns for NAME (26) and MISSING
  /// ("no length per skein", 19): NAME 26 → 19, then both in turn to 10. The remaining
  /// figure is "-" (not in a length), so after the name come 2 + 10 + 9 spaces.
  @Test func stashMatchCutsWhatIsMissingToFit() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Cascade 220 Superwash Aran", "--quantity", "3 skeins"])
    let fitted = try yarn.run(
      ["stash", "match", "--length", "1000yd"], environment: ["COLUMNS": "62", "YARN_FORCE_TERMINAL": "1"])
    let lines = fitted.stdout.split(separator: "\n").map(String.init)
    let table = try #require(lines.firstIndex(of: "Unknown:"))
    #expect(
      lines[(table + 1)...].map { String($0.dropFirst(10)) } == [
        "NAME        COLORWAY  DYE LOT  REMAINING  MISSING",
        "Cascade 2…" + String(repeating: " ", count: 21) + "-" + String(repeating: " ", count: 10)
          + "no length…",
      ])
  }

  /// `summary`'s yarn by weight shortens the weight's label: indented by 2, "1 Super Fine
  /// (fingering)" (24), GRAMS (5) and USAGES (6) with two gaps of 2 make 41; at 40 the label
  /// is cut to 23 columns.
  @Test func summaryCutsTheWeightToFit() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Sock yarn", "--weight", "fingering"])
    try yarn.ok(["project", "add", "Socks"])
    try yarn.ok(["project", "finish", "Socks", "--on", "2026-03-01"])
    try yarn.ok(["project", "use", "Socks", "Sock yarn", "80g"])
    let fitted = try yarn.run(
      ["summary", "--year", "2026"], environment: ["COLUMNS": "40", "YARN_FORCE_TERMINAL": "1"])
    let row = try #require(fitted.stdout.split(separator: "\n").first { $0.contains("Super Fine") })
    #expect(row == "  1 Super Fine (fingerin…  80 g   1")
  }

  /// `time log` (a table written in two passes) fits a terminal too, cutting PROJECT and
  /// NOTE but not the times.
  @Test func theTimeLogFitsATerminal() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["project", "add", "日本の毛糸で編むセーター"])
    let note = "the second sleeve, decreasing every sixth round to the cuff"
    try yarn.ok([
      "time", "add", "日本の毛糸で編むセーター", "--from", "2026-01-05 10:00", "--to", "2026-01-05 12:15",
      "--note", note,
    ])
    let piped = try yarn.ok(["time", "log"])
    #expect(piped.stdout.contains(note))
    let fitted = try yarn.run(["time", "log"], environment: ["COLUMNS": "80", "YARN_FORCE_TERMINAL": "1"])
    #expect(fitted.stdout.contains("2026-01-05 10:00  2026-01-05 12:15  2h 15m"))
    #expect(fitted.stdout.contains("…"))
    for line in fitted.stdout.split(separator: "\n") {
      #expect(DisplayWidth.columns(of: line) <= 80, "\(line)")
    }
  }
}
