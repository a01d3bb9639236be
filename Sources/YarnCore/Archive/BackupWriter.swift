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

/// Writes a backup zip of a library: the pure half of `Backup.create`, testable without a
/// store.
enum BackupWriter {
  /// The deflate level of `library.json`: 1, zlib's fastest. A backup is written often and
  /// its photos dwarf the few megabytes of JSON either level leaves.
  static let libraryLevel: UInt32 = 1

  /// What `write` wrote, and what it found wrong with the library it wrote.
  struct Written {
    var manifest: BackupManifest
    /// What a restore of the archive would refuse (`LibraryCheck` of the items, without the
    /// manifest's checks), in the order found; empty for a sound library.
    var problems: [BackupProblem]
  }

  /// The items of a library, each kind handed over one item at a time in the order of
  /// `library.json` (its keys sorted: notes, projects, sessions, tools, yarns), so that a
  /// backup holds no more of the library in memory than one item (and the tools).
  struct Items {
    /// Runs its body where the items may be read: in one read transaction of the store.
    var read: (() throws -> Void) throws -> Void
    var forEachNote: ((Note) throws -> Void) throws -> Void
    var forEachProject: ((Project) throws -> Void) throws -> Void
    /// The sessions in creation order.
    var forEachSession: ((TimeSession) throws -> Void) throws -> Void
    var tools: () throws -> [Tool]
    var forEachYarn: ((Yarn) throws -> Void) throws -> Void
  }

  /// What `writeLibrary` saw of the items it wrote.
  struct Streamed {
    var counts: BackupManifest.Counts
    /// Every attachment of every yarn and project, each distinct digest once, in the order
    /// of `Library.attachments` (the yarns', then the projects').
    var attachments: [Attachment]
  }

  /// Writes `library.json` of `items` to `stream`, item by item, in exactly the bytes of
  /// `JSONCoding.encoder().encode(library)` (docs/FORMAT.md: sorted keys, `tools` left out
  /// when there are none), handing each item to `check` as it goes.
  ///
  /// - Throws: what reading the items, the encoder (`EncodingError`) or the stream throws.
  static func writeLibrary(_ items: Items, to stream: JSONStream, check: LibraryCheck) throws
    -> Streamed
  {
    var counts = BackupManifest.Counts(yarns: 0, projects: 0, notes: 0, sessions: 0, attachments: 0)
    // Each distinct file of the yarns, and of the projects, in the order met.
    var yarnFiles: [Attachment] = []
    var projectFiles: [Attachment] = []
    var yarnDigests = Set<String>()
    var projectDigests = Set<String>()
    func collect(_ attachment: Attachment, into list: inout [Attachment], seen: inout Set<String>) {
      if seen.insert(attachment.sha256).inserted { list.append(attachment) }
    }
    try stream.write("{\n")
    try stream.key("notes", depth: 1, first: true)
    counts.notes = try stream.array(depth: 1) { (write: (Note) throws -> Void) in
      try items.forEachNote { note in
        check.add(note)
        try write(note)
      }
    }
    try stream.key("projects", depth: 1, first: false)
    counts.projects = try stream.array(depth: 1) { (write: (Project) throws -> Void) in
      try items.forEachProject { project in
        check.add(project)
        if let pdf = project.pattern?.pdf { collect(pdf, into: &projectFiles, seen: &projectDigests) }
        for photo in project.photos { collect(photo, into: &projectFiles, seen: &projectDigests) }
        try write(project)
      }
    }
    try stream.key("sessions", depth: 1, first: false)
    counts.sessions = try stream.array(depth: 1) { (write: (TimeSession) throws -> Void) in
      try items.forEachSession { session in
        check.add(session)
        try write(session)
      }
    }
    let tools = try items.tools()
    counts.tools = tools.count
    if !tools.isEmpty {
      try stream.key("tools", depth: 1, first: false)
      try stream.array(depth: 1) { (write: (Tool) throws -> Void) in
        for tool in tools {
          check.add(tool)
          try write(tool)
        }
      }
    }
    try stream.key("yarns", depth: 1, first: false)
    counts.yarns = try stream.array(depth: 1) { (write: (Yarn) throws -> Void) in
      try items.forEachYarn { yarn in
        check.add(yarn)
        for photo in yarn.photos { collect(photo, into: &yarnFiles, seen: &yarnDigests) }
        try write(yarn)
      }
    }
    try stream.write("\n}")
    // Library.attachments' order: the yarns' files, then the projects' others.
    let attachments = yarnFiles + projectFiles.filter { !yarnDigests.contains($0.sha256) }
    counts.attachments = attachments.count
    return Streamed(counts: counts, attachments: attachments)
  }

  /// Writes the backup of `items` to `url`, on the calling thread.
  ///
  /// `library.json` holds the bytes of `JSONCoding.encoder().encode(library)`, written item
  /// by item (`writeLibrary`) to a temporary file beside `url` (`ZipStaging`), where its size
  /// and SHA-256 are computed for the manifest; entries, in this order: `manifest.json` and
  /// `library.json` (deflated, streamed from that file), then each distinct attachment as
  /// `attachments/<sha256>` (`compression(for:)`), streamed from `attachmentURL(sha256)` and
  /// checked against its record's size and SHA-256 as libzip reads it. Memory stays flat
  /// whatever the size of the library: one item at a time, the IDs and references
  /// `LibraryCheck` keeps, and the attachments' records.
  ///
  /// The archive is built at a temporary path beside `url` (`BackupTemporaryFiles`), fsynced
  /// and moved to `url`; temporary files of earlier writes into the same directory that were
  /// killed are removed first.
  ///
  /// - Parameters:
  ///   - now: the manifest's `createdAt` (truncated to whole seconds) and the entries' times.
  ///   - force: replace a file at `url`; otherwise an existing file is an error.
  ///   - progress: the fraction of the zip written, 0...1, on the calling thread.
  /// - Returns: the manifest written, and the problems `LibraryCheck` found in the library
  ///   (the archive is written and kept whatever it finds).
  /// - Throws: `BackupError.destinationExists`, `.attachmentsUnavailable`, `.cannotWrite`;
  ///   what reading `items` throws (`StoreError`); `CancellationError` when the current task
  ///   is cancelled. Nothing is left at `url` after an error (its old file, if any, is
  ///   untouched), and no temporary file beside it.
  static func write(
    _ items: Items, to url: URL, generator: String, now: Date, force: Bool,
    attachmentURL: (String) -> URL, progress: ((Double) -> Void)? = nil
  ) throws -> Written {
    let createdAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
    var info = stat()
    // What no zip can replace is said first: --force would not help.
    try checkReplaceable(url)
    if !force, lstat(url.path, &info) == 0 { throw BackupError.destinationExists(path: url.path) }
    // A symbolic link is followed: the file it points to is replaced and the link kept, as
    // every output is (`AtomicFile`); libzip renames its temporary file over the path it is
    // given, which replaced the link itself (QA: `/dev/stdout` became a zip).
    let url = URL(fileURLWithPath: AtomicFile.resolvingLinks(url.path))
    BackupTemporaryFiles.removeStale(in: url.deletingLastPathComponent().path)
    let temporary = try BackupTemporaryFiles(besides: url)
    defer { temporary.remove() }

    let check = LibraryCheck()
    var streamed = Streamed(
      counts: BackupManifest.Counts(yarns: 0, projects: 0, notes: 0, sessions: 0, attachments: 0),
      attachments: [])
    let staging: ZipStaging
    let library: ZipStaging.Entry
    do {
      staging = try ZipStaging(path: temporary.group + ".staged")
      try items.read {
        streamed = try writeLibrary(items, to: JSONStream { try staging.append($0) }, check: check)
      }
      library = try staging.endEntry()
      try staging.flush()
    } catch let error as ZipError {
      throw BackupError.cannotWrite(path: url.path, reason: BackupReader.reason(error))
    } catch let error as EncodingError {
      throw BackupError.cannotWrite(path: url.path, reason: "cannot encode the library: \(error)")
    }
    let problems = check.finish()
    let attachments = streamed.attachments
    let sources = try checkedSources(attachments, attachmentURL: attachmentURL)
    let manifest = BackupManifest(
      formatVersion: Backup.formatVersion, createdAt: createdAt, generator: generator,
      counts: streamed.counts,
      files: [
        BackupManifest.File(path: BackupManifest.libraryPath, size: library.size, sha256: library.sha256)
      ]
        + attachments.map {
          BackupManifest.File(
            path: BackupManifest.attachmentPath(sha256: $0.sha256), size: $0.byteCount,
            sha256: $0.sha256)
        })
    let manifestData: Data
    do { manifestData = try JSONCoding.encoder().encode(manifest) } catch {
      throw BackupError.cannotWrite(path: url.path, reason: "cannot encode the manifest: \(error)")
    }

    try Task.checkCancellation()
    let writer: ZipArchive.Writer
    do {
      writer = try ZipArchive.Writer(
        url: url, overwrite: force, temporaryPath: temporary.archivePath)
      if let progress { writer.onProgress(progress) }
      try writer.add(
        name: BackupManifest.manifestPath, data: manifestData, compression: .deflate,
        modified: createdAt)
      try writer.addRange(
        name: BackupManifest.libraryPath, path: staging.path, offset: library.offset,
        size: library.size, compression: .deflate, modified: createdAt, level: libraryLevel)
      for (attachment, file) in sources {
        try writer.addFile(
          name: BackupManifest.attachmentPath(sha256: attachment.sha256), from: file,
          expectedSize: attachment.byteCount, expectedSHA256: attachment.sha256,
          compression: compression(for: attachment), modified: createdAt)
      }
    } catch let error as ZipError {
      throw BackupError.cannotWrite(path: url.path, reason: BackupReader.reason(error))
    }
    do { try writer.close() } catch {
      throw closeFailure(
        error, of: writer, url: url, staging: staging.path, attachments: attachments,
        attachmentURL: attachmentURL)
    }
    return Written(manifest: manifest, problems: problems)
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

  /// Checks each attachment's digest and that its file holds its size.
  ///
  /// - Throws: `BackupError.attachmentsUnavailable` listing every attachment that is not
  ///   right (`unavailable(_:found:attachmentURL:)`) when one fails these checks;
  ///   `CancellationError`.
  static func checkedSources(
    _ attachments: [Attachment], attachmentURL: (String) -> URL
  ) throws -> [(attachment: Attachment, file: URL)] {
    let sources = attachments.map { (attachment: $0, file: attachmentURL($0.sha256)) }
    for (attachment, file) in sources {
      guard let reason = problem(of: attachment, at: file, reading: false) else { continue }
      let found = UnavailableAttachment(sha256: attachment.sha256, path: file.path, reason: reason)
      throw try unavailable(attachments, found: found, attachmentURL: attachmentURL)
    }
    return sources
  }

  /// Why the file at `file` is not the bytes of `attachment` (its digest malformed, the file
  /// missing, a directory, not a regular file or of another size; when `reading`, also its SHA-256 another or the
  /// file unreadable), in the words of a backup's failure, or `nil` when it is.
  static func problem(of attachment: Attachment, at file: URL, reading: Bool) -> String? {
    guard Attachment.isValidDigest(attachment.sha256) else { return "the digest is malformed" }
    var status = stat()
    guard stat(file.path, &status) == 0 else { return POSIX.errnoText() }
    // A directory's size is its own (4096), no attachment's: say what it is.
    if status.st_mode & S_IFMT == S_IFDIR { return "it is a directory, not a file" }
    // Nor open a FIFO, which blocks open(2) until a writer comes (nor a device or socket).
    if status.st_mode & S_IFMT != S_IFREG { return "it is not a regular file (a FIFO, device or socket)" }
    guard Int64(status.st_size) == attachment.byteCount else {
      return "the file holds \(status.st_size) bytes, its record says \(attachment.byteCount)"
    }
    guard reading else { return nil }
    do {
      let found = try SHA256Hasher.hexDigest(ofFileAt: file)
      if found.byteCount != attachment.byteCount {
        return "the file holds \(found.byteCount) bytes, expected \(attachment.byteCount)"
      }
      return found.sha256 == attachment.sha256
        ? nil : "its SHA-256 is \(found.sha256), expected \(attachment.sha256)"
    } catch SHA256Error.unreadable(_, let reason) {
      return reason
    } catch {
      return "cannot compute its SHA-256"
    }
  }

  /// `BackupError.attachmentsUnavailable` of every attachment of `attachments` whose file is
  /// not its record's bytes, each file read to its end (`problem(of:at:reading:)`), in their
  /// order: the first `Backup.maxUnavailableAttachments` listed, the others counted. A backup
  /// or export calls it once it has found one broken, `found`, so that one run names all of
  /// them (at the cost of reading the attachments once more, on that path only); `found`
  /// stays listed, as it was found, should its file have changed back since.
  ///
  /// - Throws: `CancellationError` when the current task is cancelled (checked between files).
  static func unavailable(
    _ attachments: [Attachment], found: UnavailableAttachment, attachmentURL: (String) -> URL
  ) throws -> BackupError {
    var listed: [UnavailableAttachment] = []
    var count = 0
    for attachment in attachments {
      try Task.checkCancellation()
      let file = attachmentURL(attachment.sha256)
      guard
        let reason = problem(of: attachment, at: file, reading: true)
          ?? (attachment.sha256 == found.sha256 ? found.reason : nil)
      else { continue }
      count += 1
      if listed.count < Backup.maxUnavailableAttachments {
        listed.append(UnavailableAttachment(sha256: attachment.sha256, path: file.path, reason: reason))
      }
    }
    if count == 0 { return .attachmentsUnavailable([found]) }
    return .attachmentsUnavailable(listed, more: count - listed.count)
  }

  /// Refuses a target that exists and is not a regular file (or a link to one): a zip is
  /// built beside it and renamed over it, which would replace a directory's name, a FIFO or
  /// a device such as `/dev/full` (when the user may write `/dev`) with a file.
  ///
  /// - Throws: `BackupError.cannotWrite` naming what is there.
  static func checkReplaceable(_ url: URL) throws {
    var info = stat()
    guard stat(url.path, &info) == 0 else { return }
    switch info.st_mode & S_IFMT {
    case S_IFREG: return
    case S_IFDIR: throw BackupError.cannotWrite(path: url.path, reason: "it is a directory")
    default:
      throw BackupError.cannotWrite(
        path: url.path,
        reason: "it is not a regular file (a device, FIFO or socket), which a zip cannot replace")
    }
  }

  /// `error`, thrown by `writer.close()`, as a backup or export reports it: a file that
  /// changed or vanished is `.attachmentsUnavailable`, listing it and every other of
  /// `attachments` that is not right (`unavailable(_:found:attachmentURL:)`); an existing
  /// target `.destinationExists`; a cancelled task `CancellationError`; anything else
  /// `.cannotWrite`. A failure to read `staging` (the temporary file of the entries the
  /// writer generated) is `.cannotWrite`.
  static func closeFailure(
    _ error: Error, of writer: ZipArchive.Writer, url: URL, staging: String? = nil,
    attachments: [Attachment], attachmentURL: (String) -> URL
  ) -> Error {
    if error is CancellationError { return error }
    if let failed = writer.failedFile, failed.path == staging {
      return BackupError.cannotWrite(
        path: url.path, reason: "cannot read its temporary file \(failed.path): \(failed.reason)")
    }
    if let failed = writer.failedFile {
      let found = UnavailableAttachment(
        sha256: POSIX.lastComponent(of: failed.path), path: failed.path, reason: failed.reason)
      do {
        return try unavailable(attachments, found: found, attachmentURL: attachmentURL)
      } catch {
        return error
      }
    }
    if case ZipError.cannotWrite(_, let reason) = error, reason == "the file exists" {
      return BackupError.destinationExists(path: url.path)
    }
    if let error = error as? ZipError {
      return BackupError.cannotWrite(path: url.path, reason: BackupReader.reason(error))
    }
    return error
  }
}

/// The temporary files of one backup (or export) being written beside its target `NAME`:
/// `.NAME.tmp-<uuid>.lock` (created first, held with `flock` until the end, removed last) and
/// the archive `.NAME.tmp-<uuid>` (with libzip's own `.NAME.tmp-<uuid>.XXXXXX`).
///
/// A process killed while writing leaves them; the next backup or export into the same
/// directory removes every such group whose lock no process holds (`removeStale(in:)`), so
/// none stays for ever, whatever its target's name.
final class BackupTemporaryFiles {
  let group: String
  private var lock: Int32

  /// Where the archive is built.
  var archivePath: String { group }

  /// Creates and locks the lock file of a new group beside `url`.
  ///
  /// - Throws: `BackupError.cannotWrite` (a missing or read-only directory).
  init(besides url: URL) throws {
    group =
      url.deletingLastPathComponent().path + "/." + url.lastPathComponent + ".tmp-"
      + Identifier.make()
    lock = open(group + ".lock", O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard lock >= 0 else {
      throw BackupError.cannotWrite(path: url.path, reason: POSIX.errnoText())
    }
    _ = flock(lock, LOCK_EX | LOCK_NB)
  }

  /// Removes every file of the group, the lock last.
  func remove() {
    BackupTemporaryFiles.removeGroup(group)
    if lock >= 0 { close(lock) }
    lock = -1
  }

  /// Unlinks `group` and the files named `group.*`, the lock last.
  private static func removeGroup(_ group: String) {
    let directory = POSIX.directory(of: group)
    let base = POSIX.lastComponent(of: group)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    for name in names where name == base || (name.hasPrefix(base + ".") && name != base + ".lock") {
      unlink(directory + "/" + name)
    }
    unlink(group + ".lock")
  }

  /// Removes the temporary files of every earlier group in `directory` whose `.lock` file is
  /// there and held by no process: a backup, safety backup or export that was killed. Files
  /// that look alike but have no lock file are not yarn's and stay. Errors are ignored (this
  /// is tidying, not the backup).
  ///
  /// - Returns: the groups removed (`.NAME.tmp-<uuid>`), sorted.
  @discardableResult
  static func removeStale(in directory: String) -> [String] {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
      return []
    }
    var groups = Set<String>()
    for name in names where name.hasPrefix(".") {
      // `.NAME.tmp-<uuid>[.suffix]`: the last `.tmp-` followed by a UUID.
      guard let marker = name.ranges(of: ".tmp-").last else { continue }
      let rest = name[marker.upperBound...]
      let id = rest.prefix(36)
      guard id.count == 36, id.allSatisfy({ $0.isHexDigit || $0 == "-" }) else { continue }
      let suffix = rest.dropFirst(36)
      guard suffix.isEmpty || suffix.hasPrefix(".") else { continue }
      groups.insert(String(name[..<marker.upperBound]) + id)
    }
    var removed: [String] = []
    for group in groups.sorted() {
      // Only a group with its lock file is yarn's (others' files may look alike), and only
      // one whose lock no process holds is stale.
      let fd = open(directory + "/" + group + ".lock", O_RDWR | O_NOFOLLOW | O_CLOEXEC)
      guard fd >= 0 else { continue }
      defer { close(fd) }
      guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { continue }
      removeGroup(directory + "/" + group)
      removed.append(group)
    }
    return removed
  }
}

// In an extension, so that `Items` keeps its memberwise initializer (the tests' items of a
// `Library` held in memory are made with it).
extension BackupWriter.Items {
  /// The items of `store`, read as they are written (`forEachYarn`, …), each kind in
  /// creation order as `LibraryStore.library()` gives them, all in one read transaction.
  init(store: LibraryStore) {
    self.init(
      read: { body in try store.read { try body() } }, forEachNote: { try store.forEachNote($0) },
      forEachProject: { try store.forEachProject($0) },
      forEachSession: { try store.forEachSessionInCreationOrder($0) }, tools: { try store.tools() },
      forEachYarn: { try store.forEachYarn($0) })
  }
}
