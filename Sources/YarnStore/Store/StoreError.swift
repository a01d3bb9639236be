import YarnModel

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// An error from `LibraryStore`. Each case carries the data a message or an exit code needs;
/// `description` is a lower-case sentence naming what went wrong and where.
public enum StoreError: Error, Sendable, CustomStringConvertible {
  /// The kinds of item a library holds, for messages that name one.
  public enum Kind: String, Sendable, CustomStringConvertible {
    /// A `Yarn`.
    case yarn
    /// A `Project`.
    case project
    /// A `Note`.
    case note
    /// A `TimeSession`.
    case session
    /// A `Tool`: a needle or a hook.
    case tool
    /// The raw value: `yarn`, `project`, `note`, `session` or `tool`.
    public var description: String { rawValue }
  }

  /// Thrown when an update or delete names an ID that is not in the library.
  case notFound(kind: Kind, id: String)
  /// Thrown when an insert uses an ID that an item of the same kind already has.
  case duplicateID(kind: Kind, id: String)
  /// Thrown when a reference (an ID prefix, such as `note(matching:)` takes) begins several
  /// items' IDs: `ids` are up to 10 of them, in creation order.
  case ambiguousID(kind: Kind, reference: String, ids: [String])
  /// Thrown when an item refers to one that is not in the library: a usage's yarn, a note's
  /// yarn or project, a session's project. `from`/`fromID` name the referring item.
  case missingReference(kind: Kind, id: String, from: Kind, fromID: String)
  /// Thrown by `deleteYarn(id:force:)` and `deleteProject(id:force:)` without `force` when
  /// something would go with the item (`effects`); `name` is the item's name.
  case removalRefused(kind: Kind, name: String, effects: RemovalEffects)
  /// Thrown when inserting or updating a session would make a second running one (the
  /// schema's `one_running_session` index refuses it); carries the session already running.
  case sessionAlreadyRunning(TimeSession)
  /// Thrown when an attachment's bytes are not in the library's `attachments/` folder (import
  /// them first with `importAttachment(from:)`).
  case missingAttachment(sha256: String)
  /// Thrown when removing an item, named `name`, one of whose photos (or a project's pattern
  /// PDF), `fileName` with the SHA-256 `sha256`, has no file in `attachments/` (lost outside
  /// yarn): undo could not give it back. Detaching that photo first lets it go: `use` names
  /// the item and the photo for that (`AttachmentUse`; its `photo` is `nil` for the pattern).
  case lostAttachment(name: String, fileName: String, sha256: String, use: AttachmentUse)
  /// Thrown when a value breaks a rule of the schema that is not a rule of the model (an
  /// instant beyond ±2^63 s, a malformed digest, a note about both or neither of a yarn and a
  /// project), or when a stored row cannot be read back as a model value.
  case invalidData(kind: Kind, id: String, reason: String)
  /// Thrown when an inserted or updated item breaks a rule of the model (`Rules`): a blank
  /// name, a negative amount, a finished project without a finished day, a session over
  /// `Rules.maximumSessionSeconds` or in the future, …; `name` is a yarn's or project's
  /// name (`nil` for a note or a session), `violation` names the field and why.
  case brokenRule(kind: Kind, id: String, name: String?, violation: RuleViolation)
  /// Why a migration of the database's schema failed (`StoreError.upgradeFailed`).
  public enum UpgradeFailure: Sendable, Equatable, CustomStringConvertible {
    /// The disk, the user's disk quota or the database's size limit had no room (SQLITE_FULL,
    /// sqlite.org/rescode.html, or a disk I/O error whose system error is ENOSPC or EDQUOT).
    case diskFull
    /// The database cannot be written: its file or directory is read-only for this user
    /// (SQLITE_READONLY); `message` is SQLite's.
    case readOnly(message: String)
    /// Any other failure SQLite reported: its extended result code and message (never the
    /// failing SQL), such as 1 and `table yarn already exists` for a database made outside
    /// yarn.
    case database(code: Int32, message: String)

    /// SQLite's message (`database or disk is full` for `.diskFull`).
    public var description: String {
      switch self {
      case .diskFull:
        return "database or disk is full"
      case .readOnly(let message), .database(_, let message):
        return message
      }
    }
  }

  /// Thrown for any other failure SQLite reports, such as a file that is not a database
  /// (`DatabaseError.primaryCode` 26, SQLITE_NOTADB) or a corrupt one (11, SQLITE_CORRUPT).
  case database(DatabaseError)
  /// Thrown when opening a library whose database has an older schema version (`from`; 0 for
  /// a new database, which has no tables yet) fails to bring it to this code's version
  /// (`to`): the migrations' transaction is rolled back, so the database is left at version
  /// `from` with all its data. A lock held by another process is `.busy` instead, a newer
  /// database `.newerSchema`.
  case upgradeFailed(from: Int, to: Int, reason: UpgradeFailure)
  /// Thrown when another process (or another store on the same directory) held the library
  /// locked for longer than the busy timeout, 5 seconds; trying again later may succeed (the
  /// CLI exits 75, EX_TEMPFAIL).
  case busy
  /// Thrown when the database was written by a newer version of yarn: its schema version
  /// `found` is above the `known` version of this code.
  case newerSchema(found: Int, known: Int)
  /// Thrown by any change to a store opened `.readOnly`.
  case readOnly(path: String)
  /// Thrown when the store is used after `close()`.
  case closed
  /// Thrown when a file or directory of the library cannot be created, read or written
  /// (SQLite's disk I/O errors, SQLITE_IOERR, among them, naming `library.sqlite`).
  case io(path: String, reason: String)
  /// Thrown when a change to the library's database (`path`, its `library.sqlite`) found no
  /// room on the disk or in the user's disk quota (SQLITE_FULL, sqlite.org/rescode.html, or a
  /// disk I/O error whose system error is ENOSPC or EDQUOT): the change's transaction is
  /// rolled back, so the library is left as it was.
  case diskFull(path: String)
  /// Thrown by `LibraryStore.create(directory:_:keep:)` when another process (or store)
  /// created the library in `directory` while this one was being built: that library is left
  /// as it is and the one built is thrown away, so nothing of the caller's work is kept.
  case libraryCreatedMeanwhile(directory: String)
  /// Thrown by `undo()` and `redo()` when they cannot: nothing is changed then.
  case cannotUndo(UndoRefusal)

  /// Why `undo()` or `redo()` did nothing.
  public enum UndoRefusal: Sendable, Equatable {
    /// The history holds no change to undo.
    case nothingToUndo
    /// No undone change waits to be redone (none was undone, or a change made since ended
    /// the redo line).
    case nothingToRedo
    /// The newest change replaced the whole library (`Backup.restore` with `.replace`): it
    /// cannot be undone; its label names the safety backup that holds the library before it.
    case barrier(LibraryChange)
    /// Reversing the change failed: the library was changed outside yarn since (a row it
    /// would bring back is there again, or one it refers to is gone). `reason` is SQLite's.
    case broken(LibraryChange, reason: String)
  }

  /// A lower-case sentence naming what went wrong and where, such as `no yarn with id y-1 in
  /// the library`; instants in it are ISO 8601 UTC.
  public var description: String {
    switch self {
    case .notFound(let kind, let id):
      // `note(matching:)` takes an ID prefix of 4 characters or more, as sessions do.
      if kind == .note, let tooShort = Lookup.tooShortIDPrefix(id, kind: "note") { return tooShort }
      return "no \(kind) with id \(Rules.shown(id: LineText.shortened(id))) in the library"
    case .duplicateID(let kind, let id):
      return "a \(kind) with id \(Rules.shown(id: id)) is already in the library"
    case .ambiguousID(let kind, let reference, let ids):
      return "\(LineText.quoted(reference)) begins the ids of \(ids.count) \(kind)s: "
        + ids.map { Rules.shown(id: $0) }.joined(separator: ", ")
    case .missingReference(let kind, let id, let from, let fromID):
      return "\(from) \(Rules.shown(id: fromID)) refers to \(kind) \(Rules.shown(id: id)), which is not "
        + "in the library"
    case .removalRefused(let kind, let name, let effects):
      return "removing \(kind) \(LineText.quoted(name)) would also \(effects.summary)"
    case .sessionAlreadyRunning(let session):
      return "a time session is already running: session \(Rules.shown(id: session.id)) on project "
        + "\(Rules.shown(id: session.projectID)) since \(JSONCoding.formatInstant(session.start))"
    case .lostAttachment(let name, let fileName, let sha256, let use):
      return
        "cannot remove \(use.kind) \(LineText.quoted(name)): the file of its \(use.photo == nil ? "pattern" : "photo") "
        + "\(LineText.visible(fileName)) (\(sha256)) is missing from attachments/, so undo could not give it back"
    case .missingAttachment(let sha256):
      return "attachment \(sha256) is not stored in the library's attachments folder"
    case .invalidData(let kind, let id, let reason):
      return "\(kind) \(Rules.shown(id: id)): \(reason)"
    case .brokenRule(let kind, let id, let name, let violation):
      return "\(kind) \(Rules.shown(id: id))\(name.map { " (\(LineText.visible($0)))" } ?? ""): \(violation)"
    case .database(let error):
      return error.description
    case .upgradeFailed(let from, let to, let reason):
      if from == 0 {
        return "cannot create the tables of the library's database (schema version \(to)): "
          + reason.description
      }
      return "cannot upgrade the library's database from schema version \(from) to \(to) "
        + "(it is left as it was): \(reason)"
    case .busy:
      return "the library is busy: other processes kept it locked for more than "
        + "\(LibraryStore.busyTimeoutMilliseconds / 1000) seconds"
    case .newerSchema(let found, let known):
      return "the library's database has schema version \(found), but this yarn knows only "
        + "versions up to \(known); use a newer yarn"
    case .readOnly(let path):
      return "the library at \(LineText.visible(path)) is open read-only"
    case .closed:
      return "the library store is closed"
    case .io(let path, let reason):
      return "cannot access \(LineText.visible(path)): \(reason)"
    case .diskFull(let path):
      return "cannot write \(LineText.visible(path)): \(StoreError.noRoom)"
    case .libraryCreatedMeanwhile(let directory):
      return
        "another yarn process created the library at \(LineText.visible(directory)) while this command was "
        + "building it; that library was left as it is, and nothing of this command was kept"
    case .cannotUndo(.nothingToUndo):
      return "nothing to undo: the library's history holds no change left to undo"
    case .cannotUndo(.nothingToRedo):
      return "nothing to redo: no undone change is waiting (a change made after an undo ends them)"
    case .cannotUndo(.barrier(let change)):
      let name = change.label.isEmpty ? "" : " (\(LineText.quoted(change.label)))"
      // The detail names the backups' paths, which may hold any character.
      return
        "the last change\(name) cannot be undone: \(change.detail.map(LineText.visible) ?? "it ended the history")"
    case .cannotUndo(.broken(let change, let reason)):
      let name = change.label.isEmpty ? "change \(change.id)" : LineText.quoted(change.label)
      return "cannot reverse \(name): the library was changed outside yarn since (\(reason))"
    }
  }

  /// What a full disk or quota is called in messages: `the disk or your quota is full`.
  package static let noRoom = "the disk or your quota is full"

  /// `error` as a store error, the one place SQLite's errors become the store's: SQLITE_BUSY
  /// becomes `.busy`; with the path of the database file it happened on (`database`; `nil`
  /// for one in memory), a full disk or quota (`DatabaseError.isDiskFull`: SQLITE_FULL, or
  /// SQLITE_IOERR from ENOSPC or EDQUOT) becomes `.diskFull` and any other SQLITE_IOERR `.io`
  /// naming that file in plain words (sqlite.org/rescode.html); anything else `.database`.
  static func wrap(_ error: DatabaseError, database: String? = nil) -> StoreError {
    if error.isBusy { return .busy }
    if let database {
      if error.isDiskFull { return .diskFull(path: database) }
      if error.primaryCode == 10 {  // SQLITE_IOERR
        return .io(path: database, reason: "reading or writing it failed (SQLite: \(error.message))")
      }
    }
    return .database(error)
  }
}
