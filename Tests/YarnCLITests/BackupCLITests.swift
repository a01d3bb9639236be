import Foundation
import Testing
import YarnCore

@testable import YarnCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `yarn backup` through the built binary: restore modes, hostile and foreign archives, other
/// zip writers, and `kill -9` during create and restore.
@Suite struct BackupCLITests {
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let sample = packageRoot.appendingPathComponent("samples/demo", isDirectory: true)
  static let sharedZip = packageRoot.deletingLastPathComponent()
    .appendingPathComponent("shared/data/zip", isDirectory: true)

  /// The library's records (read through YarnCore) and its files other than the database,
  /// to compare a library before and after.
  struct LibraryState: Equatable {
    var library: Library
    var files: [String]
  }

  static func state(of directory: URL) throws -> LibraryState {
    let store = try LibraryStore(directory: directory, mode: .readOnly)
    defer { try? store.close() }
    return LibraryState(library: try store.library(), files: files(under: directory))
  }

  /// Every file under `directory`, relative, sorted; the database and its WAL files left out
  /// (SQLite may checkpoint them when a connection closes without any change of content).
  static func files(under directory: URL) -> [String] {
    guard let enumerator = FileManager.default.enumerator(atPath: directory.path) else { return [] }
    var out: [String] = []
    while let path = enumerator.nextObject() as? String {
      var isDirectory: ObjCBool = false
      FileManager.default.fileExists(
        atPath: directory.appendingPathComponent(path).path, isDirectory: &isDirectory)
      if !isDirectory.boolValue, !path.hasPrefix("library.sqlite") { out.append(path) }
    }
    return out.sorted()
  }

  /// Runs a command and returns its exit status, standard output and error.
  @discardableResult
  static func shell(_ command: String, in directory: URL) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    process.currentDirectoryURL = directory
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  // MARK: Modes

  @Test func intoANonEmptyLibraryAModeIsNeeded() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["backup", "restore", Self.sample.path])
    try yarn.ok(["backup", "create", "mine.zip"])
    let before = try Self.state(of: yarn.library)

    let plain = try yarn.run(["backup", "restore", "mine.zip"])
    #expect(plain.status == 73)
    #expect(plain.stderr.contains("is not empty"))
    #expect(plain.stderr.contains("hint: give --replace") && plain.stderr.contains("--merge"))
    let both = try yarn.run(["backup", "restore", "mine.zip", "--replace", "--merge"])
    #expect(both.status == 64)
    #expect(both.stderr.contains("give exactly one of --replace or --merge"))
    #expect(try Self.state(of: yarn.library) == before)
  }

  @Test func replaceSaysWhereTheSafetyBackupIsAndRestoresAllOrNothing() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Only this one", "--quantity", "1 skein"])
    let before = try Self.state(of: yarn.library)

    let dry = try yarn.ok(["backup", "restore", Self.sample.path, "--replace", "--dry-run"])
    #expect(dry.stderr.contains("would replace 1 yarn, 0 projects"))
    #expect(dry.stderr.contains("dry run: nothing was changed"))
    #expect(try Self.state(of: yarn.library) == before)

    let result = try yarn.ok(["backup", "restore", Self.sample.path, "--replace", "--json"])
    let json = try #require(try result.json() as? [String: Any])
    let safety = try #require(json["safetyBackup"] as? String)
    #expect(safety.hasPrefix(yarn.library.path + "/safety-backups/yarn-backup-before-restore-"))
    #expect(result.stderr.contains("wrote a safety backup of the library to \(safety)"))
    #expect(
      result.stderr.contains(
        "replaced 1 yarn, 0 projects, 0 notes, 0 time sessions, 0 tools and 0 attachments with 15 yarns"))
    let sampleDocument = try JSONCoding.decoder().decode(
      Library.self, from: Data(contentsOf: Self.sample.appendingPathComponent("library.json")))
    #expect(try Self.state(of: yarn.library).library == sampleDocument)

    // The safety backup restores the library as it was.
    let check = yarn.directory.appendingPathComponent("check")
    let restore = try yarn.run(["--library", check.path, "backup", "restore", safety], useLibrary: false)
    #expect(restore.status == 0, "\(restore.stderr)")
    #expect(try Self.state(of: check).library == before.library)
  }

  // MARK: Free space

  /// The free space restoring the sample asks for, by docs/CLI.md: 1 MiB, twice
  /// `library.json`, and every attachment (a new library has none of them).
  static func sampleNeeds() throws -> Int64 {
    let manifest = try JSONCoding.decoder().decode(
      BackupManifest.self, from: Data(contentsOf: sample.appendingPathComponent("manifest.json")))
    return manifest.files.reduce(1_048_576) { total, file in
      total + (file.path == "library.json" ? 2 : 1) * file.size
    }
  }

  /// A restore into a library that does not exist yet, on a disk without room for it, is
  /// refused (74) in a dry run as in the real run, and the real run creates nothing: no
  /// folder, no `library.sqlite` in a folder that is there.
  @Test func aRestoreThatCannotFitIntoANewLibraryCreatesNothing() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let needed = try Self.sampleNeeds()
    let short = ["YARN_TEST_FREE_BYTES": "\(needed - 1)"]
    let new = yarn.directory.appendingPathComponent("mnt/new")
    let empty = yarn.directory.appendingPathComponent("empty")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    for library in [new, empty] {
      for dryRun in [true, false] {
        let result = try yarn.run(
          ["--library", library.path, "backup", "restore", Self.sample.path]
            + (dryRun ? ["--dry-run"] : []), useLibrary: false, environment: short)
        #expect(result.status == 74, "\(library.lastPathComponent) \(dryRun): \(result.stderr)")
        #expect(
          result.stderr.contains(
            "not enough free space for the library at \(library.path): the restore needs \(needed) bytes, "
              + "\(needed - 1) are free"))
        #expect(!result.stderr.contains("created a new library"))
        #expect(!result.stderr.contains("would restore"))
      }
    }
    #expect(!FileManager.default.fileExists(atPath: yarn.directory.appendingPathComponent("mnt").path))
    #expect(try FileManager.default.contentsOfDirectory(atPath: empty.path) == [])
    // With exactly the room it needs, it restores.
    let fits = try yarn.run(
      ["--library", new.path, "backup", "restore", Self.sample.path], useLibrary: false,
      environment: ["YARN_TEST_FREE_BYTES": "\(needed)"])
    #expect(fits.status == 0, "\(fits.stderr)")
    #expect(fits.stderr.contains("created a new library"))
  }

  /// A restore into a new library that fails after the space check (an attachment whose
  /// bytes are not the manifest's) leaves no library behind: not the folder, not
  /// `library.sqlite`, not `attachments/`; into a folder that was there, it stays empty.
  @Test func aFailedRestoreIntoANewLibraryLeavesNoLibrary() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let damaged = yarn.directory.appendingPathComponent("damaged")
    try FileManager.default.copyItem(at: Self.sample, to: damaged)
    let folder = damaged.appendingPathComponent("attachments")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    let last = folder.appendingPathComponent(try #require(names.last))
    var bytes = try Data(contentsOf: last)
    bytes[bytes.count - 1] ^= 0xFF
    try bytes.write(to: last)
    let new = yarn.directory.appendingPathComponent("mnt/new")
    let empty = yarn.directory.appendingPathComponent("empty")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    for library in [new, empty] {
      let result = try yarn.run(
        ["--library", library.path, "backup", "restore", damaged.path], useLibrary: false)
      #expect(result.status == 65, "\(result.stderr)")
      #expect(result.stderr.contains("attachments/\(names.last ?? "")"))
      #expect(!result.stderr.contains("created a new library"))
    }
    #expect(!FileManager.default.fileExists(atPath: yarn.directory.appendingPathComponent("mnt").path))
    #expect(try FileManager.default.contentsOfDirectory(atPath: empty.path) == [])
    // The sample itself restores into both, each now created.
    for library in [new, empty] {
      let result = try yarn.run(
        ["--library", library.path, "backup", "restore", Self.sample.path], useLibrary: false)
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stderr.contains("created a new library"))
      #expect(Self.files(under: library.appendingPathComponent("attachments")).count == 5)
    }
  }

  /// `--replace --dry-run` counts the safety backup of the library replaced (about its
  /// database and its attachments): 10 photos of 500,000 bytes do not fit in room for the
  /// sample alone, nor in room for the sample and 5,000,000 bytes; the real run is refused at
  /// once too, writing no safety backup.
  @Test func aReplaceDryRunCountsTheSafetyBackup() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Cascade 220", "--quantity", "1 skein"])
    for index in 0..<10 {
      // A JPEG's first bytes, as `attach` checks them: SOI, an APP0 segment's marker and length.
      let bytes = Data(
        [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + (6..<500_000).map { _ in UInt8.random(in: 0...255) })
      let photo = try yarn.file("p\(index).jpg", bytes)
      try yarn.ok(["stash", "attach", "Cascade 220", photo.path])
    }
    let before = try Self.state(of: yarn.library)
    let needed = try Self.sampleNeeds()
    for free in [needed, needed + 5_000_000] {
      for dryRun in [true, false] {
        let result = try yarn.run(
          ["backup", "restore", Self.sample.path, "--replace"] + (dryRun ? ["--dry-run"] : []),
          environment: ["YARN_TEST_FREE_BYTES": "\(free)"])
        #expect(result.status == 74, "\(free) \(dryRun): \(result.stderr)")
        #expect(result.stderr.contains("not enough free space for the library at \(yarn.library.path)"))
        #expect(try Self.state(of: yarn.library) == before)
        #expect(
          !FileManager.default.fileExists(atPath: yarn.library.appendingPathComponent("safety-backups").path))
      }
    }
    let dry = try yarn.run(
      ["backup", "restore", Self.sample.path, "--replace", "--dry-run"],
      environment: ["YARN_TEST_FREE_BYTES": "\(needed + 50_000_000)"])
    #expect(dry.status == 0, "\(dry.stderr)")
  }

  /// Sets (or clears) the immutable attribute of `path` with chattr(1), which stops root
  /// too, whom permission bits do not; whether it could (not as another user, nor without
  /// chattr or a file system that has the attribute).
  static func setImmutable(_ path: String, _ on: Bool, in directory: URL) throws -> Bool {
    guard geteuid() == 0 else { return false }
    return try shell("chattr \(on ? "+i" : "-i") '\(path)'", in: directory).0 == 0
  }

  /// QA: with a safety-backups folder that could not be written, `--replace --dry-run`
  /// exited 0 and said it would write the safety backup, while the replace exited 73. Both
  /// now exit 73 with the same words, changing nothing: for a file where the folder should
  /// be (which stops root too) and a read-only folder (0o555; for root, immutable).
  @Test func aReplaceDryRunFailsAsTheReplaceWouldWhenTheSafetyBackupCannotBeWritten() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Cascade 220", "--quantity", "1 skein"])
    let folder = yarn.library.appendingPathComponent("safety-backups")
    func expectRefused(_ reason: String) throws {
      let before = try Self.state(of: yarn.library)
      for dryRun in [true, false] {
        let result = try yarn.run(
          ["backup", "restore", Self.sample.path, "--replace"] + (dryRun ? ["--dry-run"] : []))
        #expect(result.status == 73, "dry run: \(dryRun): \(result.stderr)")
        // The name is of the second the command ran: yarn-backup-before-restore-YYYYMMDD-HHMMSS.
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1].isEmpty, "\(result.stderr)")
        #expect(
          lines[0].hasPrefix("error: cannot write \(folder.path)/yarn-backup-before-restore-")
            && lines[0].hasSuffix(".zip: \(reason)"), "\(result.stderr)")
        #expect(try Self.state(of: yarn.library) == before)
      }
    }
    try Data("not a folder".utf8).write(to: folder)
    try expectRefused("not a directory")
    try FileManager.default.removeItem(at: folder)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
    chmod(folder.path, 0o555)
    defer { chmod(folder.path, 0o755) }
    if geteuid() != 0 {
      try expectRefused("permission denied")
    } else if try Self.setImmutable(folder.path, true, in: yarn.directory) {
      defer { _ = try? Self.setImmutable(folder.path, false, in: yarn.directory) }
      try expectRefused("operation not permitted")
    }
  }

  /// QA: with `safety-backups` a link to `attachments`, `--replace` wrote its safety backup
  /// among the photos. It is refused as every output into the library is (73, before anything
  /// is read, a dry run too), in words that name no `--force`: `restore` has none.
  @Test func aSafetyBackupThatWouldBeInTheLibrarysAttachmentsIsRefused() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Cascade 220", "--quantity", "1 skein"])
    try Self.expectSafetyBackupRefused(
      yarn, restoring: Self.sample, linkTo: "attachments",
      suffix:
        "it is inside the library's attachments folder, in \(yarn.library.path); no output is written there\n"
    )
  }

  /// QA: with `safety-backups` a link to the directory backup being restored, `--replace`
  /// wrote its safety backup into that backup (0), which then failed `verify` (an unlisted
  /// entry). It is refused (73) before anything is read, a dry run too; the backup and the
  /// library are left as they were.
  @Test func aSafetyBackupThatWouldBeInTheBackupBeingReadIsRefused() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Cascade 220", "--quantity", "1 skein"])
    let copy = yarn.library.deletingLastPathComponent().appendingPathComponent("demo-copy")
    try FileManager.default.copyItem(at: Self.sample, to: copy)
    let backupBefore = Self.files(under: copy)
    try Self.expectSafetyBackupRefused(
      yarn, restoring: copy, linkTo: copy.path,
      suffix: "it is inside the backup being read, \(copy.path); no output is written there\n")
    #expect(Self.files(under: copy) == backupBefore)
    try yarn.ok(["backup", "verify", copy.path])
  }

  /// `backup restore SOURCE --replace`, then its dry run, with the library's `safety-backups`
  /// a symbolic link to `target`: each refused (73) with the safety backup's path (named by
  /// the second the command ran: yarn-backup-before-restore-YYYYMMDD-HHMMSS.zip) and `suffix`
  /// after it, the library left as it was.
  static func expectSafetyBackupRefused(
    _ yarn: YarnRunner, restoring source: URL, linkTo target: String, suffix: String
  ) throws {
    let folder = yarn.library.appendingPathComponent("safety-backups")
    try FileManager.default.createSymbolicLink(atPath: folder.path, withDestinationPath: target)
    let before = try state(of: yarn.library)
    for dryRun in [true, false] {
      let result = try yarn.run(
        ["backup", "restore", source.path, "--replace"] + (dryRun ? ["--dry-run"] : []))
      #expect(result.status == 73, "dry run: \(dryRun): \(result.stderr)")
      #expect(
        result.stderr.hasPrefix("error: cannot create '\(folder.path)/yarn-backup-before-restore-"),
        "\(result.stderr)")
      #expect(result.stderr.hasSuffix(".zip': " + suffix), "\(result.stderr)")
      #expect(try state(of: yarn.library) == before)
    }
  }

  /// QA: an older safety backup that a replace could not remove was skipped without a word.
  /// The replace still succeeds (0) and names it with the reason: a warning, and in `--json`
  /// `safetyBackupsNotRemoved`. An immutable file is what no user can remove, root included
  /// (a read-only folder would stop the safety backup itself): run where chattr works.
  @Test func anOlderSafetyBackupThatCannotBeRemovedIsNamed() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Cascade 220", "--quantity", "1 skein"])
    let folder = yarn.library.appendingPathComponent("safety-backups")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
    // Five older safety backups (a zip's first bytes), from 2020; the oldest cannot go.
    let names = (1...5).map { "yarn-backup-before-restore-2020010\($0)-000000.zip" }
    for (index, name) in names.enumerated() {
      let path = folder.appendingPathComponent(name).path
      try Data([0x50, 0x4B, 0x03, 0x04]).write(to: URL(fileURLWithPath: path))
      var times = [
        timespec(tv_sec: 1_577_836_800 + 86_400 * index, tv_nsec: 0),
        timespec(tv_sec: 1_577_836_800 + 86_400 * index, tv_nsec: 0),
      ]
      #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
    }
    let oldest = folder.appendingPathComponent(names[0]).path
    guard try Self.setImmutable(oldest, true, in: yarn.directory) else { return }
    defer { _ = try? Self.setImmutable(oldest, false, in: yarn.directory) }

    let result = try yarn.ok(["backup", "restore", Self.sample.path, "--replace", "--json"])
    let json = try #require(try result.json() as? [String: Any])
    #expect(json["safetyBackupsRemoved"] as? [String] == [])
    #expect(
      json["safetyBackupsNotRemoved"] as? [[String: String]]
        == [["path": oldest, "reason": "operation not permitted"]])
    #expect(
      result.stderr.hasSuffix(
        "warning: cannot remove the older safety backup \(names[0]): operation not permitted; it stays\n"),
      "\(result.stderr)")
    #expect(FileManager.default.fileExists(atPath: oldest))
  }

  /// A library into which an older yarn restored a blank ID (it accepted them), or one whose
  /// quantity the sqlite3 shell made negative: `backup create`, a restore of that backup and
  /// the safety backup of a replace name both causes and a mending that works for both (edit
  /// the item in the library, then back up again), not that the backup is damaged. (They
  /// said "an older yarn accepted" it and to restore with that yarn, which for the sqlite3
  /// change does not exist.)
  @Test(arguments: [false, true]) func aBrokenRuleFromAnOlderYarnOrOutsideYarnIsSaidToBeEither(
    outsideYarn: Bool
  ) throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    // The name escaped as every message escapes one (QA: a U+202E in it was printed raw).
    try yarn.ok(["stash", "add", "Ri\u{202E}os", "--quantity", "3 skeins"])
    let listed: String
    if outsideYarn {
      try yarn.runSQL("UPDATE yarn SET quantity_value = -5")
      let id = try #require(try yarn.ok(["stash", "list", "--json"]).json() as? [[String: Any]])[0]["id"]
      listed =
        "  - library.json: yarn \(try #require(id as? String)) (Ri\\u{202E}os): quantity -5 skein is negative\n"
    } else {
      try yarn.setID(of: "yarn", to: "  ")
      listed = "  - library.json: yarn at yarns[0] (Ri\\u{202E}os): ID is blank\n"
    }
    let zip = yarn.directory.appendingPathComponent("b.zip").path
    let cause =
      "an older yarn, or a change made outside yarn (such as with the sqlite3 shell), stored what is "
      + "listed, which this one refuses"
    let mending =
      "(remove an item with a blank ID and add it again, which gives it a new ID; correct another "
      + "field with the item's 'edit', such as 'yarn stash edit ID --quantity …' (a tag: "
      + "'--untag TAG' or '--no-tags'))"
    let create = try yarn.run(["backup", "create", zip])
    #expect(create.status == 65)
    #expect(
      create.stderr
        == "error: the backup \(zip) was written, but a restore will refuse it (1 problem):\n"
        + listed
        + "hint: \(cause); the backup is kept "
        + "at \(zip) and holds everything yarn could read, but 'yarn backup restore' will refuse it "
        + "until the library is mended \(mending) and backed up again\n")

    let other = yarn.directory.appendingPathComponent("other").path
    let restore = try yarn.run(["--library", other, "backup", "restore", zip], useLibrary: false)
    #expect(restore.status == 65)
    #expect(
      restore.stderr
        == "error: \(zip) failed verification with 1 problem:\n"
        + listed
        + "hint: nothing was changed: \(cause); mend the items listed in the library the backup was "
        + "made from \(mending), or restore it with the older yarn that wrote it and mend them there, "
        + "then back up again\n")
    #expect(!FileManager.default.fileExists(atPath: other))

    let warning =
      "\nwarning: the library holds what this yarn refuses (an older yarn, or a change made outside "
      + "yarn, stored it); its safety "
      + "backup holds everything yarn could read of it, with 1 problem (a restore of it will "
      + "refuse it or lack rows):\n"
      + listed
    // QA: the dry run said nothing of it. It warns as the replace does.
    let dryRun = try yarn.run(["backup", "restore", Self.sample.path, "--replace", "--dry-run"])
    #expect(dryRun.status == 0, "\(dryRun.stderr)")
    #expect(dryRun.stderr.contains(warning), "\(dryRun.stderr)")
    let replace = try yarn.run(["backup", "restore", Self.sample.path, "--replace"])
    #expect(replace.status == 0, "\(replace.stderr)")
    #expect(replace.stderr.contains(warning), "\(replace.stderr)")
  }

  /// A library changed outside yarn with the sqlite3 shell (foreign keys off): `backup create`
  /// writes and keeps the backup but exits 65, naming what a restore would refuse; the
  /// library can still be replaced, its safety backup kept and said to hold the problem.
  @Test func createOfALibraryChangedOutsideYarnExits65AndKeepsTheBackup() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Wool"])
    let database = yarn.library.appendingPathComponent("library.sqlite").path
    let (status, output) = try Self.shell(
      "sqlite3 '\(database)' \"INSERT INTO note (id, yarn_id, text, created, modified) "
        + "VALUES ('n-1', 'y-9', 'lost', 1, 1)\"",
      in: yarn.directory)
    #expect(status == 0, "\(output)")

    let zip = yarn.directory.appendingPathComponent("b.zip").path
    let create = try yarn.run(["backup", "create", zip])
    #expect(create.status == 65)
    #expect(create.stdout == "")
    #expect(
      create.stderr
        == "error: the backup \(zip) was written, but a restore will refuse it (1 problem):\n"
        + "  - library.json: note n-1 is about yarn y-9, which is missing\n"
        + "hint: the library was changed outside yarn (such as with the sqlite3 shell, whose "
        + "foreign keys are off by default); the backup is kept at \(zip) and holds everything "
        + "yarn could read, but 'yarn backup restore' will refuse it until the library is mended "
        + "and backed up again\n")
    #expect(FileManager.default.fileExists(atPath: zip))
    #expect(Self.files(under: yarn.directory).filter { !$0.hasPrefix("library/") } == ["b.zip"])

    // A warning, said even with --quiet, which silences the rest.
    let replace = try yarn.run(["backup", "restore", Self.sample.path, "--replace", "--quiet"])
    #expect(replace.status == 0, "\(replace.stderr)")
    #expect(
      replace.stderr
        == "warning: the library was changed outside yarn; its safety backup holds everything yarn "
        + "could read of it, with 1 problem (a restore of it will refuse it or lack rows):\n"
        + "  - library.json: note n-1 is about yarn y-9, which is missing\n")
    let safety = Self.files(under: yarn.library).filter { $0.hasPrefix("safety-backups/") }
    #expect(safety.count == 1)
    #expect(try yarn.ok(["stash", "list"]).stdout.contains("Rios"))
  }

  @Test func mergeConflictsAreListedAndChangeNothing() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Cascade 220", "--quantity", "3 skeins"])
    try yarn.ok(["backup", "create", "mine.zip"])
    try yarn.ok(["stash", "edit", "Cascade 220", "--quantity", "2 skeins"])
    try yarn.ok(["stash", "add", "Rios", "--quantity", "1 skein"])
    let before = try Self.state(of: yarn.library)
    let id = try #require(before.library.yarns.first?.id)

    for extra in [[], ["--dry-run"]] {
      let merge = try yarn.run(["backup", "restore", "mine.zip", "--merge"] + extra)
      #expect(merge.status == 65)
      #expect(merge.stderr.contains("1 conflict; nothing was changed"))
      #expect(merge.stderr.contains("yarn \(id) (Cascade 220): quantity differs from the library's"))
      #expect(try Self.state(of: yarn.library) == before)
    }
    // Fields of more than one word are named in the rules' words, in the item's order.
    try yarn.ok(["stash", "edit", "Cascade 220", "--quantity", "3 skeins"])
    try yarn.ok([
      "stash", "edit", "Cascade 220", "--dye-lot", "B2", "--remaining", "50 g", "--stored-in", "Box",
      "--length-per-skein", "200m",
    ])
    let words = try yarn.run(["backup", "restore", "mine.zip", "--merge", "--dry-run"])
    #expect(words.status == 65)
    #expect(
      words.stderr.contains(
        "yarn \(id) (Cascade 220): dye lot, length per skein, remaining, stored in differ from the library's"),
      "\(words.stderr)")
    try yarn.ok(["undo"])
    try yarn.ok(["undo"])
    // Without the conflict the merge adds what is new and leaves the rest.
    try yarn.ok(["stash", "edit", "Cascade 220", "--quantity", "3 skeins"])
    try yarn.ok(["backup", "create", "now.zip"])
    let other = yarn.directory.appendingPathComponent("other")
    let run = { (arguments: [String]) in
      try yarn.run(["--library", other.path] + arguments, useLibrary: false)
    }
    #expect(try run(["stash", "add", "Brooklyn Tweed Shelter"]).status == 0)
    let merged = try run([
      "backup", "restore", yarn.directory.appendingPathComponent("now.zip").path, "--merge",
    ])
    #expect(merged.status == 0, "\(merged.stderr)")
    #expect(merged.stderr.contains("added 2 yarns, 0 projects"))
    let names = try Self.state(of: other).library.yarns.map(\.name)
    #expect(names == ["Brooklyn Tweed Shelter", "Cascade 220", "Rios"])
  }

  /// `backup restore --merge` refuses a backup whose sessions share time with the library's
  /// (the rule of `time add`), listing each pair, and changes nothing (65).
  @Test func mergeRefusesOverlappingSessionsListingThePairs() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["project", "add", "Flax"])
    try yarn.ok(["time", "add", "Flax", "--from", "2026-06-01 10:00", "--to", "2026-06-01 11:00"])
    let other = yarn.directory.appendingPathComponent("other")
    let run = { (arguments: [String]) in
      try yarn.run(["--library", other.path] + arguments, useLibrary: false)
    }
    #expect(try run(["project", "add", "Hat"]).status == 0)
    #expect(
      try run(["time", "add", "Hat", "--from", "2026-06-01 10:30", "--to", "2026-06-01 12:00"]).status == 0)
    #expect(try run(["backup", "create", yarn.directory.appendingPathComponent("hat.zip").path]).status == 0)
    let before = try Self.state(of: yarn.library)
    let flaxSession = try #require(before.library.sessions.first?.id)
    let merge = try yarn.run(["backup", "restore", "hat.zip", "--merge"])
    #expect(merge.status == 65)
    #expect(merge.stderr.contains("1 conflict; nothing was changed"))
    // The runner's TZ is UTC.
    #expect(
      merge.stderr.contains(
        ": from 2026-06-01T10:30:00Z to 2026-06-01T12:00:00Z, it overlaps the session on \"Flax\" "
          + "from 2026-06-01T10:00:00Z to 2026-06-01T11:00:00Z (session \(flaxSession))"),
      "\(merge.stderr)")
    #expect(try Self.state(of: yarn.library) == before)
  }

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
    #expect(
      unchanged == ["yarns": 1, "projects": 0, "notes": 0, "sessions": 0, "attachments": 1, "tools": 0])
    #expect(added == ["yarns": 0, "projects": 0, "notes": 0, "sessions": 0, "attachments": 0, "tools": 0])
    #expect(
      merge.stderr.contains(
        "1 yarn, 0 projects, 0 notes, 0 time sessions, 0 tools and 1 attachment already there unchanged"))
  }

  // MARK: Hostile and foreign archives

  /// Every file of `../shared/data/zip/` (archives written by other projects, and the files
  /// beside them), refused with 65 into a new library (which is not created) and with
  /// `--replace` into a library holding the sample (which stays as it was, with no safety
  /// backup written), and nothing written outside the library.
  @Test func everySharedArchiveIsRefusedAndChangesNothing() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    // The library sits four levels down in the test's own directory, and the children's
    // TMPDIR is there too, so that anything written outside the library — by an entry such as
    // `../../evil` or a temporary file — lands where this test looks. (The system's temporary
    // directory is shared with other tests running at the same time, so it cannot be watched.)
    let library = yarn.directory.appendingPathComponent("a/b/c/library")
    let temporary = yarn.directory.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    let environment = ["TMPDIR": temporary.path]
    func run(_ arguments: [String], in library: URL) throws -> YarnRunner.Result {
      try yarn.run(["--library", library.path] + arguments, useLibrary: false, environment: environment)
    }
    #expect(try run(["backup", "restore", Self.sample.path], in: library).status == 0)
    let before = try Self.state(of: library)
    let outside = Self.files(under: yarn.directory).filter { !$0.hasPrefix("a/b/c/library/") }

    let archives = Self.files(under: Self.sharedZip).filter {
      !$0.hasSuffix("LICENSE") && !$0.hasSuffix("SOURCE_COMMIT")
    }
    try #require(archives.count >= 70)
    for archive in archives {
      let path = Self.sharedZip.appendingPathComponent(archive).path
      let fresh = yarn.directory.appendingPathComponent("a/b/c/fresh")
      let first = try run(["backup", "restore", path], in: fresh)
      #expect(first.status == 65, "\(archive): \(first.stderr)")
      #expect(!FileManager.default.fileExists(atPath: fresh.path), "\(archive)")
      let replace = try run(["backup", "restore", path, "--replace"], in: library)
      #expect(replace.status == 65, "\(archive): \(replace.stderr)")
      #expect(replace.stderr.hasPrefix("error: ") && replace.stderr.contains("\nhint: "), "\(archive)")
      let verify = try run(["backup", "verify", path], in: library)
      #expect(verify.status == 65, "\(archive): \(verify.stderr)")
    }
    #expect(try Self.state(of: library) == before)
    #expect(Self.files(under: yarn.directory).filter { !$0.hasPrefix("a/b/c/library/") } == outside)
  }

  /// The same archives with a `manifest.json` (listing their entries) and a `library.json`
  /// added by Python's zipfile, so that the reader gets past "no manifest" to the names,
  /// links, encryption and sizes: still refused, still nothing changed.
  @Test func sharedArchivesWithAManifestAddedAreRefusedToo() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["backup", "restore", Self.sample.path])
    let before = try Self.state(of: yarn.library)
    let script = """
      import sys, zipfile, json, shutil, hashlib
      src, dst = sys.argv[1], sys.argv[2]
      shutil.copy(src, dst)
      with zipfile.ZipFile(dst) as z:
          infos = z.infolist()
      files = [{"path": "library.json", "size": 2, "sha256": hashlib.sha256(b"{}").hexdigest()}]
      files += [{"path": i.filename, "size": i.file_size, "sha256": "0" * 64} for i in infos]
      m = {"format": "yarn-backup", "formatVersion": 1, "createdAt": "2026-01-01T00:00:00Z",
           "generator": "hostile", "files": files,
           "counts": {"yarns": 0, "projects": 0, "notes": 0, "sessions": 0, "attachments": 0}}
      with zipfile.ZipFile(dst, "a") as z:
          z.writestr("manifest.json", json.dumps(m))
          z.writestr("library.json", "{}")
      """
    _ = try yarn.file("add-manifest.py", Data(script.utf8))
    var tried = 0
    for archive in Self.files(under: Self.sharedZip) where archive.hasSuffix(".zip") {
      let source = Self.sharedZip.appendingPathComponent(archive).path
      let (status, _) = try Self.shell(
        "python3 add-manifest.py '\(source)' hostile.zip", in: yarn.directory)
      guard status == 0 else { continue }  // Python cannot append to it: it is refused as is.
      tried += 1
      let result = try yarn.run(["backup", "restore", "hostile.zip", "--replace"])
      #expect(result.status == 65, "\(archive): \(result.stderr)")
    }
    #expect(tried >= 50)
    #expect(try Self.state(of: yarn.library) == before)
  }

  @Test func aNewerFormatIsRefusedNamingTheVersionNeeded() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    _ = try yarn.file(
      "manifest.json", Data(#"{"format": "yarn-backup", "formatVersion": 3, "files": []}"#.utf8))
    let (status, output) = try Self.shell("zip -q future.zip manifest.json", in: yarn.directory)
    try #require(status == 0, "\(output)")
    for command in [["backup", "verify", "future.zip"], ["backup", "restore", "future.zip"]] {
      let result = try yarn.run(command)
      #expect(result.status == 65)
      #expect(result.stderr.contains("a yarn that reads format version 3 is needed"))
      #expect(result.stderr.contains("hint: install a newer version of yarn"))
    }
    // Refused before a library is created for it.
    #expect(!FileManager.default.fileExists(atPath: yarn.library.path))
  }

  /// A backup directory `name` holding `yarns` (JSON texts) as `library.json`, with its
  /// manifest (the digest by `sha256sum`).
  static func handWrittenBackup(_ name: String, yarns: [String], in yarn: YarnRunner) throws -> String {
    let library = Data(
      (#"{"notes":[],"projects":[],"sessions":[],"yarns":["# + yarns.joined(separator: ",") + "]}").utf8)
    let folder = yarn.directory.appendingPathComponent(name, isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try library.write(to: folder.appendingPathComponent("library.json"))
    let (status, output) = try shell("sha256sum \(name)/library.json", in: yarn.directory)
    try #require(status == 0, "\(output)")
    let digest = String(output.prefix(64))
    let manifest =
      #"{"format":"yarn-backup","formatVersion":1,"createdAt":"2026-12-01T00:00:00Z","#
      + #""generator":"hand","counts":{"yarns":\#(yarns.count),"projects":0,"notes":0,"sessions":0,"#
      + #""attachments":0},"files":[{"path":"library.json","size":\#(library.count),"sha256":"\#(digest)"}]}"#
    try Data(manifest.utf8).write(to: folder.appendingPathComponent("manifest.json"))
    return name
  }

  /// QA's findings: a blank ID, a rule problem beside an item that does not decode, the count
  /// of 30 problems, Swift's words.
  @Test func verifyAndRestoreReportEveryProblemInPlainWords() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let item = { (id: String, extra: String) in
      #"{"id":"\#(id)","name":"Rios","isStashed":true,"photos":[]\#(extra)}"#
    }
    let blank = try Self.handWrittenBackup("blank", yarns: [item("   ", "")], in: yarn)
    for command in [["backup", "verify", blank], ["backup", "restore", blank]] {
      let result = try yarn.run(command)
      #expect(result.status == 65)
      #expect(result.stderr.contains("failed verification with 1 problem:"), "\(result.stderr)")
      #expect(result.stderr.contains("  - library.json: yarn at yarns[0] (Rios): ID is blank"))
    }
    #expect(try yarn.run(["stash", "list"]).stdout.isEmpty)

    let mixed = try Self.handWrittenBackup(
      "mixed", yarns: [item("y-1", #","weight":9"#), item("y-2", #","quantity":{"value":-5,"unit":"g"}"#)],
      in: yarn)
    let both = try yarn.run(["backup", "verify", mixed])
    #expect(both.status == 65)
    #expect(
      both.stderr.contains(
        "failed verification with 2 problems:\n"
          + "  - library.json is not a valid library: at yarns[0].weight: 9 is not a yarn weight (0–7)\n"
          + "  - library.json: yarn y-2 (Rios): quantity -5 g is negative"), "\(both.stderr)")

    let many = try Self.handWrittenBackup(
      "many", yarns: (0..<30).map { item("b\($0)", #","weight":9"#) }, in: yarn)
    let thirty = try yarn.run(["backup", "verify", many])
    #expect(thirty.status == 65)
    #expect(thirty.stderr.contains("failed verification with 30 problems:"), "\(thirty.stderr)")
    #expect(thirty.stderr.contains("  - library.json is not a valid library: 10 more items do not decode"))
    #expect(thirty.stderr.components(separatedBy: "\n  - ").count == 1 + 21)
  }

  @Test(arguments: ["infozip", "python"])
  func aBackupRezippedByAnotherToolRestores(tool: String) throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["backup", "restore", Self.sample.path])
    try yarn.ok(["backup", "create", "b.zip"])
    let rezip =
      tool == "infozip"
      ? "mkdir u && cd u && unzip -q ../b.zip && zip -q -r ../re.zip ."
      : """
      mkdir u && cd u && unzip -q ../b.zip && python3 -c "
      import os, zipfile
      with zipfile.ZipFile('../re.zip', 'w', zipfile.ZIP_DEFLATED) as z:
          for root, dirs, files in os.walk('.'):
              for f in sorted(files):
                  z.write(os.path.join(root, f), os.path.relpath(os.path.join(root, f), '.'))
      "
      """
    let (status, output) = try Self.shell(rezip, in: yarn.directory)
    try #require(status == 0, "\(output)")
    let restored = yarn.directory.appendingPathComponent("restored")
    let result = try yarn.run(["--library", restored.path, "backup", "restore", "re.zip"], useLibrary: false)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try Self.state(of: restored).library == (try Self.state(of: yarn.library)).library)
  }

  /// A zip naming one entry twice was refused with libzip's "file already exists", which
  /// reads as if about the backup's own path; the reason is said plainly.
  @Test func duplicateEntryNamesAreSaidPlainly() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios"])
    var digests: [String] = []
    for (name, byte) in [("a.jpg", UInt8(1)), ("b.jpg", UInt8(2))] {
      let photo = try yarn.file(name, Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, byte]))
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

  /// A photo whose file is gone from the library's attachments/ fails `backup create` and
  /// `export` (74, nothing written) in each one's words, with a hint naming the way out: the
  /// file back, or the exact `stash detach` of it, after which the backup works.
  @Test func aLostPhotoFileIsNamedWithTheDetachThatLetsTheBackupGoOn() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let png = yarn.directory.appendingPathComponent("red.png")
    try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]).write(to: png)
    try yarn.ok(["stash", "add", "Rios"])
    try yarn.ok(["stash", "attach", "Rios", png.path])
    // printf '\x89PNG\r\n\x1a\n' | sha256sum
    let sha = "4c4b6a3be1314ab86138bef4314dde022e600960d8689a2c8f8631802d20dab6"
    let file = yarn.library.appendingPathComponent("attachments/4c/" + sha)
    try FileManager.default.removeItem(at: file)
    let detach = "'yarn --library \(yarn.library.path) stash detach Rios red.png'"
    for (command, words, again) in [
      (["backup", "create", "b.zip"], "backed up", "back up"), (["export", "e.zip"], "exported", "export"),
    ] {
      let result = try yarn.run(command)
      #expect(result.status == 74, "\(command)")
      #expect(
        result.stderr
          == "error: attachment \(sha) (\(file.path)) cannot be \(words): no such file or directory\n"
          + "hint: nothing was written; put the file back (its own bytes, from a copy), or detach it "
          + "with \(detach); then \(again) again\n")
      #expect(
        !FileManager.default.fileExists(
          atPath: yarn.directory.appendingPathComponent(command.last ?? "").path))
    }
    try yarn.ok(["stash", "detach", "Rios", "red.png"])
    try yarn.ok(["backup", "create", "b.zip"])
    // A name that starts with '-' would be read as an option: the command ends them ('--').
    let dash = yarn.directory.appendingPathComponent("-x.png")
    try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x31]).write(to: dash)
    try yarn.ok(["stash", "add", "--", "-Lace"])
    try yarn.ok(["stash", "attach", "--", "-Lace", dash.path])
    // printf '\x89PNG\r\n\x1a\n1' | sha256sum
    try FileManager.default.removeItem(
      at: yarn.library.appendingPathComponent(
        "attachments/d4/d4cf5fbbc645b0c920964a8a076a29454f6d8702a17da38506fae24aa0621f90"))
    let result = try yarn.run(["backup", "create", "c.zip"])
    #expect(result.status == 74)
    #expect(result.stderr.contains("'yarn --library \(yarn.library.path) stash detach -- -Lace -x.png'"))
    try yarn.ok(["stash", "detach", "--", "-Lace", "-x.png"])
    try yarn.ok(["backup", "create", "c.zip"])
  }

  /// QA: a photo file replaced by a FIFO made `export` hang in open(2), deaf to SIGINT and
  /// SIGTERM, where `backup create` refused at once. Both check the file before opening it:
  /// 74, the file named as not a regular file, nothing written, the FIFO left as it is.
  @Test func aPhotoFileThatIsAFIFOStopsExportAndBackupAtOnce() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let png = yarn.directory.appendingPathComponent("red.png")
    try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]).write(to: png)
    try yarn.ok(["stash", "add", "Rios"])
    try yarn.ok(["stash", "attach", "Rios", png.path])
    // printf '\x89PNG\r\n\x1a\n' | sha256sum
    let sha = "4c4b6a3be1314ab86138bef4314dde022e600960d8689a2c8f8631802d20dab6"
    let file = yarn.library.appendingPathComponent("attachments/4c/" + sha)
    try FileManager.default.removeItem(at: file)
    #expect(mkfifo(file.path, 0o600) == 0)
    for (command, words) in [
      (["export", "e.zip"], "exported"), (["backup", "create", "b.zip"], "backed up"),
    ] {
      // Killed after 10 s if it hangs (as export did), rather than hanging the tests.
      let run = try Self.runAndSignal(
        ["--library", yarn.library.path] + command, in: yarn.directory, signal: SIGKILL, after: 0,
        when: { false })
      #expect(!run.endedBySignal && run.status == 74, "\(command): \(run)")
      guard !run.endedBySignal else { continue }
      let result = try yarn.run(command)
      #expect(result.status == 74)
      #expect(
        result.stderr.hasPrefix(
          "error: attachment \(sha) (\(file.path)) cannot be \(words): "
            + "it is not a regular file (a FIFO, device or socket)\n"), "\(result.stderr)")
      #expect(
        !FileManager.default.fileExists(
          atPath: yarn.directory.appendingPathComponent(command.last ?? "").path))
    }
    var info = stat()
    #expect(lstat(file.path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
  }

  /// QA: `backup restore --replace --dry-run` said "would replace" (0) where the restore
  /// failed 74: a photo file missing or not its bytes stops the safety backup. The dry run
  /// checks each file's size and SHA-256 and fails as the restore does, in the same words.
  @Test func aReplaceDryRunFailsAsTheReplaceOnAMissingOrAlteredPhotoFile() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let png = yarn.directory.appendingPathComponent("red.png")
    try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]).write(to: png)
    try yarn.ok(["stash", "add", "Rios"])
    try yarn.ok(["stash", "attach", "Rios", png.path])
    // printf '\x89PNG\r\n\x1a\n' | sha256sum
    let sha = "4c4b6a3be1314ab86138bef4314dde022e600960d8689a2c8f8631802d20dab6"
    let file = yarn.library.appendingPathComponent("attachments/4c/" + sha)
    // Altered, the same size: only its SHA-256 tells.
    try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0B]).write(to: file)
    for missing in [false, true] {
      if missing { try FileManager.default.removeItem(at: file) }
      let before = try Self.state(of: yarn.library)
      let real = try yarn.run(["backup", "restore", Self.sample.path, "--replace"])
      let dry = try yarn.run(["backup", "restore", Self.sample.path, "--replace", "--dry-run"])
      #expect(real.status == 74, "\(real.stderr)")
      #expect(dry.status == 74, "\(dry.stderr)")
      #expect(dry.stdout == "")
      #expect(dry.stderr == real.stderr)
      #expect(
        real.stderr.hasPrefix("error: attachment \(sha) (\(file.path)) cannot be backed up: "),
        "\(real.stderr)")
      #expect(try Self.state(of: yarn.library) == before)
    }
  }

  /// Every lost photo file is named in one run, each as one alone is, and the hint gives the
  /// detach of each (QA: one a run), each on its own line (QA: 20 lost photos put 20
  /// commands on one line).
  @Test func everyLostPhotoFileIsNamedInOneRun() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let red = yarn.directory.appendingPathComponent("red.png")
    try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]).write(to: red)
    let blue = yarn.directory.appendingPathComponent("blue.png")
    try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x31]).write(to: blue)
    try yarn.ok(["stash", "add", "Rios"])
    try yarn.ok(["stash", "attach", "Rios", red.path])
    try yarn.ok(["stash", "add", "Lace"])
    try yarn.ok(["stash", "attach", "Lace", blue.path])
    // printf '\x89PNG\r\n\x1a\n' | sha256sum; printf '\x89PNG\r\n\x1a\n1' | sha256sum
    let redSHA = "4c4b6a3be1314ab86138bef4314dde022e600960d8689a2c8f8631802d20dab6"
    let blueSHA = "d4cf5fbbc645b0c920964a8a076a29454f6d8702a17da38506fae24aa0621f90"
    let redFile = yarn.library.appendingPathComponent("attachments/4c/" + redSHA)
    let blueFile = yarn.library.appendingPathComponent("attachments/d4/" + blueSHA)
    try FileManager.default.removeItem(at: redFile)
    try FileManager.default.removeItem(at: blueFile)
    let library = "yarn --library \(yarn.library.path)"
    for (command, words, again) in [
      (["backup", "create", "b.zip"], "backed up", "back up"), (["export", "e.zip"], "exported", "export"),
    ] {
      let result = try yarn.run(command)
      #expect(result.status == 74, "\(command)")
      #expect(
        result.stderr
          == "error: 2 attachments cannot be \(words):\n"
          + "  - attachment \(redSHA) (\(redFile.path)) cannot be \(words): no such file or directory\n"
          + "  - attachment \(blueSHA) (\(blueFile.path)) cannot be \(words): no such file or directory\n"
          + "hint: nothing was written; put each file back (its own bytes, from a copy), or detach them "
          + "with these commands, one a line:\n"
          + "  \(library) stash detach Rios red.png\n"
          + "  \(library) stash detach Lace blue.png\n"
          + "then \(again) again\n")
    }
  }

  /// QA: an attachment's path that is a directory was reported as a file of its size (`the
  /// file holds 4096 bytes, its record says 11`): it is said to be a directory.
  @Test func anAttachmentPathThatIsADirectoryIsSaidToBeOne() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let png = yarn.directory.appendingPathComponent("red.png")
    try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]).write(to: png)
    try yarn.ok(["stash", "add", "Rios"])
    try yarn.ok(["stash", "attach", "Rios", png.path])
    // printf '\x89PNG\r\n\x1a\n' | sha256sum
    let sha = "4c4b6a3be1314ab86138bef4314dde022e600960d8689a2c8f8631802d20dab6"
    let file = yarn.library.appendingPathComponent("attachments/4c/" + sha)
    try FileManager.default.removeItem(at: file)
    try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
    for (command, words) in [
      (["backup", "create", "b.zip"], "backed up"), (["export", "e.zip"], "exported"),
    ] {
      let result = try yarn.run(command)
      #expect(result.status == 74)
      #expect(
        result.stderr.hasPrefix(
          "error: attachment \(sha) (\(file.path)) cannot be \(words): it is a directory, not a file\n"),
        "\(result.stderr)")
    }
  }

  /// QA: the detach command of a lost photo's hint named a file name holding ESC, which the
  /// terminal is sent as U+FFFD, so the command printed could not be run. A file name that
  /// does not show as itself (a control or an invisible character) is named by the first 12
  /// characters of its SHA-256, in the hint of `stash rm` as in that of `backup create`; the
  /// message quotes the name escaped.
  @Test func aLostPhotoWhoseNameWouldNotCopyIsNamedByItsSHA256() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios"])
    // printf '\x89PNG\r\n\x1a\n' | sha256sum; printf '\x89PNG\r\n\x1a\n1' | sha256sum
    let files = [
      (
        "red\u{1B}[31m.png", "red\\u{1B}[31m.png", Data(),
        "4c4b6a3be1314ab86138bef4314dde022e600960d8689a2c8f8631802d20dab6"
      ),
      (
        "b\u{200B}lue.png", "b\\u{200B}lue.png", Data("1".utf8),
        "d4cf5fbbc645b0c920964a8a076a29454f6d8702a17da38506fae24aa0621f90"
      ),
    ]
    for (name, _, extra, _) in files {
      let png = yarn.directory.appendingPathComponent(name)
      try (Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + extra).write(to: png)
      try yarn.ok(["stash", "attach", "Rios", png.path])
    }
    for (_, shown, _, sha) in files {
      try FileManager.default.removeItem(
        at: yarn.library.appendingPathComponent("attachments/\(sha.prefix(2))/\(sha)"))
      let detach = "'yarn --library \(yarn.library.path) stash detach Rios \(sha.prefix(12))'"
      let removal = try yarn.run(["stash", "rm", "Rios", "--force"])
      #expect(removal.status == 65)
      #expect(
        removal.stderr
          == "error: cannot remove yarn \"Rios\": the file of its photo \(shown) (\(sha)) is missing from "
          + "attachments/, so undo could not give it back\n"
          + "hint: nothing was removed; put the file back (its own bytes, from a copy), or detach it first "
          + "with \(detach)\n")
      let backup = try yarn.run(["backup", "create", "b.zip"])
      #expect(backup.status == 74)
      #expect(backup.stderr.hasSuffix("or detach it with \(detach); then back up again\n"))
      try yarn.ok(["stash", "detach", "Rios", String(sha.prefix(12))])
    }
    try yarn.ok(["backup", "create", "b.zip"])
    try yarn.ok(["stash", "rm", "Rios"])
  }

  /// QA: the detach command of a refused `stash rm` or `project rm` named the item by a name
  /// other items share (64: 'Dup' matches 2 yarns), the photo by a name two of its photos
  /// have (64), or by the start of its SHA-256 when that is another photo's file name (which
  /// detached that photo, intact). Every hint — `stash rm`, `project rm`, `backup create`,
  /// `export` — names them alike: the item by ID when its name is shared or hides characters,
  /// the photo by what names it alone among the item's photos, else by its whole SHA-256; the
  /// command given detaches that photo.
  @Test func everyHintDetachesTheLostPhotoByWhatNamesItAlone() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    func photo(_ folder: String, _ name: String, _ bytes: Data) throws -> String {
      let directory = yarn.directory.appendingPathComponent(folder)
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      try bytes.write(to: directory.appendingPathComponent(name))
      return directory.appendingPathComponent(name).path
    }
    func png(_ tail: String) -> Data {
      Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(tail.utf8))
    }
    func lose(_ sha256: String) throws {
      try FileManager.default.removeItem(
        at: yarn.library.appendingPathComponent("attachments/\(sha256.prefix(2))/\(sha256)"))
    }
    /// The ID of the item of `kind` (`stash`, `project`) named `name` exactly (the only one yet).
    func lastID(_ kind: String, _ name: String) throws -> String {
      let items = try #require(try yarn.ok(["--json", kind, "list"]).json() as? [[String: Any]])
      return try #require(
        items.filter { $0["name"] as? String == name }.compactMap { $0["id"] as? String }.first)
    }
    /// `rm` is refused, and it and `backup create` and `export` give the detach `words`
    /// (of the only file lost); the detach then works.
    func expectDetach(_ rm: [String], _ words: String, _ detach: [String]) throws {
      let command = "'\(yarn.command(words))'"
      let removal = try yarn.run(rm)
      #expect(removal.status == 65, "\(rm)")
      #expect(removal.stderr.hasSuffix("or detach it first with \(command)\n"), "\(removal.stderr)")
      for (arguments, again) in [
        (["backup", "create", "b.zip"], "back up"), (["export", "e.zip"], "export"),
      ] {
        let result = try yarn.run(arguments)
        #expect(result.status == 74)
        #expect(
          result.stderr.hasSuffix("or detach it with \(command); then \(again) again\n"), "\(result.stderr)")
      }
      try yarn.ok(detach)
    }
    // printf '\x89PNG\r\n\x1a\n2' | sha256sum (and 3, 4, 5; and none after the signature)
    let two = "a4af95f963f8f5969e68b96c8ecfbab0ab5fd1de20d0f552fe0db5ec33ccdd9b"
    let three = "baafd3781084571f08f7528c84ea3f519699464e309d0d6b9e987ff4bc90dc48"
    let four = "d182bc393da85daaa0a35827d7f257d76ede94932221fcf76da3d5f501334fa5"
    let five = "d098770d76d7d7541034a763e4f52058f99087446afae073baba84da6a05cd40"
    let bare = "4c4b6a3be1314ab86138bef4314dde022e600960d8689a2c8f8631802d20dab6"

    // Two yarns named Dup: the one whose photo is lost by its ID.
    try yarn.ok(["stash", "add", "Dup"])
    let dup = try lastID("stash", "Dup")
    try yarn.ok(["stash", "add", "Dup"])
    try yarn.ok(["stash", "attach", dup, try photo("a", "with space.png", png("2"))])
    try lose(two)
    try expectDetach(
      ["stash", "rm", dup, "--force"], "stash detach \(dup) \"with space.png\"",
      ["stash", "detach", dup, "with space.png"])
    try yarn.ok(["stash", "rm", dup])

    // Projects Hat and HAT, which a reference by name does not tell apart.
    try yarn.ok(["project", "add", "Hat"])
    let hat = try lastID("project", "Hat")
    try yarn.ok(["project", "add", "HAT"])
    try yarn.ok(["project", "attach", hat, try photo("a", "top.png", png("3"))])
    try lose(three)
    try expectDetach(
      ["project", "rm", hat, "--force"], "project detach \(hat) top.png",
      ["project", "detach", hat, "top.png"])
    try yarn.ok(["project", "rm", hat])

    // Two photos named front.png (other bytes): the first one lost by its SHA-256.
    try yarn.ok(["stash", "add", "Twin"])
    try yarn.ok(["stash", "attach", "Twin", try photo("a", "front.png", png("4"))])
    try yarn.ok(["stash", "attach", "Twin", try photo("b", "front.png", png("5"))])
    try lose(four)
    try expectDetach(
      ["stash", "rm", "Twin", "--force"], "stash detach Twin \(four)", ["stash", "detach", "Twin", four])
    let twin = try #require(try yarn.ok(["--json", "stash", "show", "Twin"]).json() as? [String: Any])
    #expect((twin["photos"] as? [[String: Any]])?.compactMap { $0["sha256"] as? String } == [five])

    // A photo whose name hides U+200B, named by the start of its SHA-256, which another
    // photo of the yarn is named: by its whole SHA-256, and the other photo stays.
    try yarn.ok(["stash", "add", "Zw"])
    try yarn.ok(["stash", "attach", "Zw", try photo("a", "zw\u{200B}sp.png", png(""))])
    try yarn.ok(["stash", "attach", "Zw", try photo("a", String(bare.prefix(12)), Data("hello".utf8))])
    try lose(bare)
    try expectDetach(
      ["stash", "rm", "Zw", "--force"], "stash detach Zw \(bare)", ["stash", "detach", "Zw", bare])
    let zw = try #require(try yarn.ok(["--json", "stash", "show", "Zw"]).json() as? [String: Any])
    #expect(
      (zw["photos"] as? [[String: Any]])?.compactMap { $0["fileName"] as? String } == [
        String(bare.prefix(12))
      ])

    // A name that hides a character (U+202E) would not copy: by ID.
    try yarn.ok(["stash", "add", "Wo\u{202E}ol"])
    let hidden = try lastID("stash", "Wo\u{202E}ol")
    try yarn.ok(["stash", "attach", hidden, try photo("c", "a.png", png("2"))])
    try lose(two)
    try expectDetach(
      ["stash", "rm", hidden, "--force"], "stash detach \(hidden) a.png",
      ["stash", "detach", hidden, "a.png"])
    try yarn.ok(["backup", "create", "b.zip"])
  }

  // MARK: kill -9

  /// A library of `count` yarns, each with a photo of `size` random bytes, made through
  /// YarnCore in `directory`.
  static func makeLargeLibrary(at directory: URL, count: Int, size: Int) throws {
    let store = try LibraryStore(directory: directory, mode: .readWrite)
    defer { try? store.close() }
    let scratch = directory.deletingLastPathComponent().appendingPathComponent("photo.jpg")
    var generator = SystemRandomNumberGenerator()
    for index in 0..<count {
      var bytes = [UInt8](repeating: 0, count: size)
      for offset in stride(from: 0, to: size, by: 8) {
        withUnsafeBytes(of: generator.next() as UInt64) { random in
          for byte in 0..<min(8, size - offset) { bytes[offset + byte] = random[byte] }
        }
      }
      try Data(bytes).write(to: scratch)
      let photo = try store.importAttachment(from: scratch, fileName: "photo-\(index).jpg")
      try store.insert(Yarn(id: "yarn-\(index)", name: "Yarn \(index)", photos: [photo]))
    }
    try? FileManager.default.removeItem(at: scratch)
  }

  /// Runs yarn with `arguments`, sends `signal` after `delay` seconds if it still runs, and
  /// waits for it: its exit status, and whether the signal ended it.
  /// Runs yarn and sends it `number` after `delay` seconds, or, with `when`, as soon as `when`
  /// holds (polled every millisecond, for at most 10 s): a fixed delay alone can land after
  /// the end on a loaded machine, where the test's own sleep overruns.
  static func runAndSignal(
    _ arguments: [String], in directory: URL, signal number: Int32, after delay: Double,
    when condition: (() -> Bool)? = nil
  ) throws -> (status: Int32, endedBySignal: Bool) {
    guard let executable = YarnRunner.executable else { throw YarnRunner.RunnerError.noExecutable }
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory
    process.environment = ["HOME": directory.path, "TZ": "UTC", "LANG": "C.UTF-8"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    usleep(useconds_t(delay * 1_000_000))
    if let condition {
      let end = Date().addingTimeInterval(10)
      while process.isRunning, !condition(), Date() < end { usleep(1_000) }
    }
    let sent = process.isRunning && kill(process.processIdentifier, number) == 0
    process.waitUntilExit()
    return (process.terminationStatus, sent && process.terminationReason == .uncaughtSignal)
  }

  /// Runs yarn and `kill -9`s it after `delay` seconds: whether the kill ended it.
  static func runAndKill(_ arguments: [String], in directory: URL, after delay: Double) throws -> Bool {
    try runAndSignal(arguments, in: directory, signal: SIGKILL, after: delay).endedBySignal
  }

  @Test func ctrlCAndSIGTERMStopABackupOrRestoreAndLeaveNothing() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try Self.makeLargeLibrary(at: yarn.library, count: 24, size: 1 << 20)
    let before = try Self.state(of: yarn.library)
    var statuses: [Int32] = []
    for delay in [0.05, 0.15, 0.3] {
      let target = yarn.directory.appendingPathComponent("b.zip")
      try? FileManager.default.removeItem(at: target)
      let status = try Self.runAndSignal(
        ["--library", yarn.library.path, "backup", "create", "b.zip"], in: yarn.directory,
        signal: SIGINT, after: delay
      ).status
      statuses.append(status)
      // Either stopped (130: no backup, no temporary file) or done before the signal (0).
      #expect(status == 130 || status == 0, "after \(delay) s")
      #expect(FileManager.default.fileExists(atPath: target.path) == (status == 0))
      let hidden = try FileManager.default.contentsOfDirectory(atPath: yarn.directory.path)
        .filter { $0.hasPrefix(".") }
      #expect(hidden.isEmpty, "after \(delay) s: \(hidden)")
    }
    // And once the archive is being written (its temporary file is there): stopped, always.
    let target = yarn.directory.appendingPathComponent("b.zip")
    try? FileManager.default.removeItem(at: target)
    let writing = try Self.runAndSignal(
      ["--library", yarn.library.path, "backup", "create", "b.zip"], in: yarn.directory,
      signal: SIGINT, after: 0,
      when: {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: yarn.directory.path)) ?? []
        return names.contains { $0.hasPrefix(".") }
      }
    ).status
    statuses.append(writing)
    #expect(!FileManager.default.fileExists(atPath: target.path) || writing == 0)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: yarn.directory.path).filter { $0.hasPrefix(".") }
        .isEmpty)
    #expect(statuses.contains(130), "\(statuses)")
    #expect(try Self.state(of: yarn.library) == before)

    let backup = yarn.directory.appendingPathComponent("whole.zip")
    try yarn.ok(["backup", "create", backup.path])
    let other = yarn.directory.appendingPathComponent("other")
    let status = try Self.runAndSignal(
      ["--library", other.path, "backup", "restore", backup.path], in: yarn.directory,
      signal: SIGTERM, after: 0.05
    ).status
    #expect(status == 143 || status == 0)
    if status == 143 {
      // A failed restore into a new library creates none.
      #expect(!FileManager.default.fileExists(atPath: other.path))
      let hidden = try FileManager.default.contentsOfDirectory(atPath: yarn.directory.path)
        .filter { $0.hasPrefix(".library.sqlite.tmp-") }
      #expect(hidden.isEmpty, "\(hidden)")
    }
  }

  @Test func killingCreateNeverLeavesAPartialArchive() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try Self.makeLargeLibrary(at: yarn.library, count: 24, size: 1 << 20)
    var killedAtLeastOnce = false
    var outcomes: [String] = []
    for delay in stride(from: 0.02, through: 0.4, by: 0.03) {
      let target = yarn.directory.appendingPathComponent("b.zip")
      try? FileManager.default.removeItem(at: target)
      let killed = try Self.runAndKill(
        ["--library", yarn.library.path, "backup", "create", "b.zip"], in: yarn.directory,
        after: delay)
      killedAtLeastOnce = killedAtLeastOnce || killed
      outcomes.append(
        killed
          ? (FileManager.default.fileExists(atPath: target.path) ? "killed, whole" : "killed, none")
          : "finished")
      // Either no archive at all, or a whole one.
      if FileManager.default.fileExists(atPath: target.path) {
        let verify = try yarn.run(["backup", "verify", "b.zip"])
        #expect(verify.status == 0, "after a kill at \(delay) s: \(verify.stderr)")
      }
    }
    #expect(killedAtLeastOnce, "\(outcomes)")
    // The next create removes the temporary files the killed ones left.
    try yarn.ok(["backup", "create", "b.zip", "--force"])
    let left = try FileManager.default.contentsOfDirectory(atPath: yarn.directory.path)
      .filter { $0.hasPrefix(".b.zip") }
    #expect(left.isEmpty, "\(left)")
    #expect(try yarn.run(["backup", "verify", "b.zip"]).status == 0)
  }

  @Test func killingRestoreLeavesTheLibraryAsItWas() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    // The backup to restore: 24 photos of 1 MB.
    let big = yarn.directory.appendingPathComponent("big")
    try Self.makeLargeLibrary(at: big, count: 40, size: 1 << 20)
    let create = try yarn.run(["--library", big.path, "backup", "create", "big.zip"], useLibrary: false)
    try #require(create.status == 0, "\(create.stderr)")
    let incoming = try Self.state(of: big).library
    // The library it replaces: the sample, kept pristine in a template.
    let template = yarn.directory.appendingPathComponent("template")
    let made = try yarn.run(
      ["--library", template.path, "backup", "restore", Self.sample.path], useLibrary: false)
    try #require(made.status == 0)
    let original = try Self.state(of: template)

    var outcomes: [String] = []
    for delay in stride(from: 0.03, through: 0.4, by: 0.03) {
      try? FileManager.default.removeItem(at: yarn.library)
      try FileManager.default.copyItem(at: template, to: yarn.library)
      let killed = try Self.runAndKill(
        ["--library", yarn.library.path, "backup", "restore", "big.zip", "--replace"],
        in: yarn.directory, after: delay)
      let after = try Self.state(of: yarn.library).library
      // Records: exactly the old library, or exactly the new one when the commit came first.
      let old = after == original.library
      #expect(old || after == incoming, "after a kill at \(delay) s")
      outcomes.append(killed ? (old ? "old" : "new") : "finished")

      // The next sweep (after the next restore or removal) tidies up: no temporary file, and
      // no attachment file without a record (or a step of the undo history).
      let store = try LibraryStore(directory: yarn.library, mode: .readWrite)
      try store.sweepAttachments()
      let referenced = try store.keptAttachmentDigests()
      try store.close()
      let files = Self.files(under: yarn.library)
      #expect(!files.contains { $0.contains(".restore-") }, "after a kill at \(delay) s: \(files)")
      let attachmentFiles = Set(
        files.filter { $0.hasPrefix("attachments/") }.map { String($0.suffix(64)) })
      #expect(attachmentFiles == referenced, "after a kill at \(delay) s")
      if old {
        // Records and files as they were; a kill after the safety backup was written (it is
        // written inside the transaction, before anything changes) leaves that whole backup.
        var now = try Self.state(of: yarn.library)
        now.files.removeAll { $0.hasPrefix("safety-backups/") }
        #expect(now == original, "after a kill at \(delay) s")
      }
      // Any safety backup there is whole.
      for name in files where name.hasPrefix("safety-backups/") && name.hasSuffix(".zip") {
        let verify = try yarn.run(["backup", "verify", yarn.library.appendingPathComponent(name).path])
        #expect(verify.status == 0, "\(name): \(verify.stderr)")
      }
    }
    #expect(outcomes.contains("old"), "\(outcomes)")
  }

  // MARK: Export

  @Test func exportWritesAZipForPeople() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["backup", "restore", Self.sample.path])
    try yarn.ok(["stash", "add", "Cascade 220"])  // a second "Cascade 220"
    let result = try yarn.ok(["export", "people.zip"])
    #expect(result.stdout == "people.zip\n")
    #expect(result.stderr.contains("exported 16 yarns, 8 projects and 6 files to people.zip"))
    let (status, listing) = try Self.shell("unzip -Z1 people.zip", in: yarn.directory)
    try #require(status == 0, "\(listing)")
    let names = listing.split(separator: "\n").map(String.init)
    #expect(Array(names.prefix(3)) == ["stash.csv", "projects.csv", "time.csv"])
    #expect(names.contains("yarns/Cascade 220/yarn.txt"))
    #expect(names.contains("yarns/Cascade 220 (2)/yarn.txt"))
    #expect(names.filter { $0.hasSuffix("/project.txt") }.count == 8)
    #expect(names.filter { $0.hasSuffix("/yarn.txt") }.count == 16)
    // The CSV in the zip is what `stash export` writes.
    let (_, csv) = try Self.shell("unzip -p people.zip stash.csv", in: yarn.directory)
    #expect(csv == (try yarn.ok(["stash", "export"])).stdout)

    let again = try yarn.run(["export", "people.zip"])
    #expect(again.status == 73)
    #expect(again.stderr.contains("--force"))
    try yarn.ok(["export", "people.zip", "--force"])
    let left = try FileManager.default.contentsOfDirectory(atPath: yarn.directory.path)
      .filter { $0.hasPrefix(".people.zip") }
    #expect(left.isEmpty)
  }
}

/// The name `backup create` gives a backup when none is given.
@Suite struct BackupNameTests {
  @Test func defaultNameIsLocalTimeYYYYMMDDHHMMSS() throws {
    // 1_774_794_600 s = 2026-03-29T14:30:00Z; in Berlin that is 16:30:00 CEST.
    let instant = Date(timeIntervalSince1970: 1_774_794_600)
    let utc = try #require(TimeZone(identifier: "UTC"))
    let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
    #expect(BackupCreate.defaultName(at: instant, timeZone: utc) == "yarn-backup-20260329-143000.zip")
    #expect(BackupCreate.defaultName(at: instant, timeZone: berlin) == "yarn-backup-20260329-163000.zip")
  }
}
