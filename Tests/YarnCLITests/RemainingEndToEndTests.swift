import Foundation
import Testing
import YarnCore

/// Every source of the remaining estimate, reached through the built `yarn` and checked in
/// `stash list`, `stash show`, the CSV export and JSON, with and without `--include-active`.
///
/// The library (figures worked out by hand; 1 oz = 28.349523125 g, 1 yd = 0.9144 m):
/// - Cascade 220, 220 yd / 100 g a skein, 3 skeins. Finished Hat used 150 g (1.5 skeins) and
///   22 yd (0.1 skein): 1.4 skeins = 140 g = 140 / 28.349523125 = 4.938 oz = 308 yd
///   = 308 × 0.9144 = 281.6352 m — **estimate**. Scarf (in progress) used 0.4 skein: with
///   `--include-active` 1 skein = 100 g = 3.527 oz = 220 yd = 201.168 m. Someday (planned) and
///   Oops (frogged) used 1 skein each, which never counts.
/// - Mystery Wool, 500 g, no put-up. Hat used 2 oz = 56.69904625 g and 100 yd, which cannot be
///   converted: 443.30095375 g = 15.637 oz — **incomplete**.
/// - Super Saver, 364 yd / 7 oz a skein, 14 oz. Hat used 3 skeins = 21 oz: 0 oz, short by
///   7 oz = 1 skein = 198.446661875 g = 364 yd = 332.8416 m — **overdrawn**.
/// - Scraps, 3 skeins, remaining set to 40 g = 1.411 oz — **override**.
/// - Unknown, no quantity — **unknown**.
@Suite struct RemainingEndToEndTests {
  private func makeLibrary(_ yarn: YarnRunner) throws {
    try yarn.ok([
      "stash", "add", "Cascade 220", "--length-per-skein", "220yd", "--net-weight-per-skein", "100g",
      "--quantity", "3 skeins", "--weight", "worsted", "--added", "2026-01-02",
    ])
    try yarn.ok(["stash", "add", "Mystery Wool", "--quantity", "500 g", "--added", "2026-01-02"])
    try yarn.ok([
      "stash", "add", "Super Saver", "--length-per-skein", "364 yd", "--net-weight-per-skein", "7 oz",
      "--quantity", "14oz", "--added", "2026-01-02",
    ])
    try yarn.ok([
      "stash", "add", "Scraps", "--quantity", "3 skeins", "--remaining", "40g", "--added", "2026-01-02",
    ])
    try yarn.ok(["stash", "add", "Unknown", "--added", "2026-01-02"])
    try yarn.ok(["project", "add", "Hat", "--status", "finished"])
    try yarn.ok(["project", "add", "Scarf", "--status", "in-progress"])
    try yarn.ok(["project", "add", "Someday", "--status", "planned"])
    try yarn.ok(["project", "add", "Oops", "--status", "frogged"])
    try yarn.ok(["project", "use", "Hat", "Cascade 220", "150 g"])
    try yarn.ok(["project", "use", "Hat", "Cascade 220", "22 yd"])
    try yarn.ok(["project", "use", "Scarf", "Cascade 220", "0.4 skein"])
    try yarn.ok(["project", "use", "Someday", "Cascade 220", "1 skein"])
    try yarn.ok(["project", "use", "Oops", "Cascade 220", "1 skein"])
    try yarn.ok(["project", "use", "Hat", "Mystery Wool", "2 oz"])
    try yarn.ok(["project", "use", "Hat", "Mystery Wool", "100 yd"])
    try yarn.ok(["project", "use", "Hat", "Super Saver", "3 skeins"])
    try yarn.ok(["project", "use", "Hat", "Unknown", "50 g"])
  }

  private func close(_ value: Any?, _ expected: Double) -> Bool {
    guard let value = value as? Double else { return false }
    return abs(value - expected) <= 1e-9 * max(1, abs(expected))
  }

  @Test func stashShowGivesEveryUnitAndTheSource() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try makeLibrary(yarn)

    let cascade = try yarn.ok(["stash", "show", "Cascade 220"]).stdout
    #expect(cascade.contains("Quantity:     3 skeins\n"))
    #expect(cascade.contains("Remaining:    1.4 skeins ≈ 140 g ≈ 4.94 oz ≈ 308 yd ≈ 281.64 m (estimate)\n"))
    #expect(!cascade.contains("Not counted"))
    let active = try yarn.ok(["stash", "show", "Cascade 220", "--include-active"]).stdout
    #expect(active.contains("Remaining:    1 skein ≈ 100 g ≈ 3.53 oz ≈ 220 yd ≈ 201.17 m (estimate)\n"))

    let mystery = try yarn.ok(["stash", "show", "Mystery Wool"]).stdout
    #expect(mystery.contains("Remaining:    443.3 g ≈ 15.64 oz (incomplete)\n"))
    #expect(
      mystery.contains(
        "Not counted:  Hat: 100 yd, needs the length per skein and the net weight per skein\n"))

    let saver = try yarn.ok(["stash", "show", "Super Saver"]).stdout
    #expect(
      saver.contains(
        "Remaining:    0 oz (overdrawn)\n"
          + "              overdrawn by 7 oz ≈ 1 skein ≈ 198.45 g ≈ 364 yd ≈ 332.84 m\n"))

    let scraps = try yarn.ok(["stash", "show", "Scraps"]).stdout
    #expect(scraps.contains("Remaining:    40 g ≈ 1.41 oz (override)\n"))

    let unknown = try yarn.ok(["stash", "show", "Unknown"]).stdout
    #expect(unknown.contains("Quantity:     unknown\n"))
    #expect(unknown.contains("Remaining:    unknown (no quantity)\n"))
  }

  @Test func stashListMarksTheSource() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try makeLibrary(yarn)
    func remainingColumn(_ arguments: [String]) throws -> [String: String] {
      let lines = try yarn.ok(arguments).stdout.split(separator: "\n").map(String.init)
      guard let header = lines.first, let column = header.range(of: "REMAINING") else { return [:] }
      var out: [String: String] = [:]
      for line in lines.dropFirst() {
        let name = String(line.dropFirst(10).prefix(12)).trimmingCharacters(in: .whitespaces)
        let offset = header.distance(from: header.startIndex, to: column.lowerBound)
        out[name] = String(line.dropFirst(offset)).trimmingCharacters(in: .whitespaces)
      }
      return out
    }
    let plain = try remainingColumn(["stash", "list"])
    #expect(plain["Cascade 220"] == "1.4 skeins")
    #expect(plain["Mystery Wool"] == "443.3 g (incomplete)")
    #expect(plain["Super Saver"] == "0 oz (overdrawn)")
    #expect(plain["Scraps"] == "40 g (override)")
    #expect(plain["Unknown"] == "-")
    let active = try remainingColumn(["stash", "list", "--include-active"])
    #expect(active["Cascade 220"] == "1 skein")
    #expect(active["Mystery Wool"] == "443.3 g (incomplete)")
  }

  @Test func jsonCarriesValueUnitSourceDeficitAndUnconverted() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try makeLibrary(yarn)
    let list = try #require(try yarn.ok(["stash", "list", "--json"]).json() as? [[String: Any]])
    var byName: [String: [String: Any]] = [:]
    for object in list { byName[object["name"] as? String ?? ""] = object }

    let cascade = try #require(byName["Cascade 220"]?["remaining"] as? [String: Any])
    #expect(cascade["source"] as? String == "estimate")
    #expect(cascade["unit"] as? String == "skein")
    #expect(close(cascade["value"], 1.4))

    let mystery = try #require(byName["Mystery Wool"]?["remaining"] as? [String: Any])
    #expect(mystery["source"] as? String == "incomplete")
    #expect(mystery["unit"] as? String == "g")
    #expect(close(mystery["value"], 443.30095375))
    let unconverted = try #require(mystery["unconverted"] as? [[String: Any]])
    try #require(unconverted.count == 1)
    #expect(unconverted[0]["project"] as? String == "Hat")
    #expect(unconverted[0]["projectID"] is String)
    #expect(unconverted[0]["missing"] as? [String] == ["length per skein", "net weight per skein"])
    let amount = try #require(unconverted[0]["amount"] as? [String: Any])
    #expect(amount["unit"] as? String == "yd")
    #expect(amount["value"] as? Double == 100)

    let saver = try #require(byName["Super Saver"]?["remaining"] as? [String: Any])
    #expect(saver["source"] as? String == "overdrawn")
    #expect(saver["value"] as? Double == 0)
    #expect(saver["unit"] as? String == "oz")
    #expect(close(saver["deficit"], 7))

    let scraps = try #require(byName["Scraps"]?["remaining"] as? [String: Any])
    #expect(scraps["source"] as? String == "override")
    #expect(scraps["value"] as? Double == 40)
    #expect(scraps["unit"] as? String == "g")

    #expect(byName["Unknown"]?["remaining"] is NSNull)
    #expect(byName["Unknown"]?["quantity"] is NSNull)

    let show = try #require(
      try yarn.ok(["stash", "show", "Cascade 220", "--json", "--include-active"]).json() as? [String: Any])
    let active = try #require(show["remaining"] as? [String: Any])
    #expect(close(active["value"], 1))
  }

  @Test func csvHasRemainingUnitAndSource() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try makeLibrary(yarn)
    func rows(_ arguments: [String]) throws -> [String: [String]] {
      let text = try yarn.ok(arguments).stdout
      let records = text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
      let header = records.first?.components(separatedBy: ",") ?? []
      #expect(Array(header[13...15]) == ["Remaining", "Remaining Unit", "Remaining Source"])
      var out: [String: [String]] = [:]
      for record in records.dropFirst() {
        let fields = record.components(separatedBy: ",")
        out[fields[0]] = Array(fields[13...15])
      }
      return out
    }
    let plain = try rows(["stash", "export"])
    #expect(plain["Mystery Wool"] == ["443.30095375", "g", "incomplete"])
    #expect(plain["Super Saver"] == ["0", "oz", "overdrawn"])
    #expect(plain["Scraps"] == ["40", "g", "override"])
    #expect(plain["Unknown"] == ["", "", "unknown"])
    let cascade = try #require(plain["Cascade 220"])
    #expect(close(Double(cascade[0]), 1.4))
    #expect(Array(cascade[1...]) == ["skein", "estimate"])
    let active = try rows(["stash", "export", "--include-active"])
    #expect(close(Double(active["Cascade 220"]?[0] ?? ""), 1))
  }

  /// Finishing the in-progress project moves its usage into the default estimate; frogging the
  /// finished one takes its usages out again.
  @Test func statusChangesMoveTheEstimate() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try makeLibrary(yarn)
    try yarn.ok(["project", "finish", "Scarf"])
    // 3 − 1.5 − 0.1 − 0.4 = 1 skein.
    #expect(try yarn.ok(["stash", "show", "Cascade 220"]).stdout.contains("Remaining:    1 skein ≈ "))
    try yarn.ok(["project", "edit", "Hat", "--status", "frogged"])
    // Only Scarf's 0.4 skein counts: 2.6 skeins = 260 g = 9.17 oz = 572 yd = 523.0368 m.
    #expect(
      try yarn.ok(["stash", "show", "Cascade 220"]).stdout.contains(
        "Remaining:    2.6 skeins ≈ 260 g ≈ 9.17 oz ≈ 572 yd ≈ 523.04 m (estimate)\n"))
    // Super Saver is no longer overdrawn: nothing counts against its 14 oz.
    #expect(
      try yarn.ok(["stash", "show", "Super Saver"]).stdout.contains(
        "Remaining:    14 oz ≈ 2 skeins ≈ 396.89 g ≈ 728 yd ≈ 665.68 m (estimate)\n"))
    // Clearing the override brings back the estimate: 3 skeins, no put-up.
    try yarn.ok(["stash", "edit", "Scraps", "--remaining", ""])
    #expect(try yarn.ok(["stash", "show", "Scraps"]).stdout.contains("Remaining:    3 skeins (estimate)\n"))
  }
}

/// `yarn convert` as a user runs it; figures by hand from the exact constants.
@Suite struct ConvertEndToEndTests {
  @Test func jsonIsValueAndUnit() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let result = try yarn.ok(["convert", "1 oz", "--to", "g", "--json"])
    // Pretty-printed with sorted keys, as every --json output (docs/CLI.md).
    #expect(result.stdout == "{\n  \"unit\" : \"g\",\n  \"value\" : 28.349523125\n}\n")
    #expect(!FileManager.default.fileExists(atPath: yarn.library.path))
  }

  /// Cascade 220 (220 yd / 100 g): 1 oz = 28.349523125 / 100 skein = 0.2835 skein
  /// = 62.368950875 yd = 57.03 m; 3 skeins = 300 g = 10.58 oz = 660 yd = 603.504 m.
  @Test(arguments: [
    ("1 oz", "skein", "0.28 skeins\n"), ("1 oz", "yd", "62.37 yd\n"), ("1 oz", "m", "57.03 m\n"),
    ("3 skeins", "g", "300 g\n"), ("3 skeins", "oz", "10.58 oz\n"), ("3 skeins", "m", "603.5 m\n"),
    ("660 yd", "skeins", "3 skeins\n"), ("100 m", "yd", "109.36 yd\n"), ("1,5 sk", "yd", "330 yd\n"),
    ("110 yd", "skein", "0.5 skeins\n"), ("100 g", "skein", "1 skein\n"),
  ])
  func withPutUpOptions(amount: String, unit: String, expected: String) throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let result = try yarn.ok([
      "convert", amount, "--to", unit, "--length-per-skein", "220 yd", "--net-weight-per-skein", "100g",
    ])
    #expect(result.stdout == expected)
  }

  @Test func missingFactsExit65NamingThem() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let cases: [([String], String)] = [
      (["2 skeins", "--to", "g"], "converting skein to g needs the net weight per skein"),
      (
        ["2 skeins", "--to", "m", "--net-weight-per-skein", "50g"],
        "converting skein to m needs the length per skein"
      ),
      (
        ["100 g", "--to", "yd"], "converting g to yd needs the length per skein and the net weight per skein"
      ),
      (
        ["100 g", "--to", "yd", "--length-per-skein", "200m"],
        "converting g to yd needs the net weight per skein"
      ),
    ]
    for (arguments, message) in cases {
      let result = try yarn.run(["convert"] + arguments)
      #expect(result.status == 65, "\(arguments)")
      #expect(result.stdout == "")
      #expect(result.stderr.hasPrefix("error: \(message)\nhint: give the yarn's put-up (--"), "\(arguments)")
    }
  }

  /// `--yarn` takes the stash yarn's put-up; an option given as well wins.
  @Test func yarnPutUpAndOverride() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok([
      "stash", "add", "Drops Alpaca", "--length-per-skein", "167m", "--net-weight-per-skein", "50g",
    ])
    // 500 yd = 457.2 m = 457.2 / 167 = 2.7377 skeins.
    #expect(
      try yarn.ok(["convert", "500 yd", "--to", "skein", "--yarn", "drops alpaca"]).stdout == "2.74 skeins\n")
    // With 100 g skeins instead: 2 skeins = 200 g.
    #expect(
      try yarn.ok([
        "convert", "2 skeins", "--to", "g", "--yarn", "Drops Alpaca", "--net-weight-per-skein", "100g",
      ])
      .stdout == "200 g\n")
    let missing = try yarn.run(["convert", "1 skein", "--to", "g", "--yarn", "Nothing"])
    #expect(missing.status == 65)
    #expect(missing.stderr.hasPrefix("error: no yarn matches 'Nothing'\n"))
  }

  @Test func badInputIsAUsageError() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let cases: [([String], String)] = [
      (
        ["3 bananas", "--to", "g"],
        "error: bad value '3 bananas' for <amount-or-size>: \"3 bananas\" has an unknown unit"
      ),
      (["", "--to", "g"], "error: bad value '' for <amount-or-size>: an amount is empty"),
      (
        ["nan g", "--to", "oz"],
        "error: bad value 'nan g' for <amount-or-size>: \"nan g\" is not a finite number"
      ),
      (
        ["1,000 g", "--to", "oz"], "error: bad value '1,000 g' for <amount-or-size>: \"1,000 g\" is ambiguous"
      ),
      (["1 g", "--to", "bananas"], "error: bad value 'bananas' for --to: expected a unit"),
      (
        ["1 skein", "--to", "g", "--net-weight-per-skein", "100 yd"],
        "error: bad value '100 yd' for --net-weight-per-skein"
      ),
    ]
    for (arguments, prefix) in cases {
      let result = try yarn.run(["convert"] + arguments)
      #expect(result.status == 64, "\(arguments)")
      #expect(result.stderr.hasPrefix(prefix), "\(result.stderr)")
    }
  }
}

extension RemainingEndToEndTests {
  /// `stash list --json` is printed yarn by yarn; the bytes are those of the whole array as
  /// the encoder prints it (written out here as the release before the change printed them):
  /// an empty array is `[`, an empty line, `]`; an empty array inside keeps its empty line.
  @Test func listJSONIsTheWholeArraysBytes() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let store = try LibraryStore(directory: yarn.library, mode: .readWrite)
    #expect(try yarn.ok(["--json", "stash", "list"]).stdout == "[\n\n]\n")
    try store.insert(
      library: Library(
        yarns: [
          Yarn(id: "y-silk", name: "Silk", quantity: Amount(500, .gram), dateAdded: day("2026-01-02")),
          Yarn(id: "y-linen", name: "Linen", dateAdded: day("2026-01-03")),
        ],
        projects: [
          Project(
            id: "p-shawl", name: "Shawl", status: .finished,
            finished: CalendarDate(year: 2026, month: 1, day: 10),
            usages: [YarnUsage(yarnID: "y-silk", amount: Amount(2, .skein))])
        ]))
    try store.close()
    #expect(
      try yarn.ok(["--json", "stash", "list"]).stdout == """
        [
          {
            "dateAdded" : "2026-01-02",
            "id" : "y-silk",
            "isStashed" : true,
            "name" : "Silk",
            "photos" : [

            ],
            "quantity" : {
              "unit" : "g",
              "value" : 500
            },
            "remaining" : {
              "source" : "incomplete",
              "unconverted" : [
                {
                  "amount" : {
                    "unit" : "skein",
                    "value" : 2
                  },
                  "missing" : [
                    "net weight per skein"
                  ],
                  "project" : "Shawl",
                  "projectID" : "p-shawl"
                }
              ],
              "unit" : "g",
              "value" : 500
            },
            "status" : "in-stash",
            "tags" : [

            ]
          },
          {
            "dateAdded" : "2026-01-03",
            "id" : "y-linen",
            "isStashed" : true,
            "name" : "Linen",
            "photos" : [

            ],
            "quantity" : null,
            "remaining" : null,
            "status" : "in-stash",
            "tags" : [

            ]
          }
        ]

        """)
  }

  private func day(_ text: String) -> CalendarDate? { CalendarDate(iso8601: text) }
}
