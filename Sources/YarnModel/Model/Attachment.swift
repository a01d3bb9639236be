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
