import YarnModel

/// A decoding error in plain words, at its JSON path: the one account of Swift's
/// `DecodingError` that backups (`library.json`, the manifest) and WEFT import give, so that
/// the same fault gets the same words. What was wrong is said in the words of JSON and of the
/// field, with the value found when the JSON it was decoded from is given; never Swift's
/// names of types.
///
/// - `typeMismatch`: `expected a number, found "lots"` (the kinds expected: a list, an
///   object, a string, a number, a whole number, true or false; the value found as
///   `DecodingProblem.shown(_:)` writes it, else only its kind);
/// - `valueNotFound`: `expected a list, found null`;
/// - `keyNotFound`: `missing key "name"`, at the object's path;
/// - `dataCorrupted` of a number that does not fit a whole-number field:
///   `expected a whole number, found 1.5`; of a value that is none of a field's choices:
///   `9 is not a yarn weight (0–7)` (`choices`); else the error's own words (those of the
///   models' decoders, and `the given data was not valid JSON.`).
struct DecodingProblem: Hashable, CustomStringConvertible {
  /// The JSON path (`yarns[0].tags`, `items[0].fiber_content[1].percentage`); empty for the
  /// top level.
  var path: String
  /// What was wrong, such as `expected a string, found 5`.
  var reason: String

  init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  /// The account of `error`.
  ///
  /// - Parameters:
  ///   - root: the JSON decoded, when known: the value found is looked up in it by the
  ///     error's whole coding path.
  ///   - prefix: the path of the decoded value in its document (`yarns[3]`), put before the
  ///     error's own path.
  ///   - droppingFirst: how many keys of the error's own path to leave out of the path said
  ///     (the value's place in what it was decoded from, which `prefix` names instead).
  ///   - written: the text of the number at a path said, as the document writes it, when
  ///     known (`5.50`, `1e2`; `JSONSyntaxLocator.numberTexts`).
  init(
    _ error: any Error, in root: JSONValue? = nil, prefix: String = "", droppingFirst: Int = 0,
    written: (String) -> String? = { _ in nil }
  ) {
    guard let error = error as? DecodingError else {
      self.init(path: prefix, reason: String(describing: error))
      return
    }
    func path(_ context: DecodingError.Context) -> String {
      Self.path(prefix, context.codingPath.dropFirst(droppingFirst))
    }
    func value(_ context: DecodingError.Context) -> JSONValue? {
      root.flatMap { Self.member($0, at: context.codingPath) }
    }
    switch error {
    case .typeMismatch(let type, let context):
      let found =
        (value(context).map { Self.shown($0, written: written(path(context))) }
        ?? Self.foundKind(context.debugDescription)).map {
          ", found \($0)"
        }
      self.init(path: path(context), reason: "expected \(Self.kind(of: type))\(found ?? "")")
    case .valueNotFound(let type, let context):
      self.init(path: path(context), reason: "expected \(Self.kind(of: type)), found null")
    case .keyNotFound(let key, let context):
      self.init(path: path(context), reason: "missing key \"\(key.stringValue)\"")
    case .dataCorrupted(let context):
      // A JSON number that does not fit the whole number a field holds (1e30).
      if context.debugDescription.contains("does not fit") {
        self = Self.wholeNumberExpected(
          at: path(context), found: value(context), written: written(path(context)))
      } else {
        self.init(
          path: path(context),
          reason: Self.invalidValue(context.debugDescription, written: written(path(context)))
            ?? context.debugDescription.lowercasedFirst)
      }
    @unknown default:
      self.init(path: prefix, reason: "the value does not fit its field")
    }
  }

  /// `at yarns[0].tags: expected a list, found an object` (`at the top level: …` for the
  /// empty path): as a backup's problems say it.
  var description: String { "at \(path.isEmpty ? "the top level" : path): \(reason)" }

  /// `expected a whole number, found 1.5`: a number with a fraction or an exponent where a
  /// whole number belongs (which `JSONDecoder` may report without a path, so that the
  /// caller finds the number); `written` is the number's text in the document, when known.
  static func wholeNumberExpected(at path: String, found: JSONValue?, written: String? = nil)
    -> DecodingProblem
  {
    DecodingProblem(
      path: path,
      reason: "expected a whole number" + (found.map { ", found \(shown($0, written: written))" } ?? ""))
  }

  /// `prefix` and the keys after it: `yarns[0].tags[1]`.
  static func path(_ prefix: String, _ keys: some Sequence<any CodingKey>) -> String {
    keys.reduce(prefix) { path, key in
      key.intValue.map { "\(path)[\($0)]" } ?? path + (path.isEmpty ? "" : ".") + key.stringValue
    }
  }

  /// The value at `keys` in `root`, or `nil` when there is none.
  static func member(_ root: JSONValue, at keys: [any CodingKey]) -> JSONValue? {
    keys.reduce(root as JSONValue?) { value, key in
      switch value {
      case .array(let elements)?:
        key.intValue.flatMap { elements.indices.contains($0) ? elements[$0] : nil }
      case .object(let members)?: members[key.stringValue]
      default: nil
      }
    }
  }

  /// A value found, as a message shows it: a string cut after 40 characters and quoted
  /// (`LineText.shortened`, `LineText.quoted`: `"a long text…"`, control and invisible
  /// characters escaped); a number as the document writes it when `written` gives that text
  /// (cut likewise), else as JSON writes it; `true`, `false`, `null`; `an object`, `a list`.
  static func shown(_ value: JSONValue, written: String? = nil) -> String {
    switch value {
    case .null: return "null"
    case .bool(let flag): return flag ? "true" : "false"
    case .integer(let number): return written.map { LineText.shortened($0) } ?? String(number)
    case .number(let number): return written.map { LineText.shortened($0) } ?? "\(number)"
    case .string(let text): return LineText.quoted(LineText.shortened(text))
    case .array: return "a list"
    case .object: return "an object"
    }
  }

  /// The kind of JSON value `type` is decoded from: `a list`, `an object`, `a string`,
  /// `a whole number`, `a number`, `true or false`.
  static func kind(of type: Any.Type) -> String {
    switch type {
    case is String.Type, is Substring.Type: return "a string"
    case is Bool.Type: return "true or false"
    case is Double.Type, is Float.Type: return "a number"
    case is any BinaryInteger.Type: return "a whole number"
    default:
      // `Array<Any>` and the unkeyed container are lists; `Dictionary<String, Any>`, the
      // keyed container and every other type (a model's struct) are objects.
      let name = String(describing: type)
      return name.hasPrefix("Array<") || name.contains("Unkeyed") ? "a list" : "an object"
    }
  }

  /// What Foundation's `typeMismatch` says it found (`… but found a dictionary instead.`),
  /// in JSON's words (`an object`), or `nil` when it does not say: for an error whose JSON
  /// is not known.
  static func foundKind(_ debugDescription: String) -> String? {
    let words = debugDescription.split(separator: " ")
    guard
      let found = words.indices.dropLast().first(where: { words[$0] == "but" && words[$0 + 1] == "found" })
    else { return nil }
    switch words[(found + 2)...].first(where: { $0 != "a" && $0 != "an" }) {
    case "dictionary": return "an object"
    case "array": return "a list"
    case "string": return "a string"
    case "number": return "a number"
    case "bool", "boolean": return "true or false"
    case "null": return "null"
    default: return nil
    }
  }

  /// The words of a field's choices, by the name of the type Foundation says it cannot
  /// initialize (`Cannot initialize YarnWeight from invalid Int value 9`): the model's enums
  /// decoded from their raw values.
  static let choices: [String: String] = {
    func list<T: CaseIterable & RawRepresentable>(_: T.Type) -> String where T.RawValue == String {
      T.allCases.map(\.rawValue).joined(separator: ", ")
    }
    return [
      "YarnWeight": "a yarn weight (0–7)",
      "YarnUnit": "a unit (\(list(YarnUnit.self)))",
      "StashStatus": "a yarn status (\(list(StashStatus.self)))",
      "Craft": "a craft (\(list(Craft.self)))",
      "ProjectStatus": "a project status (\(list(ProjectStatus.self)))",
      "ToolKind": "a tool kind (\(list(ToolKind.self)))",
      "GaugeUnit": "a gauge unit (\(list(GaugeUnit.self)))",
    ]
  }()

  /// `9 is not a yarn weight (0–7)`, `"knit" is not a craft (…)`, `9 is not a valid value`
  /// for Foundation's `Cannot initialize TYPE from invalid RAW value VALUE`, a number as
  /// `written` gives it (`1e2 is not a yarn weight`); `nil` for any other description.
  static func invalidValue(_ debugDescription: String, written: String? = nil) -> String? {
    let words = debugDescription.split(separator: " ", maxSplits: 6, omittingEmptySubsequences: false)
    guard words.count == 7, words[0] == "Cannot", words[1] == "initialize", words[3] == "from",
      words[4] == "invalid", words[6].hasPrefix("value ")
    else { return nil }
    let raw = words[6].dropFirst("value ".count)
    let value =
      words[5] == "String"
      ? shown(.string(String(raw))) : written.map { LineText.shortened($0) } ?? String(raw)
    return "\(value) is not \(choices[String(words[2])] ?? "a valid value")"
  }
}

extension String {
  fileprivate var lowercasedFirst: String {
    guard let first else { return self }
    return first.lowercased() + dropFirst()
  }
}

extension DecodingProblem {
  /// `not JSON at line 4, column 6: unexpected ','`: a syntax error where it is, in the
  /// words both a WEFT import and a backup's `library.json` say it with. `place` is where
  /// `JSONSyntaxLocator` found it, or, when `nil`, the one named by the decoder's own error
  /// (`error`'s underlying error saying `line 3, column 5`, as Foundation's does on some
  /// systems); `nil` when neither knows.
  static func syntaxError(_ place: JSONSyntaxLocator.Place?, decoding error: (any Error)? = nil) -> String? {
    if let place { return "not JSON at line \(place.line), column \(place.column): \(place.what)" }
    guard case DecodingError.dataCorrupted(let context)? = error as? DecodingError,
      let underlying = context.underlyingError
    else { return nil }
    // `… around line 3, column 5.`
    let words = String(describing: underlying).split(separator: " ")
    for index in words.indices.dropLast(3) where words[index] == "line" && words[index + 2] == "column" {
      let digits = { (word: Substring) in Int(word.prefix { ("0"..."9").contains($0) }) }
      guard let line = digits(words[index + 1]), let column = digits(words[index + 3]) else { continue }
      return "not JSON at line \(line), column \(column)"
    }
    return nil
  }
}

extension DecodingProblem {
  /// `DecimalNumber`'s refusal of `text`, a JSON number as the document writes it, when it is
  /// not 0 but reads as 0 (`1e-400`; docs/UNITS.md: "refused as too small, never stored as
  /// 0"), its sign aside; `nil` for any other number.
  static func tooSmall(_ text: String) -> DecimalNumberError? {
    let digits = text.hasPrefix("-") ? String(text.dropFirst()) : text
    do {
      _ = try DecimalNumber.value(of: digits, exponent: true, input: text)
      return nil
    } catch {
      return error.problem == .tooSmall ? error : nil
    }
  }

  /// `value`, at `path` in its document, with each number too small to keep put back as its
  /// text, a string. `JSONDecoder` reads such a number as 0 where a whole number belongs (and
  /// so into a `JSONValue`), and refuses it as a `Double` without saying where, so only the
  /// text `written` gives (`JSONSyntaxLocator.numberTexts`) tells it from 0: as a string,
  /// decoding `value` names the field that reads it (a type mismatch at its path, which
  /// `tooSmall(_:at:written:)` words), and a field nothing reads is not looked at.
  static func markingTooSmall(_ value: JSONValue, at path: String, written: (String) -> String?) -> JSONValue
  {
    switch value {
    case .integer(0): return written(path).flatMap(tooSmall).map { .string($0.input) } ?? value
    case .object(var members):
      for (key, member) in members {
        members[key] = markingTooSmall(member, at: Self.path(path, key), written: written)
      }
      return .object(members)
    case .array(let elements):
      return .array(elements.enumerated().map { markingTooSmall($1, at: "\(path)[\($0)]", written: written) })
    default: return value
    }
  }

  /// The problem of `error` at `path` when it is the type mismatch of a number too small to
  /// keep (`markingTooSmall`): where a number belongs, in `DecimalNumber`'s words (`"1e-400"
  /// is too small: it would be kept as 0`, as `convert` and the stash CSV say it); elsewhere
  /// `expected a string, found 1e-400`. `nil` for any other error.
  static func tooSmall(_ error: any Error, at path: String, written: (String) -> String?) -> DecodingProblem?
  {
    guard case DecodingError.typeMismatch(let type, _) = error, let refusal = written(path).flatMap(tooSmall)
    else { return nil }
    let kind = kind(of: type)
    guard kind == "a number" || kind == "a whole number" else {
      return DecodingProblem(
        path: path, reason: "expected \(kind), found \(LineText.shortened(refusal.input))")
    }
    return DecodingProblem(path: path, reason: refusal.description)
  }

  /// `path` and a member's `key` after it: `items[0].brand`.
  private static func path(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }
}

extension JSONSyntaxLocator {
  /// The text `numbers` (`numberTexts`) keeps of the number at `path` (`items[0].gauge.rows`,
  /// a JSON path from the top of the text read), when it is not in plain whole digits (`5.50`,
  /// `1e2`); `nil` otherwise.
  static func written(_ numbers: [Int: String], at path: some StringProtocol) -> String? {
    guard !numbers.isEmpty else { return nil }
    let steps = WEFTPlanner.keys(ofPath: String(path)).map { key -> PathStep in
      (key as? Int).map { .index($0) } ?? .key("\(key)")
    }
    return numbers[pathKey(steps)]
  }
}

/// Finds where bytes stop being JSON (RFC 8259, and the comma before a closing bracket or
/// brace that `JSONDecoder` allows), fed in pieces of any size: the line and column of the
/// first byte that cannot continue a JSON text, or of its end when it ends too early, and of
/// the first byte that is not UTF-8 (RFC 8259 §8.1; RFC 3629: a byte no UTF-8 character
/// begins with, or one whose character the next bytes do not complete). A backup's reader
/// runs it for messages only, on a text a decoder refused (`DecodingProblem.syntaxError`): it
/// judges the grammar and the encoding, not what a decoder checks beyond them (a lone
/// surrogate in a `\u` escape, a number too large): for those `place` stays `nil`.
///
/// `strict` (WEFT import, run on every file before it is decoded): RFC 8259 as every reader
/// reads it. The comma before a closing bracket or brace is refused, and so are a number too
/// large for a double (`1e400`) and a `\u` escape of half a UTF-16 surrogate pair
/// (`"\ud800"`), each at its first character; it follows the JSON path, lists the keys an
/// object gives twice (`duplicateKeys`, its keys unescaped) and keeps the text of each number
/// not written in plain whole digits (`numberTexts`), for messages to show it as written.
///
/// Lines are counted at each line feed; columns in characters (bytes that do not continue a
/// UTF-8 sequence), from 1. Nothing recurses: the nesting is a stack of bytes, cut at 512
/// levels (`JSONMemberScanner.maxDepth`).
struct JSONSyntaxLocator {
  /// Where the text stops being JSON, and what is found there.
  struct Place: Hashable {
    var line: Int
    var column: Int
    /// `unexpected ','`, `the text ends before the JSON does`, …
    var what: String
    /// What would fix it, for a hint that ends with what to do next (`… and import again`):
    /// `fix the JSON where it is named (a missing or extra comma, quote or bracket)` for a
    /// fault of the grammar, the fault's own for the others (`save the file as UTF-8`).
    var fix = Place.grammarFix

    /// The fix of a fault of the grammar.
    static let grammarFix = "fix the JSON where it is named (a missing or extra comma, quote or bracket)"
  }

  /// A key an object gives twice (or more): the object's JSON path (`items[0]`) and the key.
  struct DuplicateKey: Hashable {
    var path: String
    var key: String
  }

  /// One step of a JSON path: a member's key or an element's index.
  enum PathStep: Hashable {
    case key(String)
    case index(Int)
  }

  /// At most this many `duplicateKeys` are kept; the rest are counted (`moreDuplicateKeys`).
  static let maxDuplicateKeys = 20

  /// The first place found; once set, the rest is ignored.
  private(set) var place: Place?
  /// `strict`: each key an object gives again, once an object, in the text's order (the
  /// first `maxDuplicateKeys`).
  private(set) var duplicateKeys: [DuplicateKey] = []
  /// `strict`: how many keys given twice there are beyond `duplicateKeys`.
  private(set) var moreDuplicateKeys = 0
  /// `strict`: the text of each number not written as a whole number in plain digits
  /// (`5.50`, `1e2`, `-0`, `12345678901234567890`), by `pathKey(_:)` of its JSON path: a hash,
  /// so that what is kept is no longer than the text, however long the path.
  private(set) var numberTexts: [Int: String] = [:]
  private let strict: Bool
  private var line = 1
  private var column = 0
  private var stack: [UInt8] = []
  private var bomMatched = 0
  private var state = State.value
  /// `strict`: each open array or object, as `stack`.
  private var levels: [Level] = []
  /// `strict`: the key read so far, unescaped.
  private var keyBytes: [UInt8] = []
  /// `strict`: the number read so far.
  private var numberBytes: [UInt8] = []
  /// Where the number or the escape being read starts.
  private var start = (line: 0, column: 0)
  /// The value of the `\u` escape being read.
  private var escaped: UInt32 = 0
  /// `strict`: a high surrogate escape that its low one must follow, and where it is.
  private var highSurrogate: (value: UInt32, line: Int, column: Int)?
  /// The continuation bytes the UTF-8 character being read still needs, the range the next
  /// one must be in, and where the character's first byte is and what it is.
  private var utf8Left = 0
  private var utf8Next: ClosedRange<UInt8> = 0x80...0xBF
  private var utf8Lead = (line: 0, column: 0, byte: UInt8(0))

  /// An open array or object, when `strict`.
  private struct Level {
    /// `pathKey` of its own path.
    var pathKey: Int
    /// The step to the member being read: its key, or its index.
    var step: PathStep
    /// An object's keys so far, and how many times each is given.
    var keys: [String: Int] = [:]
  }

  private enum State {
    /// Expecting a value (also at the start, and after ',' in an array when `strict`).
    case value
    /// After `[`, or `,` in an array: a value or `]`.
    case valueOrBracket
    /// After `{`, or `,` in an object: a key or `}`.
    case keyOrBrace
    /// After `,` in an object when `strict`: a key.
    case key
    /// After a key: `:`.
    case colon
    /// After a value: `,`, the container's end, or (at the top) only white space.
    case afterValue
    /// Inside a string (a key when `key`).
    case string(key: Bool)
    /// After a backslash in a string.
    case escape(key: Bool)
    /// In a `\u` escape, with `left` hexadecimal digits to go.
    case unicode(key: Bool, left: Int)
    /// In a number: what may come next.
    case number(Number)
    /// In `true`, `false` or `null`: the bytes still to come.
    case literal(ArraySlice<UInt8>)
  }

  private enum Number {
    case minus, zero, integer, point, fraction, exponent, exponentSign, exponentDigits

    /// Whether the number may end here.
    var isComplete: Bool { self == .zero || self == .integer || self == .fraction || self == .exponentDigits }
  }

  /// A locator of RFC 8259 as `JSONDecoder` reads it, or, when `strict`, as every reader does.
  init(strict: Bool = false) {
    self.strict = strict
  }

  /// The key of a JSON path in `numberTexts`: `[.key("items"), .index(0), .key("brand")]`
  /// for `items[0].brand`.
  static func pathKey(_ steps: some Sequence<PathStep>) -> Int { steps.reduce(0, pathKey) }

  private static func pathKey(_ parent: Int, _ step: PathStep) -> Int {
    var hasher = Hasher()
    hasher.combine(parent)
    hasher.combine(step)
    return hasher.finalize()
  }

  /// Reads the next bytes.
  mutating func feed(_ bytes: some Sequence<UInt8>) {
    for byte in bytes {
      guard place == nil else { return }
      if byte == 0x0A {
        line += 1
        column = 0
      } else if byte & 0xC0 != 0x80 || utf8Left == 0 {
        column += 1
      }
      guard isUTF8(byte) else { return }
      // A UTF-8 byte order mark at the start.
      if bomMatched < 3 {
        if line == 1, column <= 1, byte == [0xEF, 0xBB, 0xBF][bomMatched] {
          bomMatched += 1
          if bomMatched == 3 { column = 0 }
          continue
        }
        bomMatched = 3
      }
      step(byte)
    }
  }

  /// Ends the text: a text that ends inside a value (or a UTF-8 character) is not JSON.
  mutating func finish() {
    guard place == nil else { return }
    if utf8Left > 0 { return notUTF8() }
    switch state {
    case .afterValue where stack.isEmpty: return
    case .number(let number) where number.isComplete && stack.isEmpty:
      endNumber()
      return
    default:
      place = Place(line: line, column: column + 1, what: "the text ends before the JSON does")
    }
  }

  /// Reads `byte` as the next byte of UTF-8 text (RFC 3629: no overlong form, no surrogate,
  /// nothing over U+10FFFF); `false`, with `place` at the first byte of its character, when
  /// the text is not UTF-8 there.
  private mutating func isUTF8(_ byte: UInt8) -> Bool {
    if utf8Left > 0 {
      guard utf8Next.contains(byte) else {
        notUTF8()
        return false
      }
      utf8Left -= 1
      utf8Next = 0x80...0xBF
      return true
    }
    guard byte >= 0x80 else { return true }
    utf8Lead = (line, column, byte)
    switch byte {
    case 0xC2...0xDF: (utf8Left, utf8Next) = (1, 0x80...0xBF)
    case 0xE0: (utf8Left, utf8Next) = (2, 0xA0...0xBF)
    case 0xED: (utf8Left, utf8Next) = (2, 0x80...0x9F)
    case 0xE1...0xEF: (utf8Left, utf8Next) = (2, 0x80...0xBF)
    case 0xF0: (utf8Left, utf8Next) = (3, 0x90...0xBF)
    case 0xF1...0xF3: (utf8Left, utf8Next) = (3, 0x80...0xBF)
    case 0xF4: (utf8Left, utf8Next) = (3, 0x80...0x8F)
    default:
      notUTF8()
      return false
    }
    return true
  }

  /// The character begun at `utf8Lead` is not UTF-8.
  private mutating func notUTF8() {
    let byte = utf8Lead.byte
    place = Place(
      line: utf8Lead.line, column: utf8Lead.column,
      what: "byte 0x\(String(byte, radix: 16, uppercase: true)) is not UTF-8",
      fix: "save the file as UTF-8, the encoding of JSON (RFC 8259 §8.1)")
  }

  private mutating func fail(_ byte: UInt8, _ context: String = "") {
    let shown =
      (0x20...0x7E).contains(byte)
      ? "'\(Character(Unicode.Scalar(byte)))'"
      : "byte 0x\(byte < 0x10 ? "0" : "")\(String(byte, radix: 16, uppercase: true))"
    place = Place(line: line, column: column, what: "unexpected \(shown)\(context)")
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

  /// The character each one-letter escape stands for (`\n` a line feed).
  private static let escapes: [UInt8: UInt8] = [
    UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F, UInt8(ascii: "b"): 0x08,
    UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
  ]

  private mutating func step(_ byte: UInt8) {
    switch state {
    case .value, .valueOrBracket:
      if Self.isSpace(byte) { return }
      if case .valueOrBracket = state, byte == UInt8(ascii: "]") { return close() }
      startValue(byte)
    case .keyOrBrace, .key:
      if Self.isSpace(byte) { return }
      if case .keyOrBrace = state, byte == UInt8(ascii: "}") { return close() }
      guard byte == UInt8(ascii: "\"") else { return fail(byte, " where a key belongs") }
      state = .string(key: true)
    case .colon:
      if Self.isSpace(byte) { return }
      guard byte == UInt8(ascii: ":") else { return fail(byte, " where ':' belongs") }
      state = .value
    case .afterValue:
      if Self.isSpace(byte) { return }
      guard let top = stack.last else { return fail(byte, " after the JSON value") }
      if byte == UInt8(ascii: ",") {
        if top == UInt8(ascii: "[") {
          state = strict ? .value : .valueOrBracket
          if strict, case .index(let index) = levels[levels.count - 1].step {
            levels[levels.count - 1].step = .index(index + 1)
          }
        } else {
          state = strict ? .key : .keyOrBrace
        }
      } else if byte == (top == UInt8(ascii: "[") ? UInt8(ascii: "]") : UInt8(ascii: "}")) {
        close()
      } else {
        fail(byte, top == UInt8(ascii: "[") ? " where ',' or ']' belongs" : " where ',' or '}' belongs")
      }
    case .string(let key):
      if highSurrogate != nil, byte != UInt8(ascii: "\\") { return loneSurrogate() }
      if byte == UInt8(ascii: "\"") {
        state = key ? .colon : .afterValue
        if key, strict { endKey() }
      } else if byte == UInt8(ascii: "\\") {
        state = .escape(key: key)
        start = (line, column)
      } else if byte < 0x20 {
        fail(byte, " (a control character) in a string")
      } else if key, strict {
        keyBytes.append(byte)
      }
    case .escape(let key):
      if highSurrogate != nil, byte != UInt8(ascii: "u") { return loneSurrogate() }
      if byte == UInt8(ascii: "u") {
        state = .unicode(key: key, left: 4)
        escaped = 0
      } else if let character = Self.escapes[byte] {
        state = .string(key: key)
        if key, strict { keyBytes.append(character) }
      } else {
        fail(byte, " after '\\' in a string")
      }
    case .unicode(let key, let left):
      guard Self.isDigit(byte) || (0x61...0x66).contains(byte | 0x20) else {
        return fail(byte, " in a \\u escape")
      }
      escaped = escaped << 4 | UInt32(Self.isDigit(byte) ? byte - 0x30 : (byte | 0x20) - 0x61 + 10)
      state = left == 1 ? .string(key: key) : .unicode(key: key, left: left - 1)
      if left == 1, strict { endEscape(key: key) }
    case .number(let number):
      let digit = Self.isDigit(byte)
      switch (number, byte) {
      case (.minus, _) where byte == UInt8(ascii: "0"): state = .number(.zero)
      case (.minus, _) where digit: state = .number(.integer)
      case (.integer, _) where digit: break
      case (.zero, UInt8(ascii: ".")), (.integer, UInt8(ascii: ".")): state = .number(.point)
      case (.point, _) where digit, (.fraction, _) where digit: state = .number(.fraction)
      case (.zero, _) where byte | 0x20 == UInt8(ascii: "e"),
        (.integer, _) where byte | 0x20 == UInt8(ascii: "e"),
        (.fraction, _) where byte | 0x20 == UInt8(ascii: "e"):
        state = .number(.exponent)
      case (.exponent, UInt8(ascii: "+")), (.exponent, UInt8(ascii: "-")): state = .number(.exponentSign)
      case (.exponent, _) where digit, (.exponentSign, _) where digit, (.exponentDigits, _) where digit:
        state = .number(.exponentDigits)
      default:
        guard number.isComplete else { return fail(byte, " in a number") }
        state = .afterValue
        endNumber()
        if place == nil { step(byte) }
        return
      }
      if strict { numberBytes.append(byte) }
    case .literal(let rest):
      guard byte == rest.first else { return fail(byte) }
      state = rest.count == 1 ? .afterValue : .literal(rest.dropFirst())
    }
  }

  private mutating func startValue(_ byte: UInt8) {
    switch byte {
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      guard stack.count < JSONMemberScanner.maxDepth else {
        place = Place(
          line: line, column: column, what: "nested deeper than \(JSONMemberScanner.maxDepth) levels")
        return
      }
      stack.append(byte)
      state = byte == UInt8(ascii: "{") ? .keyOrBrace : .valueOrBracket
      if strict {
        levels.append(Level(pathKey: valuePathKey, step: byte == UInt8(ascii: "{") ? .key("") : .index(0)))
      }
    case UInt8(ascii: "\""): state = .string(key: false)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      state = .number(byte == UInt8(ascii: "-") ? .minus : byte == UInt8(ascii: "0") ? .zero : .integer)
      start = (line, column)
      if strict { numberBytes = [byte] }
    case UInt8(ascii: "t"): state = .literal(Array("rue".utf8)[...])
    case UInt8(ascii: "f"): state = .literal(Array("alse".utf8)[...])
    case UInt8(ascii: "n"): state = .literal(Array("ull".utf8)[...])
    default: fail(byte, " where a value belongs")
    }
  }

  private mutating func close() {
    stack.removeLast()
    if strict { levels.removeLast() }
    state = .afterValue
  }

  /// `pathKey` of the value being read (`strict`).
  private var valuePathKey: Int { levels.last.map { Self.pathKey($0.pathKey, $0.step) } ?? 0 }

  /// `strict`: a key read; a key the object gave before is listed, once.
  private mutating func endKey() {
    let key = String(decoding: keyBytes, as: UTF8.self)
    keyBytes.removeAll(keepingCapacity: true)
    let last = levels.count - 1
    levels[last].step = .key(key)
    levels[last].keys[key, default: 0] += 1
    guard levels[last].keys[key] == 2 else { return }
    guard duplicateKeys.count < Self.maxDuplicateKeys else {
      moreDuplicateKeys += 1
      return
    }
    var path = ""
    for level in levels.dropLast() {
      switch level.step {
      case .key(let key): path += (path.isEmpty ? "" : ".") + key
      case .index(let index): path += "[\(index)]"
      }
    }
    duplicateKeys.append(DuplicateKey(path: path, key: key))
  }

  /// `strict`: a `\u` escape read (its value in `escaped`, its backslash at `start`): a
  /// surrogate must be half of a pair, high then low; a key keeps the character.
  private mutating func endEscape(key: Bool) {
    var scalar = escaped
    if let high = highSurrogate {
      guard (0xDC00...0xDFFF).contains(escaped) else { return loneSurrogate() }
      highSurrogate = nil
      scalar = 0x10000 + (high.value - 0xD800) << 10 + (escaped - 0xDC00)
    } else if (0xD800...0xDFFF).contains(escaped) {
      highSurrogate = (escaped, start.line, start.column)
      if escaped >= 0xDC00 { loneSurrogate() }
      return
    }
    if key, let scalar = Unicode.Scalar(scalar) { UTF8.encode(scalar) { keyBytes.append($0) } }
  }

  /// `strict`: the surrogate escape of `highSurrogate` is not half of a pair.
  private mutating func loneSurrogate() {
    guard let high = highSurrogate else { return }
    let hex = String(high.value, radix: 16)
    place = Place(
      line: high.line, column: high.column,
      what: "a lone surrogate escape '\\u\(hex)' (half of a UTF-16 pair, not a character)",
      fix: "write the character itself where it is named, or both halves of its UTF-16 pair (\\ud83e\\uddf6)")
  }

  /// `strict`: a number read; one too large to read is refused, one not in plain whole
  /// digits keeps its text.
  private mutating func endNumber() {
    guard strict else { return }
    let text = String(decoding: numberBytes, as: UTF8.self)
    numberBytes.removeAll(keepingCapacity: true)
    guard Double(text)?.isFinite == true else {
      place = Place(
        line: start.line, column: start.column,
        what: "the number \(LineText.shortened(text)) is too large to read",
        fix: "write a number a double holds where it is named (at most 1.7976931348623157e308 in size)")
      return
    }
    if Int64(text).map(String.init) != text { numberTexts[valuePathKey] = text }
  }
}
