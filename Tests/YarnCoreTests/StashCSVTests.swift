import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

@Suite struct StashCSVTests {
  /// A stash of two yarns; Cascade 220 (3 skeins, 220 yd / 100 g) has 150 g used by a finished
  /// project and 1 skein by one in progress: 1.5 skeins remain by default, 0.5 with active ones.
  func makeStore(_ directory: URL) throws -> LibraryStore {
    let store = try LibraryStore(directory: directory, mode: .readWrite)
    let cascade = Yarn(
      id: "y1", name: "Cascade 220", brand: "Cascade Yarns", colorway: "Ruby, \"deep\"", weight: .medium,
      fiber: "100% wool", lengthPerSkein: Amount(220, .yard), netWeightPerSkein: Amount(100, .gram),
      quantity: Amount(3, .skein), purchaseLocation: "=HYPERLINK(\"x\")",
      dateAdded: CalendarDate(year: 2026, month: 1, day: 5))
    let plain = Yarn(
      id: "y2", name: "Mystery", status: .willTrade, price: Price(minorUnits: 2999, currency: "EUR"),
      storedIn: "blue bin, closet", tags: ["gift", "Sock yarn"])
    let library = Library(
      yarns: [cascade, plain],
      projects: [
        Project(
          id: "p1", name: "Flax", status: .finished,
          finished: CalendarDate(year: 2026, month: 1, day: 15),
          usages: [YarnUsage(yarnID: "y1", amount: Amount(150, .gram))]),
        Project(
          id: "p2", name: "Hat", status: .inProgress,
          usages: [YarnUsage(yarnID: "y1", amount: Amount(1, .skein))]),
      ],
      notes: [
        Note(
          id: "n1", subject: .yarn("y1"), text: "soft\nsquishy", created: Date(timeIntervalSince1970: 1_000)),
        Note(id: "n2", subject: .yarn("y1"), text: "from Leo", created: Date(timeIntervalSince1970: 2_000)),
      ])
    try store.write { try store.insert(library: library) }
    return store
  }

  func export(
    _ store: LibraryStore, columns: [StashCSV.Column] = StashCSV.defaultColumns, includeActive: Bool = false
  )
    throws -> [UInt8]
  {
    var bytes: [UInt8] = []
    let writer = CSVWriter { bytes.append(contentsOf: $0) }
    try StashCSV.export(from: store, to: writer, columns: columns, includeActive: includeActive)
    return bytes
  }

  @Test func exportsEveryColumnWithHandValues() throws {
    let directory = try Fixtures.temporaryDirectory()
    defer { Fixtures.cleanUp(directory) }
    let store = try makeStore(directory)
    let bytes = try export(store)
    let text = String(decoding: bytes, as: UTF8.self)
    let expected =
      "Name,Brand,Colorway,Color Family,Dye Lot,Weight,Fiber,Length per Skein,Length Unit,Net Weight per Skein,"
      + "Net Weight Unit,Quantity,Quantity Unit,Remaining,Remaining Unit,Remaining Source,Purchase Location,"
      + "Date Added,Status,Price,Stored In,Tags,Notes,ID\r\n"
      + "Cascade 220,Cascade Yarns,\"Ruby, \"\"deep\"\"\",,,4 Medium (worsted),100% wool,220,yd,100,g,3,skein,"
      + "1.5,skein,estimate,\"'=HYPERLINK(\"\"x\"\")\",2026-01-05,in-stash,,,,\"soft\nsquishy\n\nfrom Leo\",y1\r\n"
      + "Mystery,,,,,,,,,,,,,,,unknown,,,will-trade,29.99 EUR,\"blue bin, closet\",\"gift, Sock yarn\",,y2\r\n"
    #expect(text == expected)
  }

  @Test func columnsAndActiveProjects() throws {
    let directory = try Fixtures.temporaryDirectory()
    defer { Fixtures.cleanUp(directory) }
    let store = try makeStore(directory)
    let columns = try StashCSV.columns(parsing: "name, REMAINING,Remaining Unit")
    let text = String(decoding: try export(store, columns: columns, includeActive: true), as: UTF8.self)
    #expect(text == "Name,Remaining,Remaining Unit\r\nCascade 220,0.5,skein\r\nMystery,,\r\n")
    #expect(throws: CSVColumnError(name: "Colour", columns: StashCSV.Column.allCases.map(\.rawValue))) {
      try StashCSV.columns(parsing: "Name,Colour")
    }
  }

  /// The public export: the same bytes as the writer's, with `CSVOptions` applied.
  @Test func exportAsDataMatchesTheWriterAndAppliesTheOptions() throws {
    let directory = try Fixtures.temporaryDirectory()
    defer { Fixtures.cleanUp(directory) }
    let store = try makeStore(directory)
    #expect(Array(try StashCSV.export(from: store)) == (try export(store)))

    let data = try StashCSV.export(
      from: store, options: CSVOptions(delimiter: UInt8(ascii: ";"), byteOrderMark: true),
      columns: [.name, .remaining, .remainingUnit, .purchaseLocation], includeActive: true)
    #expect(Array(data.prefix(3)) == [0xEF, 0xBB, 0xBF])
    #expect(
      String(decoding: data.dropFirst(3), as: UTF8.self)
        == "Name;Remaining;Remaining Unit;Purchase Location\r\n"
        + "Cascade 220;0.5;skein;\"'=HYPERLINK(\"\"x\"\")\"\r\nMystery;;;\r\n")

    let unguarded = try StashCSV.export(
      from: store, options: CSVOptions(formulaGuard: false), columns: [.name, .purchaseLocation])
    #expect(
      String(decoding: unguarded, as: UTF8.self)
        == "Name,Purchase Location\r\nCascade 220,\"=HYPERLINK(\"\"x\"\")\"\r\nMystery,\r\n")
  }
}
