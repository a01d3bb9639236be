import Foundation

/// Finds a yarn or a project by what a person types: its ID, a unique prefix of its ID, or its
/// name (case-insensitive). The rule is the CLI's, kept here so an app can share it.
public enum Lookup {
  /// Thrown when a reference matches nothing or more than one item.
  public enum Failure: Error, Equatable, Sendable {
    /// Thrown when nothing has that ID, ID prefix or name.
    case notFound(reference: String)
    /// Thrown when the reference fits several items: `(id, name)` of each.
    case ambiguous(reference: String, candidates: [Candidate])
  }

  /// An item a reference could mean.
  public struct Candidate: Equatable, Sendable {
    public let id: String
    public let name: String
  }

  /// The one item of `items` that `reference` names.
  ///
  /// Order of precedence: an exact ID; an exact name (case-insensitive); a unique ID prefix
  /// (at least 4 characters, case-insensitive); a unique name prefix is not accepted.
  ///
  /// - Throws: `Failure.notFound` or `Failure.ambiguous` listing the candidates.
  public static func find<Item>(
    _ reference: String, in items: [Item], id: (Item) -> String, name: (Item) -> String
  ) throws(Failure) -> Item {
    let wanted = reference.trimmingCharacters(in: .whitespaces)
    if let exact = items.first(where: { id($0) == wanted }) { return exact }
    let lowered = wanted.lowercased()
    let byName = items.filter { name($0).lowercased() == lowered }
    if byName.count == 1 { return byName[0] }
    if byName.count > 1 {
      throw .ambiguous(
        reference: reference, candidates: byName.map { Candidate(id: id($0), name: name($0)) })
    }
    if lowered.count >= 4 {
      let byPrefix = items.filter { id($0).lowercased().hasPrefix(lowered) }
      if byPrefix.count == 1 { return byPrefix[0] }
      if byPrefix.count > 1 {
        throw .ambiguous(
          reference: reference, candidates: byPrefix.map { Candidate(id: id($0), name: name($0)) })
      }
    }
    throw .notFound(reference: reference)
  }
}
