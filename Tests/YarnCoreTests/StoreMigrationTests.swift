import Foundation
import Testing

@testable import YarnCore

/// Schema version 2 ("v2-checks-as-or-lists"): a version 1 library, written here by hand with
/// v1's own SQL, is rebuilt into version 2 on open with every row, value and `seq` kept, the
/// same schema as a new library, the same rules, and nothing changed when it fails.
@Suite struct StoreMigrationTests {
  /// SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE.
  private static let createFlags: Int32 = 0x2 | 0x4

  private static let digestA = String(repeating: "a", count: 64)
  private static let digestB = String(repeating: "b", count: 64)
  private static let digestC = String(repeating: "c", count: 64)

  /// The rows of the v1 library, as raw SQL. `seq` values have gaps and are inserted out of
  /// order, so that keeping them is seen.
  private static let v1Rows = """
    INSERT INTO yarn (seq, id, name, is_stashed) VALUES (7, 'y-late', 'Plain', 0);
    INSERT INTO yarn (seq, id, name, brand, colorway, color_family, dye_lot, weight, fiber,
      length_per_skein_value, length_per_skein_unit, net_weight_per_skein_value,
      net_weight_per_skein_unit, quantity_value, quantity_unit, remaining_value, remaining_unit,
      purchase_location, date_added, is_stashed)
    VALUES (2, 'y-early', 'Alpaca Lace', 'Drops', 'Sea', 'blue', '42', 0, 'alpaca',
      400, 'm', 50, 'g', 3, 'skein', 120.5, 'g', 'Shop', '2026-03-29', 1);
    INSERT INTO project (seq, id, name, craft, status, has_pattern, pattern_name, pattern_url,
      started, finished)
    VALUES (9, 'p-2', 'Blanket', NULL, 'planned', 0, NULL, NULL, NULL, NULL);
    INSERT INTO project (seq, id, name, craft, status, has_pattern, pattern_name, pattern_url,
      started, finished)
    VALUES (4, 'p-1', 'Socks', 'knitting', 'in-progress', 1, 'Vanilla', 'https://example.com/v',
      '2026-01-02', NULL);
    INSERT INTO yarn_usage (project_id, position, yarn_id, amount_value, amount_unit)
    VALUES ('p-1', 1, 'y-early', 1.5, 'skein'), ('p-1', 0, 'y-late', 50, 'g');
    INSERT INTO note (seq, id, yarn_id, project_id, text, created, modified)
    VALUES (8, 'n-p', NULL, 'p-1', 'turn heel', 3000, 3000),
      (3, 'n-y', 'y-early', NULL, 'soft', 1000, 2000);
    INSERT INTO time_session (seq, id, project_id, start_time, end_time, note)
    VALUES (1, 's-1', 'p-1', 100, 200, 'cuff'), (2, 's-2', 'p-1', 300, NULL, NULL);
    INSERT INTO attachment (seq, yarn_id, project_id, role, position, sha256, file_name,
      media_type, byte_count)
    VALUES (5, 'y-late', NULL, 'photo', 0, '\(digestA)', 'skein.jpg', 'image/jpeg', 1234),
      (2, NULL, 'p-1', 'pattern', 0, '\(digestB)', 'vanilla.pdf', 'application/pdf', 5678),
      (3, NULL, 'p-1', 'photo', 0, '\(digestC)', 'done.png', 'image/png', 99);
    """

  /// Writes `DIR/library.sqlite` at schema version 1: v1's SQL, then `rows`, with foreign
  /// keys off (SQLite's default) so that a broken row can be written on purpose. With `wal`,
  /// as yarn 0.1 left it: in WAL mode, the rows still in `library.sqlite-wal` (no checkpoint
  /// on close).
  private static func makeV1Library(in directory: URL, rows: String = v1Rows, wal: Bool = false)
    throws
  {
    let path = directory.appendingPathComponent(LibraryStore.databaseFileName).path
    let raw = try Connection(path: path, flags: createFlags)
    #expect(Schema.migrations[0].name == "v1-library")
    try raw.execute(Schema.migrations[0].sql)
    if wal {
      try raw.execute("PRAGMA journal_mode = WAL")
      try raw.keepWALOnClose()
    }
    try raw.execute(rows)
    try raw.execute("PRAGMA user_version = 1")
    try raw.close()
  }

  private static func rawConnection(_ directory: URL) throws -> Connection {
    try Connection(
      path: directory.appendingPathComponent(LibraryStore.databaseFileName).path, flags: 0x2)
  }

  private static func texts(_ connection: Connection, _ sql: String) throws -> [String] {
    try connection.query(sql) { row in
      (0..<4).map { row.isNull(Int32($0)) ? "NULL" : (row.text(Int32($0)) ?? "") }
        .joined(separator: "|")
    }
  }

  // MARK: The data

  private static let earlyYarn = Yarn(
    id: "y-early", name: "Alpaca Lace", brand: "Drops", colorway: "Sea", colorFamily: "blue",
    dyeLot: "42", weight: .lace, fiber: "alpaca", lengthPerSkein: Amount(400, .meter),
    netWeightPerSkein: Amount(50, .gram), quantity: Amount(3, .skein),
    remainingOverride: Amount(120.5, .gram), purchaseLocation: "Shop",
    dateAdded: CalendarDate(year: 2026, month: 3, day: 29), isStashed: true)
  private static let lateYarn = Yarn(
    id: "y-late", name: "Plain", isStashed: false,
    photos: [Attachment(fileName: "skein.jpg", mediaType: "image/jpeg", byteCount: 1234, sha256: digestA)])
  private static let socks = Project(
    id: "p-1", name: "Socks", craft: .knitting, status: .inProgress,
    pattern: Pattern(
      name: "Vanilla", url: "https://example.com/v",
      pdf: Attachment(
        fileName: "vanilla.pdf", mediaType: "application/pdf", byteCount: 5678, sha256: digestB)),
    started: CalendarDate(year: 2026, month: 1, day: 2),
    usages: [
      YarnUsage(yarnID: "y-late", amount: Amount(50, .gram)),
      YarnUsage(yarnID: "y-early", amount: Amount(1.5, .skein)),
    ],
    photos: [Attachment(fileName: "done.png", mediaType: "image/png", byteCount: 99, sha256: digestC)])
  private static let blanket = Project(id: "p-2", name: "Blanket", status: .planned)

  private static func expectV1Data(in store: LibraryStore) throws {
    #expect(try store.yarns() == [earlyYarn, lateYarn])
    #expect(try store.projects() == [socks, blanket])
    #expect(
      try store.notes() == [
        Note(
          id: "n-y", subject: .yarn("y-early"), text: "soft", created: instant(1000),
          modified: instant(2000)),
        Note(id: "n-p", subject: .project("p-1"), text: "turn heel", created: instant(3000)),
      ])
    #expect(
      try store.sessions() == [
        TimeSession(id: "s-1", projectID: "p-1", start: instant(100), end: instant(200), note: "cuff"),
        TimeSession(id: "s-2", projectID: "p-1", start: instant(300)),
      ])
    #expect(try store.runningSession()?.id == "s-2")
  }

  // MARK: Tests

  @Test func aVersion1LibraryIsUpgradedWithEveryRowKept() throws {
    try withTemporaryDirectory { dir in
      try Self.makeV1Library(in: dir)
      let store = try LibraryStore(directory: dir, mode: .readWrite)
      defer { try? store.close() }
      #expect(try store.connection.integer("PRAGMA user_version") == 2)
      #expect(try store.connection.integer("PRAGMA foreign_keys") == 1)
      #expect(try store.connection.integer("PRAGMA foreign_key_check") == nil)
      try Self.expectV1Data(in: store)
      // The seq values themselves, gaps and all.
      #expect(
        try Self.texts(store.connection, "SELECT seq, id, NULL, NULL FROM yarn ORDER BY seq")
          == ["2|y-early|NULL|NULL", "7|y-late|NULL|NULL"])
      #expect(
        try Self.texts(store.connection, "SELECT seq, id, NULL, NULL FROM project ORDER BY seq")
          == ["4|p-1|NULL|NULL", "9|p-2|NULL|NULL"])
      #expect(
        try Self.texts(
          store.connection, "SELECT seq, role, file_name, NULL FROM attachment ORDER BY seq")
          == ["2|pattern|vanilla.pdf|NULL", "3|photo|done.png|NULL", "5|photo|skein.jpg|NULL"])
      // Values keep their storage class (a REAL amount stays REAL, not 400 as INTEGER).
      #expect(
        try Self.texts(
          store.connection,
          """
          SELECT typeof(length_per_skein_value), typeof(weight), typeof(is_stashed),
            typeof(date_added) FROM yarn WHERE id = 'y-early'
          """) == ["real|integer|integer|text"])
    }
  }

  @Test func theUpgradedSchemaIsANewLibrarysSchema() throws {
    try withTemporaryDirectory { dir in
      let old = dir.appendingPathComponent("old")
      let new = dir.appendingPathComponent("new")
      let v1Only = dir.appendingPathComponent("v1")
      for folder in [old, v1Only] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
      }
      try Self.makeV1Library(in: old)
      try Self.makeV1Library(in: v1Only, rows: "")
      let upgraded = try LibraryStore(directory: old, mode: .readWrite)
      defer { try? upgraded.close() }
      let fresh = try LibraryStore(directory: new, mode: .readWrite)
      defer { try? fresh.close() }
      let v1 = try Self.rawConnection(v1Only)
      defer { try? v1.close() }
      #expect(try fresh.connection.integer("PRAGMA user_version") == 2)

      let schemaSQL = "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name"
      let upgradedSchema = try Self.texts(upgraded.connection, schemaSQL)
      #expect(upgradedSchema == (try Self.texts(fresh.connection, schemaSQL)))
      // 6 tables, 10 indexes of v1's SQL, 4 automatic ones for the UNIQUE ids (yarn, project,
      // note, time_session; yarn_usage's key is its WITHOUT ROWID table itself).
      #expect(upgradedSchema.count == 20)

      // Everything SQLite knows of each table is v1's: columns (order, type, NOT NULL,
      // default, key), foreign keys with their actions, indexes (unique, partial, columns),
      // WITHOUT ROWID; and the indexes' SQL is v1's text.
      for table in ["yarn", "project", "yarn_usage", "note", "time_session", "attachment"] {
        var pragmas = [
          "SELECT cid, name, type, \"notnull\" || ',' || coalesce(dflt_value, '') || ',' || pk"
            + " FROM pragma_table_info('\(table)')",
          "SELECT id || ',' || seq, \"table\", \"from\" || '>' || coalesce(\"to\", ''),"
            + " on_update || ',' || on_delete || ',' || \"match\" FROM pragma_foreign_key_list('\(table)')",
          "SELECT name, \"unique\", origin, partial FROM pragma_index_list('\(table)') ORDER BY name",
          "SELECT name, type, ncol, wr || ',' || strict FROM pragma_table_list('\(table)')",
          "SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE type = 'index'"
            + " AND tbl_name = '\(table)' AND sql IS NOT NULL ORDER BY name",
        ]
        let indexes = try v1.query(
          "SELECT name FROM pragma_index_list('\(table)') ORDER BY name"
        ) { $0.text(0) ?? "" }
        for index in indexes {
          pragmas.append(
            "SELECT seqno, cid, coalesce(name, ''), \"desc\" || ',' || coll || ',' || key"
              + " FROM pragma_index_xinfo('\(index)')")
        }
        for sql in pragmas {
          let before = try Self.texts(v1, sql)
          #expect(before == (try Self.texts(upgraded.connection, sql)), "\(sql)")
        }
      }
      #expect(
        try Self.texts(v1, "SELECT wr, NULL, NULL, NULL FROM pragma_table_list('yarn_usage')")
          == ["1|NULL|NULL|NULL"])

      // The tables' SQL is v1's but for the IN-lists, written as ORs, and the quoted name
      // SQLite writes on `ALTER TABLE … RENAME`.
      let ors: [(String, [String])] =
        [
          "length_per_skein_unit", "net_weight_per_skein_unit", "quantity_unit", "remaining_unit",
          "amount_unit",
        ]
        .map { ($0, ["'skein'", "'g'", "'oz'", "'yd'", "'m'"]) } + [
          ("craft", ["'knitting'", "'crochet'", "'weaving'", "'spinning'", "'embroidery'", "'other'"]),
          ("status", ["'planned'", "'in-progress'", "'finished'", "'frogged'", "'hibernating'"]),
          ("is_stashed", ["0", "1"]), ("has_pattern", ["0", "1"]), ("role", ["'photo'", "'pattern'"]),
        ]
      func oneLine(_ sql: String) -> String {
        sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
      }
      let tableSQL = "SELECT name, sql FROM sqlite_schema WHERE type = 'table' ORDER BY name"
      let v1Tables = try v1.query(tableSQL) { ($0.text(0) ?? "", oneLine($0.text(1) ?? "")) }
      let v2Tables = try upgraded.connection.query(tableSQL) {
        ($0.text(0) ?? "", oneLine($0.text(1) ?? ""))
      }
      #expect(v1Tables.map(\.0) == v2Tables.map(\.0))
      for ((name, v1Text), (_, v2Text)) in zip(v1Tables, v2Tables) {
        var back = v2Text
        for (column, values) in ors {
          let orList = values.map { "\(column) = \($0)" }.joined(separator: " OR ")
          back = back.replacingOccurrences(
            of: "(\(orList))", with: "(\(column) IN (\(values.joined(separator: ", "))))")
        }
        back = back.replacingOccurrences(of: "CREATE TABLE \"\(name)\"", with: "CREATE TABLE \(name)")
        #expect(back == v1Text, "table \(name)")
        #expect(!v2Text.contains(" IN ("), "table \(name)")
        let rebuilt = ["yarn", "project", "yarn_usage", "attachment"].contains(name)
        #expect(v2Text.hasPrefix("CREATE TABLE \"\(name)\"") == rebuilt, "table \(name)")
      }
    }
  }

  /// Every value tried in each changed column, on a v1 and a v2 database: the same ones are
  /// refused (the rule is the same), and those named here by hand are refused or accepted.
  @Test func theChecksAcceptAndRefuseWhatVersion1Did() throws {
    try withTemporaryDirectory { dir in
      let v1Dir = dir.appendingPathComponent("v1")
      let v2Dir = dir.appendingPathComponent("v2")
      try FileManager.default.createDirectory(at: v1Dir, withIntermediateDirectories: false)
      try Self.makeV1Library(in: v1Dir)
      let v1 = try Self.rawConnection(v1Dir)
      defer { try? v1.close() }
      try Self.makeV1Library(in: v2Dir.creatingDirectory())
      let store = try LibraryStore(directory: v2Dir, mode: .readWrite)
      defer { try? store.close() }
      let v2 = store.connection

      let unitValues = [
        "'skein'", "'g'", "'oz'", "'yd'", "'m'", "'kg'", "'G'", "''", "' g'", "1", "NULL",
      ]
      var statements: [(sql: String, accepted: Bool?)] = []
      for (index, unit) in unitValues.enumerated() {
        let valid = index < 5
        for column in ["length_per_skein", "net_weight_per_skein", "quantity", "remaining"] {
          // A NULL unit with a value breaks the pair rule (in v1 too); with no value it passes.
          let value = unit == "NULL" ? "NULL" : "2"
          statements.append(
            (
              "INSERT INTO yarn (id, name, \(column)_value, \(column)_unit, is_stashed)"
                + " VALUES ('u\(index)\(column)', 'U', \(value), \(unit), 1)",
              valid || unit == "NULL"
            ))
        }
        statements.append(
          (
            "INSERT INTO yarn_usage (project_id, position, yarn_id, amount_value, amount_unit)"
              + " VALUES ('p-2', \(index), 'y-late', 1, \(unit))", valid
          ))
      }
      for (index, craft) in [
        "'knitting'", "'crochet'", "'weaving'", "'spinning'", "'embroidery'", "'other'", "NULL",
        "'knotting'", "'Knitting'", "'knit'",
      ].enumerated() {
        statements.append(
          (
            "INSERT INTO project (id, name, craft, status, has_pattern)"
              + " VALUES ('c\(index)', 'C', \(craft), 'planned', 0)", index < 7
          ))
      }
      for (index, status) in [
        "'planned'", "'in-progress'", "'finished'", "'frogged'", "'hibernating'", "'done'",
        "'in progress'", "NULL",
      ].enumerated() {
        statements.append(
          (
            "INSERT INTO project (id, name, status, has_pattern)"
              + " VALUES ('s\(index)', 'S', \(status), 0)", index < 5
          ))
      }
      for (index, flag) in ["0", "1", "2", "-1", "'1'", "1.0", "'yes'", "NULL"].enumerated() {
        // '1' and 1.0 become the integer 1 by the column's INTEGER affinity, in both versions.
        let accepted = [0, 1, 4, 5].contains(index)
        statements.append(
          (
            "INSERT INTO yarn (id, name, is_stashed) VALUES ('f\(index)', 'F', \(flag))", accepted
          ))
        statements.append(
          (
            "INSERT INTO project (id, name, status, has_pattern)"
              + " VALUES ('h\(index)', 'H', 'planned', \(flag))", accepted
          ))
      }
      for (index, role) in ["'photo'", "'pattern'", "'cover'", "'Photo'", "NULL"].enumerated() {
        statements.append(
          (
            "INSERT INTO attachment (project_id, role, position, sha256, file_name, media_type,"
              + " byte_count) VALUES ('p-2', \(role), \(index), '\(Self.digestA)', 'f', 't', 1)",
            index < 2
          ))
      }

      for (sql, accepted) in statements {
        var outcomes: [Int32] = []
        for connection in [v1, v2] {
          do {
            try connection.execute("SAVEPOINT probe")
            try connection.execute(sql)
            outcomes.append(0)
          } catch let error as DatabaseError {
            outcomes.append(error.extendedCode)
          }
          try connection.execute("ROLLBACK TO probe; RELEASE probe")
        }
        #expect(outcomes[0] == outcomes[1], "\(sql)")
        if let accepted {
          #expect((outcomes[1] == 0) == accepted, "\(sql)")
        }
        // A refused value is refused by a CHECK (275) or NOT NULL (1299), nothing else.
        #expect([0, 275, 1299].contains(outcomes[1]), "\(sql)")
      }
      // The examples of the brief, by name.
      for sql in [
        "UPDATE yarn SET quantity_value = 1, quantity_unit = 'kg' WHERE id = 'y-late'",
        "UPDATE yarn_usage SET amount_unit = 'kg'",
        "UPDATE project SET craft = 'knotting' WHERE id = 'p-2'",
        "UPDATE project SET status = 'done' WHERE id = 'p-2'",
        "UPDATE attachment SET role = 'cover' WHERE seq = 5",
      ] {
        do {
          try v2.execute(sql)
          Issue.record("stored: \(sql)")
        } catch let error as DatabaseError {
          #expect(error.extendedCode == 275, "\(sql)")  // SQLITE_CONSTRAINT_CHECK
        }
      }
    }
  }

  @Test func foreignKeysAreEnforcedAfterTheUpgrade() throws {
    try withTemporaryDirectory { dir in
      try Self.makeV1Library(in: dir)
      let store = try LibraryStore(directory: dir, mode: .readWrite)
      defer { try? store.close() }
      // Raw SQL, so that the schema, not the store's own check, refuses it.
      do {
        try store.connection.execute("DELETE FROM yarn WHERE id = 'y-late'")
        Issue.record("a yarn in use was deleted")
      } catch let error as DatabaseError {
        // SQLite reports a RESTRICT action as SQLITE_CONSTRAINT_TRIGGER (1811).
        #expect(error.isConstraint)
        #expect(error.message == "FOREIGN KEY constraint failed")
      }
      do {
        try store.connection.execute(
          "INSERT INTO note (id, yarn_id, text, created, modified) VALUES ('x', 'ghost', 't', 1, 1)")
        Issue.record("a note about a missing yarn was stored")
      } catch let error as DatabaseError {
        #expect(error.extendedCode == 787)
      }
      try store.connection.execute("DELETE FROM project WHERE id = 'p-1'")
      #expect(try store.notes().map(\.id) == ["n-y"])
      #expect(try store.sessions().isEmpty)
      #expect(try store.connection.integer("SELECT count(*) FROM yarn_usage") == 0)
      #expect(try store.connection.integer("SELECT count(*) FROM attachment") == 1)
      // No longer in use: the yarn goes, and its photo and notes with it.
      try store.connection.execute("DELETE FROM yarn WHERE id = 'y-late'")
      try store.connection.execute("DELETE FROM yarn WHERE id = 'y-early'")
      #expect(try store.notes().isEmpty)
      #expect(try store.connection.integer("SELECT count(*) FROM attachment") == 0)
    }
  }

  /// The bytes of `library.sqlite` and `library.sqlite-wal` (empty when there is none).
  private static func files(_ directory: URL) throws -> (database: Data, wal: Data) {
    let database = directory.appendingPathComponent(LibraryStore.databaseFileName)
    let wal = URL(fileURLWithPath: database.path + "-wal")
    let walData = FileManager.default.fileExists(atPath: wal.path) ? try Data(contentsOf: wal) : Data()
    return (try Data(contentsOf: database), walData)
  }

  private static func walSize(_ directory: URL) throws -> Int? {
    let path = directory.appendingPathComponent(LibraryStore.databaseFileName).path + "-wal"
    return try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
  }

  /// A v1 library is read as it is by a read-only open: nothing written, not even by a
  /// checkpoint of its WAL; the first read-write open upgrades it.
  @Test func aReadOnlyOpenReadsVersion1AsItIsAndWritesNothing() throws {
    #expect(LibraryStore.oldestReadableSchemaVersion == 1)
    #expect(LibraryStore.schemaVersion == 2)
    try withTemporaryDirectory { dir in
      try Self.makeV1Library(in: dir, wal: true)
      let before = try Self.files(dir)
      // The rows are in the WAL, so that a checkpoint would change the database file.
      #expect(before.wal.count > 4096)
      for _ in 0..<2 {
        let store = try LibraryStore(directory: dir, mode: .readOnly)
        #expect(!store.isInMemory)
        #expect(try store.connection.integer("PRAGMA user_version") == 1)
        try Self.expectV1Data(in: store)
        do {
          try store.write {}
          Issue.record("a read-only store wrote")
        } catch StoreError.readOnly {}
        try store.close()
        let after = try Self.files(dir)
        #expect(after.database == before.database)
        #expect(after.wal == before.wal)
      }
      let store = try LibraryStore(directory: dir, mode: .readWrite)
      defer { try? store.close() }
      #expect(try store.connection.integer("PRAGMA user_version") == 2)
      try Self.expectV1Data(in: store)
    }
  }

  /// A database older than every version read as it is (an empty file: version 0) is
  /// still upgraded by a read-only open, and its WAL checkpointed.
  @Test func aReadOnlyOpenUpgradesAVersion0DatabaseAndCheckpoints() throws {
    try withTemporaryDirectory { dir in
      let path = dir.appendingPathComponent(LibraryStore.databaseFileName)
      try Data().write(to: path)
      let store = try LibraryStore(directory: dir, mode: .readOnly)
      defer { try? store.close() }
      #expect(!store.isInMemory)
      #expect(try store.connection.integer("PRAGMA user_version") == 2)
      #expect(try store.connection.integer("PRAGMA foreign_keys") == 1)
      #expect(try store.yarns().isEmpty)
      #expect(try Self.walSize(dir) == 0)
    }
  }

  @Test func aForeignKeyBrokenBeforeTheUpgradeLeavesVersion1AsItWas() throws {
    try withTemporaryDirectory { dir in
      try Self.makeV1Library(
        in: dir,
        rows: Self.v1Rows + """

          INSERT INTO note (seq, id, yarn_id, project_id, text, created, modified)
          VALUES (20, 'n-ghost', 'ghost', NULL, 'lost', 1, 1);
          """)
      let before = try Self.texts(
        try Self.rawConnection(dir), "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name")
      do {
        _ = try LibraryStore(directory: dir, mode: .readWrite)
        Issue.record("a library breaking a foreign key was upgraded")
      } catch StoreError.upgradeFailed(let from, let to, let reason) {
        #expect(from == 1 && to == 2)
        #expect(reason == .brokenReferences(count: 1, examples: ["note n-ghost refers to yarn ghost"]))
        #expect(
          String(describing: StoreError.upgradeFailed(from: from, to: to, reason: reason))
            == "cannot upgrade the library's database from schema version 1 to 2 (it is left as it "
            + "was): 1 reference to an item that is not in the library: note n-ghost refers to "
            + "yarn ghost")
      }
      // Read-only, it is read as it is, the broken note too.
      let reader = try LibraryStore(directory: dir, mode: .readOnly)
      #expect(try reader.notes().map(\.id) == ["n-y", "n-p", "n-ghost"])
      try reader.close()

      let raw = try Self.rawConnection(dir)
      defer { try? raw.close() }
      #expect(try raw.integer("PRAGMA user_version") == 1)
      #expect(
        try Self.texts(raw, "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name")
          == before)
      #expect(try raw.integer("SELECT count(*) FROM yarn") == 2)
      #expect(try raw.integer("SELECT count(*) FROM project") == 2)
      #expect(try raw.integer("SELECT count(*) FROM yarn_usage") == 2)
      #expect(try raw.integer("SELECT count(*) FROM note") == 3)
      #expect(try raw.integer("SELECT count(*) FROM time_session") == 2)
      #expect(try raw.integer("SELECT count(*) FROM attachment") == 3)
    }
  }

  /// Broken references are named by the item's ID (by its rowid in `attachment`, which has no
  /// ID; by project and position in `yarn_usage`, which has no rowid), five at most, by table
  /// name and then row.
  @Test func brokenReferencesAreNamedByIDFiveAtMost() throws {
    try withTemporaryDirectory { dir in
      try Self.makeV1Library(
        in: dir,
        rows: Self.v1Rows + """

          INSERT INTO note (seq, id, yarn_id, project_id, text, created, modified)
          VALUES (20, 'n-ghost', 'ghost', NULL, 'lost', 1, 1),
            (21, 'n-gone', NULL, 'p-gone', 'gone', 1, 1);
          INSERT INTO yarn_usage (project_id, position, yarn_id, amount_value, amount_unit)
          VALUES ('p-2', 0, 'ghost2', 1, 'g'), ('p-1', 5, 'ghost', 2, 'g');
          INSERT INTO attachment (seq, yarn_id, project_id, role, position, sha256, file_name,
            media_type, byte_count)
          VALUES (9, NULL, 'p-gone', 'photo', 0, '\(Self.digestA)', 'x.jpg', 'image/jpeg', 1);
          INSERT INTO time_session (seq, id, project_id, start_time, end_time, note)
          VALUES (7, 's-gone', 'p-gone', 500, 600, NULL);
          """)
      do {
        _ = try LibraryStore(directory: dir, mode: .readWrite)
        Issue.record("a library breaking foreign keys was upgraded")
      } catch StoreError.upgradeFailed(1, 2, let reason) {
        #expect(
          reason
            == .brokenReferences(
              count: 6,
              examples: [
                "row 9 of attachment refers to project p-gone",
                "note n-ghost refers to yarn ghost",
                "note n-gone refers to project p-gone",
                "session s-gone refers to project p-gone",
                "a usage of project p-1 (position 5) refers to yarn ghost",
              ]))
        #expect(
          reason.description.hasPrefix("6 references to items that are not in the library: row 9 ")
            && reason.description.hasSuffix("refers to yarn ghost; and 1 more"))
      }
      // Usages alone: both named, each by its project and position.
      let usages = dir.appendingPathComponent("usages")
      try Self.makeV1Library(
        in: usages.creatingDirectory(),
        rows: Self.v1Rows + """

          INSERT INTO yarn_usage (project_id, position, yarn_id, amount_value, amount_unit)
          VALUES ('p-2', 0, 'ghost2', 1, 'g'), ('p-gone', 3, 'y-late', 2, 'g');
          """)
      do {
        _ = try LibraryStore(directory: usages, mode: .readWrite)
        Issue.record("a library breaking foreign keys was upgraded")
      } catch StoreError.upgradeFailed(1, 2, let reason) {
        #expect(
          reason
            == .brokenReferences(
              count: 2,
              examples: [
                "a usage of project p-2 (position 0) refers to yarn ghost2",
                "a usage of project p-gone (position 3), a project that is missing",
              ]))
      }
    }
  }

  /// SQLITE_FULL in the middle of the upgrade (a size limit stands in for a full disk): the
  /// error says so without the SQL, and the WAL, which the rolled-back copy had filled, is
  /// emptied.
  @Test func aFullDiskFailsTheUpgradeAndEmptiesTheWAL() throws {
    try withTemporaryDirectory { dir in
      let bulk = """

        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
        INSERT INTO yarn (id, name, is_stashed) SELECT 'bulk-' || i, printf('%.200c', 'x'), 1 FROM n;
        """
      try Self.makeV1Library(in: dir, rows: Self.v1Rows + bulk, wal: true)
      let raw = try Self.rawConnection(dir)
      defer { try? raw.close() }
      try raw.keepWALOnClose()
      try raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
      #expect(try Self.walSize(dir) == 0)
      let pages = try raw.integer("PRAGMA page_count") ?? 0
      // 3,000 yarns of 200 bytes fill about 170 pages: a copy does not fit in 40 more. A cache
      // of 10 pages writes the copy's pages into the WAL before the limit is reached.
      try raw.execute("PRAGMA cache_size = 10; PRAGMA max_page_count = \(pages + 40)")
      do {
        try LibraryStore.migrate(raw)
        Issue.record("the upgrade fitted")
      } catch StoreError.upgradeFailed(1, 2, .diskFull) {
        #expect(
          String(describing: StoreError.upgradeFailed(from: 1, to: 2, reason: .diskFull))
            == "cannot upgrade the library's database from schema version 1 to 2 (it is left as it "
            + "was): database or disk is full")
      }
      #expect(try Self.walSize(dir) == 0)
      #expect(try raw.integer("PRAGMA user_version") == 1)
      #expect(try raw.integer("SELECT count(*) FROM yarn") == 3002)
      #expect(try raw.integer("SELECT count(*) FROM sqlite_schema WHERE name LIKE 'new_%'") == 0)
    }
  }

  /// A view on `yarn` made outside yarn makes the rebuild fail; the error is SQLite's message,
  /// not the migration's SQL.
  @Test func aViewMadeOutsideYarnFailsTheUpgradeWithoutTheSQL() throws {
    try withTemporaryDirectory { dir in
      try Self.makeV1Library(
        in: dir, rows: Self.v1Rows + "\nCREATE VIEW yarn_names AS SELECT name FROM yarn;")
      do {
        _ = try LibraryStore(directory: dir, mode: .readWrite)
        Issue.record("the upgrade went through a view")
      } catch StoreError.upgradeFailed(1, 2, .database(let code, let message)) {
        #expect(code & 0xff == 1)  // SQLITE_ERROR
        #expect(message.contains("yarn_names"))
        let text = String(
          describing: StoreError.upgradeFailed(
            from: 1, to: 2, reason: .database(code: code, message: message)))
        #expect(!text.contains("CREATE") && !text.contains("\n"))
      }
      let raw = try Self.rawConnection(dir)
      defer { try? raw.close() }
      #expect(try raw.integer("PRAGMA user_version") == 1)
      #expect(try raw.integer("SELECT count(*) FROM yarn_names") == 2)
    }
  }

  /// A failure inside the migration's SQL (a v1 row breaking a CHECK, written with the checks
  /// off, fails the copy) rolls back, and foreign keys are on again on the connection.
  @Test func aFailureInTheMiddleRollsBackAndTurnsForeignKeysOnAgain() throws {
    try withTemporaryDirectory { dir in
      try Self.makeV1Library(
        in: dir,
        rows: "PRAGMA ignore_check_constraints = ON;\n" + Self.v1Rows + """

          INSERT INTO project (seq, id, name, status, has_pattern)
          VALUES (30, 'p-bad', 'Bad', 'done', 0);
          """)
      let raw = try Self.rawConnection(dir)
      defer { try? raw.close() }
      try raw.execute("PRAGMA foreign_keys = ON")
      do {
        try LibraryStore.migrate(raw)
        Issue.record("a project with status done was copied")
      } catch StoreError.upgradeFailed(1, 2, .brokenRule(let message, let example)) {
        #expect(message.hasPrefix("CHECK constraint failed: status = 'planned' OR "))
        #expect(example == "project p-bad")
        // SQLite's words, not the migration's 105 lines of SQL.
        let text = String(
          describing: StoreError.upgradeFailed(
            from: 1, to: 2, reason: .brokenRule(message: message, example: example)))
        #expect(
          text
            == "cannot upgrade the library's database from schema version 1 to 2 (it is left as it "
            + "was): project p-bad breaks a rule of the library's schema (\(message))")
        #expect(!text.contains("CREATE") && !text.contains("INSERT") && !text.contains("sql"))
      }
      #expect(raw.isAutocommit)
      #expect(try raw.integer("PRAGMA foreign_keys") == 1)
      #expect(try raw.integer("PRAGMA user_version") == 1)
      #expect(try raw.integer("SELECT count(*) FROM project") == 3)
      #expect(try raw.integer("SELECT count(*) FROM note") == 2)
      #expect(try raw.integer("SELECT count(*) FROM attachment") == 3)
      #expect(try raw.integer("SELECT count(*) FROM sqlite_schema WHERE name LIKE 'new_%'") == 0)
    }
  }

  /// A v1 row that breaks a CHECK (written with the checks off, as the `sqlite3` shell can)
  /// fails the upgrade as a broken rule naming the first such row of the table whose copy
  /// failed — by ID, by project and position in `yarn_usage`, by rowid in `attachment` — and
  /// leaves version 1 as it was.
  @Test func aRowBreakingACheckIsNamedAndLeavesVersion1AsItWas() throws {
    let cases: [(rows: String, message: String, example: String)] = [
      (
        "UPDATE yarn SET weight = 9 WHERE id = 'y-late'; UPDATE yarn SET weight = -1 WHERE id = 'y-early';",
        "CHECK constraint failed: weight BETWEEN 0 AND 7", "yarn y-early"
      ),
      (
        "UPDATE yarn_usage SET position = -4 WHERE position = 1;",
        "CHECK constraint failed: position >= 0", "a usage of project p-1 (position -4)"
      ),
      (
        "UPDATE attachment SET byte_count = -1 WHERE file_name = 'done.png';",
        "CHECK constraint failed: byte_count >= 0", "row 3 of attachment"
      ),
    ]
    for (index, item) in cases.enumerated() {
      try withTemporaryDirectory { dir in
        try Self.makeV1Library(
          in: dir, rows: Self.v1Rows + "\nPRAGMA ignore_check_constraints = ON;\n" + item.rows)
        do {
          _ = try LibraryStore(directory: dir, mode: .readWrite)
          Issue.record("case \(index): a row breaking a CHECK was upgraded")
        } catch StoreError.upgradeFailed(let from, let to, let reason) {
          #expect(from == 1 && to == 2)
          #expect(reason == .brokenRule(message: item.message, example: item.example), "case \(index)")
        }
        let raw = try Self.rawConnection(dir)
        defer { try? raw.close() }
        #expect(try raw.integer("PRAGMA user_version") == 1)
        #expect(try raw.integer("SELECT count(*) FROM yarn") == 2)
        #expect(try raw.integer("SELECT count(*) FROM yarn_usage") == 2)
        #expect(try raw.integer("SELECT count(*) FROM attachment") == 3)
        #expect(try raw.integer("SELECT count(*) FROM sqlite_schema WHERE name LIKE 'new_%'") == 0)
      }
    }
    #expect(
      StoreError.UpgradeFailure.brokenRule(message: "CHECK constraint failed: x", example: nil)
        .description == "a row breaks a rule of the library's schema (CHECK constraint failed: x)")
  }
}

extension URL {
  /// Creates the directory (not its parents) and returns it.
  fileprivate func creatingDirectory() throws -> URL {
    try FileManager.default.createDirectory(at: self, withIntermediateDirectories: false)
    return self
  }
}
