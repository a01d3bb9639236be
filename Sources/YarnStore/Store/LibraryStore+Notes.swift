import YarnModel

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension LibraryStore {
  private static let noteColumns = "id, yarn_id, project_id, text, created, modified"

  /// Every note, in creation order.
  ///
  /// - Throws: `StoreError.invalidData` for a row that cannot be read back; `.busy`,
  ///   `.closed`, `.database`.
  public func notes() throws -> [Note] {
    var out: [Note] = []
    try forEachNote { out.append($0) }
    return out
  }

  /// Hands each note (or each note about `subject`) to `body` in creation order as it is
  /// read, so memory stays flat however many notes there are; all in one read transaction.
  ///
  /// - Throws: what `body` throws (which stops the walk); the errors of `notes()`.
  public func forEachNote(about subject: Note.Subject? = nil, _ body: (Note) throws -> Void) throws {
    let filter: (sql: String, arguments: [SQLValue]) =
      switch subject {
      case nil: ("", [])
      case .yarn(let id): ("WHERE yarn_id = ? ", [.text(id)])
      case .project(let id): ("WHERE project_id = ? ", [.text(id)])
      }
    try read {
      try connection.forEach(
        "SELECT \(LibraryStore.noteColumns) FROM note \(filter.sql)ORDER BY seq", filter.arguments
      ) { try body(try note(from: $0)) }
    }
  }

  /// The note with `id`, or `nil` when there is none.
  ///
  /// - Throws: the errors of `notes()`.
  public func note(id: String) throws -> Note? {
    try read {
      try connection.query(
        "SELECT \(LibraryStore.noteColumns) FROM note WHERE id = ?", [.text(id)]
      ) { try note(from: $0) }.first
    }
  }

  /// The notes about one yarn or project, in creation order.
  ///
  /// - Throws: the errors of `notes()`.
  public func notes(about subject: Note.Subject) throws -> [Note] {
    var out: [Note] = []
    try forEachNote(about: subject) { out.append($0) }
    return out
  }

  /// Adds `note` (after every note already there). `created` and `modified` are stored as
  /// whole Unix seconds (truncated).
  ///
  /// - Throws: `StoreError.duplicateID` when its ID is taken; `.brokenRule` when its ID is
  ///   blank or its text breaks a rule of `Rules` (blank, too long, a control character other than a line
  ///   break or a tab); `.invalidData` when it is about both or neither of a yarn and a project; `.missingReference` when its yarn or project
  ///   is not in the library; `.readOnly`, `.busy`, `.closed`, `.database`.
  public func insert(_ note: Note) throws {
    try insert(note, checkingRules: true)
  }

  /// `insert(_:)`, the rules left unchecked when `checkingRules` is false: for a caller that
  /// has just checked `note.ruleViolations()` itself (the stash import).
  package func insert(_ note: Note, checkingRules: Bool) throws {
    // One statement: no savepoint of its own inside another write.
    try writeOneStatement {
      try LibraryStore.refuseNew(id: note.id, kind: .note)
      if checkingRules { try LibraryStore.refuse(note.ruleViolations(), kind: .note, id: note.id) }
      guard (note.yarnID == nil) != (note.projectID == nil) else {
        throw StoreError.invalidData(
          kind: .note, id: note.id, reason: "a note must be about exactly one yarn or project")
      }
      let row = RowWriter(kind: .note, id: note.id)
      // The constraints find a taken ID and a missing yarn or project, without look-ups first.
      do {
        try connection.run(
          "INSERT INTO note (\(LibraryStore.noteColumns)) VALUES (?, ?, ?, ?, ?, ?)",
          [
            .text(note.id), .text(note.yarnID), .text(note.projectID), .text(note.text),
            try row.instant(note.created), try row.instant(note.modified),
          ])
      } catch let error as DatabaseError where error.isUniqueViolation(of: "note.id") {
        throw StoreError.duplicateID(kind: .note, id: note.id)
      } catch let error as DatabaseError where error.isForeignKeyViolation {
        try checkSubject(of: note)  // throws the missing reference
        throw error
      }
    }
  }

  /// Replaces the stored note that has `note.id`; its place in creation order is kept.
  ///
  /// - Throws: `StoreError.notFound` when no note has that ID; otherwise as `insert(_:)`.
  public func update(_ note: Note) throws {
    try write {
      try LibraryStore.refuse(note.ruleViolations(), kind: .note, id: note.id)
      try checkSubject(of: note)
      let row = RowWriter(kind: .note, id: note.id)
      try connection.run(
        """
        UPDATE note SET yarn_id = ?, project_id = ?, text = ?, created = ?, modified = ?
        WHERE id = ?
        """,
        [
          .text(note.yarnID), .text(note.projectID), .text(note.text),
          try row.instant(note.created), try row.instant(note.modified), .text(note.id),
        ])
      guard connection.changes == 1 else { throw StoreError.notFound(kind: .note, id: note.id) }
    }
  }

  /// The note `reference` names: its full ID, or a unique prefix of its ID of at least 4
  /// characters (case-insensitive), as tables show the first 8: the rule of sessions.
  ///
  /// - Throws: `StoreError.notFound` (kind `.note`) when none matches, or a prefix is shorter
  ///   than 4 characters (said so: `Lookup.tooShortIDPrefix`); `StoreError.ambiguousID` listing the IDs (up to 10) that begin with
  ///   the prefix; `.busy`, `.closed`, `.database`.
  public func note(matching reference: String) throws -> Note {
    let wanted = reference.trimmingSpaces()
    return try read {
      let found = wanted.isEmpty ? [] : try ids(in: "note", prefix: wanted, limit: 10)
      if found.count == 1, found[0] == wanted || wanted.count >= 4,
        let note = try note(id: found[0])
      {
        return note
      }
      guard wanted.count >= 4, found.count > 1 else {
        throw StoreError.notFound(kind: .note, id: reference)
      }
      throw StoreError.ambiguousID(kind: .note, reference: reference, ids: found)
    }
  }

  /// Deletes the note with `id`.
  ///
  /// - Throws: `StoreError.notFound` when no note has that ID; `.readOnly`, `.busy`,
  ///   `.closed`, `.database`.
  public func deleteNote(id: String) throws {
    try write {
      try connection.run("DELETE FROM note WHERE id = ?", [.text(id)])
      guard connection.changes == 1 else { throw StoreError.notFound(kind: .note, id: id) }
    }
  }

  private func checkSubject(of note: Note) throws {
    switch (note.yarnID, note.projectID) {
    case (let yarnID?, nil):
      guard try exists("yarn", id: yarnID) else {
        throw StoreError.missingReference(kind: .yarn, id: yarnID, from: .note, fromID: note.id)
      }
    case (nil, let projectID?):
      guard try exists("project", id: projectID) else {
        throw StoreError.missingReference(
          kind: .project, id: projectID, from: .note, fromID: note.id)
      }
    default:
      throw StoreError.invalidData(
        kind: .note, id: note.id, reason: "a note must be about exactly one yarn or project")
    }
  }

  private func note(from statement: Statement) throws -> Note {
    var row = RowReader(statement, kind: .note)
    let id = try row.id()
    let yarnID = row.optionalText()
    let projectID = row.optionalText()
    let text = try row.text()
    let created = try row.instant()
    let modified = try row.instant()
    let subject: Note.Subject
    switch (yarnID, projectID) {
    case (let yarnID?, nil): subject = .yarn(yarnID)
    case (nil, let projectID?): subject = .project(projectID)
    default: throw row.invalid("stored note is about both or neither of a yarn and a project")
    }
    return Note(id: id, subject: subject, text: text, created: created, modified: modified)
  }
}
