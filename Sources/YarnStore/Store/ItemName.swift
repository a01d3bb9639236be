/// A yarn's or project's ID and name: what a reference typed by a person is matched against,
/// without reading the whole item.
public struct ItemName: Hashable, Sendable {
  /// The item's ID.
  public let id: String
  /// The item's name.
  public let name: String

  /// The item `id` named `name`.
  public init(id: String, name: String) {
    self.id = id
    self.name = name
  }
}
