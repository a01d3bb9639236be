import YarnModel

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

extension LibraryStore {
  /// Copies the file at `file` into the library's attachments, named by the SHA-256 of its
  /// bytes, and describes it. The library's records are not changed: put the returned value
  /// in a yarn's or project's `photos` (or `pattern.pdf`) and `update` it **in the same
  /// `write { }`**, so that no other process's collection of unused files (after a removal
  /// or a restore) can delete the file before its record is committed.
  ///
  /// The bytes are streamed in 1 MiB pieces (memory stays flat) into a temporary file in
  /// `attachments/` while they are hashed; the file is fsynced and renamed to
  /// `attachments/<first 2 hex digits>/<sha256>` (equal bytes are stored once; a file
  /// already there, which may be damaged, is replaced), and the folder fsynced.
  ///
  /// - Parameters:
  ///   - file: the file to import.
  ///   - fileName: the name to record; `file`'s last path component when `nil`.
  ///   - mediaType: the IANA media type; when `nil`, the one of the name's extension
  ///     (`jpg`/`jpeg`, `png`, `heic`, `avif`, `gif`, `webp`, `pdf`, `txt`, in any case), else
  ///     `application/octet-stream`.
  /// - Returns: the attachment: `byteCount` is the number of bytes read, `sha256` their
  ///   SHA-256 as 64 lower-case hex digits.
  /// - Throws: `StoreError.readOnly` in a `.readOnly` store; `StoreError.io` naming the path
  ///   when the source cannot be read or the copy cannot be written (nothing is left behind);
  ///   `SystemLibraryError` on Linux when OpenSSL's libcrypto (for SHA-256) cannot be loaded.
  public func importAttachment(from file: URL, fileName: String? = nil, mediaType: String? = nil)
    throws -> Attachment
  {
    guard mode == .readWrite else { throw StoreError.readOnly(path: directory.path) }
    let name = fileName ?? file.lastPathComponent
    // Under the write lock (joining the caller's transaction), so that no sweep in another
    // process removes the file before the record that refers to it is committed.
    let stored = try write {
      try AttachmentFiles.importFile(
        file.path, into: directory.appendingPathComponent(LibraryStore.attachmentsFolderName).path)
    }
    return Attachment(
      fileName: name, mediaType: mediaType ?? Attachment.mediaType(forFileName: name),
      byteCount: stored.byteCount, sha256: stored.sha256)
  }

  /// Where the bytes with this SHA-256 are (or would be) stored, to show a photo or open a
  /// pattern PDF: `DIR/attachments/<first 2 hex digits>/<sha256>`, read-only by convention
  /// (never write or move it). Text that is not 64 lower-case hex digits gives
  /// `DIR/attachments/invalid-digest`, a path the store never writes, so no input can point
  /// outside the folder. Nothing is read: the file may be missing.
  public func attachmentURL(sha256: String) -> URL {
    let folder = directory.appendingPathComponent(LibraryStore.attachmentsFolderName)
    guard Attachment.isValidDigest(sha256) else {
      return folder.appendingPathComponent("invalid-digest")
    }
    return folder.appendingPathComponent(String(sha256.prefix(2)), isDirectory: true)
      .appendingPathComponent(sha256)
  }

  /// Whether the bytes with this SHA-256 are stored (a valid digest whose file exists).
  package func hasAttachment(sha256: String) -> Bool {
    guard Attachment.isValidDigest(sha256) else { return false }
    return FileManager.default.fileExists(atPath: attachmentURL(sha256: sha256).path)
  }

  /// How many photos (of yarns and projects) and pattern PDFs the library's items hold: one
  /// a record, so a file on two items counts twice. One query.
  ///
  /// - Throws: `StoreError.busy`, `.closed`, `.database`.
  package func attachmentCounts() throws -> (photos: Int, patterns: Int) {
    try read {
      var counts = (photos: 0, patterns: 0)
      for (role, count) in try connection.query(
        "SELECT role, count(*) FROM attachment GROUP BY role", [],
        {
          ($0.text(0), Int($0.int64(1)))
        })
      {
        if role == "photo" { counts.photos = count } else if role == "pattern" { counts.patterns = count }
      }
      return counts
    }
  }

  /// The yarns and projects whose photos or pattern PDF hold the bytes `sha256`, each once:
  /// the yarns, then the projects, each in creation order. One query.
  ///
  /// - Throws: `StoreError.busy`, `.closed`, `.database`.
  package func owners(ofAttachment sha256: String) throws -> [Note.Subject] {
    try read {
      try connection.query(
        """
        SELECT DISTINCT a.yarn_id, a.project_id, coalesce(y.seq, p.seq) AS seq FROM attachment a
        LEFT JOIN yarn y ON y.id = a.yarn_id LEFT JOIN project p ON p.id = a.project_id
        WHERE a.sha256 = ? ORDER BY a.yarn_id IS NULL, seq
        """, [.text(sha256)]
      ) { row -> Note.Subject in
        if let yarn = row.text(0) { return .yarn(yarn) }
        return .project(row.text(1) ?? "")
      }
    }
  }

  // MARK: Collecting files

  /// Records the digests of the attachment rows `whereClause` selects, which the caller is
  /// about to delete, so that their files are deleted once the transaction commits, unless
  /// another record still refers to them.
  func dropAttachments(where whereClause: String, _ arguments: [SQLValue] = []) throws {
    let digests = try connection.query(
      "SELECT sha256 FROM attachment WHERE \(whereClause)", arguments
    ) { $0.text(0) ?? "" }
    droppedDigests.formUnion(digests)
  }

  /// After a commit: deletes the file of each of `digests` that no attachment record and no
  /// step of the undo history refers to (in a write transaction of its own, so that no other process commits a record of it
  /// meanwhile). Best effort: a file left behind is only space, collected by the next sweep.
  func deleteUnreferencedFiles(_ digests: Set<String>) {
    _ = try? write {
      for digest in digests.sorted() where Attachment.isValidDigest(digest) {
        let used = try connection.integer(
          """
          SELECT EXISTS (SELECT 1 FROM attachment WHERE sha256 = ?1)
            OR EXISTS (SELECT 1 FROM history_step WHERE sha256 = ?1)
          """, [.text(digest)])
        if used == 0 { unlink(attachmentURL(sha256: digest).path) }
      }
    }
  }

  /// Deletes the files in `attachments/` that yarn wrote and no attachment record (nor a step
  /// of the undo history) refers to:
  /// content files (`<2 hex>/<sha256>`) of removed items that an earlier process could not
  /// delete or that a killed restore placed before it could commit their records, and the
  /// temporary files of killed imports and restores (`.import-*`, `.restore-*`); then the
  /// shard folders left empty. Any other file is left alone. Runs in a write transaction, so
  /// it never deletes a file another process has placed and is about to commit (files are
  /// placed only under the write lock: `importAttachment`, `Backup.restore`).
  ///
  /// - Returns: the number of files deleted.
  /// - Throws: `StoreError.readOnly`, `.busy`, `.closed`, `.database`.
  @discardableResult
  public func sweepAttachments() throws -> Int {
    try write {
      let referenced = try keptAttachmentDigests()
      let folder = directory.appendingPathComponent(LibraryStore.attachmentsFolderName).path
      let manager = FileManager.default
      var deleted = 0
      for name in (try? manager.contentsOfDirectory(atPath: folder)) ?? [] {
        let path = folder + "/" + name
        var info = stat()
        guard lstat(path, &info) == 0 else { continue }
        if info.st_mode & S_IFMT == S_IFREG {
          if AttachmentFiles.isTemporaryName(name), unlink(path) == 0 { deleted += 1 }
          continue
        }
        guard info.st_mode & S_IFMT == S_IFDIR, name.utf8.count == 2,
          name.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) })
        else { continue }
        for file in (try? manager.contentsOfDirectory(atPath: path)) ?? []
        where Attachment.isValidDigest(file) && file.hasPrefix(name) && !referenced.contains(file) {
          if unlink(path + "/" + file) == 0 { deleted += 1 }
        }
        rmdir(path)  // only when empty
      }
      return deleted
    }
  }

  // MARK: Rows

  /// Records `list` as the attachments of `owner` in `role` (`photo` or `pattern`), at
  /// positions 0, 1, … in order. Each file must be in the attachments folder, but those of
  /// `stored` (the digests the owner's records had already: a record moved, not added).
  func insertAttachments(
    _ list: [Attachment], owner: Note.Subject, role: String, from first: Int = 0,
    stored: Set<String> = []
  ) throws {
    let (kind, id, yarnID, projectID): (StoreError.Kind, String, String?, String?) =
      switch owner {
      case .yarn(let id): (.yarn, id, id, nil)
      case .project(let id): (.project, id, nil, id)
      }
    for (offset, attachment) in list.enumerated() {
      let position = first + offset
      guard Attachment.isValidDigest(attachment.sha256) else {
        throw StoreError.invalidData(
          kind: kind, id: id,
          reason: "attachment digest \(LineText.quoted(attachment.sha256)) is not 64 lower-case hex digits")
      }
      guard attachment.byteCount >= 0 else {
        throw StoreError.invalidData(
          kind: kind, id: id, reason: "attachment byte count \(attachment.byteCount) is negative")
      }
      guard stored.contains(attachment.sha256) || hasAttachment(sha256: attachment.sha256) else {
        throw StoreError.missingAttachment(sha256: attachment.sha256)
      }
      try connection.run(
        """
        INSERT INTO attachment (yarn_id, project_id, role, position, sha256, file_name,
          media_type, byte_count)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """,
        [
          .text(yarnID), .text(projectID), .text(role), .integer(Int64(position)),
          .text(attachment.sha256), .text(attachment.fileName), .text(attachment.mediaType),
          .integer(attachment.byteCount),
        ])
    }
  }

  /// The SHA-256 of every attachment file the library keeps: those an attachment record or a
  /// step of the undo history refers to.
  ///
  /// - Throws: `StoreError.busy`, `.closed`, `.database`.
  package func keptAttachmentDigests() throws -> Set<String> {
    try read {
      Set(
        try connection.query(
          """
          SELECT sha256 FROM attachment
          UNION SELECT sha256 FROM history_step WHERE sha256 IS NOT NULL
          """
        ) { $0.text(0) ?? "" })
    }
  }

  /// Replaces the attachments of `owner` in `role`, now `stored`, with `list`: those after
  /// the part both lists begin with are written again (so that attaching one more photo is
  /// one row added, in the undo history too). A photo `stored` already had only moves, so its
  /// file need not be there (a detach while another photo's file is lost); a new one's must.
  /// Once the change commits, the files no record refers to any more are deleted.
  func replaceAttachments(
    _ stored: [Attachment], with list: [Attachment], owner: Note.Subject, role: String
  ) throws {
    let column =
      switch owner {
      case .yarn: "yarn_id"
      case .project: "project_id"
      }
    let id =
      switch owner {
      case .yarn(let id), .project(let id): id
      }
    let kept = zip(stored, list).prefix { $0 == $1 }.count
    let rows: [SQLValue] = [.text(id), .text(role), .integer(Int64(kept))]
    try dropAttachments(where: "\(column) = ? AND role = ? AND position >= ?", rows)
    try connection.run(
      "DELETE FROM attachment WHERE \(column) = ? AND role = ? AND position >= ?", rows)
    try insertAttachments(
      Array(list[kept...]), owner: owner, role: role, from: kept, stored: Set(stored.map(\.sha256)))
  }

  /// Refuses to remove `owner`, named `name`, when one of its photos or its pattern PDF has
  /// no file in `attachments/`: undo, which checks every file it brings back, could not.
  ///
  /// - Throws: `StoreError.lostAttachment` naming the first such, photos before the pattern.
  func refuseLostAttachments(of owner: Note.Subject, name: String) throws {
    let (kind, id): (StoreError.Kind, String) =
      switch owner {
      case .yarn(let id): (.yarn, id)
      case .project(let id): (.project, id)
      }
    let photos = try attachments(of: owner, role: "photo")
    let files =
      photos.map { (attachment: $0, photo: true) }
      + (try attachments(of: owner, role: "pattern")).map { (attachment: $0, photo: false) }
    for (attachment, photo) in files where !hasAttachment(sha256: attachment.sha256) {
      throw StoreError.lostAttachment(
        name: name, fileName: attachment.fileName, sha256: attachment.sha256,
        use: AttachmentUse(
          kind: kind, id: id, name: name, photo: photo ? attachment : nil, of: photos, in: self))
    }
  }

  /// The attachments of `owner` in `role`, by position.
  func attachments(of owner: Note.Subject, role: String) throws -> [Attachment] {
    let (column, id, kind): (String, String, StoreError.Kind) =
      switch owner {
      case .yarn(let id): ("yarn_id", id, .yarn)
      case .project(let id): ("project_id", id, .project)
      }
    // The owner's NOT NULL test and the role are written into the SQL, not bound: the
    // attachment indexes are partial (`WHERE yarn_id IS NOT NULL`, `WHERE role = 'pattern'`),
    // and SQLite re-prepares a statement on every new bound value when only that value shows
    // a partial index applies — once per yarn.
    let roleLiteral = role == "pattern" ? "'pattern'" : "'photo'"
    return try connection.query(
      """
      SELECT sha256, file_name, media_type, byte_count FROM attachment
      WHERE \(column) = ? AND \(column) IS NOT NULL AND role = \(roleLiteral) ORDER BY position
      """, [.text(id)]
    ) { statement in
      var row = RowReader(statement, kind: kind, id: id)
      let sha256 = try row.text()
      let fileName = try row.text()
      let mediaType = try row.text()
      let byteCount = try row.integer()
      return Attachment(
        fileName: fileName, mediaType: mediaType, byteCount: byteCount, sha256: sha256)
    }
  }
}

/// The file side of attachments: streaming a file into the content-addressed folder.
enum AttachmentFiles {
  /// The size of each read: 1 MiB.
  static let chunkSize = 1 << 20

  /// Whether `name` is one of yarn's temporary files in `attachments/`: an import's
  /// `.import-XXXXXX` (mkstemp: 6 letters or digits) or a restore's `.restore-<uuid>`.
  package static func isTemporaryName(_ name: String) -> Bool {
    func tail(after prefix: String, count: Int, _ allowed: (UInt8) -> Bool) -> Bool {
      name.hasPrefix(prefix) && name.utf8.count == prefix.utf8.count + count
        && name.utf8.dropFirst(prefix.utf8.count).allSatisfy(allowed)
    }
    let alphanumeric = { (byte: UInt8) in
      (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122)
    }
    return tail(after: ".import-", count: 6, alphanumeric)
      || tail(after: ".restore-", count: 36) { alphanumeric($0) || $0 == 45 }
  }

  /// Copies `source` into `folder/<2 hex>/<sha256>` through a temporary file (see
  /// `LibraryStore.importAttachment`).
  static func importFile(_ source: String, into folder: String) throws -> (
    sha256: String, byteCount: Int64
  ) {
    try makeDirectory(folder)
    let input = open(source, O_RDONLY | O_CLOEXEC)
    guard input >= 0 else { throw StoreError.io(path: source, reason: POSIX.errnoText()) }
    defer { close(input) }

    var template = Array((folder + "/.import-XXXXXX").utf8CString)
    let output = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
      guard let base = buffer.baseAddress else { return -1 }
      return mkstemp(base)
    }
    guard output >= 0 else { throw StoreError.io(path: folder, reason: POSIX.errnoText()) }
    let temporary = String(cString: template.map { UInt8(bitPattern: $0) })
    var outputOpen = true
    var placed = false
    defer {
      if outputOpen { close(output) }
      if !placed { unlink(temporary) }
    }

    let hasher = SHA256Hasher()
    var count: Int64 = 0
    var buffer = [UInt8](repeating: 0, count: chunkSize)
    while true {
      let got = buffer.withUnsafeMutableBytes { raw in
        POSIX.read(input, raw.baseAddress, raw.count)
      }
      if got < 0 {
        if errno == EINTR { continue }
        throw StoreError.io(path: source, reason: POSIX.errnoText())
      }
      if got == 0 { break }
      try buffer.withUnsafeBytes { raw in
        let piece = UnsafeRawBufferPointer(rebasing: raw[0..<got])
        hasher.update(piece)
        do {
          try AtomicFile.writeAll(output, piece, path: temporary)
        } catch let error as AtomicFile.WriteError {
          throw StoreError.io(path: error.path, reason: error.reason)
        }
      }
      count += Int64(got)
    }
    guard fsync(output) == 0 else { throw StoreError.io(path: temporary, reason: POSIX.errnoText()) }
    outputOpen = false
    guard close(output) == 0 else { throw StoreError.io(path: temporary, reason: POSIX.errnoText()) }

    let sha256: String
    do {
      sha256 = try hasher.finalize()
    } catch let error as SystemLibraryError {
      throw error
    } catch {
      throw StoreError.io(path: source, reason: "cannot compute its SHA-256")
    }
    let shard = folder + "/" + String(sha256.prefix(2))
    let shardIsNew = try makeDirectory(shard)
    let target = shard + "/" + sha256
    guard rename(temporary, target) == 0 else {
      throw StoreError.io(path: target, reason: POSIX.errnoText())
    }
    placed = true
    AtomicFile.syncDirectory(shard)
    if shardIsNew { AtomicFile.syncDirectory(folder) }
    return (sha256, count)
  }

  /// Creates `path` when missing; `true` when it had to be created.
  @discardableResult
  static func makeDirectory(_ path: String) throws -> Bool {
    if mkdir(path, 0o755) == 0 { return true }
    let failure = errno
    var status = stat()
    if failure == EEXIST, stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
      return false
    }
    throw StoreError.io(path: path, reason: String(cString: strerror(failure)).lowercased())
  }
}
