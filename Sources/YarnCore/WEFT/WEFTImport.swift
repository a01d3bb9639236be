import YarnModel
import YarnStore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Reads WEFT documents into the library (docs/WEFT.md): materials of type yarn as stash
/// yarns, projects as projects, each progress's timer sessions as time sessions; every
/// field yarn has no place for is listed as not kept.
///
/// The rules are those of `StashCSV`'s import: all or nothing (`apply(_:to:)` refuses a plan
/// with problems, and writes the whole plan in one transaction); an item whose WEFT `id` is
/// an ID of the library updates that item, one with an ID that is not yarn's (`StashCSV`'s
/// ID rule) is matched by name, brand, colorway and dye lot (`StashMatchKey`) and other items
/// are added with their WEFT ID; an item equal to its library item changes nothing, so a
/// second import of the same files adds nothing. Every yarn, project and session goes
/// through the model's rules (`Rules`) before the store sees it.
public enum WEFTImport {
  /// A file to import: its name as the user gave it (for messages) and its bytes.
  public struct Source: Sendable {
    /// The name messages use, such as `stash.weft`.
    public var name: String
    /// The file's bytes.
    public var data: Data

    /// A file named `name` holding `data`.
    public init(name: String, data: Data) {
      self.name = name
      self.data = data
    }
  }

  /// A field that is wrong (it stops the import) or worth a word: the file, the JSON path
  /// of the field (`items[0].quantity.units_count`, empty for the whole document) and what
  /// is wrong.
  public struct Problem: Hashable, Sendable, CustomStringConvertible {
    /// The file's name.
    public let file: String
    /// The field's JSON path.
    public let path: String
    /// What is wrong, in lower case.
    public let reason: String
    /// For a file that is not JSON (its `reason` names the line and column when they are
    /// found: `not JSON at line 4, column 6: unexpected ','`), not a field that is wrong: what
    /// would fix it, the fault's own (`fix the JSON where it is named (a missing or extra
    /// comma, quote or bracket)`, `save the file as UTF-8, …`); `nil` otherwise.
    public var fix: String?

    /// Whether the file is not JSON (`fix`).
    public var isSyntaxError: Bool { fix != nil }

    /// `stash.weft: items[0].name: is missing`.
    public var description: String {
      path.isEmpty ? "\(LineText.visible(file)): \(reason)" : "\(LineText.visible(file)): \(path): \(reason)"
    }
  }

  /// A field of the files that the library does not keep, with why when it is not simply
  /// that yarn has no place for it.
  public struct Omission: Hashable, Sendable, CustomStringConvertible {
    /// The file's name.
    public let file: String
    /// The field's JSON path, such as `items[0].care`.
    public let path: String
    /// Why, or `nil` when yarn has no place for the field.
    public let reason: String?

    /// The field without the item's place: `care`, `yarn.ply`, `packs[].quantity`.
    public var field: String {
      var text = path
      if let dot = text.firstIndex(of: "."), text[..<dot].hasSuffix("]") {
        text = String(text[text.index(after: dot)...])
      } else if text.hasSuffix("]"), !text.contains(".") {
        return "(whole item)"
      }
      var out = ""
      var skipping = false
      for character in text {
        if character == "[" {
          skipping = true
          out.append("[]")
        } else if character == "]" {
          skipping = false
        } else if !skipping {
          out.append(character)
        }
      }
      return out
    }

    /// `stash.weft: items[0].care: not kept`, with the reason when there is one.
    public var description: String {
      "\(LineText.visible(file)): \(path): not kept" + (reason.map { " (\($0))" } ?? "")
    }
  }

  /// A library item an import changes, and what changes (`Colorway Ruby → Garnet`).
  public struct Change: Hashable, Sendable {
    /// The file's name.
    public let file: String
    /// The item's JSON path, such as `items[0]`.
    public let path: String
    /// `yarn`, `project` or `tool`.
    public let kind: String
    /// The item's ID.
    public let id: String
    /// The item's name after the import.
    public let name: String
    /// Each field that changes, as people read it.
    public let changes: [String]
  }

  /// What an import would do, and what stops it.
  public struct Plan: Sendable {
    /// New yarns, in the files' order.
    public var yarnCreates: [Yarn] = []
    /// Library yarns with the files' values.
    public var yarnUpdates: [Yarn] = []
    /// Materials equal to their library yarn.
    public var yarnsUnchanged = 0
    /// New projects, in the files' order.
    public var projectCreates: [Project] = []
    /// Library projects with the files' values.
    public var projectUpdates: [Project] = []
    /// Projects equal to their library project.
    public var projectsUnchanged = 0
    /// New tools (needles and hooks), in the files' order.
    public var toolCreates: [Tool] = []
    /// Library tools with the files' values (or a project of the files added).
    public var toolUpdates: [Tool] = []
    /// Tool items equal to their library tool (a library tool a project only names is not
    /// counted).
    public var toolsUnchanged = 0
    /// New time sessions (recorded, never running).
    public var sessionCreates: [TimeSession] = []
    /// Timer sessions the library already records (same project, start and end).
    public var sessionsUnchanged = 0
    /// The notes of new yarns and projects (`notes`, `private_notes`).
    public var notes: [Note] = []
    /// What changes in each updated yarn and project.
    public var changes: [Change] = []
    /// The fields not kept.
    public var omissions: [Omission] = []
    /// What stops the import; when not empty, nothing may be imported.
    public var problems: [Problem] = []
    /// Things worth saying that do not stop it (notes that differ from a library item's).
    public var warnings: [Problem] = []
    /// The remaining overrides set on new yarns, each at its material's `quantity`, in the
    /// words of `stash import` (`Remaining of “Wool” taken as 3 skeins (estimate 2 skeins)`):
    /// an update lists its override among `changes`.
    public var remainingOverrides: [Problem] = []
  }

  /// Thrown by `apply(_:to:)` for a plan with problems: nothing was imported.
  public struct ImportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Every problem, in the files' order.
    public let problems: [Problem]

    /// The error of `problems`.
    public init(problems: [Problem]) {
      self.problems = problems
    }

    /// `2 problems; nothing was imported:` then each problem on a line of its own.
    public var description: String {
      Plural.count(problems.count, "problem") + "; nothing was imported:\n"
        + problems.map { "  \($0)" }.joined(separator: "\n")
    }
  }

  /// Reads `sources` and plans the import against `store`, changing nothing. A source whose
  /// bytes are an earlier source's is a problem of its own (a file given twice), not read.
  ///
  /// Call it inside `store.write` and pass the plan to `apply(_:to:)` in the same
  /// transaction for an import no other process can interleave with.
  ///
  /// - Parameters:
  ///   - sources: the files, read in order (materials before the projects that use them
  ///     whatever the order).
  ///   - store: the library; only read.
  ///   - now: the instant of the notes the import adds, and the clock of the session rules.
  ///   - allowOverlap: take sessions that share time with the library's or each other's, as
  ///     `time add --allow-overlap` records them (a library with such sessions exports them);
  ///     false, the default, refuses each one as `time add` does.
  ///   - progress: called on the calling thread with the fraction of the sources' bytes
  ///     read, 0...1, after each source; the values never go down and the last is 1.
  /// - Returns: the plan; check `problems` before applying it.
  /// - Throws: `StoreError` when the store cannot be read; `CancellationError`.
  public static func plan(
    _ sources: [Source], store: LibraryStore, now: Date, allowOverlap: Bool = false,
    progress: ((Double) -> Void)? = nil
  ) throws -> Plan {
    try store.read {
      var planner = WEFTPlanner(store: store, now: now, allowOverlap: allowOverlap)
      var counter = ProgressCounter(
        total: Int64(sources.reduce(0) { $0 + $1.data.count }), report: progress)
      for (index, source) in sources.enumerated() {
        // The same document twice would say that each of its items clashes with itself.
        // (An empty file is said to be empty, however many there are.)
        if !source.data.isEmpty, let earlier = sources[..<index].first(where: { $0.data == source.data }) {
          planner.problem(
            source.name, "",
            "holds the same bytes as \(LineText.visible(earlier.name)), given before it; give each file once")
        } else {
          planner.read(source)
        }
        counter.add(Int64(source.data.count))
      }
      counter.finish()
      return try planner.finish()
    }
  }

  /// Carries out `plan` in one write transaction: new yarns, changed yarns, new and changed
  /// projects, new and changed tools, new sessions, new notes, in that order (one step of
  /// `yarn undo`).
  ///
  /// `progress` is called on the calling thread with the fraction of the items written,
  /// 0...1, after each; the values never go down and the last is 1.
  ///
  /// - Throws: `ImportError` when the plan has problems (nothing is written); `StoreError`
  ///   when the store refuses a change (the transaction is rolled back).
  public static func apply(
    _ plan: Plan, to store: LibraryStore, progress: ((Double) -> Void)? = nil
  ) throws {
    guard plan.problems.isEmpty else { throw ImportError(problems: plan.problems) }
    let total =
      plan.yarnCreates.count + plan.yarnUpdates.count + plan.projectCreates.count
      + plan.projectUpdates.count + plan.toolCreates.count + plan.toolUpdates.count
      + plan.sessionCreates.count + plan.notes.count
    var counter = ProgressCounter(total: Int64(total), report: progress)
    try store.write {
      // Each item written, in this order, counts one; a cancelled task stops between items
      // (the transaction is then rolled back).
      func each<Item>(_ items: [Item], _ write: (Item) throws -> Void) throws {
        for item in items {
          try Task.checkCancellation()
          try write(item)
          counter.add(1)
        }
      }
      try each(plan.yarnCreates) { try store.insert($0) }
      try each(plan.yarnUpdates) { try store.update($0) }
      try each(plan.projectCreates) { try store.insert($0) }
      try each(plan.projectUpdates) { try store.update($0) }
      try each(plan.toolCreates) { try store.insert($0) }
      try each(plan.toolUpdates) { try store.update($0) }
      try each(plan.sessionCreates) { try store.insert($0) }
      try each(plan.notes) { try store.insert($0) }
      counter.finish()
    }
  }

  /// The percentages a fiber of a material's content may have: WEFT
  /// 02-material/material.schema.json, `FiberContent.percentage` (`"minimum": 0,
  /// "maximum": 100`). The schema sets no sum of a material's percentages (its README leaves
  /// it an open question), and yarn checks none. Import refuses a percentage outside them;
  /// export writes a fiber text's percentages only when each is inside them.
  static let fiberPercentages: ClosedRange<Double> = 0...100

  /// The fiber content as yarn's fiber text: `80% merino, 20% nylon`; a fiber without a
  /// percentage is its name alone. `nil` when no entry names a fiber.
  static func fiberText(_ content: [WEFT.FiberContent]) -> String? {
    let parts = content.compactMap { entry -> String? in
      guard let fiber = entry.fiber?.trimmingSpaces(), !LineText.isBlankLine(fiber) else { return nil }
      return entry.percentage.map { "\(Amount.format($0))% \(fiber)" } ?? fiber
    }
    return parts.isEmpty ? nil : parts.joined(separator: ", ")
  }
}
