import CSQLite
import YarnModel

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// A thin SQLite wrapper in the manner of GRDB: one `final class` owns each C handle and
// releases it in `deinit`; `Connection.close()` releases the connection explicitly and reports
// failure. Neither class is `Sendable`: a connection belongs to one thread at a time (the
// store opens with SQLITE_OPEN_NOMUTEX and is used from a single thread).

/// A value bound to a statement parameter.
enum SQLValue {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)

  static func text(_ value: String?) -> SQLValue { value.map { .text($0) } ?? .null }
  static func integer(_ value: Int64?) -> SQLValue { value.map { .integer($0) } ?? .null }
  static func integer(_ value: Int?) -> SQLValue { value.map { .integer(Int64($0)) } ?? .null }
  static func real(_ value: Double?) -> SQLValue { value.map { .real($0) } ?? .null }
}

/// An open SQLite database connection: owns the `sqlite3*` handle.
final class Connection {
  private var handle: OpaquePointer?
  /// Prepared statements reused by SQL text. A cached statement is always reset before the
  /// method using it returns, so reusing one never disturbs another caller.
  private var cache: [String: Statement] = [:]

  /// Opens (or with SQLITE_OPEN_CREATE, creates) the database at `path` (`:memory:` for a
  /// private in-memory database).
  ///
  /// - Throws: `DatabaseError` when SQLite cannot open it; the handle SQLite allocated even for
  ///   a failed open is released.
  init(path: String, flags: Int32) throws {
    var db: OpaquePointer?
    let rc = sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_NOMUTEX, nil)
    guard rc == SQLITE_OK, let db else {
      let code = db.map { sqlite3_extended_errcode($0) } ?? rc
      let message =
        db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
      let system = db.map { sqlite3_system_errno($0) } ?? 0
      sqlite3_close_v2(db)
      throw DatabaseError(extendedCode: code, message: message, systemErrno: system)
    }
    handle = db
    sqlite3_extended_result_codes(db, 1)
  }

  deinit {
    cache.removeAll()
    if let handle { sqlite3_close_v2(handle) }
  }

  /// Whether `close()` has run.
  var isClosed: Bool { handle == nil }

  /// Finalizes the cached statements and closes the connection.
  ///
  /// - Throws: `DatabaseError` when SQLite refuses (a statement is still alive elsewhere); the
  ///   handle is then released when the last statement goes.
  func close() throws {
    guard let db = handle else { return }
    cache.removeAll()
    handle = nil
    let rc = sqlite3_close(db)
    if rc != SQLITE_OK {
      let error = DatabaseError(extendedCode: rc, message: String(cString: sqlite3_errmsg(db)))
      sqlite3_close_v2(db)
      throw error
    }
  }

  private func db() throws -> OpaquePointer {
    guard let handle else {
      throw DatabaseError(extendedCode: SQLITE_MISUSE, message: "the database connection is closed")
    }
    return handle
  }

  /// Keeps the WAL when the connection closes: no checkpoint on close
  /// (`SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE`) and the file kept (`SQLITE_FCNTL_PERSIST_WAL`), so
  /// that the next process appends to it instead of creating, syncing and deleting it again.
  /// Committed frames stay durable in the WAL; `LibraryStore.close()` checkpoints it into the
  /// database file once it has grown past `LibraryStore.walCheckpointBytes` (the automatic
  /// checkpoint is off), so it stays bounded.
  func keepWALOnClose() throws {
    let db = try db()
    var rc = yarn_sqlite_no_checkpoint_on_close(db)
    if rc != SQLITE_OK { throw error(rc, sql: nil) }
    var persist: Int32 = 1
    rc = sqlite3_file_control(db, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
    if rc != SQLITE_OK { throw error(rc, sql: nil) }
  }

  /// Sets how long a statement waits for another connection's lock before SQLITE_BUSY.
  func setBusyTimeout(milliseconds: Int32) throws {
    let db = try db()
    let rc = sqlite3_busy_timeout(db, milliseconds)
    if rc != SQLITE_OK { throw error(rc, sql: nil) }
  }

  /// Defines the SQL function `yarn_fold(text)` on this connection: `Lookup.folded(_:)` of
  /// its argument (case- and accent-insensitive search text), NULL for NULL; a number or a
  /// blob is folded as its text. Deterministic, so SQLite may compute it once per row.
  func defineFoldFunction() throws {
    let db = try db()
    let rc = sqlite3_create_function_v2(
      db, "yarn_fold", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
      { context, count, arguments in
        guard count == 1, let argument = arguments?[0],
          sqlite3_value_type(argument) != SQLITE_NULL, let text = sqlite3_value_text(argument)
        else {
          sqlite3_result_null(context)
          return
        }
        let folded = Lookup.folded(String(cString: text))
        sqlite3_result_text(context, folded, -1, yarn_sqlite_transient())
      }, nil, nil, nil)
    if rc != SQLITE_OK { throw error(rc, sql: nil) }
  }

  /// Runs one or more statements that take no parameters (schema, pragmas, BEGIN/COMMIT).
  func execute(_ sql: String) throws {
    let db = try db()
    var message: UnsafeMutablePointer<CChar>?
    let rc = sqlite3_exec(db, sql, nil, nil, &message)
    if rc != SQLITE_OK {
      let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(db))
      sqlite3_free(message)
      throw DatabaseError(
        extendedCode: sqlite3_extended_errcode(db), message: text, sql: sql,
        systemErrno: sqlite3_system_errno(db))
    }
  }

  /// Runs `sql`, which must be exactly one statement (spaces may follow it), with no
  /// parameters: the statements of the undo history, read from the database, are run so.
  ///
  /// - Throws: `DatabaseError` when it does not compile, when more follows the first
  ///   statement (SQLITE_MISUSE), or when it fails.
  func executeOne(_ sql: String) throws {
    let db = try db()
    var handle: OpaquePointer?
    var rest: UnsafePointer<CChar>?
    let rc = sql.withCString { text in
      let rc = sqlite3_prepare_v2(db, text, -1, &handle, &rest)
      if rc == SQLITE_OK, let tail = rest, String(cString: tail).contains(where: { !$0.isWhitespace }) {
        return SQLITE_MISUSE
      }
      return rc
    }
    defer { sqlite3_finalize(handle) }
    if rc == SQLITE_MISUSE {
      throw DatabaseError(extendedCode: rc, message: "more than one statement")
    }
    // Errors without the statement: it holds the library's values.
    guard rc == SQLITE_OK, let handle else { throw error(rc, sql: nil) }
    var step = sqlite3_step(handle)
    while step == SQLITE_ROW { step = sqlite3_step(handle) }
    if step != SQLITE_DONE { throw error(sqlite3_extended_errcode(db), sql: nil) }
  }

  /// A new statement, finalized when released.
  func prepare(_ sql: String) throws -> Statement {
    try Statement(db: try db(), sql: sql)
  }

  /// A reusable statement for `sql`, prepared once per connection.
  func cached(_ sql: String) throws -> Statement {
    if let statement = cache[sql] {
      statement.reset()
      return statement
    }
    let statement = try prepare(sql)
    cache[sql] = statement
    return statement
  }

  /// Runs a statement that returns no rows.
  func run(_ sql: String, _ values: [SQLValue] = []) throws {
    let statement = try cached(sql)
    defer { statement.reset() }
    try statement.bind(values)
    while try statement.step() {}
  }

  /// Runs a query and maps each row; the statement is reset before returning.
  func query<T>(_ sql: String, _ values: [SQLValue] = [], _ row: (Statement) throws -> T) throws
    -> [T]
  {
    let statement = try cached(sql)
    defer { statement.reset() }
    try statement.bind(values)
    var out: [T] = []
    while try statement.step() { out.append(try row(statement)) }
    return out
  }

  /// Runs a query with a statement of its own and hands each row to `body` as it is read, so
  /// memory does not grow with the result; `body` may use the connection meanwhile.
  func forEach(_ sql: String, _ values: [SQLValue] = [], _ body: (Statement) throws -> Void) throws {
    let statement = try prepare(sql)
    try statement.bind(values)
    while try statement.step() { try body(statement) }
  }

  /// The first column of the first row, as an integer; `nil` when there is no row or it is NULL.
  func integer(_ sql: String, _ values: [SQLValue] = []) throws -> Int64? {
    try query(sql, values) { $0.isNull(0) ? nil : $0.int64(0) }.first ?? nil
  }

  /// Rows changed by the last INSERT, UPDATE or DELETE.
  var changes: Int {
    guard let handle else { return 0 }
    return Int(sqlite3_changes(handle))
  }

  /// Whether the open transaction is a write transaction (`BEGIN IMMEDIATE`, or one that wrote).
  var isWriting: Bool {
    guard let handle else { return false }
    return sqlite3_txn_state(handle, nil) == SQLITE_TXN_WRITE
  }

  /// Whether no transaction is open (SQLite's autocommit mode).
  var isAutocommit: Bool {
    guard let handle else { return true }
    return sqlite3_get_autocommit(handle) != 0
  }

  private func error(_ rc: Int32, sql: String?) -> DatabaseError {
    let message =
      handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
    return DatabaseError(
      extendedCode: rc, message: message, sql: sql, systemErrno: handle.map { sqlite3_system_errno($0) } ?? 0)
  }
}

/// A prepared statement: owns the `sqlite3_stmt*` handle.
final class Statement {
  let sql: String
  private let handle: OpaquePointer
  private let db: OpaquePointer

  fileprivate init(db: OpaquePointer, sql: String) throws {
    var statement: OpaquePointer?
    let rc = sqlite3_prepare_v2(db, sql, -1, &statement, nil)
    guard rc == SQLITE_OK, let statement else {
      sqlite3_finalize(statement)
      throw DatabaseError(
        extendedCode: sqlite3_extended_errcode(db), message: String(cString: sqlite3_errmsg(db)),
        sql: sql)
    }
    self.db = db
    self.handle = statement
    self.sql = sql
  }

  deinit { sqlite3_finalize(handle) }

  /// Clears earlier bindings and binds `values` to parameters 1, 2, … in order. Text is bound
  /// with its exact UTF-8 bytes (embedded NULs kept) and copied by SQLite (SQLITE_TRANSIENT).
  func bind(_ values: [SQLValue]) throws {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      let rc: Int32
      switch value {
      case .null: rc = sqlite3_bind_null(handle, index)
      case .integer(let number): rc = sqlite3_bind_int64(handle, index, number)
      case .real(let number): rc = sqlite3_bind_double(handle, index, number)
      case .text(let string):
        var copy = string
        rc = copy.withUTF8 { bytes -> Int32 in
          guard let base = bytes.baseAddress, bytes.count > 0 else {
            // A nil pointer would bind NULL; an empty string must stay an empty string.
            return sqlite3_bind_text(handle, index, "", 0, yarn_sqlite_transient())
          }
          return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
            sqlite3_bind_text(handle, index, $0, Int32(bytes.count), yarn_sqlite_transient())
          }
        }
      }
      if rc != SQLITE_OK { throw failure(rc) }
    }
  }

  /// Advances to the next row: `true` when a row is ready, `false` when done.
  ///
  /// - Throws: `DatabaseError` with SQLite's extended code (SQLITE_BUSY, a constraint, …).
  func step() throws -> Bool {
    let rc = sqlite3_step(handle)
    switch rc {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default: throw failure(rc)
    }
  }

  /// Makes the statement ready to run again (keeps bindings); releases its locks.
  func reset() { sqlite3_reset(handle) }

  func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
  /// Whether the column holds an INTEGER value (not NULL, REAL, TEXT or BLOB).
  func isInteger(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_INTEGER }
  /// Whether the column holds a number, INTEGER or REAL.
  func isNumber(_ column: Int32) -> Bool {
    let type = sqlite3_column_type(handle, column)
    return type == SQLITE_INTEGER || type == SQLITE_FLOAT
  }
  func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
  func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

  /// The column as text (its exact UTF-8 bytes, embedded NULs kept), `nil` when NULL.
  func text(_ column: Int32) -> String? {
    guard !isNull(column) else { return nil }
    guard let bytes = sqlite3_column_text(handle, column) else { return "" }
    let count = Int(sqlite3_column_bytes(handle, column))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }

  private func failure(_ rc: Int32) -> DatabaseError {
    DatabaseError(
      extendedCode: rc, message: String(cString: sqlite3_errmsg(db)), sql: sql,
      systemErrno: sqlite3_system_errno(db))
  }
}
