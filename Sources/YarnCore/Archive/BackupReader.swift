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

/// Reads and verifies a backup — a zip or a directory — without touching any library: the
/// pure half of restore and the whole of verify.
///
/// `init` opens the container, checks every entry's name and kind, reads `manifest.json`
/// (refusing a newer format), and compares the manifest with the container's listing and
/// claimed sizes. No other entry is read yet, so a zip bomb or a traversal archive is refused
/// after reading at most the manifest. `checkLibrary(now:visit:)` (item by item),
/// `readItems(_:visit:)`, `readLibrary(now:)` (the whole library, for a merge) and
/// `readAttachment(_:to:)` then read with a cap of each file's manifest size and check size
/// and SHA-256.
///
/// Not `Sendable`: it owns a libzip handle.
final class BackupReader {
  let limits: BackupLimits
  /// The decoded `manifest.json`, upgraded to the current format version.
  let manifest: BackupManifest
  /// The format version the backup was written in (before any migration).
  let formatVersion: Int
  /// What is wrong with the listing and the manifest (no data read). A restore must not
  /// read on when this is not empty.
  let structuralProblems: [BackupProblem]
  private let source: BackupSource

  /// The manifest's attachment files, in manifest order.
  var attachmentFiles: [BackupManifest.File] {
    manifest.files.filter { $0.path.hasPrefix(BackupManifest.attachmentsDirectory) }
  }

  /// The manifest's size of `library.json` in bytes (0 when it lists none).
  var librarySize: Int64 {
    manifest.files.first { $0.path == BackupManifest.libraryPath }.map { max(0, $0.size) } ?? 0
  }

  /// A counter of the bytes read of `library.json` and the attachments, by their manifest
  /// sizes, reporting to `progress`.
  func progressCounter(_ progress: ((Double) -> Void)?) -> ProgressCounter {
    ProgressCounter(
      total: attachmentFiles.reduce(librarySize) { $0 + max(0, $1.size) }, report: progress)
  }

  /// Opens the backup at `url` (a zip file, or a directory holding the files of one).
  ///
  /// - Throws: `BackupError.notFound` when the path cannot be looked up (with the system's
  ///   reason); `BackupError.cannotOpen` when it is neither a zip nor a directory;
  ///   `BackupError.invalidBackup` when the backup has more entries than `limits.maxEntries`
  ///   (a directory's walk stops at the first past it; nothing else is looked at), or
  ///   has no manifest and unsafe entries (listed with `.missing("manifest.json")`);
  ///   `BackupError.missingManifest`; `BackupError.invalidManifest`;
  ///   `BackupError.newerFormat` when `formatVersion` > `Backup.formatVersion`.
  init(url: URL, limits: BackupLimits = .standard) throws {
    self.limits = limits
    var info = stat()
    guard stat(url.path, &info) == 0 else {
      throw BackupError.notFound(path: url.path, reason: POSIX.errnoText())
    }
    var problems: [BackupProblem] = []
    let source: BackupSource
    if info.st_mode & S_IFMT == S_IFDIR {
      source = DirectoryBackupSource(url: url, maxEntries: limits.maxEntries)
    } else {
      let zip: ZipBackupSource
      do { zip = try ZipBackupSource(url: url) } catch let error as ZipError {
        throw BackupError.cannotOpen(path: url.path, reason: Self.reason(error))
      }
      if zip.count > limits.maxEntries {
        throw BackupError.invalidBackup(
          path: url.path, problems: [.tooManyEntries(count: zip.count, limit: limits.maxEntries)])
      }
      source = zip
    }
    self.source = source

    // The container's own listing, a zip's or a directory's: names, kinds, methods; what a
    // file manager adds left out, by one rule for both.
    let listing: [BackupSourceEntry]?
    do { listing = try source.allEntries()?.filter { !BackupChecks.isFileManagers($0) } } catch let error
      as ZipError
    {
      throw BackupError.cannotOpen(path: url.path, reason: Self.reason(error))
    } catch let error as DirectoryBackupSource.TooManyEntries {
      throw BackupError.invalidBackup(
        path: url.path, problems: [.tooManyEntries(count: error.counted, limit: limits.maxEntries)])
    }
    if let listing {
      for entry in listing where !entry.isUTF8 {
        problems.append(.unsafeName(entry.name, reason: "is not UTF-8"))
      }
      problems += BackupChecks.nameProblems(listing.filter(\.isUTF8).map(\.name))
      for entry in listing {
        if entry.isSymbolicLink { problems.append(.symbolicLink(entry.name)) }
        if let reason = entry.notRegular { problems.append(.unreadable(entry.name, reason: reason)) }
        if entry.isEncrypted { problems.append(.encrypted(entry.name)) }
        if let method = entry.method, method != 0, method != 8, !entry.isEncrypted {
          problems.append(.unsupportedMethod(entry.name, method: method))
        }
      }
    }

    // The manifest, first of the contents.
    guard let manifestEntry = try? source.entry(named: BackupManifest.manifestPath) else {
      // Not a backup; when its entries are hostile too, say so rather than only that.
      if !problems.isEmpty {
        throw BackupError.invalidBackup(
          path: url.path, problems: problems + [.missing(BackupManifest.manifestPath)])
      }
      throw BackupError.missingManifest(path: url.path)
    }
    if manifestEntry.isSymbolicLink || manifestEntry.notRegular != nil {
      throw BackupError.invalidManifest(
        path: url.path, reason: "manifest.json is not a regular file")
    }
    var manifestData = Data()
    do {
      try source.read(manifestEntry, limit: limits.maxManifestBytes) {
        manifestData.append(contentsOf: $0)
      }
    } catch let error as ZipError {
      throw BackupError.invalidManifest(path: url.path, reason: Self.reason(error))
    }
    let decoder = JSONCoding.decoder()
    let header: BackupManifestHeader
    do { header = try decoder.decode(BackupManifestHeader.self, from: manifestData) } catch {
      let json = try? decoder.decode(JSONValue.self, from: manifestData)
      throw BackupError.invalidManifest(path: url.path, reason: DecodingProblem(error, in: json).description)
    }
    guard header.format == BackupManifest.formatName else {
      throw BackupError.invalidManifest(
        path: url.path,
        reason: "format is \(LineText.quoted(header.format)), not \"\(BackupManifest.formatName)\"")
    }
    guard header.formatVersion <= Backup.formatVersion else {
      throw BackupError.newerFormat(
        path: url.path, found: header.formatVersion, known: Backup.formatVersion)
    }
    guard header.formatVersion >= 1 else {
      throw BackupError.invalidManifest(
        path: url.path,
        reason: "formatVersion \(header.formatVersion) does not exist (the first is 1)")
    }
    formatVersion = header.formatVersion
    var current = manifestData
    do {
      current = try BackupMigrations.migrate(manifestData, from: header.formatVersion, document: \.manifest)
      manifest = try decoder.decode(BackupManifest.self, from: current)
    } catch let failure as BackupMigrations.Failure {
      throw BackupError.invalidManifest(path: url.path, reason: failure.reason)
    } catch {
      let json = try? decoder.decode(JSONValue.self, from: current)
      throw BackupError.invalidManifest(path: url.path, reason: DecodingProblem(error, in: json).description)
    }

    // The manifest against itself and against the listing. A name both lists hold is checked
    // in each; a problem the listing showed already (an unsafe name) is reported once.
    let found = Set(problems)
    problems += BackupChecks.manifestProblems(manifest, limits: limits).filter { !found.contains($0) }
    let listed = Set(manifest.files.map(\.path))
    if let listing {
      for entry in listing {
        let name = entry.name
        if name == BackupManifest.manifestPath || listed.contains(name) { continue }
        // A directory entry for attachments/, as Info-ZIP's `zip -r` writes.
        if name == BackupManifest.attachmentsDirectory, entry.size == 0 { continue }
        problems.append(.unlisted(name))
      }
    }
    for file in manifest.files {
      guard let entry = try? source.entry(named: file.path) else {
        // A path the manifest may not list at all (unsafe, or of no form a backup holds) is
        // said once, as that; only a path it may list is missing.
        if BackupChecks.unsafeReason(file.path) == nil,
          file.path == BackupManifest.libraryPath
            || file.path.hasPrefix(BackupManifest.attachmentsDirectory)
        {
          problems.append(.missing(file.path))
        }
        continue
      }
      if listing == nil, entry.isSymbolicLink { problems.append(.symbolicLink(file.path)) }
      if listing == nil, let reason = entry.notRegular {
        problems.append(.unreadable(file.path, reason: reason))
      }
      if !entry.isSymbolicLink, entry.notRegular == nil, entry.size != file.size {
        problems.append(.sizeMismatch(file.path, expected: file.size, found: entry.size))
      }
      // library.json is exempt: it is capped at `maxLibraryBytes` instead, and deflate's
      // own limit (about 1032:1) is reachable by an honest one (a long field of one letter).
      if let compressed = entry.compressedSize, entry.size >= limits.ratioFloorBytes,
        file.path != BackupManifest.libraryPath
      {
        let ratio = compressed > 0 ? entry.size / compressed : Int64.max
        if ratio > limits.maxCompressionRatio {
          problems.append(
            .compressionRatio(file.path, ratio: ratio, limit: limits.maxCompressionRatio))
        }
      }
    }
    structuralProblems = problems
  }

  /// What `readLibrary()` found.
  struct LibraryRead {
    /// The items of `library.json` that decoded (all of them when `problems` is empty).
    var library: Library
    /// Every problem: of reading (size, digest, CRC), of syntax, of decoding items (the
    /// first 20, then a count), then those `LibraryCheck` finds of the items that decoded.
    var problems: [BackupProblem]
  }

  /// What `checkLibrary(now:visit:)` found.
  struct LibraryCheckResult {
    /// Every problem, as `LibraryRead.problems`.
    var problems: [BackupProblem]
    /// The items of each kind (`attachments` 0, `tools` 0 when there are none).
    var counts: BackupManifest.Counts
  }

  /// Reads `library.json` item by item, at most to its manifest size (itself capped at
  /// `limits.maxLibraryBytes`, checked before reading), checking its size and SHA-256 as it
  /// is read, decodes each item with the models' own `Codable` conformances as soon as it is
  /// read (`LibraryDocumentReader`), and checks the items (`LibraryCheck`) as they come.
  ///
  /// Each item is decoded on its own, so that one bad yarn does not hide the others: every
  /// item that does not decode is reported (the first 20 by their path, such as
  /// `yarns[3].quantity`, then a count), then the rules and references of those that did. A problem of reading (size, digest, CRC) is the only
  /// one reported; so is a document that is not JSON, or not an object of the arrays.
  ///
  /// A document of an older format version is read whole, upgraded (`BackupMigrations`) and
  /// then read item by item: memory O(its size) for such a backup (none exists yet: version
  /// 1 is the first).
  ///
  /// - Complexity: memory O(the largest item + the IDs and references `LibraryCheck`
  ///   keeps), not O(size of `library.json`).
  ///
  /// - Parameters:
  ///   - now: the present instant, for the rule that no session is in the future.
  ///   - visit: called with each item that decoded, in the file's order, and whether
  ///     nothing was found wrong so far (this item's own checks included). Items visited may
  ///     come from a document refused later (its digest, its end): a caller that acts on
  ///     them must undo that when `problems` is not empty.
  /// - Throws: `CancellationError` when the current task is cancelled (checked before each
  ///   piece of the file read), the rest of the file not read.
  func checkLibrary(
    now: Date = Date(), visit: @escaping (LibraryItem, _ soundSoFar: Bool) -> Void = { _, _ in }
  ) throws -> LibraryCheckResult {
    let check = LibraryCheck(manifest: manifest, now: now)
    let reader = LibraryDocumentReader(
      check: check, maxItemBytes: limits.maxItemBytes, visit: visit)
    let problems = try read(into: reader)
    let counts = check.counts
    return LibraryCheckResult(
      problems: problems,
      counts: BackupManifest.Counts(
        yarns: counts.yarns, projects: counts.projects, notes: counts.notes,
        sessions: counts.sessions, attachments: 0, tools: counts.tools ?? 0))
  }

  /// `checkLibrary(now:)`, keeping the items: the whole library in memory (for a merge,
  /// which compares every item with the library's before changing anything).
  func readLibrary(now: Date = Date()) throws -> LibraryRead {
    var library = Library()
    let problems = try checkLibrary(now: now) { item, _ in library.append(item) }.problems
    return LibraryRead(library: library, problems: problems)
  }

  /// Reads again the items of `arrays` of a `library.json` that `checkLibrary` found sound,
  /// handing each to `visit` in the file's order; the other arrays are skipped, and nothing is
  /// checked but the size and SHA-256 (the same bytes), and that each item decodes.
  ///
  /// - Returns: the problems found (none, unless the file changed since it was checked).
  func readItems(_ arrays: Set<LibraryArray>, visit: @escaping (LibraryItem) -> Void) throws
    -> [BackupProblem]
  {
    let reader = LibraryDocumentReader(
      arrays: arrays, validating: false, check: nil, maxItemBytes: limits.maxItemBytes
    ) { item, _ in visit(item) }
    return try read(into: reader)
  }

  /// Feeds `library.json` to `reader`; every problem found.
  ///
  /// - Throws: `CancellationError` when the current task is cancelled (checked before each
  ///   piece read), the rest of the file not read.
  private func read(into reader: LibraryDocumentReader) throws -> [BackupProblem] {
    guard let file = manifest.files.first(where: { $0.path == BackupManifest.libraryPath }) else {
      return [.missing(BackupManifest.libraryPath)]
    }
    guard file.size <= limits.maxLibraryBytes else {
      return [.tooLarge(file.path, limit: limits.maxLibraryBytes)]
    }
    guard formatVersion != Backup.formatVersion else {
      if let problem = try readVerified(file, { reader.feed($0) }) { return [problem] }
      return Self.locatingSyntax(reader.finish()) { locator in
        // Read up to the place only.
        struct Found: Error {}
        _ = try? readVerified(file) {
          locator.feed($0)
          if locator.place != nil { throw Found() }
        }
      }
    }
    // An older format: read whole and upgraded first.
    var data = Data()
    data.reserveCapacity(Int(max(0, file.size)))
    if let problem = try readVerified(file, { data.append(contentsOf: $0) }) { return [problem] }
    do {
      data = try BackupMigrations.migrate(data, from: formatVersion, document: \.library)
    } catch let failure as BackupMigrations.Failure {
      return [
        .invalidLibrary(
          reason: "cannot upgrade it from format version \(formatVersion): \(failure.reason)")
      ]
    } catch {
      return [.invalidLibrary(reason: String(describing: error))]
    }
    data.withUnsafeBytes { reader.feed($0) }
    return Self.locatingSyntax(reader.finish()) { $0.feed(data) }
  }

  /// `problems`, where a document that is not JSON is said where (`not JSON at line 4, column
  /// 6: unexpected ','`, `DecodingProblem.syntaxError`): its bytes are read again by `read`
  /// into a `JSONSyntaxLocator`, on this path only, so that reading a sound document costs
  /// nothing more. Unchanged when the place is not found.
  static func locatingSyntax(
    _ problems: [BackupProblem], read: (inout JSONSyntaxLocator) -> Void
  ) -> [BackupProblem] {
    guard problems == [.invalidLibrary(reason: LibraryDocumentReader.notJSON)] else { return problems }
    var locator = JSONSyntaxLocator()
    read(&locator)
    locator.finish()
    guard let reason = DecodingProblem.syntaxError(locator.place) else { return problems }
    return [.invalidLibrary(reason: reason)]
  }

  /// Decodes `library.json`'s bytes, each item on its own: the items that decoded, and a
  /// problem for each that did not (the first 20 by their path, such as `yarns[3].quantity`,
  /// then a count) or for a document that is not JSON or not an object of the arrays
  /// (`LibraryDocumentReader`, without `LibraryCheck`).
  static func decode(_ data: Data, limits: BackupLimits = .standard) -> LibraryRead {
    var library = Library()
    let reader = LibraryDocumentReader(check: nil, maxItemBytes: limits.maxItemBytes) { item, _ in
      library.append(item)
    }
    data.withUnsafeBytes { reader.feed($0) }
    let problems = locatingSyntax(reader.finish()) { $0.feed(data) }
    return LibraryRead(library: library, problems: problems)
  }

  /// Reads one attachment and checks its size and SHA-256; writes it to `destination`
  /// (created exclusively, fsynced) when one is given.
  ///
  /// - Returns: the problem found, or `nil`. A destination written for a bad file is removed.
  /// - Throws: `BackupError.cannotStage` when `destination` cannot be created or written;
  ///   `CancellationError` when the current task is cancelled (checked before each piece read).
  func readAttachment(_ file: BackupManifest.File, to destination: URL?) throws -> BackupProblem? {
    guard let destination else { return try readVerified(file) { _ in } }
    let fd = open(destination.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard fd >= 0 else {
      throw BackupError.cannotStage(path: destination.path, reason: POSIX.errnoText())
    }
    var closed = false
    var keep = false
    defer {
      if !closed { close(fd) }
      if !keep { unlink(destination.path) }
    }
    var writeError: Error?
    let problem = try readVerified(file) { bytes in
      do { try AtomicFile.writeAll(fd, bytes, path: destination.path) } catch {
        writeError = error
        throw error
      }
    }
    if let writeError {
      throw BackupError.cannotStage(path: destination.path, reason: String(describing: writeError))
    }
    if let problem { return problem }
    guard fsync(fd) == 0 else {
      throw BackupError.cannotStage(path: destination.path, reason: POSIX.errnoText())
    }
    closed = true
    guard close(fd) == 0 else {
      throw BackupError.cannotStage(path: destination.path, reason: POSIX.errnoText())
    }
    keep = true
    return nil
  }

  /// Reads the file at most to its manifest size (+ one piece, to see that it is longer),
  /// hashing as it goes, and compares size and digest with the manifest.
  ///
  /// - Throws: `CancellationError` when the current task is cancelled (checked before each
  ///   piece), the rest not read.
  private func readVerified(
    _ file: BackupManifest.File, _ body: (UnsafeRawBufferPointer) throws -> Void
  ) throws -> BackupProblem? {
    guard let entry = try? source.entry(named: file.path) else { return .missing(file.path) }
    let hasher = SHA256Hasher()
    let count: Int64
    do {
      count = try source.read(entry, limit: file.size) { bytes in
        try Task.checkCancellation()
        hasher.update(bytes)
        try body(bytes)
      }
    } catch let error as CancellationError {
      throw error
    } catch ZipError.entryTooLarge {
      return .tooLarge(file.path, limit: file.size)
    } catch let error as ZipError {
      return .unreadable(file.path, reason: Self.reason(error))
    } catch {
      return .unreadable(file.path, reason: String(describing: error))
    }
    if count != file.size { return .sizeMismatch(file.path, expected: file.size, found: count) }
    guard let digest = try? hasher.finalize() else {
      return .unreadable(file.path, reason: "cannot compute its SHA-256")
    }
    if digest != file.sha256 {
      return .digestMismatch(file.path, expected: file.sha256, found: digest)
    }
    return nil
  }

  /// The reason part of a zip error (its path and entry are said by the caller).
  static func reason(_ error: ZipError) -> String {
    switch error {
    case .cannotOpen(_, let reason), .cannotAdd(_, _, let reason), .cannotWrite(_, let reason),
      .cannotRead(_, _, let reason):
      return reason.lowercased()
    case .emptyArchive: return "the archive has no entries"
    case .entryTooLarge(_, _, let limit): return "it holds more than \(limit) bytes"
    }
  }
}

extension Library {
  /// Adds `item` to its array.
  mutating func append(_ item: LibraryItem) {
    switch item {
    case .note(let note): notes.append(note)
    case .project(let project): projects.append(project)
    case .session(let session): sessions.append(session)
    case .tool(let tool): tools.append(tool)
    case .yarn(let yarn): yarns.append(yarn)
    }
  }
}
