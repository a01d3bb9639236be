import YarnModel

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension LibraryStore {
  /// Creates the library at `directory` all or nothing: runs `body` on a new library built in
  /// a temporary file, and puts that file in place as `directory/library.sqlite` only when
  /// `body` returns a result that `keep` accepts.
  ///
  /// The temporary file, `.library.sqlite.tmp-XXXXXX`, is made in `directory`, or when that
  /// is missing in the nearest folder above it that exists (the same file system, so that it
  /// can be moved in place); `directory`, its missing parents and `attachments/` are created
  /// only when the library is put in place. When `body` throws (a cancelled import too) or
  /// `keep` refuses its result, the temporary file is removed and nothing else was created.
  /// A temporary file that a killed process left is removed by the next creation in the same
  /// folder only when it proves to be yarn's (`removeStaleTemporaries`); nothing in
  /// `directory/attachments/` is touched for it (a stale temporary file does not say whose
  /// those files are). Creations in one folder (`directory`,
  /// or the nearest folder above it that exists) take turns: each holds an exclusive `flock`
  /// on the folder from before its `body` runs until its library is in place, and one that
  /// waited and then finds a library there throws `StoreError.libraryCreatedMeanwhile`
  /// without running `body`; a task cancelled while waiting throws `CancellationError`.
  ///
  /// The file is put in place with link(2), which never replaces a file: when another process
  /// created the library meanwhile, that library is left as it is and
  /// `StoreError.libraryCreatedMeanwhile` is thrown. (On a file system without hard links, rename(2) after checking that the library
  /// is still missing.)
  ///
  /// `body` gets a read-write store (`directory` is the library's; attachments cannot be
  /// added until the library is in place) and should make its changes in `write`
  /// transactions, as on any store, so that they are in the undo history. The store is closed
  /// when `create` returns.
  ///
  /// - Parameters:
  ///   - directory: the library directory, which has no `library.sqlite` (else the library is
  ///     not replaced: `StoreError.io` before `body` runs).
  ///   - body: fills the new library.
  ///   - keep: whether the library `body` made is kept; by default always.
  /// - Returns: what `body` returns.
  /// - Throws: what `body` throws; `StoreError.io` naming the path when the temporary file,
  ///   the directory or the library cannot be created, when a file is where a folder should
  ///   be, when a write-ahead log is there without a library (`refuseOrphanLog`), when
  ///   `library.sqlite` is there already (a directory or an empty file:
  ///   `refuseUnusableDatabase`);
  ///   `StoreError.libraryCreatedMeanwhile` when another process created the library while
  ///   this one waited for the folder or `body` ran; `CancellationError` when the task was
  ///   cancelled while waiting; the errors of opening a store (`init(directory:mode:)`).
  public static func create<T>(
    directory: URL, _ body: (LibraryStore) throws -> T, keep: (T) -> Bool = { _ in true }
  ) throws -> T {
    let directory = directory.standardizedFileURL
    let target = directory.appendingPathComponent(databaseFileName).path
    var folder = directory.path
    while try kind(of: folder) == nil, folder != "/" { folder = POSIX.directory(of: folder) }
    if try kind(of: folder) != S_IFDIR {
      throw StoreError.io(path: folder, reason: "it is a file, not a directory")
    }
    if folder == directory.path { try refuseOrphanLog(in: directory) }  // before any work
    var entry = stat()
    if lstat(target, &entry) == 0 {
      if entry.st_mode & S_IFMT == S_IFLNK, try kind(of: target) == nil {
        throw StoreError.io(path: target, reason: "it is a symbolic link to nothing, not a library")
      }
      try refuseUnusableDatabase(at: target)
      throw StoreError.io(path: target, reason: "a library is already there; it was left as it is")
    }
    // One creation at a time in a folder, to its end (the link below): a second one waits,
    // then finds the library the first made. A restore into a new library places its
    // attachment files in the library's folder while it runs, and one that lost the race
    // would otherwise remove, as it failed, files the winner had found there and kept.
    let folderLock = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard folderLock >= 0 else {
      throw StoreError.io(path: folder, reason: "cannot open it: \(POSIX.errnoText())")
    }
    defer { POSIX.close(folderLock) }
    while flock(folderLock, LOCK_EX | LOCK_NB) != 0 {
      guard errno == EWOULDBLOCK || errno == EINTR else {
        throw StoreError.io(path: folder, reason: "cannot lock it: \(POSIX.errnoText())")
      }
      try Task.checkCancellation()  // Ctrl-C while waiting
      usleep(20_000)
    }
    if lstat(target, &entry) == 0 { throw StoreError.libraryCreatedMeanwhile(directory: directory.path) }
    let prefix = "." + databaseFileName + ".tmp-"
    removeStaleTemporaries(in: folder, prefix: prefix)
    var template = Array((folder + "/" + prefix + "XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1
    }
    guard fd >= 0 else {
      throw StoreError.io(path: folder, reason: "cannot create a temporary file: \(POSIX.errnoText())")
    }
    let temporary = String(cString: template.map { UInt8(bitPattern: $0) })
    // Locked while in use, so that another creation's tidying leaves it alone; the lock is
    // released only after SQLite closed the file (closing any descriptor of a file drops
    // SQLite's own POSIX locks on it).
    _ = flock(fd, LOCK_EX | LOCK_NB)
    let mask = umask(0)
    umask(mask)
    fchmod(fd, 0o644 & ~mask)
    defer {
      unlink(temporary)
      unlink(temporary + "-wal")
      unlink(temporary + "-shm")
      POSIX.close(fd)
    }
    let store = try LibraryStore(newDatabaseAt: temporary, directory: directory)
    let result: T
    do {
      result = try body(store)
      if keep(result) {
        // Put in place in WAL mode, as every library is (the mode is in the file's header),
        // so that the next command does not rewrite the header; the log holds no page yet.
        do {
          try store.connection.execute("PRAGMA journal_mode = WAL")
        } catch let error as DatabaseError {
          throw StoreError.wrap(error, database: store.databaseURL.path)
        }
      }
    } catch {
      try? store.close()
      throw error
    }
    try store.close()
    guard keep(result) else { return result }
    try refuseOrphanLog(in: directory)
    try createDirectory(directory)
    try createDirectory(directory.appendingPathComponent(attachmentsFolderName))
    if link(temporary, target) != 0 {
      let exists = errno == EEXIST || (try? kind(of: target)) != nil
      if exists { throw StoreError.libraryCreatedMeanwhile(directory: directory.path) }
      if rename(temporary, target) != 0 { throw StoreError.io(path: target, reason: POSIX.errnoText()) }
    }
    AtomicFile.syncDirectory(directory.path)
    return result
  }

  /// Removes the temporary files `prefix` + 6 letters or digits in `folder` that a killed
  /// creation left: a regular file (not a link) that no process holds locked (`flock`, held
  /// while a creation uses it) and that is empty (killed before SQLite wrote) or starts with
  /// SQLite's 16-byte header `SQLite format 3\0`. Any other file of that name is another
  /// program's, or the user's, and is left alone. Errors are ignored (this is tidying).
  static func removeStaleTemporaries(in folder: String, prefix: String) {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
    let header = Array("SQLite format 3\0".utf8)
    for name in names where name.hasPrefix(prefix) && name.utf8.count == prefix.utf8.count + 6 {
      let suffix = name.unicodeScalars.suffix(6)
      guard
        suffix.allSatisfy({ ("0"..."9").contains($0) || ("A"..."Z").contains($0) || ("a"..."z").contains($0) }
        )
      else { continue }
      let candidate = folder + "/" + name
      let fd = open(candidate, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
      guard fd >= 0 else { continue }
      defer { POSIX.close(fd) }
      var status = stat()
      guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
        flock(fd, LOCK_EX | LOCK_NB) == 0
      else { continue }
      var start = [UInt8](repeating: 0, count: header.count)
      let count = pread(fd, &start, header.count, 0)
      guard status.st_size == 0 || (count == header.count && start == header) else { continue }
      unlink(candidate)
    }
  }
}
