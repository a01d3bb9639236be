import Foundation
import Testing

/// `yarn project` through the built binary: a finished day before the started day is refused
/// by every command that sets one, and removing a project that time sessions or notes would
/// go with needs `--force`.
@Suite struct ProjectCLITests {
  /// `project edit` refuses a finished day before the started day, as
  /// `project finish` does, and change nothing.
  @Test func finishedBeforeStartedIsRefusedEverywhere() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    _ = try yarn.ok(["project", "add", "Flax", "--started", "2026-03-10"])
    let shown = try #require(try yarn.ok(["--json", "project", "show", "Flax"]).json() as? [String: Any])
    let short = try #require((shown["id"] as? String)?.prefix(8))
    let before = try yarn.librarySnapshot()
    let edit = try yarn.run(["project", "edit", "Flax", "--finished", "2026-03-09"])
    #expect(edit.status == 65)
    // The store's rule, in its words (`Rules.days`), naming the project as the commands do:
    // its name and the first 8 characters of its ID.
    #expect(
      edit.stderr.hasPrefix(
        "error: project Flax (\(short)): finished day 2026-03-09 is before the started day 2026-03-10\n"))
    // Each hint names the options of the command given.
    #expect(edit.stderr.hasSuffix("hint: change --started or --finished, or --status\n"))
    #expect(try yarn.librarySnapshot() == before)
    let finish = try yarn.run(["project", "finish", "Flax", "--on", "2026-03-09"])
    #expect(finish.status == 65)
    #expect(
      finish.stderr
        == "error: project Flax (\(short)): finished day 2026-03-09 is before the started day 2026-03-10\n"
        + "hint: give --on a day on or after the started day, or change the started day with "
        + "'\(yarn.command("project edit"))'\n")
    _ = try yarn.ok(["project", "edit", "Flax", "--finished", "2026-03-10"])
    // `project add` has no --finished; the project it would add has no ID to name.
    let add = try yarn.run(["project", "add", "Hat", "--status", "finished", "--started", "2999-01-01"])
    #expect(add.status == 65)
    #expect(add.stderr.hasPrefix("error: project Hat: finished day "), "\(add.stderr)")
    #expect(
      add.stderr.hasSuffix(" is before the started day 2999-01-01\nhint: change --started or --status\n"))
  }

  /// Removing a project whose time sessions and notes would go with it needs --force; the
  /// error lists them.
  @Test func projectWithSessionsOrNotesNeedsForce() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    _ = try yarn.ok(["project", "add", "Flax"])
    _ = try yarn.ok(["note", "add", "--project", "Flax", "cast on"])
    _ = try yarn.ok(["time", "start", "Flax", "--at", "-1m"])
    _ = try yarn.ok(["time", "stop"])
    let before = try yarn.librarySnapshot()
    let refused = try yarn.run(["project", "rm", "Flax"])
    #expect(refused.status == 65)
    #expect(
      refused.stderr.hasPrefix(
        "error: removing project \"Flax\" would also remove 1 note and 1 time session\n"
          + "hint: add --force to remove it with them ('\(yarn.command("undo"))' right after gives them back)\n"
      ))
    #expect(try yarn.librarySnapshot() == before)
    // What went with it is said, as `stash rm` and `tool rm` say it.
    let forced = try yarn.ok(["project", "rm", "Flax", "--force"])
    #expect(forced.stderr.contains(" with 1 note and 1 time session\n"))
    _ = try yarn.ok(["project", "add", "Empty"])
    // A finished project gives back what it used, and says so.
    try yarn.ok(["stash", "add", "Rios", "--quantity", "2 skeins"])
    try yarn.ok(["project", "add", "Done"])
    try yarn.ok(["project", "use", "Done", "Rios", "1 skein"])
    try yarn.ok(["project", "finish", "Done"])
    let done = try yarn.ok(["project", "rm", "Done", "--force"])
    #expect(done.stderr.hasSuffix("; what it used of \"Rios\" is back in the stash\n"))
    let empty = try yarn.ok(["project", "rm", "Empty"])
    #expect(empty.stderr.hasPrefix("removed project Empty ("))
    #expect(!empty.stderr.contains(" with "))
    let left = try yarn.ok(["project", "list", "--json"]).json() as? [Any]
    #expect(left?.isEmpty == true)
  }

  /// Every command that prints a project prints the same shape, with `"seconds"`, the time
  /// logged on it; `project rm --force` prints the seconds the project had, its sessions
  /// removed with it.
  @Test func everyProjectPrintedHasItsSeconds() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    func seconds(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> Int? {
      let printed = try #require(
        try yarn.ok(["--json"] + arguments, sourceLocation: sourceLocation).json() as? [String: Any],
        sourceLocation: sourceLocation)
      #expect(printed["name"] as? String == "Flax", sourceLocation: sourceLocation)
      return printed["seconds"] as? Int
    }
    #expect(try seconds(["project", "add", "Flax", "--started", "2026-03-01"]) == 0)
    _ = try yarn.ok(["stash", "add", "Rios", "--quantity", "3 skeins"])
    // 1h 30m and 45m: 5400 + 2700 seconds.
    _ = try yarn.ok(["time", "add", "Flax", "--from", "2026-03-02 10:00", "--to", "2026-03-02 11:30"])
    _ = try yarn.ok(["time", "add", "Flax", "--from", "2026-03-03 20:00", "--duration", "45m"])
    #expect(try seconds(["project", "show", "Flax"]) == 8100)
    #expect(try seconds(["project", "edit", "Flax", "--made-for", "Ann"]) == 8100)
    #expect(try seconds(["project", "use", "Flax", "Rios", "1 skein"]) == 8100)
    #expect(try seconds(["project", "unuse", "Flax", "Rios"]) == 8100)
    #expect(try seconds(["project", "finish", "Flax", "--on", "2026-03-04"]) == 8100)
    let listed = try #require(try yarn.ok(["--json", "project", "list"]).json() as? [[String: Any]])
    #expect(listed.map { $0["seconds"] as? Int } == [8100])
    #expect(try seconds(["project", "rm", "Flax", "--force"]) == 8100)
    #expect((try yarn.ok(["--json", "time", "log"]).json() as? [Any])?.isEmpty == true)
  }

  /// A finished project always has a finished day, and only a finished one gets one.
  @Test func statusAndFinishedDayAgree() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    func project(_ arguments: [String]) throws -> [String: Any] {
      try #require(try yarn.ok(arguments + ["--json"]).json() as? [String: Any])
    }
    // --status finished without --finished: finished today (the runner's TZ is UTC).
    let today = String(ISO8601DateFormatter().string(from: Date()).prefix(10))
    let hat = try project(["project", "add", "Hat", "--status", "finished"])
    #expect(hat["finished"] as? String == today)
    // Leaving finished clears the day, and says which day went.
    let reopenedRun = try yarn.ok(["project", "edit", "Hat", "--status", "in-progress", "--json"])
    let reopened = try #require(try reopenedRun.json() as? [String: Any])
    #expect(reopened["finished"] == nil)
    #expect(reopened["status"] as? String == "in-progress")
    #expect(
      reopenedRun.stderr.contains(
        "its finished day \(today) is cleared, as it is no longer finished ('\(yarn.command("undo"))' gives it back)"
      ))
    // --finished alone finishes it on that day; with another status it is refused.
    let finished = try project(["project", "edit", "Hat", "--finished", "2026-11-20"])
    #expect(finished["status"] as? String == "finished")
    #expect(finished["finished"] as? String == "2026-11-20")
    let before = try yarn.librarySnapshot()
    let other = try yarn.run(["project", "edit", "Hat", "--status", "planned", "--finished", "2026-11-20"])
    #expect(other.status == 64)
    #expect(other.stderr.contains("a project that is planned has no finished day"))
    // A finished project keeps a day: clearing it is refused.
    let cleared = try yarn.run(["project", "edit", "Hat", "--finished", ""])
    #expect(cleared.status == 65)
    #expect(cleared.stderr.hasPrefix("error: project Hat ("))
    #expect(cleared.stderr.contains("): finished day is missing; a finished project has one\n"))
    #expect(try yarn.librarySnapshot() == before)
    // The year summary counts it.
    let summary = try #require(
      try yarn.ok(["summary", "--year", "2026", "--json"]).json() as? [String: Any])
    #expect((summary["finished"] as? [Any])?.count == 1)
    // A frogged project's day is the day it was frogged: giving it keeps the project frogged
    // (its yarn does not count against the stash), with --status frogged or alone.
    let froggedRun = try yarn.ok(
      ["project", "edit", "Hat", "--status", "frogged", "--finished", "2026-11-21", "--json"])
    let frogged = try #require(try froggedRun.json() as? [String: Any])
    #expect(frogged["status"] as? String == "frogged")
    #expect(frogged["finished"] as? String == "2026-11-21")
    #expect(
      froggedRun.stderr.hasSuffix(
        "its finished day 2026-11-20 is replaced by the day it was frogged, 2026-11-21 "
          + "('\(yarn.command("undo"))' gives it back)\n"))
    let movedRun = try yarn.ok(["project", "edit", "Hat", "--finished", "2026-11-22", "--json"])
    let moved = try #require(try movedRun.json() as? [String: Any])
    #expect(moved["status"] as? String == "frogged")
    #expect(moved["finished"] as? String == "2026-11-22")
    #expect(
      movedRun.stderr.hasSuffix(
        "the day it was frogged, 2026-11-21, is replaced by 2026-11-22 ('\(yarn.command("undo"))' gives it back)\n"
      ))
    // A frogged project's day is the day it was frogged: finished, it takes today; frogged
    // again, it keeps it.
    for name in ["Sock", "Mitt"] {
      try yarn.ok(["project", "add", name, "--status", "frogged", "--started", "2026-01-01"])
      try yarn.ok(["project", "edit", name, "--finished", "2026-02-01"])
    }
    #expect(try project(["project", "edit", "Sock", "--status", "finished"])["finished"] as? String == today)
    #expect(
      try project(["project", "edit", "Mitt", "--status", "frogged"])["finished"] as? String == "2026-02-01")
    // Which day went is said, in the words of the status left.
    try yarn.ok(["project", "edit", "Sock", "--status", "frogged", "--finished", "2026-02-01"])
    let finishing = try yarn.ok(["project", "edit", "Sock", "--status", "finished"])
    #expect(
      finishing.stderr.hasSuffix(
        "the day it was frogged, 2026-02-01, is replaced by its finished day \(today) ('\(yarn.command("undo"))' gives it back)\n"
      ))
    let unfrogged = try yarn.ok(["project", "edit", "Mitt", "--status", "in-progress"])
    #expect(
      unfrogged.stderr.hasSuffix(
        "the day it was frogged, 2026-02-01, is cleared, as it is no longer frogged ('\(yarn.command("undo"))' gives it back)\n"
      ))
    // A finished project given another finished day: the day replaced is said too.
    let redated = try yarn.ok(["project", "edit", "Sock", "--finished", "2026-03-03"])
    #expect(
      redated.stderr.hasSuffix(
        "its finished day \(today) is replaced by 2026-03-03 ('\(yarn.command("undo"))' gives it back)\n"))
  }

  /// `project finish` of a finished or frogged project says which day it replaces, in the
  /// words of `project edit`; finishing it again on its own day changes nothing and says so.
  @Test func finishSaysWhichDayItReplaces() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    // The runner's TZ is UTC.
    let today = String(ISO8601DateFormatter().string(from: Date()).prefix(10))
    func finishedIn2025() throws -> Int? {
      let summary = try yarn.ok(["summary", "--year", "2025", "--json"]).json() as? [String: Any]
      return (summary?["finished"] as? [Any])?.count
    }
    func changes() throws -> Int? { (try yarn.ok(["undo", "--list", "--json"]).json() as? [Any])?.count }
    try yarn.ok(["project", "add", "S", "--started", "2025-11-01"])
    try yarn.ok(["project", "finish", "S", "--on", "2025-12-30"])
    #expect(try finishedIn2025() == 1)
    let again = try yarn.ok(["project", "finish", "S"])
    #expect(
      again.stderr
        == "finished project S on \(today)\n"
        + "its finished day 2025-12-30 is replaced by \(today) ('\(yarn.command("undo"))' gives it back)\n")
    #expect(try finishedIn2025() == 0)
    try yarn.ok(["undo"])
    #expect(try finishedIn2025() == 1)
    // The day and status it has: nothing changes, and there is nothing new to undo.
    let count = try changes()
    let same = try yarn.ok(["project", "finish", "S", "--on", "2025-12-30"])
    #expect(same.stderr == "project S was already finished on 2025-12-30; nothing changed\n")
    #expect(try changes() == count)
    // A frogged project's day is the day it was frogged.
    try yarn.ok(["project", "add", "F", "--status", "frogged"])
    try yarn.ok(["project", "edit", "F", "--finished", "2026-02-01"])
    let frogged = try yarn.ok(["project", "finish", "F", "--on", "2026-03-01"])
    #expect(
      frogged.stderr
        == "finished project F on 2026-03-01\n"
        + "the day it was frogged, 2026-02-01, is replaced by its finished day 2026-03-01 "
        + "('\(yarn.command("undo"))' gives it back)\n")
  }
}
