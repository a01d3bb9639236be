import YarnCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `yarn undo [--list]`: reverses the last change, or lists what can be undone.
struct UndoCommand: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "undo", abstract: "Undo the last change to the library, or list what can be undone.",
      discussion: """
        Each command that changes the library is one change: add, edit, rm (of yarns,
        projects, tools and notes), use, unuse, finish, attach, detach,
        time start/continue/stop/add/edit/rm/cancel, stash import, weft import, backup restore.
        'yarn undo' reverses the newest one and says what it did; run again, it steps further
        back. The library keeps its last \(LibraryStore.historyLimit) changes. Undoing a removal
        brings back everything that went with it, photos included. 'yarn redo' makes an undone
        change again, until a new change is made.

        A 'backup restore --replace' of a library that was not empty cannot be undone: undo
        names the safety backup it wrote, which holds the library as it was before.

        --list shows the changes, newest first: those 'yarn redo' would make again, then those
        'yarn undo' would reverse. --json prints the change undone, or the list.

        EXAMPLES:
          yarn undo --list
          yarn undo
          yarn redo
        """,
      options: [.flag("list", "List the changes that can be undone and redone; change nothing.")])
  }

  var list: Bool

  init(from values: ParsedValues) throws {
    list = values.flag("list")
  }

  func run(in context: Context) throws {
    if list {
      let history = try context.read { store in try store.history() }
      try HistoryOutput.list(history, in: context)
      return
    }
    // A library not made yet has no history, and is not made for nothing.
    if try context.libraryIsMissing { throw StoreError.cannotUndo(.nothingToUndo) }
    let change = try context.withStore(.readWrite) { store in try store.undo() }
    try HistoryOutput.report(change, verb: "undid", in: context)
  }
}

/// `yarn redo`: makes the most recently undone change again.
struct RedoCommand: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "redo", abstract: "Make the most recently undone change again.",
      discussion: """
        Redo makes again what 'yarn undo' reversed, most recently undone first, and the change
        can then be undone again. A change made after an undo ends what can be redone.
        --json prints the change redone.
        """)
  }

  init(from values: ParsedValues) throws {}

  func run(in context: Context) throws {
    if try context.libraryIsMissing { throw StoreError.cannotUndo(.nothingToRedo) }
    let change = try context.withStore(.readWrite) { store in try store.redo() }
    try HistoryOutput.report(change, verb: "redid", in: context)
  }
}

/// How `undo` and `redo` print changes.
enum HistoryOutput {
  /// `undid "yarn stash rm Rios --force" (made 2026-12-01 14:03); it had removed 1 yarn,
  /// 2 notes and 1 photo` (`redid …, which removed …`) on standard error; with `--json` the
  /// change on standard output.
  static func report(_ change: LibraryChange, verb: String, in context: Context) throws {
    if context.global.json { try context.printJSON(ChangeJSON(change)) }
    let what = change.label.isEmpty ? "change \(change.id)" : "\(quoted: change.label)"
    let made = Formatting.localTime(change.made, timeZone: try context.timeZone)
    let did = verb == "undid" ? "; it had " : ", which "
    context.message("\(verb) \(what) (made \(made))\(did)\(effects(of: change))")
  }

  /// The table of `yarn undo --list`, or its JSON.
  static func list(_ history: [LibraryChange], in context: Context) throws {
    if context.global.json {
      try context.printJSON(history.map(ChangeJSON.init))
      return
    }
    guard !history.isEmpty else {
      context.message("nothing to undo: no change has been made since the history began")
      return
    }
    var table = Table(["UNDO", "MADE", "CHANGE", "WHAT IT DID"], shrinkable: [2, 3])
    var undoSteps = 0
    for change in history {
      let step: String
      switch change.stack {
      case .redo: step = "redo"
      case .barrier: step = "-"
      case .undo:
        undoSteps += 1
        step = String(undoSteps)
      }
      table.add([
        step, Formatting.localTime(change.made, timeZone: try context.timeZone),
        shortened(change.label.isEmpty ? "change \(change.id)" : change.label),
        change.stack == .barrier
          ? "cannot be undone: \(change.detail ?? "it ended the history")" : effects(of: change),
      ])
    }
    context.output.write(table.text(fitting: context.tableWidth))
  }

  /// The most Characters of a command line the list shows (`--json` gives it whole).
  static let labelWidth = 60

  /// `label` on one line, cut to `labelWidth` Characters with an ellipsis.
  static func shortened(_ label: String) -> String {
    let line = Table.flatten(label)
    return line.count <= labelWidth ? line : line.prefix(labelWidth - 1) + "…"
  }

  /// `added 1 yarn; changed 1 project; removed 2 notes and 1 photo`.
  static func effects(of change: LibraryChange) -> String {
    var parts: [String] = []
    for action in [LibraryChange.Action.added, .changed, .removed] {
      let counts = change.effects.filter { $0.action == action }.map {
        Plural.count($0.count, $0.item)
      }
      guard let last = counts.last else { continue }
      let joined =
        counts.count == 1 ? last : counts.dropLast().joined(separator: ", ") + " and " + last
      parts.append("\(action.rawValue) \(joined)")
    }
    return parts.isEmpty ? "nothing" : parts.joined(separator: "; ")
  }

  /// A change as JSON: `id`, `stack` (`undo`, `redo`, `barrier`), `made` (ISO 8601 UTC),
  /// `label`, `detail` (a barrier's reason, else null), and `effects`, each `{"item",
  /// "action", "count"}`.
  struct ChangeJSON: Encodable {
    let id: Int64
    let stack: LibraryChange.Stack
    let made: Date
    let label: String
    let detail: String?
    let effects: [LibraryChange.Effect]

    init(_ change: LibraryChange) {
      id = change.id
      stack = change.stack
      made = change.made
      label = change.label
      detail = change.detail
      effects = change.effects
    }

    enum CodingKeys: String, CodingKey { case id, stack, made, label, detail, effects }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(id, forKey: .id)
      try container.encode(stack, forKey: .stack)
      try container.encode(made, forKey: .made)
      try container.encode(label, forKey: .label)
      try container.encode(detail, forKey: .detail)  // null when there is none
      try container.encode(effects, forKey: .effects)
    }
  }
}
