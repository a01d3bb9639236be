import YarnCore

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

extension Formatting {
  static func counts(_ counts: BackupManifest.Counts) -> String {
    self.counts(
      yarns: counts.yarns, projects: counts.projects, notes: counts.notes,
      sessions: counts.sessions, tools: counts.tools, attachments: counts.attachments)
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
struct BackupCreate: CancellableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "create", abstract: "Write a backup zip of everything in the library.",
      discussion: """
        Without FILE the backup is written to yarn-backup-YYYYMMDD-HHMMSS.zip (local time)
        in the current directory. The zip is written to a temporary file beside FILE
        (.FILE.tmp-*) and renamed, so FILE never holds a partial backup; temporary files left
        by a backup that was killed are removed by the next one written to that directory.
        Ctrl-C stops it (exit 130; 143 for SIGTERM) and removes its temporary files. A
        progress bar is shown on standard error when it is a terminal.
        """,
      arguments: [.optional("file", "The zip file to write.")],
      options: [.flag("force", "Replace FILE if it exists.")])
  }

  var file: String?
  var force: Bool

  init(from values: ParsedValues) throws {
    file = values.argument("file")
    force = values.flag("force")
    if let file { try ZipOutput.check(file, command: values.command) }
  }

  /// `yarn-backup-20260329-143000.zip` for an instant, in local time.
  static func defaultName(at now: Date, timeZone: any UTCOffsetProvider = SystemTimeZone()) -> String {
    // `2026-03-29T14:30:00+02:00` → `20260329`, `143000`.
    let local = LocalCalendar.iso8601(now, in: timeZone)
    let digits = local.prefix(19).filter { $0 != "-" && $0 != ":" }.split(separator: "T")
    return "yarn-backup-\(digits.joined(separator: "-")).zip"
  }

  func run(in context: Context) throws {
    let path = try file ?? BackupCreate.defaultName(at: context.now, timeZone: context.timeZone)
    let url = URL(fileURLWithPath: path)
    if InputFile.isDirectory(path) {
      throw CLIError.cannotCreateOutput(path: path, reason: "it is a directory")
    }
    let bar = ProgressBar("backing up", context: context)
    defer { bar.finish() }
    let manifest = try context.withStore(.readOnly) { store in
      try Backup.create(
        from: store, to: url, generator: "yarn \(YarnTool.version)", now: context.now, force: force,
        progress: bar.callback)
    }
    bar.finish()
    if context.global.json {
      try context.printJSON(manifest)
    } else {
      context.output.line(path)
    }
    let counts = manifest.counts
    context.message("backed up \(Formatting.counts(counts)) to \(visible: path)")
  }
}

/// The zip file of `backup create` and `export`, checked before anything is read.
enum ZipOutput {
  /// Refuses `-`, which would otherwise be taken as a file named `-` (the parser has refused
  /// the empty name: `CommandParser.refuseEmptyNames(in:of:)`).
  ///
  /// - Throws: `CLIError.badValue` (64) for `-`: a zip is written through a temporary file
  ///   and renamed, never to standard output.
  static func check(_ path: String, command: [String]) throws(CLIError) {
    if path == "-" {
      throw .badValue(
        command: command, name: "<file>", value: path,
        reason: "a zip is not written to standard output; give a file name (./- for a file named -)")
    }
  }
}

/// `yarn backup verify FILE_OR_DIR`.
struct BackupVerify: CancellableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "verify",
      abstract: "Check a backup completely (every entry, size and SHA-256) without restoring it.",
      discussion: """
        BACKUP - reads the zip from standard input (copied to a temporary file, removed
        afterwards): yarn backup verify - < backup.zip. A progress bar is shown on standard
        error when it is a terminal.
        """,
      arguments: [
        .required(
          "backup", "The backup zip, or a directory holding the same files; - for standard input.",
          completion: .file)
      ])
  }

  var path: String
  var command: [String]

  init(from values: ParsedValues) throws {
    path = try values.requiredArgument("backup")
    command = values.command
  }

  func run(in context: Context) throws {
    let input = try InputFile.open(
      path, directories: true, command: command, library: context.global.library, name: "<backup>")
    defer { input.remove() }
    let bar = ProgressBar("verifying", context: context)
    defer { bar.finish() }
    let manifest = try input.namingErrors { try Backup.verify(input.url, progress: bar.callback) }
    bar.finish()
    if context.global.json {
      try context.printJSON(manifest)
      return
    }
    let counts = manifest.counts
    context.output.line(
      "\(visible: input.name): a good backup (format \(manifest.formatVersion), made \(Formatting.localTime(manifest.createdAt)) "
        + "by \(manifest.generator)): \(Formatting.counts(counts))")
  }
}

/// `yarn backup restore FILE_OR_DIR [--replace | --merge] [--dry-run]`.
struct BackupRestore: CancellableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "restore", abstract: "Restore a backup: into an empty library, or replacing or merging.",
      discussion: """
        The backup is verified completely first; the restore is all or nothing. Into an empty
        (or new) library no option is needed. Into a library that holds anything, give:
          --replace  replace everything; a safety backup of the library is written first to
                     LIBRARY/safety-backups/yarn-backup-before-restore-YYYYMMDD-HHMMSS.zip
                     (the newest 5 are kept, and the backup restored from)
          --merge    add the backup's items by ID: new items are added, items with the same
                     ID and content are left alone, and items with the same ID and other
                     content are conflicts: any conflict refuses the whole merge (65) and
                     lists them all, with nothing changed.
        --dry-run checks everything and says what would happen, changing nothing.
        Ctrl-C stops it between two files (exit 130; 143 for SIGTERM), changing nothing; a
        new library is then not created. BACKUP - reads the zip from standard
        input (copied to a temporary file, removed afterwards). A progress bar is shown on
        standard error when it is a terminal.

        EXAMPLES:
          yarn --library ~/yarn-restored backup restore yarn-backup-20260329-143000.zip
          yarn backup restore old-laptop.zip --merge --dry-run
          ssh old-laptop cat yarn-backup.zip | yarn backup restore - --merge
        """,
      arguments: [
        .required(
          "backup", "The backup zip, or a directory holding the same files; - for standard input.",
          completion: .file)
      ],
      options: [
        .flag("replace", "Replace everything in the library (after a safety backup)."),
        .flag("merge", "Add the backup's items to the library, matched by ID."),
        .flag("dry-run", "Say what would happen; change nothing."),
      ])
  }

  var path: String
  var mode: RestoreMode
  var dryRun: Bool
  var command: [String]

  init(from values: ParsedValues) throws {
    path = try values.requiredArgument("backup")
    command = values.command
    switch (values.flag("replace"), values.flag("merge")) {
    case (true, true):
      throw CLIError.needsExactlyOne(command: values.command, options: ["--replace", "--merge"])
    case (true, false): mode = .replace
    case (false, true): mode = .merge
    case (false, false): mode = .emptyOnly
    }
    dryRun = values.flag("dry-run")
  }

  /// `LIBRARY/safety-backups/yarn-backup-before-restore-YYYYMMDD-HHMMSS.zip`, which the
  /// restore numbers (`… (2).zip`) when that name is taken (`RestoreOptions.safetyBackup`).
  static func safetyBackupURL(library: URL, now: Date) -> URL {
    let folder = library.appendingPathComponent(LibraryStore.safetyBackupsFolderName, isDirectory: true)
    return folder.appendingPathComponent(
      BackupCreate.defaultName(at: now).replacing("yarn-backup-", with: "yarn-backup-before-restore-"))
  }

  func run(in context: Context) throws {
    let input = try InputFile.open(
      path, directories: true, command: command, library: context.global.library, name: "<backup>")
    defer { input.remove() }
    let url = input.url
    let libraryURL = try context.libraryURL
    var options = RestoreOptions(
      mode: mode, dryRun: dryRun, generator: "yarn \(YarnTool.version)", now: context.now)
    options.backupName = input.isStandardInput ? input.name : nil
    // Used (and created) only when the library holds anything; a dry run checks it too.
    if mode == .replace {
      options.safetyBackup = BackupRestore.safetyBackupURL(library: libraryURL, now: context.now)
    }
    if let text = context.environment["YARN_TEST_FREE_BYTES"], let bytes = Int64(text) {
      options.freeSpace = { _ in bytes }
    }
    let bar = ProgressBar("restoring", context: context)
    defer { bar.finish() }
    func restore(_ store: LibraryStore) throws -> RestoreReport {
      try input.namingErrors {
        try Backup.restore(from: url, into: store, options: options, progress: bar.callback)
      }
    }
    let report: RestoreReport
    if !dryRun, try context.libraryIsMissing {
      // A new library: the backup is checked, but for its attachments' bytes, and so is the
      // free space it needs, before anything is created; then it is restored into a library
      // built aside and put in place only when the restore succeeded (`LibraryStore.create`),
      // so that a failed restore leaves no library behind.
      let checked = try input.namingErrors { try Backup.checkLibrary(of: url) }
      try Backup.checkFreeSpace(for: checked, newLibrary: libraryURL, free: options.freeSpace)
      options.checked = checked
      report = try BackupRestore.intoNewLibrary(libraryURL) {
        try context.create(restore, keep: { _ in true })
      }
    } else {
      // A dry run opens read-only and creates nothing.
      report = try context.withStore(dryRun ? .readOnly : .readWrite, warnIfMissing: false, restore)
    }
    bar.finish()
    if context.global.json { try context.printJSON(RestoreReportView(report)) }
    for line in BackupRestore.summary(report, path: input.name, library: libraryURL.path) {
      context.message(line)
    }
    // Warnings, printed even with --quiet.
    let problems = report.safetyBackupProblems
    if !problems.isEmpty {
      // The library holds what an older yarn accepted or a change outside yarn made, or was
      // changed outside yarn: its safety backup is kept, but says so.
      let count = BackupProblem.countText(problems)
      let cause =
        ErrorPresenter.fromOlderYarn(problems)
        ? "the library holds what this yarn refuses (an older yarn, or a change made outside yarn, stored it)"
        : "the library was changed outside yarn"
      context.warning(
        "\(cause); its safety backup holds everything yarn could read of it, with "
          + "\(count) (a restore of it will refuse it or lack rows):")
      for problem in problems { context.messages.line(Table.printable("  - \(problem.description)")) }
    }
    // The restore is done; the older safety backups are only tidied.
    for kept in report.safetyBackupsNotRemoved {
      context.warning(
        "cannot remove the older safety backup \(visible: kept.url.lastPathComponent): \(kept.reason); it stays"
      )
    }
  }

  /// Runs `body`, a restore into a new library built aside (`Context.create`), with the
  /// library's folder and its `attachments/` there for the attachments it places: the folders
  /// missing before are created first and, when `body` throws, removed again (rmdir(2), so
  /// only while empty, with the shard folders the restore left empty in `attachments/`).
  static func intoNewLibrary<T>(_ library: URL, _ body: () throws -> T) throws -> T {
    let attachments = library.standardizedFileURL
      .appendingPathComponent(LibraryStore.attachmentsFolderName).path
    var missing: [String] = []
    var path = attachments
    while !path.isEmpty, path != "/", !FileManager.default.fileExists(atPath: path) {
      missing.append(path)
      path = POSIX.directory(of: path)
    }
    func removeCreated() {
      if missing.first == attachments {
        let shards = (try? FileManager.default.contentsOfDirectory(atPath: attachments)) ?? []
        for shard in shards { rmdir(attachments + "/" + shard) }
      }
      for folder in missing { rmdir(folder) }
    }
    do {
      for folder in missing.reversed() where mkdir(folder, 0o755) != 0 && errno != EEXIST {
        throw StoreError.io(path: folder, reason: "cannot create the directory: \(POSIX.errnoText())")
      }
      return try body()
    } catch {
      removeCreated()
      throw error
    }
  }

  /// The lines said after a restore (or a dry run).
  static func summary(_ report: RestoreReport, path: String, library: String) -> [String] {
    var lines: [String] = []
    if let safety = report.safetyBackup {
      lines.append("wrote a safety backup of the library to \(visible: safety.path)")
      // Only the newest are kept: say which older ones went.
      for removed in report.safetyBackupsRemoved {
        lines.append(
          "removed the older safety backup \(visible: removed.lastPathComponent) "
            + "(the newest \(Backup.safetyBackupsKept) are kept)")
      }
    }
    switch report.mode {
    case .emptyOnly:
      lines.append(
        "\(report.dryRun ? "would restore" : "restored") \(Formatting.counts(report.added)) "
          + "into \(visible: library)")
    case .replace:
      if report.dryRun, report.replaced != .zero {
        lines.append(
          "would write a safety backup of the library to \(visible: library)/safety-backups/ first")
        for removed in report.safetyBackupsRemoved {
          lines.append(
            "would remove the older safety backup \(visible: removed.lastPathComponent) "
              + "(the newest \(Backup.safetyBackupsKept) are kept)")
        }
      }
      lines.append(
        "\(report.dryRun ? "would replace" : "replaced") \(Formatting.counts(report.replaced)) "
          + "with \(Formatting.counts(report.manifest.counts)) from \(visible: path)")
    case .merge:
      lines.append(
        "\(report.dryRun ? "would merge" : "merged") \(visible: path) into \(visible: library): "
          + "add\(report.dryRun ? "" : "ed") \(Formatting.counts(report.added)); "
          + "\(Formatting.counts(report.unchanged)) already there unchanged")
    }
    if report.dryRun { lines.append("dry run: nothing was changed") }
    return lines
  }
}

/// The `--json` shape of a restore: `{"mode", "dryRun", "added", "unchanged", "replaced",
/// "safetyBackup", "safetyBackupsRemoved", "safetyBackupsNotRemoved", "manifest"}`; counts as
/// `{"yarns", "projects", "notes", "sessions", "attachments"}`; `safetyBackup` is a path or
/// null, `safetyBackupsRemoved` the paths of the older safety backups removed,
/// `safetyBackupsNotRemoved` those that could not be, as `{"path", "reason"}`.
struct RestoreReportView: Encodable {
  var mode: String
  var dryRun: Bool
  var added: BackupManifest.Counts
  var unchanged: BackupManifest.Counts
  var replaced: BackupManifest.Counts
  var safetyBackup: String?
  var safetyBackupsRemoved: [String]
  var safetyBackupsNotRemoved: [NotRemoved]
  var manifest: BackupManifest

  /// An older safety backup that could not be removed, and why.
  struct NotRemoved: Encodable {
    var path: String
    var reason: String
  }

  init(_ report: RestoreReport) {
    mode = report.mode == .emptyOnly ? "empty" : report.mode.rawValue
    dryRun = report.dryRun
    added = report.added
    unchanged = report.unchanged
    replaced = report.replaced
    safetyBackup = report.safetyBackup?.path
    safetyBackupsRemoved = report.safetyBackupsRemoved.map(\.path)
    safetyBackupsNotRemoved = report.safetyBackupsNotRemoved.map {
      NotRemoved(path: $0.url.path, reason: $0.reason)
    }
    manifest = report.manifest
  }

  enum CodingKeys: String, CodingKey {
    case mode, dryRun, added, unchanged, replaced, safetyBackup, safetyBackupsRemoved
    case safetyBackupsNotRemoved, manifest
  }

  func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(mode, forKey: .mode)
    try container.encode(dryRun, forKey: .dryRun)
    try container.encode(added, forKey: .added)
    try container.encode(unchanged, forKey: .unchanged)
    try container.encode(replaced, forKey: .replaced)
    try container.encode(safetyBackup, forKey: .safetyBackup)
    try container.encode(safetyBackupsRemoved, forKey: .safetyBackupsRemoved)
    try container.encode(safetyBackupsNotRemoved, forKey: .safetyBackupsNotRemoved)
    try container.encode(manifest, forKey: .manifest)
  }
}
