import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

@Suite struct CSVColumnsTests {
  let header = ["Project", "Start", "End", "Seconds"]

  @Test func positionsInTheListsOrderAnyCase() throws {
    #expect(try CSVColumns.positions(parsing: " seconds,PROJECT ", in: header) == [3, 0])
    #expect(try CSVColumns.positions(parsing: "", in: header) == [])
  }

  /// An import finds a stash column's cells by `ordinal`, which must be its place in
  /// `allCases` (a column added to the list and not to the switch would read another's cells).
  @Test func everyStashColumnsOrdinalIsItsPlace() {
    #expect(StashCSV.Column.allCases.map(\.ordinal) == Array(0..<StashCSV.Column.allCases.count))
  }

  @Test func unknownAndRepeatedNamesAreRefused() {
    #expect(throws: CSVColumnError(name: "Hours", columns: header)) {
      try CSVColumns.positions(parsing: "Project,Hours", in: header)
    }
    #expect(throws: CSVColumnError(name: "Project", problem: .repeated, columns: header)) {
      try CSVColumns.positions(parsing: "Project,Seconds,project", in: header)
    }
    #expect(
      CSVColumnError(name: "Hours", columns: header).description
        == "unknown column \"Hours\"; the columns are: Project, Start, End, Seconds")
    #expect(
      CSVColumnError(name: "Name", problem: .repeated, columns: header).description
        == "the column \"Name\" is named twice")
  }

  /// QA: `--columns 'Sta<U+200B>rt'` quoted the name raw in the reason; it is escaped.
  @Test func anUnknownNameIsQuotedEscaped() {
    #expect(
      CSVColumnError(name: "Sta\u{200B}rt", columns: header).description
        == "unknown column \"Sta\\u{200B}rt\"; the columns are: Project, Start, End, Seconds")
    #expect(
      CSVColumnError(name: "Start\u{1B}", problem: .repeated, columns: header).description
        == "the column \"Start\\u{1B}\" is named twice")
  }

  @Test func everyExportReadsItsColumnsThroughIt() throws {
    #expect(try StashCSV.columns(parsing: "ID,name") == [.id, .name])
    #expect(try ProjectCSV.columns(parsing: "Seconds") == [.seconds])
    #expect(throws: CSVColumnError.self) { try StashCSV.columns(parsing: "Name,Name") }
  }
}
