import Foundation
import Testing
import YarnCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Faults found by the second QA round (wave 2: CSV, backups, time), each pinned by a test of
/// the built binary.
@Suite struct QA2Tests {

  /// A merge that finds the backup's photo already stored says so: 1 attachment unchanged
  /// (it said 0, beside every other item counted unchanged).
  @Test func mergeCountsAttachmentsAlreadyThere() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios"])
    let photo = try yarn.file("rios.jpg", Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]))
    try yarn.ok(["stash", "attach", "Rios", photo.path])
    let backup = yarn.directory.appendingPathComponent("b.zip")
    try yarn.ok(["backup", "create", backup.path])
    let merge = try yarn.ok(["backup", "restore", backup.path, "--merge", "--json"])
    let report = try #require(try merge.json() as? [String: Any])
    let unchanged = try #require(report["unchanged"] as? [String: Int])
    let added = try #require(report["added"] as? [String: Int])
    #expect(unchanged == ["yarns": 1, "projects": 0, "notes": 0, "sessions": 0, "attachments": 1])
    #expect(added == ["yarns": 0, "projects": 0, "notes": 0, "sessions": 0, "attachments": 0])
    #expect(
      merge.stderr.contains(
        "1 yarn, 0 projects, 0 notes, 0 time sessions and 1 attachment already there unchanged"))
  }

  /// A zip naming one entry twice was refused with libzip's "file already exists", which
  /// reads as if about the backup's own path; the reason is said plainly.
  @Test func duplicateEntryNamesAreSaidPlainly() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios"])
    var digests: [String] = []
    for (name, byte) in [("a.jpg", UInt8(1)), ("b.jpg", UInt8(2))] {
      let photo = try yarn.file(name, Data([0xFF, 0xD8, 0xFF, 0xE0, byte]))
      let attached = try #require(
        try yarn.ok(["stash", "attach", "Rios", photo.path, "--json"]).json() as? [String: Any])
      digests.append(try #require(attached["sha256"] as? String))
    }
    let backup = yarn.directory.appendingPathComponent("b.zip")
    try yarn.ok(["backup", "create", backup.path])
    // Give the second photo's entry the first one's name, in its local header and in the
    // central directory: names of equal length, so every offset stays right.
    var bytes = try Data(contentsOf: backup)
    let from = Data("attachments/\(digests[1])".utf8)
    let to = Data("attachments/\(digests[0])".utf8)
    var renamed = 0
    var start = bytes.startIndex
    while let range = bytes.range(of: from, in: start..<bytes.endIndex) {
      bytes.replaceSubrange(range, with: to)
      start = range.upperBound
      renamed += 1
    }
    #expect(renamed == 2)
    try bytes.write(to: backup)
    let other = yarn.directory.appendingPathComponent("other").path
    for command in [
      ["backup", "verify", backup.path], ["--library", other, "backup", "restore", backup.path],
    ] {
      let result = try yarn.run(command, useLibrary: false)
      #expect(result.status == 65)
      #expect(
        result.stderr.hasPrefix(
          "error: cannot open backup \(backup.path): two entries have the same name\n"))
    }
  }

  /// A FIFO or device given as a backup was opened by libzip ("operation not supported", 65)
  /// or, into a library that held anything, reported as "not empty" (73); it is an input
  /// that cannot be used (66), as for `stash import` and `stash attach`.
  @Test func backupThatIsAFIFOIsUnusableInput() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios"])
    let fifo = yarn.directory.appendingPathComponent("pipe")
    #expect(mkfifo(fifo.path, 0o600) == 0)
    for command in [
      ["backup", "verify", fifo.path], ["backup", "restore", fifo.path],
      ["backup", "restore", fifo.path, "--replace"],
    ] {
      let result = try yarn.run(command)
      #expect(result.status == 66, "\(command)")
      #expect(
        result.stderr.hasPrefix(
          "error: cannot read '\(fifo.path)': it is not a regular file or a directory\n"))
    }
  }
}
