import CSQLite
import YarnModel

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A library on disk: the directory `DIR` holding `library.sqlite` (SQLite, WAL mode) and
/// `attachments/` (file bytes by SHA-256, `attachments/<first 2 hex>/<sha256>`).
///
/// Every public method runs in a transaction: alone it is one transaction; inside `read` or
/// `write` it joins that one. A command should do all of its work in one `write { }` so that
/// it commits or rolls back as a whole. Two processes (or two stores) at once serialize: a
/// writer takes the write lock at `BEGIN IMMEDIATE` and the other waits up to 5 seconds, then
/// throws `StoreError.busy`.
///
/// Lists come back in creation order (sessions from `sessions(projectID:)` by start), so
/// `insert(library: L)` into an empty store followed by `library()` gives back `L`, the law
/// backup and restore rely on. Instants are stored as INTEGER Unix seconds (UTC), truncated
/// toward the past to whole seconds on write, as backups write them; so a value read back
/// may differ from the one written by less than a second.
///
/// History: every committed write transaction that changed a row is one change of the
/// library's undo history (`history()`, `undo()`, `redo()`, in LibraryStore+History.swift),
/// named by `changeLabel`; the last `historyLimit` (50) changes are kept, and the attachment
/// files they could bring back with them.
///
/// Threads: not `Sendable`. A store owns one SQLite connection (opened in SQLite's
/// multi-thread mode), which must never be used from two threads at once: use a store from
/// one thread, or one task, at a time (Swift 6 keeps a value that is not `Sendable` in the
/// isolation domain that made it), and open another store on the same directory for another
/// thread or process; they share the library through SQLite's locks. The long operations
/// that take a store (`Backup.create`, `Backup.restore`, `LibraryExport.write`) run on the
/// calling thread: run them off the main thread, with a store of their own.
public final class LibraryStore {
  /// How a store is opened.
  public enum Mode: Sendable {
    /// Reads only. A missing directory or `library.sqlite` gives an empty library (an
    /// in-memory database with the schema) and creates nothing; every change throws
    /// `StoreError.readOnly`. See `init(directory:mode:)`.
    case readOnly
    /// Reads and writes; creates `DIR`, `DIR/library.sqlite` and `DIR/attachments/` when
    /// missing.
    case readWrite
  }

  /// How long a statement waits for another process's lock before `StoreError.busy`: 5000 ms.
  static let busyTimeoutMilliseconds: Int32 = 5000

  /// For a program that owns its process's SQLite (the `yarn` command), called before it
  /// opens any library: turns off SQLite's memory statistics (`SQLITE_CONFIG_MEMSTATUS`),
  /// whose process-wide mutex and counters SQLite takes on every allocation. Parsing the
  /// schema when a library opens allocates for every node of its triggers' SQL: this was
  /// 1.1 M of the 10.7 M instructions of `yarn time start` (bench/README.md). Nothing in
  /// yarn reads the statistics (`sqlite3_memory_used`, the heap limits). Not for a library
  /// inside an app, where SQLite is the app's (and may be initialized already, in which case
  /// SQLite refuses the setting and this does nothing).
  package static func turnOffSQLiteMemoryStatistics() {
    _ = yarn_sqlite_no_memory_statistics()
  }
  /// The database's file name inside the library directory.
  package static let databaseFileName = "library.sqlite"
  /// The attachments folder's name inside the library directory.
  package static let attachmentsFolderName = "attachments"
  /// The folder inside the library directory that a `backup restore --replace` writes its
  /// safety backups to.
  package static let safetyBackupsFolderName = "safety-backups"
  /// The database schema version (`PRAGMA user_version`) this code writes: 7.
  static var schemaVersion: Int { Schema.currentVersion }

  /// The library directory, as given (standardized: no `.` or `..` parts); for an in-memory
  /// library, the temporary directory that holds its attachments.
  public let directory: URL
  /// The mode it was opened in.
  public let mode: Mode
  /// Whether the database lives in memory: a `.readOnly` stand-in for a missing library
  /// (empty), or a library made by `inMemory()`.
  public let isInMemory: Bool
  /// Whether opening this store created the library: `true` only for a `.readWrite` store
  /// whose own creation put `library.sqlite` in place (`init(directory:mode:)`), `false`
  /// when it was there already or another process put it in place first (several processes
  /// opening one missing library at once: exactly one of them created it).
  public let createdLibrary: Bool

  let connection: Connection
  /// The present instant, for the rule that no session starts or ends in the future
  /// (`Rules.session(start:end:now:tolerance:)`); the system clock unless a test or an app
  /// sets another.
  public var clock: () -> Date = { Date() }
  /// Open transaction levels: 0 outside a transaction, 1 in BEGIN … COMMIT, more in savepoints.
  private var depth = 0
  /// The SHA-256 of every attachment record the open write transaction removed: once it
  /// commits, those files that no record refers to any more are deleted
  /// (`deleteUnreferencedFiles`).
  var droppedDigests = Set<String>()
  /// What the changes this store commits are called in the library's history (`history()`,
  /// `undo()`): the `yarn` tool sets its command line, such as `yarn stash rm Rios --force`.
  /// Empty by default; an app may set a short description before each change.
  public var changeLabel = ""

  /// Opens the library in `directory` (a directory path; the database is
  /// `directory/library.sqlite`, the attachment files are under `directory/attachments/`).
  ///
  /// `.readWrite` creates the directory, `library.sqlite` (built aside and put in place whole,
  /// as `create(directory:_:keep:)` does, never an empty file) and `attachments/` when missing,
  /// switches the database to WAL and brings its schema up to date (schema version 7, kept in
  /// `PRAGMA user_version`; the missing migrations run in one transaction). `.readOnly` on a
  /// missing directory or database creates nothing and gives an empty library. `.readOnly`
  /// on an existing database opens it read-only (SQLite's own read-only open) and never
  /// writes it when its schema is up to date; one of an older
  /// version is brought up to date first by a short-lived writer (the one write a read may
  /// cause). A `library.sqlite` that is a directory, or an empty file (0 bytes), which SQLite
  /// would take as an empty database, is refused in either mode and left as it is
  /// (`refuseUnusableDatabase`).
  ///
  /// - Throws: `StoreError.io` when the directory or database cannot be created or opened, or
  ///   `directory` is a file (in either mode), or a write-ahead log or journal lies there
  ///   without its database (`refuseOrphanLog`), or `library.sqlite` is a directory or an
  ///   empty file (`refuseUnusableDatabase`);
  ///   `StoreError.newerSchema` when the database was written by a newer yarn;
  ///   `StoreError.upgradeFailed` when an older schema must be brought up to date and a
  ///   migration fails: the database is left as it was;
  ///   `StoreError.busy` when another process holds the lock past the busy timeout;
  ///   `StoreError.database` for any other SQLite failure (such as a file that is not a
  ///   database).
  public convenience init(directory: URL, mode: Mode) throws {
    try self.init(
      directory: directory, mode: mode, busyTimeout: LibraryStore.busyTimeoutMilliseconds)
  }

  /// As the public initializer, with another busy timeout (tests use a short one).
  init(directory: URL, mode: Mode, busyTimeout: Int32) throws {
    self.directory = directory.standardizedFileURL
    self.mode = mode
    let databasePath = self.directory.appendingPathComponent(LibraryStore.databaseFileName).path
    // Never read a file where the library should be, or a library that cannot be reached, as
    // an empty library.
    if let kind = try LibraryStore.kind(of: self.directory.path), kind != S_IFDIR {
      throw StoreError.io(path: self.directory.path, reason: "it is a file, not a directory")
    }
    try LibraryStore.refuseUnusableDatabase(at: databasePath)
    do {
      switch mode {
      case .readWrite:
        try LibraryStore.refuseOrphanLog(in: self.directory)
        try LibraryStore.createDirectory(self.directory)
        var created = false
        if try LibraryStore.kind(of: databasePath) == nil {
          // A new library is built aside and put in place whole (`create`): SQLite would
          // create an empty file first, which another process could find (and refuse:
          // `refuseUnusableDatabase`) or a process killed at that moment leave behind. One
          // another process put in place meanwhile is the library to open (and this store
          // did not create it).
          do {
            try LibraryStore.create(directory: self.directory) { _ in }
            created = true
          } catch StoreError.libraryCreatedMeanwhile {
          } catch {
            // Put in place between the look above and `create`'s own (`a library is already
            // there`): it too is the library to open (CI: one of ten writers at once failed).
            guard try LibraryStore.kind(of: databasePath) == S_IFREG else { throw error }
            try LibraryStore.refuseUnusableDatabase(at: databasePath)
          }
        }
        createdLibrary = created
        connection = try LibraryStore.open(databasePath, flags: SQLITE_OPEN_READWRITE)
        try LibraryStore.configure(
          connection, writable: true, busyTimeout: busyTimeout, database: databasePath)
        try LibraryStore.migrate(connection)
        isInMemory = false
        // Only once the database opened: a library that cannot be opened gains no folder.
        try LibraryStore.createDirectory(
          self.directory.appendingPathComponent(LibraryStore.attachmentsFolderName))
      case .readOnly:
        createdLibrary = false
        try LibraryStore.refuseOrphanLog(in: self.directory)
        if try LibraryStore.kind(of: databasePath) != nil {
          var reader = try LibraryStore.open(databasePath, flags: SQLITE_OPEN_READONLY)
          try LibraryStore.configure(
            reader, writable: false, busyTimeout: busyTimeout, database: databasePath)
          let version = Int(try reader.integer("PRAGMA user_version") ?? 0)
          if version > Schema.currentVersion {
            throw StoreError.newerSchema(found: version, known: Schema.currentVersion)
          }
          if version < Schema.currentVersion {
            // An older schema: bring it up to date with a short-lived writer, then read.
            try reader.close()
            let writer = try LibraryStore.open(databasePath, flags: SQLITE_OPEN_READWRITE)
            try LibraryStore.configure(writer, writable: true, busyTimeout: busyTimeout)
            try LibraryStore.migrate(writer)
            try writer.close()
            reader = try LibraryStore.open(databasePath, flags: SQLITE_OPEN_READONLY)
            try LibraryStore.configure(reader, writable: false, busyTimeout: busyTimeout)
          }
          connection = reader
          isInMemory = false
        } else {
          connection = try LibraryStore.open(
            ":memory:", flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
          try LibraryStore.configure(connection, writable: false, busyTimeout: busyTimeout)
          try LibraryStore.migrate(connection)
          isInMemory = true
        }
      }
    } catch let error as DatabaseError {
      // SQLite's own words for a companion file it cannot open say nothing of which: one
      // that is a directory is named (looked for only once opening failed).
      for suffix in ["-wal", "-shm", "-journal"]
      where (try? LibraryStore.kind(of: databasePath + suffix)) == S_IFDIR {
        throw StoreError.io(
          path: databasePath + suffix,
          reason: "it is a directory, not a file of the library's database; move it away")
      }
      throw StoreError.wrap(error, database: databasePath)
    }
  }

  /// A read-write store on the new, empty database file at `path` (a temporary file that
  /// `create(directory:_:keep:)` puts in place), for the library `directory` (not created).
  /// Its journal is kept in memory: the file is thrown away on any failure, so it needs no
  /// recovery from a crash, only rollbacks.
  init(newDatabaseAt path: String, directory: URL) throws {
    self.directory = directory.standardizedFileURL
    mode = .readWrite
    isInMemory = false
    createdLibrary = false
    do {
      connection = try LibraryStore.open(path, flags: SQLITE_OPEN_READWRITE)
      try LibraryStore.configure(
        connection, writable: true, busyTimeout: LibraryStore.busyTimeoutMilliseconds, journal: "MEMORY")
      try LibraryStore.migrate(connection)
    } catch let error as DatabaseError {
      // Named as the library's file it becomes.
      throw StoreError.wrap(
        error, database: directory.appendingPathComponent(LibraryStore.databaseFileName).path)
    }
  }

  /// A new, empty library whose database lives in memory, for app previews and tests: it
  /// reads and writes like a library on disk (`mode` is `.readWrite`, `isInMemory` is
  /// `true`), and is gone when the store is closed or released. Attachments imported into it
  /// are stored in a new temporary directory (`directory`), removed by `close()` or, without
  /// it, when the store is released.
  ///
  /// - Throws: `StoreError.io` when the temporary directory cannot be created;
  ///   `StoreError.database` when SQLite cannot open a database in memory.
  public static func inMemory() throws -> LibraryStore {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "yarn-in-memory-" + Identifier.make(), isDirectory: true)
    return try LibraryStore(inMemoryAt: directory)
  }

  private init(inMemoryAt directory: URL) throws {
    self.directory = directory.standardizedFileURL
    mode = .readWrite
    isInMemory = true
    createdLibrary = false
    do {
      try LibraryStore.createDirectory(self.directory)
      try LibraryStore.createDirectory(
        self.directory.appendingPathComponent(LibraryStore.attachmentsFolderName))
      connection = try LibraryStore.open(
        ":memory:", flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
      try LibraryStore.configure(
        connection, writable: false, busyTimeout: LibraryStore.busyTimeoutMilliseconds)
      try LibraryStore.migrate(connection)
    } catch let error as DatabaseError {
      throw StoreError.wrap(error)
    }
  }

  /// Closes the database (checkpointing its write-ahead log when it has grown past about
  /// 400 KB). Later calls throw `StoreError.closed`; closing twice does nothing. A store made
  /// by `inMemory()` removes its temporary directory. Call it before the store is released:
  /// releasing an open store closes the connection without the checkpoint.
  ///
  /// - Throws: `StoreError.database` when SQLite cannot close cleanly.
  public func close() throws {
    if mode == .readWrite, !isInMemory { checkpointLongWAL() }
    do {
      try connection.close()
    } catch let error as DatabaseError {
      throw StoreError.wrap(error)
    }
    removeTemporaryDirectory()
  }

  /// A store made by `inMemory()` that is released without `close()` still removes its
  /// temporary directory (an app's preview, a test), so that none is left in the system's
  /// temporary folder.
  deinit { removeTemporaryDirectory() }

  /// Removes the temporary directory of a store made by `inMemory()` (the only stores that
  /// are `.readWrite` and in memory); does nothing for any other store, whose `directory`
  /// is a library's.
  private func removeTemporaryDirectory() {
    if mode == .readWrite, isInMemory { try? FileManager.default.removeItem(at: directory) }
  }

  /// The WAL length (bytes) past which `close()` checkpoints: 100 frames of 4 KiB pages
  /// (24-byte frame headers), 400 KB, about 20 commands' worth of commits.
  static let walCheckpointBytes = 100 * (4096 + 24)

  /// Copies the WAL into the database and truncates it (`wal_checkpoint(TRUNCATE)`), when it
  /// has grown past `walCheckpointBytes`, so that the next process reads a short WAL on open.
  /// Never waits for another process's readers (busy timeout 0 for this step): a checkpoint
  /// that cannot finish now is left for a later command. The committed data is durable in the
  /// WAL either way, so errors are ignored.
  private func checkpointLongWAL() {
    var status = stat()
    let wal = databaseURL.path + "-wal"
    guard stat(wal, &status) == 0, status.st_size >= LibraryStore.walCheckpointBytes else { return }
    try? connection.setBusyTimeout(milliseconds: 0)
    try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
  }

  /// The path of `library.sqlite`.
  var databaseURL: URL {
    directory.appendingPathComponent(LibraryStore.databaseFileName)
  }

  // MARK: Transactions

  /// Runs `body` in one read transaction (`BEGIN DEFERRED`): every read inside sees the same
  /// snapshot of the library. Inside another transaction `body` simply joins it.
  ///
  /// - Returns: what `body` returns.
  /// - Throws: what `body` throws; `StoreError.busy`, `.closed` or `.database`.
  public func read<T>(_ body: () throws -> T) throws -> T {
    try transaction(write: false, body)
  }

  /// Runs `body` in one write transaction (`BEGIN IMMEDIATE`, which takes the write lock at
  /// once, waiting up to the busy timeout for another process): it commits when `body`
  /// returns and rolls back everything when `body` throws. Inside another `write` it runs in
  /// a savepoint, so a nested failure undoes only the nested part. (Do not nest a `write` in
  /// a `read`: upgrading a read snapshot may fail with `StoreError.busy` at once.)
  ///
  /// - Returns: what `body` returns.
  /// - Throws: `StoreError.readOnly` in a `.readOnly` store; what `body` throws;
  ///   `StoreError.busy` when the lock stays taken past the timeout; `.closed`, `.database`.
  public func write<T>(_ body: () throws -> T) throws -> T {
    guard mode == .readWrite else { throw StoreError.readOnly(path: directory.path) }
    return try transaction(write: true, body)
  }

  /// As `write(_:)`, for a `body` that changes the library by one SQL statement at most:
  /// inside another `write` it opens no savepoint, as SQLite undoes a failed statement by
  /// itself (its statement journal), so a failure still undoes only its own part. (A savepoint
  /// per insert was 5% of a stash import's instructions: bench/README.md.)
  func writeOneStatement<T>(_ body: () throws -> T) throws -> T {
    guard mode == .readWrite else { throw StoreError.readOnly(path: directory.path) }
    return try transaction(write: true, savepoint: false, body)
  }

  private func transaction<T>(write: Bool, savepoint: Bool = true, _ body: () throws -> T) throws -> T {
    guard !connection.isClosed else { throw StoreError.closed }
    do {
      if depth > 0 {
        if !write || !savepoint {
          depth += 1
          defer { depth -= 1 }
          return try body()
        }
        let name = "yarn_savepoint_\(depth)"
        // Prepared once and reused (`run` caches statements): a restore opens one savepoint
        // per item inserted, and parsing the SQL each time was a tenth of its time.
        try connection.run("SAVEPOINT \(name)")
        depth += 1
        do {
          let value = try body()
          depth -= 1
          try connection.run("RELEASE \(name)")
          return value
        } catch {
          depth -= 1
          try? connection.execute("ROLLBACK TO \(name)")
          try? connection.execute("RELEASE \(name)")
          throw error
        }
      }
      try connection.execute(write ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED")
      depth = 1
      let value: T
      do {
        if write { try recordOutsideChanges() }
        value = try body()
        if write { try recordChange() }
        depth = 0
        try connection.execute("COMMIT")
      } catch {
        depth = 0
        droppedDigests = []
        if !connection.isAutocommit { try? connection.execute("ROLLBACK") }
        throw error
      }
      let dropped = droppedDigests
      droppedDigests = []
      if !dropped.isEmpty { deleteUnreferencedFiles(dropped) }
      return value
    } catch let error as DatabaseError {
      throw StoreError.wrap(error, database: isInMemory ? nil : databaseURL.path)
    }
  }

  // MARK: Opening

  private static func open(_ path: String, flags: Int32) throws -> Connection {
    do {
      return try Connection(path: path, flags: flags)
    } catch let error as DatabaseError where error.primaryCode == SQLITE_CANTOPEN {
      throw StoreError.io(path: path, reason: error.message)
    }
  }

  /// Sets up a connection; a writable one gets the journal mode `journal` (WAL for a library:
  /// see below). For the library's file (`database`, its path), another program's database
  /// is refused first (`refuseForeignDatabase`), before anything is written to it.
  private static func configure(
    _ connection: Connection, writable: Bool, busyTimeout: Int32, journal: String = "WAL",
    database: String? = nil
  ) throws {
    try connection.setBusyTimeout(milliseconds: busyTimeout)
    if let database { try refuseForeignDatabase(connection, path: database) }
    try connection.defineFoldFunction()
    try connection.execute("PRAGMA foreign_keys = ON")
    if writable {
      // WAL: readers never block the writer nor the writer the readers, and a crash leaves
      // the last committed state. The mode is stored in the file, so readers get it too.
      try connection.execute("PRAGMA journal_mode = \(journal)")
      // FULL rather than NORMAL: with NORMAL in WAL mode a power loss may roll back the last
      // committed transactions (the WAL is synced only at checkpoints). A command commits one
      // small transaction, so the extra fsync per commit costs little, and a `time stop` that
      // said it was recorded must stay recorded.
      try connection.execute("PRAGMA synchronous = FULL")
      // Each command is a short process: checkpointing and deleting the WAL at every exit
      // cost four more syncs than the commit itself (`yarn time start` went from 5 syncs to 1).
      try connection.keepWALOnClose()
      // No automatic checkpoint: `close()` checkpoints and truncates the WAL once it is long
      // (`walCheckpointBytes`). SQLite's automatic one does not suit short processes: each new
      // process rebuilds the WAL's index from the frames (the -shm is reset when no other
      // connection has it open) and so believes nothing was checkpointed yet; past 1,000
      // pages every commit copied the whole WAL into the database again and the WAL never
      // restarted, growing for ever, and every command read all of it on open.
      try connection.execute("PRAGMA wal_autocheckpoint = 0")
      // A page cache of up to 16 MiB (SQLite's default is 2 MiB), taken only as pages are
      // read: a transaction that writes many rows (`stash import`, `backup restore`) keeps
      // most of its changed pages in memory instead of spilling them into the WAL as it goes,
      // which made each row dearer as the indexes outgrew a 2 MiB cache. 64 MiB was no
      // faster than 16 (a 100,000-row import, whose library is 55 MB: the same CPU within
      // the noise) and held 40 MB more at the peak (bench/README.md, issue 13).
      try connection.execute("PRAGMA cache_size = -16384")
      // Savepoints' journals (every insert inside a transaction opens one) and temporary
      // tables in memory, not in a temporary file: a 10,000-row `stash import` wrote 14 pages
      // a row to such a file (164,757 pwrite calls) that nothing ever read back.
      try connection.execute("PRAGMA temp_store = MEMORY")
    }
  }

  /// Applies the pending migrations in one `BEGIN IMMEDIATE` transaction; the version is read
  /// again under the lock, so two processes opening a new library at once migrate it once.
  /// All or nothing: any failure rolls back to the version the database had, with all its
  /// data.
  ///
  /// - Parameter migrations: the chain to apply, `Schema.migrations` (tests give chains of
  ///   their own); the database's `PRAGMA user_version` counts how many of them it has had.
  /// - Throws: `StoreError.newerSchema` for a database of a newer yarn (a version above
  ///   `migrations.count`); `StoreError.busy` when another process holds the lock past the
  ///   busy timeout; `StoreError.upgradeFailed` for any other failure of a migration
  ///   (`.diskFull`, `.readOnly`, `.database` with SQLite's code and message, never the
  ///   migration's SQL); `StoreError.database` when even the version cannot be read (a file
  ///   that is not a database).
  static func migrate(
    _ connection: Connection, migrations: [Schema.Migration] = Schema.migrations
  ) throws {
    let known = migrations.count
    let version: Int
    do {
      version = Int(try connection.integer("PRAGMA user_version") ?? 0)
    } catch let error as DatabaseError {
      throw StoreError.wrap(error)
    }
    if version > known { throw StoreError.newerSchema(found: version, known: known) }
    if version == known { return }
    do {
      try migrateLocked(connection, migrations: migrations)
    } catch {
      throw upgradeError(error, from: version, to: known)
    }
  }

  /// A failure of the migrations from `version` to `known` as the store reports it: store
  /// errors as they are (`.newerSchema`), SQLITE_BUSY as `.busy`, any other SQLite error as
  /// `.upgradeFailed` with its code and message but not its SQL.
  private static func upgradeError(_ error: any Error, from version: Int, to known: Int)
    -> any Error
  {
    guard let error = error as? DatabaseError else { return error }
    if error.isBusy { return StoreError.busy }
    let reason: StoreError.UpgradeFailure
    if error.isDiskFull {
      reason = .diskFull
    } else if error.primaryCode == SQLITE_READONLY {
      reason = .readOnly(message: error.message)
    } else {
      reason = .database(code: error.extendedCode, message: error.message)
    }
    return StoreError.upgradeFailed(from: version, to: known, reason: reason)
  }

  private static func migrateLocked(_ connection: Connection, migrations: [Schema.Migration])
    throws
  {
    let known = migrations.count
    // A migration that rebuilds a table (`Schema.Migration.rebuildsTables`) runs with the
    // foreign keys off, which SQLite lets change only outside a transaction: else dropping
    // `yarn` would delete its notes (CASCADE) or fail on its usages (RESTRICT). They are on
    // again after the commit or the rollback.
    let rebuilds = migrations.contains(where: \.rebuildsTables)
    if rebuilds { try connection.execute("PRAGMA foreign_keys = OFF") }
    defer { if rebuilds { try? connection.execute("PRAGMA foreign_keys = ON") } }
    try connection.execute("BEGIN IMMEDIATE")
    do {
      let locked = Int(try connection.integer("PRAGMA user_version") ?? 0)
      if locked > known { throw StoreError.newerSchema(found: locked, known: known) }
      // A rebuild copies every row as it is, so it breaks no reference: the references
      // broken before (by a writer other than yarn) are counted, and no more may be after.
      func brokenCount() throws -> Int {
        try connection.query("PRAGMA foreign_key_check") { _ in 1 }.count
      }
      let brokenBefore = rebuilds ? try brokenCount() : 0
      for migration in migrations[locked...] {
        try connection.execute(migration.sql)
        try migration.fill?(connection)
      }
      if rebuilds, try brokenCount() > brokenBefore {
        throw DatabaseError(
          extendedCode: 787,  // SQLITE_CONSTRAINT_FOREIGNKEY
          message: "the upgrade would break references between items")
      }
      try connection.execute("PRAGMA user_version = \(known)")
      try connection.execute("COMMIT")
    } catch {
      if !connection.isAutocommit { try? connection.execute("ROLLBACK") }
      throw error
    }
  }

  /// The rows `PRAGMA foreign_key_check` finds whose parent is missing: their number, and up
  /// to `limit` of them named, in the order of their table's name and then of their rowid,
  /// by the item's `id` and the missing parent's key (`note n-1 refers to yarn y-9`,
  /// `session s-1 refers to project p-9`); a row of `yarn_usage` (WITHOUT ROWID, so the
  /// pragma gives no rowid) by its project and position, found by a query for usages without
  /// a parent, in project and position order; a row of a table without `id` (`attachment`)
  /// by its rowid (`row 3 of attachment refers to yarn y-9`).
  ///
  /// - Parameter tables: only these foreign keys, as (child table, parent table) pairs.
  static func brokenReferences(
    _ connection: Connection, limit: Int, tables: [(child: String, parent: String)]
  ) throws -> (count: Int, examples: [String]) {
    // Rows: table, rowid (NULL in a WITHOUT ROWID table), parent table, foreign key index
    // (the `id` of `PRAGMA foreign_key_list(table)`).
    // SQLite lists them in the order of its schema's hash table: sorted here, so that the
    // same library always names the same rows.
    func check(_ sql: String) throws -> [(table: String, rowID: Int64?, parent: String, key: Int64)] {
      try connection.query(sql) { row in
        (
          table: row.text(0) ?? "", rowID: row.isNull(1) ? nil : row.int64(1),
          parent: row.text(2) ?? "", key: row.int64(3)
        )
      }
    }
    var found: [(table: String, rowID: Int64?, parent: String, key: Int64)] = []
    for child in Set(tables.map(\.child)).sorted() {
      found += try check("PRAGMA foreign_key_check(\(quoted(child)))").filter { breach in
        tables.contains { $0.child == child && $0.parent == breach.parent }
      }
    }
    let breaches = found.sorted {
      ($0.table, $0.rowID ?? 0, $0.key) < ($1.table, $1.rowID ?? 0, $1.key)
    }
    var examples: [String] = []
    var namedGroups: Set<String> = []
    for breach in breaches where examples.count < limit {
      let table = breach.table
      // The referring column, the parent table and its referred column of that foreign key.
      let keys = try connection.query(
        "SELECT \"from\", \"table\", \"to\" FROM pragma_foreign_key_list(?) WHERE id = ? ORDER BY seq",
        [.text(table), .integer(breach.key)]
      ) { (from: $0.text(0) ?? "", parent: $0.text(1) ?? "", to: $0.text(2)) }
      guard let key = keys.first else {
        examples.append("a row of \(table) refers to an item that is not in the library")
        continue
      }
      if let rowID = breach.rowID {
        let hasID =
          try connection.integer(
            "SELECT count(*) FROM pragma_table_info(?) WHERE name = 'id'", [.text(table)]) == 1
        let row = try connection.query(
          "SELECT \(hasID ? "id" : "NULL"), \(quoted(key.from)) FROM \(quoted(table)) WHERE rowid = ?",
          [.integer(rowID)]
        ) { (id: $0.text(0), value: $0.text(1) ?? "?") }.first
        let noun = table == "time_session" ? "session" : table
        let item = row?.id.map { "\(noun) \(Rules.shown(id: $0))" } ?? "row \(rowID) of \(table)"
        examples.append("\(item) refers to \(key.parent) \(row.map { Rules.shown(id: $0.value) } ?? "?")")
      } else if namedGroups.insert("\(table)\u{0}\(breach.key)").inserted {
        // One query per table and foreign key: the rows whose parent is missing.
        guard table == "yarn_usage", let to = key.to else {
          examples.append("a row of \(table) refers to a \(key.parent) that is not in the library")
          continue
        }
        let from = quoted(key.from)
        let usages = try connection.query(
          """
          SELECT project_id, position, c.\(from) FROM yarn_usage AS c
          WHERE c.\(from) IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM \(quoted(key.parent)) AS p WHERE p.\(quoted(to)) = c.\(from))
          ORDER BY project_id, position LIMIT ?
          """,
          [.integer(Int64(limit - examples.count))]
        ) { row -> String in
          let usage = "a usage of project \(row.text(0) ?? "?") (position \(row.int64(1)))"
          // A usage whose own project is gone: say so once, not "… refers to project <same>".
          if key.parent == "project" { return usage + ", a project that is missing" }
          return usage + " refers to \(key.parent) \(row.text(2) ?? "?")"
        }
        examples += usages
      }
    }
    return (breaches.count, examples)
  }

  /// `name` as an SQL identifier: in double quotes, a double quote doubled.
  private static func quoted(_ name: String) -> String {
    "\"" + name.replacing("\"", with: "\"\"") + "\""
  }

  /// The file type bits (`S_IFDIR`, `S_IFREG`, …) of the item at `path`, or `nil` when there
  /// is none.
  ///
  /// - Throws: `StoreError.io` when it cannot be told (permission denied on the way, a path
  ///   component that is a file), so that such a library is never taken as missing.
  static func kind(of path: String) throws -> mode_t? {
    var status = stat()
    if stat(path, &status) == 0 { return status.st_mode & S_IFMT }
    if errno == ENOENT { return nil }
    let reason = String(cString: strerror(errno)).lowercased()
    throw StoreError.io(path: path, reason: reason)
  }

  /// Refuses a library directory whose `library.sqlite` is missing but whose write-ahead log
  /// (`library.sqlite-wal`) or rollback journal (`library.sqlite-journal`) is there (the
  /// database deleted or moved away alone): SQLite would replay that file's pages onto a new
  /// library made beside it and corrupt it, and it may hold the old library's last changes,
  /// so the library is neither created nor read as empty.
  ///
  /// The database is looked for again once a log is found: another process creating the
  /// library at the same moment puts `library.sqlite` in place before its log exists, so a
  /// log seen after the first look may be that library's, not an orphan.
  ///
  /// - Throws: `StoreError.io` naming the file.
  package static func refuseOrphanLog(in directory: URL) throws {
    let database = directory.appendingPathComponent(databaseFileName).path
    guard try kind(of: database) == nil else { return }
    for (suffix, what) in [("-wal", "a write-ahead log"), ("-journal", "a rollback journal")] {
      let log = directory.appendingPathComponent(databaseFileName + suffix).path
      guard try kind(of: log) != nil, try kind(of: database) == nil else { continue }
      throw StoreError.io(
        path: log,
        reason:
          "\(what) is there without \(databaseFileName) (it may hold the last changes of a library "
          + "that was moved or deleted); put \(databaseFileName) back, or move it away")
    }
  }

  /// Refuses what stands where a library's `library.sqlite` should be (`path`) but cannot be
  /// one, in the words of what it is: a directory (SQLite would say only `disk I/O error` to
  /// a read and `unable to open database file` to a write), or an empty file (0 bytes), which
  /// SQLite takes as an empty database, so that any command would make it a new, empty
  /// library, while it is most likely what is left of one (a copy or a restore that failed, a
  /// full disk) or another program's file. Nothing is changed; what is there stays for the
  /// user to look at. (yarn never makes either: a new library is built in a temporary file
  /// and put in place whole, `create(directory:_:keep:)`.)
  ///
  /// - Throws: `StoreError.io` naming `path`, saying what it is and what to do.
  package static func refuseUnusableDatabase(at path: String) throws {
    var status = stat()
    guard stat(path, &status) == 0 else { return }
    if status.st_mode & S_IFMT == S_IFDIR {
      throw StoreError.io(
        path: path,
        reason: "it is a directory, not a library file; move it away to start a new library here")
    }
    guard status.st_mode & S_IFMT == S_IFREG, status.st_size == 0 else { return }
    throw StoreError.io(
      path: path,
      reason:
        "it is an empty file (0 bytes), not a library (what is left of a copy or restore that "
        + "failed, or another program's file); move it away to start a new library here, or put "
        + "the library's \(databaseFileName) back")
  }

  /// Refuses a database that holds tables but has no schema version of yarn's (`PRAGMA
  /// user_version` 0), or a version but not yarn's first table, `yarn` (a program that sets a
  /// version of its own): another program's SQLite file where the library's `library.sqlite`
  /// should be. Taking it as a library would add yarn's tables to it and switch it to WAL,
  /// even for a command that only reads. (yarn never leaves such a file: a new library is
  /// built aside with its tables and version, `create(directory:_:keep:)`. An empty database,
  /// with no table, is taken as a new library.)
  ///
  /// - Throws: `StoreError.io` naming `path`, saying what it is and what to do.
  private static func refuseForeignDatabase(_ connection: Connection, path: String) throws {
    // One statement (the schema is parsed at the first one anyway): the version, any table,
    // and yarn's first one, which every version since 1 has.
    let found = try connection.query(
      """
      SELECT (SELECT user_version FROM pragma_user_version),
        EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'table'),
        EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'yarn')
      """
    ) { (version: $0.int64(0), tables: $0.int64(1) == 1, yarn: $0.int64(2) == 1) }.first
    guard let found else { return }
    let version = found.version
    let what: String
    if version == 0, found.tables {
      what = "it holds tables, and no schema version of yarn's"
    } else if version > 0, !found.yarn {
      // Many programs set a version of their own.
      what = "its schema version \(version) is not yarn's: it has no table yarn"
    } else {
      return
    }
    throw StoreError.io(
      path: path,
      reason:
        "it is another program's SQLite database (\(what)), not a library; nothing was changed: "
        + "move it away to start a new library here")
  }

  /// `mkdir -p`: creates `url` and its missing parents (mode 0755 less the umask).
  ///
  /// - Throws: `StoreError.io` with the system's reason for the failed mkdir(2) (Foundation's
  ///   own text, "The operation could not be completed", says nothing).
  static func createDirectory(_ url: URL) throws {
    let path = url.path
    // Mostly there already: one stat(2) instead of a mkdir(2) per component.
    if try kind(of: path) == S_IFDIR { return }
    var prefix = path.hasPrefix("/") ? "/" : ""
    for component in path.split(separator: "/") {
      prefix += component
      if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
        let reason = String(cString: strerror(errno)).lowercased()
        throw StoreError.io(path: path, reason: "cannot create the directory: \(reason)")
      }
      prefix += "/"
    }
    if try kind(of: path) != S_IFDIR {
      throw StoreError.io(path: path, reason: "cannot create the directory: a file is in the way")
    }
  }

  // MARK: Helpers shared by the extensions

  /// Whether a row of `table` has `id`.
  package func exists(_ table: String, id: String) throws -> Bool {
    try connection.integer("SELECT EXISTS (SELECT 1 FROM \(table) WHERE id = ?)", [.text(id)]) == 1
  }

  /// Whether the library holds no yarn, project, note, session or tool.
  ///
  /// - Throws: `StoreError.busy`, `.closed` or `.database`.
  public func isEmpty() throws -> Bool {
    try read {
      try connection.integer(
        """
        SELECT EXISTS (SELECT 1 FROM yarn) OR EXISTS (SELECT 1 FROM project)
          OR EXISTS (SELECT 1 FROM note) OR EXISTS (SELECT 1 FROM time_session)
          OR EXISTS (SELECT 1 FROM tool)
        """) == 0
    }
  }
}
