import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

/// Expected figures were worked out by hand from the definitions (1 oz = 28.349523125 g,
/// 1 yd = 0.9144 m) and the put-ups on the ball bands; a calculator did the long division.
@Suite struct UnitConversionTests {
  /// Cascade 220: 220 yd per 100 g skein.
  let cascade = PutUp(lengthPerSkein: Amount(220, .yard), netWeightPerSkein: Amount(100, .gram))
  /// Drops Alpaca: 167 m per 50 g skein.
  let dropsAlpaca = PutUp(lengthPerSkein: Amount(167, .meter), netWeightPerSkein: Amount(50, .gram))

  private func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-9 * max(1, abs(b)) }

  private func convert(_ value: Double, _ from: YarnUnit, _ to: YarnUnit, _ putUp: PutUp) throws -> Double {
    try UnitConversion.convert(Amount(value, from), to: to, putUp: putUp).value
  }

  @Test func exactConstants() {
    #expect(UnitConversion.gramsPerOunce == 28.349523125)
    #expect(UnitConversion.metersPerYard == 0.9144)
  }

  /// Every ordered pair of the five units, with Cascade 220's put-up. (value, from, to, expected)
  @Test(arguments: [
    (2.0, YarnUnit.skein, YarnUnit.gram, 200.0), (200, .gram, .skein, 2),
    (2, .skein, .ounce, 7.0547923899160825), (7.0547923899160825, .ounce, .skein, 2),
    (2, .skein, .yard, 440), (440, .yard, .skein, 2),
    (2, .skein, .meter, 402.336), (402.336, .meter, .skein, 2),
    (1, .ounce, .gram, 28.349523125), (28.349523125, .gram, .ounce, 1),
    (100, .gram, .ounce, 3.5273961949580412),
    (150, .gram, .yard, 330), (330, .yard, .gram, 150),
    (150, .gram, .meter, 301.752), (301.752, .meter, .gram, 150),
    (1, .ounce, .yard, 62.368950875), (62.368950875, .yard, .ounce, 1),
    (1, .ounce, .meter, 57.030168680100), (57.030168680100, .meter, .ounce, 1),
    (1, .yard, .meter, 0.9144), (100, .meter, .yard, 109.36132983377078),
    (100, .meter, .skein, 0.4970969537898672), (100, .meter, .gram, 49.709695378986716),
  ])
  func cascadePairs(value: Double, from: YarnUnit, to: YarnUnit, expected: Double) throws {
    let result = try convert(value, from, to, cascade)
    #expect(close(result, expected), "\(value) \(from) → \(to): \(result), expected \(expected)")
  }

  /// An amount in the put-up's own units converts exactly, not through meters and grams
  /// (where 3 × 170 yd came back as 510.00000000000006 and 4 × 231 yd as 923.9999999999999).
  @Test func putUpUnitsConvertExactly() throws {
    let ball = PutUp(lengthPerSkein: Amount(170, .yard), netWeightPerSkein: Amount(85, .gram))
    #expect(try convert(3, .skein, .yard, ball) == 510)  // 3 × 170
    #expect(try convert(510, .yard, .skein, ball) == 3)
    let palette = PutUp(lengthPerSkein: Amount(231, .yard), netWeightPerSkein: Amount(50, .gram))
    #expect(try convert(200, .gram, .yard, palette) == 924)  // 200 / 50 × 231
    #expect(try convert(924, .yard, .gram, palette) == 200)
    #expect(try convert(150, .gram, .yard, cascade) == 330)  // 1.5 × 220
    #expect(try convert(2, .skein, .gram, cascade) == 200)
  }

  /// Put-ups with decimals: the figures are the decimals a person works out, not their binary
  /// noise (QA: 3 × 0.1 kg gave 0.30000000000000004).
  @Test func decimalPutUpsGiveTheirDecimals() throws {
    #expect(try convert(3, .skein, .kilogram, PutUp(netWeightPerSkein: Amount(0.1, .kilogram))) == 0.3)
    #expect(try convert(1.1, .skein, .yard, PutUp(lengthPerSkein: Amount(3, .yard))) == 3.3)
    #expect(try convert(0.3, .pound, .skein, PutUp(netWeightPerSkein: Amount(0.1, .pound))) == 3)
    #expect(try convert(150, .gram, .skein, PutUp(netWeightPerSkein: Amount(0.1, .kilogram))) == 1.5)
    #expect(try convert(0.1, .pound, .ounce, PutUp()) == 1.6)  // 0.1 × 16
    // 100 m = 109.3613298337707786… yd: 15 significant digits.
    #expect(try convert(100, .meter, .yard, PutUp()) == 109.361329833771)
  }

  /// Rounding to 15 significant digits, by hand: the digits a decimal keeps through a double.
  @Test func roundedKeepsFifteenSignificantDigits() {
    #expect(UnitConversion.rounded(0.1 + 0.2) == 0.3)
    #expect(UnitConversion.rounded(489.99999999999994) == 490)
    #expect(UnitConversion.rounded(1245.4371243750002) == 1245.437124375)
    #expect(UnitConversion.rounded(-2.0000000000000004) == -2)
    #expect(UnitConversion.rounded(2.0 / 3.0) == 0.666666666666667)
    #expect(UnitConversion.rounded(123_456_789_012_345_678) == 123_456_789_012_346_000)
    #expect(UnitConversion.rounded(0.000_000_123_456_789_012_345_67) == 0.000_000_123_456_789_012_346)
    // Outside 1e-8 ..< 1e21, and not finite: as they are.
    #expect(UnitConversion.rounded(5e-324) == 5e-324)
    #expect(UnitConversion.rounded(1e300) == 1e300)
    #expect(UnitConversion.rounded(.infinity) == .infinity)
    #expect(UnitConversion.rounded(0) == 0)
  }

  /// A difference no finer than the 15 significant digits of half the largest figure that went
  /// into it (`toPrecisionOf`), by hand: 7 yd less 6.1 m, in m, is 7 × 0.9144 − 6.1 = 0.3008
  /// exactly; binary arithmetic gives 0.3008000000000006, whose noise is below the 15 digits
  /// of 3.2004 m (half 7 yd, 6.4008 m) but not of 0.3008. A magnitude below the value's
  /// changes nothing.
  @Test func aDifferenceIsRoundedToTheDigitsOfItsLargestTerm() {
    #expect(UnitConversion.rounded(0.3008000000000006) == 0.300800000000001)
    #expect(UnitConversion.rounded(0.3008000000000006, toPrecisionOf: 6.4008) == 0.3008)
    // 1 m less 1.1 yd: 1 − 1.00584 = −0.00584 (binary −0.005840000000000067).
    #expect(UnitConversion.rounded(-0.005840000000000067, toPrecisionOf: 1.00584) == -0.00584)
    // 2/3 = 0.666…: to 15 digits of half 1000, 500 (12 decimals), 0.666666666667; of 0.001
    // (smaller), its own 15.
    #expect(UnitConversion.rounded(2.0 / 3.0, toPrecisionOf: 1000) == 0.666666666667)
    #expect(UnitConversion.rounded(2.0 / 3.0, toPrecisionOf: 0.001) == 0.666666666666667)
    // Noise under the 15th digit of 3 is nothing, though 4e-16 alone is under 1e-8.
    #expect(UnitConversion.rounded(4e-16, toPrecisionOf: 3) == 0)
    #expect(UnitConversion.rounded(4e-16) == 4e-16)
  }

  /// Where little cancels, a difference keeps 15 significant digits of its own: it is rounded
  /// at the 15th digit of half its largest term only when that is coarser (QA: 1 yd less
  /// 0.1 m and 0.2 m showed 0.67191601049869 yd, 14 digits). By hand, 0.3 / 0.9144 =
  /// 3000 / 9144 = 125 / 381 = 0.328083989501312335958… yd, so 1 yd less it is 256 / 381 =
  /// 0.671916010498687664041… yd: 15 digits 0.671916010498688 (binary 0.6719160104986877;
  /// half of 1 yd, 0.5, is below it). 1.1 yd less it is 0.771916010498687664… yd:
  /// 0.771916010498688.
  @Test func aDifferenceKeepsItsOwnDigitsWhereLittleCancels() {
    #expect(UnitConversion.rounded(1 - 0.1 / 0.9144 - 0.2 / 0.9144, toPrecisionOf: 1) == 0.671916010498688)
    #expect(
      UnitConversion.rounded(1.1 - 0.1 / 0.9144 - 0.2 / 0.9144, toPrecisionOf: 1.1) == 0.771916010498688)
    // 98 g less 88.1 g is 9.9 g exactly; binary 9.900000000000006, whose noise (88.1's, at
    // the 16th digit of 98) is at the 15th digit of 9.9 (9.90000000000001) but below that of
    // half 98, 49: 9.9.
    #expect(UnitConversion.rounded(98 - 88.1, toPrecisionOf: 98) == 9.9)
  }

  @Test func metricPutUp() throws {
    #expect(close(try convert(1, .skein, .yard, dropsAlpaca), 182.6334208223972))
    #expect(close(try convert(3, .ounce, .meter, dropsAlpaca), 284.0622217125))
    #expect(close(try convert(500, .yard, .skein, dropsAlpaca), 2.7377245508982035))
    #expect(close(try convert(500, .yard, .ounce, dropsAlpaca), 4.828519581840768))
  }

  @Test func roundTripsWithin1e9() throws {
    for from in YarnUnit.allCases {
      for to in YarnUnit.allCases {
        let there = try convert(3.7, from, to, dropsAlpaca)
        let back = try convert(there, to, from, dropsAlpaca)
        #expect(close(back, 3.7), "\(from) → \(to) → \(from)")
      }
    }
  }

  @Test func sameDimensionNeedsNoPutUp() throws {
    #expect(try convert(1, .ounce, .gram, PutUp()) == 28.349523125)
    #expect(try convert(1, .yard, .meter, PutUp()) == 0.9144)
    #expect(try convert(5, .skein, .skein, PutUp()) == 5)
  }

  @Test func missingFactsAreNamed() {
    let noWeight = PutUp(lengthPerSkein: Amount(220, .yard))
    let noLength = PutUp(netWeightPerSkein: Amount(100, .gram))
    #expect(throws: ConversionError(from: .skein, to: .gram, missing: [.netWeightPerSkein])) {
      try convert(1, .skein, .gram, noWeight)
    }
    #expect(throws: ConversionError(from: .ounce, to: .skein, missing: [.netWeightPerSkein])) {
      try convert(1, .ounce, .skein, noWeight)
    }
    #expect(throws: ConversionError(from: .skein, to: .meter, missing: [.lengthPerSkein])) {
      try convert(1, .skein, .meter, noLength)
    }
    #expect(throws: ConversionError(from: .gram, to: .yard, missing: [.lengthPerSkein])) {
      try convert(1, .gram, .yard, noLength)
    }
    #expect(throws: ConversionError(from: .yard, to: .gram, missing: [.lengthPerSkein, .netWeightPerSkein])) {
      try convert(1, .yard, .gram, PutUp())
    }
    let error = ConversionError(from: .skein, to: .gram, missing: [.netWeightPerSkein])
    #expect(error.description == "converting skein to g needs the net weight per skein")
  }

  @Test func zeroOrWrongDimensionFactsCountAsUnknown() {
    let zero = PutUp(lengthPerSkein: Amount(0, .yard), netWeightPerSkein: Amount(100, .yard))
    #expect(throws: ConversionError(from: .skein, to: .gram, missing: [.netWeightPerSkein])) {
      try convert(1, .skein, .gram, zero)
    }
    #expect(throws: ConversionError(from: .skein, to: .yard, missing: [.lengthPerSkein])) {
      try convert(1, .skein, .yard, zero)
    }
  }
}

@Suite struct RemainingEstimateTests {
  func yarn(quantity: Amount?, override: Amount? = nil, putUp: PutUp = PutUp()) -> Yarn {
    Yarn(
      id: "y1", name: "Test", lengthPerSkein: putUp.lengthPerSkein,
      netWeightPerSkein: putUp.netWeightPerSkein, quantity: quantity, remainingOverride: override)
  }
  let cascade = PutUp(lengthPerSkein: Amount(220, .yard), netWeightPerSkein: Amount(100, .gram))

  @Test func overrideWins() {
    let estimate = RemainingEstimate(
      yarn: yarn(quantity: Amount(3, .skein), override: Amount(40, .gram)),
      usages: [.init(projectID: "p", amount: Amount(1, .skein))])
    #expect(estimate.source == .override)
    #expect(estimate.remaining == Amount(40, .gram))
  }

  @Test func estimateConvertsEveryUsage() throws {
    // 3 skeins − 150 g (1.5 skeins) − 110 yd (0.5 skein) = 1 skein.
    let estimate = RemainingEstimate(
      yarn: yarn(quantity: Amount(3, .skein), putUp: cascade),
      usages: [
        .init(projectID: "a", amount: Amount(150, .gram)), .init(projectID: "b", amount: Amount(110, .yard)),
      ])
    #expect(estimate.source == .estimate)
    let left = try #require(estimate.remaining)
    #expect(left.unit == .skein)
    #expect(abs(left.value - 1) < 1e-12)
    #expect(estimate.unconverted.isEmpty)
  }

  /// 1000 yd less 3 skeins of 170 yd is 490 yd exactly (was 489.99999999999994, in the CSV
  /// and JSON too, from a round trip through meters).
  @Test func sameUnitsLeaveAnExactFigure() throws {
    let estimate = RemainingEstimate(
      yarn: yarn(quantity: Amount(1000, .yard), putUp: PutUp(lengthPerSkein: Amount(170, .yard))),
      usages: [.init(projectID: "a", amount: Amount(3, .skein))])
    #expect(estimate.remaining == Amount(490, .yard))
  }

  /// QA: 10 yd less 1.1 skeins of 3 yd is 6.7 yd (was 6.699999999999999), 5 skeins of
  /// 1.1 kg less 3.3 kg are 2 skeins (was 2.0000000000000004); a quantity nothing was taken
  /// from stays as given, every digit.
  @Test func decimalFiguresLeaveTheirDecimals() throws {
    let threeYards = PutUp(lengthPerSkein: Amount(3, .yard))
    let b = RemainingEstimate(
      yarn: yarn(quantity: Amount(10, .yard), putUp: threeYards),
      usages: [.init(projectID: "a", amount: Amount(1.1, .skein))])
    #expect(b.remaining == Amount(6.7, .yard))
    let c = RemainingEstimate(
      yarn: yarn(quantity: Amount(5, .skein), putUp: PutUp(netWeightPerSkein: Amount(1.1, .kilogram))),
      usages: [.init(projectID: "a", amount: Amount(3.3, .kilogram))])
    #expect(c.remaining == Amount(2, .skein))  // 5 − 3.3 / 1.1
    let untouched = RemainingEstimate(yarn: yarn(quantity: Amount(0.12345678901234567, .gram)), usages: [])
    #expect(untouched.remaining == Amount(0.12345678901234567, .gram))
  }

  /// 4 yd less 1 m and 2 m: 4 − 3 / 0.9144 = 4 − 3.28083989501312335958… =
  /// 0.71916010498687664041… yd, to the 15 significant digits of half 4 yd, 2 yd (14
  /// decimals), 0.71916010498688. Less each usage rounded first (1.09361329833771 and
  /// 2.18722659667542 yd) it would be 0.71916010498687; to 15 digits of its own,
  /// 0.719160104986877.
  @Test func usagesAreSubtractedUnroundedAndTheFigureRoundedOnce() throws {
    let estimate = RemainingEstimate(
      yarn: yarn(quantity: Amount(4, .yard)),
      usages: [
        .init(projectID: "a", amount: Amount(1, .meter)),
        .init(projectID: "b", amount: Amount(2, .meter)),
      ])
    #expect(estimate.source == .estimate)
    #expect(estimate.remaining == Amount(0.71916010498688, .yard))
  }

  /// A difference keeps the 15 significant digits of half the larger of the quantity and the
  /// total used where they are coarser than its own 15: below them is the noise of the terms
  /// (QA: 7 yd less 6.1 m). By hand, 7 yd less 6.1 m is 7 − 6.1 / 0.9144 = 0.3008 / 0.9144 =
  /// 376 / 1143 = 0.32895888013998250218… yd, to the 15 digits of half 7 yd, 3.5 yd (14
  /// decimals), 0.32895888013998
  /// (to 15 of its own, 0.328958880139983, its 15th digit a near-half the noise decides).
  @Test func aDifferenceKeepsTheDigitsOfItsLargestTerm() throws {
    let yards = RemainingEstimate(
      yarn: yarn(quantity: Amount(7, .yard)), usages: [.init(projectID: "a", amount: Amount(6.1, .meter))])
    #expect(yards.source == .estimate)
    #expect(yards.remaining == Amount(0.32895888013998, .yard))
    // 1.1 m less 1.2 yd: 1.1 − 1.2 × 0.9144 = 1.1 − 1.09728 = 0.00272 m exactly (binary
    // 0.00272000000000006).
    let meters = RemainingEstimate(
      yarn: yarn(quantity: Amount(1.1, .meter)), usages: [.init(projectID: "a", amount: Amount(1.2, .yard))])
    #expect(meters.remaining == Amount(0.00272, .meter))
    // 1 m less 1.1 yd: overdrawn by 1.1 × 0.9144 − 1 = 0.00584 m exactly (binary
    // 0.005840000000000067).
    let overdrawn = RemainingEstimate(
      yarn: yarn(quantity: Amount(1, .meter)), usages: [.init(projectID: "a", amount: Amount(1.1, .yard))])
    #expect(overdrawn.source == .overdrawn)
    #expect(overdrawn.deficit == 0.00584)
  }

  /// 1 yd less 0.1 m and 0.2 m: 1 − 0.3 / 0.9144 = 256 / 381 = 0.671916010498687664… yd,
  /// 15 digits of its own (by hand, as in `aDifferenceKeepsItsOwnDigitsWhereLittleCancels`),
  /// 0.671916010498688; QA saw 0.67191601049869, rounded at the 15th digit of 1 yd.
  @Test func aDifferenceWhereLittleCancelsKeepsFifteenDigits() throws {
    let estimate = RemainingEstimate(
      yarn: yarn(quantity: Amount(1, .yard)),
      usages: [
        .init(projectID: "a", amount: Amount(0.1, .meter)),
        .init(projectID: "b", amount: Amount(0.2, .meter)),
      ])
    #expect(estimate.source == .estimate)
    #expect(estimate.remaining == Amount(0.671916010498688, .yard))
    // 98 g less 88.1 g: 9.9 g, not the 9.90000000000001 of 15 digits of its own.
    let grams = RemainingEstimate(
      yarn: yarn(quantity: Amount(98, .gram)), usages: [.init(projectID: "a", amount: Amount(88.1, .gram))])
    #expect(grams.remaining == Amount(9.9, .gram))
  }

  @Test func incompleteListsWhatIsMissing() throws {
    // 500 g − 2 oz (56.69904625 g) = 443.30095375 g; the 100 yd usage cannot be converted.
    let estimate = RemainingEstimate(
      yarn: yarn(quantity: Amount(500, .gram)),
      usages: [
        .init(projectID: "a", amount: Amount(2, .ounce)), .init(projectID: "b", amount: Amount(100, .yard)),
      ])
    #expect(estimate.source == .incomplete)
    let left = try #require(estimate.remaining)
    #expect(abs(left.value - 443.30095375) < 1e-9)
    #expect(estimate.unconverted.count == 1)
    #expect(estimate.unconverted.first?.projectID == "b")
    #expect(estimate.unconverted.first?.missing == [.lengthPerSkein, .netWeightPerSkein])
  }

  /// What is left within a billionth of the quantity is 0 (docs/UNITS.md), relative to the
  /// quantity (QA: 0.000000001 g with nothing used was shown as `0 g`, a fixed 1e-9 cut-off).
  @Test func theNoiseToleranceIsABillionthOfTheQuantity() throws {
    let tiny = RemainingEstimate(yarn: yarn(quantity: Amount(0.000000001, .gram)), usages: [])
    #expect(tiny.source == .estimate)
    #expect(tiny.remaining == Amount(0.000000001, .gram))
    // 0.000000001 g − 0.0000000005 g = 0.0000000005 g, half the quantity: left.
    let half = RemainingEstimate(
      yarn: yarn(quantity: Amount(0.000000001, .gram)),
      usages: [.init(projectID: "a", amount: Amount(0.0000000005, .gram))])
    #expect(half.remaining == Amount(0.0000000005, .gram))
    #expect(half.remaining?.description == "0.0000000005 g")
    // 1000 g − 999.9999999 g leaves about 0.0000001 g, a ten-billionth: 0.
    let noise = RemainingEstimate(
      yarn: yarn(quantity: Amount(1000, .gram)),
      usages: [.init(projectID: "a", amount: Amount(999.9999999, .gram))])
    #expect(noise.source == .estimate)
    #expect(noise.remaining == Amount(0, .gram))
    // 1000 g − 999.99999 g leaves about 0.00001 g, above a billionth (0.000001 g): left.
    let some = RemainingEstimate(
      yarn: yarn(quantity: Amount(1000, .gram)),
      usages: [.init(projectID: "a", amount: Amount(999.99999, .gram))])
    #expect(abs((some.remaining?.value ?? 0) - 0.00001) < 1e-12)
  }

  @Test func overdrawnGivesZeroAndTheDeficit() throws {
    // 2 skeins − 300 g (3 skeins) = −1 skein.
    let estimate = RemainingEstimate(
      yarn: yarn(quantity: Amount(2, .skein), putUp: cascade),
      usages: [.init(projectID: "a", amount: Amount(300, .gram))])
    #expect(estimate.source == .overdrawn)
    #expect(estimate.remaining == Amount(0, .skein))
    #expect(abs((estimate.deficit ?? 0) - 1) < 1e-12)
  }

  @Test func unknownWithoutQuantity() {
    let estimate = RemainingEstimate(yarn: yarn(quantity: nil), usages: [])
    #expect(estimate.source == .unknown)
    #expect(estimate.remaining == nil)
  }

  @Test func onlyFinishedProjectsCountUnlessActiveIncluded() throws {
    let wool = yarn(quantity: Amount(1000, .meter))
    var library = Library(yarns: [wool])
    for (index, status) in ProjectStatus.allCases.enumerated() {
      library.projects.append(
        Project(
          id: "p\(index)", name: status.rawValue, status: status,
          usages: [YarnUsage(yarnID: "y1", amount: Amount(100, .meter))]))
    }
    #expect(library.remaining(of: wool).remaining == Amount(900, .meter))
    #expect(library.remaining(of: wool, includeActive: true).remaining == Amount(800, .meter))
  }
}
