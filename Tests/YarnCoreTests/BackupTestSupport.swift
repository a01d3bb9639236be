import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

/// Test helpers of the Backup and Zip suites (names prefixed to stay clear of other suites').
enum BackupTestSupport {
  /// Runs `body` with a fresh, empty temporary directory, removed afterwards.
  static func withScratch<T>(_ body: (URL) throws -> T) throws -> T {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("yarn-backup-tests-" + UUID().uuidString, isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try body(url)
  }

  /// `withScratch` for an async body (a test that runs a task and cancels it).
  static func withScratch<T>(_ body: (URL) async throws -> T) async throws -> T {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("yarn-backup-tests-" + UUID().uuidString, isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try await body(url)
  }

  /// The package root, found from this file's path.
  static var packageRoot: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
  }

  /// A file of `../shared/data/zip/` (the shared hostile-archive corpus).
  static func sharedZip(_ relative: String) -> URL {
    packageRoot.appendingPathComponent("../shared/data/zip/" + relative).standardizedFileURL
  }

  /// Every regular file under `directory`, as paths relative to it, sorted.
  static func listing(of directory: URL) -> [String] {
    guard
      let enumerator = FileManager.default.enumerator(
        at: directory, includingPropertiesForKeys: [.isRegularFileKey])
    else { return [] }
    var out: [String] = []
    let base = directory.standardizedFileURL.resolvingSymlinksInPath().path
    for case let url as URL in enumerator {
      let values = try? url.resourceValues(forKeys: [.isRegularFileKey])
      guard values?.isRegularFile == true else { continue }
      let path = url.standardizedFileURL.resolvingSymlinksInPath().path
      out.append(String(path.dropFirst(base.count + 1)))
    }
    return out.sorted()
  }

  /// Makes the folder at `path` one in which no file can be created or removed: mode 0o555,
  /// and for root, whom permission bits do not stop, the immutable attribute (chattr(1)).
  /// Returns the reason writing there then fails (`permission denied`; for root `operation
  /// not permitted`), or `nil` when root cannot set the attribute (no chattr, no
  /// CAP_LINUX_IMMUTABLE, a file system without it): then the caller skips its checks, as
  /// the suites' other tests of permissions do for root. `makeWritable` undoes it.
  static func makeReadOnly(_ path: String) -> String? {
    chmod(path, 0o555)
    guard geteuid() == 0 else { return "permission denied" }
    return chattr("+i", path) ? "operation not permitted" : nil
  }

  /// Undoes `makeReadOnly`: mode 0o755, without the immutable attribute.
  static func makeWritable(_ path: String) {
    if geteuid() == 0 { _ = chattr("-i", path) }
    chmod(path, 0o755)
  }

  /// Runs `chattr FLAG path`; whether it succeeded.
  static func chattr(_ flag: String, _ path: String) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["chattr", flag, path]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }

  /// Bytes that look like a JPEG to nobody but are named one: `count` pseudo-random bytes.
  static func noise(count: Int, seed: UInt64) -> Data {
    var state = seed &+ 0x9E37_79B9_7F4A_7C15
    var out = Data(capacity: count)
    for _ in 0..<count {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      out.append(UInt8(truncatingIfNeeded: state >> 33))
    }
    return out
  }
}

extension BackupTestSupport {
  /// SHA-256 of "abc" (FIPS 180-2, appendix B.1).
  static let abcSHA256 = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

  /// A small library with attachments of each kind, built in a new store in `directory`:
  /// a JPEG (noise), a PNG-named file, a text file holding "abc", a pattern PDF, notes with
  /// commas, quotes and line breaks, and sessions including a running one.
  static func makeStore(in directory: URL) throws -> LibraryStore {
    let store = try LibraryStore(
      directory: directory.appendingPathComponent("lib"), mode: .readWrite)
    let files = directory.appendingPathComponent("in", isDirectory: true)
    try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
    func attach(_ name: String, _ data: Data) throws -> YarnModel.Attachment {
      let url = files.appendingPathComponent(name)
      try data.write(to: url)
      return try store.importAttachment(from: url)
    }
    let jpeg = try attach(
      "front.jpg", Data([0xFF, 0xD8, 0xFF, 0xE0]) + noise(count: 50_000, seed: 11))
    let png = try attach(
      "swatch.png", Data([0x89, 0x50, 0x4E, 0x47]) + noise(count: 3_000, seed: 12))
    let text = try attach("care.txt", Data("abc".utf8))
    let pdf = try attach(
      "flax.pdf", Data("%PDF-1.4\n".utf8) + Data(String(repeating: "stream\n", count: 400).utf8))

    let cascade = Yarn(
      id: "0a000000-0000-4000-8000-000000000001", name: "Cascade 220 \"Heathers\"",
      brand: "Cascade Yarns", colorway: "Ruby", weight: .medium,
      fiber: "100% Peruvian Highland Wool", lengthPerSkein: Amount(220, .yard),
      netWeightPerSkein: Amount(100, .gram), quantity: Amount(3, .skein),
      purchaseLocation: "Loop, London", dateAdded: CalendarDate(year: 2025, month: 11, day: 2),
      photos: [jpeg, png, text])
    let sock = Yarn(
      id: "0a000000-0000-4000-8000-000000000002", name: "Knitting for Olive Merino — ünïcødé",
      lengthPerSkein: Amount(250, .meter), netWeightPerSkein: Amount(50, .gram),
      quantity: Amount(150, .gram), status: .usedUp, photos: [jpeg])
    let flax = Project(
      id: "0b000000-0000-4000-8000-000000000001", name: "Flax sweater", craft: .knitting,
      status: .finished, pattern: Pattern(name: "Flax", url: "https://example.com/flax", pdf: pdf),
      started: CalendarDate(year: 2025, month: 12, day: 1),
      finished: CalendarDate(year: 2026, month: 1, day: 15),
      usages: [YarnUsage(yarnID: cascade.id, amount: Amount(2.5, .skein))], photos: [jpeg])
    let socks = Project(
      id: "0b000000-0000-4000-8000-000000000002", name: "Vanilla socks", craft: .knitting,
      status: .inProgress, usages: [YarnUsage(yarnID: sock.id, amount: Amount(80, .gram))])
    try store.write {
      try store.insert(cascade)
      try store.insert(sock)
      try store.insert(flax)
      try store.insert(socks)
      try store.insert(
        Note(
          id: "0c000000-0000-4000-8000-000000000001", subject: .yarn(cascade.id),
          text: "soft, \"squishy\"\nbloomed after washing",
          created: Date(timeIntervalSince1970: 1_767_000_000)))
      try store.insert(
        Note(
          id: "0c000000-0000-4000-8000-000000000002", subject: .project(flax.id),
          text: "sleeves: 2 rounds shorter", created: Date(timeIntervalSince1970: 1_767_100_000),
          modified: Date(timeIntervalSince1970: 1_767_200_000)))
      try store.insert(
        TimeSession(
          id: "0d000000-0000-4000-8000-000000000001", projectID: flax.id,
          start: Date(timeIntervalSince1970: 1_767_300_000),
          end: Date(timeIntervalSince1970: 1_767_305_400), note: "yoke"))
      try store.insert(
        TimeSession(
          id: "0d000000-0000-4000-8000-000000000002", projectID: socks.id,
          start: Date(timeIntervalSince1970: 1_767_400_000)))
    }
    return store
  }

  /// The bytes of every file in a store's `attachments/` folder, by relative path.
  static func attachmentBytes(of store: LibraryStore) throws -> [String: Data] {
    let folder = store.directory.appendingPathComponent("attachments")
    var out: [String: Data] = [:]
    for path in listing(of: folder) {
      out[path] = try Data(contentsOf: folder.appendingPathComponent(path))
    }
    return out
  }

  /// The bytes of every file in a store's library folder, by relative path, but for the
  /// database's shared-memory index (which a reader writes its read marks to).
  static func libraryFiles(of store: LibraryStore) throws -> [String: Data] {
    var out: [String: Data] = [:]
    for path in listing(of: store.directory) where !path.hasSuffix("-shm") {
      out[path] = try Data(contentsOf: store.directory.appendingPathComponent(path))
    }
    return out
  }

  /// Checks that `write` (a YarnCore writer called with `force`) refuses each of the library's
  /// own files — its database, the database's write-ahead log, a photo in its attachments
  /// folder — with `OutputError.intoLibrary` in the words of docs/CLI.md ("No output goes into
  /// the library"), and that the library's files and yarns are as they were.
  static func expectNoWriteOntoLibraryFiles(
    of store: LibraryStore, in dir: URL, _ write: (URL) throws -> Void
  ) throws {
    let library = dir.appendingPathComponent("lib")
    let before = try libraryFiles(of: store)
    let photo = try #require(before.keys.sorted().first { $0.hasPrefix("attachments/") })
    #expect(before["library.sqlite-wal"] != nil)
    let targets = [
      ("library.sqlite", "the library's database (library.sqlite)"),
      ("library.sqlite-wal", "the library's write-ahead log (library.sqlite-wal)"),
      (photo, "inside the library's attachments folder"),
    ]
    for (name, part) in targets {
      let url = library.appendingPathComponent(name)
      let refusal = OutputError.intoLibrary(path: url.path, part: part, library: library.path)
      #expect(throws: refusal) { try write(url) }
    }
    let database = library.appendingPathComponent("library.sqlite").path
    // An app has no `--force`: the core's words name no option of the command line.
    #expect(
      OutputError.intoLibrary(path: database, part: targets[0].1, library: library.path).description
        == "cannot create '\(database)': it is the library's database (library.sqlite), in "
        + "\(library.path); no output is written there")
    #expect(try libraryFiles(of: store) == before)
    #expect(try store.library().yarns.count == 2)
  }

  /// Writes a zip of `entries` (name, bytes), all deflated, in order.
  static func writeZip(_ entries: [(String, Data)], to url: URL) throws {
    let writer = try ZipArchive.Writer(url: url, overwrite: true)
    for (name, data) in entries {
      try writer.add(name: name, data: data, compression: .deflate, modified: Date())
    }
    try writer.close()
  }

  /// Rewrites `url`, a zip written by `writeZip`, in place: each run of `bytes` (a name, in its
  /// local header and its central-directory entry) becomes `replacement`, of the same length;
  /// and when `mode` is given, the Unix `st_mode` of the central-directory entry named by
  /// `replacement` (the high 16 bits of its external attributes; APPNOTE 4.4.15) becomes it.
  static func patchZip(_ url: URL, replacing bytes: [UInt8], with replacement: [UInt8], mode: UInt32? = nil)
    throws
  {
    precondition(bytes.count == replacement.count)
    var data = [UInt8](try Data(contentsOf: url))
    var at = 0
    while at + bytes.count <= data.count {
      if Array(data[at..<at + bytes.count]) == bytes {
        data.replaceSubrange(at..<at + bytes.count, with: replacement)
        at += bytes.count
      } else {
        at += 1
      }
    }
    if let mode {
      var header = 0
      while header + 46 <= data.count {
        if data[header..<header + 4].elementsEqual([0x50, 0x4B, 0x01, 0x02]) {
          let nameLength = Int(data[header + 28]) | Int(data[header + 29]) << 8
          if Array(data[header + 46..<header + 46 + nameLength]) == replacement {
            data[header + 5] = 3  // version made by: Unix
            let attributes = mode << 16
            for byte in 0..<4 {
              data[header + 38 + byte] = UInt8(truncatingIfNeeded: attributes >> (8 * byte))
            }
          }
        }
        header += 1
      }
    }
    try Data(data).write(to: url)
  }

  /// The entries of a backup zip, as (name, bytes), in order.
  static func readZip(_ url: URL) throws -> [(String, Data)] {
    let reader = try ZipArchive.Reader(url: url)
    return try reader.entries().map { ($0.name, try reader.data(at: $0.index, limit: 1 << 30)) }
  }
}
