import Foundation

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
}
