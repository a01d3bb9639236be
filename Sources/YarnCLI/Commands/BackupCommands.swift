import Foundation
import YarnCore

extension Formatting {
  static func counts(_ counts: BackupManifest.Counts) -> String {
    self.counts(
      yarns: counts.yarns, projects: counts.projects, notes: counts.notes,
      sessions: counts.sessions, attachments: counts.attachments)
  }
}

/// `yarn backup`: whole-library backups that restore.
struct BackupCommand: CommandGroup {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "backup", abstract: "Back up the whole library to a zip, verify it, restore it.",
      subcommands: [BackupCreate.self, BackupVerify.self, BackupRestore.self])
  }
}

/// `yarn backup create [FILE] [--force]`.
struct BackupCreate: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "create", abstract: "Write a backup zip of everything in the library.",
      discussion: """
        Without FILE the backup is written to yarn-backup-YYYYMMDD-HHMMSS.zip (local time)
        in the current directory. The zip is written to a temporary file and renamed, so FILE
        never holds a partial backup.
        """,
      arguments: [.optional("file", "The zip file to write.")],
      options: [.flag("force", "Replace FILE if it exists.")])
  }

  var file: String?
  var force: Bool

  init(from values: ParsedValues) throws {
    file = values.argument("file")
    force = values.flag("force")
  }

  /// `yarn-backup-20260329-143000.zip` for an instant, in local time.
  static func defaultName(at now: Date, timeZone: TimeZone = .current) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let parts = calendar.dateComponents([.hour, .minute, .second], from: now)
    func two(_ value: Int?) -> String {
      let v = value ?? 0
      return v < 10 ? "0\(v)" : "\(v)"
    }
    let day = CalendarDate(containing: now, in: timeZone).iso8601.replacingOccurrences(of: "-", with: "")
    return "yarn-backup-\(day)-\(two(parts.hour))\(two(parts.minute))\(two(parts.second)).zip"
  }

  func run(in context: Context) throws {
    let path = file ?? BackupCreate.defaultName(at: context.now)
    let url = URL(fileURLWithPath: path)
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
      throw CLIError.cannotCreateOutput(path: path, reason: "it is a directory")
    }
    let manifest = try context.withStore(.readOnly) { store in
      try Backup.create(
        from: store, to: url, generator: "yarn \(YarnTool.version)", now: context.now, force: force)
    }
    if context.global.json {
      try context.printJSON(manifest)
    } else {
      context.output.line(path)
    }
    let counts = manifest.counts
    context.message("backed up \(Formatting.counts(counts)) to \(path)")
  }
}

/// `yarn backup verify FILE_OR_DIR`.
struct BackupVerify: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "verify",
      abstract: "Check a backup completely (every entry, size and SHA-256) without restoring it.",
      arguments: [.required("backup", "The backup zip, or a directory holding the same files.")])
  }

  var path: String

  init(from values: ParsedValues) throws {
    path = try values.requiredArgument("backup")
  }

  func run(in context: Context) throws {
    let url = try InputFile.existingItem(path)
    let manifest = try Backup.verify(url)
    if context.global.json {
      try context.printJSON(manifest)
      return
    }
    let counts = manifest.counts
    context.output.line(
      "\(path): a good backup (format \(manifest.formatVersion), made \(Formatting.localTime(manifest.createdAt)) "
        + "by \(manifest.generator)): \(Formatting.counts(counts))")
  }
}

/// `yarn backup restore FILE_OR_DIR`.
struct BackupRestore: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "restore", abstract: "Restore a backup into an empty library.",
      discussion: """
        The backup is verified completely first; the restore is all or nothing. The library
        must be empty: restore into a new one with --library NEW_DIR.

        EXAMPLE:
          yarn --library ~/yarn-restored backup restore yarn-backup-20260329-143000.zip
        """,
      arguments: [.required("backup", "The backup zip, or a directory holding the same files.")])
  }

  var path: String

  init(from values: ParsedValues) throws {
    path = try values.requiredArgument("backup")
  }

  func run(in context: Context) throws {
    let url = try InputFile.existingItem(path)
    let libraryURL = context.libraryURL
    // Opening read-write creates the library directory; when the restore fails and the
    // directory did not exist before, it is taken away again, so that a failed restore
    // leaves everything as it was.
    let existed = FileManager.default.fileExists(atPath: libraryURL.path)
    let manifest: BackupManifest
    do {
      manifest = try context.withStore(.readWrite) { store in
        try Backup.restore(from: url, into: store)
      }
    } catch {
      if !existed { try? FileManager.default.removeItem(at: libraryURL) }
      throw error
    }
    if context.global.json { try context.printJSON(manifest) }
    let counts = manifest.counts
    context.message("restored \(Formatting.counts(counts)) into \(libraryURL.path)")
  }
}
