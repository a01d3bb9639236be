import Foundation
import Testing

@testable import YarnModel
@testable import YarnStore

/// `LibraryStore.create`: a new library built in a temporary file and put in place only on
/// success (issue 13: `stash import` into a new library without a read-only check first).
@Suite struct StoreCreateTests {
  /// The names in `folder` that a creation's temporary file would have.
  static func temporaries(in folder: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
      $0.hasPrefix(".library.sqlite.tmp-")
    }
  }

  @Test func aLibraryThatSucceedsIsPutInPlaceWithItsParentsAndUndoesAsOneChange() throws {
    try withTemporaryDirectory { folder in
      let directory = folder.appendingPathComponent("a/b", isDirectory: true)
      let count = try LibraryStore.create(directory: directory) { store in
        store.changeLabel = "yarn stash import s.csv"
        try store.write {
          try store.insert(Yarn(id: "y1", name: "Rios"))
          try store.insert(Yarn(id: "y2", name: "Arroyo"))
        }
        return 2
      }
      #expect(count == 2)
      let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
      #expect(files == ["attachments", "library.sqlite"])
      #expect(try Self.temporaries(in: folder) == [])
      // In WAL mode, as every library: the header's bytes 18 and 19 (file format write and
      // read versions) are 2 for WAL (sqlite.org/fileformat.html, 1.3.4), 1 for a rollback journal.
      let header = try Data(contentsOf: directory.appendingPathComponent("library.sqlite")).prefix(20)
      #expect(Array(header.suffix(2)) == [2, 2])
      let store = try LibraryStore(directory: directory, mode: .readWrite)
      defer { try? store.close() }
      #expect(try store.yarns().map(\.name) == ["Rios", "Arroyo"])
      #expect(try store.history().map(\.label) == ["yarn stash import s.csv"])
      try store.undo()
      #expect(try store.yarns().isEmpty)
    }
  }

  @Test func aFailureOrARefusedResultCreatesNothing() throws {
    struct Stop: Error {}
    try withTemporaryDirectory { folder in
      let directory = folder.appendingPathComponent("a/b", isDirectory: true)
      #expect(throws: Stop.self) {
        try LibraryStore.create(directory: directory) { store in
          try store.insert(Yarn(id: "y1", name: "Rios"))
          throw Stop()
        }
      }
      #expect(throws: CancellationError.self) {
        try LibraryStore.create(directory: directory) { _ in throw CancellationError() }
      }
      // Not kept: the body's work is thrown away, nothing is left behind.
      try LibraryStore.create(
        directory: directory, { store in try store.insert(Yarn(id: "y1", name: "Rios")) }, keep: { false })
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
      // In a directory that exists, too: no library.sqlite, no attachments/, no temporary file.
      let existing = folder.appendingPathComponent("lib", isDirectory: true)
      try FileManager.default.createDirectory(at: existing, withIntermediateDirectories: false)
      #expect(throws: Stop.self) {
        try LibraryStore.create(directory: existing) { _ in throw Stop() }
      }
      #expect(try FileManager.default.contentsOfDirectory(atPath: existing.path) == [])
    }
  }

  /// Another process that creates the library while this one builds it keeps its library.
  @Test func aLibraryCreatedMeanwhileIsNeverReplaced() throws {
    try withTemporaryDirectory { folder in
      let directory = folder.appendingPathComponent("lib", isDirectory: true)
      let error = #expect(throws: StoreError.self) {
        try LibraryStore.create(directory: directory) { store in
          try store.insert(Yarn(id: "y1", name: "Mine"))
          let other = try LibraryStore(directory: directory, mode: .readWrite)
          try other.insert(Yarn(id: "y2", name: "Theirs"))
          try other.close()
        }
      }
      #expect(
        error?.description
          == "another yarn process created the library at \(directory.path) while this command was "
          + "building it; that library was left as it is, and nothing of this command was kept")
      #expect(try Self.temporaries(in: directory) == [])
      let store = try LibraryStore(directory: directory, mode: .readOnly)
      defer { try? store.close() }
      #expect(try store.yarns().map(\.name) == ["Theirs"])
    }
  }

  /// Two creations in one folder take turns (an exclusive flock on the folder): the second
  /// waits, then finds the first one's library and throws without running its body — as two
  /// restores into one new library must, the loser placing no attachment file the winner
  /// might rely on. (The waiting creation runs on a thread of its own, not in Swift's
  /// cooperative pool, which a wait that polls would hold.)
  @Test func creationsInOneFolderTakeTurns() throws {
    try withTemporaryDirectory { folder in
      let directory = folder.appendingPathComponent("lib", isDirectory: true)
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
      // This test holds the folder's lock, as a creation in another process would.
      let lock = open(directory.path, O_RDONLY | O_DIRECTORY)
      #expect(lock >= 0)
      defer { close(lock) }
      #expect(flock(lock, LOCK_EX | LOCK_NB) == 0)

      final class Outcome: @unchecked Sendable {  // written by the thread before `done`
        var bodyRan = false
        var error: (any Error)?
      }
      let outcome = Outcome()
      let done = DispatchSemaphore(value: 0)
      let waiting = Thread {
        do {
          try LibraryStore.create(directory: directory) { store in
            outcome.bodyRan = true
            try store.insert(Yarn(id: "y2", name: "Second"))
          }
        } catch { outcome.error = error }
        done.signal()
      }
      waiting.start()
      // Still waiting while the folder is locked.
      #expect(done.wait(timeout: .now() + .milliseconds(300)) == .timedOut)
      // The "first" creation puts its library in place, then lets go of the folder.
      let elsewhere = folder.appendingPathComponent("first", isDirectory: true)
      try LibraryStore.create(directory: elsewhere) { store in try store.insert(Yarn(id: "y1", name: "First"))
      }
      try FileManager.default.moveItem(
        at: elsewhere.appendingPathComponent("library.sqlite"),
        to: directory.appendingPathComponent("library.sqlite"))
      #expect(flock(lock, LOCK_UN) == 0)
      #expect(done.wait(timeout: .now() + .seconds(30)) == .success)
      #expect(!outcome.bodyRan)
      if case StoreError.libraryCreatedMeanwhile(let path)? = outcome.error {
        #expect(path == directory.path)
      } else {
        Issue.record("expected libraryCreatedMeanwhile, got \(String(describing: outcome.error))")
      }
      let store = try LibraryStore(directory: directory, mode: .readOnly)
      defer { try? store.close() }
      #expect(try store.yarns().map(\.name) == ["First"])
    }
  }

  /// Stores opened for writing on one missing library at once: exactly one of them created
  /// it (`createdLibrary`), the others found it made meanwhile; a store opened on it later,
  /// or read-only, did not create it. (Threads of their own, as a creation waiting for the
  /// folder's lock polls.)
  @Test func ofStoresOpenedAtOnceOnAMissingLibraryOneCreatedIt() throws {
    try withTemporaryDirectory { folder in
      let directory = folder.appendingPathComponent("lib", isDirectory: true)
      final class Outcomes: @unchecked Sendable {  // each thread writes its own slot
        var created = [Bool?](repeating: nil, count: 8)
        var errors: [String] = []
        let lock = NSLock()
      }
      let outcomes = Outcomes()
      let done = DispatchSemaphore(value: 0)
      for index in 0..<8 {
        Thread {
          do {
            let store = try LibraryStore(directory: directory, mode: .readWrite)
            outcomes.lock.withLock { outcomes.created[index] = store.createdLibrary }
            try store.close()
          } catch {
            outcomes.lock.withLock { outcomes.errors.append("\(error)") }
          }
          done.signal()
        }.start()
      }
      for _ in 0..<8 { #expect(done.wait(timeout: .now() + .seconds(60)) == .success) }
      #expect(outcomes.errors.isEmpty, "\(outcomes.errors)")
      #expect(outcomes.created.filter { $0 == true }.count == 1, "\(outcomes.created)")
      #expect(outcomes.created.filter { $0 == false }.count == 7)
      let again = try LibraryStore(directory: directory, mode: .readWrite)
      #expect(!again.createdLibrary)
      try again.close()
      let reader = try LibraryStore(directory: directory, mode: .readOnly)
      #expect(!reader.createdLibrary)
      try reader.close()
    }
  }

  /// A library deleted but for its write-ahead log: SQLite would replay the old log's pages
  /// onto a new library put in its place (the new yarns vanished, the old ones came back), so
  /// neither a creation nor an open for writing makes a library beside it; the log is kept.
  @Test func aLogLeftWithoutItsLibraryIsNeverReplayedOntoANewOne() throws {
    try withTemporaryDirectory { folder in
      let directory = folder.appendingPathComponent("lib", isDirectory: true)
      let old = try LibraryStore(directory: directory, mode: .readWrite)
      try old.insert(Yarn(id: "y1", name: "Old"))
      try old.close()
      let database = directory.appendingPathComponent("library.sqlite").path
      let log = database + "-wal"
      #expect(FileManager.default.fileExists(atPath: log))  // kept on close
      #expect(unlink(database) == 0)
      let reason =
        "cannot access \(log): a write-ahead log is there without library.sqlite (it may hold the last changes "
        + "of a library that was moved or deleted); put library.sqlite back, or move it away"
      let created = #expect(throws: StoreError.self) {
        try LibraryStore.create(directory: directory) { store in try store.insert(Yarn(id: "y2", name: "New"))
        }
      }
      #expect(created?.description == reason)
      let opened = #expect(throws: StoreError.self) {
        try LibraryStore(directory: directory, mode: .readWrite)
      }
      #expect(opened?.description == reason)
      // Nor is it read as an empty library.
      let read = #expect(throws: StoreError.self) { try LibraryStore(directory: directory, mode: .readOnly) }
      #expect(read?.description == reason)
      #expect(!FileManager.default.fileExists(atPath: database))
      #expect(FileManager.default.fileExists(atPath: log))
      #expect(try Self.temporaries(in: directory) == [])
    }
  }

  /// A rollback journal without its database is refused the same way (SQLite would roll the
  /// other database's pages back into the new one); a dangling symbolic link where the
  /// database goes is named, not taken for a library another process created.
  @Test func aJournalWithoutItsLibraryAndADanglingLinkAreRefused() throws {
    try withTemporaryDirectory { folder in
      let directory = folder.appendingPathComponent("lib", isDirectory: true)
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
      let journal = directory.appendingPathComponent("library.sqlite-journal").path
      #expect(FileManager.default.createFile(atPath: journal, contents: Data(repeating: 1, count: 512)))
      let error = #expect(throws: StoreError.self) {
        try LibraryStore.create(directory: directory) { store in try store.insert(Yarn(id: "y1", name: "New"))
        }
      }
      #expect(
        error?.description.hasPrefix("cannot access \(journal): a rollback journal is there without") == true)
      #expect(throws: StoreError.self) { try LibraryStore(directory: directory, mode: .readWrite) }
      #expect(unlink(journal) == 0)

      let target = directory.appendingPathComponent("library.sqlite").path
      #expect(symlink(folder.appendingPathComponent("nowhere").path, target) == 0)
      let dangling = #expect(throws: StoreError.self) {
        try LibraryStore.create(directory: directory) { store in try store.insert(Yarn(id: "y1", name: "New"))
        }
      }
      #expect(
        dangling?.description == "cannot access \(target): it is a symbolic link to nothing, not a library")
      #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["library.sqlite"])
    }
  }

  /// An empty `library.sqlite` (0 bytes; SQLite takes it as an empty database) is no
  /// library: opening it in either mode and creating a library over it are refused, naming
  /// the file, and nothing beside it is made.
  @Test func anEmptyDatabaseFileIsRefusedAndLeftAsItIs() throws {
    try withTemporaryDirectory { folder in
      let directory = folder.appendingPathComponent("lib", isDirectory: true)
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
      let target = directory.appendingPathComponent("library.sqlite").path
      #expect(FileManager.default.createFile(atPath: target, contents: Data()))
      let expected =
        "cannot access \(target): it is an empty file (0 bytes), not a library (what is left of a "
        + "copy or restore that failed, or another program's file); move it away to start a new "
        + "library here, or put the library's library.sqlite back"
      for mode in [LibraryStore.Mode.readWrite, .readOnly] {
        let error = #expect(throws: StoreError.self) { try LibraryStore(directory: directory, mode: mode) }
        #expect(error?.description == expected, "\(mode)")
      }
      let created = #expect(throws: StoreError.self) {
        try LibraryStore.create(directory: directory) { store in try store.insert(Yarn(id: "y1", name: "New"))
        }
      }
      #expect(created?.description == expected)
      #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["library.sqlite"])
      #expect(try FileManager.default.attributesOfItem(atPath: target)[.size] as? Int == 0)
    }
  }

  /// Another program's SQLite database where `library.sqlite` should be (tables, and no
  /// schema version of yarn's) is refused in either mode, naming the file, and left byte for
  /// byte as it was: no tables added, not switched to WAL (QA: `stash list` had done both).
  @Test func anotherProgramsDatabaseIsRefusedAndLeftAsItIs() throws {
    try withTemporaryDirectory { folder in
      let directory = folder.appendingPathComponent("lib", isDirectory: true)
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
      let target = directory.appendingPathComponent("library.sqlite").path
      let foreign = try Connection(path: target, flags: 0x2 | 0x4)  // READWRITE | CREATE
      try foreign.execute("CREATE TABLE recipes (x); INSERT INTO recipes VALUES ('soup')")
      try foreign.close()
      let before = try Data(contentsOf: URL(fileURLWithPath: target))
      let expected =
        "cannot access \(target): it is another program's SQLite database (it holds tables, and "
        + "no schema version of yarn's), not a library; nothing was changed: move it away to start "
        + "a new library here"
      for mode in [LibraryStore.Mode.readOnly, .readWrite] {
        let error = #expect(throws: StoreError.self) { try LibraryStore(directory: directory, mode: mode) }
        #expect(error?.description == expected, "\(mode)")
      }
      #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == before)
      #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["library.sqlite"])
      // A program that sets a schema version of its own (QA: 3 was "upgraded", 7 read).
      for version in [3, 7, 99] {
        let other = try Connection(path: target, flags: 0x2)  // READWRITE
        try other.execute("PRAGMA user_version = \(version)")
        try other.close()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: target))
        for mode in [LibraryStore.Mode.readOnly, .readWrite] {
          let error = #expect(throws: StoreError.self) { try LibraryStore(directory: directory, mode: mode) }
          #expect(
            error?.description
              == "cannot access \(target): it is another program's SQLite database (its schema "
              + "version \(version) is not yarn's: it has no table yarn), not a library; nothing was "
              + "changed: move it away to start a new library here", "\(mode) \(version)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["library.sqlite"])
      }
    }
  }

  /// QA: a stale temporary database beside a folder's `attachments/` does not say whose the
  /// files there are (a copy of a library whose database failed to copy leaves the same): the
  /// next creation removes the temporary file and nothing of `attachments/`, a file named by
  /// its own SHA-256 in its shard included. (A sweep on that sign deleted a user's photos.)
  @Test func aKilledCreationsTemporaryFileNeverRemovesAttachmentFiles() throws {
    try withTemporaryDirectory { folder in
      // SHA-256 of "orphan" (sha256sum).
      let digest = "88f6811ab5d8fc6d3177f9b7609ae0fcebfda187e5046b62d38bb539e88b74d7"
      let library = folder.appendingPathComponent("lib", isDirectory: true)
      let attachments = library.appendingPathComponent("attachments", isDirectory: true)
      let photo = attachments.appendingPathComponent("88/" + digest)
      let mine = attachments.appendingPathComponent("README.txt")
      try FileManager.default.createDirectory(
        at: photo.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data("orphan".utf8).write(to: photo)
      try Data("mine".utf8).write(to: mine)
      try Data("SQLite format 3\0half a library".utf8).write(
        to: library.appendingPathComponent(".library.sqlite.tmp-abc123"))
      try LibraryStore.create(directory: library) { _ in }
      #expect(try Data(contentsOf: photo) == Data("orphan".utf8))
      #expect(try Data(contentsOf: mine) == Data("mine".utf8))
      #expect(try Self.temporaries(in: library) == [])
    }
  }

  /// A temporary file that a killed process left (no lock on it, empty or a SQLite database)
  /// goes at the next creation.
  @Test func aKilledCreationsTemporaryFileIsRemovedByTheNext() throws {
    try withTemporaryDirectory { folder in
      // The 16-byte header every SQLite database starts with (sqlite.org/fileformat.html).
      try Data("SQLite format 3\0half a library".utf8).write(
        to: folder.appendingPathComponent(".library.sqlite.tmp-abc123"))
      try Data().write(to: folder.appendingPathComponent(".library.sqlite.tmp-XyZ789"))
      try LibraryStore.create(directory: folder.appendingPathComponent("lib")) { _ in }
      #expect(try Self.temporaries(in: folder) == [])
    }
  }

  /// A user's file that only looks like a temporary file (its name, no lock) is not a SQLite
  /// database and is never removed: in the library folder, nor in the nearest existing folder
  /// above a library folder that does not exist yet.
  @Test func aLookAlikeOfTheTemporaryFileIsLeftAlone() throws {
    try withTemporaryDirectory { folder in
      let text = folder.appendingPathComponent(".library.sqlite.tmp-AbC123")
      try Data("data\n".utf8).write(to: text)
      // Starts like the header but is not it (no NUL at byte 16).
      let near = folder.appendingPathComponent(".library.sqlite.tmp-Near01")
      try Data("SQLite format 3.".utf8).write(to: near)
      let library = folder.appendingPathComponent("sub/lib", isDirectory: true)
      try LibraryStore.create(directory: library) { _ in }
      #expect(try Data(contentsOf: text) == Data("data\n".utf8))
      #expect(try Data(contentsOf: near) == Data("SQLite format 3.".utf8))
      let existing = folder.appendingPathComponent("own", isDirectory: true)
      try FileManager.default.createDirectory(at: existing, withIntermediateDirectories: true)
      let inside = existing.appendingPathComponent(".library.sqlite.tmp-AbC123")
      try Data("data\n".utf8).write(to: inside)
      try LibraryStore.create(directory: existing) { _ in }
      #expect(try Data(contentsOf: inside) == Data("data\n".utf8))
    }
  }
}
