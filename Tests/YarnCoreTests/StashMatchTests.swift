import Testing

@testable import YarnModel

/// "Is there enough?" (`StashMatch`, issue 14 item 6). Every figure is worked out by hand
/// (1 yd = 0.9144 m exactly).
@Suite struct StashMatchTests {
  private func estimate(_ yarn: Yarn, _ usages: [RemainingEstimate.CountedUsage] = []) -> (
    yarn: Yarn, estimate: RemainingEstimate
  ) {
    (yarn, RemainingEstimate(yarn: yarn, usages: usages))
  }

  private func close(_ amount: Amount?, _ value: Double, _ unit: YarnUnit) -> Bool {
    guard let amount else { return false }
    return amount.unit == unit && abs(amount.value - value) <= 1e-9 * max(1, value)
  }

  // 3 skeins of 220 yd: 660 yd, which covers 600 yd and not 700 yd.
  static let threeSkeins = Yarn(
    id: "y-3", name: "Cascade 220", lengthPerSkein: Amount(220, .yard), quantity: Amount(3, .skein))

  @Test func threeSkeinsOf220YardsCover600YardsButNot700() {
    let yes = StashMatch.entries(needing: Amount(600, .yard), among: [estimate(Self.threeSkeins)])
    #expect(yes.count == 1)
    #expect(yes[0].enough == true)
    #expect(close(yes[0].remaining, 660, .yard))
    #expect(yes[0].missing.isEmpty)
    let no = StashMatch.entries(needing: Amount(700, .yard), among: [estimate(Self.threeSkeins)])
    #expect(no[0].enough == false)
    #expect(close(no[0].remaining, 660, .yard))
    // Exactly 660 yd is enough; asked in meters, 660 yd = 603.504 m.
    #expect(
      StashMatch.entries(needing: Amount(660, .yard), among: [estimate(Self.threeSkeins)])[0].enough
        == true)
    let meters = StashMatch.entries(needing: Amount(603.504, .meter), among: [estimate(Self.threeSkeins)])
    #expect(meters[0].enough == true)
    #expect(close(meters[0].remaining, 603.504, .meter))
  }

  @Test func gramsWithoutALengthPerSkeinAreUnknown() {
    let grams = Yarn(
      id: "y-g", name: "Grams Only", netWeightPerSkein: Amount(100, .gram), quantity: Amount(200, .gram))
    let entry = StashMatch.entries(needing: Amount(100, .yard), among: [estimate(grams)])[0]
    #expect(entry.enough == nil)
    #expect(entry.remaining == nil)
    #expect(entry.missing == [.lengthPerSkein])
    #expect(entry.missing.map(\.rawValue) == ["no length per skein"])
    // Without any put-up, both facts are named, the length first.
    let bare = Yarn(id: "y-b", name: "Bare", quantity: Amount(200, .gram))
    #expect(
      StashMatch.entries(needing: Amount(100, .yard), among: [estimate(bare)])[0].missing
        == [.lengthPerSkein, .netWeightPerSkein])
    // No quantity: no figure.
    let unknown = Yarn(id: "y-u", name: "Unknown")
    let none = StashMatch.entries(needing: Amount(1, .gram), among: [estimate(unknown)])[0]
    #expect(none.enough == nil)
    #expect(none.missing == [.quantity])
  }

  @Test func weightAskedOfALengthThroughThePutUp() {
    // 200 yd / 100 g skeins: 800 yd = 4 skeins = 400 g, exactly enough for 400 g; 3 skeins
    // are 300 g, not enough.
    let long = Yarn(
      id: "y-l", name: "Long", lengthPerSkein: Amount(200, .yard), netWeightPerSkein: Amount(100, .gram),
      quantity: Amount(800, .yard))
    let short = Yarn(
      id: "y-s", name: "Short", lengthPerSkein: Amount(200, .yard), netWeightPerSkein: Amount(100, .gram),
      quantity: Amount(3, .skein))
    let entries = StashMatch.entries(needing: Amount(400, .gram), among: [estimate(long), estimate(short)])
    #expect(entries.map(\.enough) == [true, false])
    #expect(close(entries[0].remaining, 400, .gram))
    #expect(close(entries[1].remaining, 300, .gram))
  }

  @Test func anIncompleteEstimateIsUnknownUnlessEvenItsFigureFallsShort() {
    // 500 g, no put-up; a usage of 100 yd cannot be subtracted: 500 g is an upper bound.
    let wool = Yarn(id: "y-w", name: "Wool", quantity: Amount(500, .gram))
    let usages = [RemainingEstimate.CountedUsage(projectID: "p", amount: Amount(100, .yard))]
    let covers = StashMatch.entries(needing: Amount(400, .gram), among: [estimate(wool, usages)])[0]
    #expect(covers.enough == nil)
    #expect(covers.missing == [.incompleteEstimate])
    #expect(covers.missing.map(\.rawValue) == ["an incomplete estimate"])
    #expect(close(covers.remaining, 500, .gram))
    #expect(covers.certain == Amount(0, .gram))
    let short = StashMatch.entries(needing: Amount(600, .gram), among: [estimate(wool, usages)])[0]
    #expect(short.enough == false)
    #expect(short.missing.isEmpty)
  }

  @Test func overdrawnAndOverrideFigures() {
    // 1 skein of 100 g, 150 g used: overdrawn, 0 left.
    let over = Yarn(
      id: "y-o", name: "Over", netWeightPerSkein: Amount(100, .gram), quantity: Amount(1, .skein))
    let used = [RemainingEstimate.CountedUsage(projectID: "p", amount: Amount(150, .gram))]
    let entry = StashMatch.entries(needing: Amount(1, .gram), among: [estimate(over, used)])[0]
    #expect(entry.enough == false)
    #expect(close(entry.remaining, 0, .gram))
    // The user's figure of 2 skeins of 100 g: 200 g.
    let kept = Yarn(
      id: "y-k", name: "Kept", netWeightPerSkein: Amount(100, .gram), quantity: Amount(5, .skein),
      remainingOverride: Amount(2, .skein))
    let mine = StashMatch.entries(needing: Amount(200, .gram), among: [estimate(kept)])[0]
    #expect(mine.enough == true)
    #expect(close(mine.remaining, 200, .gram))
  }

  @Test func yarnsOfOneNameColorwayAndDyeLotCountTogether() {
    // Two records of Cascade 220 Ruby lot 4411 (case and spaces aside): 2 × 220 + 1 × 220 =
    // 660 yd together, enough for 600 yd though neither is alone. Another lot and a yarn
    // without a lot stay apart.
    func cascade(_ id: String, lot: String?, skeins: Double, colorway: String = "Ruby") -> Yarn {
      Yarn(
        id: id, name: "Cascade 220", colorway: colorway, dyeLot: lot,
        lengthPerSkein: Amount(220, .yard), quantity: Amount(skeins, .skein))
    }
    let yarns = [
      estimate(cascade("a", lot: "4411", skeins: 2)),
      estimate(cascade("b", lot: "9999", skeins: 2)),
      estimate(
        Yarn(
          id: "c", name: " cascade 220", colorway: "RUBY", dyeLot: "4411 ",
          lengthPerSkein: Amount(220, .yard), quantity: Amount(1, .skein))),
      estimate(cascade("d", lot: nil, skeins: 2)),
      estimate(cascade("e", lot: nil, skeins: 1)),
      estimate(cascade("f", lot: "4411", skeins: 2, colorway: "Navy")),
    ]
    let entries = StashMatch.entries(needing: Amount(600, .yard), among: yarns)
    #expect(entries.map { $0.members.map(\.yarn.id) } == [["a", "c"], ["b"], ["d"], ["e"], ["f"]])
    #expect(entries.map(\.enough) == [true, false, false, false, false])
    #expect(close(entries[0].remaining, 660, .yard))
    #expect(entries[0].isGroup)
    #expect(close(entries[0].members[1].remaining, 220, .yard))
  }

  @Test func aGroupsFigureIsTheUnroundedFiguresAddedAndRoundedOnce() {
    // 0.1 m and 0.2 m of one lot, in yd: 0.3 / 0.9144 = 0.32808398950131233595… yd, to 15
    // significant digits 0.328083989501312 (Python's decimal). The members' own figures,
    // 0.109361329833770778… and 0.218722659667541557…, round to 0.109361329833771 and
    // 0.218722659667542, whose sum, 0.328083989501313, is a 15th digit off (QA).
    func silk(_ id: String, _ meters: Double) -> Yarn {
      Yarn(id: id, name: "Silk", colorway: "Red", dyeLot: "L1", quantity: Amount(meters, .meter))
    }
    let entry = StashMatch.entries(
      needing: Amount(0.3, .yard), among: [estimate(silk("a", 0.1)), estimate(silk("b", 0.2))])[0]
    #expect(entry.enough == true)
    #expect(entry.remaining == Amount(0.328083989501312, .yard))
    #expect(entry.certain == Amount(0.328083989501312, .yard))
    #expect(
      entry.members.map(\.remaining) == [Amount(0.109361329833771, .yard), Amount(0.218722659667542, .yard)])
  }

  @Test func aYarnsFigureInAnotherUnitIsRoundedOnce() {
    // 2 yd less 0.9 m used, asked in m: 2 × 0.9144 − 0.9 = 0.9288 m exactly. In yd the
    // estimate is 2 − 0.9 / 0.9144 = 2 − 125/127 = 129/127 = 1.0157480314960629921… yd, to 15
    // significant digits 1.01574803149606; that figure converted, 1.01574803149606 × 0.9144 =
    // 0.92879999999999726… m, rounded again is 0.928799999999997 m (QA: two roundings).
    let yarn = Yarn(id: "y-r", name: "Rounded", quantity: Amount(2, .yard))
    let used = [RemainingEstimate.CountedUsage(projectID: "p", amount: Amount(0.9, .meter))]
    let entry = StashMatch.entries(needing: Amount(0.9288, .meter), among: [estimate(yarn, used)])[0]
    #expect(entry.enough == true)
    #expect(entry.members[0].remaining?.value == 0.9288)
    #expect(entry.remaining?.value == 0.9288)
    #expect(entry.certain.value == 0.9288)
    #expect(entry.remaining?.unit == .meter)
    // The estimate itself, in its own unit, is rounded once as before.
    #expect(entry.members[0].estimate.remaining == Amount(1.01574803149606, .yard))
  }

  /// A figure made by subtracting keeps no finer than the 15 significant digits of half the
  /// largest figure that went into it (QA): 7 yd less 6.1 m used, asked in m, is 7 × 0.9144 −
  /// 6.1 = 6.4008 − 6.1 = 0.3008 m exactly, to the 15 digits of 3.2004 m (was 0.300800000000001 m, 15 digits of
  /// its own). Two such yarns of one lot are 0.6016 m, certain and in all (was
  /// 0.601600000000001 m).
  @Test func aDifferenceKeepsTheDigitsOfItsLargestTerm() {
    func sock(_ id: String) -> (yarn: Yarn, estimate: RemainingEstimate) {
      estimate(
        Yarn(id: id, name: "Sock", dyeLot: "9", quantity: Amount(7, .yard)),
        [RemainingEstimate.CountedUsage(projectID: "p", amount: Amount(6.1, .meter))])
    }
    let one = StashMatch.entries(needing: Amount(0.3008, .meter), among: [sock("a")])[0]
    #expect(one.enough == true)
    #expect(one.members[0].remaining == Amount(0.3008, .meter))
    #expect(one.remaining == Amount(0.3008, .meter))
    #expect(one.certain == Amount(0.3008, .meter))
    let two = StashMatch.entries(needing: Amount(0.6, .meter), among: [sock("a"), sock("b")])[0]
    #expect(two.isGroup)
    #expect(two.remaining == Amount(0.6016, .meter))
    #expect(two.certain == Amount(0.6016, .meter))
  }

  /// Where little cancels, a figure keeps 15 digits of its own (QA: one fewer, rounded at the
  /// 15th digit of the largest figure, not of half of it). 1 m less 0.1 yd, asked in yd: 1 / 0.9144 − 0.1 =
  /// 1.093613298337707786… − 0.1 = 0.993613298337707786… yd, 0.993613298337708 (was
  /// 0.99361329833771, the 14 decimals of 1 m = 1.0936… yd). A lot of 1 yd less 0.1 m and
  /// 0.2 m (1 − 125 / 381 yd, by hand: 0.3 / 0.9144 = 125 / 381 = 0.328083989501312336… yd)
  /// and 0.2 yd: 1.2 − 0.328083989501312336… = 0.871916010498687664… yd, 0.871916010498688
  /// (was 0.87191601049869, the 14 decimals of the figures added, 1.2 yd).
  @Test func aDifferenceWhereLittleCancelsKeepsFifteenDigits() {
    let meter = Yarn(id: "m", name: "Meter", quantity: Amount(1, .meter))
    let used = [RemainingEstimate.CountedUsage(projectID: "p", amount: Amount(0.1, .yard))]
    let one = StashMatch.entries(needing: Amount(0.9, .yard), among: [estimate(meter, used)])[0]
    #expect(one.members[0].remaining == Amount(0.993613298337708, .yard))
    #expect(one.remaining == Amount(0.993613298337708, .yard))
    let a = Yarn(id: "a", name: "Lot", dyeLot: "3", quantity: Amount(1, .yard))
    let b = Yarn(id: "b", name: "Lot", dyeLot: "3", quantity: Amount(0.2, .yard))
    let usages = [
      RemainingEstimate.CountedUsage(projectID: "p", amount: Amount(0.1, .meter)),
      RemainingEstimate.CountedUsage(projectID: "q", amount: Amount(0.2, .meter)),
    ]
    let lot = StashMatch.entries(needing: Amount(0.8, .yard), among: [estimate(a, usages), estimate(b)])[0]
    #expect(lot.isGroup)
    #expect(lot.remaining == Amount(0.871916010498688, .yard))
    #expect(lot.certain == Amount(0.871916010498688, .yard))
  }

  @Test func aGroupWithAnUnknownMemberIsDecidedByWhatIsCertain() {
    // Lot 7: 2 skeins of 220 yd (440 yd, certain) and a record of 300 g without a put-up.
    let known = Yarn(
      id: "a", name: "Wool", dyeLot: "7", lengthPerSkein: Amount(220, .yard), quantity: Amount(2, .skein))
    let grams = Yarn(id: "b", name: "Wool", dyeLot: "7", quantity: Amount(300, .gram))
    let yarns = [estimate(known), estimate(grams)]
    // 400 yd: the certain 440 yd covers it.
    let covered = StashMatch.entries(needing: Amount(400, .yard), among: yarns)[0]
    #expect(covered.enough == true)
    #expect(covered.remaining == nil)
    #expect(close(covered.certain, 440, .yard))
    #expect(covered.missing.isEmpty)
    // 500 yd: unknown, for want of the second record's put-up.
    let open = StashMatch.entries(needing: Amount(500, .yard), among: yarns)[0]
    #expect(open.enough == nil)
    #expect(open.missing == [.lengthPerSkein, .netWeightPerSkein])
  }

  @Test func sameDyeLotMakesAYarnWithoutALotUnknown() {
    let noLot = Yarn(
      id: "n", name: "Wool", lengthPerSkein: Amount(220, .yard), quantity: Amount(3, .skein))
    let plain = StashMatch.entries(needing: Amount(600, .yard), among: [estimate(noLot)])[0]
    #expect(plain.enough == true)
    let strict = StashMatch.entries(
      needing: Amount(600, .yard), among: [estimate(noLot)], sameDyeLot: true)[0]
    #expect(strict.enough == nil)
    #expect(strict.missing == [.dyeLot])
    #expect(strict.missing.map(\.rawValue) == ["no dye lot"])
    // Not enough whatever its lot: 660 yd < 700 yd.
    let short = StashMatch.entries(
      needing: Amount(700, .yard), among: [estimate(noLot)], sameDyeLot: true)[0]
    #expect(short.enough == false)
  }

  @Test func sortMeasureRanksLengthsThenWeightsThenSkeins() {
    // 3 skeins of 220 yd: 660 × 0.9144 = 603.504 m. 200 g without a length: 200 g.
    // 2 bare skeins: 2. No quantity: last.
    #expect(
      RemainingEstimate(yarn: Self.threeSkeins, usages: []).sortMeasure(putUp: Self.threeSkeins.putUp)
        .rank == 0)
    #expect(
      abs(
        RemainingEstimate(yarn: Self.threeSkeins, usages: []).sortMeasure(putUp: Self.threeSkeins.putUp)
          .value - 603.504) < 1e-9)
    let grams = Yarn(id: "g", name: "G", quantity: Amount(200, .gram))
    #expect(RemainingEstimate(yarn: grams, usages: []).sortMeasure(putUp: grams.putUp) == (1, 200))
    let skeins = Yarn(id: "s", name: "S", quantity: Amount(2, .skein))
    #expect(RemainingEstimate(yarn: skeins, usages: []).sortMeasure(putUp: skeins.putUp) == (2, 2))
    let none = Yarn(id: "n", name: "N")
    #expect(RemainingEstimate(yarn: none, usages: []).sortMeasure(putUp: none.putUp) == (3, 0))
  }

  @Test func foldingIgnoresCaseAndAccents() {
    #expect(Lookup.folded("Café") == "cafe")
    #expect(Lookup.folded("CAFÉ") == "cafe")
    // NFD input (e + U+0301) folds alike.
    #expect(Lookup.folded("Cafe\u{301}") == "cafe")
    #expect(Lookup.folded("Straße") == "strasse")
    #expect(Lookup.folded("Ångström Øre") == "angstrom øre")
    #expect(Lookup.folded("ΣΊΣΥΦΟΣ") == "σισυφοσ")
    #expect(Lookup.folded("Plain ASCII 220") == "plain ascii 220")
  }
}
