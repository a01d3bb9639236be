import CLibzip
import YarnModel
import YarnStore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A failure of the zip layer (`ZipArchive`), with libzip's own message where libzip gave one.
///
/// Internal: `Backup` turns these into `BackupError`s; no libzip type leaves `Archive/`.
enum ZipError: Error, Equatable, CustomStringConvertible {
  /// Thrown when libzip cannot open `path` as a zip archive (not a zip, truncated, inconsistent
  /// under `ZIP_CHECKCONS`, unreadable); `reason` is libzip's message (`zip_error_strerror`).
  case cannotOpen(path: String, reason: String)
  /// Thrown when an archive being written cannot be created, or an entry cannot be added to it;
  /// `reason` is libzip's message.
  case cannotAdd(path: String, entry: String, reason: String)
  /// Thrown when `zip_close` fails: nothing was written at the archive's path (libzip removes
  /// its temporary file); `reason` is libzip's message, or the reason a file source gave.
  case cannotWrite(path: String, reason: String)
  /// Thrown by `Writer.close()` when no entry was added: libzip 1.7.3 deletes the file of an
  /// archive with no entries instead of writing one.
  case emptyArchive(path: String)
  /// Thrown when an entry's metadata or bytes cannot be read (CRC mismatch, bad compressed data,
  /// encryption, unsupported method); `reason` is libzip's message.
  case cannotRead(path: String, entry: String, reason: String)
  /// Thrown when an entry inflates to more than the caller's byte limit; reading stopped there.
  case entryTooLarge(path: String, entry: String, limit: Int64)

  var description: String {
    switch self {
    case .cannotOpen(let path, let reason):
      return "cannot open \(LineText.visible(path)) as a zip archive: \(reason.lowercased())"
    case .cannotAdd(let path, let entry, let reason):
      return "cannot add \(LineText.visible(entry)) to \(LineText.visible(path)): \(reason.lowercased())"
    case .cannotWrite(let path, let reason):
      return "cannot write \(LineText.visible(path)): \(reason.lowercased())"
    case .emptyArchive(let path):
      return "cannot write \(LineText.visible(path)): the archive has no entries"
    case .cannotRead(let path, let entry, let reason):
      return "cannot read \(LineText.visible(entry)) in \(LineText.visible(path)): \(reason.lowercased())"
    case .entryTooLarge(let path, let entry, let limit):
      return "\(LineText.visible(entry)) in \(LineText.visible(path)) holds more than \(limit) bytes"
    }
  }

  /// The message for a libzip error code (`zip_error_strerror`), such as `Not a zip archive`.
  static func message(code: Int32) -> String {
    var error = zip_error_t()
    zip_error_init_with_code(&error, code)
    defer { zip_error_fini(&error) }
    return String(cString: zip_error_strerror(&error))
  }
}
