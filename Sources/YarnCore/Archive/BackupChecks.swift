import Foundation

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
      if file.path == BackupManifest.libraryPath { continue }
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

  /// Problems inside `library` and between it and the manifest: duplicate IDs, usages of
  /// missing yarns, sessions of missing projects, more than one running session, notes about
  /// missing subjects, attachments the manifest lacks or whose size disagrees, and counts.
  static func libraryProblems(_ library: Library, manifest: BackupManifest) -> [BackupProblem] {
    var problems: [BackupProblem] = []
    func report(_ reason: String) { problems.append(.inconsistentLibrary(reason: reason)) }

    func duplicates(_ ids: [String], kind: String) -> Set<String> {
      var seen = Set<String>()
      for id in ids where !seen.insert(id).inserted { report("two \(kind)s have the ID \(id)") }
      return seen
    }
    let yarnIDs = duplicates(library.yarns.map(\.id), kind: "yarn")
    let projectIDs = duplicates(library.projects.map(\.id), kind: "project")
    _ = duplicates(library.notes.map(\.id), kind: "note")
    _ = duplicates(library.sessions.map(\.id), kind: "session")

    for project in library.projects {
      for usage in project.usages where !yarnIDs.contains(usage.yarnID) {
        report(
          "project \(project.id) (\(project.name)) uses yarn \(usage.yarnID), which is missing")
      }
    }
    for session in library.sessions where !projectIDs.contains(session.projectID) {
      report("session \(session.id) belongs to project \(session.projectID), which is missing")
    }
    let running = library.sessions.filter(\.isRunning)
    if running.count > 1 {
      report(
        "\(running.count) sessions are running (at most one may be): "
          + running.map(\.id).joined(separator: ", "))
    }
    for note in library.notes {
      switch note.subject {
      case .none:
        report("note \(note.id) belongs to no yarn and no project")
      case .yarn(let id) where !yarnIDs.contains(id):
        report("note \(note.id) is about yarn \(id), which is missing")
      case .project(let id) where !projectIDs.contains(id):
        report("note \(note.id) is about project \(id), which is missing")
      default:
        if note.yarnID != nil, note.projectID != nil {
          report("note \(note.id) belongs to both a yarn and a project")
        }
      }
    }

    var sizes: [String: Int64] = [:]
    for file in manifest.files where file.path.hasPrefix(BackupManifest.attachmentsDirectory) {
      sizes[file.sha256] = file.size
    }
    func check(_ attachment: Attachment, owner: String) {
      guard Attachment.isValidDigest(attachment.sha256) else {
        report("\(owner) has attachment \(attachment.fileName) with a malformed sha256")
        return
      }
      guard let size = sizes[attachment.sha256] else {
        report(
          "\(owner) has attachment \(attachment.fileName) (\(attachment.sha256)), "
            + "which the backup lacks")
        return
      }
      if size != attachment.byteCount {
        report(
          "\(owner) says attachment \(attachment.fileName) holds \(attachment.byteCount) bytes, "
            + "attachments/\(attachment.sha256) holds \(size)")
      }
    }
    for yarn in library.yarns {
      for photo in yarn.photos { check(photo, owner: "yarn \(yarn.id) (\(yarn.name))") }
    }
    for project in library.projects {
      let owner = "project \(project.id) (\(project.name))"
      if let pdf = project.pattern?.pdf { check(pdf, owner: owner) }
      for photo in project.photos { check(photo, owner: owner) }
    }

    let counts = BackupManifest.Counts(of: library)
    let pairs: [(String, Int, Int)] = [
      ("yarns", manifest.counts.yarns, counts.yarns),
      ("projects", manifest.counts.projects, counts.projects),
      ("notes", manifest.counts.notes, counts.notes),
      ("sessions", manifest.counts.sessions, counts.sessions),
      ("attachments", manifest.counts.attachments, counts.attachments),
    ]
    for (kind, inManifest, inLibrary) in pairs where inManifest != inLibrary {
      problems.append(.countMismatch(kind: kind, manifest: inManifest, library: inLibrary))
    }
    return problems
  }

  /// A readable account of a decoding error: what was wrong and at which JSON path.
  static func describe(_ error: Error) -> String {
    guard let error = error as? DecodingError else { return String(describing: error) }
    func path(_ context: DecodingError.Context) -> String {
      var out = ""
      for key in context.codingPath {
        if let index = key.intValue {
          out += "[\(index)]"
        } else {
          out += (out.isEmpty ? "" : ".") + key.stringValue
        }
      }
      return out.isEmpty ? "the top level" : out
    }
    switch error {
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      return "at \(path(context)): \(context.debugDescription.lowercasedFirst)"
    case .keyNotFound(let key, let context):
      return "at \(path(context)): missing key \"\(key.stringValue)\""
    case .dataCorrupted(let context):
      return "at \(path(context)): \(context.debugDescription.lowercasedFirst)"
    @unknown default:
      return String(describing: error)
    }
  }
}

extension String {
  fileprivate var lowercasedFirst: String {
    guard let first else { return self }
    return first.lowercased() + dropFirst()
  }
}
