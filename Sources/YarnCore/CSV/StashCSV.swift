import YarnModel
import YarnStore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The stash as CSV: one record per yarn under a header row (docs/CSV.md).
///
/// Amounts are split into a number column and a unit column so that a spreadsheet can sum
/// them (an amount whose unit column is not chosen is written with its unit, `3 skeins`);
/// dates are ISO 8601 (`YYYY-MM-DD`); an unknown value is an empty cell. `Status` is the
/// `StashStatus` token; `Price` one cell such as `29.99 EUR`; `Tags` one cell, the tags
/// joined by `, `. Photos are not in the CSV (a backup carries them).
///
/// The Remaining cells are the user's override when Remaining Source is `override`, and
/// otherwise the estimate computed from the finished projects (`RemainingEstimate`).
public enum StashCSV {
  /// A column of the stash CSV; the raw value is its header. Number cells are plain decimals
  /// (`220`, `2.5`); their unit is the next column's `skein`, `g`, `oz`, `yd` or `m`.
  public enum Column: String, CaseIterable, Sendable, CSVColumn {
    /// `Name`: `Yarn.name`.
    case name = "Name"
    /// `Brand`: `Yarn.brand`.
    case brand = "Brand"
    /// `Colorway`: `Yarn.colorway`.
    case colorway = "Colorway"
    /// `Color Family`: `Yarn.colorFamily`.
    case colorFamily = "Color Family"
    /// `Dye Lot`: `Yarn.dyeLot`.
    case dyeLot = "Dye Lot"
    /// `Weight`: the CYC category's label, such as `3 Light (DK)` (`YarnWeight.label`).
    case weight = "Weight"
    /// `Fiber`: `Yarn.fiber`.
    case fiber = "Fiber"
    /// `Length per Skein`: the number of `Yarn.lengthPerSkein`.
    case lengthPerSkein = "Length per Skein"
    /// `Length Unit`: its unit, `yd` or `m`.
    case lengthUnit = "Length Unit"
    /// `Net Weight per Skein`: the number of `Yarn.netWeightPerSkein`.
    case netWeightPerSkein = "Net Weight per Skein"
    /// `Net Weight Unit`: its unit, `g` or `oz`.
    case netWeightUnit = "Net Weight Unit"
    /// `Quantity`: the number of `Yarn.quantity`.
    case quantity = "Quantity"
    /// `Quantity Unit`: its unit.
    case quantityUnit = "Quantity Unit"
    /// `Remaining`: the number of the remaining estimate (not rounded), or of the override.
    case remaining = "Remaining"
    /// `Remaining Unit`: its unit.
    case remainingUnit = "Remaining Unit"
    /// `Remaining Source`: `RemainingEstimate.Source`'s raw value (`override`, `estimate`,
    /// `incomplete`, `overdrawn`, `unknown`).
    case remainingSource = "Remaining Source"
    /// `Purchase Location`: `Yarn.purchaseLocation`.
    case purchaseLocation = "Purchase Location"
    /// `Date Added`: `Yarn.dateAdded` as `YYYY-MM-DD`.
    case dateAdded = "Date Added"
    /// `Status`: the `StashStatus` token, such as `in-stash` or `used-up`.
    case status = "Status"
    /// `Price`: `Yarn.price` as one cell, the amount with its currency's decimals and the
    /// code: `29.99 EUR`.
    case price = "Price"
    /// `Stored In`: `Yarn.storedIn`.
    case storedIn = "Stored In"
    /// `Tags`: `Yarn.tags` joined by `, ` (a tag holds no comma: `Rules.tags`).
    case tags = "Tags"
    /// `Notes`: the texts of the yarn's notes, oldest first, separated by a blank line.
    case notes = "Notes"
    /// `ID`: `Yarn.id`, which an import matches on.
    case id = "ID"
    /// `Stashed`: `yes` when the status is one still in the stash (`StashStatus.isHeld`), else
    /// `no`: the column of files made before the status, read by the import, and written
    /// only when `--columns` names it (not a default column).
    case stashed = "Stashed"
  }

  /// The default columns: every column but `Stashed`, in the order `Column` lists them.
  public static let defaultColumns: [Column] = Column.allCases.filter { $0 != .stashed }

  /// Parses a comma-separated list of column headers such as `Name,Colorway,Remaining`.
  ///
  /// - Throws: `CSVColumnError` for the first header that is not a column or that is named
  ///   twice.
  package static func columns(parsing list: String) throws(CSVColumnError) -> [Column] {
    try CSVColumns.cases(parsing: list, of: Column.self)
  }

  /// The header record for `columns`.
  static func header(_ columns: [Column]) -> [CSVField] {
    columns.map { .text($0.rawValue) }
  }

  /// The record of one yarn. An amount is a number cell beside its unit cell; when the unit
  /// column is not among `columns`, the amount is one text cell with its unit (`3 skeins`,
  /// every digit kept), so that any choice of columns reads back.
  ///
  /// - Parameters:
  ///   - yarn: the stash yarn.
  ///   - remaining: its remaining estimate.
  ///   - notes: the texts of its notes, oldest first; joined by a blank line in one cell.
  ///   - columns: which columns, in which order.
  static func record(
    for yarn: Yarn, remaining: RemainingEstimate, notes: [String], columns: [Column]
  ) -> [CSVField] {
    /// An amount's number, or, when `unit` is not among the columns, the amount with its
    /// unit as text (`3 skeins`): a number without its unit could not be read back.
    func amount(_ amount: Amount?, unit: Column) -> CSVField {
      guard let amount else { return .empty }
      return columns.contains(unit) ? .number(amount.value) : .text(StashCSV.text(amount))
    }
    return columns.map { column in
      switch column {
      case .name: .text(yarn.name)
      case .brand: .text(yarn.brand)
      case .colorway: .text(yarn.colorway)
      case .colorFamily: .text(yarn.colorFamily)
      case .dyeLot: .text(yarn.dyeLot)
      case .weight: .text(yarn.weight?.label)
      case .fiber: .text(yarn.fiber)
      case .lengthPerSkein: amount(yarn.lengthPerSkein, unit: .lengthUnit)
      case .lengthUnit: .text(yarn.lengthPerSkein?.unit.rawValue)
      case .netWeightPerSkein: amount(yarn.netWeightPerSkein, unit: .netWeightUnit)
      case .netWeightUnit: .text(yarn.netWeightPerSkein?.unit.rawValue)
      case .quantity: amount(yarn.quantity, unit: .quantityUnit)
      case .quantityUnit: .text(yarn.quantity?.unit.rawValue)
      case .remaining: amount(remaining.remaining, unit: .remainingUnit)
      case .remainingUnit: .text(remaining.remaining?.unit.rawValue)
      case .remainingSource: .text(remaining.source.rawValue)
      case .purchaseLocation: .text(yarn.purchaseLocation)
      case .dateAdded: .text(yarn.dateAdded?.iso8601)
      case .status: .text(yarn.status.rawValue)
      case .price: .text(yarn.price?.description)
      case .storedIn: .text(yarn.storedIn)
      case .tags: yarn.tags.isEmpty ? .empty : .text(Tags.cell(yarn.tags))
      case .stashed: .text(yarn.isHeld ? "yes" : "no")
      case .notes: notes.isEmpty ? .empty : .text(notes.joined(separator: "\n\n"))
      case .id: .text(yarn.id)
      }
    }
  }
}

extension StashCSV.Column {
  /// The column's place in `allCases`, told by a switch: an import looks up cells by it
  /// (hashing the header text for each of a row's cells was 4% of an import).
  var ordinal: Int {
    switch self {
    case .name: 0
    case .brand: 1
    case .colorway: 2
    case .colorFamily: 3
    case .dyeLot: 4
    case .weight: 5
    case .fiber: 6
    case .lengthPerSkein: 7
    case .lengthUnit: 8
    case .netWeightPerSkein: 9
    case .netWeightUnit: 10
    case .quantity: 11
    case .quantityUnit: 12
    case .remaining: 13
    case .remainingUnit: 14
    case .remainingSource: 15
    case .purchaseLocation: 16
    case .dateAdded: 17
    case .status: 18
    case .price: 19
    case .storedIn: 20
    case .tags: 21
    case .notes: 22
    case .id: 23
    case .stashed: 24
    }
  }
}
