import Foundation
import Testing

@testable import YarnCLI
@testable import YarnCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The tool on a library of schema version 1 (written here with v1's own SQL): commands that
/// only read leave it as it is, even when it cannot be written; a failed upgrade says why
/// without SQL, with the exit status of its cause and a hint.
@Suite struct UpgradeCLITests {
  private static let yarns = """
    INSERT INTO yarn (seq, id, name, brand, is_stashed)
    VALUES (1, 'aaaa1111-0000-0000-0000-000000000001', 'Alpaca Lace', 'Drops', 1),
      (2, 'bbbb2222-0000-0000-0000-000000000002', 'Cotton Aran', NULL, 1);
    """

  private static func databasePath(_ yarn: YarnRunner) -> String {
    yarn.library.appendingPathComponent(LibraryStore.databaseFileName).path
  }

  /// `library/library.sqlite` at version 1 in WAL mode with `rows` still in its WAL (as yarn
  /// 0.1 leaves a library), and `library/attachments/`.
  private static func makeV1Library(_ yarn: YarnRunner, rows: String) throws {
    try FileManager.default.createDirectory(
      at: yarn.library.appendingPathComponent("attachments"), withIntermediateDirectories: true)
    let raw = try Connection(path: databasePath(yarn), flags: 0x2 | 0x4)  // READWRITE | CREATE
    try raw.execute(Schema.migrations[0].sql)
    try raw.execute("PRAGMA journal_mode = WAL")
    try raw.keepWALOnClose()
    try raw.execute(rows)
    try raw.execute("PRAGMA user_version = 1")
    try raw.close()
  }

  /// The bytes of the database and of its WAL.
  private static func databaseFiles(_ yarn: YarnRunner) throws -> [Data] {
    let path = databasePath(yarn)
    return [path, path + "-wal"].map { FileManager.default.contents(atPath: $0) ?? Data() }
  }

  private static func userVersion(_ yarn: YarnRunner) throws -> Int64? {
    let raw = try Connection(path: databasePath(yarn), flags: 0x1)  // READONLY
    defer { try? raw.close() }
    return try raw.integer("PRAGMA user_version")
  }

  /// Sets the permission bits of the library directory and every file in it.
  private static func chmodLibrary(_ yarn: YarnRunner, directory: mode_t, files: mode_t) throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: yarn.library.path)
    for name in names where name.hasPrefix(LibraryStore.databaseFileName) {
      #expect(chmod(yarn.library.appendingPathComponent(name).path, files) == 0)
    }
    #expect(chmod(yarn.library.path, directory) == 0)
  }

  /// A v1 library whose directory and files are read-only: listing, backing up and a dry-run
  /// restore read it and change nothing (not the version, not a byte of the database or its
  /// WAL); the first command that writes, once it may, upgrades it. (Run as root, chmod does
  /// not stop writes: the test then shows only that nothing was written.)
  @Test func readOnlyCommandsReadAVersion1LibraryAsItIs() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try Self.makeV1Library(yarn, rows: Self.yarns)
    let before = try Self.databaseFiles(yarn)
    #expect(before[1].count > 0)
    try Self.chmodLibrary(yarn, directory: 0o555, files: 0o444)
    defer { try? Self.chmodLibrary(yarn, directory: 0o755, files: 0o644) }

    let list = try yarn.run(["stash", "list"])
    #expect(list.status == 0, "\(list.stderr)")
    #expect(
      list.stdout
        == """
        ID        NAME         COLORWAY  WEIGHT  QUANTITY  REMAINING
        aaaa1111  Alpaca Lace                    -         -
        bbbb2222  Cotton Aran                    -         -

        """)
    let backup = yarn.directory.appendingPathComponent("rescue.zip").path
    let create = try yarn.run(["backup", "create", backup])
    #expect(create.status == 0, "\(create.stderr)")
    let dryRun = try yarn.run(["backup", "restore", "--merge", "--dry-run", backup])
    #expect(dryRun.status == 0, "\(dryRun.stderr)")
    #expect(dryRun.stderr.contains("nothing was changed"))
    #expect(try Self.userVersion(yarn) == 1)
    #expect(try Self.databaseFiles(yarn) == before)

    if geteuid() != 0 {
      // The upgrade cannot write: it says so, and the library stays readable.
      let add = try yarn.run(["stash", "add", "Wool"])
      #expect(add.status == 74)
      #expect(
        add.stderr.hasPrefix(
          "error: cannot upgrade the library's database from schema version 1 to 2 (it is left "
            + "as it was): "))
      #expect(add.stderr.contains("the library is left as it was, and commands that only read"))
      #expect(try Self.userVersion(yarn) == 1)
    }
    try Self.chmodLibrary(yarn, directory: 0o755, files: 0o644)
    try yarn.ok(["stash", "add", "Wool"])
    #expect(try Self.userVersion(yarn) == 2)
    #expect(try yarn.ok(["stash", "list"]).stdout.contains("Alpaca Lace"))
  }

  /// A library changed outside yarn with foreign keys off: the upgrade names the broken
  /// reference, exits 65 (the data, not the disk), and says how to see them all; reading and
  /// backing up still work.
  @Test func brokenReferencesAreADataErrorWithAHint() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try Self.makeV1Library(
      yarn,
      rows: Self.yarns + """

        INSERT INTO note (seq, id, yarn_id, project_id, text, created, modified)
        VALUES (5, 'n-ghost', 'ghost', NULL, 'lost', 1, 1);
        """)
    let add = try yarn.run(["stash", "add", "Wool"])
    #expect(add.status == 65)
    #expect(
      add.stderr
        == "error: cannot upgrade the library's database from schema version 1 to 2 (it is left "
        + "as it was): 1 reference to an item that is not in the library: note n-ghost refers to "
        + "yarn ghost\n"
        + "hint: the library was changed outside yarn; it is left as it was, and commands that "
        + "only read still work on it: 'yarn backup create FILE' then 'yarn backup verify FILE' "
        + "shows what the items refer to that is missing\n")
    #expect(try Self.userVersion(yarn) == 1)
    #expect(try yarn.ok(["stash", "list"]).stdout.contains("Cotton Aran"))
    let backup = yarn.directory.appendingPathComponent("rescue.zip").path
    // The backup is written and kept, and says at once what a restore will refuse.
    let create = try yarn.run(["backup", "create", backup])
    #expect(create.status == 65)
    #expect(create.stderr.contains("  - library.json: note n-ghost is about yarn ghost, which is missing\n"))
    let verify = try yarn.run(["backup", "verify", backup])
    #expect(verify.status == 65)
    #expect(verify.stderr.contains("note n-ghost is about yarn ghost, which is missing"))
  }

  /// A library changed outside yarn with CHECK constraints off (a weight of 9): the upgrade
  /// names the yarn and the rule, exits 65 (the data, not the disk), and says what to do; the
  /// library stays at version 1.
  @Test func aRowBreakingARuleIsADataErrorWithAHint() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try Self.makeV1Library(
      yarn,
      rows: Self.yarns + """

        PRAGMA ignore_check_constraints = 1;
        UPDATE yarn SET weight = 9 WHERE seq = 2;
        """)
    let add = try yarn.run(["stash", "add", "Wool"])
    #expect(add.status == 65)
    #expect(
      add.stderr
        == "error: cannot upgrade the library's database from schema version 1 to 2 (it is left "
        + "as it was): yarn bbbb2222-0000-0000-0000-000000000002 breaks a rule of the library's "
        + "schema (CHECK constraint failed: weight BETWEEN 0 AND 7)\n"
        + "hint: the library was changed outside yarn; it is left as it was: correct or remove "
        + "that row (with the sqlite3 shell, say), or restore a backup into a new library with "
        + "'yarn --library NEW_DIR backup restore FILE'\n")
    #expect(try Self.userVersion(yarn) == 1)
  }

  /// The other upgrade failures: 74, the library left as it was, and what to do.
  @Test func otherUpgradeFailuresAreIOErrorsWithAHint() {
    let full = ErrorPresenter.report(
      for: StoreError.upgradeFailed(from: 1, to: 2, reason: .diskFull), root: RootCommand.self)
    #expect(full.code == .ioError)
    #expect(
      full.text
        == "error: cannot upgrade the library's database from schema version 1 to 2 (it is left "
        + "as it was): database or disk is full\n"
        + "hint: free some disk space (the upgrade needs room for a copy of the library's "
        + "tables) and try again; the library is left as it was, and commands that only read "
        + "(such as 'stash list' and 'backup create') still work on it\n")
    let readOnly = ErrorPresenter.report(
      for: StoreError.upgradeFailed(
        from: 1, to: 2, reason: .readOnly(message: "attempt to write a readonly database")),
      root: RootCommand.self, database: "/home/ann/yarn/library.sqlite")
    #expect(readOnly.code == .ioError)
    #expect(
      readOnly.hint
        == "check the permissions of /home/ann/yarn/library.sqlite and of the library "
        + "directory; the library is left as it was, and commands that only read (such as "
        + "'stash list' and 'backup create') still work on it")
    // Version 0 has no tables to read: no word of reading.
    let view = ErrorPresenter.report(
      for: StoreError.upgradeFailed(
        from: 0, to: 2, reason: .database(code: 1, message: "table yarn already exists")),
      root: RootCommand.self)
    #expect(view.code == .ioError)
    #expect(
      view.text
        == "error: cannot create the tables of the library's database (schema version 2): table "
        + "yarn already exists\nhint: the library is left as it was\n")
    // A lock held by another process stays the busy error, 75.
    #expect(ErrorPresenter.report(for: StoreError.busy, root: RootCommand.self).code == .tempFail)
  }
}
