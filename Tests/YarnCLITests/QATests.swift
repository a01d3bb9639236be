import Foundation
import Testing
import YarnCore

@testable import YarnCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite struct ProjectDateRuleTests {
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
}

@Suite struct ProjectRemoveTests {
  /// Removing a project whose time sessions and notes would go with it needs --force.
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
        "error: 'Flax' has 1 time session and 1 note, which would be removed with it\n"))
    #expect(try yarn.librarySnapshot() == before)
    _ = try yarn.ok(["project", "rm", "Flax", "--force"])
    _ = try yarn.ok(["project", "add", "Empty"])
    _ = try yarn.ok(["project", "rm", "Empty"])
    let left = try yarn.ok(["project", "list", "--json"]).json() as? [Any]
    #expect(left?.isEmpty == true)
  }
}

@Suite struct RepeatedColumnTests {
  /// A column named twice would give a file that `stash import` refuses: refused at once.
  @Test func exportRefusesAColumnNamedTwice() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    _ = try yarn.ok(["stash", "add", "Rios"])
    let result = try yarn.run(["stash", "export", "--columns", "Name,name"])
    #expect(result.status == 64)
    #expect(result.stdout == "")
    #expect(result.stderr.contains("the column \"Name\" is named twice"))
  }
}
