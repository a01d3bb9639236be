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

/// A temporary file that the bytes of a zip's generated entries (a backup's `library.json`,
/// an export's tables and pages) are written to one after the other, so that libzip, which
/// reads every entry only when the archive is closed, holds none of them in memory: each
/// entry is then added as its range of this file (`ZipArchive.Writer.addFile(…offset:)`),
/// with the size and SHA-256 computed here as it was written.
///
/// Writes are buffered (64 KiB). The file is created with `O_EXCL` at `path`, which should be
/// in a `BackupTemporaryFiles` group (`group.staged`), so that it goes with the group, and
/// with a killed process's stale groups.
final class ZipStaging {
  /// One entry's bytes in the file.
  struct Entry {
    /// Where the entry starts, in bytes from the start of the file.
    var offset: Int64
    /// Its length in bytes.
    var size: Int64
    /// Its SHA-256, 64 lower-case hex digits; empty when the file computes no digests.
    var sha256: String
  }

  let path: String
  private var fd: Int32
  private var buffer: [UInt8] = []
  /// Bytes given so far (written and buffered).
  private var length: Int64 = 0
  private var entryStart: Int64 = 0
  /// `nil` when no digests are computed.
  private var hasher: SHA256Hasher?

  /// Creates the file at `path`; `digests`: whether each entry's SHA-256 is computed (a
  /// backup's manifest lists it; an export's pages need none).
  ///
  /// - Throws: `ZipError.cannotWrite` when it cannot be created (it exists, the directory
  ///   is read-only or missing).
  init(path: String, digests: Bool = true) throws {
    self.path = path
    hasher = digests ? SHA256Hasher() : nil
    fd = POSIX.open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      throw ZipError.cannotWrite(
        path: path, reason: "cannot create its temporary file: \(POSIX.errnoText())")
    }
    buffer.reserveCapacity(1 << 16)
  }

  deinit {
    if fd >= 0 { _ = POSIX.close(fd) }
  }

  /// Appends `bytes` to the entry being written.
  ///
  /// - Throws: `ZipError.cannotWrite` when the file refuses bytes (a full disk).
  func append(_ bytes: UnsafeRawBufferPointer) throws {
    hasher?.update(bytes)
    length += Int64(bytes.count)
    if buffer.count + bytes.count > 1 << 16 { try flush() }
    if bytes.count >= 1 << 16 {
      try writeAll(bytes)
    } else {
      buffer.append(contentsOf: bytes)
    }
  }

  /// Appends `text`, as UTF-8, to the entry being written.
  func append(_ text: String) throws {
    var text = text
    try text.withUTF8 { try append(UnsafeRawBufferPointer($0)) }
  }

  /// Appends every byte given to `other` (a second staging file, read from its start) to
  /// the entry being written.
  ///
  /// - Throws: `ZipError.cannotWrite` when either file fails.
  func append(contentsOf other: ZipStaging) throws {
    try other.flush()
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    var offset: Int64 = 0
    while offset < other.length {
      let n = chunk.withUnsafeMutableBytes { pread(other.fd, $0.baseAddress, $0.count, off_t(offset)) }
      if n < 0, errno == EINTR { continue }
      guard n > 0 else {
        throw ZipError.cannotWrite(
          path: other.path,
          reason: "cannot read its temporary file: \(n < 0 ? POSIX.errnoText() : "it is shorter")")
      }
      try chunk.withUnsafeBytes { try append(UnsafeRawBufferPointer(rebasing: $0.prefix(n))) }
      offset += Int64(n)
    }
  }

  /// Ends the entry being written (all bytes appended since the last `endEntry()`, or since
  /// the start) and starts the next.
  ///
  /// - Throws: `ZipError.cannotWrite` when the digest cannot be computed.
  func endEntry() throws -> Entry {
    var digest = ""
    if let hasher {
      do { digest = try hasher.finalize() } catch {
        throw ZipError.cannotWrite(path: path, reason: "cannot compute a SHA-256: \(error)")
      }
      self.hasher = SHA256Hasher()
    }
    let entry = Entry(offset: entryStart, size: length - entryStart, sha256: digest)
    entryStart = length
    return entry
  }

  /// Writes out what is buffered; call it before the archive is closed, which reads the file.
  ///
  /// - Throws: `ZipError.cannotWrite` when the file refuses bytes (a full disk).
  func flush() throws {
    guard !buffer.isEmpty else { return }
    try buffer.withUnsafeBytes { try writeAll($0) }
    buffer.removeAll(keepingCapacity: true)
  }

  private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
    do { try AtomicFile.writeAll(fd, bytes, path: path) } catch let error as AtomicFile.WriteError {
      throw ZipError.cannotWrite(
        path: path, reason: "cannot write its temporary file: \(error.reason)")
    }
  }
}
