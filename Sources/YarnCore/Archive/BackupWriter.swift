import Foundation

/// Writes a backup zip from a `Library` and a way to find each attachment's bytes: the pure
/// half of `Backup.create`, testable without a store.
enum BackupWriter {
  /// Writes the backup of `library` to `url`.
  ///
  /// Entries, in this order: `manifest.json`, `library.json` (both deflated), then each
  /// distinct attachment as `attachments/<sha256>` (stored when its media type is JPEG, PNG,
  /// HEIC or PDF, deflated otherwise), streamed from `attachmentURL(sha256)` at close and
  /// checked against its record's size and SHA-256 as it is read.
  ///
  /// - Parameters:
  ///   - now: the manifest's `createdAt` (truncated to whole seconds) and the entries' times.
  ///   - force: replace a file at `url`; otherwise an existing file is an error.
  /// - Returns: the manifest written.
  /// - Throws: `BackupError.destinationExists`, `.attachmentUnavailable`, `.cannotWrite`.
  ///   Nothing is left at `url` after an error (its old file, if any, is untouched).
  static func write(
    _ library: Library, to url: URL, generator: String, now: Date, force: Bool,
    attachmentURL: (String) -> URL
  ) throws -> BackupManifest {
    var info = stat()
    if !force, lstat(url.path, &info) == 0 { throw BackupError.destinationExists(path: url.path) }
    let createdAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
    let encoder = JSONCoding.encoder()

    let libraryData: Data
    do { libraryData = try encoder.encode(library) } catch {
      throw BackupError.cannotWrite(path: url.path, reason: "cannot encode the library: \(error)")
    }
    var files = [
      BackupManifest.File(
        path: BackupManifest.libraryPath, size: Int64(libraryData.count),
        sha256: try digest(libraryData, url: url))
    ]
    let attachments = library.attachments
    var sources: [(attachment: Attachment, file: URL)] = []
    for attachment in attachments {
      let file = attachmentURL(attachment.sha256)
      guard Attachment.isValidDigest(attachment.sha256) else {
        throw BackupError.attachmentUnavailable(
          sha256: attachment.sha256, path: file.path, reason: "the digest is malformed")
      }
      var status = stat()
      guard stat(file.path, &status) == 0 else {
        throw BackupError.attachmentUnavailable(
          sha256: attachment.sha256, path: file.path, reason: AtomicFile.errnoText())
      }
      guard Int64(status.st_size) == attachment.byteCount else {
        throw BackupError.attachmentUnavailable(
          sha256: attachment.sha256, path: file.path,
          reason: "the file holds \(status.st_size) bytes, its record says \(attachment.byteCount)")
      }
      files.append(
        BackupManifest.File(
          path: BackupManifest.attachmentPath(sha256: attachment.sha256),
          size: attachment.byteCount, sha256: attachment.sha256))
      sources.append((attachment, file))
    }
    let manifest = BackupManifest(
      formatVersion: Backup.formatVersion, createdAt: createdAt, generator: generator,
      counts: BackupManifest.Counts(of: library), files: files)
    let manifestData: Data
    do { manifestData = try encoder.encode(manifest) } catch {
      throw BackupError.cannotWrite(path: url.path, reason: "cannot encode the manifest: \(error)")
    }

    do {
      let writer = try ZipArchive.Writer(url: url, overwrite: force)
      try writer.add(
        name: BackupManifest.manifestPath, data: manifestData, compression: .deflate,
        modified: createdAt)
      try writer.add(
        name: BackupManifest.libraryPath, data: libraryData, compression: .deflate,
        modified: createdAt)
      for (attachment, file) in sources {
        try writer.addFile(
          name: BackupManifest.attachmentPath(sha256: attachment.sha256), from: file,
          expectedSize: attachment.byteCount, expectedSHA256: attachment.sha256,
          compression: .forMediaType(attachment.mediaType), modified: createdAt)
      }
      do { try writer.close() } catch {
        if let failed = writer.failedFile {
          let sha256 = String(failed.entry.dropFirst(BackupManifest.attachmentsDirectory.count))
          throw BackupError.attachmentUnavailable(
            sha256: sha256, path: failed.path, reason: failed.reason)
        }
        if case ZipError.cannotWrite(_, let reason) = error, reason == "the file exists" {
          throw BackupError.destinationExists(path: url.path)
        }
        throw error
      }
    } catch let error as ZipError {
      throw BackupError.cannotWrite(path: url.path, reason: BackupReader.reason(error))
    }
    return manifest
  }

  private static func digest(_ data: Data, url: URL) throws -> String {
    do { return try SHA256Hasher.hexDigest(of: data) } catch {
      throw BackupError.cannotWrite(path: url.path, reason: "cannot compute a SHA-256")
    }
  }
}
