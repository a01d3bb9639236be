import YarnModel
import YarnStore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The checks of `library.json`'s items against each other and against the manifest
/// (`problems(of:manifest:)`), with the references resolved once every item is seen.
///
/// Everything the store would refuse when the items are inserted is checked here, so that
/// `verify` passes exactly when `restore` into an empty library succeeds: IDs not blank
/// (`Rules.id`; such an item is named by its place, `yarns[0]`) and unique; every
/// usage's yarn, every session's project, every tool's projects and every note's yarn or
/// project present; a note
/// about exactly one of them; every rule of the model (`Rules`: names, amounts, a project's
/// days, a session's instants at `now`); instants the store can hold; at most one running session; every
/// attachment with a well-formed digest, in the manifest with the same size; no attachment in
/// the manifest that no item uses; the manifest's counts equal to the items'.
///
/// Without a manifest (`init()`, as `Backup.create` checks the items it writes) the same
/// checks run except those against the manifest: an attachment is checked only for its
/// digest, and no count or unused attachment is compared.
///
/// An item that does not decode (`addUndecoded(_:id:)`) is counted, and its ID (when it reads
/// as a string) taken as present, so that the decoded items' rules and references are still
/// checked without naming it missing; only the unused-attachment check and the count of
/// attachments are left out then (the item may be one that uses an attachment).
///
/// Memory: the IDs and the references, not the items.
final class LibraryCheck {
  private let manifest: BackupManifest?
  /// The present instant, for the rule that no session is in the future.
  private let now: Date
  /// The problems found, in the order `finish()` lists them: those of the notes, projects,
  /// sessions, tools and yarns (the file's order, whatever order the items are added in),
  /// then those `finish()` finds.
  private var problems: [[BackupProblem]] = Array(repeating: [], count: 6)
  /// Where `report` puts a problem: the kind of item being added, or 5 in `finish()`.
  private var bucket = 5
  /// Whether a problem has been found so far (of the items added; `finish()` finds more).
  private(set) var hasProblems = false
  private var yarnIDs = Set<StoredID>()
  private var projectIDs = Set<StoredID>()
  private var noteIDs = Set<StoredID>()
  private var sessionIDs = Set<StoredID>()
  private var toolIDs = Set<StoredID>()
  private var toolProjects: [(toolID: String, toolName: String, projectID: String)] = []
  /// References checked at the end, when every yarn and project has been seen.
  /// Each yarn a project uses, once, with the number of its usages of it.
  private var usages: [(projectID: String, projectName: String, yarnID: String, count: Int)] = []
  private var noteSubjects: [(noteID: String, subject: Note.Subject)] = []
  private var sessionProjects: [(sessionID: String, projectID: String)] = []
  private var running: [String] = []
  private var sizes: [String: Int64] = [:]
  private var used = Set<String>()
  /// Whether an item did not decode (its attachments are unknown).
  private var hasUndecoded = false
  /// The items added of each kind (`attachments` counted by `finish()`; `tools` `nil` until
  /// a tool is added).
  private(set) var counts = BackupManifest.Counts(
    yarns: 0, projects: 0, notes: 0, sessions: 0, attachments: 0)

  /// Every problem of `library`, alone (`manifest` `nil`: what `Backup.create` checks of
  /// the library it writes) or as the document of a backup with `manifest`.
  static func problems(
    of library: Library, manifest: BackupManifest? = nil, now: Date = Date()
  ) -> [BackupProblem] {
    let check = manifest.map { LibraryCheck(manifest: $0, now: now) } ?? LibraryCheck(now: now)
    // The file's order (sorted keys): notes, projects, sessions, tools, yarns.
    library.notes.forEach(check.add)
    library.projects.forEach(check.add)
    library.sessions.forEach(check.add)
    library.tools.forEach(check.add)
    library.yarns.forEach(check.add)
    return check.finish()
  }

  /// A check of a backup's items against `manifest`.
  init(manifest: BackupManifest, now: Date = Date()) {
    self.manifest = manifest
    self.now = now
    for file in manifest.files where file.path.hasPrefix(BackupManifest.attachmentsDirectory) {
      sizes[file.sha256] = file.size
    }
  }

  /// A check of items alone, without a manifest: what `Backup.create` runs on the items it
  /// writes (the attachments it zips are those the items list, checked as they are read).
  init(now: Date = Date()) {
    manifest = nil
    self.now = now
  }

  private func append(_ problem: BackupProblem) {
    problems[bucket].append(problem)
    hasProblems = true
  }

  private func report(_ reason: String) { append(.inconsistentLibrary(reason: reason)) }

  private func report(_ violations: [RuleViolation], kind: String, id: String, name: String? = nil) {
    for violation in violations {
      append(.brokenRule(kind: kind, id: id, name: name, violation: violation))
    }
  }

  /// Checks `id` (of the item at `index` of `array`, called `name`): `Rules.id(_:)`, and
  /// that no earlier item of the array has it. An ID shared is one problem, where its second
  /// item is, counting every item that has it: `3 yarns have the ID y1`.
  private func unique(
    _ id: String, in set: inout Set<StoredID>, kind: String, array: String, index: Int, name: String? = nil
  ) {
    if let violation = Rules.id(id) {
      append(.brokenRuleAt(path: "\(array)[\(index)]", kind: kind, name: name, violation: violation))
    }
    guard !set.insert(StoredID(id)).inserted else { return }
    let shared = Shared(bucket: bucket, id: StoredID(id))
    let place = repeated[shared]
    let count = (place?.count ?? 1) + 1
    let problem = BackupProblem.inconsistentLibrary(
      reason: "\(count) \(kind)s have the ID \(shown(id))")
    if let place {
      problems[bucket][place.index] = problem
    } else {
      append(problem)
    }
    repeated[shared] = (place?.index ?? problems[bucket].count - 1, count)
  }

  /// An ID of one kind of item (`bucket`) that several items have.
  private struct Shared: Hashable {
    let bucket: Int
    let id: StoredID
  }

  /// Each ID shared, with where its problem is in `problems[bucket]` and how many items have it.
  private var repeated: [Shared: (index: Int, count: Int)] = [:]

  /// An ID in a message: `Rules.shown(id:)` (a blank one quoted).
  private func shown(_ id: String) -> String { Rules.shown(id: id) }

  /// An instant the store cannot hold (beyond ±2^63 s), or one outside
  /// `JSONCoding.earliestInstant...latestInstant`, which `library.json` cannot carry (its
  /// text does not read back). A backup being read never has the second kind (the decoder
  /// refuses its text); a library changed outside yarn may.
  private func checkInstant(_ date: Date, _ what: String) {
    let seconds = date.timeIntervalSince1970.rounded(.down)
    if Int64(exactly: seconds) == nil {
      report("\(what) \(date.timeIntervalSince1970) is out of range")
    } else if !JSONCoding.isInInstantRange(date) {
      report(
        "\(what) (\(Int64(seconds)) s from 1970-01-01T00:00:00Z) falls outside "
          + "\(JSONCoding.instantRangeText) in UTC")
    }
  }

  private func check(_ attachment: Attachment, owner: String) {
    guard Attachment.isValidDigest(attachment.sha256) else {
      report("\(owner) has attachment \(attachment.fileName) with a malformed sha256")
      return
    }
    used.insert(attachment.sha256)
    guard manifest != nil else { return }
    guard let size = sizes[attachment.sha256] else {
      report(
        "\(owner) has attachment \(attachment.fileName) (\(attachment.sha256)), which the backup lacks")
      return
    }
    if size != attachment.byteCount {
      report(
        "\(owner) says attachment \(attachment.fileName) holds \(attachment.byteCount) bytes, "
          + "attachments/\(attachment.sha256) holds \(size)")
    }
  }

  func add(_ yarn: Yarn) {
    bucket = 4
    unique(yarn.id, in: &yarnIDs, kind: "yarn", array: "yarns", index: counts.yarns, name: yarn.name)
    counts.yarns += 1
    report(yarn.ruleViolations(), kind: "yarn", id: yarn.id, name: yarn.name)
    for photo in yarn.photos { check(photo, owner: "yarn \(shown(yarn.id)) (\(yarn.name))") }
  }

  func add(_ project: Project) {
    bucket = 1
    unique(
      project.id, in: &projectIDs, kind: "project", array: "projects", index: counts.projects,
      name: project.name)
    counts.projects += 1
    report(project.ruleViolations(), kind: "project", id: project.id, name: project.name)
    // A yarn used in several usages is one reference: a missing one is one problem.
    var seen: [StoredID: Int] = [:]
    for usage in project.usages {
      if let index = seen[StoredID(usage.yarnID)] {
        usages[index].count += 1
      } else {
        seen[StoredID(usage.yarnID)] = usages.count
        usages.append((project.id, project.name, usage.yarnID, 1))
      }
    }
    let owner = "project \(shown(project.id)) (\(project.name))"
    if let pdf = project.pattern?.pdf { check(pdf, owner: owner) }
    for photo in project.photos { check(photo, owner: owner) }
  }

  func add(_ note: Note) {
    bucket = 0
    unique(note.id, in: &noteIDs, kind: "note", array: "notes", index: counts.notes)
    counts.notes += 1
    report(note.ruleViolations(), kind: "note", id: note.id)
    checkInstant(note.created, "note \(shown(note.id)): created")
    checkInstant(note.modified, "note \(shown(note.id)): modified")
    if note.yarnID != nil, note.projectID != nil {
      report("note \(shown(note.id)) belongs to both a yarn and a project")
    } else if let subject = note.subject {
      noteSubjects.append((note.id, subject))
    } else {
      report("note \(shown(note.id)) belongs to no yarn and no project")
    }
  }

  func add(_ session: TimeSession) {
    bucket = 2
    unique(session.id, in: &sessionIDs, kind: "session", array: "sessions", index: counts.sessions)
    counts.sessions += 1
    sessionProjects.append((session.id, session.projectID))
    report(session.ruleViolations(now: now), kind: "session", id: session.id)
    checkInstant(session.start, "session \(shown(session.id)): start")
    if let end = session.end {
      checkInstant(end, "session \(shown(session.id)): end")
    } else {
      running.append(shown(session.id))
    }
  }

  func add(_ tool: Tool) {
    bucket = 3
    unique(tool.id, in: &toolIDs, kind: "tool", array: "tools", index: counts.tools ?? 0, name: tool.name)
    counts.tools = (counts.tools ?? 0) + 1
    report(tool.ruleViolations(), kind: "tool", id: tool.id, name: tool.name)
    for projectID in tool.projectIDs { toolProjects.append((tool.id, tool.name, projectID)) }
  }

  /// An item of `array` that did not decode: counted (it is in the document), and its `id`
  /// (`nil` when it has none that reads as a string) checked and taken as present, so that
  /// what refers to it is not called missing.
  func addUndecoded(_ array: LibraryArray, id: String?) {
    hasUndecoded = true
    switch array {
    case .notes:
      bucket = 0
      if let id { unique(id, in: &noteIDs, kind: "note", array: "notes", index: counts.notes) }
      counts.notes += 1
    case .projects:
      bucket = 1
      if let id { unique(id, in: &projectIDs, kind: "project", array: "projects", index: counts.projects) }
      counts.projects += 1
    case .sessions:
      bucket = 2
      if let id { unique(id, in: &sessionIDs, kind: "session", array: "sessions", index: counts.sessions) }
      counts.sessions += 1
    case .tools:
      bucket = 3
      if let id { unique(id, in: &toolIDs, kind: "tool", array: "tools", index: counts.tools ?? 0) }
      counts.tools = (counts.tools ?? 0) + 1
    case .yarns:
      bucket = 4
      if let id { unique(id, in: &yarnIDs, kind: "yarn", array: "yarns", index: counts.yarns) }
      counts.yarns += 1
    }
  }

  /// Resolves the references and (with a manifest) compares the counts and attachments;
  /// every problem found: those of the items, kind by kind in the file's order (notes,
  /// projects, sessions, tools, yarns), each kind's in the order added, then these.
  func finish() -> [BackupProblem] {
    bucket = 5
    for (toolID, toolName, projectID) in toolProjects where !projectIDs.contains(StoredID(projectID)) {
      report(
        "tool \(shown(toolID)) (\(toolName)) is in project \(shown(projectID)), which is missing")
    }
    for (projectID, projectName, yarnID, count) in usages where !yarnIDs.contains(StoredID(yarnID)) {
      report(
        "project \(shown(projectID)) (\(projectName)) uses yarn \(shown(yarnID)), which is missing"
          + (count > 1 ? ", in \(count) usages" : ""))
    }
    for (sessionID, projectID) in sessionProjects where !projectIDs.contains(StoredID(projectID)) {
      report("session \(shown(sessionID)) belongs to project \(shown(projectID)), which is missing")
    }
    if running.count > 1 {
      report(
        "\(running.count) sessions are running (at most one may be): "
          + running.joined(separator: ", "))
    }
    for (noteID, subject) in noteSubjects {
      switch subject {
      case .yarn(let id) where !yarnIDs.contains(StoredID(id)):
        report("note \(shown(noteID)) is about yarn \(shown(id)), which is missing")
      case .project(let id) where !projectIDs.contains(StoredID(id)):
        report("note \(shown(noteID)) is about project \(shown(id)), which is missing")
      default: continue
      }
    }
    guard let manifest else { return problems.flatMap { $0 } }
    // An item that did not decode may be the one that uses an attachment.
    for file in manifest.files where !hasUndecoded && file.path.hasPrefix(BackupManifest.attachmentsDirectory)
    {
      if Attachment.isValidDigest(file.sha256), !used.contains(file.sha256) {
        append(.unusedAttachment(file.path))
      }
    }
    counts.attachments = used.count
    let pairs: [(String, Int, Int)] = [
      ("yarns", manifest.counts.yarns, counts.yarns),
      ("projects", manifest.counts.projects, counts.projects),
      ("notes", manifest.counts.notes, counts.notes),
      ("sessions", manifest.counts.sessions, counts.sessions),
      ("attachments", manifest.counts.attachments, counts.attachments),
    ]
    // The attachments an item that did not decode uses are unknown: not counted then.
    for (kind, inManifest, inLibrary) in pairs
    where inManifest != inLibrary && !(hasUndecoded && kind == "attachments") {
      append(.countMismatch(kind: kind, manifest: inManifest, library: inLibrary))
    }
    // Manifests written before tools were counted have no count of them to compare.
    if let tools = manifest.counts.tools, tools != counts.tools {
      append(.countMismatch(kind: "tools", manifest: tools, library: counts.tools ?? 0))
    }
    return problems.flatMap { $0 }
  }
}

/// An ID compared as the store compares it: by its UTF-8 bytes. Swift's `String` equality is
/// canonical equivalence (`"café"` with a composed é equals `"cafe\u{301}"`), while SQLite's
/// `=` and UNIQUE compare the bytes (the BINARY collation, sqlite.org/datatype3.html §7.1):
/// checked the Swift way, a usage naming the other form of a yarn's ID passed `verify` and
/// failed `restore`, and two yarns whose IDs differ only so were called duplicates by
/// `verify` and restored by `restore`.
struct StoredID: Hashable {
  let text: String

  init(_ text: String) { self.text = text }

  static func == (lhs: StoredID, rhs: StoredID) -> Bool {
    lhs.text.utf8.elementsEqual(rhs.text.utf8)
  }

  func hash(into hasher: inout Hasher) {
    var text = self.text
    text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }
}
