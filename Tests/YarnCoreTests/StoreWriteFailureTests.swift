import Foundation
import Testing

@testable import YarnModel
@testable import YarnStore

/// A write the disk cannot take: the store's error names the library's database file and
/// says what happened in plain words, and the library is left as it was.
@Suite struct StoreWriteFailureTests {
  /// No room for a change (a page limit stands in for a full disk: SQLite reports both as
  /// SQLITE_FULL, sqlite.org/rescode.html): `cannot write PATH: the disk or your quota is full`, without
  /// SQLite's code or statement, and nothing of the change is kept.
  @Test func aFullDiskNamesTheLibraryFileAndKeepsNothing() throws {
    try withTemporaryDirectory { root in
      let store = try LibraryStore(directory: root, mode: .readWrite)
      defer { try? store.close() }
      try store.insert(Yarn(id: "y0", name: "Rios"))
      let pages = try store.connection.integer("PRAGMA page_count") ?? 0
      try store.connection.execute("PRAGMA max_page_count = \(pages + 2)")
      let error = #expect(throws: StoreError.self) {
        // 2,000 yarns with names of 150 characters need far more than 2 pages.
        try store.write {
          for index in 1...2000 {
            try store.insert(Yarn(id: "y\(index)", name: String(repeating: "n", count: 150) + "\(index)"))
          }
        }
      }
      let database = root.appendingPathComponent("library.sqlite").path
      #expect(
        error?.description
          == "cannot write \(database): the disk or your quota is full")
      #expect(try store.yarns().map(\.name) == ["Rios"])
      #expect(try store.history().count == 1)
    }
  }

  /// A write past the user's disk quota: SQLite tells it apart from a full disk only by the
  /// system's errno (EDQUOT) behind a disk I/O error (SQLITE_IOERR_WRITE, 778); it is a full
  /// disk or quota all the same, in the same words. Another system error stays an I/O error.
  @Test func aQuotaExceededIsAFullDisk() {
    let database = "/home/ann/yarn/library.sqlite"
    func wrapped(_ code: Int32, _ system: Int32) -> String {
      StoreError.wrap(
        DatabaseError(extendedCode: code, message: "disk I/O error", systemErrno: system), database: database
      ).description
    }
    let full = "cannot write \(database): the disk or your quota is full"
    #expect(wrapped(778, EDQUOT) == full)
    #expect(wrapped(778, ENOSPC) == full)
    #expect(wrapped(13, 0) == full)  // SQLITE_FULL
    #expect(
      wrapped(778, EIO) == "cannot access \(database): reading or writing it failed (SQLite: disk I/O error)")
    if case .diskFull(let path) = StoreError.wrap(
      DatabaseError(extendedCode: 778, message: "disk I/O error", systemErrno: EDQUOT), database: database)
    {
      #expect(path == database)
    } else {
      Issue.record("EDQUOT is not .diskFull")
    }
  }
}
