import YarnModel
import YarnStore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One item of a WEFT file: where it is and its JSON.
struct WEFTItem {
  var file: String
  var path: String
  var value: JSONValue
  /// The file's `JSONSyntaxLocator.numberTexts`: its numbers as written.
  var numbers: [Int: String] = [:]

  /// The number at `path` (a JSON path in the file) as the file writes it, when that is not
  /// in plain whole digits (`5.50`, `1e2`); `nil` otherwise.
  func written(at path: String) -> String? { JSONSyntaxLocator.written(numbers, at: path) }
}

/// Builds a `WEFTImport.Plan`: reads every file, then the materials, the projects and the
/// progress, then settles each yarn against the library.
struct WEFTPlanner {
  let store: LibraryStore
  let now: Date
  var plan = WEFTImport.Plan()
  /// The file and path (joined by NUL) of each problem of `plan`: one problem a field.
  private var problemPaths: Set<String> = []
  /// The file and path (joined by NUL) of each element of an array replaced by a stand-in.
  private var standIns: Set<String> = []
  /// The files that hold a number too small to keep (`1e-400`), by name.
  private var tooSmallFiles: Set<String> = []
  private var materials: [WEFTItem] = []
  private var projects: [WEFTItem] = []
  private var progress: [WEFTItem] = []
  var tools: [WEFTItem] = []
  /// The tools read, before the projects' `tools_used` are added to them.
  var toolDrafts: [(item: WEFTItem, tool: Tool, base: Tool?)] = []
  /// Each project's `tools_used` entry: the yarn project ID and the WEFT tool ID (`nil` when
  /// the entry names none).
  var toolLinks: [(file: String, path: String, projectID: String, toolID: String?)] = []
  /// The library projects whose items give `tools_used`, by ID, with the file and path of
  /// the field: their tools become those it names (`readTools`).
  var toolsReplaced: [String: (file: String, path: String)] = [:]

  /// A yarn read from a material, before it is settled.
  private struct YarnDraft {
    var item: WEFTItem
    var yarn: Yarn
    var base: Yarn?
    /// What is left when the material gives `original_quantity` (the bought amount) too.
    var current: Amount?
    var notes: String?
    /// Whether the material gave `quantity` alone (what is left, which yarn reads as the
    /// quantity).
    var onlyWhatIsLeft = false
    /// yarn's own word for who made `current` (`yarn.remaining_source`, the stash CSV's
    /// Remaining Source), when it goes with the figure; `nil` when the file does not say.
    var remainingSource: String?
    /// The JSON path, below the item, of the field each rule's field was read from
    /// (`WEFTPlanner.yarnFields` with the figures actually kept).
    var fields = WEFTPlanner.yarnFields
  }
  private var drafts: [YarnDraft] = []
  /// The yarn ID of each WEFT material ID read.
  private var yarnIDs: [String: String] = [:]
  /// Where each WEFT ID was first seen, by kind.
  private var seen: [String: String] = [:]
  var plannedProjects:
    [(item: WEFTItem, project: Project, base: Project?, notes: [(key: String, text: String)])] =
      []
  var projectIDs: [String: String] = [:]
  private var libraryProjects: [Project]?

  /// Whether sessions may share time, with the library's and with each other (`time add
  /// --allow-overlap`, whose sessions a WEFT export carries).
  let allowOverlap: Bool

  init(store: LibraryStore, now: Date, allowOverlap: Bool = false) {
    self.store = store
    self.now = now
    self.allowOverlap = allowOverlap
  }

  // MARK: Files

  static let arrays: [(key: String, type: String)] = [
    ("materials", "material"), ("projects", "project"), ("progress", "progress"), ("tools", "tool"),
    ("patterns", "pattern"), ("annotations", "annotation"), ("queue", "queue"), ("favorites", "favorite"),
    ("bundles", "bundle"), ("products", "product"), ("library", "library"), ("shops", "shop"),
    ("designers", "designer"),
  ]

  /// Adds a problem at `path`; one per field: a field already refused is not refused again
  /// for what reading it left (a field removed for a type error is not also "missing").
  mutating func problem(_ file: String, _ path: String, _ reason: String, fix: String? = nil) {
    // A set, not a search of the problems: a file of 30,000 bad sessions stays linear.
    guard !isStoodIn(file, path), problemPaths.insert(file + "\u{0}" + path).inserted else { return }
    plan.problems.append(
      WEFTImport.Problem(file: file, path: path, reason: reason, fix: fix))
  }

  mutating func omit(_ file: String, _ path: String, _ reason: String? = nil) {
    guard !isStoodIn(file, path) else { return }
    plan.omissions.append(WEFTImport.Omission(file: file, path: path, reason: reason))
  }

  /// Whether `path` is at or below an element of an array refused as it was read and
  /// replaced by a stand-in (`decode`): what reading the stand-in leaves is not said.
  private func isStoodIn(_ file: String, _ path: String) -> Bool {
    guard !standIns.isEmpty else { return false }
    var rest = Substring(path)
    while true {
      if standIns.contains(file + "\u{0}" + rest) { return true }
      guard let cut = rest.lastIndex(where: { $0 == "." || $0 == "[" }) else { return false }
      rest = rest[..<cut]
    }
  }

  /// `is missing; a WEFT document has one` for `nil`, else `expected KIND, found VALUE` in
  /// the words of `DecodingProblem` (a number as `written`, when that is known).
  static func expected(_ kind: String, found: JSONValue?, written: String? = nil) -> String {
    found.map { "expected \(kind), found \(DecodingProblem.shown($0, written: written))" }
      ?? "is missing; a WEFT document has one"
  }

  /// Reads one file's envelope and sorts its items by type.
  ///
  /// The file is JSON as every reader reads it (`JSONSyntaxLocator`, `strict`), which
  /// `JSONDecoder` is more lenient than: no comma before a closing bracket or brace, no
  /// number too large to read or lone surrogate escape, no key given twice in an object
  /// (which value counts is up to each reader: RFC 8259 §4).
  mutating func read(_ source: WEFTImport.Source) {
    let file = source.name
    let root: JSONValue
    if source.data.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
      problem(file, "", "is empty; a WEFT document is a JSON object")
      return
    }
    var locator = JSONSyntaxLocator(strict: true)
    locator.feed(source.data)
    locator.finish()
    if let place = locator.place, let reason = DecodingProblem.syntaxError(place) {
      problem(file, "", reason, fix: place.fix)
      return
    }
    guard locator.duplicateKeys.isEmpty else {
      // Each at its object's path, which two keys may share: not one problem a path.
      for duplicate in locator.duplicateKeys {
        plan.problems.append(
          WEFTImport.Problem(
            file: file, path: duplicate.path,
            reason: "the key \(DecodingProblem.shown(.string(duplicate.key))) is given twice"))
      }
      if locator.moreDuplicateKeys > 0 {
        plan.problems.append(
          WEFTImport.Problem(
            file: file, path: "",
            reason:
              "\(locator.moreDuplicateKeys) more key\(locator.moreDuplicateKeys == 1 ? " is" : "s are") given twice"
          ))
      }
      return
    }
    do {
      root = try JSONDecoder().decode(JSONValue.self, from: source.data)
    } catch {
      problem(
        file, "",
        DecodingProblem.syntaxError(nil, decoding: error) ?? "is not JSON: \(DecodingProblem(error).reason)",
        fix: JSONSyntaxLocator.Place.grammarFix)
      return
    }
    let numbers = locator.numberTexts
    func written(_ key: String) -> String? { numbers[JSONSyntaxLocator.pathKey([.key(key)])] }
    guard case .object(let top) = root else {
      problem(file, "", "is not a WEFT document: not a JSON object")
      return
    }
    // Read as 0 by the decoder: told by their text (`decode` refuses them).
    if numbers.values.contains(where: { DecodingProblem.tooSmall($0) != nil }) { tooSmallFiles.insert(file) }
    guard case .string(let version)? = top["weft_version"] else {
      problem(
        file, "weft_version",
        Self.expected("a string", found: top["weft_version"], written: written("weft_version")))
      return
    }
    guard version.split(separator: ".").first == "1" else {
      problem(file, "weft_version", "\(LineText.quoted(version)) is not a WEFT version yarn reads (1.x)")
      return
    }
    guard case .string(let type)? = top["type"] else {
      problem(file, "type", Self.expected("a string", found: top["type"], written: written("type")))
      return
    }
    var keys: [(key: String, type: String)]
    if type == "bundle" {
      keys = WEFTPlanner.arrays
    } else if WEFTPlanner.arrays.contains(where: { $0.type == type }) {
      keys = [("items", type)]
    } else {
      problem(file, "type", "\(LineText.quoted(type)) is not a WEFT document type")
      return
    }
    let envelope: Set<String> = ["weft_version", "type", "profile", "exported_at", "exported_from"]
    for key in top.keys.sorted()
    where !envelope.contains(key) && !keys.contains(where: { $0.key == key })
      && !WEFTKept.isEmpty(top[key] ?? .null)
    {
      omit(file, key)
    }
    if type != "bundle", top["items"] == nil {
      problem(file, "items", "is missing; a WEFT document has one")
      return
    }
    for (key, itemType) in keys {
      guard let value = top[key] else { continue }
      guard case .array(let elements) = value else {
        problem(file, key, Self.expected("a list", found: value, written: written(key)))
        continue
      }
      for (index, element) in elements.enumerated() {
        let item = WEFTItem(file: file, path: "\(key)[\(index)]", value: element, numbers: numbers)
        switch itemType {
        case "material": materials.append(item)
        case "project": projects.append(item)
        case "progress": progress.append(item)
        case "tool": tools.append(item)
        default:
          omit(file, item.path, "yarn keeps no \(itemType == "library" ? "libraries" : itemType + "s")")
        }
      }
    }
  }

  /// Plans every item read, and returns the plan.
  mutating func finish() throws -> WEFTImport.Plan {
    try readMaterials()
    try readProjects()
    try readTools()
    try readProgress()
    try settleYarns()
    return plan
  }

  // MARK: Decoding

  /// The item decoded as `T`, with a problem naming the JSON path of each field that does
  /// not fit (`DecodingProblem`, the words of backups, with the value found): such a field
  /// is left out, an element of an array replaced by a stand-in (`standIn(for:element:)`), and the
  /// item decoded again, so that a type error in one field or element does not stop the
  /// checks of the others. `nil` when the item itself does not fit (not an object). The
  /// caller refuses an item with problems. A number too small to keep (`1e-400`, which the
  /// decoder reads as 0) is refused as too small where a field reads it
  /// (`DecodingProblem.markingTooSmall`).
  mutating func decode<T: Decodable>(_ type: T.Type, _ item: WEFTItem) -> T? {
    var value = item.value
    if tooSmallFiles.contains(item.file) {
      value = DecodingProblem.markingTooSmall(value, at: item.path, written: item.written)
    }
    // At most one pass per field of the item (and a bound for a value that cannot shrink).
    for _ in 0..<200 {
      do {
        return try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value))
      } catch {
        var found = DecodingProblem(error, in: value, prefix: item.path, written: item.written)
        if let small = DecodingProblem.tooSmall(error, at: found.path, written: item.written) {
          found = small
        }
        var keys = WEFTPlanner.keys(of: error)
        // Foundation says a fraction in a whole-number field without its path: the first
        // number whose replacement by 0 ends that error is the one (`firstNumberRefused`).
        if case DecodingError.dataCorrupted(let context) = error, context.codingPath.isEmpty {
          keys = nil
          let number = WEFTPlanner.firstNumberRefused(in: value, at: item.path) { trial in
            do {
              _ = try JSONDecoder().decode(T.self, from: JSONEncoder().encode(trial))
            } catch DecodingError.dataCorrupted(let again) where again.codingPath.isEmpty {
              return true
            } catch {}
            return false
          }
          if let number {
            found = .wholeNumberExpected(
              at: number.path, found: number.found, written: item.written(at: number.path))
            keys = WEFTPlanner.keys(ofPath: String(number.path.dropFirst(item.path.count)))
          }
        }
        problem(item.file, found.path, found.reason)
        let element = WEFTPlanner.member(value, at: String(found.path.dropFirst(item.path.count)))
        guard let keys, !keys.isEmpty,
          let smaller = WEFTPlanner.removing(
            keys, from: value, standIn: WEFTPlanner.standIn(for: error, element: element))
        else {
          return nil
        }
        if keys.last is Int { standIns.insert(item.file + "\u{0}" + found.path) }
        value = smaller
      }
    }
    return nil
  }

  /// What replaces an element of an array that does not fit, so that the others keep their
  /// indices and are checked: an empty value of the kind expected (`""`, `0`, `false`, `{}`,
  /// `[]`), else of the element's own kind (a number with a fraction where a whole number
  /// belongs), which the checks pass over (a blank tag is none, an empty object gives no
  /// field); nothing is said at or below its path (`problem`).
  static func standIn(for error: any Error, element: JSONValue?) -> JSONValue {
    switch error {
    case DecodingError.typeMismatch(let type, _), DecodingError.valueNotFound(let type, _):
      switch DecodingProblem.kind(of: type) {
      case "a string": return .string("")
      case "a number", "a whole number": return .integer(0)
      case "true or false": return .bool(false)
      case "a list": return .array([])
      default: return .object([:])
      }
    default:
      switch element {
      case .string?: return .string("")
      case .integer?, .number?: return .integer(0)
      case .bool?: return .bool(false)
      case .array?: return .array([])
      default: return .object([:])
      }
    }
  }

  /// The keys of the field a decoding error is at: member names, and array indices as `Int`s.
  static func keys(of error: any Error) -> [Any]? {
    let context: DecodingError.Context
    switch error {
    case DecodingError.typeMismatch(_, let found), DecodingError.valueNotFound(_, let found),
      DecodingError.dataCorrupted(let found):
      context = found
    case DecodingError.keyNotFound(_, let found):
      // A member the type requires: the object holding it cannot be read.
      context = found
    default: return nil
    }
    return context.codingPath.map { key -> Any in key.intValue ?? key.stringValue }
  }

  /// The keys of a path below an item such as `.packs[1].weight_per_unit_grams`.
  static func keys(ofPath path: String) -> [Any] {
    var out: [Any] = []
    for part in path.split(separator: ".") {
      var rest = Substring(part)
      if let open = rest.firstIndex(of: "[") {
        if open > rest.startIndex { out.append(String(rest[..<open])) }
        rest = rest[open...]
        while let open = rest.firstIndex(of: "["), let close = rest.firstIndex(of: "]"),
          let index = Int(rest[rest.index(after: open)..<close])
        {
          out.append(index)
          rest = rest[rest.index(after: close)...]
        }
      } else {
        out.append(String(rest))
      }
    }
    return out
  }

  /// The member of `value` at `path` below it (`packs[0].acquired_price.amount`); `nil`
  /// when there is none.
  static func member(_ value: JSONValue, at path: String) -> JSONValue? {
    keys(ofPath: path).reduce(value as JSONValue?) { value, key in
      switch (value, key) {
      case (.object(let members)?, let name as String): members[name]
      case (.array(let elements)?, let index as Int): elements.indices.contains(index) ? elements[index] : nil
      default: nil
      }
    }
  }

  /// `value` without the member at `keys`: a member of an object is left out; an element of
  /// an array, which cannot be left out without changing the indices of the others, is
  /// replaced by `standIn`, and when it already is that (the stand-in does not fit either),
  /// the whole array is left out. `nil` when nothing can be left out.
  static func removing(_ keys: [Any], from value: JSONValue, standIn: JSONValue) -> JSONValue? {
    guard let first = keys.first else { return nil }
    switch (value, first) {
    case (.object(var members), let key as String):
      guard let member = members[key] else { return nil }
      // The member itself, else the field inside it; when that cannot be left out, the
      // whole member.
      members[key] = keys.count == 1 ? nil : removing(Array(keys.dropFirst()), from: member, standIn: standIn)
      return .object(members)
    case (.array(var elements), let index as Int):
      guard elements.indices.contains(index) else { return nil }
      if keys.count == 1 {
        guard elements[index] != standIn else { return nil }
        elements[index] = standIn
      } else {
        guard let inner = removing(Array(keys.dropFirst()), from: elements[index], standIn: standIn) else {
          return nil
        }
        elements[index] = inner
      }
      return .array(elements)
    default:
      return nil
    }
  }

  /// The first number with a fraction or an exponent in `value` (a `JSONValue.number`; `value`
  /// is at `path`) without which `refuses` no longer holds: its JSON path and the number.
  /// Foundation refuses such a number where a whole number belongs without saying where (`The
  /// given data was not valid JSON.`), and `refuses` tells whether a value still gets that
  /// error. The numbers are replaced by 0 from the last one back to the first: the error ends
  /// once the first refused one is replaced, found by halving, so that several refused numbers
  /// are each found in turn, and a long list costs a few decodings. `nil` when replacing all of
  /// them does not end the error.
  static func firstNumberRefused(
    in value: JSONValue, at path: String, refuses: (JSONValue) -> Bool
  ) -> (path: String, found: JSONValue)? {
    var numbers: [(path: String, found: JSONValue)] = []
    func collect(_ value: JSONValue, _ path: String) {
      switch value {
      case .number: numbers.append((path, value))
      case .object(let members):
        for key in members.keys.sorted() { collect(members[key] ?? .null, "\(path).\(key)") }
      case .array(let elements):
        for (index, element) in elements.enumerated() { collect(element, "\(path)[\(index)]") }
      default: break
      }
    }
    collect(value, path)
    // `value` with the numbers from the `first`th on (in the order of `numbers`) replaced by 0.
    func zeroed(from first: Int) -> JSONValue {
      var count = 0
      func zeroing(_ value: JSONValue) -> JSONValue {
        switch value {
        case .number:
          count += 1
          return count > first ? .integer(0) : value
        case .object(var members):
          for key in members.keys.sorted() { members[key] = zeroing(members[key] ?? .null) }
          return .object(members)
        case .array(let elements): return .array(elements.map(zeroing))
        default: return value
        }
      }
      return zeroing(value)
    }
    // (An error that the value, decoded again, does not give is not one of its numbers.)
    guard !numbers.isEmpty, refuses(value), !refuses(zeroed(from: 0)) else { return nil }
    // `value` itself (all numbers kept) is refused; `low` numbers kept are not.
    var low = 0
    var high = numbers.count
    while high - low > 1 {
      let middle = (low + high) / 2
      if refuses(zeroed(from: middle)) { high = middle } else { low = middle }
    }
    return numbers[low]
  }

  /// Whether an optional field's text is none, as null is: blank (`LineText.isBlank`: empty,
  /// spaces, or invisible characters such as U+200B only), as a blank CSV cell is empty
  /// (docs/WEFT.md: a date, `weight_category`, `gauge.unit`, a pack's text). WEFT's schemas
  /// refuse no such text but a price's `currency` (`minLength` 3), which `price` refuses as
  /// blank.
  static func isNone(_ text: String?) -> Bool { text.map(LineText.isBlank) ?? true }

  /// A required name, in the words of the name rule of every way in (`Rules.name`: `is
  /// blank`, `holds a tab (U+0009), a control character, …`, `is 201 characters long; …`),
  /// without the spaces around it; `nil` with a problem when it is missing or breaks the rule.
  mutating func name(_ value: String?, _ item: WEFTItem, _ key: String = "name") -> String? {
    guard let value else {
      problem(item.file, "\(item.path).\(key)", "is missing; WEFT requires it")
      return nil
    }
    // Checked whole first (`LineText.checked`), so that a tab is refused, not trimmed.
    switch LineText.checked(value) {
    case .success(let trimmed):
      guard let violation = Rules.name(trimmed) else { return trimmed }
      problem(item.file, "\(item.path).\(key)", violation.reason)
    case .failure:
      problem(item.file, "\(item.path).\(key)", Rules.line(value, field: key)?.reason ?? "is blank")
    }
    return nil
  }

  /// A required text: the value, or `nil` with a problem when it is missing or blank
  /// (`LineText.isBlank`: spaces, or invisible characters such as U+200B only).
  mutating func required(_ value: String?, _ item: WEFTItem, _ key: String) -> String? {
    guard let value, !LineText.isBlank(value) else {
      problem(item.file, "\(item.path).\(key)", value == nil ? "is missing; WEFT requires it" : "is blank")
      return nil
    }
    return value
  }

  /// A one-line text (`LineText.optional`, the rule of `Rules.line`): trimmed, `nil` when
  /// blank (unknown: spaces only, or invisible characters only such as U+200B), or `nil`
  /// with a problem.
  mutating func line(_ value: String?, _ item: WEFTItem, _ key: String, limit: Int = Rules.maximumNameLength)
    -> String?
  {
    guard let value else { return nil }
    switch LineText.optional(value, limit: limit) {
    case .success(let text): return text
    case .failure(let failure):
      problem(
        item.file, "\(item.path).\(key)", Rules.line(value, field: "", limit: limit)?.reason ?? "\(failure)")
      return nil
    }
  }

  /// The tags, each once (`Tags.adding`: case and spaces aside, blank ones dropped); a tag
  /// given again is said not kept.
  mutating func tags(_ given: [String]?, _ item: WEFTItem) -> [String] {
    var kept: [String] = []
    for (index, tag) in (given ?? []).enumerated() {
      // A blank tag (spaces, or invisible characters such as U+2060) is dropped, as
      // `Tags.adding` drops it.
      let blank = LineText.isBlankLine(tag.trimmingSpaces())
      // The rule of tags (`Rules.tags`), each tag at its own index, every bad one said.
      if !blank, let violation = Rules.tags([tag.trimmingSpaces()]) {
        problem(item.file, "\(item.path).tags[\(index)]", "\(violation)")
        continue
      }
      let added = Tags.adding([tag], to: kept)
      if added.count == kept.count, !blank {
        omit(
          item.file, "\(item.path).tags[\(index)]",
          "the tag \(LineText.quoted(tag)) is given before (case aside)")
      }
      kept = added
    }
    return kept
  }

  /// A `YYYY-MM-DD` day; `nil` for none (null, or blank: `isNone`), or `nil` with a problem.
  mutating func day(_ value: String?, _ item: WEFTItem, _ key: String) -> CalendarDate? {
    guard let value, !WEFTPlanner.isNone(value) else { return nil }
    guard let day = CalendarDate(iso8601: value.trimmingSpaces()) else {
      problem(
        item.file, "\(item.path).\(key)",
        "\(LineText.quoted(value)) is not a date (YYYY-MM-DD)"
          + CalendarDate.impossibilityClause(in: value.trimmingSpaces()))
      return nil
    }
    return day
  }

  /// The problems of the model's rules, each at the WEFT field it comes from.
  mutating func rules(_ violations: [RuleViolation], _ item: WEFTItem, fields: [String: String]) {
    for violation in violations {
      // The field itself, else the longest field it begins with (`amount of yarn y-1`).
      let key =
        fields[violation.field]
        ?? fields.filter { violation.field.hasPrefix($0.key) }.max { $0.key.count < $1.key.count }?.value
      let path = key.map { "\(item.path).\($0)" } ?? item.path
      // A field already refused as it was read (a name too long, so left empty) is not
      // refused again for what reading it left (`name is blank`): `problem` keeps one a field.
      problem(item.file, path, "\(violation)")
    }
  }

  /// Whether an ID seen at `path` was seen before (a problem).
  mutating func isRepeated(_ id: String, kind: String, _ item: WEFTItem) -> Bool {
    let key = kind + "\u{0}" + id
    if let earlier = seen[key] {
      problem(item.file, "\(item.path).id", "the \(kind) ID \(id) is also at \(earlier)")
      return true
    }
    seen[key] = "\(item.file) \(item.path)"
    return false
  }

  /// Whether the item gives a field, even as null or empty: `path` is its members' keys
  /// joined by dots, `[]` after a key meaning any element of that array (`packs[].dye_lot`).
  /// A field the item leaves out keeps the library's value (docs/WEFT.md, "What a second
  /// import changes").
  static func gives(_ value: JSONValue, _ path: String) -> Bool {
    var values = [value]
    for part in path.split(separator: ".") {
      let each = part.hasSuffix("[]")
      let key = String(each ? part.dropLast(2) : part)
      values = values.compactMap { value in
        if case .object(let members) = value { return members[key] }
        return nil
      }
      if each {
        values = values.flatMap { value -> [JSONValue] in
          if case .array(let elements) = value { return elements }
          return []
        }
      }
    }
    return !values.isEmpty
  }

  func allLibraryProjects() throws -> [Project] {
    try libraryProjects ?? store.projects()
  }
}

// MARK: Materials

extension WEFTPlanner {
  private mutating func readMaterials() throws {
    var waiting: [StashMatchKey: [YarnDraft]] = [:]
    var keyOrder: [StashMatchKey] = []
    let all = StashCSV.Column.allCases
    for item in materials {
      try Task.checkCancellation()
      // Every field is checked, each bad one listed; an item with a problem is not kept.
      let start = plan.problems.count
      guard let material = decode(WEFT.Material.self, item) else { continue }
      let type = required(material.materialType, item, "material_type")
      if let type, type != "yarn" {
        omit(item.file, item.path, "a \(type) material; yarn keeps yarn only")
        continue
      }
      let id = required(material.id, item, "id")
      let name = self.name(material.name, item)
      let status = required(material.status, item, "status")
      for path in WEFTKept.material.unkept(in: item.value, at: item.path) { omit(item.file, path) }
      let draft = yarnDraft(material, name: name ?? "", status: status, item)
      guard let id, plan.problems.count == start, var draft else { continue }
      if isRepeated(id, kind: "material", item) { continue }
      if StashCSV.isValidImportedID(id) {
        draft.base = try store.yarn(id: id)
        draft.yarn.id = id
        yarnIDs[id] = id
        drafts.append(draft)
      } else {
        // Not an ID yarn keeps: matched as a CSV row without an ID is.
        let key = StashMatchKey(draft.yarn, comparing: Set(all))
        if waiting[key] == nil { keyOrder.append(key) }
        waiting[key, default: []].append(draft)
        yarnIDs[id] = ""
      }
    }
    guard !keyOrder.isEmpty else { return }
    var index: [StashMatchKey: [Yarn]] = [:]
    try store.forEachYarn(includingPhotos: true) { yarn in
      let key = StashMatchKey(yarn, comparing: Set(all))
      if waiting[key] != nil { index[key, default: []].append(yarn) }
    }
    let claimed = Set(drafts.compactMap { $0.base?.id })
    for key in keyOrder {
      let free = index[key, default: []].filter { !claimed.contains($0.id) }
      let outcomes = try StashMatchKey.settle(
        waiting[key, default: []], among: free,
        unchanged: { draft, yarn in
          var read = WEFTPlanner.keepingAbsent(WEFTPlanner.matching(draft, yarn).yarn, yarn, draft.item)
          read.photos = yarn.photos
          read.remainingOverride = yarn.remainingOverride
          return read == yarn ? draft : nil
        })
      for outcome in outcomes {
        switch outcome {
        case .unchanged(let draft, let yarn), .update(let draft, let yarn):
          remember(WEFTPlanner.matching(draft, yarn))
        case .create(var draft):
          draft.yarn.id = Identifier.make()
          remember(draft)
        case .ambiguous(let draft, let drafts, let yarns):
          let words = "by name, brand, colorway and dye lot"
          let hint = "; its id is not one yarn keeps, so it cannot say which"
          guard yarns.count == 1, let yarn = yarns.first else {
            problem(
              draft.item.file, draft.item.path,
              "fits \(yarns.count) yarns of the library \(words) (IDs "
                + yarns.map(\.id).joined(separator: ", ") + ")" + hint)
            continue
          }
          // One yarn for several items: say which items share it.
          let others = drafts.map(\.item).filter { $0.file != draft.item.file || $0.path != draft.item.path }
            .map { $0.file == draft.item.file ? $0.path : "\($0.file) \($0.path)" }
          problem(
            draft.item.file, draft.item.path,
            "fits the yarn “\(LineText.visible(yarn.name))” (ID \(yarn.id)) of the library \(words), as "
              + others.joined(separator: ", ") + (others.count == 1 ? " does" : " do") + " too" + hint)
        }
      }
    }
  }

  /// `draft` as the library yarn it matches by key: that yarn's ID, and its spelling of the
  /// name, brand, colorway and dye lot where the material's differs only in case or spaces
  /// (as `stash import` keeps it).
  private static func matching(_ draft: YarnDraft, _ yarn: Yarn) -> YarnDraft {
    var draft = draft
    draft.base = yarn
    draft.yarn.id = yarn.id
    let fields: [WritableKeyPath<Yarn, String?>] = [\.brand, \.colorway, \.dyeLot]
    for field in fields
    where StashMatchKey.normalized(draft.yarn[keyPath: field] ?? "")
      == StashMatchKey.normalized(yarn[keyPath: field] ?? "")
    {
      draft.yarn[keyPath: field] = yarn[keyPath: field]
    }
    if StashMatchKey.normalized(draft.yarn.name) == StashMatchKey.normalized(yarn.name) {
      draft.yarn.name = yarn.name
    }
    return draft
  }

  private mutating func remember(_ draft: YarnDraft) {
    if case .object(let members) = draft.item.value, case .string(let id)? = members["id"] {
      yarnIDs[id] = draft.yarn.id
    }
    drafts.append(draft)
  }

  /// The yarn a material describes (ID and photos still to settle), or `nil` with problems.
  private mutating func yarnDraft(_ material: WEFT.Material, name: String, status: String?, _ item: WEFTItem)
    -> YarnDraft?
  {
    let before = plan.problems.count
    var fields = WEFTPlanner.yarnFields
    var yarn = Yarn(id: "", name: line(name, item, "name") ?? "")
    if let status {
      if let stashStatus = WEFTTaxonomy.stashStatus(status) {
        yarn.status = stashStatus
      } else {
        problem(
          item.file, "\(item.path).status",
          "\(LineText.quoted(status)) is not a WEFT material status (in-stash, allocated, in-use, used-up, gifted, sold, returned, frogged, other)"
        )
      }
    }
    // yarn's own status where WEFT has none (`will-trade` beside `in-stash`), taken when
    // `status` is the key yarn writes for it; else WEFT's field wins (its profile rule 2), as
    // when an app changed the status and kept yarn's field.
    // A blank field is no field (docs/WEFT.md, conventions: blank is unknown).
    if let own = material.yarn?.stashStatus, !LineText.isBlank(own), let status,
      WEFTTaxonomy.stashStatus(status) != nil
    {
      let path = "\(item.path).yarn.stash_status"
      // Read as every stash status is read (`StashStatus(parsing:)`: `Will Trade` too).
      if let ownStatus = StashStatus(parsing: own) {
        if WEFTTaxonomy.key(of: ownStatus) == status {
          yarn.status = ownStatus
        } else if ownStatus != yarn.status {
          omit(item.file, path, "\(own) does not go with status \(status), which is kept")
        }
      } else {
        omit(item.file, path, "\(LineText.quoted(own)) is not a yarn stash status")
      }
    }
    yarn.storedIn = line(material.location, item, "location")
    yarn.tags = tags(material.tags, item)
    yarn.price = price(material.acquiredPrice, item, "acquired_price")
    for (index, pack) in (material.packs ?? []).enumerated() {
      guard let money = pack.acquiredPrice else { continue }
      let path = "packs[\(index)].acquired_price"
      guard let paid = price(money, item, path) else { continue }
      if yarn.price == nil {
        yarn.price = paid
        fields["price"] = path
      } else if paid != yarn.price {
        omit(item.file, "\(item.path).\(path)", "differs from the price kept; yarn keeps one price")
      }
    }
    yarn.brand = line(material.brand, item, "brand")
    yarn.colorFamily = line(material.colorFamily, item, "color_family")
    yarn.colorway = line(material.colorway, item, "colorway")
    yarn.dyeLot = line(material.dyeLot, item, "dye_lot")
    yarn.purchaseLocation = line(material.acquiredFrom, item, "acquired_from")
    yarn.dateAdded = day(material.acquiredDate, item, "acquired_date")
    let packs = material.packs ?? []
    // The pack fields yarn keeps once: the top level's, else the first pack's; a pack that
    // says otherwise is not kept.
    // With the path of the pack field kept (`packs[0].colorway`) when it is a pack's.
    func fromPacks<T: Equatable>(
      _ top: T?, _ key: String, _ value: (WEFT.Pack) -> String?, _ read: (String?, String) -> T?
    ) -> (T?, [String], String?) {
      var chosen = top
      var chosenPath: String?
      var differing: [String] = []
      for (index, pack) in packs.enumerated() {
        // A blank one is none, as null is (`isNone`): it differs from no value kept.
        guard let text = value(pack), !WEFTPlanner.isNone(text) else { continue }
        let path = "packs[\(index)].\(key)"
        let parsed = read(text, path)
        if chosen == nil {
          chosen = parsed
          if parsed != nil { chosenPath = path }
        } else if parsed != chosen {
          differing.append(path)
        }
      }
      return (chosen, differing, chosenPath)
    }
    var differing: [String] = []
    var packPath: String?
    (yarn.colorway, differing, packPath) = fromPacks(yarn.colorway, "colorway", \.colorway) { text, _ in
      self.lineText(text)
    }
    fields["colorway"] = packPath ?? fields["colorway"]
    for path in differing { omit(item.file, "\(item.path).\(path)", "differs from the colorway kept") }
    (yarn.dyeLot, differing, packPath) = fromPacks(yarn.dyeLot, "dye_lot", \.dyeLot) { text, _ in
      self.lineText(text)
    }
    fields["dye lot"] = packPath ?? fields["dye lot"]
    for path in differing {
      omit(item.file, "\(item.path).\(path)", "differs from the dye lot kept; yarn keeps one dye lot")
    }
    (yarn.purchaseLocation, differing, packPath) = fromPacks(
      yarn.purchaseLocation, "acquired_from", \.acquiredFrom
    ) { text, _ in self.lineText(text) }
    fields["purchase location"] = packPath ?? fields["purchase location"]
    for path in differing {
      omit(item.file, "\(item.path).\(path)", "differs from the purchase location kept")
    }
    (yarn.dateAdded, differing, _) = fromPacks(yarn.dateAdded, "acquired_date", \.acquiredDate) { text, _ in
      text.flatMap { CalendarDate(iso8601: $0.trimmingSpaces()) }
    }
    for path in differing { omit(item.file, "\(item.path).\(path)", "differs from the date added kept") }
    for (index, pack) in packs.enumerated() {
      let packItem = WEFTItem(file: item.file, path: "\(item.path).packs[\(index)]", value: .null)
      _ = line(pack.colorway, packItem, "colorway")
      _ = line(pack.dyeLot, packItem, "dye_lot")
      _ = line(pack.acquiredFrom, packItem, "acquired_from")
      _ = day(pack.acquiredDate, packItem, "acquired_date")
    }
    if let content = material.fiberContent {
      for (index, entry) in content.enumerated() {
        if LineText.isBlankLine((entry.fiber ?? "").trimmingSpaces()) {
          omit(item.file, "\(item.path).fiber_content[\(index)]", "names no fiber")
        }
        if let percentage = entry.percentage, !WEFTImport.fiberPercentages.contains(percentage) {
          let range = WEFTImport.fiberPercentages
          problem(
            item.file, "\(item.path).fiber_content[\(index)].percentage",
            "percentage \(Amount.format(percentage)) is not from \(Amount.format(range.lowerBound)) to \(Amount.format(range.upperBound))"
          )
        }
      }
      yarn.fiber = line(WEFTImport.fiberText(content), item, "fiber_content")
    }
    if let key = material.yarn?.weightCategory, !WEFTPlanner.isNone(key) {
      if let weight = WEFTTaxonomy.weight(key) {
        yarn.weight = weight
        if WEFTTaxonomy.key(of: weight) != key.lowercased() {
          omit(item.file, "\(item.path).yarn.weight_category", "\(key) kept as CYC \(weight.label)")
        }
      } else {
        problem(
          item.file, "\(item.path).yarn.weight_category",
          "\(LineText.quoted(key)) is not a WEFT yarn weight (thread, cobweb, lace, light-fingering, fingering, sport, dk, worsted, aran, bulky, super-bulky, jumbo)"
        )
      }
    }
    // Put-up: the packs' per-unit figures, else the totals of the quantity per unit. Each
    // figure kept is named by its own path in a problem (`packs[1].length_per_unit_meters`).
    let countedKey = material.originalQuantity != nil ? "original_quantity" : "quantity"
    let counted = material.originalQuantity ?? material.quantity
    let length = putUp(
      packs, item, key: "length", { ($0.lengthPerUnitMeters, $0.lengthPerUnitYards) }, (.meter, .yard),
      derived: counted.flatMap {
        perUnit($0, ($0.lengthMeters, "length_meters"), ($0.lengthYards, "length_yards"), (.meter, .yard))
      }.map { ($0.amount, "\(countedKey).\($0.field)") })
    yarn.lengthPerSkein = length?.amount
    fields["length per skein"] = length?.path ?? fields["length per skein"]
    let weight = putUp(
      packs, item, key: "weight", { ($0.weightPerUnitGrams, $0.weightPerUnitOunces) }, (.gram, .ounce),
      derived: counted.flatMap {
        perUnit($0, ($0.weightGrams, "weight_grams"), ($0.weightOunces, "weight_ounces"), (.gram, .ounce))
      }.map { ($0.amount, "\(countedKey).\($0.field)") })
    yarn.netWeightPerSkein = weight?.amount
    fields["net weight per skein"] = weight?.path ?? fields["net weight per skein"]
    var current: Amount?
    if let original = material.originalQuantity {
      let bought = amount(original, item, "original_quantity", field: "quantity", putUp: yarn.putUp)
      yarn.quantity = bought?.amount
      fields["quantity"] = "original_quantity" + (bought.map { ".\($0.field)" } ?? "")
      let left = material.quantity.flatMap {
        amount($0, item, "quantity", field: "remaining", putUp: yarn.putUp)
      }
      current = left?.amount
      fields["remaining"] = "quantity" + (left.map { ".\($0.field)" } ?? "")
    } else if let quantity = material.quantity {
      let given = amount(quantity, item, "quantity", field: "quantity", putUp: yarn.putUp)
      yarn.quantity = given?.amount
      fields["quantity"] = "quantity" + (given.map { ".\($0.field)" } ?? "")
    }
    var checked = yarn
    checked.remainingOverride = current
    rules(checked.ruleViolations(), item, fields: fields)
    guard plan.problems.count == before else { return nil }
    // Blank notes (spaces, or invisible characters such as U+200B only) are none.
    let notes = material.notes.flatMap { LineText.isBlank($0) ? nil : $0 }
    return YarnDraft(
      item: item, yarn: yarn, base: nil, current: current, notes: notes,
      onlyWhatIsLeft: material.originalQuantity == nil && material.quantity != nil,
      remainingSource: remainingSource(material, item), fields: fields)
  }

  /// yarn's own word for who made the figure of `quantity` beside `original_quantity`
  /// (`yarn.remaining_source`: `override`, `estimate`, `incomplete`, `overdrawn`), read as
  /// `yarn.stash_status` is, only where it goes with WEFT's fields: beside an item that gives
  /// no such figure, or that gives one beside `unknown` (yarn writes none then), or when it
  /// is not such a word, it is reported as not kept and the figure is read as one of
  /// another app's.
  private mutating func remainingSource(_ material: WEFT.Material, _ item: WEFTItem) -> String? {
    guard let said = material.yarn?.remainingSource, !LineText.isBlank(said) else { return nil }
    let path = "\(item.path).yarn.remaining_source"
    guard let source = StashCSV.FigureSource(said: said) else {
      omit(
        item.file, path,
        "\(LineText.quoted(said)) is not a remaining source: override, estimate, incomplete, overdrawn, unknown"
      )
      return nil
    }
    if material.originalQuantity == nil || material.quantity == nil {
      omit(
        item.file, path,
        "\(LineText.visible(said)) goes with quantity beside original_quantity, which the item does not give")
      return nil
    }
    if source == .unsaid {
      omit(
        item.file, path,
        "\(LineText.isBlankLine(said) ? LineText.quoted(said) : LineText.visible(said)) does not go with quantity, which is kept"
      )
      return nil
    }
    return said
  }

  /// The WEFT field of each field a yarn's rules name.
  static let yarnFields = [
    "name": "name", "brand": "brand", "colorway": "colorway", "color family": "color_family",
    "dye lot": "dye_lot", "fiber": "fiber_content", "length per skein": "packs",
    "net weight per skein": "packs", "quantity": "quantity", "remaining": "quantity",
    "purchase location": "acquired_from", "price": "acquired_price", "stored in": "location", "tag": "tags",
  ]

  /// `yarn` with the fields its material leaves out as the library's yarn `base` has them: a
  /// field absent from the item keeps the library's value, one present (even empty or null)
  /// replaces it. A put-up is given by a pack's per-unit figure or by a total of a quantity
  /// counted in skeins; a quantity by `quantity` or `original_quantity` (the remaining
  /// amount with it).
  static func keepingAbsent(_ yarn: Yarn, _ base: Yarn, _ item: WEFTItem) -> Yarn {
    var yarn = yarn
    func keep<T>(_ field: WritableKeyPath<Yarn, T>, _ keys: String...) {
      if !keys.contains(where: { WEFTPlanner.gives(item.value, $0) }) {
        yarn[keyPath: field] = base[keyPath: field]
      }
    }
    keep(\.brand, "brand")
    keep(\.colorway, "colorway", "packs[].colorway")
    keep(\.colorFamily, "color_family")
    keep(\.dyeLot, "dye_lot", "packs[].dye_lot")
    keep(\.weight, "yarn.weight_category")
    keep(\.fiber, "fiber_content")
    if yarn.lengthPerSkein == nil {
      keep(\.lengthPerSkein, "packs[].length_per_unit_meters", "packs[].length_per_unit_yards")
    }
    if yarn.netWeightPerSkein == nil {
      keep(\.netWeightPerSkein, "packs[].weight_per_unit_grams", "packs[].weight_per_unit_ounces")
    }
    keep(\.quantity, "quantity", "original_quantity")
    keep(\.remainingOverride, "quantity", "original_quantity")
    keep(\.purchaseLocation, "acquired_from", "packs[].acquired_from")
    keep(\.dateAdded, "acquired_date", "packs[].acquired_date")
    keep(\.price, "acquired_price", "packs[].acquired_price")
    keep(\.storedIn, "location")
    keep(\.tags, "tags")
    return yarn
  }

  /// A WEFT price (`{"amount": 29, "currency": "USD"}`) as yarn's exact price: the amount
  /// in the currency's minor units (ISO 4217 decimals, `Price.decimals(of:)`), or `nil` with
  /// a problem at each part that is wrong: a missing part (`needs both an amount and a
  /// currency`, said only of a part the file does not give), a blank currency (`is blank`)
  /// or one that breaks the rule of prices (`Rules.price`) at `.currency`, an amount with
  /// more decimals than the currency or that breaks the rule at `.amount`. A part of the wrong type was refused as it was
  /// read and left out: the other part is still checked on its own (an amount by
  /// `Rules.priceAmount`), as is an amount beside a currency that breaks the rule.
  private mutating func price(_ money: WEFT.Money?, _ item: WEFTItem, _ key: String) -> Price? {
    guard let money else { return nil }
    func given(_ part: String) -> Bool {
      (WEFTPlanner.member(item.value, at: "\(key).\(part)") ?? .null) != .null
    }
    if (money.amount == nil && !given("amount")) || (money.currency == nil && !given("currency")) {
      problem(item.file, "\(item.path).\(key)", "needs both an amount and a currency")
    }
    // A blank currency is said to be blank, as every required text is (`required`; the
    // schema's `minLength` 3); another breaks the rule when a price of 0 in it does.
    var currency = money.currency.flatMap { required($0, item, "\(key).currency") }
    if let code = currency, let violation = Rules.price(Price(minorUnits: 0, currency: code)) {
      currency = nil
      problem(item.file, "\(item.path).\(key).currency", "\(violation)")
    }
    guard let amount = money.amount else { return nil }
    guard let currency else {
      if let violation = Rules.priceAmount(amount) {
        problem(item.file, "\(item.path).\(key).amount", "\(violation)")
      }
      return nil
    }
    // Out of range first: 1e20 is over the limit, whatever its decimals.
    if let violation = Rules.priceAmount(amount) {
      problem(item.file, "\(item.path).\(key).amount", "\(violation)")
      return nil
    }
    var scale = 1.0
    for _ in 0..<Price.decimals(of: currency) { scale *= 10 }
    let minor = (amount * scale).rounded()
    guard amount.isFinite, abs(minor) < 9e15, abs(minor - amount * scale) <= 1e-6 * max(1, abs(minor)) else {
      problem(
        item.file, "\(item.path).\(key).amount",
        "\(Rules.number(amount)) is not an amount of \(currency) (at most \(Price.decimals(of: currency)) decimals)"
      )
      return nil
    }
    let price = Price(minorUnits: Int64(minor), currency: currency)
    if let violation = Rules.price(price) {
      problem(item.file, "\(item.path).\(key).amount", "\(violation)")
      return nil
    }
    return price
  }

  private func lineText(_ text: String?) -> String? {
    guard let text, case .success(let value) = LineText.optional(text) else { return nil }
    return value
  }

  /// A put-up figure from the packs (the metric one when both are given), checked across
  /// packs; else `derived`. With the path, below the item, of the figure kept
  /// (`packs[0].length_per_unit_meters`).
  private mutating func putUp(
    _ packs: [WEFT.Pack], _ item: WEFTItem, key: String, _ figures: (WEFT.Pack) -> (Double?, Double?),
    _ units: (YarnUnit, YarnUnit), derived: (Amount, String)?
  ) -> (amount: Amount, path: String)? {
    var chosen: (amount: Amount, path: String)?
    for (index, pack) in packs.enumerated() {
      let (metric, imperial) = figures(pack)
      let names =
        key == "length"
        ? ("length_per_unit_meters", "length_per_unit_yards")
        : ("weight_per_unit_grams", "weight_per_unit_ounces")
      let candidates = [(metric, units.0, names.0), (imperial, units.1, names.1)].compactMap {
        value, unit, name in
        value.map { (Amount($0, unit), name) }
      }
      for (amount, name) in candidates {
        let path = "packs[\(index)].\(name)"
        // The figure kept that breaks the rule of put-ups, or any negative figure, is refused
        // at its path, before any comparison with the figure kept.
        if chosen == nil || !(amount.value >= 0),
          let violation = Rules.amount(
            amount, field: key == "length" ? "length per skein" : "net weight per skein",
            dimension: key == "length" ? .length : .mass)
        {
          problem(item.file, "\(item.path).\(path)", "\(violation)")
          continue
        }
        if let kept = chosen?.amount {
          if !WEFTPlanner.agrees(amount, kept, putUp: PutUp()) {
            omit(
              item.file, "\(item.path).\(path)",
              "differs from the put-up kept, \(kept); yarn keeps one put-up")
          }
        } else {
          chosen = (amount, path)
        }
      }
    }
    return chosen ?? derived.map { (amount: $0.0, path: $0.1) }
  }

  /// A total per unit of a quantity counted in skeins: `576 m / 3 skeins` is 192 m; with
  /// the name of the total's field (`length_meters`).
  private func perUnit(
    _ quantity: WEFT.Quantity, _ metric: (Double?, String), _ imperial: (Double?, String),
    _ units: (YarnUnit, YarnUnit)
  ) -> (amount: Amount, field: String)? {
    guard let count = quantity.unitsCount, count > 0, WEFTPlanner.countsSkeins(quantity) else { return nil }
    if let value = metric.0 { return (Amount(value / count, units.0), metric.1) }
    if let value = imperial.0 { return (Amount(value / count, units.1), imperial.1) }
    return nil
  }

  static func countsSkeins(_ quantity: WEFT.Quantity) -> Bool {
    quantity.unitLabel.map { WEFTTaxonomy.putUpUnits.contains($0.trimmingSpaces().lowercased()) } ?? true
  }

  /// Whether two amounts are the same within 1% (or 0.01 of the unit) once converted.
  static func agrees(_ a: Amount, _ b: Amount, putUp: PutUp) -> Bool {
    guard let converted = try? UnitConversion.convert(a, to: b.unit, putUp: putUp) else { return true }
    return abs(converted.value - b.value) <= max(0.01, 0.01 * abs(b.value))
  }

  /// The amount a quantity gives: its count of skeins (or balls, hanks, cakes, cones,
  /// bobbins), else its grams, ounces, meters or yards; every other figure it gives is
  /// checked against it through the put-up (`UnitConversion`), and not kept when it
  /// disagrees.
  private mutating func amount(
    _ quantity: WEFT.Quantity, _ item: WEFTItem, _ key: String, field: String, putUp: PutUp
  ) -> (amount: Amount, field: String)? {
    let path = "\(item.path).\(key)"
    var figures: [(Amount, String)] = []
    if let count = quantity.unitsCount {
      if let label = quantity.unitLabel, let unit = WEFTTaxonomy.unit(label), unit != .skein {
        // unit.yaml's kg, pound, gram, oz, meter and yard
        figures.append((Amount(count, unit), "units_count"))
      } else if WEFTPlanner.countsSkeins(quantity) {
        figures.append((Amount(count, .skein), "units_count"))
      } else {
        omit(item.file, "\(path).units_count", "counts \(quantity.unitLabel ?? "") units; yarn counts skeins")
      }
    }
    let totals: [(Double?, YarnUnit, String)] = [
      (quantity.weightGrams, .gram, "weight_grams"), (quantity.weightOunces, .ounce, "weight_ounces"),
      (quantity.lengthMeters, .meter, "length_meters"), (quantity.lengthYards, .yard, "length_yards"),
    ]
    for (value, unit, name) in totals { if let value { figures.append((Amount(value, unit), name)) } }
    // The figure kept keeps the rule of amounts, and no other is negative (each said at its
    // own path), before any is compared. (Another figure may be over the limit in its unit:
    // the export writes grams beside a quantity in kilograms.)
    var refused = false
    for (index, (figure, name)) in figures.enumerated() where index == 0 || !(figure.value >= 0) {
      if let violation = Rules.amount(figure, field: field) {
        problem(item.file, "\(path).\(name)", "\(violation)")
        refused = true
      }
    }
    guard !refused, let (kept, keptName) = figures.first else { return nil }
    for (other, name) in figures.dropFirst() where !WEFTPlanner.agrees(other, kept, putUp: putUp) {
      omit(item.file, "\(path).\(name)", "\(other) disagrees with \(kept) by the put-up")
    }
    return (kept, keptName)
  }
}

// MARK: Projects

extension WEFTPlanner {
  private mutating func readProjects() throws {
    guard !projects.isEmpty else { return }
    let library = try allLibraryProjects()
    libraryProjects = library
    var byID: [String: Project] = [:]
    for project in library { byID[project.id] = project }
    var namesRead: [String: String] = [:]
    for draft in drafts { namesRead[draft.yarn.id] = draft.yarn.name }
    for item in projects {
      try Task.checkCancellation()
      // Every field is checked, each bad one listed; an item with a problem is not kept.
      let before = plan.problems.count
      guard let weft = decode(WEFT.Project.self, item) else { continue }
      let given = required(weft.id, item, "id")
      let name = self.name(weft.name, item) ?? ""
      let craftKey = required(weft.craft, item, "craft")
      let statusKey = required(weft.status, item, "status")
      if let given, isRepeated(given, kind: "project", item) { continue }
      let id = given ?? ""
      for path in WEFTKept.project.unkept(in: item.value, at: item.path) { omit(item.file, path) }
      var base: Project?
      var projectID = id
      if StashCSV.isValidImportedID(id) {
        base = byID[id]
      } else {
        let key = StashMatchKey.normalized(name)
        let named = library.filter { StashMatchKey.normalized($0.name) == key }
        base = named.count == 1 ? named[0] : nil
        projectID = base?.id ?? Identifier.make()
      }
      var project = Project(id: projectID, name: line(name, item, "name") ?? "")
      project.photos = base?.photos ?? []
      if let craftKey, let (craft, exact) = WEFTTaxonomy.craft(craftKey) {
        // WEFT requires a craft, and the export writes a project without one as other.
        project.craft = craft == .other && base != nil && base?.craft == nil ? nil : craft
        if !exact { omit(item.file, "\(item.path).craft", "\(craftKey) kept as \(craft.rawValue)") }
      } else if let craftKey {
        problem(item.file, "\(item.path).craft", "\(LineText.quoted(craftKey)) is not a WEFT craft")
      }
      if let statusKey, let (status, exact) = WEFTTaxonomy.projectStatus(statusKey) {
        project.status = status
        if !exact { omit(item.file, "\(item.path).status", "\(statusKey) kept as \(status.rawValue)") }
      } else if let statusKey {
        problem(
          item.file, "\(item.path).status",
          "\(LineText.quoted(statusKey)) is not a WEFT project status (planned, in-progress, finished, hibernating, frogged, gifted, other)"
        )
      }
      project.sizeMade = line(weft.sizeMade, item, "size_made")
      project.madeFor = line(weft.madeFor, item, "made_for")
      project.tags = tags(weft.tags, item)
      project.gauge = weft.gauge.flatMap { gauge($0, item) }
      project.needleSizes = needleSizes(weft, item, kept: base?.needleSizes ?? [])
      // Each tool once: one given again is said not kept, as a tag given again is.
      var toolsNamed = Set<String>()
      for (index, ref) in (weft.toolsUsed ?? []).enumerated() {
        let path = "\(item.path).tools_used[\(index)]"
        if let toolID = ref.toolId, !toolsNamed.insert(toolID).inserted {
          omit(item.file, path, "the tool \(toolID) is given before")
          continue
        }
        toolLinks.append((item.file, path, projectID, ref.toolId))
      }
      // Given, even empty or null, it names all the library project's tools, as
      // `materials_used` names all its yarns used.
      if let base, WEFTPlanner.gives(item.value, "tools_used") {
        toolsReplaced[base.id] = (item.file, "\(item.path).tools_used")
      }
      project.started = day(weft.startedAt, item, "started_at")
      project.finished = day(weft.completedAt, item, "completed_at")
      // The pattern's name and URL; its PDF, which WEFT does not carry, stays. (An empty
      // pattern of the library stays empty rather than becoming none.)
      let pattern = Pattern(
        name: line(weft.patternRef?.name, item, "pattern_ref.name"),
        url: line(weft.patternRef?.url, item, "pattern_ref.url", limit: Rules.maximumURLLength),
        pdf: base?.pattern?.pdf)
      project.pattern = pattern == Pattern() && base?.pattern == nil ? nil : pattern
      // A usage that cannot be read leaves the library's project its own usages: the yarn
      // may come later (01-about-weft/README.md, references), and the usages it has are the
      // knitter's record.
      let keepsUsages = base.map { !$0.usages.isEmpty } ?? false
      let kept = keepsUsages ? "; the project's yarns used are left as they are" : ""
      var incomplete = false
      for (index, used) in (weft.materialsUsed ?? []).enumerated() {
        let path = "\(item.path).materials_used[\(index)]"
        // The yarn the usage names, `nil` when it is not there; its amount is checked
        // wherever the yarn is.
        var yarnID: String?
        if let materialID = used.materialId {
          if let mapped = yarnIDs[materialID] {
            yarnID = mapped.isEmpty ? nil : mapped
          } else if StashCSV.isValidImportedID(materialID), try store.yarn(id: materialID) != nil {
            yarnID = materialID
          } else {
            omit(item.file, path, "the material \(materialID) is in neither the files nor the library" + kept)
          }
        } else {
          omit(item.file, path, "names no material_id, so no yarn of the library" + kept)
        }
        if yarnID == nil { incomplete = true }
        // A usage not kept for its yarn is not said again for its amount.
        guard
          let (amount, field) = usageAmount(
            used.quantityUsed, item.file, "\(path).quantity_used", kept, quiet: yarnID == nil)
        else {
          incomplete = true
          continue
        }
        // The rule of amounts, at the field of quantity_used that gave the amount.
        if let violation = Rules.amount(amount, field: "amount used") {
          problem(item.file, "\(path).quantity_used.\(field)", "\(violation)")
          continue
        }
        if let yarnID { project.addUsage(of: yarnID, amount) }
      }
      if let base {
        if incomplete { project.usages = base.usages }
        keepAbsent(&project, base, item)
      }
      let refused = finishedDay(&project, base, weft, item)
      // A finished day the item does not give (the library's, or its updated_at's) that
      // falls before the started day the item gives: the field to fix is started_at.
      let days =
        !WEFTPlanner.gives(item.value, "completed_at") && WEFTPlanner.gives(item.value, "started_at")
        ? "started_at" : "completed_at"
      rules(
        project.ruleViolations().filter { !refused || $0.field != "finished day" }, item,
        fields: [
          "name": "name", "pattern name": "pattern_ref.name", "pattern url": "pattern_ref.url",
          "finished day": days, "amount of yarn": "materials_used", "gauge": "gauge",
          "size made": "size_made", "made for": "made_for", "tag": "tags",
        ])
      // Known even when the project is refused, so that its sessions are checked too.
      if given != nil { projectIDs[id] = project.id }
      guard plan.problems.count == before else { continue }
      // Blank notes (spaces, or invisible characters such as U+200B only) are none.
      let notes = [("notes", weft.notes), ("private_notes", weft.privateNotes)].compactMap { key, text in
        text.flatMap { LineText.isBlank($0) ? nil : (key, $0) }
      }
      plannedProjects.append((item, project, base, notes))
      if let base, base == project {
        plan.projectsUnchanged += 1
      } else if let base {
        // The yarns used by name: as this import leaves them (a yarn of the files by its
        // material's name), else as the library has them.
        var yarnNames: [String: String] = [:]
        for id in (base.usages + project.usages).map(\.yarnID) where yarnNames[id] == nil {
          yarnNames[id] = try namesRead[id] ?? store.yarnName(id: id)
        }
        plan.projectUpdates.append(project)
        plan.changes.append(
          WEFTImport.Change(
            file: item.file, path: item.path, kind: "project", id: project.id, name: project.name,
            changes: WEFTPlanner.projectChanges(from: base, to: project, yarnNames: yarnNames)))
      } else {
        plan.projectCreates.append(project)
      }
      try addNotes(notes, subject: .project(project.id), isNew: base == nil, item)
    }
  }

  /// The project's fields the item leaves out, as the library's project has them: a field
  /// absent from the item keeps the library's value, one present (even empty or null)
  /// replaces it. (The usages are settled by the caller, the finished day by `finishedDay`.)
  private func keepAbsent(_ project: inout Project, _ base: Project, _ item: WEFTItem) {
    func keep<T>(_ field: WritableKeyPath<Project, T>, _ keys: String...) {
      if !keys.contains(where: { WEFTPlanner.gives(item.value, $0) }) {
        project[keyPath: field] = base[keyPath: field]
      }
    }
    keep(\.pattern, "pattern_ref")
    keep(\.started, "started_at")
    keep(\.usages, "materials_used")
    keep(\.gauge, "gauge")
    keep(\.sizeMade, "size_made")
    keep(\.madeFor, "made_for")
    keep(\.tags, "tags")
    keep(\.needleSizes, "ext.knitting.needle_sizes_mm", "ext.crochet.hook_sizes_mm")
  }

  /// The finished day: `completed_at`; else, for a finished or frogged project, the library
  /// project's own finished day; else, for a finished one (which the rules say always has
  /// one), the day of the item's `updated_at` as written, said in a warning; else a problem
  /// asking for `completed_at` (and `true`). A project neither finished nor frogged keeps
  /// none.
  private mutating func finishedDay(
    _ project: inout Project, _ base: Project?, _ weft: WEFT.Project, _ item: WEFTItem
  ) -> Bool {
    let ends = [ProjectStatus.finished, .frogged].contains(project.status)
    if project.finished != nil, !ends {
      omit(item.file, "\(item.path).completed_at", "only a finished or frogged project keeps a finished day")
      project.finished = nil
    }
    guard ends, project.finished == nil, WEFTPlanner.isNone(weft.completedAt) else { return false }
    if let own = base?.finished, !WEFTPlanner.gives(item.value, "completed_at") {
      project.finished = own
      return false
    }
    guard project.status == .finished else { return false }
    if let updated = weft.updatedAt, let updatedDay = CalendarDate(iso8601: String(updated.prefix(10))) {
      project.finished = updatedDay
      plan.warnings.append(
        WEFTImport.Problem(
          file: item.file, path: "\(item.path).completed_at",
          reason: "is missing; the finished day kept is the day of updated_at, \(updatedDay.iso8601)"))
      return false
    }
    problem(
      item.file, "\(item.path).completed_at",
      "is missing; a finished project has a finished day: give completed_at (YYYY-MM-DD) or updated_at")
    return true
  }

  /// A WEFT gauge as yarn's: stitches (and rows) over the length of `unit` (`10cm`, `4in`,
  /// `4 in`, `1 inch`), else over `gauge_divisor` inches; `nil`, said, without stitches or a
  /// length. Every figure given is checked, each at its path (`gauge.stitches_per_unit`,
  /// `gauge.rows_per_unit`, and `gauge.unit` or `gauge.gauge_divisor`, which gave the
  /// length), though another is missing, unreadable or of the wrong type (docs/WEFT.md:
  /// every problem of an item is listed).
  private mutating func gauge(_ gauge: WEFT.Gauge, _ item: WEFTItem) -> Gauge? {
    var length: (value: Double, unit: GaugeUnit, key: String)?
    var unreadable = false
    if let text = gauge.unit, !WEFTPlanner.isNone(text) {
      let compact = text.lowercased().filter { !$0.isWhitespace }
      let units: [(String, GaugeUnit)] = [
        ("inches", .inch), ("inch", .inch), ("in", .inch), ("\"", .inch), ("cm", .centimeter),
      ]
      for (suffix, unit) in units where compact.hasSuffix(suffix) {
        if let value = Double(compact.dropLast(suffix.count)) {
          length = (value, unit, "unit")
          break
        }
      }
      if length == nil, gauge.gaugeDivisor == nil {
        problem(
          item.file, "\(item.path).gauge.unit",
          "\(LineText.quoted(text)) is not a length of fabric (such as 10cm or 4in)")
        unreadable = true
      }
    }
    if length == nil, let inches = gauge.gaugeDivisor { length = (Double(inches), .inch, "gauge_divisor") }
    // Each figure alone beside figures that keep the rule (1), so each is said at its field.
    let unit = length?.unit ?? .inch
    var parts: [(Gauge, String)] = []
    if let stitches = gauge.stitchesPerUnit {
      parts.append((Gauge(stitches: stitches, length: 1, unit: unit), "stitches_per_unit"))
    }
    if let rows = gauge.rowsPerUnit {
      parts.append((Gauge(stitches: 1, rows: rows, length: 1, unit: unit), "rows_per_unit"))
    }
    if let length { parts.append((Gauge(stitches: 1, length: length.value, unit: unit), length.key)) }
    var kept = !unreadable
    for (part, key) in parts {
      if let violation = Rules.gauge(part) {
        problem(item.file, "\(item.path).gauge.\(key)", "\(violation)")
        kept = false
      }
    }
    guard let stitches = gauge.stitchesPerUnit else {
      // One of the wrong type is said already (`decode`).
      if !WEFTPlanner.gives(item.value, "gauge.stitches_per_unit") {
        omit(item.file, "\(item.path).gauge", "no stitches_per_unit; yarn keeps a gauge by its stitches")
      }
      return nil
    }
    guard let length else {
      omit(item.file, "\(item.path).gauge", "no unit or gauge_divisor; yarn keeps a gauge over a length")
      return nil
    }
    guard kept else { return nil }
    return Gauge(stitches: stitches, rows: gauge.rowsPerUnit, length: length.value, unit: length.unit)
  }

  /// The amount of a quantity used: `value` in `unit` (`unit.yaml` keys and symbols: skein
  /// and the put-up words, gram, kg, oz, pound, meter, yard), else `weight_grams`, else
  /// `length_meters`. `quiet`: what cannot be read is not said (the usage is already said
  /// not kept).
  private mutating func usageAmount(
    _ used: WEFT.QuantityUsed?, _ file: String, _ path: String, _ kept: String = "", quiet: Bool = false
  ) -> (amount: Amount, field: String)? {
    guard let used else {
      if !quiet { omit(file, path, "no quantity_used; yarn records a usage with its amount" + kept) }
      return nil
    }
    if let value = used.value {
      if let unit = used.unit, let yarnUnit = WEFTTaxonomy.unit(unit) {
        return (Amount(value, yarnUnit), "value")
      }
      if !quiet {
        omit(
          file, "\(path).value",
          "\(used.unit.map { "the unit \(LineText.quoted($0)) is not one yarn reads" } ?? "no unit")")
      }
    }
    if let grams = used.weightGrams { return (Amount(grams, .gram), "weight_grams") }
    if let meters = used.lengthMeters { return (Amount(meters, .meter), "length_meters") }
    if !quiet { omit(file, path, "no amount yarn reads" + kept) }
    return nil
  }

  /// Names each of `ids` for the list of a change: by its name in `names` (the ID where it
  /// has none); a name two of `ids` share is followed by the first 8 characters of each
  /// one's ID, as tables show IDs, or by the whole ID when those are shared too.
  static func naming(among ids: [String], names: [String: String]) -> (String) -> String {
    { id in
      let name = names[id] ?? id
      let namesakes = ids.filter { $0 != id && (names[$0] ?? $0) == name }
      guard !namesakes.isEmpty else { return name }
      let short = String(id.prefix(8))
      return "\(name) (\(namesakes.contains { $0.hasPrefix(short) } ? id : short))"
    }
  }

  /// The fields of a project an update changes, each `Name old → new`. The yarns used are
  /// named by `yarnNames` (`naming`).
  static func projectChanges(from old: Project, to new: Project, yarnNames: [String: String]) -> [String] {
    let named = naming(among: (old.usages + new.usages).map(\.yarnID), names: yarnNames)
    let fields: [(String, (Project) -> String?)] = [
      ("Name", { $0.name }), ("Craft", { $0.craft?.rawValue }), ("Status", { $0.status.rawValue }),
      ("Started", { $0.started?.iso8601 }), ("Finished", { $0.finished?.iso8601 }),
      ("Pattern", { $0.pattern?.name }), ("Pattern URL", { $0.pattern?.url }),
      ("Gauge", { $0.gauge?.description }), ("Size made", { $0.sizeMade }), ("Made for", { $0.madeFor }),
      ("Tags", { $0.tags.isEmpty ? nil : Tags.cell($0.tags) }),
      ("Needle sizes", { $0.needleSizes.map { $0.map(\.description).joined(separator: ", ") } }),
      (
        "Yarns used",
        {
          $0.usages.isEmpty
            ? nil : $0.usages.map { "\($0.amount) of \(named($0.yarnID))" }.joined(separator: ", ")
        }
      ),
    ]
    return fields.compactMap { name, text in
      text(old) == text(new) ? nil : StashCSV.FieldChange.text(name, old: text(old), new: text(new))
    }
  }

  /// `text` as notes within the length rule of a note's text (`Rules.maximumNoteLength`
  /// characters, and 4 Unicode scalars for each: `LineText.lengthProblem(of:limit:)`): a
  /// WEFT item has one `notes` text, and yarn's export joins an item's notes with a blank
  /// line, so a longer text is cut at blank lines (each piece as long as it can be), and a
  /// paragraph longer than the limit where the limit falls (between two Characters). Pieces
  /// that are only blank are dropped.
  static func notePieces(_ text: String) -> [String] {
    let limit = Rules.maximumNoteLength
    guard LineText.lengthProblem(of: text, limit: limit) != nil else { return [text] }
    // A length as the rule measures it: Characters and Unicode scalars.
    typealias Size = (characters: Int, scalars: Int)
    func fits(_ size: Size) -> Bool {
      size.characters <= limit && size.scalars <= limit * LineText.scalarsPerCharacter
    }
    var pieces: [String] = []
    var current = ""
    var size: Size = (0, 0)
    for paragraph in text.components(separatedBy: "\n\n") {
      var rest = Substring(paragraph)
      var restSize: Size = (rest.count, rest.unicodeScalars.count)
      // A paragraph over the limit alone: cut where the limit falls.
      while !fits(restSize) {
        if size.characters > 0 { pieces.append(current) }
        current = ""
        size = (0, 0)
        var end = rest.startIndex
        var taken: Size = (0, 0)
        for character in rest {
          let next: Size = (taken.characters + 1, taken.scalars + character.unicodeScalars.count)
          // One Character over the limit alone is a piece of its own, which the rule refuses.
          guard fits(next) || taken.characters == 0 else { break }
          taken = next
          end = rest.index(after: end)
        }
        pieces.append(String(rest[..<end]))
        rest = rest[end...]
        restSize = (restSize.characters - taken.characters, restSize.scalars - taken.scalars)
      }
      if size.characters > 0,
        !fits((size.characters + 2 + restSize.characters, size.scalars + 2 + restSize.scalars))
      {
        pieces.append(current)
        current = ""
        size = (0, 0)
      }
      let gap = size.characters > 0 ? 2 : 0
      current += (gap > 0 ? "\n\n" : "") + rest
      size = (size.characters + gap + restSize.characters, size.scalars + gap + restSize.scalars)
    }
    if size.characters > 0 { pieces.append(current) }
    return pieces.filter { !LineText.isBlank($0) }
  }

  /// Adds the notes of a new item, each text by the key of its field (`notes`,
  /// `private_notes`); for an existing one, warns when they differ from its own.
  private mutating func addNotes(
    _ texts: [(key: String, text: String)], subject: Note.Subject, isNew: Bool, _ item: WEFTItem
  ) throws {
    guard !texts.isEmpty else { return }
    if isNew {
      for (key, whole) in texts {
        for text in Self.notePieces(whole) {
          if let violation = Rules.noteText(text, field: key) {
            problem(item.file, "\(item.path).\(key)", violation.reason)
          }
          plan.notes.append(Note(id: Identifier.make(), subject: subject, text: text, created: now))
        }
      }
    } else {
      let own = try store.notes(about: subject).map(\.text)
      if own.joined(separator: "\n\n") != texts.map(\.text).joined(separator: "\n\n") {
        plan.warnings.append(
          WEFTImport.Problem(
            file: item.file, path: "\(item.path).notes",
            reason: "differs from the notes of the library's item; import adds no notes to an existing item"))
      }
    }
  }
}

// MARK: Progress and yarns

extension WEFTPlanner {
  private mutating func readProgress() throws {
    var added: [(session: TimeSession, file: String, path: String)] = []
    for item in progress {
      try Task.checkCancellation()
      guard let state = decode(WEFT.Progress.self, item) else { continue }
      guard let id = required(state.id, item, "id"),
        let weftProject = required(state.projectId, item, "project_id")
      else { continue }
      // A progress given twice (two exports of one library) would add its sessions twice
      // where overlaps are allowed: refused, as a material or project given twice is.
      if isRepeated(id, kind: "progress", item) { continue }
      for path in WEFTKept.progress.unkept(in: item.value, at: item.path) { omit(item.file, path) }
      let sessions = state.timer?.sessions ?? []
      let sum = sessions.reduce(Int64(0)) { $0 &+ max(0, $1.durationSeconds ?? 0) }
      if let total = state.timer?.totalSeconds, total != sum {
        omit(
          item.file, "\(item.path).timer.total_seconds",
          "total_seconds \(total) differs from the sessions' \(sum) s; yarn keeps the sessions")
      }
      guard !sessions.isEmpty else { continue }
      let projectID: String
      if let mapped = projectIDs[weftProject] {
        projectID = mapped
      } else if StashCSV.isValidImportedID(weftProject), try store.project(id: weftProject) != nil {
        projectID = weftProject
      } else {
        omit(
          item.file, "\(item.path).timer",
          "the project \(weftProject) is in neither the files nor the library, so its sessions have no project"
        )
        continue
      }
      let recorded = Set(
        try store.sessions(projectID: projectID).compactMap { session in
          session.end.map { "\(WEFTPlanner.seconds(session.start)) \(WEFTPlanner.seconds($0))" }
        })
      for (index, timed) in sessions.enumerated() {
        let path = "\(item.path).timer.sessions[\(index)]"
        guard let startText = timed.startedAt, !WEFTPlanner.isNone(startText) else {
          problem(
            item.file, "\(path).started_at",
            "is \(timed.startedAt == nil ? "missing" : "blank"); a timer session has one")
          continue
        }
        guard let start = TimeInput.absoluteInstant(startText) else {
          problem(
            item.file, "\(path).started_at",
            "\(LineText.quoted(startText)) is not a date and time (ISO 8601 with a zone)"
              + CalendarDate.impossibilityClause(in: startText.trimmingSpaces()))
          continue
        }
        guard let duration = timed.durationSeconds else {
          problem(item.file, "\(path).duration_seconds", "is missing; a timer session has one")
          continue
        }
        guard duration > 0, duration <= Rules.maximumSessionSeconds else {
          let violation =
            duration <= 0
            ? "\(duration) is not a length; a session lasts at least a second"
            : Rules.length(duration)?.reason ?? ""
          problem(item.file, "\(path).duration_seconds", violation)
          continue
        }
        let session = TimeSession(
          id: Identifier.make(), projectID: projectID, start: start,
          end: Date(timeIntervalSince1970: start.timeIntervalSince1970.rounded(.down) + Double(duration)))
        if let violation = session.ruleViolations(now: now).first {
          problem(item.file, path, "\(violation)")
          continue
        }
        if recorded.contains(
          "\(WEFTPlanner.seconds(session.start)) \(WEFTPlanner.seconds(session.end ?? start))")
        {
          plan.sessionsUnchanged += 1
          continue
        }
        // The rule of `time add`: no session shares time with another, unless allowed.
        if !allowOverlap,
          let other = try store.sessions(from: session.start, to: session.end).first(where: {
            session.overlaps($0, now: now)
          })
        {
          let name = try store.projectName(id: other.projectID) ?? other.projectID
          problem(
            item.file, path,
            "it "
              + TimeError.overlapping(
                other, projectName: name, instant: JSONCoding.formatInstant, id: Rules.shown(id: other.id)))
          continue
        }
        added.append((session, item.file, path))
      }
    }
    // No two sessions of the files share time: by start, each against the one reaching
    // furthest before it (O(n log n) for the 30,000 sessions of a large library).
    var reaching: (session: TimeSession, file: String, path: String)?
    var kept: [TimeSession] = []
    for (session, file, path) in added.sorted(by: { $0.session.start < $1.session.start }) {
      if !allowOverlap, let other = reaching, session.overlaps(other.session, now: now) {
        // Named as a session of the library is: its times, and where it is in the files.
        let end = other.session.end.map { " to \(JSONCoding.formatInstant($0))" } ?? ""
        problem(
          file, path,
          "it overlaps the session from \(JSONCoding.formatInstant(other.session.start))\(end) at "
            + "\(LineText.visible(other.file)) \(other.path)")
        continue
      }
      kept.append(session)
      if (session.end ?? session.start) > (reaching?.session.end ?? .distantPast) {
        reaching = (session, file, path)
      }
    }
    let order = Dictionary(uniqueKeysWithValues: added.enumerated().map { ($1.session.id, $0) })
    plan.sessionCreates = kept.sorted { (order[$0.id] ?? 0) < (order[$1.id] ?? 0) }
  }

  static func seconds(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) }

  /// Settles each yarn: its remaining override (the material's `quantity` when it gives
  /// `original_quantity` too, read by `StashCSV.remaining`, the rule of a Remaining cell, told
  /// who made it by `yarn.remaining_source` as by Remaining Source, else unsaid: another app's
  /// figure is the override where it is not the estimate), then added, updated or unchanged.
  private mutating func settleYarns() throws {
    guard !drafts.isEmpty else { return }
    var counted: [String: [RemainingEstimate.CountedUsage]] = [:]
    var active: [String: [RemainingEstimate.CountedUsage]] = [:]
    if drafts.contains(where: { $0.current != nil }) {
      var planned: [String: Project] = [:]
      for entry in plannedProjects { planned[entry.project.id] = entry.project }
      var all = try allLibraryProjects().map { planned.removeValue(forKey: $0.id) ?? $0 }
      all += plannedProjects.map(\.project).filter { planned[$0.id] != nil }
      for project in all {
        for usage in project.usages {
          let use = RemainingEstimate.CountedUsage(projectID: project.id, amount: usage.amount)
          if project.status.countsAgainstStash() { counted[usage.yarnID, default: []].append(use) }
          if project.status.countsAgainstStash(includeActive: true) {
            active[usage.yarnID, default: []].append(use)
          }
        }
      }
    }
    for draft in drafts {
      try Task.checkCancellation()
      var yarn = draft.yarn
      yarn.photos = draft.base?.photos ?? []
      if let base = draft.base {
        yarn = WEFTPlanner.keepingAbsent(yarn, base, draft.item)
      }
      // The rule of a CSV Remaining cell, told who made the figure by yarn's own
      // `yarn.remaining_source` (as by Remaining Source); base WEFT does not say.
      if let current = draft.current {
        let usages = StashCSV.CountedUsages(finished: counted[yarn.id] ?? [], active: active[yarn.id] ?? [])
        let said = draft.remainingSource ?? ""
        let path = "\(draft.item.path).quantity"
        let source = StashCSV.FigureSource(said: said) ?? .unsaid
        switch StashCSV.remaining(current, source: source, yarn: yarn, base: draft.base, usages: usages) {
        case .override(let override): yarn.remainingOverride = override
        case .estimate: yarn.remainingOverride = nil
        case .ignoredEstimate:
          yarn.remainingOverride = nil
          plan.warnings.append(
            WEFTImport.Problem(
              file: draft.item.file, path: path,
              reason: StashCSV.ignoredEstimate(
                current, field: "yarn.remaining_source", said: said, yarn: yarn, usages: usages)))
        }
        // An override set on a new yarn is said, as an update's is among its changes.
        if draft.base == nil, let override = yarn.remainingOverride {
          var plain = yarn
          plain.remainingOverride = nil
          let estimate = usages.remaining(of: plain).remaining
          plan.remainingOverrides.append(
            WEFTImport.Problem(
              file: draft.item.file, path: path,
              reason: StashCSV.taken(
                override, of: yarn.name, estimate: estimate,
                isSameAsEstimate: StashCSV.isSame(override, as: estimate, putUp: yarn.putUp),
                field: "yarn.remaining_source")))
        }
      }
      // A library yarn with an override and no quantity exports its override as the
      // quantity alone: read back so, it is that yarn as it is.
      // A pack's weight per unit is in grams or ounces: a put-up the library keeps in
      // kilograms or pounds stays so when it is the same weight.
      if let own = draft.base?.netWeightPerSkein, let read = yarn.netWeightPerSkein, own.unit != read.unit,
        let converted = try? UnitConversion.convert(read, to: own.unit),
        abs(converted.value - own.value) <= 1e-9 * max(1, abs(own.value))
      {
        yarn.netWeightPerSkein = own
      }
      if let base = draft.base, draft.onlyWhatIsLeft, base.quantity == nil, let own = base.remainingOverride,
        let left = yarn.quantity, StashCSV.isSame(left, as: own, putUp: yarn.putUp)
      {
        yarn.quantity = nil
        yarn.remainingOverride = own
      }
      if draft.base != nil {
        // The library's values kept may not sit with the item's (a quantity in skeins kept
        // beside a remaining amount given in grams without a put-up).
        let before = plan.problems.count
        rules(yarn.ruleViolations(), draft.item, fields: draft.fields)
        guard plan.problems.count == before else { continue }
      }
      if let base = draft.base {
        if base == yarn {
          plan.yarnsUnchanged += 1
        } else {
          plan.yarnUpdates.append(yarn)
          plan.changes.append(
            WEFTImport.Change(
              file: draft.item.file, path: draft.item.path, kind: "yarn", id: yarn.id, name: yarn.name,
              changes: StashCSV.changes(from: base, to: yarn).map(\.description)))
        }
      } else {
        plan.yarnCreates.append(yarn)
      }
      try addNotes(
        draft.notes.map { [("notes", $0)] } ?? [], subject: .yarn(yarn.id), isNew: draft.base == nil,
        draft.item)
    }
  }
}
