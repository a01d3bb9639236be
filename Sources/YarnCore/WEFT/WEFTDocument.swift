import YarnModel

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// WEFT, the Widely Exchangeable Format for Textiles (luxxyarns/weft, CC-BY-4.0, © 2026 Marco
/// Nissen): the parts of its documents that yarn reads and writes, as Codable values.
///
/// A WEFT document is one JSON object: `weft_version` (`1.0`), `type` (`material`,
/// `project`, `progress`, `tool`, …, or `bundle`), `exported_at`, `exported_from` and an
/// `items` array (a bundle has one array per type: `materials`, `projects`, `progress`,
/// `tools`, …). Only the fields yarn maps are declared here; the others are listed as not
/// kept by `WEFTImport` (docs/WEFT.md has the table). Every field is optional in these types,
/// so that a missing required field is reported with its JSON path rather than by the
/// decoder.
public enum WEFT {
  /// The WEFT version yarn writes, `1.0`; it reads any `1.x`.
  public static let version = "1.0"

  /// The profile yarn's documents declare, `yarn`: base WEFT, and fields of yarn's own in
  /// the block WEFT's profile rules name after the app, `yarn` (a material's yarn block):
  /// `yarn.stash_status` (`YarnBlock.stashStatus`) and `yarn.remaining_source`
  /// (`YarnBlock.remainingSource`).
  static let profile = "yarn"

  /// The app that wrote a document: `{"app": "yarn", "version": "…"}`.
  struct App: Codable, Hashable {
    var app: String?
    var version: String?
    var platform: String?
  }

  /// A document of one type: the envelope and its items.
  struct Document<Item: Codable>: Codable {
    var weftVersion: String
    var type: String
    var profile: String?
    var exportedAt: String?
    var exportedFrom: App?
    var items: [Item]

    enum CodingKeys: String, CodingKey {
      case weftVersion = "weft_version", type, profile, exportedAt = "exported_at"
      case exportedFrom = "exported_from", items
    }
  }

  /// How much material: a count of put-up units and/or totals by weight and length
  /// (02-material, Quantity). yarn keeps one figure: see `WEFTImport`.
  struct Quantity: Codable, Hashable {
    var unitsCount: Double?
    var unitLabel: String?
    var weightGrams: Double?
    var weightOunces: Double?
    var lengthMeters: Double?
    var lengthYards: Double?

    enum CodingKeys: String, CodingKey {
      case unitsCount = "units_count", unitLabel = "unit_label", weightGrams = "weight_grams"
      case weightOunces = "weight_ounces", lengthMeters = "length_meters", lengthYards = "length_yards"
    }
  }

  /// A price (`{"amount": 14.5, "currency": "USD"}`, ISO 4217).
  struct Money: Codable, Hashable {
    var amount: Double?
    var currency: String?
  }

  /// One fiber of a material's content: `{"fiber": "merino", "percentage": 80}`.
  struct FiberContent: Codable, Hashable {
    var fiber: String?
    var percentage: Double?
  }

  /// The yarn block of a material (02-material/types/yarn), which is also the block of yarn's
  /// own fields (WEFT's profile rule 1 names it after the app).
  struct YarnBlock: Codable, Hashable {
    var weightCategory: String?
    /// yarn's own: the stash status when WEFT has no key for it (`will-trade`, written
    /// beside `status` `in-stash`); `nil` otherwise.
    var stashStatus: String?
    /// yarn's own: who made the figure written as `quantity` beside `original_quantity`, in
    /// the words of the stash CSV's Remaining Source (`RemainingEstimate.Source`: `override`,
    /// `estimate`, `incomplete`, `overdrawn`); `nil` without `original_quantity`.
    var remainingSource: String?

    enum CodingKeys: String, CodingKey {
      case weightCategory = "weight_category", stashStatus = "stash_status"
      case remainingSource = "remaining_source"
    }
  }

  /// One acquisition or lot of a material (02-material, Pack).
  struct Pack: Codable, Hashable {
    var id: String?
    var quantity: Quantity?
    var weightPerUnitGrams: Double?
    var weightPerUnitOunces: Double?
    var lengthPerUnitMeters: Double?
    var lengthPerUnitYards: Double?
    var colorway: String?
    var dyeLot: String?
    var acquiredDate: String?
    var acquiredFrom: String?
    var acquiredPrice: Money?

    enum CodingKeys: String, CodingKey {
      case id, quantity, weightPerUnitGrams = "weight_per_unit_grams"
      case weightPerUnitOunces = "weight_per_unit_ounces", lengthPerUnitMeters = "length_per_unit_meters"
      case lengthPerUnitYards = "length_per_unit_yards", colorway, dyeLot = "dye_lot"
      case acquiredDate = "acquired_date", acquiredFrom = "acquired_from", acquiredPrice = "acquired_price"
    }
  }

  /// A material (02-material): for yarn, a stash yarn.
  struct Material: Codable, Hashable {
    var id: String?
    var name: String?
    var materialType: String?
    var status: String?
    var quantity: Quantity?
    var originalQuantity: Quantity?
    var packs: [Pack]?
    var fiberContent: [FiberContent]?
    var colorFamily: String?
    var colorway: String?
    var dyeLot: String?
    var brand: String?
    var notes: String?
    var acquiredDate: String?
    var acquiredFrom: String?
    var acquiredPrice: Money?
    var location: String?
    var tags: [String]?
    var yarn: YarnBlock?

    enum CodingKeys: String, CodingKey {
      case id, name, materialType = "material_type", status, quantity
      case originalQuantity = "original_quantity", packs, fiberContent = "fiber_content"
      case colorFamily = "color_family", colorway, dyeLot = "dye_lot", brand, notes
      case acquiredDate = "acquired_date", acquiredFrom = "acquired_from"
      case acquiredPrice = "acquired_price", location, tags, yarn
    }
  }

  /// The pattern a project follows (03-project, PatternRef).
  struct PatternRef: Codable, Hashable {
    var id: String?
    var name: String?
    var designer: String?
    var url: String?
    var source: String?
  }

  /// How much of a material a project used (03-project, MaterialUsed.quantity_used).
  struct QuantityUsed: Codable, Hashable {
    var value: Double?
    var unit: String?
    var weightGrams: Double?
    var lengthMeters: Double?

    enum CodingKeys: String, CodingKey {
      case value, unit, weightGrams = "weight_grams", lengthMeters = "length_meters"
    }
  }

  /// A material a project uses (03-project, MaterialUsed).
  struct MaterialUsed: Codable, Hashable {
    var materialId: String?
    var name: String?
    var brand: String?
    var colorway: String?
    var weightCategory: String?
    var quantityUsed: QuantityUsed?

    enum CodingKeys: String, CodingKey {
      case materialId = "material_id", name, brand, colorway, weightCategory = "weight_category"
      case quantityUsed = "quantity_used"
    }
  }

  /// The gauge of a project (03-project, GaugeAchieved): stitches and rows over `unit`
  /// (`10cm`, `4in`), or over `gauge_divisor` inches.
  struct Gauge: Codable, Hashable {
    var stitchesPerUnit: Double?
    var rowsPerUnit: Double?
    var unit: String?
    var gaugeDivisor: Int?

    enum CodingKeys: String, CodingKey {
      case stitchesPerUnit = "stitches_per_unit", rowsPerUnit = "rows_per_unit", unit
      case gaugeDivisor = "gauge_divisor"
    }
  }

  /// A tool a project uses (03-project, ToolRef).
  struct ToolRef: Codable, Hashable {
    var toolId: String?
    var description: String?
    var sizeMm: Double?
    var toolType: String?

    enum CodingKeys: String, CodingKey {
      case toolId = "tool_id", description, sizeMm = "size_mm", toolType = "tool_type"
    }
  }

  /// The needle and hook sizes of a project's craft extension (`ext.knitting`,
  /// `ext.crochet`).
  struct CraftSizes: Codable, Hashable {
    var needleSizesMm: [Double]?
    var hookSizesMm: [Double]?

    enum CodingKeys: String, CodingKey {
      case needleSizesMm = "needle_sizes_mm", hookSizesMm = "hook_sizes_mm"
    }
  }

  /// A project's craft extensions, of which yarn reads the needle and hook sizes.
  struct ProjectExt: Codable, Hashable {
    var knitting: CraftSizes?
    var crochet: CraftSizes?
  }

  /// A tool (05-tool): for yarn, a knitting needle or a crochet hook.
  struct Tool: Codable, Hashable {
    var id: String?
    var category: String?
    var toolType: String?
    var name: String?
    var brand: String?
    var model: String?
    var material: String?
    var metricSizeMm: Double?
    var usSize: String?
    var hookSize: String?
    var lengthCm: Double?
    var lengthInches: Double?
    var quantity: Int?
    var projectAssignments: [String]?

    enum CodingKeys: String, CodingKey {
      case id, category, toolType = "tool_type", name, brand, model, material
      case metricSizeMm = "metric_size_mm", usSize = "us_size", hookSize = "hook_size"
      case lengthCm = "length_cm", lengthInches = "length_inches", quantity
      case projectAssignments = "project_assignments"
    }
  }

  /// A project (03-project).
  struct Project: Codable, Hashable {
    var id: String?
    var name: String?
    var craft: String?
    var status: String?
    var startedAt: String?
    var completedAt: String?
    var patternRef: PatternRef?
    var materialsUsed: [MaterialUsed]?
    var notes: String?
    var privateNotes: String?
    var sizeMade: String?
    var madeFor: String?
    var gauge: Gauge?
    var tags: [String]?
    var toolsUsed: [ToolRef]?
    var ext: ProjectExt?
    /// When the item was last changed (ISO 8601); read only for the finished day of a
    /// finished project without `completed_at`.
    var updatedAt: String?

    enum CodingKeys: String, CodingKey {
      case id, name, craft, status, startedAt = "started_at", completedAt = "completed_at"
      case updatedAt = "updated_at"
      case patternRef = "pattern_ref", materialsUsed = "materials_used", notes
      case privateNotes = "private_notes", sizeMade = "size_made", madeFor = "made_for", gauge, tags
      case toolsUsed = "tools_used", ext
    }
  }

  /// One timed sitting (04-progress, timer.sessions).
  struct TimerSession: Codable, Hashable {
    var startedAt: String?
    var durationSeconds: Int64?

    enum CodingKeys: String, CodingKey {
      case startedAt = "started_at", durationSeconds = "duration_seconds"
    }
  }

  /// The session timer of a project's progress (04-progress, timer).
  struct Timer: Codable, Hashable {
    var totalSeconds: Int64?
    var sessions: [TimerSession]?

    enum CodingKeys: String, CodingKey {
      case totalSeconds = "total_seconds", sessions
    }
  }

  /// The progress of one project (04-progress, ProgressState): yarn keeps its timer.
  struct Progress: Codable, Hashable {
    var id: String?
    var projectId: String?
    var craft: String?
    var timer: Timer?

    enum CodingKeys: String, CodingKey {
      case id, projectId = "project_id", craft, timer
    }
  }
}
