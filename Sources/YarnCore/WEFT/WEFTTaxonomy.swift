import YarnModel

/// The WEFT taxonomies (`99-taxonomy/*.yaml` of luxxyarns/weft, CC-BY-4.0) that yarn maps to
/// its own values.
enum WEFTTaxonomy {
  /// The WEFT `yarn-weight` key of a CYC category, for export: 0 `lace`, 1 `fingering`,
  /// 2 `sport`, 3 `dk`, 4 `worsted`, 5 `bulky`, 6 `super-bulky`, 7 `jumbo`.
  static func key(of weight: YarnWeight) -> String {
    switch weight {
    case .lace: "lace"
    case .superFine: "fingering"
    case .fine: "sport"
    case .light: "dk"
    case .medium: "worsted"
    case .bulky: "bulky"
    case .superBulky: "super-bulky"
    case .jumbo: "jumbo"
    }
  }

  /// The CYC category of a WEFT `yarn-weight` key: `thread`, `cobweb`, `lace` and
  /// `light-fingering` are CYC 0 Lace (the CYC table puts crochet thread, cobweb and light
  /// fingering there), `aran` is 4 Medium; then the taxonomy's aliases and yarn's own words
  /// (`YarnWeight(parsing:)`: `8ply`, `light`, `super fine`, …). `nil` for anything else.
  static func weight(_ key: String) -> YarnWeight? {
    let table: [String: YarnWeight] = [
      "thread": .lace, "cobweb": .lace, "lace": .lace, "light-fingering": .lace,
      "fingering": .superFine, "sport": .fine, "dk": .light, "worsted": .medium, "aran": .medium,
      "bulky": .bulky, "super-bulky": .superBulky, "jumbo": .jumbo,
      // Aliases of 99-taxonomy/yarn-weight.yaml that yarn's own words do not read.
      "0-ply": .lace, "1-ply": .lace, "cobweb lace": .lace, "lace weight": .lace,
      "sewing thread": .lace, "crochet thread": .lace, "size 10": .lace, "sock weight": .superFine,
      "sport weight": .fine, "heavy worsted": .medium, "roving weight": .superBulky,
      "arm knitting": .jumbo, "giant": .jumbo,
    ]
    let normalized = key.trimmingSpaces().lowercased()
    return table[normalized] ?? YarnWeight(parsing: normalized)
  }

  /// The yarn craft of a WEFT `craft` key, and whether it is only the nearest one:
  /// `machine-knitting` and `loom-knitting` are knitting, `cross-stitch` is embroidery, and
  /// the crafts yarn has no name for (`sewing`, `quilting`, `macrame`, `dyeing`, `tatting`,
  /// `felting`) are `other`. `nil` for a key the taxonomy does not have.
  static func craft(_ key: String) -> (craft: Craft, exact: Bool)? {
    switch key {
    case "knitting": (.knitting, true)
    case "crochet": (.crochet, true)
    case "weaving": (.weaving, true)
    case "spinning": (.spinning, true)
    case "embroidery": (.embroidery, true)
    case "other": (.other, true)
    case "machine-knitting", "loom-knitting": (.knitting, false)
    case "cross-stitch": (.embroidery, false)
    case "sewing", "quilting", "macrame", "dyeing", "tatting", "felting": (.other, false)
    default: nil
    }
  }

  /// The yarn status of a WEFT project status key (`project_status` of status.yaml), and
  /// whether it is only the nearest one: `gifted` is finished (a gift is given once made),
  /// `other` is planned. `nil` for a key the taxonomy does not have.
  static func projectStatus(_ key: String) -> (status: ProjectStatus, exact: Bool)? {
    switch key {
    case "gifted": (.finished, false)
    case "other": (.planned, false)
    default: ProjectStatus(rawValue: key).map { ($0, true) }
    }
  }

  /// The stash status of a WEFT material status key (`material_status` of status.yaml): each
  /// of WEFT's nine (`in-stash`, `allocated`, `in-use`, `used-up`, `gifted`, `sold`,
  /// `returned`, `frogged`, `other`) is yarn's own, and yarn's `will-trade` is read too.
  /// `nil` for anything else.
  static func stashStatus(_ key: String) -> StashStatus? {
    StashStatus(rawValue: key)
  }

  /// The WEFT key of a stash status: its own, but `will-trade`, which WEFT does not have, is
  /// `in-stash`: the yarn is still in the stash (its taxonomy counts "will trade/sell" as
  /// sold, which yarn does not hold). The export writes `will-trade` itself beside it, in
  /// yarn's own `yarn.stash_status`.
  static func key(of status: StashStatus) -> String {
    status == .willTrade ? StashStatus.inStash.rawValue : status.rawValue
  }

  /// The put-up words of `unit.yaml` that count skeins for yarn (`skein`, `ball`, `hank`,
  /// `cake`, `cone`, `bobbin`): yarn counts them all as skeins.
  static let putUpUnits: Set<String> = [
    "skein", "skeins", "ball", "balls", "hank", "hanks", "cake", "cakes", "cone", "cones", "bobbin",
    "bobbins",
  ]

  /// The yarn unit of a `unit.yaml` key or symbol (`skein` and the put-up words,
  /// `gram`/`g`, `kg`, `oz`, `pound`/`lb`, `meter`/`m`, `yard`/`yd`). `nil` for anything else.
  static func unit(_ key: String) -> YarnUnit? {
    let word = key.trimmingSpaces().lowercased()
    if putUpUnits.contains(word) { return .skein }
    return YarnUnit(parsing: word)
  }

  /// The `unit.yaml` key yarn writes for a unit: `skein`, `gram`, `kg`, `oz`, `pound`,
  /// `meter`, `yard`.
  static func key(of unit: YarnUnit) -> String {
    switch unit {
    case .skein: "skein"
    case .gram: "gram"
    case .kilogram: "kg"
    case .ounce: "oz"
    case .pound: "pound"
    case .meter: "meter"
    case .yard: "yard"
    }
  }
}
