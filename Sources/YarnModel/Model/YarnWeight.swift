#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A yarn weight category of the Craft Yarn Council's Standard Yarn Weight System
/// (CYC, "Standard Yarn Weight System", craftyarncouncil.com/standards/yarn-weight-system).
///
/// The raw value is the category number, 0 (Lace) to 7 (Jumbo).
public enum YarnWeight: Int, Codable, CaseIterable, Hashable, Sendable, Comparable {
  /// 0 Lace: fingering 10-count crochet thread, cobweb, light fingering.
  case lace = 0
  /// 1 Super Fine: sock, fingering, baby.
  case superFine = 1
  /// 2 Fine: sport, baby.
  case fine = 2
  /// 3 Light: DK, light worsted.
  case light = 3
  /// 4 Medium: worsted, afghan, aran.
  case medium = 4
  /// 5 Bulky: chunky, craft, rug.
  case bulky = 5
  /// 6 Super Bulky: super bulky, super chunky, roving.
  case superBulky = 6
  /// 7 Jumbo: jumbo, roving.
  case jumbo = 7

  /// The CYC category name, such as "Light" or "Super Bulky".
  public var name: String {
    switch self {
    case .lace: "Lace"
    case .superFine: "Super Fine"
    case .fine: "Fine"
    case .light: "Light"
    case .medium: "Medium"
    case .bulky: "Bulky"
    case .superBulky: "Super Bulky"
    case .jumbo: "Jumbo"
    }
  }

  /// A label such as `3 Light (DK)`: the number, the name and the most common type.
  public var label: String {
    switch self {
    case .lace: "0 Lace"
    case .superFine: "1 Super Fine (fingering)"
    case .fine: "2 Fine (sport)"
    case .light: "3 Light (DK)"
    case .medium: "4 Medium (worsted)"
    case .bulky: "5 Bulky (chunky)"
    case .superBulky: "6 Super Bulky"
    case .jumbo: "7 Jumbo"
    }
  }

  /// Orders the categories by number, finest (0 Lace) first.
  public static func < (lhs: YarnWeight, rhs: YarnWeight) -> Bool { lhs.rawValue < rhs.rawValue }

  /// Reads a weight as people write it: the category number (`3`), the CYC name (`Light`,
  /// `super fine`), a common yarn type (`DK`, `worsted`, `aran`, `sock`, `chunky`, `roving`),
  /// a UK/AU ply count (`4 ply`, `8 ply`, `10 ply`, `12 ply`), this type's own `label`, or
  /// YarnBuddy's labels (`Light (3), DK, 8 ply`). Case, spaces, hyphens and underscores are
  /// ignored. Returns `nil` for anything else; never traps.
  public init?(parsing text: String) {
    let trimmed = text.trimmingSpaces()
    if trimmed.hasPrefix("-") || trimmed.hasPrefix("+") { return nil }
    var key = YarnWeight.normalize(trimmed)
    if key.isEmpty { return nil }
    // "8ply" reads as "8 ply".
    if key.hasSuffix("ply"), key.count > 3,
      let last = key.dropLast(3).last, last.isNumber
    {
      key = String(key.dropLast(3)) + " ply"
    }
    if let found = YarnWeight.aliases[key] {
      self = found
      return
    }
    // Labels such as "3 light (dk)", "light (3), dk, 8 ply" or "medium (4), worsted/aran":
    // a category number in parentheses or at the start decides.
    if let open = key.firstIndex(of: "("), let close = key[open...].firstIndex(of: ")") {
      let inside = key[key.index(after: open)..<close]
      if let number = Int(inside), let found = YarnWeight(rawValue: number) {
        self = found
        return
      }
    }
    let leading = key.prefix { $0.isASCII && $0.isNumber }
    if !leading.isEmpty, leading.count < key.count, let number = Int(leading),
      let found = YarnWeight(rawValue: number),
      key.dropFirst(leading.count).first == " "
    {
      // "3 light (dk)" but not "10 ply" (handled by the alias table) or "4ply".
      if !key.hasSuffix("ply") {
        self = found
        return
      }
    }
    return nil
  }

  private static func normalize(_ text: String) -> String {
    var out = ""
    var lastWasSpace = true
    for scalar in text.lowercased().unicodeScalars {
      let isSeparator = scalar == " " || scalar == "-" || scalar == "_" || scalar == "\t"
      if isSeparator {
        if !lastWasSpace { out.unicodeScalars.append(" ") }
        lastWasSpace = true
      } else {
        out.unicodeScalars.append(scalar)
        lastWasSpace = false
      }
    }
    if out.hasSuffix(" ") { out.removeLast() }
    return out
  }

  private static let aliases: [String: YarnWeight] = {
    var table: [String: YarnWeight] = [:]
    for weight in YarnWeight.allCases {
      table[String(weight.rawValue)] = weight
      table[normalize(weight.name)] = weight
      table[normalize(weight.label)] = weight
    }
    let words: [(String, YarnWeight)] = [
      ("cobweb", .lace), ("light fingering", .lace), ("thread", .lace), ("1 ply", .lace),
      ("2 ply", .lace), ("3 ply", .lace), ("fingering", .superFine), ("sock", .superFine),
      ("baby", .superFine), ("superfine", .superFine), ("4 ply", .superFine),
      ("sport", .fine), ("5 ply", .fine), ("dk", .light), ("double knitting", .light),
      ("light worsted", .light), ("8 ply", .light), ("worsted", .medium), ("aran", .medium),
      ("afghan", .medium), ("10 ply", .medium), ("chunky", .bulky), ("craft", .bulky),
      ("rug", .bulky), ("12 ply", .bulky), ("super chunky", .superBulky),
      ("superbulky", .superBulky), ("roving", .superBulky), ("14 ply", .superBulky),
    ]
    for (word, weight) in words { table[word] = weight }
    return table
  }()
}
