import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

/// Version 1 of the schema, the one migration `v1-library`: its exact SQL (a released
/// migration is never edited), the values its CHECK rules accept and refuse, and its foreign
/// keys' actions.
@Suite struct SchemaV1Tests {
  /// SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE.
  private static let createFlags: Int32 = 0x2 | 0x4

  /// `sqlite_schema.sql` of every table and index of version 1, by name, as SQLite stores it.
  /// The same tables, columns, rules and indexes as the schema version 2 of yarn's unreleased
  /// development builds (whose rebuilt tables SQLite named `"yarn"`, in quotes): every list
  /// of allowed values an OR of equalities, no `IN (…)`.
  private static let version1SQL = """
    CREATE TABLE attachment (
      seq INTEGER PRIMARY KEY,
      yarn_id TEXT REFERENCES yarn (id) ON DELETE CASCADE ON UPDATE CASCADE,
      project_id TEXT REFERENCES project (id) ON DELETE CASCADE ON UPDATE CASCADE,
      role TEXT NOT NULL CHECK (role = 'photo' OR role = 'pattern'),
      position INTEGER NOT NULL CHECK (position >= 0),
      sha256 TEXT NOT NULL CHECK (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*'),
      file_name TEXT NOT NULL,
      media_type TEXT NOT NULL,
      byte_count INTEGER NOT NULL CHECK (byte_count >= 0),
      CHECK ((yarn_id IS NULL) <> (project_id IS NULL)),
      CHECK (role = 'photo' OR project_id IS NOT NULL)
    );

    CREATE INDEX attachment_by_digest ON attachment (sha256);

    CREATE UNIQUE INDEX attachment_of_project ON attachment (project_id, role, position)
      WHERE project_id IS NOT NULL;

    CREATE UNIQUE INDEX attachment_of_yarn ON attachment (yarn_id, role, position)
      WHERE yarn_id IS NOT NULL;

    CREATE TABLE note (
      seq INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      yarn_id TEXT REFERENCES yarn (id) ON DELETE CASCADE ON UPDATE CASCADE,
      project_id TEXT REFERENCES project (id) ON DELETE CASCADE ON UPDATE CASCADE,
      text TEXT NOT NULL,
      created INTEGER NOT NULL,
      modified INTEGER NOT NULL,
      CHECK ((yarn_id IS NULL) <> (project_id IS NULL))
    );

    CREATE INDEX note_by_project ON note (project_id) WHERE project_id IS NOT NULL;

    CREATE INDEX note_by_yarn ON note (yarn_id) WHERE yarn_id IS NOT NULL;

    CREATE UNIQUE INDEX one_pattern_per_project ON attachment (project_id)
      WHERE role = 'pattern';

    CREATE UNIQUE INDEX one_running_session ON time_session ((end_time IS NULL))
      WHERE end_time IS NULL;

    CREATE TABLE project (
      seq INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      name TEXT NOT NULL,
      craft TEXT CHECK (craft = 'knitting' OR craft = 'crochet' OR craft = 'weaving' OR craft = 'spinning' OR craft = 'embroidery' OR craft = 'other'),
      status TEXT NOT NULL
        CHECK (status = 'planned' OR status = 'in-progress' OR status = 'finished' OR status = 'frogged' OR status = 'hibernating'),
      -- 1 when the project has a pattern (which may have no name, URL or PDF yet).
      has_pattern INTEGER NOT NULL CHECK (has_pattern = 0 OR has_pattern = 1),
      pattern_name TEXT,
      pattern_url TEXT,
      started TEXT CHECK (started GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
      finished TEXT CHECK (finished GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
      CHECK (has_pattern = 1 OR (pattern_name IS NULL AND pattern_url IS NULL))
    );

    CREATE TABLE time_session (
      seq INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      project_id TEXT NOT NULL REFERENCES project (id) ON DELETE CASCADE ON UPDATE CASCADE,
      start_time INTEGER NOT NULL,
      end_time INTEGER CHECK (end_time >= start_time),
      note TEXT
    );

    CREATE INDEX time_session_by_project ON time_session (project_id, start_time);

    CREATE INDEX time_session_by_start ON time_session (start_time);

    CREATE TABLE yarn (
      seq INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      name TEXT NOT NULL,
      brand TEXT,
      colorway TEXT,
      color_family TEXT,
      dye_lot TEXT,
      weight INTEGER CHECK (weight BETWEEN 0 AND 7),
      fiber TEXT,
      length_per_skein_value REAL,
      length_per_skein_unit TEXT CHECK (length_per_skein_unit = 'skein' OR length_per_skein_unit = 'g' OR length_per_skein_unit = 'oz' OR length_per_skein_unit = 'yd' OR length_per_skein_unit = 'm')
        CHECK ((length_per_skein_value IS NULL) = (length_per_skein_unit IS NULL)),
      net_weight_per_skein_value REAL,
      net_weight_per_skein_unit TEXT CHECK (net_weight_per_skein_unit = 'skein' OR net_weight_per_skein_unit = 'g' OR net_weight_per_skein_unit = 'oz' OR net_weight_per_skein_unit = 'yd' OR net_weight_per_skein_unit = 'm')
        CHECK ((net_weight_per_skein_value IS NULL) = (net_weight_per_skein_unit IS NULL)),
      quantity_value REAL,
      quantity_unit TEXT CHECK (quantity_unit = 'skein' OR quantity_unit = 'g' OR quantity_unit = 'oz' OR quantity_unit = 'yd' OR quantity_unit = 'm')
        CHECK ((quantity_value IS NULL) = (quantity_unit IS NULL)),
      remaining_value REAL,
      remaining_unit TEXT CHECK (remaining_unit = 'skein' OR remaining_unit = 'g' OR remaining_unit = 'oz' OR remaining_unit = 'yd' OR remaining_unit = 'm')
        CHECK ((remaining_value IS NULL) = (remaining_unit IS NULL)),
      purchase_location TEXT,
      date_added TEXT CHECK (date_added GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
      is_stashed INTEGER NOT NULL CHECK (is_stashed = 0 OR is_stashed = 1)
    );

    CREATE TABLE yarn_usage (
      project_id TEXT NOT NULL REFERENCES project (id) ON DELETE CASCADE ON UPDATE CASCADE,
      position INTEGER NOT NULL CHECK (position >= 0),
      -- A yarn in use cannot be deleted: the store says which projects use it.
      yarn_id TEXT NOT NULL REFERENCES yarn (id) ON DELETE RESTRICT ON UPDATE CASCADE,
      amount_value REAL NOT NULL,
      amount_unit TEXT NOT NULL CHECK (amount_unit = 'skein' OR amount_unit = 'g' OR amount_unit = 'oz' OR amount_unit = 'yd' OR amount_unit = 'm'),
      PRIMARY KEY (project_id, position)
    ) WITHOUT ROWID;

    CREATE INDEX yarn_usage_by_yarn ON yarn_usage (yarn_id);
    """

  @Test func version1IsExactlyItsSQL() throws {
    try withTemporaryDirectory { dir in
      let raw = try Connection(path: dir.appendingPathComponent("v1.sqlite").path, flags: Self.createFlags)
      defer { try? raw.close() }
      try LibraryStore.migrate(raw, migrations: Array(Schema.migrations.prefix(1)))
      #expect(try raw.integer("PRAGMA user_version") == 1)
      let sql = try raw.query("SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL ORDER BY name") {
        $0.text(0) ?? ""
      }
      #expect(sql.joined(separator: ";\n\n") + ";" == Self.version1SQL)
      #expect(!Self.version1SQL.contains(" IN ("))
      // The indexes SQLite makes for the UNIQUE ids (yarn_usage's key is its WITHOUT ROWID table).
      #expect(
        try raw.query("SELECT name FROM sqlite_schema WHERE sql IS NULL ORDER BY name") { $0.text(0) ?? "" }
          == [
            "sqlite_autoindex_note_1", "sqlite_autoindex_project_1", "sqlite_autoindex_time_session_1",
            "sqlite_autoindex_yarn_1",
          ])
    }
  }

  /// Each statement runs alone on a new library (foreign keys on) and is rolled back; the
  /// expected result is SQLite's extended code: 0 stored, 275 a CHECK refused it
  /// (SQLITE_CONSTRAINT_CHECK), 1299 a NOT NULL did (SQLITE_CONSTRAINT_NOTNULL).
  @Test func theChecksAcceptAndRefuseByValue() throws {
    try withTemporaryDirectory { dir in
      let store = try LibraryStore(directory: dir, mode: .readWrite)
      defer { try? store.close() }
      let db = store.connection
      try db.execute(
        """
        INSERT INTO yarn (id, name) VALUES ('y-1', 'Plain');
        INSERT INTO project (id, name, status, has_pattern) VALUES ('p-1', 'Socks', 'planned', 0);
        INSERT INTO attachment (seq, yarn_id, role, position, sha256, file_name, media_type,
          byte_count) VALUES (5, 'y-1', 'photo', 0, '\(String(repeating: "a", count: 64))', 'a.jpg',
          'image/jpeg', 1);
        """)
      let ok: Int32 = 0
      let check: Int32 = 275
      let notNull: Int32 = 1299
      var cases: [(sql: String, code: Int32)] = []

      func yarn(_ columns: String, _ values: String) -> String {
        "INSERT INTO yarn (id, name, \(columns)) VALUES ('w\(cases.count)', 'Y', \(values))"
      }
      for weight in ["0", "4", "7", "NULL"] { cases.append((yarn("weight", weight), ok)) }
      for weight in ["8", "9", "-1", "'heavy'"] { cases.append((yarn("weight", weight), check)) }

      for column in ["length_per_skein", "net_weight_per_skein", "quantity", "remaining"] {
        let pair = "\(column)_value, \(column)_unit"
        // v5 widened every unit column by kg and lb.
        for unit in ["'skein'", "'g'", "'oz'", "'yd'", "'m'", "'kg'", "'lb'"] {
          cases.append((yarn(pair, "2, \(unit)"), ok))
        }
        for unit in ["'kgs'", "'G'", "''", "' g'", "1"] { cases.append((yarn(pair, "2, \(unit)"), check)) }
        // Both or neither: a value without a unit, a unit without a value.
        cases.append((yarn(pair, "NULL, NULL"), ok))
        cases.append((yarn(pair, "2, NULL"), check))
        cases.append((yarn(pair, "NULL, 'g'"), check))
      }
      for day in ["'2026-03-29'", "NULL"] { cases.append((yarn("date_added", day), ok)) }
      for day in ["'2026-3-29'", "'29.03.2026'", "'yesterday'"] {
        cases.append((yarn("date_added", day), check))
      }

      // '1' and 1.0 become the integer 1 by the column's INTEGER affinity.
      let flags: [(String, Int32)] = [
        ("0", ok), ("1", ok), ("'1'", ok), ("1.0", ok), ("2", check), ("-1", check), ("'yes'", check),
        ("NULL", notNull),
      ]
      for (flag, code) in flags {
        cases.append(
          (
            "INSERT INTO project (id, name, status, has_pattern) VALUES ('h\(cases.count)', 'H', 'planned', \(flag))",
            code
          ))
      }

      func project(_ column: String, _ value: String) -> String {
        "INSERT INTO project (id, name, status, has_pattern, \(column)) VALUES ('p\(cases.count)', 'P', 'planned', 0, \(value))"
      }
      for craft in ["'knitting'", "'crochet'", "'weaving'", "'spinning'", "'embroidery'", "'other'", "NULL"] {
        cases.append((project("craft", craft), ok))
      }
      for craft in ["'knotting'", "'Knitting'", "'knit'", "''"] {
        cases.append((project("craft", craft), check))
      }
      for status in ["'planned'", "'in-progress'", "'finished'", "'frogged'", "'hibernating'"] {
        cases.append(
          (
            "INSERT INTO project (id, name, status, has_pattern) VALUES ('s\(cases.count)', 'S', \(status), 0)",
            ok
          ))
      }
      for status in ["'done'", "'in progress'", "'Planned'"] {
        cases.append(
          (
            "INSERT INTO project (id, name, status, has_pattern) VALUES ('s\(cases.count)', 'S', \(status), 0)",
            check
          ))
      }
      cases.append(
        ("INSERT INTO project (id, name, status, has_pattern) VALUES ('s-null', 'S', NULL, 0)", notNull))
      // A pattern's name or URL needs has_pattern = 1.
      cases.append((project("pattern_name", "'Vanilla'"), check))
      cases.append(
        (
          "INSERT INTO project (id, name, status, has_pattern, pattern_name) VALUES ('pn', 'P', 'planned', 1, 'Vanilla')",
          ok
        ))

      func usage(_ unit: String) -> String {
        "INSERT INTO yarn_usage (project_id, position, yarn_id, amount_value, amount_unit) VALUES ('p-1', 0, 'y-1', 1, \(unit))"
      }
      for unit in ["'skein'", "'g'", "'oz'", "'yd'", "'m'", "'kg'", "'lb'"] {
        cases.append((usage(unit), ok))
      }
      for unit in ["'LB'", "'G'", "''", "1"] { cases.append((usage(unit), check)) }
      cases.append((usage("NULL"), notNull))

      func attachment(_ subject: String, _ role: String) -> String {
        "INSERT INTO attachment (\(subject), role, position, sha256, file_name, media_type, byte_count)"
          + " VALUES (\(subject == "project_id" ? "'p-1'" : "'y-1'"), \(role), 1, '\(String(repeating: "b", count: 64))', 'f', 't', 1)"
      }
      cases.append((attachment("project_id", "'photo'"), ok))
      cases.append((attachment("project_id", "'pattern'"), ok))
      cases.append((attachment("yarn_id", "'photo'"), ok))
      // A yarn has photos only.
      cases.append((attachment("yarn_id", "'pattern'"), check))
      for role in ["'cover'", "'Photo'", "''"] { cases.append((attachment("project_id", role), check)) }
      cases.append((attachment("project_id", "NULL"), notNull))

      // The same rules on an update.
      cases += [
        ("UPDATE yarn SET weight = 9 WHERE id = 'y-1'", check),
        ("UPDATE yarn SET quantity_value = 1, quantity_unit = 'pound' WHERE id = 'y-1'", check),
        ("UPDATE project SET craft = 'knotting' WHERE id = 'p-1'", check),
        ("UPDATE project SET status = 'done' WHERE id = 'p-1'", check),
        ("UPDATE attachment SET role = 'cover' WHERE seq = 5", check),
        ("UPDATE yarn SET weight = 7 WHERE id = 'y-1'", ok),
      ]

      for (sql, expected) in cases {
        var code: Int32 = 0
        try db.execute("SAVEPOINT probe")
        do {
          try db.execute(sql)
        } catch let error as DatabaseError {
          code = error.extendedCode
        }
        try db.execute("ROLLBACK TO probe; RELEASE probe")
        #expect(code == expected, "\(sql)")
      }
      #expect(cases.count > 100)
      #expect(try db.integer("SELECT count(*) FROM yarn") == 1)
    }
  }

  /// The foreign keys' actions, on raw SQL so that the schema, not the store, decides.
  @Test func foreignKeysRestrictAndCascade() throws {
    try withTemporaryDirectory { dir in
      let store = try LibraryStore(directory: dir, mode: .readWrite)
      defer { try? store.close() }
      let db = store.connection
      try db.execute(
        """
        INSERT INTO yarn (id, name) VALUES ('y-used', 'Used'), ('y-free', 'Free');
        INSERT INTO project (id, name, status, has_pattern) VALUES ('p-1', 'Socks', 'planned', 0);
        INSERT INTO yarn_usage (project_id, position, yarn_id, amount_value, amount_unit)
          VALUES ('p-1', 0, 'y-used', 50, 'g');
        INSERT INTO note (id, yarn_id, project_id, text, created, modified)
          VALUES ('n-y', 'y-free', NULL, 'soft', 1, 1), ('n-p', NULL, 'p-1', 'heel', 1, 1);
        INSERT INTO time_session (id, project_id, start_time, end_time) VALUES ('s-1', 'p-1', 1, 2);
        INSERT INTO attachment (yarn_id, role, position, sha256, file_name, media_type, byte_count)
          VALUES ('y-free', 'photo', 0, '\(String(repeating: "c", count: 64))', 'a.jpg', 'image/jpeg', 1);
        """)
      // A yarn in use cannot be deleted (RESTRICT, which SQLite reports as 1811,
      // SQLITE_CONSTRAINT_TRIGGER).
      do {
        try db.execute("DELETE FROM yarn WHERE id = 'y-used'")
        Issue.record("a yarn in use was deleted")
      } catch let error as DatabaseError {
        #expect(error.extendedCode == 1811)
        #expect(error.message == "FOREIGN KEY constraint failed")
      }
      // A note about a missing yarn is refused (SQLITE_CONSTRAINT_FOREIGNKEY).
      do {
        try db.execute(
          "INSERT INTO note (id, yarn_id, text, created, modified) VALUES ('x', 'ghost', 't', 1, 1)")
        Issue.record("a note about a missing yarn was stored")
      } catch let error as DatabaseError {
        #expect(error.extendedCode == 787)
      }
      // A note is about a yarn or a project, never both or neither.
      do {
        try db.execute(
          "INSERT INTO note (id, yarn_id, project_id, text, created, modified) VALUES ('b', 'y-free', 'p-1', 't', 1, 1)"
        )
        Issue.record("a note about both was stored")
      } catch let error as DatabaseError {
        #expect(error.extendedCode == 275)
      }
      // Deleting the project takes its usages, notes and sessions.
      try db.execute("DELETE FROM project WHERE id = 'p-1'")
      #expect(try db.integer("SELECT count(*) FROM yarn_usage") == 0)
      #expect(try db.integer("SELECT count(*) FROM time_session") == 0)
      #expect(try db.query("SELECT id FROM note") { $0.text(0) ?? "" } == ["n-y"])
      // A yarn no longer in use goes, with its photo and notes; a new ID cascades on update.
      try db.execute("DELETE FROM yarn WHERE id = 'y-used'")
      try db.execute("UPDATE yarn SET id = 'y-renamed' WHERE id = 'y-free'")
      #expect(try db.query("SELECT yarn_id FROM note") { $0.text(0) ?? "" } == ["y-renamed"])
      #expect(try db.query("SELECT yarn_id FROM attachment") { $0.text(0) ?? "" } == ["y-renamed"])
      try db.execute("DELETE FROM yarn WHERE id = 'y-renamed'")
      #expect(try db.integer("SELECT count(*) FROM note") == 0)
      #expect(try db.integer("SELECT count(*) FROM attachment") == 0)
    }
  }
}
