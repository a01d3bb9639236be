import Foundation
import Testing

@testable import YarnCore

/// `LibraryJSONEncoder` and `LibraryItemDecoder` against Foundation's `JSONEncoder` and
/// `JSONDecoder`, which stay the definition of `library.json`.
@Suite struct LibraryJSONCodecTests {
  typealias Support = BackupTestSupport

  private func decodeBoth(_ key: String, _ text: String) -> (
    mine: Result<LibraryItem, Error>, foundation: Bool
  ) {
    let data = Data(text.utf8)
    let mine = Result { try data.withUnsafeBytes { try LibraryItemDecoder.decode(key: key, from: $0) } }
    let decoder = JSONCoding.decoder()
    let foundation: Bool
    switch key {
    case "yarns": foundation = (try? decoder.decode(Yarn.self, from: data)) != nil
    case "projects": foundation = (try? decoder.decode(Project.self, from: data)) != nil
    case "notes": foundation = (try? decoder.decode(Note.self, from: data)) != nil
    default: foundation = (try? decoder.decode(TimeSession.self, from: data)) != nil
    }
    return (mine, foundation)
  }

  @Test func generatedItemsDecodeAsJSONDecoderDecodesThem() throws {
    try Support.withScratch { dir in
      let files = dir.appendingPathComponent("files")
      try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
      for seed in UInt64(100)...130 {
        let store = try LibraryStore(directory: dir.appendingPathComponent("s\(seed)"), mode: .readWrite)
        let library = try BackupLawTests.library(seed: seed, store: store, files: files)
        let encoder = JSONCoding.encoder()
        func check<T: Encodable & Equatable>(_ key: String, _ items: [T], _ unwrap: (LibraryItem) -> T?)
          throws
        {
          for item in items {
            let data = try encoder.encode(item)
            let decoded = try data.withUnsafeBytes { try LibraryItemDecoder.decode(key: key, from: $0) }
            #expect(unwrap(decoded) == item, "seed \(seed)")
            // And the fast encoder writes what JSONEncoder writes, at the top level too.
            var fast = LibraryJSONEncoder()
            switch decoded {
            case .yarn(let yarn): try fast.yarn(yarn, indent: 0)
            case .project(let project): try fast.project(project, indent: 0)
            case .note(let note): fast.note(note, indent: 0)
            case .session(let session): fast.session(session, indent: 0)
            }
            #expect(Data(fast.buffer) == data, "seed \(seed)")
          }
        }
        try check("yarns", library.yarns) { if case .yarn(let x) = $0 { x } else { nil } }
        try check("projects", library.projects) { if case .project(let x) = $0 { x } else { nil } }
        try check("notes", library.notes) { if case .note(let x) = $0 { x } else { nil } }
        try check("sessions", library.sessions) { if case .session(let x) = $0 { x } else { nil } }
        try store.close()
      }
    }
  }

  @Test(arguments: [
    // Accepted by both: unknown keys, null optionals, escapes, surrogate pairs, spaces.
    (
      #"{"id":"y","name":"a\u00e9\ud83e\uddf6\/\"","isStashed":true,"photos":[],"extra":[1,{"x":null}],"brand":null}"#,
      true
    ),
    (#" { "id" : "y" , "name" : "", "isStashed" : false , "photos" : [ ] , "weight" : 7 } "#, true),
    (#"{"id":"y","name":"a","isStashed":true,"photos":[],"quantity":{"value":-1.5e-3,"unit":"oz"}}"#, true),
    // Refused by both.
    (#"{"id":"y","name":"a","isStashed":true}"#, false),  // photos missing
    (#"{"id":"y","name":"a","isStashed":"yes","photos":[]}"#, false),
    (#"{"id":"y","name":null,"isStashed":true,"photos":[]}"#, false),
    (#"{"id":"y","name":"a","isStashed":true,"photos":[],"weight":8}"#, false),
    (#"{"id":"y","name":"a","isStashed":true,"photos":[],"weight":"4"}"#, false),
    (#"{"id":"y","name":"a","isStashed":true,"photos":[],"quantity":{"value":1,"unit":"kg"}}"#, false),
    (#"{"id":"y","name":"a","isStashed":true,"photos":[],"quantity":{"value":1e999,"unit":"g"}}"#, false),
    (#"{"id":"y","name":"a","isStashed":true,"photos":[],"quantity":{"value":01,"unit":"g"}}"#, false),
    (#"{"id":"y","name":"a","isStashed":true,"photos":[],"dateAdded":"2026-02-30"}"#, false),
    (#"{"id":"y","name":"a\ud800","isStashed":true,"photos":[]}"#, false),
    ("{\"id\":\"y\",\"name\":\"a\ttab\",\"isStashed\":true,\"photos\":[]}", false),
    (
      #"{"id":"y","name":"a","isStashed":true,"photos":[{"fileName":"f","mediaType":"m","byteCount":1.5,"sha256":"x"}]}"#,
      false
    ),
    (#"{"id":"y","name":"a","isStashed":true,"photos":[]} x"#, false),
    (#"["id"]"#, false),
  ])
  func brokenYarnsAreRefusedLikeJSONDecoderRefusesThem(text: String, accepted: Bool) {
    let (mine, foundation) = decodeBoth("yarns", text)
    #expect(foundation == accepted, "JSONDecoder on \(text)")
    switch mine {
    case .success: #expect(accepted, "accepted \(text)")
    case .failure(let error): #expect(!accepted, "refused \(text): \(error)")
    }
  }

  @Test func instantsAndSessionsDecodeAsJSONDecoderDecodesThem() throws {
    let texts = [
      #"{"id":"s","projectID":"p","start":"2026-03-29T14:30:00Z"}"#,
      #"{"id":"s","projectID":"p","start":"2026-03-29T16:30:00.250+02:00","end":null}"#,
      #"{"id":"s","projectID":"p","start":"1600-01-01T00:00:00Z","end":"9999-12-31T23:59:59Z"}"#,
      #"{"id":"s","projectID":"p","start":"1900-02-28T23:59:59Z","note":"\u0000"}"#,
    ]
    for text in texts {
      let data = Data(text.utf8)
      let foundation = try JSONCoding.decoder().decode(TimeSession.self, from: data)
      let mine = try data.withUnsafeBytes { try LibraryItemDecoder.decode(key: "sessions", from: $0) }
      guard case .session(let session) = mine else {
        Issue.record("not a session")
        continue
      }
      #expect(session == foundation, "\(text)")
    }
    // Before 1582 Foundation's ISO8601DateFormatter reads dates as Julian, while
    // JSONCoding.formatInstant writes proleptic Gregorian ones (ISO 8601's own rule); the
    // decoder reads them back as written.
    for seconds in [-62_135_596_800.0, -12_219_292_800, -50_000_000_000] {
      let date = Date(timeIntervalSince1970: seconds)
      #expect(LibraryItemDecoder.fastInstant(JSONCoding.formatInstant(date)) == date)
    }
    #expect(JSONCoding.formatInstant(Date(timeIntervalSince1970: -62_135_596_800)) == "0001-01-01T00:00:00Z")
    #expect(LibraryItemDecoder.fastInstant("2026-02-29T00:00:00Z") == nil)  // not a leap year
    #expect(
      LibraryItemDecoder.fastInstant("2024-02-29T12:00:00Z")
        == Date(timeIntervalSince1970: 1_709_208_000))
  }

  @Test func trailingCommasAreRefused() {
    // JSONDecoder lets `,}` pass; RFC 8259 does not, and neither does verify or restore.
    let text = #"{"id":"y","name":"a","isStashed":true,"photos":[],}"#
    #expect(throws: ItemDecodingError.self) {
      try Data(text.utf8).withUnsafeBytes { try LibraryItemDecoder.decode(key: "yarns", from: $0) }
    }
  }

  @Test func deepNestingIsRefusedWithoutExhaustingTheStack() {
    let deep =
      #"{"id":"y","name":"a","isStashed":true,"photos":[],"x":"# + String(repeating: "[", count: 100_000)
      + String(repeating: "]", count: 100_000) + "}"
    let data = Data(deep.utf8)
    #expect(throws: ItemDecodingError.self) {
      try data.withUnsafeBytes { try LibraryItemDecoder.decode(key: "yarns", from: $0) }
    }
  }
}
