#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Finds a yarn or a project by what a person types: its ID, a unique prefix of its ID, or its
/// name (case-insensitive). The rule is the CLI's, kept here so an app can share it.
package enum Lookup {
  /// Thrown when a reference matches nothing or more than one item.
  package enum Failure: Error, Equatable, Sendable {
    /// Thrown when nothing has that ID, ID prefix or name.
    case notFound(reference: String)
    /// Thrown when the reference fits several items: `(id, name)` of each.
    case ambiguous(reference: String, candidates: [Candidate])
  }

  /// An item a reference could mean.
  package struct Candidate: Equatable, Sendable {
    package let id: String
    package let name: String
  }

  /// The one item of `items` that `reference` names.
  ///
  /// Names are compared by their `key` (the one statement of how). Order of precedence: an
  /// exact ID; else the items whose name equals the reference (case-insensitive, spaces
  /// around either ignored, NFC and NFD alike) together with those whose ID begins with
  /// it (at least 4 characters, case-insensitive) — exactly one of them is the item, several
  /// are ambiguous (a name that is another item's ID prefix, as tables show it, is not taken
  /// silently); else the items whose name begins with it (case-insensitive): exactly one is
  /// the item, several are ambiguous.
  ///
  /// - Parameter byNamePrefix: whether the start of a name names its item (the last step);
  ///   not for photos (`attachment(_:in:)`).
  /// - Throws: `Failure.notFound` or `Failure.ambiguous` listing the candidates, those found
  ///   by name first.
  package static func find<Item>(
    _ reference: String, in items: [Item], id: (Item) -> String, name: (Item) -> String,
    byNamePrefix: Bool = true
  ) throws(Failure) -> Item {
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
        reference: reference, candidates: matches.map { Candidate(id: id($0), name: name($0)) })
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
  /// - Throws: `Failure.notFound`, or `.ambiguous` listing the candidates (SHA-256 and file
  ///   name of each): two photos of the name given byte for byte (only they), two names alike,
  ///   or a SHA-256 prefix of photos of the same bytes.
  package static func attachment(
    _ reference: String, in attachments: [Attachment]
  ) throws(Failure) -> Attachment {
    var seen = Set<String>()
    let distinct = attachments.filter { seen.insert($0.sha256 + "/" + $0.fileName).inserted }
    let exact = distinct.filter { $0.fileName.utf8.elementsEqual(reference.utf8) }
    if exact.count == 1 { return exact[0] }
    // Photos of that very name hide those that differ from it by case or Unicode form.
    if exact.count > 1 {
      throw .ambiguous(
        reference: reference, candidates: exact.map { Candidate(id: $0.sha256, name: $0.fileName) })
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
