import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

/// The migration mechanism of `LibraryStore.migrate`, run with chains of test migrations on
/// a database file of their own: steps run in order, each once; `PRAGMA user_version` counts
/// the steps applied; a step that fails leaves the database at the version it had; a
/// database of a newer version is refused.
@Suite struct MigrationChainTests {
  /// SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE.
  private static let createFlags: Int32 = 0x2 | 0x4

  private static func step(_ name: String, _ sql: String) -> Schema.Migration {
    Schema.Migration(name: name, sql: sql)
  }

  /// Three steps, each writing its name into `log`; the second creates `t`, the third fills
  /// it, so that each one needs the ones before it.
  private static let chain = [
    step("one", "CREATE TABLE log (step TEXT NOT NULL); INSERT INTO log VALUES ('one');"),
    step("two", "INSERT INTO log VALUES ('two'); CREATE TABLE t (x INTEGER NOT NULL);"),
    step("three", "INSERT INTO log VALUES ('three'); INSERT INTO t VALUES (3);"),
  ]

  /// A new, empty database file in `directory`.
  private static func database(in directory: URL) throws -> Connection {
    try Connection(path: directory.appendingPathComponent("test.sqlite").path, flags: createFlags)
  }

  private static func log(_ connection: Connection) throws -> [String] {
    try connection.query("SELECT step FROM log ORDER BY rowid") { $0.text(0) ?? "" }
  }

  private static func tables(_ connection: Connection) throws -> [String] {
    try connection.query("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name") {
      $0.text(0) ?? ""
    }
  }

  @Test func stepsRunInOrderEachOnce() throws {
    try withTemporaryDirectory { dir in
      let db = try Self.database(in: dir)
      defer { try? db.close() }
      #expect(try db.integer("PRAGMA user_version") == 0)

      try LibraryStore.migrate(db, migrations: Array(Self.chain.prefix(2)))
      #expect(try db.integer("PRAGMA user_version") == 2)
      #expect(try Self.log(db) == ["one", "two"])

      // The chain grows by one step: only that one runs.
      try LibraryStore.migrate(db, migrations: Self.chain)
      #expect(try db.integer("PRAGMA user_version") == 3)
      #expect(try Self.log(db) == ["one", "two", "three"])
      #expect(try db.integer("SELECT sum(x) FROM t") == 3)

      // Up to date: nothing runs again.
      try LibraryStore.migrate(db, migrations: Self.chain)
      #expect(try db.integer("PRAGMA user_version") == 3)
      #expect(try Self.log(db) == ["one", "two", "three"])
      #expect(try db.integer("SELECT count(*) FROM t") == 1)
      #expect(db.isAutocommit)
    }
  }

  /// A step that fails after another pending step and part of its own SQL ran: all of it is
  /// rolled back, the version stays, the error is SQLite's message without the SQL, and the
  /// same chain mended applies later.
  @Test func aStepFailingPartWayLeavesTheDatabaseAtItsVersion() throws {
    try withTemporaryDirectory { dir in
      let db = try Self.database(in: dir)
      defer { try? db.close() }
      try LibraryStore.migrate(db, migrations: Array(Self.chain.prefix(2)))

      let broken =
        Array(Self.chain.prefix(2)) + [
          Self.step("three", "CREATE TABLE c (x); INSERT INTO log VALUES ('three');"),
          Self.step("four", "INSERT INTO log VALUES ('four'); INSERT INTO missing VALUES (1);"),
        ]
      do {
        try LibraryStore.migrate(db, migrations: broken)
        Issue.record("a chain with a failing step was applied")
      } catch StoreError.upgradeFailed(let from, let to, let reason) {
        #expect(from == 2)
        #expect(to == 4)
        #expect(reason == .database(code: 1, message: "no such table: missing"))
        #expect(
          String(describing: StoreError.upgradeFailed(from: from, to: to, reason: reason))
            == "cannot upgrade the library's database from schema version 2 to 4 (it is left as "
            + "it was): no such table: missing")
      }
      #expect(db.isAutocommit)
      #expect(try db.integer("PRAGMA user_version") == 2)
      #expect(try Self.log(db) == ["one", "two"])
      #expect(try Self.tables(db) == ["log", "t"])

      var mended = broken
      mended[3] = Self.step("four", "INSERT INTO log VALUES ('four');")
      try LibraryStore.migrate(db, migrations: mended)
      #expect(try db.integer("PRAGMA user_version") == 4)
      #expect(try Self.log(db) == ["one", "two", "three", "four"])
      #expect(try Self.tables(db) == ["c", "log", "t"])
    }
  }

  /// A new database whose first steps fail: no table is left behind, version 0.
  @Test func aFailureOnANewDatabaseLeavesItEmpty() throws {
    try withTemporaryDirectory { dir in
      let db = try Self.database(in: dir)
      defer { try? db.close() }
      let chain = [Self.chain[0], Self.step("two", "CREATE TABLE t (x); SELECT no_such_function();")]
      do {
        try LibraryStore.migrate(db, migrations: chain)
        Issue.record("a chain with a failing step was applied")
      } catch StoreError.upgradeFailed(let from, let to, let reason) {
        #expect(from == 0)
        #expect(to == 2)
        #expect(reason == .database(code: 1, message: "no such function: no_such_function"))
        #expect(
          String(describing: StoreError.upgradeFailed(from: from, to: to, reason: reason))
            == "cannot create the tables of the library's database (schema version 2): no such "
            + "function: no_such_function")
      }
      #expect(try db.integer("PRAGMA user_version") == 0)
      #expect(try Self.tables(db) == [])
    }
  }

  /// No room for a step (a page limit stands in for a full disk): `.diskFull`, nothing kept.
  @Test func aFullDiskFailsAStepAsDiskFull() throws {
    try withTemporaryDirectory { dir in
      let db = try Self.database(in: dir)
      defer { try? db.close() }
      try LibraryStore.migrate(db, migrations: [Self.chain[0]])
      let pages = try db.integer("PRAGMA page_count") ?? 0
      try db.execute("PRAGMA max_page_count = \(pages + 2)")
      // 2,000 rows of 200 bytes need about 100 pages.
      let fill = Self.step(
        "fill",
        """
        CREATE TABLE big (text TEXT NOT NULL);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
        INSERT INTO big SELECT printf('%.200c', 'x') FROM n;
        """)
      do {
        try LibraryStore.migrate(db, migrations: [Self.chain[0], fill])
        Issue.record("2,000 rows fitted in 2 pages")
      } catch StoreError.upgradeFailed(let from, let to, let reason) {
        #expect(from == 1)
        #expect(to == 2)
        #expect(reason == .diskFull)
        #expect(
          String(describing: StoreError.upgradeFailed(from: from, to: to, reason: reason))
            == "cannot upgrade the library's database from schema version 1 to 2 (it is left as "
            + "it was): database or disk is full")
      }
      #expect(try db.integer("PRAGMA user_version") == 1)
      #expect(try Self.tables(db) == ["log"])
    }
  }

  /// A step that runs past the user's disk quota (SQLite says only `disk I/O error`; the
  /// system's errno, EDQUOT, tells it) fails as a full disk does: `.diskFull`, nothing kept.
  @Test func aQuotaExceededFailsAStepAsDiskFull() throws {
    try withTemporaryDirectory { dir in
      let db = try Self.database(in: dir)
      defer { try? db.close() }
      try LibraryStore.migrate(db, migrations: [Self.chain[0]])
      let quota = Schema.Migration(
        name: "quota", sql: "CREATE TABLE big (text TEXT NOT NULL);",
        fill: { _ in
          // SQLITE_IOERR_WRITE, as SQLite's unix VFS reports a write(2) that failed with EDQUOT.
          throw DatabaseError(extendedCode: 778, message: "disk I/O error", systemErrno: EDQUOT)
        })
      do {
        try LibraryStore.migrate(db, migrations: [Self.chain[0], quota])
        Issue.record("the step did not fail")
      } catch StoreError.upgradeFailed(let from, let to, let reason) {
        #expect(from == 1)
        #expect(to == 2)
        #expect(reason == .diskFull)
      }
      #expect(try db.integer("PRAGMA user_version") == 1)
      #expect(try Self.tables(db) == ["log"])
    }
  }

  /// A database that has had more steps than the chain knows is refused, and left as it is.
  @Test func aNewerDatabaseIsRefused() throws {
    try withTemporaryDirectory { dir in
      let db = try Self.database(in: dir)
      defer { try? db.close() }
      try LibraryStore.migrate(db, migrations: Self.chain)
      do {
        try LibraryStore.migrate(db, migrations: Array(Self.chain.prefix(2)))
        Issue.record("a database of version 3 was opened by a chain of 2")
      } catch StoreError.newerSchema(let found, let known) {
        #expect(found == 3)
        #expect(known == 2)
      }
      #expect(try db.integer("PRAGMA user_version") == 3)
      #expect(try Self.log(db) == ["one", "two", "three"])
    }
  }
}
