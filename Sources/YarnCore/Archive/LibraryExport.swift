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

/// `yarn export FILE.zip`: the library as a zip for people to open, not for `restore`.
///
/// Entries (docs/CSV.md describes the three tables):
/// ```
/// stash.csv                      the stash, as StashCSV.export with the default columns
/// projects.csv                   one row per project
/// time.csv                       one row per time session (instants in UTC)
/// projects/<project name>/project.txt   the project in plain text
/// projects/<project name>/<photo>       its photos, and its pattern PDF, by their file names
/// yarns/<yarn name>/yarn.txt            the yarn in plain text
/// yarns/<yarn name>/<photo>             its photos
/// index.html                     one page to browse it all, linking only these files
///                                (`ExportIndex`: no scripts, no network)
/// ```
/// Every name is made one that Windows, macOS and Linux all accept (`: * ? " < > | \ /` and
/// control characters become `_`, trailing dots and spaces go, Windows device names such as
/// `CON` get a `_` in front, at most 255 bytes of UTF-8), and names that collide, ignoring
/// case and Unicode normalization, are numbered: `Flax`, `Flax (2)`.
///
/// Text is UTF-8 with LF line ends; CSV as `CSVOptions` says (RFC 4180, CRLF). Photos and PDFs
/// are stored, text and CSV deflated. The zip is written like a backup: temporary files beside
/// the target, then fsync and rename, so the target never holds a partial export.
public enum LibraryExport {
  /// One CSV table of the export.
  struct Table: Sendable {
    /// The entry name, such as `stash.csv`.
    var fileName: String
    /// Writes the table; returns the number of records.
    var write: @Sendable (LibraryStore, CSVWriter) throws -> Int

    init(fileName: String, write: @escaping @Sendable (LibraryStore, CSVWriter) throws -> Int) {
      self.fileName = fileName
      self.write = write
    }
  }

  /// `stash.csv`, `projects.csv` and `time.csv`.
  static let standardTables: [Table] = [
    Table(fileName: "stash.csv") { store, writer in try StashCSV.export(from: store, to: writer) },
    Table(fileName: "projects.csv") { store, writer in
      try ProjectCSV.export(from: store, to: writer)
    },
    Table(fileName: "time.csv") { store, writer in try TimeCSV.export(from: store, to: writer) },
  ]

  /// What an export wrote.
  public struct Summary: Hashable, Sendable {
    /// Every entry name, `/`-separated, in the order written; empty when the export was
    /// asked not to list them (`write(…listingEntries: false)`).
    public var entries: [String]
    /// The yarns written (one folder each).
    public var yarns: Int
    /// The projects written (one folder each).
    public var projects: Int
    /// Attachment files written (a photo two yarns share is written in both folders).
    public var files: Int
  }

  /// Writes the export of `store` to `url`, on the calling thread; the library is read in
  /// one read transaction.
  ///
  /// - Parameters:
  ///   - store: the library; only read.
  ///   - url: the zip file to write.
  ///   - force: replace a file at `url`; never one of the library's own files
  ///     (`OutputError.intoLibrary`).
  ///   - now: the modification time of every entry (zip headers keep it to 2 seconds), and
  ///     where a running session ends in a project's time.
  ///   - csvOptions: how the three CSV tables are written (RFC 4180 by default).
  ///   - progress: the fraction of the zip written, 0...1, while it is written, on the
  ///     calling thread.
  ///   - listingEntries: whether `Summary.entries` lists every entry (by default); false
  ///     keeps it empty, which spares the names of every page (about 8 MB at 100,000 yarns)
  ///     when nobody reads them.
  /// - Returns: what was written.
  /// - Throws: `OutputError.intoLibrary`, whatever `force`, when `url` is one of the own
  ///   files of the library of `store` (its database, a file in its attachments folder, …);
  ///   `BackupError.destinationExists` when `url` exists and `force` is false;
  ///   `BackupError.cannotWrite` when the zip cannot be written;
  ///   `BackupError.attachmentsUnavailable` (`exporting`) when attachments' files are missing
  ///   or differ from their records, listing every one as `Backup.create` does; `StoreError`;
  ///   `SystemLibraryError` when libzip cannot be loaded; `CancellationError` when the current
  ///   task is cancelled (between reads of the attachments). Nothing is left at `url` after an
  ///   error, and no temporary file.
  @discardableResult
  public static func write(
    from store: LibraryStore, to url: URL, force: Bool = false, now: Date = Date(),
    csvOptions: CSVOptions = CSVOptions(),
    progress: ((Double) -> Void)? = nil, listingEntries: Bool = true
  ) throws -> Summary {
    try OutputError.refuseLibraryFile(url.path, of: store.directory)
    var info = stat()
    // What no zip can replace is said first: --force would not help.
    try BackupWriter.checkReplaceable(url)
    if !force, lstat(url.path, &info) == 0 { throw BackupError.destinationExists(path: url.path) }
    // A symbolic link is followed: the file it points to is replaced and the link kept, as
    // every output is (`AtomicFile`); libzip renames its temporary file over the path it is
    // given, which replaced the link itself (QA: `/dev/stdout` became a zip).
    let url = URL(fileURLWithPath: AtomicFile.resolvingLinks(url.path))
    BackupTemporaryFiles.removeStale(in: url.deletingLastPathComponent().path)
    let temporary = try BackupTemporaryFiles(besides: url)
    defer { temporary.remove() }

    var entries: [String] = []
    var tableNames: [String] = []
    var summary = Summary(entries: [], yarns: 0, projects: 0, files: 0)
    do {
      let writer = try ZipArchive.Writer(
        url: url, overwrite: force, temporaryPath: temporary.archivePath)
      if let progress { writer.onProgress(progress) }
      // The tables and pages are written to one temporary file as they are made, and each
      // zipped from its range of it: libzip reads every entry only at close(), and held
      // every page's bytes until then (400 MB at 100,000 yarns).
      let staging = try ZipStaging(path: temporary.group + ".staged", digests: false)
      func addStaged(_ name: String) throws {
        let entry = try staging.endEntry()
        try writer.addRange(
          name: name, path: staging.path, offset: entry.offset, size: entry.size,
          compression: .deflate, modified: now)
        if listingEntries { entries.append(name) }
      }
      func addText(_ name: String, _ text: String) throws {
        try staging.append(text)
        try addStaged(name)
      }
      // Each attachment once, in the order added: those checked when one is found broken.
      var attachments: [Attachment] = []
      var digests = Set<String>()
      // The first attachment whose file is not its bytes, as a backup checks them
      // (`BackupWriter.problem`) before libzip opens any: a FIFO there would block open(2).
      var broken: UnavailableAttachment?
      func addAttachment(_ name: String, _ attachment: Attachment) throws {
        if digests.insert(attachment.sha256).inserted { attachments.append(attachment) }
        let file = store.attachmentURL(sha256: attachment.sha256)
        if broken == nil, let reason = BackupWriter.problem(of: attachment, at: file, reading: false) {
          broken = UnavailableAttachment(sha256: attachment.sha256, path: file.path, reason: reason)
        }
        try writer.addFile(
          name: name, from: file,
          expectedSize: attachment.byteCount, expectedSHA256: attachment.sha256,
          compression: .forMediaType(attachment.mediaType), modified: now)
        if listingEntries { entries.append(name) }
        summary.files += 1
      }

      try store.read {
        // The tables, each streamed to the temporary file.
        var topNamer = SafeFileNamer(reserved: ["projects", "yarns"])
        for table in standardTables {
          let csv = CSVWriter(options: csvOptions) { try staging.append($0) }
          _ = try table.write(store, csv)
          try csv.flush()
          let name = topNamer.claim(table.fileName)
          tableNames.append(name)
          try addStaged(name)
        }

        // The names of the yarns the projects use, for their text files and the index, looked
        // up as met. Projects and yarns are read one at a time; a yarn's usages, with their
        // projects' names and statuses, come by the yarn's index, never from a scan of every
        // project.
        var yarnNames: [String: String] = [:]
        var index = ExportIndex()
        // The index's yarn articles, written as the yarns are, go to a second temporary file,
        // copied into index.html behind its head at the end.
        let articles = try ZipStaging(path: temporary.group + ".index", digests: false)
        var projectFolders = SafeFileNamer()
        try store.forEachProject { project in
          for usage in project.usages where yarnNames[usage.yarnID] == nil {
            if let name = try store.yarnName(id: usage.yarnID) { yarnNames[usage.yarnID] = name }
          }
          let folder = "projects/" + projectFolders.claim(project.name, isFolder: true) + "/"
          var namer = SafeFileNamer(reserved: ["project.txt"])
          var photoNames: [String] = []
          var pdfName: String?
          if let pdf = project.pattern?.pdf {
            let name = namer.claim(pdf.fileName)
            pdfName = name
            try addAttachment(folder + name, pdf)
          }
          for photo in project.photos {
            let name = namer.claim(photo.fileName)
            photoNames.append(name)
            try addAttachment(folder + name, photo)
          }
          let sessions = try store.sessions(projectID: project.id)
          let text = ExportText.project(
            project, yarnNames: yarnNames, pdfName: pdfName, photoNames: photoNames,
            sessions: sessions,
            notes: try store.notes(about: .project(project.id)), now: now)
          try addText(folder + "project.txt", text)
          index.addProject(
            project, folder: folder, pdfName: pdfName, photoNames: photoNames, sessions: sessions, now: now)
          summary.projects += 1
        }

        var yarnFolders = SafeFileNamer()
        try store.forEachYarn { yarn in
          let folder = "yarns/" + yarnFolders.claim(yarn.name, isFolder: true) + "/"
          var namer = SafeFileNamer(reserved: ["yarn.txt"])
          var photoNames: [String] = []
          for photo in yarn.photos {
            let name = namer.claim(photo.fileName)
            photoNames.append(name)
            try addAttachment(folder + name, photo)
          }
          let uses = try store.uses(ofYarn: yarn.id)
          let remaining = RemainingEstimate(yarn: yarn, usages: uses.counted())
          let text = ExportText.yarn(
            yarn, remaining: remaining, uses: uses,
            photoNames: photoNames,
            notes: try store.notes(about: .yarn(yarn.id)))
          try addText(folder + "yarn.txt", text)
          try articles.append(
            index.addYarn(yarn, folder: folder, remaining: remaining, photoNames: photoNames))
          summary.yarns += 1
        }

        // index.html, last: it links every file written above.
        try staging.append(index.head(tables: tableNames, now: now))
        try staging.append(contentsOf: articles)
        try staging.append(index.tail(yarnNames: yarnNames))
        try addStaged(topNamer.claim("index.html"))
      }
      try staging.flush()
      if let broken {
        throw try BackupWriter.unavailable(
          attachments, found: broken, attachmentURL: { store.attachmentURL(sha256: $0) })
      }
      do { try writer.close() } catch {
        throw BackupWriter.closeFailure(
          error, of: writer, url: url, staging: staging.path, attachments: attachments,
          attachmentURL: { store.attachmentURL(sha256: $0) })
      }
    } catch let error as BackupError {
      throw error.namingUses(in: store, exporting: true)
    } catch let error as ZipError {
      throw BackupError.cannotWrite(path: url.path, reason: BackupReader.reason(error))
    } catch let error as AtomicFile.WriteError {
      throw BackupError.cannotWrite(path: url.path, reason: error.reason)
    } catch let error as SHA256Error {
      throw BackupError.cannotWrite(path: url.path, reason: "cannot compute a SHA-256: \(error)")
    }
    summary.entries = entries
    return summary
  }
}

/// The plain-text pages of an export: `Label: value` lines (unknown values left out), then
/// lists. Days as `YYYY-MM-DD`; instants as ISO 8601 in UTC.
enum ExportText {
  static func lines(_ pairs: [(String, String?)]) -> String {
    let shown = pairs.compactMap { label, value in value.map { (label, $0) } }
    let width = (shown.map(\.0.count).max() ?? 0) + 2
    return shown.map { label, value in
      let padded = label + ":" + String(repeating: " ", count: max(0, width - label.count - 1))
      // Continuation lines of a value that holds line breaks line up under it.
      return padded
        + value.split(separator: "\n", omittingEmptySubsequences: false)
        .joined(separator: "\n" + String(repeating: " ", count: width))
    }.joined(separator: "\n") + "\n"
  }

  /// `text` with two spaces after each line feed.
  static func indented(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      out.unicodeScalars.append(scalar)
      if scalar == "\n" { out += "  " }
    }
    return out
  }

  static func section(_ title: String, _ items: [String]) -> String {
    guard !items.isEmpty else { return "" }
    return "\n\(title):\n"
      + items.map { "  " + indented($0) }
      .joined(separator: "\n") + "\n"
  }

  static func notes(_ notes: [Note]) -> String {
    section(
      "Notes",
      notes.map { note in
        JSONCoding.formatInstant(note.created) + "\n" + note.text
      })
  }

  /// `1h 30m`, `45m`, `2h`: the form the CLI's tables use.
  static func hoursAndMinutes(_ seconds: Int64) -> String {
    let minutes = max(0, seconds) / 60
    let (hours, rest) = (minutes / 60, minutes % 60)
    if hours == 0 { return "\(rest)m" }
    return rest == 0 ? "\(hours)h" : "\(hours)h \(rest)m"
  }

  static func project(
    _ project: Project, yarnNames: [String: String], pdfName: String?, photoNames: [String],
    sessions: [TimeSession], notes: [Note], now: Date
  ) -> String {
    let seconds = sessions.reduce(Int64(0)) { $0 + $1.seconds(now: now) }
    let time =
      sessions.isEmpty
      ? nil
      : hoursAndMinutes(seconds) + " in " + Plural.count(sessions.count, "session")
    var text = lines([
      ("Name", project.name),
      ("Craft", project.craft?.rawValue),
      ("Status", project.status.rawValue),
      ("Pattern", project.pattern?.name),
      ("Pattern URL", project.pattern?.url),
      ("Pattern PDF", pdfName),
      ("Started", project.started?.iso8601),
      ("Finished", project.finished?.iso8601),
      ("Gauge", project.gauge?.description),
      ("Size made", project.sizeMade),
      ("Made for", project.madeFor),
      ("Tags", project.tags.isEmpty ? nil : Tags.cell(project.tags)),
      ("Time", time),
      ("ID", project.id),
    ])
    text += section(
      "Yarns used",
      project.usages.map { "\(yarnNames[$0.yarnID] ?? $0.yarnID): \($0.amount)" })
    text += section("Photos", photoNames)
    text += self.notes(notes)
    return text
  }

  static func yarn(
    _ yarn: Yarn, remaining: RemainingEstimate, uses: [YarnUse], photoNames: [String],
    notes: [Note]
  ) -> String {
    var remainingText: String?
    if let amount = remaining.remaining {
      remainingText = "\(amount) (\(remaining.source.rawValue))"
    }
    var text = lines([
      ("Name", yarn.name),
      ("Brand", yarn.brand),
      ("Colorway", yarn.colorway),
      ("Color family", yarn.colorFamily),
      ("Dye lot", yarn.dyeLot),
      ("Weight", yarn.weight.map { "\($0.rawValue) \($0.name)" }),
      ("Fiber", yarn.fiber),
      ("Length per skein", yarn.lengthPerSkein?.description),
      ("Net weight per skein", yarn.netWeightPerSkein?.description),
      ("Quantity", yarn.quantity?.description),
      ("Remaining", remainingText),
      ("Purchased at", yarn.purchaseLocation),
      ("Added", yarn.dateAdded?.iso8601),
      ("Status", yarn.status.rawValue + (yarn.isHeld ? " (in the stash)" : "")),
      ("Price", yarn.price?.description),
      ("Stored in", yarn.storedIn),
      ("Tags", yarn.tags.isEmpty ? nil : Tags.cell(yarn.tags)),
      ("ID", yarn.id),
    ])
    text += section(
      "Used in", uses.map { "\($0.projectName) (\($0.projectStatus.rawValue)): \($0.amount)" })
    text += section("Photos", photoNames)
    text += self.notes(notes)
    return text
  }
}
