import Foundation
import Testing

@testable import YarnCore

/// `LibraryStore.checkingConstraintsAtEnd`: the schema's CHECKs, not run on each row, still
/// refuse a bad row before anything commits, and run on each row again afterwards.
@Suite struct StoreDeferredChecksTests {
  /// A yarn of weight 9, which `weight BETWEEN 0 AND 7` refuses (raw SQL: the typed insert
  /// cannot express it).
  private static let badYarn = "INSERT INTO yarn (id, name, weight, is_stashed) VALUES ('bad', 'Bad', 9, 1)"

  @Test func aRowBreakingACheckRollsEverythingBack() throws {
    try withTemporaryDirectory { dir in
      let store = try LibraryStore(directory: dir, mode: .readWrite)
      defer { try? store.close() }
      do {
        try store.write {
          try store.checkingConstraintsAtEnd {
            try store.insert(Yarn(id: "good", name: "Good"))
            try store.connection.run(StoreDeferredChecksTests.badYarn)
          }
        }
        Issue.record("a yarn of weight 9 was committed")
      } catch StoreError.database(let error) {
        #expect(error.extendedCode == 275)  // SQLITE_CONSTRAINT_CHECK
        #expect(error.message.contains("CHECK constraint failed in yarn"))
      }
      #expect(try store.yarns().isEmpty)

      // The statement prepared while the checks waited is prepared again with them.
      do {
        try store.write { try store.connection.run(StoreDeferredChecksTests.badYarn) }
        Issue.record("a yarn of weight 9 was committed after checkingConstraintsAtEnd")
      } catch StoreError.database(let error) {
        #expect(error.extendedCode == 275)
        #expect(error.message.contains("weight BETWEEN 0 AND 7"))
      }
      #expect(try store.yarns().isEmpty)
    }
  }

  @Test func validRowsCommit() throws {
    try withTemporaryDirectory { dir in
      let store = try LibraryStore(directory: dir, mode: .readWrite)
      defer { try? store.close() }
      let yarn = Yarn(
        id: "y", name: "Sock", weight: .superFine, quantity: Amount(2, .skein),
        dateAdded: CalendarDate(year: 2026, month: 3, day: 29))
      let count = try store.write {
        try store.checkingConstraintsAtEnd {
          try store.insert(yarn)
          return 1
        }
      }
      #expect(count == 1)
      #expect(try store.yarns() == [yarn])
    }
  }

  @Test func outsideAWriteTransactionItThrows() throws {
    try withTemporaryDirectory { dir in
      let store = try LibraryStore(directory: dir, mode: .readWrite)
      defer { try? store.close() }
      var ran = false
      do {
        try store.checkingConstraintsAtEnd { ran = true }
        Issue.record("checkingConstraintsAtEnd ran outside a transaction")
      } catch StoreError.database(let error) {
        #expect(error.message.contains("inside a write transaction"))
      }
      #expect(!ran)
    }
  }
}
