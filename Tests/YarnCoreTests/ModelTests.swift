import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

@Suite struct YarnWeightTests {
  @Test(arguments: [
    ("lace", YarnWeight.lace), ("cobweb", .lace), ("Light Fingering", .lace), ("0", .lace),
    ("fingering", .superFine), ("sock", .superFine), ("baby", .superFine), ("Super Fine", .superFine),
    ("4 ply", .superFine), ("1", .superFine), ("sport", .fine), ("DK", .light), ("dk", .light),
    ("light worsted", .light), ("8 ply", .light), ("8ply", .light), ("worsted", .medium), ("Aran", .medium),
    ("afghan", .medium), ("10 ply", .medium), ("chunky", .bulky), ("bulky", .bulky), ("12 ply", .bulky),
    ("super bulky", .superBulky), ("Super Chunky", .superBulky), ("roving", .superBulky),
    ("jumbo", .jumbo), ("7", .jumbo), ("3 Light (DK)", .light), ("2", .fine), ("3", .light),
    ("4", .medium), ("5", .bulky), ("6", .superBulky), ("fine", .fine), ("light", .light),
    ("medium", .medium), ("5 ply", .fine), ("super-bulky", .superBulky), (" Worsted ", .medium),
    // YarnBuddy's labels.
    ("Lace (0), Light Fingering, 1-3 ply", .lace), ("Light (3), DK, 8 ply", .light),
    ("Medium (4), Worsted/Aran, 10 ply", .medium), ("Super Bulky (6), Roving", .superBulky),
    ("Jumbo (7)", .jumbo),
  ])
  func parses(text: String, weight: YarnWeight) {
    #expect(YarnWeight(parsing: text) == weight)
  }

  @Test(arguments: ["", "8", "-1", "heavy", "99 ply", "(9)", "fingering-ish"])
  func unknownIsNil(text: String) {
    #expect(YarnWeight(parsing: text) == nil)
  }

  @Test func everyLabelParsesBack() {
    for weight in YarnWeight.allCases { #expect(YarnWeight(parsing: weight.label) == weight) }
  }
}

@Suite struct CalendarDateTests {
  @Test func parsesAndFormats() throws {
    let date = try #require(CalendarDate(iso8601: "2026-03-08"))
    #expect(date.year == 2026 && date.month == 3 && date.day == 8)
    #expect(date.iso8601 == "2026-03-08")
    #expect(CalendarDate(iso8601: "2024-02-29") != nil)
  }

  @Test(arguments: [
    "2026-02-29", "2026-13-01", "2026-00-10", "2026-1-1", "26-01-01", "2026/01/01", "", "2026-01-32",
  ])
  func rejects(text: String) {
    #expect(CalendarDate(iso8601: text) == nil)
  }

  @Test func dayContainingAnInstantDependsOnTheZone() throws {
    // 2026-03-29T23:30:00Z is still the 29th in New York (19:30 EDT) but the 30th in Berlin (01:30 CEST).
    let instant = try #require(JSONCoding.parseInstant("2026-03-29T23:30:00Z"))
    let newYork = try #require(TimeZone(identifier: "America/New_York"))
    let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
    #expect(CalendarDate(containing: instant, in: newYork).iso8601 == "2026-03-29")
    #expect(CalendarDate(containing: instant, in: berlin).iso8601 == "2026-03-30")
  }
}

@Suite struct JSONCodingTests {
  @Test func instantsAreUTCWholeSeconds() throws {
    #expect(JSONCoding.formatInstant(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
    // 1_774_794_600 s = 2026-03-29T14:30:00Z (20541 days × 86400 + 52200 s).
    #expect(JSONCoding.formatInstant(Date(timeIntervalSince1970: 1_774_794_600.9)) == "2026-03-29T14:30:00Z")
    #expect(JSONCoding.formatInstant(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
    #expect(JSONCoding.formatInstant(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00Z")
    let parsed = try #require(JSONCoding.parseInstant("2026-03-29T16:30:00+02:00"))
    #expect(parsed.timeIntervalSince1970 == 1_774_794_600)
    #expect(JSONCoding.parseInstant("2026-03-29T14:30:00.250Z")?.timeIntervalSince1970 == 1_774_794_600.25)
    #expect(JSONCoding.parseInstant("yesterday") == nil)
  }

  @Test func instantsRoundTripInEveryYear() {
    // Seconds from Python's proleptic Gregorian datetime (ISO 8601's calendar), where
    // ISO8601DateFormatter reads days before 1582-10-15 as Julian (1500-01-01: 9 days later).
    let known: [(String, Double)] = [
      ("0001-01-01T00:00:00Z", -62_135_596_800), ("1500-01-01T00:00:00Z", -14_831_769_600),
      ("1582-10-04T23:59:59Z", -12_220_156_801), ("1582-10-15T00:00:00Z", -12_219_292_800),
      ("1600-02-29T12:00:00Z", -11_670_955_200), ("9999-12-31T23:59:59Z", 253_402_300_799),
    ]
    for (text, seconds) in known {
      #expect(JSONCoding.parseInstant(text)?.timeIntervalSince1970 == seconds, "\(text)")
      #expect(JSONCoding.formatInstant(Date(timeIntervalSince1970: seconds)) == text)
    }
    // About one instant a year from 0001 to 9999, at varying times of day.
    var seconds = -62_135_596_800.0
    var years = Set<Substring>()
    while seconds <= 253_402_300_799 {
      let text = JSONCoding.formatInstant(Date(timeIntervalSince1970: seconds))
      years.insert(text.prefix(4))
      #expect(JSONCoding.parseInstant(text)?.timeIntervalSince1970 == seconds, "\(text)")
      seconds += 31_556_952 + 3_607
    }
    #expect(years.count >= 9_990)
    // In the canonical form an impossible day or time is refused, not rolled over.
    #expect(JSONCoding.parseInstant("2026-02-30T00:00:00Z") == nil)
    #expect(JSONCoding.parseInstant("2026-01-01T24:00:00Z") == nil)
    #expect(JSONCoding.parseInstant("0000-01-01T00:00:00Z") == nil)
  }

  @Test func libraryRoundTripsThroughJSON() throws {
    let photo = Attachment(
      fileName: "a.jpg", mediaType: "image/jpeg", byteCount: 3, sha256: String(repeating: "a", count: 64))
    let library = Library(
      yarns: [
        Yarn(
          id: "y", name: "Shelter \"Almanac\"", weight: .medium, quantity: Amount(2.5, .skein),
          dateAdded: CalendarDate(year: 2026, month: 1, day: 2), photos: [photo])
      ],
      projects: [
        Project(
          id: "p", name: "Flax", craft: .knitting, status: .finished,
          usages: [YarnUsage(yarnID: "y", amount: Amount(120, .gram))])
      ],
      notes: [
        Note(
          id: "n", subject: .yarn("y"), text: "soft,\n\"warm\"",
          created: Date(timeIntervalSince1970: 1_774_794_600))
      ],
      sessions: [
        TimeSession(id: "s", projectID: "p", start: Date(timeIntervalSince1970: 1_774_794_600), end: nil)
      ])
    let data = try JSONCoding.encoder().encode(library)
    let back = try JSONCoding.decoder().decode(Library.self, from: data)
    #expect(back == library)
    let text = String(decoding: data, as: UTF8.self)
    #expect(text.contains("\"dateAdded\" : \"2026-01-02\""))
    #expect(text.contains("\"start\" : \"2026-03-29T14:30:00Z\""))
    #expect(text.contains("\"unit\" : \"skein\""))
    #expect(try JSONCoding.encoder().encode(back) == data)
  }
}

@Suite struct LookupTests {
  struct Item { let id: String; let name: String }
  let items = [
    Item(id: "3f2a9c10-0000", name: "Cascade 220"), Item(id: "3f2b0000-1111", name: "Rios"),
    Item(id: "77aa0000-2222", name: "rios"),
  ]

  func find(_ reference: String) throws(ReferenceError) -> Item {
    try Lookup.find(reference, in: items, id: \.id, name: \.name)
  }

  @Test func byIDNameOrPrefix() throws {
    #expect(try find("3f2a9c10-0000").name == "Cascade 220")
    #expect(try find("cascade 220").id == "3f2a9c10-0000")
    #expect(try find("3F2A").name == "Cascade 220")
    #expect(try find("77aa").id == "77aa0000-2222")
  }

  @Test func ambiguityListsCandidatesAndShortPrefixesDoNotMatch() {
    #expect(
      throws: ReferenceError.ambiguous(
        reference: "RIOS",
        candidates: [
          .init(id: "3f2b0000-1111", name: "Rios"), .init(id: "77aa0000-2222", name: "rios"),
        ])
    ) { try find("RIOS") }
    #expect(throws: ReferenceError.notFound(reference: "3f2")) { try find("3f2") }
    #expect(throws: ReferenceError.notFound(reference: "3f")) { try find("3f") }
    #expect(throws: ReferenceError.notFound(reference: "Malabrigo")) { try find("Malabrigo") }
  }

  /// A miss offers the nearest names (one edit each, a swap; the exact start of one), compared
  /// as a search compares them (case, `ß`/`ss` aside), in their order.
  @Test func suggestionsAreTheNearestNames() {
    let names = items.map(\.name)
    #expect(Lookup.suggestions(for: "cacsade", among: names) == ["Cascade 220"])
    #expect(Lookup.suggestions(for: "Rois", among: names) == ["Rios", "rios"])
    #expect(Lookup.suggestions(for: "strasse", among: names + ["Straße Wolle"]) == ["Straße Wolle"])
    #expect(Lookup.suggestions(for: "Malabrigo", among: names).isEmpty)
  }

  /// A name stored with spaces around it is still found by its name.
  @Test func namesAreComparedWithoutSurroundingSpaces() throws {
    let items = [Item(id: "aaaa1111", name: " Padded "), Item(id: "bbbb2222", name: "Other")]
    #expect(try Lookup.find("Padded", in: items, id: \.id, name: \.name).id == "aaaa1111")
    #expect(try Lookup.find(" padded ", in: items, id: \.id, name: \.name).id == "aaaa1111")
  }

  /// A reference that is one item's name and another's ID prefix (as the tables show it) is
  /// ambiguous, not silently the named one.
  @Test func nameThatIsAnotherItemsIDPrefixIsAmbiguous() {
    let items = [Item(id: "8d8b89a2-0000", name: "Cascade"), Item(id: "77770000-1111", name: "8d8b89a2")]
    do {
      let found = try Lookup.find("8d8b89a2", in: items, id: \.id, name: \.name)
      Issue.record("found \(found.name)")
    } catch {
      #expect(
        error
          == .ambiguous(
            reference: "8d8b89a2",
            candidates: [
              .init(id: "77770000-1111", name: "8d8b89a2"), .init(id: "8d8b89a2-0000", name: "Cascade"),
            ]))
    }
    // The full ID still names exactly one item, and a name that is no ID prefix still works.
    #expect((try? Lookup.find("8d8b89a2-0000", in: items, id: \.id, name: \.name))?.name == "Cascade")
    #expect((try? Lookup.find("cascade", in: items, id: \.id, name: \.name))?.id == "8d8b89a2-0000")
  }

  /// What an app does with the public API alone (`Lookup`, `ReferenceError`, `ItemName`, the
  /// store's names): what a person typed names a yarn as it does on the command line
  /// (docs/CLI.md, "Naming a yarn or a project"), with the same "did you mean".
  @Test func anAppResolvesWhatAPersonTypesAgainstTheStoresNames() throws {
    let store = try LibraryStore.inMemory()
    try store.insert(Yarn(id: "4c1d0000-0001", name: "Malabrigo Rios"))
    try store.insert(Yarn(id: "4c2e0000-0002", name: "Malabrigo Arroyo"))
    try store.insert(Yarn(id: "9a000000-0003", name: "Cascade 220"))
    let names = try store.yarnNames()
    func resolve(_ typed: String) -> String {
      do {
        return try Lookup.find(typed, in: names, id: \.id, name: \.name).id
      } catch {
        switch error {
        case .notFound:
          return "did you mean "
            + Lookup.suggestions(for: typed, among: names.map(\.name)).joined(separator: ", ")
        case .ambiguous(_, let candidates):
          return "which: " + candidates.map(\.name).joined(separator: ", ")
        }
      }
    }
    #expect(resolve("9a000000-0003") == "9a000000-0003")
    #expect(resolve("4C2E") == "4c2e0000-0002")
    #expect(resolve(" malabrigo rios ") == "4c1d0000-0001")
    #expect(resolve("casc") == "9a000000-0003")
    #expect(resolve("Mala") == "which: Malabrigo Rios, Malabrigo Arroyo")
    // docs/CLI.md's own examples: one edit from one name; one edit from both starts.
    #expect(resolve("Malabrgo Rios") == "did you mean Malabrigo Rios")
    #expect(resolve("Malabirgo") == "did you mean Malabrigo Rios, Malabrigo Arroyo")
    #expect(resolve("Merino") == "did you mean ")
  }
}

/// "Did you mean": the nearest names, commands and options (`EditDistance`).
@Suite struct EditDistanceTests {
  @Test func editDistance() {
    #expect(EditDistance.distance("", "abc") == 3)
    #expect(EditDistance.distance("kitten", "sitting") == 3)
    #expect(EditDistance.distance("--brnd", "--brand") == 1)
    #expect(EditDistance.distance("same", "same") == 0)
    // Two adjacent letters swapped are one edit (Damerau); no substring is edited twice
    // (optimal string alignment: `ca` to `abc` is 3, not 2).
    #expect(EditDistance.distance("--brnad", "--brand") == 1)
    #expect(EditDistance.distance("verison", "version") == 1)
    #expect(EditDistance.distance("hlep", "help") == 1)
    #expect(EditDistance.distance("ca", "abc") == 3)
    #expect(EditDistance.distance("abcd", "badc") == 2)
    #expect(EditDistance.nearest(to: "lst", in: ["add", "list"]) == ["list"])
    #expect(EditDistance.nearest(to: "xyz", in: ["add", "list"]).isEmpty)
    // QA: the start of a longer option was taken for a typo of a shorter one.
    let options = ["--weight", "--length-per-skein", "--net-weight-per-skein", "--quantity"]
    #expect(EditDistance.nearest(to: "--net-weight", in: options) == ["--net-weight-per-skein"])
    #expect(EditDistance.nearest(to: "--weigth", in: options) == ["--weight"])
    // Dashes alone say nothing.
    #expect(EditDistance.nearest(to: "--", in: ["--weight", "--quantity"]).isEmpty)
    // QA: a typo in the start of a name was offered nothing: the start of each candidate of
    // as many characters counts too, by the same limit.
    #expect(EditDistance.nearest(to: "cacsade", in: ["malabrigo rios", "cascade 220"]) == ["cascade 220"])
    // QA: equally near candidates were picked from arbitrarily; all are offered, in their order.
    #expect(
      EditDistance.nearest(to: "cacsade", in: ["cascade 220", "cascade heritage"]) == [
        "cascade 220", "cascade heritage",
      ])
    #expect(
      EditDistance.nearest(to: "malabrgo", in: ["malabrigo rios", "cascade 220"]) == ["malabrigo rios"])
    #expect(EditDistance.nearest(to: "mlbrgo", in: ["malabrigo rios"]).isEmpty)
    // QA: a letter left out of a short start was offered nothing (`merno`: its start `merin`
    // is two edits); a start longer than what was typed counts too. Two edits of three
    // letters are still too far.
    #expect(EditDistance.nearest(to: "merno", in: ["malabrigo rios", "merino soft"]) == ["merino soft"])
    #expect(EditDistance.nearest(to: "mreino", in: ["malabrigo rios", "merino soft"]) == ["merino soft"])
    #expect(EditDistance.nearest(to: "mrn", in: ["merino soft", "mohair"]).isEmpty)
    #expect(EditDistance.distances("merno", "merino") == [5, 4, 3, 2, 2, 2, 1])
    // `rois` is one edit (a swap) from `rios` and from the start of `rios malabrigo`: the
    // whole name wins at equal edits (QA: `time strt` offered `start` and `status`, whose
    // start `stat` is one edit too).
    #expect(EditDistance.nearest(to: "rois", in: ["rios", "rios malabrigo"]) == ["rios"])
    let time = ["start", "continue", "stop", "status", "cancel", "add", "edit", "rm", "log", "report"]
    #expect(EditDistance.nearest(to: "strt", in: time) == ["start"])
    #expect(EditDistance.nearest(to: "stats", in: time) == ["status"])
    // A start with fewer edits still wins over a whole name (`rois` below), and the exact
    // starts of two are both offered (`sta`, not `stop`, one edit from its start `sto`).
    #expect(EditDistance.nearest(to: "sta", in: time) == ["start", "status"])
    #expect(EditDistance.nearest(to: "xc", in: ["cascade 220"]).isEmpty)
    // QA: a short reference was rewritten whole (`cs` to `ab`, two edits of two characters).
    // Near is at most one edit per three characters typed, at least 1, for names as for
    // options; a start counts by edits from 3 characters typed on.
    let stash = ["wool", "wood", "ab"]
    for short in ["z", "q", "7", "zz", "cs", "2a5b"] {
      #expect(EditDistance.nearest(to: short, in: stash).isEmpty, "\(short)")
    }
    #expect(EditDistance.nearest(to: "a", in: stash) == ["ab"])  // `ab` begins with it
    #expect(EditDistance.nearest(to: "b", in: stash) == ["ab"])  // one edit of one
    #expect(EditDistance.nearest(to: "abc", in: stash) == ["ab"])  // one edit of three
    #expect(EditDistance.nearest(to: "wx", in: stash).isEmpty)  // `wo` of two: no start guess
    #expect(EditDistance.nearest(to: "wook", in: ["wool", "wood", "ab"]) == ["wool", "wood"])
    #expect(EditDistance.nearest(to: "wook", in: ["wood", "wool", "ab"]) == ["wood", "wool"])
    #expect(EditDistance.nearest(to: "woo", in: ["wool", "wood"]) == ["wool", "wood"])
    #expect(EditDistance.nearest(to: "wolo", in: stash) == ["wool"])  // a swap: one edit
    #expect(EditDistance.nearest(to: "wook", in: ["wool", "wool", "wood"]) == ["wool", "wood"])
    #expect(
      EditDistance.nearest(to: "late6.avif", in: ["late60.avif", "late64.avif"]) == [
        "late60.avif", "late64.avif",
      ])
    // QA: a whole name two edits away beat a start one edit away; the nearest of both wins.
    #expect(EditDistance.nearest(to: "rois", in: ["rio", "rios deluxe"]) == ["rios deluxe"])
    // QA: the start of two or more offers them all, in their order.
    let add = ["--brand", "--colorway", "--color-family", "--status", "--stashed", "--stored-in"]
    #expect(EditDistance.nearest(to: "--col", in: add) == ["--colorway", "--color-family"])
    #expect(EditDistance.nearest(to: "--st", in: add) == ["--status", "--stashed", "--stored-in"])
    #expect(EditDistance.nearest(to: "--brnd", in: add) == ["--brand"])
    #expect(EditDistance.nearest(to: "--", in: add).isEmpty)
    // QA: one letter after `--` is the start of the options it begins too, before any guess
    // by spelling (`--c` was taken for a typo of `--to`).
    #expect(EditDistance.nearest(to: "--s", in: add) == ["--status", "--stashed", "--stored-in"])
    #expect(EditDistance.nearest(to: "--b", in: add) == ["--brand"])
    #expect(EditDistance.nearest(to: "--c", in: ["--from", "--to", "--chart"]) == ["--chart"])
    // QA: a guess by spelling replaced all that was typed (`--x`: `--to`, `--g`: `--tag`,
    // two edits of one letter); it is at most one edit per three letters now.
    #expect(EditDistance.nearest(to: "--x", in: ["--from", "--to"]).isEmpty)
    #expect(EditDistance.nearest(to: "--g", in: ["--brand", "--tag"]).isEmpty)
    #expect(EditDistance.nearest(to: "--ab", in: ["--brand", "--tag"]).isEmpty)
    #expect(EditDistance.nearest(to: "--tg", in: ["--brand", "--tag"]) == ["--tag"])
    #expect(EditDistance.nearest(to: "--brnad", in: add) == ["--brand"])
    // QA: `--forc` was offered `--sort`, two edits of four letters. A guess is at most one
    // edit per three letters typed, and at least one.
    let list = ["--status", "--search", "--sort", "--brand", "--help", "--version"]
    #expect(EditDistance.nearest(to: "--forc", in: list).isEmpty)
    #expect(EditDistance.nearest(to: "--sotr", in: list) == ["--sort"])
    #expect(EditDistance.nearest(to: "--hlep", in: list) == ["--help"])
    #expect(EditDistance.nearest(to: "--verison", in: list) == ["--version"])
    #expect(EditDistance.nearest(to: "--brnd", in: list) == ["--brand"])
    #expect(EditDistance.nearest(to: "--sttaus", in: list) == ["--status"])
    #expect(EditDistance.nearest(to: "--serch", in: list) == ["--search"])
    #expect(EditDistance.nearest(to: "--staus", in: list) == ["--status"])
    #expect(EditDistance.nearest(to: "--srot", in: list) == ["--sort"])
    #expect(EditDistance.nearest(to: "--bxnx", in: list).isEmpty)
    // A word is no suggestion of itself.
    #expect(EditDistance.nearest(to: "--help", in: ["--json", "--help"]).isEmpty)
  }
}

/// `Lookup.attachment`: a photo is named by its whole file name (case aside) or a SHA-256
/// prefix of at least 4 characters, never by the start of its name (QA: `g` detached
/// `granny-blanket.jpg`).
@Suite struct AttachmentLookupTests {
  let granny = Attachment(
    fileName: "granny-blanket.jpg", mediaType: "image/jpeg", byteCount: 3,
    sha256: "aa11" + String(repeating: "0", count: 60))
  let ruby = Attachment(
    fileName: "cascade-220-ruby.jpg", mediaType: "image/jpeg", byteCount: 3,
    sha256: "bb22" + String(repeating: "0", count: 60))

  func find(_ reference: String) throws(ReferenceError) -> String {
    try Lookup.attachment(reference, in: [granny, ruby]).fileName
  }

  @Test func wholeNameOrDigestPrefixOnly() throws {
    #expect(try find("granny-blanket.jpg") == "granny-blanket.jpg")
    #expect(try find(" GRANNY-BLANKET.JPG ") == "granny-blanket.jpg")
    #expect(try find("bb22") == "cascade-220-ruby.jpg")
    #expect(try find("BB220") == "cascade-220-ruby.jpg")
    #expect(try find(ruby.sha256) == "cascade-220-ruby.jpg")
    for start in ["g", "c", "gran", "granny-blanket", "cascade-220-ruby.jp", "bb2"] {
      #expect(throws: ReferenceError.notFound(reference: start)) { try find(start) }
    }
  }

  /// The same bytes under two names: the SHA-256, whole or in part, names both.
  @Test func aDigestOfTwoPhotosIsAmbiguous() {
    var copy = granny
    copy.fileName = "copy.jpg"
    for reference in ["aa11", granny.sha256] {
      #expect(
        throws: ReferenceError.ambiguous(
          reference: reference,
          candidates: [
            .init(id: granny.sha256, name: "granny-blanket.jpg"), .init(id: granny.sha256, name: "copy.jpg"),
          ])
      ) { try Lookup.attachment(reference, in: [granny, copy]) }
    }
    #expect((try? Lookup.attachment("COPY.jpg", in: [granny, copy]))?.fileName == "copy.jpg")
  }

  /// Two photos of one name byte for byte and a third that differs by case: the name given
  /// is ambiguous between the two only, as a name given byte for byte wins over one that
  /// differs by case (QA: `FRONT.png` was listed too).
  @Test func twoPhotosOfTheNameGivenHideItsLookAlikes() {
    var other = ruby
    other.fileName = granny.fileName
    var upper = Attachment(
      fileName: "GRANNY-BLANKET.JPG", mediaType: "image/jpeg", byteCount: 3,
      sha256: "cc33" + String(repeating: "0", count: 60))
    #expect(
      throws: ReferenceError.ambiguous(
        reference: "granny-blanket.jpg",
        candidates: [
          .init(id: granny.sha256, name: "granny-blanket.jpg"),
          .init(id: ruby.sha256, name: "granny-blanket.jpg"),
        ])
    ) { try Lookup.attachment("granny-blanket.jpg", in: [granny, other, upper]) }
    #expect(
      (try? Lookup.attachment("GRANNY-BLANKET.JPG", in: [granny, other, upper]))?.sha256 == upper.sha256)
    // What names each for `detach`: the file name where it is one photo's, else the SHA-256.
    #expect(Lookup.reference(to: granny, in: [granny, other, upper]) == granny.sha256)
    #expect(Lookup.reference(to: upper, in: [granny, other, upper]) == "GRANNY-BLANKET.JPG")
    upper.fileName = "other.jpg"
    #expect(Lookup.reference(to: granny, in: [granny, upper]) == "granny-blanket.jpg")
  }

  /// A file name that does not show as itself (ESC, U+200B: `LineText.hidesCharacters`) is
  /// not given to be copied into a command: the photo is named by the first 12 characters of
  /// its SHA-256, which `attachment(_:in:)` takes.
  @Test func aPhotoWhoseNameWouldNotCopyIsNamedByASHA256Prefix() throws {
    var escape = granny
    escape.fileName = "red\u{1B}[31m.jpg"
    var invisible = ruby
    invisible.fileName = "b\u{200B}lue.jpg"
    #expect(Lookup.reference(to: escape, in: [escape, invisible]) == String(granny.sha256.prefix(12)))
    #expect(Lookup.reference(to: invisible, in: [escape, invisible]) == String(ruby.sha256.prefix(12)))
    #expect(try Lookup.attachment(String(ruby.sha256.prefix(12)), in: [escape, invisible]) == invisible)
    #expect(Lookup.commandWord(fileName: "red.jpg", sha256: granny.sha256) == "red.jpg")
  }
}

/// `Identifier.make()`: random UUIDs of RFC 9562's version 4, as `UUID().uuidString` wrote them.
@Suite struct IdentifierTests {
  @Test func newIDsAreLowerCaseVersion4UUIDsAndDistinct() {
    let ids = (0..<1000).map { _ in Identifier.make() }
    #expect(Set(ids).count == 1000)
    for id in ids {
      let characters = Array(id)
      // xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx, V one of 8, 9, a, b (RFC 9562, 5.4 and 4.1).
      #expect(characters.count == 36)
      #expect([8, 13, 18, 23].allSatisfy { characters[$0] == "-" })
      #expect(characters[14] == "4")
      #expect("89ab".contains(characters[19]))
      #expect(id.allSatisfy { "0123456789abcdef-".contains($0) })
      #expect(UUID(uuidString: id)?.uuidString.lowercased() == id)
    }
  }
}
