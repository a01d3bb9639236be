import YarnModel

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One change the library's history holds: what one write transaction did (one `yarn`
/// command), which `LibraryStore.undo()` can reverse and `LibraryStore.redo()` make again.
public struct LibraryChange: Sendable, Equatable, Identifiable {
  /// Where the change stands.
  public enum Stack: String, Sendable, Codable {
    /// Made (or redone): `undo()` reverses the newest such change.
    case undo
    /// Undone: `redo()` makes the most recently undone change again. Any new change (not an
    /// undo or redo) forgets every undone one.
    case redo
    /// A change that cannot be undone: `Backup.restore` with `.replace`. Nothing older is kept;
    /// `undo()` refuses it (`StoreError.cannotUndo`), pointing to the safety backup its label
    /// names.
    case barrier
  }

  /// What a change did to the rows of one kind.
  public enum Action: String, Sendable, Codable {
    /// Rows added.
    case added
    /// Rows changed in place.
    case changed
    /// Rows removed.
    case removed
  }

  /// How many rows of one kind one change added, changed or removed.
  public struct Effect: Sendable, Equatable, Codable {
    /// The kind of row, singular: `yarn`, `project`, `yarn usage`, `note`, `time session`,
    /// `photo`, `pattern PDF`, `tool`, `project tool`, `needle size`.
    public let item: String
    /// What the change did to them (for a `.redo` change too: what it does when redone).
    public let action: Action
    /// How many rows, at least 1.
    public let count: Int
  }

  /// The change's number in the history, unique and increasing (an undone change gets a new
  /// one).
  public let id: Int64
  /// Where it stands.
  public let stack: Stack
  /// When it was first made (UTC, whole seconds); undoing and redoing keep it. For changes
  /// made outside yarn, when yarn first wrote after them (listed before that, the time of the
  /// listing: `LibraryStore.history()`).
  public let made: Date
  /// What made it, as the writer said (`LibraryStore.changeLabel`: the `yarn` tool puts its
  /// command line, such as `yarn stash rm Rios --force`); empty when the writer said nothing.
  public let label: String
  /// For a barrier, why it cannot be undone and where the way back is (a `.replace` restore
  /// names its safety backup); `nil` otherwise.
  public let detail: String?
  /// What it did, by kind of row, in the order added, changed, removed, and within each by
  /// kind in the order of `Schema.recordedTables`; a row removed and added again in one
  /// change (written again) counts as changed. Empty for a barrier.
  public let effects: [Effect]
}

extension LibraryStore {
  /// How many changes the history keeps for `undo()`: 50; an older one is forgotten when a
  /// new one is made (and its attachment files deleted when nothing else refers to them).
  /// Undone changes waiting for `redo()` are not counted.
  public static let historyLimit = 50

  /// The changes `undo()` and `redo()` can reach: first the undone ones that `redo()` would
  /// make again, most recently undone first; then the made ones, newest first (`undo()` takes
  /// the first of those), ending with a barrier when a `.replace` restore cut the history.
  ///
  /// Changes made outside yarn since the last write come first, as the change of their own
  /// that the next write (`undo()` included) makes of them: numbered next, made now, ending
  /// what could be redone and pushing the oldest change past `historyLimit` out. Listing them
  /// writes nothing (a `.readOnly` store lists them too).
  ///
  /// - Throws: `StoreError.busy`, `.closed`, `.database`.
  public func history() throws -> [LibraryChange] {
    try read {
      let undo = try changes(where: "stack <> 'redo'")
      if let outside = try waitingOutsideChange() {
        return Array(([outside] + undo).prefix(LibraryStore.historyLimit))
      }
      return try changes(where: "stack = 'redo'") + undo
    }
  }

  /// The steps another writer recorded and nothing gathered yet, as the change that
  /// `recordOutsideChanges()` will make of them; `nil` when none wait (or inside a write
  /// transaction, whose waiting steps are its own).
  private func waitingOutsideChange() throws -> LibraryChange? {
    guard !connection.isWriting, try hasPendingSteps() else { return nil }
    // The number SQLite gives the next row of `history_change`.
    let id = try connection.integer("SELECT coalesce(max(seq), 0) + 1 FROM history_change") ?? 1
    return LibraryChange(
      id: id, stack: .undo, made: Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)),
      label: LibraryStore.outsideChangeLabel, detail: nil,
      effects: try effects(ofStepsWhere: "change IS NULL", undone: false))
  }

  /// Reverses the newest change of the history (`history()`'s first change whose stack is
  /// `.undo`), in one write transaction, and keeps it for `redo()`. Undoing a removal brings
  /// back every row that went with it, with the same IDs and order, and its attachment files
  /// (kept while the history refers to them). Call it on its own, not inside `write { }`.
  ///
  /// - Returns: the change undone, as it now stands: on the `.redo` stack, with a new `id`.
  /// - Throws: `StoreError.cannotUndo` when no change is left to undo, when the newest is a
  ///   barrier (a `.replace` restore), or when the library was changed outside yarn so that
  ///   the change can no longer be reversed (nothing is changed then);
  ///   `StoreError.readOnly`, `.busy`, `.closed`, `.database`.
  @discardableResult
  public func undo() throws -> LibraryChange {
    try reverse(from: "stack <> 'redo'", becoming: .redo, none: .nothingToUndo)
  }

  /// Makes the most recently undone change again, in one write transaction; it can then be
  /// undone again. Call it on its own, not inside `write { }`.
  ///
  /// - Returns: the change redone, as it now stands: on the `.undo` stack, with a new `id`.
  /// - Throws: `StoreError.cannotUndo(.nothingToRedo)` when no undone change is waiting (a
  ///   change made since an undo forgets it), or `.cannotUndo(.broken)` as `undo()` does;
  ///   `StoreError.readOnly`, `.busy`, `.closed`, `.database`.
  @discardableResult
  public func redo() throws -> LibraryChange {
    try reverse(from: "stack = 'redo'", becoming: .undo, none: .nothingToRedo)
  }

  /// Runs `body` (a `.replace` restore's removal and insertion of every item) with the
  /// history off, inside the open write transaction, and then forgets the whole history and
  /// records a barrier labelled `changeLabel`, whose `detail` says why it cannot be undone
  /// (what `undo()` will say instead of undoing it).
  package func withoutHistory<T>(barrier detail: String, _ body: () throws -> T) throws -> T {
    try write {
      try connection.run("INSERT INTO history_pause (one) VALUES (1)")
      let value = try body()
      try connection.run("DELETE FROM history_pause")
      try forget(where: "1")
      try connection.run(
        "INSERT INTO history_change (stack, made, label, detail) VALUES ('barrier', ?, ?, ?)",
        [
          .integer(Int64(Date().timeIntervalSince1970.rounded(.down))), .text(changeLabel),
          .text(detail),
        ])
      return value
    }
  }

  /// What the history calls steps that a writer other than yarn recorded (the `sqlite3`
  /// shell, say: the triggers are in the database).
  static let outsideChangeLabel = "changes made outside yarn"

  /// At the start of a write transaction: steps already waiting were recorded by a writer
  /// other than yarn, which never gathered them. They become a change of their own
  /// (`outsideChangeLabel`), so that they are not undone as part of the next one; as any new
  /// change, it ends what could be redone (a redo would overwrite it, or find its rows gone).
  ///
  /// A row of `history_pause` found then was left by another writer (yarn fills it only inside
  /// its own transaction, `withoutHistory`, and empties it before the commit): it is removed,
  /// so that the history records this change and the next ones again.
  func recordOutsideChanges() throws {
    // Almost always neither: one statement, two look-ups, then nothing else to do.
    let waiting = try connection.query(
      "SELECT EXISTS (SELECT 1 FROM history_step WHERE change IS NULL), EXISTS (SELECT 1 FROM history_pause)"
    ) { (steps: $0.int64(0) == 1, paused: $0.int64(1) == 1) }.first
    if waiting?.paused == true { try connection.run("DELETE FROM history_pause") }
    guard waiting?.steps == true else { return }
    // Their names' keys too, which such a writer does not compute (`Lookup.key`).
    try refreshNameKeys(ofStepsWhere: "change IS NULL")
    try record(label: LibraryStore.outsideChangeLabel)
  }

  /// Whether steps wait for a change (recorded in the open transaction, or by another writer).
  private func hasPendingSteps() throws -> Bool {
    try connection.integer("SELECT EXISTS (SELECT 1 FROM history_step WHERE change IS NULL)") == 1
  }

  /// Just before a write transaction commits: gathers the steps its statements recorded into
  /// one new change labelled `changeLabel` (`record(label:)`).
  func recordChange() throws {
    try record(label: changeLabel)
  }

  /// Gathers the steps waiting into one new change on the undo stack, labelled `label`,
  /// forgets every undone change (a new change ends the redo line), and forgets the changes
  /// past `historyLimit`. (`history()` lists steps waiting as they will stand after this.)
  private func record(label: String) throws {
    guard try gather(stack: .undo, made: Date(), label: label) else { return }
    // Counted first, as most commands follow no undo and the history is often short: each
    // `forget` compiles and runs a read and a delete (0.5 M instructions of `yarn time start`
    // for the two, bench/README.md), one count costs a tenth of that.
    let counts = try connection.query(
      """
      SELECT count(*) FILTER (WHERE stack = 'redo'), count(*) FILTER (WHERE stack <> 'redo')
      FROM history_change
      """
    ) { (redo: $0.int64(0), kept: $0.int64(1)) }.first
    if let counts, counts.redo > 0 { try forget(where: "stack = 'redo'") }
    if let counts, counts.kept <= Int64(LibraryStore.historyLimit) { return }
    try forget(
      where: """
        stack <> 'redo' AND seq NOT IN (
          SELECT seq FROM history_change WHERE stack <> 'redo' ORDER BY seq DESC LIMIT ?)
        """,
      [.integer(Int64(LibraryStore.historyLimit))])
  }

  // MARK: Helpers

  /// Computes again the name keys (`Schema.refreshNameKeys`) of the yarns and projects that
  /// the history steps `condition` selects name (by ID).
  private func refreshNameKeys(ofStepsWhere condition: String, _ arguments: [SQLValue] = [])
    throws
  {
    for table in ["yarn", "project", "tool"] {
      try Schema.refreshNameKeys(
        connection, table: table,
        rows: "id IN (SELECT row FROM history_step WHERE \(condition) AND item = '\(table)')",
        arguments)
    }
  }

  /// Makes the steps with no change yet (those the open transaction recorded) one change on
  /// `stack`. Returns whether there were any.
  private func gather(stack: LibraryChange.Stack, made: Date, label: String) throws -> Bool {
    guard try hasPendingSteps() else { return false }
    try connection.run(
      "INSERT INTO history_change (stack, made, label) VALUES (?, ?, ?)",
      [
        .text(stack.rawValue), .integer(Int64(made.timeIntervalSince1970.rounded(.down))),
        .text(label),
      ])
    try connection.run(
      "UPDATE history_step SET change = (SELECT max(seq) FROM history_change) WHERE change IS NULL"
    )
    return true
  }

  /// Reverses the newest change `stack` selects in one write transaction: runs its steps
  /// newest first. Their rows' triggers record the steps that reverse them in turn, which
  /// become a change on `becoming` with the same label and day. Foreign keys are checked at
  /// the commit (`defer_foreign_keys`), as a removal's steps bring a yarn back after its
  /// notes.
  private func reverse(
    from stack: String, becoming: LibraryChange.Stack, none: StoreError.UndoRefusal
  ) throws -> LibraryChange {
    var picked: LibraryChange?
    do {
      return try write {
        guard let change = try changes(where: stack, limit: 1).first else {
          throw StoreError.cannotUndo(none)
        }
        if change.stack == .barrier { throw StoreError.cannotUndo(.barrier(change)) }
        picked = change
        try connection.execute("PRAGMA defer_foreign_keys = ON")
        let steps = try connection.query(
          "SELECT sql, item, row FROM history_step WHERE change = ? ORDER BY seq DESC",
          [.integer(change.id)]
        ) { (sql: $0.text(0) ?? "", item: $0.text(1) ?? "", row: $0.text(2) ?? "") }
        for step in steps {
          guard let target = LibraryStore.historyTable(of: step.sql) else {
            throw StoreError.cannotUndo(.broken(change, reason: "its history holds a foreign statement"))
          }
          let noun = LibraryStore.noun(ofItem: step.item)
          let adds = step.sql.hasPrefix("INSERT")
          let removes = step.sql.hasPrefix("DELETE")
          func gone() -> StoreError {
            .cannotUndo(
              .broken(
                change,
                reason:
                  "the \(noun) \(step.row) it would \(removes ? "remove" : "change") is no longer in the library"
              ))
          }
          // A removal or an update finds its row by the table's key: `seq`, which SQLite gives
          // again to a row added after the last one went. The row the step names must be
          // there (an item's by its ID; for a removal, any row's by its name), else it would
          // remove or overwrite another one, added outside yarn with the history off.
          let named =
            "SELECT EXISTS (SELECT 1 FROM \(target.table) AS t WHERE \(Schema.historyRowName(target.table, "t")) = ?)"
          if !adds, target.key == ["seq"], removes || target.columns.contains("id"),
            try connection.integer(named, [.text(step.row)]) != 1
          {
            throw gone()
          }
          do {
            try connection.executeOne(step.sql)
          } catch let error as DatabaseError where error.isConstraint {
            throw StoreError.cannotUndo(
              .broken(change, reason: LibraryStore.words(error, noun: noun, row: step.row, adds: adds)))
          }
          // Each step changes exactly one row. An update or removal that finds none means the
          // row went outside yarn with the history off (a writer that filled `history_pause`);
          // a removal that leaves the named row took another in its place.
          if connection.changes == 0 { throw gone() }
          if removes, target.key == ["seq"], try connection.integer(named, [.text(step.row)]) == 1 {
            throw gone()
          }
        }
        // Steps recorded before v4 give a name back without its key (NULL when they add the
        // row again): computed again, the change's reverse records it.
        try refreshNameKeys(ofStepsWhere: "change = ?", [.integer(change.id)])
        // An attachment it brings back must have its file (deleted outside yarn, it cannot).
        let missing = try connection.query(
          """
          SELECT DISTINCT a.sha256 FROM attachment a JOIN history_step s ON s.sha256 = a.sha256
          WHERE s.change = ? ORDER BY a.sha256
          """, [.integer(change.id)]
        ) { $0.text(0) ?? "" }.filter { !hasAttachment(sha256: $0) }
        if let digest = missing.first {
          throw StoreError.cannotUndo(
            .broken(change, reason: "the file of attachment \(digest) is missing from attachments/"))
        }
        try forget(where: "seq = ?", [.integer(change.id)])
        _ = try gather(stack: becoming, made: change.made, label: change.label)
        return try changes(where: "stack = '\(becoming.rawValue)'", limit: 1).first ?? change
      }
    } catch let error as DatabaseError where error.isConstraint {
      // Any other rule of the tables a step breaks.
      guard let change = picked else { throw StoreError.wrap(error) }
      throw StoreError.cannotUndo(.broken(change, reason: LibraryStore.words(error)))
    } catch StoreError.database(let error) where error.isConstraint {
      // The commit's check of the deferred foreign keys.
      guard let change = picked else { throw StoreError.database(error) }
      throw StoreError.cannotUndo(.broken(change, reason: LibraryStore.words(error)))
    }
  }

  /// A constraint that reversing a change broke, in words. A step that brings a row back
  /// (`adds`) finds it there again (its ID) or another in its place (`seq`); a unique index
  /// is the rule it keeps (one running timer, one pattern PDF, one attachment in a place); a
  /// foreign key is an item it refers to that is gone (SQLite does not say which). Anything
  /// else is SQLite's message.
  private static func words(
    _ error: DatabaseError, noun: String? = nil, row: String = "", adds: Bool = false
  ) -> String {
    let message = error.message
    if message.contains("FOREIGN KEY") { return "an item it refers to is no longer in the library" }
    if message.contains("one_running_session") { return "another timer is running" }
    if message.contains("one_pattern_per_project") { return "the project has another pattern PDF" }
    if message.contains("attachment_of_") { return "another attachment holds its place" }
    if let noun, adds, message.hasSuffix(".seq") {
      return "another \(noun) took the place of the \(noun) \(row) it would bring back"
    }
    if let noun, adds, message.hasSuffix(".id") {
      return "the \(noun) \(row) it would bring back is there again"
    }
    if let noun, adds, message.hasPrefix("UNIQUE") { return "another \(noun) holds its place \(row)" }
    return message
  }

  /// Deletes the changes `condition` selects, with their steps, after noting the attachment
  /// digests their steps name: once the transaction commits, the files no record or step
  /// refers to any more are deleted.
  private func forget(where condition: String, _ arguments: [SQLValue] = []) throws {
    let digests = try connection.query(
      """
      SELECT DISTINCT sha256 FROM history_step WHERE sha256 IS NOT NULL
        AND change IN (SELECT seq FROM history_change WHERE \(condition))
      """, arguments
    ) { $0.text(0) ?? "" }
    droppedDigests.formUnion(digests)
    try connection.run("DELETE FROM history_change WHERE \(condition)", arguments)
  }

  /// Whether `sql` has the shape of a statement the history's triggers write: one INSERT,
  /// UPDATE or DELETE of a table of items (`Schema.recordedTables`). `executeOne` refuses a
  /// second statement after it.
  static func isHistoryStatement(_ sql: String) -> Bool { historyTable(of: sql) != nil }

  /// The table of items (`Schema.recordedTables`: its name, key and columns) whose row `sql`
  /// writes when it has the shape of a statement the history's triggers write; `nil` else.
  static func historyTable(of sql: String) -> (table: String, key: [String], columns: [String])? {
    Schema.recordedTables.first { entry in
      sql.hasPrefix("DELETE FROM \(entry.table) WHERE ")
        || sql.hasPrefix("INSERT INTO \(entry.table) (")
        || sql.hasPrefix("UPDATE \(entry.table) SET ")
    }
  }

  /// The changes `condition` selects, newest first, with their effects.
  private func changes(where condition: String, limit: Int = -1) throws -> [LibraryChange] {
    let rows = try connection.query(
      """
      SELECT seq, stack, made, label, detail FROM history_change WHERE \(condition)
      ORDER BY seq DESC LIMIT ?
      """, [.integer(Int64(limit))]
    ) { row in
      (
        id: row.int64(0), stack: LibraryChange.Stack(rawValue: row.text(1) ?? "") ?? .undo,
        made: Date(timeIntervalSince1970: TimeInterval(row.int64(2))), label: row.text(3) ?? "",
        detail: row.text(4)
      )
    }
    return try rows.map { row in
      LibraryChange(
        id: row.id, stack: row.stack, made: row.made, label: row.label, detail: row.detail,
        effects: try effects(ofStepsWhere: "change = ?", [.integer(row.id)], undone: row.stack == .redo))
    }
  }

  /// What the change whose steps `condition` selects did, counted from its steps. A step
  /// records the action of the statement it reverses: for an undone change (`undone`), the
  /// statements undo ran, which did the opposite of the change. A row of a list (a yarn
  /// usage, a needle size) moved to another position, as those after a removed one are
  /// (`writeList`), is not counted: what the change did is the removal.
  private func effects(
    ofStepsWhere condition: String, _ arguments: [SQLValue] = [], undone: Bool
  ) throws -> [LibraryChange.Effect] {
    // Each row's actions in this change, by whether it was there before and after: added
    // (an insert, perhaps updated after, as the name key of a row another writer added),
    // removed (a delete, perhaps updated before), else changed (updated, or removed and added
    // again: written again).
    var actions: [String: [String: Set<String>]] = [:]  // item → row → actions
    try connection.forEach(
      """
      SELECT item, row, action,
        CASE WHEN action = 'update' AND item IN ('yarn_usage', 'project_needle') THEN sql END
      FROM history_step WHERE \(condition)
      """, arguments
    ) { step in
      let row = step.text(1) ?? ""
      // An update names its row by where it was (`project/position`); the statement that
      // reverses it finds the row where it went, last (`… AND position = 2`).
      if let sql = step.text(3), let to = sql.lastIndex(of: " "), let from = row.lastIndex(of: "/"),
        sql[sql.index(after: to)...] != row[row.index(after: from)...]
      {
        return
      }
      actions[step.text(0) ?? "", default: [:]][row, default: []].insert(step.text(2) ?? "")
    }
    let order = [
      "yarn", "project", "yarn_usage", "note", "time_session", "photo", "pattern", "tool",
      "project_tool", "project_needle",
    ]
    var effects: [LibraryChange.Effect] = []
    for action in [LibraryChange.Action.added, .changed, .removed] {
      for item in order {
        let count = (actions[item] ?? [:]).values.filter { recorded in
          let (inserted, deleted) = (recorded.contains("insert"), recorded.contains("delete"))
          let net: LibraryChange.Action =
            inserted == deleted ? .changed : inserted != undone ? .added : .removed
          return net == action
        }.count
        if count > 0 {
          effects.append(
            LibraryChange.Effect(item: LibraryStore.noun(ofItem: item), action: action, count: count))
        }
      }
    }
    return effects
  }

  /// The word for a kind of row the history records (`yarn_usage`: `yarn usage`).
  private static func noun(ofItem item: String) -> String {
    switch item {
    case "yarn_usage": "yarn usage"
    case "time_session": "time session"
    case "pattern": "pattern PDF"
    case "project_tool": "project tool"
    case "project_needle": "needle size"
    default: item
    }
  }
}
