/// The database schema as an ordered list of named migrations.
///
/// `PRAGMA user_version` records how many of them a database has had: version N means
/// `migrations[0..<N]` were applied. Pending ones run in order inside one transaction, so a
/// database is always at a version this list names. Never edit or reorder a released
/// migration: add a new one at the end. A new library gets every migration in order too, so
/// it ends with exactly the schema of an upgraded one.
enum Schema {
  struct Migration {
    let name: String
    let sql: String
    /// Whether `sql` rebuilds tables (create `new_X`, copy, drop `X`, rename; sqlite.org
    /// lang_altertable.html, "Making Other Kinds Of Table Schema Changes"): `migrate` then
    /// runs it with `PRAGMA foreign_keys = OFF` (else dropping `yarn` would cascade to its
    /// notes and fail on the usages' RESTRICT) and runs `PRAGMA foreign_key_check` before
    /// the commit.
    let rebuildsTables: Bool
  }

  /// The schema version this code writes: the number of migrations.
  static var currentVersion: Int { migrations.count }

  /// The oldest schema version this code reads as it is, without upgrading it: 1.
  ///
  /// Version 1 is read exactly as version 2 because v2 changes only CHECK constraints, which
  /// reads never evaluate: every table, column, index and query is the same. So a `.readOnly`
  /// store opens a v1 database read-only at its own version and never writes it (it may not
  /// be allowed to, or have room for the upgrade's copy of the tables); the first store
  /// opened `.readWrite` upgrades it. A future migration that changes what a read sees
  /// (a column, a table, an index a query relies on) must raise this to the new
  /// `currentVersion`; a database older than this is upgraded by a `.readOnly` open first.
  static let oldestReadableVersion = 1

  static let migrations: [Migration] = [
    Migration(name: "v1-library", sql: v1, rebuildsTables: false),
    Migration(name: "v2-checks-as-or-lists", sql: v2, rebuildsTables: true),
  ]

  // Conventions of the tables:
  // - `seq INTEGER PRIMARY KEY` is the rowid; rows are listed by it, so lists come back in
  //   creation order (an explicit INTEGER PRIMARY KEY is never renumbered by VACUUM).
  // - `id` is the model's identifier, unique, the target of foreign keys.
  // - Instants are INTEGER Unix seconds (UTC), truncated to whole seconds on write.
  // - Days (`CalendarDate`) are TEXT `YYYY-MM-DD`.
  // - An `Amount` is two columns, a REAL value and a TEXT unit token, both NULL or neither.
  private static let units = "('skein', 'g', 'oz', 'yd', 'm')"
  private static let day = "GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'"

  private static func amount(_ name: String, notNull: Bool = false) -> String {
    if notNull {
      return """
          \(name)_value REAL NOT NULL,
          \(name)_unit TEXT NOT NULL CHECK (\(name)_unit IN \(units))
        """
    }
    // A column CHECK may name other columns in SQLite; it keeps the pair rule beside the pair.
    return """
        \(name)_value REAL,
        \(name)_unit TEXT CHECK (\(name)_unit IN \(units))
          CHECK ((\(name)_value IS NULL) = (\(name)_unit IS NULL))
      """
  }

  private static let v1 = """
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
    \(amount("length_per_skein")),
    \(amount("net_weight_per_skein")),
    \(amount("quantity")),
    \(amount("remaining")),
      purchase_location TEXT,
      date_added TEXT CHECK (date_added \(day)),
      is_stashed INTEGER NOT NULL CHECK (is_stashed IN (0, 1))
    );

    CREATE TABLE project (
      seq INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      name TEXT NOT NULL,
      craft TEXT CHECK (craft IN ('knitting', 'crochet', 'weaving', 'spinning', 'embroidery', 'other')),
      status TEXT NOT NULL
        CHECK (status IN ('planned', 'in-progress', 'finished', 'frogged', 'hibernating')),
      -- 1 when the project has a pattern (which may have no name, URL or PDF yet).
      has_pattern INTEGER NOT NULL CHECK (has_pattern IN (0, 1)),
      pattern_name TEXT,
      pattern_url TEXT,
      started TEXT CHECK (started \(day)),
      finished TEXT CHECK (finished \(day)),
      CHECK (has_pattern = 1 OR (pattern_name IS NULL AND pattern_url IS NULL))
    );

    CREATE TABLE yarn_usage (
      project_id TEXT NOT NULL REFERENCES project (id) ON DELETE CASCADE ON UPDATE CASCADE,
      position INTEGER NOT NULL CHECK (position >= 0),
      -- A yarn in use cannot be deleted: the store says which projects use it.
      yarn_id TEXT NOT NULL REFERENCES yarn (id) ON DELETE RESTRICT ON UPDATE CASCADE,
    \(amount("amount", notNull: true)),
      PRIMARY KEY (project_id, position)
    ) WITHOUT ROWID;
    CREATE INDEX yarn_usage_by_yarn ON yarn_usage (yarn_id);

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
    CREATE INDEX note_by_yarn ON note (yarn_id) WHERE yarn_id IS NOT NULL;
    CREATE INDEX note_by_project ON note (project_id) WHERE project_id IS NOT NULL;

    CREATE TABLE time_session (
      seq INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      project_id TEXT NOT NULL REFERENCES project (id) ON DELETE CASCADE ON UPDATE CASCADE,
      start_time INTEGER NOT NULL,
      end_time INTEGER CHECK (end_time >= start_time),
      note TEXT
    );
    CREATE INDEX time_session_by_start ON time_session (start_time);
    CREATE INDEX time_session_by_project ON time_session (project_id, start_time);
    -- At most one running session, enforced by the schema: every running row has the same
    -- key (1) in this unique partial index, so a second one is a UNIQUE violation.
    CREATE UNIQUE INDEX one_running_session ON time_session ((end_time IS NULL))
      WHERE end_time IS NULL;

    CREATE TABLE attachment (
      seq INTEGER PRIMARY KEY,
      yarn_id TEXT REFERENCES yarn (id) ON DELETE CASCADE ON UPDATE CASCADE,
      project_id TEXT REFERENCES project (id) ON DELETE CASCADE ON UPDATE CASCADE,
      role TEXT NOT NULL CHECK (role IN ('photo', 'pattern')),
      position INTEGER NOT NULL CHECK (position >= 0),
      sha256 TEXT NOT NULL CHECK (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*'),
      file_name TEXT NOT NULL,
      media_type TEXT NOT NULL,
      byte_count INTEGER NOT NULL CHECK (byte_count >= 0),
      CHECK ((yarn_id IS NULL) <> (project_id IS NULL)),
      CHECK (role = 'photo' OR project_id IS NOT NULL)
    );
    CREATE UNIQUE INDEX attachment_of_yarn ON attachment (yarn_id, role, position)
      WHERE yarn_id IS NOT NULL;
    CREATE UNIQUE INDEX attachment_of_project ON attachment (project_id, role, position)
      WHERE project_id IS NOT NULL;
    CREATE UNIQUE INDEX one_pattern_per_project ON attachment (project_id)
      WHERE role = 'pattern';
    CREATE INDEX attachment_by_digest ON attachment (sha256);
    """
}

// MARK: Version 2

extension Schema {
  /// `(column = 'a' OR column = 'b' OR …)`: the rule of `column IN ('a', 'b', …)`, and NULL
  /// passes a CHECK of it alike (the OR of unknowns is unknown, which a CHECK lets through).
  /// SQLite evaluates an IN-list of more than two constants by building an ephemeral table,
  /// for every row it checks; the ORs are plain comparisons (`PRAGMA quick_check` of 100,000
  /// yarns: 0.47 s with IN-lists, 0.09 s with ORs).
  private static func oneOf(_ column: String, _ values: [String]) -> String {
    "(" + values.map { "\(column) = \($0)" }.joined(separator: " OR ") + ")"
  }

  private static let unitTokens = ["'skein'", "'g'", "'oz'", "'yd'", "'m'"]
  private static let crafts = [
    "'knitting'", "'crochet'", "'weaving'", "'spinning'", "'embroidery'", "'other'",
  ]
  private static let statuses = [
    "'planned'", "'in-progress'", "'finished'", "'frogged'", "'hibernating'",
  ]

  /// v1's `amount(_:notNull:)` with the unit rule as an OR-list.
  private static func amountV2(_ name: String, notNull: Bool = false) -> String {
    if notNull {
      return """
          \(name)_value REAL NOT NULL,
          \(name)_unit TEXT NOT NULL CHECK \(oneOf("\(name)_unit", unitTokens))
        """
    }
    return """
        \(name)_value REAL,
        \(name)_unit TEXT CHECK \(oneOf("\(name)_unit", unitTokens))
          CHECK ((\(name)_value IS NULL) = (\(name)_unit IS NULL))
      """
  }

  /// Version 2: every `IN (…)` list of a CHECK becomes an OR of equalities (all of them, the
  /// two-value ones too, so that the schema has one form); nothing else changes. The four
  /// tables holding one (yarn, project, yarn_usage, attachment) are rebuilt by SQLite's
  /// procedure: `new_X` with the new definition, the rows copied with their `seq` (so lists
  /// keep their order), `X` dropped, `new_X` renamed to `X`, and `X`'s indexes created again
  /// exactly as v1 has them. Columns, types, NOT NULL, UNIQUE, keys, REFERENCES clauses,
  /// WITHOUT ROWID, comments and every other CHECK are v1's, character for character.
  /// Needs `PRAGMA foreign_keys = OFF` and a `PRAGMA foreign_key_check` before the commit
  /// (`rebuildsTables`); notes, sessions and other tables are untouched, and their foreign
  /// keys name the tables, which keep their names.
  private static let v2 = """
    CREATE TABLE new_yarn (
      seq INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      name TEXT NOT NULL,
      brand TEXT,
      colorway TEXT,
      color_family TEXT,
      dye_lot TEXT,
      weight INTEGER CHECK (weight BETWEEN 0 AND 7),
      fiber TEXT,
    \(amountV2("length_per_skein")),
    \(amountV2("net_weight_per_skein")),
    \(amountV2("quantity")),
    \(amountV2("remaining")),
      purchase_location TEXT,
      date_added TEXT CHECK (date_added \(day)),
      is_stashed INTEGER NOT NULL CHECK \(oneOf("is_stashed", ["0", "1"]))
    );
    INSERT INTO new_yarn (
      seq, id, name, brand, colorway, color_family, dye_lot, weight, fiber,
      length_per_skein_value, length_per_skein_unit,
      net_weight_per_skein_value, net_weight_per_skein_unit,
      quantity_value, quantity_unit, remaining_value, remaining_unit,
      purchase_location, date_added, is_stashed)
    SELECT
      seq, id, name, brand, colorway, color_family, dye_lot, weight, fiber,
      length_per_skein_value, length_per_skein_unit,
      net_weight_per_skein_value, net_weight_per_skein_unit,
      quantity_value, quantity_unit, remaining_value, remaining_unit,
      purchase_location, date_added, is_stashed
    FROM yarn;
    DROP TABLE yarn;
    ALTER TABLE new_yarn RENAME TO yarn;

    CREATE TABLE new_project (
      seq INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      name TEXT NOT NULL,
      craft TEXT CHECK \(oneOf("craft", crafts)),
      status TEXT NOT NULL
        CHECK \(oneOf("status", statuses)),
      -- 1 when the project has a pattern (which may have no name, URL or PDF yet).
      has_pattern INTEGER NOT NULL CHECK \(oneOf("has_pattern", ["0", "1"])),
      pattern_name TEXT,
      pattern_url TEXT,
      started TEXT CHECK (started \(day)),
      finished TEXT CHECK (finished \(day)),
      CHECK (has_pattern = 1 OR (pattern_name IS NULL AND pattern_url IS NULL))
    );
    INSERT INTO new_project (
      seq, id, name, craft, status, has_pattern, pattern_name, pattern_url, started, finished)
    SELECT seq, id, name, craft, status, has_pattern, pattern_name, pattern_url, started, finished
    FROM project;
    DROP TABLE project;
    ALTER TABLE new_project RENAME TO project;

    CREATE TABLE new_yarn_usage (
      project_id TEXT NOT NULL REFERENCES project (id) ON DELETE CASCADE ON UPDATE CASCADE,
      position INTEGER NOT NULL CHECK (position >= 0),
      -- A yarn in use cannot be deleted: the store says which projects use it.
      yarn_id TEXT NOT NULL REFERENCES yarn (id) ON DELETE RESTRICT ON UPDATE CASCADE,
    \(amountV2("amount", notNull: true)),
      PRIMARY KEY (project_id, position)
    ) WITHOUT ROWID;
    INSERT INTO new_yarn_usage (project_id, position, yarn_id, amount_value, amount_unit)
    SELECT project_id, position, yarn_id, amount_value, amount_unit FROM yarn_usage;
    DROP TABLE yarn_usage;
    ALTER TABLE new_yarn_usage RENAME TO yarn_usage;
    CREATE INDEX yarn_usage_by_yarn ON yarn_usage (yarn_id);

    CREATE TABLE new_attachment (
      seq INTEGER PRIMARY KEY,
      yarn_id TEXT REFERENCES yarn (id) ON DELETE CASCADE ON UPDATE CASCADE,
      project_id TEXT REFERENCES project (id) ON DELETE CASCADE ON UPDATE CASCADE,
      role TEXT NOT NULL CHECK \(oneOf("role", ["'photo'", "'pattern'"])),
      position INTEGER NOT NULL CHECK (position >= 0),
      sha256 TEXT NOT NULL CHECK (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*'),
      file_name TEXT NOT NULL,
      media_type TEXT NOT NULL,
      byte_count INTEGER NOT NULL CHECK (byte_count >= 0),
      CHECK ((yarn_id IS NULL) <> (project_id IS NULL)),
      CHECK (role = 'photo' OR project_id IS NOT NULL)
    );
    INSERT INTO new_attachment (
      seq, yarn_id, project_id, role, position, sha256, file_name, media_type, byte_count)
    SELECT seq, yarn_id, project_id, role, position, sha256, file_name, media_type, byte_count
    FROM attachment;
    DROP TABLE attachment;
    ALTER TABLE new_attachment RENAME TO attachment;
    CREATE UNIQUE INDEX attachment_of_yarn ON attachment (yarn_id, role, position)
      WHERE yarn_id IS NOT NULL;
    CREATE UNIQUE INDEX attachment_of_project ON attachment (project_id, role, position)
      WHERE project_id IS NOT NULL;
    CREATE UNIQUE INDEX one_pattern_per_project ON attachment (project_id)
      WHERE role = 'pattern';
    CREATE INDEX attachment_by_digest ON attachment (sha256);
    """
}
