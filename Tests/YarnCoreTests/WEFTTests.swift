import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

/// `yarn weft import` and `export` (docs/WEFT.md), against the example documents and JSON
/// schemas of WEFT (luxxyarns/weft, CC-BY-4.0), copied in Tests/Fixtures/weft.
@Suite struct WEFTTests {
  static let fixtures = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/weft")
  static let now = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15T08:00:00Z

  static func source(_ name: String) throws -> WEFTImport.Source {
    WEFTImport.Source(name: name, data: try Data(contentsOf: fixtures.appendingPathComponent(name)))
  }

  static func source(_ name: String, _ json: String) -> WEFTImport.Source {
    WEFTImport.Source(name: name, data: Data(json.utf8))
  }

  /// Plans and, when there is no problem, applies.
  @discardableResult
  static func importing(_ sources: [WEFTImport.Source], into store: LibraryStore) throws -> WEFTImport.Plan {
    let plan = try WEFTImport.plan(sources, store: store, now: now)
    if plan.problems.isEmpty { try WEFTImport.apply(plan, to: store) }
    return plan
  }

  static func examples(_ profile: String) throws -> [WEFTImport.Source] {
    try [
      source("yarn-stash-\(profile).weft"), source("knitting-project-\(profile).weft"),
      source("knitting-progress-\(profile).weft"),
    ]
  }

  static func instant(_ text: String) -> Date { TimeInput.absoluteInstant(text) ?? .distantPast }

  // MARK: The examples

  /// Values checked by hand against yarn-stash-ravelry.weft, knitting-project-ravelry.weft and
  /// knitting-progress-ravelry.weft.
  @Test func theRavelryExamplesImportWithTheirValues() throws {
    let store = try LibraryStore.inMemory()
    let plan = try Self.importing(Self.examples("ravelry"), into: store)
    #expect(plan.problems.isEmpty, "\(plan.problems)")
    let yarn = try #require(try store.yarn(id: "98765"))
    #expect(yarn.name == "Malabrigo Rios - Whales Road")
    #expect(yarn.brand == "Malabrigo")
    #expect(yarn.colorway == "Whales Road")
    #expect(yarn.colorFamily == "blue")
    #expect(yarn.dyeLot == "B1234")  // the one pack's
    #expect(yarn.weight == .medium)  // worsted is CYC 4
    #expect(yarn.fiber == "100% merino")
    #expect(yarn.quantity == Amount(3, .skein))
    #expect(yarn.lengthPerSkein == Amount(210, .yard))  // length_per_unit_yards
    #expect(yarn.netWeightPerSkein == Amount(100, .gram))  // weight_per_unit_grams
    #expect(yarn.purchaseLocation == "Rhinebeck Sheep & Wool")
    #expect(yarn.dateAdded == CalendarDate(year: 2025, month: 6, day: 15))
    #expect(yarn.isStashed)  // in-stash
    #expect(try store.notes(about: .yarn("98765")).map(\.text) == ["Enough for a sweater."])
    let project = try #require(try store.project(id: "11223344"))
    #expect(project.name == "Carbeth Cardigan")
    #expect(project.craft == .knitting)
    #expect(project.status == .inProgress)
    #expect(project.started == CalendarDate(year: 2026, month: 1, day: 15))
    #expect(project.finished == nil)
    #expect(project.pattern?.name == "Carbeth")
    #expect(project.pattern?.url == "https://www.ravelry.com/patterns/library/carbeth")
    #expect(
      try store.notes(about: .project("11223344")).map(\.text) == [
        "Body done, working on first sleeve. Went up a needle size for the body.", "Gift budget: $50",
      ])
    // mat-001 is in no example file: the usage cannot be kept, and says so.
    #expect(project.usages.isEmpty)
    #expect(
      plan.omissions.contains {
        $0.path == "items[0].materials_used[0]" && $0.reason?.contains("mat-001") == true
      })
    let sessions = try store.sessions(projectID: "11223344")
    #expect(sessions.map(\.start) == [Self.instant("2026-03-20T19:00:00Z"), Self.instant("2026-03-22T20:00:00Z")])
    #expect(sessions.map { $0.seconds() } == [3600, 5400])
    // Fields yarn has no place for are listed by path.
    let paths = Set(plan.omissions.map(\.path))
    for path in ["items[0].care", "items[0].tags", "items[0].yarn.ply", "items[0].packs[0].acquired_price"] {
      #expect(paths.contains(path), "\(path)")
    }
    #expect(paths.contains("items[0].counters"))
    #expect(paths.contains("items[0].ravelry"))
  }

  /// The stash2go examples have no packs: the put-up is the quantity's totals per skein
  /// (576 m / 3 = 192 m, 300 g / 3 = 100 g), and the progress names its project proj-001.
  @Test func theStash2GoExamplesImportWithTheirValues() throws {
    let store = try LibraryStore.inMemory()
    let plan = try Self.importing(Self.examples("stash2go"), into: store)
    #expect(plan.problems.isEmpty, "\(plan.problems)")
    let yarn = try #require(try store.yarn(id: "a1b2c3d4-e5f6-7890-abcd-ef1234567890"))
    #expect(yarn.quantity == Amount(3, .skein))
    #expect(yarn.lengthPerSkein == Amount(192, .meter))
    #expect(yarn.netWeightPerSkein == Amount(100, .gram))
    #expect(yarn.dyeLot == nil)
    #expect(yarn.purchaseLocation == nil)
    #expect(yarn.weight == .medium)
    // 630 yd agrees with 3 skeins of 192 m (3 × 192 m = 629.9 yd): nothing said of it.
    #expect(!plan.omissions.contains { $0.path.hasSuffix("quantity.length_yards") })
    #expect(plan.omissions.contains { $0.path == "items[0].yarn.put_up" })
    #expect(try store.project(id: "proj-001")?.name == "Carbeth Cardigan")
    #expect(try store.sessions(projectID: "proj-001").map { $0.seconds() } == [3600, 5400])
  }

  /// Each profile's seven example documents into an empty library; then again, adding
  /// nothing.
  @Test(arguments: ["ravelry", "stash2go"])
  func everyExampleDocumentOfAProfileImportsAndASecondImportAddsNothing(profile: String) throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path)
      .filter { $0.hasSuffix("-\(profile).weft") }.sorted()
    #expect(names.count == 7)
    let store = try LibraryStore.inMemory()
    let first = try Self.importing(names.map(Self.source), into: store)
    #expect(first.problems.isEmpty, "\(first.problems)")
    #expect(first.yarnCreates.count == 1)
    #expect(first.projectCreates.count == 1)
    #expect(first.sessionCreates.count == 2)
    #expect(first.notes.count == 3)
    // Patterns, products, designers and pattern books: no place in yarn, each item said.
    for kind in ["knitting-pattern", "yarn-product", "designer"] {
      #expect(first.omissions.contains { $0.file == "\(kind)-\(profile).weft" && $0.path == "items[0]" })
    }
    #expect(first.omissions.contains { $0.file == "library-\(profile).weft" && $0.path == "items[1]" })
    let second = try Self.importing(names.map(Self.source), into: store)
    #expect(second.problems.isEmpty, "\(second.problems)")
    #expect(second.yarnCreates.isEmpty && second.yarnUpdates.isEmpty && second.yarnsUnchanged == 1)
    #expect(second.projectCreates.isEmpty && second.projectUpdates.isEmpty && second.projectsUnchanged == 1)
    #expect(second.sessionCreates.isEmpty && second.sessionsUnchanged == 2)
    #expect(second.notes.isEmpty)
  }

  /// The two profiles describe the same project under two IDs, with the same two sittings:
  /// the second profile's sessions would share time with the first's (the rule of `time
  /// add`), so the import refuses them by path, and imports nothing.
  @Test func timeLoggedTwiceIsRefusedByPath() throws {
    let store = try LibraryStore.inMemory()
    try Self.importing(Self.examples("ravelry"), into: store)
    let plan = try Self.importing(Self.examples("stash2go"), into: store)
    let ids = try store.sessions(projectID: "11223344").map(\.id)
    #expect(
      plan.problems.map(\.description) == [
        "knitting-progress-stash2go.weft: items[0].timer.sessions[0]: it overlaps the session on "
          + "\"Carbeth Cardigan\" from 2026-03-20T19:00:00Z to 2026-03-20T20:00:00Z (session \(ids[0]))",
        "knitting-progress-stash2go.weft: items[0].timer.sessions[1]: it overlaps the session on "
          + "\"Carbeth Cardigan\" from 2026-03-22T20:00:00Z to 2026-03-22T21:30:00Z (session \(ids[1]))",
      ])
    #expect(try store.yarns().count == 1)
    #expect(try store.projects().count == 1)
  }
}
