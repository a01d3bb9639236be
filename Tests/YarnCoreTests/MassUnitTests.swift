import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

/// Kilograms and pounds (issue 14, item 4). Expected figures are worked by hand from the
/// definitions: 1 kg = 1000 g; 1 lb = 0.45359237 kg = 453.59237 g exactly (International Yard
/// and Pound agreement, 1959; ../shared/data/reference/README.md, "Exact unit constants").
@Suite struct MassUnitTests {
  private func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-9 * max(1, abs(b)) }

  private func convert(_ value: Double, _ from: YarnUnit, _ to: YarnUnit, _ putUp: PutUp = PutUp())
    throws -> Double
  {
    try UnitConversion.convert(Amount(value, from), to: to, putUp: putUp).value
  }

  @Test func exactConstants() {
    #expect(UnitConversion.gramsPerPound == 453.59237)
    #expect(UnitConversion.gramsPerKilogram == 1000)
    // 16 oz = 16 × 28.349523125 g = 453.59237 g.
    #expect(close(16 * UnitConversion.gramsPerOunce, UnitConversion.gramsPerPound))
  }

  /// (value, from, to, expected), worked by hand.
  @Test(arguments: [
    (1.0, YarnUnit.pound, YarnUnit.gram, 453.59237), (453.59237, .gram, .pound, 1),
    (2.5, .kilogram, .gram, 2500), (250, .gram, .kilogram, 0.25),
    (3, .pound, .ounce, 48), (8, .ounce, .pound, 0.5),
    // 1000 / 453.59237 = 2.2046226218487757…
    (1, .kilogram, .pound, 2.2046226218487757), (1, .pound, .kilogram, 0.45359237),
    // 1000 g / 28.349523125 = 35.27396194958041…
    (1, .kilogram, .ounce, 35.27396194958041),
  ])
  func withinMass(value: Double, from: YarnUnit, to: YarnUnit, expected: Double) throws {
    let result = try convert(value, from, to)
    #expect(close(result, expected), "\(value) \(from) → \(to): \(result), expected \(expected)")
  }

  @Test func acrossDimensionsByThePutUp() throws {
    // 100 g and 200 m a skein: 1 lb = 4.5359237 skeins = 907.18474 m.
    let put = PutUp(lengthPerSkein: Amount(200, .meter), netWeightPerSkein: Amount(100, .gram))
    #expect(close(try convert(1, .pound, .meter, put), 907.18474))
    #expect(close(try convert(1, .pound, .skein, put), 4.5359237))
    #expect(close(try convert(907.18474, .meter, .pound, put), 1))
    // 1 kg = 10 skeins = 2000 m; 3 skeins = 0.3 kg.
    #expect(close(try convert(1, .kilogram, .meter, put), 2000))
    #expect(close(try convert(3, .skein, .kilogram, put), 0.3))
    // A put-up in kg and lb: 0.1 kg a skein (100 g), 220 yd; 1 lb = 4.5359237 skeins = 997.903214 yd.
    let cone = PutUp(lengthPerSkein: Amount(220, .yard), netWeightPerSkein: Amount(0.1, .kilogram))
    #expect(close(try convert(1, .pound, .yard, cone), 997.903214))
    #expect(throws: ConversionError(from: .pound, to: .meter, missing: [.lengthPerSkein])) {
      try convert(1, .pound, .meter, PutUp(netWeightPerSkein: Amount(1, .pound)))
    }
  }

  @Test func theWordsAreRead() throws {
    for (text, expected) in [
      ("2 kg", Amount(2, .kilogram)), ("2KG", Amount(2, .kilogram)), ("1.5 kilos", Amount(1.5, .kilogram)),
      ("1 kilogram", Amount(1, .kilogram)), ("3 lb", Amount(3, .pound)), ("3lbs", Amount(3, .pound)),
      ("1 pound", Amount(1, .pound)), ("0,5 Pounds", Amount(0.5, .pound)),
    ] {
      #expect(try Amount(parsing: text) == expected, "\(text)")
    }
    #expect(Amount(2, .kilogram).description == "2 kg")
    #expect(Amount(1.5, .pound).description == "1.5 lb")
    #expect(YarnUnit(parsing: "kgs") == .kilogram)
    #expect(YarnUnit(parsing: "pfund") == nil)
    #expect(YarnUnit.kilogram.dimension == .mass && YarnUnit.pound.dimension == .mass)
  }

  @Test func theRemainingEstimateCountsThem() throws {
    // 1 kg − 250 g − 1 lb = 1000 − 250 − 453.59237 = 296.40763 g = 0.29640763 kg.
    let yarn = Yarn(id: "y", name: "Cone", quantity: Amount(1, .kilogram))
    let estimate = RemainingEstimate(
      yarn: yarn,
      usages: [
        .init(projectID: "a", amount: Amount(250, .gram)), .init(projectID: "b", amount: Amount(1, .pound)),
      ])
    #expect(estimate.source == .estimate)
    let left = try #require(estimate.remaining)
    #expect(left.unit == .kilogram)
    #expect(close(left.value, 0.29640763))
  }

  @Test func aPutUpInKilogramsOrPoundsFollowsTheRules() {
    #expect(Rules.amount(Amount(0.1, .kilogram), field: "net weight per skein", dimension: .mass) == nil)
    #expect(Rules.amount(Amount(1, .pound), field: "net weight per skein", dimension: .mass) == nil)
    #expect(
      Rules.amount(Amount(1, .pound), field: "length per skein", dimension: .length)?.description
        .hasSuffix("1 lb is not in yd or m") == true)
  }

  /// A version 4 library with a yarn, a usage and notes, upgraded to v5: every row and its
  /// `seq` kept, the notes not lost to the rebuild (their yarn's table was dropped and made
  /// again), the history triggers and indexes back, and kg and lb accepted by the CHECKs.
  @Test func aVersion4LibraryIsUpgradedAndTakesKilogramsAndPounds() throws {
    try withTemporaryDirectory { root in
      let path = root.appendingPathComponent("library.sqlite").path
      do {
        let raw = try Connection(path: path, flags: 0x2 | 0x4)  // READWRITE | CREATE
        defer { try? raw.close() }
        try raw.execute("PRAGMA foreign_keys = ON")
        try LibraryStore.migrate(raw, migrations: Array(Schema.migrations.prefix(4)))
        try raw.execute(
          """
          INSERT INTO yarn (seq, id, name, name_key, is_stashed, quantity_value, quantity_unit)
            VALUES (7, 'y-1', 'Rios', 'rios', 1, 3, 'skein');
          INSERT INTO project (id, name, name_key, status, has_pattern)
            VALUES ('p-1', 'Flax', 'flax', 'finished', 0);
          INSERT INTO yarn_usage (project_id, position, yarn_id, amount_value, amount_unit)
            VALUES ('p-1', 0, 'y-1', 100, 'g');
          INSERT INTO note (id, yarn_id, text, created, modified) VALUES ('n-1', 'y-1', 'soft', 1, 1);
          """)
        #expect(try raw.integer("PRAGMA user_version") == 4)
      }
      let store = try LibraryStore(directory: root, mode: .readWrite)
      defer { try? store.close() }
      let db = store.connection
      #expect(try db.integer("PRAGMA user_version") == 7)
      #expect(try db.integer("PRAGMA foreign_keys") == 1)
      #expect(try db.integer("SELECT seq FROM yarn WHERE id = 'y-1'") == 7)
      #expect(try db.integer("SELECT count(*) FROM note WHERE yarn_id = 'y-1'") == 1)
      #expect(try db.integer("SELECT count(*) FROM yarn_usage") == 1)
      #expect(try db.query("PRAGMA foreign_key_check") { _ in 1 }.isEmpty)
      let objects = try db.query(
        "SELECT name FROM sqlite_schema WHERE tbl_name IN ('yarn', 'yarn_usage') AND type <> 'table' ORDER BY name"
      ) { $0.text(0) ?? "" }
      for name in [
        "history_yarn_delete", "history_yarn_insert", "history_yarn_update", "history_yarn_usage_delete",
        "history_yarn_usage_insert", "history_yarn_usage_update", "yarn_by_id_nocase", "yarn_by_name_key",
        "yarn_usage_by_yarn", "yarn_with_wide_id",
      ] {
        #expect(objects.contains(name), "\(name)")
      }
      // The upgrade is not a change to undo: the history holds only the rows inserted above,
      // past the store (so a change made outside yarn), each added once; rebuilt by a
      // recorded upgrade, the yarn and its usage would count as changed.
      let history = try store.history()
      #expect(history.map(\.label) == ["changes made outside yarn"])
      #expect(
        history.first?.effects
          == ["yarn", "project", "yarn usage", "note"].map {
            LibraryChange.Effect(item: $0, action: .added, count: 1)
          })
      // kg and lb are stored; a change in them is recorded and undone.
      var yarn = try #require(try store.yarn(id: "y-1"))
      yarn.quantity = Amount(1.5, .kilogram)
      yarn.netWeightPerSkein = Amount(0.25, .pound)
      try store.update(yarn)
      #expect(try store.yarn(id: "y-1")?.quantity == Amount(1.5, .kilogram))
      #expect(try store.yarn(id: "y-1")?.netWeightPerSkein == Amount(0.25, .pound))
      _ = try store.undo()
      #expect(try store.yarn(id: "y-1")?.quantity == Amount(3, .skein))
      #expect(try store.yarn(id: "y-1")?.netWeightPerSkein == nil)
    }
  }
}
