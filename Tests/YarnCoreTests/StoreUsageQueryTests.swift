import Foundation
import Testing

@testable import YarnModel
@testable import YarnStore

/// The remaining estimate from the store (issue 13): one yarn's usages by its index, every
/// yarn's counted usages from one grouped query, the names a reference is matched against.
/// Every expected list is written out by hand from the library below.
@Suite struct StoreUsageQueryTests {
  // Wool (500 g, 100 g a skein) is used twice by Shawl (positions 0 and 2) and once by each
  // project of another status; Silk only by the sweater in progress; Linen by nothing. The
  // projects' IDs sort in another order than their creation, which is Vest, Shawl, Hat,
  // Sweater, Cardigan, Mittens, Blanket.
  static let wool = Yarn(
    id: "y-wool", name: "Wool", netWeightPerSkein: Amount(100, .gram), quantity: Amount(500, .gram))
  static let silk = Yarn(id: "y-silk", name: "Silk", quantity: Amount(3, .skein))
  static let linen = Yarn(id: "y-linen", name: "Linen", quantity: Amount(200, .yard))

  static let library = Library(
    yarns: [wool, silk, linen],
    projects: [
      Project(
        id: "p-9-vest", name: "Vest", status: .finished,
        finished: CalendarDate(year: 2026, month: 1, day: 10),
        usages: [YarnUsage(yarnID: "y-wool", amount: Amount(50, .gram))]),
      Project(
        id: "p-1-shawl", name: "Shawl", status: .finished,
        finished: CalendarDate(year: 2026, month: 1, day: 10),
        usages: [
          YarnUsage(yarnID: "y-wool", amount: Amount(100, .gram)),
          YarnUsage(yarnID: "y-silk", amount: Amount(1, .skein)),
          YarnUsage(yarnID: "y-wool", amount: Amount(2, .skein)),
        ]),
      Project(
        id: "p-5-hat", name: "Hat", status: .planned,
        usages: [YarnUsage(yarnID: "y-wool", amount: Amount(1, .ounce))]),
      Project(
        id: "p-7-sweater", name: "Sweater", status: .inProgress,
        usages: [
          YarnUsage(yarnID: "y-wool", amount: Amount(30, .gram)),
          YarnUsage(yarnID: "y-silk", amount: Amount(2, .skein)),
        ]),
      Project(
        id: "p-3-cardigan", name: "Cardigan", status: .frogged,
        usages: [YarnUsage(yarnID: "y-wool", amount: Amount(70, .gram))]),
      Project(
        id: "p-2-mittens", name: "Mittens", status: .hibernating,
        usages: [YarnUsage(yarnID: "y-wool", amount: Amount(20, .gram))]),
      Project(
        id: "p-0-blanket", name: "Blanket", status: .finished,
        finished: CalendarDate(year: 2026, month: 1, day: 10)),
    ])

  /// Runs `body` with a new store in a temporary directory holding `library`.
  private func withStore(_ body: (LibraryStore) throws -> Void) throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("yarn-store-tests-" + UUID().uuidString, isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try LibraryStore(directory: directory, mode: .readWrite)
    defer { try? store.close() }
    try store.insert(library: Self.library)
    try body(store)
  }

  private typealias Counted = RemainingEstimate.CountedUsage

  @Test func countedUsagesOfAYarnAreFinishedProjectsInCreationOrderThenPosition() throws {
    try withStore { (store: LibraryStore) throws in
      #expect(
        try store.countedUsages(ofYarn: "y-wool")
          == [
            Counted(projectID: "p-9-vest", amount: Amount(50, .gram)),
            Counted(projectID: "p-1-shawl", amount: Amount(100, .gram)),
            Counted(projectID: "p-1-shawl", amount: Amount(2, .skein)),
          ])
      #expect(
        try store.countedUsages(ofYarn: "y-wool", includeActive: true)
          == [
            Counted(projectID: "p-9-vest", amount: Amount(50, .gram)),
            Counted(projectID: "p-1-shawl", amount: Amount(100, .gram)),
            Counted(projectID: "p-1-shawl", amount: Amount(2, .skein)),
            Counted(projectID: "p-7-sweater", amount: Amount(30, .gram)),
          ])
      #expect(
        try store.countedUsages(ofYarn: "y-silk")
          == [Counted(projectID: "p-1-shawl", amount: Amount(1, .skein))])
      #expect(
        try store.countedUsages(ofYarn: "y-silk", includeActive: true)
          == [
            Counted(projectID: "p-1-shawl", amount: Amount(1, .skein)),
            Counted(projectID: "p-7-sweater", amount: Amount(2, .skein)),
          ])
      #expect(try store.countedUsages(ofYarn: "y-linen").isEmpty)
      #expect(try store.countedUsages(ofYarn: "y-linen", includeActive: true).isEmpty)
      #expect(try store.countedUsages(ofYarn: "no-such-yarn").isEmpty)
    }
  }

  @Test func theGroupedQueryGivesEveryYarnsListAndLeavesOutUnusedYarns() throws {
    try withStore { (store: LibraryStore) throws in
      #expect(
        try store.countedUsagesByYarn()
          == [
            "y-wool": [
              Counted(projectID: "p-9-vest", amount: Amount(50, .gram)),
              Counted(projectID: "p-1-shawl", amount: Amount(100, .gram)),
              Counted(projectID: "p-1-shawl", amount: Amount(2, .skein)),
            ],
            "y-silk": [Counted(projectID: "p-1-shawl", amount: Amount(1, .skein))],
          ])
      #expect(
        try store.countedUsagesByYarn(includeActive: true)
          == [
            "y-wool": [
              Counted(projectID: "p-9-vest", amount: Amount(50, .gram)),
              Counted(projectID: "p-1-shawl", amount: Amount(100, .gram)),
              Counted(projectID: "p-1-shawl", amount: Amount(2, .skein)),
              Counted(projectID: "p-7-sweater", amount: Amount(30, .gram)),
            ],
            "y-silk": [
              Counted(projectID: "p-1-shawl", amount: Amount(1, .skein)),
              Counted(projectID: "p-7-sweater", amount: Amount(2, .skein)),
            ],
          ])
    }
  }

  @Test func theRemainingEstimateFromTheStore() throws {
    try withStore { (store: LibraryStore) throws in
      // 500 g - 50 g - 100 g - 2 skeins of 100 g = 150 g; with the sweater, 30 g less.
      let finished = try store.remaining(of: Self.wool)
      #expect(finished.remaining == Amount(150, .gram))
      #expect(finished.source == .estimate)
      #expect(try store.remaining(of: Self.wool, includeActive: true).remaining == Amount(120, .gram))
      // 3 skeins - 1; with the sweater 3 - 1 - 2 = 0, exactly used up, not overdrawn.
      #expect(try store.remaining(of: Self.silk).remaining == Amount(2, .skein))
      let silkActive = try store.remaining(of: Self.silk, includeActive: true)
      #expect(silkActive.remaining == Amount(0, .skein))
      #expect(silkActive.source == .estimate)
      #expect(try store.remaining(of: Self.linen).remaining == Amount(200, .yard))
    }
  }

  @Test func everyUseOfAYarnWithItsProjectsNameAndStatus() throws {
    try withStore { (store: LibraryStore) throws in
      #expect(
        try store.uses(ofYarn: "y-wool")
          == [
            YarnUse(
              projectID: "p-9-vest", projectName: "Vest", projectStatus: .finished,
              amount: Amount(50, .gram)),
            YarnUse(
              projectID: "p-1-shawl", projectName: "Shawl", projectStatus: .finished,
              amount: Amount(100, .gram)),
            YarnUse(
              projectID: "p-1-shawl", projectName: "Shawl", projectStatus: .finished,
              amount: Amount(2, .skein)),
            YarnUse(
              projectID: "p-5-hat", projectName: "Hat", projectStatus: .planned,
              amount: Amount(1, .ounce)),
            YarnUse(
              projectID: "p-7-sweater", projectName: "Sweater", projectStatus: .inProgress,
              amount: Amount(30, .gram)),
            YarnUse(
              projectID: "p-3-cardigan", projectName: "Cardigan", projectStatus: .frogged,
              amount: Amount(70, .gram)),
            YarnUse(
              projectID: "p-2-mittens", projectName: "Mittens", projectStatus: .hibernating,
              amount: Amount(20, .gram)),
          ])
      #expect(try store.uses(ofYarn: "y-linen").isEmpty)
    }
  }

  /// The rule is stated once (`ProjectStatus.countsAgainstStash`); the SQL is made from it.
  /// Here the three readings of it agree with the rule written out by hand, for every status.
  @Test func theStatusRuleIsTheSameInSwiftAndInSQL() throws {
    #expect(ProjectStatus.allCases.filter { $0.countsAgainstStash() } == [.finished])
    #expect(
      ProjectStatus.allCases.filter { $0.countsAgainstStash(includeActive: true) }
        == [.inProgress, .finished])
    #expect(
      LibraryStore.countedStatusCondition("p.status", includeActive: false)
        == "(p.status = 'finished')")
    #expect(
      LibraryStore.countedStatusCondition("p.status", includeActive: true)
        == "(p.status = 'in-progress' OR p.status = 'finished')")
    try withStore { (store: LibraryStore) throws in
      let whole = try store.library()
      for includeActive in [false, true] {
        for yarn in Self.library.yarns {
          let fromSQL = try store.countedUsages(ofYarn: yarn.id, includeActive: includeActive)
          #expect(fromSQL == whole.usages(of: yarn.id, includeActive: includeActive))
          #expect(fromSQL == (try store.uses(ofYarn: yarn.id)).counted(includeActive: includeActive))
          #expect(
            try store.remaining(of: yarn, includeActive: includeActive)
              == whole.remaining(of: yarn, includeActive: includeActive))
        }
      }
    }
  }

  /// Names are found by their key (a Kelvin sign lower-cases to k, a name in NFD equals one
  /// in NFC); IDs with a character outside ASCII (whose case NOCASE cannot fold, which may
  /// equal a reference in another Unicode form) and rows a writer other than yarn changed
  /// (whose keys may be out of date) are candidates always.
  @Test func namesAreFoundByTheirKeyAndOddRowsAreCandidates() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("yarn-store-tests-" + UUID().uuidString, isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try LibraryStore(directory: directory, mode: .readWrite)
    defer { try? store.close() }
    try store.insert(
      library: Library(yarns: [
        Yarn(id: "y-1", name: "\u{212A}id Mohair"), Yarn(id: "y-2", name: "Ne\u{301}ge"),
        Yarn(id: "y-3", name: "Rios"), Yarn(id: "Y-\u{C9}4", name: "Kidsilk"),
      ]))
    // A name the rules refuse (a tab), as a library changed outside yarn may hold it: no key
    // yet, and a history step no change gathered.
    try store.connection.execute(
      "INSERT INTO yarn (id, name) VALUES ('y-5', 'Tab' || char(9) || 'here')")
    // No name is "kid": the names that begin with it.
    #expect(try store.yarnNames(mayMatch: "kid").map(\.id) == ["y-1", "Y-\u{C9}4", "y-5"])
    #expect(try store.yarnNames(mayMatch: "KID").map(\.id) == ["y-1", "Y-\u{C9}4", "y-5"])
    // An exact name (the names that begin with "rios" are not asked for).
    #expect(try store.yarnNames(mayMatch: "rios").map(\.id) == ["y-3", "Y-\u{C9}4", "y-5"])
    #expect(
      try store.yarnNames(mayMatch: "KID MOHAIR").map(\.id) == ["y-1", "Y-\u{C9}4", "y-5"])
    #expect(try store.yarnNames(mayMatch: "n\u{E9}ge").map(\.id) == ["y-2", "Y-\u{C9}4", "y-5"])
    #expect(try store.yarnNames(mayMatch: "NE\u{301}").map(\.id) == ["y-2", "Y-\u{C9}4", "y-5"])
    #expect(try store.yarnNames(mayMatch: "b\th").map(\.id) == ["Y-\u{C9}4", "y-5"])
    // Once yarn writes, the row gets its key and is found by it alone.
    try store.insert(Yarn(id: "y-6", name: "Six"))
    #expect(
      try store.connection.query("SELECT name_key FROM yarn WHERE id = 'y-5'") { $0.text(0) }
        == ["tab\there"])
    #expect(try store.yarnNames(mayMatch: "b\th").map(\.id) == ["Y-\u{C9}4"])
    #expect(try store.yarnNames(mayMatch: "tab").map(\.id) == ["Y-\u{C9}4", "y-5"])
  }

  @Test func namesComeInCreationOrderAndByID() throws {
    try withStore { (store: LibraryStore) throws in
      #expect(
        try store.yarnNames()
          == [
            ItemName(id: "y-wool", name: "Wool"), ItemName(id: "y-silk", name: "Silk"),
            ItemName(id: "y-linen", name: "Linen"),
          ])
      #expect(
        try store.projectNames().map(\.name)
          == ["Vest", "Shawl", "Hat", "Sweater", "Cardigan", "Mittens", "Blanket"])
      #expect(try store.yarnName(id: "y-silk") == "Silk")
      #expect(try store.yarnName(id: "y-si") == nil)
      #expect(try store.projectName(id: "p-7-sweater") == "Sweater")
      #expect(try store.projectName(id: "y-wool") == nil)
      // The names equal to the text, IDs that begin with it (4 characters or more, ASCII
      // case aside), else the names that begin with it; in creation order.
      #expect(try store.yarnNames(mayMatch: "il").isEmpty)
      #expect(try store.yarnNames(mayMatch: "in").isEmpty)
      #expect(try store.yarnNames(mayMatch: "y-").isEmpty)
      #expect(try store.yarnNames(mayMatch: "zz").isEmpty)
      #expect(try store.yarnNames(mayMatch: "si").map(\.name) == ["Silk"])
      #expect(try store.yarnNames(mayMatch: " SILK ").map(\.name) == ["Silk"])
      #expect(try store.yarnNames(mayMatch: "Y-SI").map(\.name) == ["Silk"])
      #expect(try store.yarnNames(mayMatch: "y-li").map(\.name) == ["Linen"])
      #expect(try store.projectNames(mayMatch: "sh").map(\.name) == ["Shawl"])
    }
  }
}
