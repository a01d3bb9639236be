import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

/// The one-line rule of names and labels (`LineText`) and the stash CSV import that applies
/// it: spaces around trimmed, control characters refused by code point, at most 200
/// Characters.
@Suite struct LineTextTests {
  @Test func spacesAroundAreTrimmedAndInnerOnesKept() {
    #expect(LineText.checked("  Cascade 220 ") == .success("Cascade 220"))
    // U+00A0 and U+3000 are spaces (Zs) too; inner runs stay.
    #expect(LineText.checked("\u{A0}Rios  Azul\u{3000}") == .success("Rios  Azul"))
    #expect(LineText.checked("   ") == .success(""))
    // A zero width joiner (Cf) and accents are text, not control characters.
    #expect(LineText.checked("e\u{301}te\u{301} 👩\u{200D}👧") == .success("e\u{301}te\u{301} 👩\u{200D}👧"))
  }

  /// Blank is what shows as nothing: white space and invisible format characters (category
  /// Cf, default-ignorable), alone or together; a visible character among them is text.
  @Test func invisibleFormatCharactersAloneAreBlank() {
    for blank in [
      "", " ", "\u{A0}", "\t\n", "\u{200B}", "\u{200C}", "\u{200D}", "\u{2060}", "\u{FEFF}", "\u{AD}",
      "\u{3164}", " \u{200B}\u{FEFF} ", "\u{FE0F}",
    ] {
      #expect(LineText.isBlank(blank), "\(Array(blank.unicodeScalars))")
    }
    for text in ["a", "\u{200B}a", "👩\u{200D}👧", "e\u{301}", "\u{301}", "\u{E000}", "-"] {
      #expect(!LineText.isBlank(text), "\(Array(text.unicodeScalars))")
    }
  }

  @Test func controlCharactersAreRefusedEvenAtEitherEnd() {
    #expect(LineText.checked("Cascade\n220") == .failure(.controlCharacter("\n")))
    #expect(LineText.checked("Cascade 220\n") == .failure(.controlCharacter("\n")))
    #expect(LineText.checked("\tCascade") == .failure(.controlCharacter("\t")))
    #expect(LineText.checked("a\u{85}b") == .failure(.controlCharacter("\u{85}")))
    #expect(LineText.checked("a\u{0}b") == .failure(.controlCharacter("\u{0}")))
    #expect(LineText.checked("\u{1B}[31mred") == .failure(.controlCharacter("\u{1B}")))
    #expect(LineText.checked("a\u{7F}") == .failure(.controlCharacter("\u{7F}")))
    #expect(LineText.checked("a\u{9F}") == .failure(.controlCharacter("\u{9F}")))
    #expect(LineText.checked("a\u{2028}b") == .failure(.controlCharacter("\u{2028}")))
    // The first one is named.
    #expect(LineText.checked("a\r\nb") == .failure(.controlCharacter("\r")))
    #expect(LineText.Problem.controlCharacter("\n").description == "holds a line break (U+000A)")
    #expect(LineText.Problem.controlCharacter("\u{85}").description == "holds a line break (U+0085)")
    #expect(LineText.Problem.controlCharacter("\t").description == "holds a tab (U+0009)")
    #expect(LineText.Problem.controlCharacter("\u{0}").description == "holds a NUL character (U+0000)")
    #expect(LineText.Problem.controlCharacter("\u{1B}").description == "holds a control character (U+001B)")
  }

  @Test func twoHundredCharactersAndNotOneMore() {
    let family = "👩\u{200D}👩\u{200D}👧"  // one Character, 5 scalars, 18 bytes
    let fits = family + String(repeating: "a", count: 199)
    #expect(fits.utf8.count == 217)
    #expect(LineText.checked(fits) == .success(fits))
    // Spaces around do not count.
    #expect(LineText.checked("  " + fits + "  ") == .success(fits))
    #expect(LineText.checked(fits + "b") == .failure(.tooLong(count: 201, limit: 200)))
    #expect(LineText.checked(fits + "b", limit: nil) == .success(fits + "b"))
    #expect(LineText.Problem.tooLong(count: 201, limit: 200).description == "is 201 characters long")
  }

  /// A limit in Characters has a second bound, 4 Unicode scalars a Character: one letter
  /// with 50,000 combining marks is one Character, and was taken as a 100 KB name (QA).
  @Test func aLimitAlsoBoundsUnicodeScalarsFourACharacter() {
    let heavy = "e\u{301}\u{301}\u{301}"  // one Character, 4 scalars
    let fits = String(repeating: heavy, count: 200)
    #expect(LineText.checked(fits) == .success(fits))
    #expect(
      LineText.checked(fits + "\u{301}")
        == .failure(.tooManyScalars(characters: 200, scalars: 801, limit: 200)))
    let bomb = "a" + String(repeating: "\u{301}", count: 50_000)
    #expect(LineText.checked(bomb) == .failure(.tooManyScalars(characters: 1, scalars: 50_001, limit: 200)))
    #expect(
      Rules.name(bomb)?.description
        == "name is 1 character but 50001 Unicode code points long; the limit is 800 code points "
        + "(4 for each of the 200 characters allowed)")
    // Tags (50), the pattern URL (2,000) and a note's text (100,000): the same two bounds.
    #expect(Rules.tags([String(repeating: heavy, count: 50)]) == nil)
    #expect(
      Rules.tags(["t" + String(repeating: "\u{301}", count: 200)])?.reason
        == "\"t" + String(repeating: "\u{301}", count: 200)
        + "\" is 1 character but 201 Unicode code points long; the limit is 200 code points "
        + "(4 for each of the 50 characters allowed)")
    // Quoted by its start (twice the limit: 100 Characters of at most 400 scalars).
    #expect(
      Rules.tags(["t" + String(repeating: "\u{301}", count: 50_000)])?.reason
        == "\"t" + String(repeating: "\u{301}", count: 399)
        + "…\" is 1 character but 50001 Unicode code points long; the limit is 200 code points "
        + "(4 for each of the 50 characters allowed)")
    #expect(
      Rules.optionalLine("h" + String(repeating: "\u{301}", count: 8_000), field: "pattern url", limit: 2000)?
        .reason.hasPrefix("is 1 character but 8001 Unicode code points long; the limit is 8000") == true)
    #expect(
      Rules.noteText("n" + String(repeating: "\u{301}", count: 400_000))?.description
        == "text is 1 character but 400001 Unicode code points long; the limit is 400000 code points "
        + "(4 for each of the 100000 characters allowed)")
    #expect(Rules.noteText(String(repeating: heavy, count: 100_000)) == nil)
  }

  @Test func visibleEscapesEveryRefusedCharacter() {
    #expect(LineText.visible("a\nb\tc\rd\u{85}e\u{0}f") == "a\\nb\\tc\\rd\\u{85}e\\u{0}f")
    #expect(LineText.visible("plain 🧶") == "plain 🧶")
  }

  /// QA: a value of U+200B alone showed raw in messages, as if empty, and one holding it
  /// looked like the value without it. Invisible characters (format, default-ignorable) are
  /// escaped as control characters are; an emoji's joiners and variation selectors are kept.
  @Test func visibleEscapesInvisibleCharacters() {
    #expect(LineText.visible("\u{200B}") == "\\u{200B}")
    #expect(LineText.visible("Meri\u{200B}no") == "Meri\\u{200B}no")
    #expect(LineText.visible(" \u{FEFF}\u{2060} ") == " \\u{FEFF}\\u{2060} ")
    #expect(LineText.visible("soft\u{AD}ly\u{3164}") == "soft\\u{AD}ly\\u{3164}")
    #expect(LineText.visible("o\u{200D}") == "o\\u{200D}")
    #expect(LineText.visible("a\u{FE0F}\tb") == "a\\u{FE0F}\\tb")
    // Spaces show, as room: not escaped (NBSP, U+2003 EM SPACE).
    #expect(LineText.visible("a\u{A0}b\u{2003}c") == "a\u{A0}b\u{2003}c")
    // An emoji's ZWJ sequence and variation selector are its picture.
    for emoji in ["❤️ wool", "👩‍👧 hat", "🏳️‍🌈"] { #expect(LineText.visible(emoji) == emoji) }
    // A backslash beside an escaped character is doubled, as beside a control character.
    #expect(LineText.visible("C:\\x\u{200B}") == "C:\\\\x\\u{200B}")
  }

  /// A backslash is doubled only where it could be read as an escape: `a\tb.png` (backslash,
  /// `t`) and `a<TAB>b.png` no longer both show as `a\tb.png`; `C:\stash` stays as it is.
  @Test func visibleDoublesABackslashOnlyWhereItCouldReadAsAnEscape() {
    #expect(LineText.visible("a\\tb.png") == "a\\\\tb.png")
    #expect(LineText.visible("a\tb.png") == "a\\tb.png")
    #expect(LineText.visible("C:\\stash\\wool") == "C:\\stash\\wool")
    #expect(LineText.visible("a\\b\tc") == "a\\\\b\\tc")
    #expect(LineText.visible("x\\\\y") == "x\\\\\\\\y")
    #expect(LineText.visible("end\\") == "end\\")
  }

  /// The one way a reason of the core quotes a value (QA: the value was escaped in `bad value
  /// '3\u{200B}'` but not in the reason after it): in double quotes, escaped as `visible`
  /// escapes; `hidesCharacters` tells such text, which a command copied from a message would
  /// not give back.
  @Test func aQuotedValueIsEscapedAsVisibleEscapesIt() {
    #expect(LineText.quoted("3\u{200B}") == "\"3\\u{200B}\"")
    #expect(LineText.quoted("x\u{1B}[31m\ny") == "\"x\\u{1B}[31m\\ny\"")
    #expect(LineText.quoted("Rios") == "\"Rios\"")
    #expect(LineText.hidesCharacters("red\u{1B}.png") && LineText.hidesCharacters("b\u{200B}lue.png"))
    #expect(!LineText.hidesCharacters("a\\tb.png") && !LineText.hidesCharacters("❤️ wool.png"))
  }

  /// QA: a value of 5,000 characters was quoted whole, two or three times a line: a message
  /// quotes at most the first 80 characters of a value, then `…`, escaped as `visible`
  /// escapes them (a reference not found, shortened to 40 first, is unchanged).
  @Test func aLongValueIsQuotedByItsStart() {
    #expect(LineText.quotedLength == 80)
    let eighty = String(repeating: "x", count: 80)
    #expect(LineText.quoted(eighty) == "\"" + eighty + "\"")
    #expect(LineText.quoted(eighty + "y") == "\"" + eighty + "…\"")
    #expect(LineText.quoted(String(repeating: "x", count: 5000)) == "\"" + eighty + "…\"")
    #expect(LineText.shown("\u{1B}" + eighty) == "\\u{1B}" + String(repeating: "x", count: 79) + "…")
    #expect(LineText.shown("é" + eighty) == "é" + String(repeating: "x", count: 79) + "…")
    #expect(LineText.quoted(LineText.shortened(eighty)) == "\"" + String(repeating: "x", count: 40) + "…\"")
  }

  /// An optional value: checked, then `nil` (unknown) when blank, invisible characters
  /// alone as much as spaces alone; a control character is still refused.
  @Test func anOptionalValueIsUnknownWhenBlank() {
    #expect(LineText.optional("  Malabrigo ") == .success("Malabrigo"))
    for blank in ["", "   ", "\u{3000}", "\u{200B}", " \u{FEFF}\u{2060} ", "\u{A0}\u{3000}"] {
      #expect(LineText.optional(blank) == .success(nil), "\(Array(blank.unicodeScalars))")
    }
    #expect(LineText.optional("\t") == .failure(.controlCharacter("\t")))
    #expect(LineText.optional("\u{200B}a") == .success("\u{200B}a"))
    #expect(LineText.isBlankLine("\u{200B}"))
    #expect(!LineText.isBlankLine("\n"))
  }

  // MARK: Stash import

  private static func plan(_ csv: String, store: LibraryStore) throws -> StashCSV.ImportPlan {
    try StashCSV.importPlan(
      from: Data(csv.utf8), store: store,
      options: StashCSV.ImportOptions(timeZone: TimeZone(secondsFromGMT: 0) ?? .current))
  }

  /// A name or label cell with a control character is a problem of its row, named by line,
  /// column and code point; nothing is imported. Spaces around are trimmed.
  @Test func importRefusesControlCharactersPerRowAndTrimsSpaces() throws {
    let directory = try Fixtures.temporaryDirectory()
    defer { Fixtures.cleanUp(directory) }
    let store = try LibraryStore(directory: directory, mode: .readWrite)
    let long = String(repeating: "x", count: 200)
    let csv =
      "Name,Brand,Notes\r\n"
      + "\"  Rios \", Malabrigo ,\"two\nlines are fine here\"\r\n"
      + "\"Cascade\n220\",Cascade,\r\n"
      + "Nul\u{0}name,\"Tab\tBrand\",\r\n"
      + "\(long),,\r\n"
      + "\(long)y,,\r\n"
      + "\"\u{85}\",,\r\n"
    let plan = try Self.plan(csv, store: store)
    #expect(
      plan.problems.map(\.description) == [
        "line 4, column \"Name\": holds a line break (U+000A); it must be one line",
        "line 6, column \"Name\": holds a NUL character (U+0000), a control character, which is not allowed",
        "line 6, column \"Brand\": holds a tab (U+0009), a control character, which is not allowed",
        "line 8, column \"Name\": is 201 characters long; the limit is 200",
        "line 9, column \"Name\": holds a line break (U+0085); it must be one line",
      ])
    #expect(plan.creates.map(\.name) == ["Rios", long])
    #expect(plan.creates.first?.brand == "Malabrigo")
    #expect(plan.notes.map(\.text) == ["two\nlines are fine here"])
    do {
      try StashCSV.apply(plan, to: store)
      Issue.record("a plan with problems was applied")
    } catch let error as StashCSV.ImportError {
      #expect(error.problems.count == 5)
    }
    #expect(try store.yarns().isEmpty)
  }
}
