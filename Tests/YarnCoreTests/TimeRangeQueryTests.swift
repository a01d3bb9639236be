import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

/// The range queries of `time log`, `time report` and `summary --year` read from the store
/// (issue 13): the same sessions and totals as the whole-library code, at the range's edges,
/// across New Year and with sessions long enough to start far before the range. Every figure
/// is worked out by hand in the comments.
@Suite struct TimeRangeQueryTests {
  let newYork = TimeZone(identifier: "America/New_York") ?? .current
  let utc = TimeZone(identifier: "UTC") ?? .current

  func at(_ text: String) throws -> Date { try #require(JSONCoding.parseInstant(text)) }

  /// A store holding `library`'s yarns, projects (without photos or pattern files) and
  /// sessions.
  func store(_ root: URL, _ library: Library) throws -> LibraryStore {
    let store = try LibraryStore(directory: root, mode: .readWrite)
    try store.write {
      for var yarn in library.yarns {
        yarn.photos = []
        try store.insert(yarn)
      }
      for var project in library.projects {
        project.photos = []
        project.pattern = nil
        try store.insert(project)
      }
      for session in library.sessions { try store.insert(session) }
    }
    return store
  }

  /// A session written by SQL, as an older yarn or the sqlite3 shell could have recorded it
  /// (the store's own rules may refuse its length today).
  func record(_ store: LibraryStore, _ id: String, _ project: String, _ start: String, _ end: String?) throws
  {
    let seconds = { (text: String) throws -> SQLValue in
      .integer(Int64(try self.at(text).timeIntervalSince1970))
    }
    try store.write {
      try store.connection.run(
        "INSERT INTO time_session (id, project_id, start_time, end_time) VALUES (?, ?, ?, ?)",
        [.text(id), .text(project), try seconds(start), try end.map(seconds) ?? .null])
    }
  }

  func ids(_ store: LibraryStore, from start: Date?, to end: Date?, project: String? = nil) throws -> [String]
  {
    try store.sessions(from: start, to: end, projectID: project).map(\.id)
  }

  @Test func theRangesEdgesAreKeptWhateverTheLongestSession() throws {
    try withTemporaryDirectory { root in
      let store = try store(
        root, Library(projects: [Project(id: "p", name: "Flax"), Project(id: "q", name: "Hat")]))
      // The range is the day 2026-03-10 in UTC: [T, T + 1 day).
      let start = try at("2026-03-10T00:00:00Z")
      let end = try at("2026-03-11T00:00:00Z")
      try record(store, "a-ends-at-start", "p", "2026-03-09T23:00:00Z", "2026-03-10T00:00:00Z")
      try record(store, "b-crosses-start", "p", "2026-03-09T23:30:00Z", "2026-03-10T00:30:00Z")
      try record(store, "c-zero-at-start", "p", "2026-03-10T00:00:00Z", "2026-03-10T00:00:00Z")
      try record(store, "d-zero-at-end", "p", "2026-03-11T00:00:00Z", "2026-03-11T00:00:00Z")
      try record(store, "e-crosses-end", "p", "2026-03-10T23:00:00Z", "2026-03-11T01:00:00Z")
      try record(store, "f-starts-at-end", "p", "2026-03-11T00:00:00Z", "2026-03-11T01:00:00Z")
      try record(store, "g-three-days", "p", "2026-03-07T00:00:00Z", "2026-03-10T01:00:00Z")
      try record(store, "h-day-before", "p", "2026-03-05T00:00:00Z", "2026-03-06T00:00:00Z")
      try record(store, "i-other-project", "q", "2026-03-09T23:30:00Z", "2026-03-10T00:30:00Z")
      // Ending at the start only touches the range (a); a zero-length session at the start is
      // in it (c), one at the end is not (d), nor one starting at the end (f); the session of
      // three days (g) reaches into it from 2026-03-07. By start: g, b and i (23:30, b
      // recorded first), c, e.
      #expect(
        try ids(store, from: start, to: end) == [
          "g-three-days", "b-crosses-start", "i-other-project", "c-zero-at-start", "e-crosses-end",
        ])
      #expect(
        try ids(store, from: start, to: end, project: "p") == [
          "g-three-days", "b-crosses-start", "c-zero-at-start", "e-crosses-end",
        ])
      // Without g the longest session is h's day, and the same edges hold.
      try store.deleteSession(id: "g-three-days")
      #expect(
        try ids(store, from: start, to: end, project: "p") == [
          "b-crosses-start", "c-zero-at-start", "e-crosses-end",
        ])
      // A running session started ten days before reaches on into the range.
      try record(store, "r-running", "q", "2026-02-28T12:00:00Z", nil)
      #expect(
        try ids(store, from: start, to: end) == [
          "r-running", "b-crosses-start", "i-other-project", "c-zero-at-start", "e-crosses-end",
        ])
      // Open bounds: from the start on, everything that reaches past it; before the end,
      // everything that starts before it.
      #expect(
        try ids(store, from: start, to: nil, project: "p") == [
          "b-crosses-start", "c-zero-at-start", "e-crosses-end", "d-zero-at-end", "f-starts-at-end",
        ])
      #expect(
        try ids(store, from: nil, to: start, project: "p") == [
          "h-day-before", "a-ends-at-start", "b-crosses-start",
        ])
      // The streamed rows carry their project's name.
      var named: [String] = []
      try store.forEachSession(from: start, to: end) { session, name in named.append("\(session.id) \(name)")
      }
      #expect(named.first == "r-running Hat")
      #expect(named.last == "e-crosses-end Flax")
      // Without the names (a report's walk), the project's ID stands in.
      var unnamed: [String] = []
      try store.forEachSession(from: start, to: end, namingProjects: false) { session, name in
        unnamed.append("\(session.id) \(name)")
      }
      #expect(unnamed.first == "r-running q")
      #expect(unnamed.count == named.count)
    }
  }

  @Test func aReportFromTheStoreCountsOnlyTheTimeInside() throws {
    try withTemporaryDirectory { root in
      let library = Library(
        projects: [Project(id: "p", name: "Flax"), Project(id: "q", name: "Hat")],
        sessions: [
          // 2026-01-31 23:00 EST to 2026-02-01 01:00 EST: 1 h in January, 1 h in February.
          TimeSession(
            id: "s1", projectID: "p", start: try at("2026-02-01T04:00:00Z"),
            end: try at("2026-02-01T06:00:00Z")),
          // 2026-02-10 10:00 to 10:45 EST, on Hat.
          TimeSession(
            id: "s2", projectID: "q", start: try at("2026-02-10T15:00:00Z"),
            end: try at("2026-02-10T15:45:00Z")),
        ])
      let store = try store(root, library)
      let now = try at("2026-06-01T00:00:00Z")
      let months = try TimeReport(
        store: store, grouping: .month, range: (nil, nil), timeZone: newYork, now: now)
      #expect(months.rows.map(\.key) == ["2026-01", "2026-02"])
      #expect(months.rows.map(\.seconds) == [3_600, 3_600 + 2_700])
      // From February 1 (05:00Z) on: 1 h of Flax, 45 min of Hat; by project, most first.
      let february = try TimeReport(
        store: store, grouping: .project, range: (try at("2026-02-01T05:00:00Z"), nil), timeZone: newYork,
        now: now)
      #expect(february.rows.map(\.key) == ["Flax", "Hat"])
      #expect(february.rows.map(\.projectID) == ["p", "q"])
      #expect(february.rows.map(\.seconds) == [3_600, 2_700])
      let hat = try TimeReport(
        store: store, grouping: .day, range: (nil, nil), projectID: "q", timeZone: newYork, now: now)
      #expect(hat.rows.map(\.key) == ["2026-02-10"])
      #expect(hat.rows.map(\.seconds) == [2_700])
    }
  }

  /// The sample library (samples/demo, America/New_York) summarized from the store: the
  /// figures worked out by hand in `PeriodSummaryTests.theSampleLibrary2026`.
  @Test func theSampleLibrarySummarizedFromTheStore() throws {
    try withTemporaryDirectory { root in
      let store = try store(root, try SampleLibraryTests.loadLibrary())
      let now = Date(timeIntervalSince1970: 1_800_000_000)
      let summary = try PeriodSummary(store: store, year: 2026, timeZone: newYork, now: now)
      #expect(
        summary.finished.map(\.project.name) == [
          "Flax for Leo", "Hermione's Everyday Socks", "Granny Square Blanket, for Mum", "Chunky Cowl",
        ])
      #expect(summary.finished.map(\.seconds) == [48_300, 32_100, 77_400, 9_900])
      #expect(summary.averageSecondsPerFinished == 41_925)
      #expect(summary.longest?.project.name == "Granny Square Blanket, for Mum")
      #expect(summary.loggedSeconds == 243_300)
      #expect(summary.perProject.count == 7)
      #expect(summary.perProject.first?.project.name == "Granny Square Blanket, for Mum")
      #expect(summary.perProject.first { $0.project.name == "Selbuvotter" }?.seconds == 44_400)
      #expect(summary.yarnByWeight.map(\.weight) == [.superFine, .medium, .superBulky])
      #expect(summary.yarnByWeight.map(\.usages) == [1, 3, 1])
      #expect(abs(summary.totalGrams - 1_245.437124375) < 1e-9)
      #expect(summary.unconverted.isEmpty)
      let empty = try PeriodSummary(store: store, year: 2025, timeZone: newYork, now: now)
      #expect(empty.finished.isEmpty && empty.perProject.isEmpty && empty.loggedSeconds == 0)
    }
  }

  @Test func aYearFromTheStoreAcrossNewYearWithLongAndRunningSessions() throws {
    try withTemporaryDirectory { root in
      let day = { (text: String) in CalendarDate(iso8601: text) }
      let store = try store(
        root,
        Library(
          yarns: [
            Yarn(id: "y", name: "Sock yarn", weight: .superFine, netWeightPerSkein: Amount(100, .gram))
          ],
          projects: [
            Project(
              id: "p1", name: "Shawl", status: .finished, finished: day("2025-01-02"),
              usages: [YarnUsage(yarnID: "y", amount: Amount(2, .skein))]),
            Project(id: "p2", name: "Socks", status: .inProgress),
            Project(id: "p3", name: "Last year", status: .finished, finished: day("2024-12-30")),
          ]))
      // New York's New Years: 2024-01-01T05:00Z, 2025-01-01T05:00Z, 2026-01-01T05:00Z.
      // s1: 2024-12-31 22:00 EST to 2025-01-01 01:00 EST, 2 h in 2024 and 1 h in 2025.
      try record(store, "s1", "p1", "2025-01-01T03:00:00Z", "2025-01-01T06:00:00Z")
      // s3: an hour of the shawl in May 2023, long before its year.
      try record(store, "s3", "p1", "2023-05-01T15:00:00Z", "2023-05-01T16:00:00Z")
      // s2: an hour of the project finished in 2024.
      try record(store, "s2", "p3", "2024-12-20T15:00:00Z", "2024-12-20T16:00:00Z")
      // A session of ten days (864,000 s) in June 2024.
      try record(store, "long", "p2", "2024-06-01T00:00:00Z", "2024-06-11T00:00:00Z")
      // Running since 2025-12-31 22:00 EST; now is 2026-01-01 01:00 EST: 2 h in 2025, 1 h in 2026.
      try record(store, "running", "p2", "2026-01-01T03:00:00Z", nil)
      let now = try at("2026-01-01T06:00:00Z")

      let y2025 = try PeriodSummary(store: store, year: 2025, timeZone: newYork, now: now)
      // The shawl, finished 2025-01-02, with all its time: 3 h + 1 h.
      #expect(y2025.finished.map(\.project.id) == ["p1"])
      #expect(y2025.finished.map(\.seconds) == [14_400])
      // Inside 2025: s1's last hour, and the running session's first two.
      #expect(y2025.loggedSeconds == 10_800)
      #expect(y2025.perProject.map(\.project.id) == ["p2", "p1"])
      #expect(y2025.perProject.map(\.seconds) == [7_200, 3_600])
      #expect(y2025.yarnByWeight.map(\.grams) == [200])  // 2 skeins of 100 g

      let y2024 = try PeriodSummary(store: store, year: 2024, timeZone: newYork, now: now)
      #expect(y2024.finished.map(\.project.id) == ["p3"])
      #expect(y2024.finished.map(\.seconds) == [3_600])
      // s1's first two hours, s2's hour and the ten days: 7,200 + 3,600 + 864,000.
      #expect(y2024.loggedSeconds == 874_800)
      #expect(y2024.perProject.map(\.project.id) == ["p2", "p1", "p3"])
      #expect(y2024.perProject.map(\.seconds) == [864_000, 7_200, 3_600])

      let y2026 = try PeriodSummary(store: store, year: 2026, timeZone: newYork, now: now)
      #expect(y2026.finished.isEmpty)
      #expect(y2026.loggedSeconds == 3_600)
      #expect(y2026.perProject.map(\.project.id) == ["p2"])

      // The running session counts in its project's time until now: 10 days + 3 h.
      #expect(try store.loggedSeconds(projectID: "p2", now: now) == 864_000 + 10_800)
      #expect(try store.loggedSeconds(projectID: "nothing", now: now) == 0)
      // Every project's time at once: the shawl's 4 h, the old project's hour, the ten days
      // (and the running 3 h when counted).
      #expect(
        try store.loggedSecondsByProject(countingRunningUntil: nil) == [
          "p1": 14_400, "p3": 3_600, "p2": 864_000,
        ])
      #expect(
        try store.loggedSecondsByProject(countingRunningUntil: now) == [
          "p1": 14_400, "p3": 3_600, "p2": 874_800,
        ])
      let someDay = { (text: String) in try #require(CalendarDate(iso8601: text)) }
      #expect(
        try store.projects(finishedFrom: someDay("2024-01-01"), through: someDay("2024-12-31")).map(\.id) == [
          "p3"
        ])
      #expect(try store.projects(finishedFrom: someDay("2026-01-01"), through: someDay("2026-12-31")).isEmpty)
      // Both bounds are included: the week 2024-12-30 to 2025-01-05 holds both (creation
      // order); the days between their finished days hold neither.
      #expect(
        try store.projects(finishedFrom: someDay("2024-12-30"), through: someDay("2025-01-05")).map(\.id) == [
          "p1", "p3",
        ])
      #expect(try store.projects(finishedFrom: someDay("2024-12-31"), through: someDay("2025-01-01")).isEmpty)
    }
  }
}
