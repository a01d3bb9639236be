import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

@Suite struct StoreSchemaTests {
  @Test func databaseIsConfiguredAsDesigned() throws {
    try withTemporaryDirectory { root in
      let store = try LibraryStore(directory: root, mode: .readWrite)
      func pragma(_ name: String) throws -> String? {
        try store.connection.query("PRAGMA \(name)") { $0.text(0) }.first ?? nil
      }
      #expect(try pragma("journal_mode") == "wal")
      #expect(try pragma("foreign_keys") == "1")
      #expect(try pragma("synchronous") == "2")  // FULL
      #expect(try pragma("busy_timeout") == "5000")
      #expect(try pragma("user_version") == "7")
      #expect(Schema.currentVersion == 7)
      #expect(LibraryStore.schemaVersion == 7)
      #expect(
        Schema.migrations.map(\.name) == [
          "v1-library", "v2-history", "v3-time-ranges", "v4-name-keys", "v5-tools-and-mass-units",
          "v6-stash-and-project-details", "v7-compact-history-triggers",
        ])
      let tables = try store.connection.query(
        "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
      ) { $0.text(0) ?? "" }
      #expect(
        tables == [
          "attachment", "history_change", "history_pause", "history_step", "note", "project",
          "project_needle", "project_tool", "time_session", "tool", "yarn", "yarn_usage",
        ])
      // Three triggers (insert, update, delete) for each of the nine tables of items.
      #expect(
        try store.connection.integer("SELECT count(*) FROM sqlite_master WHERE type = 'trigger'")
          == 27)
      #expect(
        FileManager.default.fileExists(atPath: root.appendingPathComponent("attachments").path))
    }
  }

  @Test func schemaItselfRefusesASecondRunningSession() throws {
    try withTemporaryDirectory { root in
      let store = try LibraryStore(directory: root, mode: .readWrite)
      try store.insert(Project(id: "p", name: "Socks"))
      try store.insert(TimeSession(id: "s1", projectID: "p", start: instant(100)))
      // Plain SQL, no Swift check on the way: the partial unique index refuses it.
      do {
        try store.connection.run(
          "INSERT INTO time_session (id, project_id, start_time, end_time) VALUES ('s2', 'p', 200, NULL)"
        )
        Issue.record("a second running session was stored")
      } catch let error as DatabaseError {
        #expect(error.extendedCode == 2067)  // SQLITE_CONSTRAINT_UNIQUE
        #expect(error.message.contains("one_running_session"))
      }
      // Finished sessions are not limited.
      try store.connection.run(
        "INSERT INTO time_session (id, project_id, start_time, end_time) VALUES ('s3', 'p', 1, 2)")
      try store.connection.run(
        "INSERT INTO time_session (id, project_id, start_time, end_time) VALUES ('s4', 'p', 1, 2)")
      // And the end-after-start rule is the schema's too (SQLITE_CONSTRAINT_CHECK = 275).
      do {
        try store.connection.run(
          "INSERT INTO time_session (id, project_id, start_time, end_time) VALUES ('s5', 'p', 9, 8)"
        )
        Issue.record("a session ending before its start was stored")
      } catch let error as DatabaseError {
        #expect(error.extendedCode == 275)
      }
    }
  }

  @Test func storeMapsTheIndexViolationToSessionAlreadyRunning() throws {
    try withTemporaryDirectory { root in
      let store = try LibraryStore(directory: root, mode: .readWrite)
      try store.insert(Project(id: "p", name: "Socks"))
      let first = TimeSession(id: "s1", projectID: "p", start: instant(100), note: "cuff")
      try store.insert(first)
      for attempt in [
        { try store.insert(TimeSession(id: "s2", projectID: "p", start: instant(200))) },
        {
          try store.insert(
            TimeSession(id: "s3", projectID: "p", start: instant(10), end: instant(20)))
          try store.update(TimeSession(id: "s3", projectID: "p", start: instant(10)))
        },
      ] {
        do {
          try attempt()
          Issue.record("a second running session was stored")
        } catch StoreError.sessionAlreadyRunning(let running) {
          #expect(running == first)
        }
      }
      #expect(try store.sessions().filter(\.isRunning) == [first])
      // Updating the running session itself is fine.
      try store.update(TimeSession(id: "s1", projectID: "p", start: instant(90), note: "cuff"))
      #expect(try store.runningSession()?.start == instant(90))
    }
  }

  @Test func anotherProcessWritingRawSQLIsRefusedByTheSchemaToo() throws {
    let sqlite = URL(fileURLWithPath: "/usr/bin/sqlite3")
    guard FileManager.default.isExecutableFile(atPath: sqlite.path) else { return }
    try withTemporaryDirectory { root in
      let store = try LibraryStore(directory: root, mode: .readWrite)
      try store.insert(Project(id: "p", name: "Socks"))
      try store.insert(TimeSession(id: "s1", projectID: "p", start: instant(100)))
      let process = Process()
      process.executableURL = sqlite
      process.arguments = [
        root.appendingPathComponent("library.sqlite").path,
        "INSERT INTO time_session (id, project_id, start_time) VALUES ('s2', 'p', 200);",
      ]
      let errors = Pipe()
      process.standardError = errors
      process.standardOutput = FileHandle.nullDevice
      try process.run()
      let message = String(
        decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      #expect(process.terminationStatus != 0)
      #expect(message.contains("UNIQUE constraint failed"))
      #expect(try store.sessions().map(\.id) == ["s1"])
    }
  }

  @Test func newerSchemaVersionIsRefused() throws {
    try withTemporaryDirectory { root in
      try LibraryStore(directory: root, mode: .readWrite).close()
      let path = root.appendingPathComponent("library.sqlite").path
      let raw = try Connection(path: path, flags: 0x2)  // SQLITE_OPEN_READWRITE
      try raw.execute("PRAGMA user_version = 8")
      try raw.close()
      for mode in [LibraryStore.Mode.readWrite, .readOnly] {
        do {
          _ = try LibraryStore(directory: root, mode: mode)
          Issue.record("a newer schema was opened in \(mode)")
        } catch StoreError.newerSchema(let found, let known) {
          #expect(found == 8)
          #expect(known == 7)
        }
      }
      #expect(
        String(describing: StoreError.newerSchema(found: 7, known: 1))
          == "the library's database has schema version 7, but this yarn knows only versions up to 1; use a newer yarn"
      )
      let reader = try Connection(path: path, flags: 0x1)  // SQLITE_OPEN_READONLY
      defer { try? reader.close() }
      #expect(try reader.integer("PRAGMA user_version") == 8)
    }
  }

  @Test func readOnlyOnAMissingLibraryCreatesNothingAndIsEmpty() throws {
    try withTemporaryDirectory { root in
      let missing = root.appendingPathComponent("not/there")
      let store = try LibraryStore(directory: missing, mode: .readOnly)
      #expect(store.isInMemory)
      #expect(try store.isEmpty())
      #expect(try store.library() == Library())
      #expect(try store.yarns().isEmpty)
      #expect(try store.runningSession() == nil)
      #expect(throws: StoreError.self) { try store.insert(Yarn(id: "y", name: "Y")) }
      #expect(throws: StoreError.self) {
        _ = try store.importAttachment(from: try makeFile("a.txt", [1], in: root))
      }
      try store.close()
      #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["a.txt"])

      // An existing directory without a database stays as it was, too.
      let empty = root.appendingPathComponent("empty")
      try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: false)
      let inEmpty = try LibraryStore(directory: empty, mode: .readOnly)
      #expect(try inEmpty.isEmpty())
      try inEmpty.close()
      #expect(try FileManager.default.contentsOfDirectory(atPath: empty.path) == [])
    }
  }

  @Test func readOnlyStoreReadsALiveLibraryAndRefusesChanges() throws {
    try withTemporaryDirectory { root in
      let writer = try LibraryStore(directory: root, mode: .readWrite)
      try writer.insert(Yarn(id: "y1", name: "One"))
      let reader = try LibraryStore(directory: root, mode: .readOnly)
      #expect(try reader.yarns().map(\.id) == ["y1"])
      try writer.insert(Yarn(id: "y2", name: "Two"))
      #expect(try reader.yarns().map(\.id) == ["y1", "y2"])
      do {
        try reader.insert(Yarn(id: "y3", name: "Three"))
        Issue.record("a read-only store wrote")
      } catch StoreError.readOnly(let path) {
        #expect(path == root.standardizedFileURL.path)
      }
    }
  }

  /// A library of schema version 1 (before the undo history) keeps every item when it is
  /// upgraded to the current version; its history starts empty and records the next change.
  @Test func aVersion1LibraryIsUpgradedWithItsItems() throws {
    try withTemporaryDirectory { root in
      let path = root.appendingPathComponent("library.sqlite").path
      let raw = try Connection(path: path, flags: 0x2 | 0x4)  // READWRITE | CREATE
      try LibraryStore.migrate(raw, migrations: Array(Schema.migrations.prefix(1)))
      try raw.execute(
        """
        INSERT INTO yarn (seq, id, name, remaining_value, remaining_unit, is_stashed)
        VALUES (1, 'y-1', 'Rios', 0.30000000000000004, 'g', 1)
        """)
      #expect(try raw.integer("PRAGMA user_version") == 1)
      try raw.close()
      let store = try LibraryStore(directory: root, mode: .readWrite)
      #expect(try store.connection.integer("PRAGMA user_version") == 7)
      #expect(
        try store.yarns() == [
          Yarn(id: "y-1", name: "Rios", remainingOverride: Amount(0.30000000000000004, .gram))
        ])
      #expect(try store.history() == [])
      _ = try store.deleteYarn(id: "y-1")
      try store.undo()
      #expect(try store.yarns().map(\.name) == ["Rios"])
    }
  }

  @Test func readOnlyUpgradesAnOlderSchema() throws {
    try withTemporaryDirectory { root in
      // A library at schema version 1 (an empty file, version 0 to SQLite, is refused).
      let raw = try Connection(path: root.appendingPathComponent("library.sqlite").path, flags: 0x2 | 0x4)
      try LibraryStore.migrate(raw, migrations: Array(Schema.migrations.prefix(1)))
      try raw.close()
      let store = try LibraryStore(directory: root, mode: .readOnly)
      #expect(store.isInMemory == false)
      #expect(try store.isEmpty())
      #expect(try store.connection.integer("PRAGMA user_version") == 7)
      #expect(try store.connection.integer("PRAGMA foreign_keys") == 1)
      #expect(try store.connection.integer("SELECT count(*) FROM sqlite_schema WHERE type = 'table'") == 12)
      #expect(throws: StoreError.self) { try store.insert(Yarn(id: "y", name: "Y")) }
    }
  }

  @Test func aFileThatIsNotADatabaseIsAnError() throws {
    try withTemporaryDirectory { root in
      let junk = [UInt8](repeating: 0x41, count: 4096)
      _ = try makeFile("library.sqlite", junk, in: root)
      for mode in [LibraryStore.Mode.readWrite, .readOnly] {
        do {
          _ = try LibraryStore(directory: root, mode: mode)
          Issue.record("junk opened as a library")
        } catch StoreError.database(let error) {
          #expect(error.primaryCode == 26)  // SQLITE_NOTADB
        }
      }
    }
  }

  @Test func closedStoreRefusesWork() throws {
    try withTemporaryDirectory { root in
      let store = try LibraryStore(directory: root, mode: .readWrite)
      try store.close()
      try store.close()
      do {
        _ = try store.yarns()
        Issue.record("a closed store answered")
      } catch StoreError.closed {}
    }
  }

  @Test func anUnwritableDirectoryIsAnIOError() throws {
    try withTemporaryDirectory { root in
      let file = try makeFile("plain-file", [1], in: root)
      do {
        _ = try LibraryStore(directory: file.appendingPathComponent("lib"), mode: .readWrite)
        Issue.record("a library was made inside a file")
      } catch StoreError.io(let path, _) {
        #expect(path.hasSuffix("plain-file/lib"))
      }
    }
  }
}
