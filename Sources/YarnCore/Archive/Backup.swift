import Foundation

/// Backups of a library: one zip (or a directory of the same files) that holds everything —
/// `manifest.json`, `library.json` and `attachments/<sha256>` — and restores to an equal
/// library. The format is specified in docs/FORMAT.md.
///
/// The laws (tested): restoring a backup of library L gives L back, and backup → restore →
/// backup gives a byte-identical `library.json`.
public enum Backup {
  /// The format version this version of yarn writes, and the newest it reads.
  public static let formatVersion = 1

  /// Writes a backup zip of everything in `store` to `url`.
  ///
  /// The library is read in one read transaction; attachments are streamed from the store's
  /// files (memory does not grow with their size) and checked against their SHA-256 as they
  /// are zipped. libzip writes a temporary file; it is fsynced and moved to `url` and the
  /// directory fsynced, so `url` never holds a partial archive, even after `kill -9`.
  ///
  /// - Parameters:
  ///   - generator: what made the backup, for the manifest, such as `yarn 0.1.0`.
  ///   - now: the manifest's `createdAt` (UTC; truncated to whole seconds).
  ///   - force: whether an existing file at `url` may be replaced (default: refuse).
  /// - Returns: the manifest written.
  /// - Throws: `BackupError.destinationExists` when `url` exists and `force` is false;
  ///   `BackupError.attachmentUnavailable` when an attachment's file is missing or differs
  ///   from its record; `BackupError.cannotWrite`; `StoreError` from reading the store.
  /// - Complexity: O(library + attachment bytes) time; memory O(library).
  @discardableResult
  public static func create(
    from store: LibraryStore, to url: URL, generator: String, now: Date, force: Bool = false
  ) throws -> BackupManifest {
    let library = try store.library()
    return try BackupWriter.write(
      library, to: url, generator: generator, now: now, force: force,
      attachmentURL: { store.attachmentURL(sha256: $0) })
  }

  /// Reads the backup at `url` (a zip, or a directory holding the same files) to its end and
  /// checks it without changing anything: every entry's name and kind, the manifest, every
  /// file's size and SHA-256 (reading each zip entry to its end, so libzip checks its CRC),
  /// `library.json` and its references.
  ///
  /// - Returns: the manifest when everything is right.
  /// - Throws: `BackupError.invalidBackup` listing every problem found; `.notFound`, `.cannotOpen`,
  ///   `.missingManifest`, `.invalidManifest`, `.newerFormat` when it cannot get that far.
  @discardableResult
  public static func verify(_ url: URL, limits: BackupLimits = .standard) throws -> BackupManifest {
    let reader = try BackupReader(url: url, limits: limits)
    guard reader.structuralProblems.isEmpty else {
      throw BackupError.invalidBackup(path: url.path, problems: reader.structuralProblems)
    }
    var problems = reader.readLibrary().problems
    for file in reader.attachmentFiles {
      if let problem = try reader.readAttachment(file, to: nil) { problems.append(problem) }
    }
    guard problems.isEmpty else {
      throw BackupError.invalidBackup(path: url.path, problems: problems)
    }
    return reader.manifest
  }

  /// Restores the backup at `url` (a zip, or a directory holding the same files) into
  /// `store`, which must be empty.
  ///
  /// Verifies first: names, kinds and the manifest before reading any data (so hostile
  /// archives are refused at once), then `library.json` and every attachment, each read at
  /// most to its manifest size, checked against its size and SHA-256. Attachments are staged
  /// in a temporary folder inside the library directory, moved into place only when all are
  /// right, and the whole library is inserted in one `write { }` transaction. All or nothing:
  /// after any error the store holds what it held before, and no file of the backup is left
  /// in it. (A process killed mid-restore can leave a `.restore-*` folder or unreferenced
  /// attachment files, never records.)
  ///
  /// - Returns: the backup's manifest.
  /// - Throws: `BackupError.libraryNotEmpty` when `store` holds anything (checked before
  ///   reading and again inside the transaction); `BackupError.invalidBackup` listing every
  ///   problem found; `.notFound`, `.cannotOpen`, `.missingManifest`, `.invalidManifest`,
  ///   `.newerFormat`;
  ///   `.cannotStage` when the attachments cannot be written into the library; `StoreError`
  ///   from the store (such as `.readOnly`).
  @discardableResult
  public static func restore(
    from url: URL, into store: LibraryStore, limits: BackupLimits = .standard
  ) throws -> BackupManifest {
    guard store.mode == .readWrite else { throw StoreError.readOnly(path: store.directory.path) }
    guard try store.isEmpty() else { throw BackupError.libraryNotEmpty(path: store.directory.path) }
    let reader = try BackupReader(url: url, limits: limits)
    guard reader.structuralProblems.isEmpty else {
      throw BackupError.invalidBackup(path: url.path, problems: reader.structuralProblems)
    }
    let (decoded, libraryProblems) = reader.readLibrary()
    var problems = libraryProblems

    let staging = store.directory.appendingPathComponent(".restore-" + Identifier.make())
    guard mkdir(staging.path, 0o700) == 0 else {
      throw BackupError.cannotStage(path: staging.path, reason: AtomicFile.errnoText())
    }
    defer { try? FileManager.default.removeItem(at: staging) }
    let files = reader.attachmentFiles
    for file in files {
      let staged = staging.appendingPathComponent(file.sha256)
      if let problem = try reader.readAttachment(file, to: staged) { problems.append(problem) }
    }
    guard problems.isEmpty, let library = decoded else {
      throw BackupError.invalidBackup(path: url.path, problems: problems)
    }

    // Move the verified attachments into the store; remember which are new, to take them
    // back out if the insert fails.
    var placed: [URL] = []
    func removePlaced() { for url in placed { unlink(url.path) } }
    do {
      var shards = Set<String>()
      for file in files where !store.hasAttachment(sha256: file.sha256) {
        let target = store.attachmentURL(sha256: file.sha256)
        let shard = target.deletingLastPathComponent()
        if mkdir(shard.path, 0o755) != 0, errno != EEXIST {
          throw BackupError.cannotStage(path: shard.path, reason: AtomicFile.errnoText())
        }
        guard rename(staging.appendingPathComponent(file.sha256).path, target.path) == 0 else {
          throw BackupError.cannotStage(path: target.path, reason: AtomicFile.errnoText())
        }
        placed.append(target)
        shards.insert(shard.path)
      }
      for shard in shards { AtomicFile.syncDirectory(shard) }
      AtomicFile.syncDirectory(
        store.directory.appendingPathComponent(LibraryStore.attachmentsFolderName).path)
      try store.write {
        guard try store.isEmpty() else {
          throw BackupError.libraryNotEmpty(path: store.directory.path)
        }
        try store.insert(library: library)
      }
    } catch {
      removePlaced()
      throw error
    }
    return reader.manifest
  }
}
