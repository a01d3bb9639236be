import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

/// Restoring into a library that holds something: `.replace`, `.merge`, dry runs, and the
/// clean-up after a restore that was killed.
@Suite struct BackupRestoreModeTests {
  typealias Support = BackupTestSupport

  /// Library B: one yarn with its own photo ("xyz"), one project using it, a note.
  private func makeOther(in dir: URL) throws -> LibraryStore {
    let store = try LibraryStore(directory: dir.appendingPathComponent("other"), mode: .readWrite)
    let file = dir.appendingPathComponent("xyz.jpg")
    try Data("xyz".utf8).write(to: file)
    let photo = try store.importAttachment(from: file)
    try store.write {
      try store.insert(Yarn(id: "b-yarn", name: "Brooklyn Tweed Shelter", photos: [photo]))
      try store.insert(
        Project(
          id: "b-project", name: "Hat",
          usages: [YarnUsage(yarnID: "b-yarn", amount: Amount(1, .skein))]))
      try store.insert(
        Note(
          id: "b-note", subject: .project("b-project"), text: "pom-pom",
          created: Date(timeIntervalSince1970: 1_800_000_000)))
    }
    return store
  }

  private func backup(_ store: LibraryStore, _ url: URL) throws -> URL {
    try Backup.create(from: store, to: url, generator: "t", now: Date(timeIntervalSince1970: 0))
    return url
  }

  /// The library's records and every file under its directory but the database.
  private func snapshot(_ store: LibraryStore) throws -> (Library, [String]) {
    let files = Support.listing(of: store.directory).filter { !$0.hasPrefix("library.sqlite") }
    return (try store.library(), files)
  }

  @Test func replaceWritesASafetyBackupThenReplacesEverything() throws {
    try Support.withScratch { dir in
      let mine = try Support.makeStore(in: dir)
      let before = try mine.library()
      let beforeDigests = Set(before.attachments.map(\.sha256))
      let other = try makeOther(in: dir)
      let zip = try backup(other, dir.appendingPathComponent("other.zip"))
      let safety = dir.appendingPathComponent("safety.zip")

      let report = try Backup.restore(
        from: zip, into: mine, options: RestoreOptions(mode: .replace, safetyBackup: safety))
      #expect(try mine.library() == (try other.library()))
      #expect(report.safetyBackup == safety)
      #expect(report.replaced == BackupManifest.Counts(of: before))
      #expect(report.added == .init(yarns: 1, projects: 1, notes: 1, sessions: 0, attachments: 1))
      // The old library's files are gone; the new one's are there.
      for digest in beforeDigests { #expect(!mine.hasAttachment(sha256: digest)) }
      #expect(
        try Support.attachmentBytes(of: mine).values.sorted { $0.count < $1.count }
          == [Data("xyz".utf8)])
      // The safety backup holds the library as it was.
      let check = try LibraryStore(directory: dir.appendingPathComponent("check"), mode: .readWrite)
      try Backup.restore(from: safety, into: check)
      #expect(try check.library() == before)
    }
  }

  /// QA: two replaces in the same second were given the same safety backup name (chosen
  /// before the write lock), and the second failed on it: `already exists (use --force …)`.
  /// A name taken by then is numbered, under the lock: ` (2)`, ` (3)`, … before `.zip`.
  @Test func aSafetyBackupNameAlreadyTakenIsNumbered() throws {
    try Support.withScratch { dir in
      let mine = try Support.makeStore(in: dir)
      let zip = try backup(try makeOther(in: dir), dir.appendingPathComponent("other.zip"))
      let folder = dir.appendingPathComponent("safety-backups", isDirectory: true)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let name = "yarn-backup-before-restore-20260601-120000"
      let taken = folder.appendingPathComponent(name + ".zip")
      // Written by another restore of the same second after this one chose the name.
      try Data("theirs".utf8).write(to: taken)
      let options = RestoreOptions(mode: .replace, safetyBackup: taken)
      let first = try Backup.restore(from: zip, into: mine, options: options)
      #expect(first.safetyBackup == folder.appendingPathComponent(name + " (2).zip"))
      let second = try Backup.restore(from: zip, into: mine, options: options)
      #expect(second.safetyBackup == folder.appendingPathComponent(name + " (3).zip"))
      #expect(try Data(contentsOf: taken) == Data("theirs".utf8))
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
          == [name + " (2).zip", name + " (3).zip", name + ".zip"])
    }
  }

  /// QA: restoring a safety backup within the second it was named (the command `undo`
  /// suggests) failed 73, "it is the backup being read": the new safety backup's name was
  /// checked before the taken one was skipped. The backup being read is a taken name: the new
  /// one is numbered ` (2)`, and the restore goes on.
  @Test func restoringASafetyBackupInItsOwnSecondNumbersTheNewOne() throws {
    try Support.withScratch { dir in
      let mine = try Support.makeStore(in: dir)
      let before = try mine.library()
      let zip = try backup(try makeOther(in: dir), dir.appendingPathComponent("other.zip"))
      let folder = dir.appendingPathComponent("safety-backups", isDirectory: true)
      let name = "yarn-backup-before-restore-20260601-120000"
      let safety = folder.appendingPathComponent(name + ".zip")
      let options = RestoreOptions(mode: .replace, safetyBackup: safety)
      #expect(try Backup.restore(from: zip, into: mine, options: options).safetyBackup == safety)
      for dryRun in [true, false] {
        var again = options
        again.dryRun = dryRun
        let report = try Backup.restore(from: safety, into: mine, options: again)
        #expect(report.safetyBackup == (dryRun ? nil : folder.appendingPathComponent(name + " (2).zip")))
      }
      #expect(try mine.library() == before)
    }
  }

  @Test func aDryRunReplaceFailsAsTheRestoreWouldOnAnUnreadableItem() throws {
    try Support.withScratch { dir in
      let mine = try makeOther(in: dir)
      let zip = try backup(mine, dir.appendingPathComponent("other.zip"))
      // A yarn weight of 9, written as the sqlite3 shell would (CHECKs off): the store
      // cannot read that yarn, so the safety backup of `--replace` cannot be written.
      try mine.connection.execute("PRAGMA ignore_check_constraints = ON")
      try mine.connection.execute("UPDATE yarn SET weight = 9 WHERE id = 'b-yarn'")
      try mine.connection.execute("PRAGMA ignore_check_constraints = OFF")
      let safety = dir.appendingPathComponent("safety.zip")
      for dryRun in [true, false] {
        do {
          try Backup.restore(
            from: zip, into: mine,
            options: RestoreOptions(mode: .replace, dryRun: dryRun, safetyBackup: safety))
          Issue.record("a replace (dry run: \(dryRun)) went through an unreadable yarn")
        } catch StoreError.invalidData(let kind, let id, _) {
          #expect(kind == .yarn && id == "b-yarn")
        }
      }
      // Nothing changed: the yarn is still there with its weight of 9.
      #expect(try mine.connection.query("SELECT weight FROM yarn") { $0.int64(0) } == [9])
    }
  }

  /// QA: with a safety backup folder that could not be written, a dry run of the replace
  /// said all was well, while the replace itself failed on writing the safety backup. Both
  /// now refuse it alike, before anything is written: a file where the folder should be
  /// (which stops root too), a read-only folder, and a folder to be created in a read-only
  /// one.
  @Test func aSafetyBackupThatCannotBeWrittenIsRefusedByTheDryRunToo() throws {
    try Support.withScratch { dir in
      let mine = try Support.makeStore(in: dir)
      let zip = try backup(try makeOther(in: dir), dir.appendingPathComponent("other.zip"))
      let before = try snapshot(mine)
      let name = "yarn-backup-before-restore-20260601-120000.zip"
      func expectRefused(_ target: URL, _ reason: String) throws {
        for dryRun in [true, false] {
          #expect(throws: BackupError.cannotWrite(path: target.path, reason: reason), "dry run: \(dryRun)") {
            try Backup.restore(
              from: zip, into: mine,
              options: RestoreOptions(mode: .replace, dryRun: dryRun, safetyBackup: target))
          }
          let after = try snapshot(mine)
          #expect(after.0 == before.0 && after.1 == before.1)
          #expect(!FileManager.default.fileExists(atPath: target.path))
        }
      }
      let file = dir.appendingPathComponent("safety-backups")
      try Data("not a folder".utf8).write(to: file)
      try expectRefused(file.appendingPathComponent(name), "not a directory")
      let folder = dir.appendingPathComponent("read-only", isDirectory: true)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      guard let reason = Support.makeReadOnly(folder.path) else { return }
      defer { Support.makeWritable(folder.path) }
      try expectRefused(folder.appendingPathComponent(name), reason)
      try expectRefused(folder.appendingPathComponent("safety-backups/" + name), reason)
    }
  }

  /// QA: the safety backup's path was the one output not checked against the library's own
  /// files (`OutputError`): in `attachments/` it was written there. It is refused as every
  /// writer's is, before anything is read, in a dry run too; `safety-backups/` is its place.
  @Test func aSafetyBackupInTheLibrarysOwnFilesIsRefused() throws {
    try Support.withScratch { dir in
      let mine = try Support.makeStore(in: dir)
      let zip = try backup(try makeOther(in: dir), dir.appendingPathComponent("other.zip"))
      let before = try snapshot(mine)
      let library = mine.directory
      let name = "yarn-backup-before-restore-20260601-120000.zip"
      let attachments = library.appendingPathComponent("attachments")
      // `safety-backups` a link to `attachments`: the path says one, the file system the other.
      let linked = dir.appendingPathComponent("linked")
      try FileManager.default.createDirectory(at: linked, withIntermediateDirectories: true)
      try FileManager.default.createSymbolicLink(
        atPath: linked.appendingPathComponent("safety-backups").path, withDestinationPath: attachments.path)
      let targets: [(URL, String)] = [
        (attachments.appendingPathComponent(name), "inside the library's attachments folder"),
        (attachments.appendingPathComponent("ab/" + name), "inside the library's attachments folder"),
        (linked.appendingPathComponent("safety-backups/" + name), "inside the library's attachments folder"),
        (
          library.appendingPathComponent("library.sqlite-journal"),
          "the library's rollback journal (library.sqlite-journal)"
        ),
        (library.appendingPathComponent("safety-backups"), "the library's safety-backups folder"),
      ]
      for (target, part) in targets {
        for dryRun in [true, false] {
          let refusal = OutputError.intoLibrary(path: target.path, part: part, library: library.path)
          #expect(throws: refusal, "\(target.path), dry run: \(dryRun)") {
            try Backup.restore(
              from: zip, into: mine,
              options: RestoreOptions(mode: .replace, dryRun: dryRun, safetyBackup: target))
          }
          let after = try snapshot(mine)
          #expect(after.0 == before.0 && after.1 == before.1)
        }
      }
      // Its own place, in the library.
      let safety = library.appendingPathComponent("safety-backups/" + name)
      let report = try Backup.restore(
        from: zip, into: mine, options: RestoreOptions(mode: .replace, safetyBackup: safety))
      #expect(report.safetyBackup == safety)
      #expect(FileManager.default.fileExists(atPath: safety.path))
      // QA: the library's own `safety-backups` a link to a folder inside `attachments`: the
      // file would be there, among the photos.
      let folder = library.appendingPathComponent("safety-backups")
      try FileManager.default.removeItem(at: folder)
      let inner = attachments.appendingPathComponent("24")
      try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
      try FileManager.default.createSymbolicLink(atPath: folder.path, withDestinationPath: "attachments/24")
      let linkedTarget = folder.appendingPathComponent(name)
      #expect(
        throws: OutputError.intoLibrary(
          path: linkedTarget.path, part: "inside the library's attachments folder", library: library.path)
      ) {
        try Backup.restore(
          from: zip, into: mine, options: RestoreOptions(mode: .replace, safetyBackup: linkedTarget))
      }
      #expect(try FileManager.default.contentsOfDirectory(atPath: inner.path) == [])
    }
  }

  /// QA: the safety backup was written into the backup being read (a directory backup, by a
  /// link); it is never written there (`OutputError.intoBackup`, before anything is read, in
  /// a dry run too: `aSafetyBackupThatWouldBeInTheBackupBeingReadIsRefused` of the CLI), nor
  /// onto a zip being read: its name, or a link to it, is a taken name, numbered ` (2)`.
  @Test func aSafetyBackupIsNeverWrittenOnOrInTheBackupBeingRead() throws {
    try Support.withScratch { dir in
      let mine = try Support.makeStore(in: dir)
      let zip = try backup(try makeOther(in: dir), dir.appendingPathComponent("other.zip"))
      let before = try snapshot(mine)
      let link = dir.appendingPathComponent("link.zip")
      try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: zip.path)
      let bytes = try Data(contentsOf: zip)
      for target in [zip, link] {
        let report = try Backup.restore(
          from: zip, into: mine, options: RestoreOptions(mode: .replace, dryRun: true, safetyBackup: target))
        #expect(report.safetyBackup == nil)
        let after = try snapshot(mine)
        #expect(after.0 == before.0 && after.1 == before.1)
      }
      let first = try Backup.restore(
        from: zip, into: mine, options: RestoreOptions(mode: .replace, safetyBackup: zip))
      #expect(first.safetyBackup == dir.appendingPathComponent("other (2).zip"))
      let second = try Backup.restore(
        from: zip, into: mine, options: RestoreOptions(mode: .replace, safetyBackup: link))
      #expect(second.safetyBackup == dir.appendingPathComponent("link (2).zip"))
      #expect(try Data(contentsOf: zip) == bytes)
      #expect(
        OutputError.intoBackup(path: "/b/x.zip", part: "inside the backup being read", backup: "/b")
          .description
          == "cannot create '/b/x.zip': it is inside the backup being read, /b; no output is written there")
    }
  }

  @Test func replaceOfANonEmptyLibraryNeedsASafetyBackupPath() throws {
    try Support.withScratch { dir in
      let mine = try Support.makeStore(in: dir)
      let zip = try backup(try makeOther(in: dir), dir.appendingPathComponent("other.zip"))
      let before = try snapshot(mine)
      #expect(throws: BackupError.safetyBackupRequired(path: mine.directory.path)) {
        try Backup.restore(from: zip, into: mine, options: RestoreOptions(mode: .replace))
      }
      let after = try snapshot(mine)
      #expect(after.0 == before.0 && after.1 == before.1)
    }
  }

  @Test func mergeAddsNewItemsAndLeavesEqualOnesAlone() throws {
    try Support.withScratch { dir in
      let mine = try Support.makeStore(in: dir)
      let before = try mine.library()
      // The backup holds my library plus library B.
      let combined = try LibraryStore(directory: dir.appendingPathComponent("c"), mode: .readWrite)
      try Backup.restore(from: try backup(mine, dir.appendingPathComponent("a.zip")), into: combined)
      let other = try makeOther(in: dir)
      try Backup.restore(
        from: try backup(other, dir.appendingPathComponent("b.zip")), into: combined,
        options: RestoreOptions(mode: .merge))
      let zip = try backup(combined, dir.appendingPathComponent("c.zip"))

      let report = try Backup.restore(from: zip, into: mine, options: RestoreOptions(mode: .merge))
      #expect(report.added == .init(yarns: 1, projects: 1, notes: 1, sessions: 0, attachments: 1))
      // My library's 4 files (front.jpg, swatch.png, care.txt, flax.pdf) are already stored.
      #expect(report.unchanged == .init(yarns: 2, projects: 2, notes: 2, sessions: 2, attachments: 4))
      let b = try other.library()
      let expected = Library(
        yarns: before.yarns + b.yarns, projects: before.projects + b.projects,
        notes: before.notes + b.notes, sessions: before.sessions)
      #expect(try mine.library() == expected)
      // Merging the same backup again adds nothing.
      let again = try Backup.restore(from: zip, into: mine, options: RestoreOptions(mode: .merge))
      #expect(again.added == .zero)
      #expect(try mine.library() == expected)
    }
  }

  /// A needle size under 0.5 mm, which an older yarn took (QA: `tool add --size 0.001mm`),
  /// is kept by a restore into an empty library and by a merge: the rule refuses it only
  /// when it is given.
  @Test func aNeedleSizeAnOlderYarnTookIsRestoredAndMerged() throws {
    try Support.withScratch { dir in
      let old = try LibraryStore(directory: dir.appendingPathComponent("old"), mode: .readWrite)
      var project = Project(id: "p-lace", name: "Lace")
      project.needleSizes = [try #require(NeedleSize(millimetres: 0.001))]
      let tool = Tool(id: "t-pin", name: "Pin", kind: .dpn, size: NeedleSize(millimetres: 0.001))
      try old.insert(library: Library(projects: [project], tools: [tool]))
      let zip = try backup(old, dir.appendingPathComponent("old.zip"))

      let empty = try LibraryStore(directory: dir.appendingPathComponent("empty"), mode: .readWrite)
      try Backup.restore(from: zip, into: empty)
      #expect(try empty.library() == (try old.library()))
      let mine = try Support.makeStore(in: dir)
      let report = try Backup.restore(from: zip, into: mine, options: RestoreOptions(mode: .merge))
      #expect(report.added.projects == 1)
      #expect(try mine.tool(id: "t-pin")?.size?.millimetreText == "0.001 mm")
      #expect(try mine.project(id: "p-lace")?.needleSizes == project.needleSizes)
    }
  }

  @Test func anyConflictRefusesTheWholeMergeAndListsThemAll() throws {
    try Support.withScratch { dir in
      let mine = try Support.makeStore(in: dir)
      let theirs = try LibraryStore(directory: dir.appendingPathComponent("t"), mode: .readWrite)
      try Backup.restore(from: try backup(mine, dir.appendingPathComponent("a.zip")), into: theirs)
      // Theirs: one yarn changed (quantity and colorway), one new yarn, the running session
      // stopped.
      var yarn = try #require(try theirs.yarns().first)
      yarn.quantity = Amount(4, .skein)
      yarn.colorway = "Garnet"
      var session = try #require(try theirs.runningSession())
      session.end = session.start.addingTimeInterval(600)
      try theirs.write {
        try theirs.update(yarn)
        try theirs.update(session)
        try theirs.insert(Yarn(id: "new-yarn", name: "Malabrigo Rios"))
      }
      let zip = try backup(theirs, dir.appendingPathComponent("t.zip"))
      let before = try snapshot(mine)
      let expected = [
        RestoreConflict(
          kind: "session", id: session.id, name: nil, reason: "end differs from the library's"),
        RestoreConflict(
          kind: "yarn", id: yarn.id, name: yarn.name,
          reason: "colorway, quantity differ from the library's"),
      ]
      for dryRun in [true, false] {
        do {
          try Backup.restore(
            from: zip, into: mine, options: RestoreOptions(mode: .merge, dryRun: dryRun))
          Issue.record("expected mergeConflicts")
        } catch BackupError.mergeConflicts(_, let conflicts) {
          #expect(conflicts == expected)
        }
        let after = try snapshot(mine)
        #expect(after.0 == before.0 && after.1 == before.1)
      }
    }
  }

  /// A merge refuses the backup's sessions that share time with the library's, as `time add`
  /// refuses them, listing each pair; one that ends as a library session starts does not
  /// overlap it. The library (`Support.makeStore`) has "yoke" on Flax sweater from
  /// 2026-01-01T20:40:00Z to 22:10:00Z and Vanilla socks running since 2026-01-03T00:26:40Z.
  @Test func sessionsOverlappingTheLibrarysAreConflictsListedInPairs() throws {
    try Support.withScratch { dir in
      let mine = try Support.makeStore(in: dir)
      let theirs = try LibraryStore(directory: dir.appendingPathComponent("t"), mode: .readWrite)
      func session(_ id: String, _ start: TimeInterval, _ end: TimeInterval) -> TimeSession {
        TimeSession(
          id: id, projectID: "t-project", start: Date(timeIntervalSince1970: start),
          end: Date(timeIntervalSince1970: end))
      }
      try theirs.write {
        try theirs.insert(Project(id: "t-project", name: "Mittens"))
        try theirs.insert(session("t-1", 1_767_304_800, 1_767_308_400))  // 22:00 to 23:00
        try theirs.insert(session("t-2", 1_767_305_400, 1_767_308_400))  // 22:10 to 23:00
        try theirs.insert(session("t-3", 1_767_402_000, 1_767_405_600))  // Jan 3, 01:00 to 02:00
      }
      let zip = try backup(theirs, dir.appendingPathComponent("t.zip"))
      let before = try snapshot(mine)
      let expected = [
        RestoreConflict(
          kind: "session", id: "t-1", name: nil,
          reason: "from 2026-01-01T22:00:00Z to 2026-01-01T23:00:00Z, it overlaps the session on "
            + "\"Flax sweater\" from 2026-01-01T20:40:00Z to 2026-01-01T22:10:00Z "
            + "(session 0d000000-0000-4000-8000-000000000001)"),
        RestoreConflict(
          kind: "session", id: "t-3", name: nil,
          reason: "from 2026-01-03T01:00:00Z to 2026-01-03T02:00:00Z, it overlaps the session on "
            + "\"Vanilla socks\" from 2026-01-03T00:26:40Z to now (running) "
            + "(session 0d000000-0000-4000-8000-000000000002)"),
      ]
      for dryRun in [true, false] {
        #expect(throws: BackupError.mergeConflicts(path: zip.path, conflicts: expected)) {
          try Backup.restore(from: zip, into: mine, options: RestoreOptions(mode: .merge, dryRun: dryRun))
        }
        let after = try snapshot(mine)
        #expect(after.0 == before.0 && after.1 == before.1)
      }
    }
  }

  @Test func aSecondRunningSessionIsAConflict() throws {
    try Support.withScratch { dir in
      let mine = try Support.makeStore(in: dir)
      let theirs = try LibraryStore(directory: dir.appendingPathComponent("t"), mode: .readWrite)
      try theirs.write {
        try theirs.insert(Project(id: "t-project", name: "Mittens"))
        try theirs.insert(
          // Started after the library's recorded sessions end: only the running one conflicts.
          TimeSession(id: "t-run", projectID: "t-project", start: Date(timeIntervalSince1970: 1_780_000_000)))
      }
      let zip = try backup(theirs, dir.appendingPathComponent("t.zip"))
      let running = try #require(try mine.runningSession())
      #expect(
        throws: BackupError.mergeConflicts(
          path: zip.path,
          conflicts: [
            RestoreConflict(
              kind: "session", id: "t-run", name: nil,
              reason:
                "it is running, and so is session \(running.id) of the library (at most one may run)"
            )
          ])
      ) { try Backup.restore(from: zip, into: mine, options: RestoreOptions(mode: .merge)) }
      #expect(try mine.project(id: "t-project") == nil)
    }
  }

  @Test(arguments: [RestoreMode.emptyOnly, .replace, .merge])
  func aDryRunChangesNothingAndSaysWhatWouldHappen(mode: RestoreMode) throws {
    try Support.withScratch { dir in
      let other = try makeOther(in: dir)
      let zip = try backup(other, dir.appendingPathComponent("other.zip"))
      let mine =
        mode == .emptyOnly
        ? try LibraryStore(directory: dir.appendingPathComponent("empty"), mode: .readWrite)
        : try Support.makeStore(in: dir)
      let before = try snapshot(mine)
      let dry = try Backup.restore(from: zip, into: mine, options: RestoreOptions(mode: mode, dryRun: true))
      let after = try snapshot(mine)
      #expect(after.0 == before.0 && after.1 == before.1)
      #expect(dry.dryRun && dry.safetyBackup == nil)
      #expect(dry.added == .init(yarns: 1, projects: 1, notes: 1, sessions: 0, attachments: 1))
      #expect(dry.replaced == (mode == .replace ? BackupManifest.Counts(of: before.0) : .zero))
      // The real run does what the dry run said.
      let real = try Backup.restore(
        from: zip, into: mine,
        options: RestoreOptions(mode: mode, safetyBackup: dir.appendingPathComponent("s.zip")))
      #expect(real.added == dry.added && real.replaced == dry.replaced)
    }
  }

  @Test func emptyOnlyRefusesALibraryThatHoldsAnything() throws {
    try Support.withScratch { dir in
      let mine = try Support.makeStore(in: dir)
      let zip = try backup(try makeOther(in: dir), dir.appendingPathComponent("other.zip"))
      #expect(throws: BackupError.libraryNotEmpty(path: mine.directory.path)) {
        try Backup.restore(from: zip, into: mine)
      }
    }
  }

  // MARK: After kill -9

  @Test func filesAKilledRestorePlacedAreSweptByTheNextRestore() throws {
    try Support.withScratch { dir in
      let mine = try Support.makeStore(in: dir)
      let kept = try #require(try mine.library().attachments.first).sha256
      // What a restore killed after placing its files, before its commit, leaves: a file no
      // record uses in its shard, and a temporary file in attachments/.
      let orphan = Data("orphan".utf8)
      let orphanURL = mine.attachmentURL(sha256: try SHA256Hasher.hexDigest(of: orphan))
      try FileManager.default.createDirectory(
        at: orphanURL.deletingLastPathComponent(), withIntermediateDirectories: true)
      try orphan.write(to: orphanURL)
      let temporary = mine.directory.appendingPathComponent(
        "attachments/.restore-0b6f1c52-3f4e-4d7a-9a51-6c2e8d0b7f11")
      try Data("partial".utf8).write(to: temporary)

      let zip = try backup(try makeOther(in: dir), dir.appendingPathComponent("other.zip"))
      try Backup.restore(from: zip, into: mine, options: RestoreOptions(mode: .merge))
      #expect(!FileManager.default.fileExists(atPath: orphanURL.path))
      #expect(!FileManager.default.fileExists(atPath: temporary.path))
      #expect(mine.hasAttachment(sha256: kept))
      #expect(
        try Backup.create(
          from: mine, to: dir.appendingPathComponent("after.zip"), generator: "t", now: Date()
        ).counts.attachments > 0)
    }
  }

  @Test func aDamagedFileInTheLibraryIsReplacedByTheBackupsCheckedBytes() throws {
    try Support.withScratch { dir in
      let mine = try Support.makeStore(in: dir)
      let zip = try backup(mine, dir.appendingPathComponent("good.zip"))
      let text = try #require(
        try mine.library().attachments.first { $0.sha256 == Support.abcSHA256 })
      // One byte of the stored "abc" goes bad on disk.
      let stored = mine.attachmentURL(sha256: text.sha256)
      try Data("abd".utf8).write(to: stored)
      let report = try Backup.restore(from: zip, into: mine, options: RestoreOptions(mode: .merge))
      #expect(report.unchanged.yarns == 2)
      #expect(try Data(contentsOf: stored) == Data("abc".utf8))
      #expect(
        try Backup.verify(try backup(mine, dir.appendingPathComponent("after.zip"))).counts.attachments == 4)
    }
  }

  @Test func staleTemporaryFilesOfAKilledBackupAreRemovedByTheNextOne() throws {
    try Support.withScratch { dir in
      let store = try Support.makeStore(in: dir)
      let target = dir.appendingPathComponent("b.zip")
      // A killed backup of another name (the default name changes with the time).
      let dead = ".yarn-backup-20261201-120000.zip.tmp-" + Identifier.make()
      // Files of other programs that look alike, without yarn's lock file: left alone.
      let lookalike = ".thesis.docx.tmp-" + Identifier.make()
      for name in [dead, dead + ".aB3xYz", dead + ".lock", ".c.zip.tmp-x", lookalike, lookalike + ".bak"] {
        try Data("x".utf8).write(to: dir.appendingPathComponent(name))
      }
      // A backup still being written (its lock held) is left alone.
      let alive = try BackupTemporaryFiles(besides: target)
      try Data("x".utf8).write(to: URL(fileURLWithPath: alive.archivePath))
      try backup(store, target)
      let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter {
        $0.hasPrefix(".")
      }
      let aliveName = URL(fileURLWithPath: alive.group).lastPathComponent
      #expect(
        left.sorted()
          == [".c.zip.tmp-x", aliveName, aliveName + ".lock", lookalike, lookalike + ".bak"].sorted())
      alive.remove()
      #expect(try Backup.verify(target).counts.yarns == 2)
    }
  }

  // MARK: Compressible files and space

  @Test func largeCompressibleFilesAndLibrariesStillRestore() throws {
    try Support.withScratch { dir in
      // A 2 MiB text file of one letter deflates about 1000 times, and so do 32 notes of
      // 100,000 letters (the longest a note may be): a reader takes such ratios for a zip
      // bomb, so yarn stores large attachments, and library.json is capped by size instead.
      let store = try LibraryStore(directory: dir.appendingPathComponent("a"), mode: .readWrite)
      let file = dir.appendingPathComponent("pattern.txt")
      try Data(repeating: UInt8(ascii: "k"), count: 2 << 20).write(to: file)
      let text = try store.importAttachment(from: file)
      let small = dir.appendingPathComponent("small.txt")
      try Data(repeating: UInt8(ascii: "p"), count: 1000).write(to: small)
      let note = try store.importAttachment(from: small)
      try store.write {
        try store.insert(Yarn(id: "y", name: "Letters", photos: [text, note]))
        for index in 0..<32 {
          try store.insert(
            Note(
              id: "n\(index)", subject: .yarn("y"),
              text: String(repeating: "a", count: Rules.maximumNoteLength),
              created: Date(timeIntervalSince1970: 0)))
        }
      }
      let zip = try backup(store, dir.appendingPathComponent("b.zip"))
      let reader = try ZipArchive.Reader(url: zip)
      let methods = Dictionary(
        try reader.entries().map { ($0.name, $0.method) }, uniquingKeysWith: { a, _ in a })
      #expect(methods["attachments/" + text.sha256] == 0)  // stored
      #expect(methods["attachments/" + note.sha256] == 8)  // small: deflated
      #expect(methods["library.json"] == 8)
      let target = try LibraryStore(directory: dir.appendingPathComponent("b"), mode: .readWrite)
      try Backup.restore(from: zip, into: target)
      #expect(try target.library() == (try store.library()))
    }
  }

  @Test func aBackupLargerThanTheFreeSpaceIsRefusedAtOnce() throws {
    try Support.withScratch { dir in
      let store = try LibraryStore(directory: dir.appendingPathComponent("a"), mode: .readWrite)
      let digest = String(repeating: "a", count: 64)
      let manifest = BackupManifest(
        formatVersion: 1, createdAt: Date(), generator: "t",
        counts: .init(yarns: 0, projects: 0, notes: 0, sessions: 0, attachments: 1),
        files: [
          .init(path: "library.json", size: 10, sha256: digest),
          .init(path: "attachments/" + digest, size: 1 << 60, sha256: digest),
        ])
      // 2^60 + 2 × 10 (library.json, in the database and its log) + 1 MiB (the margin)
      // = 1152921504607895572; named with the library's folder.
      do {
        try Backup.checkFreeSpace(for: manifest, in: store)
        Issue.record("expected notEnoughSpace")
      } catch BackupError.notEnoughSpace(let path, let needed, _) {
        #expect(path == store.directory.path)
        #expect(needed == 1_152_921_504_607_895_572)
      }
      // A backup of 1 KB (library.json of 1,000 bytes, no attachments) asks for
      // 2 × 1,000 + 1,048,576 = 1,050,576 bytes, not the 64 MiB it once did.
      var small = manifest
      small.files = [.init(path: "library.json", size: 1_000, sha256: digest)]
      #expect(Backup.neededSpace(for: small, in: store) == 1_050_576)
      try Backup.checkFreeSpace(for: small, in: store)
      // An attachment the library has counts once, as the largest one written again through
      // a temporary copy: 2^60 + 20 + 1 MiB again; one it lacks of 3 bytes adds 3.
      let target = store.attachmentURL(sha256: digest)
      try FileManager.default.createDirectory(
        at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data("abc".utf8).write(to: target)
      let other = String(repeating: "b", count: 64)
      var kept = manifest
      kept.files.append(.init(path: "attachments/" + other, size: 3, sha256: other))
      #expect(Backup.neededSpace(for: kept, in: store) == 1_152_921_504_607_895_575)
    }
  }
}
