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
  init(_ error: any Error, in root: JSONValue? = nil, prefix: String = "", droppingFirst: Int = 0) {
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
      let found = (value(context).map(Self.shown) ?? Self.foundKind(context.debugDescription)).map {
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
        self = Self.wholeNumberExpected(at: path(context), found: value(context))
      } else {
        self.init(
          path: path(context),
          reason: Self.invalidValue(context.debugDescription) ?? context.debugDescription.lowercasedFirst)
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
  /// caller finds the number).
  static func wholeNumberExpected(at path: String, found: JSONValue?) -> DecodingProblem {
    DecodingProblem(
      path: path, reason: "expected a whole number" + (found.map { ", found \(shown($0))" } ?? ""))
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

  /// A value found, as a message shows it: a string quoted, with control characters escaped
  /// (`LineText.visible`) and cut after 40 characters (`"a long text…"`); a number as JSON
  /// writes it; `true`, `false`, `null`; `an object`, `a list`.
  static func shown(_ value: JSONValue) -> String {
    switch value {
    case .null: return "null"
    case .bool(let flag): return flag ? "true" : "false"
    case .integer(let number): return String(number)
    case .number(let number): return "\(number)"
    case .string(let text):
      let visible = LineText.visible(text)
      return "\"" + (visible.count > 40 ? visible.prefix(40) + "…" : visible) + "\""
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
  /// for Foundation's `Cannot initialize TYPE from invalid RAW value VALUE`; `nil` for any
  /// other description.
  static func invalidValue(_ debugDescription: String) -> String? {
    let words = debugDescription.split(separator: " ", maxSplits: 6, omittingEmptySubsequences: false)
    guard words.count == 7, words[0] == "Cannot", words[1] == "initialize", words[3] == "from",
      words[4] == "invalid", words[6].hasPrefix("value ")
    else { return nil }
    let raw = words[6].dropFirst("value ".count)
    let value = words[5] == "String" ? shown(.string(String(raw))) : String(raw)
    return "\(value) is not \(choices[String(words[2])] ?? "a valid value")"
  }
}

extension String {
  fileprivate var lowercasedFirst: String {
    guard let first else { return self }
    return first.lowercased() + dropFirst()
  }
}
