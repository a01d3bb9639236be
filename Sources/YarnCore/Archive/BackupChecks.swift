import YarnModel
import YarnStore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The pure checks of a backup: entry names, the manifest's file list and the library's
/// internal references. No I/O; used by `BackupReader`.
enum BackupChecks {
  /// Why `name` is unsafe as a path inside a backup, or `nil` when it is safe.
  ///
  /// Refused: the empty name; an absolute path (`/x`); a backslash (a separator on Windows,
  /// used by `..\x` attacks); a NUL or other control character; a Windows drive (`C:`); an
  /// empty, `.` or `..` component. A trailing `/` (a directory entry) is allowed when
  /// `allowDirectory`.
  static func unsafeReason(_ name: String, allowDirectory: Bool = true) -> String? {
    if name.isEmpty { return "empty name" }
    if name.hasPrefix("/") { return "absolute path" }
    if name.unicodeScalars.contains("\\") { return "holds a backslash" }
    if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) {
      return "holds a NUL or control character"
    }
    var body = Substring(name)
    if allowDirectory, body.hasSuffix("/") { body = body.dropLast() }
    let components = body.split(separator: "/", omittingEmptySubsequences: false)
    if let first = components.first, first.count == 2, first.hasSuffix(":") {
      return "starts with a drive letter"
    }
    for component in components {
      switch component {
      case "": return "has an empty path component"
      case ".": return "has a \".\" component"
      case "..": return "has a \"..\" component"
      default: continue
      }
    }
    return nil
  }

  /// A name's raw bytes (a zip entry's, whatever its UTF-8 flag says; a directory's file
  /// name) as a name to check: the UTF-8 text and `true`, or when they are not UTF-8 the
  /// bytes escaped, each byte from 0x80 up as `\xNN` (`caf\xE9`), and `false`.
  static func entryName(_ bytes: [UInt8]) -> (name: String, isUTF8: Bool) {
    if let text = String(validating: bytes, as: UTF8.self) { return (text, true) }
    var escaped = ""
    for byte in bytes {
      if byte < 0x80 {
        escaped.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        escaped += "\\x" + String(byte, radix: 16, uppercase: true)
      }
    }
    return (escaped, false)
  }

  /// The folder macOS Finder's Compress puts its `._NAME` files in, at the top of a zip.
  static let finderFolder = "__MACOSX/"

  /// Whether `entry`, of a zip or a directory alike, is one a file manager adds, which a
  /// reader ignores (never reads, never lists as unlisted; docs/FORMAT.md, Container): a
  /// regular file whose name begins with a dot (`.DS_Store`, `attachments/._NAME`: macOS
  /// Finder's), or the folder `__MACOSX/` or a folder in it (where Finder's Compress puts
  /// the `._NAME` files, themselves hidden files; unzipped by Info-ZIP it becomes a folder).
  /// A backup holds no such name (the manifest lists only `library.json` and
  /// `attachments/<sha256>`), and nothing is ever read from an entry the manifest does not
  /// list, so ignoring one changes nothing that is read or restored. A link, a hidden
  /// folder, a FIFO or device, any other file in `__MACOSX/`, a name that is not UTF-8, and
  /// an unsafe name (`unsafeReason`: `../.x`) are not ignored.
  static func isFileManagers(_ entry: BackupSourceEntry) -> Bool {
    guard entry.isUTF8, unsafeReason(entry.name) == nil, !entry.isSymbolicLink, entry.notRegular == nil
    else {
      return false
    }
    if entry.name.hasSuffix("/") { return entry.name.hasPrefix(finderFolder) }
    return entry.name.split(separator: "/").last?.hasPrefix(".") == true
  }

  /// Problems of a list of entry names: unsafe names, duplicates, and names that collide
  /// when case is ignored (each reported once).
  static func nameProblems(_ names: [String]) -> [BackupProblem] {
    var problems: [BackupProblem] = []
    var seen = Set<String>()
    var folded: [String: String] = [:]
    for name in names {
      if let reason = unsafeReason(name) { problems.append(.unsafeName(name, reason: reason)) }
      guard seen.insert(name).inserted else {
        problems.append(.duplicateName(name))
        continue
      }
      let key = name.lowercased()
      if let other = folded[key] {
        problems.append(.caseCollision(other, name))
      } else {
        folded[key] = name
      }
    }
    return problems
  }

  /// Problems of the manifest's file list: each path must be `library.json` or
  /// `attachments/<sha256>` (its own digest), listed once, with a size ≥ 0 and a well-formed
  /// digest; `library.json` must be listed.
  static func manifestProblems(_ manifest: BackupManifest, limits: BackupLimits) -> [BackupProblem] {
    var problems = nameProblems(manifest.files.map(\.path))
    if manifest.files.count > limits.maxEntries {
      problems.append(.tooManyEntries(count: manifest.files.count, limit: limits.maxEntries))
    }
    var total: Int64 = 0
    for file in manifest.files {
      if file.size < 0 {
        problems.append(.invalidManifestEntry(file.path, reason: "negative size \(file.size)"))
      } else {
        total = total.addingReportingOverflow(file.size).overflow ? Int64.max : total + file.size
      }
      if !Attachment.isValidDigest(file.sha256) {
        problems.append(
          .invalidManifestEntry(file.path, reason: "sha256 is not 64 lower-case hex digits"))
      }
      // A path named unsafe above is not also said to be of the wrong form.
      if file.path == BackupManifest.libraryPath || unsafeReason(file.path) != nil { continue }
      if file.path.hasPrefix(BackupManifest.attachmentsDirectory) {
        let name = String(file.path.dropFirst(BackupManifest.attachmentsDirectory.count))
        if name != file.sha256 {
          problems.append(
            .invalidManifestEntry(file.path, reason: "an attachment must be named by its sha256"))
        }
      } else {
        problems.append(
          .invalidManifestEntry(
            file.path, reason: "not library.json or attachments/<sha256> (format version 1)"))
      }
    }
    if !manifest.files.contains(where: { $0.path == BackupManifest.libraryPath }) {
      problems.append(.missing(BackupManifest.libraryPath))
    }
    if total > limits.maxTotalBytes {
      problems.append(.tooManyBytes(total: total, limit: limits.maxTotalBytes))
    }
    return problems
  }
}
