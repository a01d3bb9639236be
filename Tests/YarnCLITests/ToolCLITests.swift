import Foundation
import Testing
import YarnCore

/// `yarn tool`, `yarn convert` of needle sizes, `project add/edit --needle/--tool`, and kg/lb
/// on the command line (issue 14), end to end.
@Suite struct ToolCLITests {
  @Test func convertReadsAndNamesSizes() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    #expect(try yarn.ok(["convert", "US8", "--to", "mm"]).stdout == "5 mm\n")
    #expect(try yarn.ok(["convert", "5mm", "--to", "us"]).stdout == "US 8\n")
    #expect(try yarn.ok(["convert", "H-8", "--to", "mm"]).stdout == "5 mm\n")
    #expect(try yarn.ok(["convert", "UK", "7", "--to", "mm"]).stdout == "4.5 mm\n")
    #expect(try yarn.ok(["convert", "5 mm", "--to", "hook"]).stdout == "H-8\n")
    #expect(try yarn.ok(["convert", "5mm", "--to", "uk"]).stdout == "UK 6\n")
    let between = try yarn.run(["convert", "4.2mm", "--to", "us"])
    #expect(between.status == 65)
    #expect(between.stderr.hasPrefix("error: 4.2 mm has no US needle size in the tables"))
    // Sizes are kept in thousandths of a millimetre (QA: 4.4999mm was US 7 while 4.499mm was
    // "4.5 mm has no US needle size"): 4.4999 mm is 4.5 mm; 4.499 mm is shown as it is.
    #expect(try yarn.ok(["convert", "4.4999mm", "--to", "mm"]).stdout == "4.5 mm\n")
    #expect(try yarn.ok(["convert", "4.4999mm", "--to", "us"]).stdout == "US 7\n")
    let near = try yarn.run(["convert", "4.499mm", "--to", "us"])
    #expect(near.status == 65)
    #expect(near.stderr.hasPrefix("error: 4.499 mm has no US needle size in the tables"), "\(near.stderr)")
    #expect(try yarn.ok(["convert", "3.125mm", "--to", "mm"]).stdout == "3.125 mm\n")
    let tiny = try yarn.run(["convert", "0.001mm", "--to", "mm"])
    #expect(tiny.status == 64)
    #expect(
      tiny.stderr.contains("\"0.001mm\" is under the smallest needle or hook size, 0.5 mm"), "\(tiny.stderr)")
    // A bad size is named by the argument's name in the help, never an amount (QA).
    let bad = try yarn.run(["convert", "US 16", "--to", "mm"])
    #expect(bad.status == 64)
    #expect(
      bad.stderr.hasPrefix(
        "error: bad value 'US 16' for <amount-or-size>: \"US 16\" is not a US needle size"),
      "\(bad.stderr)")
    #expect(bad.stderr.contains("\nusage: yarn convert <amount-or-size> ... --to <unit> [<options>]\n"))
    #expect(try yarn.ok(["convert", "--help"]).stdout.contains("  <amount-or-size> ...  "))
    // A put-up or a yarn means nothing to a size: refused naming the option (QA: ignored).
    for option in ["--length-per-skein", "--net-weight-per-skein", "--yarn"] {
      let value = option == "--yarn" ? "Rios" : "100m"
      let ignored = try yarn.run(["convert", "US 8", "--to", "mm", option, value])
      #expect(ignored.status == 64, "\(option)")
      #expect(
        ignored.stderr.hasPrefix(
          "error: '\(option)' does not apply to a needle or hook size: it converts --to mm "
            + "by the tables alone\n"), "\(ignored.stderr)")
    }
    // An argument that is no size is named first (QA: told that --yarn does not apply to a
    // size); --yarn is convert's for an amount.
    let notSize = try yarn.run(["convert", "1 skein", "--to", "mm", "--yarn", "Rios"])
    #expect(notSize.status == 64)
    #expect(
      notSize.stderr.hasPrefix(
        "error: bad value '1 skein' for <amount-or-size>: \"1 skein\" is not a needle or hook size"),
      "\(notSize.stderr)")
    // A size with a yarn unit says where a size converts.
    let unquoted = try yarn.run(["convert", "US", "8", "--to", "g"])
    #expect(unquoted.status == 64)
    #expect(unquoted.stderr.contains("US 8 is a needle or hook size; it converts --to mm, us, uk or hook"))
    let grams = try yarn.run(["convert", "5mm", "--to", "g"])
    #expect(grams.status == 64)
    #expect(
      grams.stderr.hasPrefix(
        "error: bad value 'g' for --to: 5mm is a needle or hook size; it converts --to mm, us"))
    // Kilograms and pounds: 1 lb = 453.59237 g; 1 lb of a 100 g / 200 m yarn = 907.18474 m.
    #expect(try yarn.ok(["convert", "1lb", "--to", "g"]).stdout == "453.59 g\n")
    let json = try #require(
      try yarn.ok([
        "--json", "convert", "1 lb", "--to", "m", "--net-weight-per-skein", "100g", "--length-per-skein",
        "200m",
      ])
      .json() as? [String: Any])
    #expect(abs((json["value"] as? Double ?? 0) - 907.18474) < 1e-9)
  }

  @Test func toolsAreAddedListedShownEditedAndRemoved() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok([
      "tool", "add", "Red Lace", "--kind", "circular", "--size", "US 8", "--length", "80cm", "--material",
      "metal",
    ])
    try yarn.ok(["tool", "add", "Amour", "--kind", "hook", "--size", "H"])
    try yarn.ok(["tool", "add", "Odd", "--kind", "dpn", "--size", "4.2 mm", "--length", "6in"])
    let list = try yarn.ok(["tool", "list"]).stdout
    #expect(list.contains("Red Lace  circular  5 mm (US 8)  80 cm"))
    #expect(list.contains("5 mm (H-8)"))
    #expect(list.contains("4.2 mm       15.24 cm"))
    let shown = try #require(try yarn.ok(["tool", "show", "amour", "--json"]).json() as? [String: Any])
    #expect(shown["sizeMillimetres"] as? Double == 5)
    #expect(shown["hookSize"] as? String == "H-8")

    // A missing size, a bad kind, a bad count: refused, nothing stored.
    // An add names the tool by its name alone: the ID made for it was never stored.
    let bare = try yarn.run(["tool", "add", "Bare", "--kind", "straight"])
    #expect(bare.status == 65)
    #expect(
      bare.stderr
        == "error: tool Bare: size is missing; only a cable has no size\n"
        + "hint: give its size with --size, such as 4.5mm, US 7 or H-8\n")
    let sized = try yarn.run(["tool", "add", "Cable", "--kind", "cable", "--size", "5mm"])
    #expect(sized.status == 65)
    #expect(
      sized.stderr
        == "error: tool Cable: size is given; a cable has no size\nhint: leave out --size for a cable\n")
    // An edit that breaks the rule names the tool as the commands do, by name and short ID.
    let redID = try #require(try yarn.ok(["--json", "tool", "show", "Red Lace"]).json() as? [String: Any])[
      "id"]
    let redShort = try #require((redID as? String)?.prefix(8))
    let recut = try yarn.run(["tool", "edit", "Red Lace", "--kind", "cable"])
    #expect(recut.status == 65)
    #expect(
      recut.stderr
        == "error: tool Red Lace (\(redShort)): size is given; a cable has no size\n"
        + "hint: clear the size with --size \"\" when it becomes a cable\n")
    #expect(try yarn.run(["tool", "add", "X", "--kind", "loom", "--size", "5mm"]).status == 64)
    #expect(try yarn.run(["tool", "add", "X", "--kind", "hook", "--size", "-3mm"]).status == 64)
    #expect(
      try yarn.run(["tool", "add", "X", "--kind", "hook", "--size", "5mm", "--count", "0"]).status == 64)
    // A length of 0 or over 1000 cm breaks the library's rule (65, in its words); one that is
    // not a length is a usage error (64).
    // A length given in mm or inches is converted and rounded to 15 significant digits
    // (docs/UNITS.md; QA: 10000.1mm was "1000.0100000000001 cm is over 1000 cm").
    for (length, reason) in [
      ("0cm", "0 cm is not more than 0"), ("1001cm", "1001 cm is over 1000 cm"),
      ("10000.1mm", ": length 1000.01 cm is over 1000 cm\n"),
      ("393.71in", ": length 1000.0234 cm is over 1000 cm\n"),
    ] {
      let result = try yarn.run([
        "tool", "add", "X", "--kind", "circular", "--size", "5mm", "--length", length,
      ])
      #expect(result.status == 65, "\(length)")
      #expect(result.stderr.contains(reason), "\(length): \(result.stderr)")
    }
    // 33 in is 83.82 cm (33 × 2.54), stored so, not 83.82000000000001.
    let inches = try #require(
      try yarn.ok([
        "tool", "add", "Long", "--kind", "circular", "--size", "5mm", "--length", "33in", "--json",
      ])
      .json() as? [String: Any])
    #expect(inches["lengthCentimetres"] as? Double == 83.82)
    #expect(
      try yarn.run(["tool", "add", "X", "--kind", "circular", "--size", "5mm", "--length", "long"]).status
        == 64)
    // A comma followed by three digits is ambiguous, as in an amount (QA: `1,200mm` was stored
    // as 0.12 cm, `1,000 cm` as 1 cm); nothing is stored. (A size's `1,000mm` is 1 mm: no
    // needle is 1000 mm.)
    let unchanged = try yarn.librarySnapshot()
    for (args, message) in [
      (
        ["tool", "add", "Circ", "--kind", "circular", "--size", "4mm", "--length", "1,200mm"],
        "bad value '1,200mm' for --length: \"1,200mm\" is ambiguous: write 1200 or 1.2\n"
      ),
      (
        ["tool", "edit", "Red Lace", "--length", "1,000 cm"],
        "bad value '1,000 cm' for --length: \"1,000 cm\" is ambiguous: write 1000 or 1\n"
      ),
    ] {
      let result = try yarn.run(args)
      #expect(result.status == 64, "\(args)")
      #expect(result.stderr.contains(message), "\(result.stderr)")
    }
    #expect(try yarn.librarySnapshot() == unchanged)
    // A decimal comma is read as one.
    try yarn.ok(["tool", "add", "Comma", "--kind", "circular", "--size", "4,5mm", "--length", "80,5 cm"])
    let comma = try yarn.ok(["tool", "show", "Comma", "--json"]).stdout
    #expect(comma.contains("\"lengthCentimetres\" : 80.5"), "\(comma)")
    #expect(comma.contains("\"sizeMillimetres\" : 4.5"), "\(comma)")
    try yarn.ok(["tool", "rm", "Comma"])

    // A project with sizes and a tool; the tool lists the project.
    try yarn.ok([
      "project", "add", "Flax", "--craft", "knitting", "--needle", "US8", "--needle", "4.2mm", "--tool",
      "Red Lace",
    ])
    let project = try yarn.ok(["project", "show", "Flax"]).stdout
    #expect(project.contains("Needles:      5 mm (US 8)\n              4.2 mm\n"))
    #expect(project.contains("Tools:        Red Lace: circular needle, 5 mm (US 8)\n"))
    #expect(try yarn.ok(["tool", "show", "Red Lace"]).stdout.contains("Projects:     Flax"))

    // rm of a tool in use: refused with what goes, then --force; undo brings it back.
    let refused = try yarn.run(["tool", "rm", "Red Lace"])
    #expect(refused.status == 65)
    #expect(
      refused.stderr.hasPrefix(
        "error: removing tool \"Red Lace\" would also remove its place in project \"Flax\""))
    try yarn.ok(["tool", "rm", "Red Lace", "--force"])
    #expect(!(try yarn.ok(["tool", "list"]).stdout.contains("Red Lace")))
    try yarn.ok(["undo"])
    #expect(try yarn.ok(["tool", "show", "Red Lace"]).stdout.contains("Projects:     Flax"))

    // One size given twice, in two spellings: refused.
    let twice = try yarn.run(["project", "edit", "Flax", "--needle", "5mm", "--needle", "US8"])
    #expect(twice.status == 64)
    #expect(
      twice.stderr.contains(
        "bad value 'US8' for --needle: 5 mm is given twice; a project lists each needle size once (given already as \"5mm\")"
      ))
    // Sizes the same in thousandths of a millimetre are one size; 4.499 mm is another (QA:
    // three sizes were taken, shown as "4.5 mm", "4.5 mm (US 7)", "4.5 mm (US 7)").
    let close = try yarn.run([
      "project", "edit", "Flax", "--needle", "4.499mm", "--needle", "4.5mm", "--needle", "4.4999mm",
    ])
    #expect(close.status == 64)
    #expect(
      close.stderr.contains(
        "bad value '4.4999mm' for --needle: 4.5 mm is given twice; a project lists each needle size once (given already as \"4.5mm\")"
      ),
      "\(close.stderr)")
    try yarn.ok(["project", "edit", "Flax", "--needle", "4.499mm", "--needle", "4.5mm"])
    #expect(
      try yarn.ok(["project", "show", "Flax"]).stdout.contains(
        "Needles:      4.499 mm\n              4.5 mm (US 7)\n"))
    try yarn.ok(["undo"])
    // One tool given twice, in two spellings too: refused as a size given twice is, and no
    // project is made (QA: taken without a word); so is one removed twice (QA: taken), in
    // words for a removal (QA: "a project lists each tool once" read oddly there).
    let toolsBefore = try yarn.librarySnapshot()
    for (args, option, value, first) in [
      (
        ["project", "add", "Vest", "--tool", "Red Lace", "--tool", "Red Lace"], "--tool", "Red Lace",
        "Red Lace"
      ),
      (
        ["project", "edit", "Flax", "--tool", "Odd", "--tool", "red lace", "--tool", "Red"], "--tool", "Red",
        "red lace"
      ),
      (
        ["project", "edit", "Flax", "--remove-tool", "Red Lace", "--remove-tool", "Red Lace"],
        "--remove-tool", "Red Lace", "Red Lace"
      ),
      (
        ["project", "edit", "Flax", "--remove-tool", "red lace", "--remove-tool", "Red"], "--remove-tool",
        "Red", "red lace"
      ),
    ] {
      let toolTwice = try yarn.run(args)
      #expect(toolTwice.status == 64, "\(args)")
      #expect(
        toolTwice.stderr.hasPrefix(
          "error: bad value '\(value)' for \(option): the tool “Red Lace” is given twice; "
            + (option == "--tool" ? "a project lists each tool once" : "name each tool to remove once")
            + " (given already as \"\(first)\")\n"), "\(toolTwice.stderr)")
    }
    #expect(try yarn.librarySnapshot() == toolsBefore)
    // No needle is 0.001 mm (QA: taken, and listed as "0 mm").
    let tiny = try yarn.run(["tool", "add", "T", "--kind", "dpn", "--size", "0.001mm"])
    #expect(tiny.status == 64)
    #expect(
      tiny.stderr.contains("\"0.001mm\" is under the smallest needle or hook size, 0.5 mm"), "\(tiny.stderr)")
    // A tool both added and removed (named two ways) is refused, and nothing changes.
    let before = try yarn.librarySnapshot()
    let both = try yarn.run(["project", "edit", "Flax", "--tool", "Red", "--remove-tool", "red lace"])
    #expect(both.status == 64)
    #expect(
      both.stderr.hasPrefix(
        "error: give '--tool' or '--remove-tool', not both: both name the tool “Red Lace”"))
    #expect(try yarn.librarySnapshot() == before)
    // The same words in both, for a tool that is not there: the clash (64) comes before the
    // lookup (65).
    let clash = try yarn.run(["project", "edit", "Flax", "--tool", "Nope", "--remove-tool", " nope"])
    #expect(clash.status == 64, "\(clash.stderr)")
    #expect(
      clash.stderr.hasPrefix("error: give '--tool' or '--remove-tool', not both: both name “Nope”\n"),
      "\(clash.stderr)")
    #expect(try yarn.librarySnapshot() == before)
    // QA: a tool that is not there, given twice, was "no tool matches" (65), where one that is
    // there is "given twice" (64): the same words twice are refused before any lookup.
    for (option, second) in [("--remove-tool", "Nope"), ("--tool", " nope")] {
      let twice = try yarn.run(["project", "edit", "Flax", option, "Nope", option, second])
      #expect(twice.status == 64, "\(twice.stderr)")
      #expect(
        twice.stderr.hasPrefix(
          "error: bad value '\(second)' for \(option): the tool “\(second.trimmingCharacters(in: .whitespaces))” "
            + "is given twice; "
            + (option == "--tool" ? "a project lists each tool once" : "name each tool to remove once")
            + " (given already as \"Nope\")\n"), "\(twice.stderr)")
    }
    #expect(try yarn.librarySnapshot() == before)

    // edit: a new size, --tool and --remove-tool, --needle "" clears the sizes.
    try yarn.ok(["tool", "edit", "Odd", "--size", "UK 7", "--material", "bamboo"])
    #expect(try yarn.ok(["tool", "show", "Odd"]).stdout.contains("Size:         4.5 mm (US 7)"))
    try yarn.ok(["project", "edit", "Flax", "--needle", "", "--remove-tool", "Red Lace", "--tool", "Odd"])
    let edited = try yarn.ok(["project", "show", "Flax"]).stdout
    #expect(!edited.contains("Needles:"))
    #expect(edited.contains("Tools:        Odd: double-pointed needles, 4.5 mm (US 7)"))
    try yarn.ok(["undo"])
    #expect(try yarn.ok(["project", "show", "Flax"]).stdout.contains("Needles:      5 mm (US 8)"))
  }

  /// `--size` reads a hook's name with `US` before it as a WEFT `hook_size` does, one reading
  /// (QA: `--size "US H-8"` was refused; CYC: H-8 is 5 mm, K-10½ 6.5 mm); a steel number the
  /// table does not have is refused in the table's words, and the CLI adds that a size in mm
  /// is read, the hint the words themselves no longer carry (a WEFT file has no `--size`).
  @Test func aHooksNameWithUSIsReadBySize() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["tool", "add", "Clover", "--kind", "hook", "--size", "US H-8"])
    #expect(try yarn.ok(["tool", "show", "Clover"]).stdout.contains("Size:         5 mm (H-8)"))
    try yarn.ok(["tool", "edit", "Clover", "--size", "US K-10½"])
    #expect(try yarn.ok(["tool", "show", "Clover"]).stdout.contains("Size:         6.5 mm (K-10½)"))
    #expect(try yarn.ok(["convert", "US H", "--to", "mm"]).stdout == "5 mm\n")
    let steel = try yarn.run(["tool", "add", "Fine", "--kind", "hook", "--size", "steel 14"])
    #expect(steel.status == 64)
    #expect(
      steel.stderr.hasPrefix(
        "error: bad value 'steel 14' for --size: \"steel 14\" is not a steel hook size in the table; "
          + "steel hooks: 8, 7, 6 (or give the size in mm)\n"), "\(steel.stderr)")
    let needle = try yarn.run(["project", "add", "Doily", "--needle", "steel 14"])
    #expect(needle.status == 64)
    #expect(needle.stderr.contains("steel hooks: 8, 7, 6 (or give the size in mm)\n"), "\(needle.stderr)")
  }

  @Test func toolsGoThroughABackup() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["project", "add", "Flax"])
    try yarn.ok(["tool", "add", "Amour", "--kind", "hook", "--size", "H-8", "--count", "2"])
    try yarn.ok(["project", "edit", "Flax", "--tool", "Amour", "--needle", "5mm"])
    // The messages count the one tool.
    let created = try yarn.ok(["backup", "create", "b.zip"])
    #expect(
      created.stderr.contains(
        "backed up 0 yarns, 1 project, 0 notes, 0 time sessions, 1 tool and 0 attachments"))
    try yarn.ok(["backup", "verify", "b.zip"])
    try yarn.ok(["tool", "rm", "Amour", "--force"])
    try yarn.ok(["project", "rm", "Flax", "--force"])
    let restored = try yarn.ok(["backup", "restore", "b.zip", "--merge"])
    #expect(
      restored.stderr.contains("added 0 yarns, 1 project, 0 notes, 0 time sessions, 1 tool and 0 attachments")
    )
    let tool = try #require(try yarn.ok(["tool", "show", "Amour", "--json"]).json() as? [String: Any])
    #expect(tool["count"] as? Int == 2)
    #expect((tool["projects"] as? [[String: Any]])?.first?["name"] as? String == "Flax")
  }

  /// kg and lb through `stash add`, `stash show`, CSV export and import into another library.
  @Test func kilogramsAndPoundsGoThroughTheStashAndCSV() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok([
      "stash", "add", "Cone", "--quantity", "1 kg", "--net-weight-per-skein", "0.25 lb", "--length-per-skein",
      "200m",
    ])
    // 1 kg / 113.3980925 g a skein = 8.8184904874 skeins; shown with g, oz and m, not lb.
    let shown = try yarn.ok(["stash", "show", "Cone"]).stdout
    #expect(shown.contains("Put-up:       200 m / 0.25 lb per skein"))
    #expect(shown.contains("Remaining:    1 kg ≈ 8.82 skeins ≈ 1000 g ≈ 35.27 oz ≈"))
    try yarn.ok(["stash", "export", "-o", "stash.csv"])
    let csv = try String(contentsOf: yarn.directory.appendingPathComponent("stash.csv"), encoding: .utf8)
    #expect(csv.contains(",1,kg,"))
    #expect(csv.contains(",0.25,lb,"))
    let second = yarn.directory.appendingPathComponent("second").path
    let imported = try yarn.run(["--library", second, "stash", "import", "stash.csv"], useLibrary: false)
    #expect(imported.status == 0, "\(imported.stderr)")
    let back = try #require(
      try yarn.run(["--library", second, "--json", "stash", "show", "Cone"], useLibrary: false).json()
        as? [String: Any])
    #expect((back["quantity"] as? [String: Any])?["unit"] as? String == "kg")
  }
}
