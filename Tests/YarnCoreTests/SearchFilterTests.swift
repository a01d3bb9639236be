import Foundation
import Testing

@testable import YarnModel
@testable import YarnStore

/// Search, filter and sort of stash and project lists (issue 14 item 5), through the store's
/// SQL (`forEachYarn(matching:)`, `forEachProject(matching:)`). Every expected list is written
/// out by hand from the library below.
@Suite struct SearchFilterTests {
  // Creation order: café, wool, sock, bulky, gone, bare.
  static let yarns = [
    Yarn(
      id: "y-cafe", name: "Café au Lait", brand: "Malabrigo", colorway: "Crème", weight: .medium,
      fiber: "100% merino", lengthPerSkein: Amount(210, .yard), quantity: Amount(2, .skein),
      dateAdded: CalendarDate(year: 2026, month: 3, day: 1)),
    Yarn(
      id: "y-wool", name: "Worsted Wool", brand: "Cascade Yarns", colorway: "Ruby", weight: .medium,
      fiber: "Peruvian highland wool", quantity: Amount(500, .meter),
      dateAdded: CalendarDate(year: 2026, month: 1, day: 15)),
    Yarn(
      id: "y-sock", name: "sock yarn", brand: "MALABRIGO", weight: .superFine,
      netWeightPerSkein: Amount(100, .gram), quantity: Amount(300, .gram),
      dateAdded: CalendarDate(year: 2026, month: 1, day: 15), status: .willTrade,
      tags: ["Socks", "Gift"]),
    Yarn(
      id: "y-bulky", name: "Bulky", weight: .bulky, quantity: Amount(4, .skein),
      dateAdded: CalendarDate(year: 2025, month: 12, day: 1), tags: ["Fête"]),
    Yarn(
      id: "y-gone", name: "Cafe Noir", brand: "Cascade", weight: .medium, quantity: Amount(1, .skein),
      status: .usedUp),
    Yarn(id: "y-bare", name: "Bare"),
  ]

  static let projects = [
    Project(
      id: "p-hat", name: "Winter Hat", craft: .knitting, status: .inProgress,
      pattern: Pattern(name: "Crème Brûlée"), started: CalendarDate(year: 2026, month: 2, day: 1),
      tags: ["Gift"]),
    Project(
      id: "p-blanket", name: "Blanket", craft: .crochet, status: .planned,
      started: nil),
    Project(
      id: "p-scarf", name: "scarf", craft: .knitting, status: .finished,
      started: CalendarDate(year: 2025, month: 11, day: 3),
      finished: CalendarDate(year: 2026, month: 1, day: 2)),
  ]

  static let notes = [
    Note(
      id: "n-1", subject: .yarn("y-bulky"), text: "Bought at the Fête in Lyon",
      created: Date(timeIntervalSince1970: 1_767_225_600)),
    Note(
      id: "n-2", subject: .project("p-blanket"), text: "For the CAFÉ corner",
      created: Date(timeIntervalSince1970: 1_767_225_600)),
  ]

  private func withStore(_ body: (LibraryStore) throws -> Void) throws {
    let directory = try Fixtures.temporaryDirectory()
    defer { Fixtures.cleanUp(directory) }
    let store = try LibraryStore(directory: directory, mode: .readWrite)
    defer { try? store.close() }
    try store.insert(
      library: Library(yarns: Self.yarns, projects: Self.projects, notes: Self.notes))
    try body(store)
  }

  private func yarnIDs(_ store: LibraryStore, _ query: YarnQuery) throws -> [String] {
    var out: [String] = []
    try store.forEachYarn(matching: query, includingPhotos: false) { yarn, _ in out.append(yarn.id) }
    return out
  }

  private func projectIDs(_ store: LibraryStore, _ query: ProjectQuery) throws -> [String] {
    var out: [String] = []
    try store.forEachProject(matching: query) { out.append($0.id) }
    return out
  }

  @Test func noQueryIsEveryYarnInCreationOrder() throws {
    try withStore { (store: LibraryStore) throws in
      #expect(
        try yarnIDs(store, YarnQuery()) == ["y-cafe", "y-wool", "y-sock", "y-bulky", "y-gone", "y-bare"])
    }
  }

  @Test func searchIsCaseAndAccentInsensitiveOverEveryField() throws {
    try withStore { (store: LibraryStore) throws in
      // "cafe" finds Café au Lait (name, accented) and Cafe Noir.
      #expect(try yarnIDs(store, YarnQuery(search: "cafe")) == ["y-cafe", "y-gone"])
      // Typed with an accent and in capitals, alike.
      #expect(try yarnIDs(store, YarnQuery(search: "CAFÉ")) == ["y-cafe", "y-gone"])
      // The colorway (Crème), the fiber, the brand, a note (Fête).
      #expect(try yarnIDs(store, YarnQuery(search: "creme")) == ["y-cafe"])
      #expect(try yarnIDs(store, YarnQuery(search: "PERUVIAN")) == ["y-wool"])
      #expect(try yarnIDs(store, YarnQuery(search: "cascade")) == ["y-wool", "y-gone"])
      #expect(try yarnIDs(store, YarnQuery(search: "fete")) == ["y-bulky"])
      // Wildcards of LIKE are plain text.
      #expect(try yarnIDs(store, YarnQuery(search: "100%")) == ["y-cafe"])
      #expect(try yarnIDs(store, YarnQuery(search: "_")).isEmpty)
    }
  }

  @Test func filtersCombine() throws {
    try withStore { (store: LibraryStore) throws in
      #expect(try yarnIDs(store, YarnQuery(weight: .medium)) == ["y-cafe", "y-wool", "y-gone"])
      #expect(try yarnIDs(store, YarnQuery(status: .inStash, weight: .medium)) == ["y-cafe", "y-wool"])
      #expect(try yarnIDs(store, YarnQuery(status: .usedUp)) == ["y-gone"])
      #expect(try yarnIDs(store, YarnQuery(brand: "malabrigo")) == ["y-cafe", "y-sock"])
      #expect(try yarnIDs(store, YarnQuery(weight: .medium, brand: "malabrigo")) == ["y-cafe"])
      #expect(try yarnIDs(store, YarnQuery(status: .inStash, search: "cafe")) == ["y-cafe"])
      #expect(try yarnIDs(store, YarnQuery(weight: .jumbo)).isEmpty)
    }
  }

  /// A status, the statuses still in the stash, and tags (whole tags, case and accents aside).
  @Test func statusesAndTags() throws {
    try withStore { (store: LibraryStore) throws in
      #expect(try yarnIDs(store, YarnQuery(status: .willTrade)) == ["y-sock"])
      #expect(try yarnIDs(store, YarnQuery(status: .inStash)) == ["y-cafe", "y-wool", "y-bulky", "y-bare"])
      // will-trade is still in the stash; used-up is not.
      #expect(
        try yarnIDs(store, YarnQuery(inStash: true)) == ["y-cafe", "y-wool", "y-sock", "y-bulky", "y-bare"])
      #expect(try yarnIDs(store, YarnQuery(tag: "GIFT")) == ["y-sock"])
      #expect(try yarnIDs(store, YarnQuery(tag: "fete")) == ["y-bulky"])
      #expect(try yarnIDs(store, YarnQuery(tag: "Soc")).isEmpty)
      #expect(try yarnIDs(store, YarnQuery(tag: "gift", weight: .medium)).isEmpty)
      #expect(try projectIDs(store, ProjectQuery(tag: "gift")) == ["p-hat"])
      #expect(try projectIDs(store, ProjectQuery(tag: "socks")).isEmpty)
    }
  }

  @Test func sortOrdersAndTheirTies() throws {
    try withStore { (store: LibraryStore) throws in
      // Folded names: bare, bulky, cafe au lait, cafe noir, sock yarn, worsted wool.
      #expect(
        try yarnIDs(store, YarnQuery(sort: .name))
          == ["y-bare", "y-bulky", "y-cafe", "y-gone", "y-sock", "y-wool"])
      // 2025-12-01 bulky; 2026-01-15 sock and wool (tie: by name, sock yarn < worsted wool);
      // 2026-03-01 café; undated gone and bare last, by name (bare < cafe noir).
      #expect(
        try yarnIDs(store, YarnQuery(sort: .added))
          == ["y-bulky", "y-sock", "y-wool", "y-cafe", "y-bare", "y-gone"])
      // 1 sock; 4 café, wool, gone by name (cafe au lait, cafe noir, worsted wool); 5 bulky;
      // no weight: bare.
      #expect(
        try yarnIDs(store, YarnQuery(sort: .weight))
          == ["y-sock", "y-cafe", "y-gone", "y-wool", "y-bulky", "y-bare"])
      // Lengths first, most first: wool 500 m > café 2 × 210 yd = 420 × 0.9144 = 384.048 m;
      // then weights: sock 300 g; then skeins: bulky 4 > gone 1; unknown: bare.
      #expect(
        try yarnIDs(store, YarnQuery(sort: .remaining))
          == ["y-wool", "y-cafe", "y-sock", "y-bulky", "y-gone", "y-bare"])
      // A filter and an order together.
      #expect(
        try yarnIDs(store, YarnQuery(status: .inStash, weight: .medium, sort: .remaining))
          == ["y-wool", "y-cafe"])
    }
  }

  @Test func theEstimateComesWithEachYarn() throws {
    try withStore { (store: LibraryStore) throws in
      var remaining: [String: Amount?] = [:]
      try store.forEachYarn(matching: YarnQuery(sort: .remaining)) { yarn, estimate in
        remaining[yarn.id] = estimate.remaining
      }
      #expect(remaining["y-sock"] == Amount(300, .gram))
      #expect(remaining["y-bare"] == .some(nil))
    }
  }

  @Test func projectFiltersSearchAndSort() throws {
    try withStore { (store: LibraryStore) throws in
      #expect(try projectIDs(store, ProjectQuery()) == ["p-hat", "p-blanket", "p-scarf"])
      #expect(try projectIDs(store, ProjectQuery(craft: .knitting)) == ["p-hat", "p-scarf"])
      #expect(try projectIDs(store, ProjectQuery(status: .finished, craft: .knitting)) == ["p-scarf"])
      #expect(try projectIDs(store, ProjectQuery(status: .planned, craft: .knitting)).isEmpty)
      // The pattern's name (Crème Brûlée) and a note (CAFÉ).
      #expect(try projectIDs(store, ProjectQuery(search: "brulee")) == ["p-hat"])
      #expect(try projectIDs(store, ProjectQuery(search: "café")) == ["p-blanket"])
      #expect(try projectIDs(store, ProjectQuery(search: "SCARF")) == ["p-scarf"])
      #expect(try projectIDs(store, ProjectQuery(sort: .name)) == ["p-blanket", "p-scarf", "p-hat"])
      // Started: 2025-11-03 scarf, 2026-02-01 hat, then blanket without a day.
      #expect(try projectIDs(store, ProjectQuery(sort: .started)) == ["p-scarf", "p-hat", "p-blanket"])
      // Finished: scarf; then blanket and hat without one, by name.
      #expect(try projectIDs(store, ProjectQuery(sort: .finished)) == ["p-scarf", "p-blanket", "p-hat"])
    }
  }
}
