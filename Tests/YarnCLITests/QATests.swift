import Foundation
import Testing
import YarnCore

@testable import YarnCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Faults found by QA of the `yarn` tool, each pinned by a test of the built binary.
@Suite struct QATests {
  /// `yarn stash list | head -1`: the reader going away ends the command quietly (status 0),
  /// with no error about a broken pipe.
  @Test func brokenPipeIsQuiet() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    // One row longer than the 64 KiB buffer, so that yarn writes while the pipe is closed (a
    // name longer than the command line takes, as an older library may hold).
    let store = try LibraryStore(directory: yarn.library, mode: .readWrite)
    try store.write {
      try store.insert(Yarn(id: Identifier.make(), name: String(repeating: "long name ", count: 8000)))
    }
    try store.close()
    guard let executable = YarnRunner.executable else { throw YarnRunner.RunnerError.noExecutable }
    let process = Process()
    process.executableURL = executable
    process.arguments = ["--library", yarn.library.path, "stash", "list"]
    process.environment = ["HOME": yarn.directory.path, "TZ": "UTC", "LANG": "C.UTF-8"]
    let output = Pipe()
    let errorURL = yarn.directory.appendingPathComponent("stderr")
    _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
    let errors = try FileHandle(forWritingTo: errorURL)
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try output.fileHandleForReading.close()
    try process.run()
    process.waitUntilExit()
    try errors.close()
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 0)
    #expect(try String(contentsOf: errorURL, encoding: .utf8) == "")
  }
}

@Suite struct OutputTargetTests {
  @Test func aDeviceThatFailsMidwayIsNamedAndAnIOError() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    _ = try yarn.ok(["stash", "add", "Rios"])
    let full = try yarn.run(["stash", "export", "-o", "/dev/full"])
    #expect(full.status == 74)
    #expect(
      full.stderr.hasPrefix("error: cannot write /dev/full: no space left on device\n"), "\(full.stderr)")
    // A reader that leaves a pipe given by name is a broken pipe like `-o -`'s: quiet, 0.
    // 20,000 yarns' worth of CSV is more than a pipe holds, so the write meets EPIPE.
    let executable = try #require(YarnRunner.executable)
    let many = (0..<2_000).map { "Yarn \($0) with a long enough name to fill the pipe" }
    let csv = yarn.directory.appendingPathComponent("many.csv")
    try ("Name\r\n" + many.joined(separator: "\r\n") + "\r\n").write(
      to: csv, atomically: true, encoding: .utf8)
    _ = try yarn.ok(["stash", "import", csv.path])
    let shell = Process()
    shell.executableURL = URL(fileURLWithPath: "/bin/sh")
    shell.arguments = [
      "-c",
      "\"$0\" --library \"$1\" stash export -o /dev/stdout 2>\"$2\" | head -c 10 >/dev/null; echo $(( $? ))",
      executable.path, yarn.library.path, yarn.directory.appendingPathComponent("err").path,
    ]
    shell.environment = ["TZ": "UTC", "HOME": yarn.directory.path]
    try shell.run()
    shell.waitUntilExit()
    let stderr = try String(contentsOf: yarn.directory.appendingPathComponent("err"), encoding: .utf8)
    #expect(!stderr.contains("error"), "\(stderr)")
  }

  /// `-o -` is standard output; `-o /dev/stdout` on a pipe writes the pipe (no --force: a
  /// device cannot be lost by writing it); `-o ""` is refused.
  @Test func dashDevStdoutAndEmptyName() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    _ = try yarn.ok(["stash", "add", "Rios"])
    let dash = try yarn.run(["stash", "export", "-o", "-", "--columns", "Name"])
    #expect(dash.status == 0)
    #expect(dash.stdout == "Name\r\nRios\r\n")
    #expect(dash.stderr == "")
    // Through a real pipe (the runner's standard output is a regular file).
    let executable = try #require(YarnRunner.executable)
    let shell = Process()
    shell.executableURL = URL(fileURLWithPath: "/bin/sh")
    shell.arguments = [
      "-c", "\"$0\" --library \"$1\" stash export -o /dev/stdout --columns Name | cat",
      executable.path, yarn.library.path,
    ]
    let pipe = Pipe()
    shell.standardOutput = pipe
    try shell.run()
    let piped = pipe.fileHandleForReading.readDataToEndOfFile()
    shell.waitUntilExit()
    #expect(shell.terminationStatus == 0)
    #expect(String(decoding: piped, as: UTF8.self) == "Name\r\nRios\r\n")
    let empty = try yarn.run(["stash", "export", "-o", "", "--columns", "Name"])
    #expect(empty.status == 73)
    #expect(empty.stderr.hasPrefix("error: cannot create '': the file name is empty\n"))
  }
}

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
