import YarnModel

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension LibraryStore {
  /// The whole library in one read transaction: yarns, projects, notes, sessions and tools,
  /// each in creation order (sessions too, not by start), as `Library` documents them.
  ///
  /// - Complexity: O(n) rows, all held in memory.
  /// - Throws: `StoreError.invalidData` for a row that cannot be read back; `.busy`,
  ///   `.closed`, `.database`.
  public func library() throws -> Library {
    try read {
      Library(
        yarns: try yarns(), projects: try projects(), notes: try notes(),
        sessions: try sessionsInCreationOrder(), tools: try tools())
    }
  }

  /// Inserts every item of `library`, yarns first, then projects, notes, sessions and tools
  /// (which name their projects), each
  /// in the document's order, so that `library()` on a store that was empty gives `library`
  /// back (instants truncated to whole seconds). All or nothing: call it inside `write { }`
  /// with whatever else belongs to the same change; on its own it is one transaction.
  ///
  /// The attachments' bytes must already be stored (`importAttachment(from:)`).
  ///
  /// - Throws: the errors of `insert(_:)` for yarns, projects, notes and sessions, such as
  ///   `StoreError.duplicateID` for an ID already in the store, `.brokenRule` for the first
  ///   item that breaks a rule of `Rules`, `.missingReference`,
  ///   `.missingAttachment`, `.sessionAlreadyRunning` when the document has two running
  ///   sessions; nothing of `library` is kept then. A needle size under
  ///   `NeedleSize.minimumMillimetres`, which an older yarn took, is kept: a library document
  ///   (a backup's) restores as it was. `CancellationError` when the current task is
  ///   cancelled (checked before each item; nothing of `library` is kept then).
  public func insert(library: Library) throws {
    try write {
      for yarn in library.yarns {
        try Task.checkCancellation()
        try insert(yarn)
      }
      for project in library.projects {
        try Task.checkCancellation()
        try insert(project, keepingOlderSizes: true)
      }
      for note in library.notes {
        try Task.checkCancellation()
        try insert(note)
      }
      for session in library.sessions {
        try Task.checkCancellation()
        try insert(session)
      }
      for tool in library.tools {
        try Task.checkCancellation()
        try insert(tool, keepingOlderSizes: true)
      }
    }
  }

  /// How many yarns, projects, notes and sessions the library holds.
  ///
  /// - Throws: `StoreError.busy`, `.closed`, `.database`.
  public func itemCounts() throws -> (yarns: Int, projects: Int, notes: Int, sessions: Int, tools: Int) {
    try read {
      func count(_ table: String) throws -> Int {
        Int(try connection.integer("SELECT count(*) FROM \(table)") ?? 0)
      }
      return (
        try count("yarn"), try count("project"), try count("note"), try count("time_session"),
        try count("tool")
      )
    }
  }

  /// The SHA-256 of every attachment a yarn or project refers to.
  ///
  /// - Throws: `StoreError.busy`, `.closed`, `.database`.
  package func referencedAttachmentDigests() throws -> Set<String> {
    try read {
      Set(try connection.query("SELECT DISTINCT sha256 FROM attachment") { $0.text(0) ?? "" })
    }
  }

  /// The rows that no item of the library carries, because the project or yarn they belong
  /// to is missing: usages of a missing project, attachment records of a missing yarn or
  /// project, a project's needle sizes and tools of a missing project or tool (`a row of
  /// project_tool refers to a tool that is not in the library`). The item queries (`forEachProject`, `forEachYarn`, …) never read them, so a
  /// backup cannot hold them. Possible only in a database changed with foreign keys off (the
  /// `sqlite3` shell's default); found by `PRAGMA foreign_key_check` of `yarn_usage` and
  /// `attachment`. (Notes, sessions and usages whose own yarn or project is missing are read
  /// with their items; `Backup.create` names those from the items.)
  ///
  /// - Parameter limit: how many rows to name, at most.
  /// - Returns: the number of such rows, and up to `limit` of them named in the order of
  ///   their table's name and then of their row (`row 3 of attachment refers to yarn y-9`,
  ///   `a usage of project p-9 (position 0) refers to project p-9`).
  /// - Throws: `StoreError.busy`, `.closed`, `.database`.
  package func orphanedRows(limit: Int = 5) throws -> (count: Int, examples: [String]) {
    try read {
      try LibraryStore.brokenReferences(
        connection, limit: limit,
        tables: [
          (child: "attachment", parent: "yarn"), (child: "attachment", parent: "project"),
          (child: "yarn_usage", parent: "project"), (child: "project_tool", parent: "project"),
          (child: "project_tool", parent: "tool"), (child: "project_needle", parent: "project"),
        ])
    }
  }

  /// Removes every yarn, project, note, time session, tool and attachment record; once the change
  /// commits, the attachment files no record refers to are deleted.
  /// Inside `write { }` it is part of that transaction, so a failure later undoes it.
  ///
  /// - Throws: `StoreError.readOnly`, `.busy`, `.closed`, `.database`.
  public func removeAll() throws {
    try write {
      try dropAttachments(where: "1")
      for table in [
        "time_session", "note", "attachment", "yarn_usage", "project_tool", "project_needle",
        "tool", "project", "yarn",
      ] {
        try connection.execute("DELETE FROM \(table)")
      }
    }
  }
}
