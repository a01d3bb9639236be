import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The free space a restore asks for before it writes anything: into a library not created
/// yet (measured at the nearest folder above it that exists), and with the safety backup of a
/// `--replace` counted.
@Suite struct RestoreFreeSpaceTests {
  typealias Support = BackupTestSupport

  /// The size of the file at `path`, or 0 when there is none.
  private func size(_ path: String) -> Int64 {
    var info = stat()
    return stat(path, &info) == 0 ? Int64(info.st_size) : 0
  }

  /// A backup of one yarn with a photo of 3,000 bytes, and its manifest.
  private func smallBackup(in dir: URL) throws -> (url: URL, manifest: BackupManifest) {
    let store = try LibraryStore(directory: dir.appendingPathComponent("source"), mode: .readWrite)
    defer { try? store.close() }
    let file = dir.appendingPathComponent("photo.jpg")
    try Support.noise(count: 3_000, seed: 7).write(to: file)
    let photo = try store.importAttachment(from: file)
    try store.write { try store.insert(Yarn(id: "y-1", name: "Rios", photos: [photo])) }
    let url = dir.appendingPathComponent("b.zip")
    let manifest = try Backup.create(
      from: store, to: url, generator: "t", now: Date(timeIntervalSince1970: 0))
    return (url, manifest)
  }

  /// The size of `library.json` in `manifest`.
  private func librarySize(_ manifest: BackupManifest) -> Int64 {
    manifest.files.first { $0.path == BackupManifest.libraryPath }?.size ?? -1
  }

  @Test func theFreeSpaceOfAMissingFolderIsReadAtTheNearestFolderAboveIt() throws {
    try Support.withScratch { dir in
      let missing = dir.appendingPathComponent("new/deeper/library").path
      // statvfs(3) fails on a path that does not exist; the folder above that exists answers.
      var info = statvfs()
      #expect(statvfs(missing, &info) != 0)
      let free = try #require(Backup.freeSpace(at: missing))
      #expect(free >= 0)
      // Through a file where a folder should be, too (ENOTDIR).
      let file = dir.appendingPathComponent("file")
      try Data("x".utf8).write(to: file)
      #expect(Backup.freeSpace(at: file.path + "/library") != nil)
    }
  }

  @Test func aDryRunIntoALibraryNotCreatedYetIsRefusedWhenItCannotFit() throws {
    try Support.withScratch { dir in
      let backup = try smallBackup(in: dir)
      let directory = dir.appendingPathComponent("mnt/new")
      // Opened read-only, a missing library reads as empty, in memory: nothing is created.
      let store = try LibraryStore(directory: directory, mode: .readOnly)
      defer { try? store.close() }
      // 1 MiB + 2 × library.json + the photo's 3,000 bytes (docs/CLI.md).
      let needed = 1_048_576 + 2 * librarySize(backup.manifest) + 3_000
      var options = RestoreOptions(dryRun: true)
      // One byte short, wherever the real probe (statvfs at the nearest folder that exists)
      // can read the free space; before, a missing library's was not read, nor checked.
      options.freeSpace = { path in Backup.freeSpace(at: path).map { _ in needed - 1 } }
      do {
        try Backup.restore(from: backup.url, into: store, options: options)
        Issue.record("expected notEnoughSpace")
      } catch BackupError.notEnoughSpace(let path, let asked, _) {
        #expect(path == store.directory.path)
        #expect(asked == needed)
      }
      #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("mnt").path))
      // With exactly what it needs, the dry run passes.
      options.freeSpace = { _ in needed }
      let report = try Backup.restore(from: backup.url, into: store, options: options)
      #expect(report.dryRun)
      #expect(report.added.yarns == 1)
    }
  }

  @Test func aNewLibraryIsCheckedBeforeItIsCreated() throws {
    try Support.withScratch { dir in
      let backup = try smallBackup(in: dir)
      let directory = dir.appendingPathComponent("new")
      let checked = try Backup.checkLibrary(of: backup.url)
      let needed = 1_048_576 + 2 * librarySize(backup.manifest) + 3_000
      do {
        try Backup.checkFreeSpace(for: checked, newLibrary: directory, free: { _ in needed - 1 })
        Issue.record("expected notEnoughSpace")
      } catch BackupError.notEnoughSpace(let path, let asked, let free) {
        #expect(path == directory.path)
        #expect(asked == needed)
        #expect(free == needed - 1)
      }
      try Backup.checkFreeSpace(for: checked, newLibrary: directory, free: { _ in needed })
      #expect(!FileManager.default.fileExists(atPath: directory.path))

      // The restore into the library built aside does not measure again: the new library's
      // own file, made since, would count against it (on a disk just big enough, the check
      // passed and the restore was then refused). Here the disk's free space shrinks by the
      // bytes of every file in the scratch folder that is not the backup's.
      // (The library's folder and attachments/ first, as the CLI makes them.)
      try FileManager.default.createDirectory(
        at: directory.appendingPathComponent("attachments"), withIntermediateDirectories: true)
      let scratch = dir.path
      let before = Self.bytes(under: scratch)
      var options = RestoreOptions()
      options.checked = checked
      options.freeSpace = { _ in needed - (Self.bytes(under: scratch) - before) }
      let report = try LibraryStore.create(directory: directory) { store in
        try Backup.restore(from: backup.url, into: store, options: options)
      }
      #expect(report.added.yarns == 1)
      #expect(report.added.attachments == 1)
    }
  }

  /// The bytes of the regular files under `path`.
  static func bytes(under path: String) -> Int64 {
    let files = FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? []
    return files.reduce(0) { total, name in
      var info = stat()
      let full = path + "/" + name
      return total + (stat(full, &info) == 0 && info.st_mode & S_IFMT == S_IFREG ? Int64(info.st_size) : 0)
    }
  }

  @Test func aReplaceCountsItsSafetyBackup() throws {
    try Support.withScratch { dir in
      let backup = try smallBackup(in: dir)
      // The library replaced: a yarn with 10 photos of 500,000 bytes each.
      let mine = try LibraryStore(directory: dir.appendingPathComponent("mine"), mode: .readWrite)
      defer { try? mine.close() }
      var photos: [YarnModel.Attachment] = []
      for index in 0..<10 {
        let file = dir.appendingPathComponent("p\(index).jpg")
        try Support.noise(count: 500_000, seed: UInt64(100 + index)).write(to: file)
        photos.append(try mine.importAttachment(from: file))
      }
      try mine.write { try mine.insert(Yarn(id: "mine", name: "Cascade 220", photos: photos)) }
      let before = try mine.library()
      let database = mine.directory.appendingPathComponent("library.sqlite").path
      let databaseBytes = size(database) + size(database + "-wal")
      // The restore itself: 1 MiB + 2 × library.json + the photo the library lacks (3,000);
      // the safety backup: 4 × the database + 10 × (500,000 + 1 KiB) (docs/FORMAT.md).
      let restoring = 1_048_576 + 2 * librarySize(backup.manifest) + 3_000
      let safety = 4 * databaseBytes + 10 * (500_000 + 1_024)
      let target = dir.appendingPathComponent("safety/before.zip")
      for dryRun in [true, false] {
        var options = RestoreOptions(mode: .replace, dryRun: dryRun, safetyBackup: target)
        // Room for the restore, not for the safety backup too.
        options.freeSpace = { _ in restoring + safety - 1 }
        do {
          try Backup.restore(from: backup.url, into: mine, options: options)
          Issue.record("expected notEnoughSpace (dry run: \(dryRun))")
        } catch BackupError.notEnoughSpace(let path, let needed, _) {
          #expect(path == mine.directory.path)
          #expect(needed == restoring + safety)
        }
        #expect(try mine.library() == before)
        #expect(!FileManager.default.fileExists(atPath: target.path))
      }
      var options = RestoreOptions(mode: .replace, dryRun: true, safetyBackup: target)
      options.freeSpace = { _ in restoring + safety }
      #expect(try Backup.restore(from: backup.url, into: mine, options: options).replaced.yarns == 1)
    }
  }

  /// `path` with its symbolic links resolved by realpath(3) itself (the scratch folder may lie
  /// under one, as /var is /private/var on macOS).
  private static func real(_ path: String) -> String {
    guard let resolved = realpath(path, nil) else { return path }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// QA: the free space for the safety backup was read at the library's folder, though
  /// `safety-backups` may be a link to a folder on another disk. The folder it is written in
  /// is the linked one, or, when it does not exist yet, the folder above it (where the replace
  /// creates it); a link to nothing is left as it is (writing there fails, and says so).
  @Test func theSafetyBackupFolderIsTheOneItsLinkNames() throws {
    try Support.withScratch { dir in
      let root = Self.real(dir.path)
      let manager = FileManager.default
      try manager.createDirectory(
        at: dir.appendingPathComponent("elsewhere/safety"), withIntermediateDirectories: true)
      try manager.createDirectory(at: dir.appendingPathComponent("lib"), withIntermediateDirectories: true)
      try manager.createSymbolicLink(
        atPath: dir.appendingPathComponent("lib/safety-backups").path,
        withDestinationPath: root + "/elsewhere/safety")
      // A relative link, resolved from the folder it is in.
      try manager.createSymbolicLink(
        atPath: dir.appendingPathComponent("lib/relative").path, withDestinationPath: "../elsewhere/safety")
      try manager.createSymbolicLink(
        atPath: dir.appendingPathComponent("lib/dangling").path, withDestinationPath: root + "/elsewhere/gone"
      )
      func folder(_ path: String) -> String {
        Backup.safetyBackupFolder(for: dir.appendingPathComponent(path))
      }
      #expect(folder("lib/safety-backups/before.zip") == root + "/elsewhere/safety")
      #expect(folder("lib/relative/before.zip") == root + "/elsewhere/safety")
      #expect(folder("lib/missing/before.zip") == root + "/lib")
      #expect(folder("lib/dangling/before.zip") == dir.path + "/lib/dangling")
    }
  }

  /// A writable folder on another file system than the scratch folder's (Linux's /dev/shm,
  /// a tmpfs), or `nil` when there is none.
  static let otherFileSystem: String? = {
    var scratch = stat()
    var shm = stat()
    guard stat(FileManager.default.temporaryDirectory.path, &scratch) == 0, stat("/dev/shm", &shm) == 0,
      scratch.st_dev != shm.st_dev, access("/dev/shm", W_OK | X_OK) == 0
    else { return nil }
    return "/dev/shm"
  }()

  /// QA: with `LIBRARY/safety-backups` a link to a folder on another disk, a replace asked
  /// for the safety backup's bytes on the library's disk: refused where it fits, let through
  /// where the other disk is full. Each is now checked on its own file system. (Runs only
  /// where a second file system can be written: on one, the two are the same disk.)
  @Test(.enabled(if: otherFileSystem != nil))
  func aSafetyBackupOnAnotherFileSystemIsCheckedThere() throws {
    try Support.withScratch { dir in
      let other = Self.real(Self.otherFileSystem! + "/yarn-tests-" + UUID().uuidString)
      try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: false)
      defer { try? FileManager.default.removeItem(atPath: other) }
      let backup = try smallBackup(in: dir)
      let mine = try LibraryStore(directory: dir.appendingPathComponent("mine"), mode: .readWrite)
      defer { try? mine.close() }
      let file = dir.appendingPathComponent("p.jpg")
      try Support.noise(count: 20_000, seed: 9).write(to: file)
      let photo = try mine.importAttachment(from: file)
      try mine.write { try mine.insert(Yarn(id: "mine", name: "Cascade 220", photos: [photo])) }
      try FileManager.default.createSymbolicLink(
        atPath: mine.directory.appendingPathComponent("safety-backups").path, withDestinationPath: other)
      let database = mine.directory.appendingPathComponent("library.sqlite").path
      let databaseBytes = size(database) + size(database + "-wal")
      // The restore: 1 MiB + 2 × library.json + the photo the library lacks (3,000); the
      // safety backup: 4 × the database + 20,000 + 1 KiB (docs/CLI.md).
      let restoring = 1_048_576 + 2 * librarySize(backup.manifest) + 3_000
      let safety = 4 * databaseBytes + 20_000 + 1_024
      let target = mine.directory.appendingPathComponent("safety-backups/before.zip")
      let library = mine.directory.path
      // The library's disk has room for the restore alone, the other for the safety backup
      // less a byte: refused, naming the folder on the other disk.
      for dryRun in [true, false] {
        var options = RestoreOptions(mode: .replace, dryRun: dryRun, safetyBackup: target)
        options.freeSpace = { $0 == other ? safety - 1 : $0 == library ? restoring : 0 }
        do {
          try Backup.restore(from: backup.url, into: mine, options: options)
          Issue.record("expected notEnoughSpaceForSafetyBackup (dry run: \(dryRun))")
        } catch BackupError.notEnoughSpaceForSafetyBackup(let path, let needed, let free) {
          #expect(path == other)
          #expect(needed == safety)
          #expect(free == safety - 1)
        }
        #expect(try mine.library().yarns.map(\.id) == ["mine"])
      }
      #expect(try FileManager.default.contentsOfDirectory(atPath: other).isEmpty)
      // Each disk with just what it takes: the replace goes through, its safety backup on
      // the other disk. (Before, the library's disk was asked for both and it was refused.)
      var options = RestoreOptions(mode: .replace, safetyBackup: target)
      options.freeSpace = { $0 == other ? safety : $0 == library ? restoring : 0 }
      let report = try Backup.restore(from: backup.url, into: mine, options: options)
      #expect(report.replaced.yarns == 1)
      #expect(try FileManager.default.contentsOfDirectory(atPath: other) == ["before.zip"])
      #expect(try mine.library().yarns.map(\.id) == ["y-1"])
    }
  }
}
