/// What kind of needle or hook a tool is. The raw value is the token in JSON and SQLite; the
/// needle kinds are WEFT's `tool_type` words for needles (05-tool/tool.schema.json), so a tool
/// maps to WEFT as `category` `needle` with that `tool_type`, and a hook as `category` `hook`
/// (`tool_type` `standard`).
public enum ToolKind: String, Codable, CaseIterable, Hashable, Sendable {
  /// Straight needles (a pair), `straight`.
  case straight
  /// A circular needle: two tips joined by a fixed cable, `circular`.
  case circular
  /// Double-pointed needles (a set), `dpn`.
  case dpn
  /// Interchangeable tips, screwed onto a cable, `interchangeable`.
  case interchangeable
  /// A cable for interchangeable tips, `cable`: it has no size.
  case cable
  /// A crochet hook, `hook`.
  case hook

  /// Whether it is a crochet hook (its size is shown with the hook names) rather than a
  /// knitting needle (shown with the US needle size).
  public var isHook: Bool { self == .hook }

  /// The kind in words: `straight needles`, `circular needle`, `double-pointed needles`,
  /// `interchangeable tips`, `cable`, `crochet hook`.
  public var words: String {
    switch self {
    case .straight: "straight needles"
    case .circular: "circular needle"
    case .dpn: "double-pointed needles"
    case .interchangeable: "interchangeable tips"
    case .cable: "cable"
    case .hook: "crochet hook"
    }
  }

  /// Reads the raw value and common words, in any case, spaces around ignored: `straight`,
  /// `straights`; `circular`, `circ`, `circulars`; `dpn`, `dpns`, `dp`, `double-pointed`,
  /// `double pointed`; `interchangeable`, `tips`, `interchangeable tips`; `cable`,
  /// `cables`; `hook`, `crochet hook`. `nil` for anything else.
  public init?(parsing text: String) {
    switch text.lowercased().trimmingSpaces().replacing("_", with: " ").replacing("-", with: " ") {
    case "straight", "straights": self = .straight
    case "circular", "circulars", "circ", "circs": self = .circular
    case "dpn", "dpns", "dp", "double pointed": self = .dpn
    case "interchangeable", "interchangeables", "tips", "interchangeable tips": self = .interchangeable
    case "cable", "cables": self = .cable
    case "hook", "hooks", "crochet hook": self = .hook
    default: return nil
    }
  }

  /// The words `init(parsing:)` reads, for error messages.
  package static let acceptedWords = "straight, circular, dpn, interchangeable, cable, hook"
}

/// A knitting needle (or a set of them) or a crochet hook in the tool inventory.
public struct Tool: Codable, Hashable, Sendable, Identifiable {
  /// A stable identifier, a lower-case UUID unless imported from elsewhere.
  public var id: String
  /// What people call it, such as `ChiaoGoo Red Lace 80 cm`.
  public var name: String
  /// Its kind.
  public var kind: ToolKind
  /// Its size in millimetres (`NeedleSize`); `nil` only for a cable, which has none.
  public var size: NeedleSize?
  /// Its length in centimetres: of a straight or double-pointed needle, a tip or a hook,
  /// tip to tip; of a circular needle, tip to tip with the cable (WEFT's `length_cm`); of a
  /// cable, the circular it makes. `nil` when unknown.
  public var lengthCentimetres: Double?
  /// What it is made of (`bamboo`, `metal`, `wood`, `plastic`, `carbon`, …), as given.
  public var material: String?
  /// How many of it there are (needles in a set count as one): at least 1.
  public var count: Int
  /// The IDs of the projects it is in (WEFT's `project_assignments`); read from the store,
  /// in the order the projects were created.
  public var projectIDs: [String]

  /// A tool; all but its ID, name and kind may be left out (one of it, in no project).
  public init(
    id: String, name: String, kind: ToolKind, size: NeedleSize? = nil,
    lengthCentimetres: Double? = nil, material: String? = nil, count: Int = 1,
    projectIDs: [String] = []
  ) {
    self.id = id
    self.name = name
    self.kind = kind
    self.size = size
    self.lengthCentimetres = lengthCentimetres
    self.material = material
    self.count = count
    self.projectIDs = projectIDs
  }

  /// The size as people read it: `5 mm (US 8)` for a needle, `5 mm (H-8)` for a hook,
  /// `4.2 mm` between the tables' rows; `nil` without a size.
  public var sizeText: String? { size?.text(kind.isHook ? .hook : .needle) }
}

extension NeedleSize: Codable {
  /// Decodes a number of millimetres, refusing one that is not more than 0 or over
  /// `maximumMillimetres`.
  ///
  /// - Throws: `DecodingError` for a value that is not a number, or not a needle size.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let value = try container.decode(Double.self)
    guard let size = NeedleSize(millimetres: value) else {
      throw DecodingError.dataCorruptedError(
        in: container,
        debugDescription: "\(Rules.number(value)) mm is not a needle size: more than 0 and at most 100 mm")
    }
    self = size
  }

  /// Encodes the millimetres as a number.
  ///
  /// - Throws: what the encoder's container throws (nothing for JSON).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(millimetres)
  }
}

extension Rules {
  /// The longest tool length accepted, 1000 cm (the schema's CHECK).
  public static let maximumToolLengthCentimetres = 1000.0

  /// A tool's length: more than 0 and at most `maximumToolLengthCentimetres`, when known.
  public static func toolLength(_ centimetres: Double?) -> RuleViolation? {
    guard let centimetres else { return nil }
    guard centimetres.isFinite, centimetres > 0 else {
      return RuleViolation(field: "length", reason: "\(number(centimetres)) cm is not more than 0")
    }
    guard centimetres <= maximumToolLengthCentimetres else {
      return RuleViolation(
        field: "length",
        reason: "\(number(centimetres)) cm is over \(Int(maximumToolLengthCentimetres)) cm")
    }
    return nil
  }

  /// A project's tools as given (`project add --tool`): each once, as its needle sizes are
  /// (`repeatedNeedleSize`). The index of the first tool given again and its violation:
  /// `the tool “Red Lace” is given twice; a project lists each tool once`, or, for tools
  /// being taken out of a project (`removing`, `--remove-tool`), `…; name each tool to remove
  /// once`.
  public static func repeatedTool(_ tools: [Tool], field: String = "tool", removing: Bool = false) -> (
    index: Int, violation: RuleViolation
  )? {
    var seen = Set<String>()
    for (index, tool) in tools.enumerated() where !seen.insert(tool.id).inserted {
      return (index, toolGivenTwice(LineText.visible(tool.name), field: field, removing: removing))
    }
    return nil
  }

  /// `repeatedTool` said of the words that name tools, before they are looked up: the index
  /// of the first reference whose words an earlier one has (`Lookup.key`: case and the spaces
  /// around them aside), that earlier one's, and the violation in `repeatedTool`'s words, of
  /// the words: `the tool “Nope” is given twice; a project lists each tool once`. So a tool
  /// that is not there, named twice, is refused as one that is (`yarn project edit
  /// --remove-tool Nope --remove-tool Nope`).
  package static func repeatedToolReference(
    _ references: [String], field: String = "tool", removing: Bool = false
  ) -> (
    index: Int, first: Int, violation: RuleViolation
  )? {
    var seen: [String: Int] = [:]
    for (index, reference) in references.enumerated() {
      let key = Lookup.key(reference)
      if let first = seen[key] {
        return (
          index, first,
          toolGivenTwice(LineText.shown(reference.trimmingSpaces()), field: field, removing: removing)
        )
      }
      seen[key] = index
    }
    return nil
  }

  /// The words of a tool given twice, `shown` its name as a message shows it: to be listed
  /// by a project, or to be taken out of one (`removing`).
  private static func toolGivenTwice(_ shown: String, field: String, removing: Bool) -> RuleViolation {
    RuleViolation(
      field: field,
      reason: "the tool “\(shown)” is given twice; "
        + (removing ? "name each tool to remove once" : "a project lists each tool once"))
  }
}

extension Tool {
  /// The rule a cable given a size breaks (`ruleViolations()`): `size is given; a cable has no
  /// size`, so that the CLI tells it from a missing size without reading its words.
  package static let cableGivenSize = RuleViolation(field: "size", reason: "is given; a cable has no size")

  /// Every rule (`Rules`) the tool breaks, in field order; empty for a valid tool: a name;
  /// a size unless it is a cable, and none for a cable; a length above 0 and at most 1000 cm; a material on one
  /// line; a count of at least 1; each project once.
  public func ruleViolations() -> [RuleViolation] {
    var out = [
      Rules.name(name),
      size == nil && kind != .cable
        ? RuleViolation(field: "size", reason: "is missing; only a cable has no size") : nil,
      size != nil && kind == .cable ? Tool.cableGivenSize : nil,
      Rules.toolLength(lengthCentimetres),
      Rules.optionalLine(material, field: "material"),
      count >= 1 ? nil : RuleViolation(field: "count", reason: "\(count) is not at least 1"),
    ].compactMap { $0 }
    if Set(projectIDs).count != projectIDs.count {
      out.append(RuleViolation(field: "projects", reason: "name a project more than once"))
    }
    return out
  }
}
