import YarnModel

/// An item that holds an attachment, and the words that name both to `stash detach` or
/// `project detach` (`Lookup`'s rules): what lets the removal of an item whose file of it is
/// lost (`StoreError.lostAttachment`), or a backup or export of such a library
/// (`BackupError.attachmentsUnavailable`), go on.
public struct AttachmentUse: Hashable, Sendable {
  /// `yarn` or `project`.
  public var kind: StoreError.Kind
  /// The item's name when that names it alone (`Lookup.find`) and shows as itself (no
  /// character that `LineText.hidesCharacters` finds, which a command copied from a message
  /// would not hold), else its ID.
  public var item: String
  /// What names the photo among the item's photos in a command to copy
  /// (`Lookup.reference(to:in:)`: its file name, or the start of its SHA-256 when the name
  /// holds a control or invisible character, when `Lookup.attachment` takes it for that photo
  /// alone), else its SHA-256; `nil` for a project's pattern PDF.
  public var photo: String?

  /// The use of an attachment by the `kind` item named `item`, as `photo` (`nil`: the pattern PDF).
  public init(kind: StoreError.Kind, item: String, photo: String?) {
    self.kind = kind
    self.item = item
    self.photo = photo
  }

  /// The use of `photo` (`nil`: the pattern PDF) by the `kind` item `id` named `name`, whose
  /// photos are `photos`, each named as `item` and `photo` say, the names of `store` the item's
  /// name is looked up among (a name that another item's has, or that begins another item's
  /// ID, is ambiguous). The one rule by which a hint names a photo and its item to detach.
  package init(
    kind: StoreError.Kind, id: String, name: String, photo: Attachment?, of photos: [Attachment],
    in store: LibraryStore
  ) {
    let found = try? Lookup.find(
      name, in: kind == .yarn ? store.yarnNames(mayMatch: name) : store.projectNames(mayMatch: name),
      id: \.id, name: \.name)
    let byName = found?.id == id && !LineText.hidesCharacters(name)
    self.init(
      kind: kind, item: byName ? name : id,
      photo: photo.map { Lookup.reference(to: $0, in: photos) ?? $0.sha256 })
  }

  /// The uses of the attachment `sha256` in `store`: each photo of it of each yarn and
  /// project (a file name once), and each pattern PDF; empty when the store cannot be read.
  package static func of(_ sha256: String, in store: LibraryStore) -> [AttachmentUse] {
    func uses(
      _ kind: StoreError.Kind, _ id: String, _ name: String, photos: [Attachment], pattern: Attachment?
    ) -> [AttachmentUse] {
      var seen = Set<[UInt8]>()
      let held: [Attachment?] =
        (pattern?.sha256 == sha256 ? [nil] : [])
        + photos.filter { $0.sha256 == sha256 && seen.insert(Array($0.fileName.utf8)).inserted }
      return held.map { AttachmentUse(kind: kind, id: id, name: name, photo: $0, of: photos, in: store) }
    }
    var found: [AttachmentUse] = []
    for owner in (try? store.owners(ofAttachment: sha256)) ?? [] {
      switch owner {
      case .yarn(let id):
        guard let yarn = try? store.yarn(id: id) else { continue }
        found += uses(.yarn, id, yarn.name, photos: yarn.photos, pattern: nil)
      case .project(let id):
        guard let project = try? store.project(id: id) else { continue }
        found += uses(.project, id, project.name, photos: project.photos, pattern: project.pattern?.pdf)
      }
    }
    return found
  }
}
