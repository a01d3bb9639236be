/// An item's ID and name: what a reference typed by a person is matched against
/// (``Lookup/find(_:in:id:name:)``), without reading the whole item. A yarn's, project's or
/// tool's (`LibraryStore.yarnNames()`), or one of the items a reference fits
/// (``ReferenceError/ambiguous(reference:candidates:)``): for a photo, its SHA-256 and its
/// file name.
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
