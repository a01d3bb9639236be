/// "Is there enough?": which stash yarns have at least a needed length or weight left
/// (`yarn stash match`; docs/UNITS.md, "Is there enough?").
///
/// The rule, in one place:
/// - Each yarn's remaining figure (`RemainingEstimate`) is converted to the unit asked for
///   through the yarn's put-up (`UnitConversion.convert`): 3 skeins of 220 yd are 660 yd;
///   400 g of a yarn of 200 yd / 100 g skeins is 800 yd. The figure converted is the
///   estimate before it was rounded (`RemainingEstimate.unroundedRemaining`), and the result
///   is rounded once, as a difference: to 15 significant digits, no finer than those of half
///   the largest figure that went into the estimate, converted
///   (`UnitConversion.rounded(_:toPrecisionOf:)`).
/// - Yarns with the same name, colorway and dye lot (compared by `Lookup.key`: case and the
///   spaces around them aside; the dye lot must be known, two unknown lots are not the same
///   lot) count together, as one entry: their figures are added unrounded and the sum
///   rounded once, to 15 significant digits, no finer than those of half the members' largest
///   figures added.
/// - An entry has enough (`true`) when the part of its figure that is certain covers the
///   need; not enough (`false`) when even the largest figure it may have does not; otherwise
///   the answer is unknown (`nil`) and `missing` names the facts that would decide it.
/// - The certain part of a yarn's figure is the whole figure when it is an estimate, an
///   override or overdrawn (0); none of it when the yarn has no quantity, when the figure
///   cannot be converted (a put-up fact is missing), when the estimate is incomplete (some
///   usage could not be subtracted, so the figure is only an upper bound), or, with
///   `sameDyeLot`, when the yarn has no dye lot (its skeins may be of several lots).
/// - The largest figure a yarn may have is its figure, converted; without a figure (no
///   quantity, or one that cannot be converted) there is no bound.
/// - Amounts are compared with a tolerance of 10⁻⁹ of the need (at least 10⁻⁹), the rounding
///   noise of the conversions: 660 yd covers 660 yd asked in meters.
public enum StashMatch {
  /// A fact whose absence leaves an answer unknown. The raw value is the reason in words, as
  /// the CLI and JSON give it.
  public enum Missing: String, Codable, Hashable, Sendable, CustomStringConvertible {
    /// The yarn has no quantity, so no remaining figure.
    case quantity = "no quantity"
    /// The conversion needs the length of one skein (`Yarn.lengthPerSkein`).
    case lengthPerSkein = "no length per skein"
    /// The conversion needs the net weight of one skein (`Yarn.netWeightPerSkein`).
    case netWeightPerSkein = "no net weight per skein"
    /// Some usage could not be subtracted (`RemainingEstimate.Source.incomplete`): the
    /// figure is only an upper bound.
    case incompleteEstimate = "an incomplete estimate"
    /// With `sameDyeLot`, the yarn has no dye lot.
    case dyeLot = "no dye lot"

    /// The reason in words, such as `no length per skein`.
    public var description: String { rawValue }

    init(_ fact: PutUpFact) {
      switch fact {
      case .lengthPerSkein: self = .lengthPerSkein
      case .netWeightPerSkein: self = .netWeightPerSkein
      }
    }
  }

  /// One yarn of an entry: its own figure in the unit asked for.
  public struct Member: Hashable, Sendable {
    /// The yarn.
    public let yarn: Yarn
    /// Its remaining estimate (in its own unit).
    public let estimate: RemainingEstimate
    /// The figure converted to the unit asked for; `nil` when there is no figure or it
    /// cannot be converted. An upper bound when `missing` holds `incompleteEstimate`.
    public let remaining: Amount?
    /// What keeps this yarn's figure from being certain; empty when it is certain.
    public let missing: [Missing]
    /// `remaining`'s value before it was rounded: the estimate before it was rounded,
    /// converted (`UnitConversion.unroundedValue`); what the entry adds, so that a sum is
    /// rounded once.
    let unrounded: Double?
    /// The largest figure that went into `remaining`: the estimate's
    /// (`RemainingEstimate.magnitude`), converted; what `remaining` and a sum are rounded to.
    let magnitude: Double?
  }

  /// One answer: a yarn alone, or the yarns of one name, colorway and dye lot together.
  public struct Entry: Hashable, Sendable {
    /// The yarns, in the order they were given; more than one for a group.
    public let members: [Member]
    /// `true`: enough for certain; `false`: not enough for certain; `nil`: unknown.
    public let enough: Bool?
    /// The members' figures added, in the unit asked for, unrounded, the sum rounded once to
    /// 15 significant digits, no finer than those of half the members' largest figures added
    /// (`UnitConversion.rounded(_:toPrecisionOf:)`); `nil` when a member has none. An upper
    /// bound when some member's estimate is incomplete.
    public let remaining: Amount?
    /// The part of the figure that is certain, in the unit asked for: the figures of the
    /// members without a missing fact, added (0 when none is certain).
    public let certain: Amount
    /// When `enough` is `nil`, the facts that would decide it (each once, in the order the
    /// members name them); empty when the answer is known.
    public let missing: [Missing]

    /// Whether the entry counts several yarns together.
    public var isGroup: Bool { members.count > 1 }
  }

  /// The answer for each yarn or group of `yarns` to "is there `needed` left?".
  ///
  /// - Parameters:
  ///   - needed: the amount needed, in any unit (the CLI asks a length or a weight); the
  ///     figures are given in its unit.
  ///   - yarns: the yarns to consider, each with its remaining estimate, in the order wanted:
  ///     an entry takes the place of its first member.
  ///   - sameDyeLot: a yarn without a dye lot is never certain to cover the need
  ///     (`Missing.dyeLot`).
  /// - Returns: one entry per group of yarns with the same name, colorway and known dye lot
  ///   (`groupKey`), and per other yarn.
  /// - Complexity: O(n) for n yarns (a dictionary of groups).
  public static func entries(
    needing needed: Amount, among yarns: [(yarn: Yarn, estimate: RemainingEstimate)],
    sameDyeLot: Bool = false
  ) -> [Entry] {
    var order: [[Member]] = []
    var groupIndex: [GroupKey: Int] = [:]
    for (yarn, estimate) in yarns {
      let member = self.member(yarn, estimate, in: needed.unit, sameDyeLot: sameDyeLot)
      if let key = groupKey(yarn) {
        if let index = groupIndex[key] {
          order[index].append(member)
          continue
        }
        groupIndex[key] = order.count
      }
      order.append([member])
    }
    return order.map { entry(of: $0, needed: needed) }
  }

  /// What makes yarns one group: the keys (`Lookup.key`) of the name, the colorway (an
  /// unknown colorway is the empty key) and the dye lot; `nil` when the dye lot is unknown
  /// or blank, as such a yarn is grouped with no other.
  public struct GroupKey: Hashable, Sendable {
    let name: String
    let colorway: String
    let dyeLot: String
  }

  /// The group `yarn` belongs to, or `nil` when it has no dye lot.
  public static func groupKey(_ yarn: Yarn) -> GroupKey? {
    guard let lot = yarn.dyeLot.map(Lookup.key), !lot.isEmpty else { return nil }
    return GroupKey(
      name: Lookup.key(yarn.name), colorway: Lookup.key(yarn.colorway ?? ""), dyeLot: lot)
  }

  private static func member(
    _ yarn: Yarn, _ estimate: RemainingEstimate, in unit: YarnUnit, sameDyeLot: Bool
  ) -> Member {
    var missing: [Missing] = []
    var remaining: Amount?
    var unrounded: Double?
    var magnitude: Double?
    if let figure = estimate.remaining, let exact = estimate.unroundedRemaining,
      let largest = estimate.magnitude
    {
      do {
        // The estimate before it was rounded, converted and rounded once, no finer than the
        // digits of half the largest figure that went into it: 2 yd less 0.9 m is 0.9288 m, not
        // 0.928799999999997 m (1.01574803149606 yd, rounded, converted), and 7 yd less 6.1 m
        // is 0.3008 m, not 0.300800000000001 m (to 15 digits of its own).
        let value = try UnitConversion.unroundedValue(
          of: Amount(exact, figure.unit), in: unit, putUp: yarn.putUp)
        let scale = try UnitConversion.unroundedValue(
          of: Amount(largest, figure.unit), in: unit, putUp: yarn.putUp)
        unrounded = value
        magnitude = scale
        // The figure itself in its own unit.
        remaining =
          figure.unit == unit ? figure : Amount(UnitConversion.rounded(value, toPrecisionOf: scale), unit)
      } catch {
        missing += error.missing.map(Missing.init)
      }
      if estimate.source == .incomplete { missing.append(.incompleteEstimate) }
    } else {
      missing.append(.quantity)
    }
    if sameDyeLot, groupKey(yarn) == nil { missing.append(.dyeLot) }
    return Member(
      yarn: yarn, estimate: estimate, remaining: remaining, missing: missing, unrounded: unrounded,
      magnitude: magnitude)
  }

  private static func entry(of members: [Member], needed: Amount) -> Entry {
    var certain = 0.0
    var largest: Double? = 0
    // The members' largest figures added, for the certain part and for all: what the sums
    // are rounded to, as a sum of differences is one difference.
    var certainMagnitude = 0.0
    var magnitude = 0.0
    for member in members {
      if let value = member.unrounded, let scale = member.magnitude {
        if member.missing.isEmpty {
          certain += value
          certainMagnitude += scale
        }
        largest = largest.map { $0 + value }
        magnitude += scale
      } else {
        largest = nil
      }
    }
    let tolerance = 1e-9 * max(1, needed.value)
    let enough: Bool?
    if certain >= needed.value - tolerance {
      enough = true
    } else if let largest, largest < needed.value - tolerance {
      enough = false
    } else {
      enough = nil
    }
    var missing: [Missing] = []
    if enough == nil {
      for fact in members.flatMap(\.missing) where !missing.contains(fact) { missing.append(fact) }
    }
    // Sums of the unrounded figures, rounded once, as every computed figure: the members'
    // rounded figures added could differ in the 15th digit (0.1 m and 0.2 m in yd were
    // 0.328083989501313, not 0.328083989501312). Each no finer than the digits of half the
    // largest figures that went into it: two yarns of 7 yd less 6.1 m are 0.6016 m, not 0.601600000000001.
    return Entry(
      members: members, enough: enough,
      remaining: largest.map { Amount(UnitConversion.rounded($0, toPrecisionOf: magnitude), needed.unit) },
      certain: Amount(UnitConversion.rounded(certain, toPrecisionOf: certainMagnitude), needed.unit),
      missing: missing)
  }
}

extension RemainingEstimate {
  /// How a list sorted by what is left compares yarns, most left first: a pair
  /// (`rank`, `value`) where a lower rank comes first and, within a rank, a larger value.
  ///
  /// Figures in different units are compared in the measure they share: rank 0, the length
  /// in meters, for every figure that converts to a length through the put-up (`yd`, `m`, and
  /// skeins or weights when the put-up gives the length); rank 1, the weight in grams, for
  /// the others that convert to a weight; rank 2, skeins, for skeins without a put-up;
  /// rank 3 (value 0) when there is no figure. Overdrawn yarns have 0 left.
  ///
  /// - Parameter putUp: the yarn's put-up (`Yarn.putUp`).
  public func sortMeasure(putUp: PutUp) -> (rank: Int, value: Double) {
    guard let remaining else { return (3, 0) }
    if let length = try? UnitConversion.convert(remaining, to: .meter, putUp: putUp) {
      return (0, length.value)
    }
    if let mass = try? UnitConversion.convert(remaining, to: .gram, putUp: putUp) {
      return (1, mass.value)
    }
    return (2, remaining.value)
  }
}
