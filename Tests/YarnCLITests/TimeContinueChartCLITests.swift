import Foundation
import Testing

/// `yarn time continue`, `--today`/`--week`/`--month`/`--year` and `time report --chart`
/// through the command line (issue 15, item 5). Sessions lie on past days fixed here, so
/// the tests do not depend on today.
@Suite struct TimeContinueChartCLITests {
  func object(_ result: YarnRunner.Result) throws -> [String: Any] {
    try #require(try result.json() as? [String: Any])
  }

  @Test func continueRestartsTheLatestProject() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let none = try yarn.run(["time", "continue"])
    #expect(none.status == 65)
    #expect(none.stderr.contains("there is no session to continue"))
    try yarn.ok(["project", "add", "Flax"])
    try yarn.ok(["project", "add", "Yoke"])
    try yarn.ok([
      "time", "add", "Yoke", "--from", "2026-11-21 10:00", "--to", "2026-11-21 11:00", "--note", "yoke",
    ])
    try yarn.ok([
      "time", "add", "Flax", "--from", "2026-11-20 10:00", "--to", "2026-11-20 11:00", "--note", "cuffs",
    ])
    // The latest by start is Yoke's, though Flax's was added after it.
    let same = try object(try yarn.ok(["time", "continue", "--same-note", "--json"]))
    #expect(same["project"] as? String == "Yoke")
    #expect(same["note"] as? String == "yoke")
    #expect(same["end"] is NSNull)
    // A timer runs: refused, naming it.
    let running = try yarn.run(["time", "continue"])
    #expect(running.status == 65)
    #expect(running.stderr.contains("Yoke"))
    // Undone like any change.
    try yarn.ok(["undo"])
    let status = try yarn.ok(["time", "log", "--json"])
    #expect((try status.json() as? [Any])?.count == 2)
    // Without --same-note the new session has no note, or the one given.
    let plain = try object(try yarn.ok(["time", "continue", "--json"]))
    #expect(plain["project"] as? String == "Yoke")
    #expect(plain["note"] is NSNull)
    try yarn.ok(["time", "cancel"])
    let noted = try object(try yarn.ok(["time", "continue", "--note", "sleeve", "--json"]))
    #expect(noted["note"] as? String == "sleeve")
    let both = try yarn.run(["time", "continue", "--same-note", "--note", "x"])
    #expect(both.status == 64)
    #expect(
      both.stderr.hasPrefix(
        "error: give '--same-note' or '--note', not both: --same-note copies the latest session's note\n"))
  }

  @Test func periodsExcludeEachOtherAndTheDays() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["project", "add", "Flax"])
    for arguments in [
      ["time", "log", "--week", "--from", "2026-11-01"], ["time", "report", "--week", "--month"],
      ["time", "report", "--today", "--to", "2026-11-01"],
    ] {
      let result = try yarn.run(arguments)
      #expect(result.status == 64, "\(arguments)")
      #expect(result.stderr.contains("not both"), "\(arguments): \(result.stderr)")
    }
    try yarn.ok(["time", "log", "--today"])
    try yarn.ok(["time", "report", "--year", "--by", "week"])
    try yarn.ok(["time", "report", "--month", "--chart"])
  }

  /// 1h on 2026-11-20 and 2h 15m on 2026-11-21, charted 2026-11-18 through 2026-11-22.
  /// Piped: 80 columns; labels 10, two spaces, a space and durations of at most 6 ("2h 15m")
  /// leave 61 for the longest bar: 8100 s → 61, 3600 s → 3600 × 61 / 8100 = 27.1 → 27. At
  /// COLUMNS=40 on a terminal: 21 and 3600 × 21 / 8100 = 9.3 → 9.
  @Test func chartBarsScaledByHand() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["project", "add", "Flax"])
    try yarn.ok(["time", "add", "Flax", "--from", "2026-11-20 10:00", "--to", "2026-11-20 11:00"])
    try yarn.ok(["time", "add", "Flax", "--from", "2026-11-21 10:00", "--to", "2026-11-21 12:15"])
    let arguments = ["time", "report", "--chart", "--from", "2026-11-18", "--to", "2026-11-22"]
    let piped = try yarn.ok(arguments)
    let bar = { (count: Int) in String(repeating: "#", count: count) }
    #expect(
      piped.stdout
        == "2026-11-18  0m\n2026-11-19  0m\n"
        + "2026-11-20  \(bar(27)) 1h\n"
        + "2026-11-21  \(bar(61)) 2h 15m\n"
        + "2026-11-22  0m\n")
    #expect(piped.stderr.contains("total: 3h 15m"))
    let fitted = try yarn.run(arguments, environment: ["COLUMNS": "40", "YARN_FORCE_TERMINAL": "1"])
    #expect(fitted.stdout.contains("2026-11-20  \(bar(9)) 1h\n"))
    #expect(fitted.stdout.contains("2026-11-21  \(bar(21)) 2h 15m\n"))
    #expect(try yarn.run(arguments + ["--by", "day"]).status == 64)
    #expect(try yarn.run(arguments + ["--json"]).status == 64)
  }
}
