import YarnModel
import YarnStore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The `manifest.json` of a backup: what the archive is, when and by what it was made, how
/// much it holds, and the size and SHA-256 of every other file in it (docs/FORMAT.md).
///
/// Written as JSON with its keys sorted, `createdAt` as ISO 8601 in UTC with whole seconds
/// (`2026-03-29T14:30:00Z`). A value comes from `Backup.create`, `Backup.verify` or a
/// restore's `RestoreReport`.
public struct BackupManifest: Codable, Hashable, Sendable {
  /// How many of each thing `library.json` holds (in a `RestoreReport`: how many were added,
  /// left alone or replaced).
  public struct Counts: Codable, Hashable, Sendable {
    /// Yarns (`Library.yarns`).
    public var yarns: Int
    /// Projects (`Library.projects`).
    public var projects: Int
    /// Notes (`Library.notes`).
    public var notes: Int
    /// Time sessions (`Library.sessions`).
    public var sessions: Int
    /// Distinct attachment files (by SHA-256), the number of `attachments/…` entries.
    public var attachments: Int
    /// Needles and hooks (`Library.tools`); `nil` in a manifest written before tools were
    /// counted (the key `tools` is then absent, and a check does not compare it).
    public var tools: Int?

    init(yarns: Int, projects: Int, notes: Int, sessions: Int, attachments: Int, tools: Int? = 0) {
      self.yarns = yarns
      self.projects = projects
      self.notes = notes
      self.sessions = sessions
      self.attachments = attachments
      self.tools = tools
    }

    /// The counts of `library`.
    init(of library: Library) {
      self.init(
        yarns: library.yarns.count, projects: library.projects.count,
        notes: library.notes.count, sessions: library.sessions.count,
        attachments: library.attachments.count, tools: library.tools.count)
    }
  }

  /// One file of the backup other than `manifest.json` itself.
  public struct File: Codable, Hashable, Sendable {
    /// The path inside the backup, `/`-separated: `library.json` or `attachments/<sha256>`.
    public var path: String
    /// The size in bytes (uncompressed).
    public var size: Int64
    /// The SHA-256 of the bytes (FIPS 180-4), 64 lower-case hexadecimal digits.
    public var sha256: String

    init(path: String, size: Int64, sha256: String) {
      self.path = path
      self.size = size
      self.sha256 = sha256
    }
  }

  /// Always `yarn-backup`.
  public var format: String
  /// The format version, 1 or more; `Backup.formatVersion` for backups this version writes.
  public var formatVersion: Int
  /// When the backup was made (UTC instant, whole seconds).
  public var createdAt: Date
  /// What made it, such as `yarn 0.1.0`.
  public var generator: String
  /// How many yarns, projects, notes, sessions and attachment files the backup holds.
  public var counts: Counts
  /// `library.json` first, then each attachment in the order `Library.attachments` gives.
  public var files: [File]

  init(
    format: String = BackupManifest.formatName, formatVersion: Int, createdAt: Date,
    generator: String, counts: Counts, files: [File]
  ) {
    self.format = format
    self.formatVersion = formatVersion
    self.createdAt = createdAt
    self.generator = generator
    self.counts = counts
    self.files = files
  }

  /// The value of `format`: `yarn-backup`.
  static let formatName = "yarn-backup"

  /// The entry names of the format.
  static let manifestPath = "manifest.json"
  static let libraryPath = "library.json"
  static let attachmentsDirectory = "attachments/"

  /// `attachments/<sha256>`.
  static func attachmentPath(sha256: String) -> String { attachmentsDirectory + sha256 }
}

/// The two fields read before anything else, so that a newer manifest whose other fields
/// changed is still recognised and refused with the version it needs.
struct BackupManifestHeader: Decodable {
  var format: String
  var formatVersion: Int
}
