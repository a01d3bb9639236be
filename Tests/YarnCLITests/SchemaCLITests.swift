import Foundation
import Testing

@testable import YarnCLI
@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The tool and the database's schema version: a new library is at version 1; a library of a
/// newer version is refused and left as it is; a failed migration says why without SQL,
/// exits 74 and leaves the library as it was.
@Suite struct SchemaCLITests {
  private static func databasePath(_ yarn: YarnRunner) -> String {
    yarn.library.appendingPathComponent(LibraryStore.databaseFileName).path
  }

  private static func userVersion(_ yarn: YarnRunner) throws -> Int64? {
    let raw = try Connection(path: databasePath(yarn), flags: 0x1)  // READONLY
    defer { try? raw.close() }
    return try raw.integer("PRAGMA user_version")
  }

  /// The bytes of the database and of its WAL.
  private static func databaseFiles(_ yarn: YarnRunner) -> [Data] {
    let path = databasePath(yarn)
    return [path, path + "-wal"].map { FileManager.default.contents(atPath: $0) ?? Data() }
  }

  /// Sets the permission bits of the library directory and of its database files.
  private static func chmodLibrary(_ yarn: YarnRunner, directory: mode_t, files: mode_t) throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: yarn.library.path)
    for name in names where name.hasPrefix(LibraryStore.databaseFileName) {
      #expect(chmod(yarn.library.appendingPathComponent(name).path, files) == 0)
    }
    #expect(chmod(yarn.library.path, directory) == 0)
  }

  @Test func aNewLibraryIsAtTheCurrentSchemaVersion7() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Wool"])
    #expect(try Self.userVersion(yarn) == 7)
  }

  /// A library whose directory and files are read-only: listing, backing up and a dry-run
  /// restore read it and change nothing (not a byte of the database or its WAL); a command
  /// that writes says it cannot. (Run as root, chmod does not stop writes: the test then
  /// shows only that nothing was written.)
  @Test func commandsThatOnlyReadWorkOnALibraryThatCannotBeWritten() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Alpaca Lace", "--brand", "Drops"])
    let before = Self.databaseFiles(yarn)
    #expect(before[1].count > 0)  // the WAL kept between commands
    try Self.chmodLibrary(yarn, directory: 0o555, files: 0o444)
    defer { try? Self.chmodLibrary(yarn, directory: 0o755, files: 0o644) }

    let list = try yarn.run(["stash", "list"])
    #expect(list.status == 0, "\(list.stderr)")
    #expect(list.stdout.contains("Alpaca Lace"))
    let backup = yarn.directory.appendingPathComponent("rescue.zip").path
    let create = try yarn.run(["backup", "create", backup])
    #expect(create.status == 0, "\(create.stderr)")
    let dryRun = try yarn.run(["backup", "restore", "--merge", "--dry-run", backup])
    #expect(dryRun.status == 0, "\(dryRun.stderr)")
    #expect(dryRun.stderr.contains("nothing was changed"))
    if geteuid() != 0 {
      let add = try yarn.run(["stash", "add", "Wool"])
      #expect(add.status == 74)
      #expect(
        add.stderr.hasPrefix(
          "error: cannot write the library: \(Self.databasePath(yarn)) is read-only (SQLite: "
            + "attempt to write a readonly database)\n"), "\(add.stderr)")
    }
    #expect(try Self.userVersion(yarn) == 7)
    #expect(Self.databaseFiles(yarn) == before)
  }

  /// Such as a library of a development build that had schema version 8: every command
  /// refuses it, those that write too, and nothing is changed.
  @Test func aLibraryOfANewerSchemaIsRefused() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Wool"])
    let raw = try Connection(path: Self.databasePath(yarn), flags: 0x2)  // READWRITE
    try raw.execute("PRAGMA user_version = 8")
    try raw.close()
    for arguments in [["stash", "list"], ["stash", "add", "Cotton"], ["backup", "create", "b.zip"]] {
      let result = try yarn.run(arguments)
      #expect(result.status == 65, "\(arguments)")
      #expect(
        result.stderr
          == "error: the library's database has schema version 8, but this yarn knows only versions "
          + "up to 7; use a newer yarn\nhint: install a newer version of yarn\n", "\(arguments)")
    }
    #expect(try Self.userVersion(yarn) == 8)
    #expect(!FileManager.default.fileExists(atPath: yarn.directory.appendingPathComponent("b.zip").path))
  }

  /// A `library.sqlite` made outside yarn (version 0) that already has a table `yarn`: another
  /// program's database, refused before anything is written to it (neither tables nor WAL),
  /// for a command that writes and one that reads alike.
  @Test func aDatabaseMadeOutsideYarnCannotGetItsTables() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try FileManager.default.createDirectory(at: yarn.library, withIntermediateDirectories: true)
    let raw = try Connection(path: Self.databasePath(yarn), flags: 0x2 | 0x4)  // READWRITE | CREATE
    try raw.execute("CREATE TABLE yarn (x); INSERT INTO yarn VALUES (42);")
    try raw.close()
    for arguments in [["stash", "add", "Wool"], ["stash", "list"]] {
      let result = try yarn.run(arguments)
      #expect(result.status == 74, "\(arguments)")
      #expect(
        result.stderr
          == "error: cannot access \(Self.databasePath(yarn)): it is another program's SQLite "
          + "database (it holds tables, and no schema version of yarn's), not a library; nothing "
          + "was changed: move it away to start a new library here\n", "\(arguments)")
    }
    let after = try Connection(path: Self.databasePath(yarn), flags: 0x1)  // READONLY
    defer { try? after.close() }
    #expect(try after.integer("PRAGMA user_version") == 0)
    #expect(try after.query("SELECT name FROM sqlite_schema") { $0.text(0) ?? "" } == ["yarn"])
    #expect(try after.integer("SELECT x FROM yarn") == 42)
    #expect(try after.query("PRAGMA journal_mode") { $0.text(0) ?? "" } == ["delete"])
  }

  /// Every failure of a migration: 74, the library left as it was, and what to do.
  @Test func aFailedMigrationIsAnIOErrorWithAHint() {
    let full = ErrorPresenter.report(
      for: StoreError.upgradeFailed(from: 0, to: 1, reason: .diskFull), root: RootCommand.self)
    #expect(full.code == .ioError)
    #expect(
      full.text
        == "error: cannot create the tables of the library's database (schema version 1): "
        + "the disk or your quota is full\n"
        + "hint: free some disk space and try again; the library is left as it was\n")
    // Once the library is known (a new library that a full disk stopped), its file is named.
    let named = ErrorPresenter.report(
      for: StoreError.upgradeFailed(from: 0, to: 7, reason: .diskFull), root: RootCommand.self,
      database: "/home/ann/yarn/library.sqlite")
    #expect(
      named.message
        == "cannot create the tables of /home/ann/yarn/library.sqlite (schema version 7): the disk or your quota is full"
    )
    let readOnly = ErrorPresenter.report(
      for: StoreError.upgradeFailed(
        from: 1, to: 2, reason: .readOnly(message: "attempt to write a readonly database")),
      root: RootCommand.self, database: "/home/ann/yarn/library.sqlite")
    #expect(readOnly.code == .ioError)
    #expect(
      readOnly.text
        == "error: cannot upgrade /home/ann/yarn/library.sqlite from schema version 1 to 2 (it is "
        + "left as it was): attempt to write a readonly database\n"
        + "hint: check the permissions of /home/ann/yarn/library.sqlite and of the library "
        + "directory; the library is left as it was\n")
    let other = ErrorPresenter.report(
      for: StoreError.upgradeFailed(
        from: 0, to: 1, reason: .database(code: 1, message: "table yarn already exists")),
      root: RootCommand.self)
    #expect(other.code == .ioError)
    #expect(other.hint == "the library is left as it was")
    // A lock held by another process stays the busy error, 75.
    #expect(ErrorPresenter.report(for: StoreError.busy, root: RootCommand.self).code == .tempFail)
  }
}
