import YarnModel

/// The database schema as an ordered list of named migrations.
///
/// `PRAGMA user_version` records how many of them a database has had: version N means
/// `migrations[0..<N]` were applied. `LibraryStore.migrate` runs the pending ones in order
/// inside one transaction, so a database is always at a version this list names, and refuses
/// a database of a higher version than the list's length. Never edit or reorder a released
/// migration: add a new one at the end. A new library gets every migration in order too, so
/// it ends with exactly the schema of an upgraded one.
///
/// Seven versions today: `v1-library` (the items), `v2-history` (the undo history),
/// `v3-time-ranges` (two indexes for reading a range of time), `v4-name-keys` (the key a
/// name is found by, `name_key`, with its indexes; a step in Swift computes the keys of the
/// rows already there), `v5-tools-and-mass-units` (needles and hooks, the projects'
/// needle sizes and tools, and `kg` and `lb` in every unit column) and
/// `v6-stash-and-project-details` (a yarn's status, price, place and tags; a project's gauge,
/// size made, made for and tags), and `v7-compact-history-triggers` (the same undo history's
/// triggers in fewer words, parsed at every open). A migration that
/// rebuilds a table (create `new_X`, copy, drop `X`, rename; sqlite.org
/// lang_altertable.html, "Making Other Kinds Of Table Schema Changes"), as v5 does, sets
/// `rebuildsTables`: `migrate` then runs with `PRAGMA foreign_keys = OFF`, set outside the
/// transaction (else dropping `yarn` cascades to its notes and fails on the usages'
/// RESTRICT), and checks with `PRAGMA foreign_key_check` before the commit.
enum Schema {
  struct Migration: Sendable {
    /// Unique in the list; names the step in code and history only (the database records
    /// just the count).
    let name: String
    /// The step's SQL, made when a library needs the step: every command that opens the
    /// library reads `migrations.count`, and making every step's SQL (v2's and v4's history
    /// triggers are written out in Swift) was 13% of the instructions of `yarn time start`.
    private let makeSQL: @Sendable () -> String
    /// A step in Swift run after `sql`, in the same transaction, on the same connection: for
    /// what SQL cannot compute (v4's name keys, `Lookup.key`).
    var fill: (@Sendable (Connection) throws -> Void)? = nil
    /// Whether `fill` drops and creates tables again (v5): `migrate` then runs the chain with
    /// the foreign keys off and checks that no reference was broken before the commit.
    var rebuildsTables = false

    init(
      name: String, sql: @autoclosure @escaping @Sendable () -> String,
      fill: (@Sendable (Connection) throws -> Void)? = nil, rebuildsTables: Bool = false
    ) {
      self.name = name
      makeSQL = sql
      self.fill = fill
      self.rebuildsTables = rebuildsTables
    }

    /// The step's SQL.
    var sql: String { makeSQL() }
  }

  /// The schema version this code writes: the number of migrations.
  static var currentVersion: Int { migrations.count }

  static let migrations: [Migration] = [
    Migration(name: "v1-library", sql: v1),
    Migration(name: "v2-history", sql: v2),
    Migration(name: "v3-time-ranges", sql: v3),
    Migration(name: "v4-name-keys", sql: v4, fill: fillNameKeys),
    Migration(name: "v5-tools-and-mass-units", sql: v5, fill: v5WidenUnits, rebuildsTables: true),
    Migration(
      name: "v6-stash-and-project-details", sql: v6StashAndProjectDetails,
      fill: rewriteStashedSteps),
    Migration(name: "v7-compact-history-triggers", sql: v7CompactHistoryTriggers),
  ]

  // Conventions of the tables:
  // - `seq INTEGER PRIMARY KEY` is the rowid; rows are listed by it, so lists come back in
  //   creation order (an explicit INTEGER PRIMARY KEY is never renumbered by VACUUM).
  // - `id` is the model's identifier, unique, the target of foreign keys.
  // - Instants are INTEGER Unix seconds (UTC), truncated to whole seconds on write.
  // - Days (`CalendarDate`) are TEXT `YYYY-MM-DD`.
  // - An `Amount` is two columns, a REAL value and a TEXT unit token, both NULL or neither.
  // - A CHECK's list of allowed values is an OR of equalities (`oneOf`), never `IN (…)`.

  /// `(column = 'a' OR column = 'b' OR …)`: the rule of `column IN ('a', 'b', …)`, and NULL
  /// passes a CHECK of it alike (the OR of unknowns is unknown, which a CHECK lets through).
  /// SQLite evaluates an IN-list of more than two constants by building an ephemeral table,
  /// for every row it checks; the ORs are plain comparisons (measured in bench/README.md,
  /// step 17). Every list of values in a CHECK is written so, the two-value ones too, so that
  /// the schema has one form.
  private static func oneOf(_ column: String, _ values: [String]) -> String {
    "(" + values.map { "\(column) = \($0)" }.joined(separator: " OR ") + ")"
  }

  /// The unit tokens of v1's CHECKs; v5 adds `unitsAddedInV5` to each of them.
  private static let units = ["'skein'", "'g'", "'oz'", "'yd'", "'m'"]
  private static let crafts = [
    "'knitting'", "'crochet'", "'weaving'", "'spinning'", "'embroidery'", "'other'",
  ]
  private static let statuses = [
    "'planned'", "'in-progress'", "'finished'", "'frogged'", "'hibernating'",
  ]
  private static let day = "GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'"

  private static func amount(_ name: String, notNull: Bool = false) -> String {
    if notNull {
      return """
          \(name)_value REAL NOT NULL,
          \(name)_unit TEXT NOT NULL CHECK \(oneOf("\(name)_unit", units))
        """
    }
    // A column CHECK may name other columns in SQLite; it keeps the pair rule beside the pair.
    return """
        \(name)_value REAL,
        \(name)_unit TEXT CHECK \(oneOf("\(name)_unit", units))
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
      is_stashed INTEGER NOT NULL CHECK \(oneOf("is_stashed", ["0", "1"]))
    );

    CREATE TABLE project (
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
      role TEXT NOT NULL CHECK \(oneOf("role", ["'photo'", "'pattern'"])),
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

extension Schema {
  /// The tables of items whose changes the history records, each with its columns in the
  /// order of `v1` and the columns that find one row (the primary key: `seq`, or a usage's
  /// project and position). A migration that adds a column must drop and create the table's
  /// history triggers again with the new list (`compactHistoryTriggers` since v7;
  /// `StoreSchemaTests` compares these lists with the tables), as v4 does for `name_key` and
  /// v6 for the details. The lists are in the
  /// order of the tables' columns: v1's, then each added column in the order it was added
  /// (v6 dropped `is_stashed`); v5's tables last.
  static let recordedTables: [(table: String, key: [String], columns: [String])] =
    [
      (
        "yarn", ["seq"],
        [
          "seq", "id", "name", "brand", "colorway", "color_family", "dye_lot", "weight", "fiber",
          "length_per_skein_value", "length_per_skein_unit", "net_weight_per_skein_value",
          "net_weight_per_skein_unit", "quantity_value", "quantity_unit", "remaining_value",
          "remaining_unit", "purchase_location", "date_added", "name_key", "status",
          "price_minor", "price_currency", "stored_in", "tags",
        ]
      ),
      (
        "project", ["seq"],
        [
          "seq", "id", "name", "craft", "status", "has_pattern", "pattern_name", "pattern_url",
          "started", "finished", "name_key", "gauge_stitches", "gauge_rows", "gauge_length",
          "gauge_unit", "size_made", "made_for", "tags",
        ]
      ),
    ] + recordedTablesV4.filter { $0.table != "yarn" && $0.table != "project" } + [
      (
        "tool", ["seq"],
        [
          "seq", "id", "name", "kind", "size_mm", "length_cm", "material", "count", "name_key",
        ]
      ),
      ("project_tool", ["project_id", "tool_id"], ["project_id", "tool_id"]),
      ("project_needle", ["project_id", "position"], ["project_id", "position", "size_mm"]),
    ]

  /// The lists as they were at v4 (with `is_stashed`, before v6's columns), for the
  /// triggers v2 and v4 created.
  private static let recordedTablesV4: [(table: String, key: [String], columns: [String])] = [
    (
      "yarn", ["seq"],
      [
        "seq", "id", "name", "brand", "colorway", "color_family", "dye_lot", "weight", "fiber",
        "length_per_skein_value", "length_per_skein_unit", "net_weight_per_skein_value",
        "net_weight_per_skein_unit", "quantity_value", "quantity_unit", "remaining_value",
        "remaining_unit", "purchase_location", "date_added", "is_stashed", "name_key",
      ]
    ),
    (
      "project", ["seq"],
      [
        "seq", "id", "name", "craft", "status", "has_pattern", "pattern_name", "pattern_url",
        "started", "finished", "name_key",
      ]
    ),
    (
      "yarn_usage", ["project_id", "position"],
      ["project_id", "position", "yarn_id", "amount_value", "amount_unit"]
    ),
    ("note", ["seq"], ["seq", "id", "yarn_id", "project_id", "text", "created", "modified"]),
    ("time_session", ["seq"], ["seq", "id", "project_id", "start_time", "end_time", "note"]),
    (
      "attachment", ["seq"],
      [
        "seq", "yarn_id", "project_id", "role", "position", "sha256", "file_name", "media_type",
        "byte_count",
      ]
    ),
  ]

  // The undo history (`LibraryStore+History.swift`), after sqlite.org/undoredo.html: a
  // trigger on every insert, update and delete of an item's row writes the SQL statement that
  // reverses it (`history_step.sql`, its values written by `quote()`, which keeps a REAL's
  // every bit). While a write transaction is open its steps have no change yet (`change` is
  // NULL); just before the commit the store gathers them into one `history_change`. Undoing a
  // change runs its steps' statements newest first; the triggers record what reverses those,
  // which becomes the change's redo. A row in `history_pause` (only ever inside the
  // transaction of a `backup restore --replace`) turns the triggers off.
  // - `stack`: `undo` (a change `yarn undo` can reverse), `redo` (an undone change `yarn redo`
  //   can make again), `barrier` (a change that cannot be undone; nothing older is kept).
  // - `made`: when the change was first made, Unix seconds (UTC); `label`: what made it (the
  //   CLI's command line), possibly empty; `detail`: for a barrier, why it cannot be undone.
  // - `item`, `action`: the table of the row (an attachment's role) and what the change did
  //   to it (`insert`, `update`, `delete`); `row`: which row it is (an ID; a usage's project
  //   and position; an attachment's owner, role and position). For the summary, where a row
  //   removed and added again in one change counts as changed.
  // - `sha256`: the attachment file the row names, so that a file only history refers to is
  //   kept until history drops it.
  private static var v2: String {
    var sql = """
      CREATE TABLE history_change (
        seq INTEGER PRIMARY KEY,
        stack TEXT NOT NULL CHECK \(oneOf("stack", ["'undo'", "'redo'", "'barrier'"])),
        made INTEGER NOT NULL,
        label TEXT NOT NULL,
        detail TEXT
      );
      CREATE TABLE history_step (
        seq INTEGER PRIMARY KEY,
        change INTEGER REFERENCES history_change (seq) ON DELETE CASCADE,
        item TEXT NOT NULL,
        action TEXT NOT NULL CHECK \(oneOf("action", ["'insert'", "'update'", "'delete'"])),
        sha256 TEXT,
        row TEXT NOT NULL,
        sql TEXT NOT NULL
      );
      CREATE INDEX history_step_by_change ON history_step (change);
      CREATE INDEX history_step_by_digest ON history_step (sha256) WHERE sha256 IS NOT NULL;
      CREATE TABLE history_pause (one INTEGER PRIMARY KEY CHECK (one = 1));

      """
    // As the tables were at v2: without the columns later migrations added (and whose
    // migrations created these triggers again).
    for (table, key, columns) in recordedTablesV4 {
      sql += historyTriggers(table, key: key, columns: columns.filter { $0 != "name_key" })
    }
    return sql
  }

  /// The three triggers that record the history of `table`'s rows (`history_<table>_insert`,
  /// `_update`, `_delete`), each statement followed by a line break, in the form of v2–v6
  /// (v7 writes them again as `compactHistoryTriggers`, which later migrations use).
  private static func historyTriggers(_ table: String, key: [String], columns: [String])
    -> String
  {
    func values(_ row: String) -> String {
      columns.map { "quote(\(row).\($0))" }.joined(separator: " || ', ' || ")
    }
    func assignments(_ row: String) -> String {
      columns.enumerated().map { index, column in
        "'\(index == 0 ? "" : ", ")\(column) = ' || quote(\(row).\(column))"
      }.joined(separator: " || ")
    }
    func whereKey(_ row: String) -> String {
      "' WHERE ' || "
        + key.enumerated().map { index, column in
          "'\(index == 0 ? "" : " AND ")\(column) = ' || quote(\(row).\(column))"
        }.joined(separator: " || ")
    }
    let list = columns.joined(separator: ", ")
    let reverse = [
      ("insert", "NEW", "'DELETE FROM \(table)' || \(whereKey("NEW"))"),
      ("delete", "OLD", "'INSERT INTO \(table) (\(list)) VALUES (' || \(values("OLD")) || ')'"),
      ("update", "OLD", "'UPDATE \(table) SET ' || \(assignments("OLD")) || \(whereKey("NEW"))"),
    ]
    // An update that changes no value is not recorded.
    let changed = columns.map { "OLD.\($0) IS NOT NEW.\($0)" }.joined(separator: " OR ")
    return historyTriggerTexts(table, reverse, changed: "(\(changed))")
  }

  /// The three history triggers of `table` from their reverse statements (`insert`/`NEW`,
  /// `delete`/`OLD`, `update`/`OLD`, each an SQL expression giving the statement's text) and
  /// the condition under which an update is recorded: the one skeleton of both forms.
  /// The SQL expression of which row of `table` the row `row` (`NEW`, `OLD`, or an alias) is
  /// to people, as the history's steps record it (`history_step.row`): an item's ID; a
  /// usage's project and position; an attachment's owner, role and position (a row written
  /// again keeps it).
  static func historyRowName(_ table: String, _ row: String) -> String {
    switch table {
    case "yarn_usage", "project_needle": "\(row).project_id || '/' || \(row).position"
    case "project_tool": "\(row).project_id || '/' || \(row).tool_id"
    case "attachment":
      "coalesce(\(row).yarn_id, \(row).project_id) || '/' || \(row).role || '/' || \(row).position"
    default: "\(row).id"
    }
  }

  private static func historyTriggerTexts(
    _ table: String, _ reverse: [(action: String, row: String, statement: String)], changed: String
  ) -> String {
    // An attachment's row is named by its role (`photo`, `pattern`), and carries its file.
    func item(_ row: String) -> String { table == "attachment" ? "\(row).role" : "'\(table)'" }
    func digest(_ row: String) -> String { table == "attachment" ? "\(row).sha256" : "NULL" }
    func rowName(_ row: String) -> String { historyRowName(table, row) }
    var sql = ""
    for (action, row, statement) in reverse {
      sql += """
        CREATE TRIGGER history_\(table)_\(action) AFTER \(action.uppercased()) ON \(table)
        WHEN NOT EXISTS (SELECT 1 FROM history_pause)\(action == "update" ? " AND \(changed)" : "")
        BEGIN
          INSERT INTO history_step (item, action, sha256, row, sql)
          VALUES (\(item(row)), '\(action)', \(digest(row)), \(rowName(row)), \(statement));
        END;

        """
    }
    return sql
  }
}

extension Schema {
  // Indexes that let a range of time cost what it holds (issue 13):
  // - `time_session_by_length`: `max(end_time - start_time)` is read from its last entry, so
  //   the longest closed session bounds how long before a range's start a session that still
  //   reaches into the range can have started; the range is then read through
  //   `time_session_by_start` from that bound (`LibraryStore.forEachSession`). A running
  //   session's length is NULL, which sorts first and never is the max.
  // - `project_by_finished`: the projects finished in a year (`summary --year`), without
  //   reading the others.
  private static let v3 = """
    CREATE INDEX time_session_by_length ON time_session ((end_time - start_time));
    CREATE INDEX project_by_finished ON project (finished) WHERE status = 'finished';
    """
}

extension Schema {
  // Finding a yarn or a project by what a person types (`Lookup.find`, issue 13) by index:
  // - `name_key`: the name as `Lookup.find` compares it (`Lookup.key`: trimmed, lower-cased,
  //   NFC), computed in Swift, so never by SQL: the store writes it with the name
  //   (`LibraryStore.insert`, `update`), the migration's step in Swift (`fillNameKeys`)
  //   computes it for the rows already there, and the store computes it again for the rows
  //   an undo, a redo or a writer other than yarn changed (`refreshNameKeys`). NULL only in
  //   a row a writer other than yarn added, until then. `yarn_by_name_key` and
  //   `project_by_name_key` find an exact key, and a range of keys for a name prefix.
  // - `…_by_id_nocase`: IDs that begin with a reference, ASCII case aside (a range under
  //   NOCASE); `…_with_wide_id`: the few IDs with a character outside ASCII, whose Unicode
  //   case NOCASE does not fold, taken as candidates always.
  // The history triggers of `yarn` and `project` are created again with `name_key` in their
  // lists (`recordedTables`): an undo gives the key back with the name.
  private static var v4: String {
    var sql = """
      ALTER TABLE yarn ADD COLUMN name_key TEXT;
      ALTER TABLE project ADD COLUMN name_key TEXT;

      """
    for (table, key, columns) in recordedTablesV4 where table == "yarn" || table == "project" {
      sql += """
        DROP TRIGGER history_\(table)_insert;
        DROP TRIGGER history_\(table)_delete;
        DROP TRIGGER history_\(table)_update;

        """
      sql += historyTriggers(table, key: key, columns: columns)
      sql += """
        CREATE INDEX \(table)_by_name_key ON \(table) (name_key);
        CREATE INDEX \(table)_by_id_nocase ON \(table) (id COLLATE NOCASE);
        CREATE INDEX \(table)_with_wide_id ON \(table) (seq) WHERE \(wideID);

        """
    }
    return sql
  }

  /// True for an ID with a character outside ASCII (longer in bytes than in characters): the
  /// condition of the partial indexes `yarn_with_wide_id` and `project_with_wide_id`, which a
  /// query must repeat word for word for SQLite to use them.
  static let wideID = "length(CAST(id AS BLOB)) <> length(id)"

  /// v4's step in Swift: the key of every yarn's and project's name, not recorded in the
  /// history (the keys of an upgraded library are not a change to undo).
  private static func fillNameKeys(_ connection: Connection) throws {
    try connection.execute("INSERT INTO history_pause (one) VALUES (1)")
    for table in ["yarn", "project"] {
      try refreshNameKeys(connection, table: table, rows: "1")
    }
    try connection.execute("DELETE FROM history_pause")
  }

  /// Writes `Lookup.key(name)` into `name_key` of the rows of `table` that `rows` (an SQL
  /// condition on the table, with `?` bound to `arguments`) selects, where it differs.
  static func refreshNameKeys(
    _ connection: Connection, table: String, rows: String, _ arguments: [SQLValue] = []
  ) throws {
    let stale = try connection.query(
      "SELECT seq, name, name_key FROM \(table) WHERE \(rows)", arguments
    ) { row -> (seq: Int64, key: String)? in
      let key = Lookup.key(row.text(1) ?? "")
      return row.text(2) == key ? nil : (row.int64(0), key)
    }.compactMap { $0 }
    for (seq, key) in stale {
      try connection.run(
        "UPDATE \(table) SET name_key = ? WHERE seq = ?", [.text(key), .integer(seq)])
    }
  }
}

extension Schema {
  /// The unit tokens v5 allows in every unit column besides v1's: kilograms and pounds.
  private static let unitsAddedInV5 = ["'kg'", "'lb'"]
  /// The tables v5 creates, with their history triggers.
  private static let tablesAddedInV5: Set<String> = ["tool", "project_tool", "project_needle"]
  /// The tool kinds (`ToolKind`), WEFT's `tool_type` words for needles, and `hook`.
  private static let toolKinds = [
    "'straight'", "'circular'", "'dpn'", "'interchangeable'", "'cable'", "'hook'",
  ]

  // Needles and hooks (issue 14):
  // - `tool`: one entry of the inventory (`Tool`): its kind, its size in millimetres (NULL
  //   for a cable, which has none), its length in centimetres, what it is made of, how many
  //   of it there are; `name_key` as for yarns and projects (`Lookup.key`).
  // - `project_tool`: the tools a project uses. A tool in use cannot be deleted (RESTRICT):
  //   `tool rm --force` removes it from its projects first, as `stash rm` does with usages.
  // - `project_needle`: the needle or hook sizes a project calls for, in millimetres, in the
  //   order given.
  // The unit columns of `yarn` and `yarn_usage` also take `kg` and `lb`: their CHECKs are
  // widened by rebuilding the two tables (`v5WidenUnits`).
  private static var v5: String {
    var sql = """
      CREATE TABLE tool (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        kind TEXT NOT NULL CHECK \(oneOf("kind", toolKinds)),
        size_mm REAL CHECK (size_mm > 0 AND size_mm <= 100),
        length_cm REAL CHECK (length_cm > 0 AND length_cm <= 1000),
        material TEXT,
        count INTEGER NOT NULL CHECK (count >= 1),
        name_key TEXT,
        CHECK (size_mm IS NOT NULL OR kind = 'cable')
      );
      CREATE INDEX tool_by_name_key ON tool (name_key);
      CREATE INDEX tool_by_id_nocase ON tool (id COLLATE NOCASE);
      CREATE INDEX tool_with_wide_id ON tool (seq) WHERE \(wideID);

      CREATE TABLE project_tool (
        project_id TEXT NOT NULL REFERENCES project (id) ON DELETE CASCADE ON UPDATE CASCADE,
        tool_id TEXT NOT NULL REFERENCES tool (id) ON DELETE RESTRICT ON UPDATE CASCADE,
        PRIMARY KEY (project_id, tool_id)
      ) WITHOUT ROWID;
      CREATE INDEX project_tool_by_tool ON project_tool (tool_id);

      CREATE TABLE project_needle (
        project_id TEXT NOT NULL REFERENCES project (id) ON DELETE CASCADE ON UPDATE CASCADE,
        position INTEGER NOT NULL CHECK (position >= 0),
        size_mm REAL NOT NULL CHECK (size_mm > 0 AND size_mm <= 100),
        PRIMARY KEY (project_id, position)
      ) WITHOUT ROWID;

      """
    for (table, key, columns) in recordedTables where tablesAddedInV5.contains(table) {
      sql += historyTriggers(table, key: key, columns: columns)
    }
    return sql
  }
}

extension Schema {
  /// The tokens of `StashStatus`, for v6's CHECK.
  private static let stashStatuses = StashStatus.allCases.map { "'\($0.rawValue)'" }

  // The details of issue 14 (items 2 and 3):
  // - `yarn.status` (`StashStatus`) replaces `is_stashed`: 1 becomes `in-stash`, 0 `used-up`
  //   (docs/FORMAT.md), and `is_stashed` is dropped (SQLite 3.35's DROP COLUMN; its own CHECK
  //   goes with it).
  // - `yarn.price_minor` (INTEGER, the amount in the currency's minor units: exact) and
  //   `price_currency` (three upper-case letters), both NULL or neither; `stored_in`.
  // - `project.gauge_stitches`, `gauge_rows` (NULL when not given), `gauge_length` (REAL, more
  //   than 0) and `gauge_unit` (`cm` or `in`): stitches, length and unit all NULL or none;
  //   `size_made`, `made_for`.
  // - `tags` of a yarn and of a project: the tags joined by a line feed (U+000A, which a tag
  //   cannot hold: `Rules.tags`), NULL for none. A column, not a table of tags: the tags are
  //   read and written with their item, and the item's history triggers record them, so an
  //   undo gives them back with the rest of the row.
  // The history triggers of `yarn` and `project` are created again with the new lists. Undo
  // and redo steps recorded before name `is_stashed`, which no longer exists: the step in
  // Swift (`rewriteStashedSteps`) writes them again with `status` instead, so that the history
  // of an upgraded library still undoes.
  private static var v6StashAndProjectDetails: String {
    var sql = ""
    for table in ["yarn", "project"] {
      sql += """
        DROP TRIGGER history_\(table)_insert;
        DROP TRIGGER history_\(table)_delete;
        DROP TRIGGER history_\(table)_update;

        """
    }
    sql += """
      ALTER TABLE yarn ADD COLUMN status TEXT NOT NULL DEFAULT 'in-stash'
        CHECK \(oneOf("status", stashStatuses));
      UPDATE yarn SET status = 'used-up' WHERE is_stashed = 0;
      ALTER TABLE yarn DROP COLUMN is_stashed;
      ALTER TABLE yarn ADD COLUMN price_minor INTEGER CHECK (price_minor >= 0);
      ALTER TABLE yarn ADD COLUMN price_currency TEXT
        CHECK (length(price_currency) = 3 AND price_currency NOT GLOB '*[^A-Z]*')
        CHECK ((price_minor IS NULL) = (price_currency IS NULL));
      ALTER TABLE yarn ADD COLUMN stored_in TEXT;
      ALTER TABLE yarn ADD COLUMN tags TEXT;
      ALTER TABLE project ADD COLUMN gauge_stitches REAL CHECK (gauge_stitches > 0);
      ALTER TABLE project ADD COLUMN gauge_rows REAL CHECK (gauge_rows > 0);
      ALTER TABLE project ADD COLUMN gauge_length REAL CHECK (gauge_length > 0);
      ALTER TABLE project ADD COLUMN gauge_unit TEXT CHECK \(oneOf("gauge_unit", ["'cm'", "'in'"]))
        CHECK ((gauge_stitches IS NULL) = (gauge_unit IS NULL)
          AND (gauge_length IS NULL) = (gauge_unit IS NULL)
          AND (gauge_rows IS NULL OR gauge_unit IS NOT NULL));
      ALTER TABLE project ADD COLUMN size_made TEXT;
      ALTER TABLE project ADD COLUMN made_for TEXT;
      ALTER TABLE project ADD COLUMN tags TEXT;

      """
    for (table, key, columns) in recordedTables where table == "yarn" || table == "project" {
      sql += historyTriggers(table, key: key, columns: columns)
    }
    return sql
  }

  /// v5's step in Swift: `kg` and `lb` join the allowed units of every unit column of `yarn`
  /// and `yarn_usage`. SQLite cannot change a CHECK in place, so each table is made again
  /// from its own `CREATE TABLE` text with the unit lists widened (whatever columns other
  /// migrations added), its rows copied as they are (`seq` and all), the old table dropped
  /// and the new one renamed; its indexes and triggers (the history's) are then created
  /// again from their own text. The history records none of it (dropping a table fires no
  /// trigger; the copy goes into a table without triggers).
  private static func v5WidenUnits(_ connection: Connection) throws {
    for table in ["yarn", "yarn_usage"] {
      let objects = try connection.query(
        "SELECT type, name, sql FROM sqlite_schema WHERE tbl_name = ? AND sql IS NOT NULL",
        [.text(table)]
      ) { (type: $0.text(0) ?? "", name: $0.text(1) ?? "", sql: $0.text(2) ?? "") }
      guard let create = objects.first(where: { $0.type == "table" && $0.name == table })
      else { throw DatabaseError(extendedCode: 1, message: "no table \(table) to widen") }
      var sql = create.sql
      let prefix = "CREATE TABLE \(table) ("
      guard sql.hasPrefix(prefix) else {
        throw DatabaseError(extendedCode: 1, message: "table \(table) is not as v1 made it")
      }
      sql = "CREATE TABLE new_\(table) (" + sql.dropFirst(prefix.count)
      // Each unit list ends with `<column>_unit = 'm')` (`oneOf` over v1's `units`).
      var widened = 0
      for column in ["length_per_skein", "net_weight_per_skein", "quantity", "remaining", "amount"] {
        let unit = "\(column)_unit"
        let end = "\(unit) = 'm')"
        guard sql.contains(end) else { continue }
        let more = unitsAddedInV5.map { " OR \(unit) = \($0)" }.joined()
        sql = sql.replacing(end, with: "\(unit) = 'm'\(more))")
        widened += 1
      }
      guard widened == (table == "yarn" ? 4 : 1) else {
        throw DatabaseError(extendedCode: 1, message: "the unit columns of \(table) are not as v1 made them")
      }
      try connection.execute(sql)
      try connection.execute("INSERT INTO new_\(table) SELECT * FROM \(table)")
      try connection.execute("DROP TABLE \(table)")
      try connection.execute("ALTER TABLE new_\(table) RENAME TO \(table)")
      for object in objects where object.type == "index" || object.type == "trigger" {
        try connection.execute(object.sql)
      }
    }
  }
}

extension Schema {
  /// v6's step in Swift: every history statement on `yarn` that names `is_stashed` (an
  /// `UPDATE yarn SET …, is_stashed = 1, …` or an `INSERT INTO yarn (…, is_stashed, …) VALUES
  /// (…)`, as the v2 and v4 triggers wrote them) is written again with `status` and its token
  /// (1 → `in-stash`, 0 → `used-up`), every other value as it was.
  private static func rewriteStashedSteps(_ connection: Connection) throws {
    let steps = try connection.query(
      "SELECT seq, sql FROM history_step WHERE item = 'yarn' AND action <> 'insert'"
    ) { ($0.int64(0), $0.text(1) ?? "") }
    for (seq, sql) in steps {
      guard let rewritten = replacingStashed(in: sql), rewritten != sql else { continue }
      try connection.run(
        "UPDATE history_step SET sql = ? WHERE seq = ?", [.text(rewritten), .integer(seq)])
    }
  }

  /// `sql` (a statement of the history triggers) with `is_stashed` and its value replaced by
  /// `status` and its token; `nil` when it has no such column or a shape not understood.
  /// Values are SQL literals as `quote()` writes them: `NULL`, numbers, `'text'` (a quote
  /// doubled inside), `X'…'`; commas and words inside quotes are not looked at.
  static func replacingStashed(in sql: String) -> String? {
    func trim(_ text: Substring) -> Substring {
      text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed().reduce(into: "") { $0.append($1) }[...]
    }
    func token(_ value: Substring) -> String? {
      switch trim(value) {
      case "1": "'in-stash'"
      case "0": "'used-up'"
      default: nil
      }
    }
    // The top-level pieces of `text` split at commas outside quotes.
    func pieces(_ text: Substring) -> [Substring] {
      var out: [Substring] = []
      var start = text.startIndex
      var quoted = false
      var index = text.startIndex
      while index < text.endIndex {
        let character = text[index]
        if character == "'" {
          quoted.toggle()
        } else if character == ",", !quoted {
          out.append(text[start..<index])
          start = text.index(after: index)
        }
        index = text.index(after: index)
      }
      out.append(text[start...])
      return out
    }
    if sql.hasPrefix("UPDATE yarn SET ") {
      // `UPDATE yarn SET a = v, b = v … WHERE seq = n`: the WHERE is after the last quote.
      let body = sql.dropFirst("UPDATE yarn SET ".count)
      guard let whereRange = body.ranges(of: " WHERE seq = ").last else { return nil }
      var parts = pieces(body[..<whereRange.lowerBound])
      guard
        let index = parts.firstIndex(where: {
          trim($0).hasPrefix("is_stashed = ")
        })
      else { return nil }
      let value = trim(parts[index]).dropFirst("is_stashed = ".count)
      guard let status = token(value) else { return nil }
      parts[index] = Substring((index == 0 ? "" : " ") + "status = " + status)
      return "UPDATE yarn SET " + parts.joined(separator: ",") + String(body[whereRange.lowerBound...])
    }
    if sql.hasPrefix("INSERT INTO yarn (") {
      guard let close = sql.firstRange(of: ") VALUES ("), sql.hasSuffix(")") else { return nil }
      let columnText = sql[sql.index(sql.startIndex, offsetBy: "INSERT INTO yarn (".count)..<close.lowerBound]
      var columns = columnText.split(separator: ",").map { String(trim($0)) }
      guard let index = columns.firstIndex(of: "is_stashed") else { return nil }
      var values = pieces(sql[close.upperBound..<sql.index(before: sql.endIndex)])
      guard values.count == columns.count, let status = token(values[index]) else { return nil }
      columns[index] = "status"
      values[index] = Substring((index == 0 ? "" : " ") + status)
      return "INSERT INTO yarn (" + columns.joined(separator: ", ") + ") VALUES ("
        + values.joined(separator: ",") + ")"
    }
    return nil
  }
}

extension Schema {
  // The same history triggers in fewer words (issue 13, start-up): SQLite parses every
  // trigger's text each time a library is opened, and the history's 27 triggers were three
  // quarters of the schema's text and 4.6 M of the 7.6 M instructions of `yarn time status`
  // (bench/README.md). Each trigger records exactly the statement its v2–v6 form recorded,
  // written with fewer terms to parse:
  // - a statement's text is one `format()` of one literal with a `%s` for each `quote()`d
  //   value, in place of a literal and two `||` per column (the insert's `DELETE`, with one
  //   or two values, is a literal and a `||` per value);
  // - "an update that changes no value is not recorded" is one row-value comparison,
  //   `(OLD.a, OLD.b, …) IS NOT (NEW.a, NEW.b, …)`, which SQLite defines as the OR of the
  //   columns' `IS NOT` (sqlite.org/rowvalue.html), in place of that OR written out.
  // `format('%s', quote(x))` is `quote(x)`: quote() never yields a NUL, where format's `%s`
  // would stop. `HistoryTriggerFormTests` checks that both forms record the same steps.
  // Like v6, it takes the column lists of `recordedTables`: a later migration that adds a
  // column drops its table's triggers first (SQLite checks a trigger's columns only when a
  // statement fires it) and creates them again with `compactHistoryTriggers`.
  private static var v7CompactHistoryTriggers: String {
    var sql = ""
    for (table, key, columns) in recordedTables {
      sql += """
        DROP TRIGGER history_\(table)_insert;
        DROP TRIGGER history_\(table)_delete;
        DROP TRIGGER history_\(table)_update;

        """
      sql += compactHistoryTriggers(table, key: key, columns: columns)
    }
    return sql
  }

  /// The three triggers that record the history of `table`'s rows, in v7's form (see
  /// `v7CompactHistoryTriggers`); a later migration that adds a column creates its table's
  /// triggers again with this.
  static func compactHistoryTriggers(_ table: String, key: [String], columns: [String])
    -> String
  {
    func quoted(_ row: String, _ names: [String]) -> String {
      names.map { "quote(\(row).\($0))" }.joined(separator: ", ")
    }
    let keyText = key.map { "\($0) = %s" }.joined(separator: " AND ")
    // `DELETE FROM t WHERE a = ' || quote(NEW.a) || ' AND b = ' || quote(NEW.b)`.
    let deleteRow =
      "'DELETE FROM \(table) WHERE "
      + key.enumerated().map { index, column in
        "\(index == 0 ? "" : "' AND ")\(column) = ' || quote(NEW.\(column))"
      }.joined(separator: " || ")
    let insertRow =
      "format('INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES ("
      + Array(repeating: "%s", count: columns.count).joined(separator: ", ") + ")', "
      + quoted("OLD", columns) + ")"
    let updateRow =
      "format('UPDATE \(table) SET "
      + columns.map { "\($0) = %s" }.joined(separator: ", ") + " WHERE \(keyText)', "
      + quoted("OLD", columns) + ", " + quoted("NEW", key) + ")"
    let changed =
      columns.count == 1
      ? "OLD.\(columns[0]) IS NOT NEW.\(columns[0])"
      : "(" + columns.map { "OLD.\($0)" }.joined(separator: ", ") + ") IS NOT ("
        + columns.map { "NEW.\($0)" }.joined(separator: ", ") + ")"
    return historyTriggerTexts(
      table, [("insert", "NEW", deleteRow), ("delete", "OLD", insertRow), ("update", "OLD", updateRow)],
      changed: changed)
  }
}
