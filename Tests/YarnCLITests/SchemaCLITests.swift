import Foundation
import Testing

@testable import YarnCLI
@testable import YarnCore

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

  @Test func aNewLibraryIsAtSchemaVersion1() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Wool"])
    #expect(try Self.userVersion(yarn) == 1)
  }

  /// Such as a library of a development build that had schema version 2: every command
  /// refuses it, those that write too, and nothing is changed.
  @Test func aLibraryOfANewerSchemaIsRefused() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Wool"])
    let raw = try Connection(path: Self.databasePath(yarn), flags: 0x2)  // READWRITE
    try raw.execute("PRAGMA user_version = 2")
    try raw.close()
    for arguments in [["stash", "list"], ["stash", "add", "Cotton"], ["backup", "create", "b.zip"]] {
      let result = try yarn.run(arguments)
      #expect(result.status == 65, "\(arguments)")
      #expect(
        result.stderr
          == "error: the library's database has schema version 2, but this yarn knows only versions "
          + "up to 1; use a newer yarn\nhint: install a newer version of yarn\n", "\(arguments)")
    }
    #expect(try Self.userVersion(yarn) == 2)
    #expect(!FileManager.default.fileExists(atPath: yarn.directory.appendingPathComponent("b.zip").path))
  }

  /// A `library.sqlite` made outside yarn (version 0) that already has a table `yarn`: the
  /// tables cannot be created; SQLite's words, not the migration's SQL; nothing changed.
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
          == "error: cannot create the tables of the library's database (schema version 1): table "
          + "yarn already exists\nhint: the library is left as it was\n", "\(arguments)")
    }
    let after = try Connection(path: Self.databasePath(yarn), flags: 0x1)  // READONLY
    defer { try? after.close() }
    #expect(try after.integer("PRAGMA user_version") == 0)
    #expect(try after.query("SELECT name FROM sqlite_schema") { $0.text(0) ?? "" } == ["yarn"])
    #expect(try after.integer("SELECT x FROM yarn") == 42)
  }

  /// Every failure of a migration: 74, the library left as it was, and what to do.
  @Test func aFailedMigrationIsAnIOErrorWithAHint() {
    let full = ErrorPresenter.report(
      for: StoreError.upgradeFailed(from: 0, to: 1, reason: .diskFull), root: RootCommand.self)
    #expect(full.code == .ioError)
    #expect(
      full.text
        == "error: cannot create the tables of the library's database (schema version 1): "
        + "database or disk is full\n"
        + "hint: free some disk space and try again; the library is left as it was\n")
    let readOnly = ErrorPresenter.report(
      for: StoreError.upgradeFailed(
        from: 1, to: 2, reason: .readOnly(message: "attempt to write a readonly database")),
      root: RootCommand.self, database: "/home/ann/yarn/library.sqlite")
    #expect(readOnly.code == .ioError)
    #expect(
      readOnly.text
        == "error: cannot upgrade the library's database from schema version 1 to 2 (it is left "
        + "as it was): attempt to write a readonly database\n"
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
