import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

/// The summary of a calendar year: January 1 through December 31.
extension PeriodSummary {
  init(library: Library, year: Int, timeZone: TimeZone, now: Date) {
    self.init(
      library: library, from: CalendarDate(year: year, month: 1, day: 1) ?? .last,
      through: CalendarDate(year: year, month: 12, day: 31) ?? .last, timeZone: timeZone, now: now)
  }

  init(store: LibraryStore, year: Int, timeZone: TimeZone, now: Date) throws {
    try self.init(
      store: store, from: CalendarDate(year: year, month: 1, day: 1) ?? .last,
      through: CalendarDate(year: year, month: 12, day: 31) ?? .last, timeZone: timeZone, now: now)
  }
}

@Suite struct PeriodSummaryTests {
  let newYork = TimeZone(identifier: "America/New_York") ?? .current
  let now = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15, after every sample session

  func at(_ text: String) throws -> Date { try #require(JSONCoding.parseInstant(text)) }

  /// The sample library (samples/demo, America/New_York), worked out by hand from its
  /// library.json.
  @Test func theSampleLibrary2026() throws {
    let library = try SampleLibraryTests.loadLibrary()
    let summary = PeriodSummary(library: library, year: 2026, timeZone: newYork, now: now)
    // Finished in 2026 (frogged Cobblestone is not): Flax for Leo (02-22), Hermione's
    // Everyday Socks (04-12), the granny square blanket (06-28), Chunky Cowl (10-04).
    #expect(
      summary.finished.map(\.project.name) == [
        "Flax for Leo", "Hermione's Everyday Socks", "Granny Square Blanket, for Mum", "Chunky Cowl",
      ])
    // Flax: 95 + 120 + 70 + 135 + 110 + 90 + 105 + 80 = 805 min. Socks: 75 + 60 + 90 + 100 +
    // 90 + 120 = 535 min. Blanket: 60 + 120 + 115 + 150 + 140 + 165 + 120 + 95 + 130 + 110 +
    // 85 = 1,290 min. Cowl: 95 + 70 = 165 min.
    #expect(summary.finished.map(\.seconds) == [48_300, 32_100, 77_400, 9_900])
    // 805 + 535 + 1,290 + 165 = 2,795 min = 167,700 s; / 4 = 41,925 s (11 h 38 min 45 s).
    #expect(summary.finishedSeconds == 167_700)
    #expect(summary.averageSecondsPerFinished == 41_925)
    #expect(summary.longest?.project.name == "Granny Square Blanket, for Mum")
    // All 40 sessions fall in 2026 in New York (the first starts 2026-01-10 19:30 EST): the
    // four above, Cobblestone 100 + 125 + 70 = 295 min, Hitchhiker 90 + 75 + 60 = 225 min,
    // Selbuvotter 110 + 140 + 95 + 120 + 80 + 105 + 90 = 740 min: 4,055 min = 243,300 s.
    #expect(summary.loggedSeconds == 243_300)
    #expect(summary.perProject.count == 7)
    #expect(summary.perProject.first?.project.name == "Granny Square Blanket, for Mum")
    #expect(summary.perProject.first { $0.project.name == "Selbuvotter" }?.seconds == 44_400)
    // Yarn of the four: Flax 550 yd of Cascade 220 (220 yd / 100 g, worsted) = 250 g; blanket
    // 3 skeins of Super Saver (7 oz each, worsted) = 21 oz = 595.339985625 g and 150 g of
    // Vanna's Choice (worsted, grams need no put-up); socks 80 g of Tosh Merino Light
    // (fingering); cowl 106 yd of Thick & Quick (106 yd / 6 oz, super bulky) = 6 oz =
    // 170.09713875 g.
    #expect(summary.yarnByWeight.map(\.weight) == [.superFine, .medium, .superBulky])
    #expect(summary.yarnByWeight.map(\.usages) == [1, 3, 1])
    let grams = summary.yarnByWeight.map(\.grams)
    #expect(abs(grams[0] - 80) < 1e-9)
    #expect(abs(grams[1] - 995.339985625) < 1e-9)
    #expect(abs(grams[2] - 170.09713875) < 1e-9)
    #expect(abs(summary.totalGrams - 1_245.437124375) < 1e-9)
    #expect(summary.unconverted.isEmpty)
  }

  @Test func unconvertibleUsagesAreListedApartAndNewYearIsSplit() throws {
    let library = try newYearLibrary()
    let summary = PeriodSummary(library: library, year: 2026, timeZone: newYork, now: now)
    #expect(summary.finished.map(\.project.id) == ["p1"])
    #expect(summary.finished.first?.seconds == 10_800)  // all its time, 3 h
    #expect(summary.loggedSeconds == 3_600)  // only the hour inside 2026
    // 1.5 skeins × 100 g = 150 g of fingering; the 2 mystery skeins (no net weight) and the
    // 300 yd (no length per skein) are listed, not guessed.
    #expect(summary.yarnByWeight.count == 1)
    #expect(summary.yarnByWeight.first?.weight == .superFine)
    #expect(summary.yarnByWeight.first?.grams == 150)
    #expect(summary.unconverted.map(\.yarnName) == ["Mystery skeins", "Sock yarn"])
    #expect(summary.unconverted.map(\.missing) == [[.netWeightPerSkein], [.lengthPerSkein]])
    let previous = PeriodSummary(library: library, year: 2025, timeZone: newYork, now: now)
    #expect(previous.finished.map(\.project.id) == ["p3"])
    #expect(previous.loggedSeconds == 3_600 + 7_200)
    let empty = PeriodSummary(library: library, year: 2030, timeZone: newYork, now: now)
    #expect(empty.finished.isEmpty)
    #expect(empty.averageSecondsPerFinished == nil)
    #expect(empty.longest == nil)
    #expect(empty.loggedSeconds == 0)
  }

  /// A small amount of yarn used is shown as every amount is (QA: `summary` printed a lace
  /// thread's 0.004 g as `0 g`): above 0, too small for two decimals, by its first two
  /// significant digits.
  @Test func aTinyAmountUsedIsNotShownAsZero() throws {
    let library = Library(
      yarns: [Yarn(id: "y1", name: "Doily Thread", weight: .lace)],
      projects: [
        Project(
          id: "p1", name: "Doily", status: .finished, finished: CalendarDate(iso8601: "2026-05-01"),
          usages: [YarnUsage(yarnID: "y1", amount: Amount(0.004, .gram))])
      ])
    let summary = PeriodSummary(library: library, year: 2026, timeZone: newYork, now: now)
    #expect(summary.totalGrams == 0.004)
    #expect(DisplayText.grams(summary.totalGrams) == "0.004 g")
    #expect(DisplayText.grams(0.00123) == "0.0012 g")
    #expect(DisplayText.grams(412.504) == "412.5 g")
    #expect(DisplayText.grams(0) == "0 g")
  }

  /// Each figure is the usages' unrounded grams added and rounded once. 300 m per 100 g: 1 m
  /// is 1/3 g. Two DK usages are 2/3 g = 0.666666666666667 g to 15 significant digits (their
  /// rounded grams added were 0.666666666666666); with a worsted one, 1 g in all (the rounded
  /// sums per weight added were 0.999999999999999).
  @Test func sumsAreOfUnroundedGramsRoundedOnce() throws {
    func yarn(_ id: String, _ weight: YarnWeight) -> Yarn {
      Yarn(
        id: id, name: id, weight: weight, lengthPerSkein: Amount(300, .meter),
        netWeightPerSkein: Amount(100, .gram))
    }
    let library = Library(
      yarns: [yarn("dk1", .light), yarn("dk2", .light), yarn("worsted", .medium)],
      projects: [
        Project(
          id: "p1", name: "Swatches", status: .finished, finished: CalendarDate(iso8601: "2026-05-01"),
          usages: ["dk1", "dk2", "worsted"].map { YarnUsage(yarnID: $0, amount: Amount(1, .meter)) })
      ])
    let summary = PeriodSummary(library: library, year: 2026, timeZone: newYork, now: now)
    #expect(summary.yarnByWeight.map(\.grams) == [0.666666666666667, 0.333333333333333])
    #expect(summary.totalGrams == 1)
  }

  /// The average per finished project is rounded to the nearest second, a half up (QA: 1 s,
  /// 2 s and 2 s averaged "1s", 5/3 s cut down).
  @Test func theAverageIsRoundedToTheNearestSecond() throws {
    func library(_ seconds: [Int]) throws -> Library {
      let start = try at("2026-05-01T12:00:00Z")
      return Library(
        projects: seconds.indices.map {
          Project(
            id: "p\($0)", name: "P\($0)", status: .finished, finished: CalendarDate(iso8601: "2026-05-02"))
        },
        sessions: seconds.enumerated().map {
          TimeSession(
            id: "s\($0.offset)", projectID: "p\($0.offset)", start: start,
            end: start.addingTimeInterval(Double($0.element)))
        })
    }
    let thirds = PeriodSummary(library: try library([1, 2, 2]), year: 2026, timeZone: newYork, now: now)
    #expect(thirds.finishedSeconds == 5)
    #expect(thirds.averageSecondsPerFinished == 2)
    #expect(DisplayText.duration(thirds.averageSecondsPerFinished ?? 0) == "2s")
    let half = PeriodSummary(library: try library([1, 2]), year: 2026, timeZone: newYork, now: now)
    #expect(half.averageSecondsPerFinished == 2)
    let down = PeriodSummary(library: try library([1, 1, 2]), year: 2026, timeZone: newYork, now: now)
    #expect(down.averageSecondsPerFinished == 1)
  }

  /// Two yarns, a project finished 2026-01-02 with a session across New Year (2 h in 2025,
  /// 1 h in 2026 in New York), a frogged project, and one finished 2025-12-30 with an hour
  /// on 2025-12-20.
  func newYearLibrary() throws -> Library {
    let day = { (text: String) in CalendarDate(iso8601: text) }
    return Library(
      yarns: [
        Yarn(id: "y1", name: "Mystery skeins", quantity: Amount(3, .skein)),
        Yarn(id: "y2", name: "Sock yarn", weight: .superFine, netWeightPerSkein: Amount(100, .gram)),
      ],
      projects: [
        Project(
          id: "p1", name: "Shawl", status: .finished, finished: day("2026-01-02"),
          usages: [
            YarnUsage(yarnID: "y1", amount: Amount(2, .skein)),
            YarnUsage(yarnID: "y2", amount: Amount(1.5, .skein)),
            YarnUsage(yarnID: "y2", amount: Amount(300, .yard)),
          ]),
        Project(id: "p2", name: "Frogged", status: .frogged, finished: day("2026-03-01")),
        Project(id: "p3", name: "Last year", status: .finished, finished: day("2025-12-30")),
      ],
      sessions: [
        // 2025-12-31 22:00 EST (2026-01-01T03:00Z) to 2026-01-01 01:00 EST (06:00Z): 2 h in
        // 2025, 1 h in 2026 (New Year's midnight is 05:00Z).
        TimeSession(
          id: "s1", projectID: "p1", start: try at("2026-01-01T03:00:00Z"),
          end: try at("2026-01-01T06:00:00Z")),
        TimeSession(
          id: "s2", projectID: "p3", start: try at("2025-12-20T15:00:00Z"),
          end: try at("2025-12-20T16:00:00Z")),
      ])
  }

  /// A week, a month and a day: the same rules over other ranges of local days.
  @Test func periodsShorterThanAYear() throws {
    let library = try newYearLibrary()
    let day = { (text: String) in try #require(CalendarDate(iso8601: text)) }
    // ISO week 2026-W01: Monday 2025-12-29 through Sunday 2026-01-04.
    let week = PeriodSummary(
      library: library, from: try day("2025-12-29"), through: try day("2026-01-04"), timeZone: newYork,
      now: now)
    #expect(week.year == nil)
    // Finished 2026-01-02 and 2025-12-30 (in finished-day order); the frogged one is not.
    #expect(week.finished.map(\.project.id) == ["p3", "p1"])
    // The New Year session lies wholly inside the week: 3 h; the 2025-12-20 hour does not.
    #expect(week.loggedSeconds == 10_800)
    // Of those 3 h, 2 h fall in December 2025 and 1 h in January 2026.
    #expect(week.busiestMonth == PeriodSummary.MonthTime(year: 2025, month: 12, seconds: 7_200))
    #expect(DisplayText.period(from: week.first, through: week.last) == "2025-12-29 to 2026-01-04")

    let january = PeriodSummary(
      library: library, from: try day("2026-01-01"), through: try day("2026-01-31"), timeZone: newYork,
      now: now)
    #expect(january.finished.map(\.project.id) == ["p1"])
    #expect(january.loggedSeconds == 3_600)
    #expect(january.busiestMonth == nil)  // inside one month: nothing to compare
    #expect(DisplayText.period(from: january.first, through: january.last) == "January 2026")

    let oneDay = PeriodSummary(
      library: library, from: try day("2025-12-30"), through: try day("2025-12-30"), timeZone: newYork,
      now: now)
    #expect(oneDay.finished.map(\.project.id) == ["p3"])
    #expect(oneDay.loggedSeconds == 0)
    #expect(DisplayText.period(from: oneDay.first, through: oneDay.last) == "2025-12-30")

    let backwards = PeriodSummary(
      library: library, from: try day("2026-01-04"), through: try day("2025-12-29"), timeZone: newYork,
      now: now)
    #expect(backwards.finished.isEmpty && backwards.loggedSeconds == 0)

    let year = PeriodSummary(library: library, year: 2026, timeZone: newYork, now: now)
    #expect(year.year == 2026)
    #expect(DisplayText.period(from: year.first, through: year.last) == "2026")
    // The last year a date holds, and a year of one digit (four, as ISO 8601 writes it).
    let last = try day("9999-12-31")
    #expect(DisplayText.period(from: try day("9999-01-01"), through: last) == "9999")
    #expect(DisplayText.period(from: try day("9999-12-01"), through: last) == "December 9999")
    #expect(DisplayText.period(from: try day("0001-01-01"), through: try day("0001-12-31")) == "0001")
    #expect(
      DisplayText.period(from: try day("2024-02-01"), through: try day("2024-02-29")) == "February 2024")
    #expect(
      DisplayText.period(from: try day("2024-02-01"), through: try day("2024-02-28"))
        == "2024-02-01 to 2024-02-28")
    #expect(DisplayText.month(PeriodSummary.MonthTime(year: 1, month: 1, seconds: 1)) == "January 0001")
  }
}
