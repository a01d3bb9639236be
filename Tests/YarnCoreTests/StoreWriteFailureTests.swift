import Foundation
import Testing

@testable import YarnModel
@testable import YarnStore

/// A write the disk cannot take: the store's error names the library's database file and
/// says what happened in plain words, and the library is left as it was.
@Suite struct StoreWriteFailureTests {
  /// No room for a change (a page limit stands in for a full disk: SQLite reports both as
  /// SQLITE_FULL, sqlite.org/rescode.html): `cannot write PATH: the disk is full`, without
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
          == "cannot write \(database): the disk is full")
      #expect(try store.yarns().map(\.name) == ["Rios"])
      #expect(try store.history().count == 1)
    }
  }
}
