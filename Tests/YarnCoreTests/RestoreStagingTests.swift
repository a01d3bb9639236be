import Dispatch
import Foundation
import Testing

@testable import YarnCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a restore killed at any moment leaves of its `.restore-*` folder, and whether
/// `Backup.recoverInterruptedRestores(in:)` removes it (at once, not after a minute) while
/// leaving the folders of restores that are running alone.
@Suite struct RestoreStagingTests {
  typealias Support = BackupTestSupport

  /// An attachment file no record uses, as a restore that placed it and was killed leaves it.
  private func orphan(in store: LibraryStore) throws -> (digest: String, url: URL) {
    let data = Data("orphan".utf8)
    let digest = try SHA256Hasher.hexDigest(of: data)
    let url = store.attachmentURL(sha256: digest)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try data.write(to: url)
    return (digest, url)
  }

  private func exists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

  @Test func aRestoreKilledWhileRemovingItsFolderIsCleanedUpAtOnce() throws {
    try Support.withScratch { dir in
      let store = try Support.makeStore(in: dir)
      let kept = try #require(try store.library().attachments.first).sha256
      let (orphanDigest, orphanURL) = try orphan(in: store)
      // Its `lock` already unlinked, the rest not yet: a fresh folder with no lock file.
      let folder = store.directory.appendingPathComponent(".restore-" + Identifier.make())
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
      try Data("{\"yarns\": [".utf8).write(to: folder.appendingPathComponent("library.json"))
      try Data("\(orphanDigest)\n\(kept)\n".utf8).write(
        to: folder.appendingPathComponent("journal"))

      #expect(try Backup.recoverInterruptedRestores(in: store) == 1)
      #expect(!exists(folder))
      #expect(!exists(orphanURL))
      #expect(store.hasAttachment(sha256: kept))
    }
  }

  @Test func aRestoreKilledBeforeLockingItsFolderIsCleanedUpAtOnce() throws {
    try Support.withScratch { dir in
      let store = try Support.makeStore(in: dir)
      // Killed after `mkdir`, and after creating `lock` but before `flock`.
      let bare = store.directory.appendingPathComponent(".restore-" + Identifier.make())
      try FileManager.default.createDirectory(at: bare, withIntermediateDirectories: false)
      let unlocked = store.directory.appendingPathComponent(".restore-" + Identifier.make())
      try FileManager.default.createDirectory(at: unlocked, withIntermediateDirectories: false)
      try Data().write(to: unlocked.appendingPathComponent("lock"))

      #expect(try Backup.recoverInterruptedRestores(in: store) == 2)
      #expect(!exists(bare))
      #expect(!exists(unlocked))
    }
  }

  @Test func removingAStagingFolderLeavesNothing() throws {
    try Support.withScratch { dir in
      let store = try Support.makeStore(in: dir)
      let staging = try RestoreStaging(in: store)
      try staging.writeJournal([String(repeating: "a", count: 64)])
      try Data("x".utf8).write(to: staging.url.appendingPathComponent("library.json"))
      staging.remove()
      #expect(!exists(staging.url))
      #expect(try Backup.recoverInterruptedRestores(in: store) == 0)
    }
  }

  /// Holds the result of a recovery run on another thread (written before the semaphore is
  /// signalled, read after it is waited for).
  private final class Outcome: @unchecked Sendable {
    var removed: Int?
    var error: (any Error)?
  }

  @Test func aRestoreMakingItsFolderIsWaitedForAndLeftAlone() throws {
    try Support.withScratch { dir in
      let store = try Support.makeStore(in: dir)
      let library = store.directory
      // Another process between `mkdir` and `flock` of its lock: it holds the library
      // directory's shared lock (its own open file description), its folder has no lock yet.
      let directoryLock = open(library.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
      try #require(directoryLock >= 0)
      try #require(flock(directoryLock, LOCK_SH) == 0)
      let folder = library.appendingPathComponent(".restore-" + Identifier.make())
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)

      let outcome = Outcome()
      let done = DispatchSemaphore(value: 0)
      DispatchQueue.global().async {
        do {
          let other = try LibraryStore(directory: library, mode: .readWrite)
          outcome.removed = try Backup.recoverInterruptedRestores(in: other)
          try other.close()
        } catch {
          outcome.error = error
        }
        done.signal()
      }
      // Recovery waits while a restore is making its folder.
      let early = done.wait(timeout: .now() + 0.3)
      #expect(early == .timedOut)
      #expect(exists(folder))

      // The restore locks its folder, then lets go of the directory.
      let folderLock = open(
        folder.appendingPathComponent("lock").path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
      try #require(folderLock >= 0)
      defer { close(folderLock) }
      try #require(flock(folderLock, LOCK_EX | LOCK_NB) == 0)
      close(directoryLock)

      if early == .timedOut { try #require(done.wait(timeout: .now() + 30) == .success) }
      #expect(outcome.error == nil)
      #expect(outcome.removed == 0)
      #expect(exists(folder.appendingPathComponent("lock")))
    }
  }

  @Test func aRunningRestoreIsLeftAloneAndItsFolderGoesOnceItsLockIsFree() throws {
    try Support.withScratch { dir in
      let store = try Support.makeStore(in: dir)
      let folder = store.directory.appendingPathComponent(".restore-" + Identifier.make())
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
      let lock = open(
        folder.appendingPathComponent("lock").path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
      try #require(lock >= 0)
      try #require(flock(lock, LOCK_EX | LOCK_NB) == 0)
      #expect(try Backup.recoverInterruptedRestores(in: store) == 0)
      #expect(exists(folder))
      close(lock)
      #expect(try Backup.recoverInterruptedRestores(in: store) == 1)
      #expect(!exists(folder))
    }
  }
}
