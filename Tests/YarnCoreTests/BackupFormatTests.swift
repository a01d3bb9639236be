import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

/// Format versions: the golden version-1 archive, the migration chain, and `library.json`
/// written item by item.
@Suite struct BackupFormatTests {
  typealias Support = BackupTestSupport

  static let golden = Support.packageRoot.appendingPathComponent(
    "Tests/Fixtures/backup-v1/golden-v1.zip")
  static let sample = Support.packageRoot.appendingPathComponent("samples/demo")

  @Test func theGoldenVersion1ArchiveRestoresToTheSample() throws {
    try Support.withScratch { dir in
      let store = try LibraryStore(directory: dir.appendingPathComponent("lib"), mode: .readWrite)
      let manifest = try Backup.restore(from: Self.golden, into: store)
      #expect(manifest.formatVersion == 1)
      // The expected library is the sample's own library.json, decoded on its own.
      let expected = try JSONCoding.decoder().decode(
        Library.self,
        from: Data(contentsOf: Self.sample.appendingPathComponent("library.json")))
      #expect(try store.library() == expected)
      #expect(expected.yarns.count == 15 && expected.sessions.count == 40)
      // Every attachment's bytes are the sample's.
      for attachment in expected.attachments {
        let restored = try Data(contentsOf: store.attachmentURL(sha256: attachment.sha256))
        let original = try Data(
          contentsOf: Self.sample.appendingPathComponent("attachments/" + attachment.sha256))
        #expect(restored == original, "attachment \(attachment.fileName)")
      }
      // And a backup of it holds the sample's library.json byte for byte.
      let again = dir.appendingPathComponent("again.zip")
      try Backup.create(from: store, to: again, generator: "t", now: Date())
      let entries = try Support.readZip(again)
      let libraryJSON = try #require(entries.first { $0.0 == "library.json" }).1
      #expect(libraryJSON == (try Data(contentsOf: Self.sample.appendingPathComponent("library.json"))))
    }
  }

  @Test func theChainCoversEveryOlderVersion() {
    #expect(BackupMigrations.isComplete(BackupMigrations.chain, upTo: Backup.formatVersion))
    let step = BackupMigrations.Step(from: 1, summary: "x")
    #expect(BackupMigrations.isComplete([step], upTo: 2))
    #expect(!BackupMigrations.isComplete([], upTo: 2))
    #expect(!BackupMigrations.isComplete([step, step], upTo: 2))
  }

  @Test func migrationsRunInOrderOnTheDecodedJSON() throws {
    // A made-up history: version 1 called the colorway "colour", version 2 renamed it,
    // version 3 added "isStashed" (true for old yarns).
    let chain = [
      BackupMigrations.Step(
        from: 1, summary: "yarns: 'colour' renamed 'colorway'",
        library: { library in
          guard let yarns = library["yarns"]?.array else {
            throw BackupMigrations.Failure("yarns is not an array")
          }
          library["yarns"] = .array(
            yarns.map { yarn in
              guard var members = yarn.object else { return yarn }
              members["colorway"] = members.removeValue(forKey: "colour")
              return .object(members)
            })
        }),
      BackupMigrations.Step(
        from: 2, summary: "yarns: isStashed added",
        library: { library in
          guard let yarns = library["yarns"]?.array else { return }
          library["yarns"] = .array(
            yarns.map { yarn in
              guard var members = yarn.object else { return yarn }
              if members["isStashed"] == nil { members["isStashed"] = .bool(true) }
              return .object(members)
            })
        }),
    ]
    let old = Data(
      #"{"notes":[],"projects":[],"sessions":[],"yarns":[{"id":"y1","name":"Flax","colour":"Ruby","photos":[]}]}"#
        .utf8)
    let upgraded = try BackupMigrations.migrate(
      old, from: 1, to: 3, document: \.library, chain: chain)
    let library = try JSONCoding.decoder().decode(Library.self, from: upgraded)
    #expect(library.yarns == [Yarn(id: "y1", name: "Flax", colorway: "Ruby", status: .inStash)])
    // The current version is never converted.
    #expect(try BackupMigrations.migrate(old, from: 3, to: 3, document: \.library, chain: []) == old)
    // A missing step is an error naming it.
    #expect(throws: BackupMigrations.Failure("no migration from format version 2 to 3")) {
      try BackupMigrations.migrate(
        old, from: 1, to: 3, document: \.library, chain: Array(chain.prefix(1)))
    }
  }

  @Test func aNewerVersionIsRefusedNamingTheVersionNeeded() throws {
    try Support.withScratch { dir in
      let zip = dir.appendingPathComponent("v7.zip")
      try Support.writeZip(
        [("manifest.json", Data(#"{"format":"yarn-backup","formatVersion":7}"#.utf8))], to: zip)
      let error = BackupError.newerFormat(path: zip.path, found: 7, known: Backup.formatVersion)
      #expect(throws: error) { try Backup.verify(zip) }
      #expect(error.description.contains("a yarn that reads format version 7 is needed"))
    }
  }

  // MARK: library.json

  @Test(arguments: [
    ("[]", "at the top level: "),
    (#"{"notes":[],"projects":[],"sessions":[],"yarns":{}}"#, "at yarns: "),
    (#"{"notes":[],"projects":[],"sessions":[]}"#, #"at the top level: missing key "yarns""#),
    // Not JSON: said where (it said only "the given data was not valid JSON.").
    (#"{"notes":[{}{}]}"#, "not JSON at line 1, column 13: unexpected '{' where ',' or ']' belongs"),
    (#"{"notes":[,]}"#, "not JSON at line 1, column 11: unexpected ',' where a value belongs"),
    (#"{"notes":[] } x"#, "not JSON at line 1, column 15: unexpected 'x' after the JSON value"),
    (#"{"notes":[{"#, "not JSON at line 1, column 12: the text ends before the JSON does"),
    ("{\n  \"notes\": [\n    {,\n", "not JSON at line 3, column 6: unexpected ',' where a key belongs"),
    ("\u{FEFF}{\"notes\":\n[ 1.]", "not JSON at line 2, column 5: unexpected ']' in a number"),
    (
      "{\"notes\":[],\"\u{E9}\u{7}\":1}",
      "not JSON at line 1, column 15: unexpected byte 0x07 (a control character) in a string"
    ),
  ])
  func whatIsNotALibraryIsRefusedAsAWhole(text: String, message: String) {
    let problems = BackupReader.decode(Data(text.utf8)).problems
    #expect(problems.count == 1, "\(text)")
    guard case .invalidLibrary(let reason) = problems.first else {
      Issue.record("expected an invalid library for \(text), got \(problems)")
      return
    }
    #expect(reason.hasPrefix(message), "\(reason)")
  }

  /// Bytes that are not UTF-8 are not JSON (RFC 8259 §8.1): the document is refused as a
  /// whole, at the line and column of the byte, in the words of `weft import`, whether in a
  /// field an item reads, one it skips, or a member of the document no item is in (QA: named
  /// by the item only, and passed where the decoder skips). Columns counted by hand.
  @Test(arguments: [
    // {"id":"y","name":"Gr: the byte is the 21st character of line 2.
    (
      yarnsDocument(
        Data(#"{"id":"y","name":"Gr"#.utf8) + [0xE4] + Data(#"ndma","isStashed":true,"photos":[]}"#.utf8)),
      "line 2, column 21: byte 0xE4"
    ),
    // 55 characters before the byte, in a key no yarn has.
    (
      yarnsDocument(
        Data(#"{"id":"y","name":"a","isStashed":true,"photos":[],"x":""#.utf8) + [0xFF] + Data(#""}"#.utf8)),
      "line 2, column 56: byte 0xFF"
    ),
    // A lead byte the next one does not continue, after an é (one character, two bytes).
    (
      yarnsDocument(
        Data(#"{"id":"y","name":"a","isStashed":true,"photos":[],"x":"é"#.utf8) + [0xC3, 0x41]
          + Data(#""}"#.utf8)),
      "line 2, column 57: byte 0xC3"
    ),
    // In a member of the document, not in an item.
    (
      Data("{\"x\":\n\"".utf8) + [0xFF] + Data(#"","notes":[],"projects":[],"sessions":[],"yarns":[]}"#.utf8),
      "line 2, column 2: byte 0xFF"
    ),
  ])
  func bytesThatAreNotUTF8AreNamedByLineAndColumn(document: Data, place: String) {
    #expect(
      BackupReader.decode(document).problems == [.invalidLibrary(reason: "not JSON at \(place) is not UTF-8")]
    )
  }

  @Test func itemsThatDoNotDecodeAreNamedByTheirPath() throws {
    try Support.withScratch { dir in
      let library =
        #"{"notes":[],"projects":[],"sessions":[],"yarns":[{"id":"y","name":"a","isStashed":true,"photos":[],"weight":9}]}"#
      let data = Data(library.utf8)
      let manifest = BackupManifest(
        formatVersion: 1, createdAt: Date(timeIntervalSince1970: 0), generator: "hand",
        counts: .init(yarns: 1, projects: 0, notes: 0, sessions: 0, attachments: 0),
        files: [
          .init(path: "library.json", size: Int64(data.count), sha256: try SHA256Hasher.hexDigest(of: data))
        ])
      let zip = dir.appendingPathComponent("w.zip")
      try Support.writeZip(
        [("manifest.json", try JSONCoding.encoder().encode(manifest)), ("library.json", data)], to: zip)
      do {
        try Backup.verify(zip)
        Issue.record("expected invalidBackup")
      } catch BackupError.invalidBackup(_, let problems) {
        #expect(problems.count == 1)
        #expect(
          problems.first?.description.hasPrefix("library.json is not a valid library: at yarns[0].weight")
            == true)
      }
    }
  }
}

/// A library document whose `yarns` holds `yarn`, on line 2.
private func yarnsDocument(_ yarn: Data) -> Data {
  Data("{\"notes\":[],\"projects\":[],\"sessions\":[],\"yarns\":[\n".utf8) + yarn + Data("]}".utf8)
}
