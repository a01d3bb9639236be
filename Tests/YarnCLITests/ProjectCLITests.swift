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
    let before = try yarn.librarySnapshot()
    let edit = try yarn.run(["project", "edit", "Flax", "--finished", "2026-03-09"])
    #expect(edit.status == 65)
    #expect(
      edit.stderr.hasPrefix("error: 'Flax' cannot finish on 2026-03-09 before it started on 2026-03-10\n"))
    #expect(try yarn.librarySnapshot() == before)
    let finish = try yarn.run(["project", "finish", "Flax", "--on", "2026-03-09"])
    #expect(finish.status == 65)
    _ = try yarn.ok(["project", "edit", "Flax", "--finished", "2026-03-10"])
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
        "error: removing project \"Flax\" would also remove 1 note and 1 time session\n"))
    #expect(try yarn.librarySnapshot() == before)
    _ = try yarn.ok(["project", "rm", "Flax", "--force"])
    _ = try yarn.ok(["project", "add", "Empty"])
    _ = try yarn.ok(["project", "rm", "Empty"])
    let left = try yarn.ok(["project", "list", "--json"]).json() as? [Any]
    #expect(left?.isEmpty == true)
  }
}
