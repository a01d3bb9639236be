import CSQLite
import YarnModel

/// An error reported by SQLite: its result code, its message and the SQL that failed.
///
/// A struct rather than an enum because SQLite's result codes are an open set
/// (sqlite.org/rescode.html); the store turns the conditions it knows (busy, a duplicate ID,
/// a second running session, …) into `StoreError` cases and wraps the rest in this.
public struct DatabaseError: Error, Equatable, Sendable, CustomStringConvertible {
  /// SQLite's extended result code, such as 2067 (`SQLITE_CONSTRAINT_UNIQUE`).
  public let extendedCode: Int32
  /// SQLite's message, such as `UNIQUE constraint failed: yarn.id`.
  public let message: String
  /// The statement that failed, when there was one (never holds user data: values are bound).
  public let sql: String?
  /// The system's `errno` of the failed file operation behind the error
  /// (`sqlite3_system_errno`), such as EDQUOT for a write past the user's disk quota, which
  /// SQLite reports only as a disk I/O error; 0 when there was none.
  public let systemErrno: Int32

  /// SQLite's primary result code (the low 8 bits), such as 19 (`SQLITE_CONSTRAINT`).
  public var primaryCode: Int32 { extendedCode & 0xff }

  /// An error with SQLite's extended result code, its message, the failing SQL, if any, and
  /// the system's `errno` behind it, if any.
  package init(extendedCode: Int32, message: String, sql: String? = nil, systemErrno: Int32 = 0) {
    self.extendedCode = extendedCode
    self.message = message
    self.sql = sql
    self.systemErrno = systemErrno
  }

  /// `database error 11 (database disk image is malformed): MESSAGE`, followed by
  /// ` [sql: …]` when a statement failed.
  public var description: String {
    let name = String(cString: sqlite3_errstr(extendedCode))
    var text = "database error \(extendedCode) (\(name)): \(message)"
    if let sql { text += " [sql: \(sql)]" }
    return text
  }

  /// Whether SQLite gave up waiting for another connection's lock (`SQLITE_BUSY`).
  var isBusy: Bool { primaryCode == SQLITE_BUSY }
  /// Whether the disk or the user's quota had no room: SQLITE_FULL (SQLite's word for ENOSPC
  /// and for the database's size limit), or a disk I/O error (SQLITE_IOERR) whose system
  /// error is ENOSPC or EDQUOT (`POSIX.diskFullErrnos`; SQLite reports a quota exceeded so).
  var isDiskFull: Bool {
    primaryCode == SQLITE_FULL
      || (primaryCode == SQLITE_IOERR && POSIX.diskFullErrnos.contains(systemErrno))
  }
  /// Whether a constraint (NOT NULL, CHECK, UNIQUE, FOREIGN KEY) refused the change.
  var isConstraint: Bool { primaryCode == SQLITE_CONSTRAINT }

  /// Whether the UNIQUE constraint of `column` (`table.column`, such as `yarn.id`) refused
  /// the change: SQLITE_CONSTRAINT_UNIQUE with SQLite's message `UNIQUE constraint failed:
  /// yarn.id`.
  func isUniqueViolation(of column: String) -> Bool {
    extendedCode == LibraryStore.constraintUnique && message.hasSuffix(": \(column)")
  }

  /// Whether a FOREIGN KEY constraint refused the change (SQLITE_CONSTRAINT_FOREIGNKEY,
  /// `SQLITE_CONSTRAINT | (3 << 8)`, a macro Swift does not import).
  var isForeignKeyViolation: Bool { extendedCode == SQLITE_CONSTRAINT | (3 << 8) }
}
