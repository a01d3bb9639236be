import YarnCore

/// Finding yarns, projects and sessions by what the user typed (YarnCore's `Lookup.find`), with
/// failures turned into `CLIError.notFound` / `.ambiguous`.
enum References {
  /// The ID of the yarn `reference` names in `store`, by the same rules as
  /// `yarn(_:in:)` over every yarn, without reading every yarn: an exact ID is found by its
  /// index; anything else is matched among the yarns the store finds by the index of name
  /// keys and IDs (`LibraryStore.yarnNames(mayMatch:)`: every yarn the rules can pick, in
  /// the same order, so the one found and the candidates of an ambiguity are those of the
  /// whole list). Only a miss reads every name, for the nearest one to suggest.
  ///
  /// - Throws: `CLIError.notFound` (with the nearest names) or `.ambiguous`; `StoreError`.
  static func yarnID(_ reference: String, in store: LibraryStore) throws -> String {
    try itemID(
      reference, kind: "yarn", exact: store.yarnName(id:), mayMatch: store.yarnNames(mayMatch:),
      all: store.yarnNames)
  }

  /// The ID of the tool `reference` names in `store`: as `yarnID(_:in:)`, for tools.
  ///
  /// - Throws: `CLIError.notFound` (with the nearest names) or `.ambiguous`; `StoreError`.
  static func toolID(_ reference: String, in store: LibraryStore) throws -> String {
    try itemID(
      reference, kind: "tool", exact: store.toolName(id:), mayMatch: store.toolNames(mayMatch:),
      all: store.toolNames)
  }

  /// Finds an item by `Lookup.find`'s rules from the store's queries (see `yarnID(_:in:)`).
  private static func itemID(
    _ reference: String, kind: String, exact: (String) throws -> String?,
    mayMatch: (String) throws -> [ItemName], all: () throws -> [ItemName]
  ) throws -> String {
    let wanted = reference.trimmingSpaces()
    if try exact(wanted) != nil { return wanted }
    do {
      return try find(
        reference, kind: kind, in: try mayMatch(wanted), id: \.id, name: \.name
      ).id
    } catch CLIError.notFound {
      // Not among them, so not among all: the same error, with the nearest of all names.
      return try find(reference, kind: kind, in: try all(), id: \.id, name: \.name).id
    }
  }

  /// The yarn `reference` names in `store` (`yarnID(_:in:)`), read with its photos.
  ///
  /// - Throws: the errors of `yarnID(_:in:)`.
  static func yarn(_ reference: String, in store: LibraryStore) throws -> Yarn {
    let id = try yarnID(reference, in: store)
    guard let yarn = try store.yarn(id: id) else { throw StoreError.notFound(kind: .yarn, id: id) }
    return yarn
  }

  /// The project `reference` names in `store` (`projectID(_:in:)`), read with its usages,
  /// photos and pattern.
  ///
  /// - Throws: the errors of `projectID(_:in:)`.
  static func project(_ reference: String, in store: LibraryStore) throws -> Project {
    let id = try projectID(reference, in: store)
    guard let project = try store.project(id: id) else {
      throw StoreError.notFound(kind: .project, id: id)
    }
    return project
  }

  /// The ID of the project `reference` names in `store`: as `yarnID(_:in:)`, for projects.
  ///
  /// - Throws: `CLIError.notFound` (with the nearest names) or `.ambiguous`; `StoreError`.
  static func projectID(_ reference: String, in store: LibraryStore) throws -> String {
    try itemID(
      reference, kind: "project", exact: store.projectName(id:),
      mayMatch: store.projectNames(mayMatch:), all: store.projectNames)
  }

  /// The photo `reference` names among `attachments` (`Lookup.attachment`: its whole file
  /// name or a SHA-256 prefix of at least 4 characters).
  static func attachment(_ reference: String, in attachments: [Attachment]) throws(CLIError)
    -> Attachment
  {
    do {
      return try Lookup.attachment(reference, in: attachments)
    } catch {
      throw failure(error, kind: "photo", names: attachments.map(\.fileName))
    }
  }

  static func find<Item>(
    _ reference: String, kind: String, in items: [Item], id: (Item) -> String,
    name: (Item) -> String
  ) throws(CLIError) -> Item {
    do {
      return try Lookup.find(reference, in: items, id: id, name: name)
    } catch {
      throw failure(error, kind: kind, names: items.map(name))
    }
  }

  /// `error` as the CLI says it: a miss with the nearest of `names` (`Lookup.suggestions`),
  /// an ambiguity with its candidates.
  private static func failure(_ error: ReferenceError, kind: String, names: [String]) -> CLIError {
    switch error {
    case .notFound(let reference):
      return .notFound(
        kind: kind, reference: reference, suggestions: Lookup.suggestions(for: reference, among: names))
    case .ambiguous(let reference, let candidates):
      return .ambiguous(
        kind: kind, reference: reference,
        candidates: candidates.map { CLIError.Candidate(id: $0.id, name: $0.name) })
    }
  }
}

/// Reading what names an item: every yarn, project, tool, note, session or photo reference
/// a command takes is read here, so that one that is empty or only spaces and line breaks, which names
/// nothing, is a usage error (64) found before the library is opened, in the same words for
/// every command.
extension ParsedValues {
  /// The reference in the required argument `name` (`project` for `<project>`).
  ///
  /// - Throws: `CLIError.missingArgument` when it is missing; `CLIError.badValue` naming
  ///   `<name>` when it is blank.
  func reference(_ name: String) throws(CLIError) -> String {
    try notBlank(try requiredArgument(name), label: "<\(name)>")
  }

  /// The reference in the optional argument `name`, or `nil` when it was not given.
  ///
  /// - Throws: `CLIError.badValue` naming `<name>` when it is blank.
  func optionalReference(argument name: String) throws(CLIError) -> String? {
    guard let value = argument(name) else { return nil }
    return try notBlank(value, label: "<\(name)>")
  }

  /// The reference in option `--name` (the last one given), or `nil` when it was not given.
  ///
  /// - Throws: `CLIError.badValue` naming `--name` when it is blank.
  func optionalReference(option name: String) throws(CLIError) -> String? {
    guard let value = value(name) else { return nil }
    return try notBlank(value, label: "--\(name)")
  }

  /// Every reference given to the repeatable option `--name`, in order.
  ///
  /// - Throws: `CLIError.badValue` naming `--name` for the first one that is blank.
  func references(option name: String) throws(CLIError) -> [String] {
    var references: [String] = []
    for value in options[name] ?? [] { references.append(try notBlank(value, label: "--\(name)")) }
    return references
  }

  /// Blank: nothing but spaces, line breaks and invisible format characters
  /// (`LineText.isBlank`), shown with its line breaks escaped (`LineText.visible`) so the
  /// message stays on one line.
  private func notBlank(_ value: String, label: String) throws(CLIError) -> String {
    guard LineText.isBlank(value) else { return value }
    throw .badValue(
      command: command, name: label, value: value,
      reason: "a reference cannot be blank: it names nothing")
  }
}
