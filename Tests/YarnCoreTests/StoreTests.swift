import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

// MARK: Helpers shared by the Store*Tests files and TimeTrackerTests

/// Runs `body` with a fresh, empty temporary directory that is removed afterwards.
func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("yarn-store-tests-" + UUID().uuidString, isDirectory: true)
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: url) }
  return try body(url)
}

/// `withTemporaryDirectory` for async tests.
func withTemporaryDirectoryAsync<T>(_ body: (URL) async throws -> T) async throws -> T {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("yarn-store-tests-" + UUID().uuidString, isDirectory: true)
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: url) }
  return try await body(url)
}

/// A file holding `bytes` in `folder`.
func makeFile(_ name: String, _ bytes: [UInt8], in folder: URL) throws -> URL {
  let url = folder.appendingPathComponent(name)
  try Data(bytes).write(to: url)
  return url
}

/// An instant given as Unix seconds.
func instant(_ seconds: Int) -> Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }

func day(_ text: String) -> CalendarDate? { CalendarDate(iso8601: text) }

/// A library that uses every field, set and unset, with Unicode text, shared and distinct
/// attachments, notes on a yarn and a project, and finished and running sessions. Its photo
/// and PDF bytes are imported into `store` (from files written in `scratch`).
func richLibrary(importingInto store: LibraryStore, scratch: URL) throws -> Library {
  let jpegA = try store.importAttachment(
    from: try makeFile("front.jpg", [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3, 0xFF, 0xD9], in: scratch))
  let jpegB = try store.importAttachment(
    from: try makeFile("back.JPEG", [0xFF, 0xD8, 0xFF, 0xE0, 9, 9, 0xFF, 0xD9], in: scratch),
    fileName: "Rückseite 🧶.jpeg")
  let pdf = try store.importAttachment(
    from: try makeFile(
      "flax.pdf", Array("%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n%%EOF\n".utf8), in: scratch),
    mediaType: "application/pdf")

  let full = Yarn(
    id: "3f1c9a2e-0000-4000-8000-000000000001", name: "Malabrigo Rios \u{201C}Archangel\u{201D} 🧶",
    brand: "Malabrigo", colorway: "Ne\u{0301}ge, \"snow\"", colorFamily: "white", dyeLot: "A-12",
    weight: .medium, fiber: "100% superwash merino", lengthPerSkein: Amount(210, .yard),
    netWeightPerSkein: Amount(100, .gram), quantity: Amount(3, .skein),
    remainingOverride: Amount(1.5, .skein), purchaseLocation: "Loop, London",
    dateAdded: day("2025-11-02"), status: .usedUp, photos: [jpegA, jpegB])
  let bare = Yarn(id: "3f1c9a2e-0000-4000-8000-000000000002", name: "Mystery ball")
  let odd = Yarn(
    id: "3f1c9a2e-0000-4000-8000-000000000003", name: "Drops \"Alpaca\" 'line two'",
    brand: nil, colorway: nil, weight: .lace, lengthPerSkein: Amount(0.1 + 0.2, .meter),
    netWeightPerSkein: Amount(1.75, .ounce), quantity: Amount(1e-7, .ounce),
    dateAdded: day("2024-02-29"))
  let yarnWithTab = Yarn(
    id: "3f1c9a2e-0000-4000-8000-000000000004", name: "=SUM(A1)", weight: .jumbo,
    quantity: Amount(440, .yard), photos: [jpegA])

  let finished = Project(
    id: "7a000000-0000-4000-8000-000000000001", name: "Flax sweater — 2ᵉ essai",
    craft: .knitting, status: .finished,
    pattern: Pattern(name: "Flax", url: "https://www.ravelry.com/patterns/library/flax", pdf: pdf),
    started: day("2025-12-01"), finished: day("2026-01-15"),
    usages: [
      YarnUsage(yarnID: full.id, amount: Amount(2.5, .skein)),
      YarnUsage(yarnID: odd.id, amount: Amount(100, .gram)),
      YarnUsage(yarnID: full.id, amount: Amount(50, .meter)),
    ],
    photos: [jpegB, jpegA])
  let planned = Project(id: "7a000000-0000-4000-8000-000000000002", name: "Someday shawl")
  let emptyPattern = Project(
    id: "7a000000-0000-4000-8000-000000000003", name: "Granny square", craft: .crochet,
    status: .frogged, pattern: Pattern())
  let namedPattern = Project(
    id: "7a000000-0000-4000-8000-000000000004", name: "Hat", craft: .other, status: .hibernating,
    pattern: Pattern(name: "Barley"), started: day("2026-02-01"),
    usages: [YarnUsage(yarnID: yarnWithTab.id, amount: Amount(0.5, .skein))])
  let inProgress = Project(
    id: "7a000000-0000-4000-8000-000000000005", name: "Socks", craft: .knitting,
    status: .inProgress, pattern: Pattern(url: "https://example.org/socks", pdf: pdf))

  let notes = [
    Note(
      id: "90000000-0000-4000-8000-000000000001", subject: .yarn(full.id),
      text: "Soft, \"squishy\", a bit splitty;\r\nwash cold.\nÄrger? Nein. 日本語",
      created: instant(1_764_000_000), modified: instant(1_764_100_000)),
    Note(
      id: "90000000-0000-4000-8000-000000000002", subject: .project(finished.id), text: "\n\tIndented\r\n",
      created: instant(1_766_000_000)),
    Note(
      id: "90000000-0000-4000-8000-000000000003", subject: .project(inProgress.id),
      text: "Heel flap done", created: instant(-86_400)),
  ]
  let sessions = [
    TimeSession(
      id: "50000000-0000-4000-8000-000000000002", projectID: finished.id,
      start: instant(1_767_000_000), end: instant(1_767_005_400), note: "sleeves, both"),
    // Created after the one above but starting earlier: library() keeps creation order.
    TimeSession(
      id: "50000000-0000-4000-8000-000000000001", projectID: finished.id,
      start: instant(1_766_900_000), end: instant(1_766_900_001)),
    TimeSession(
      id: "50000000-0000-4000-8000-000000000003", projectID: inProgress.id,
      start: instant(1_774_794_600), end: nil, note: "gusset 🧦"),
  ]
  return Library(
    yarns: [full, bare, odd, yarnWithTab],
    projects: [finished, planned, emptyPattern, namedPattern, inProgress], notes: notes,
    sessions: sessions)
}

// MARK: Tests

@Suite struct StoreRoundTripTests {
  @Test func richLibraryRoundTripsThroughInsertAndLibrary() throws {
    try withTemporaryDirectory { root in
      let directory = root.appendingPathComponent("lib")
      let store = try LibraryStore(directory: directory, mode: .readWrite)
      let library = try richLibrary(importingInto: store, scratch: root)
      #expect(try store.isEmpty())
      try store.write { try store.insert(library: library) }
      #expect(try store.isEmpty() == false)
      #expect(try store.library() == library)
      try store.close()

      // Persisted: a new store on the same directory reads the same value, read-only too.
      let reopened = try LibraryStore(directory: directory, mode: .readWrite)
      #expect(try reopened.library() == library)
      let reader = try LibraryStore(directory: directory, mode: .readOnly)
      #expect(try reader.library() == library)
      #expect(reader.isInMemory == false)
    }
  }

  @Test func fieldsThatMustSurviveExactly() throws {
    try withTemporaryDirectory { root in
      let store = try LibraryStore(directory: root, mode: .readWrite)
      let library = try richLibrary(importingInto: store, scratch: root)
      try store.insert(library: library)
      let odd = try #require(try store.yarn(id: "3f1c9a2e-0000-4000-8000-000000000003"))
      // 0.1 + 0.2 is 0.30000000000000004 in binary64; REAL keeps every bit.
      #expect(odd.lengthPerSkein?.value == 0.30000000000000004)
      #expect(odd.brand == nil)
      #expect(odd.colorway == nil)
      #expect(odd.name == "Drops \"Alpaca\" 'line two'")
      let full = try #require(try store.yarn(id: "3f1c9a2e-0000-4000-8000-000000000001"))
      // Combining accent kept as two scalars (no normalization).
      #expect(Array(full.colorway?.unicodeScalars ?? "".unicodeScalars).count == 13)
      #expect(full.photos.map(\.fileName) == ["front.jpg", "Rückseite 🧶.jpeg"])
      #expect(full.photos.map(\.mediaType) == ["image/jpeg", "image/jpeg"])
      let emptyPattern = try #require(try store.project(id: "7a000000-0000-4000-8000-000000000003"))
      #expect(emptyPattern.pattern == Pattern())
      let planned = try #require(try store.project(id: "7a000000-0000-4000-8000-000000000002"))
      #expect(planned.pattern == nil)
      #expect(planned.status == .planned)
      #expect(try store.yarn(id: "nope") == nil)
      #expect(try store.project(id: "nope") == nil)
    }
  }

  @Test func sessionsAreListedByStartAndNotesBySubject() throws {
    try withTemporaryDirectory { root in
      let store = try LibraryStore(directory: root, mode: .readWrite)
      try store.insert(library: try richLibrary(importingInto: store, scratch: root))
      #expect(
        try store.sessions().map(\.id) == [
          "50000000-0000-4000-8000-000000000001", "50000000-0000-4000-8000-000000000002",
          "50000000-0000-4000-8000-000000000003",
        ])
      #expect(
        try store.sessions(projectID: "7a000000-0000-4000-8000-000000000005").map(\.id) == [
          "50000000-0000-4000-8000-000000000003"
        ])
      #expect(try store.runningSession()?.id == "50000000-0000-4000-8000-000000000003")
      #expect(
        try store.notes(about: .project("7a000000-0000-4000-8000-000000000001")).map(\.id) == [
          "90000000-0000-4000-8000-000000000002"
        ])
      #expect(
        try store.notes(about: .yarn("3f1c9a2e-0000-4000-8000-000000000001")).map(\.text) == [
          "Soft, \"squishy\", a bit splitty;\r\nwash cold.\nÄrger? Nein. 日本語"
        ])
      #expect(try store.notes(about: .yarn("3f1c9a2e-0000-4000-8000-000000000002")).isEmpty)
    }
  }

  @Test func instantsAreTruncatedToWholeSecondsTowardThePast() throws {
    try withTemporaryDirectory { root in
      let store = try LibraryStore(directory: root, mode: .readWrite)
      try store.insert(Project(id: "p", name: "P"))
      try store.insert(
        TimeSession(
          id: "s1", projectID: "p", start: Date(timeIntervalSince1970: 1000.9),
          end: Date(timeIntervalSince1970: 1060.2)))
      try store.insert(
        TimeSession(
          id: "s2", projectID: "p", start: Date(timeIntervalSince1970: -0.5),
          end: Date(timeIntervalSince1970: 0)))
      let sessions = try store.sessions()
      #expect(sessions.map(\.start) == [instant(-1), instant(1000)])
      #expect(sessions.map(\.end) == [instant(0), instant(1060)])
    }
  }

  @Test func updatesKeepCreationOrder() throws {
    try withTemporaryDirectory { root in
      let store = try LibraryStore(directory: root, mode: .readWrite)
      for name in ["a", "b", "c"] { try store.insert(Yarn(id: name, name: name.uppercased())) }
      try store.update(Yarn(id: "a", name: "A2", quantity: Amount(2, .skein)))
      #expect(try store.yarns().map(\.name) == ["A2", "B", "C"])
      try store.deleteYarn(id: "b")
      try store.insert(Yarn(id: "d", name: "D"))
      #expect(try store.yarns().map(\.id) == ["a", "c", "d"])
      var streamed: [String] = []
      try store.forEachYarn { streamed.append($0.id) }
      #expect(streamed == ["a", "c", "d"])

      try store.insert(Project(id: "p1", name: "One"))
      try store.insert(Project(id: "p2", name: "Two"))
      try store.update(
        Project(
          id: "p1", name: "One", status: .inProgress,
          usages: [YarnUsage(yarnID: "c", amount: Amount(20, .gram))]))
      let projects = try store.projects()
      #expect(projects.map(\.id) == ["p1", "p2"])
      #expect(projects[0].usages == [YarnUsage(yarnID: "c", amount: Amount(20, .gram))])
      try store.update(Project(id: "p1", name: "One"))
      #expect(try store.project(id: "p1")?.usages == [])
    }
  }

  @Test func missingItemsAreNotFound() throws {
    try withTemporaryDirectory { root in
      let store = try LibraryStore(directory: root, mode: .readWrite)
      #expect(throws: StoreError.self) { try store.update(Yarn(id: "x", name: "X")) }
      #expect(throws: StoreError.self) { try store.update(Project(id: "x", name: "X")) }
      #expect(throws: StoreError.self) { try store.deleteYarn(id: "x") }
      #expect(throws: StoreError.self) { try store.deleteProject(id: "x") }
      #expect(throws: StoreError.self) { try store.deleteSession(id: "x") }
      do {
        try store.deleteProject(id: "x")
      } catch StoreError.notFound(let kind, let id) {
        #expect(kind == .project)
        #expect(id == "x")
      }
      #expect(
        String(describing: StoreError.notFound(kind: .yarn, id: "x"))
          == "no yarn with id x in the library")
    }
  }

  /// Inserts find a taken ID and a note's missing yarn or project by the table's
  /// constraints, and inside a larger write a refused insert undoes only itself (one
  /// statement: SQLite's statement journal, no savepoint of its own); the write stays one
  /// change for undo.
  @Test func refusedInsertsInsideAWriteUndoOnlyThemselves() throws {
    try withTemporaryDirectory { root in
      let store = try LibraryStore(directory: root, mode: .readWrite)
      try store.write {
        try store.insert(Yarn(id: "a", name: "A"))
        try store.insert(Note(id: "n", subject: .yarn("a"), text: "first", created: instant(0)))
        do {
          try store.insert(Yarn(id: "a", name: "again"))
          Issue.record("a duplicate yarn ID was accepted")
        } catch StoreError.duplicateID(let kind, let id) {
          #expect(kind == .yarn && id == "a")
        }
        do {
          try store.insert(Note(id: "n", subject: .yarn("a"), text: "again", created: instant(0)))
          Issue.record("a duplicate note ID was accepted")
        } catch StoreError.duplicateID(let kind, let id) {
          #expect(kind == .note && id == "n")
        }
        do {
          try store.insert(Note(id: "m", subject: .yarn("gone"), text: "x", created: instant(0)))
          Issue.record("a note about a missing yarn was accepted")
        } catch StoreError.missingReference(let kind, let id, let from, let fromID) {
          #expect(kind == .yarn && id == "gone" && from == .note && fromID == "m")
        }
        do {
          try store.insert(Note(id: "m", subject: .project("gone"), text: "x", created: instant(0)))
          Issue.record("a note about a missing project was accepted")
        } catch StoreError.missingReference(let kind, let id, let from, let fromID) {
          #expect(kind == .project && id == "gone" && from == .note && fromID == "m")
        }
        try store.insert(Yarn(id: "b", name: "B"))
      }
      #expect(try store.yarns().map(\.name) == ["A", "B"])
      #expect(try store.notes().map(\.text) == ["first"])
      #expect(try store.history().count == 1)
      _ = try store.undo()
      #expect(try store.yarns().isEmpty && store.notes().isEmpty)
    }
  }

  @Test func duplicatesAndDanglingReferencesAreRefusedAndRolledBack() throws {
    try withTemporaryDirectory { root in
      let store = try LibraryStore(directory: root, mode: .readWrite)
      try store.insert(Yarn(id: "y", name: "Y"))
      do {
        try store.insert(Yarn(id: "y", name: "again"))
        Issue.record("a duplicate ID was accepted")
      } catch StoreError.duplicateID(let kind, let id) {
        #expect(kind == .yarn && id == "y")
      }
      let dangling = Project(
        id: "p", name: "P", usages: [YarnUsage(yarnID: "missing", amount: Amount(1, .skein))])
      do {
        try store.insert(dangling)
        Issue.record("a usage of a missing yarn was accepted")
      } catch StoreError.missingReference(let kind, let id, let from, let fromID) {
        #expect(kind == .yarn && id == "missing" && from == .project && fromID == "p")
      }
      // The project row inserted before the failing usage was rolled back with it.
      #expect(try store.projects().isEmpty)
      #expect(throws: StoreError.self) {
        try store.insert(TimeSession(id: "s", projectID: "nope", start: instant(0)))
      }
      #expect(throws: StoreError.self) {
        try store.insert(Note(id: "n", subject: .project("nope"), text: "x", created: instant(0)))
      }
      var both = Note(id: "n", subject: .yarn("y"), text: "x", created: instant(0))
      both.projectID = "p"
      #expect(throws: StoreError.self) { try store.insert(both) }
      #expect(throws: StoreError.self) {
        try store.insert(Yarn(id: "nan", name: "N", quantity: Amount(.nan, .gram)))
      }
      #expect(throws: StoreError.self) {
        try store.insert(Project(id: "p", name: "P"))
        try store.insert(
          TimeSession(id: "s", projectID: "p", start: instant(100), end: instant(99)))
      }
      // A whole library fails as one: nothing of it is kept.
      let broken = Library(
        yarns: [Yarn(id: "z", name: "Z")],
        sessions: [TimeSession(id: "s", projectID: "absent", start: instant(0))])
      #expect(throws: StoreError.self) { try store.insert(library: broken) }
      #expect(try store.yarns().map(\.id) == ["y"])
    }
  }

  @Test func failedWriteRollsBackEverything() throws {
    struct Stop: Error {}
    try withTemporaryDirectory { root in
      let store = try LibraryStore(directory: root, mode: .readWrite)
      // do/catch rather than #expect(throws:): with Swift 6.3.1, an #expect(throws:) whose
      // closure holds a closure, followed by another closure in the same test, ran the wrong
      // closure body (a miscompile seen while writing this test).
      do {
        try store.write {
          try store.insert(Yarn(id: "a", name: "A"))
          try store.insert(Project(id: "p", name: "P"))
          throw Stop()
        }
        Issue.record("the write did not throw")
      } catch is Stop {}
      #expect(try store.isEmpty())
      // A failing nested write undoes only its own part.
      try store.write {
        try store.insert(Yarn(id: "kept", name: "K"))
        do {
          try store.write {
            try store.insert(Yarn(id: "undone", name: "U"))
            throw Stop()
          }
          Issue.record("the nested write did not throw")
        } catch is Stop {}
      }
      #expect(try store.yarns().map(\.id) == ["kept"])
    }
  }
}

@Suite struct StoreDeleteTests {
  @Test func aYarnGoesAloneOrWithItsUsagesOnlyWhenForced() throws {
    try withTemporaryDirectory { root in
      let store = try LibraryStore(directory: root, mode: .readWrite)
      try store.insert(Yarn(id: "y", name: "Cascade 220"))
      try store.insert(Yarn(id: "free", name: "Unused"))
      let use = [YarnUsage(yarnID: "y", amount: Amount(1, .skein))]
      try store.insert(Project(id: "p1", name: "Hat", usages: use))
      try store.insert(Project(id: "p2", name: "Other"))
      try store.insert(Project(id: "p3", name: "Scarf \"long\"", usages: use + use))
      try store.insert(
        Note(id: "n", subject: .yarn("y"), text: "soft", created: Date(timeIntervalSince1970: 0)))
      do {
        try store.deleteYarn(id: "y")
        Issue.record("a yarn in use was deleted")
      } catch StoreError.removalRefused(let kind, let name, let effects) {
        #expect(kind == .yarn)
        #expect(name == "Cascade 220")
        #expect(effects.projectsUsingIt == ["Hat", "Scarf \"long\""])
        #expect(effects.notes == 1)
        #expect(
          String(describing: StoreError.removalRefused(kind: kind, name: name, effects: effects))
            == #"removing yarn "Cascade 220" would also remove 1 note and its usages in 2 projects ("Hat", "Scarf "long"")"#
        )
      }
      #expect(try store.yarn(id: "y") != nil)
      #expect(try store.project(id: "p3")?.usages.count == 2)
      try store.deleteYarn(id: "free")
      #expect(try store.yarns().map(\.id) == ["y"])
      // Forced: the usages and the note go with it; the projects stay.
      let effects = try store.deleteYarn(id: "y", force: true)
      #expect(effects.projectsUsingIt == ["Hat", "Scarf \"long\""])
      #expect(try store.yarns().isEmpty)
      #expect(try store.projects().map { $0.usages.count } == [0, 0, 0])
      #expect(try store.notes().isEmpty)
    }
  }

  /// QA: a planned project went with its yarn usages, tool links and needle sizes without a
  /// word. They are what a person entered: refused without `force`, listed; with it, named.
  @Test func aProjectGoesWithItsUsagesToolsAndNeedleSizesOnlyWhenForced() throws {
    try withTemporaryDirectory { root in
      let store = try LibraryStore(directory: root, mode: .readWrite)
      try store.insert(Yarn(id: "y1", name: "Catona"))
      try store.insert(Yarn(id: "y2", name: "Rios"))
      let usages = [
        YarnUsage(yarnID: "y1", amount: Amount(2, .skein)),
        YarnUsage(yarnID: "y2", amount: Amount(50, .gram)),
        YarnUsage(yarnID: "y1", amount: Amount(1, .skein)),
      ]
      var project = Project(id: "p", name: "Sophie's Universe", usages: usages)
      project.needleSizes = [millimetres(4), millimetres(5), millimetres(6)]
      try store.insert(project)
      try store.insert(
        Tool(id: "t1", name: "Red Lace", kind: .circular, size: millimetres(4), projectIDs: ["p"]))
      try store.insert(Tool(id: "t2", name: "Spare", kind: .hook, size: millimetres(5)))
      try store.insert(Tool(id: "t3", name: "Bamboo", kind: .hook, size: millimetres(5), projectIDs: ["p"]))
      do {
        try store.deleteProject(id: "p")
        Issue.record("a project with usages, tools and needle sizes was deleted")
      } catch StoreError.removalRefused(let kind, let name, let effects) {
        #expect(effects.yarnsUsed == ["Catona", "Rios"])
        #expect(effects.tools == ["Red Lace", "Bamboo"])
        #expect(effects.needleSizes == 3)
        #expect(effects.yarnsGivenBack.isEmpty)
        #expect(
          String(describing: StoreError.removalRefused(kind: kind, name: name, effects: effects))
            == #"removing project "Sophie's Universe" would also remove its usages of 2 yarns ("Catona", "Rios"), "#
            + #"its links to 2 tools ("Red Lace", "Bamboo") and 3 needle sizes"#)
      }
      #expect(try store.project(id: "p") == project)
      let effects = try store.deleteProject(id: "p", force: true)
      #expect(
        effects.removals == [
          #"its usages of 2 yarns ("Catona", "Rios")"#, #"its links to 2 tools ("Red Lace", "Bamboo")"#,
          "3 needle sizes",
        ])
      #expect(try store.yarns().count == 2)
      #expect(try store.tools().map(\.projectIDs) == [[], [], []])
      // One of each, in the singular.
      try store.insert(Project(id: "q", name: "Hat", usages: [usages[0]]))
      try store.insert(
        Tool(id: "t4", name: "Short", kind: .circular, size: millimetres(4), projectIDs: ["q"]))
      var hat = try #require(try store.project(id: "q"))
      hat.needleSizes = [millimetres(4)]
      try store.update(hat)
      #expect(
        try store.effectsOfRemoving(projectID: "q").summary
          == #"remove its usages of yarn "Catona", its link to tool "Short" and 1 needle size"#)
    }
  }

  @Test func schemaRestrictsDeletingAYarnInUseEvenWithoutTheSwiftCheck() throws {
    try withTemporaryDirectory { root in
      let store = try LibraryStore(directory: root, mode: .readWrite)
      try store.insert(Yarn(id: "y", name: "Y"))
      try store.insert(
        Project(id: "p", name: "P", usages: [YarnUsage(yarnID: "y", amount: Amount(1, .gram))]))
      #expect(throws: DatabaseError.self) {
        try store.connection.run("DELETE FROM yarn WHERE id = 'y'")
      }
    }
  }

  @Test func deletingAProjectCascadesToItsUsagesNotesSessionsAndAttachments() throws {
    try withTemporaryDirectory { root in
      let store = try LibraryStore(directory: root, mode: .readWrite)
      let library = try richLibrary(importingInto: store, scratch: root)
      try store.insert(library: library)
      let flax = "7a000000-0000-4000-8000-000000000001"
      try store.deleteProject(id: flax, force: true)
      #expect(try store.project(id: flax) == nil)
      #expect(try store.sessions(projectID: flax).isEmpty)
      #expect(try store.notes(about: .project(flax)).isEmpty)
      func count(_ sql: String) throws -> Int64? {
        try store.connection.integer(sql, [.text(flax)])
      }
      #expect(try count("SELECT count(*) FROM yarn_usage WHERE project_id = ?") == 0)
      #expect(try count("SELECT count(*) FROM attachment WHERE project_id = ?") == 0)
      // Everything else is untouched.
      var expected = library
      expected.projects.removeFirst()
      expected.notes.removeAll { $0.projectID == flax }
      expected.sessions.removeAll { $0.projectID == flax }
      #expect(try store.library() == expected)
      // The yarn it used may now be deleted, and with it the yarn's note.
      try store.deleteYarn(id: "3f1c9a2e-0000-4000-8000-000000000001", force: true)
      #expect(try store.notes().count == 1)
    }
  }
}

@Suite struct StoreWALTests {
  /// Each command is one process that opens the store, commits, and closes it. The WAL must
  /// not grow without bound across such processes (SQLite's own automatic checkpoint never
  /// restarted it, as each new process rebuilt the WAL index and saw nothing checkpointed).
  @Test func theWALStaysShortAcrossManyShortLivedWriters() throws {
    try withTemporaryDirectory { folder in
      let wal = folder.appendingPathComponent("library.sqlite-wal").path
      var largest = 0
      for index in 0..<80 {
        let store = try LibraryStore(directory: folder, mode: .readWrite)
        try store.write { try store.insert(Yarn(id: Identifier.make(), name: "Skein \(index)")) }
        try store.close()
        let size = (try FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
        largest = max(largest, size)
        // close() truncates the WAL once it reaches walCheckpointBytes (100 frames of
        // 4,096 + 24 bytes = 412,000 bytes), so after a close it is always shorter.
        #expect(size < 412_000, "after write \(index + 1)")
      }
      // 80 commits of a few pages each pass the 100-frame mark: a checkpoint happened.
      #expect(largest > 0)
      let store = try LibraryStore(directory: folder, mode: .readOnly)
      defer { try? store.close() }
      #expect(try store.yarns().count == 80)
    }
  }
}

@Suite struct InMemoryStoreTests {
  @Test func anInMemoryLibraryReadsAndWritesAndLeavesNothingOnDisk() throws {
    let store = try LibraryStore.inMemory()
    #expect(store.isInMemory)
    #expect(store.mode == .readWrite)
    #expect(try store.isEmpty())
    try store.insert(Yarn(id: "y1", name: "Rios", quantity: Amount(3, .skein)))
    try store.insert(Project(id: "p1", name: "Hat", status: .planned))
    #expect(try store.yarns().map(\.name) == ["Rios"])
    #expect(try store.itemCounts().projects == 1)
    // An attachment goes to the store's temporary directory, removed by close().
    let file = store.directory.appendingPathComponent("in.txt")
    try Data("abc".utf8).write(to: file)
    let attachment = try store.importAttachment(from: file)
    #expect(attachment.sha256 == StoreAttachmentTests.abc)
    #expect(store.hasAttachment(sha256: attachment.sha256))
    #expect(
      !FileManager.default.fileExists(atPath: store.directory.appendingPathComponent("library.sqlite").path))
    try store.close()
    #expect(!FileManager.default.fileExists(atPath: store.directory.path))
  }

  @Test func anInMemoryLibraryReleasedWithoutClosingLeavesNoDirectory() throws {
    var directory: URL?
    do {
      let store = try LibraryStore.inMemory()
      try store.insert(Yarn(id: "y1", name: "Rios"))
      directory = store.directory
      #expect(FileManager.default.fileExists(atPath: store.directory.path))
    }
    let path = try #require(directory).path
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test func aReadOnlyStandInForAMissingLibraryRemovesNothingWhenReleased() throws {
    // The read-only stand-in is in memory too, but its directory is the user's: a folder
    // there (not a library yet) stays.
    let root = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: root) }
    let keep = root.appendingPathComponent("keep.txt")
    try Data("mine".utf8).write(to: keep)
    do {
      let store = try LibraryStore(directory: root, mode: .readOnly)
      #expect(store.isInMemory)
    }
    #expect(FileManager.default.fileExists(atPath: keep.path))
  }
}

@Suite struct NoteLookupTests {
  @Test func aNoteIsNamedByItsIDOrAUniquePrefixOfFourOrMore() throws {
    let store = try LibraryStore.inMemory()
    defer { try? store.close() }
    try store.insert(Yarn(id: "y1", name: "Rios"))
    let created = Date(timeIntervalSince1970: 1_700_000_000)
    for id in ["abcd-1", "abcd-2", "abce-3"] {
      try store.insert(Note(id: id, subject: .yarn("y1"), text: id, created: created))
    }
    #expect(try store.note(matching: "abcd-2").text == "abcd-2")
    #expect(try store.note(matching: "ABCE").text == "abce-3")  // case-insensitive
    /// The error `note(matching: reference)` throws, as its description.
    func failure(_ reference: String) -> String {
      do {
        _ = try store.note(matching: reference)
        return "found"
      } catch {
        return String(describing: error)
      }
    }
    #expect(failure("abcd") == "\"abcd\" begins the ids of 2 notes: abcd-1, abcd-2")
    // Shorter than 4, in the words of sessions (QA: `note edit 097 x` said "no note with id 097").
    #expect(
      failure("abc")
        == "\"abc\" is too short to name a note: give its ID or 4 or more of its first characters")
    #expect(failure("zzzz") == "no note with id zzzz in the library")
    // `%` and `_` are plain characters, not LIKE patterns.
    #expect(failure("ab_d") == "no note with id ab_d in the library")
  }
}
