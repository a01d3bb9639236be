import Foundation
import Testing

/// `yarn time` refuses a time whose UTC falls outside 0001-01-01T00:00:00Z … 9999-12-31T23:59:59Z,
/// the instants a backup can hold, and shows the extreme years it accepts. Zones are POSIX
/// rules with fixed offsets: `JST-9` is UTC+9, `EST5` is UTC−5.
@Suite struct InstantRangeCLITests {
  static let range =
    "falls outside 0001-01-01T00:00:00Z … 9999-12-31T23:59:59Z in UTC, the instants yarn can store"

  @Test func timeAddWithAnInstantOfYearZeroIsRefusedAndChangesNothing() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["project", "add", "P", "-q"])
    let before = try yarn.librarySnapshot()
    // 0001-01-01T00:00:00+18:00 is 0000-12-31T06:00:00Z.
    let result = try yarn.run([
      "time", "add", "P", "--from", "0001-01-01T00:00:00+18:00", "--to", "0001-01-01T01:00:00+18:00",
    ])
    #expect(result.status == 64)
    #expect(
      result.stderr.hasPrefix(
        "error: bad value '0001-01-01T00:00:00+18:00' for --from: the time \"0001-01-01T00:00:00+18:00\" "
          + Self.range + "\n"),
      "\(result.stderr)")
    #expect(try yarn.librarySnapshot() == before)
  }

  @Test func everyTimeOptionRefusesAnInstantOutsideTheRange() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let env = ["TZ": "JST-9"]
    try yarn.ok(["project", "add", "P", "-q"])
    try yarn.ok(["time", "add", "P", "--from", "2026-06-01T10:00:00Z", "--to", "2026-06-01T11:00:00Z"])
    let log = try yarn.run(["time", "log", "--json"])
    let sessions = try #require(try log.json() as? [[String: Any]])
    let id = try #require(sessions.first?["id"] as? String)
    try yarn.ok(["time", "start", "P"])
    let before = try yarn.librarySnapshot()
    for (arguments, option, value) in [
      // 0001-01-01 00:00 at UTC+9 is 0000-12-31T15:00:00Z.
      (
        ["time", "add", "P", "--from", "0001-01-01 00:00", "--to", "0001-01-01 10:00"], "--from",
        "0001-01-01 00:00"
      ),
      // 9999-12-31T23:59:59-18:00 is 10000-01-01T17:59:59Z.
      (
        ["time", "add", "P", "--from", "2026-06-01 08:00", "--to", "9999-12-31T23:59:59-18:00"], "--to",
        "9999-12-31T23:59:59-18:00"
      ),
      (["time", "start", "P", "--switch", "--at", "-999999999h"], "--at", "-999999999h"),
      (["time", "stop", "--at", "0001-01-01T08:59:59"], "--at", "0001-01-01T08:59:59"),
      (["time", "edit", id, "--from", "0001-01-01T00:00:00+18:00"], "--from", "0001-01-01T00:00:00+18:00"),
      (["time", "edit", id, "--to", "9999-12-31T06:00:00-18:00"], "--to", "9999-12-31T06:00:00-18:00"),
    ] {
      let result = try yarn.run(arguments, environment: env)
      #expect(result.status == 64, "\(arguments): \(result.stderr)")
      #expect(
        result.stderr.hasPrefix(
          "error: bad value '\(value)' for \(option): the time \"\(value)\" " + Self.range + "\n"),
        "\(arguments): \(result.stderr)")
    }
    #expect(try yarn.librarySnapshot() == before)
  }

  @Test func theFirstInstantIsStoredShownAndBackedUp() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["project", "add", "P", "-q"])
    // 09:00 on 0001-01-01 at UTC+9 is the first instant, 0001-01-01T00:00:00Z.
    let added = try yarn.run(
      ["time", "add", "P", "--from", "0001-01-01 09:00", "--to", "0001-01-01 10:00"],
      environment: ["TZ": "JST-9"])
    #expect(added.status == 0, "\(added.stderr)")
    let log = try yarn.run(["time", "log", "--json"])
    let sessions = try #require(try log.json() as? [[String: Any]])
    #expect(sessions.map { $0["start"] as? String } == ["0001-01-01T00:00:00Z"])
    #expect(sessions.map { $0["end"] as? String } == ["0001-01-01T01:00:00Z"])
    // At UTC−5 it is 19:00 on 0000-12-31, a day of year 0.
    let table = try yarn.run(["time", "log"], environment: ["TZ": "EST5"])
    #expect(table.status == 0)
    #expect(table.stdout.contains("  0000-12-31 19:00  0000-12-31 20:00  1h  "), "\(table.stdout)")
    let report = try yarn.run(["time", "report", "--by", "week"], environment: ["TZ": "JST-9"])
    #expect(report.status == 0)
    #expect(report.stdout.contains("\n0001-W01  1h    1:00\n"), "\(report.stdout)")

    let zip = yarn.directory.appendingPathComponent("b.zip").path
    try yarn.ok(["backup", "create", zip])
    let verified = try yarn.run(["backup", "verify", zip])
    #expect(verified.status == 0, "\(verified.stderr)")
    let restored = try yarn.run(
      ["--library", yarn.directory.appendingPathComponent("new").path, "backup", "restore", zip],
      useLibrary: false)
    #expect(restored.status == 0, "\(restored.stderr)")
  }
}
