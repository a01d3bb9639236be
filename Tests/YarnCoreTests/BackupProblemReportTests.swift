import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

/// What `backup verify` and `restore` report of a `library.json` written by hand: blank IDs
/// (`Rules.id`), rule problems beside items that do not decode, the count of problems, and
/// decoding errors in JSON's and the field's words. The expected words are those of
/// docs/FORMAT.md ("What a reader checks").
@Suite struct BackupProblemReportTests {
  typealias Support = BackupTestSupport

  /// A yarn's JSON with `id` and `name`, and `extra` members (`,"weight":9`).
  private static func yarn(_ id: String, _ name: String = "Rios", _ extra: String = "") -> String {
    #"{"id":"\#(id)","name":"\#(name)","isStashed":true,"photos":[]\#(extra)}"#
  }

  /// A backup of `yarns` and `projects` (JSON texts), its manifest counting them.
  private func backup(
    in dir: URL, yarns: [String], projects: [String] = [], name: String = "b.zip"
  ) throws -> URL {
    let library =
      #"{"notes":[],"projects":["# + projects.joined(separator: ",") + #"],"sessions":[],"yarns":["#
      + yarns.joined(separator: ",") + "]}"
    let data = Data(library.utf8)
    let manifest = BackupManifest(
      formatVersion: 1, createdAt: Date(timeIntervalSince1970: 0), generator: "hand",
      counts: .init(yarns: yarns.count, projects: projects.count, notes: 0, sessions: 0, attachments: 0),
      files: [
        .init(path: "library.json", size: Int64(data.count), sha256: try SHA256Hasher.hexDigest(of: data))
      ])
    let zip = dir.appendingPathComponent(name)
    try Support.writeZip(
      [("manifest.json", try JSONCoding.encoder().encode(manifest)), ("library.json", data)], to: zip)
    return zip
  }

  /// The error `Backup.verify` throws for `zip`, or `nil` when it passes.
  private func verifyError(_ zip: URL) -> BackupError? {
    do {
      try Backup.verify(zip)
      return nil
    } catch let error as BackupError {
      return error
    } catch {
      Issue.record("unexpected error \(error)")
      return nil
    }
  }

  /// The problems `Backup.verify` lists for `zip` (empty when it passes).
  private func problems(_ zip: URL) -> [String] {
    guard case .invalidBackup(_, let problems)? = verifyError(zip) else { return [] }
    return problems.map(\.description)
  }

  // MARK: 1. Blank IDs

  /// A document that is not JSON is said where, in one account (`DecodingProblem.syntaxError`)
  /// for backups and WEFT: by `JSONSyntaxLocator`, fed in pieces of any size, or from the
  /// decoder's own error when it names a line and column (Foundation's does on some systems).
  @Test func aSyntaxErrorIsSaidWhereItIs() {
    let text = Array("{\n  \"a\": [1, 2],\n  \"b\": {\"c\": tru }\n}".utf8)
    for size in [1, 2, 7, text.count] {
      var locator = JSONSyntaxLocator()
      for start in stride(from: 0, to: text.count, by: size) {
        locator.feed(text[start..<min(text.count, start + size)])
      }
      locator.finish()
      #expect(
        DecodingProblem.syntaxError(locator.place) == "not JSON at line 3, column 17: unexpected ' '",
        "\(size)")
    }
    // JSON as the decoder reads it, a comma before a closing bracket or brace too: no place.
    var sound = JSONSyntaxLocator()
    sound.feed(Array(#" {"a": [1, -0.5e+3, "\u00e9\n", true, null, false, [],],  "b": {}, } "#.utf8))
    sound.finish()
    #expect(sound.place == nil)
    struct Underlying: Error, CustomStringConvertible {
      var description: String { "Unexpected character ',' around line 3, column 5." }
    }
    let decoding = DecodingError.dataCorrupted(
      .init(
        codingPath: [], debugDescription: "The given data was not valid JSON.", underlyingError: Underlying())
    )
    #expect(DecodingProblem.syntaxError(nil, decoding: decoding) == "not JSON at line 3, column 5")
    #expect(
      DecodingProblem.syntaxError(
        nil,
        decoding: DecodingError.dataCorrupted(
          .init(codingPath: [], debugDescription: "The given data was not valid JSON."))) == nil)
  }

  @Test func blankIDsAreARule() {
    let blank = RuleViolation(field: "ID", reason: "is blank")
    for id in ["", " ", "   ", "\t", "\n", "\u{3000}", " \r\n ", "\u{200B}", "\u{FEFF}", " \u{2060} "] {
      #expect(Rules.id(id) == blank, "\(Array(id.unicodeScalars))")
    }
    // Anything else is an ID, as it is (FORMAT.md: yarn makes UUIDs, other tools' IDs are kept).
    for id in ["a", " a ", "e648a0c2-0000-4000-8000-000000000000", "y-1", "\u{0}"] {
      #expect(Rules.id(id) == nil)
    }
    #expect(Rules.shown(id: "") == #""""#)
    #expect(Rules.shown(id: " \t") == #"" \t""#)
    #expect(Rules.shown(id: "y-1") == "y-1")
    // Invisible characters are escaped and the ID quoted, as a control character is.
    #expect(Rules.shown(id: "\u{200B}") == #""\u{200B}""#)
    #expect(Rules.shown(id: "y\u{2060}1") == #""y\u{2060}1""#)
  }

  @Test func verifyNamesAnItemWithABlankIDByItsPlace() throws {
    try Support.withScratch { dir in
      let usage = #""usages":[{"yarnID":"e648","amount":{"value":1,"unit":"skein"}}]"#
      let zip = try backup(
        in: dir, yarns: [Self.yarn(""), Self.yarn("   ", "Tweed")],
        projects: [#"{"id":"p-1","name":"Hat","status":"planned","photos":[],"# + usage + "}"])
      let error = try #require(verifyError(zip))
      guard case .invalidBackup(_, let problems) = error else {
        Issue.record("\(error)")
        return
      }
      let blank = RuleViolation(field: "ID", reason: "is blank")
      #expect(
        problems == [
          .brokenRuleAt(path: "yarns[0]", kind: "yarn", name: "Rios", violation: blank),
          .brokenRuleAt(path: "yarns[1]", kind: "yarn", name: "Tweed", violation: blank),
          .inconsistentLibrary(reason: "project p-1 (Hat) uses yarn e648, which is missing"),
        ])
      #expect(
        problems.map(\.description) == [
          "library.json: yarn at yarns[0] (Rios): ID is blank",
          "library.json: yarn at yarns[1] (Tweed): ID is blank",
          "library.json: project p-1 (Hat) uses yarn e648, which is missing",
        ])
      // restore refuses it too, and leaves the library empty.
      let store = try LibraryStore(directory: dir.appendingPathComponent("lib"), mode: .readWrite)
      defer { try? store.close() }
      #expect(throws: BackupError.self) { try Backup.restore(from: zip, into: store) }
      #expect(try store.yarns().isEmpty)
    }
  }

  /// An item's name in a problem or a store's refusal is escaped as every message escapes one
  /// (QA: a U+202E in it was printed raw, reversing the rest of the line).
  @Test func anItemsNameIsShownEscaped() {
    let blank = RuleViolation(field: "ID", reason: "is blank")
    #expect(
      BackupProblem.brokenRuleAt(path: "yarns[0]", kind: "yarn", name: "Ri\u{202E}os", violation: blank)
        .description
        == "library.json: yarn at yarns[0] (Ri\\u{202E}os): ID is blank")
    #expect(
      StoreError.brokenRule(kind: .yarn, id: "y1", name: "Ri\u{202E}os", violation: blank).description
        == "yarn y1 (Ri\\u{202E}os): ID is blank")
  }

  @Test func aReferenceToABlankIDIsShownQuoted() throws {
    try Support.withScratch { dir in
      let usage = #""usages":[{"yarnID":" ","amount":{"value":1,"unit":"skein"}}]"#
      let zip = try backup(
        in: dir, yarns: [Self.yarn("y-1")],
        projects: [#"{"id":"p-1","name":"Hat","status":"planned","photos":[],"# + usage + "}"])
      #expect(problems(zip) == [#"library.json: project p-1 (Hat) uses yarn " ", which is missing"#])
    }
  }

  /// Every message naming an item by its ID shows one that is blank or holds a control
  /// character quoted and escaped (`Rules.shown(id:)`), as the rule's own messages do.
  @Test func messagesQuoteABlankOrControlID() {
    #expect(Rules.shown(id: "y-1") == "y-1")
    #expect(Rules.shown(id: "  ") == #""  ""#)
    #expect(Rules.shown(id: "y\u{1B}1") == #""y\u{1B}1""#)
    #expect(Rules.shown(id: "a\nb") == #""a\nb""#)
    #expect(StoreError.notFound(kind: .yarn, id: "  ").description == #"no yarn with id "  " in the library"#)
    #expect(
      StoreError.duplicateID(kind: .project, id: "\t").description
        == #"a project with id "\t" is already in the library"#)
    #expect(
      StoreError.missingReference(kind: .yarn, id: " ", from: .note, fromID: "n\u{7F}").description
        == #"note "n\u{7F}" refers to yarn " ", which is not in the library"#)
    #expect(
      StoreError.ambiguousID(kind: .note, reference: "n", ids: ["n-1", "n\r"]).description
        == #""n" begins the ids of 2 notes: n-1, "n\r""#)
    #expect(StoreError.invalidData(kind: .tool, id: "", reason: "bad").description == #"tool "": bad"#)
    let session = TimeSession(
      id: " ", projectID: "\t", start: Date(timeIntervalSince1970: 0), end: Date(timeIntervalSince1970: 60))
    #expect(
      StoreError.sessionAlreadyRunning(session).description
        == #"a time session is already running: session " " on project "\t" since 1970-01-01T00:00:00Z"#)
    #expect(
      TimeError.alreadyRunning(session, projectName: "Hat").description
        == #"a timer is already running on "Hat" since 1970-01-01T00:00:00Z (session " ")"#)
    #expect(
      RestoreConflict(kind: "yarn", id: "  ", name: "Rios", reason: "quantity differs").description
        == #"yarn "  " (Rios): quantity differs"#)
  }

  /// The description of the `StoreError` `body` throws, or `nil`.
  private func storeError(_ body: () throws -> Void) -> String? {
    do {
      try body()
      return nil
    } catch let error as StoreError {
      return error.description
    } catch {
      return "unexpected \(error)"
    }
  }

  @Test func theStoreRefusesToAddABlankIDButUpdatesARowThatHasOne() throws {
    try Support.withScratch { dir in
      let store = try LibraryStore(directory: dir, mode: .readWrite)
      defer { try? store.close() }
      #expect(
        storeError { try store.insert(Yarn(id: " ", name: "Rios")) } == #"yarn " " (Rios): ID is blank"#)
      #expect(
        storeError { try store.insert(Project(id: "", name: "Hat")) } == #"project "" (Hat): ID is blank"#)
      try store.insert(Project(id: "p-1", name: "Hat"))
      try store.insert(Yarn(id: "y-1", name: "Rios"))
      let note = Note(id: "\t", subject: .yarn("y-1"), text: "soft", created: Date(timeIntervalSince1970: 0))
      #expect(storeError { try store.insert(note) } == #"note "\t": ID is blank"#)
      let session = TimeSession(
        id: "", projectID: "p-1", start: Date(timeIntervalSince1970: 0), end: Date(timeIntervalSince1970: 60))
      #expect(storeError { try store.insert(session) } == #"session "": ID is blank"#)
      #expect(
        storeError { try store.insert(Tool(id: " ", name: "Hook", kind: .cable)) }
          == #"tool " " (Hook): ID is blank"#)
      #expect(try store.yarns().map(\.id) == ["y-1"])
      // A row restored before the rule keeps working: an update keeps the ID it finds.
      try store.connection.execute("INSERT INTO yarn (seq, id, name) VALUES (2, '  ', 'Old')")
      var old = try #require(try store.yarn(id: "  "))
      old.name = "Older"
      try store.update(old)
      #expect(try store.yarn(id: "  ")?.name == "Older")
    }
  }

  // MARK: 2. Items that do not decode hide no rule

  @Test func ruleProblemsOfDecodedItemsFollowTheDecodingProblems() throws {
    try Support.withScratch { dir in
      let zip = try backup(
        in: dir,
        yarns: [
          Self.yarn("y-1", "Rios", #","weight":9"#),
          Self.yarn("y-2", "Tweed", #","quantity":{"value":-5,"unit":"g"}"#),
        ],
        // A usage of the yarn that does not decode is not called missing: its ID is read.
        projects: [
          #"{"id":"p-1","name":"Hat","status":"planned","photos":[],"#
            + #""usages":[{"yarnID":"y-1","amount":{"value":1,"unit":"skein"}}]}"#
        ])
      #expect(
        problems(zip) == [
          "library.json is not a valid library: at yarns[0].weight: 9 is not a yarn weight (0–7)",
          "library.json: yarn y-2 (Tweed): quantity -5 g is negative",
        ])
    }
  }

  /// A tag of invisible characters alone is an empty tag, a broken rule, for verify and
  /// restore alike (QA: a yarn with `"tags":["\u200b"]` passed `backup verify`).
  @Test func aTagOfInvisibleCharactersIsEmpty() throws {
    try Support.withScratch { dir in
      let zip = try backup(
        in: dir, yarns: [Self.yarn("y-1", "Rios", #","tags":["\u200b"]"#), Self.yarn("y-2", "Tweed")])
      #expect(problems(zip) == ["library.json: yarn y-1 (Rios): tag is empty"])
      let store = try LibraryStore(directory: dir.appendingPathComponent("lib"), mode: .readWrite)
      defer { try? store.close() }
      #expect(throws: BackupError.self) { try Backup.restore(from: zip, into: store) }
      #expect(try store.yarns().isEmpty)
    }
  }

  // MARK: 3. The count of problems

  @Test func theCountIsEveryProblemTheListingIsCapped() throws {
    try Support.withScratch { dir in
      let bad = (0..<30).map { Self.yarn("b\($0)", "Rios", #","weight":9"#) }
      let zip = try backup(in: dir, yarns: bad)
      let error = try #require(verifyError(zip))
      let lines = error.description.split(separator: "\n").map(String.init)
      #expect(lines.first == "\(zip.path) failed verification with 30 problems:")
      #expect(lines.count == 1 + 21)
      #expect(
        lines[1]
          == "  - library.json is not a valid library: at yarns[0].weight: 9 is not a yarn weight (0–7)")
      #expect(lines.last == "  - library.json is not a valid library: 10 more items do not decode")
      guard case .invalidBackup(_, let problems) = error else { return }
      #expect(BackupProblem.total(problems) == 30)
      #expect(
        BackupProblem.moreItemsDoNotDecode(count: 1).description.hasSuffix(": 1 more item does not decode"))
    }
  }

  // MARK: 4. In the field's words

  @Test(arguments: [
    (#","weight":9"#, "at yarns[0].weight: 9 is not a yarn weight (0–7)"),
    // A number as written (docs/FORMAT.md; QA: `1e2` was said as 100).
    (#","weight":1e2"#, "at yarns[0].weight: 1e2 is not a yarn weight (0–7)"),
    (#","brand":1E2"#, "at yarns[0].brand: expected a string, found 1E2"),
    // The value found, as the file gives it (WEFT import says the same: DecodingProblem).
    (#","weight":"4""#, #"at yarns[0].weight: expected a whole number, found "4""#),
    // Foundation calls this "not valid JSON", without a path: the number is found.
    (#","weight":1.5"#, "at yarns[0].weight: expected a whole number, found 1.5"),
    // A number too small to keep, which Foundation also calls "not valid JSON", is found in
    // the text and said as `convert` and a WEFT import say it (docs/UNITS.md).
    (
      #","quantity":{"value":1e-400,"unit":"g"}"#,
      #"at yarns[0].quantity.value: "1e-400" is too small: it would be kept as 0"#
    ),
    // One too large to read, in a WEFT import's words (QA: "the given data was not valid JSON.").
    (#","weight":1e400"#, "at yarns[0]: the number 1e400 is too large to read"),
    (#","status":"gone""#, #"at yarns[0].status: "gone" is not a yarn status (in-stash, "#),
    (#","quantity":{"value":1,"unit":"hank"}"#, #"at yarns[0].quantity.unit: "hank" is not a unit ("#),
    (#","tags":{}"#, "at yarns[0].tags: expected a list, found an object"),
    (#","tags":[3]"#, "at yarns[0].tags[0]: expected a string, found 3"),
    (#","quantity":[]"#, "at yarns[0].quantity: expected an object, found a list"),
    (#","brand":true"#, "at yarns[0].brand: expected a string, found true"),
  ])
  func decodingProblemsAreInTheFieldsWords(extra: String, start: String) throws {
    let data = Data(
      (#"{"notes":[],"projects":[],"sessions":[],"yarns":["# + Self.yarn("y-1", "Rios", extra) + "]}").utf8)
    let reasons = BackupReader.decode(data).problems.map { problem -> String in
      guard case .invalidLibrary(let reason) = problem else { return problem.description }
      return reason
    }
    #expect(reasons.count == 1)
    #expect(reasons.first?.hasPrefix(start) == true, "\(reasons)")
    for word in ["Array<", "Dictionary<", "container", "Swift", "initialize", "Int value"] {
      #expect(reasons.first?.contains(word) == false, "\(reasons)")
    }
  }

  @Test func aProjectsCraftIsNamedWithItsChoices() {
    let project = #"{"id":"p-1","name":"Hat","status":"planned","photos":[],"craft":"knit"}"#
    let data = Data(#"{"notes":[],"projects":[\#(project)],"sessions":[],"yarns":[]}"#.utf8)
    let craft = Craft.allCases.map(\.rawValue).joined(separator: ", ")
    #expect(
      BackupReader.decode(data).problems == [
        .invalidLibrary(reason: #"at projects[0].craft: "knit" is not a craft (\#(craft))"#)
      ])
  }
}
