import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

/// A value of the wrong type in a column (written outside yarn: SQLite's INTEGER and REAL
/// columns keep a text such as `hello` as text) is reported, never read as another value
/// (SQLite's own conversion would read `hello` as 0, so 1970-01-01, or 0 g).
@Suite struct StoreColumnTypeTests {
  @Test func textInAnInstantColumnIsInvalidDataNamingTheSession() throws {
    try withTemporaryDirectory { dir in
      let store = try LibraryStore(directory: dir, mode: .readWrite)
      defer { try? store.close() }
      try store.insert(Project(id: "p1", name: "Hat"))
      try store.insert(
        TimeSession(
          id: "s1", projectID: "p1", start: Date(timeIntervalSince1970: 1000),
          end: Date(timeIntervalSince1970: 2000)))
      // As the sqlite3 shell would write it, the schema's CHECKs off.
      try store.connection.execute("PRAGMA ignore_check_constraints = ON")
      try store.connection.execute("UPDATE time_session SET start_time = 'hello' WHERE id = 's1'")
      do {
        _ = try store.sessions()
        Issue.record("a start time of 'hello' was read")
      } catch StoreError.invalidData(let kind, let id, let reason) {
        #expect(kind == .session && id == "s1")
        #expect(reason.contains("\"hello\"") && reason.hasSuffix("not an integer"))
      }
      // An end that is a REAL, not a whole number of seconds: refused as well.
      try store.connection.execute(
        "UPDATE time_session SET start_time = 1000, end_time = 2000.5 WHERE id = 's1'")
      #expect(throws: StoreError.self) { try store.sessions() }
      // Put right, it reads again.
      try store.connection.execute("UPDATE time_session SET end_time = 2000 WHERE id = 's1'")
      #expect(try store.sessions().map(\.end) == [Date(timeIntervalSince1970: 2000)])
    }
  }

  /// A day of the right shape that names no day (the CHECK's GLOB lets `2026-02-30` by) says
  /// why, in the words of every reader of days (QA: only "is not a real YYYY-MM-DD date").
  @Test func aStoredDayThatIsNoDayIsInvalidDataSayingWhy() throws {
    try withTemporaryDirectory { dir in
      let store = try LibraryStore(directory: dir, mode: .readWrite)
      defer { try? store.close() }
      try store.insert(Yarn(id: "y1", name: "Wool"))
      try store.connection.execute("UPDATE yarn SET date_added = '2026-02-30' WHERE id = 'y1'")
      do {
        _ = try store.yarns()
        Issue.record("a day of 2026-02-30 was read")
      } catch StoreError.invalidData(let kind, let id, let reason) {
        #expect(kind == .yarn && id == "y1")
        #expect(
          reason
            == "stored day \"2026-02-30\" is not a real YYYY-MM-DD date: day 30 is past the end of "
            + "February 2026, which has 28 days")
      }
    }
  }

  @Test func textInAnAmountColumnIsInvalidDataNamingTheYarn() throws {
    try withTemporaryDirectory { dir in
      let store = try LibraryStore(directory: dir, mode: .readWrite)
      defer { try? store.close() }
      try store.insert(Yarn(id: "y1", name: "Cascade 220", quantity: Amount(3, .skein)))
      try store.connection.execute("UPDATE yarn SET quantity_value = 'abc' WHERE id = 'y1'")
      do {
        _ = try store.yarns()
        Issue.record("a quantity of 'abc' was read")
      } catch StoreError.invalidData(let kind, let id, let reason) {
        #expect(kind == .yarn && id == "y1")
        #expect(reason == "stored amount \"abc\" is not a number")
      }
      // A REAL amount (2.5 skeins) is a number and reads as one.
      try store.connection.execute("UPDATE yarn SET quantity_value = 2.5 WHERE id = 'y1'")
      #expect(try store.yarns().map(\.quantity) == [Amount(2.5, .skein)])
    }
  }
}
