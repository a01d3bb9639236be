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

/// One file of a backup as its container (a zip or a directory) describes it.
struct BackupSourceEntry {
  /// The name, or when its bytes are not UTF-8 those bytes escaped (`BackupChecks.entryName`).
  var name: String
  /// The size the container claims (a zip's central directory, a file's `st_size`).
  var size: Int64
  /// The compressed size in a zip; `nil` in a directory.
  var compressedSize: Int64?
  /// The compression method in a zip; `nil` in a directory.
  var method: Int?
  var isEncrypted = false
  var isSymbolicLink = false
  /// Why the entry cannot be read as a regular file (a directory, a device), or `nil`.
  var notRegular: String?
  /// The zip index; `nil` in a directory, and for a folder a zip implies but does not hold.
  var index: Int?
  /// Whether the name's bytes are UTF-8 (a name that is not is refused).
  var isUTF8 = true
}

/// Where a backup's files are read from: a zip archive or a directory holding the same files.
protocol BackupSource: AnyObject {
  var path: String { get }
  /// Every entry, in order: a zip's, or a directory's files, folders and links (a folder as
  /// `NAME/`, as Info-ZIP lists one), so that one rule checks both (nothing unlisted, no
  /// link, the entries a file manager adds ignored: `BackupChecks.isFileManagers`); `nil`
  /// when there is no listing.
  func allEntries() throws -> [BackupSourceEntry]?
  /// The entry named `name`, or `nil` when there is none.
  func entry(named name: String) throws -> BackupSourceEntry?
  /// Streams the entry's bytes to `body`; throws `ZipError.entryTooLarge` past `limit`, or
  /// `ZipError.cannotRead`.
  @discardableResult
  func read(
    _ entry: BackupSourceEntry, limit: Int64, _ body: (UnsafeRawBufferPointer) throws -> Void
  ) throws -> Int64
}

/// A backup zip, read through `ZipArchive.Reader`.
final class ZipBackupSource: BackupSource {
  let reader: ZipArchive.Reader
  private var byName: [String: BackupSourceEntry]?
  private var listed: [BackupSourceEntry]?

  init(url: URL) throws {
    reader = try ZipArchive.Reader(url: url)
  }

  var path: String { reader.url.path }

  /// The entry count from the central directory, before any entry is stat'ed.
  var count: Int { reader.count }

  /// Every entry, as a directory's are: its name's raw bytes checked as a file name's
  /// (`BackupChecks.entryName`), its Unix file type as `lstat`'s (a FIFO, a device, or a folder
  /// whose name does not end in `/`, not regular), and each folder its names imply (`a/` of
  /// `a/b`) listed before the first entry in it, when the zip holds no entry of that name.
  func allEntries() throws -> [BackupSourceEntry]? {
    if let listed { return listed }
    let zipEntries = try reader.entries()
    let held = Set(zipEntries.map(\.nameBytes))
    var implied = Set<[UInt8]>()
    var entries: [BackupSourceEntry] = []
    for entry in zipEntries {
      let (name, isUTF8) = BackupChecks.entryName(entry.nameBytes)
      if isUTF8, BackupChecks.unsafeReason(name) == nil {
        var folder: [UInt8] = []
        for byte in entry.nameBytes.dropLast() {
          folder.append(byte)
          if byte == UInt8(ascii: "/"), !held.contains(folder), implied.insert(folder).inserted {
            entries.append(BackupSourceEntry(name: String(decoding: folder, as: UTF8.self), size: 0))
          }
        }
      }
      var notRegular: String?
      switch entry.fileType ?? 0 {
      case 0, 0o100000, 0o120000: break
      case 0o040000 where name.hasSuffix("/"): break
      default: notRegular = "not a regular file"
      }
      entries.append(
        BackupSourceEntry(
          name: name, size: entry.size, compressedSize: entry.compressedSize,
          method: entry.method, isEncrypted: entry.isEncrypted,
          isSymbolicLink: entry.isSymbolicLink, notRegular: notRegular, index: entry.index,
          isUTF8: isUTF8))
    }
    listed = entries
    return entries
  }

  func entry(named name: String) throws -> BackupSourceEntry? {
    if byName == nil {
      var map: [String: BackupSourceEntry] = [:]
      for entry in try allEntries() ?? [] where map[entry.name] == nil { map[entry.name] = entry }
      byName = map
    }
    return byName?[name]
  }

  func read(
    _ entry: BackupSourceEntry, limit: Int64, _ body: (UnsafeRawBufferPointer) throws -> Void
  ) throws -> Int64 {
    guard let index = entry.index else {
      throw ZipError.cannotRead(path: path, entry: entry.name, reason: "no such entry")
    }
    return try reader.read(at: index, limit: limit, body)
  }
}

/// A directory holding a backup's files (an unpacked backup, such as `samples/demo`).
///
/// A listed path is read only when no component of it is a symbolic link and it is a regular
/// file (`lstat` on each component, then `open` with `O_NOFOLLOW`), so a backup directory can
/// never make a restore read a file outside it.
final class DirectoryBackupSource: BackupSource {
  let root: URL
  /// The most entries the walk reads (`BackupLimits.maxEntries`).
  let maxEntries: Int
  private var listed: [BackupSourceEntry]?

  /// Thrown by `allEntries()` as soon as the walk has read more than `maxEntries` names:
  /// `counted` of them (`maxEntries` + 1), the rest not read.
  struct TooManyEntries: Error {
    var counted: Int
  }

  init(url: URL, maxEntries: Int) {
    root = url
    self.maxEntries = maxEntries
  }

  var path: String { root.path }

  /// Every file, folder (`NAME/`, size 0, then what it holds) and symbolic link (not
  /// followed) under the directory, by `lstat`, each folder's names in byte order; other
  /// things (a FIFO) as not regular. Hidden files are listed too: the reader ignores what a
  /// file manager adds (`BackupChecks.isFileManagers`), in a zip as here.
  ///
  /// - Throws: `ZipError.cannotOpen` when a folder cannot be read; `TooManyEntries` as soon as
  ///   more than `maxEntries` names are read (every name counts, ignored ones too, as every
  ///   entry of a zip does), so that a directory of millions of files costs no more than the
  ///   limit.
  /// - Complexity: O(min(entries, `maxEntries`)).
  func allEntries() throws -> [BackupSourceEntry]? {
    if let listed { return listed }
    var entries: [BackupSourceEntry] = []
    // Each folder after the one holding it, in the order found (a queue: `next` is its head).
    var folders = [""]
    var next = 0
    var counted = 0
    while next < folders.count {
      let folder = folders[next]
      next += 1
      guard let handle = opendir(root.path + "/" + folder) else {
        throw ZipError.cannotOpen(path: root.path + "/" + folder, reason: POSIX.errnoText())
      }
      defer { closedir(handle) }
      var names: [(String, isUTF8: Bool)] = []
      while let item = readdir(handle) {
        let (name, isUTF8) = withUnsafeBytes(of: item.pointee.d_name) { bytes in
          BackupChecks.entryName(Array(bytes.prefix { $0 != 0 }))
        }
        guard name != ".", name != ".." else { continue }
        counted += 1
        if counted > maxEntries { throw TooManyEntries(counted: counted) }
        names.append((name, isUTF8))
      }
      var found: [BackupSourceEntry] = []
      for (name, isUTF8) in names.sorted(by: { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }) {
        let relative = folder + name
        guard isUTF8 else {
          // Not a name a backup holds: refused by its escaped bytes, never opened.
          found.append(BackupSourceEntry(name: relative, size: 0, isUTF8: false))
          continue
        }
        var info = stat()
        guard lstat(root.path + "/" + relative, &info) == 0 else { continue }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
          found.append(BackupSourceEntry(name: relative + "/", size: 0))
          folders.append(relative + "/")
        case S_IFLNK: found.append(BackupSourceEntry(name: relative, size: 0, isSymbolicLink: true))
        case S_IFREG: found.append(BackupSourceEntry(name: relative, size: Int64(info.st_size)))
        default:
          found.append(
            BackupSourceEntry(name: relative, size: Int64(info.st_size), notRegular: "not a regular file"))
        }
      }
      entries += found
    }
    listed = entries
    return entries
  }

  func entry(named name: String) throws -> BackupSourceEntry? {
    guard BackupChecks.unsafeReason(name, allowDirectory: false) == nil else { return nil }
    var current = root.path
    let components = name.split(separator: "/").map(String.init)
    for (position, component) in components.enumerated() {
      current += "/" + component
      var info = stat()
      guard lstat(current, &info) == 0 else { return nil }
      let type = info.st_mode & S_IFMT
      let isLast = position == components.count - 1
      if type == S_IFLNK {
        return BackupSourceEntry(name: name, size: 0, isSymbolicLink: true)
      }
      if !isLast {
        guard type == S_IFDIR else { return nil }
        continue
      }
      var entry = BackupSourceEntry(name: name, size: Int64(info.st_size))
      if type != S_IFREG { entry.notRegular = "not a regular file" }
      return entry
    }
    return nil
  }

  func read(
    _ entry: BackupSourceEntry, limit: Int64, _ body: (UnsafeRawBufferPointer) throws -> Void
  ) throws -> Int64 {
    let file = root.path + "/" + entry.name
    let fd = open(file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard fd >= 0 else {
      throw ZipError.cannotRead(path: path, entry: entry.name, reason: POSIX.errnoText())
    }
    defer { close(fd) }
    let capacity = 1 << 20
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
    defer { buffer.deallocate() }
    var total: Int64 = 0
    while true {
      let n = POSIX.read(fd, buffer, capacity)
      if n < 0 {
        if errno == EINTR { continue }
        throw ZipError.cannotRead(path: path, entry: entry.name, reason: POSIX.errnoText())
      }
      if n == 0 { return total }
      total += Int64(n)
      if total > limit {
        throw ZipError.entryTooLarge(path: path, entry: entry.name, limit: limit)
      }
      try body(UnsafeRawBufferPointer(start: buffer, count: n))
    }
  }
}
