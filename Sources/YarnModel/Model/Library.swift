#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A crafter's whole library: the stash, the projects, the notes and the time sessions.
///
/// This is the document a backup's `library.json` holds (see docs/FORMAT.md). Order is kept:
/// each array is in the order the items were created.
public struct Library: Codable, Hashable, Sendable {
  /// The stash, in creation order.
  public var yarns: [Yarn]
  /// The projects, in creation order.
  public var projects: [Project]
  /// The notes about yarns and projects, in creation order.
  public var notes: [Note]
  /// The time sessions, in creation order (not sorted by start).
  public var sessions: [TimeSession]

  /// A library of these items, by default empty. References between them (a usage's yarn, a
  /// note's or session's project) are not checked here; `LibraryStore.insert(library:)`
  /// refuses a library whose references are broken.
  public init(
    yarns: [Yarn] = [], projects: [Project] = [], notes: [Note] = [], sessions: [TimeSession] = []
  ) {
    self.yarns = yarns
    self.projects = projects
    self.notes = notes
    self.sessions = sessions
  }

  /// Whether the library holds nothing at all.
  public var isEmpty: Bool {
    yarns.isEmpty && projects.isEmpty && notes.isEmpty && sessions.isEmpty
  }

  /// Every attachment of every yarn and project, each distinct digest once, in document order.
  public var attachments: [Attachment] {
    var seen = Set<String>()
    var out: [Attachment] = []
    func add(_ attachment: Attachment) {
      if seen.insert(attachment.sha256).inserted { out.append(attachment) }
    }
    for yarn in yarns { yarn.photos.forEach(add) }
    for project in projects {
      if let pdf = project.pattern?.pdf { add(pdf) }
      project.photos.forEach(add)
    }
    return out
  }
}

/// Makes new identifiers: lower-case random UUIDs (RFC 9562 version 4).
package enum Identifier {
  package static func make() -> String { UUID().uuidString.lowercased() }
}
