import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

/// A backup's `library.json` written item by item (`BackupWriter.writeLibrary` through
/// `JSONStream`) is byte for byte the whole library encoded at once by
/// `JSONCoding.encoder()`, the encoding docs/FORMAT.md specifies.
@Suite struct LibraryJSONStreamTests {
  typealias Support = BackupTestSupport

  /// The bytes `writeLibrary` writes of `items`, and what it saw.
  private func streamed(_ items: BackupWriter.Items) throws -> (Data, BackupWriter.Streamed) {
    var bytes = Data()
    let check = LibraryCheck()
    var seen: BackupWriter.Streamed?
    try items.read {
      seen = try BackupWriter.writeLibrary(
        items, to: JSONStream { bytes.append(contentsOf: $0) }, check: check)
    }
    return (bytes, try #require(seen))
  }

  @Test func everyKindOfItemFromTheStoreIsWrittenAsTheWholeEncoderWritesIt() throws {
    try Support.withScratch { dir in
      let store = try Support.makeStore(in: dir)
      try store.insert(
        Tool(
          id: "0e000000-0000-4000-8000-000000000001", name: "Addi 4 mm", kind: .circular,
          size: NeedleSize(millimetres: 4), lengthCentimetres: 80, material: "brass",
          projectIDs: ["0b000000-0000-4000-8000-000000000001"]))
      let library = try store.library()
      // Every kind, with empty arrays inside items (a yarn without photos, a project
      // without photos) and a photo a project shares with yarns.
      #expect(library.tools.count == 1 && library.notes.count == 2 && library.sessions.count == 2)
      #expect(library.projects.contains { $0.photos.isEmpty })
      let (bytes, seen) = try streamed(BackupWriter.Items(store: store))
      #expect(bytes == (try JSONCoding.encoder().encode(library)))
      #expect(seen.attachments == library.attachments)
      #expect(
        seen.counts
          == BackupManifest.Counts(
            yarns: 2, projects: 2, notes: 2, sessions: 2, attachments: 4, tools: 1))
    }
  }

  @Test func anEmptyLibraryHasEmptyArraysAndNoTools() throws {
    let (bytes, seen) = try streamed(BackupWriter.Items(Library()))
    // By hand: the encoder's pretty form of four empty arrays, sorted keys, no `tools`.
    let expected = """
      {
        "notes" : [

        ],
        "projects" : [

        ],
        "sessions" : [

        ],
        "yarns" : [

        ]
      }
      """
    #expect(String(decoding: bytes, as: UTF8.self) == expected)
    #expect(bytes == (try JSONCoding.encoder().encode(Library())))
    #expect(seen.attachments.isEmpty)
  }

  /// A circular needle in the first of `projects` (if any) and a cable in none.
  private static func tools(projects: [Project]) -> [Tool] {
    [
      Tool(
        id: "t-1", name: "Chiaogoo \"Red\" 3.5 mm", kind: .circular,
        size: NeedleSize(millimetres: 3.5), lengthCentimetres: 60,
        projectIDs: projects.prefix(1).map(\.id)),
      Tool(id: "t-2", name: "Cable\n", kind: .cable, count: 2),
    ]
  }

  @Test func generatedLibrariesAreWrittenAsTheWholeEncoderWritesThem() throws {
    try Support.withScratch { dir in
      let files = dir.appendingPathComponent("files")
      try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
      for seed in UInt64(1)...30 {
        let store = try LibraryStore(directory: dir.appendingPathComponent("s-\(seed)"), mode: .readWrite)
        var library = try BackupLawTests.library(seed: seed, store: store, files: files)
        // Each library without tools and with two (the document's two forms).
        for tools in [[], Self.tools(projects: library.projects)] {
          library.tools = tools
          let (bytes, seen) = try streamed(BackupWriter.Items(library))
          #expect(bytes == (try JSONCoding.encoder().encode(library)), "seed \(seed)")
          #expect(seen.attachments == library.attachments, "seed \(seed)")
          #expect(seen.counts == BackupManifest.Counts(of: library), "seed \(seed)")
        }
      }
    }
  }
}
