import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

@Suite struct BackupTests {
  typealias Support = BackupTestSupport
  private let now = Date(timeIntervalSince1970: 1_796_000_000.75)  // 2026-11-30T00:53:20.75Z

  @Test func restoreOfABackupGivesTheSameLibraryAndAttachmentBytes() throws {
    try Support.withScratch { dir in
      let store = try Support.makeStore(in: dir)
      let zip = dir.appendingPathComponent("backup.zip")
      let written = try Backup.create(from: store, to: zip, generator: "yarn test", now: now)

      let target = try LibraryStore(directory: dir.appendingPathComponent("new"), mode: .readWrite)
      let read = try Backup.restore(from: zip, into: target)
      #expect(read == written)
      #expect(try target.library() == store.library())
      #expect(try Support.attachmentBytes(of: target) == Support.attachmentBytes(of: store))
      #expect(try Support.attachmentBytes(of: target).count == 4)
    }
  }

  @Test func backupRestoreBackupGivesByteIdenticalLibraryJSON() throws {
    try Support.withScratch { dir in
      let store = try Support.makeStore(in: dir)
      let first = dir.appendingPathComponent("1.zip")
      try Backup.create(from: store, to: first, generator: "yarn test", now: now)
      let target = try LibraryStore(directory: dir.appendingPathComponent("new"), mode: .readWrite)
      try Backup.restore(from: first, into: target)
      let second = dir.appendingPathComponent("2.zip")
      try Backup.create(from: target, to: second, generator: "yarn test", now: now)

      let a = try Support.readZip(first)
      let b = try Support.readZip(second)
      let libraryA = try #require(a.first { $0.0 == "library.json" }?.1)
      let libraryB = try #require(b.first { $0.0 == "library.json" }?.1)
      #expect(libraryA == libraryB)
      // Same inputs, same time: the manifests agree too.
      #expect(a.first?.1 == b.first?.1)
    }
  }

  @Test func manifestDescribesEveryFile() throws {
    try Support.withScratch { dir in
      let store = try Support.makeStore(in: dir)
      let zip = dir.appendingPathComponent("backup.zip")
      let manifest = try Backup.create(from: store, to: zip, generator: "yarn 0.1.0", now: now)
      let entries = try Support.readZip(zip)

      // The manifest first, then library.json, then the attachments in the manifest's order.
      #expect(entries.map(\.0).prefix(2) == ["manifest.json", "library.json"])
      #expect(entries.map(\.0).dropFirst(2).allSatisfy { $0.hasPrefix("attachments/") })
      #expect(entries.map(\.0).dropFirst() == manifest.files.map(\.path)[...])
      #expect(entries.count == 2 + 4)
      #expect(manifest.format == "yarn-backup")
      #expect(manifest.formatVersion == 1)
      #expect(manifest.generator == "yarn 0.1.0")
      #expect(manifest.createdAt == Date(timeIntervalSince1970: 1_796_000_000))
      #expect(
        manifest.counts
          == BackupManifest.Counts(yarns: 2, projects: 2, notes: 2, sessions: 2, attachments: 4))
      // The text attachment holds "abc": its digest is the FIPS 180-2 example's.
      #expect(
        manifest.files.contains(
          BackupManifest.File(
            path: "attachments/" + Support.abcSHA256, size: 3, sha256: Support.abcSHA256)))
      #expect(entries.first { $0.0 == "attachments/" + Support.abcSHA256 }?.1 == Data("abc".utf8))
      for file in manifest.files {
        let bytes = try #require(entries.first { $0.0 == file.path }?.1)
        #expect(Int64(bytes.count) == file.size)
        #expect(try SHA256Hasher.hexDigest(of: bytes) == file.sha256)
      }

      // manifest.json as written: sorted keys, the instant in UTC whole seconds.
      let text = String(
        decoding: try #require(entries.first { $0.0 == "manifest.json" }?.1), as: UTF8.self)
      #expect(text.contains("\"createdAt\" : \"2026-11-30T00:53:20Z\""))
      #expect(text.contains("\"formatVersion\" : 1"))
      let keys = ["counts", "createdAt", "files", "format", "formatVersion", "generator"]
      let positions = keys.compactMap { text.range(of: "\n  \"\($0)\"")?.lowerBound }
      #expect(positions.count == keys.count && positions == positions.sorted())
    }
  }

  @Test func photosAndPDFsAreStoredAndJSONIsDeflated() throws {
    try Support.withScratch { dir in
      let store = try Support.makeStore(in: dir)
      let zip = dir.appendingPathComponent("backup.zip")
      try Backup.create(from: store, to: zip, generator: "yarn test", now: now)
      let library = try store.library()
      let methods = Dictionary(
        uniqueKeysWithValues: try ZipArchive.Reader(url: zip).entries().map { ($0.name, $0.method) }
      )
      #expect(methods["manifest.json"] == 8)
      #expect(methods["library.json"] == 8)
      for attachment in library.attachments {
        let expected = attachment.mediaType == "text/plain" ? 8 : 0
        #expect(methods["attachments/" + attachment.sha256] == expected, "\(attachment.fileName)")
      }
      #expect(
        Set(library.attachments.map(\.mediaType)) == [
          "image/jpeg", "image/png", "text/plain", "application/pdf",
        ])
    }
  }

  @Test func restoresFromADirectoryHoldingTheSameFiles() throws {
    try Support.withScratch { dir in
      let store = try Support.makeStore(in: dir)
      let zip = dir.appendingPathComponent("backup.zip")
      try Backup.create(from: store, to: zip, generator: "yarn test", now: now)
      let unpacked = dir.appendingPathComponent("unpacked")
      for (name, data) in try Support.readZip(zip) {
        let url = unpacked.appendingPathComponent(name)
        try FileManager.default.createDirectory(
          at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
      }

      #expect(try Backup.verify(unpacked).counts.yarns == 2)
      let target = try LibraryStore(directory: dir.appendingPathComponent("new"), mode: .readWrite)
      try Backup.restore(from: unpacked, into: target)
      #expect(try target.library() == store.library())
      #expect(try Support.attachmentBytes(of: target) == Support.attachmentBytes(of: store))
    }
  }

  @Test func aBackupRezippedByInfoZIPRestores() throws {
    let zipTool = "/usr/bin/zip"
    guard FileManager.default.isExecutableFile(atPath: zipTool) else { return }
    try Support.withScratch { dir in
      let store = try Support.makeStore(in: dir)
      let zip = dir.appendingPathComponent("backup.zip")
      try Backup.create(from: store, to: zip, generator: "yarn test", now: now)
      let unpacked = dir.appendingPathComponent("unpacked")
      for (name, data) in try Support.readZip(zip) {
        let url = unpacked.appendingPathComponent(name)
        try FileManager.default.createDirectory(
          at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
      }
      let rezipped = dir.appendingPathComponent("rezipped.zip")
      let process = Process()
      process.executableURL = URL(fileURLWithPath: zipTool)
      process.currentDirectoryURL = unpacked
      process.arguments = ["-qr", rezipped.path, "."]
      try process.run()
      process.waitUntilExit()
      #expect(process.terminationStatus == 0)
      // Info-ZIP adds an "attachments/" directory entry, which is accepted.
      #expect(try ZipArchive.Reader(url: rezipped).entries().contains { $0.name == "attachments/" })

      let target = try LibraryStore(directory: dir.appendingPathComponent("new"), mode: .readWrite)
      try Backup.restore(from: rezipped, into: target)
      #expect(try target.library() == store.library())
    }
  }

  @Test func anEmptyLibraryBacksUpAndRestores() throws {
    try Support.withScratch { dir in
      let store = try LibraryStore(directory: dir.appendingPathComponent("lib"), mode: .readWrite)
      let zip = dir.appendingPathComponent("empty.zip")
      let manifest = try Backup.create(from: store, to: zip, generator: "yarn test", now: now)
      #expect(manifest.files.map(\.path) == ["library.json"])
      let target = try LibraryStore(directory: dir.appendingPathComponent("new"), mode: .readWrite)
      try Backup.restore(from: zip, into: target)
      #expect(try target.isEmpty())
    }
  }

  @Test func refusesToOverwriteAnExistingFileUnlessForced() throws {
    try Support.withScratch { dir in
      let store = try Support.makeStore(in: dir)
      let zip = dir.appendingPathComponent("backup.zip")
      try Data("precious".utf8).write(to: zip)
      #expect(throws: BackupError.destinationExists(path: zip.path)) {
        try Backup.create(from: store, to: zip, generator: "yarn test", now: now)
      }
      #expect(try Data(contentsOf: zip) == Data("precious".utf8))
      #expect(
        Support.listing(of: dir).filter { !$0.hasPrefix("lib/") && !$0.hasPrefix("in/") } == [
          "backup.zip"
        ])

      try Backup.create(from: store, to: zip, generator: "yarn test", now: now, force: true)
      #expect(try Backup.verify(zip).counts.attachments == 4)
    }
  }

  /// A backup onto the library's own files is refused with `force` too, before anything is
  /// written (`OutputError.intoLibrary`, in the words of docs/CLI.md "No output goes into the
  /// library"): onto its database, the database's write-ahead log, a photo in its attachments
  /// folder. An app calling `Backup.create` replaced the database with the zip.
  @Test func neverWritesOntoTheLibrarysOwnFilesEvenWithForce() throws {
    try Support.withScratch { dir in
      let store = try Support.makeStore(in: dir)
      try Support.expectNoWriteOntoLibraryFiles(of: store, in: dir) { url in
        try Backup.create(from: store, to: url, generator: "yarn test", now: now, force: true)
      }
    }
  }

  @Test func aMissingOrAlteredAttachmentFailsTheBackupAndLeavesNoFile() throws {
    try Support.withScratch { dir in
      let store = try Support.makeStore(in: dir)
      let abc = store.attachmentURL(sha256: Support.abcSHA256)
      try Data("abd".utf8).write(to: abc)  // same size, other bytes
      let zip = dir.appendingPathComponent("backup.zip")
      do {
        try Backup.create(from: store, to: zip, generator: "yarn test", now: now)
        Issue.record("expected an error")
      } catch let error as BackupError {
        guard case .attachmentsUnavailable(let attachments, let more, let exporting) = error,
          let attachment = attachments.first, attachments.count == 1, more == 0
        else {
          Issue.record("unexpected \(error)")
          return
        }
        #expect(attachment.sha256 == Support.abcSHA256)
        #expect(attachment.path == abc.path)
        #expect(!exporting)
        // The one item that holds it, named as `stash detach` takes it: the yarn by its
        // name (no other has it), the photo by its file name.
        #expect(
          attachment.uses == [AttachmentUse(kind: .yarn, item: "Cascade 220 \"Heathers\"", photo: "care.txt")]
        )
        #expect(error.description.contains(Support.abcSHA256))
      }
      #expect(!FileManager.default.fileExists(atPath: zip.path))

      try FileManager.default.removeItem(at: abc)
      do {
        try Backup.create(from: store, to: zip, generator: "yarn test", now: now)
        Issue.record("expected an error")
      } catch let error as BackupError {
        #expect(
          error.description
            == "attachment \(Support.abcSHA256) (\(abc.path)) cannot be backed up: no such file or directory")
      }
      #expect(Support.listing(of: dir).allSatisfy { $0.hasPrefix("lib/") || $0.hasPrefix("in/") })
    }
  }

  /// Every lost or altered attachment is named in one run, in the backup's order, each as
  /// one alone is, with the items that hold it: those `stat` finds (a file missing, of
  /// another size) and those only reading finds (other bytes of the same size), whichever
  /// is met first (QA: one a run, so a library with many lost files took as many runs).
  @Test func everyLostOrAlteredAttachmentIsNamedInOneRun() throws {
    try Support.withScratch { dir in
      let store = try Support.makeStore(in: dir)
      let library = try store.library()
      let cascade = "Cascade 220 \"Heathers\""
      // In the backup's order (docs/FORMAT.md): Cascade's photos front.jpg, swatch.png and
      // care.txt, then Flax's pattern PDF (the other uses repeat these).
      let (jpeg, png, text) = (
        library.yarns[0].photos[0], library.yarns[0].photos[1], library.yarns[0].photos[2]
      )
      let pdf = try #require(library.projects.first?.pattern?.pdf)
      #expect(library.attachments == [jpeg, png, text, pdf])
      func file(_ attachment: YarnModel.Attachment) -> String {
        store.attachmentURL(sha256: attachment.sha256).path
      }
      let zip = dir.appendingPathComponent("backup.zip")
      func failure() -> BackupError? {
        do {
          try Backup.create(from: store, to: zip, generator: "yarn test", now: now)
          Issue.record("expected an error")
        } catch let error as BackupError {
          return error
        } catch {
          Issue.record("unexpected \(error)")
        }
        return nil
      }
      // Only reading finds them: care.txt holds "abd", the PDF an X for its '%' (same sizes).
      try Data("abd".utf8).write(to: URL(fileURLWithPath: file(text)))
      var altered = try Data(contentsOf: URL(fileURLWithPath: file(pdf)))
      altered[0] = UInt8(ascii: "X")
      try altered.write(to: URL(fileURLWithPath: file(pdf)))
      // printf abd | sha256sum; the PDF's by sha256sum and Python's hashlib alike.
      let abd = "a52d159f262b2c6ddb724a61840befc36eb30c88877a4030b65cbe86298449c9"
      let xpdf = "41b2e41a88098ea2c389e372f63ad947777f3d7acabba67948ebdaa965bd118b"
      let textFailure = UnavailableAttachment(
        sha256: text.sha256, path: file(text), reason: "its SHA-256 is \(abd), expected \(text.sha256)",
        uses: [AttachmentUse(kind: .yarn, item: cascade, photo: "care.txt")])
      let pdfFailure = UnavailableAttachment(
        sha256: pdf.sha256, path: file(pdf), reason: "its SHA-256 is \(xpdf), expected \(pdf.sha256)",
        uses: [AttachmentUse(kind: .project, item: "Flax sweater", photo: nil)])
      #expect(failure() == .attachmentsUnavailable([textFailure, pdfFailure]))
      // With a file missing, found before anything is zipped: all three.
      try FileManager.default.removeItem(atPath: file(png))
      let pngFailure = UnavailableAttachment(
        sha256: png.sha256, path: file(png), reason: "no such file or directory",
        uses: [AttachmentUse(kind: .yarn, item: cascade, photo: "swatch.png")])
      let error = failure()
      #expect(error == .attachmentsUnavailable([pngFailure, textFailure, pdfFailure]))
      #expect(
        error?.description == """
          3 attachments cannot be backed up:
            - attachment \(png.sha256) (\(file(png))) cannot be backed up: no such file or directory
            - attachment \(text.sha256) (\(file(text))) cannot be backed up: its SHA-256 is \(abd), expected \(text.sha256)
            - attachment \(pdf.sha256) (\(file(pdf))) cannot be backed up: its SHA-256 is \(xpdf), expected \(pdf.sha256)
          """)
      #expect(!FileManager.default.fileExists(atPath: zip.path))
      #expect(Support.listing(of: dir).allSatisfy { $0.hasPrefix("lib/") || $0.hasPrefix("in/") })
    }
  }

  /// Past `Backup.maxUnavailableAttachments` (20), the lost attachments are counted, not named.
  @Test func lostAttachmentsPastTwentyAreCounted() throws {
    try Support.withScratch { dir in
      let store = try LibraryStore(directory: dir.appendingPathComponent("lib"), mode: .readWrite)
      let photo = dir.appendingPathComponent("photo.txt")
      for index in 0..<22 {
        try Data("photo \(index)".utf8).write(to: photo)
        let attachment = try store.importAttachment(from: photo)
        try store.insert(Yarn(id: "y\(index)", name: "Yarn \(index)", photos: [attachment]))
        try FileManager.default.removeItem(at: store.attachmentURL(sha256: attachment.sha256))
      }
      let zip = dir.appendingPathComponent("backup.zip")
      do {
        try Backup.create(from: store, to: zip, generator: "yarn test", now: now)
        Issue.record("expected an error")
      } catch BackupError.attachmentsUnavailable(let attachments, let more, _) {
        #expect(attachments.count == 20)
        #expect(more == 2)
        #expect(attachments.map { $0.uses.first?.item } == (0..<20).map { "Yarn \($0)" })
        let description = BackupError.attachmentsUnavailable(attachments, more: more).description
        #expect(description.hasPrefix("22 attachments cannot be backed up:\n  - attachment "))
        #expect(description.hasSuffix("\n  - 2 more attachments cannot be backed up"))
      }
      #expect(!FileManager.default.fileExists(atPath: zip.path))
    }
  }

  @Test func writingIntoAMissingDirectoryIsACannotWriteError() throws {
    try Support.withScratch { dir in
      let store = try Support.makeStore(in: dir)
      let zip = dir.appendingPathComponent("no/such/dir/backup.zip")
      #expect {
        try Backup.create(from: store, to: zip, generator: "yarn test", now: now)
      } throws: { error in
        guard case BackupError.cannotWrite(let path, _) = error else { return false }
        return path == zip.path
      }
    }
  }
}

@Suite struct BackupWriterTests {
  typealias Support = BackupTestSupport

  @Test func entriesAreTheManifestTheLibraryThenEachAttachmentAndNothingIsLeftBeside() throws {
    try Support.withScratch { dir in
      let store = try Support.makeStore(in: dir)
      let library = try store.library()
      #expect(library.attachments.count == 4)
      let url = dir.appendingPathComponent("plain.zip")
      let written = try BackupWriter.write(
        library, to: url, generator: "yarn", now: Date(timeIntervalSince1970: 1_796_000_000),
        force: false, attachmentURL: { store.attachmentURL(sha256: $0) })
      #expect(written.problems.isEmpty)
      let entries = try Support.readZip(url)
      #expect(
        entries.map(\.0)
          == ["manifest.json", "library.json"] + library.attachments.map { "attachments/" + $0.sha256 })
      #expect(entries[1].1 == (try JSONCoding.encoder().encode(library)))
      // Nothing left beside the backup but the backup and the store's folder.
      let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".") }
      #expect(names.isEmpty, "\(names)")
    }
  }
}
