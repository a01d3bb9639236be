import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

/// The items of `library.json`: each decoded by its own `Codable` conformance
/// (`BackupReader.decode`), a problem named by its path in the document; a document that is
/// not JSON is named as a whole.
@Suite struct LibraryJSONItemTests {
  typealias Support = BackupTestSupport

  /// `text` as the one item of the array `key` of a library document, decoded.
  private func decode(_ key: String, _ text: String) -> BackupReader.LibraryRead {
    let arrays = ["notes", "projects", "sessions", "yarns"].map {
      "\"\($0)\":[" + ($0 == key ? text : "") + "]"
    }
    return BackupReader.decode(Data(("{" + arrays.joined(separator: ",") + "}").utf8))
  }

  /// What verify says of `text` as the one yarn of a library, as `describe` words it.
  private func problem(ofYarn text: String) -> String {
    guard let problem = decode("yarns", text).problems.first else { return "accepted" }
    guard case .invalidLibrary(let reason) = problem else { return problem.description }
    return reason
  }

  /// The one session of a library whose `sessions` array holds `text`.
  private func decodeSession(_ text: String) throws -> TimeSession {
    let read = decode("sessions", text)
    #expect(read.problems.isEmpty, "\(read.problems)")
    return try #require(read.library.sessions.first)
  }

  @Test func generatedItemsDecodeAsTheyWereEncoded() throws {
    try Support.withScratch { dir in
      let files = dir.appendingPathComponent("files")
      try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
      let encoder = JSONCoding.encoder()
      for seed in UInt64(100)...110 {
        let store = try LibraryStore(directory: dir.appendingPathComponent("s\(seed)"), mode: .readWrite)
        let library = try BackupLawTests.library(seed: seed, store: store, files: files)
        let decoded = BackupReader.decode(try encoder.encode(library))
        #expect(decoded.problems.isEmpty, "seed \(seed)")
        #expect(decoded.library == library, "seed \(seed)")
        try store.close()
      }
    }
  }

  @Test(arguments: [
    // Unknown keys, null optionals, escapes, surrogate pairs, spaces.
    #"{"id":"y","name":"a\u00e9\ud83e\uddf6\/\"","isStashed":true,"photos":[],"extra":[1,{"x":null}],"brand":null}"#,
    #" { "id" : "y" , "name" : "", "isStashed" : false , "photos" : [ ] , "weight" : 7 } "#,
    #"{"id":"y","name":"a","isStashed":true,"photos":[],"quantity":{"value":-1.5e-3,"unit":"oz"}}"#,
  ])
  func wellFormedYarnsDecode(text: String) {
    #expect(problem(ofYarn: text) == "accepted")
  }

  @Test(arguments: [
    (#"{"id":"y","name":"a","isStashed":true}"#, #"at yarns[0]: missing key "photos""#),
    (#"{"id":"y","name":"a","isStashed":"yes","photos":[]}"#, "at yarns[0].isStashed: "),
    (#"{"id":"y","name":null,"isStashed":true,"photos":[]}"#, "at yarns[0].name: "),
    (#"{"id":"y","name":"a","isStashed":true,"photos":[],"weight":8}"#, "at yarns[0].weight: "),
    (#"{"id":"y","name":"a","isStashed":true,"photos":[],"weight":"4"}"#, "at yarns[0].weight: "),
    (
      #"{"id":"y","name":"a","isStashed":true,"photos":[],"quantity":{"value":1,"unit":"kgs"}}"#,
      "at yarns[0].quantity.unit: "
    ),
    (
      #"{"id":"y","name":"a","isStashed":true,"photos":[],"dateAdded":"2026-02-30"}"#,
      "at yarns[0].dateAdded: "
    ),
    (
      #"{"id":"y","name":"a","isStashed":true,"photos":[{"fileName":"f","mediaType":"m","sha256":"x"}]}"#,
      #"at yarns[0].photos[0]: missing key "byteCount""#
    ),
    // Not JSON inside an item, or numbers no Swift type holds: named by the item, with the
    // parser's reason; text that breaks the document's structure is named as a whole.
    (
      #"{"id":"y","name":"a","isStashed":true,"photos":[],"quantity":{"value":1e999,"unit":"g"}}"#,
      "at yarns[0]: "
    ),
    (
      #"{"id":"y","name":"a","isStashed":true,"photos":[],"quantity":{"value":01,"unit":"g"}}"#,
      "at yarns[0]: "
    ),
    (#"{"id":"y","name":"a\ud800","isStashed":true,"photos":[]}"#, "at yarns[0]: "),
    ("{\"id\":\"y\",\"name\":\"a\ttab\",\"isStashed\":true,\"photos\":[]}", "at yarns[0]: "),
    (
      #"{"id":"y","name":"a","isStashed":true,"photos":[{"fileName":"f","mediaType":"m","byteCount":1.5,"sha256":"x"}]}"#,
      "at yarns[0]"
    ),
    (
      #"{"id":"y","name":"a","isStashed":true,"photos":[]} x"#,
      "not JSON at line 1, column 101: unexpected 'x'"
    ),
    (#"["id"]"#, "at yarns[0]: "),
  ])
  func brokenYarnsAreRefusedAndNamed(text: String, prefix: String) {
    let problem = problem(ofYarn: text)
    #expect(problem != "accepted", "\(text)")
    #expect(problem.hasPrefix(prefix), "\(problem)")
  }

  @Test func bytesThatAreNotJSONAreNamedByTheirItem() {
    // JSONDecoder (swift-foundation) says only "not valid JSON", without a position: the
    // strict reading WEFT import uses says what (as it does for `1e400`).
    let problem = problem(ofYarn: "{\"id\":\"y\",\"name\":\"a\u{7}\",\"isStashed\":true,\"photos\":[]}")
    #expect(problem == "at yarns[0]: unexpected byte 0x07 (a control character) in a string", "\(problem)")
  }

  @Test func instantsOfAnyYearDecodeAsWritten() throws {
    // Seconds from Python's proleptic Gregorian datetime; before 1582 ISO8601DateFormatter
    // would read these days as Julian, 10 or more days off.
    let text =
      #"{"id":"s","projectID":"p","start":"1066-10-14T09:30:00Z","end":"1600-01-01T00:00:00Z","note":"\u0000"}"#
    let session = try decodeSession(text)
    #expect(session.start == Date(timeIntervalSince1970: -28_502_721_000))
    #expect(session.end == Date(timeIntervalSince1970: -11_676_096_000))
    #expect(session.note == "\u{0}")
    let other = try decodeSession(#"{"id":"s","projectID":"p","start":"2026-03-29T16:30:00.250+02:00"}"#)
    #expect(other.start == Date(timeIntervalSince1970: 1_774_794_600.25))
    #expect(other.end == nil)
  }

  @Test func deepNestingIsRefusedWithoutExhaustingTheStack() {
    let deep =
      #"{"id":"y","name":"a","isStashed":true,"photos":[],"x":"# + String(repeating: "[", count: 100_000)
      + String(repeating: "]", count: 100_000) + "}"
    // The 513th level (the document's object is the first): its `[` is at column 49 + 54 + 510.
    #expect(problem(ofYarn: deep) == "not JSON at line 1, column 613: nested deeper than 512 levels")
  }

  @Test func theFirstTwentyItemsThatDoNotDecodeAreNamedTheRestCounted() throws {
    try Support.withScratch { dir in
      let good = #"{"id":"g","name":"a","isStashed":true,"photos":[]}"#
      let bad = (0..<25).map { #"{"id":"b\#($0)","name":"a","isStashed":true,"photos":[],"weight":9}"# }
      let library =
        #"{"notes":[],"projects":[],"sessions":[],"yarns":["# + ([good] + bad).joined(separator: ",") + "]}"
      let data = Data(library.utf8)
      let manifest = BackupManifest(
        formatVersion: 1, createdAt: Date(timeIntervalSince1970: 0), generator: "hand",
        counts: .init(yarns: 26, projects: 0, notes: 0, sessions: 0, attachments: 0),
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
        let texts = problems.map(\.description)
        #expect(texts.count == 21)
        for index in 1...20 {
          #expect(
            texts[index - 1].hasPrefix("library.json is not a valid library: at yarns[\(index)].weight"),
            "\(texts[index - 1])")
        }
        #expect(texts.last == "library.json is not a valid library: 5 more items do not decode")
      }
    }
  }
}
