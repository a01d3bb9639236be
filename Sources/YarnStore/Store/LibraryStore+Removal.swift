import YarnModel

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What removing a yarn or a project takes with it, or changes elsewhere: the rule of safe
/// removal is that an item goes alone, or only when the caller says so (`force`).
public struct RemovalEffects: Hashable, Sendable {
  /// The notes about it.
  public var notes = 0
  /// Its photos (records; a file goes only when no other item uses it).
  public var photos = 0
  /// Whether a project has a pattern PDF.
  public var hasPatternPDF = false
  /// A project's time sessions.
  public var sessions = 0
  /// A yarn: the names of the projects that record usages of it (those usages go too), in
  /// creation order.
  public var projectsUsingIt: [String] = []
  /// A project: the names of the yarns it records usages of (those usages go too), in the
  /// usages' order, each once.
  public var yarnsUsed: [String] = []
  /// A project: the names of the tools it is made with (each stays in the inventory, without
  /// it), in the tools' creation order.
  public var tools: [String] = []
  /// A project: the needle or hook sizes it calls for.
  public var needleSizes = 0
  /// A finished project: the names of the yarns its usages count against, which go back to
  /// the stash (their remaining estimate grows), in the usages' order, each once.
  public var yarnsGivenBack: [String] = []
  /// A tool: the names of the projects it is in (it leaves them), in creation order.
  public var projectsWithTool: [String] = []

  /// No effects: every count 0, no pattern PDF, no names (what `isEmpty` compares with).
  public init() {}

  /// Whether nothing goes with the item and nothing else changes.
  public var isEmpty: Bool { self == RemovalEffects() }

  /// What would go, in words: `2 notes`, `1 photo`, `the pattern PDF`, `3 time sessions`,
  /// `its usages of yarn "Rios"`, `its links to 2 tools ("Red Lace", "Bamboo")`,
  /// `2 needle sizes`, `its usages in project "Flax"`, `its place in 2 projects ("Flax",
  /// "Hat")` (not `yarnsGivenBack`). Several names are counted and put in brackets, so that
  /// the parts can be listed one after another without their names running together.
  public var removals: [String] {
    // `yarn "Rios"`; `2 yarns ("Rios", "Catona")`.
    func names(_ list: [String], _ noun: String) -> String {
      let quoted = list.map(LineText.quoted)
      return list.count == 1
        ? "\(noun) \(quoted[0])" : "\(list.count) \(noun)s (\(quoted.joined(separator: ", ")))"
    }
    var out: [String] = []
    if notes > 0 { out.append(Plural.count(notes, "note")) }
    if photos > 0 { out.append(Plural.count(photos, "photo")) }
    if hasPatternPDF { out.append("the pattern PDF") }
    if sessions > 0 { out.append(Plural.count(sessions, "time session")) }
    if !yarnsUsed.isEmpty {
      out.append("its usages of " + names(yarnsUsed, "yarn"))
    }
    if !tools.isEmpty {
      out.append("its \(Plural.word("link", count: tools.count)) to " + names(tools, "tool"))
    }
    if needleSizes > 0 { out.append(Plural.count(needleSizes, "needle size")) }
    if !projectsUsingIt.isEmpty {
      out.append("its usages in " + names(projectsUsingIt, "project"))
    }
    if !projectsWithTool.isEmpty {
      out.append("its place in " + names(projectsWithTool, "project"))
    }
    return out
  }

  /// `removals` as one list: `2 notes, 1 photo and the pattern PDF`; empty for none.
  package var removalList: String {
    var parts = removals
    guard let last = parts.popLast() else { return "" }
    return parts.isEmpty ? last : parts.joined(separator: ", ") + " and " + last
  }

  /// The effects in one phrase: `remove 2 notes and 1 photo, and give back to the stash what
  /// it used of "Rios"`.
  public var summary: String {
    var text = removals.isEmpty ? "" : "remove " + removalList
    if !yarnsGivenBack.isEmpty {
      let names = yarnsGivenBack.map(LineText.quoted).joined(separator: ", ")
      text += (text.isEmpty ? "" : ", and ") + "give back to the stash what it used of \(names)"
    }
    return text
  }
}

extension LibraryStore {
  /// What removing the yarn with `id` would take with it: its notes, its photos, and the
  /// usages that projects record of it.
  ///
  /// - Throws: `StoreError.notFound` when no yarn has that ID; `.busy`, `.closed`, `.database`.
  public func effectsOfRemoving(yarnID id: String) throws -> RemovalEffects {
    try read {
      guard let yarn = try yarn(id: id) else { throw StoreError.notFound(kind: .yarn, id: id) }
      var effects = RemovalEffects()
      effects.notes = try notes(about: .yarn(id)).count
      effects.photos = yarn.photos.count
      effects.projectsUsingIt = try connection.query(
        """
        SELECT name FROM project
        WHERE id IN (SELECT project_id FROM yarn_usage WHERE yarn_id = ?) ORDER BY seq
        """, [.text(id)]
      ) { $0.text(0) ?? "" }
      return effects
    }
  }

  /// What removing the project with `id` would take with it: its notes, photos, pattern PDF,
  /// time sessions, the usages it records of yarns, its links to tools and its needle sizes,
  /// and, when it is finished, the stash yarns its usages count against.
  ///
  /// - Throws: `StoreError.notFound` when no project has that ID; `.busy`, `.closed`,
  ///   `.database`.
  public func effectsOfRemoving(projectID id: String) throws -> RemovalEffects {
    try read {
      guard let project = try project(id: id) else {
        throw StoreError.notFound(kind: .project, id: id)
      }
      var effects = RemovalEffects()
      effects.notes = try notes(about: .project(id)).count
      effects.photos = project.photos.count
      effects.hasPatternPDF = project.pattern?.pdf != nil
      effects.sessions = Int(
        try connection.integer("SELECT count(*) FROM time_session WHERE project_id = ?", [.text(id)])
          ?? 0)
      var seen = Set<String>()
      for usage in project.usages where seen.insert(usage.yarnID).inserted {
        effects.yarnsUsed.append(try yarn(id: usage.yarnID)?.name ?? usage.yarnID)
      }
      if project.status == .finished { effects.yarnsGivenBack = effects.yarnsUsed }
      effects.tools = try tools(ofProject: id).map(\.name)
      effects.needleSizes = project.needleSizes?.count ?? 0
      return effects
    }
  }
}
