import YarnCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// The JSON shapes of the CLI's output (docs/CLI.md, "JSON contract"). Each view encodes the
// model value as it is in library.json and adds the computed fields; unknown computed values
// are written as `null`, never left out.

/// A stash yarn: every `Yarn` field, `"quantity"` (`null` when unknown) and `"remaining"`;
/// `stash show` adds `"notes"`, the notes about it (as `note show --json`), oldest first.
struct YarnJSON: Encodable {
  let yarn: Yarn
  let remaining: RemainingEstimate
  /// Project names by ID, for the unconverted usages.
  let projectNames: [String: String]
  var notes: [Note]? = nil
  /// For `stash show`: the projects that use it, as its text lists them (`"usedIn"`).
  var uses: [YarnUse]? = nil

  private enum Key: String, CodingKey { case quantity, remaining, notes, usedIn }
  private enum UseKey: String, CodingKey { case projectID, project, status, amount }

  func encode(to encoder: any Encoder) throws {
    try yarn.encode(to: encoder)
    var container = encoder.container(keyedBy: Key.self)
    if let notes { try container.encode(notes, forKey: .notes) }
    if let uses {
      var list = container.nestedUnkeyedContainer(forKey: .usedIn)
      for use in uses {
        var item = list.nestedContainer(keyedBy: UseKey.self)
        try item.encode(use.projectID, forKey: .projectID)
        try item.encode(use.projectName, forKey: .project)
        try item.encode(use.projectStatus.rawValue, forKey: .status)
        try item.encode(use.amount, forKey: .amount)
      }
    }
    if yarn.quantity == nil { try container.encodeNil(forKey: .quantity) }
    if remaining.remaining == nil {
      try container.encodeNil(forKey: .remaining)
    } else {
      try container.encode(RemainingJSON(remaining, projectNames: projectNames), forKey: .remaining)
    }
  }
}

extension YarnJSON {
  /// The yarn as `stash show --json` prints it, from its `uses` and `notes` as the command's
  /// transaction read them (for `stash rm`, before they went with it): what is left of it
  /// counts the usages of finished projects (and of those in progress, `includeActive`).
  init(showing yarn: Yarn, uses: [YarnUse], notes: [Note], includeActive: Bool = false) {
    self.init(
      yarn: yarn,
      remaining: RemainingEstimate(yarn: yarn, usages: uses.counted(includeActive: includeActive)),
      projectNames: Dictionary(
        uses.map { ($0.projectID, $0.projectName) }, uniquingKeysWith: { first, _ in first }),
      notes: notes, uses: uses)
  }
}

/// `{"value", "unit", "source"}`, plus `"deficit"` when overdrawn and `"unconverted"` when
/// some usage could not be converted.
struct RemainingJSON: Encodable {
  let estimate: RemainingEstimate
  let projectNames: [String: String]

  init(_ estimate: RemainingEstimate, projectNames: [String: String]) {
    self.estimate = estimate
    self.projectNames = projectNames
  }

  private enum Key: String, CodingKey { case value, unit, source, deficit, unconverted }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encodeIfPresent(estimate.remaining?.value, forKey: .value)
    try container.encodeIfPresent(estimate.remaining?.unit.rawValue, forKey: .unit)
    try container.encode(estimate.source.rawValue, forKey: .source)
    try container.encodeIfPresent(estimate.deficit, forKey: .deficit)
    if !estimate.unconverted.isEmpty {
      try container.encode(
        estimate.unconverted.map { UnconvertedJSON(usage: $0, projectName: projectNames[$0.projectID]) },
        forKey: .unconverted)
    }
  }
}

/// An unconverted usage: `{"projectID", "project" (name), "amount", "missing": [facts]}`.
struct UnconvertedJSON: Encodable {
  let usage: RemainingEstimate.UnconvertedUsage
  let projectName: String?

  private enum Key: String, CodingKey { case projectID, project, amount, missing }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(usage.projectID, forKey: .projectID)
    try container.encode(projectName, forKey: .project)
    try container.encode(usage.amount, forKey: .amount)
    try container.encode(usage.missing.map(\.rawValue), forKey: .missing)
  }
}

/// A project: every `Project` field plus `"seconds"`, the time logged on it; `project show`
/// adds `"notes"`, the notes about it (as `note show --json`), oldest first. Every command
/// that prints a project prints this shape: `project list` with the seconds of its one grouped
/// query, the others through `init(project:in:now:notes:)`.
struct ProjectJSON: Encodable {
  let project: Project
  let seconds: Int64
  var notes: [Note]? = nil
  /// For `project show`: what its text shows beside the model's fields (`"tools"`,
  /// `"sessions"`, `"runningSince"`).
  var details: Details? = nil

  /// The tools the project uses, its number of time sessions and its running session's start.
  struct Details {
    let tools: [Tool]
    let sessions: [TimeSession]
  }

  init(project: Project, seconds: Int64, notes: [Note]? = nil, details: Details? = nil) {
    self.project = project
    self.seconds = seconds
    self.notes = notes
    self.details = details
  }

  /// The project with the seconds logged on it as `store` holds them (a running session
  /// counted until `now`); read in the command's transaction, before a removal takes the
  /// project's sessions with it.
  init(project: Project, in store: LibraryStore, now: Date, notes: [Note]? = nil) throws {
    self.init(
      project: project, seconds: try store.loggedSeconds(projectID: project.id, now: now), notes: notes)
  }

  /// The project as `project show --json` prints it, with its notes and `details`; read in
  /// the command's transaction (for `project rm`, before they go with it).
  init(showing project: Project, in store: LibraryStore, now: Date) throws {
    try self.init(project: project, in: store, now: now, notes: try store.notes(about: .project(project.id)))
    details = Details(
      tools: try store.tools(ofProject: project.id), sessions: try store.sessions(projectID: project.id))
  }

  private enum Key: String, CodingKey { case seconds, notes, tools, sessions, runningSince }
  private enum ToolKey: String, CodingKey { case id, name }

  func encode(to encoder: any Encoder) throws {
    try project.encode(to: encoder)
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(seconds, forKey: .seconds)
    if let notes { try container.encode(notes, forKey: .notes) }
    if let details {
      var list = container.nestedUnkeyedContainer(forKey: .tools)
      for tool in details.tools {
        var item = list.nestedContainer(keyedBy: ToolKey.self)
        try item.encode(tool.id, forKey: .id)
        try item.encode(tool.name, forKey: .name)
      }
      try container.encode(details.sessions.count, forKey: .sessions)
      try container.encode(details.sessions.first(where: \.isRunning)?.start, forKey: .runningSince)
    }
  }
}

/// A time session: `{"id", "project" (its name), "projectID", "start", "end" (null while
/// running), "seconds", "note" (null when none)}`, instants in ISO 8601 UTC.
struct SessionJSON: Encodable {
  let session: TimeSession
  let projectName: String
  let now: Date

  private enum Key: String, CodingKey { case id, project, projectID, start, end, seconds, note }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(session.id, forKey: .id)
    try container.encode(projectName, forKey: .project)
    try container.encode(session.projectID, forKey: .projectID)
    try container.encode(session.start, forKey: .start)
    try container.encode(session.end, forKey: .end)
    try container.encode(session.seconds(now: now), forKey: .seconds)
    try container.encode(session.note, forKey: .note)
  }
}

/// An answer of `stash match`: `{"enough": true|false|null, "remaining": amount|null (the
/// figure in the unit asked for, an upper bound when the answer is unknown), "certain":
/// amount (the part of it that is sure), "missing": [reasons], "yarns": [{"id", "name",
/// "colorway", "dyeLot", "remaining", "missing"}]}`;
/// `yarns` has several elements when yarns of one name, colorway and dye lot count together.
struct MatchJSON: Encodable {
  let entry: StashMatch.Entry

  init(_ entry: StashMatch.Entry) { self.entry = entry }

  private enum Key: String, CodingKey { case enough, remaining, certain, missing, yarns }
  private enum MemberKey: String, CodingKey { case id, name, colorway, dyeLot, remaining, missing }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(entry.enough, forKey: .enough)
    try container.encode(entry.remaining, forKey: .remaining)
    try container.encode(entry.certain, forKey: .certain)
    try container.encode(entry.missing.map(\.rawValue), forKey: .missing)
    var yarns = container.nestedUnkeyedContainer(forKey: .yarns)
    for member in entry.members {
      var object = yarns.nestedContainer(keyedBy: MemberKey.self)
      try object.encode(member.yarn.id, forKey: .id)
      try object.encode(member.yarn.name, forKey: .name)
      try object.encode(member.yarn.colorway, forKey: .colorway)
      try object.encode(member.yarn.dyeLot, forKey: .dyeLot)
      try object.encode(member.remaining, forKey: .remaining)
      try object.encode(member.missing.map(\.rawValue), forKey: .missing)
    }
  }
}
