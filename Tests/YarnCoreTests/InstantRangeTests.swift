import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

/// The instants yarn accepts are those it can write and read back: 0001-01-01T00:00:00Z …
/// 9999-12-31T23:59:59Z in UTC (four-digit years). Seconds from the epoch, checked with
/// Python's datetime: 0001-01-01T00:00:00Z is −62,135,596,800; 9999-12-31T23:59:59Z is
/// 253,402,300,799; 2025-12-29T09:20:00Z is 1,767,000,000.
@Suite struct InstantRangeTests {
  typealias Support = BackupTestSupport
  static let earliest: Int64 = -62_135_596_800
  static let latest: Int64 = 253_402_300_799
  /// 2026-06-15T16:45:30Z.
  let now = Date(timeIntervalSince1970: 1_781_541_930)

  private func zone(hours: Int) throws -> TimeZone {
    try #require(TimeZone(secondsFromGMT: hours * 3600))
  }

  @Test func theBoundsAreTheFirstAndLastWholeSecondsOfFourDigitYears() {
    #expect(JSONCoding.earliestInstant.timeIntervalSince1970 == Double(Self.earliest))
    #expect(JSONCoding.latestInstant.timeIntervalSince1970 == Double(Self.latest))
    #expect(JSONCoding.formatInstant(JSONCoding.earliestInstant) == "0001-01-01T00:00:00Z")
    #expect(JSONCoding.formatInstant(JSONCoding.latestInstant) == "9999-12-31T23:59:59Z")
  }

  @Test(arguments: [
    ("0001-01-01T00:00:00Z", earliest, "0001-01-01T00:00:00Z"),
    ("0001-01-01T18:00:00+18:00", earliest, "0001-01-01T00:00:00Z"),
    ("0000-12-31T23:00:00-01:00", nil, ""),  // year 0 is no day: unreadable, not in range
    ("9999-12-31T23:59:59Z", latest, "9999-12-31T23:59:59Z"),
    ("9999-12-31T05:59:59-18:00", latest, "9999-12-31T23:59:59Z"),
    ("9999-12-31T23:59:59.5Z", latest, "9999-12-31T23:59:59Z"),
    // A double near year 9999 steps by about 30 µs: this fraction must not carry into 10000.
    ("9999-12-31T23:59:59.999999999Z", latest, "9999-12-31T23:59:59Z"),
    ("0001-01-01T00:00:00.25Z", earliest, "0001-01-01T00:00:00Z"),
  ])
  func theBoundsAreReadAndWrittenBackExactly(text: String, seconds: Int64?, written: String) throws {
    guard let seconds else {
      #expect(JSONCoding.parseInstant(text) == nil)
      return
    }
    let instant = try #require(JSONCoding.parseInstant(text), "\(text)")
    #expect(instant.timeIntervalSince1970.rounded(.down) == Double(seconds), "\(text)")
    #expect(JSONCoding.formatInstant(instant) == written)
    #expect(JSONCoding.parseInstant(written)?.timeIntervalSince1970 == Double(seconds))
    #expect(JSONCoding.isInInstantRange(instant))
  }

  @Test(arguments: [
    "0001-01-01T17:59:59+18:00",  // 0000-12-31T23:59:59Z
    "0001-01-01T00:00:00+18:00",  // 0000-12-31T06:00:00Z (year 1's first local instant)
    "0001-01-01T00:00:00+00:01",  // 0000-12-31T23:59:00Z
    "9999-12-31T06:00:00-18:00",  // 10000-01-01T00:00:00Z
    "9999-12-31T23:59:59-18:00",  // 10000-01-01T17:59:59Z
    "9999-12-31T23:59:59.5-00:01",  // 10000-01-01T00:00:59.5Z
    "0000-12-31T23:59:59Z",
    "10000-01-01T00:00:00Z",
  ])
  func oneSecondOutsideEitherBoundIsRefused(text: String) throws {
    #expect(JSONCoding.parseInstant(text) == nil, "\(text)")
    #expect(throws: TimeInput.ParseError.self) {
      try TimeInput.instant(text, now: now, timeZone: try zone(hours: 0))
    }
  }

  @Test func typedTimesOutsideTheRangeSayWhy() throws {
    for (text, hours) in [
      ("9999-12-31T23:59:59-18:00", 0),
      ("0001-01-01T00:00:00+18:00", 0),
      ("0001-01-01 00:00", 9),  // 0000-12-31T15:00:00Z
      ("0001-01-01T08:59:59", 9),  // 0000-12-31T23:59:59Z
      ("9999-12-31 23:00", -2),  // 10000-01-01T01:00:00Z
      ("-999999999h", 0),  // about 114,000 years before now
    ] {
      #expect(throws: TimeInput.ParseError(input: text, problem: .timeOutOfRange), "\(text)") {
        try TimeInput.instant(text, now: now, timeZone: try zone(hours: hours))
      }
    }
    let message = TimeInput.ParseError(input: "0001-01-01 00:00", problem: .timeOutOfRange).description
    #expect(
      message
        == "the time \"0001-01-01 00:00\" falls outside 0001-01-01T00:00:00Z … 9999-12-31T23:59:59Z in UTC, "
        + "the instants yarn can store")
    // Local times on the bounds themselves are taken.
    let first = try TimeInput.instant("0001-01-01 09:00", now: now, timeZone: try zone(hours: 9))
    #expect(first.timeIntervalSince1970 == Double(Self.earliest))
    let last = try TimeInput.instant("9999-12-31T21:59:59", now: now, timeZone: try zone(hours: -2))
    #expect(last.timeIntervalSince1970 == Double(Self.latest))
  }

  @Test func theDecoderNamesTheRange() throws {
    struct Stamp: Decodable { let at: Date }
    let data = Data(#"{"at":"9999-12-31T23:59:59-18:00"}"#.utf8)
    do {
      _ = try JSONCoding.decoder().decode(Stamp.self, from: data)
      Issue.record("expected a decoding error")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(
        context.debugDescription
          == "the instant \"9999-12-31T23:59:59-18:00\" falls outside 0001-01-01T00:00:00Z … "
          + "9999-12-31T23:59:59Z in UTC")
    }
  }

  @Test func aDurationFromTheFirstInstantIsStored() throws {
    try Support.withScratch { dir in
      let store = try LibraryStore(directory: dir.appendingPathComponent("lib"), mode: .readWrite)
      let project = Project(id: "p1", name: "Flax")
      try store.write { try store.insert(project) }
      // 0001-01-01T00:00:00Z is the first instant yarn stores; one hour from it ends at 01:00.
      let first = try #require(JSONCoding.parseInstant("0001-01-01T00:00:00Z"))
      let session = try TimeTracker(store: store).add(
        projectID: "p1", seconds: 3_600, from: first, note: nil, now: now)
      #expect(JSONCoding.formatInstant(session.start) == "0001-01-01T00:00:00Z")
      #expect(session.end.map(JSONCoding.formatInstant) == "0001-01-01T01:00:00Z")
    }
  }

  @Test func extremeInstantsAreShownAndReportedInTheirLocalDays() throws {
    let last = Date(timeIntervalSince1970: Double(Self.latest))
    let first = Date(timeIntervalSince1970: Double(Self.earliest))
    // 9999-12-31T23:59:59Z is 10000-01-01 13:59:59 at UTC+14; 0001-01-01T00:00:00Z is
    // 0000-12-31 19:00 at UTC−5.
    #expect(LocalCalendar.text(last, in: try zone(hours: 14)) == "10000-01-01 13:59")
    #expect(LocalCalendar.text(first, in: try zone(hours: -5)) == "0000-12-31 19:00")
    #expect(LocalCalendar.iso8601(first, in: try zone(hours: -5)) == "0000-12-31T19:00:00-05:00")
    // Weeks of four-digit years (Python: date(1,1,1) is a Monday of week 1; date(9999,12,31)
    // is in week 52).
    let firstDay = try #require(CalendarDate(year: 1, month: 1, day: 1))
    let lastDay = try #require(CalendarDate(year: 9999, month: 12, day: 31))
    #expect(ISOWeek(containing: firstDay).description == "0001-W01")
    #expect(ISOWeek(containing: lastDay).description == "9999-W52")

    // 9999-12-31T09:00Z to 11:00Z is 23:00 to 01:00 at UTC+14: the hour after midnight is of
    // year 10000, which no CalendarDate holds; it counts in 9999-12-31, the last day.
    let session = TimeSession(
      id: "s", projectID: "p", start: Date(timeIntervalSince1970: Double(Self.latest - 53_999)),
      end: Date(timeIntervalSince1970: Double(Self.latest - 46_799)))
    #expect(JSONCoding.formatInstant(session.start) == "9999-12-31T09:00:00Z")
    for (grouping, key) in [
      (TimeReport.Grouping.day, "9999-12-31"), (.week, "9999-W52"), (.month, "9999-12"),
    ] {
      let report = TimeReport(
        sessions: [session], projectNames: [:], grouping: grouping, timeZone: try zone(hours: 14), now: now)
      #expect(report.rows.map(\.key) == [key])
      #expect(report.totalSeconds == 7_200)
    }
    let days = LocalCalendar.interval(from: lastDay, through: lastDay, in: try zone(hours: 14))
    #expect(days.end.timeIntervalSince1970 == Double(Self.latest + 1))
  }

  @Test func aLibraryHoldingBothBoundsBacksUpAndRestoresAsItWas() throws {
    try Support.withScratch { dir in
      let store = try LibraryStore(directory: dir.appendingPathComponent("lib"), mode: .readWrite)
      let start = try #require(JSONCoding.parseInstant("0001-01-01T00:00:00Z"))
      let end = try #require(JSONCoding.parseInstant("9999-12-31T23:59:59.75Z"))
      try store.write {
        try store.insert(Project(id: "p1", name: "Flax"))
        // A session may not end in the future (`Rules`): the note holds the last instant.
        try store.insert(
          TimeSession(id: "s1", projectID: "p1", start: start, end: start.addingTimeInterval(3600)))
        try store.insert(
          Note(id: "n1", subject: .project("p1"), text: "x", created: start, modified: end))
      }
      let first = dir.appendingPathComponent("1.zip")
      try Backup.create(from: store, to: first, generator: "yarn test", now: now)
      let libraryJSON = try #require(try Support.readZip(first).first { $0.0 == "library.json" }?.1)
      let text = String(decoding: libraryJSON, as: UTF8.self)
      #expect(text.contains("\"0001-01-01T00:00:00Z\""))
      #expect(text.contains("\"9999-12-31T23:59:59Z\""))
      try Backup.verify(first)
      let target = try LibraryStore(directory: dir.appendingPathComponent("new"), mode: .readWrite)
      try Backup.restore(from: first, into: target)
      #expect(try target.library() == store.library())
      let second = dir.appendingPathComponent("2.zip")
      try Backup.create(from: target, to: second, generator: "yarn test", now: now)
      #expect(try Support.readZip(second).first { $0.0 == "library.json" }?.1 == libraryJSON)
    }
  }

  /// A backup of the test library whose first note's `created` reads `created` instead.
  private func backup(withNoteCreated created: String, in dir: URL) throws -> URL {
    let store = try Support.makeStore(in: dir)
    let zip = dir.appendingPathComponent("made.zip")
    try Backup.create(from: store, to: zip, generator: "yarn test", now: now)
    var entries = try Support.readZip(zip)
    let index = try #require(entries.firstIndex { $0.0 == "library.json" })
    let text = String(decoding: entries[index].1, as: UTF8.self)
    // The first note was created at 1,767,000,000 s: 2025-12-29T09:20:00Z.
    let original = "\"created\" : \"2025-12-29T09:20:00Z\""
    #expect(text.components(separatedBy: original).count == 2)
    let library = Data(text.replacingOccurrences(of: original, with: "\"created\" : \"\(created)\"").utf8)
    entries[index].1 = library
    let manifestIndex = try #require(entries.firstIndex { $0.0 == "manifest.json" })
    var manifest = try JSONCoding.decoder().decode(BackupManifest.self, from: entries[manifestIndex].1)
    manifest.files = manifest.files.map { file in
      file.path == "library.json"
        ? BackupManifest.File(
          path: file.path, size: Int64(library.count),
          sha256: (try? SHA256Hasher.hexDigest(of: library)) ?? "")
        : file
    }
    entries[manifestIndex].1 = try JSONCoding.encoder().encode(manifest)
    let tampered = dir.appendingPathComponent("tampered.zip")
    try Support.writeZip(entries, to: tampered)
    return tampered
  }

  private func problems(_ body: () throws -> Void) -> [String] {
    do {
      try body()
      Issue.record("expected BackupError.invalidBackup")
    } catch BackupError.invalidBackup(_, let problems) {
      return problems.map(\.description)
    } catch {
      Issue.record("expected BackupError.invalidBackup, got \(error)")
    }
    return []
  }

  @Test func aBackupHoldingAnInstantOfYear10000IsRefusedByVerifyAndRestore() throws {
    try Support.withScratch { dir in
      let zip = try backup(withNoteCreated: "9999-12-31T23:59:59-18:00", in: dir)
      let expected =
        "library.json is not a valid library: at notes[0].created: the instant \"9999-12-31T23:59:59-18:00\" "
        + "falls outside 0001-01-01T00:00:00Z … 9999-12-31T23:59:59Z in UTC"
      #expect(problems { try Backup.verify(zip) } == [expected])
      let target = try LibraryStore(directory: dir.appendingPathComponent("new"), mode: .readWrite)
      #expect(problems { try Backup.restore(from: zip, into: target) } == [expected])
      #expect(try target.library() == Library())
    }
  }

  @Test func aBackupHoldingAnInstantOfYearZeroIsRefusedByVerifyAndRestore() throws {
    try Support.withScratch { dir in
      let zip = try backup(withNoteCreated: "0001-01-01T00:00:00+18:00", in: dir)
      let verified = problems { try Backup.verify(zip) }
      #expect(verified.count == 1)
      #expect(
        verified.first?.contains("at notes[0].created: the instant \"0001-01-01T00:00:00+18:00\"") == true)
      let target = try LibraryStore(directory: dir.appendingPathComponent("new"), mode: .readWrite)
      #expect(problems { try Backup.restore(from: zip, into: target) } == verified)
      #expect(try target.library() == Library())
    }
  }
}
