import CLibzip
import YarnModel
import YarnStore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The only code that touches libzip: a `Writer` and a `Reader`, each a final class owning one
/// `zip_t *`, and the `Entry` a reader lists.
///
/// Facts of libzip 1.7.3 (Debian's build) that shape these types, from its manual and from
/// `../shared/data/README.md`:
/// - a source given to `zip_file_add` is read at `zip_close`, not at the add;
/// - `zip_close` writes a temporary file beside the target and renames it, never fsyncs, and on
///   failure leaves the archive open (the writer then calls `zip_discard`);
/// - the CRC of an entry is checked only when `zip_fread` is called again after its last byte;
/// - names, links and sizes are not policed: `../x`, `/etc/x`, empty names and symlink entries
///   are listed as they are, and a bomb inflates as far as it is read.
///
/// Not `Sendable`: a handle belongs to one task.
enum ZipArchive {
  /// How an entry's bytes are written.
  enum Compression: Sendable, Equatable {
    /// Kept as they are (method 0): for data that is already compressed.
    case store
    /// Deflated (method 8, RFC 1951).
    case deflate

    /// `store` for the media types that are already compressed — `image/jpeg`, `image/png`,
    /// `image/heic`, `image/avif`, `application/pdf` (docs/FORMAT.md: not compressed again) —
    /// `deflate` otherwise.
    static func forMediaType(_ mediaType: String) -> Compression {
      switch mediaType.lowercased() {
      case "image/jpeg", "image/png", "image/heic", "image/avif", "application/pdf": return .store
      default: return .deflate
      }
    }

    var method: Int32 { self == .store ? ZIP_CM_STORE : ZIP_CM_DEFLATE }
  }

  /// One entry of an archive, as its central directory describes it.
  struct Entry: Sendable, Equatable {
    /// The position in the central directory, 0-based.
    var index: Int
    /// The name's bytes as the central directory holds them (libzip replaces a NUL byte
    /// inside a name by a space), whatever its UTF-8 flag says.
    var nameBytes: [UInt8]
    /// The size once inflated, in bytes, as the archive claims it.
    var size: Int64
    /// The size of the stored (compressed) bytes.
    var compressedSize: Int64
    /// The compression method number (0 stored, 8 deflated, …; PKWARE APPNOTE 4.4.5).
    var method: Int
    /// Whether the entry is encrypted.
    var isEncrypted: Bool
    /// The Unix file type its external attributes record (`st_mode & S_IFMT`: 0o100000 a
    /// regular file, 0o040000 a folder, 0o120000 a link, 0o010000 a FIFO, 0 none), or `nil`
    /// when they are not Unix's.
    var fileType: UInt32?

    /// The name as UTF-8, a byte that is not UTF-8 as U+FFFD (`BackupChecks.entryName`
    /// refuses such a name, naming it escaped).
    var name: String { String(decoding: nameBytes, as: UTF8.self) }

    /// Whether the external attributes mark a Unix symbolic link (`S_IFLNK`).
    var isSymbolicLink: Bool { fileType == 0o120000 }
  }
}
