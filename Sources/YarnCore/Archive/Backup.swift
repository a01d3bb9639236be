import YarnModel
import YarnStore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Backups of a library: one zip (or a directory of the same files) that holds everything —
/// `manifest.json`, `library.json` and `attachments/<sha256>` — and restores to an equal
/// library. The format is specified in docs/FORMAT.md.
///
/// The laws (tested): restoring a backup of library L gives L back, and backup → restore →
/// backup gives a byte-identical `library.json`.
public enum Backup {
  /// The format version this version of yarn writes, and the newest it reads: 1
  /// (docs/FORMAT.md; backups of older versions are read too, as its "Versions and
  /// compatibility promise" says).
  public static let formatVersion = 1

  /// The most attachments `BackupError.attachmentsUnavailable` names one by one (with the
  /// items that hold them); the others are counted: 20, as the items that do not decode
  /// (`LibraryDocumentReader.maxItemProblems`).
  public static let maxUnavailableAttachments = 20

  /// Writes a backup zip of everything in `store` to `url`, on the calling thread.
  ///
  /// The library is read in one read transaction, item by item, and written as
  /// `library.json` to a temporary file beside `url` as it is read (`BackupWriter`: memory
  /// does not grow with the items, but for the IDs and references the checks keep); that
  /// file is then zipped with the attachments, each streamed from the store's files and
  /// checked against its SHA-256 as it is zipped. libzip writes a temporary file beside `url`; it is fsynced and moved to
  /// `url` and the directory fsynced, so `url` never holds a partial archive, even after
  /// `kill -9`. Temporary files that killed backups left in `url`'s directory
  /// (`.NAME.tmp-…`, no longer locked) are removed first.
  ///
  /// The library is checked as it is written, so that a backup a restore would refuse is
  /// known at once, not when it is needed: the checks `verify` makes of `library.json`
  /// (without those against the manifest, which `create` itself writes to match), and, in
  /// the same read transaction, the database is searched for rows no item carries (usages
  /// and attachment records of a missing project or yarn). Both can find something only in a
  /// library changed outside yarn (foreign keys off, raw SQL). Then the archive is still
  /// written, fsynced and kept at `url` — it holds everything the library could give — and
  /// `BackupError.unrestorable` is thrown.
  ///
  /// - Parameters:
  ///   - store: the library to back up; only read.
  ///   - url: the zip file to write (any name; `yarn` uses `yarn-backup-YYYYMMDD-HHMMSS.zip`).
  ///   - generator: what made the backup, for the manifest, such as `yarn 0.1.0`.
  ///   - now: the manifest's `createdAt` (an instant, written in UTC; truncated to whole
  ///     seconds).
  ///   - force: whether an existing file at `url` may be replaced (default: refuse); never
  ///     one of the library's own files (`OutputError.intoLibrary`).
  ///   - progress: called with the fraction written, 0...1, while the zip is written, on the
  ///     calling thread (from libzip's progress callback, about every 1%).
  /// - Returns: the manifest written.
  /// - Throws: `BackupError.unrestorable` listing every problem found, when the backup was
  ///   written to `url` (the file exists) but a restore would refuse it, or it lacks rows of
  ///   the library; `OutputError.intoLibrary`, whatever `force`, when `url` is one of the
  ///   own files of the library of `store` (its database, a file in its attachments folder, …);
  ///   `BackupError.destinationExists` when `url` exists and `force` is false;
  ///   `BackupError.attachmentsUnavailable` when attachments' files are missing or differ
  ///   from their records, listing every one (`maxUnavailableAttachments` by name, then a
  ///   count) with the items that hold it; `BackupError.cannotWrite` when the archive cannot be written (a
  ///   missing or read-only directory, a full disk); `StoreError` from reading the store;
  ///   `SystemLibraryError` when libzip cannot be loaded; `CancellationError` when the current
  ///   task is cancelled (checked between reads of the attachments). After any error but
  ///   `.unrestorable` nothing is left at `url` (its old file, if any, is untouched), and no
  ///   temporary file beside it.
  /// - Complexity: O(library + attachment bytes) time; memory O(items' IDs), not O(library).
  @discardableResult
  public static func create(
    from store: LibraryStore, to url: URL, generator: String, now: Date, force: Bool = false,
    progress: ((Double) -> Void)? = nil
  ) throws -> BackupManifest {
    try OutputError.refuseLibraryFile(url.path, of: store.directory)
    return try write(from: store, to: url, generator: generator, now: now, force: force, progress: progress)
  }

  /// `create` without its refusal of the library's own files, for the one backup that is
  /// written into the library: a `.replace` restore's safety backup, in its `safety-backups`
  /// folder (under a free name: nothing is replaced).
  static func write(
    from store: LibraryStore, to url: URL, generator: String, now: Date, force: Bool,
    progress: ((Double) -> Void)?
  ) throws -> BackupManifest {
    var items = BackupWriter.Items(store: store)
    var orphans = (count: 0, examples: [String]())
    items.read = { body in
      try store.read {
        try body()
        orphans = try store.orphanedRows(limit: 5)
      }
    }
    let written: BackupWriter.Written
    do {
      written = try BackupWriter.write(
        items, to: url, generator: generator, now: now, force: force,
        attachmentURL: { store.attachmentURL(sha256: $0) }, progress: progress)
    } catch let error as BackupError {
      throw error.namingUses(in: store, exporting: false)
    }
    let problems = written.problems + orphanedRowsProblems(orphans)
    guard problems.isEmpty else { throw BackupError.unrestorable(path: url.path, problems: problems) }
    return written.manifest
  }

  /// What `write(from:to:…)` would find wrong with the library of `store` (its
  /// `BackupError.unrestorable` problems), by the same checks of the same items, without
  /// writing anything: what a `.replace` dry run reports of the safety backup it would write.
  ///
  /// - Throws: what reading the store throws (`StoreError`), as writing would.
  static func unrestorableProblems(of store: LibraryStore) throws -> [BackupProblem] {
    let items = BackupWriter.Items(store: store)
    let check = LibraryCheck()
    var orphans = (count: 0, examples: [String]())
    try items.read {
      _ = try BackupWriter.writeLibrary(items, to: JSONStream { _ in }, check: check)
      orphans = try store.orphanedRows(limit: 5)
    }
    return check.finish() + orphanedRowsProblems(orphans)
  }

  /// The problem of `orphans` (rows whose item is missing), or none.
  private static func orphanedRowsProblems(_ orphans: (count: Int, examples: [String])) -> [BackupProblem] {
    orphans.count > 0 ? [.orphanedRows(count: orphans.count, examples: orphans.examples)] : []
  }

  /// Reads the backup at `url` (a zip, or a directory holding the same files) to its end and
  /// checks it without changing anything, on the calling thread: every entry's name and
  /// kind, the manifest, every file's size and SHA-256 (reading each zip entry to its end, so
  /// libzip checks its CRC), `library.json` item by item, and everything `restore` into an
  /// empty library would refuse (broken references, duplicate IDs, two running sessions,
  /// instants outside 0001-01-01T00:00:00Z…9999-12-31T23:59:59Z): so `verify` passes exactly
  /// when such a restore succeeds.
  ///
  /// - Parameters:
  ///   - url: the backup: a zip file, or a directory holding its files.
  ///   - limits: what a hostile archive may not exceed (`BackupLimits.standard` by default).
  ///   - progress: called on the calling thread with the fraction of the backup's bytes read
  ///     (the manifest's sizes of `library.json` and the attachments), 0...1: after
  ///     `library.json` and after each attachment; the values never go down and the last is 1
  ///     when the backup is read to its end.
  /// - Returns: the manifest when everything is right.
  /// - Throws: `BackupError.invalidBackup` listing every problem found; `.notFound`,
  ///   `.cannotOpen`, `.missingManifest`, `.invalidManifest`, `.newerFormat` when it cannot
  ///   get that far; `SystemLibraryError` when libzip cannot be loaded (for a zip);
  ///   `CancellationError` when the current task is cancelled (checked between attachments
  ///   and between the pieces of each file read).
  /// - Complexity: O(backup bytes) time; memory O(the largest item + the items' IDs and
  ///   references), not O(library): `library.json` is read item by item.
  @discardableResult
  public static func verify(
    _ url: URL, limits: BackupLimits = .standard, progress: ((Double) -> Void)? = nil
  ) throws -> BackupManifest {
    let reader = try BackupReader(url: url, limits: limits)
    guard reader.structuralProblems.isEmpty else {
      throw BackupError.invalidBackup(path: url.path, problems: reader.structuralProblems)
    }
    var counter = reader.progressCounter(progress)
    var problems = try reader.checkLibrary().problems
    counter.add(reader.librarySize)
    try Task.checkCancellation()
    for file in reader.attachmentFiles {
      try Task.checkCancellation()
      if let problem = try reader.readAttachment(file, to: nil) { problems.append(problem) }
      counter.add(file.size)
    }
    counter.finish()
    guard problems.isEmpty else {
      throw BackupError.invalidBackup(path: url.path, problems: problems)
    }
    return reader.manifest
  }

  /// Checks what can be checked of the backup at `url` without reading its attachments: the
  /// names, kinds and manifest, and `library.json` (its size and SHA-256, every item, and
  /// what a restore into an empty library would refuse of it). A caller about to create a
  /// library only to restore into it (the CLI) calls this first, so that a backup refused
  /// for these reasons creates no library.
  ///
  /// - Returns: what was checked, which a restore of the same backup takes
  ///   (`RestoreOptions.checked`) so as not to check `library.json` a second time.
  /// - Throws: the errors of `verify`, but for the attachments' bytes.
  @discardableResult
  package static func checkLibrary(
    of url: URL, limits: BackupLimits = .standard
  ) throws -> CheckedLibrary {
    let reader = try BackupReader(url: url, limits: limits)
    guard reader.structuralProblems.isEmpty else {
      throw BackupError.invalidBackup(path: url.path, problems: reader.structuralProblems)
    }
    let checked = try reader.checkLibrary()
    guard checked.problems.isEmpty else {
      throw BackupError.invalidBackup(path: url.path, problems: checked.problems)
    }
    return CheckedLibrary(manifest: reader.manifest, counts: checked.counts)
  }

  /// A backup whose `library.json` `checkLibrary(of:limits:)` found sound, as it read it: its
  /// manifest (which holds the SHA-256 of `library.json`) and the items it counted. A restore
  /// given it (`RestoreOptions.checked`) of a backup with the same manifest skips its own
  /// check of `library.json`: the reads that insert the items compare the file with that
  /// SHA-256, so they insert the very bytes that were checked (or refuse them).
  package struct CheckedLibrary: Hashable, Sendable {
    let manifest: BackupManifest
    let counts: BackupManifest.Counts
  }

  /// Restores the backup at `url` into `store`, which must be empty (`RestoreMode.emptyOnly`),
  /// on the calling thread. See `restore(from:into:options:progress:)`.
  ///
  /// - Returns: the backup's manifest.
  /// - Throws: as `restore(from:into:options:progress:)`; `BackupError.libraryNotEmpty` when the
  ///   library holds anything.
  @discardableResult
  public static func restore(
    from url: URL, into store: LibraryStore, limits: BackupLimits = .standard
  ) throws -> BackupManifest {
    var options = RestoreOptions()
    options.limits = limits
    return try restore(from: url, into: store, options: options).manifest
  }
}
