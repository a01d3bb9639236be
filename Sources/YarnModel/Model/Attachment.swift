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

  /// How many of a file's first bytes `missingImageSignature(_:mediaType:fileSize:)` looks at:
  /// 4 KiB, enough for every signature, a JPEG's first marker and a HEIF file's whole `ftyp`
  /// box (an encoder's holds a few brands, under 100 bytes; one of 76 bytes lists its 15th
  /// brand past byte 64). A cap, so that a box stating a larger size reads no more: its
  /// brands are read within the first 4 KiB.
  package static let imageSignatureWindow = 4096

  /// What a photo's first bytes lack: the image `format` its name says (`PNG`, `JPEG`,
  /// `GIF`, `WebP`, `HEIC`, `AVIF`) and, when the bytes are known to be another format's, that
  /// one (`AVIF` for an AV1 image named `.heic`, `HEIC` for an HEVC one named `.avif`), or
  /// why bytes that may be of that format are not read (`largeFTYPSize`, `longFTYPBoxSize`).
  package struct ImageSignatureMismatch: Equatable, Sendable {
    /// The format the name says.
    package let format: String
    /// The format the bytes are, when known.
    package let actual: String?
    /// The HEIC or AVIF file's `ftyp` box gives a 64-bit size (size 1), which is not read.
    package let largeFTYPSize: Bool
    /// The size of the HEIC or AVIF file's `ftyp` box when it is longer than the bytes read
    /// (`imageSignatureWindow`) and they name no brand of either format: its brands past
    /// them are not read.
    package let longFTYPBoxSize: Int?

    /// A mismatch of `format`, the bytes being `actual` when known, or an `ftyp` box of a
    /// 64-bit size when `largeFTYPSize`, or of `longFTYPBoxSize` bytes, more than are read.
    package init(
      _ format: String, actual: String? = nil, largeFTYPSize: Bool = false, longFTYPBoxSize: Int? = nil
    ) {
      self.format = format
      self.actual = actual
      self.largeFTYPSize = largeFTYPSize
      self.longFTYPBoxSize = longFTYPBoxSize
    }
  }

  /// What `bytes`, the first bytes of a file of `fileSize` bytes (up to `imageSignatureWindow`
  /// are looked at), lack to begin as the image type `mediaType` names (one of those
  /// `mediaType(forFileName:)` gives for a photo's extension): what tells a photo from a text
  /// or a web page saved under an image's name. `nil` when they begin so, or when `mediaType`
  /// is no image format (nothing to check). The rules, from the formats' specifications:
  ///
  /// - PNG: `89 50 4E 47 0D 0A 1A 0A` (PNG, ISO/IEC 15948 and W3C, §5.2 "PNG signature").
  /// - JPEG: the SOI marker `FF D8`, then the marker of a segment that may follow it (ITU-T
  ///   T.81 | ISO/IEC 10918-1, B.2.1 "High-level syntax": tables or miscellaneous, B.2.4, or a
  ///   frame header): `FF` (fill bytes `FF` may come first, B.1.1.2), a code of Table B.1 —
  ///   `C0`–`CF` (SOFn, DHT, DAC), `DB` (DQT), `DD` (DRI), `DE` (DHP), `E0`–`EF` (APPn) or `FE`
  ///   (COM) — and the segment's 2-byte length, at least 2 (it counts itself, B.1.1.4). The 3
  ///   bytes `FF D8 FF` alone are no image.
  /// - GIF: `GIF87a` or `GIF89a` (GIF89a, §17 "Header"; GIF87a alike).
  /// - WebP: `RIFF`, the 4 bytes of the file's size, then `WEBP` (RFC 9649, "RIFF Header").
  /// - HEIC: the `ftyp` box first (ISO/IEC 14496-12, §4.3 "File Type Box"): 4 bytes of size,
  ///   `ftyp`, the major brand, 4 bytes of minor version, then the compatible brands to the
  ///   box's end (its size at least 16, within the file; 0, to the end of the file); one of
  ///   the brands is one ISO/IEC 23008-12 gives HEVC-coded files: `heic`, `heix`, `heim`,
  ///   `heis` (images: the brands of `image/heic` in its IANA registration) or `hevc`, `hevx`,
  ///   `hevm`, `hevs` (image sequences: `image/heic-sequence`). Its `mif1` and `msf1` (a HEIF
  ///   file of any coding) say nothing alone: an AVIF file has them too. One whose brands are
  ///   AVIF's and none of HEVC's is said to be AVIF. A box longer than the bytes read whose
  ///   brands within them name neither format is said to be that (`longFTYPBoxSize`).
  /// - AVIF: the `ftyp` box first, as HEIC's, one of its brands `avif` or `avis` (AV1 Image
  ///   File Format, AOMedia: "Image and image collection brand", "Image sequence brand"; an
  ///   AVIF file lists one of them). One whose brands are HEVC's and none of AVIF's is said
  ///   to be HEIC.
  package static func missingImageSignature(
    _ bytes: [UInt8], mediaType: String, fileSize: Int
  ) -> ImageSignatureMismatch? {
    let bytes = Array(bytes.prefix(imageSignatureWindow))
    func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
      bytes.count >= offset + signature.count
        && bytes[offset..<(offset + signature.count)].elementsEqual(signature)
    }
    switch mediaType {
    case "image/png":
      return starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) ? nil : ImageSignatureMismatch("PNG")
    case "image/jpeg":
      var marker = 2  // the code's offset, after the SOI and one or more FF
      while marker < bytes.count, bytes[marker] == 0xFF { marker += 1 }
      guard starts([0xFF, 0xD8, 0xFF]), marker + 2 < bytes.count,
        [0xDB, 0xDD, 0xDE, 0xFE].contains(bytes[marker]) || (0xC0...0xCF).contains(bytes[marker])
          || (0xE0...0xEF).contains(bytes[marker]),
        Int(bytes[marker + 1]) << 8 | Int(bytes[marker + 2]) >= 2
      else { return ImageSignatureMismatch("JPEG") }
      return nil
    case "image/gif":
      return starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8))
        ? nil : ImageSignatureMismatch("GIF")
    case "image/webp":
      return starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8)
        ? nil : ImageSignatureMismatch("WebP")
    case "image/heic", "image/avif":
      let (format, other) = mediaType == "image/heic" ? ("HEIC", "AVIF") : ("AVIF", "HEIC")
      // The box's size, big-endian (§4.2): 0 is to the end of the file, taken so; 1 is a
      // 64-bit size after the type, which puts the major brand at 16: refused (and said so,
      // `largeFTYPSize`), as no `ftyp` box needs it. The box holds at least its size, type, major brand and minor version
      // (16 bytes) and ends within the file.
      let stated = bytes.prefix(4).reduce(0) { $0 << 8 | Int($1) }
      let size = stated == 0 ? fileSize : stated
      if stated == 1, starts(Array("ftyp".utf8), at: 4) {
        return ImageSignatureMismatch(format, largeFTYPSize: true)
      }
      guard starts(Array("ftyp".utf8), at: 4), size >= 16, size <= fileSize else {
        return ImageSignatureMismatch(format)
      }
      // The major brand at 8, the compatible ones from 16 to the box's end (within the window:
      // a box larger than it is read up to it).
      let brands = stride(from: 8, to: min(size, bytes.count) - 3, by: 4).filter { $0 != 12 }.map {
        String(decoding: bytes[$0..<($0 + 4)], as: UTF8.self)
      }
      let codings: [String: Set<String>] = [
        "HEIC": ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs"], "AVIF": ["avif", "avis"],
      ]
      func has(_ format: String) -> Bool { brands.contains(where: codings[format, default: []].contains) }
      if has(format) { return nil }
      if has(other) { return ImageSignatureMismatch(format, actual: other) }
      // Its brands past the window may name the format: refused, and said so.
      return ImageSignatureMismatch(format, longFTYPBoxSize: size > imageSignatureWindow ? size : nil)
    default:
      return nil
    }
  }

  /// The media type for a file name's extension (`jpg`, `jpeg`, `png`, `heic`, `avif`, `gif`,
  /// `webp`, `pdf`, `txt`), or `application/octet-stream`.
  package static func mediaType(forFileName name: String) -> String {
    let ext = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
    switch ext {
    case "jpg", "jpeg": return "image/jpeg"
    case "png": return "image/png"
    case "heic": return "image/heic"
    case "avif": return "image/avif"
    case "gif": return "image/gif"
    case "webp": return "image/webp"
    case "pdf": return "application/pdf"
    case "txt": return "text/plain"
    default: return "application/octet-stream"
    }
  }
}
