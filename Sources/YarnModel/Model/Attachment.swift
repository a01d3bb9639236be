/// A file attached to a yarn or a project: a photo or a pattern PDF.
///
/// The bytes live in the library's content-addressed store under their SHA-256; this value
/// describes them. Two attachments with the same bytes share one stored file.
public struct Attachment: Codable, Hashable, Sendable {
  /// The file name as the user gave it, such as `sweater-front.jpg` (no directories).
  public var fileName: String
  /// The IANA media type, such as `image/jpeg` or `application/pdf`.
  public var mediaType: String
  /// The size of the file in bytes.
  public var byteCount: Int64
  /// The SHA-256 of the bytes (FIPS 180-4), 64 lower-case hexadecimal digits.
  public var sha256: String

  /// Describes a stored file; the values are taken as given, not checked (the store refuses a
  /// `sha256` that is not 64 lower-case hex digits, or a negative `byteCount`, when the
  /// attachment is recorded). `LibraryStore.importAttachment(from:fileName:mediaType:)`
  /// makes one from a file.
  public init(fileName: String, mediaType: String, byteCount: Int64, sha256: String) {
    self.fileName = fileName
    self.mediaType = mediaType
    self.byteCount = byteCount
    self.sha256 = sha256
  }

  /// Whether `text` is 64 lower-case hexadecimal digits, the only form `sha256` may take.
  package static func isValidDigest(_ text: String) -> Bool {
    text.utf8.count == 64
      && text.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }
  }

  /// How many of a file's first bytes may come before its PDF header (`%PDF-`): 1,024.
  /// ISO 32000-1:2008 §7.5.2 puts the header first; Adobe's readers accept it anywhere in the
  /// first 1,024 bytes (PDF Reference, sixth edition, Appendix H), and so does this check.
  package static let pdfHeaderWindow = 1024

  /// Whether `bytes`, the first bytes of a file (up to `pdfHeaderWindow` are looked at), hold
  /// the PDF header `%PDF-`: what tells a PDF from a web page or an image saved under a
  /// `.pdf` name.
  package static func hasPDFHeader(_ bytes: [UInt8]) -> Bool {
    let header = Array("%PDF-".utf8)
    let window = bytes.prefix(pdfHeaderWindow)
    guard window.count >= header.count else { return false }
    for start in window.startIndex...(window.endIndex - header.count)
    where window[start..<(start + header.count)].elementsEqual(header) {
      return true
    }
    return false
  }

  /// How many of a file's first bytes `missingImageSignature(_:mediaType:)` looks at: 64,
  /// enough for every signature and a HEIF file's first brands.
  package static let imageSignatureWindow = 64

  /// The image format (`PNG`, `JPEG`, `GIF`, `WebP`, `HEIC`) that `mediaType`, one of those
  /// `mediaType(forFileName:)` gives for a photo's extension, names and whose signature
  /// `bytes`, the first bytes of the file (up to `imageSignatureWindow` are looked at), do not
  /// begin with: what tells a photo from a text or a web page saved under an image's name.
  /// `nil` when they do, or when `mediaType` is no image format (nothing to check). The
  /// signatures, from the formats' specifications:
  ///
  /// - PNG: `89 50 4E 47 0D 0A 1A 0A` (PNG, ISO/IEC 15948 and W3C, §5.2 "PNG signature").
  /// - JPEG: `FF D8 FF`, the SOI marker and the first byte of the marker after it
  ///   (ITU-T T.81 | ISO/IEC 10918-1, B.1.1.3 and B.2.1).
  /// - GIF: `GIF87a` or `GIF89a` (GIF89a, §17 "Header"; GIF87a alike).
  /// - WebP: `RIFF`, the 4 bytes of the file's size, then `WEBP` (RFC 9649, "RIFF Header").
  /// - HEIC: the `ftyp` box first (ISO/IEC 14496-12, §4.3 "File Type Box"): 4 bytes of size,
  ///   `ftyp`, the major brand, 4 bytes of minor version, then the compatible brands; one of
  ///   the brands is `heic`, `heix`, `heim` or `heis` (HEVC-coded images: the brands of
  ///   `image/heic` in its IANA registration, from ISO/IEC 23008-12), or `mif1` or `msf1`
  ///   (any HEIF image or image sequence, ISO/IEC 23008-12).
  package static func missingImageSignature(_ bytes: [UInt8], mediaType: String) -> String? {
    let bytes = Array(bytes.prefix(imageSignatureWindow))
    func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
      bytes.count >= offset + signature.count
        && bytes[offset..<(offset + signature.count)].elementsEqual(signature)
    }
    switch mediaType {
    case "image/png":
      return starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) ? nil : "PNG"
    case "image/jpeg":
      return starts([0xFF, 0xD8, 0xFF]) ? nil : "JPEG"
    case "image/gif":
      return starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) ? nil : "GIF"
    case "image/webp":
      return starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) ? nil : "WebP"
    case "image/heic":
      guard starts(Array("ftyp".utf8), at: 4) else { return "HEIC" }
      // The box's size, big-endian; 0 (to the end of the file) or 1 (a 64-bit size after the
      // type) leaves the window as the bound.
      let size = bytes.prefix(4).reduce(0) { $0 << 8 | Int($1) }
      let end = size >= 16 ? min(size, bytes.count) : bytes.count
      let brands = ["heic", "heix", "heim", "heis", "mif1", "msf1"].map { Array($0.utf8) }
      // The major brand at 8, the compatible ones from 16 to the box's end.
      for offset in stride(from: 8, to: end - 3, by: 4) where offset != 12 {
        if brands.contains(where: { starts($0, at: offset) }) { return nil }
      }
      return "HEIC"
    default:
      return nil
    }
  }

  /// The media type for a file name's extension (`jpg`, `jpeg`, `png`, `heic`, `gif`, `webp`,
  /// `pdf`, `txt`), or `application/octet-stream`.
  package static func mediaType(forFileName name: String) -> String {
    let ext = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
    switch ext {
    case "jpg", "jpeg": return "image/jpeg"
    case "png": return "image/png"
    case "heic": return "image/heic"
    case "gif": return "image/gif"
    case "webp": return "image/webp"
    case "pdf": return "application/pdf"
    case "txt": return "text/plain"
    default: return "application/octet-stream"
    }
  }
}
