import Foundation

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
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
      throw BackupError.notFound(path: url.path)
    }
    var problems: [BackupProblem] = []
    let source: BackupSource
    if isDirectory.boolValue {
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

  /// What reading `library.json` found.
  struct LibraryScan {
    /// Every problem: of reading (size, digest, CRC), of syntax, of decoding items (the first
    /// 20, then a count), and, when every item decoded, of `LibraryCheck`.
    var problems: [BackupProblem]
    /// The copy of `library.json` (upgraded to the current format) written to the staging
    /// directory, to read the items from again; `nil` when none was asked for.
    var staged: URL?
    /// The byte range of each array in `staged`.
    var arrays: [String: Range<Int64>]
    /// The number of items of each array.
    var counts: [String: Int]
  }

  /// The most item decoding problems reported one by one; the rest are counted.
  static let maxItemProblems = 20

  /// Reads `library.json` at most to its manifest size, checking its size and SHA-256, and
  /// splits it into items as it streams (`LibraryJSONScanner`): each item is decoded alone,
  /// checked (`LibraryCheck`) and handed to `observe`, so memory does not grow with the
  /// library. A backup of an older format is read whole, upgraded (`BackupMigrations`), then
  /// split.
  ///
  /// - Parameters:
  ///   - stagingDirectory: where to write a copy (`library.json`) to read the items from
  ///     again with `forEachItem`; `nil` for none.
  ///   - observe: receives each item that decodes (a `Yarn`, `Project`, `Note` or
  ///     `TimeSession`), in file order.
  /// - Throws: `BackupError.cannotStage` when the copy cannot be written; what `observe`
  ///   throws. Problems of the backup itself are returned, not thrown.
  func scanLibrary(
    stagingDirectory: URL?, observe: ((LibraryItem) throws -> Void)? = nil,
    meanwhile: () throws -> Void = {}
  ) throws -> LibraryScan {
    guard let file = manifest.files.first(where: { $0.path == BackupManifest.libraryPath }) else {
      try meanwhile()
      return LibraryScan(
        problems: [.missing(BackupManifest.libraryPath)], staged: nil, arrays: [:], counts: [:])
    }
    guard file.size <= limits.maxLibraryBytes else {
      try meanwhile()
      return LibraryScan(
        problems: [.tooLarge(file.path, limit: limits.maxLibraryBytes)], staged: nil, arrays: [:],
        counts: [:])
    }
    let checker = ItemChecker(manifest: manifest)
    // Without an observer (which may use the store, so it stays on this thread) the items
    // are decoded and checked on a second thread, while this one reads on and then runs
    // `meanwhile` (the attachments).
    let parallel = observe == nil
    let queue = BatchQueue<RawItem>()
    let done = DispatchSemaphore(value: 0)
    if parallel {
      Thread {
        defer { done.signal() }
        while let batch = queue.pop() {
          for raw in batch {
            raw.bytes.withUnsafeBytes { _ = checker.take(key: raw.key, index: raw.index, bytes: $0) }
          }
        }
      }.start()
    }
    var pending: [RawItem] = []
    var observeError: Error?
    let handler: LibraryJSONScanner.Handler = { key, index, bytes in
      if parallel {
        pending.append(RawItem(key: key, index: index, bytes: Array(bytes)))
        if pending.count == BatchQueue<RawItem>.batchSize {
          _ = queue.push(pending)
          pending.removeAll(keepingCapacity: true)
        }
        return
      }
      guard let item = checker.take(key: key, index: index, bytes: bytes), let observe else { return }
      do { try observe(item) } catch {
        observeError = error
        throw error
      }
    }
    var scanner = LibraryJSONScanner(handler: handler)
    var syntax: BackupProblem?
    func scan(_ bytes: UnsafeRawBufferPointer) throws {
      guard syntax == nil else { return }
      do { try scanner.feed(bytes) } catch let error as LibraryJSONSyntaxError {
        syntax = .invalidLibrary(reason: error.description)
      }
    }
    var joined = !parallel
    func join() {
      guard !joined else { return }
      joined = true
      if !pending.isEmpty { _ = queue.push(pending) }
      pending = []
      queue.finish(nil)
      done.wait()
    }
    defer { join() }

    let staged = stagingDirectory?.appendingPathComponent(BackupManifest.libraryPath)
    var fd: Int32 = -1
    if let staged {
      fd = open(staged.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
      guard fd >= 0 else {
        throw BackupError.cannotStage(path: staged.path, reason: AtomicFile.errnoText())
      }
    }
    defer { if fd >= 0 { close(fd) } }
    func stage(_ bytes: UnsafeRawBufferPointer) throws {
      guard fd >= 0, let staged else { return }
      do { try AtomicFile.writeAll(fd, bytes, path: staged.path) } catch {
        throw BackupError.cannotStage(path: staged.path, reason: String(describing: error))
      }
    }

    var readProblem: BackupProblem?
    if formatVersion == Backup.formatVersion {
      var stageError: Error?
      readProblem = readVerified(file) { bytes in
        do { try stage(bytes) } catch {
          stageError = error
          throw error
        }
        try scan(bytes)
      }
      if let error = stageError ?? observeError { throw error }
    } else {
      var data = Data()
      readProblem = readVerified(file) { data.append(contentsOf: $0) }
      if readProblem == nil {
        do {
          let current = try BackupMigrations.migrate(
            data, from: formatVersion, document: \.library)
          try current.withUnsafeBytes { bytes in
            try stage(bytes)
            try scan(bytes)
          }
        } catch let failure as BackupMigrations.Failure {
          readProblem = .invalidLibrary(
            reason: "cannot upgrade it from format version \(formatVersion): \(failure.reason)")
        }
      }
      if let observeError { throw observeError }
    }
    if readProblem == nil, syntax == nil {
      do { try scanner.finish() } catch let error as LibraryJSONSyntaxError {
        syntax = .invalidLibrary(reason: error.description)
      }
    }
    if parallel {
      // Hand over the last items, then do the other work while they are checked.
      if !pending.isEmpty { _ = queue.push(pending) }
      pending = []
    }
    try meanwhile()
    join()
    if let readProblem {
      return LibraryScan(problems: [readProblem], staged: nil, arrays: [:], counts: [:])
    }
    let problems = syntax.map { [$0] + checker.problems(checkingReferences: false) } ?? checker.problems()
    return LibraryScan(
      problems: problems, staged: staged, arrays: scanner.arrays, counts: scanner.counts)
  }

  /// Reads the items of one array of a staged `library.json` again, decoding each.
  ///
  /// - Throws: `BackupError.cannotStage` when the staged file cannot be read;
  ///   `BackupError.invalidBackup` if it no longer splits or decodes (it was checked by
  ///   `scanLibrary`); what `body` throws.
  func forEachItem(
    of key: String, in scan: LibraryScan, _ body: (LibraryItem) throws -> Void
  ) throws {
    guard let staged = scan.staged, let range = scan.arrays[key] else { return }
    // The file is read and the items decoded on a second thread, a few hundred at a time,
    // while `body` (the store's inserts) runs on this one: a restore's two halves overlap.
    let queue = BatchQueue<LibraryItem>()
    let done = DispatchSemaphore(value: 0)
    let path = url.path
    let worker = Thread {
      defer { done.signal() }
      do {
        var batch: [LibraryItem] = []
        batch.reserveCapacity(BatchQueue<LibraryItem>.batchSize)
        try BackupReader.readItems(of: key, from: staged, range: range, backupPath: path) { item in
          batch.append(item)
          if batch.count == BatchQueue<LibraryItem>.batchSize {
            guard queue.push(batch) else { throw CancellationError() }
            batch.removeAll(keepingCapacity: true)
          }
        }
        if !batch.isEmpty { _ = queue.push(batch) }
        queue.finish(nil)
      } catch {
        queue.finish(error)
      }
    }
    worker.start()
    do {
      while let batch = queue.pop() {
        for item in batch { try body(item) }
      }
    } catch {
      queue.cancel()
      done.wait()
      throw error
    }
    done.wait()
    if let failure = queue.failure { throw failure }
  }

  /// Reads the array `key` at `range` of the staged `library.json` and decodes each item.
  ///
  /// - Throws: `BackupError.cannotStage` when the file cannot be read;
  ///   `BackupError.invalidBackup` if it no longer splits or decodes; what `deliver` throws.
  static func readItems(
    of key: String, from staged: URL, range: Range<Int64>, backupPath: String,
    deliver: (LibraryItem) throws -> Void
  ) throws {
    let fd = open(staged.path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      throw BackupError.cannotStage(path: staged.path, reason: AtomicFile.errnoText())
    }
    defer { close(fd) }
    try withoutActuallyEscaping(deliver) { deliver in
      var deliverError: Error?
      let decoder = JSONCoding.decoder()
      var scanner = LibraryJSONScanner(mode: .array(key: key)) { key, _, bytes in
        let item = try LibraryJSON.decodeItem(key: key, from: bytes, with: decoder)
        do { try deliver(item) } catch {
          deliverError = error
          throw error
        }
      }
      let capacity = 1 << 20
      let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
      defer { buffer.deallocate() }
      var position = range.lowerBound
      do {
        while position < range.upperBound {
          let wanted = Int(min(Int64(capacity), range.upperBound - position))
          let n = pread(fd, buffer, wanted, off_t(position))
          if n < 0, errno == EINTR { continue }
          guard n > 0 else {
            throw BackupError.cannotStage(
              path: staged.path, reason: n < 0 ? AtomicFile.errnoText() : "it ends too early")
          }
          try scanner.feed(UnsafeRawBufferPointer(start: buffer, count: n))
          position += Int64(n)
        }
        try scanner.finish()
      } catch {
        if let deliverError { throw deliverError }
        if let error = error as? BackupError { throw error }
        throw BackupError.invalidBackup(
          path: backupPath,
          problems: [.invalidLibrary(reason: BackupChecks.describe(error, prefix: key))])
      }
    }
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
      throw BackupError.cannotStage(path: destination.path, reason: AtomicFile.errnoText())
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
      throw BackupError.cannotStage(path: destination.path, reason: AtomicFile.errnoText())
    }
    closed = true
    guard close(fd) == 0 else {
      throw BackupError.cannotStage(path: destination.path, reason: AtomicFile.errnoText())
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

/// Batches handed from one thread to another (decoded items from the reading thread to the
/// inserting one; item bytes from the reading thread to the checking one): at most
/// `capacity` batches wait (memory stays bounded); either side can end it.
///
/// `@unchecked Sendable` because every stored property is read and written only while
/// `condition` is locked: the lock, not the compiler, makes it safe to share.
final class BatchQueue<Element>: @unchecked Sendable {
  static var batchSize: Int { 512 }
  private let capacity = 8
  private let condition = NSCondition()
  private var batches: [[Element]] = []
  private var finished = false
  private var cancelled = false
  /// Why the reading side stopped early, once it has finished.
  private(set) var failure: Error?

  /// Waits for room, then adds `batch`; `false` when the consumer cancelled.
  func push(_ batch: [Element]) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while batches.count >= capacity, !cancelled { condition.wait() }
    guard !cancelled else { return false }
    batches.append(batch)
    condition.broadcast()
    return true
  }

  /// Says that no more batches come (`error` when reading failed).
  func finish(_ error: Error?) {
    condition.lock()
    defer { condition.unlock() }
    finished = true
    failure = error
    condition.broadcast()
  }

  /// Waits for the next batch; `nil` when the producer has finished and all were taken.
  func pop() -> [Element]? {
    condition.lock()
    defer { condition.unlock() }
    while batches.isEmpty, !finished { condition.wait() }
    guard !batches.isEmpty else { return nil }
    let batch = batches.removeFirst()
    condition.broadcast()
    return batch
  }

  /// Stops the producer at its next push.
  func cancel() {
    condition.lock()
    defer { condition.unlock() }
    cancelled = true
    condition.broadcast()
  }
}

/// An item's bytes on their way to the checking thread.
struct RawItem: Sendable {
  var key: String
  var index: Int
  var bytes: [UInt8]
}

/// Decodes items and checks them (`LibraryCheck`), collecting the problems: used by one
/// thread at a time (the reading one, or the checking one until it is joined).
///
/// `@unchecked Sendable` because it is handed to the checking thread and back, never used by
/// two threads at once: the thread's join orders every access.
final class ItemChecker: @unchecked Sendable {
  private let check: LibraryCheck
  private let decoder = JSONCoding.decoder()
  private var itemProblems: [BackupProblem] = []
  private var failedItems = 0

  init(manifest: BackupManifest) { check = LibraryCheck(manifest: manifest) }

  /// Decodes and checks one item; `nil` (and a problem recorded) when it does not decode.
  func take(key: String, index: Int, bytes: UnsafeRawBufferPointer) -> LibraryItem? {
    let item: LibraryItem
    do {
      item = try LibraryJSON.decodeItem(key: key, from: bytes, with: decoder)
    } catch {
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
