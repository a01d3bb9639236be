import Foundation
import Testing

@testable import YarnCore

/// The three jobs end to end on `samples/demo` (an unpacked backup), through the built binary.
@Suite struct SampleEndToEndTests {
  /// `samples/demo` of this package, found from this file's path.
  static let sample = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("samples/demo", isDirectory: true)

  @Test func restoreExportBackupRestoreExport() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let document = try JSONCoding.decoder().decode(
      Library.self, from: Data(contentsOf: Self.sample.appendingPathComponent("library.json")))

    try yarn.ok(["backup", "restore", Self.sample.path])
    let csv = try yarn.ok(["stash", "export"]).stdout

    // The CSV parses back to one record per sample yarn, with the sample's names and IDs.
    var reader = CSVReader(data: Data(csv.utf8))
    var records: [CSVRecord] = []
    while let record = try reader.next() { records.append(record) }
    try #require(records.count == document.yarns.count + 1)
    #expect(records[0].fields == StashCSV.defaultColumns.map(\.rawValue))
    let nameColumn = try #require(records[0].fields.firstIndex(of: "Name"))
    let idColumn = try #require(records[0].fields.firstIndex(of: "ID"))
    #expect(records.dropFirst().map { $0.fields[nameColumn] } == document.yarns.map(\.name))
    #expect(records.dropFirst().map { $0.fields[idColumn] } == document.yarns.map(\.id))

    // Backup, restore into a new library, export again: byte-identical CSV.
    try yarn.ok(["backup", "create", "again.zip"])
    let second = yarn.directory.appendingPathComponent("second").path
    let restore = try yarn.run(["--library", second, "backup", "restore", "again.zip"], useLibrary: false)
    #expect(restore.status == 0, "\(restore.stderr)")
    let secondCSV = try yarn.run(["--library", second, "stash", "export"], useLibrary: false)
    #expect(secondCSV.stdout == csv)

    // The time log holds every sample session, each with its project's name.
    let log = try #require(try yarn.ok(["time", "log", "--json"]).json() as? [[String: Any]])
    #expect(log.count == document.sessions.count)
    let names = Set(document.projects.map(\.name))
    #expect(log.allSatisfy { names.contains($0["project"] as? String ?? "") })
  }
}
