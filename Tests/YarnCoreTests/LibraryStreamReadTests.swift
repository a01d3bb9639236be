import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

/// `library.json` read item by item (`LibraryDocumentReader` over `JSONMemberScanner`): what
/// `JSONDecoder` (swift-foundation) accepts and refuses when it decodes the whole document is
/// accepted and refused alike, in the same words (its behaviour on each document was seen by
/// decoding it whole), and backups larger than a read's piece verify and restore to the same
/// library.
@Suite struct LibraryStreamReadTests {
  typealias Support = BackupTestSupport

  private static let yarn1 = #"{"id":"y1","name":"a","isStashed":true,"photos":[]}"#
  private static let yarn2 = #"{"id":"y2","name":"b","isStashed":true,"photos":[]}"#

  /// A document of the four arrays, `members` after them.
  private func document(yarns: [String] = [], _ members: String = "") -> Data {
    Data(
      (#"{"notes":[],"projects":[],"sessions":[],"yarns":["# + yarns.joined(separator: ",") + "]"
        + members + "}").utf8)
  }

  /// The reasons of the problems of decoding `data`.
  private func reasons(_ data: Data) -> [String] {
    BackupReader.decode(data).problems.map {
      guard case .invalidLibrary(let reason) = $0 else { return $0.description }
      return reason
    }
  }

  private static let notJSON = "at the top level: the given data was not valid JSON."

  @Test func theFirstOfTwoKeysCountsTheLaterIsOnlyCheckedToBeJSON() {
    let read = BackupReader.decode(document(yarns: [Self.yarn1], #","yarns":[{"id":"y2"}, 01]"#))
    #expect(read.problems.isEmpty)
    #expect(read.library.yarns.map(\.id) == ["y1"])
    #expect(
      reasons(document(yarns: [Self.yarn1], #","yarns":[1x]"#)) == [
        "not JSON at line 1, column 113: unexpected 'x' where ',' or ']' belongs"
      ])
    #expect(reasons(document(yarns: [Self.yarn1], #","yarns":5"#)).isEmpty)
  }

  @Test func otherMembersAreOnlyCheckedToBeJSON() {
    // Numbers and strings JSONDecoder checks only when it decodes them.
    #expect(reasons(document(#","x":[01,1e999,"\q",{"a\qb":1}],"y":-"#)).isEmpty)
    // Said where (the document's arrays take columns 1 to 50).
    #expect(
      reasons(document(#","x":[1,,2]"#)) == [
        "not JSON at line 1, column 59: unexpected ',' where a value belongs"
      ])
    #expect(reasons(document(#","x":tru"#)) == ["not JSON at line 1, column 59: unexpected '}'"])
    #expect(
      reasons(document(#","x":"\u12""#)) == [#"not JSON at line 1, column 61: unexpected '"' in a \u escape"#]
    )
  }

  @Test func keysAreDecodedWithTheirEscapes() {
    let read = BackupReader.decode(
      Data((#"{"n\u006ftes":[],"projects":[],"sessions":[],"y\u0061rns":["# + Self.yarn1 + "]}").utf8))
    #expect(read.problems.isEmpty)
    #expect(read.library.yarns.map(\.id) == ["y1"])
    // A key JSONDecoder cannot decode makes the document not JSON, even an unknown one.
    #expect(reasons(document(#","x\ud800":1"#)) == [Self.notJSON])
    #expect(
      reasons(document(#","x\q":1"#)) == [
        #"not JSON at line 1, column 55: unexpected 'q' after '\' in a string"#
      ])
  }

  @Test(arguments: [
    // In JSON's words, not Swift's (`Dictionary<String, Any>`, `Array<Any>`, containers).
    ("5", "at the top level: expected an object, found a number"),
    ("null", "at the top level: expected an object, found null"),
    (
      #"{"notes":[],"projects":[],"sessions":[],"yarns":[],"tools":5}"#,
      "at tools: expected a list, found a number"
    ),
    (#"{"yarns":{},"notes":{}}"#, "at notes: expected a list, found an object"),
    (#"{"notes":null,"projects":[],"sessions":[],"yarns":[]}"#, "at notes: expected a list, found null"),
    (#"{"notes":[],"projects":[],"yarns":"x"}"#, #"at the top level: missing key "sessions""#),
  ])
  func aDocumentOfAnotherShapeIsNamedAsJSONDecoderNamesIt(text: String, reason: String) {
    let found = reasons(Data(text.utf8))
    #expect(found.count == 1)
    #expect(found.first == reason, "\(found)")
  }

  @Test func toolsMayBeNullOrAbsent() {
    #expect(reasons(document(#","tools":null"#)).isEmpty)
    #expect(reasons(document()).isEmpty)
  }

  @Test func itemsThatDoNotDecodeAreListedArrayByArrayInTheDocumentsOldOrder() {
    // tools before yarns in the file, as yarn writes it (sorted keys); their problems are
    // listed after the yarns', as when the document was decoded whole.
    let text =
      #"{"notes":[],"projects":[],"sessions":[],"tools":[{"id":"t"}],"yarns":[{"id":"y"}]}"#
    let found = reasons(Data(text.utf8))
    #expect(found.count == 2)
    #expect(found.first?.hasPrefix("at yarns[0]: ") == true, "\(found)")
    #expect(found.last?.hasPrefix("at tools[0]: ") == true, "\(found)")
  }

  @Test func anItemLongerThanTheLimitIsRefusedNamingIt() {
    let limits = BackupLimits(maxItemBytes: 64)
    let long =
      #"{"id":"y3","name":""# + String(repeating: "x", count: 100) + #"","isStashed":true,"photos":[]}"#
    let read = BackupReader.decode(document(yarns: [Self.yarn1, long]), limits: limits)
    #expect(read.problems == [.invalidLibrary(reason: "at yarns[1]: the item is longer than 64 bytes")])
  }

  @Test func aDocumentFedInPiecesReadsAsAWhole() throws {
    let text = document(yarns: [Self.yarn1, Self.yarn2], #","tools":[]"#)
    let whole = BackupReader.decode(text)
    #expect(whole.problems.isEmpty)
    for size in 1...9 {
      var library = Library()
      let reader = LibraryDocumentReader(check: nil, maxItemBytes: 1 << 20) { item, _ in
        library.append(item)
      }
      var start = 0
      while start < text.count {
        let end = min(text.count, start + size)
        text[start..<end].withUnsafeBytes { reader.feed($0) }
        start = end
      }
      #expect(reader.finish().isEmpty)
      #expect(library == whole.library, "size \(size)")
    }
  }

  // MARK: Backups larger than a read's piece (64 KiB from a zip, 1 MiB from a directory)

  /// A library of `count` yarns (names long enough that `library.json` spans many pieces),
  /// a project using the first two, a note on the first and a session of the project.
  private func largeLibrary(count: Int) -> Library {
    let yarns = (0..<count).map { index in
      Yarn(id: "y\(index)", name: "Yarn \(index) " + String(repeating: "ø[]\"{", count: 30))
    }
    let project = Project(
      id: "p1", name: "Hat",
      usages: [
        YarnUsage(yarnID: "y0", amount: Amount(1, .skein)),
        YarnUsage(yarnID: "y1", amount: Amount(2, .skein)),
      ])
    return Library(
      yarns: yarns, projects: [project],
      notes: [Note(id: "n1", subject: .yarn("y0"), text: "soft", created: Date(timeIntervalSince1970: 0))],
      sessions: [
        TimeSession(
          id: "s1", projectID: "p1", start: Date(timeIntervalSince1970: 1_000),
          end: Date(timeIntervalSince1970: 2_000))
      ])
  }

  private func write(_ library: Library, to zip: URL, in dir: URL) throws {
    _ = try BackupWriter.write(
      library, to: zip, generator: "t", now: Date(timeIntervalSince1970: 0), force: true,
      attachmentURL: { dir.appendingPathComponent($0) })
  }

  @Test func aLargeBackupVerifiesAndRestoresToTheSameLibrary() throws {
    try Support.withScratch { dir in
      let library = largeLibrary(count: 2_000)
      let zip = dir.appendingPathComponent("large.zip")
      try write(library, to: zip, in: dir)
      let entries = try Support.readZip(zip)
      let json = try #require(entries.first { $0.0 == "library.json" }).1
      #expect(json.count > 4 << 16)
      try Backup.verify(zip)
      let store = try LibraryStore(directory: dir.appendingPathComponent("lib"), mode: .readWrite)
      try Backup.restore(from: zip, into: store)
      #expect(try store.library() == library)
      // Backed up again: the same library.json, byte for byte.
      let again = dir.appendingPathComponent("again.zip")
      try Backup.create(from: store, to: again, generator: "t", now: Date(timeIntervalSince1970: 0))
      #expect(try Support.readZip(again).first { $0.0 == "library.json" }?.1 == json)
      try store.close()
    }
  }

  /// `library.json` of `library` changed by `edit`, in a zip with a manifest that matches it.
  private func backup(
    _ library: Library, in dir: URL, name: String, edit: (String) -> String
  ) throws -> URL {
    let zip = dir.appendingPathComponent(name)
    try write(library, to: zip, in: dir)
    var entries = try Support.readZip(zip)
    let index = try #require(entries.firstIndex { $0.0 == "library.json" })
    let data = Data(edit(String(decoding: entries[index].1, as: UTF8.self)).utf8)
    entries[index].1 = data
    let manifestIndex = try #require(entries.firstIndex { $0.0 == "manifest.json" })
    var manifest = try JSONCoding.decoder().decode(BackupManifest.self, from: entries[manifestIndex].1)
    manifest.files = manifest.files.map { file in
      guard file.path == "library.json" else { return file }
      var changed = file
      changed.size = Int64(data.count)
      changed.sha256 = (try? SHA256Hasher.hexDigest(of: data)) ?? ""
      return changed
    }
    entries[manifestIndex].1 = try JSONCoding.encoder().encode(manifest)
    try Support.writeZip(entries, to: zip)
    return zip
  }

  /// The problems of verifying `zip`, and that restoring it into an empty library refuses it
  /// with the same problems and leaves the library empty.
  private func problems(of zip: URL, in dir: URL) throws -> [String] {
    var verified: [String] = []
    do { try Backup.verify(zip) } catch BackupError.invalidBackup(_, let problems) {
      verified = problems.map(\.description)
    }
    let store = try LibraryStore(
      directory: dir.appendingPathComponent("lib-" + zip.lastPathComponent), mode: .readWrite)
    defer { try? store.close() }
    var restored: [String] = []
    do { try Backup.restore(from: zip, into: store) } catch BackupError.invalidBackup(_, let problems) {
      restored = problems.map(\.description)
    }
    #expect(restored == verified)
    #expect(try store.isEmpty())
    return verified
  }

  @Test func everyKindOfProblemAfterManyPiecesIsFoundAndChangesNothing() throws {
    try Support.withScratch { dir in
      let library = largeLibrary(count: 1_500)
      let last = #""id" : "y1499""#
      // Not JSON at the very end, after every item decoded.
      let trailing = try backup(library, in: dir, name: "trailing.zip") { $0 + " x" }
      // Said where, from the entry read again: after the last line's `}`.
      let said = try problems(of: trailing, in: dir)
      #expect(said.count == 1)
      #expect(
        said.first?.hasPrefix("library.json is not a valid library: not JSON at line ") == true, "\(said)")
      #expect(said.first?.hasSuffix(", column 3: unexpected 'x' after the JSON value") == true, "\(said)")
      // The last yarn does not decode.
      let undecodable = try backup(library, in: dir, name: "undecodable.zip") {
        $0.replacingOccurrences(of: last, with: #""id" : 7"#)
      }
      let found = try problems(of: undecodable, in: dir)
      #expect(found.count == 1)
      #expect(
        found.first?.hasPrefix("library.json is not a valid library: at yarns[1499].id: ") == true, "\(found)"
      )
      // The last yarn breaks a rule; a duplicate ID; a usage of a missing yarn.
      let lineBreak = try backup(library, in: dir, name: "line-break.zip") {
        $0.replacingOccurrences(of: #""name" : "Yarn 1499 "#, with: #""name" : "Yarn\n1499 "#)
      }
      let broken = try problems(of: lineBreak, in: dir)
      #expect(broken.count == 1)
      #expect(broken.first?.hasPrefix("library.json: yarn y1499 (Yarn\\n1499 ") == true, "\(broken)")
      let duplicate = try backup(library, in: dir, name: "duplicate.zip") {
        $0.replacingOccurrences(of: last, with: #""id" : "y1498""#)
      }
      #expect(try problems(of: duplicate, in: dir) == ["library.json: 2 yarns have the ID y1498"])
      // QA: three yarns of one ID said "two yarns have the ID" twice; once, counting them all,
      // in digits ("two" beside "3" mixed a word and a digit).
      let triplicate = try backup(library, in: dir, name: "triplicate.zip") {
        $0.replacingOccurrences(of: last, with: #""id" : "y1497""#)
          .replacingOccurrences(of: #""id" : "y1498""#, with: #""id" : "y1497""#)
      }
      #expect(try problems(of: triplicate, in: dir) == ["library.json: 3 yarns have the ID y1497"])
      let missing = try backup(library, in: dir, name: "missing.zip") {
        $0.replacingOccurrences(of: #""id" : "y1","#, with: #""id" : "y-gone","#)
      }
      #expect(
        try problems(of: missing, in: dir) == [
          "library.json: project p1 (Hat) uses yarn y1, which is missing"
        ])
    }
  }

  @Test func aRestoreTakesTheCheckOfItsOwnBackupOnly() throws {
    try Support.withScratch { dir in
      let library = largeLibrary(count: 300)
      let good = dir.appendingPathComponent("good.zip")
      try write(library, to: good, in: dir)
      let checked = try Backup.checkLibrary(of: good)
      #expect(
        checked.counts
          == BackupManifest.Counts(yarns: 300, projects: 1, notes: 1, sessions: 1, attachments: 0, tools: 0))
      var options = RestoreOptions()
      options.checked = checked
      let store = try LibraryStore(directory: dir.appendingPathComponent("lib"), mode: .readWrite)
      let report = try Backup.restore(from: good, into: store, options: options)
      #expect(report.added == checked.counts)
      #expect(try store.library() == library)
      try store.close()
      // The check of another backup is not taken for this one: it is checked, and refused.
      let bad = try backup(library, in: dir, name: "bad.zip") {
        $0.replacingOccurrences(of: #""id" : "y299""#, with: #""id" : "y298""#)
      }
      let other = try LibraryStore(directory: dir.appendingPathComponent("other"), mode: .readWrite)
      #expect(throws: BackupError.self) { try Backup.restore(from: bad, into: other, options: options) }
      #expect(try other.isEmpty())
      try other.close()
    }
  }
}
