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

/// How a restore treats what the library already holds.
public enum RestoreMode: String, Hashable, Sendable {
  /// Only into an empty library; a library that holds anything is refused
  /// (`BackupError.libraryNotEmpty`).
  case emptyOnly
  /// Everything in the library is replaced by the backup, all or nothing, after a safety
  /// backup of the library (`RestoreOptions.safetyBackup`) has been written.
  case replace
  /// The backup's items are added to the library, matched by ID: an item whose ID the
  /// library lacks is added (after the library's own items); an item with the same ID and
  /// the same content is left as it is; an item with the same ID and other content is a
  /// conflict, and any conflict refuses the whole merge (`BackupError.mergeConflicts`)
  /// before anything changes. A session the backup adds that shares time with one of the
  /// library (`TimeSession.overlaps(_:now:)`, the rule of `time add`) is a conflict too,
  /// one for each pair.
  case merge
}

/// What a restore does and how.
public struct RestoreOptions: Sendable {
  /// How the library's own items are treated (`.emptyOnly` by default).
  public var mode: RestoreMode
  /// Check everything and work out what would happen, change nothing (the library, its
  /// attachments and the safety backup are not written).
  public var dryRun: Bool
  /// For `.replace` of a library that is not empty: where the safety backup of the library
  /// is written first, a zip file path such as `DIR/NAME.zip`; when a file is there already
  /// (another restore's of the same second), the first of `DIR/NAME (2).zip`,
  /// `DIR/NAME (3).zip`, … that is free (`RestoreReport.safetyBackup` names it). `DIR` is
  /// created when it is missing (the folder above it must exist). Never one of the library's
  /// own files, as for every writer (`OutputError.intoLibrary`), but a file in its
  /// `safety-backups` folder, the place of safety backups. Required then; a dry run
  /// given it checks that it can be written there, as the real run does first
  /// (`checkSafetyBackupFolder(for:)`). Ignored otherwise. Once a replace that wrote one has committed, the files of its folder named
  /// `yarn-backup-before-restore-*.zip` (as `yarn` names them) are removed, but for the newest
  /// 5 by modification time and the backup restored from (the same file, by device and inode),
  /// which stays beyond the 5.
  public var safetyBackup: URL?
  /// The safety backup's generator, for its manifest (`Backup.create`), such as `yarn 0.1.0`.
  public var generator: String
  /// The safety backup's creation instant (written in UTC, truncated to whole seconds).
  public var now: Date
  /// What a hostile backup may not exceed (`BackupLimits.standard` by default).
  public var limits: BackupLimits
  /// How the backup is named in the undo history's note of a `.replace` (`url.path` when
  /// `nil`): a caller that restores from a temporary copy (standard input spooled to a
  /// file) names the source the user gave.
  public var backupName: String?
  /// What `Backup.checkLibrary(of:limits:)` found of this backup just before, so that a
  /// restore of it (not a dry run, not a merge) need not check `library.json` again; used
  /// only when the backup's manifest is still the one checked. Given for a restore into a
  /// new library, whose free space the caller checked too before creating it
  /// (`checkFreeSpace(for:newLibrary:free:)`): the restore does not measure it again, as the
  /// new library's own file, made since, would count against it.
  package var checked: Backup.CheckedLibrary?
  /// The bytes free on the file system of a path, or `nil` when they cannot be read: what
  /// the space check (`Backup.checkFreeSpace`) compares the restore's needs with;
  /// `Backup.freeSpace(at:)` by default (tests give a fixed number instead).
  package var freeSpace: @Sendable (String) -> Int64? = { Backup.freeSpace(at: $0) }

  /// Options; by default a real (not dry-run) `.emptyOnly` restore with the standard limits.
  public init(
    mode: RestoreMode = .emptyOnly, dryRun: Bool = false, safetyBackup: URL? = nil,
    generator: String = "yarn", now: Date = Date(), limits: BackupLimits = .standard
  ) {
    self.mode = mode
    self.dryRun = dryRun
    self.safetyBackup = safetyBackup
    self.generator = generator
    self.now = now
    self.limits = limits
  }
}

/// An item of a backup that a merge cannot take: the library holds an item of the same kind
/// and ID with other content, or both hold a running time session.
public struct RestoreConflict: Hashable, Sendable, CustomStringConvertible {
  /// `yarn`, `project`, `note`, `session` or `tool`.
  public var kind: String
  /// The item's ID, shared by the backup's item and the library's.
  public var id: String
  /// The yarn's or project's name in the backup, when it has one.
  public var name: String?
  /// What differs, such as `quantity, colorway differ`.
  public var reason: String

  init(kind: String, id: String, name: String?, reason: String) {
    self.kind = kind
    self.id = id
    self.name = name
    self.reason = reason
  }

  /// `KIND ID (NAME): REASON`, such as `yarn y-1 (Cascade 220): quantity differs`.
  public var description: String {
    "\(kind) \(Rules.shown(id: id))" + (name.map { " (\($0))" } ?? "") + ": \(reason)"
  }
}

/// What a restore did (or, in a dry run, would do).
public struct RestoreReport: Hashable, Sendable {
  /// The backup's manifest.
  public var manifest: BackupManifest
  /// The mode the restore ran in.
  public var mode: RestoreMode
  /// Whether it was a dry run: then nothing was changed, and the counts say what would be.
  public var dryRun: Bool
  /// The items added to the library; `attachments` counts files newly stored (bytes already
  /// in the library are shared, not stored twice).
  public var added: BackupManifest.Counts
  /// `.merge`: the backup's items already in the library with the same content, left alone;
  /// `attachments` counts the backup's files whose bytes the library already stores.
  public var unchanged: BackupManifest.Counts
  /// `.replace`: what the library held before and no longer holds (`attachments` counts the
  /// distinct files its items referred to).
  public var replaced: BackupManifest.Counts
  /// `.replace` of a library that was not empty: the safety backup written before anything
  /// changed (`nil` in a dry run, or when the library was empty).
  public var safetyBackup: URL?
  /// What `Backup.create` found wrong with the library as it wrote the safety backup
  /// (`BackupError.unrestorable`: a library changed outside yarn), so what the safety backup
  /// holds that a restore would refuse, or lacks; empty for a sound library. Such a library
  /// is still replaced, and its safety backup kept. A dry run lists what the safety backup
  /// would hold, by the same checks.
  public var safetyBackupProblems: [BackupProblem] = []
  /// The oldest safety backups removed once the replace committed, beyond the newest
  /// `Backup.safetyBackupsKept` (5) of the safety backup's folder; empty for none. In a dry
  /// run, those the replace would remove (none is).
  public var safetyBackupsRemoved: [URL] = []
  /// The older safety backups the replace tried to remove as it removed those of
  /// `safetyBackupsRemoved`, and could not (a folder that cannot be written, an immutable
  /// file), each with the reason; they stay where they are, and the restore succeeded all
  /// the same. Empty for none.
  public var safetyBackupsNotRemoved: [SafetyBackupNotRemoved] = []
}

/// An older safety backup that a `.replace` tried to remove, beyond the newest
/// `Backup.safetyBackupsKept`, and could not (`RestoreReport.safetyBackupsNotRemoved`).
public struct SafetyBackupNotRemoved: Hashable, Sendable {
  /// The safety backup, still there.
  public var url: URL
  /// Why it could not be removed, in the system's words (unlink(2)), such as `permission
  /// denied`.
  public var reason: String
}

extension Backup {
  /// How many safety backups a `.replace` keeps in the folder of `RestoreOptions.safetyBackup`:
  /// the newest 5 (by modification time) of the files named `yarn-backup-before-restore-*.zip`
  /// there; older ones are removed once a replace has committed, but the backup restored from.
  public static let safetyBackupsKept = 5

  /// Restores the backup at `url` (a zip, or a directory holding the same files) into
  /// `store`, as `options.mode` says, on the calling thread.
  ///
  /// First everything is checked that can be without touching the library: names, kinds
  /// and the manifest before reading any data (so hostile archives are refused at once),
  /// then `library.json` (read and checked item by item, its size capped), and for a merge
  /// each item against the library by ID (a merge holds the backup's items in memory; the
  /// other modes read `library.json` again to insert its items, one at a time). Then, in one write transaction: every attachment is
  /// read, checked against its size and SHA-256 and placed in the store's content-addressed
  /// folder (those already there are only checked); `.replace` writes the safety backup and
  /// removes everything; the items are inserted. After the commit, attachment files no
  /// record refers to are removed (`LibraryStore.sweepAttachments()`).
  ///
  /// All or nothing: after any error the store's records are what they were, and the files
  /// this restore placed are removed (before the write lock is released). A process killed
  /// mid-restore leaves the records as they were (SQLite's transaction) and perhaps files no
  /// record refers to, which the next restore's sweep removes. Files are placed only while the write
  /// transaction holds the library's write lock, and the sweep takes that lock too, so a
  /// sweep never removes a file a restore is about to commit.
  ///
  /// - Returns: what was done; in a dry run, what would be done.
  /// - Throws: `BackupError.libraryNotEmpty` (`.emptyOnly` into a library holding anything,
  ///   checked before reading and again inside the transaction);
  ///   `BackupError.mergeConflicts` listing every conflict (`.merge`, also in a dry run);
  ///   `BackupError.safetyBackupRequired` (`.replace` of a non-empty library without
  ///   `safetyBackup`); `OutputError.intoLibrary` when `safetyBackup` is one of the library's
  ///   own files or in its `attachments` folder (not in `safety-backups`), and
  ///   `OutputError.intoBackup` when it is the backup `url` or inside it, checked before
  ///   anything is read, also in a dry run; `BackupError.invalidBackup` listing every problem found;
  ///   `.notFound`, `.cannotOpen`, `.missingManifest`, `.invalidManifest`, `.newerFormat`;
  ///   `.notEnoughSpace` when the library's file system lacks the room it needs, a
  ///   replace's safety backup included (`checkFreeSpace`, also in a dry run); `.cannotStage` when the attachments cannot be written into the
  ///   library; `BackupError.cannotWrite` naming the safety backup when it cannot be written
  ///   in its folder (`checkSafetyBackupFolder(for:)`, before anything is written, also in a
  ///   dry run); `.attachmentsUnavailable` when an attachment file of a library that
  ///   `.replace` would replace is missing or not its record's bytes (its safety backup
  ///   cannot be written; a dry run reads each file to find it too); the errors of `create`
  ///   for the safety backup but
  ///   `.unrestorable` (a library changed outside yarn is replaced all the same;
  ///   `RestoreReport.safetyBackupProblems` lists what its safety backup lacks or a restore
  ///   of it would refuse); `StoreError` from the store (such as `.readOnly` when it is not a
  ///   dry run and the store is read-only); `SystemLibraryError` when libzip cannot be
  ///   loaded; `CancellationError` when the current task is cancelled (checked between
  ///   attachments, between item inserts and between the pieces of `library.json` read, up
  ///   to the commit; nothing is changed then).
  /// - Parameters:
  ///   - url: the backup zip.
  ///   - store: the library to restore into.
  ///   - options: the mode (empty only, merge, replace), dry run, limits and safety backup.
  ///   - progress: called on the calling thread with the fraction of the backup's bytes read
  ///     (the manifest's sizes of `library.json` and the attachments), 0...1: after
  ///     `library.json` and after each attachment is checked (or placed); the values never go
  ///     down, and the last is 1 once every attachment is read. The safety backup of a
  ///     `.replace` reports nothing.
  @discardableResult
  public static func restore(
    from url: URL, into store: LibraryStore, options: RestoreOptions,
    progress: ((Double) -> Void)? = nil
  ) throws -> RestoreReport {
    let mode = options.mode
    if !options.dryRun {
      guard store.mode == .readWrite else { throw StoreError.readOnly(path: store.directory.path) }
    }
    let wasEmpty = try store.isEmpty()
    if mode == .emptyOnly, !wasEmpty {
      throw BackupError.libraryNotEmpty(path: store.directory.path)
    }
    if mode == .replace, !wasEmpty, !options.dryRun, options.safetyBackup == nil {
      throw BackupError.safetyBackupRequired(path: store.directory.path)
    }
    // The safety backup is never one of the library's own files but in its place,
    // `safety-backups` (the rule of every writer, `OutputError`), also in a dry run.
    if mode == .replace, !wasEmpty, let target = options.safetyBackup {
      try OutputError.refuseLibraryFile(target.path, of: store.directory, safetyBackup: true)
      // Nor in the backup being read: it would change it (a directory backup's unlisted file).
      // The name it will take is checked (`unusedPath`): the backup being read, an earlier
      // safety backup of the same second, is a taken name, skipped for `… (2).zip`.
      try OutputError.refuseBackupFile(unusedPath(target).path, of: url)
    }
    let reader = try BackupReader(url: url, limits: options.limits)
    guard reader.structuralProblems.isEmpty else {
      throw BackupError.invalidBackup(path: url.path, problems: reader.structuralProblems)
    }
    var counter = reader.progressCounter(progress)
    let files = reader.attachmentFiles
    // Checked before anything changes. A merge compares every item with the library's, so
    // it holds the whole backup in memory; the other modes read it item by item, keeping
    // only what the checks need, and read it again to insert it (`insertItems`).
    var problems: [BackupProblem]
    var merging: (library: Library, plan: RestorePlan)?
    var added: BackupManifest.Counts
    var checkedBefore = false
    if mode == .merge {
      let read = try reader.readLibrary(now: store.clock())
      counter.add(reader.librarySize)
      try Task.checkCancellation()
      problems = read.problems
      let plan = try RestorePlan(merging: read.library, into: store)
      merging = (read.library, plan)
      added = plan.added
    } else if !options.dryRun, let checked = options.checked, checked.manifest == reader.manifest,
      reader.formatVersion == Backup.formatVersion
    {
      // Checked just before by the caller: the insertion reads compare the file with the
      // manifest's SHA-256, so they read what was checked.
      counter.add(reader.librarySize)
      problems = []
      added = checked.counts
      checkedBefore = true
    } else {
      let checked = try reader.checkLibrary(now: store.clock())
      counter.add(reader.librarySize)
      problems = checked.problems
      added = checked.counts
    }
    try Task.checkCancellation()
    let conflicts = merging?.plan.conflicts ?? []

    // Refused or a dry run: the attachments are only checked, so that every problem is
    // reported; nothing is written.
    if options.dryRun || !problems.isEmpty || !conflicts.isEmpty {
      for file in files {
        try Task.checkCancellation()
        if let problem = try reader.readAttachment(file, to: nil) { problems.append(problem) }
        counter.add(file.size)
      }
      counter.finish()
      guard problems.isEmpty else {
        throw BackupError.invalidBackup(path: url.path, problems: problems)
      }
      guard conflicts.isEmpty else {
        throw BackupError.mergeConflicts(path: url.path, conflicts: conflicts)
      }
    }

    let newFiles = files.filter { !store.hasAttachment(sha256: $0.sha256) }
    var report = RestoreReport(
      manifest: reader.manifest, mode: mode, dryRun: options.dryRun, added: added,
      unchanged: merging?.plan.unchanged ?? .zero, replaced: .zero, safetyBackup: nil)
    report.added.attachments = newFiles.count
    if mode == .merge { report.unchanged.attachments = files.count - newFiles.count }
    if mode == .replace, !wasEmpty {
      let counts = try store.itemCounts()
      report.replaced = BackupManifest.Counts(
        yarns: counts.yarns, projects: counts.projects, notes: counts.notes,
        sessions: counts.sessions, attachments: try store.referencedAttachmentDigests().count,
        tools: counts.tools)
    }
    // A dry run refuses what the real restore would for want of space, the safety backup of
    // a replace included.
    let safetyBytes = mode == .replace && !wasEmpty ? try safetyBackupSpace(of: store) : 0
    if !checkedBefore {
      try checkFreeSpace(
        for: reader.manifest, in: store, plus: safetyBytes, safetyBackup: options.safetyBackup,
        free: options.freeSpace)
    }
    // And where the safety backup goes, so that a dry run fails as the real run would.
    if mode == .replace, !wasEmpty, let target = options.safetyBackup {
      try checkSafetyBackupFolder(for: target)
    }
    if options.dryRun {
      // The real `--replace` first backs up every item of the library (the safety backup),
      // which fails on an item the store cannot read (a library changed outside yarn): read
      // them all here too, so that the dry run fails as the restore would. It also fails,
      // before anything changes, on an attachment file that is missing or not its record's
      // bytes (`BackupError.attachmentsUnavailable`): check each one's size and SHA-256 here.
      if mode == .replace, !wasEmpty {
        let attachments = try store.library().attachments
        let attachmentURL = { store.attachmentURL(sha256: $0) }
        for attachment in attachments {
          try Task.checkCancellation()
          let file = attachmentURL(attachment.sha256)
          guard let reason = BackupWriter.problem(of: attachment, at: file, reading: true) else { continue }
          let found = UnavailableAttachment(sha256: attachment.sha256, path: file.path, reason: reason)
          throw try BackupWriter.unavailable(attachments, found: found, attachmentURL: attachmentURL)
            .namingUses(in: store, exporting: false)
        }
        // What the real run's safety backup would find wrong with the library, in its words,
        // and the older safety backups it would remove then.
        report.safetyBackupProblems = try unrestorableProblems(of: store)
        if let target = options.safetyBackup {
          report.safetyBackupsRemoved =
            pruneSafetyBackups(besides: target, keeping: url, removing: false).removed
        }
      }
      return report
    }

    try store.write {
      // The files this restore placed are removed on any failure while the write lock is
      // still held, so that no other process can commit a record of the same bytes first.
      var placed: [String] = []
      var createdFolder: String?
      do {
        try placeAttachments(
          files, from: reader, into: store, placed: &placed, url: url, counter: &counter)
        counter.finish()
        func insertItems() throws {
          guard let merging else {
            try Task.checkCancellation()
            try insertStreamed(from: reader, into: store, url: url)
            return
          }
          // Planned again under the write lock: the library may have changed since.
          let final = try RestorePlan(merging: merging.library, into: store)
          guard final.conflicts.isEmpty else {
            throw BackupError.mergeConflicts(path: url.path, conflicts: final.conflicts)
          }
          try store.insert(library: final.additions)
          try Task.checkCancellation()
        }
        switch mode {
        case .emptyOnly:
          guard try store.isEmpty() else {
            throw BackupError.libraryNotEmpty(path: store.directory.path)
          }
          try insertItems()
        case .replace:
          guard let given = options.safetyBackup, !(try store.isEmpty()) else {
            // Nothing to replace: a restore like any other, which undo can reverse.
            try store.removeAll()
            try insertItems()
            break
          }
          // Under the write lock: a restore of the same second waiting for it finds this one's
          // file there, and numbers its own.
          let target = unusedPath(given)
          let folder = target.deletingLastPathComponent().path
          if mkdir(folder, 0o777) == 0 {
            createdFolder = folder
          } else if errno != EEXIST {
            throw BackupError.cannotWrite(path: target.path, reason: POSIX.errnoText())
          }
          do {
            _ = try Backup.write(
              from: store, to: target, generator: options.generator, now: options.now, force: false,
              progress: nil)
          } catch BackupError.unrestorable(_, let problems) {
            // A damaged library must still be replaceable: its safety backup, written
            // and kept, holds everything it could give.
            report.safetyBackupProblems = problems
          }
          report.safetyBackup = target
          // Not recorded in the undo history, which it ends: the safety backup is the way back.
          let barrier =
            "it replaced the whole library with the backup \(options.backupName ?? url.path); the library before it "
            + "is in the safety backup \(target.path)"
          try store.withoutHistory(barrier: barrier) {
            try store.removeAll()
            try insertItems()
          }
        case .merge:
          try insertItems()
        }
      } catch {
        for path in placed { unlink(path) }
        // Only when empty: a safety backup written before a later failure is kept.
        if let createdFolder { rmdir(createdFolder) }
        throw error
      }
    }
    // Committed: the files no record refers to any more (the replaced library's) go.
    _ = try? store.sweepAttachments()
    if let target = report.safetyBackup {
      (report.safetyBackupsRemoved, report.safetyBackupsNotRemoved) = pruneSafetyBackups(
        besides: target, keeping: url)
    }
    return report
  }

  /// Inserts the items of the backup's `library.json`, found sound by `checkLibrary`, read
  /// again item by item (`BackupReader.readItems`): the yarns, then the projects, then the
  /// notes, sessions and tools, each in the file's order: three reads, so that what an item
  /// refers to is in the store before it, in the order `LibraryStore.insert(library:)` inserts
  /// a whole library. Run inside the restore's write transaction.
  ///
  /// - Throws: the store's errors (the first; the file is still read to its end);
  ///   `CancellationError` when the current task is cancelled (checked before each item, and
  ///   before each piece of the file read: the rest is not read);
  ///   `BackupError.invalidBackup` when the file no longer reads as it did when checked.
  private static func insertStreamed(
    from reader: BackupReader, into store: LibraryStore, url: URL
  ) throws {
    let passes: [Set<LibraryArray>] = [[.yarns], [.projects], [.notes, .sessions, .tools]]
    for arrays in passes {
      var failure: Error?
      let problems = try reader.readItems(arrays) { item in
        guard failure == nil else { return }
        do {
          try Task.checkCancellation()
          try store.insert(item)
        } catch { failure = error }
      }
      guard problems.isEmpty else {
        throw BackupError.invalidBackup(path: url.path, problems: problems)
      }
      if let failure { throw failure }
    }
    try Task.checkCancellation()
  }

  /// Reads each attachment of the backup, checks it, and places it in the store's
  /// content-addressed folder (through a temporary file in `attachments/`, fsynced, then
  /// renamed, replacing a file of the same digest, which may be damaged), appending the path
  /// of each file the store lacked to `placed`. Run inside the restore's write transaction.
  ///
  /// - Throws: `BackupError.invalidBackup` listing every attachment problem, after reading
  ///   them all; `BackupError.cannotStage` when a file cannot be written;
  ///   `CancellationError`. Each file read is added to `counter`.
  private static func placeAttachments(
    _ files: [BackupManifest.File], from reader: BackupReader, into store: LibraryStore,
    placed: inout [String], url: URL, counter: inout ProgressCounter
  ) throws {
    let folder = store.directory.appendingPathComponent(LibraryStore.attachmentsFolderName)
    var problems: [BackupProblem] = []
    var shards = Set<String>()
    for file in files {
      try Task.checkCancellation()
      // Written even when the library has a file of that digest: the backup's checked bytes
      // replace it, so a damaged file in the library is mended, never trusted.
      let existed = store.hasAttachment(sha256: file.sha256)
      let temporary = folder.appendingPathComponent(".restore-" + Identifier.make())
      let problem = try reader.readAttachment(file, to: temporary)
      counter.add(file.size)
      if let problem {
        problems.append(problem)
        continue
      }
      let target = store.attachmentURL(sha256: file.sha256)
      let shard = target.deletingLastPathComponent().path
      if mkdir(shard, 0o755) != 0, errno != EEXIST {
        let reason = POSIX.errnoText()
        unlink(temporary.path)
        throw BackupError.cannotStage(path: shard, reason: reason)
      }
      guard rename(temporary.path, target.path) == 0 else {
        let reason = POSIX.errnoText()
        unlink(temporary.path)
        throw BackupError.cannotStage(path: target.path, reason: reason)
      }
      if !existed { placed.append(target.path) }
      shards.insert(shard)
    }
    for shard in shards.sorted() { AtomicFile.syncDirectory(shard) }
    if !shards.isEmpty { AtomicFile.syncDirectory(folder.path) }
    guard problems.isEmpty else { throw BackupError.invalidBackup(path: url.path, problems: problems) }
  }

  /// `url` (`DIR/NAME.zip`) when no file is there, else the first of `DIR/NAME (2).zip`,
  /// `DIR/NAME (3).zip`, … that is free.
  static func unusedPath(_ url: URL) -> URL {
    let folder = url.deletingLastPathComponent()
    let stem = url.deletingPathExtension().lastPathComponent
    let suffix = url.pathExtension.isEmpty ? "" : "." + url.pathExtension
    var candidate = url
    var number = 2
    while FileManager.default.fileExists(atPath: candidate.path) {
      candidate = folder.appendingPathComponent("\(stem) (\(number))\(suffix)")
      number += 1
    }
    return candidate
  }

  /// Removes the oldest safety backups beside `target` beyond `safetyBackupsKept` (files
  /// named `yarn-backup-before-restore-*.zip`, by modification time), never `target` itself,
  /// the one just written, nor a file that is not a zip, nor `source`, the backup restored
  /// from, when it is one of them (the same file, by device and inode, however its path was
  /// spelled: a link, `..`): it stays beyond the count. When any has a file time in the
  /// future (a clock set back, a copy that kept its times), their order is not known, so none
  /// is removed: a stale copy dated ahead would otherwise outrank, and remove, the safety
  /// backups written since. A folder that cannot be read is left as it is.
  ///
  /// With `removing` false (a dry run, before `target` is written) nothing is removed, and
  /// the files that would be are returned as removed.
  ///
  /// - Returns: the files removed, oldest last, and those that could not be removed, with
  ///   the reason (one another process removed meanwhile is in neither).
  static func pruneSafetyBackups(
    besides target: URL, keeping source: URL? = nil, removing: Bool = true
  ) -> (removed: [URL], notRemoved: [SafetyBackupNotRemoved]) {
    let folder = target.deletingLastPathComponent().path
    var restored = stat()
    let hasSource = source.map { stat($0.path, &restored) == 0 } ?? false
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    let backups = names.filter {
      $0.hasPrefix("yarn-backup-before-restore-") && $0.hasSuffix(".zip") && $0 != target.lastPathComponent
    }
    .compactMap { name -> (name: String, modified: Int, isSource: Bool)? in
      var info = stat()
      guard lstat(folder + "/" + name, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
        beginsAsZip(folder + "/" + name)
      else { return nil }
      let isSource = hasSource && info.st_dev == restored.st_dev && info.st_ino == restored.st_ino
      return (name, Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec), isSource)
    }
    .sorted { ($0.modified, $0.name) > ($1.modified, $1.name) }
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    if let newest = backups.first, newest.modified > Int(now.tv_sec) * 1_000_000_000 + Int(now.tv_nsec) {
      return ([], [])
    }
    // The one just written is the newest of the kept, whatever its file time says.
    var removed: [URL] = []
    var notRemoved: [SafetyBackupNotRemoved] = []
    for old in backups.dropFirst(safetyBackupsKept - 1) where !old.isSource {
      let url = URL(fileURLWithPath: folder + "/" + old.name)
      if !removing || unlink(url.path) == 0 {
        removed.append(url)
      } else if errno != ENOENT {
        notRemoved.append(SafetyBackupNotRemoved(url: url, reason: POSIX.errnoText()))
      }
    }
    return (removed, notRemoved)
  }

  /// Refuses a safety backup that cannot be written at `target`, before a replace (or its dry
  /// run) writes anything: its folder must be a directory this user may create files in, or,
  /// when it does not exist yet, the folder above it, where the replace creates it (access(2):
  /// permissions, a read-only file system, an immutable folder).
  ///
  /// - Throws: `BackupError.cannotWrite` naming `target`, with the system's reason (`permission
  ///   denied`, `not a directory`), as writing it would.
  static func checkSafetyBackupFolder(for target: URL) throws {
    // `/.`: a file where the folder should be is `not a directory`, as it would be.
    guard access(POSIX.join(safetyBackupFolder(for: target), "."), W_OK | X_OK) == 0 else {
      throw BackupError.cannotWrite(path: target.path, reason: POSIX.errnoText())
    }
  }

  /// The folder the safety backup `target` is written in, as the file system finds it: the
  /// folder of `target` or, when it does not exist yet, the folder above it (where the replace
  /// creates it), with its symbolic links resolved (realpath(3)), so that a `safety-backups`
  /// folder that links to a folder on another disk is that folder; the path as given when it
  /// cannot be resolved (a link to nothing, where writing fails).
  static func safetyBackupFolder(for target: URL) -> String {
    var folder = target.deletingLastPathComponent().path
    var info = stat()
    if lstat(folder, &info) != 0, errno == ENOENT { folder = POSIX.directory(of: folder) }
    guard let resolved = realpath(folder, nil) else { return folder }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// Whether the file at `path` begins with a zip's local file header, `PK\u{3}\u{4}` (APPNOTE
  /// 4.3.7): a safety backup is one; a file of another kind that only has its name is not
  /// yarn's to remove.
  private static func beginsAsZip(_ path: String) -> Bool {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: 4)
    return read(fd, &bytes, 4) == 4 && bytes == [0x50, 0x4B, 0x03, 0x04]
  }

  /// The free space a restore asks for beyond what its files take (`checkFreeSpace`): 1 MiB,
  /// for the database's pages and journal beyond its items and for the file system's own
  /// blocks.
  static let freeSpaceMarginBytes: Int64 = 1 << 20

  /// Refuses a restore that cannot fit, so that a large backup fails at once, not after
  /// filling the disk. The library's file system must have free: the size of each attachment
  /// of the backup the library lacks, the size of the largest one it has (written again
  /// through a temporary copy), twice the size of `library.json` (its items in the database,
  /// and again in the database's write-ahead log until it is checkpointed), and
  /// `freeSpaceMarginBytes` — by the manifest's sizes — and `safety` bytes more (the safety
  /// backup of a replace, `safetyBackupSpace(of:)`). The free space is read by `free` at the
  /// library's folder, or at the nearest folder above it that exists when the library is not
  /// created yet (`freeSpace(at:)`); a file system whose free space cannot be read is not
  /// checked. The safety backup's bytes are asked of the file system it is written to: when
  /// its folder (`safetyBackupFolder(for:)` of `target`, links resolved) is on another one
  /// than the library (another device, stat(2)'s `st_dev`), they are checked there, apart.
  ///
  /// - Throws: `BackupError.notEnoughSpace` naming the library folder and both sizes;
  ///   `BackupError.notEnoughSpaceForSafetyBackup` naming the safety backup's folder.
  static func checkFreeSpace(
    for manifest: BackupManifest, in store: LibraryStore, plus safety: Int64 = 0,
    safetyBackup target: URL? = nil, free: (String) -> Int64? = { freeSpace(at: $0) }
  ) throws {
    let needed = neededSpace(for: manifest, in: store)
    if safety > 0, let target {
      let folder = safetyBackupFolder(for: target)
      var library = stat()
      var other = stat()
      if stat(store.directory.path, &library) == 0, stat(folder, &other) == 0, library.st_dev != other.st_dev
      {
        try checkFreeSpace(needed: needed, directory: store.directory, free: free)
        if let available = free(folder), safety > available {
          throw BackupError.notEnoughSpaceForSafetyBackup(path: folder, needed: safety, free: available)
        }
        return
      }
    }
    try checkFreeSpace(needed: sum(needed, safety), directory: store.directory, free: free)
  }

  /// Refuses to restore the backup `checked` into a new library at `directory` (which does
  /// not exist yet) when it cannot fit, as `checkFreeSpace(for:in:plus:free:)` does, measured
  /// at the nearest folder above `directory` that exists: to be called before the library is
  /// created, so that a restore refused for want of space creates nothing.
  ///
  /// - Throws: `BackupError.notEnoughSpace` naming `directory` and both sizes.
  package static func checkFreeSpace(
    for checked: CheckedLibrary, newLibrary directory: URL,
    free: (String) -> Int64? = { freeSpace(at: $0) }
  ) throws {
    let needed = neededSpace(for: checked.manifest) { _ in false }
    try checkFreeSpace(needed: needed, directory: directory, free: free)
  }

  /// Throws `BackupError.notEnoughSpace` when `free` of `directory` is known and below `needed`.
  private static func checkFreeSpace(
    needed: Int64, directory: URL, free: (String) -> Int64?
  ) throws {
    guard let available = free(directory.path) else { return }
    if needed > available {
      throw BackupError.notEnoughSpace(path: directory.path, needed: needed, free: available)
    }
  }

  /// The bytes free for an unprivileged user on the file system of `path` (statvfs(3):
  /// `f_bavail` × `f_frsize`), or of the nearest folder above it that exists when `path` does
  /// not; `nil` when they cannot be read.
  package static func freeSpace(at path: String) -> Int64? {
    var folder = path
    var info = statvfs()
    while statvfs(folder, &info) != 0 {
      guard errno == ENOENT || errno == ENOTDIR else { return nil }
      let parent = POSIX.directory(of: folder)
      guard !parent.isEmpty, parent != folder else { return nil }
      folder = parent
    }
    return Int64(clamping: UInt64(info.f_bavail) &* UInt64(info.f_frsize))
  }

  /// The bytes `checkFreeSpace` asks for (`Int64.max` when they overflow), without `extra`.
  static func neededSpace(for manifest: BackupManifest, in store: LibraryStore) -> Int64 {
    neededSpace(for: manifest) { store.hasAttachment(sha256: $0) }
  }

  /// The bytes `checkFreeSpace` asks for a library that has the attachments `has` says.
  private static func neededSpace(
    for manifest: BackupManifest, has: (String) -> Bool
  ) -> Int64 {
    var needed = freeSpaceMarginBytes
    var largestKept: Int64 = 0
    for file in manifest.files {
      if file.path == BackupManifest.libraryPath {
        needed = sum(needed, file.size, file.size)
      } else if has(file.sha256) {
        largestKept = max(largestKept, file.size)
      } else {
        needed = sum(needed, file.size)
      }
    }
    return sum(needed, largestKept)
  }

  /// What a zip entry may take beyond its bytes in a safety backup, by the count in
  /// `safetyBackupSpace(of:)`: 1 KiB.
  static let safetyBackupEntryBytes: Int64 = 1 << 10

  /// An upper bound of the free space the safety backup of `store` takes while it is written
  /// (`Backup.create` into the library's folder, `LIBRARY/safety-backups/`): 4 times the
  /// size of the library's database (`library.sqlite` and its `-wal`) — `library.json` is
  /// written out whole beside the zip, then deflated into it, and its JSON text (keys
  /// repeated in every item, escapes) is at most about twice the database's bytes: 1.88
  /// times for 40 notes of 90,000 characters each written as a two-character escape, the
  /// worst measured (a small library's JSON is a seventh of its database) — plus the
  /// size of each attachment file the library's items refer to, plus
  /// `safetyBackupEntryBytes` for each of them (its zip headers, its line in the manifest
  /// and deflate's worst growth, 5 bytes in 16 KiB).
  ///
  /// - Throws: `StoreError` from reading the attachments' digests.
  static func safetyBackupSpace(of store: LibraryStore) throws -> Int64 {
    func size(_ path: String) -> Int64 {
      var info = stat()
      return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }
    let database = store.directory.appendingPathComponent(LibraryStore.databaseFileName).path
    let databaseBytes = sum(size(database), size(database + "-wal"))
    var needed = sum(databaseBytes, databaseBytes, databaseBytes, databaseBytes)
    for digest in try store.referencedAttachmentDigests() {
      needed = sum(needed, size(store.attachmentURL(sha256: digest).path), safetyBackupEntryBytes)
    }
    return needed
  }

  /// The sum of `values`, each taken as 0 when negative, or `Int64.max` when it overflows.
  private static func sum(_ values: Int64...) -> Int64 {
    var total: Int64 = 0
    for value in values {
      let (next, overflow) = total.addingReportingOverflow(max(0, value))
      if overflow { return Int64.max }
      total = next
    }
    return total
  }
}

extension BackupManifest.Counts {
  /// All zero.
  package static let zero = BackupManifest.Counts(
    yarns: 0, projects: 0, notes: 0, sessions: 0, attachments: 0)
}

/// What a merge adds to a library: each item of the backup compared by ID with the
/// library's (added when the library lacks the ID, left alone when equal, a conflict
/// otherwise). (The other modes add every item, read item by item: `insertStreamed`.)
struct RestorePlan {
  private(set) var added = BackupManifest.Counts.zero
  private(set) var unchanged = BackupManifest.Counts.zero
  private(set) var conflicts: [RestoreConflict] = []
  /// The items to insert, in the backup's order.
  private(set) var additions = Library()

  /// Compares `library` with `store`.
  ///
  /// - Throws: `StoreError` from the store's look-ups.
  init(merging library: Library, into store: LibraryStore) throws {
    // In the file's order (notes, projects, sessions, yarns), so conflicts are listed so.
    for note in library.notes {
      let mine = RestorePlan.stored(note)
      if see(mine, try store.note(id: note.id), kind: "note", id: note.id, name: nil, \.notes) {
        additions.notes.append(note)
      }
    }
    for project in library.projects {
      let stored = try store.project(id: project.id)
      if see(project, stored, kind: "project", id: project.id, name: project.name, \.projects) {
        additions.projects.append(project)
      }
    }
    for session in library.sessions {
      let mine = RestorePlan.stored(session)
      let stored = try store.session(id: session.id)
      if see(mine, stored, kind: "session", id: session.id, name: nil, \.sessions) {
        additions.sessions.append(session)
      }
    }
    // Tools: added when the library lacks the ID, left alone when equal, a conflict otherwise.
    for tool in library.tools {
      guard let stored = try store.tool(id: tool.id) else {
        added.tools = (added.tools ?? 0) + 1
        additions.tools.append(tool)
        continue
      }
      if stored != tool {
        conflicts.append(
          RestoreConflict(
            kind: "tool", id: tool.id, name: tool.name,
            reason: RestorePlan.differences(tool, stored, libraryName: tool.name)))
      } else {
        unchanged.tools = (unchanged.tools ?? 0) + 1
      }
    }
    for yarn in library.yarns {
      if see(yarn, try store.yarn(id: yarn.id), kind: "yarn", id: yarn.id, name: yarn.name, \.yarns) {
        additions.yarns.append(yarn)
      }
    }
    // No session the backup adds shares time with one of the library (the rule of `time
    // add`, `TimeSession.overlaps(_:now:)`): each pair is a conflict.
    let now = store.clock()
    for session in additions.sessions {
      let mine = RestorePlan.stored(session)
      // Two running sessions are the conflict below, not an overlap.
      for other in try store.sessions(from: mine.start, to: mine.end)
      where !(mine.isRunning && other.isRunning) && mine.overlaps(other, now: now) {
        let projectName = try store.projectName(id: other.projectID) ?? other.projectID
        conflicts.append(
          RestoreConflict(
            kind: "session", id: session.id, name: nil,
            reason: "from \(JSONCoding.formatInstant(mine.start)) to "
              + "\(mine.end.map { JSONCoding.formatInstant($0) } ?? "now (running)"), "
              + "it "
              + TimeError.overlapping(
                other, projectName: projectName, instant: JSONCoding.formatInstant,
                id: Rules.shown(id: other.id))))
      }
    }
    // At most one session runs: one the backup adds while the library has another.
    if let session = additions.sessions.first(where: \.isRunning),
      let running = try store.runningSession(), running.id != session.id
    {
      conflicts.append(
        RestoreConflict(
          kind: "session", id: session.id, name: nil,
          reason:
            "it is running, and so is session \(Rules.shown(id: running.id)) of the library (at most one may run)"
        ))
    }
  }

  /// Counts `mine` against the library's item of the same ID; whether it is to be added.
  private mutating func see<T: Encodable & Equatable>(
    _ mine: T, _ theirs: T?, kind: String, id: String, name: String?,
    _ count: WritableKeyPath<BackupManifest.Counts, Int>
  ) -> Bool {
    guard let theirs else {
      added[keyPath: count] += 1
      return true
    }
    if mine == theirs {
      unchanged[keyPath: count] += 1
    } else {
      conflicts.append(
        RestoreConflict(
          kind: kind, id: id, name: name,
          reason: RestorePlan.differences(mine, theirs, libraryName: name)))
    }
    return false
  }

  /// `note` as the store keeps it (instants truncated to whole seconds).
  static func stored(_ note: Note) -> Note {
    var out = note
    out.created = LibraryStore.truncated(note.created)
    out.modified = LibraryStore.truncated(note.modified)
    return out
  }

  /// `session` as the store keeps it (instants truncated to whole seconds).
  static func stored(_ session: TimeSession) -> TimeSession {
    var out = session
    out.start = LibraryStore.truncated(session.start)
    out.end = session.end.map(LibraryStore.truncated)
    return out
  }

  /// The fields that differ, in the models' order and in the words messages use for them
  /// (`fieldWords`), as `colorway, dye lot differ`: each stored property (`Mirror`; the
  /// models' coding keys are their property names) encoded alone and compared as JSON.
  static func differences<T: Encodable>(_ mine: T, _ theirs: T, libraryName: String?) -> String {
    let encoder = JSONCoding.encoder(pretty: false)
    func fields(_ value: T) -> [(label: String, data: Data)]? {
      var out: [(label: String, data: Data)] = []
      for child in Mirror(reflecting: value).children {
        guard let label = child.label, let field = child.value as? any Encodable,
          let data = try? encoder.encode(field)
        else { return nil }
        out.append((label, data))
      }
      return out
    }
    guard let left = fields(mine), let right = fields(theirs), left.count == right.count else {
      return "its content differs from the library's"
    }
    let names = zip(left, right).filter { $0.data != $1.data }.map { fieldWords[$0.0.label] ?? $0.0.label }
    if names.isEmpty { return "its content differs from the library's" }
    return names.joined(separator: ", ") + (names.count == 1 ? " differs" : " differ")
      + " from the library's"
  }

  /// The words for the models' properties of more than one word, as the rules name them
  /// (`Yarn.ruleViolations()`: `remaining`, `stored in`, …); a property of one word is its
  /// own word.
  static let fieldWords: [String: String] = [
    // Yarn
    "colorFamily": "color family", "dyeLot": "dye lot", "lengthPerSkein": "length per skein",
    "netWeightPerSkein": "net weight per skein", "remainingOverride": "remaining",
    "purchaseLocation": "purchase location", "dateAdded": "date added", "storedIn": "stored in",
    // Project
    "started": "started day", "finished": "finished day", "needleSizes": "needle sizes",
    "sizeMade": "size made", "madeFor": "made for",
    // Tool
    "lengthCentimetres": "length", "projectIDs": "projects",
    // Note and session
    "yarnID": "yarn", "projectID": "project",
  ]
}

extension LibraryStore {
  /// Inserts `item` (`insert(_:)` of its kind), a needle size an older yarn took kept.
  fileprivate func insert(_ item: LibraryItem) throws {
    switch item {
    case .note(let note): try insert(note)
    case .project(let project): try insert(project, keepingOlderSizes: true)
    case .session(let session): try insert(session)
    case .tool(let tool): try insert(tool, keepingOlderSizes: true)
    case .yarn(let yarn): try insert(yarn)
    }
  }
}
