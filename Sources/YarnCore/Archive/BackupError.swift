import YarnModel
import YarnStore

/// Why a backup could not be made, verified or restored. Messages are lower-case and name the
/// file or entry concerned. A restore that throws has changed nothing in the library.
public enum BackupError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Thrown by `create` when a file exists at the target path and `force` is false.
  case destinationExists(path: String)
  /// Thrown by `create` (and `LibraryExport`) when the zip cannot be written (directory missing or read-only,
  /// disk full, …); nothing is left at `path`.
  case cannotWrite(path: String, reason: String)
  /// Thrown by `create` (and `LibraryExport`, then `exporting`) when attachments' bytes are
  /// missing from the store, or differ from the size and SHA-256 their records give: every
  /// such attachment, the first `Backup.maxUnavailableAttachments` listed (in the order the
  /// backup or export holds them), `more` counted.
  case attachmentsUnavailable([UnavailableAttachment], more: Int = 0, exporting: Bool = false)
  /// Thrown when the backup's path cannot be looked up (exit 66 in the CLI): `reason` is the
  /// system's (`no such file or directory`, `permission denied`, `too many levels of symbolic
  /// links`, `not a directory`, …).
  case notFound(path: String, reason: String)
  /// Thrown when `path` is neither a zip archive nor a directory that can be read (libzip's
  /// reason: not a zip archive, premature end of file, inconsistent archive, …).
  case cannotOpen(path: String, reason: String)
  /// Thrown when the backup has no `manifest.json` (so it is not a backup of this tool).
  case missingManifest(path: String)
  /// Thrown when `manifest.json` cannot be read or decoded, or is not a `yarn-backup`
  /// manifest, or its `formatVersion` is below 1; `reason` says which.
  case invalidManifest(path: String, reason: String)
  /// Thrown when the backup's `formatVersion` is newer than this version of the tool knows:
  /// a newer `yarn` (one that reads format `found`) is needed.
  case newerFormat(path: String, found: Int, known: Int)
  /// Thrown when verification finds problems; every problem found is listed.
  case invalidBackup(path: String, problems: [BackupProblem])
  /// Thrown by `restore` when the target library already holds data (`path` is its
  /// directory); nothing was read or changed.
  case libraryNotEmpty(path: String)
  /// Thrown by `restore` when the attachments cannot be staged into or moved inside the
  /// library (disk full, permissions); nothing was inserted.
  case cannotStage(path: String, reason: String)
  /// Thrown by `restore` (also in a dry run) before anything is written when the file system
  /// of the library at `path` has `free` bytes and the restore needs `needed`
  /// (`Backup.checkFreeSpace`); nothing was changed.
  case notEnoughSpace(path: String, needed: Int64, free: Int64)
  /// Thrown by a `.replace` restore (also in a dry run) before anything is written when the
  /// safety backup's folder, at `path` (links resolved), is on another file system than the
  /// library and that one has `free` bytes where the safety backup needs `needed`
  /// (`Backup.checkFreeSpace`); nothing was changed.
  case notEnoughSpaceForSafetyBackup(path: String, needed: Int64, free: Int64)
  /// Thrown by a `.merge` restore (also in a dry run) when items of the backup have the ID of
  /// a library item with other content, or both hold a running session; every conflict is
  /// listed and nothing was changed.
  case mergeConflicts(path: String, conflicts: [RestoreConflict])
  /// Thrown by a `.replace` restore of a library that is not empty when no safety backup path
  /// was given (`path` is the library directory); nothing was read or changed.
  case safetyBackupRequired(path: String)
  /// Thrown by `create` after it has written the backup at `path` (complete, fsynced and kept:
  /// it holds everything the library could give) when the library itself is not sound — it
  /// was changed outside yarn, with foreign keys off or raw SQL — so that a restore will
  /// refuse the backup (a note about a yarn that is missing, an instant outside
  /// 0001-01-01T00:00:00Z…9999-12-31T23:59:59Z), or the library holds rows the backup lacks
  /// (`BackupProblem.orphanedRows`). Every problem found is listed.
  case unrestorable(path: String, problems: [BackupProblem])

  /// A lower-case message naming the file, such as `no backup at PATH: no such file or
  /// directory`; the cases with problems or conflicts list each on its own line after it.
  public var description: String {
    switch self {
    case .destinationExists(let path):
      return "\(LineText.visible(path)) already exists (use force to overwrite it)"
    case .cannotWrite(let path, let reason):
      return "cannot write \(LineText.visible(path)): \(reason)"
    case .attachmentsUnavailable(let attachments, let more, let exporting):
      let verb = exporting ? "exported" : "backed up"
      var lines = attachments.map {
        "attachment \($0.sha256) (\(LineText.visible($0.path))) cannot be \(verb): \($0.reason)"
      }
      if lines.count == 1, more == 0 { return lines[0] }
      if more > 0 { lines.append("\(Plural.count(more, "more attachment")) cannot be \(verb)") }
      return "\(attachments.count + more) attachments cannot be \(verb):\n"
        + lines.map { "  - " + $0 }.joined(separator: "\n")
    case .notFound(let path, let reason):
      return "no backup at \(LineText.visible(path)): \(reason)"
    case .cannotOpen(let path, let reason):
      return "cannot open backup \(LineText.visible(path)): \(reason)"
    case .missingManifest(let path):
      return "\(LineText.visible(path)) is not a yarn backup: it has no manifest.json"
    case .invalidManifest(let path, let reason):
      return "\(LineText.visible(path)): manifest.json is invalid: \(reason)"
    case .newerFormat(let path, let found, let known):
      return
        "\(LineText.visible(path)) is backup format version \(found), newer than this yarn reads (up to \(known)): "
        + "a yarn that reads format version \(found) is needed"
    case .invalidBackup(let path, let problems):
      let count = BackupProblem.countText(problems)
      return "\(LineText.visible(path)) failed verification with \(count):\n"
        + problems.map { "  - \($0.description)" }.joined(separator: "\n")
    case .libraryNotEmpty(let path):
      return "the library at \(LineText.visible(path)) is not empty"
    case .cannotStage(let path, let reason):
      return "cannot store restored attachment \(LineText.visible(path)): \(reason)"
    case .notEnoughSpace(let path, let needed, let free):
      return
        "not enough free space for the library at \(LineText.visible(path)): the restore needs \(needed) bytes, "
        + "\(free) are free"
    case .notEnoughSpaceForSafetyBackup(let path, let needed, let free):
      return
        "not enough free space for the safety backup at \(LineText.visible(path)): it needs \(needed) bytes, "
        + "\(free) are free"
    case .mergeConflicts(let path, let conflicts):
      let count = Plural.count(conflicts.count, "conflict")
      return "cannot merge \(LineText.visible(path)) into the library: \(count); nothing was changed:\n"
        + conflicts.map { "  - \($0.description)" }.joined(separator: "\n")
    case .safetyBackupRequired(let path):
      return "replacing the library at \(LineText.visible(path)) needs a path for its safety backup"
    case .unrestorable(let path, let problems):
      let count = BackupProblem.countText(problems)
      let refused = problems.contains {
        if case .orphanedRows = $0 { return false }
        return true
      }
      let what = refused ? "a restore will refuse it" : "it lacks rows of the library"
      return "the backup \(LineText.visible(path)) was written, but \(what) (\(count)):\n"
        + problems.map { "  - \($0.description)" }.joined(separator: "\n")
    }
  }
}

extension BackupError {
  /// Whether the error is a full disk or quota: `.notEnoughSpace`,
  /// `.notEnoughSpaceForSafetyBackup`, or `.cannotWrite` and
  /// `.cannotStage` whose system reason is ENOSPC's or EDQUOT's (the CLI's exit 74, where a
  /// missing or read-only directory is 73).
  public var isDiskFull: Bool {
    switch self {
    case .notEnoughSpace, .notEnoughSpaceForSafetyBackup: true
    case .cannotWrite(_, let reason), .cannotStage(_, let reason): POSIX.isDiskFull(reason)
    default: false
    }
  }
}

/// An attachment whose file in the library's `attachments/` folder is missing, or is not the
/// bytes its record names (`BackupError.attachmentsUnavailable`).
public struct UnavailableAttachment: Hashable, Sendable {
  /// The attachment's SHA-256, as its record gives it.
  public var sha256: String
  /// The store's file of it.
  public var path: String
  /// Why it cannot be read as the record's bytes: the system's reason (`no such file or
  /// directory`), `it is a directory, not a file`, `the file holds 3 bytes, its record says 4`,
  /// `its SHA-256 is …, expected …`.
  public var reason: String
  /// The items that hold it (empty when they are not known).
  public var uses: [AttachmentUse]

  /// The attachment `sha256`, whose file at `path` cannot be used for `reason`, held by `uses`.
  public init(sha256: String, path: String, reason: String, uses: [AttachmentUse] = []) {
    self.sha256 = sha256
    self.path = path
    self.reason = reason
    self.uses = uses
  }
}

extension BackupError {
  /// `self`, when it is `.attachmentsUnavailable`, naming the items of `store` that hold each
  /// attachment listed (`AttachmentUse.of`), in the words of an export when `exporting`.
  func namingUses(in store: LibraryStore, exporting: Bool) -> BackupError {
    guard case .attachmentsUnavailable(let attachments, let more, _) = self else { return self }
    let named = attachments.map { attachment in
      var attachment = attachment
      attachment.uses = AttachmentUse.of(attachment.sha256, in: store)
      return attachment
    }
    return .attachmentsUnavailable(named, more: more, exporting: exporting)
  }
}

/// The limits a verification or restore enforces, so that a hostile archive (a zip bomb, an
/// archive of a million entries) is refused before it costs much time, memory or disk. A
/// backup over a limit is refused with `BackupError.invalidBackup` naming it
/// (`BackupProblem.tooManyEntries`, `.tooManyBytes`, `.tooLarge`, `.compressionRatio`), or
/// with `BackupError.invalidManifest` for a `manifest.json` over its limit.
public struct BackupLimits: Hashable, Sendable {
  /// The most entries an archive (or files a manifest) may have.
  public var maxEntries: Int
  /// The most bytes `manifest.json` may inflate to (it is read into memory).
  public var maxManifestBytes: Int64
  /// The most bytes `library.json` may inflate to (it is read item by item).
  public var maxLibraryBytes: Int64
  /// The most bytes one item of `library.json` may take (an element of its arrays, or
  /// another member's value, or a key; each is held in memory to be decoded): 16 MiB by
  /// default. An item is far smaller: a note at its longest, 100,000 characters
  /// (`Rules.maximumNoteLength`) of at most 400,000 scalars (`LineText.scalarsPerCharacter`),
  /// takes at most 4.8 MB of JSON when each scalar is written as an escaped surrogate pair.
  public var maxItemBytes: Int
  /// The most bytes all files together may hold, by the manifest's sizes.
  public var maxTotalBytes: Int64
  /// The most an entry of at least `ratioFloorBytes` may inflate relative to its compressed
  /// size (uncompressed bytes ÷ compressed bytes, rounded down). Photos and PDFs are stored
  /// (ratio 1) and JSON deflates about 5 to 20 times; deflate itself tops out near 1032
  /// (RFC 1951's longest match, 258 bytes, in about 2 bits), which bombs use.
  /// `library.json` is exempt: `maxLibraryBytes` caps it instead.
  public var maxCompressionRatio: Int64
  /// Entries smaller than this many bytes (uncompressed) are exempt from the ratio check.
  public var ratioFloorBytes: Int64

  /// Limits; each one not given is the standard one (see `standard`).
  public init(
    maxEntries: Int = 100_000, maxManifestBytes: Int64 = 64 << 20,
    maxLibraryBytes: Int64 = 1 << 30, maxTotalBytes: Int64 = 1 << 40,
    maxCompressionRatio: Int64 = 200, ratioFloorBytes: Int64 = 1 << 20,
    maxItemBytes: Int = 16 << 20
  ) {
    self.maxItemBytes = maxItemBytes
    self.maxEntries = maxEntries
    self.maxManifestBytes = maxManifestBytes
    self.maxLibraryBytes = maxLibraryBytes
    self.maxTotalBytes = maxTotalBytes
    self.maxCompressionRatio = maxCompressionRatio
    self.ratioFloorBytes = ratioFloorBytes
  }

  /// The defaults: 100,000 entries, a 64 MiB manifest, a 1 GiB `library.json` of items of
  /// at most 16 MiB each, 1 TiB in all, a compression ratio of 200 for entries of 1 MiB (2^20
  /// bytes) or more.
  public static let standard = BackupLimits()
}
