import Dispatch

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

/// Writes a backup zip from a library's items and a way to find each attachment's bytes: the
/// pure half of `Backup.create`, testable without a store.
enum BackupWriter {
  /// The deflate level of `library.json`: 1, zlib's fastest. On 57 MB of library.json
  /// (100,000 yarns) level 6, zlib's default, takes 0.54 s for 4.8 MB and level 1 0.22 s for
  /// 6.5 MB: a backup is written often and its photos dwarf both sizes.
  static let libraryLevel: UInt32 = 1

  /// What `write` wrote, and what it found wrong with the items it wrote.
  struct Written {
    var manifest: BackupManifest
    /// What a restore of the archive would refuse (`LibraryCheck` of the items as they were
    /// written, without the manifest's checks), in the order found; empty for a sound
    /// library.
    var problems: [BackupProblem]
  }

  /// Writes the backup of `items` to `url`.
  ///
  /// Files beside `url`, all named `.NAME.tmp-<uuid>…` (NAME is `url`'s last component):
  /// `.lock`, created first, locked with `flock` and removed last; `.library.json`, the
  /// streamed `library.json`; `.manifest.json`; the archive itself, which libzip writes
  /// through its own temporary `.XXXXXX` file. Such files of an earlier write to `url` whose
  /// lock no process holds (a `kill -9`) are removed first.
  ///
  /// Entries, in this order: each distinct attachment as `attachments/<sha256>` (stored when
  /// its media type is JPEG, PNG, HEIC or PDF, deflated otherwise), streamed from
  /// `attachmentURL(sha256)` and checked against its record's size and SHA-256 as it is read;
  /// then `library.json` and `manifest.json` (both deflated). The attachments are listed
  /// first (`LibraryItems.attachmentsInDocumentOrder`) and zipped by libzip on a thread of
  /// its own while `library.json` is written (on every core) beside the target; libzip then
  /// reads `library.json` and the manifest once they are written. Should the attachments
  /// found first differ from those `library.json` lists, the archive is dropped and written
  /// again by `writeInOrder` (`manifest.json`, `library.json`, the attachments).
  ///
  /// - Parameters:
  ///   - now: the manifest's `createdAt` (truncated to whole seconds) and the entries' times.
  ///   - force: replace a file at `url`; otherwise an existing file is an error.
  ///   - snapshot: runs its argument in one read transaction (so `library.json` is one
  ///     consistent state of a store).
  ///   - progress: the fraction of the zip written, 0...1, while it is written.
  /// - Returns: the manifest written, and the problems `LibraryCheck` found in the items as
  ///   they were read (on this thread; the archive is written and kept whatever it finds).
  /// - Throws: `BackupError.destinationExists`, `.attachmentUnavailable`, `.cannotWrite`.
  ///   Nothing is left at `url` after an error (its old file, if any, is untouched), and no
  ///   temporary file beside it.
  static func write(
    _ items: some LibraryItems, to url: URL, generator: String, now: Date, force: Bool,
    snapshot: ((() throws -> LibraryJSON.Summary) throws -> LibraryJSON.Summary) = { try $0() },
    attachmentURL: @escaping (String) -> URL, progress: ((Double) -> Void)? = nil
  ) throws -> Written {
    let (createdAt, temporary) = try begin(url, force: force, now: now)
    defer { temporary.remove() }
    let libraryURL = URL(fileURLWithPath: temporary.libraryPath)
    let manifestURL = URL(fileURLWithPath: temporary.extraPath("manifest.json"))

    // In one snapshot: the attachments (a query, not the items), the zip started on a
    // thread of its own with the attachments first, then library.json written here while
    // libzip zips the files; library.json and manifest.json are its last entries, which it
    // reads once they are written.
    var planned: [(attachment: Attachment, file: URL)] = []
    var pending: PendingArchive?
    defer { pending?.abandon() }
    let libraryExpected = ZipArchive.Expectation()
    let manifestExpected = ZipArchive.Expectation()
    let library = try StreamedFile(path: temporary.libraryPath, target: url)
    let summary: LibraryJSON.Summary
    let check = LibraryCheck()
    do {
      defer { library.close() }
      summary = try snapshot {
        planned = try checkedSources(
          try items.attachmentsInDocumentOrder(), attachmentURL: attachmentURL)
        let writer = try ZipArchive.Writer(
          url: url, overwrite: force, temporaryPath: temporary.archivePath)
        if let progress { writer.onProgress(progress) }
        for (attachment, file) in planned {
          try writer.addFile(
            name: BackupManifest.attachmentPath(sha256: attachment.sha256), from: file,
            expectedSize: attachment.byteCount, expectedSHA256: attachment.sha256,
            compression: compression(for: attachment), modified: createdAt)
        }
        try writer.addFile(
          name: BackupManifest.libraryPath, from: libraryURL, expected: libraryExpected,
          compression: .deflate, modified: createdAt, level: libraryLevel)
        try writer.addFile(
          name: BackupManifest.manifestPath, from: manifestURL, expected: manifestExpected,
          compression: .deflate, modified: createdAt)
        pending = PendingArchive(writer, expectations: [libraryExpected, manifestExpected])
        return try LibraryJSON.write(items, check: check, to: library.append)
      }
    } catch {
      throw library.failure(error)
    }

    // The attachments zipped must be those library.json lists, in its order (they are: the
    // same snapshot). Should they ever differ, the archive is dropped and written again the
    // plain way, library.json first.
    let found = summary.attachments
    guard found.count == planned.count,
      zip(found, planned).allSatisfy({ $0 == $1.attachment })
    else {
      pending?.abandon()
      pending = nil
      temporary.remove()
      return try writeInOrder(
        items, to: url, generator: generator, now: now, force: force, snapshot: snapshot,
        attachmentURL: attachmentURL, progress: progress)
    }
    let (librarySize, libraryDigest) = try library.finish()
    libraryExpected.resolve((librarySize, libraryDigest))
    let manifest = BackupManifest(
      formatVersion: Backup.formatVersion, createdAt: createdAt, generator: generator,
      counts: summary.counts,
      files: manifestFiles(librarySize: librarySize, libraryDigest: libraryDigest, planned))
    do {
      let data = try JSONCoding.encoder().encode(manifest)
      try AtomicFile.write(data, to: manifestURL)
      manifestExpected.resolve((Int64(data.count), try SHA256Hasher.hexDigest(of: data)))
    } catch {
      throw BackupError.cannotWrite(path: url.path, reason: "cannot write the manifest: \(error)")
    }
    guard let closing = pending else {
      throw BackupError.cannotWrite(path: url.path, reason: "the archive was not started")
    }
    pending = nil
    try closing.finish(url: url)
    return Written(manifest: manifest, problems: check.finish())
  }

  /// Checks each attachment's digest and that its file holds its size.
  ///
  /// - Throws: `BackupError.attachmentUnavailable`.
  static func checkedSources(
    _ attachments: [Attachment], attachmentURL: (String) -> URL
  ) throws -> [(attachment: Attachment, file: URL)] {
    try attachments.map { attachment in
      let file = attachmentURL(attachment.sha256)
      guard Attachment.isValidDigest(attachment.sha256) else {
        throw BackupError.attachmentUnavailable(
          sha256: attachment.sha256, path: file.path, reason: "the digest is malformed")
      }
      var status = stat()
      guard stat(file.path, &status) == 0 else {
        throw BackupError.attachmentUnavailable(
          sha256: attachment.sha256, path: file.path, reason: POSIX.errnoText())
      }
      guard Int64(status.st_size) == attachment.byteCount else {
        throw BackupError.attachmentUnavailable(
          sha256: attachment.sha256, path: file.path,
          reason: "the file holds \(status.st_size) bytes, its record says \(attachment.byteCount)")
      }
      return (attachment, file)
    }
  }

  /// The manifest's `files`: `library.json`, then each attachment.
  static func manifestFiles(
    librarySize: Int64, libraryDigest: String, _ sources: [(attachment: Attachment, file: URL)]
  ) -> [BackupManifest.File] {
    [BackupManifest.File(path: BackupManifest.libraryPath, size: librarySize, sha256: libraryDigest)]
      + sources.map {
        BackupManifest.File(
          path: BackupManifest.attachmentPath(sha256: $0.attachment.sha256),
          size: $0.attachment.byteCount, sha256: $0.attachment.sha256)
      }
  }

  /// `write` without the overlap: library.json written first, then the zip (`manifest.json`,
  /// `library.json`, the attachments). Used when the attachments found beforehand are not
  /// those library.json lists.
  static func writeInOrder(
    _ items: some LibraryItems, to url: URL, generator: String, now: Date, force: Bool,
    snapshot: ((() throws -> LibraryJSON.Summary) throws -> LibraryJSON.Summary),
    attachmentURL: (String) -> URL, progress: ((Double) -> Void)?
  ) throws -> Written {
    let (createdAt, temporary) = try begin(url, force: force, now: now)
    defer { temporary.remove() }

    // library.json, streamed to its temporary file and hashed on the way.
    let libraryURL = URL(fileURLWithPath: temporary.libraryPath)
    let library = try StreamedFile(path: temporary.libraryPath, target: url)
    let summary: LibraryJSON.Summary
    let check = LibraryCheck()
    do {
      defer { library.close() }
      summary = try snapshot { try LibraryJSON.write(items, check: check, to: library.append) }
    } catch {
      throw library.failure(error)
    }
    let (librarySize, libraryDigest) = try library.finish()

    let sources = try checkedSources(summary.attachments, attachmentURL: attachmentURL)
    let files = manifestFiles(librarySize: librarySize, libraryDigest: libraryDigest, sources)
    let manifest = BackupManifest(
      formatVersion: Backup.formatVersion, createdAt: createdAt, generator: generator,
      counts: summary.counts, files: files)
    let manifestData: Data
    do { manifestData = try JSONCoding.encoder().encode(manifest) } catch {
      throw BackupError.cannotWrite(path: url.path, reason: "cannot encode the manifest: \(error)")
    }

    do {
      let writer = try ZipArchive.Writer(
        url: url, overwrite: force, temporaryPath: temporary.archivePath)
      if let progress { writer.onProgress(progress) }
      try writer.add(
        name: BackupManifest.manifestPath, data: manifestData, compression: .deflate,
        modified: createdAt)
      try writer.addFile(
        name: BackupManifest.libraryPath, from: libraryURL, expectedSize: librarySize,
        expectedSHA256: libraryDigest, compression: .deflate, modified: createdAt,
        level: libraryLevel)
      for (attachment, file) in sources {
        try writer.addFile(
          name: BackupManifest.attachmentPath(sha256: attachment.sha256), from: file,
          expectedSize: attachment.byteCount, expectedSHA256: attachment.sha256,
          compression: compression(for: attachment), modified: createdAt)
      }
      do { try writer.close() } catch { throw closeFailure(error, of: writer, url: url) }
    } catch let error as ZipError {
      throw BackupError.cannotWrite(path: url.path, reason: BackupReader.reason(error))
    }
    return Written(manifest: manifest, problems: check.finish())
  }
}

extension BackupWriter {
  /// The start of every write: refuses an existing `url` without `force`, removes what
  /// killed writes to `url` left, and makes this write's temporary files (the caller removes
  /// them). `createdAt` is `now` truncated to whole seconds.
  ///
  /// - Throws: `BackupError.destinationExists`, `BackupError.cannotWrite`.
  static func begin(_ url: URL, force: Bool, now: Date) throws -> (
    createdAt: Date, temporary: BackupTemporaryFiles
  ) {
    var info = stat()
    if !force, lstat(url.path, &info) == 0 { throw BackupError.destinationExists(path: url.path) }
    BackupTemporaryFiles.removeStale(besides: url)
    let createdAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
    return (createdAt, try BackupTemporaryFiles(besides: url))
  }

  /// What a failed `ZipArchive.Writer.close()` means for the backup at `url`: a file
  /// source that failed other than library.json or the manifest is
  /// `BackupError.attachmentUnavailable`; a target that appeared meanwhile
  /// `.destinationExists`; any other `ZipError` `.cannotWrite`.
  static func closeFailure(_ error: Error, of writer: ZipArchive.Writer, url: URL) -> Error {
    if let failed = writer.failedFile, failed.entry != BackupManifest.libraryPath,
      failed.entry != BackupManifest.manifestPath
    {
      let sha256 = String(failed.entry.dropFirst(BackupManifest.attachmentsDirectory.count))
      return BackupError.attachmentUnavailable(
        sha256: sha256, path: failed.path, reason: failed.reason)
    }
    if case ZipError.cannotWrite(_, let reason) = error, reason == "the file exists" {
      return BackupError.destinationExists(path: url.path)
    }
    if let error = error as? ZipError {
      return BackupError.cannotWrite(path: url.path, reason: BackupReader.reason(error))
    }
    return error
  }

  /// How an attachment is zipped: `ZipArchive.Compression.forMediaType` below 1 MiB (the
  /// `BackupLimits.ratioFloorBytes` under which readers do not check the compression ratio);
  /// stored from 1 MiB on, whatever its type, so that no backup yarn writes can exceed a
  /// reader's ratio limit (a 2 MiB text file of one repeated letter deflates about 1000
  /// times, which a reader takes for a zip bomb).
  static func compression(for attachment: Attachment) -> ZipArchive.Compression {
    attachment.byteCount < BackupLimits.standard.ratioFloorBytes
      ? .forMediaType(attachment.mediaType) : .store
  }
}

/// A zip being written (`ZipArchive.Writer.close()`) on a thread of its own while its last
/// entries are still being produced.
///
/// `@unchecked Sendable`: the writer is used only by that thread once it has started, and
/// `error` is read only after `done` is waited for.
final class PendingArchive: @unchecked Sendable {
  private let writer: ZipArchive.Writer
  private let expectations: [ZipArchive.Expectation]
  private let done: DispatchSemaphore
  private var error: Error?
  private var waited = false

  init(_ writer: ZipArchive.Writer, expectations: [ZipArchive.Expectation]) {
    self.writer = writer
    self.expectations = expectations
    let box = UncheckedSendable(writer)
    let failure = Locked<Error?>(nil)
    done = ParallelWork.thread("yarn.backup.zip") {
      do { try box.value.close() } catch { failure.withLock { $0 = error } }
    }
    self.failureBox = failure
  }

  private let failureBox: Locked<Error?>

  /// Stops: the entries not yet written will not be, the archive is discarded; waits.
  func abandon() {
    for expectation in expectations { expectation.resolve(nil) }
    wait()
  }

  private func wait() {
    guard !waited else { return }
    waited = true
    done.wait()
  }

  /// Waits for the archive; maps its failure as `BackupWriter.write` reports it.
  ///
  /// - Throws: `BackupError.attachmentUnavailable`, `.destinationExists`, `.cannotWrite`.
  func finish(url: URL) throws {
    wait()
    guard let error = failureBox.withLock({ $0 }) else { return }
    throw BackupWriter.closeFailure(error, of: writer, url: url)
  }
}

/// The temporary files of one backup (or export) being written beside its target `NAME`:
/// `.NAME.tmp-<uuid>.lock` (created first, held with `flock` until the end, removed last),
/// `.NAME.tmp-<uuid>.library.json`, and the archive `.NAME.tmp-<uuid>` (with libzip's own
/// `.NAME.tmp-<uuid>.XXXXXX`).
final class BackupTemporaryFiles {
  let group: String
  private var lock: Int32

  var archivePath: String { group }
  var libraryPath: String { group + ".library.json" }

  /// Creates and locks the lock file of a new group beside `url`.
  ///
  /// - Throws: `BackupError.cannotWrite` (a missing or read-only directory).
  init(besides url: URL) throws {
    group =
      url.deletingLastPathComponent().path + "/" + BackupTemporaryFiles.prefix(for: url)
      + Identifier.make()
    lock = open(group + ".lock", O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard lock >= 0 else {
      throw BackupError.cannotWrite(path: url.path, reason: POSIX.errnoText())
    }
    _ = flock(lock, LOCK_EX | LOCK_NB)
  }

  private var extras: [String] = []

  /// The path of another temporary file of the group, `.NAME.tmp-<uuid>.<suffix>`, removed
  /// by `remove()`.
  func extraPath(_ suffix: String) -> String {
    let path = group + "." + suffix
    extras.append(path)
    return path
  }

  /// Removes every file of the group, the lock last.
  func remove() {
    for path in extras { unlink(path) }
    for suffix in [".library.json", ""] { unlink(group + suffix) }
    unlink(group + ".lock")
    if lock >= 0 { close(lock) }
    lock = -1
  }

  /// `.NAME.tmp-`.
  static func prefix(for url: URL) -> String { "." + url.lastPathComponent + ".tmp-" }

  /// Removes the files of earlier groups for `url` that no process holds: for each
  /// `.NAME.tmp-<uuid>`, when its `.lock` is missing or can be locked. Errors are ignored
  /// (this is tidying, not the backup).
  ///
  /// - Returns: the names removed.
  @discardableResult
  static func removeStale(besides url: URL) -> [String] {
    removeStale(in: url.deletingLastPathComponent().path, prefix: prefix(for: url))
  }

  /// As `removeStale(besides:)` for every target NAME in `directory` (such as the folder of
  /// safety backups, whose names change with the time).
  @discardableResult
  static func removeStale(inDirectory directory: String) -> [String] {
    removeStale(in: directory, prefix: nil)
  }

  private static func removeStale(in directory: String, prefix wanted: String?) -> [String] {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
      return []
    }
    var groups: [String: [String]] = [:]
    for name in names where name.hasPrefix(".") {
      // `.NAME.tmp-<uuid>[.suffix]`: find the last `.tmp-` followed by a UUID.
      guard let marker = name.ranges(of: ".tmp-").last else { continue }
      let prefix = String(name[..<marker.upperBound])
      if let wanted, prefix != wanted { continue }
      let rest = name[marker.upperBound...]
      let id = String(rest.prefix(36))
      guard id.count == 36, id.allSatisfy({ $0.isHexDigit || $0 == "-" }) else { continue }
      let suffix = rest.dropFirst(36)
      guard suffix.isEmpty || suffix.hasPrefix(".") else { continue }
      groups[prefix + id, default: []].append(name)
    }
    var removed: [String] = []
    for (group, members) in groups {
      let lockName = group + ".lock"
      let fd = open(directory + "/" + lockName, O_RDWR | O_CLOEXEC)
      if fd >= 0 {
        defer { close(fd) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { continue }
      }
      for name in members.filter({ $0 != lockName }) + members.filter({ $0 == lockName }) {
        if unlink(directory + "/" + name) == 0 { removed.append(name) }
      }
    }
    return removed.sorted()
  }
}

/// A file written once, front to back, by one thread — `library.json` beside the backup being
/// written — hashed (SHA-256) and counted on the way, so that its manifest entry needs no
/// second read.
final class StreamedFile {
  private let path: String
  private let target: URL
  private var fd: Int32
  private let hasher = SHA256Hasher()
  private var size: Int64 = 0

  /// Creates `path` (which must not exist). Errors name `target`, the backup.
  ///
  /// - Throws: `BackupError.cannotWrite`.
  init(path: String, target: URL) throws {
    self.path = path
    self.target = target
    fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      throw BackupError.cannotWrite(path: target.path, reason: POSIX.errnoText())
    }
  }

  deinit { close() }

  /// Appends `bytes`.
  ///
  /// - Throws: `AtomicFile.WriteError` (a full disk, say).
  func append(_ bytes: UnsafeRawBufferPointer) throws {
    hasher.update(bytes)
    size += Int64(bytes.count)
    try AtomicFile.writeAll(fd, bytes, path: path)
  }

  /// Closes the file (again: nothing).
  func close() {
    if fd >= 0 { _ = POSIX.close(fd) }
    fd = -1
  }

  /// The size in bytes and the SHA-256 (64 lower-case hex digits) of what was appended.
  ///
  /// - Throws: `BackupError.cannotWrite` when the digest cannot be computed.
  func finish() throws -> (size: Int64, sha256: String) {
    do { return (size, try hasher.finalize()) } catch {
      throw BackupError.cannotWrite(path: target.path, reason: "cannot compute a SHA-256")
    }
  }

  /// `error`, thrown while writing the file, as the backup reports it: an item that cannot
  /// be encoded or a failed write is `BackupError.cannotWrite`, as is a `ZipError`; others
  /// pass through.
  func failure(_ error: Error) -> Error {
    switch error {
    case let error as EncodingError:
      return BackupError.cannotWrite(path: target.path, reason: "cannot encode the library: \(error)")
    case let error as AtomicFile.WriteError:
      return BackupError.cannotWrite(path: target.path, reason: error.reason)
    case let error as ZipError:
      return BackupError.cannotWrite(path: target.path, reason: BackupReader.reason(error))
    default:
      return error
    }
  }
}
