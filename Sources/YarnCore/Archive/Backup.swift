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
  /// The format version this version of yarn writes, and the newest it reads.
  public static let formatVersion = 1

  /// Writes a backup zip of everything in `store` to `url`, on the calling thread.
  ///
  /// The library is read in one read transaction (`LibraryStore.library()`), encoded as
  /// `library.json` in memory (about 10 MB for a real library), and zipped with the
  /// attachments, each streamed from the store's files and checked against its SHA-256 as
  /// it is zipped. libzip writes a temporary file beside `url`; it is fsynced and moved to
  /// `url` and the directory fsynced, so `url` never holds a partial archive, even after
  /// `kill -9`. Temporary files that killed backups left in `url`'s directory
  /// (`.NAME.tmp-…`, no longer locked) are removed first.
  ///
  /// The library is checked as it is written, so that a backup a restore would refuse is
  /// known at once, not when it is needed: the checks `verify` makes of `library.json`
  /// (without those against the manifest, which `create` itself writes to match), and, in
  /// the same read transaction, `LibraryStore.orphanedRows` looks for rows no item carries.
  /// Both can find something only in a library changed outside yarn (foreign keys off, raw
  /// SQL). Then the archive is still written, fsynced and kept at `url` — it holds everything
  /// the library could give — and `BackupError.unrestorable` is thrown.
  ///
  /// - Parameters:
  ///   - generator: what made the backup, for the manifest, such as `yarn 0.1.0`.
  ///   - now: the manifest's `createdAt` (UTC; truncated to whole seconds).
  ///   - force: whether an existing file at `url` may be replaced (default: refuse).
  ///   - progress: called with the fraction written, 0...1, while the zip is written, on the
  ///     calling thread (from libzip's progress callback, about every 1%).
  /// - Returns: the manifest written.
  /// - Throws: `BackupError.unrestorable` listing every problem found, when the backup was
  ///   written to `url` (the file exists) but a restore would refuse it, or it lacks rows of
  ///   the library; `BackupError.destinationExists` when `url` exists and `force` is false;
  ///   `BackupError.attachmentUnavailable` when an attachment's file is missing or differs
  ///   from its record; `BackupError.cannotWrite`; `StoreError` from reading the store;
  ///   `CancellationError` when the current task is cancelled (checked between reads of the
  ///   attachments). After any error but `.unrestorable` nothing is left at `url` (its old
  ///   file, if any, is untouched), and no temporary file beside it.
  /// - Complexity: O(library + attachment bytes) time; memory O(library).
  @discardableResult
  public static func create(
    from store: LibraryStore, to url: URL, generator: String, now: Date, force: Bool = false,
    progress: (@Sendable (Double) -> Void)? = nil
  ) throws -> BackupManifest {
    let (library, orphans) = try store.read { (try store.library(), try store.orphanedRows(limit: 5)) }
    let written = try BackupWriter.write(
      library, to: url, generator: generator, now: now, force: force,
      attachmentURL: { store.attachmentURL(sha256: $0) }, progress: progress)
    var problems = written.problems
    if orphans.count > 0 {
      problems.append(.orphanedRows(count: orphans.count, examples: orphans.examples))
    }
    guard problems.isEmpty else { throw BackupError.unrestorable(path: url.path, problems: problems) }
    return written.manifest
  }

  /// Reads the backup at `url` (a zip, or a directory holding the same files) to its end and
  /// checks it without changing anything, on the calling thread: every entry's name and
  /// kind, the manifest, every file's size and SHA-256 (reading each zip entry to its end, so
  /// libzip checks its CRC), `library.json` item by item, and everything `restore` into an
  /// empty library would refuse (`LibraryCheck`): so `verify` passes exactly when such a
  /// restore succeeds.
  ///
  /// - Returns: the manifest when everything is right.
  /// - Throws: `BackupError.invalidBackup` listing every problem found; `.notFound`,
  ///   `.cannotOpen`, `.missingManifest`, `.invalidManifest`, `.newerFormat` when it cannot
  ///   get that far; `CancellationError` when the current task is cancelled (checked between
  ///   attachments).
  @discardableResult
  public static func verify(_ url: URL, limits: BackupLimits = .standard) throws -> BackupManifest {
    let reader = try BackupReader(url: url, limits: limits)
    guard reader.structuralProblems.isEmpty else {
      throw BackupError.invalidBackup(path: url.path, problems: reader.structuralProblems)
    }
    var problems = reader.readLibrary().problems
    for file in reader.attachmentFiles {
      try Task.checkCancellation()
      if let problem = try reader.readAttachment(file, to: nil) { problems.append(problem) }
    }
    guard problems.isEmpty else {
      throw BackupError.invalidBackup(path: url.path, problems: problems)
    }
    return reader.manifest
  }

  /// Restores the backup at `url` into `store`, which must be empty (`RestoreMode.emptyOnly`).
  /// See `restore(from:into:options:)`.
  ///
  /// - Returns: the backup's manifest.
  @discardableResult
  public static func restore(
    from url: URL, into store: LibraryStore, limits: BackupLimits = .standard
  ) throws -> BackupManifest {
    var options = RestoreOptions()
    options.limits = limits
    return try restore(from: url, into: store, options: options).manifest
  }
}
