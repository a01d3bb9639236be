import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

/// `Backup.create` of a library changed outside yarn (foreign keys off, raw SQL): the backup
/// is written and kept, and `.unrestorable` names at once what a restore would refuse or what
/// the backup lacks.
@Suite struct BackupCreateCheckTests {
  typealias Support = BackupTestSupport

  /// A store of yarn `y-1` (Wool) and project `p-1` (Hat, using y-1), then `damage` run as
  /// raw SQL with foreign keys (and CHECK constraints) off.
  private func damagedStore(in dir: URL, _ damage: String) throws -> LibraryStore {
    let store = try LibraryStore(directory: dir.appendingPathComponent("lib"), mode: .readWrite)
    try store.connection.execute(
      """
      INSERT INTO yarn (seq, id, name) VALUES (1, 'y-1', 'Wool');
      INSERT INTO project (seq, id, name, status, has_pattern) VALUES (1, 'p-1', 'Hat', 'planned', 0);
      INSERT INTO yarn_usage (project_id, position, yarn_id, amount_value, amount_unit)
      VALUES ('p-1', 0, 'y-1', 1, 'skein');
      PRAGMA foreign_keys = OFF;
      PRAGMA ignore_check_constraints = ON;
      """)
    try store.connection.execute(damage)
    try store.connection.execute("PRAGMA foreign_keys = ON; PRAGMA ignore_check_constraints = OFF")
    return store
  }

  /// `Backup.create` of `store` to `dir/b.zip`: the problems of the `.unrestorable` it must
  /// throw (`nil`, and an issue recorded, for anything else), and the zip's URL.
  private func createUnrestorable(_ store: LibraryStore, in dir: URL) -> ([BackupProblem]?, URL) {
    let zip = dir.appendingPathComponent("b.zip")
    do {
      try Backup.create(
        from: store, to: zip, generator: "t", now: Date(timeIntervalSince1970: 1_796_000_000))
      Issue.record("create did not throw")
    } catch BackupError.unrestorable(let path, let problems) {
      #expect(path == zip.path)
      return (problems, zip)
    } catch {
      Issue.record("unexpected error: \(error)")
    }
    return (nil, zip)
  }

  @Test func itemsReferringToMissingItemsAreNamedAndTheBackupKept() throws {
    try Support.withScratch { dir in
      let store = try damagedStore(
        in: dir,
        """
        INSERT INTO note (seq, id, yarn_id, project_id, text, created, modified)
        VALUES (1, 'n-1', 'y-9', NULL, 'lost', 1, 1);
        INSERT INTO time_session (seq, id, project_id, start_time, end_time)
        VALUES (1, 's-1', 'p-9', 100, 200);
        INSERT INTO yarn_usage (project_id, position, yarn_id, amount_value, amount_unit)
        VALUES ('p-1', 1, 'y-9', 2, 'g');
        """)
      let expected: [BackupProblem] = [
        .inconsistentLibrary(reason: "project p-1 (Hat) uses yarn y-9, which is missing"),
        .inconsistentLibrary(reason: "session s-1 belongs to project p-9, which is missing"),
        .inconsistentLibrary(reason: "note n-1 is about yarn y-9, which is missing"),
      ]
      let (problems, zip) = createUnrestorable(store, in: dir)
      #expect(problems == expected)
      #expect(FileManager.default.fileExists(atPath: zip.path))
      // verify sees the same, and nothing but the backup is left beside it.
      #expect(throws: BackupError.invalidBackup(path: zip.path, problems: expected)) {
        try Backup.verify(zip)
      }
      #expect(Support.listing(of: dir).filter { !$0.hasPrefix("lib/") } == ["b.zip"])
      #expect(
        BackupError.unrestorable(path: "/x/b.zip", problems: Array(expected.prefix(1))).description
          == "the backup /x/b.zip was written, but a restore will refuse it (1 problem):\n"
          + "  - library.json: project p-1 (Hat) uses yarn y-9, which is missing")
    }
  }

  /// A project that uses a missing yarn in several usages is one problem, said once with
  /// the number of usages (QA: `backup verify` printed the same line once per usage, where
  /// docs/CLI.md says each problem is listed once).
  @Test func aMissingYarnUsedInSeveralUsagesIsNamedOnce() throws {
    try Support.withScratch { dir in
      let store = try damagedStore(
        in: dir,
        """
        INSERT INTO yarn_usage (project_id, position, yarn_id, amount_value, amount_unit)
        VALUES ('p-1', 1, 'y-9', 2, 'g'), ('p-1', 2, 'y-1', 1, 'g'), ('p-1', 3, 'y-9', 5, 'g');
        """)
      let expected: [BackupProblem] = [
        .inconsistentLibrary(reason: "project p-1 (Hat) uses yarn y-9, which is missing, in 2 usages")
      ]
      let (problems, zip) = createUnrestorable(store, in: dir)
      #expect(problems == expected)
      #expect(throws: BackupError.invalidBackup(path: zip.path, problems: expected)) {
        try Backup.verify(zip)
      }
    }
  }

  @Test func rowsNoItemCarriesAreNamedAndTheBackupKept() throws {
    try Support.withScratch { dir in
      let store = try damagedStore(
        in: dir,
        """
        INSERT INTO yarn_usage (project_id, position, yarn_id, amount_value, amount_unit)
        VALUES ('p-9', 0, 'y-1', 1, 'skein');
        INSERT INTO attachment (seq, yarn_id, project_id, role, position, sha256, file_name,
          media_type, byte_count)
        VALUES (7, 'y-9', NULL, 'photo', 0, '\(Support.abcSHA256)', 'care.txt', 'text/plain', 3);
        """)
      let (problems, zip) = createUnrestorable(store, in: dir)
      #expect(
        problems == [
          .orphanedRows(
            count: 2,
            examples: [
              "row 7 of attachment refers to yarn y-9",
              "a usage of project p-9 (position 0), a project that is missing",
            ])
        ])
      // The backup holds what the library's items hold, which verify finds sound.
      #expect(
        try Backup.verify(zip).counts
          == BackupManifest.Counts(yarns: 1, projects: 1, notes: 0, sessions: 0, attachments: 0))
      #expect(
        BackupError.unrestorable(path: "/x/b.zip", problems: problems ?? []).description
          == "the backup /x/b.zip was written, but it lacks rows of the library (1 problem):\n"
          + "  - the library's database holds 2 rows whose project or yarn is missing, which the "
          + "backup lacks: row 7 of attachment refers to yarn y-9; a usage of project p-9 "
          + "(position 0), a project that is missing")
      #expect(
        BackupProblem.orphanedRows(count: 9, examples: ["row 1 of attachment refers to yarn y"])
          .description
          == "the library's database holds 9 rows whose project or yarn is missing, which the "
          + "backup lacks: row 1 of attachment refers to yarn y; and 8 more")
    }
  }

  @Test func instantsOutsideTheRangeAndBrokenChecksAreNamed() throws {
    try Support.withScratch { dir in
      // 253402300800 s is 10000-01-01T00:00:00Z, one second past the range; the session
      // ends before it starts (a CHECK the store has, ignored here).
      let store = try damagedStore(
        in: dir,
        """
        INSERT INTO note (seq, id, yarn_id, project_id, text, created, modified)
        VALUES (1, 'n-1', 'y-1', NULL, 'late', 253402300800, 1);
        INSERT INTO time_session (seq, id, project_id, start_time, end_time)
        VALUES (1, 's-1', 'p-1', 100, 50);
        """)
      let (problems, zip) = createUnrestorable(store, in: dir)
      #expect(
        problems == [
          .inconsistentLibrary(
            reason: "note n-1: created (253402300800 s from 1970-01-01T00:00:00Z) falls outside "
              + "0001-01-01T00:00:00Z … 9999-12-31T23:59:59Z in UTC"),
          .brokenRule(
            kind: "session", id: "s-1", name: nil,
            violation: RuleViolation(
              field: "end", reason: "1970-01-01T00:00:50Z is not after the start 1970-01-01T00:01:40Z")),
        ])
      #expect(FileManager.default.fileExists(atPath: zip.path))
      // verify cannot read the instant back; the session, which decodes, is checked all the
      // same (the note that does not decode no longer hides it).
      #expect(
        throws: BackupError.invalidBackup(
          path: zip.path,
          problems: [
            .invalidLibrary(
              reason: "at notes[0].created: expected an ISO 8601 instant such as "
                + "2026-03-29T14:30:00Z, found \"10000-01-01T00:00:00Z\""),
            .brokenRule(
              kind: "session", id: "s-1", name: nil,
              violation: RuleViolation(
                field: "end", reason: "1970-01-01T00:00:50Z is not after the start 1970-01-01T00:01:40Z")),
          ])
      ) { try Backup.verify(zip) }
    }
  }

  /// The instants at the ends of what SQLite holds (±2^63 s) and the second before the
  /// range: named, and writing them does not crash.
  @Test func extremeInstantsAreNamedWithoutACrash() throws {
    try Support.withScratch { dir in
      let store = try damagedStore(
        in: dir,
        """
        INSERT INTO note (seq, id, yarn_id, project_id, text, created, modified)
        VALUES (1, 'n-1', 'y-1', NULL, 'far', 9223372036854775807, -9223372036854775808);
        INSERT INTO time_session (seq, id, project_id, start_time, end_time)
        VALUES (1, 's-1', 'p-1', -62135596801, NULL);
        """)
      let (problems, zip) = createUnrestorable(store, in: dir)
      #expect(
        problems == [
          // 2^63 s as a Double is beyond Int64: the store could not hold it back.
          .inconsistentLibrary(reason: "note n-1: created 9.223372036854776e+18 is out of range"),
          .inconsistentLibrary(
            reason: "note n-1: modified (-9223372036854775808 s from 1970-01-01T00:00:00Z) falls "
              + "outside 0001-01-01T00:00:00Z … 9999-12-31T23:59:59Z in UTC"),
          .inconsistentLibrary(
            reason: "session s-1: start (-62135596801 s from 1970-01-01T00:00:00Z) falls outside "
              + "0001-01-01T00:00:00Z … 9999-12-31T23:59:59Z in UTC"),
        ])
      #expect(FileManager.default.fileExists(atPath: zip.path))
    }
  }

  /// `--replace` of a damaged library: its safety backup is written, kept and said to hold
  /// the problems, and the library is replaced all the same.
  @Test func aDamagedLibraryIsStillReplaced() throws {
    try Support.withScratch { dir in
      let good = try Support.makeStore(in: dir.appendingPathComponent("good"))
      let backup = dir.appendingPathComponent("good.zip")
      try Backup.create(from: good, to: backup, generator: "t", now: Date(timeIntervalSince1970: 0))
      let store = try damagedStore(
        in: dir,
        """
        INSERT INTO note (seq, id, yarn_id, project_id, text, created, modified)
        VALUES (1, 'n-1', 'y-9', NULL, 'lost', 1, 1);
        """)
      let safety = dir.appendingPathComponent("safety.zip")
      // QA: the dry run listed none of them (0 both). It lists what the safety backup would hold.
      let dry = try Backup.restore(
        from: backup, into: store, options: RestoreOptions(mode: .replace, dryRun: true, safetyBackup: safety)
      )
      #expect(
        dry.safetyBackupProblems == [
          .inconsistentLibrary(reason: "note n-1 is about yarn y-9, which is missing")
        ])
      #expect(dry.safetyBackup == nil)
      #expect(!FileManager.default.fileExists(atPath: safety.path))
      let report = try Backup.restore(
        from: backup, into: store, options: RestoreOptions(mode: .replace, safetyBackup: safety))
      #expect(report.safetyBackup == safety)
      #expect(
        report.safetyBackupProblems == [
          .inconsistentLibrary(reason: "note n-1 is about yarn y-9, which is missing")
        ])
      #expect(FileManager.default.fileExists(atPath: safety.path))
      #expect(try store.library() == (try good.library()))
    }
  }
}
