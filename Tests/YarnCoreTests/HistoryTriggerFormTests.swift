import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

/// v7 (`v7-compact-history-triggers`) writes the undo history's triggers again in fewer
/// words: they must record exactly the steps the v2–v6 triggers recorded, and a version 6
/// library must upgrade with its history still undoing.
@Suite struct HistoryTriggerFormTests {
  /// SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE.
  private static let createFlags: Int32 = 0x2 | 0x4

  /// A database file `name` in `directory` with the first `version` migrations.
  private static func database(_ name: String, in directory: URL, version: Int) throws
    -> Connection
  {
    let db = try Connection(
      path: directory.appendingPathComponent(name).path, flags: createFlags)
    try LibraryStore.migrate(db, migrations: Array(Schema.migrations.prefix(version)))
    return db
  }

  /// Writes on every table of items, as another writer could (the triggers record them all):
  /// values that only survive exact quoting (0.1 + 0.2, 1e-300, quotes, a percent sign, a line
  /// feed, a NUL inside a text, a blob in a TEXT column), updates that change nothing (not
  /// recorded), updates of a key (the statement finds the row by its new key), deletes.
  private static let writes = """
    INSERT INTO yarn (id, name, name_key, status, weight, length_per_skein_value,
      length_per_skein_unit, price_minor, price_currency, tags)
      VALUES ('y-1', 'It''s 100% wool', 'it''s 100% wool', 'in-stash', 4, 0.1, 'm', 1250,
        'EUR', 'a' || char(10) || 'b');
    INSERT INTO yarn (id, name, status) VALUES ('y-2', 'Plain', 'in-stash');
    UPDATE yarn SET remaining_value = 1e-300, remaining_unit = 'g', fiber = X'00FF'
      WHERE id = 'y-1';
    UPDATE yarn SET name = name WHERE id = 'y-2';
    UPDATE yarn SET weight = 4.0 WHERE id = 'y-1';
    UPDATE yarn SET seq = 10 WHERE id = 'y-2';
    INSERT INTO project (id, name, status, has_pattern, name_key, gauge_stitches, gauge_length,
      gauge_unit) VALUES ('p-1', 'Hat', 'planned', 0, 'hat', 22.5, 10, 'cm');
    UPDATE project SET status = 'in-progress', started = '2026-03-14' WHERE id = 'p-1';
    INSERT INTO yarn_usage (project_id, position, yarn_id, amount_value, amount_unit)
      VALUES ('p-1', 0, 'y-1', 50.25, 'g');
    UPDATE yarn_usage SET position = 1, amount_value = 0.1 + 0.2 WHERE project_id = 'p-1';
    INSERT INTO note (id, yarn_id, text, created, modified)
      VALUES ('n-1', 'y-1', 'soft; ''said'' ' || char(0) || ' hidden', 0, 1);
    UPDATE note SET modified = 2 WHERE id = 'n-1';
    INSERT INTO time_session (id, project_id, start_time) VALUES ('s-1', 'p-1', 1700000000);
    UPDATE time_session SET end_time = 1700003600, note = 'rows 1-20' WHERE id = 's-1';
    INSERT INTO attachment (yarn_id, role, position, sha256, file_name, media_type, byte_count)
      VALUES ('y-1', 'photo', 0, printf('%064d', 7), 'a.jpg', 'image/jpeg', 123);
    INSERT INTO attachment (project_id, role, position, sha256, file_name, media_type,
      byte_count) VALUES ('p-1', 'pattern', 0, printf('%064d', 8), 'p.pdf', 'application/pdf', 9);
    UPDATE attachment SET file_name = 'b.jpg' WHERE yarn_id = 'y-1';
    INSERT INTO tool (id, name, kind, size_mm, count, name_key)
      VALUES ('t-1', 'Addi', 'circular', 3.25, 1, 'addi');
    UPDATE tool SET length_cm = 80, count = 2 WHERE id = 't-1';
    INSERT INTO project_tool (project_id, tool_id) VALUES ('p-1', 't-1');
    UPDATE project_tool SET tool_id = 't-1' WHERE project_id = 'p-1';
    INSERT INTO project_needle (project_id, position, size_mm) VALUES ('p-1', 0, 3.5);
    UPDATE project_needle SET size_mm = 4 WHERE project_id = 'p-1';
    DELETE FROM project_needle;
    DELETE FROM project_tool;
    DELETE FROM tool;
    DELETE FROM attachment;
    DELETE FROM time_session;
    DELETE FROM note;
    DELETE FROM yarn_usage;
    DELETE FROM project;
    DELETE FROM yarn;
    """

  private static func steps(_ db: Connection) throws -> [[String?]] {
    try db.query("SELECT item, action, sha256, row, sql FROM history_step ORDER BY seq") { row in
      (0..<5).map { row.text(Int32($0)) }
    }
  }

  @Test func theShortTriggersRecordWhatTheLongOnesDid() throws {
    try withTemporaryDirectory { dir in
      let long = try Self.database("v6.sqlite", in: dir, version: 6)
      defer { try? long.close() }
      let short = try Self.database("v7.sqlite", in: dir, version: 7)
      defer { try? short.close() }
      try long.execute(Self.writes)
      try short.execute(Self.writes)
      let recorded = try Self.steps(long)
      #expect(try Self.steps(short) == recorded)
      // By hand: 20 inserts and updates (of the 23, two change nothing and one stores the
      // same value, 4.0 in an INTEGER column being 4: not recorded) and 11 rows deleted.
      #expect(recorded.count == 31)
      let digest = String(repeating: "0", count: 63) + "7"
      let usageUpdate =
        "UPDATE yarn_usage SET project_id = 'p-1', position = 0, yarn_id = 'y-1', "
        + "amount_value = 50.25, amount_unit = 'g' WHERE project_id = 'p-1' AND position = 1"
      let needleInsert = "DELETE FROM project_needle WHERE project_id = 'p-1' AND position = 0"
      let yarnUpdate: String = [
        "UPDATE yarn SET seq = 2, id = 'y-2', name = 'Plain', brand = NULL, colorway = NULL, ",
        "color_family = NULL, dye_lot = NULL, weight = NULL, fiber = NULL, ",
        "length_per_skein_value = NULL, length_per_skein_unit = NULL, ",
        "net_weight_per_skein_value = NULL, net_weight_per_skein_unit = NULL, ",
        "quantity_value = NULL, quantity_unit = NULL, remaining_value = NULL, ",
        "remaining_unit = NULL, purchase_location = NULL, date_added = NULL, name_key = NULL, ",
        "status = 'in-stash', price_minor = NULL, price_currency = NULL, stored_in = NULL, ",
        "tags = NULL WHERE seq = 10",
      ].joined()
      let photoDelete: String = [
        "INSERT INTO attachment (seq, yarn_id, project_id, role, position, sha256, file_name, ",
        "media_type, byte_count) VALUES (1, 'y-1', NULL, 'photo', 0, '", digest,
        "', 'b.jpg', 'image/jpeg', 123)",
      ].joined()
      let expected: [[String?]] = [
        ["yarn_usage", "update", nil, "p-1/0", usageUpdate],
        ["project_needle", "insert", nil, "p-1/0", needleInsert],
        ["yarn", "update", nil, "y-2", yarnUpdate],
        ["photo", "delete", digest, "y-1/photo/0", photoDelete],
      ]
      for step in expected {
        #expect(recorded.contains(step), "\(step)")
      }
    }
  }

  /// A version 6 library with a change in its history: upgraded, its triggers are v7's, the
  /// old change still undoes and redoes, and a new change is recorded and undone.
  @Test func aVersion6LibraryUpgradesWithItsHistory() throws {
    try withTemporaryDirectory { root in
      let raw = try Self.database("library.sqlite", in: root, version: 6)
      try raw.execute("PRAGMA journal_mode = WAL")
      try raw.execute(
        """
        INSERT INTO yarn (id, name, name_key, status) VALUES ('y-1', 'Rios', 'rios', 'in-stash');
        DELETE FROM history_step;
        UPDATE yarn SET name = 'Rios Azul', name_key = 'rios azul' WHERE id = 'y-1';
        INSERT INTO history_change (stack, made, label) VALUES ('undo', 0, 'rename');
        UPDATE history_step SET change = last_insert_rowid() WHERE change IS NULL;
        """)
      try raw.close()

      let store = try LibraryStore(directory: root, mode: .readWrite)
      defer { try? store.close() }
      #expect(try store.connection.integer("PRAGMA user_version") == 7)
      #expect(try store.connection.integer("SELECT count(*) FROM sqlite_master WHERE type = 'trigger'") == 27)
      #expect(
        try store.connection.integer(
          "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND sql LIKE '%) IS NOT (NEW.%'")
          == 9)
      #expect(try store.history().map(\.label) == ["rename"])
      try store.undo()
      #expect(try store.yarn(id: "y-1")?.name == "Rios")
      try store.redo()
      #expect(try store.yarn(id: "y-1")?.name == "Rios Azul")
      store.changeLabel = "add"
      try store.insert(Yarn(id: "y-2", name: "Wool"))
      #expect(try store.history().map(\.label) == ["add", "rename"])
      try store.undo()
      #expect(try store.yarns().map(\.id) == ["y-1"])
    }
  }
}
