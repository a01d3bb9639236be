import Foundation
import Testing
import YarnCore

/// `stash list` and `project list` filters and orders, and `stash match` (issue 14 items 5
/// and 6), through the built `yarn`: the table and `--json` give the same items in the same
/// order; figures worked out by hand.
@Suite struct SearchCLITests {
  /// Café Merino (3 skeins of 220 yd = 660 yd, lot A1, worsted, note "gift from Zoë"),
  /// Cafe Merino again in lot A1 in another record (1 skein = 220 yd), Grams Only (200 g,
  /// 100 g a skein, no length, DK), Big (800 yd, not in the stash), Sock (2 skeins, no
  /// put-up, fingering, brand Malabrigo).
  private func makeLibrary(_ yarn: YarnRunner) throws {
    try yarn.ok([
      "stash", "add", "Café Merino", "--brand", "Malabrigo", "--colorway", "Azul", "--dye-lot", "A1",
      "--quantity", "3 skeins", "--length-per-skein", "220yd", "--weight", "worsted",
      "--added", "2026-01-05",
    ])
    try yarn.ok(["note", "add", "--yarn", "Café Merino", "gift from Zoë"])
    try yarn.ok([
      "stash", "add", "Café Merino", "--colorway", "azul", "--dye-lot", "a1", "--quantity", "1 skein",
      "--length-per-skein", "220yd", "--weight", "worsted", "--added", "2026-01-06",
    ])
    try yarn.ok([
      "stash", "add", "Grams Only", "--quantity", "200g", "--net-weight-per-skein", "100g",
      "--weight", "dk", "--added", "2026-01-01",
    ])
    try yarn.ok([
      "stash", "add", "Big", "--quantity", "800yd", "--length-per-skein", "200yd", "--stashed", "no",
      "--added", "2026-01-02",
    ])
    try yarn.ok([
      "stash", "add", "Sock", "--brand", "MALABRIGO", "--quantity", "2 skeins", "--weight", "fingering",
      "--added", "2026-01-03",
    ])
  }

  /// The names of the table's rows (the second column), and those of the JSON array.
  private func names(table: String) -> [String] {
    table.split(separator: "\n").dropFirst().map { line in
      let cells = line.split(separator: "  ", omittingEmptySubsequences: true)
      return cells[1].trimmingCharacters(in: .whitespaces)
    }
  }

  private func names(json: Any) -> [String] {
    (json as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
  }

  private func list(_ yarn: YarnRunner, _ arguments: [String]) throws -> [String] {
    let table = names(table: try yarn.ok(arguments).stdout)
    let json = names(json: try yarn.ok(arguments + ["--json"]).json())
    #expect(table == json, "\(arguments)")
    return table
  }

  @Test func stashListFiltersAndOrdersAlikeInTheTableAndJSON() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try makeLibrary(yarn)
    #expect(try list(yarn, ["stash", "list", "--search", "cafe"]) == ["Café Merino", "Café Merino"])
    // A note is searched: "zoe" finds "Zoë".
    #expect(try list(yarn, ["stash", "list", "--search", "ZOE"]) == ["Café Merino"])
    #expect(try list(yarn, ["stash", "list", "--brand", "malabrigo"]) == ["Café Merino", "Sock"])
    #expect(
      try list(yarn, ["stash", "list", "--brand", "malabrigo", "--weight", "fingering"]) == ["Sock"])
    #expect(try list(yarn, ["stash", "list", "--status", "used-up"]) == ["Big"])
    #expect(
      try list(yarn, ["stash", "list", "--sort", "added"])
        == ["Grams Only", "Big", "Sock", "Café Merino", "Café Merino"])
    // Sock (1) Fingering, Grams Only (3) DK, the two worsted (4), Big has no weight.
    #expect(
      try list(yarn, ["stash", "list", "--sort", "weight"])
        == ["Sock", "Grams Only", "Café Merino", "Café Merino", "Big"])
    // Lengths: Big 800 yd, Café 660 yd, Café 220 yd; weights: Grams Only; skeins: Sock.
    #expect(
      try list(yarn, ["stash", "list", "--sort", "remaining"])
        == ["Big", "Café Merino", "Café Merino", "Grams Only", "Sock"])
    let none = try yarn.ok(["stash", "list", "--search", "nothing like it"])
    #expect(none.stdout.isEmpty)
    #expect(none.stderr.contains("no yarn matches"))
    #expect(try yarn.ok(["stash", "list", "--search", "nothing", "--json"]).json() as? [Any] != nil)
  }

  @Test func badFilterValuesAreUsageErrors() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let sort = try yarn.run(["stash", "list", "--sort", "colour"])
    #expect(sort.status == 64)
    #expect(sort.stderr.contains("--sort"))
    #expect(sort.stderr.contains("name, added, remaining, weight"))
    let status = try yarn.run(["stash", "list", "--status", "lost"])
    #expect(status.status == 64)
    #expect(status.stderr.contains("--status"))
    // --in-stash stands for four statuses: with --status it is refused, not an empty list.
    let both = try yarn.run(["stash", "list", "--in-stash", "--status", "gifted"])
    #expect(both.status == 64)
    #expect(both.stderr.hasPrefix("error: give '--in-stash' or '--status', not both"))
    #expect(try yarn.run(["stash", "list", "--tag", " "]).status == 64)
    #expect(try yarn.run(["stash", "list", "--search", " "]).status == 64)
    // Only a combining accent: nothing to search for once accents are set aside.
    #expect(try yarn.run(["stash", "list", "--search", "\u{301}"]).status == 64)
    #expect(try yarn.run(["project", "list", "--sort", "added"]).status == 64)
    #expect(try yarn.run(["project", "list", "--craft", "baking"]).status == 64)
    let neither = try yarn.run(["stash", "match"])
    #expect(neither.status == 64)
    #expect(neither.stderr.contains("--length"))
    #expect(try yarn.run(["stash", "match", "--length", "1200yd", "--mass", "400g"]).status == 64)
    #expect(try yarn.run(["stash", "match", "--length", "400g"]).status == 64)
    #expect(try yarn.run(["stash", "match", "--mass", "3 skeins"]).status == 64)
  }

  @Test func projectListFiltersAndOrders() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["project", "add", "Winter Hat", "--craft", "knitting", "--pattern", "Crème Brûlée"])
    try yarn.ok(["project", "add", "Blanket", "--craft", "crochet", "--status", "in-progress"])
    try yarn.ok(["project", "add", "scarf", "--craft", "knitting", "--status", "in-progress"])
    try yarn.ok(["note", "add", "--project", "Blanket", "for the café"])
    #expect(try list(yarn, ["project", "list", "--craft", "knitting"]) == ["Winter Hat", "scarf"])
    #expect(
      try list(yarn, ["project", "list", "--craft", "knitting", "--status", "in-progress"]) == ["scarf"])
    #expect(try list(yarn, ["project", "list", "--search", "BRULEE"]) == ["Winter Hat"])
    #expect(try list(yarn, ["project", "list", "--search", "cafe"]) == ["Blanket"])
    #expect(try list(yarn, ["project", "list", "--sort", "name"]) == ["Blanket", "scarf", "Winter Hat"])
    let none = try yarn.ok(["project", "list", "--status", "frogged"])
    #expect(none.stderr.contains("no project matches"))
  }

  @Test func stashMatchListsEnoughAndUnknownApart() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try makeLibrary(yarn)
    // 880 yd: the two Café Merino records of lot A1 together, 660 + 220 = 880 yd; Grams Only
    // has no length per skein; Sock has no put-up; Big is not in the stash.
    let text = try yarn.ok(["stash", "match", "--length", "880yd"]).stdout
    #expect(text.contains("Enough for 880 yd:"))
    #expect(text.contains("Café Merino (2 together)"))
    #expect(text.contains("880 yd"))
    #expect(text.contains("Unknown:"))
    #expect(text.contains("no length per skein"))
    #expect(!text.contains("Big"))

    let json = try #require(
      try yarn.ok(["stash", "match", "--length", "880yd", "--json"]).json() as? [[String: Any]])
    #expect(json.count == 3)
    let cafe = json[0]
    #expect(cafe["enough"] as? Bool == true)
    #expect((cafe["remaining"] as? [String: Any])?["value"] as? Double == 880)
    #expect((cafe["remaining"] as? [String: Any])?["unit"] as? String == "yd")
    #expect((cafe["yarns"] as? [[String: Any]])?.count == 2)
    #expect((cafe["certain"] as? [String: Any])?["value"] as? Double == 880)
    let grams = json[1]
    #expect(grams["enough"] is NSNull)
    #expect(grams["remaining"] is NSNull)
    #expect(grams["missing"] as? [String] == ["no length per skein"])

    // 900 yd: the group falls short (880 yd): with no yarn enough, it is not an "other"; it is
    // counted as it would be listed, one group, not two yarns beside rows of groups (QA).
    let shortText = try yarn.ok(["stash", "match", "--length", "900yd"]).stdout
    #expect(shortText.hasPrefix("No yarn in the stash is sure to have 900 yd.\n"))
    #expect(shortText.hasSuffix("\n\n1 group of yarns has less.\n"), "\(shortText)")
    // With a yarn enough, the others that have less are "other".
    try yarn.ok(["stash", "add", "Tiny", "--length-per-skein", "10yd", "--quantity", "1 skein"])
    #expect(
      try yarn.ok(["stash", "match", "--length", "880yd"]).stdout.hasSuffix("\n\n1 other yarn has less.\n"))
    // Yarns alone and groups, each counted once, as the JSON's answers with "enough": false.
    let mixed = try yarn.ok(["stash", "match", "--length", "900yd"]).stdout
    #expect(mixed.hasSuffix("\n\n1 yarn and 1 group of yarns have less.\n"), "\(mixed)")
    let mixedJSON = try #require(
      try yarn.ok(["stash", "match", "--length", "900yd", "--json"]).json() as? [[String: Any]])
    let lessJSON = mixedJSON.filter { $0["enough"] as? Bool == false }
    #expect(lessJSON.map { ($0["yarns"] as? [Any])?.count } == [2, 1])
    // With --weight dk only Grams Only is looked at.
    let short = try #require(
      try yarn.ok(["stash", "match", "--length", "900yd", "--json"]).json() as? [[String: Any]])
    #expect(short[0]["enough"] as? Bool == false)
    let dk = try #require(
      try yarn.ok(["stash", "match", "--mass", "150g", "--weight", "dk", "--json"]).json() as? [[String: Any]]
    )
    #expect(dk.count == 1)
    #expect(dk[0]["enough"] as? Bool == true)
    #expect((dk[0]["remaining"] as? [String: Any])?["value"] as? Double == 200)

    // --same-dye-lot: Sock has no dye lot, and no length per skein either: the fact of the
    // conversion first, then the lot.
    let strict = try #require(
      try yarn.ok(["stash", "match", "--length", "100yd", "--same-dye-lot", "--json"]).json()
        as? [[String: Any]])
    let sock = try #require(
      strict.first { ($0["yarns"] as? [[String: Any]])?.first?["name"] as? String == "Sock" })
    #expect(sock["missing"] as? [String] == ["no length per skein", "no dye lot"])

    // Yarn set aside for another project (allocated) or already in use is not offered, even
    // with 5 × 300 yd = 1,500 yd; once back in the stash it is.
    try yarn.ok([
      "stash", "add", "Reserved", "--length-per-skein", "300yd", "--quantity", "5 skeins",
      "--status", "allocated",
    ])
    #expect(!(try yarn.ok(["stash", "match", "--length", "1200yd"]).stdout.contains("Reserved")))
    try yarn.ok(["stash", "edit", "Reserved", "--status", "in-use"])
    #expect(!(try yarn.ok(["stash", "match", "--length", "1200yd"]).stdout.contains("Reserved")))
    try yarn.ok(["stash", "edit", "Reserved", "--status", "in-stash"])
    let back = try yarn.ok(["stash", "match", "--length", "1200yd"]).stdout
    #expect(back.contains("Reserved"))
    #expect(back.contains("1500 yd"))
  }

  @Test func stashMatchShowsTheNeedWithEveryDigitGiven() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    // 8.8185 oz needed: 8.815 oz is short of it and 8.819 oz covers it. Rounded, the need was
    // "8.82 oz", which 8.819 oz does not cover (QA).
    try yarn.ok(["stash", "add", "Low", "--quantity", "8.815oz"])
    try yarn.ok(["stash", "add", "High", "--quantity", "8.819oz"])
    let text = try yarn.ok(["stash", "match", "--mass", "8.8185oz"]).stdout
    #expect(text.hasPrefix("Enough for 8.8185 oz:\n"), "\(text)")
    #expect(text.contains("High"))
    #expect(!text.contains("Low"))
    #expect(text.hasSuffix("\n\n1 other yarn has less.\n"))
    let none = try yarn.ok(["stash", "match", "--mass", "8.8195oz"]).stdout
    #expect(none.hasPrefix("No yarn in the stash is sure to have 8.8195 oz.\n"), "\(none)")
  }

  @Test func stashMatchNeverShowsAFigureUnderTheNeedItIsListedUnder() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    // 8.8141 oz covers 8.814 oz; to 2 decimals it was shown as 8.81 oz, less than the need it
    // is listed under (QA). To the need's 3 decimals it is 8.814 oz. 8.8191 oz keeps 2 (8.82).
    try yarn.ok(["stash", "add", "Lot", "--dye-lot", "7", "--quantity", "8.8141oz"])
    try yarn.ok(["stash", "add", "Big", "--dye-lot", "8", "--quantity", "8.8191oz"])
    // A group of lot 9 whose 100 yd cannot be weighed: what is certain, 8.8141 oz, covers it.
    try yarn.ok(["stash", "add", "Wool", "--dye-lot", "9", "--quantity", "8.8141oz"])
    try yarn.ok(["stash", "add", "Wool", "--dye-lot", "9", "--quantity", "100yd"])
    // No dye lot, with --same-dye-lot: unknown, an upper bound of 8.8141 oz.
    try yarn.ok(["stash", "add", "NoLot", "--quantity", "8.8141oz"])
    let text = try yarn.ok(["stash", "match", "--mass", "8.814oz", "--same-dye-lot"]).stdout
    // A row's line, as the table shows it (REMAINING is the last column of the first table).
    func row(_ name: String) -> String {
      text.split(separator: "\n").first { $0.contains(" \(name) ") }.map(String.init) ?? ""
    }
    #expect(text.hasPrefix("Enough for 8.814 oz:\n"), "\(text)")
    #expect(row("Lot").hasSuffix("  8.814 oz"), "\(text)")
    #expect(row("Big").hasSuffix("  8.82 oz"), "\(text)")
    #expect(row("Wool (2 together)").hasSuffix("  at least 8.814 oz"), "\(text)")
    #expect(row("NoLot").hasSuffix("  at most 8.814 oz  no dye lot"), "\(text)")
    // 8.81410000001 oz: 8.8141 oz is 10⁻¹¹ oz short, within the comparison's tolerance of
    // 8.81410000001 × 10⁻⁹ oz, so enough, and shown as the need it counts as (docs/CLI.md),
    // never as 8.8141 oz under it.
    let close = try yarn.ok(["stash", "match", "--mass", "8.81410000001oz", "--same-dye-lot"]).stdout
    func closeRow(_ name: String) -> String {
      close.split(separator: "\n").first { $0.contains(" \(name) ") }.map(String.init) ?? ""
    }
    #expect(close.hasPrefix("Enough for 8.81410000001 oz:\n"), "\(close)")
    #expect(closeRow("Lot").hasSuffix("  8.81410000001 oz"), "\(close)")
    #expect(closeRow("Big").hasSuffix("  8.82 oz"), "\(close)")
    #expect(closeRow("Wool (2 together)").hasSuffix("  at least 8.81410000001 oz"), "\(close)")
    #expect(closeRow("NoLot").hasSuffix("  at most 8.81410000001 oz  no dye lot"), "\(close)")
  }

  @Test func stashMatchShowsWhatIsCertainAndUpperBounds() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    // Lot 7: 2 skeins of 220 yd (440 yd, certain) and 300 g without a put-up.
    try yarn.ok([
      "stash", "add", "Wool", "--dye-lot", "7", "--quantity", "2 skeins", "--length-per-skein", "220yd",
    ])
    try yarn.ok(["stash", "add", "Wool", "--dye-lot", "7", "--quantity", "300g"])
    // 500 g without a put-up; a finished project used 100 yd, which cannot be subtracted.
    try yarn.ok(["stash", "add", "Mystery", "--quantity", "500g"])
    try yarn.ok(["project", "add", "Hat", "--status", "finished"])
    try yarn.ok(["project", "use", "Hat", "Mystery", "100 yd"])

    let length = try yarn.ok(["stash", "match", "--length", "400yd"]).stdout
    #expect(length.contains("Wool (2 together)"))
    #expect(length.contains("at least 440 yd"))
    let mass = try yarn.ok(["stash", "match", "--mass", "400g"]).stdout
    #expect(mass.contains("at most 500 g"))
    #expect(mass.contains("an incomplete estimate"))
    let json = try #require(
      try yarn.ok(["stash", "match", "--mass", "400g", "--json"]).json() as? [[String: Any]])
    let mystery = try #require(
      json.first { ($0["yarns"] as? [[String: Any]])?.first?["name"] as? String == "Mystery" })
    #expect(mystery["enough"] is NSNull)
    #expect((mystery["remaining"] as? [String: Any])?["value"] as? Double == 500)
    #expect((mystery["certain"] as? [String: Any])?["value"] as? Double == 0)
    #expect(mystery["missing"] as? [String] == ["an incomplete estimate"])
  }
}
