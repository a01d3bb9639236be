/// The input rule for short one-line text that names or labels an item — a yarn's or a
/// project's name, a pattern's name, a brand, a colorway, a color family, a dye lot, a fiber,
/// a purchase location, a pattern URL — as the `yarn` tool and the stash CSV import take it.
///
/// Such text is shown on one line (in tables, in `show`, in CSV cells) and typed back to look an
/// item up, so it may hold no line break, tab or other control character, and spaces around it
/// are dropped (lookups ignore them too: `Lookup.find`). The tool and the CSV import trim what
/// people type with it; the model's rules (`Rules.line(_:field:limit:)`), which the store
/// applies, refuse what it refuses and text with spaces around it. Shared with the `yarn` tool
/// (`package`), not public API.
package enum LineText {
  /// The most Characters (extended grapheme clusters, as Swift counts `String.count`: an emoji
  /// with its modifiers is one) that a name may have: `Rules.maximumNameLength`, 200.
  package static let maximumLength = Rules.maximumNameLength

  /// The most Unicode scalars (code points) text may have for each Character of its limit:
  /// 4, the second bound of every length limit (`lengthProblem(of:limit:)`). A Character has
  /// no bound of its own (a letter may carry any number of combining marks), so a limit in
  /// Characters alone let one letter and 50,000 accents pass as one; 4 a Character is room
  /// for any writing (a Hangul syllable as its three jamo, a letter with two accents in NFD,
  /// most emoji sequences) and bounds the bytes (4 a scalar in UTF-8).
  package static let scalarsPerCharacter = 4

  /// Why text is not one line that can be taken.
  package enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text holds a control character (Unicode general category Cc: U+0000–U+001F,
    /// U+007F–U+009F) or a line or paragraph separator (U+2028, U+2029); the first one.
    case controlCharacter(Unicode.Scalar)
    /// The text, without the spaces around it, has `count` Characters, more than `limit`.
    case tooLong(count: Int, limit: Int)
    /// The text, without the spaces around it, has `characters` Characters, at most `limit`,
    /// but `scalars` Unicode scalars, more than `limit` × `scalarsPerCharacter`.
    case tooManyScalars(characters: Int, scalars: Int, limit: Int)

    /// Lower case, such as `holds a line break (U+000A)`, `is 201 characters long` or `is 1
    /// character but 50001 Unicode code points long`; the caller adds the rule (`Rules`).
    package var description: String {
      switch self {
      case .controlCharacter(let scalar):
        return "holds \(LineText.name(of: scalar)) (\(LineText.code(of: scalar)))"
      case .tooLong(let count, _):
        return "is \(count) characters long"
      case .tooManyScalars(let characters, let scalars, _):
        return
          "is \(Plural.count(characters, "character")) but \(scalars) Unicode code points long"
      }
    }

    /// The description with the bound passed, as every rule says it: `is 201 characters
    /// long; the limit is 200`, `is 1 character but 50001 Unicode code points long; the limit
    /// is 800 code points (4 for each of the 200 characters allowed)`; `nil` for a control
    /// character.
    package var withLimit: String? {
      switch self {
      case .controlCharacter: nil
      case .tooLong(_, let limit): "\(self); the limit is \(limit)"
      case .tooManyScalars(_, _, let limit):
        "\(self); the limit is \(limit * scalarsPerCharacter) code points "
          + "(\(scalarsPerCharacter) for each of the \(limit) characters allowed)"
      }
    }
  }

  /// Whether `text` passes a length limit of `limit` Characters: at most `limit` Characters
  /// and at most `limit` × `scalarsPerCharacter` Unicode scalars; the bound passed, else
  /// `nil`. The one length rule of every field that has one (names and one-line fields, tags,
  /// a pattern URL, a note's text).
  ///
  /// - Complexity: O(1) for text of at most `limit` UTF-8 bytes (a Character and a scalar are
  ///   each at least one byte), else O(n).
  package static func lengthProblem(of text: String, limit: Int) -> Problem? {
    let bytes = text.utf8.count
    guard bytes > limit else { return nil }
    let count = text.count
    if count > limit { return .tooLong(count: count, limit: limit) }
    guard bytes > limit * scalarsPerCharacter else { return nil }
    let scalars = text.unicodeScalars.count
    guard scalars > limit * scalarsPerCharacter else { return nil }
    return .tooManyScalars(characters: count, scalars: scalars, limit: limit)
  }

  /// The start of `text` for a message that quotes a value too long to show whole: its first
  /// `characters` Characters (at most 4 scalars each: `scalarsPerCharacter`) and `…`; `text`
  /// itself when shorter. The one way a message shortens what it quotes: a reference that
  /// matches nothing (`no yarn matches '…'`, which may be a name of 5,000 characters) is
  /// quoted shortened, then made visible (`visible(shortened(reference))`).
  package static func shortened(_ text: String, characters: Int = 40) -> String {
    let start = text.prefix(characters).unicodeScalars.prefix(characters * scalarsPerCharacter)
    guard start.count < text.unicodeScalars.count else { return text }
    return String(String.UnicodeScalarView(start)) + "…"
  }

  /// `text` without the spaces around it, checked.
  ///
  /// The spaces dropped are those of `trimmingSpaces()` (Unicode category Zs); control
  /// characters are looked for first, in the whole text, so that a tab or line break at
  /// either end is refused, not dropped.
  ///
  /// - Parameter limit: the most Characters allowed (and 4 times as many Unicode scalars:
  ///   `lengthProblem(of:limit:)`), or `nil` for no limit.
  /// - Returns: the trimmed text (which may be empty: the caller decides whether that is
  ///   allowed), or the first problem found.
  /// - Complexity: O(n) in the length of `text`.
  package static func checked(_ text: String, limit: Int? = maximumLength) -> Result<String, Problem> {
    // Printable ASCII alone (the usual case) holds no refused character: told byte by byte,
    // over the bytes in memory (the view's own iterator cost 500 instructions a cell).
    func isPrintableASCII(_ byte: UInt8) -> Bool { (0x20...0x7E).contains(byte) }
    let printable =
      text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(isPrintableASCII) }
      ?? text.utf8.allSatisfy(isPrintableASCII)
    if !printable, let scalar = text.unicodeScalars.first(where: isRefused) {
      return .failure(.controlCharacter(scalar))
    }
    let trimmed = text.trimmingSpaces()
    if let limit, let problem = lengthProblem(of: trimmed, limit: limit) { return .failure(problem) }
    return .success(trimmed)
  }

  /// Whether `text` shows as nothing, which the rules call blank: empty, or only white
  /// space (`Unicode.Scalar.Properties.isWhitespace`: spaces, tabs, line breaks, NBSP) and
  /// invisible format characters (general category Cf, or a default-ignorable code point:
  /// U+200B ZERO WIDTH SPACE, U+200C/U+200D zero width (non-)joiners, U+2060 WORD JOINER,
  /// U+FEFF, U+00AD SOFT HYPHEN, U+3164 HANGUL FILLER, variation selectors, …). A table or a
  /// message shows such a name as an empty cell (QA: a name of U+200B alone was taken).
  package static func isBlank(_ text: some StringProtocol) -> Bool {
    // `allSatisfy` stops at the first visible scalar: for most text, the first.
    text.unicodeScalars.allSatisfy { scalar in
      if scalar.isASCII { return scalar == " " || ("\t"..."\r").contains(scalar) }
      let properties = scalar.properties
      return properties.isWhitespace || properties.generalCategory == .format
        || properties.isDefaultIgnorableCodePoint
    }
  }

  /// `isBlank(_:)` of a `String`: most text begins with a visible ASCII character, told by its
  /// first byte in memory (the generic scan cost 680 instructions a cell of a stash import).
  package static func isBlank(_ text: String) -> Bool {
    let first = text.utf8.withContiguousStorageIfAvailable { $0.first } ?? text.utf8.first
    if let first, (0x21...0x7E).contains(first) { return false }
    return isBlank(text[...])
  }

  /// Whether `text` is blank (`isBlank`) and holds no refused character (`isRefused`): the
  /// text a one-line field takes as "nothing given" (a tab or a line break is refused as such
  /// instead, in the words of `Rules.line(_:field:limit:)`).
  package static func isBlankLine(_ text: some StringProtocol) -> Bool {
    isBlank(text) && !text.unicodeScalars.contains(where: isRefused)
  }

  /// An optional one-line value as every way in takes it (the tool's options, the CSV
  /// import, the WEFT import): checked (`checked(_:limit:)`), and `nil` — unknown, left
  /// out — when what is left is blank (`isBlank`: empty, only spaces, or only invisible
  /// characters such as U+200B), so that `"   "` and `"\u{200B}"` are both unknown.
  ///
  /// - Parameter limit: the most Characters allowed (`checked(_:limit:)`), or `nil` for no limit.
  /// - Returns: the trimmed text or `nil`, or the first problem found.
  package static func optional(_ text: String, limit: Int? = maximumLength) -> Result<String?, Problem> {
    checked(text, limit: limit).map { isBlank($0) ? nil : $0 }
  }

  /// Whether `scalar` may not be in one-line text: category Cc, or U+2028 / U+2029.
  package static func isRefused(_ scalar: Unicode.Scalar) -> Bool {
    // ASCII's category Cc is U+0000–U+001F and U+007F: no table look-up for it.
    if scalar.isASCII { return scalar.value < 0x20 || scalar.value == 0x7F }
    return switch scalar.properties.generalCategory {
    case .control, .lineSeparator, .paragraphSeparator: true
    default: false
    }
  }

  /// Whether `scalar` shows as nothing and takes no room: a format character (general
  /// category Cf: U+200B ZERO WIDTH SPACE, U+FEFF, U+2060 WORD JOINER, U+00AD SOFT HYPHEN, …)
  /// or another default-ignorable code point (U+3164 HANGUL FILLER, variation selectors), not
  /// white space (a space shows, as room).
  package static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.isASCII { return false }
    let properties = scalar.properties
    return !properties.isWhitespace
      && (properties.generalCategory == .format || properties.isDefaultIgnorableCodePoint)
  }

  /// `text` as a message quotes a value: each refused character (`isRefused`) and each
  /// invisible one (`isInvisible`) written as an escape (`\n`, `\t`, `\r`, else `\u{85}`,
  /// `\u{200B}`), so that the message stays on one line and shows what is there: a value of
  /// U+200B alone does not look empty, nor `Meri\u{200B}no` like `Merino`. The one rule by
  /// which every message shows a value it quotes. The joiners and variation selectors of an
  /// emoji (a Character that begins with one: `❤️`, `👩‍👧`, flags) are part of its picture and
  /// kept; elsewhere they are escaped too (a ZERO WIDTH NON-JOINER in a Persian word shows as
  /// `\u{200C}`).
  ///
  /// A backslash is doubled (`\\`) only when the text needs it to be read one way: when it
  /// holds a character escaped, or a backslash that would read as one of these escapes
  /// (followed by `n`, `t`, `r`, `u` or a backslash). So `a\tb.png` (a backslash and a `t`)
  /// shows as `a\\tb.png` and a tab as `a\tb.png`, while an ordinary name with a backslash,
  /// such as `C:\stash`, is shown as it is.
  package static func visible(_ text: String) -> String {
    // Printable ASCII without a backslash (the usual case) is shown as it is.
    if text.utf8.allSatisfy({ (0x20...0x7E).contains($0) && $0 != UInt8(ascii: "\\") }) { return text }
    var needsEscapes = false
    var afterBackslash = false
    search: for character in text {
      for scalar in character.unicodeScalars {
        if escapes(scalar, in: character) || (afterBackslash && "ntru\\".unicodeScalars.contains(scalar)) {
          needsEscapes = true
          break search
        }
        afterBackslash = scalar == "\\"
      }
    }
    guard needsEscapes else { return text }
    var out = ""
    for character in text {
      for scalar in character.unicodeScalars {
        if scalar == "\\" {
          out += "\\\\"
          continue
        }
        guard escapes(scalar, in: character) else {
          out.unicodeScalars.append(scalar)
          continue
        }
        switch scalar {
        case "\n": out += "\\n"
        case "\t": out += "\\t"
        case "\r": out += "\\r"
        default: out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        }
      }
    }
    return out
  }

  /// Whether `visible(_:)` writes `scalar`, a scalar of `character`, as an escape: a refused
  /// one (`isRefused`), or an invisible one (`isInvisible`) that is not part of an emoji.
  private static func escapes(_ scalar: Unicode.Scalar, in character: Character) -> Bool {
    if isRefused(scalar) { return true }
    guard isInvisible(scalar) else { return false }
    let scalars = character.unicodeScalars
    return scalars.count == 1 || scalars.first?.properties.isEmoji != true
  }

  /// Whether `text` holds a character that `visible(_:)` writes as an escape (a control
  /// character such as ESC or a line break, an invisible one such as U+200B): text that does
  /// not show as itself, so that a command printed with it (a hint's) cannot be copied back.
  package static func hidesCharacters(_ text: String) -> Bool {
    text.contains { character in character.unicodeScalars.contains { escapes($0, in: character) } }
  }

  /// The most Characters of a value a message quotes: 80. A longer value is quoted by its
  /// first 80 and `…` (`shown(_:)`), so that no message quotes a value of 5,000 characters,
  /// which tells no more than its start.
  package static let quotedLength = 80

  /// `text` as a message quotes a value: at most its first `quotedLength` Characters and `…`
  /// (`shortened(_:characters:)`), as `visible(_:)` writes them. The CLI's `bad value '…'`
  /// quotes so, and `quoted(_:)`.
  package static func shown(_ text: String) -> String { visible(shortened(text, characters: quotedLength)) }

  /// `text` in double quotes, as `shown(_:)` writes it: `"3\u{200B}"`, `"x\u{1B}"`, a value
  /// of over 80 characters by its start (`"xxxx…"`). The one way a reason of YarnModel,
  /// YarnStore or YarnCore quotes a value it was given (an amount, a duration, a size, a date,
  /// a CSV cell or column, a name, a tag, a stored value), so that the message shows what is
  /// there, on one line, with nothing for the `yarn` tool to add; a reference not found is
  /// quoted shortened to 40 characters first (`shortened(_:characters:)`).
  package static func quoted(_ text: String) -> String { "\"" + shown(text) + "\"" }

  /// `U+000A`: the code point, at least four upper-case hex digits.
  static func code(of scalar: Unicode.Scalar) -> String {
    let hex = String(scalar.value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
  }

  /// `a line break`, `a tab`, `a NUL character` or `a control character`.
  static func name(of scalar: Unicode.Scalar) -> String {
    switch scalar.value {
    case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: "a line break"
    case 0x09: "a tab"
    case 0x00: "a NUL character"
    default: "a control character"
    }
  }
}
