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

/// Writes files so that a crash leaves the old file or the new one, never half of one: the
/// bytes go to a temporary file beside the target, which is fsynced, renamed over the target,
/// and then the directory is fsynced (POSIX rename(2) is atomic within one file system). The
/// temporary file, `.NAME.tmp-XXXXXX`, is removed when the write fails; one that a killed
/// process left stays (yarn never removes a file by its name alone: its bytes are whatever was
/// being written, so nothing in it proves it is yarn's and not another program's).
package enum AtomicFile {
  /// Thrown when a step of an atomic write fails; `path` is the file concerned.
  package struct WriteError: Error, CustomStringConvertible {
    package let path: String
    package let reason: String
    /// Whether writing failed midway (a write, sync or close of the open file: a full disk,
    /// an I/O error, a closed pipe) rather than the file not being created at all.
    package var midway = false
    package var description: String { "cannot write \(LineText.visible(path)): \(reason)" }
  }

  /// Writes `data` to `url` atomically.
  ///
  /// - Throws: `WriteError` when the temporary file cannot be created, written, synced or
  ///   renamed; the target is then untouched and the temporary file removed.
  package static func write(_ data: Data, to url: URL) throws {
    try write(to: url) { fd in
      try data.withUnsafeBytes { buffer in
        try writeAll(fd, buffer, path: url.path)
      }
    }
  }

  /// Creates a temporary file beside `url`, lets `body` write to its descriptor, then fsyncs
  /// and renames it over `url` and fsyncs the directory.
  ///
  /// A symbolic link at `url` is followed: the file it points to is replaced and the link
  /// kept. A target that exists and is not a regular file (a FIFO, a device such as
  /// `/dev/stdout`) is opened and written directly, never replaced. The new file gets the mode
  /// of the file it replaces, else 0666 less the umask, as any program's new file (not
  /// mkstemp's private 0600).
  ///
  /// - Throws: what `body` throws, or `WriteError`; the target is then untouched.
  package static func write(to url: URL, _ body: (Int32) throws -> Void) throws {
    // stat(2) follows every link, including /proc's magic links (/dev/stdout on a pipe
    // resolves to "pipe:[N]", which no path names): a special file is opened by the given path.
    var target = stat()
    if stat(url.path, &target) == 0, (target.st_mode & S_IFMT) != S_IFREG,
      (target.st_mode & S_IFMT) != S_IFDIR
    {
      try writeInPlace(url.path, body)
      return
    }
    let path = resolvingLinks(url.path)
    var status = stat()
    let exists = stat(path, &status) == 0
    let mode: mode_t
    if exists {
      mode = status.st_mode & 0o7777
    } else {
      let mask = umask(0)
      umask(mask)
      mode = 0o666 & ~mask
    }
    let directory = POSIX.directory(of: path)
    let folder = directory.isEmpty ? "." : directory
    let prefix = "." + POSIX.lastComponent(of: path) + ".tmp-"
    var bytes = Array((folder + "/" + prefix + "XXXXXX").utf8CString)
    let fd = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
      guard let base = buffer.baseAddress else { return -1 }
      return mkstemp(base)
    }
    guard fd >= 0 else { throw WriteError(path: url.path, reason: POSIX.errnoText()) }
    let temporary = String(cString: bytes.map { UInt8(bitPattern: $0) } + [])
    var renamed = false
    defer { if !renamed { unlink(temporary) } }
    do {
      guard fchmod(fd, mode) == 0 else { throw WriteError(path: url.path, reason: POSIX.errnoText()) }
      try body(fd)
      guard fsync(fd) == 0 else { throw WriteError(path: url.path, reason: POSIX.errnoText(), midway: true) }
    } catch {
      close(fd)
      throw error
    }
    guard close(fd) == 0 else { throw WriteError(path: url.path, reason: POSIX.errnoText(), midway: true) }
    guard rename(temporary, path) == 0 else {
      throw WriteError(path: url.path, reason: POSIX.errnoText())
    }
    renamed = true
    syncDirectory(directory.isEmpty ? "." : directory)
  }

  /// Writes to an existing special file (FIFO, character device) through `body`.
  private static func writeInPlace(_ path: String, _ body: (Int32) throws -> Void) throws {
    let fd = open(path, O_WRONLY | O_TRUNC)
    guard fd >= 0 else { throw WriteError(path: path, reason: POSIX.errnoText()) }
    do {
      try body(fd)
    } catch {
      close(fd)
      throw error
    }
    guard close(fd) == 0 else { throw WriteError(path: path, reason: POSIX.errnoText(), midway: true) }
  }

  /// `path` with symbolic links in its last component followed (up to 32 levels; a dangling
  /// link resolves to the path it names, which is then created).
  package static func resolvingLinks(_ path: String) -> String {
    var current = path
    for _ in 0..<32 {
      guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current)
      else { return current }
      current =
        destination.hasPrefix("/")
        ? destination
        : POSIX.join(POSIX.directory(of: current), destination)
    }
    return current
  }

  /// fsyncs a directory so that a rename in it survives a power loss; errors are ignored
  /// (some file systems refuse to sync directories, and the data itself is already synced).
  package static func syncDirectory(_ path: String) {
    let fd = open(path, O_RDONLY)
    if fd >= 0 {
      _ = fsync(fd)
      close(fd)
    }
  }

  /// Writes every byte of `buffer` to `fd`, retrying short writes and EINTR.
  package static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer, path: String) throws {
    guard var base = buffer.baseAddress else { return }
    var left = buffer.count
    while left > 0 {
      let written = POSIX.write(fd, base, left)
      if written < 0 {
        if errno == EINTR { continue }
        throw WriteError(path: path, reason: POSIX.errnoText(), midway: true)
      }
      left -= written
      base = base.advanced(by: written)
    }
  }
}
