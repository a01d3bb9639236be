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

/// Reads and verifies a backup — a zip or a directory — without touching any library: the
/// pure half of restore and the whole of verify.
///
/// `init` opens the container, checks every entry's name and kind, reads `manifest.json`
/// (refusing a newer format), and compares the manifest with the container's listing and
/// claimed sizes. No other entry is read yet, so a zip bomb or a traversal archive is refused
/// after reading at most the manifest. `readLibrary()` and `readAttachment(_:to:)` then read
/// with a cap of each file's manifest size and check size and SHA-256.
///
/// Not `Sendable`: it owns a libzip handle.
final class BackupReader {
  /// The backup's path.
  let url: URL
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

  /// Opens the backup at `url` (a zip file, or a directory holding the files of one).
  ///
  /// - Throws: `BackupError.notFound` when nothing is there; `BackupError.cannotOpen` when it
  ///   is neither a zip nor a directory; `BackupError.invalidBackup` when
  ///   the archive has more entries than `limits.maxEntries` (nothing else is looked at), or
  ///   has no manifest and unsafe entries (listed with `.missing("manifest.json")`);
  ///   `BackupError.missingManifest`; `BackupError.invalidManifest`;
  ///   `BackupError.newerFormat` when `formatVersion` > `Backup.formatVersion`.
  init(url: URL, limits: BackupLimits = .standard) throws {
    self.url = url
    self.limits = limits
    var info = stat()
    guard stat(url.path, &info) == 0 else { throw BackupError.notFound(path: url.path) }
    var problems: [BackupProblem] = []
    let source: BackupSource
    if info.st_mode & S_IFMT == S_IFDIR {
      source = DirectoryBackupSource(url: url)
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

    // The container's own listing (zip only): names, kinds, methods.
    let listing: [BackupSourceEntry]?
    do { listing = try source.allEntries() } catch let error as ZipError {
      throw BackupError.cannotOpen(path: url.path, reason: Self.reason(error))
    }
    if let listing {
      problems += BackupChecks.nameProblems(listing.map(\.name))
      for entry in listing {
        if entry.isSymbolicLink { problems.append(.symbolicLink(entry.name)) }
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
      throw BackupError.invalidManifest(path: url.path, reason: BackupChecks.describe(error))
    }
    guard header.format == BackupManifest.formatName else {
      throw BackupError.invalidManifest(
        path: url.path,
        reason: "format is \"\(header.format)\", not \"\(BackupManifest.formatName)\"")
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
    do {
      let current = try BackupMigrations.migrate(
        manifestData, from: header.formatVersion, document: \.manifest)
      manifest = try decoder.decode(BackupManifest.self, from: current)
    } catch let failure as BackupMigrations.Failure {
      throw BackupError.invalidManifest(path: url.path, reason: failure.reason)
    } catch {
      throw BackupError.invalidManifest(path: url.path, reason: BackupChecks.describe(error))
    }

    // The manifest against itself and against the listing.
    problems += BackupChecks.manifestProblems(manifest, limits: limits)
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
        problems.append(.missing(file.path))
        continue
      }
      if listing == nil, entry.isSymbolicLink { problems.append(.symbolicLink(file.path)) }
      if let reason = entry.notRegular {
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

  /// What reading `library.json` (and the attachments) found.
  struct LibraryScan {
    /// Every problem: of reading (size, digest, CRC), of syntax, of decoding items (the first
    /// 20, then a count), and, when every item decoded, of `LibraryCheck`.
    var problems: [BackupProblem]
    /// The problems of the attachments (size, digest, CRC), in manifest order.
    var attachmentProblems: [BackupProblem] = []
    /// The copy of `library.json` (upgraded to the current format) written to the staging
    /// directory, to read the items from again; `nil` when none was asked for.
    var staged: URL?
    /// The byte range of each array in `staged`.
    var arrays: [String: Range<Int64>]
    /// The number of items of each array.
    var counts: [String: Int]
  }

  /// What `scanLibrary` does with the attachments.
  enum AttachmentPass {
    /// Nothing.
    case skip
    /// Reads and checks each one.
    case check
    /// Reads and checks each one, and writes it (fsynced) to this directory, named by its
    /// SHA-256.
    case stage(URL)
    /// As `stage`, then hands each good one to the placer (on the attachments' thread).
    case stageAndPlace(URL, AttachmentPlacer)
  }

  /// The most item decoding problems reported one by one; the rest are counted.
  static let maxItemProblems = 20

  /// Reads `library.json` at most to its manifest size, checking its size and SHA-256, and
  /// splits it into items as it streams (`LibraryJSONScanner`), so memory does not grow with
  /// the library. A backup of an older format is read whole, upgraded (`BackupMigrations`),
  /// then split.
  ///
  /// Three things run at once: this file is read and split on a thread of its own; the
  /// items are decoded on every core, a batch at a time (`ParallelWork`); the attachments
  /// are read (and staged) on a third thread through a second handle on the backup. This
  /// thread checks each decoded item (`LibraryCheck`) and hands it to `observe`, in file
  /// order, so `observe` may use a store.
  ///
  /// - Parameters:
  ///   - stagingDirectory: where to write a copy (`library.json`) to read the items from
  ///     again with `forEachItem`; `nil` for none.
  ///   - attachments: what to do with the attachments meanwhile.
  ///   - observe: receives each item that decodes (a `Yarn`, `Project`, `Note` or
  ///     `TimeSession`), in file order.
  /// - Throws: `BackupError.cannotStage` when a copy cannot be written; what `observe`
  ///   throws. Problems of the backup itself are returned, not thrown.
  func scanLibrary(
    stagingDirectory: URL?, attachments: AttachmentPass = .skip,
    observe: ((LibraryItem) throws -> Void)? = nil
  ) throws -> LibraryScan {
    // The attachments, on their own thread and their own handle on the backup.
    var attachmentProblems: [BackupProblem] = []
    var attachmentError: Error?
    var attachmentsDone: DispatchSemaphore?
    if case .skip = attachments {
    } else if !attachmentFiles.isEmpty {
      let task = UncheckedSendable {
        var placer: AttachmentPlacer?
        do {
          var directory: URL?
          switch attachments {
          case .skip, .check: break
          case .stage(let folder): directory = folder
          case .stageAndPlace(let folder, let given):
            directory = folder
            placer = given
          }
          let second = try self.reopen()
          for file in self.attachmentFiles {
            let destination = directory?.appendingPathComponent(file.sha256)
            if let problem = try second.readAttachment(file, to: destination) {
              attachmentProblems.append(problem)
            } else if let placer, let destination {
              try placer.place(file, stagedAt: destination)
            }
          }
          placer?.finish()
        } catch {
          attachmentError = error
        }
      }
      attachmentsDone = ParallelWork.thread("yarn.backup.attachments") { task.value() }
    }
    defer { attachmentsDone?.wait() }

    guard let file = manifest.files.first(where: { $0.path == BackupManifest.libraryPath }) else {
      attachmentsDone?.wait()
      attachmentsDone = nil
      if let attachmentError { throw attachmentError }
      return LibraryScan(
        problems: [.missing(BackupManifest.libraryPath)], attachmentProblems: attachmentProblems,
        staged: nil, arrays: [:], counts: [:])
    }
    guard file.size <= limits.maxLibraryBytes else {
      attachmentsDone?.wait()
      attachmentsDone = nil
      if let attachmentError { throw attachmentError }
      return LibraryScan(
        problems: [.tooLarge(file.path, limit: limits.maxLibraryBytes)],
        attachmentProblems: attachmentProblems, staged: nil, arrays: [:], counts: [:])
    }

    let staged = stagingDirectory?.appendingPathComponent(BackupManifest.libraryPath)
    var fd: Int32 = -1
    if let staged {
      fd = open(staged.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
      guard fd >= 0 else {
        throw BackupError.cannotStage(path: staged.path, reason: POSIX.errnoText())
      }
    }
    defer { if fd >= 0 { close(fd) } }
    func stage(_ bytes: UnsafeRawBufferPointer) throws {
      guard fd >= 0, let staged else { return }
      do { try AtomicFile.writeAll(fd, bytes, path: staged.path) } catch {
        throw BackupError.cannotStage(path: staged.path, reason: String(describing: error))
      }
    }

    // Reading and splitting, on the producing thread.
    var readProblem: BackupProblem?
    var syntax: BackupProblem?
    var arrays: [String: Range<Int64>] = [:]
    var counts: [String: Int] = [:]
    let produce = { (emit: @escaping LibraryJSONScanner.Handler) throws in
      var scanner = LibraryJSONScanner(handler: emit)
      func scan(_ bytes: UnsafeRawBufferPointer) throws {
        guard syntax == nil else { return }
        do { try scanner.feed(bytes) } catch let error as LibraryJSONSyntaxError {
          syntax = .invalidLibrary(reason: error.description)
        }
      }
      if self.formatVersion == Backup.formatVersion {
        var stageError: Error?
        readProblem = self.readVerified(file) { bytes in
          do { try stage(bytes) } catch {
            stageError = error
            throw error
          }
          try scan(bytes)
        }
        if let stageError { throw stageError }
      } else {
        var data = Data()
        readProblem = self.readVerified(file) { data.append(contentsOf: $0) }
        if readProblem == nil {
          do {
            let current = try BackupMigrations.migrate(
              data, from: self.formatVersion, document: \.library)
            try current.withUnsafeBytes { bytes in
              try stage(bytes)
              try scan(bytes)
            }
          } catch let failure as BackupMigrations.Failure {
            readProblem = .invalidLibrary(
              reason:
                "cannot upgrade it from format version \(self.formatVersion): \(failure.reason)")
          }
        }
      }
      if readProblem == nil, syntax == nil {
        do { try scanner.finish() } catch let error as LibraryJSONSyntaxError {
          syntax = .invalidLibrary(reason: error.description)
        }
      }
      arrays = scanner.arrays
      counts = scanner.counts
    }

    // Checking (and observing), on this thread.
    let checker = ItemChecker(manifest: manifest)
    try withoutActuallyEscaping(produce) { produce in
      try BackupReader.decodeInOrder(produce: produce) { key, index, result in
        guard let item = checker.take(key: key, index: index, result) else { return }
        try observe?(item)
      }
    }
    attachmentsDone?.wait()
    attachmentsDone = nil
    if let attachmentError { throw attachmentError }
    if let readProblem {
      return LibraryScan(
        problems: [readProblem], attachmentProblems: attachmentProblems, staged: nil,
        arrays: [:], counts: [:])
    }
    let problems =
      syntax.map { [$0] + checker.problems(checkingReferences: false) } ?? checker.problems()
    return LibraryScan(
      problems: problems, attachmentProblems: attachmentProblems, staged: staged, arrays: arrays,
      counts: counts)
  }

  /// A second reader of the same backup, for reading attachments on another thread while
  /// this one reads `library.json` (a libzip handle serves one thread). Its checks are not
  /// repeated: the attachments it reads are still each capped at their manifest size and
  /// checked against their SHA-256.
  private func reopen() throws -> BackupReader {
    try BackupReader(
      url: url, limits: limits, manifest: manifest, formatVersion: formatVersion,
      isDirectory: source is DirectoryBackupSource)
  }

  private init(
    url: URL, limits: BackupLimits, manifest: BackupManifest, formatVersion: Int,
    isDirectory: Bool
  ) throws {
    self.url = url
    self.limits = limits
    self.manifest = manifest
    self.formatVersion = formatVersion
    structuralProblems = []
    if isDirectory {
      source = DirectoryBackupSource(url: url)
    } else {
      do { source = try ZipBackupSource(url: url) } catch let error as ZipError {
        throw BackupError.cannotOpen(path: url.path, reason: Self.reason(error))
      }
    }
  }

  /// Splits and decodes items on several threads and hands them to `consume` in order, on
  /// this thread: `produce` runs on a thread of its own and calls `emit` with each item's
  /// bytes; the items are decoded on `ParallelWork.workers`, `ParallelWork.batchSize` at a
  /// time, each batch by a `JSONDecoder` of its own; at most `ParallelWork.inFlight` batches
  /// are in flight (memory stays bounded).
  ///
  /// - Throws: what `produce` or `consume` throw (`consume`'s first; `produce` is then
  ///   stopped at its next batch).
  static func decodeInOrder(
    produce: (_ emit: @escaping LibraryJSONScanner.Handler) throws -> Void,
    consume: (_ key: String, _ index: Int, Result<LibraryItem, Error>) throws -> Void
  ) throws {
    try withoutActuallyEscaping(produce) { produce in
      let queue = BatchQueue<DecodedBatch>(capacity: ParallelWork.inFlight)
      let task = UncheckedSendable {
        var key = ""
        var first = 0
        var raw: [[UInt8]] = []
        func send() throws {
          guard !raw.isEmpty else { return }
          let items = raw
          let batchKey = key
          raw = []
          raw.reserveCapacity(ParallelWork.batchSize)
          let slot = WorkSlot.start {
            let decoder = JSONCoding.decoder()
            return items.map { bytes in
              Result {
                try bytes.withUnsafeBytes {
                  try LibraryJSON.decodeItem(key: batchKey, from: $0, with: decoder)
                }
              }
            }
          }
          guard queue.push(DecodedBatch(key: batchKey, first: first, slot: slot)) else {
            throw CancellationError()
          }
        }
        do {
          try produce { itemKey, index, bytes in
            if itemKey != key || raw.count == ParallelWork.batchSize {
              try send()
              key = itemKey
              first = index
            }
            raw.append(Array(bytes))
          }
          try send()
          queue.finish(nil)
        } catch {
          queue.finish(error)
        }
      }
      let producer = ParallelWork.thread("yarn.backup.library") { task.value() }
      do {
        while let batch = queue.pop() {
          for (offset, result) in try batch.slot.take().enumerated() {
            try consume(batch.key, batch.first + offset, result)
          }
        }
      } catch {
        queue.cancel()
        producer.wait()
        throw error
      }
      producer.wait()
      if let failure = queue.failure { throw failure }
    }
  }

  /// Reads the items of one array of a staged `library.json` again, decoding each (on
  /// several threads, as `decodeInOrder`).
  ///
  /// - Throws: `BackupError.cannotStage` when the staged file cannot be read;
  ///   `BackupError.invalidBackup` if it no longer splits or decodes (it was checked by
  ///   `scanLibrary`); what `body` throws.
  func forEachItem(
    of key: String, in scan: LibraryScan, _ body: (LibraryItem) throws -> Void
  ) throws {
    guard let staged = scan.staged, let range = scan.arrays[key] else { return }
    let path = url.path
    func invalid(_ error: Error) -> BackupError {
      BackupError.invalidBackup(
        path: path, problems: [.invalidLibrary(reason: BackupChecks.describe(error, prefix: key))])
    }
    do {
      try BackupReader.decodeInOrder { emit in
        do {
          try BackupReader.readArray(of: key, from: staged, range: range, emit: emit)
        } catch let error as BackupError {
          throw error
        } catch {
          throw invalid(error)
        }
      } consume: { _, _, result in
        switch result {
        case .success(let item): try body(item)
        case .failure(let error): throw invalid(error)
        }
      }
    }
  }

  /// Reads the array `key` at `range` of the staged `library.json` and splits it.
  ///
  /// - Throws: `BackupError.cannotStage` when the file cannot be read;
  ///   `LibraryJSONSyntaxError` if it no longer splits; what `emit` throws.
  static func readArray(
    of key: String, from staged: URL, range: Range<Int64>,
    emit: @escaping LibraryJSONScanner.Handler
  ) throws {
    let fd = open(staged.path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      throw BackupError.cannotStage(path: staged.path, reason: POSIX.errnoText())
    }
    defer { close(fd) }
    var scanner = LibraryJSONScanner(mode: .array(key: key), handler: emit)
    let capacity = 1 << 20
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
    defer { buffer.deallocate() }
    var position = range.lowerBound
    while position < range.upperBound {
      let wanted = Int(min(Int64(capacity), range.upperBound - position))
      let n = pread(fd, buffer, wanted, off_t(position))
      if n < 0, errno == EINTR { continue }
      guard n > 0 else {
        throw BackupError.cannotStage(
          path: staged.path, reason: n < 0 ? POSIX.errnoText() : "it ends too early")
      }
      try scanner.feed(UnsafeRawBufferPointer(start: buffer, count: n))
      position += Int64(n)
    }
    try scanner.finish()
  }

  /// Reads one attachment and checks its size and SHA-256; writes it to `destination`
  /// (created exclusively, fsynced) when one is given.
  ///
  /// - Returns: the problem found, or `nil`. A destination written for a bad file is removed.
  /// - Throws: `BackupError.cannotStage` when `destination` cannot be created or written.
  func readAttachment(_ file: BackupManifest.File, to destination: URL?) throws -> BackupProblem? {
    guard let destination else { return readVerified(file) { _ in } }
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
    let problem = readVerified(file) { bytes in
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
  private func readVerified(
    _ file: BackupManifest.File, _ body: (UnsafeRawBufferPointer) throws -> Void
  ) -> BackupProblem? {
    guard let entry = try? source.entry(named: file.path) else { return .missing(file.path) }
    let hasher = SHA256Hasher()
    let count: Int64
    do {
      count = try source.read(entry, limit: file.size) { bytes in
        hasher.update(bytes)
        try body(bytes)
      }
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

/// Moves staged attachments into a store, on the attachments' thread, while a one-pass
/// restore inserts its items on another, and remembers where they went (to take them out
/// again if the restore fails).
///
/// `@unchecked Sendable` only for `move` and `folders`, which are used on the attachments'
/// thread alone (`place`, `finish`); the list of moved files is `Locked`.
final class AttachmentPlacer: @unchecked Sendable {
  private let move: (BackupManifest.File, URL) throws -> URL?
  private let moved = Locked<[URL]>([])
  private var folders = Set<String>()

  /// - Parameter move: moves a staged file into the store; returns where it went (`nil`
  ///   when it was not moved).
  init(move: @escaping (BackupManifest.File, URL) throws -> URL?) {
    self.move = move
  }

  /// Makes the moves durable: fsyncs each folder a file was moved into, then the folders
  /// holding those (the store's `attachments`, whose shard folders may be new). Called on
  /// the attachments' thread once every file is placed, so that these syncs (one per
  /// shard, about 0.5 ms each) wait for the disk while the items are still being decoded,
  /// not after.
  func finish() {
    let parents = Set(folders.map { POSIX.directory(of: $0) })
    for folder in folders.sorted() { AtomicFile.syncDirectory(folder) }
    for parent in parents.sorted() { AtomicFile.syncDirectory(parent) }
  }

  /// The files moved into the store so far.
  var placed: [URL] { moved.withLock { $0 } }

  /// Moves one staged, checked attachment into the store.
  func place(_ file: BackupManifest.File, stagedAt staged: URL) throws {
    guard let target = try move(file, staged) else { return }
    folders.insert(POSIX.directory(of: target.path))
    moved.withLock { $0.append(target) }
  }
}

/// A batch of items being decoded: the key of their array, the index of the first, and
/// the slot their results arrive in.
struct DecodedBatch: Sendable {
  var key: String
  var first: Int
  var slot: WorkSlot<[Result<LibraryItem, Error>]>
}

/// A value (a closure, mostly) handed to a thread that the caller waits for before the
/// value's captures go away; what it touches is not touched by the caller meanwhile.
struct UncheckedSendable<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}

/// Checks decoded items (`LibraryCheck`), collecting the problems; used by one thread.
final class ItemChecker {
  private let check: LibraryCheck
  private var itemProblems: [BackupProblem] = []
  private var failedItems = 0

  init(manifest: BackupManifest) { check = LibraryCheck(manifest: manifest) }

  /// Checks one decoded item; `nil` (and a problem recorded) when it did not decode.
  func take(key: String, index: Int, _ result: Result<LibraryItem, Error>) -> LibraryItem? {
    let item: LibraryItem
    switch result {
    case .success(let decoded): item = decoded
    case .failure(let error):
      failedItems += 1
      if itemProblems.count < BackupReader.maxItemProblems {
        itemProblems.append(
          .invalidLibrary(reason: BackupChecks.describe(error, prefix: "\(key)[\(index)]")))
      }
      return nil
    }
    check.add(item)
    return item
  }

  /// Whether every item so far decoded and nothing was found wrong with one alone (the
  /// references are checked by `problems()` at the end).
  var isClean: Bool { failedItems == 0 && check.isClean }

  /// The decoding problems (the first 20, then a count) or, when every item decoded, the
  /// problems `LibraryCheck` finds.
  func problems(checkingReferences: Bool = true) -> [BackupProblem] {
    var problems = itemProblems
    if failedItems > itemProblems.count {
      problems.append(
        .invalidLibrary(reason: "\(failedItems - itemProblems.count) more items do not decode"))
    }
    return problems.isEmpty && checkingReferences ? check.finish() : problems
  }
}
