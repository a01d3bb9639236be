import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

/// The rules of the model (`Rules`): each one refused by the store with `StoreError.brokenRule`
/// naming the item and the field, in words written out here by hand; values at the edges kept.
@Suite struct RulesTests {
  /// 2026-06-15T16:00:00Z.
  static let now = Date(timeIntervalSince1970: 1_781_539_200)

  static func day(_ text: String) -> CalendarDate? { CalendarDate(iso8601: text) }

  /// A store with yarn `y` and project `p`, its clock at `now`.
  func withStore(_ body: (LibraryStore) throws -> Void) throws {
    try withTemporaryDirectory { root in
      let store = try LibraryStore(directory: root, mode: .readWrite)
      store.clock = { Self.now }
      try store.insert(Yarn(id: "y", name: "Rios"))
      try store.insert(Project(id: "p", name: "Flax"))
      try body(store)
    }
  }

  /// The message of the error `body` throws, or `nil`.
  func message(_ body: () throws -> Void) -> String? {
    do {
      try body()
      return nil
    } catch {
      return "\(error)"
    }
  }

  static let longName = String(repeating: "a", count: 201)

  /// A yarn breaking one rule, and the store's whole message.
  static let badYarns: [(Yarn, String)] = [
    (Yarn(id: "y1", name: ""), "yarn y1 (): name is blank"),
    (Yarn(id: "y1", name: " \u{3000} "), "yarn y1 ( \u{3000} ): name is blank"),
    // Invisible format characters alone are blank too (QA: U+200B or U+FEFF alone was taken,
    // and shown as an empty name).
    // The name is shown escaped, as every message shows one.
    (Yarn(id: "y1", name: "\u{200B}"), "yarn y1 (\\u{200B}): name is blank"),
    (Yarn(id: "y1", name: "\u{FEFF}"), "yarn y1 (\\u{FEFF}): name is blank"),
    (
      Yarn(id: "y1", name: "\u{200C}\u{200D}\u{2060}"), "yarn y1 (\\u{200C}\\u{200D}\\u{2060}): name is blank"
    ),
    (
      Yarn(id: "y1", name: "Rios", brand: "\u{200B}"),
      "yarn y1 (Rios): brand is blank (an unknown value is left out)"
    ),
    (Yarn(id: "y1", name: "Rios "), "yarn y1 (Rios ): name has spaces around it"),
    // A tag of invisible characters alone is empty, as an empty one is (QA: U+200B was taken
    // as a tag and shown as nothing).
    (Yarn(id: "y1", name: "Rios", tags: ["ok", "\u{200B}"]), "yarn y1 (Rios): tag is empty"),
    (Yarn(id: "y1", name: "Rios", tags: ["\u{2060}\u{FEFF}"]), "yarn y1 (Rios): tag is empty"),
    // Spaces alone too, not "spaces around it" (QA).
    (Yarn(id: "y1", name: "Rios", tags: ["   "]), "yarn y1 (Rios): tag is empty"),
    (
      Yarn(id: "y1", name: "Rios\nAzul"),
      "yarn y1 (Rios\\nAzul): name holds a line break (U+000A); it must be one line"
    ),
    (
      Yarn(id: "y1", name: longName),
      "yarn y1 (\(longName)): name is 201 characters long; the limit is 200"
    ),
    (
      Yarn(id: "y1", name: "Rios", brand: ""),
      "yarn y1 (Rios): brand is empty (an unknown value is left out)"
    ),
    (
      Yarn(id: "y1", name: "Rios", colorway: "Azul\tProfundo"),
      "yarn y1 (Rios): colorway holds a tab (U+0009), a control character, which is not allowed"
    ),
    (
      Yarn(id: "y1", name: "Rios", quantity: Amount(-5, .gram)),
      "yarn y1 (Rios): quantity -5 g is negative"
    ),
    (
      Yarn(id: "y1", name: "Rios", quantity: Amount(.nan, .skein)),
      "yarn y1 (Rios): quantity nan skein is not a finite number"
    ),
    (
      Yarn(id: "y1", name: "Rios", remainingOverride: Amount(1_000_000_000.5, .yard)),
      "yarn y1 (Rios): remaining 1000000000.5 yd is over the limit of 1000000000"
    ),
    (
      Yarn(id: "y1", name: "Rios", lengthPerSkein: Amount(0, .meter)),
      "yarn y1 (Rios): length per skein 0 m must be more than 0"
    ),
    (
      Yarn(id: "y1", name: "Rios", netWeightPerSkein: Amount(100, .yard)),
      "yarn y1 (Rios): net weight per skein 100 yd is not in g, kg, oz or lb"
    ),
  ]

  @Test func theStoreRefusesEachBrokenRuleOfAYarnNamingTheField() throws {
    try withStore { (store: LibraryStore) throws in
      for (yarn, expected) in Self.badYarns {
        let got = message { try store.insert(yarn) }
        #expect(got == expected)
        // An update is refused alike, and nothing changes.
        var changed = yarn
        changed.id = "y"
        let updated = message { try store.update(changed) }
        #expect(updated == expected.replacing("yarn y1 ", with: "yarn y "))
      }
      #expect(try store.yarns() == [Yarn(id: "y", name: "Rios")])
    }
  }

  /// A blank tag (U+200B alone) that an older yarn stored stays through an edit of another
  /// field of its yarn or project; one given anew is refused, as is a different blank tag.
  @Test func aBlankTagAnOlderYarnStoredStaysThroughAnEdit() throws {
    try withStore { (store: LibraryStore) throws in
      // As an older yarn stored them: the tags column joined by a line feed.
      for table in ["yarn", "project"] {
        try store.connection.execute(
          "UPDATE \(table) SET tags = 'wool' || char(10) || char(8203)")
      }
      var yarn = try #require(try store.yarn(id: "y"))
      #expect(yarn.tags == ["wool", "\u{200B}"])
      yarn.colorway = "Azul"
      try store.update(yarn)
      #expect(try store.yarn(id: "y")?.colorway == "Azul")
      var project = try #require(try store.project(id: "p"))
      project.madeFor = "Ana"
      try store.update(project)
      #expect(try store.project(id: "p")?.madeFor == "Ana")
      // A blank tag that is not the stored one is refused, by update and insert.
      yarn.tags.append("\u{2060}")
      #expect(message { try store.update(yarn) } == "yarn y (Rios): tag is empty")
      project.tags = ["\u{FEFF}"]
      #expect(message { try store.update(project) } == "project p (Flax): tag is empty")
      #expect(
        message { try store.insert(Yarn(id: "y2", name: "Rios", tags: ["\u{200B}"])) }
          == "yarn y2 (Rios): tag is empty")
      #expect(try store.yarn(id: "y")?.tags == ["wool", "\u{200B}"])
      // Any tag stored outside the rules stays so (QA: spaces around it, an empty one).
      try store.connection.execute("UPDATE yarn SET tags = '   ' || char(10) || 'gift' || char(10) || ''")
      var outside = try #require(try store.yarn(id: "y"))
      #expect(outside.tags == ["   ", "gift", ""])
      outside.brand = "Malabrigo"
      try store.update(outside)
      outside.tags.removeAll { $0 == "gift" }
      try store.update(outside)
      #expect(try store.yarn(id: "y")?.tags == ["   ", ""])
    }
  }

  @Test func theStoreRefusesEachBrokenRuleOfAProjectNamingTheField() throws {
    try withStore { (store: LibraryStore) throws in
      let cases: [(Project, String)] = [
        (
          Project(id: "p1", name: "Hat", status: .finished),
          "project p1 (Hat): finished day is missing; a finished project has one"
        ),
        (
          Project(id: "p1", name: "Hat", status: .planned, finished: Self.day("2026-03-01")),
          "project p1 (Hat): finished day 2026-03-01 is set, but the project is planned; "
            + "only a finished (or frogged) project has one"
        ),
        (
          Project(
            id: "p1", name: "Hat", status: .finished, started: Self.day("2026-03-10"),
            finished: Self.day("2026-03-09")),
          "project p1 (Hat): finished day 2026-03-09 is before the started day 2026-03-10"
        ),
        (
          Project(
            id: "p1", name: "Hat", status: .frogged, started: Self.day("2026-03-10"),
            finished: Self.day("2026-03-09")),
          "project p1 (Hat): finished day 2026-03-09 is before the started day 2026-03-10"
        ),
        (
          Project(id: "p1", name: "Hat", pattern: Pattern(name: " Flax")),
          "project p1 (Hat): pattern name has spaces around it"
        ),
        (
          Project(
            id: "p1", name: "Hat",
            pattern: Pattern(url: "https://example.org/" + String(repeating: "x", count: 1981))),
          "project p1 (Hat): pattern url is 2001 characters long; the limit is 2000"
        ),
        (
          Project(id: "p1", name: "Hat", usages: [YarnUsage(yarnID: "y", amount: Amount(-0.5, .skein))]),
          "project p1 (Hat): amount of yarn y -0.5 skein is negative"
        ),
      ]
      for (project, expected) in cases {
        let got = message { try store.insert(project) }
        #expect(got == expected)
      }
      #expect(try store.projects().map(\.id) == ["p"])
    }
  }

  @Test func theStoreRefusesBrokenNotesAndSessions() throws {
    try withStore { (store: LibraryStore) throws in
      let notes: [(Note, String)] = [
        (Note(id: "n1", subject: .yarn("y"), text: " \n\t", created: Self.now), "note n1: text is blank"),
        (
          Note(id: "n1", subject: .yarn("y"), text: "soft\u{0}", created: Self.now),
          "note n1: text holds a NUL character (U+0000); "
            + "a note may hold line feeds (U+000A), carriage returns and tabs, no other "
            + "control or separator character"
        ),
        (
          Note(
            id: "n1", subject: .yarn("y"), text: String(repeating: "é", count: 100_001), created: Self.now),
          "note n1: text is 100001 characters long; the limit is 100000"
        ),
      ]
      for (note, expected) in notes {
        let got = message { try store.insert(note) }
        #expect(got == expected)
      }
      let hour: TimeInterval = 3600
      let sessions: [(TimeSession, String)] = [
        (
          TimeSession(id: "s1", projectID: "p", start: Self.now, end: Self.now - 1),
          "session s1: end 2026-06-15T15:59:59Z is not after the start 2026-06-15T16:00:00Z"
        ),
        (
          // A recorded session lasts at least a second: as `time add --from X --to X` refuses.
          TimeSession(id: "s1", projectID: "p", start: Self.now, end: Self.now),
          "session s1: end 2026-06-15T16:00:00Z is not after the start 2026-06-15T16:00:00Z"
        ),
        (
          TimeSession(id: "s1", projectID: "p", start: Self.now - 25 * hour, end: Self.now - 1 * hour + 1),
          "session s1: length 24h 0m 1s is over the limit of 24h (one sitting)"
        ),
        (
          TimeSession(id: "s1", projectID: "p", start: Self.now - hour, end: Self.now + 301),
          "session s1: end 2026-06-15T16:05:01Z is in the future (now is 2026-06-15T16:00:00Z)"
        ),
        (
          TimeSession(id: "s1", projectID: "p", start: Self.now + 301),
          "session s1: start 2026-06-15T16:05:01Z is in the future (now is 2026-06-15T16:00:00Z)"
        ),
        (
          TimeSession(id: "s1", projectID: "p", start: Self.now - hour, end: Self.now, note: "heel\u{7}"),
          "session s1: note holds a control character (U+0007); "
            + "a note may hold line feeds (U+000A), carriage returns and tabs, no other "
            + "control or separator character"
        ),
      ]
      for (session, expected) in sessions {
        let got = message { try store.insert(session) }
        #expect(got == expected)
      }
      #expect(try store.notes().isEmpty)
      #expect(try store.sessions().isEmpty)
    }
  }

  /// Values at the edges of the rules are kept as they are.
  @Test func valuesAtTheEdgesAreKept() throws {
    try withStore { (store: LibraryStore) throws in
      let family = "👩\u{200D}👩\u{200D}👧"  // one Character of 5 scalars
      let yarn = Yarn(
        id: "edge", name: family + String(repeating: "é", count: 199), brand: "B",
        lengthPerSkein: Amount(5e-324, .yard), netWeightPerSkein: Amount(0.1, .ounce),
        quantity: Amount(1_000_000_000, .gram), remainingOverride: Amount(0, .skein))
      try store.insert(yarn)
      #expect(try store.yarn(id: "edge") == yarn)
      let frogged = Project(
        id: "frog", name: "Cobblestone", status: .frogged, started: Self.day("2026-04-20"),
        finished: Self.day("2026-04-20"), usages: [YarnUsage(yarnID: "edge", amount: Amount(0, .gram))])
      try store.insert(frogged)
      #expect(try store.project(id: "frog") == frogged)
      let note = Note(
        id: "n", subject: .project("frog"), text: "two\r\nlines\tand a tab\n", created: Self.now)
      try store.insert(note)
      // 24 hours exactly, ending 5 minutes after the clock (the tolerance for skew).
      let longest = TimeSession(
        id: "s", projectID: "frog", start: Self.now + 300 - 86_400, end: Self.now + 300, note: "all\nday")
      try store.insert(longest)
      #expect(try store.session(id: "s") == longest)
    }
  }

  /// Instants beyond what the store holds do not overflow the rules' arithmetic: the length
  /// counts as the longest an `Int64` of seconds holds (2^63 − 1 s = 2562047788015215 h
  /// 30 min 7 s).
  @Test func instantsFarOutOfRangeAreRefusedWithoutOverflow() throws {
    try withStore { (store: LibraryStore) throws in
      let session = TimeSession(
        id: "s1", projectID: "p", start: Date(timeIntervalSince1970: -1e300),
        end: Date(timeIntervalSince1970: 1e300))
      let got = message { try store.insert(session) }
      #expect(got == "session s1: length 2562047788015215h 30m 7s is over the limit of 24h (one sitting)")
    }
  }

  /// The words of `TimeTracker` and of the store are the rule's: the length and the future.
  @Test func theTrackerSaysTheRulesInTheirWords() {
    #expect(
      Rules.length(86_401).map { TimeError.brokenRule($0).description }
        == "the session's length 24h 0m 1s is over the limit of 24h (one sitting)")
    #expect(Rules.length(86_400) == nil)
    #expect(
      TimeError.inFuture(.end, Self.now + 60, now: Self.now).description
        == "the end 2026-06-15T16:01:00Z is in the future (now is 2026-06-15T16:00:00Z)")
  }
}
