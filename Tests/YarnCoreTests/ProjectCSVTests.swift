import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

@Suite struct ProjectCSVTests {
  @Test func exportsEveryColumnWithHandValues() throws {
    let directory = try Fixtures.temporaryDirectory()
    defer { Fixtures.cleanUp(directory) }
    let store = try LibraryStore(directory: directory, mode: .readWrite)
    let start = Date(timeIntervalSince1970: 1_700_000_000)
    let library = Library(
      yarns: [Yarn(id: "y1", name: "Cascade 220"), Yarn(id: "y2", name: "Rios; \"red\"")],
      projects: [
        Project(
          id: "p1", name: "Flax", craft: .knitting, status: .finished,
          pattern: Pattern(name: "Flax", url: "https://example.com/flax"),
          started: CalendarDate(year: 2026, month: 1, day: 2),
          finished: CalendarDate(year: 2026, month: 2, day: 3),
          usages: [
            YarnUsage(yarnID: "y1", amount: Amount(550, .yard)),
            YarnUsage(yarnID: "y2", amount: Amount(1, .skein)),
          ], gauge: Gauge(stitches: 18, rows: 24, length: 10, unit: .centimeter), sizeMade: "2T",
          madeFor: "Leo", tags: ["baby", "gift"]),
        Project(id: "p2", name: "=cmd|' /C calc'!A0", status: .planned),
      ],
      sessions: [
        // 1 h 30 min and 35 min 59 s: 7,559 s = 2:05; the running one does not count.
        TimeSession(id: "s1", projectID: "p1", start: start, end: start.addingTimeInterval(5_400)),
        TimeSession(
          id: "s2", projectID: "p1", start: start.addingTimeInterval(6_000),
          end: start.addingTimeInterval(8_159)),
        TimeSession(id: "s3", projectID: "p2", start: start.addingTimeInterval(9_000)),
      ])
    try store.write { try store.insert(library: library) }
    var bytes: [UInt8] = []
    let count = try ProjectCSV.export(from: store, to: CSVWriter { bytes.append(contentsOf: $0) })
    #expect(count == 2)
    let expected =
      "Name,Craft,Status,Pattern,Pattern URL,Started,Finished,Gauge,Size Made,Made For,Tags,Yarns,Time,"
      + "Seconds,ID\r\n"
      + "Flax,knitting,finished,Flax,https://example.com/flax,2026-01-02,2026-02-03,"
      + "18 sts x 24 rows = 10 cm,2T,Leo,\"baby, gift\","
      + "\"Cascade 220: 550 yd; Rios; \"\"red\"\": 1 skein\",2:05,7559,p1\r\n"
      + "\"'=cmd|' /C calc'!A0\",,planned,,,,,,,,,,0:00,0,p2\r\n"
    #expect(String(decoding: bytes, as: UTF8.self) == expected)
  }

  @Test func hoursAndMinutesAndColumns() throws {
    #expect(ProjectCSV.hoursAndMinutes(0) == "0:00")
    #expect(ProjectCSV.hoursAndMinutes(59) == "0:00")
    #expect(ProjectCSV.hoursAndMinutes(3_900) == "1:05")
    #expect(ProjectCSV.hoursAndMinutes(451_800) == "125:30")
    #expect(try ProjectCSV.columns(parsing: "name, SECONDS") == [.name, .seconds])
    #expect(throws: CSVColumnError(name: "Hours", columns: ProjectCSV.Column.allCases.map(\.rawValue))) {
      try ProjectCSV.columns(parsing: "Name,Hours")
    }
  }
}
