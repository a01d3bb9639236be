import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Collects what an XML document holds: the root's name and attributes, all text, and every
/// element's attributes.
final class MarkupCollector: NSObject, XMLParserDelegate {
  var root: (name: String, attributes: [String: String])?
  var elements: [(name: String, attributes: [String: String])] = []
  var text = ""

  func parser(
    _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
    attributes: [String: String] = [:]
  ) {
    if root == nil { root = (name, attributes) }
    elements.append((name, attributes))
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

  func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?)
  {
    text += "\n"
  }

  /// Parses `document`; nil when it is not well-formed.
  static func parse(_ document: String) -> MarkupCollector? {
    let collector = MarkupCollector()
    let parser = XMLParser(data: Data(document.utf8))
    parser.delegate = collector
    return parser.parse() ? collector : nil
  }
}

/// `YearCard`: the year-in-review SVG (`yarn summary --card`).
@Suite struct YearCardTests {
  let utc = TimeZone(identifier: "UTC") ?? .current
  let now = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15

  func at(_ text: String) throws -> Date { try #require(JSONCoding.parseInstant(text)) }

  /// Three projects finished in 2026, one with a hostile name:
  /// - Shawl: 5 h on 2026-03-02; 100 g of a worsted yarn;
  /// - `<script>` & "Co" 'x': 2 h on 2026-03-10 and 2 h 30 m on 2026-06-01; 50 g of a DK yarn;
  /// - Hat: 3 h on 2026-06-05.
  /// Total 12 h 30 m (45,000 s), average 15,000 s = 4 h 10 m; March 7 h, June 5 h 30 m.
  func library() throws -> Library {
    let day = { (text: String) in CalendarDate(iso8601: text) }
    return Library(
      yarns: [
        Yarn(id: "y1", name: "Worsted wool", weight: .medium),
        Yarn(id: "y2", name: "DK cotton", weight: .light),
      ],
      projects: [
        Project(
          id: "p1", name: "Shawl", status: .finished, finished: day("2026-03-20"),
          usages: [YarnUsage(yarnID: "y1", amount: Amount(100, .gram))]),
        Project(
          id: "p2", name: "<script>alert(1)</script> & \"Co\" 'x'\u{1}", status: .finished,
          finished: day("2026-06-02"), usages: [YarnUsage(yarnID: "y2", amount: Amount(50, .gram))]),
        Project(id: "p3", name: "Hat", status: .finished, finished: day("2026-06-30")),
        Project(id: "p4", name: "Planned", status: .planned),
      ],
      sessions: [
        TimeSession(
          id: "s1", projectID: "p1", start: try at("2026-03-02T10:00:00Z"),
          end: try at("2026-03-02T15:00:00Z")),
        TimeSession(
          id: "s2", projectID: "p2", start: try at("2026-03-10T10:00:00Z"),
          end: try at("2026-03-10T12:00:00Z")),
        TimeSession(
          id: "s3", projectID: "p2", start: try at("2026-06-01T10:00:00Z"),
          end: try at("2026-06-01T12:30:00Z")),
        TimeSession(
          id: "s4", projectID: "p3", start: try at("2026-06-05T10:00:00Z"),
          end: try at("2026-06-05T13:00:00Z")),
      ])
  }

  @Test func theSummaryHasTheBusiestMonth() throws {
    let summary = PeriodSummary(library: try library(), year: 2026, timeZone: utc, now: now)
    #expect(summary.busiestMonth == PeriodSummary.MonthTime(year: 2026, month: 3, seconds: 25_200))
    #expect(PeriodSummary(library: try library(), year: 2025, timeZone: utc, now: now).busiestMonth == nil)
  }

  @Test func theCardIsWellFormedSVGOfTheFixedSizeHoldingTheFigures() throws {
    let summary = PeriodSummary(library: try library(), year: 2026, timeZone: utc, now: now)
    let photo = YearCard.Photo(
      caption: "Shawl", mediaType: "image/png", data: Data([0x89, 0x50, 0x4E, 0x47, 1, 2]))
    let svg = YearCard.svg(summary, photos: YearCard.Photos(chosen: [photo], overLimit: 1))
    let parsed = try #require(MarkupCollector.parse(svg))
    #expect(parsed.root?.name == "svg")
    #expect(parsed.root?.attributes["width"] == "1080")
    #expect(parsed.root?.attributes["height"] == "1350")
    #expect(parsed.root?.attributes["viewBox"] == "0 0 1080 1350")
    let lines = parsed.text.split(separator: "\n").map(String.init)
    #expect(lines.contains("2026"))
    #expect(lines.contains("3"))
    #expect(lines.contains("projects finished"))
    #expect(lines.contains("12h 30m"))
    #expect(lines.contains("4h 10m"))
    #expect(lines.contains("150 g"))
    #expect(lines.contains("March 2026 · 7h"))
    #expect(lines.contains("3 Light (DK) 50 g") && lines.contains("4 Medium (worsted) 100 g"))
    #expect(lines.contains("Time logged in 2026: 12h 30m on 3 projects"))
    #expect(lines.contains("1 photo over the 8 MiB limit left out"))
    // The photo is embedded whole, as base64 of its bytes.
    let images = parsed.elements.filter { $0.name == "image" }
    #expect(images.map { $0.attributes["href"] } == ["data:image/png;base64,iVBORwEC"])
    // No scripts, no links out.
    #expect(!parsed.elements.contains { $0.name == "script" })
    #expect(!svg.contains("<script"))
  }

  @Test func namesAreEscapedAndControlCharactersStripped() throws {
    let summary = PeriodSummary(library: try library(), year: 2026, timeZone: utc, now: now)
    let svg = YearCard.svg(summary)  // no photos: the finished projects are listed
    let parsed = try #require(MarkupCollector.parse(svg))
    #expect(parsed.text.contains("<script>alert(1)</script> & \"Co\" 'x'"))
    #expect(svg.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot; &#39;x&#39;"))
    #expect(!svg.unicodeScalars.contains("\u{1}"))
    #expect(MarkupText.escape("a\u{0}b\u{B}c\u{FFFE}\td\n") == "abc\td\n")
  }

  @Test func anEmptyYearIsStillACard() throws {
    let summary = PeriodSummary(library: try library(), year: 2025, timeZone: utc, now: now)
    let parsed = try #require(MarkupCollector.parse(YearCard.svg(summary)))
    let lines = parsed.text.split(separator: "\n").map(String.init)
    #expect(lines.contains("0"))
    #expect(lines.contains("no time logged"))
    #expect(lines.contains("No projects finished in 2025 — yet."))
  }

  @Test func photosAreTheFirstJPEGOrPNGOfEachFinishedProjectWithinTheCaps() throws {
    try BackupTestSupport.withScratch { dir in
      let store = try LibraryStore(directory: dir.appendingPathComponent("lib"), mode: .readWrite)
      func attach(_ name: String, bytes: Int) throws -> YarnModel.Attachment {
        let url = dir.appendingPathComponent(name)
        try Data(repeating: 7, count: bytes).write(to: url)
        return try store.importAttachment(from: url)
      }
      let heic = try attach("a.heic", bytes: 10)
      let small = try attach("a.jpg", bytes: 3 * 1024 * 1024)
      let big = try attach("b.png", bytes: 6 * 1024 * 1024)
      let second = try attach("c.png", bytes: 100)
      let day = CalendarDate(iso8601: "2026-05-01")
      try store.write {
        try store.insert(
          Project(id: "p1", name: "A", status: .finished, finished: day, photos: [heic, small]))
        try store.insert(Project(id: "p2", name: "B", status: .finished, finished: day, photos: [big]))
        for index in 3...7 {
          try store.insert(
            Project(id: "p\(index)", name: "C\(index)", status: .finished, finished: day, photos: [second]))
        }
      }
      let summary = try PeriodSummary(store: store, year: 2026, timeZone: utc, now: now)
      let photos = try YearCard.photos(for: summary, in: store)
      // A's JPEG (3 MiB; the HEIC is skipped), B's 6 MiB PNG would make 9 MiB: left out;
      // then C3, C4, C5 reach the cap of 4.
      #expect(photos.chosen.map(\.caption) == ["A", "C3", "C4", "C5"])
      #expect(photos.chosen.map(\.mediaType) == ["image/jpeg", "image/png", "image/png", "image/png"])
      #expect(photos.chosen.first?.data.count == 3 * 1024 * 1024)
      #expect(photos.overLimit == 1)
      #expect(photos.unreadable.isEmpty)
    }
  }

  /// Chromium, when installed (Debian's `chromium`); CI has none and skips the rendering test.
  static let chromium: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
    .first { FileManager.default.isExecutableFile(atPath: $0) }

  @Test(
    .enabled(
      if: chromium != nil, "no chromium: install it (apt-get install chromium) to render the card"))
  func chromiumRendersTheCardAtItsSize() throws {
    try BackupTestSupport.withScratch { dir in
      let summary = PeriodSummary(library: try library(), year: 2026, timeZone: utc, now: now)
      let svg = dir.appendingPathComponent("card.svg")
      try Data(YearCard.svg(summary).utf8).write(to: svg)
      let png = dir.appendingPathComponent("card.png")
      let process = Process()
      process.executableURL = URL(fileURLWithPath: try #require(Self.chromium))
      process.arguments = [
        "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--screenshot=\(png.path)",
        "--window-size=1080,1350", svg.absoluteString,
      ]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      process.waitUntilExit()
      let bytes = [UInt8](try Data(contentsOf: png))
      // PNG: the signature, then IHDR's width and height, big-endian, at bytes 16 and 20.
      #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
      let size = { (at: Int) in bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
      #expect(size(16) == 1080 && size(20) == 1350)
      #expect(bytes.count > 20_000)  // text and colours, not a blank page
    }
  }
}
