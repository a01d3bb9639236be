#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension LibraryStore {
  /// The whole library in one read transaction: yarns, projects, notes and sessions, each in
  /// creation order (sessions too, not by start), as `Library` documents them.
  ///
  /// - Complexity: O(n) rows, all held in memory.
  /// - Throws: `StoreError.invalidData` for a row that cannot be read back; `.busy`,
  ///   `.closed`, `.database`.
  public func library() throws -> Library {
    try read {
      Library(
        yarns: try yarns(), projects: try projects(), notes: try notes(),
        sessions: try sessionsInCreationOrder())
    }
  }

  /// Inserts every item of `library`, yarns first, then projects, notes and sessions, each
  /// in the document's order, so that `library()` on a store that was empty gives `library`
  /// back (instants truncated to whole seconds). All or nothing: call it inside `write { }`
  /// with whatever else belongs to the same change; on its own it is one transaction.
  ///
  /// The attachments' bytes must already be stored (`importAttachment(from:)`).
  ///
  /// - Throws: the errors of `insert(_:)` for yarns, projects, notes and sessions, such as
  ///   `StoreError.duplicateID` for an ID already in the store, `.missingReference`,
  ///   `.missingAttachment`, `.sessionAlreadyRunning` when the document has two running
  ///   sessions; nothing of `library` is kept then.
  public func insert(library: Library) throws {
    try write {
      for yarn in library.yarns { try insert(yarn) }
      for project in library.projects { try insert(project) }
      for note in library.notes { try insert(note) }
      for session in library.sessions { try insert(session) }
    }
  }

  /// How many yarns, projects, notes and sessions the library holds.
  ///
  /// - Throws: `StoreError.busy`, `.closed`, `.database`.
  public func itemCounts() throws -> (yarns: Int, projects: Int, notes: Int, sessions: Int) {
    try read {
      func count(_ table: String) throws -> Int {
        Int(try connection.integer("SELECT count(*) FROM \(table)") ?? 0)
      }
      return (
        try count("yarn"), try count("project"), try count("note"), try count("time_session")
      )
    }
  }

  /// The SHA-256 of every attachment a yarn or project refers to.
  ///
  /// - Throws: `StoreError.busy`, `.closed`, `.database`.
  public func referencedAttachmentDigests() throws -> Set<String> {
    try read {
      Set(try connection.query("SELECT DISTINCT sha256 FROM attachment") { $0.text(0) ?? "" })
    }
  }

  /// Removes every yarn, project, note, time session and attachment record; the attachment
  /// files stay (a caller removes the ones no longer referenced once its change committed).
  /// Inside `write { }` it is part of that transaction, so a failure later undoes it.
  ///
  /// - Throws: `StoreError.readOnly`, `.busy`, `.closed`, `.database`.
  public func removeAll() throws {
    try write {
      for table in ["time_session", "note", "attachment", "yarn_usage", "project", "yarn"] {
        try connection.execute("DELETE FROM \(table)")
      }
    }
  }
}
