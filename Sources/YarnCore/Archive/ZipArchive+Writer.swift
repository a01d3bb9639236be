import CLibzip
import YarnModel
import YarnStore

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

extension ZipArchive {
  /// Writes a new zip archive. Entries are added in order; the bytes are read and the archive
  /// is written when `close()` is called.
  ///
  /// The archive is built at a temporary path beside the target (`.NAME.tmp-UUID`), which
  /// libzip itself writes through a temporary file and a rename. `close()` then fsyncs it,
  /// moves it to the target (a hard link, which fails if the target exists, unless
  /// `overwrite`; then `rename(2)`), and fsyncs the directory. So the target path holds either
  /// nothing (or its old file) or the whole archive, even after `kill -9` or a power loss;
  /// a process killed during `close()` can leave a `.NAME.tmp-*` file behind.
  ///
  /// Never closes in `deinit`: an archive that is not `close()`d is discarded (`zip_discard`).
  final class Writer {
    /// The archive's final path.
    let url: URL
    private let overwrite: Bool
    private let temporaryPath: String
    private var handle: OpaquePointer?
    private var fileSources: [FileSource] = []
    /// The staging files `addRange` reads, by path.
    private var rangeFiles: [String: RangeFile] = [:]
    private var entryCount = 0
    /// After `close()` failed because a file added with `addFile` was missing, unreadable or
    /// changed: that entry, the file's path and the reason.
    private(set) var failedFile: (entry: String, path: String, reason: String)?

    /// Starts a new archive that `close()` will write to `url`.
    ///
    /// - Parameters:
    ///   - overwrite: whether `close()` may replace an existing file at `url`.
    ///   - temporaryPath: where the archive is built before it is moved to `url`; it must be
    ///     in `url`'s directory (default: `.NAME.tmp-<uuid>` there). libzip's own temporary
    ///     file is this path plus `.XXXXXX`.
    /// - Throws: `SystemLibraryError` when libzip cannot be loaded; `ZipError.cannotOpen` when libzip cannot create the temporary archive.
    init(url: URL, overwrite: Bool, temporaryPath: String? = nil) throws {
      try ZipLibrary.load()
      self.url = url
      self.overwrite = overwrite
      let directory = url.deletingLastPathComponent().path
      self.temporaryPath =
        temporaryPath ?? directory + "/." + url.lastPathComponent + ".tmp-" + Identifier.make()
      var code: Int32 = 0
      guard let handle = zip_open(self.temporaryPath, ZIP_CREATE | ZIP_EXCL, &code) else {
        throw ZipError.cannotOpen(path: url.path, reason: ZipError.message(code: code))
      }
      self.handle = handle
    }

    deinit {
      if let handle { zip_discard(handle) }
      progressBox?.release()
    }

    /// The progress callback's box, retained while the archive is open.
    private var progressBox: Unmanaged<ProgressBox>?

    /// Calls `body` with the fraction written, 0...1, while `close()` writes the archive,
    /// whenever it has grown by `precision` (libzip's `zip_register_progress_callback_with_state`).
    func onProgress(precision: Double = 0.01, _ body: @escaping (Double) -> Void) {
      guard let handle else { return }
      let box = Unmanaged.passRetained(ProgressBox(body))
      progressBox?.release()
      progressBox = box
      zip_register_progress_callback_with_state(
        handle, precision, progressCallback, nil, box.toOpaque())
    }

    /// Adds an entry holding `data`. The bytes are copied (a `malloc`'d buffer handed to libzip
    /// with `freep = 1`), so `data` need not outlive this call.
    ///
    /// - Parameters:
    ///   - name: the entry name, stored as UTF-8 with the UTF-8 flag (`ZIP_FL_ENC_UTF_8`).
    ///   - modified: the entry's time in the zip header (2-second local DOS time: informative
    ///     only; exact times belong in the documents themselves).
    /// - Throws: `ZipError.cannotAdd`.
    func add(
      name: String, data: Data, compression: Compression, modified: Date, level: UInt32 = 0
    ) throws {
      let handle = try openHandle(entry: name)
      let count = data.count
      guard let copy = malloc(max(count, 1)) else {
        throw ZipError.cannotAdd(path: url.path, entry: name, reason: "out of memory")
      }
      data.withUnsafeBytes { bytes in
        if let base = bytes.baseAddress, count > 0 { memcpy(copy, base, count) }
      }
      guard let source = zip_source_buffer(handle, copy, zip_uint64_t(count), 1) else {
        free(copy)
        throw ZipError.cannotAdd(path: url.path, entry: name, reason: archiveMessage())
      }
      try addSource(source, name: name, compression: compression, modified: modified, level: level)
    }

    /// Adds an entry whose bytes are streamed from the file at `file` when `close()` runs
    /// (memory stays flat whatever the size). The file must then still hold exactly
    /// `expectedSize` bytes with SHA-256 `expectedSHA256`: the bytes are hashed as libzip reads
    /// them, and a file that changed makes `close()` fail, so that an archive never holds
    /// bytes its manifest does not describe (libzip's own `zip_source_file` would silently cut
    /// or pad a file whose size changed).
    ///
    /// - Throws: `ZipError.cannotAdd`; the file itself is opened only by `close()`.
    ///
    /// - Parameter level: the deflate level, 1 (fastest) to 9 (smallest); 0 for zlib's default.
    func addFile(
      name: String, from file: URL, expectedSize: Int64, expectedSHA256: String,
      compression: Compression, modified: Date, level: UInt32 = 0
    ) throws {
      let handle = try openHandle(entry: name)
      let context = FileSource(
        path: file.path, entry: name, expectedSize: expectedSize, expectedSHA256: expectedSHA256,
        modified: modified)
      let userData = Unmanaged.passRetained(context).toOpaque()
      guard let source = zip_source_function(handle, fileSourceCallback, userData) else {
        Unmanaged<FileSource>.fromOpaque(userData).release()
        throw ZipError.cannotAdd(path: url.path, entry: name, reason: archiveMessage())
      }
      // From here the source owns one retain of `context`, released by ZIP_SOURCE_FREE.
      fileSources.append(context)
      try addSource(source, name: name, compression: compression, modified: modified, level: level)
    }

    /// Adds an entry holding the `size` bytes from `offset` on of the file at `path` (a
    /// `ZipStaging` file yarn has just written), read when `close()` runs. The file is
    /// opened once for all its ranges, and each entry's source is a few bytes: an export adds
    /// one per page (100,000 at 100,000 yarns), and a `FileSource` each was 14 MB there. The
    /// bytes are not hashed; a file shorter than the range makes `close()` fail.
    ///
    /// - Throws: `ZipError.cannotAdd`; the file itself is opened only by `close()`.
    func addRange(
      name: String, path: String, offset: Int64, size: Int64, compression: Compression,
      modified: Date, level: UInt32 = 0
    ) throws {
      let handle = try openHandle(entry: name)
      let file = rangeFiles[path] ?? RangeFile(path: path)
      rangeFiles[path] = file
      let range = UnsafeMutablePointer<RangeSource>.allocate(capacity: 1)
      range.initialize(
        to: RangeSource(
          file: Unmanaged.passUnretained(file), offset: offset, size: size,
          modified: time_t(modified.timeIntervalSince1970)))
      guard let source = zip_source_function(handle, rangeSourceCallback, range) else {
        range.deinitialize(count: 1)
        range.deallocate()
        throw ZipError.cannotAdd(path: url.path, entry: name, reason: archiveMessage())
      }
      // From here the source owns `range`, freed by ZIP_SOURCE_FREE.
      try addSource(source, name: name, compression: compression, modified: modified, level: level)
    }

    /// Writes the archive: libzip reads every source, writes `.NAME.tmp-…` and renames it;
    /// then the file is fsynced, moved to `url` and the directory fsynced.
    ///
    /// - Throws: `CancellationError` when the current task was cancelled while a file entry
    ///   was read; `ZipError.emptyArchive` when nothing was added; `ZipError.cannotWrite` when
    ///   libzip fails (a file source that changed, a full disk, …) or the file cannot be synced
    ///   or moved — including when `url` exists and `overwrite` is false. Nothing is then left
    ///   at `url` that was not there before, and the archive is discarded.
    func close() throws {
      guard let handle else {
        throw ZipError.cannotWrite(path: url.path, reason: "the archive is already closed")
      }
      guard entryCount > 0 else {
        zip_discard(handle)
        self.handle = nil
        throw ZipError.emptyArchive(path: url.path)
      }
      let closed = zip_close(handle)
      if closed != 0 {
        if let failed = fileSources.first(where: { $0.failure != nil }) {
          failedFile = (failed.entry, failed.path, failed.failure ?? "")
        } else if let failed = rangeFiles.values.first(where: { $0.failure != nil }) {
          failedFile = ("", failed.path, failed.failure ?? "")
        }
        let reason =
          failedFile.map { "\($0.entry) from \($0.path): \($0.reason)" } ?? archiveMessage()
        zip_discard(handle)
        self.handle = nil
        unlink(temporaryPath)
        if fileSources.contains(where: \.cancelled) || rangeFiles.values.contains(where: \.cancelled) {
          throw CancellationError()
        }
        throw ZipError.cannotWrite(path: url.path, reason: reason)
      }
      self.handle = nil
      defer { unlink(temporaryPath) }
      try syncFile(temporaryPath)
      if overwrite {
        guard rename(temporaryPath, url.path) == 0 else {
          throw ZipError.cannotWrite(path: url.path, reason: POSIX.errnoText())
        }
      } else {
        // link(2) fails with EEXIST when the target exists: no check-then-write race. File
        // systems without hard links (FAT, some network mounts) fall back to check + rename.
        if link(temporaryPath, url.path) != 0 {
          let failure = errno
          var info = stat()
          if failure == EEXIST || lstat(url.path, &info) == 0 {
            throw ZipError.cannotWrite(path: url.path, reason: "the file exists")
          }
          guard failure == EPERM || failure == ENOTSUP || failure == EOPNOTSUPP else {
            throw ZipError.cannotWrite(
              path: url.path, reason: String(cString: strerror(failure)).lowercased())
          }
          guard rename(temporaryPath, url.path) == 0 else {
            throw ZipError.cannotWrite(path: url.path, reason: POSIX.errnoText())
          }
        }
      }
      AtomicFile.syncDirectory(url.deletingLastPathComponent().path)
    }

    private func openHandle(entry: String) throws -> OpaquePointer {
      guard let handle else {
        throw ZipError.cannotAdd(path: url.path, entry: entry, reason: "the archive is closed")
      }
      return handle
    }

    private func addSource(
      _ source: OpaquePointer, name: String, compression: Compression, modified: Date,
      level: UInt32 = 0
    ) throws {
      guard let handle else {
        zip_source_free(source)
        throw ZipError.cannotAdd(path: url.path, entry: name, reason: "the archive is closed")
      }
      let index = zip_file_add(handle, name, source, zip_flags_t(ZIP_FL_ENC_UTF_8))
      guard index >= 0 else {
        // The source still belongs to us when the add fails.
        zip_source_free(source)
        throw ZipError.cannotAdd(path: url.path, entry: name, reason: archiveMessage())
      }
      entryCount += 1
      let entry = zip_uint64_t(index)
      guard zip_set_file_compression(handle, entry, compression.method, level) == 0,
        zip_file_set_mtime(handle, entry, time_t(modified.timeIntervalSince1970), 0) == 0
      else {
        throw ZipError.cannotAdd(path: url.path, entry: name, reason: archiveMessage())
      }
    }

    private func archiveMessage() -> String {
      guard let handle else { return "the archive is closed" }
      return String(cString: zip_strerror(handle))
    }

    private func syncFile(_ path: String) throws {
      let fd = open(path, O_RDONLY)
      guard fd >= 0 else {
        throw ZipError.cannotWrite(path: url.path, reason: POSIX.errnoText())
      }
      defer { POSIX.close(fd) }
      guard fsync(fd) == 0 else {
        throw ZipError.cannotWrite(path: url.path, reason: POSIX.errnoText())
      }
    }
  }
}

/// The closure behind a writer's progress callback.
private final class ProgressBox {
  let body: (Double) -> Void
  init(_ body: @escaping (Double) -> Void) { self.body = body }
}

/// libzip's progress callback: hands the fraction to the writer's `ProgressBox`.
private let progressCallback: zip_progress_callback = { _, fraction, userData in
  guard let userData else { return }
  Unmanaged<ProgressBox>.fromOpaque(userData).takeUnretainedValue().body(fraction)
}

/// A file libzip reads an entry's bytes from, reached from its callbacks through their user
/// data: the descriptor, libzip's error and the failure in words. `Writer.addRange`'s staging
/// file is one as it is; `FileSource` adds what one streamed file entry checks.
private class SourceFile {
  let path: String
  let error: UnsafeMutablePointer<zip_error_t>
  var fd: Int32 = -1
  /// Whether reading stopped because the task was cancelled.
  var cancelled = false
  /// Why reading failed, in words (`the file grew beyond 10 bytes`); set by the callback
  /// before it reports an error to libzip.
  var failure: String?

  init(path: String) {
    self.path = path
    error = .allocate(capacity: 1)
    zip_error_init(error)
  }

  deinit {
    if fd >= 0 { POSIX.close(fd) }
    zip_error_fini(error)
    error.deallocate()
  }

  func fail(_ reason: String, code: Int32, system: Int32 = 0) -> zip_int64_t {
    if failure == nil { failure = reason }
    zip_error_set(error, code, system)
    return -1
  }
}

/// The state of one streamed file entry: its expected size and SHA-256, checked as it is read.
private final class FileSource: SourceFile {
  let entry: String
  let expectedSize: Int64
  let expectedSHA256: String
  let modified: Date
  /// Made when the file is opened and dropped when it is closed, not held by every source
  /// until the archive is closed.
  var hasher: SHA256Hasher?
  var count: Int64 = 0
  /// Whether the end of the file was reached with the expected size and digest.
  var verified = false

  init(path: String, entry: String, expectedSize: Int64, expectedSHA256: String, modified: Date) {
    self.entry = entry
    self.expectedSize = expectedSize
    self.expectedSHA256 = expectedSHA256
    self.modified = modified
    super.init(path: path)
  }

  func open() -> zip_int64_t {
    let opened = POSIX.openRegularFile(path)
    fd = opened.fd
    guard fd >= 0 else {
      let code = errno
      return fail(opened.reason ?? POSIX.errnoText(), code: ZIP_ER_OPEN, system: code)
    }
    hasher = SHA256Hasher()
    count = 0
    verified = false
    return 0
  }

  func read(into buffer: UnsafeMutableRawPointer, length: Int) -> zip_int64_t {
    // A cancelled task (`yarn` on SIGINT or SIGTERM) stops the archive between two reads.
    if Task.isCancelled {
      cancelled = true
      return fail("cancelled", code: ZIP_ER_CANCELLED)
    }
    var n: Int
    repeat { n = POSIX.read(fd, buffer, length) } while n < 0 && errno == EINTR
    guard n >= 0 else {
      let code = errno
      return fail(POSIX.errnoText(), code: ZIP_ER_READ, system: code)
    }
    count += Int64(n)
    if count > expectedSize {
      return fail("the file grew beyond \(expectedSize) bytes", code: ZIP_ER_INCONS)
    }
    if n > 0 {
      hasher?.update(UnsafeRawBufferPointer(start: buffer, count: n))
      return zip_int64_t(n)
    }
    if verified { return 0 }
    guard count == expectedSize else {
      return fail("the file holds \(count) bytes, expected \(expectedSize)", code: ZIP_ER_INCONS)
    }
    guard let digest = try? hasher?.finalize() else {
      return fail("cannot compute its SHA-256", code: ZIP_ER_INTERNAL)
    }
    guard digest == expectedSHA256 else {
      return fail("its SHA-256 is \(digest), expected \(expectedSHA256)", code: ZIP_ER_INCONS)
    }
    verified = true
    return 0
  }

  func stat(into buffer: UnsafeMutableRawPointer, length: Int) -> zip_int64_t {
    guard length >= MemoryLayout<zip_stat_t>.size else {
      return fail("internal stat buffer too small", code: ZIP_ER_INVAL)
    }
    let st = buffer.assumingMemoryBound(to: zip_stat_t.self)
    zip_stat_init(st)
    st.pointee.valid = zip_uint64_t(ZIP_STAT_SIZE | ZIP_STAT_MTIME)
    st.pointee.size = zip_uint64_t(expectedSize)
    st.pointee.mtime = time_t(modified.timeIntervalSince1970)
    return zip_int64_t(MemoryLayout<zip_stat_t>.size)
  }

  func close() -> zip_int64_t {
    if fd >= 0 { POSIX.close(fd) }
    fd = -1
    hasher = nil
    return 0
  }
}

private func commandBit(_ command: zip_source_cmd_t) -> zip_int64_t {
  zip_int64_t(1) << zip_int64_t(command.rawValue)
}

/// What both source callbacks below answer to `ZIP_SOURCE_SUPPORTS`: a readable, non-seekable
/// source (open, read, close, stat, error, free, supports).
private let readableSourceCommands =
  commandBit(ZIP_SOURCE_OPEN) | commandBit(ZIP_SOURCE_READ) | commandBit(ZIP_SOURCE_CLOSE)
  | commandBit(ZIP_SOURCE_STAT) | commandBit(ZIP_SOURCE_ERROR) | commandBit(ZIP_SOURCE_FREE)
  | commandBit(ZIP_SOURCE_SUPPORTS)

/// libzip's source callback for `FileSource` (a readable, non-seekable source).
private let fileSourceCallback: zip_source_callback = { userData, data, length, command in
  guard let userData else { return -1 }
  let unmanaged = Unmanaged<FileSource>.fromOpaque(userData)
  let source = unmanaged.takeUnretainedValue()
  switch command {
  case ZIP_SOURCE_OPEN:
    return source.open()
  case ZIP_SOURCE_READ:
    guard let data else { return source.fail("no buffer", code: ZIP_ER_INVAL) }
    return source.read(into: data, length: Int(min(length, zip_uint64_t(Int.max))))
  case ZIP_SOURCE_CLOSE:
    return source.close()
  case ZIP_SOURCE_STAT:
    guard let data else { return source.fail("no stat buffer", code: ZIP_ER_INVAL) }
    return source.stat(into: data, length: Int(min(length, zip_uint64_t(Int.max))))
  case ZIP_SOURCE_ERROR:
    guard let data else { return -1 }
    return zip_error_to_data(source.error, data, length)
  case ZIP_SOURCE_FREE:
    unmanaged.release()
    return 0
  case ZIP_SOURCE_SUPPORTS:
    return readableSourceCommands
  default:
    zip_error_set(source.error, ZIP_ER_OPNOTSUPP, 0)
    return -1
  }
}

/// A staging file that `Writer.addRange` entries are read from: opened once, at the first
/// entry libzip opens, and closed with the writer.
private typealias RangeFile = SourceFile

/// One `addRange` entry: its bytes in its `RangeFile` (kept alive by the writer), and how many
/// libzip has read.
private struct RangeSource {
  let file: Unmanaged<RangeFile>
  let offset: Int64
  let size: Int64
  let modified: time_t
  var position: Int64 = 0
}

/// libzip's source callback for a `RangeSource` (a readable, non-seekable source).
private let rangeSourceCallback: zip_source_callback = { userData, data, length, command in
  guard let userData else { return -1 }
  let range = userData.assumingMemoryBound(to: RangeSource.self)
  let file = range.pointee.file.takeUnretainedValue()
  switch command {
  case ZIP_SOURCE_OPEN:
    if file.fd < 0 {
      let opened = POSIX.openRegularFile(file.path)
      file.fd = opened.fd
      guard file.fd >= 0 else {
        let code = errno
        return file.fail(opened.reason ?? POSIX.errnoText(), code: ZIP_ER_OPEN, system: code)
      }
    }
    range.pointee.position = 0
    return 0
  case ZIP_SOURCE_READ:
    // A cancelled task (`yarn` on SIGINT or SIGTERM) stops the archive between two reads.
    if Task.isCancelled {
      file.cancelled = true
      return file.fail("cancelled", code: ZIP_ER_CANCELLED)
    }
    guard let data else { return file.fail("no buffer", code: ZIP_ER_INVAL) }
    let left = range.pointee.size - range.pointee.position
    let want = Int(min(Int64(min(length, zip_uint64_t(Int.max))), left))
    guard want > 0 else { return 0 }
    var n: Int
    repeat {
      n = pread(file.fd, data, want, off_t(range.pointee.offset + range.pointee.position))
    } while n < 0 && errno == EINTR
    guard n > 0 else {
      let code = errno
      return n < 0
        ? file.fail(POSIX.errnoText(), code: ZIP_ER_READ, system: code)
        : file.fail(
          "the file ends before \(range.pointee.offset + range.pointee.size) bytes", code: ZIP_ER_INCONS)
    }
    range.pointee.position += Int64(n)
    return zip_int64_t(n)
  case ZIP_SOURCE_CLOSE:
    return 0
  case ZIP_SOURCE_STAT:
    guard let data, length >= MemoryLayout<zip_stat_t>.size else {
      return file.fail("internal stat buffer too small", code: ZIP_ER_INVAL)
    }
    let st = data.assumingMemoryBound(to: zip_stat_t.self)
    zip_stat_init(st)
    st.pointee.valid = zip_uint64_t(ZIP_STAT_SIZE | ZIP_STAT_MTIME)
    st.pointee.size = zip_uint64_t(range.pointee.size)
    st.pointee.mtime = range.pointee.modified
    return zip_int64_t(MemoryLayout<zip_stat_t>.size)
  case ZIP_SOURCE_ERROR:
    guard let data else { return -1 }
    return zip_error_to_data(file.error, data, length)
  case ZIP_SOURCE_FREE:
    range.deinitialize(count: 1)
    range.deallocate()
    return 0
  case ZIP_SOURCE_SUPPORTS:
    return readableSourceCommands
  default:
    zip_error_set(file.error, ZIP_ER_OPNOTSUPP, 0)
    return -1
  }
}
