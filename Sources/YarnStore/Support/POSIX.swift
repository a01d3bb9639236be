import YarnModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The C library's file calls and path helpers, named so that they cannot be mistaken for a
/// type's own `read`, `write` or `close` (inside which the bare names resolve to the method).
///
/// They exist because YarnCore imports only FoundationEssentials where it can: Foundation's
/// re-export of the C library and `NSString`'s path methods are not there.
package enum POSIX {
  /// read(2): bytes read, 0 at the end, −1 with `errno` set.
  package static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
      Glibc.read(fd, buffer, count)
    #else
      Darwin.read(fd, buffer, count)
    #endif
  }

  /// write(2): bytes written, −1 with `errno` set.
  package static func write(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
      Glibc.write(fd, buffer, count)
    #else
      Darwin.write(fd, buffer, count)
    #endif
  }

  /// close(2).
  @discardableResult
  package static func close(_ fd: Int32) -> Int32 {
    #if canImport(Glibc)
      Glibc.close(fd)
    #else
      Darwin.close(fd)
    #endif
  }

  /// open(2) with `flags` and, when creating, `mode`.
  package static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
    #if canImport(Glibc)
      Glibc.open(path, flags, mode)
    #else
      Darwin.open(path, flags, mode)
    #endif
  }

  /// Opens the file at `path` for reading (`O_CLOEXEC`) only if it is a regular file, for a
  /// reader that checked the path earlier and opens it later: a FIFO put there since would
  /// otherwise block open(2) until some writer came (it is opened with `O_NONBLOCK`, which
  /// returns at once, and then refused), and a device or socket would be read as bytes.
  ///
  /// - Returns: the descriptor, in blocking mode; −1 when there is none, with the reason:
  ///   the system's (`errnoText()`) or `notRegularFile`.
  package static func openRegularFile(_ path: String) -> (fd: Int32, reason: String?) {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return (-1, errnoText()) }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      let reason = errnoText()
      close(fd)
      return (-1, reason)
    }
    guard info.st_mode & S_IFMT == S_IFREG, fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) == 0
    else {
      let reason = info.st_mode & S_IFMT == S_IFREG ? errnoText() : notRegularFile
      close(fd)
      return (-1, reason)
    }
    return (fd, nil)
  }

  /// Why `openRegularFile` refused a path that is a FIFO, a device, a socket or a folder.
  package static let notRegularFile = "it is not a regular file"

  /// `strerror(errno)` in lower case, for messages ("no such file or directory").
  package static func errnoText() -> String { String(cString: strerror(errno)).lowercased() }

  /// The system errors that say the disk or the user's quota is full: ENOSPC and EDQUOT,
  /// treated alike everywhere.
  package static let diskFullErrnos: [Int32] = [ENOSPC, EDQUOT]

  /// Whether `reason`, a system error's text as `errnoText()` gives it (possibly inside a
  /// longer message, as libzip's "write error: no space left on device"), says the disk or the
  /// user's quota is full (`diskFullErrnos`).
  package static func isDiskFull(_ reason: String) -> Bool {
    let lowered = reason.lowercased()
    return diskFullErrnos.contains { lowered.contains(String(cString: strerror($0)).lowercased()) }
  }

  /// The folder part of a path, as `NSString.deletingLastPathComponent` gives it:
  /// `/a/b/c` → `/a/b`, `/c` → `/`, `c` → `` (empty), trailing slashes ignored.
  package static func directory(of path: String) -> String {
    var trimmed = Substring(path)
    while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
    guard let slash = trimmed.lastIndex(of: "/") else { return "" }
    if slash == trimmed.startIndex { return "/" }
    var folder = trimmed[..<slash]
    while folder.count > 1, folder.hasSuffix("/") { folder.removeLast() }
    return String(folder)
  }

  /// The last component of a path: `/a/b/c` → `c`, `/a/b/` → `b`, `/` → `/`.
  package static func lastComponent(of path: String) -> String {
    var trimmed = Substring(path)
    while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
    guard let slash = trimmed.lastIndex(of: "/"), trimmed.count > 1 else { return String(trimmed) }
    return String(trimmed[trimmed.index(after: slash)...])
  }

  /// `component` appended to `folder` with one slash between.
  package static func join(_ folder: String, _ component: String) -> String {
    if folder.isEmpty { return component }
    return folder.hasSuffix("/") ? folder + component : folder + "/" + component
  }
}
