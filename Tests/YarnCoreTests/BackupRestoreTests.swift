import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

/// Restore into a store: all or nothing.
@Suite struct BackupRestoreTests {
  typealias Support = BackupTestSupport

  /// What a library directory holds that a failed restore must not change: its records and
  /// the files besides SQLite's own.
  private func snapshot(_ store: LibraryStore) throws -> (Library, [String]) {
    let files = Support.listing(of: store.directory).filter { !$0.hasPrefix("library.sqlite") }
    let hidden = (try? FileManager.default.contentsOfDirectory(atPath: store.directory.path)) ?? []
    return (try store.library(), files + hidden.filter { $0.hasPrefix(".") })
  }

  private func emptyStore(_ dir: URL) throws -> LibraryStore {
    try LibraryStore(directory: dir.appendingPathComponent("target"), mode: .readWrite)
  }

  /// Writes `library` as the backup `dir/name` (no attachments) and returns its path.
  private func backup(_ library: Library, named name: String, in dir: URL) throws -> URL {
    let zip = dir.appendingPathComponent(name)
    _ = try BackupWriter.write(
      library, to: zip, generator: "t", now: Date(timeIntervalSince1970: 0), force: false,
      attachmentURL: { dir.appendingPathComponent($0) })
    return zip
  }

  /// `verify` and `restore` into an empty library refuse `zip` alike, with exactly
  /// `problem`, and the library stays empty.
  private func expectRefusedAlike(_ zip: URL, _ problem: BackupProblem, target: LibraryStore) throws {
    #expect(throws: BackupError.invalidBackup(path: zip.path, problems: [problem])) {
      try Backup.verify(zip)
    }
    #expect(throws: BackupError.invalidBackup(path: zip.path, problems: [problem])) {
      try Backup.restore(from: zip, into: target)
    }
    #expect(try target.isEmpty())
  }

  @Test(arguments: ["random", "truncated"])
  func aCorruptZipChangesNothing(kind: String) throws {
    try Support.withScratch { dir in
      let source = try Support.makeStore(in: dir)
      let good = dir.appendingPathComponent("good.zip")
      try Backup.create(from: source, to: good, generator: "t", now: Date(timeIntervalSince1970: 0))
      let bad = dir.appendingPathComponent("bad.zip")
      let bytes = try Data(contentsOf: good)
      try
        (kind == "random"
        ? Support.noise(count: bytes.count, seed: 5) : bytes.prefix(bytes.count / 2))
        .write(to: bad)

      let target = try emptyStore(dir)
      let before = try snapshot(target)
      #expect(throws: BackupError.self) { try Backup.restore(from: bad, into: target) }
      let after = try snapshot(target)
      #expect(after.0 == before.0 && after.1 == before.1)
    }
  }

  @Test(arguments: [
    "zipfoundation/testSimpleTraversalAttack.zip", "zipfoundation/testUnzipUncontainedSymlink.zip",
    "kd2fw-zipbomb/zipbomb_1G.zip", "unzip-p-testdata/zbsm.zip", "unzip-p-testdata/badcrc.zip",
  ])
  func hostileArchivesChangeNothing(name: String) throws {
    try Support.withScratch { dir in
      let target = try emptyStore(dir)
      let before = try snapshot(target)
      let started = Date()
      #expect(throws: BackupError.self) {
        try Backup.restore(from: Support.sharedZip(name), into: target)
      }
      #expect(Date().timeIntervalSince(started) < 2)
      let after = try snapshot(target)
      #expect(after.0 == before.0 && after.1 == before.1)
      #expect(Support.listing(of: dir).allSatisfy { $0.hasPrefix("target/") })
    }
  }

  @Test func aWrongAttachmentDigestRestoresNothing() throws {
    try Support.withScratch { dir in
      let source = try Support.makeStore(in: dir)
      let zip = dir.appendingPathComponent("b.zip")
      try Backup.create(from: source, to: zip, generator: "t", now: Date(timeIntervalSince1970: 0))
      // Re-pack with the "abc" attachment's bytes changed (same size).
      let entries = try Support.readZip(zip).map { entry -> (String, Data) in
        entry.0 == "attachments/" + Support.abcSHA256 ? (entry.0, Data("abd".utf8)) : entry
      }
      let tampered = dir.appendingPathComponent("tampered.zip")
      try Support.writeZip(entries, to: tampered)

      let target = try emptyStore(dir)
      do {
        try Backup.restore(from: tampered, into: target)
        Issue.record("expected an error")
      } catch BackupError.invalidBackup(_, let problems) {
        #expect(problems.count == 1)
        guard case .digestMismatch(let path, let expected, _) = problems.first else {
          Issue.record("unexpected \(problems)")
          return
        }
        #expect(path == "attachments/" + Support.abcSHA256)
        #expect(expected == Support.abcSHA256)
      }
      #expect(try target.isEmpty())
      #expect(try Support.attachmentBytes(of: target).isEmpty)
    }
  }

  @Test func verifyRefusesWhatTheStoreWouldRefuse() throws {
    try Support.withScratch { dir in
      // A session that ends before it starts: the store refuses it at insert, so verify
      // must refuse it too, and restore must refuse it before changing anything.
      let library = Library(
        projects: [Project(id: "p1", name: "Hat")],
        sessions: [
          TimeSession(
            id: "s1", projectID: "p1", start: Date(timeIntervalSince1970: 2000),
            end: Date(timeIntervalSince1970: 1000)),
          // Lasts half a second, but in whole seconds (as the store keeps them) from 3000 to
          // 3001: fine.
          TimeSession(
            id: "s2", projectID: "p1", start: Date(timeIntervalSince1970: 3000.75),
            end: Date(timeIntervalSince1970: 3001.25)),
        ])
      let expected = BackupProblem.brokenRule(
        kind: "session", id: "s1", name: nil,
        violation: RuleViolation(
          field: "end", reason: "1970-01-01T00:16:40Z is not after the start 1970-01-01T00:33:20Z"))
      try expectRefusedAlike(
        try backup(library, named: "b.zip", in: dir), expected, target: try emptyStore(dir))
    }
  }

  /// Each rule of the model (`Rules`) broken in a backup: verify and restore (into an empty
  /// library and with `--merge`) refuse it alike, naming the record as `library.json: KIND ID (NAME): FIELD REASON`, and the store
  /// refuses the same record in the same words (without `library.json: `).
  @Test(arguments: [
    (
      Library(yarns: [Yarn(id: "y1", name: "Rios\nAzul")]),
      "library.json: yarn y1 (Rios\\nAzul): name holds a line break (U+000A); it must be one line"
    ),
    (
      Library(yarns: [Yarn(id: "y1", name: "Rios", quantity: Amount(-5, .gram))]),
      "library.json: yarn y1 (Rios): quantity -5 g is negative"
    ),
    (
      Library(projects: [Project(id: "p1", name: "Hat", status: .finished)]),
      "library.json: project p1 (Hat): finished day is missing; a finished project has one"
    ),
    (
      Library(
        yarns: [Yarn(id: "y1", name: "Rios")],
        notes: [Note(id: "n1", subject: .yarn("y1"), text: "  ", created: Date(timeIntervalSince1970: 0))]),
      "library.json: note n1: text is blank"
    ),
    (
      Library(
        projects: [Project(id: "p1", name: "Hat")],
        sessions: [
          TimeSession(
            id: "s1", projectID: "p1", start: Date(timeIntervalSince1970: 0),
            end: Date(timeIntervalSince1970: 90_000))
        ]),
      "library.json: session s1: length 25h is over the limit of 24h (one sitting)"
    ),
    (
      // 4102444800 s is 2100-01-01T00:00:00Z: in the future for a good while.
      Library(
        projects: [Project(id: "p1", name: "Hat")],
        sessions: [TimeSession(id: "s1", projectID: "p1", start: Date(timeIntervalSince1970: 4_102_444_800))]),
      "library.json: session s1: start 2100-01-01T00:00:00Z is in the future (now is "
    ),
  ])
  func everyRuleIsRefusedAlikeByVerifyRestoreAndTheStore(library: Library, expected: String) throws {
    try Support.withScratch { dir in
      let zip = try backup(library, named: "b.zip", in: dir)
      var verified: [String] = []
      do { try Backup.verify(zip) } catch BackupError.invalidBackup(_, let problems) {
        verified = problems.map(\.description)
      }
      #expect(verified.count == 1 && verified[0].hasPrefix(expected), "\(verified)")
      let target = try emptyStore(dir)
      var restored: [String] = []
      do { try Backup.restore(from: zip, into: target) } catch BackupError.invalidBackup(_, let problems) {
        restored = problems.map(\.description)
      }
      #expect(restored.count == 1 && restored[0].hasPrefix(expected), "\(restored)")
      #expect(try target.isEmpty())
      // A merge into a library that holds something refuses it alike, changing nothing.
      let full = try Support.makeStore(in: dir)
      let before = try full.library()
      var merged: [String] = []
      do {
        try Backup.restore(from: zip, into: full, options: RestoreOptions(mode: .merge))
      } catch BackupError.invalidBackup(_, let problems) {
        merged = problems.map(\.description)
      }
      #expect(merged.count == 1 && merged[0].hasPrefix(expected), "\(merged)")
      #expect(try full.library() == before)
      do {
        try target.insert(library: library)
        Issue.record("the store took \(expected)")
      } catch let error as StoreError {
        #expect("library.json: \(error)".hasPrefix(expected))
      }
    }
  }

  @Test func idsAreComparedByTheirBytesAsTheStoreComparesThem() throws {
    try Support.withScratch { dir in
      // "café" twice: U+00E9 (composed) and "e" + U+0301 (decomposed). Swift calls the two
      // strings equal; SQLite's UNIQUE and foreign keys compare their bytes, which differ.
      let composed = "caf\u{E9}"
      let decomposed = "cafe\u{301}"
      #expect(composed == decomposed && Array(composed.utf8) != Array(decomposed.utf8))

      // A usage naming the other form: the store refuses it, so verify must too.
      let dangling = Library(
        yarns: [Yarn(id: composed, name: "Composed")],
        projects: [
          Project(
            id: "p1", name: "Hat", usages: [YarnUsage(yarnID: decomposed, amount: Amount(1, .skein))])
        ])
      let expected = BackupProblem.inconsistentLibrary(
        reason: "project p1 (Hat) uses yarn \(decomposed), which is missing")
      let target = try emptyStore(dir)
      try expectRefusedAlike(try backup(dangling, named: "dangling.zip", in: dir), expected, target: target)

      // Two yarns whose IDs differ only so are two yarns to the store: verify agrees.
      let twins = Library(
        yarns: [Yarn(id: composed, name: "Composed"), Yarn(id: decomposed, name: "Decomposed")])
      let twinsZip = try backup(twins, named: "twins.zip", in: dir)
      #expect(try Backup.verify(twinsZip).counts.yarns == 2)
      try Backup.restore(from: twinsZip, into: target)
      #expect(try target.yarns().map(\.name) == ["Composed", "Decomposed"])
    }
  }

  @Test func aFailureInsideTheStoreTakesTheAttachmentsBackOut() throws {
    try Support.withScratch { dir in
      let photo = Attachment(
        fileName: "care.txt", mediaType: "text/plain", byteCount: 3, sha256: Support.abcSHA256)
      let library = Library(
        yarns: [Yarn(id: "y1", name: "Cascade 220", photos: [photo])],
        projects: [Project(id: "p1", name: "Hat")],
        sessions: [
          TimeSession(
            id: "s1", projectID: "p1", start: Date(timeIntervalSince1970: 1000),
            end: Date(timeIntervalSince1970: 2000))
        ])
      let files = dir.appendingPathComponent("files")
      try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
      try Data("abc".utf8).write(to: files.appendingPathComponent(Support.abcSHA256))
      let zip = dir.appendingPathComponent("b.zip")
      _ = try BackupWriter.write(
        library, to: zip, generator: "t", now: Date(timeIntervalSince1970: 0), force: false,
        attachmentURL: { files.appendingPathComponent($0) })
      #expect(try Backup.verify(zip).counts.sessions == 1)

      // The store fails at the last insert (as on a full disk): a trigger makes it so.
      let target = try emptyStore(dir)
      try target.connection.execute(
        "CREATE TEMP TRIGGER fail BEFORE INSERT ON time_session "
          + "BEGIN SELECT RAISE(ABORT, 'simulated failure'); END")
      let before = try snapshot(target)
      #expect(throws: StoreError.self) { try Backup.restore(from: zip, into: target) }
      let after = try snapshot(target)
      #expect(after.0 == before.0 && after.1 == before.1)
      #expect(!target.hasAttachment(sha256: Support.abcSHA256))
      #expect(try target.isEmpty())
    }
  }

  @Test func refusesANonEmptyLibrary() throws {
    try Support.withScratch { dir in
      let source = try Support.makeStore(in: dir)
      let zip = dir.appendingPathComponent("b.zip")
      try Backup.create(from: source, to: zip, generator: "t", now: Date(timeIntervalSince1970: 0))
      let target = try emptyStore(dir)
      try target.insert(Yarn(id: "mine", name: "My own yarn"))
      let before = try snapshot(target)
      #expect(throws: BackupError.libraryNotEmpty(path: target.directory.path)) {
        try Backup.restore(from: zip, into: target)
      }
      let after = try snapshot(target)
      #expect(after.0 == before.0 && after.1 == before.1)
      #expect(after.0.yarns.map(\.id) == ["mine"])
    }
  }
}
