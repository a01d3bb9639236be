import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

/// Checks `samples/demo/` (written by `samples/make_demo.py`) against issue 2 §7: it must be a
/// realistic library, an unpacked backup of format v1 whose manifest is right, and its remaining
/// estimates must be the figures worked out by hand below (README and end-to-end tests reuse them).
@Suite struct SampleLibraryTests {
  /// `samples/demo`, found from this file: Tests/YarnCoreTests/ → the package root.
  static let demo = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("samples/demo")

  /// The sample crafter's time zone (stated in a project note of the sample).
  static let newYork = TimeZone(identifier: "America/New_York")

  static func loadLibrary() throws -> Library {
    let data = try Data(contentsOf: demo.appendingPathComponent("library.json"))
    return try JSONCoding.decoder().decode(Library.self, from: data)
  }

  static func instant(_ text: String) throws -> Date {
    try #require(JSONCoding.parseInstant(text), "bad instant \(text)")
  }

  func yarn(named name: String, in library: Library) throws -> Yarn {
    try #require(library.yarns.first { $0.name == name }, "no yarn named \(name)")
  }

  // MARK: - The document

  @Test func libraryDecodesAndReencodesToTheSameBytes() throws {
    let data = try Data(contentsOf: Self.demo.appendingPathComponent("library.json"))
    let library = try JSONCoding.decoder().decode(Library.self, from: data)
    // The generator writes exactly what JSONCoding.encoder() writes, so backup → restore →
    // backup of the sample gives a byte-identical library.json.
    let again = try JSONCoding.encoder().encode(library)
    #expect(again == data)
  }

  @Test func yarnsAreRealProductsWithQuantitiesInEveryUnit() throws {
    let library = try Self.loadLibrary()
    #expect(library.yarns.count >= 12)
    let units = Set(library.yarns.compactMap { $0.quantity?.unit })
    // Every unit there was when the sample was made (kg and lb came later, in schema v5).
    #expect(units == [.skein, .gram, .ounce, .yard, .meter])
    // Real put-ups, from the ball bands.
    let cascade = try yarn(named: "Cascade 220", in: library)
    #expect(cascade.lengthPerSkein == Amount(220, .yard))
    #expect(cascade.netWeightPerSkein == Amount(100, .gram))
    #expect(cascade.weight == .medium)
    #expect(cascade.fiber == "100% Peruvian Highland Wool")
    let drops = try yarn(named: "DROPS Alpaca", in: library)
    #expect(drops.lengthPerSkein == Amount(167, .meter))
    #expect(drops.netWeightPerSkein == Amount(50, .gram))
    #expect(drops.brand == "Garnstudio – DROPS")
    let thickQuick = try yarn(named: "Wool-Ease Thick & Quick", in: library)
    #expect(thickQuick.lengthPerSkein == Amount(106, .yard))
    #expect(thickQuick.netWeightPerSkein == Amount(6, .ounce))
    #expect(thickQuick.weight == .superBulky)
    // Names with a double quote, with a comma, and text beyond ASCII.
    #expect(library.yarns.contains { $0.name.unicodeScalars.contains("\"") })
    #expect(library.yarns.contains { $0.name.unicodeScalars.contains(",") })
    #expect(library.yarns.contains { ($0.brand ?? "").unicodeScalars.contains { !$0.isASCII } })
    #expect(library.yarns.contains { ($0.purchaseLocation ?? "").unicodeScalars.contains { !$0.isASCII } })
    // Some put-up facts unknown, one quantity unknown, one override.
    #expect(library.yarns.contains { $0.lengthPerSkein == nil && $0.quantity != nil })
    #expect(library.yarns.contains { $0.netWeightPerSkein == nil && $0.quantity != nil })
    #expect(library.yarns.filter { $0.quantity == nil }.count == 1)
    #expect(library.yarns.filter { $0.remainingOverride != nil }.count == 1)
    #expect(Set(library.yarns.map(\.id)).count == library.yarns.count)
    for yarn in library.yarns {
      #expect(yarn.id == yarn.id.lowercased() && UUID(uuidString: yarn.id) != nil)
      #expect(yarn.dateAdded != nil)
    }
  }

  @Test func projectsCoverEveryStatusWithConsistentDates() throws {
    let library = try Self.loadLibrary()
    #expect(library.projects.count >= 5)
    #expect(Set(library.projects.map(\.status)) == Set(ProjectStatus.allCases))
    let crafts = Set(library.projects.compactMap(\.craft))
    #expect(crafts.contains(.knitting) && crafts.contains(.crochet))
    for project in library.projects {
      switch project.status {
      case .planned:
        #expect(project.started == nil && project.finished == nil, "\(project.name)")
      case .inProgress, .hibernating:
        #expect(project.started != nil && project.finished == nil, "\(project.name)")
      case .finished, .frogged:
        let started = try #require(project.started, "\(project.name)")
        let finished = try #require(project.finished, "\(project.name)")
        #expect(started <= finished, "\(project.name)")
      }
    }
    // Usages in mixed units, each naming a yarn of the library.
    let usageUnits = Set(library.projects.flatMap(\.usages).map(\.amount.unit))
    #expect(usageUnits == [.skein, .gram, .ounce, .yard, .meter])
    let yarnIDs = Set(library.yarns.map(\.id))
    for usage in library.projects.flatMap(\.usages) {
      #expect(yarnIDs.contains(usage.yarnID))
    }
  }

  @Test func notesHoldCommasQuotesAndLineBreaks() throws {
    let library = try Self.loadLibrary()
    // Unicode scalars, not Characters: "\r\n" or a quote before a combining mark is one
    // Character (DESIGN.md, CSV).
    func tricky(_ note: Note) -> Bool {
      let scalars = note.text.unicodeScalars
      return scalars.contains(",") && scalars.contains("\"") && scalars.contains("\n")
    }
    #expect(library.notes.contains { tricky($0) && $0.yarnID != nil })
    #expect(library.notes.contains { tricky($0) && $0.projectID != nil })
    #expect(library.notes.contains { $0.text.unicodeScalars.contains { $0.value >= 0x3040 } })  // Japanese
    #expect(library.notes.contains { $0.text.contains("ø") })  // Norwegian
    let yarnIDs = Set(library.yarns.map(\.id))
    let projectIDs = Set(library.projects.map(\.id))
    for note in library.notes {
      switch note.subject {
      case .yarn(let id): #expect(yarnIDs.contains(id))
      case .project(let id): #expect(projectIDs.contains(id))
      case nil: Issue.record("note \(note.id) belongs to nothing")
      }
      #expect(note.created <= note.modified)
    }
  }

  // MARK: - Time

  @Test func sessionsAreStoppedOrderedDisjointAndInThePast() throws {
    let library = try Self.loadLibrary()
    let sessions = library.sessions
    #expect(sessions.count >= 30)
    #expect(Set(sessions.map(\.projectID)).count >= 4)
    let projects = Dictionary(uniqueKeysWithValues: library.projects.map { ($0.id, $0) })
    let zone = try #require(Self.newYork)
    let cutoff = try Self.instant("2026-11-29T00:00:00Z")
    var previousEnd: Date?
    for session in sessions {
      let end = try #require(session.end, "session \(session.id) is running")
      #expect(session.start < end)
      #expect(end <= cutoff)
      #expect(session.start.timeIntervalSince1970 == session.start.timeIntervalSince1970.rounded())
      #expect(end.timeIntervalSince1970 == end.timeIntervalSince1970.rounded())
      if let previousEnd { #expect(previousEnd <= session.start, "overlap at \(session.id)") }
      previousEnd = end
      // Within the project's started ... finished days, in the crafter's zone.
      let project = try #require(projects[session.projectID])
      if let started = project.started {
        #expect(started <= CalendarDate(containing: session.start, in: zone), "\(project.name)")
      }
      if let finished = project.finished {
        #expect(CalendarDate(containing: end, in: zone) <= finished, "\(project.name)")
      }
      #expect(project.status != .planned)
    }
  }

  @Test func oneSessionCrossesLocalMidnightAndOneTheDSTChange() throws {
    let library = try Self.loadLibrary()
    let zone = try #require(Self.newYork)
    let stopped = library.sessions.compactMap { s in s.end.map { (s, $0) } }
    let acrossMidnight = stopped.filter { session, end in
      CalendarDate(containing: session.start, in: zone) != CalendarDate(containing: end, in: zone)
    }
    let acrossDST = stopped.filter { session, end in
      zone.secondsFromGMT(for: session.start) != zone.secondsFromGMT(for: end)
    }
    #expect(acrossMidnight.count == 1)
    #expect(acrossDST.count == 1)
    // By hand: 14 Feb 2026 22:40 EST = 15 Feb 03:40Z, + 115 min = 05:35Z = 00:35 EST on the 15th;
    // the UTC day does not change, only the local one.
    let midnight = try #require(acrossMidnight.first)
    #expect(midnight.0.start == (try Self.instant("2026-02-15T03:40:00Z")))
    #expect(midnight.1 == (try Self.instant("2026-02-15T05:35:00Z")))
    // By hand: 8 Mar 2026 01:20 EST = 06:20Z; 07:50Z = 03:50 EDT. The clock shows 2 h 30 min,
    // the session lasted 1 h 30 min = 5400 s.
    let dst = try #require(acrossDST.first)
    #expect(dst.0.start == (try Self.instant("2026-03-08T06:20:00Z")))
    #expect(dst.0.seconds() == 5_400)
    #expect(zone.secondsFromGMT(for: dst.0.start) == -5 * 3600)
    #expect(zone.secondsFromGMT(for: dst.1) == -4 * 3600)
  }

  // MARK: - Attachments and the manifest

  @Test func attachmentsAreRealJPEGsAndAPDFWithRightSizesAndDigests() throws {
    let library = try Self.loadLibrary()
    let attachments = library.attachments
    for attachment in attachments {
      let url = Self.demo.appendingPathComponent("attachments/\(attachment.sha256)")
      let (digest, size) = try SHA256Hasher.hexDigest(ofFileAt: url)
      #expect(digest == attachment.sha256, "\(attachment.fileName)")
      #expect(size == attachment.byteCount, "\(attachment.fileName)")
      #expect(Attachment.mediaType(forFileName: attachment.fileName) == attachment.mediaType)
      #expect(size < 150_000, "\(attachment.fileName) is \(size) bytes")
    }
    func head(_ attachment: YarnCore.Attachment, _ count: Int) throws -> [UInt8] {
      let url = Self.demo.appendingPathComponent("attachments/\(attachment.sha256)")
      return Array(try Data(contentsOf: url).prefix(count))
    }
    let jpegs = attachments.filter { $0.mediaType == "image/jpeg" }
    #expect(jpegs.count >= 3)
    for jpeg in jpegs {
      #expect(try head(jpeg, 3) == [0xFF, 0xD8, 0xFF], "\(jpeg.fileName)")
    }
    let pdfs = library.projects.compactMap { $0.pattern?.pdf }
    let pdf = try #require(pdfs.first)
    #expect(pdf.mediaType == "application/pdf")
    #expect(try head(pdf, 5) == Array("%PDF-".utf8))
    // Photos on yarns and on projects; one photo shared by both is stored once.
    #expect(library.yarns.contains { !$0.photos.isEmpty })
    #expect(library.projects.contains { !$0.photos.isEmpty })
    let all = library.yarns.flatMap(\.photos) + library.projects.flatMap(\.photos)
    #expect(all.count > Set(all.map(\.sha256)).count)
  }

  /// The manifest as backup format v1 writes it (docs/FORMAT.md); a local mirror, so this test
  /// does not depend on the archive code.
  struct Manifest: Codable, Equatable {
    struct Counts: Codable, Equatable {
      var yarns, projects, notes, sessions, attachments: Int
    }
    struct File: Codable, Equatable {
      var path: String
      var size: Int64
      var sha256: String
    }
    var format: String
    var formatVersion: Int
    var createdAt: Date
    var generator: String
    var counts: Counts
    var files: [File]
  }

  @Test func manifestListsEveryFileWithItsSizeAndDigest() throws {
    let data = try Data(contentsOf: Self.demo.appendingPathComponent("manifest.json"))
    let manifest = try JSONCoding.decoder().decode(Manifest.self, from: data)
    #expect(try JSONCoding.encoder().encode(manifest) == data)
    #expect(manifest.format == "yarn-backup")
    #expect(manifest.formatVersion == 1)
    #expect(manifest.generator == "yarn-samples")
    #expect(manifest.createdAt == (try Self.instant("2026-11-29T12:00:00Z")))
    for file in manifest.files {
      let (digest, size) = try SHA256Hasher.hexDigest(
        ofFileAt: Self.demo.appendingPathComponent(file.path))
      #expect(digest == file.sha256, "\(file.path)")
      #expect(size == file.size, "\(file.path)")
    }
    let library = try Self.loadLibrary()
    #expect(
      manifest.counts
        == Manifest.Counts(
          yarns: library.yarns.count, projects: library.projects.count,
          notes: library.notes.count, sessions: library.sessions.count,
          attachments: library.attachments.count))
    let expected = ["library.json"] + library.attachments.map { "attachments/\($0.sha256)" }
    #expect(Set(manifest.files.map(\.path)) == Set(expected))
    #expect(manifest.files.count == expected.count)
    // Nothing in the directory that the manifest does not list.
    let stored = try FileManager.default.contentsOfDirectory(
      atPath: Self.demo.appendingPathComponent("attachments").path)
    #expect(Set(stored.map { "attachments/\($0)" }) == Set(expected.dropFirst()))
  }

  // MARK: - Remaining estimates, worked out by hand

  func expectClose(_ amount: Amount?, _ value: Double, _ unit: YarnUnit) {
    #expect(amount?.unit == unit)
    #expect(abs((amount?.value ?? .nan) - value) < 1e-9, "\(String(describing: amount)) vs \(value)")
  }

  @Test func remainingEstimatesMatchHandFigures() throws {
    let library = try Self.loadLibrary()

    // Cascade 220: 5 skeins; Flax for Leo (finished) used 550 yd at 220 yd a skein
    // = 2.5 skeins; 5 - 2.5 = 2.5 skeins.
    let cascade = library.remaining(of: try yarn(named: "Cascade 220", in: library))
    #expect(cascade.source == .estimate)
    expectClose(cascade.remaining, 2.5, .skein)

    // Tosh Merino Light: 420 yd; Hermione's Everyday Socks (finished) used 80 g at 100 g a
    // skein = 0.8 skein = 0.8 x 420 yd = 336 yd; 420 - 336 = 84 yd.
    let tosh = library.remaining(of: try yarn(named: "Tosh Merino Light", in: library))
    #expect(tosh.source == .estimate)
    expectClose(tosh.remaining, 84, .yard)

    // Wool-Ease Thick & Quick: 18 oz; Chunky Cowl (finished) used 106 yd at 106 yd and 6 oz
    // a skein = 1 skein = 6 oz; 18 - 6 = 12 oz.
    let thick = library.remaining(of: try yarn(named: "Wool-Ease Thick & Quick", in: library))
    #expect(thick.source == .estimate)
    expectClose(thick.remaining, 12, .ounce)

    // Red Heart Super Saver: 14 oz (2 skeins of 7 oz); the blanket (finished) used 3 skeins
    // = 21 oz; 14 - 21 < 0: 0 oz left, overdrawn by 7 oz.
    let saver = library.remaining(of: try yarn(named: "Super Saver", in: library))
    #expect(saver.source == .overdrawn)
    expectClose(saver.remaining, 0, .ounce)
    #expect(abs((saver.deficit ?? .nan) - 7) < 1e-9)

    // Vanna's Choice: 3 skeins, net weight per skein unknown; the blanket's 150 g cannot
    // become skeins: 3 skeins, incomplete, the 150 g listed with the missing fact.
    let vanna = library.remaining(of: try yarn(named: "Vanna's Choice", in: library))
    #expect(vanna.source == .incomplete)
    expectClose(vanna.remaining, 3, .skein)
    #expect(vanna.unconverted.map(\.amount) == [Amount(150, .gram)])
    #expect(vanna.unconverted.map(\.missing) == [[.netWeightPerSkein]])

    // Rios: the crafter weighed it: 230 g, her own figure.
    let rios = library.remaining(of: try yarn(named: "Rios", in: library))
    #expect(rios.source == .override)
    #expect(rios.remaining == Amount(230, .gram))

    // Cashmerino Aran: never counted: no figure.
    let cashmerino = library.remaining(
      of: try yarn(named: "Cashmerino Aran, Grandma's stash", in: library))
    #expect(cashmerino.source == .unknown)
    #expect(cashmerino.remaining == nil)

    // Shelter "Almanac": 700 yd; Cobblestone was frogged, so its 420 yd went back: 700 yd.
    let shelter = library.remaining(of: try yarn(named: "Shelter \"Almanac\"", in: library))
    #expect(shelter.source == .estimate)
    expectClose(shelter.remaining, 700, .yard)

    // Peer Gynt: 6 skeins of 50 g (length unknown); Selbuvotter is in progress: by default
    // nothing counts (6 skeins); counting active projects, 100 g = 2 skeins: 4 skeins.
    let peer = try yarn(named: "Peer Gynt", in: library)
    expectClose(library.remaining(of: peer).remaining, 6, .skein)
    let peerActive = library.remaining(of: peer, includeActive: true)
    #expect(peerActive.source == .estimate)
    expectClose(peerActive.remaining, 4, .skein)

    // Felted Tweed DK: 250 g; Selbuvotter (in progress) used 40 m at 175 m and 50 g a skein
    // = 40/175 x 50 g = 80/7 g = 11.428571... g; counting active projects 250 - 80/7 =
    // 1670/7 = 238.571428... g.
    let tweed = try yarn(named: "Felted Tweed DK", in: library)
    expectClose(library.remaining(of: tweed, includeActive: true).remaining, 1670.0 / 7.0, .gram)
  }
}
