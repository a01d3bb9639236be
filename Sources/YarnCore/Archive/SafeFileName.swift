import YarnModel
import YarnStore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// File and folder names that every common file system accepts: Windows (NTFS, FAT, exFAT),
/// macOS (APFS, HFS+) and Linux (ext4 and the rest). Used by `yarn export` for the folders and
/// files named after yarns, projects and attachments.
///
/// Rules (sources: Microsoft, "Naming Files, Paths, and Namespaces"; the 255-byte `NAME_MAX`
/// of ext4 and APFS):
/// - the characters `: * ? " < > | \ /` and control characters (U+0000–U+001F, U+007F and the
///   C1 controls U+0080–U+009F) become `_`;
/// - trailing dots and spaces are removed (Windows drops them silently, so `Flax.` and `Flax`
///   would be one file);
/// - a Windows device name — CON, PRN, AUX, NUL, COM0–COM9, LPT0–LPT9, also with the
///   superscript digits ¹ ² ³ — in any case, alone or before any extension (`con.txt`,
///   `Nul.tar.gz`), and with spaces before the dot, gets a `_` in front: `_con.txt`;
/// - at most 255 bytes of UTF-8, cut on a Unicode scalar boundary, keeping a short extension;
/// - an empty result (or `.`, `..`) becomes `_`.
///
/// `SafeFileNamer` also numbers collisions, `Flax`, `Flax (2)`, ignoring case and Unicode
/// normalization (macOS and Windows see `flax` and `Flax`, or `é` and `e\u{301}`, as one name).
enum SafeFileName {
  /// The most bytes of UTF-8 one name may take.
  static let maxBytes = 255

  /// The longest extension (with its dot, in bytes) kept whole when a name is cut.
  static let maxExtensionBytes = 16

  /// `name` made safe by the rules above (no numbering).
  static func make(_ name: String) -> String {
    var scalars = String.UnicodeScalarView()
    for scalar in name.unicodeScalars {
      switch scalar {
      case ":", "*", "?", "\"", "<", ">", "|", "\\", "/": scalars.append("_")
      case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value): scalars.append("_")
      default: scalars.append(scalar)
      }
    }
    var out = trimmed(String(scalars))
    if isReserved(out) { out = "_" + out }
    out = limited(out, maxBytes: maxBytes)
    return out.isEmpty ? "_" : out
  }

  /// Whether `name`'s part before the first dot (trailing spaces ignored) is a Windows device
  /// name, in any case.
  static func isReserved(_ name: String) -> Bool {
    let base =
      name.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).first
      .map(String.init) ?? name
    var stem = Substring(base)
    while stem.last == " " { stem = stem.dropLast() }
    let upper = stem.uppercased()
    if ["CON", "PRN", "AUX", "NUL"].contains(upper) { return true }
    guard upper.count == 4, upper.hasPrefix("COM") || upper.hasPrefix("LPT"),
      let last = upper.unicodeScalars.last
    else { return false }
    return ("0"..."9").contains(last) || ["\u{B9}", "\u{B2}", "\u{B3}"].contains(last)
  }

  /// `name` without trailing dots and spaces.
  static func trimmed(_ name: String) -> String {
    var scalars = Array(name.unicodeScalars)
    while let last = scalars.last, last == "." || last == " " { scalars.removeLast() }
    var out = String.UnicodeScalarView()
    out.append(contentsOf: scalars)
    return String(out)
  }

  /// The extension of `name` with its dot (`.jpg`), when it has a short one that is not the
  /// whole name; `""` otherwise.
  static func fileExtension(_ name: String) -> String {
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
    let ext = String(name[dot...])
    guard ext.utf8.count <= maxExtensionBytes, ext.utf8.count > 1, !ext.contains(" ") else {
      return ""
    }
    return ext
  }

  /// `name` (already trimmed) with `suffix` before its extension, the part before the
  /// extension cut so that the whole fits in `maxBytes` of UTF-8, on a scalar boundary, and
  /// trimmed again when cut (the cut may leave a dot or a space at its end).
  static func limited(_ name: String, maxBytes: Int, suffix: String = "") -> String {
    let ext = fileExtension(name)
    let stem = String(name.dropLast(ext.count))
    let room = maxBytes - ext.utf8.count - suffix.utf8.count
    if stem.utf8.count <= room { return stem + suffix + ext }
    var cut = String.UnicodeScalarView()
    var used = 0
    for scalar in stem.unicodeScalars {
      let size = String(scalar).utf8.count
      if used + size > room { break }
      cut.append(scalar)
      used += size
    }
    var out = trimmed(String(cut))
    if out.isEmpty { out = "_" }
    return out + suffix + ext
  }

  /// The key two names collide on: the name in lower case. Swift compares and hashes strings
  /// by canonical equivalence, so `é` written precomposed (NFC, macOS's and Windows's usual
  /// form) or decomposed (NFD) is one key, as file systems that normalize names see them.
  static func collisionKey(_ name: String) -> String {
    name.lowercased()
  }
}

/// Gives out safe names in one folder, each distinct from the others when case and Unicode
/// normalization are ignored: the second `Flax` is `Flax (2)`, the third `Flax (3)`; the
/// second `front.jpg` is `front (2).jpg`.
struct SafeFileNamer: Sendable {
  private var taken = Set<String>()

  /// - Parameter reserved: names already used in the folder (such as `project.txt`).
  init(reserved: [String] = []) {
    for name in reserved { taken.insert(SafeFileName.collisionKey(name)) }
  }

  /// A safe name for `name`, not given out before.
  ///
  /// - Parameter isFolder: numbers a folder at its end (`v2.0 (2)`), a file before its
  ///   extension (`front (2).jpg`).
  mutating func claim(_ name: String, isFolder: Bool = false) -> String {
    let safe = SafeFileName.make(name)
    var candidate = safe
    var number = 2
    while !taken.insert(SafeFileName.collisionKey(candidate)).inserted {
      let suffix = " (\(number))"
      if isFolder {
        candidate = folderName(safe, suffix: suffix)
      } else {
        candidate = SafeFileName.limited(safe, maxBytes: SafeFileName.maxBytes, suffix: suffix)
      }
      number += 1
    }
    return candidate
  }

  /// `name` + `suffix`, the name cut (on a scalar boundary) so that both fit.
  private func folderName(_ name: String, suffix: String) -> String {
    let room = SafeFileName.maxBytes - suffix.utf8.count
    var cut = String.UnicodeScalarView()
    var used = 0
    for scalar in name.unicodeScalars {
      let size = String(scalar).utf8.count
      if used + size > room { break }
      cut.append(scalar)
      used += size
    }
    var stem = SafeFileName.trimmed(String(cut))
    if stem.isEmpty { stem = "_" }
    return stem + suffix
  }
}
