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

/// Long operations run on the calling thread, report progress there, and stop when their task
/// is cancelled, leaving nothing behind.
@Suite struct BackupCancellationTests {
  typealias Support = BackupTestSupport
  private let now = Date(timeIntervalSince1970: 1_796_000_000)

  /// Files whose names begin with a dot in `directory` (temporary files of a backup).
  private func hidden(in directory: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".") }
  }

  /// Runs `body` in a task that is already cancelled.
  private func inCancelledTask(_ body: @escaping @Sendable () throws -> Void) async -> Error? {
    let task = Task {
      while !Task.isCancelled { await Task.yield() }
      try body()
    }
    task.cancel()
    do {
      try await task.value
      return nil
    } catch {
      return error
    }
  }

  @Test func createCancelledWhileZippingLeavesNoFileAndNoTemporary() throws {
    try Support.withScratch { dir in
      try Support.makeStore(in: dir).close()
      let library = dir.appendingPathComponent("lib")
      let url = dir.appendingPathComponent("b.zip")
      let now = self.now
      // The progress callback (on this thread, inside libzip's writing) cancels the task
      // that runs the backup; the next read of an attachment stops it.
      let sameThread = LockedFlag()
      let result: Result<BackupManifest, Error> = try runInTask {
        let thread = pthread_self()
        return Result {
          try Backup.create(
            from: try LibraryStore(directory: library, mode: .readOnly), to: url, generator: "t", now: now,
            progress: { _ in
              if pthread_equal(pthread_self(), thread) != 0 { sameThread.set() }
              withUnsafeCurrentTask { $0?.cancel() }
            })
        }
      }
      #expect(throws: CancellationError.self) { try result.get() }
      #expect(!FileManager.default.fileExists(atPath: url.path))
      #expect(try hidden(in: dir).isEmpty)
      #expect(sameThread.isSet)
    }
  }

  @Test func verifyRestoreAndExportInACancelledTaskStopAndChangeNothing() async throws {
    try await Support.withScratch { dir in
      let store = try Support.makeStore(in: dir)
      let zip = dir.appendingPathComponent("b.zip")
      try Backup.create(from: store, to: zip, generator: "t", now: now)
      try store.close()

      #expect(await inCancelledTask { try Backup.verify(zip) } is CancellationError)
      let target = dir.appendingPathComponent("new")
      #expect(
        await inCancelledTask {
          let empty = try LibraryStore(directory: target, mode: .readWrite)
          try Backup.restore(from: zip, into: empty)
        } is CancellationError)
      let restored = try LibraryStore(directory: target, mode: .readWrite)
      #expect(try restored.isEmpty())
      #expect(Support.listing(of: target.appendingPathComponent("attachments")).isEmpty)
      let export = dir.appendingPathComponent("export.zip")
      let source = dir.appendingPathComponent("lib")
      #expect(
        await inCancelledTask {
          let library = try LibraryStore(directory: source, mode: .readOnly)
          try LibraryExport.write(from: library, to: export)
        } is CancellationError)
      #expect(!FileManager.default.fileExists(atPath: export.path))
      #expect(try hidden(in: dir).isEmpty)
    }
  }

  /// A restore cancelled while it inserts the items (the later part of a big one) stops before
  /// the next item and changes nothing (QA: Ctrl-C then was ignored, the restore finished and
  /// exited 0). The store's clock, asked once by the check and then by each session's insert,
  /// cancels the task from its second call on: inside the inserts, after every other check.
  @Test func aRestoreCancelledWhileInsertingItemsStopsAndChangesNothing() async throws {
    try await Support.withScratch { dir in
      let zip = dir.appendingPathComponent("b.zip")
      let source = try Support.makeStore(in: dir)
      try Backup.create(from: source, to: zip, generator: "t", now: now)
      try source.close()
      let target = dir.appendingPathComponent("new")
      let task = Task { () -> Error? in
        do {
          let store = try LibraryStore(directory: target, mode: .readWrite)
          defer { try? store.close() }
          var calls = 0
          store.clock = {
            calls += 1
            if calls >= 2 { withUnsafeCurrentTask { $0?.cancel() } }
            return Date(timeIntervalSince1970: 1_796_000_000)
          }
          try Backup.restore(from: zip, into: store)
          return nil
        } catch {
          return error
        }
      }
      #expect(await task.value is CancellationError)
      #expect(try LibraryStore(directory: target, mode: .readOnly).isEmpty())
    }
  }

  /// A merge stops when its task is cancelled and changes nothing: cancelled once the backup
  /// is read and the merge planned (the store's clock is asked by the read, call 1, and by the
  /// plan, call 2: the check before anything is written), or once it is planned again under
  /// the write lock (call 3: the checks of the inserts, after the attachments were placed,
  /// which are removed again).
  @Test(arguments: [2, 3]) func aMergeCancelledStopsAndChangesNothing(cancelAtCall: Int) async throws {
    try await Support.withScratch { dir in
      let zip = dir.appendingPathComponent("b.zip")
      let source = try Support.makeStore(in: dir.appendingPathComponent("source"))
      try Backup.create(from: source, to: zip, generator: "t", now: now)
      try source.close()
      // A library of its own: one yarn with a photo the backup lacks.
      let target = dir.appendingPathComponent("mine")
      let photo = dir.appendingPathComponent("mine.txt")
      try Data("mine".utf8).write(to: photo)
      let mine = try LibraryStore(directory: target, mode: .readWrite)
      let attachment = try mine.importAttachment(from: photo)
      try mine.write { try mine.insert(Yarn(id: "m-1", name: "Mine", photos: [attachment])) }
      let before = (try mine.library(), Support.listing(of: target.appendingPathComponent("attachments")))
      try mine.close()

      let task = Task { () -> Error? in
        do {
          let store = try LibraryStore(directory: target, mode: .readWrite)
          defer { try? store.close() }
          var calls = 0
          store.clock = {
            calls += 1
            if calls >= cancelAtCall { withUnsafeCurrentTask { $0?.cancel() } }
            return Date(timeIntervalSince1970: 1_796_000_000)
          }
          try Backup.restore(from: zip, into: store, options: RestoreOptions(mode: .merge))
          return nil
        } catch {
          return error
        }
      }
      #expect(await task.value is CancellationError)
      let after = try LibraryStore(directory: target, mode: .readOnly)
      defer { try? after.close() }
      #expect(try after.library() == before.0)
      #expect(Support.listing(of: target.appendingPathComponent("attachments")) == before.1)
    }
  }

  /// QA: after Ctrl-C a restore still read `library.json` to its end (checking it, or inserting
  /// its items) before it stopped. Reading it checks cancellation before each piece: in a
  /// cancelled task no item is read, by the check nor by the reads that insert.
  @Test func readingLibraryJSONInACancelledTaskStopsBeforeAnyItem() async throws {
    try await Support.withScratch { dir in
      let zip = dir.appendingPathComponent("b.zip")
      let source = try Support.makeStore(in: dir)
      try Backup.create(from: source, to: zip, generator: "t", now: now)
      try source.close()
      let outcome = await inCancelledTask {
        let reader = try BackupReader(url: zip, limits: .standard)
        let visited = Counter()
        var errors: [Bool] = []
        do { _ = try reader.checkLibrary { _, _ in visited.add() } } catch {
          errors.append(error is CancellationError)
        }
        do { _ = try reader.readItems([.yarns, .projects]) { _ in visited.add() } } catch {
          errors.append(error is CancellationError)
        }
        #expect(errors == [true, true])
        #expect(visited.value == 0)
        throw CancellationError()
      }
      #expect(outcome is CancellationError)
    }
  }

  @Test func aReplaceKeepsTheNewestFiveSafetyBackups() throws {
    try Support.withScratch { dir in
      let mine = try Support.makeStore(in: dir)
      let zip = dir.appendingPathComponent("b.zip")
      try Backup.create(from: mine, to: zip, generator: "t", now: now)
      let folder = dir.appendingPathComponent("safety", isDirectory: true)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      // Another file in the folder is not a safety backup: it stays.
      try Data("mine".utf8).write(to: folder.appendingPathComponent("notes.txt"))
      for number in 1...7 {
        var options = RestoreOptions(mode: .replace, now: now)
        options.safetyBackup = folder.appendingPathComponent(
          "yarn-backup-before-restore-\(number).zip")
        // A dry run first names the ones the replace will remove, and removes none (QA: it
        // named none).
        var dry = options
        dry.dryRun = true
        let there = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let predicted = try Backup.restore(from: zip, into: mine, options: dry).safetyBackupsRemoved
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == there)
        let report = try Backup.restore(from: zip, into: mine, options: options)
        // The report names what went: the 1st after the 6th replace, the 2nd after the 7th.
        let removed = report.safetyBackupsRemoved.map(\.lastPathComponent)
        #expect(removed == (number >= 6 ? ["yarn-backup-before-restore-\(number - 5).zip"] : []))
        #expect(predicted.map(\.lastPathComponent) == removed)
        // Modification times a second apart, oldest first.
        let path = folder.appendingPathComponent("yarn-backup-before-restore-\(number).zip").path
        var times = [
          timespec(tv_sec: 1_000_000 + number, tv_nsec: 0),
          timespec(tv_sec: 1_000_000 + number, tv_nsec: 0),
        ]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
      }
      let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
      // After the 7th replace, backups 2–7 were there: the oldest (2) went; the 1st went
      // after the 6th.
      #expect(
        left
          == ["notes.txt"] + (3...7).map { "yarn-backup-before-restore-\($0).zip" })
    }
  }

  /// QA: a safety backup that could not be removed (a folder that cannot be written, an
  /// immutable file) was skipped without a word. Each is named, oldest last, with the reason.
  @Test func safetyBackupsThatCannotBeRemovedAreNamedWithTheReason() throws {
    try Support.withScratch { dir in
      let folder = dir.appendingPathComponent("safety", isDirectory: true)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      // Seven zips' first bytes, a second apart, oldest first; the 7th was just written.
      func path(_ number: Int) -> String {
        folder.appendingPathComponent("yarn-backup-before-restore-\(number).zip").path
      }
      for number in 1...7 {
        try Data([0x50, 0x4B, 0x03, 0x04]).write(to: URL(fileURLWithPath: path(number)))
        var times = [
          timespec(tv_sec: 1_000_000 + number, tv_nsec: 0),
          timespec(tv_sec: 1_000_000 + number, tv_nsec: 0),
        ]
        #expect(utimensat(AT_FDCWD, path(number), &times, 0) == 0)
      }
      guard let reason = Support.makeReadOnly(folder.path) else { return }
      defer { Support.makeWritable(folder.path) }
      let pruned = Backup.pruneSafetyBackups(besides: URL(fileURLWithPath: path(7)))
      // The 7th and the newest 4 others are kept; the 2nd and 1st stay too, named.
      #expect(pruned.removed.isEmpty)
      #expect(pruned.notRemoved.map(\.url.path) == [path(2), path(1)])
      #expect(pruned.notRemoved.map(\.reason) == [reason, reason])
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 7)
    }
  }

  /// QA: five safety backups with file times in the future (a clock set back, a copy that
  /// kept its times) made the one just written the oldest, and it was removed at once; kept,
  /// it was removed by the next replace. With a file time in the future none is removed.
  @Test func theSafetyBackupJustWrittenIsNeverRemoved() throws {
    try Support.withScratch { dir in
      let mine = try Support.makeStore(in: dir)
      let zip = dir.appendingPathComponent("b.zip")
      try Backup.create(from: mine, to: zip, generator: "t", now: now)
      let folder = dir.appendingPathComponent("safety", isDirectory: true)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      for number in 1...5 {
        let path = folder.appendingPathComponent("yarn-backup-before-restore-\(number).zip").path
        try FileManager.default.copyItem(at: zip, to: URL(fileURLWithPath: path))
        // 2030 and later, a second apart: newer than any file written now.
        var times = [
          timespec(tv_sec: 1_893_456_000 + number, tv_nsec: 0),
          timespec(tv_sec: 1_893_456_000 + number, tv_nsec: 0),
        ]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
      }
      for number in 6...7 {
        var options = RestoreOptions(mode: .replace, now: now)
        options.safetyBackup = folder.appendingPathComponent("yarn-backup-before-restore-\(number).zip")
        let report = try Backup.restore(from: zip, into: mine, options: options)
        #expect(report.safetyBackupsRemoved.isEmpty)
      }
      let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
      #expect(left == (1...7).map { "yarn-backup-before-restore-\($0).zip" })
    }
  }

  /// QA: `--replace` from the oldest of 5 safety backups removed, once committed, the very
  /// file it restored from. The backup restored from is never removed, found as the same file
  /// however its path is spelled (`..`, a symbolic link); the others keep the count rule.
  @Test func theBackupRestoredFromIsNeverRemoved() throws {
    try Support.withScratch { dir in
      let mine = try Support.makeStore(in: dir)
      let zip = dir.appendingPathComponent("b.zip")
      try Backup.create(from: mine, to: zip, generator: "t", now: now)
      let folder = dir.appendingPathComponent("safety", isDirectory: true)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      func name(_ number: Int) -> String { "yarn-backup-before-restore-\(number).zip" }
      for number in 1...5 {
        let path = folder.appendingPathComponent(name(number)).path
        try FileManager.default.copyItem(at: zip, to: URL(fileURLWithPath: path))
        // In the past, a second apart, oldest first.
        var times = [
          timespec(tv_sec: 1_000_000 + number, tv_nsec: 0), timespec(tv_sec: 1_000_000 + number, tv_nsec: 0),
        ]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
      }
      // From the oldest, spelled with `..`: 6 is written; 5, 4, 3, 2 are the newest 4 others,
      // and 1, beyond them, is the backup read: it stays.
      var options = RestoreOptions(mode: .replace, now: now)
      options.safetyBackup = folder.appendingPathComponent(name(6))
      let spelled = URL(fileURLWithPath: folder.path + "/../safety/" + name(1))
      let first = try Backup.restore(from: spelled, into: mine, options: options)
      #expect(first.safetyBackupsRemoved.isEmpty)
      #expect(first.safetyBackupsNotRemoved.isEmpty)
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == (1...6).map(name))
      // From 2 through a link: 7 is written; 6, 5, 4, 3 are the newest 4 others; 2 is read
      // and stays; 1 goes.
      let link = dir.appendingPathComponent("link.zip")
      try FileManager.default.createSymbolicLink(
        atPath: link.path, withDestinationPath: folder.appendingPathComponent(name(2)).path)
      options.safetyBackup = folder.appendingPathComponent(name(7))
      let second = try Backup.restore(from: link, into: mine, options: options)
      #expect(second.safetyBackupsRemoved.map(\.lastPathComponent) == [name(1)])
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == (2...7).map(name))
    }
  }

  /// QA: files named like safety backups that are not zips (a note, junk) were counted, and
  /// pushed the real ones out. Only zips count, and only they are removed.
  @Test func onlyZipsCountAsSafetyBackups() throws {
    try Support.withScratch { dir in
      let mine = try Support.makeStore(in: dir)
      let zip = dir.appendingPathComponent("b.zip")
      try Backup.create(from: mine, to: zip, generator: "t", now: now)
      let folder = dir.appendingPathComponent("safety", isDirectory: true)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let junk = (1...5).map { "yarn-backup-before-restore-2020010\($0)-000000.zip" }
      for (index, name) in junk.enumerated() {
        let path = folder.appendingPathComponent(name).path
        try Data("my notes \(index)".utf8).write(to: URL(fileURLWithPath: path))
        var times = [
          timespec(tv_sec: 1_000 + index, tv_nsec: 0), timespec(tv_sec: 1_000 + index, tv_nsec: 0),
        ]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
      }
      let real = (1...6).map { "yarn-backup-before-restore-real-\($0).zip" }
      for name in real {
        var options = RestoreOptions(mode: .replace, now: now)
        options.safetyBackup = folder.appendingPathComponent(name)
        try Backup.restore(from: zip, into: mine, options: options)
      }
      // Six real ones written, five kept: only the first real one went; the notes stay.
      let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
      #expect(left == (junk + real.dropFirst()).sorted())
    }
  }

  /// Runs `body` inside a task and waits for it, from synchronous test code.
  private func runInTask<T: Sendable>(_ body: @escaping @Sendable () -> T) throws -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
      box.value = body()
      done.signal()
    }
    done.wait()
    return try #require(box.value)
  }
}

/// A flag set from a callback and read afterwards.
private final class LockedFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  func set() { lock.withLock { value = true } }
  var isSet: Bool { lock.withLock { value } }
}

/// A count kept from callbacks.
private final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  func add() { lock.withLock { count += 1 } }
  var value: Int { lock.withLock { count } }
}

/// A value handed back from a detached task, read after it signalled.
private final class ResultBox<T>: @unchecked Sendable {
  var value: T?
}

/// `stash import` in a cancelled task: nothing is planned or imported.
@Suite struct ImportCancellationTests {
  @Test func anImportInACancelledTaskStopsAndImportsNothing() async throws {
    let csv = Data("Name,Brand\nRios,Malabrigo\nArroyo,Malabrigo\n".utf8)
    let options = StashCSV.ImportOptions(
      timeZone: TimeZone(secondsFromGMT: 0) ?? .current, now: Date(timeIntervalSince1970: 0))
    // Planned outside, applied in a cancelled task: rolled back.
    let store = try LibraryStore.inMemory()
    let plan = try StashCSV.importPlan(from: csv, store: store, options: options)
    #expect(plan.creates.count == 2)
    let directory = store.directory
    try store.close()
    let task = Task {
      while !Task.isCancelled { await Task.yield() }
      let target = try LibraryStore(directory: directory, mode: .readWrite)
      defer { try? FileManager.default.removeItem(at: directory) }
      var planned: Error?
      do { _ = try StashCSV.importPlan(from: csv, store: target, options: options) } catch {
        planned = error
      }
      var applied: Error?
      do { try StashCSV.apply(plan, to: target) } catch { applied = error }
      return (planned is CancellationError, applied is CancellationError, try target.isEmpty())
    }
    task.cancel()
    let (planStopped, applyStopped, empty) = try await task.value
    #expect(planStopped)
    #expect(applyStopped)
    #expect(empty)
  }
}
