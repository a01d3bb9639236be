import YarnModel

/// Which fields of a WEFT item yarn keeps, for the list of fields it does not.
indirect enum WEFTKept: Sendable {
  /// The field and all inside it.
  case leaf
  /// An object: the members named are kept (each as its own tree), the others are not.
  case object([String: WEFTKept])
  /// An array whose every element is kept as the tree.
  case array(WEFTKept)

  /// The JSON paths under `path` of the members of `value` that this tree does not keep;
  /// null members and empty arrays and objects hold nothing and are passed over. A value of
  /// another shape than the tree's is passed over (the typed decoding reports it).
  func unkept(in value: JSONValue, at path: String) -> [String] {
    switch (self, value) {
    case (.object(let fields), .object(let members)):
      return members.keys.sorted().flatMap { key -> [String] in
        guard let member = members[key], !WEFTKept.isEmpty(member) else { return [] }
        guard let tree = fields[key] else { return [path.isEmpty ? key : path + "." + key] }
        return tree.unkept(in: member, at: path.isEmpty ? key : path + "." + key)
      }
    case (.array(let element), .array(let items)):
      return items.enumerated().flatMap { element.unkept(in: $1, at: "\(path)[\($0)]") }
    default:
      return []
    }
  }

  static func isEmpty(_ value: JSONValue) -> Bool {
    switch value {
    case .null: true
    case .array(let items): items.isEmpty
    case .object(let members): members.isEmpty
    default: false
    }
  }

  static func fields(_ names: String...) -> [String: WEFTKept] {
    Dictionary(uniqueKeysWithValues: names.map { ($0, .leaf) })
  }

  /// A quantity: every figure (checked against each other through the put-up).
  static let quantity = WEFTKept.object(
    fields("units_count", "unit_label", "weight_grams", "weight_ounces", "length_meters", "length_yards"))

  /// A material of type yarn.
  static let material: WEFTKept = {
    var kept = fields(
      "id", "name", "material_type", "status", "colorway", "dye_lot", "brand", "color_family", "notes",
      "acquired_date", "acquired_from", "location", "tags")
    kept["acquired_price"] = .object(fields("amount", "currency"))
    kept["quantity"] = quantity
    kept["original_quantity"] = quantity
    kept["fiber_content"] = .array(.object(fields("fiber", "percentage")))
    kept["yarn"] = .object(fields("weight_category", "stash_status", "remaining_source"))
    kept["packs"] = .array(
      .object(
        fields(
          "weight_per_unit_grams", "weight_per_unit_ounces", "length_per_unit_meters",
          "length_per_unit_yards", "colorway", "dye_lot", "acquired_date", "acquired_from"
        )
        .merging(["acquired_price": .object(fields("amount", "currency"))]) { _, new in new }))
    return .object(kept)
  }()

  /// A project.
  static let project: WEFTKept = {
    var kept = fields(
      "id", "name", "craft", "status", "started_at", "completed_at", "notes", "private_notes", "size_made",
      "made_for", "tags")
    kept["gauge"] = .object(fields("stitches_per_unit", "rows_per_unit", "unit", "gauge_divisor"))
    kept["pattern_ref"] = .object(fields("name", "url"))
    kept["tools_used"] = .array(.object(fields("tool_id", "description", "size_mm", "tool_type")))
    kept["ext"] = .object([
      "knitting": .object(fields("needle_sizes_mm")), "crochet": .object(fields("hook_sizes_mm")),
    ])
    var used = fields("material_id", "name", "brand", "colorway", "weight_category")
    used["quantity_used"] = .object(fields("value", "unit", "weight_grams", "length_meters"))
    kept["materials_used"] = .array(.object(used))
    return .object(kept)
  }()

  /// A tool: a needle or hook, its size, length, material, count and projects.
  static let tool = WEFTKept.object(
    fields(
      "id", "category", "tool_type", "name", "material", "metric_size_mm", "us_size", "hook_size",
      "length_cm",
      "length_inches", "quantity", "project_assignments"))

  /// A progress state: its timer (the total is the sum of the sessions).
  static let progress: WEFTKept = {
    var kept = fields("id", "project_id")
    kept["timer"] = .object([
      "total_seconds": .leaf, "sessions": .array(.object(fields("started_at", "duration_seconds"))),
    ])
    return .object(kept)
  }()
}
