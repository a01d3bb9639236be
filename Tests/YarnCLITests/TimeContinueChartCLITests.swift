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
    // A timer runs: refused, naming it, with a hint that names no option `continue` lacks
    // (it has no --switch).
    let running = try yarn.run(["time", "continue"])
    #expect(running.status == 65)
    #expect(running.stderr.contains("Yoke"))
    #expect(
      running.stderr.hasSuffix("\nhint: stop it first with '\(yarn.command("time stop"))'\n"),
      "\(running.stderr)")
    #expect(try yarn.run(["time", "continue", "--switch"]).status == 64)
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
    // A start in the past over a recorded session: `continue` has no --allow-overlap either.
    try yarn.ok(["time", "cancel"])
    try yarn.ok(["time", "add", "Flax", "--from", "-3h", "--to", "-1h"])
    let overlap = try yarn.run(["time", "continue", "--at", "-2h"])
    #expect(overlap.status == 65)
    #expect(overlap.stderr.hasPrefix("error: the new session overlaps the session on \"Flax\" from "))
    #expect(
      overlap.stderr.hasSuffix(
        "\nhint: start it later, or record it with '\(yarn.command("time add"))', which takes --allow-overlap\n"
      ),
      "\(overlap.stderr)")
  }

  /// QA: the note of the session `continue` starts was printed raw in its `started …` line:
  /// a U+202E RIGHT-TO-LEFT OVERRIDE in it reversed the rest of the terminal line, a line
  /// break broke it. It is quoted as every message quotes a value (`LineText.quoted`).
  @Test func theNoteContinuedIsShownEscaped() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["project", "add", "Yoke"])
    try yarn.ok([
      "time", "add", "Yoke", "--from", "2026-11-21 10:00", "--to", "2026-11-21 11:00", "--note",
      "sl\u{202E}eeve\ncuffs",
    ])
    let started = try yarn.ok(["time", "continue", "--same-note"]).stderr
    #expect(started.hasPrefix("started Yoke at "), "\(started)")
    #expect(started.hasSuffix(" (\"sl\\u{202E}eeve\\ncuffs\")\n"), "\(started)")
    #expect(!started.unicodeScalars.contains("\u{202E}"))
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

  /// `--year 2025` names a year on time log, time report and summary; summary takes the
  /// periods around today too (the runner's TZ is UTC).
  @Test func aGivenYearAndSummaryPeriods() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["project", "add", "Flax"])
    try yarn.ok(["time", "add", "Flax", "--from", "2025-06-01 10:00", "--to", "2025-06-01 11:00"])
    try yarn.ok(["time", "add", "Flax", "--from", "2024-12-31 23:00", "--to", "2025-01-01 00:30"])
    try yarn.ok(["time", "add", "Flax", "--from", "2026-02-01 10:00", "--to", "2026-02-01 10:45"])
    // 2025 holds the June hour and the whole session that crosses New Year (the log lists a
    // session sharing time with the days whole).
    for year in [["--year", "2025"], ["--year=2025"]] {
      let log = try #require(try yarn.ok(["time", "log", "--json"] + year).json() as? [[String: Any]])
      #expect(log.map { $0["seconds"] as? Int } == [5_400, 3_600], "\(year)")
    }
    // The report counts only the time inside 2025: 30 min of the New Year session + 1 h.
    let report = try #require(
      try yarn.ok(["time", "report", "--year", "2025", "--by", "month", "--json"]).json() as? [[String: Any]])
    #expect(report.map { $0["period"] as? String } == ["2025-01", "2025-06"])
    #expect(report.map { $0["seconds"] as? Int } == [1_800, 3_600])
    let summary = try #require(try yarn.ok(["summary", "--year", "2025", "--json"]).json() as? [String: Any])
    #expect(summary["from"] as? String == "2025-01-01" && summary["to"] as? String == "2025-12-31")
    #expect(summary["year"] as? Int == 2025)
    #expect(summary["loggedSeconds"] as? Int == 5_400)
    let busiest = try #require(summary["busiestMonth"] as? [String: Any])
    #expect(busiest["year"] as? Int == 2025 && busiest["month"] as? Int == 6)

    // The periods around today: from and to as worked out here (ISO weeks start on Monday).
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let before = calendar.dateComponents([.year, .month, .day, .weekday], from: Date())
    let week = try #require(try yarn.ok(["summary", "--week", "--json"]).json() as? [String: Any])
    let month = try #require(try yarn.ok(["summary", "--month", "--json"]).json() as? [String: Any])
    let today = try #require(try yarn.ok(["summary", "--today", "--json"]).json() as? [String: Any])
    let after = calendar.dateComponents([.year, .month, .day, .weekday], from: Date())
    if before == after, let day = calendar.date(from: before) {
      let text = { (date: Date) -> String in
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
      }
      // weekday: 1 is Sunday … 7 Saturday; days back to Monday: (weekday + 5) % 7.
      let monday = calendar.date(byAdding: .day, value: -(((before.weekday ?? 2) + 5) % 7), to: day)!
      #expect(week["from"] as? String == text(monday))
      #expect(week["to"] as? String == text(calendar.date(byAdding: .day, value: 6, to: monday)!))
      #expect(week["year"] is NSNull)
      #expect(month["from"] as? String == String(format: "%04d-%02d-01", before.year ?? 0, before.month ?? 0))
      #expect(month["busiestMonth"] is NSNull)
      #expect(today["from"] as? String == text(day) && today["to"] as? String == text(day))
    }
    let text = try yarn.ok(["summary", "--year", "2025"]).stdout
    #expect(text.hasPrefix("2025 in review\n"))
    #expect(text.contains("Busiest month: June 2025 (1h)\n"))

    // Refused: two periods, the card for less than a year, a year that is no year.
    for arguments in [
      ["summary", "--year", "--week"], ["summary", "--month", "--card", "card.svg"],
      ["summary", "--year", "0"], ["summary", "--year", "twenty"], ["time", "log", "--year", "10000"],
    ] {
      let result = try yarn.run(arguments)
      #expect(result.status == 64, "\(arguments): \(result.stderr)")
      #expect(result.stderr.hasPrefix("error: "), "\(arguments)")
    }
    #expect(!FileManager.default.fileExists(atPath: yarn.directory.appendingPathComponent("card.svg").path))
    let help = try yarn.ok(["help", "summary"]).stdout
    #expect(help.contains("--year [<year>]"))
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
