import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

@Suite struct ZipArchiveTests {
  typealias Scratch = BackupTestSupport

  private let instant = Date(timeIntervalSince1970: 1_790_000_000)

  @Test func writesDataAndFileEntriesAndReadsThemBack() throws {
    try Scratch.withScratch { dir in
      let photo = Scratch.noise(count: 200_000, seed: 1)
      let photoURL = dir.appendingPathComponent("photo.bin")
      try photo.write(to: photoURL)
      let text = Data(String(repeating: "knit one, purl one\n", count: 500).utf8)
      let zipURL = dir.appendingPathComponent("out.zip")

      let writer = try ZipArchive.Writer(url: zipURL, overwrite: false)
      try writer.add(
        name: "notes/ünïcode.txt", data: text, compression: .deflate, modified: instant)
      try writer.addFile(
        name: "photo.jpg", from: photoURL, expectedSize: Int64(photo.count),
        expectedSHA256: try SHA256Hasher.hexDigest(of: photo), compression: .store,
        modified: instant)
      try writer.close()

      let reader = try ZipArchive.Reader(url: zipURL)
      let entries = try reader.entries()
      #expect(entries.map(\.name) == ["notes/ünïcode.txt", "photo.jpg"])
      #expect(entries[0].method == 8)
      #expect(entries[0].size == Int64(text.count))
      #expect(entries[0].compressedSize < Int64(text.count))
      #expect(entries[1].method == 0)
      #expect(entries[1].compressedSize == 200_000)
      #expect(!entries[0].isSymbolicLink && !entries[0].isEncrypted)
      #expect(try reader.data(at: 0, limit: 1 << 20) == text)
      #expect(try reader.data(at: 1, limit: 200_000) == photo)
      #expect(reader.index(of: "photo.jpg") == 1)
      #expect(reader.index(of: "PHOTO.JPG") == nil)
    }
  }

  @Test func leavesNoFileBehindAfterWriting() throws {
    try Scratch.withScratch { dir in
      let writer = try ZipArchive.Writer(url: dir.appendingPathComponent("a.zip"), overwrite: false)
      try writer.add(name: "x", data: Data("x".utf8), compression: .deflate, modified: instant)
      try writer.close()
      #expect(Scratch.listing(of: dir) == ["a.zip"])
      // Info-ZIP agrees the archive is sound (its own CRC check).
      let unzip = Process()
      unzip.executableURL = URL(fileURLWithPath: "/usr/bin/unzip")
      unzip.arguments = ["-tqq", dir.appendingPathComponent("a.zip").path]
      if FileManager.default.isExecutableFile(atPath: "/usr/bin/unzip") {
        try unzip.run()
        unzip.waitUntilExit()
        #expect(unzip.terminationStatus == 0)
      }
    }
  }

  @Test func refusesToReplaceAnExistingFileUnlessAllowed() throws {
    try Scratch.withScratch { dir in
      let target = dir.appendingPathComponent("a.zip")
      try Data("keep me".utf8).write(to: target)
      let writer = try ZipArchive.Writer(url: target, overwrite: false)
      try writer.add(name: "x", data: Data("x".utf8), compression: .deflate, modified: instant)
      #expect(throws: ZipError.self) { try writer.close() }
      #expect(try Data(contentsOf: target) == Data("keep me".utf8))
      #expect(Scratch.listing(of: dir) == ["a.zip"])

      let forced = try ZipArchive.Writer(url: target, overwrite: true)
      try forced.add(name: "x", data: Data("x".utf8), compression: .deflate, modified: instant)
      try forced.close()
      #expect(try ZipArchive.Reader(url: target).count == 1)
    }
  }

  @Test func failsWhenAStreamedFileChangedBeforeClose() throws {
    try Scratch.withScratch { dir in
      let file = dir.appendingPathComponent("f.bin")
      let original = Data("original bytes".utf8)
      try original.write(to: file)
      let sha = try SHA256Hasher.hexDigest(of: original)
      let target = dir.appendingPathComponent("a.zip")

      // Same size, other bytes: only the digest tells.
      let sameSize = try ZipArchive.Writer(url: target, overwrite: false)
      try sameSize.addFile(
        name: "f", from: file, expectedSize: Int64(original.count), expectedSHA256: sha,
        compression: .deflate, modified: instant)
      try Data("ORIGINAL BYTES".utf8).write(to: file)
      do {
        try sameSize.close()
        Issue.record("close should fail")
      } catch let error as ZipError {
        #expect(error.description.contains("sha-256"))
        #expect(error.description.contains(sha))
      }

      // Grown: the extra bytes are not silently cut.
      try original.write(to: file)
      let grown = try ZipArchive.Writer(url: target, overwrite: false)
      try grown.addFile(
        name: "f", from: file, expectedSize: Int64(original.count), expectedSHA256: sha,
        compression: .store, modified: instant)
      try (original + Data("more".utf8)).write(to: file)
      #expect(throws: ZipError.self) { try grown.close() }

      // Gone.
      let gone = try ZipArchive.Writer(url: target, overwrite: false)
      try gone.addFile(
        name: "f", from: dir.appendingPathComponent("missing"), expectedSize: 1,
        expectedSHA256: sha, compression: .store, modified: instant)
      #expect(throws: ZipError.self) { try gone.close() }

      // Swapped for a FIFO after it was added: refused at once, not waited on until some
      // writer comes (open(2) of a FIFO for reading blocks until then).
      let swapped = try ZipArchive.Writer(url: target, overwrite: false)
      try swapped.addFile(
        name: "f", from: file, expectedSize: Int64(original.count), expectedSHA256: sha,
        compression: .store, modified: instant)
      try FileManager.default.removeItem(at: file)
      #expect(mkfifo(file.path, 0o600) == 0)
      #expect {
        try swapped.close()
      } throws: {
        "\($0)".contains("it is not a regular file")
      }
      try FileManager.default.removeItem(at: file)
      try original.write(to: file)

      #expect(Scratch.listing(of: dir) == ["f.bin"])
    }
  }

  @Test func emptyArchiveIsAnError() throws {
    try Scratch.withScratch { dir in
      let writer = try ZipArchive.Writer(url: dir.appendingPathComponent("a.zip"), overwrite: false)
      #expect(throws: ZipError.emptyArchive(path: dir.appendingPathComponent("a.zip").path)) {
        try writer.close()
      }
      #expect(Scratch.listing(of: dir).isEmpty)
    }
  }

  @Test func discardsAnArchiveThatIsNeverClosed() throws {
    try Scratch.withScratch { dir in
      do {
        let writer = try ZipArchive.Writer(
          url: dir.appendingPathComponent("a.zip"), overwrite: false)
        try writer.add(name: "x", data: Data("x".utf8), compression: .deflate, modified: instant)
      }
      #expect(Scratch.listing(of: dir).isEmpty)
    }
  }

  @Test func readingStopsAtTheLimit() throws {
    try Scratch.withScratch { dir in
      let url = dir.appendingPathComponent("a.zip")
      let writer = try ZipArchive.Writer(url: url, overwrite: false)
      try writer.add(
        name: "zeros", data: Data(count: 1_000_000), compression: .deflate, modified: instant)
      try writer.close()
      let reader = try ZipArchive.Reader(url: url)
      var seen: Int64 = 0
      #expect(throws: ZipError.entryTooLarge(path: url.path, entry: "zeros", limit: 1000)) {
        try reader.read(at: 0, limit: 1000) { seen += Int64($0.count) }
      }
      #expect(seen == 0)
      #expect(try reader.read(at: 0, limit: 1_000_000) { _ in } == 1_000_000)
    }
  }

  @Test func detectsABadCRCOnlyByReadingToTheEnd() throws {
    // Info-ZIP's badcrc.zip: one entry whose CRC does not match its bytes.
    let reader = try ZipArchive.Reader(url: Scratch.sharedZip("unzip-p-testdata/badcrc.zip"))
    #expect(reader.count >= 1)
    var failed = false
    for index in 0..<reader.count {
      do { try reader.read(at: index, limit: 1 << 20) { _ in } } catch let error as ZipError {
        failed = true
        #expect(error.description.lowercased().contains("crc"))
      }
    }
    #expect(failed)
  }

  @Test(arguments: ["random", "truncated", "empty", "missing"])
  func refusesWhatIsNotAZip(kind: String) throws {
    try Scratch.withScratch { dir in
      let url = dir.appendingPathComponent("bad.zip")
      switch kind {
      case "random": try Scratch.noise(count: 4096, seed: 7).write(to: url)
      case "truncated":
        let good = dir.appendingPathComponent("good.zip")
        let writer = try ZipArchive.Writer(url: good, overwrite: false)
        try writer.add(
          name: "a", data: Scratch.noise(count: 10_000, seed: 3), compression: .deflate,
          modified: instant)
        try writer.close()
        try Data(try Data(contentsOf: good).prefix(6000)).write(to: url)
      case "empty": try Data().write(to: url)
      default: break
      }
      #expect(throws: ZipError.self) { try ZipArchive.Reader(url: url) }
    }
  }

  @Test func listsSymbolicLinksAndTraversalNamesAsTheyAre() throws {
    let links = try ZipArchive.Reader(
      url: Scratch.sharedZip("zipfoundation/testUnzipUncontainedSymlink.zip"))
    #expect(try links.entries().contains { $0.isSymbolicLink })
    let traversal = try ZipArchive.Reader(
      url: Scratch.sharedZip("zipfoundation/testSimpleTraversalAttack.zip"))
    #expect(try traversal.entries().contains { $0.name.contains("..") })
  }

  @Test func compressionFollowsTheMediaType() {
    #expect(ZipArchive.Compression.forMediaType("image/jpeg") == .store)
    #expect(ZipArchive.Compression.forMediaType("IMAGE/PNG") == .store)
    #expect(ZipArchive.Compression.forMediaType("image/heic") == .store)
    #expect(ZipArchive.Compression.forMediaType("image/avif") == .store)
    #expect(ZipArchive.Compression.forMediaType("application/pdf") == .store)
    #expect(ZipArchive.Compression.forMediaType("application/json") == .deflate)
    #expect(ZipArchive.Compression.forMediaType("image/gif") == .deflate)
  }
}
