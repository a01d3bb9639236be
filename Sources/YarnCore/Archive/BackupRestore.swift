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
  /// before anything changes.
  case merge
}

/// What a restore does and how.
public struct RestoreOptions: Sendable {
  public var mode: RestoreMode
  /// Check everything and work out what would happen, change nothing (the library, its
  /// attachments and the safety backup are not written).
  public var dryRun: Bool
  /// For `.replace` of a library that is not empty: where the safety backup of the library
  /// is written first (it must not exist). Required then; ignored otherwise.
  public var safetyBackup: URL?
  /// The safety backup's generator and creation time (`Backup.create`).
  public var generator: String
  public var now: Date
  public var limits: BackupLimits

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
  /// `yarn`, `project`, `note` or `session`.
  public var kind: String
  public var id: String
  /// The yarn's or project's name in the backup, when it has one.
  public var name: String?
  /// What differs, such as `quantity, colorway differ`.
  public var reason: String

  public init(kind: String, id: String, name: String?, reason: String) {
    self.kind = kind
    self.id = id
    self.name = name
    self.reason = reason
  }

  public var description: String {
    "\(kind) \(id)" + (name.map { " (\($0))" } ?? "") + ": \(reason)"
  }
}

/// What a restore did (or, in a dry run, would do).
public struct RestoreReport: Hashable, Sendable {
  public var manifest: BackupManifest
  public var mode: RestoreMode
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
  /// is still replaced, and its safety backup kept.
  public var safetyBackupProblems: [BackupProblem] = []
}

extension Backup {
  /// Restores the backup at `url` (a zip, or a directory holding the same files) into
  /// `store`, as `options.mode` says.
  ///
  /// Verifies first — names, kinds and the manifest before reading any data (so hostile
  /// archives are refused at once), then `library.json` item by item and every attachment,
  /// each read at most to its manifest size and checked against its size and SHA-256 —
  /// staging `library.json` and the attachments in a folder `.restore-<uuid>` inside the
  /// library directory. Then, in one write transaction: `.replace` writes the safety backup
  /// and removes everything; the items are inserted (`.merge`: compared by ID first). The
  /// verified attachments are moved into the store at the start of that transaction, and
  /// taken out again if it fails. Into an empty library (`.emptyOnly`, not a dry run) the same
  /// checks run in one pass inside the transaction (`restoreInOnePass`): the yarns are
  /// inserted and the attachments moved into the store as they are read and checked, and
  /// any problem rolls everything back.
  ///
  /// All or nothing: after any error the store holds what it held before, and no file of the
  /// backup is left in it. A process killed mid-restore leaves its records as they were
  /// (SQLite's transaction) and a `.restore-*` folder whose journal names the attachment
  /// files it may have placed; `recoverInterruptedRestores(in:)`, run at the start of every
  /// restore, removes those that no record uses, and the folder.
  ///
  /// - Returns: what was done; in a dry run, what would be done.
  /// - Throws: `BackupError.libraryNotEmpty` (`.emptyOnly` into a library holding anything,
  ///   checked before reading and again inside the transaction);
  ///   `BackupError.mergeConflicts` listing every conflict (`.merge`, also in a dry run);
  ///   `BackupError.safetyBackupRequired` (`.replace` of a non-empty library without
  ///   `safetyBackup`); `BackupError.invalidBackup` listing every problem found;
  ///   `.notFound`, `.cannotOpen`, `.missingManifest`, `.invalidManifest`, `.newerFormat`;
  ///   `.cannotStage` when the attachments cannot be written into the library; the errors of
  ///   `create` for the safety backup but `.unrestorable` (a library changed outside yarn is
  ///   replaced all the same; `RestoreReport.safetyBackupProblems` lists what its safety
  ///   backup lacks or a restore of it would refuse); `StoreError` from the store (such as `.readOnly`
  ///   when it is not a dry run and the store is read-only).
  @discardableResult
  public static func restore(
    from url: URL, into store: LibraryStore, options: RestoreOptions
  ) throws -> RestoreReport {
    let mode = options.mode
    if !options.dryRun {
      guard store.mode == .readWrite else { throw StoreError.readOnly(path: store.directory.path) }
      try recoverInterruptedRestores(in: store)
    }
    let wasEmpty = try store.isEmpty()
    if mode == .emptyOnly, !wasEmpty {
      throw BackupError.libraryNotEmpty(path: store.directory.path)
    }
    if mode == .replace, !wasEmpty, !options.dryRun, options.safetyBackup == nil {
      throw BackupError.safetyBackupRequired(path: store.directory.path)
    }
    let reader = try BackupReader(url: url, limits: options.limits)
    guard reader.structuralProblems.isEmpty else {
      throw BackupError.invalidBackup(path: url.path, problems: reader.structuralProblems)
    }

    if !options.dryRun { try checkFreeSpace(for: reader.manifest, in: store) }
    let staging = options.dryRun ? nil : try RestoreStaging(in: store)
    defer { staging?.remove() }

    if let staging, mode == .emptyOnly {
      return try restoreInOnePass(reader, into: store, staging: staging, url: url)
    }

    // Pass 1: read, check and (when restoring) stage library.json, planning as it streams.
    // A merge compares each item with the store as it streams; the other modes only count.
    // The attachments are read (and staged) meanwhile.
    let planner = MergePlanner(store: store, mode: mode)
    let files = reader.attachmentFiles
    let scan = try reader.scanLibrary(
      stagingDirectory: staging?.url, attachments: staging.map { .stage($0.url) } ?? .check,
      observe: mode == .merge ? { try planner.see($0) } : nil)
    if mode != .merge { planner.count(scan.counts) }
    let problems = scan.problems + scan.attachmentProblems
    guard problems.isEmpty else {
      throw BackupError.invalidBackup(path: url.path, problems: problems)
    }
    try planner.finish()
    if !planner.conflicts.isEmpty {
      throw BackupError.mergeConflicts(path: url.path, conflicts: planner.conflicts)
    }

    let newFiles = files.filter { !store.hasAttachment(sha256: $0.sha256) }
    var report = RestoreReport(
      manifest: reader.manifest, mode: mode, dryRun: options.dryRun, added: planner.added,
      unchanged: planner.unchanged, replaced: .zero, safetyBackup: nil)
    report.added.attachments = newFiles.count
    if mode == .merge {
      // The backup's files whose bytes the library already stores are left as they are.
      report.unchanged.attachments = files.count - newFiles.count
    }
    var oldDigests = Set<String>()
    if mode == .replace, !wasEmpty {
      let counts = try store.itemCounts()
      oldDigests = try store.referencedAttachmentDigests()
      report.replaced = BackupManifest.Counts(
        yarns: counts.yarns, projects: counts.projects, notes: counts.notes,
        sessions: counts.sessions, attachments: oldDigests.count)
      if options.dryRun {
        // The real `--replace` first backs up every item of the library (the safety
        // backup), which fails on an item the store cannot read (a library changed outside
        // yarn): read them all here too, so that the dry run fails as the restore would.
        try store.eachYarn { _ in }
        try store.eachProject { _ in }
        try store.eachNote { _ in }
        try store.eachSession { _ in }
      }
    }
    guard let staging else { return report }

    // Journal first: every file this restore may leave without a record.
    try staging.writeJournal(newFiles.map(\.sha256) + oldDigests.sorted())
    var placed: [URL] = []
    do {
      // A larger page cache for the one big transaction: fewer pages spilled to the WAL and
      // written again (64 MiB, within the restore's memory budget; SQLite's default is 2 MiB).
      try? store.connection.execute("PRAGMA cache_size = -65536")
      defer { try? store.connection.execute("PRAGMA cache_size = -2000") }
      try store.write {
        // The files are placed inside the transaction (its write lock), so that a recovery
        // in another process (`recoverInterruptedRestores`, which writes too) cannot delete
        // one of them, named by the journal of an earlier killed restore, before the commit.
        try place(newFiles, from: staging, into: store, placed: &placed)
        switch mode {
        case .emptyOnly:
          guard try store.isEmpty() else {
            throw BackupError.libraryNotEmpty(path: store.directory.path)
          }
        case .replace:
          if let target = options.safetyBackup, !(try store.isEmpty()) {
            // Safety backups of earlier restores that were killed leave temporary files.
            BackupTemporaryFiles.removeStale(inDirectory: target.deletingLastPathComponent().path)
            do {
              try Backup.create(
                from: store, to: target, generator: options.generator, now: options.now)
            } catch BackupError.unrestorable(_, let problems) {
              // A damaged library must still be replaceable: its safety backup, written
              // and kept, holds everything it could give.
              report.safetyBackupProblems = problems
            }
            report.safetyBackup = target
          }
          try store.removeAll()
        case .merge:
          break
        }
        let inserter = MergePlanner(store: store, mode: mode)
        // Any error rolls back the whole transaction, so no savepoint per item is needed;
        // the IDs were checked (unique in the backup; a merge looked each one up).
        try store.bulk {
          for key in ["yarns", "projects", "notes", "sessions"] {
            try reader.forEachItem(of: key, in: scan) { try inserter.insert($0) }
          }
        }
        try inserter.finish()
        if !inserter.conflicts.isEmpty {
          throw BackupError.mergeConflicts(path: url.path, conflicts: inserter.conflicts)
        }
      }
    } catch {
      for url in placed { unlink(url.path) }
      throw error
    }

    // Committed. The old files no record uses any more go (the journal covers a kill here).
    if !oldDigests.isEmpty {
      try? store.write {
        let referenced = try store.referencedAttachmentDigests()
        for digest in oldDigests where !referenced.contains(digest) {
          unlink(store.attachmentURL(sha256: digest).path)
        }
      }
    }
    return report
  }

  /// Restores into an empty library in one pass over `library.json`, inside the one write
  /// transaction: each yarn is inserted as soon as it is decoded and checked (decoded once,
  /// on every core), while the attachments are staged on another thread; the projects,
  /// notes and sessions, which come before the yarns they refer to, are read again from the
  /// staged copy once the yarns are in.
  /// Nothing is committed unless every check passed (the same checks as the two-pass
  /// restore: every problem of the backup is reported, and any of them rolls the whole
  /// transaction back); the attachments are placed (after the journal) just before the
  /// commit.
  private static func restoreInOnePass(
    _ reader: BackupReader, into store: LibraryStore, staging: RestoreStaging, url: URL
  ) throws -> RestoreReport {
    let files = reader.attachmentFiles
    var report = RestoreReport(
      manifest: reader.manifest, mode: .emptyOnly, dryRun: false, added: .zero,
      unchanged: .zero, replaced: .zero, safetyBackup: nil)
    var placer: AttachmentPlacer?
    do {
      try? store.connection.execute("PRAGMA cache_size = -65536")
      defer { try? store.connection.execute("PRAGMA cache_size = -2000") }
      try store.write {
        guard try store.isEmpty() else {
          throw BackupError.libraryNotEmpty(path: store.directory.path)
        }
        // Journal first: every file this restore may leave without a record. Each file is
        // moved into the store as soon as it is staged and checked; the records are
        // inserted meanwhile (`bulk` does not look for their files), and nothing commits
        // before every file is in place and checked.
        let newFiles = files.filter { !store.hasAttachment(sha256: $0.sha256) }
        let newDigests = Set(newFiles.map(\.sha256))
        try staging.writeJournal(newFiles.map(\.sha256))
        let mover = AttachmentPlacer { file, staged in
          guard newDigests.contains(file.sha256) else { return nil }
          return try place(file, stagedAt: staged, into: store)
        }
        placer = mover
        // The yarns, which refer to nothing, are inserted as they stream (they come last in
        // the file, and are most of it); the notes, projects and sessions before them refer
        // to yarns, so they are read again from the staged copy once the yarns are in.
        let inserter = MergePlanner(store: store, mode: .emptyOnly)
        var insertError: Error?
        let scan = try store.bulk {
          try reader.scanLibrary(
            stagingDirectory: staging.url, attachments: .stageAndPlace(staging.url, mover)
          ) { item in
            guard insertError == nil, case .yarn = item else { return }
            do { try inserter.insert(item) } catch { insertError = error }
          }
        }
        let problems = scan.problems + scan.attachmentProblems
        guard problems.isEmpty else {
          throw BackupError.invalidBackup(path: url.path, problems: problems)
        }
        if let insertError { throw insertError }
        try store.bulk {
          for key in ["projects", "notes", "sessions"] {
            try reader.forEachItem(of: key, in: scan) { try inserter.insert($0) }
          }
        }
        if !inserter.conflicts.isEmpty {
          throw BackupError.mergeConflicts(path: url.path, conflicts: inserter.conflicts)
        }
        inserter.count(scan.counts)
        report.added = inserter.added
        report.added.attachments = newFiles.count
      }
    } catch {
      for url in placer?.placed ?? [] { unlink(url.path) }
      throw error
    }
    return report
  }

  /// Moves one staged file into the store's attachments (its shard folder made first).
  ///
  /// - Throws: `BackupError.cannotStage`.
  private static func place(
    _ file: BackupManifest.File, stagedAt staged: URL, into store: LibraryStore
  ) throws -> URL {
    let target = store.attachmentURL(sha256: file.sha256)
    let shard = target.deletingLastPathComponent()
    if mkdir(shard.path, 0o755) != 0, errno != EEXIST {
      throw BackupError.cannotStage(path: shard.path, reason: POSIX.errnoText())
    }
    guard rename(staged.path, target.path) == 0 else {
      throw BackupError.cannotStage(path: target.path, reason: POSIX.errnoText())
    }
    return target
  }

  /// Moves the staged `files` into the store's attachments (each into its shard folder),
  /// appending each to `placed` as it goes, then fsyncs the folders.
  ///
  /// - Throws: `BackupError.cannotStage`.
  private static func place(
    _ files: [BackupManifest.File], from staging: RestoreStaging, into store: LibraryStore,
    placed: inout [URL]
  ) throws {
    var shards = Set<String>()
    for file in files {
      let target = store.attachmentURL(sha256: file.sha256)
      let shard = target.deletingLastPathComponent()
      if mkdir(shard.path, 0o755) != 0, errno != EEXIST {
        throw BackupError.cannotStage(path: shard.path, reason: POSIX.errnoText())
      }
      guard rename(staging.url.appendingPathComponent(file.sha256).path, target.path) == 0 else {
        throw BackupError.cannotStage(path: target.path, reason: POSIX.errnoText())
      }
      placed.append(target)
      shards.insert(shard.path)
    }
    for shard in shards { AtomicFile.syncDirectory(shard) }
    AtomicFile.syncDirectory(
      store.directory.appendingPathComponent(LibraryStore.attachmentsFolderName).path)
  }

  /// Refuses a restore that cannot fit: the files of the backup (by the manifest's sizes)
  /// and 64 MiB for the database must fit in the free space of the library's file system,
  /// so that a large backup fails at once, not after filling the disk.
  ///
  /// - Throws: `BackupError.cannotStage` naming both sizes.
  static func checkFreeSpace(for manifest: BackupManifest, in store: LibraryStore) throws {
    var info = statvfs()
    guard statvfs(store.directory.path, &info) == 0 else { return }
    let free = Int64(clamping: UInt64(info.f_bavail) &* UInt64(info.f_frsize))
    let needed = manifest.files.reduce(Int64(64 << 20)) { total, file in
      if file.path != BackupManifest.libraryPath, store.hasAttachment(sha256: file.sha256) {
        return total
      }
      let (sum, overflow) = total.addingReportingOverflow(max(0, file.size))
      return overflow ? Int64.max : sum
    }
    if needed > free {
      throw BackupError.cannotStage(
        path: store.directory.path,
        reason: "not enough free space: the backup needs \(needed) bytes, \(free) are free")
    }
  }

  /// Cleans up after restores that were killed: every `.restore-*` folder in the library
  /// directory that no running restore holds (its `lock` file is not locked, or is missing)
  /// is removed, after the attachment files its journal names that no record uses have been
  /// deleted. Run by every restore; safe to run at any time, also while other processes
  /// restore into the same library (their folders are left alone).
  ///
  /// - Returns: the number of folders removed.
  /// - Throws: `StoreError` from the store.
  @discardableResult
  public static func recoverInterruptedRestores(in store: LibraryStore) throws -> Int {
    guard store.mode == .readWrite else { return 0 }
    var stale: [(folder: URL, journal: [String])] = []
    do {
      // While this is held no restore is between making its folder and locking it, so a
      // folder without a lock file is one whose restore was killed.
      let guarded = RestoreStaging.lockLibrary(store.directory, LOCK_EX)
      defer { if let guarded { close(guarded) } }
      let names =
        (try? FileManager.default.contentsOfDirectory(atPath: store.directory.path)) ?? []
      for name in names where name.hasPrefix(RestoreStaging.prefix) {
        let folder = store.directory.appendingPathComponent(name)
        guard let journal = RestoreStaging.claimStale(folder, noneStarting: guarded != nil)
        else { continue }
        stale.append((folder, journal))
      }
    }
    for (folder, journal) in stale {
      if !journal.isEmpty {
        try store.write {
          let referenced = try store.referencedAttachmentDigests()
          for digest in journal where !referenced.contains(digest) {
            unlink(store.attachmentURL(sha256: digest).path)
          }
        }
      }
      RestoreStaging.removeFolder(folder)
    }
    return stale.count
  }
}

extension BackupManifest.Counts {
  /// All zero.
  public static let zero = BackupManifest.Counts(
    yarns: 0, projects: 0, notes: 0, sessions: 0, attachments: 0)
}

/// The staging folder of one restore: `.restore-<uuid>` in the library directory, holding
/// `lock` (locked with `flock` while the restore runs), `journal` (the attachment digests
/// the restore may leave without a record, one per line, fsynced before any is placed),
/// `library.json` and the verified attachments.
///
/// A restore makes its folder and locks its `lock` while holding a shared `flock` on the
/// library directory, and `Backup.recoverInterruptedRestores(in:)` decides which folders are
/// stale while holding it exclusively: so a folder without a lock file, or with one nobody
/// holds, is always one whose restore was killed (before it locked, or while its folder was
/// being removed, `lock` last), never one that is just starting.
final class RestoreStaging {
  static let prefix = ".restore-"
  let url: URL
  private var lockDescriptor: Int32

  /// Creates the folder and takes its lock.
  ///
  /// - Throws: `BackupError.cannotStage`.
  init(in store: LibraryStore) throws {
    url = store.directory.appendingPathComponent(RestoreStaging.prefix + Identifier.make())
    let creating = RestoreStaging.lockLibrary(store.directory, LOCK_SH)
    defer { if let creating { close(creating) } }
    guard mkdir(url.path, 0o700) == 0 else {
      throw BackupError.cannotStage(path: url.path, reason: POSIX.errnoText())
    }
    let lock = url.appendingPathComponent("lock").path
    lockDescriptor = open(lock, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard lockDescriptor >= 0, flock(lockDescriptor, LOCK_EX | LOCK_NB) == 0 else {
      let reason = POSIX.errnoText()
      if lockDescriptor >= 0 { close(lockDescriptor) }
      lockDescriptor = -1
      RestoreStaging.removeFolder(url)
      throw BackupError.cannotStage(path: lock, reason: reason)
    }
  }

  /// Writes and fsyncs the journal.
  ///
  /// - Throws: `BackupError.cannotStage`.
  func writeJournal(_ digests: [String]) throws {
    let journal = url.appendingPathComponent("journal")
    do {
      try AtomicFile.write(Data(digests.map { $0 + "\n" }.joined().utf8), to: journal)
    } catch {
      throw BackupError.cannotStage(path: journal.path, reason: String(describing: error))
    }
  }

  /// Removes the folder (`removeFolder`), then releases the lock.
  func remove() {
    RestoreStaging.removeFolder(url)
    if lockDescriptor >= 0 { close(lockDescriptor) }
    lockDescriptor = -1
  }

  /// Removes a staging folder: the staged files, then `journal`, then `lock`, then the
  /// folder, so that a process killed on the way leaves a folder that still names the files
  /// to clean up, or nothing but an empty folder without a lock (both stale). Errors are
  /// ignored (what is left is stale and removed by the next recovery).
  static func removeFolder(_ folder: URL) {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    for name in names where name != "lock" && name != "journal" {
      try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
    }
    unlink(folder.appendingPathComponent("journal").path)
    unlink(folder.appendingPathComponent("lock").path)
    rmdir(folder.path)
  }

  /// Takes `flock(operation)` (`LOCK_SH` or `LOCK_EX`, waiting) on the library directory
  /// `directory`: shared while a restore makes and locks its folder, exclusive while
  /// recovery decides which folders are stale.
  ///
  /// - Returns: the descriptor to close to release it; `nil` when the directory cannot be
  ///   opened or locked (such as a file system without `flock`).
  static func lockLibrary(_ directory: URL, _ operation: Int32) -> Int32? {
    let fd = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    while flock(fd, operation) != 0 {
      if errno == EINTR { continue }
      close(fd)
      return nil
    }
    return fd
  }

  /// When no process holds the folder's lock: its journal (empty when it has none); `nil`
  /// when a running restore holds it. A folder without a lock file is stale when
  /// `noneStarting` (the caller holds the library directory's lock exclusively, so no
  /// restore is between making its folder and locking it); otherwise only once it is a
  /// minute old.
  static func claimStale(_ folder: URL, noneStarting: Bool) -> [String]? {
    let lock = folder.appendingPathComponent("lock").path
    let fd = open(lock, O_RDWR | O_CLOEXEC)
    if fd >= 0 {
      defer { close(fd) }
      guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return nil }
    } else if !(noneStarting && errno == ENOENT) {
      var info = stat()
      guard stat(folder.path, &info) == 0 else { return nil }
      if Date().timeIntervalSince1970 - Double(info.st_mtim.tv_sec) < 60 { return nil }
    }
    let journal = folder.appendingPathComponent("journal")
    guard let data = try? Data(contentsOf: journal) else { return [] }
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
      .filter(Attachment.isValidDigest)
  }
}

/// Compares a backup's items with a library by ID, for a merge (and counts for every mode):
/// `see` plans (outside any transaction, for the dry run and to refuse early), `insert`
/// inserts inside the restore's transaction, checking again.
final class MergePlanner {
  private let store: LibraryStore
  private let mode: RestoreMode
  private(set) var added = BackupManifest.Counts.zero
  private(set) var unchanged = BackupManifest.Counts.zero
  private(set) var conflicts: [RestoreConflict] = []
  /// A running session of the backup that would be added.
  private var addedRunning: TimeSession?

  init(store: LibraryStore, mode: RestoreMode) {
    self.store = store
    self.mode = mode
  }

  private enum Verdict {
    case add, same
    case conflict(RestoreConflict)
  }

  /// Compares `item` with the library's item of the same ID.
  private func verdict(_ item: LibraryItem) throws -> Verdict {
    guard mode == .merge else { return .add }
    func compare<T: Encodable & Equatable>(
      _ mine: T, _ theirs: T?, kind: String, id: String, name: String?
    ) -> Verdict {
      guard let theirs else { return .add }
      if mine == theirs { return .same }
      return .conflict(
        RestoreConflict(
          kind: kind, id: id, name: name,
          reason: MergePlanner.differences(mine, theirs, libraryName: name)))
    }
    switch item {
    case .yarn(let yarn):
      return compare(yarn, try store.yarn(id: yarn.id), kind: "yarn", id: yarn.id, name: yarn.name)
    case .project(let project):
      return compare(
        project, try store.project(id: project.id), kind: "project", id: project.id,
        name: project.name)
    case .note(let note):
      return compare(
        MergePlanner.stored(note), try store.note(id: note.id), kind: "note", id: note.id,
        name: nil)
    case .session(let session):
      return compare(
        MergePlanner.stored(session), try store.session(id: session.id), kind: "session",
        id: session.id, name: nil)
    }
  }

  /// Plans `item`.
  func see(_ item: LibraryItem) throws {
    switch try verdict(item) {
    case .add:
      count(item, in: &added)
      if case .session(let session) = item, session.isRunning { addedRunning = session }
    case .same: count(item, in: &unchanged)
    case .conflict(let conflict): conflicts.append(conflict)
    }
  }

  /// Inserts `item` when the plan says so (inside the restore's write transaction).
  func insert(_ item: LibraryItem) throws {
    switch try verdict(item) {
    case .same: return
    case .conflict(let conflict):
      conflicts.append(conflict)
      return
    case .add: break
    }
    guard conflicts.isEmpty else { return }
    switch item {
    case .yarn(let yarn): try store.insert(yarn)
    case .project(let project): try store.insert(project)
    case .note(let note): try store.insert(note)
    case .session(let session):
      do { try store.insert(session) } catch StoreError.sessionAlreadyRunning(let running) {
        conflicts.append(MergePlanner.runningConflict(session, running))
      }
    }
  }

  /// Counts the items of a scan as added (the modes that do not compare).
  func count(_ counts: [String: Int]) {
    added.yarns = counts["yarns"] ?? 0
    added.projects = counts["projects"] ?? 0
    added.notes = counts["notes"] ?? 0
    added.sessions = counts["sessions"] ?? 0
  }

  /// The last check of a plan: a running session added while the library has one.
  func finish() throws {
    guard mode == .merge, let session = addedRunning,
      let running = try store.runningSession(), running.id != session.id
    else { return }
    conflicts.append(MergePlanner.runningConflict(session, running))
  }

  private static func runningConflict(_ session: TimeSession, _ running: TimeSession)
    -> RestoreConflict
  {
    RestoreConflict(
      kind: "session", id: session.id, name: nil,
      reason:
        "it is running, and so is session \(running.id) of the library (at most one may run)")
  }

  private func count(_ item: LibraryItem, in counts: inout BackupManifest.Counts) {
    switch item {
    case .yarn: counts.yarns += 1
    case .project: counts.projects += 1
    case .note: counts.notes += 1
    case .session: counts.sessions += 1
    }
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

  /// The names of the fields that differ, as `quantity, colorway differ`: each stored
  /// property (`Mirror`; the models' coding keys are their property names) encoded alone and
  /// compared as JSON.
  static func differences<T: Encodable>(_ mine: T, _ theirs: T, libraryName: String?) -> String {
    let encoder = JSONCoding.encoder(pretty: false)
    func fields(_ value: T) -> [String: Data]? {
      var out: [String: Data] = [:]
      for child in Mirror(reflecting: value).children {
        guard let label = child.label, let field = child.value as? any Encodable,
          let data = try? encoder.encode(field)
        else { return nil }
        out[label] = data
      }
      return out
    }
    guard let left = fields(mine), let right = fields(theirs) else {
      return "its content differs from the library's"
    }
    let keys = Set(left.keys).union(right.keys).sorted().filter { left[$0] != right[$0] }
    if keys.isEmpty { return "its content differs from the library's" }
    return keys.joined(separator: ", ") + (keys.count == 1 ? " differs" : " differ")
      + " from the library's"
  }
}
