#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Finds a yarn, a project or a tool by what a person types: its ID, a unique prefix of its
/// ID, its name, or a unique start of its name (case-insensitive), and offers the nearest
/// names when nothing fits ("did you mean"). The rule is the command line tool's (docs/CLI.md,
/// "Naming a yarn or a project"), kept here so that an app resolves what a person types as
/// the tool does:
///
/// ```swift
/// let names = try store.yarnNames()
/// do {
///   let yarn = try Lookup.find(typed, in: names, id: \.id, name: \.name)
///   print(yarn.id)
/// } catch {
///   switch error {  // a ReferenceError
///   case .notFound:
///     print("did you mean:", Lookup.suggestions(for: typed, among: names.map(\.name)))
///   case .ambiguous(_, let candidates):
///     print("which one:", candidates.map(\.name))
///   }
/// }
/// ```
///
/// In a large library the tool reads fewer names, with the same outcome: an exact ID by
/// `LibraryStore.yarnName(id:)`, else `find` over `LibraryStore.yarnNames(mayMatch:)` (the
/// items `find` can choose among, found by index), and only on a miss every name
/// (`yarnNames()`) for the suggestions; the same for projects and tools.
public enum Lookup {
  /// The one item of `items` that `reference`, what a person typed, names.
  ///
  /// The rule, in order of precedence:
  /// 1. an exact ID (the ID of exactly one item);
  /// 2. else the items whose name equals the reference (case-insensitive, spaces around
  ///    either ignored, NFC and NFD alike), together with those whose ID begins with it (at
  ///    least 4 characters, case-insensitive): exactly one of them is the item, several are
  ///    ambiguous (a name that is another item's ID prefix, as tables show it, is not taken
  ///    silently);
  /// 3. else the items whose name begins with it (case-insensitive): exactly one is the item,
  ///    several are ambiguous.
  ///
  /// - Parameters:
  ///   - reference: what was typed.
  ///   - items: the items to choose among, in the order they were added (candidates of an
  ///     ambiguity are listed in it).
  ///   - id: an item's ID.
  ///   - name: an item's name.
  /// - Returns: the item.
  /// - Throws: ``ReferenceError/notFound(reference:)`` when nothing fits (then
  ///   ``suggestions(for:among:)`` gives what "did you mean" offers);
  ///   ``ReferenceError/ambiguous(reference:candidates:)`` listing the items that fit, those
  ///   found by name first.
  /// - Complexity: O(n) in the number of items.
  public static func find<Item>(
    _ reference: String, in items: [Item], id: (Item) -> String, name: (Item) -> String
  ) throws(ReferenceError) -> Item {
    try find(reference, in: items, id: id, name: name, byNamePrefix: true)
  }

  /// `find(_:in:id:name:)`, with the last step (a name's start) only when `byNamePrefix`:
  /// not for photos (`attachment(_:in:)`).
  package static func find<Item>(
    _ reference: String, in items: [Item], id: (Item) -> String, name: (Item) -> String,
    byNamePrefix: Bool
  ) throws(ReferenceError) -> Item {
    let wanted = reference.trimmingSpaces()
    // An ID is one item's (two photos may hold the same bytes: then the ID is ambiguous).
    let exact = items.filter { id($0) == wanted }
    if exact.count == 1 { return exact[0] }
    let wantedKey = key(reference)
    var matches = items.filter { key(name($0)) == wantedKey }
    if wantedKey.count >= 4 {
      let named = Set(matches.map(id))
      matches += items.filter { !named.contains(id($0)) && idBegins(id($0), with: wantedKey) }
    }
    if byNamePrefix, matches.isEmpty, !wantedKey.isEmpty {
      matches = items.filter { key(name($0)).hasPrefix(wantedKey) }
    }
    if matches.count == 1 { return matches[0] }
    if matches.count > 1 {
      throw .ambiguous(
        reference: reference, candidates: matches.map { ItemName(id: id($0), name: name($0)) })
    }
    throw .notFound(reference: reference)
  }

  /// The photo `reference` names among `attachments` (a yarn's or a project's photos): its
  /// file name byte for byte, else its whole file name by `find`'s rule of names (case
  /// aside, spaces around ignored, NFC and NFD alike) or a prefix of at least 4 characters of
  /// its SHA-256 — never the start of a file name, so that `g` removes no `granny.jpg`. The
  /// same bytes attached twice under one name are one photo; a name given byte for byte wins
  /// over one that differs only by case or Unicode form (`café` in NFC and NFD), which a name
  /// alone could not tell apart.
  ///
  /// - Throws: `ReferenceError.notFound`, or `.ambiguous` listing the candidates (SHA-256 and file
  ///   name of each): two photos of the name given byte for byte (only they), two names alike,
  ///   or a SHA-256 prefix of photos of the same bytes.
  package static func attachment(
    _ reference: String, in attachments: [Attachment]
  ) throws(ReferenceError) -> Attachment {
    var seen = Set<String>()
    let distinct = attachments.filter { seen.insert($0.sha256 + "/" + $0.fileName).inserted }
    let exact = distinct.filter { $0.fileName.utf8.elementsEqual(reference.utf8) }
    if exact.count == 1 { return exact[0] }
    // Photos of that very name hide those that differ from it by case or Unicode form.
    if exact.count > 1 {
      throw .ambiguous(
        reference: reference, candidates: exact.map { ItemName(id: $0.sha256, name: $0.fileName) })
    }
    return try find(reference, in: distinct, id: \.sha256, name: \.fileName, byNamePrefix: false)
  }

  /// What names `attachment` among `attachments` by `attachment(_:in:)` in a command printed
  /// for people to copy (a hint's `stash detach Rios red.png`): `commandWord(fileName:sha256:)`,
  /// else its SHA-256; `nil` when neither names it alone.
  package static func reference(to attachment: Attachment, in attachments: [Attachment]) -> String? {
    [commandWord(fileName: attachment.fileName, sha256: attachment.sha256), attachment.sha256].first {
      reference in
      guard let found = try? Self.attachment(reference, in: attachments) else { return false }
      return found.sha256 == attachment.sha256
        && found.fileName.utf8.elementsEqual(attachment.fileName.utf8)
    }
  }

  /// The word by which a command printed for people to copy names a photo, `fileName` with
  /// the SHA-256 `sha256`: its file name, else — when the name does not show as itself
  /// (`LineText.hidesCharacters`: a control character such as ESC, which no terminal is
  /// sent, or an invisible one such as U+200B), so that a command copied from the message
  /// would not hold it — the first 12 characters of its SHA-256, a prefix that
  /// `attachment(_:in:)` takes (it takes 4 or more).
  package static func commandWord(fileName: String, sha256: String) -> String {
    LineText.hidesCharacters(fileName) ? String(sha256.prefix(12)) : fileName
  }

  /// What "did you mean" offers for `reference`, which names none of `names` (``find(_:in:id:name:)``
  /// threw ``ReferenceError/notFound(reference:)``): the nearest of them, compared as a search
  /// compares text (case, `ß`/`ss` and accents aside, so `Strasse` is near `Straße Wolle`),
  /// without the spaces around.
  ///
  /// A name is near by the fewer edits (a character added, dropped or changed, or two
  /// adjacent ones swapped) of the whole name and of its start of as many characters as
  /// typed or more (that start when typed exactly, or for 3 characters or more typed); at
  /// equal edits a whole name is nearer than a start; near enough is at most one edit per
  /// three characters typed, and at least one (docs/CLI.md). Apart from `find`, so that a
  /// miss nobody shows costs no comparison of every name.
  ///
  /// - Parameters:
  ///   - reference: what was typed.
  ///   - names: the names of the items it was looked for among, in the order added.
  /// - Returns: the names equally nearest, in their order in `names`, each once; empty when
  ///   none is near enough.
  public static func suggestions(for reference: String, among names: [String]) -> [String] {
    EditDistance.nearest(to: reference, in: names) { folded($0.trimmingSpaces()) }
  }

  /// A name (or what was typed) as `find` compares it: without the spaces around it
  /// (`trimmingSpaces()`), lower-cased by Unicode's rules (`lowercased()`: a Kelvin sign is a
  /// k), in Unicode's composed form NFC (the standard library's normalization, the one `==`
  /// on `String` compares by, so a name typed in NFD equals one stored in NFC). Two names are
  /// the same to `find` exactly when their keys are equal, byte for byte: the store keeps
  /// this key of every yarn's and project's name in an indexed column (`name_key`), so that a
  /// name is found without reading every name. A name that begins with a reference (by
  /// characters) has a key that begins with the reference's key (by bytes: NFC composes
  /// within a character, never across two), so a range of keys holds every name prefix.
  package static func key(_ text: String) -> String {
    let lowered = text.trimmingSpaces().lowercased()
    // ASCII text is in NFC already (the common case, and a miss keys every name).
    if lowered.utf8.allSatisfy({ $0 < 0x80 }) { return lowered }
    return String(decoding: lowered._nfcCodeUnits, as: UTF8.self)
  }

  /// Whether `find` takes the item (`id`, `name`) for `reference` before it looks at name
  /// prefixes: its ID is the reference, its name's key is the reference's, or its ID begins
  /// with the reference (`idBegins`). A store that finds the candidates by index asks for the
  /// names a reference begins only when none of them is so taken.
  package static func takesBeforePrefixes(id: String, name: String, reference: String) -> Bool {
    let wantedKey = key(reference)
    return id == reference.trimmingSpaces() || key(name) == wantedKey
      || idBegins(id, with: wantedKey)
  }

  /// The words for a reference to an item by ID (a session, a note) shorter than an ID
  /// prefix may be, 4 characters, that matched no whole ID: `"097" is too short to name a
  /// note: give its ID or 4 or more of its first characters`; `nil` for a longer one. The
  /// one place these words are made.
  package static func tooShortIDPrefix(_ reference: String, kind: String) -> String? {
    guard reference.trimmingSpaces().count < 4 else { return nil }
    return
      "\(LineText.quoted(reference)) is too short to name a \(kind): give its ID or 4 or more of its first characters"
  }

  /// Whether `find` takes the item `id` for a reference whose key is `wantedKey`, by the rule
  /// of ID prefixes: the key has at least 4 characters and the lower-cased ID begins with it.
  package static func idBegins(_ id: String, with wantedKey: String) -> Bool {
    wantedKey.count >= 4 && id.lowercased().hasPrefix(wantedKey)
  }
}

/// Why a reference, what a person typed to name an item, names none
/// (``Lookup/find(_:in:id:name:)``): it fits nothing, or it fits several items.
public enum ReferenceError: Error, Equatable, Sendable {
  /// Nothing has that ID, ID prefix or name: `reference` as typed.
  /// ``Lookup/suggestions(for:among:)`` gives the nearest names.
  case notFound(reference: String)
  /// The reference fits several items: `candidates`, the ID and name of each, those found by
  /// name first, then in the order the items were given.
  case ambiguous(reference: String, candidates: [ItemName])
}
