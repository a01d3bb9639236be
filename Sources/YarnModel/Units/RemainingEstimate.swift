/// How much of a yarn is left, and how sure that figure is.
///
/// Rules (docs/UNITS.md): the user's override when set; else the quantity minus every counted
/// usage converted to the quantity's unit. A usage that cannot be converted is listed, never
/// dropped; more used than owned gives zero with the deficit.
public struct RemainingEstimate: Hashable, Sendable {
  /// Where the figure comes from. The raw value is the stash CSV's `Remaining Source` cell.
  public enum Source: String, Codable, Hashable, Sendable {
    /// The user's own figure (`Yarn.remainingOverride`).
    case override
    /// Quantity minus every counted usage, all converted.
    case estimate
    /// Some usage could not be converted: `remaining` subtracts only those that could, and
    /// `unconverted` lists the others.
    case incomplete
    /// More was used than owned: `remaining` is 0 and `deficit` says by how much (usages
    /// that could not be converted are in `unconverted`, as for `incomplete`).
    case overdrawn
    /// No quantity is known: there is no figure.
    case unknown
  }

  /// A usage that could not be converted to the yarn's quantity unit.
  public struct UnconvertedUsage: Hashable, Sendable {
    /// The `Project.id` of the usage.
    public let projectID: String
    /// The amount used, in the unit the project recorded.
    public let amount: Amount
    /// The put-up facts the conversion needs.
    public let missing: [PutUpFact]
  }

  /// The amount left, in the unit of the yarn's quantity (or of its override); `nil` when
  /// `source` is `unknown`. Never negative. An estimate is the quantity less the usages'
  /// unrounded conversions, rounded once to 15 significant digits, no finer than those of half
  /// the larger of the quantity and the total used
  /// (`UnitConversion.rounded(_:toPrecisionOf:)`), not to the 2 decimals people see.
  public let remaining: Amount?
  /// `remaining`'s value before it was rounded: the quantity less the usages' unrounded
  /// conversions, what a conversion of the figure to another unit converts so that the
  /// converted figure is rounded once (`StashMatch`); `remaining.value` itself when nothing
  /// was subtracted, for an override and when nothing is left (0).
  let unroundedRemaining: Double?
  /// The largest figure that went into `remaining`, in its unit: the larger of the quantity
  /// and the total used, whose half's 15 significant digits `remaining` is rounded to at the
  /// finest (what a conversion of the figure rounds to, converted too); `remaining.value` itself when
  /// nothing was subtracted, for an override and when nothing is left (0).
  let magnitude: Double?
  /// Where `remaining` comes from.
  public let source: Source
  /// How much more was used than owned, in the quantity's unit (only when `overdrawn`).
  public let deficit: Double?
  /// Usages left out of the figure, each with the facts it lacks.
  public let unconverted: [UnconvertedUsage]

  /// A usage counted against a yarn: the project it belongs to and the amount (a project
  /// whose status `countsAgainstStash(includeActive:)`).
  public struct CountedUsage: Hashable, Sendable {
    /// The `Project.id` of the usage.
    public let projectID: String
    /// The amount used, in the unit the project recorded.
    public let amount: Amount

    /// A usage of `amount` by the project `projectID`.
    public init(projectID: String, amount: Amount) {
      self.projectID = projectID
      self.amount = amount
    }
  }

  /// Estimates what is left of `yarn` after `usages`.
  ///
  /// - Parameters:
  ///   - yarn: the stash yarn; its quantity, override and put-up are used.
  ///   - usages: the usages to count, in project creation order then position (the order of
  ///     `unconverted`): those of the projects whose status
  ///     `countsAgainstStash(includeActive:)`, as `Library.remaining(of:includeActive:)` and
  ///     `LibraryStore.countedUsages(ofYarn:includeActive:)` give them.
  /// - Complexity: O(`usages.count`).
  public init(yarn: Yarn, usages: [CountedUsage]) {
    if let override = yarn.remainingOverride {
      self.init(remaining: override, source: .override, deficit: nil, unconverted: [])
      return
    }
    guard let quantity = yarn.quantity else {
      self.init(remaining: nil, source: .unknown, deficit: nil, unconverted: [])
      return
    }
    var used = 0.0
    var unconverted: [UnconvertedUsage] = []
    for usage in usages {
      do {
        used += try UnitConversion.unroundedValue(of: usage.amount, in: quantity.unit, putUp: yarn.putUp)
      } catch {
        unconverted.append(
          UnconvertedUsage(projectID: usage.projectID, amount: usage.amount, missing: error.missing))
      }
    }
    // A deficit smaller than rounding noise of the conversions, a billionth of the quantity
    // (docs/UNITS.md), is not a deficit. Relative, not at least 1e-9: a quantity of
    // 0.000000001 g is all left when nothing is used.
    // What the usages left, unrounded, rounded once to 15 significant digits, no finer than
    // those of half the larger of the quantity and the total used, as a difference
    // (`UnitConversion.rounded`): 10 yd less 3.3 yd is 6.7 yd, not 6.699999999999999; 4 yd
    // less 1 m and 2 m is 0.71916010498688 yd (less each usage rounded, …687); 7 yd less
    // 6.1 m, 0.3008 m, is 0.32895888013998 yd, as 7 yd keeps no more digits; 1 yd less 0.1 m
    // and 0.2 m keeps its own 15, 0.671916010498688 yd. Nothing subtracted leaves the
    // quantity as given.
    var left = quantity.value - used
    let unrounded = left
    let magnitude = max(quantity.value, used)
    if !usages.isEmpty { left = UnitConversion.rounded(left, toPrecisionOf: magnitude) }
    let tolerance = 1e-9 * abs(quantity.value)
    if left < -tolerance {
      self.init(
        remaining: Amount(0, quantity.unit), source: .overdrawn, deficit: -left,
        unconverted: unconverted)
    } else if left <= tolerance {
      // What is left within that noise is nothing (3 skeins less 1.5 and 1.5 converted from
      // yards can leave 4e-16), not a tiny amount shown in its digits (`Amount.format`).
      self.init(
        remaining: Amount(0, quantity.unit), source: unconverted.isEmpty ? .estimate : .incomplete,
        deficit: nil, unconverted: unconverted)
    } else {
      self.init(
        remaining: Amount(left, quantity.unit), unrounded: unrounded, magnitude: magnitude,
        source: unconverted.isEmpty ? .estimate : .incomplete, deficit: nil, unconverted: unconverted)
    }
  }

  /// `unrounded` and `magnitude` are `remaining.value` unless given.
  private init(
    remaining: Amount?, unrounded: Double? = nil, magnitude: Double? = nil, source: Source,
    deficit: Double?, unconverted: [UnconvertedUsage]
  ) {
    self.remaining = remaining
    self.unroundedRemaining = unrounded ?? remaining?.value
    self.magnitude = magnitude ?? remaining?.value
    self.source = source
    self.deficit = deficit
    self.unconverted = unconverted
  }
}

extension ProjectStatus {
  /// Whether the yarn usages of a project of this status count against the stash: those of a
  /// finished project always, those of one in progress only when `includeActive` is true;
  /// planned, frogged (the yarn went back to the stash) and hibernating projects never count.
  ///
  /// The one statement of the rule: `Library.usages(of:includeActive:)` applies it, and the
  /// store's SQL condition is made from it (`LibraryStore.countedUsages(ofYarn:includeActive:)`).
  public func countsAgainstStash(includeActive: Bool = false) -> Bool {
    switch self {
    case .finished: true
    case .inProgress: includeActive
    case .planned, .frogged, .hibernating: false
    }
  }
}

extension Library {
  /// The usages counted against the yarn `yarnID`, in project order then position: those of
  /// the projects whose status `countsAgainstStash(includeActive:)`.
  ///
  /// - Complexity: O(every usage of every project): for one yarn of an in-memory library.
  ///   A command over a stored library asks the store (`LibraryStore.countedUsages`).
  func usages(of yarnID: String, includeActive: Bool = false)
    -> [RemainingEstimate.CountedUsage]
  {
    var out: [RemainingEstimate.CountedUsage] = []
    for project in projects where project.status.countsAgainstStash(includeActive: includeActive) {
      for usage in project.usages where usage.yarnID == yarnID {
        out.append(.init(projectID: project.id, amount: usage.amount))
      }
    }
    return out
  }

  /// The remaining estimate of `yarn` against this library's projects: the usages of its
  /// finished projects, and of those in progress too when `includeActive` is true (planned,
  /// frogged and hibernating projects never count; `ProjectStatus.countsAgainstStash`).
  ///
  /// - Complexity: O(every usage of every project). For the value in memory (backups, the
  ///   API); over a stored library, `LibraryStore.remaining(of:includeActive:)` reads only the
  ///   yarn's usages.
  public func remaining(of yarn: Yarn, includeActive: Bool = false) -> RemainingEstimate {
    RemainingEstimate(yarn: yarn, usages: usages(of: yarn.id, includeActive: includeActive))
  }
}
