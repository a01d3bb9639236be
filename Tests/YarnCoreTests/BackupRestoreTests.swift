import Foundation
import Testing

@testable import YarnCore

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

  @Test func aFailureInsideTheStoreTakesTheAttachmentsBackOut() throws {
    try Support.withScratch { dir in
      // A session that ends before it starts passes the backup's checks but not the store's.
      let photo = Attachment(
        fileName: "care.txt", mediaType: "text/plain", byteCount: 3, sha256: Support.abcSHA256)
      let library = Library(
        yarns: [Yarn(id: "y1", name: "Cascade 220", photos: [photo])],
        projects: [Project(id: "p1", name: "Hat")],
        sessions: [
          TimeSession(
            id: "s1", projectID: "p1", start: Date(timeIntervalSince1970: 2000),
            end: Date(timeIntervalSince1970: 1000))
        ])
      let files = dir.appendingPathComponent("files")
      try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
      try Data("abc".utf8).write(to: files.appendingPathComponent(Support.abcSHA256))
      let zip = dir.appendingPathComponent("b.zip")
      _ = try BackupWriter.write(
        library, to: zip, generator: "t", now: Date(timeIntervalSince1970: 0), force: false,
        attachmentURL: { files.appendingPathComponent($0) })
      #expect(try Backup.verify(zip).counts.sessions == 1)

      let target = try emptyStore(dir)
      let before = try snapshot(target)
      #expect(throws: StoreError.self) { try Backup.restore(from: zip, into: target) }
      let after = try snapshot(target)
      #expect(after.0 == before.0 && after.1 == before.1)
      #expect(!target.hasAttachment(sha256: Support.abcSHA256))
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
