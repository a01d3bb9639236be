import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

/// The library's undo history: `LibraryStore.undo()`, `redo()`, `history()`, the barrier of a
/// `.replace` restore, and the attachment files only history refers to.
@Suite struct UndoHistoryTests {
  /// SHA-256("abc"), FIPS 180-2 appendix B.1.
  static let abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

  func open(_ root: URL) throws -> LibraryStore {
    try LibraryStore(directory: root.appendingPathComponent("lib"), mode: .readWrite)
  }

  /// A yarn with a fractional amount whose decimal form is long (0.1 + 0.2 g), so that a
  /// value that went through text and lost a bit would differ.
  func rios(photos: [YarnModel.Attachment] = []) -> Yarn {
    Yarn(
      id: "y-rios", name: "Rios", brand: "Malabrigo", colorway: "Azul Profundo", dyeLot: "A12",
      weight: .medium, lengthPerSkein: Amount(210, .yard), netWeightPerSkein: Amount(100, .gram),
      quantity: Amount(3, .skein), remainingOverride: Amount(0.1 + 0.2, .gram),
      dateAdded: CalendarDate(year: 2026, month: 3, day: 14), photos: photos)
  }

  @Test func undoingAnAddRemovesItAndRedoBringsItBackAsItWas() throws {
    try withTemporaryDirectory { root in
      let store = try open(root)
      store.changeLabel = "yarn stash add Rios"
      try store.insert(rios())
      #expect(try store.yarns() == [rios()])

      let undone = try store.undo()
      #expect(undone.label == "yarn stash add Rios")
      #expect(undone.effects == [LibraryChange.Effect(item: "yarn", action: .added, count: 1)])
      #expect(try store.yarns() == [])
      // The undone change waits for redo, described by what it does.
      let history = try store.history()
      #expect(history.map(\.stack) == [.redo])
      #expect(history.first?.effects == [LibraryChange.Effect(item: "yarn", action: .added, count: 1)])

      let redone = try store.redo()
      #expect(redone.label == "yarn stash add Rios")
      #expect(try store.yarns() == [rios()])
      #expect(try store.history().map(\.stack) == [.undo])
    }
  }

  @Test func undoingAnEditRestoresEveryValueExactly() throws {
    try withTemporaryDirectory { root in
      let store = try open(root)
      try store.insert(rios())
      var edited = rios()
      edited.name = "Rios (frogged)"
      edited.remainingOverride = Amount(1.0 / 3.0, .ounce)
      edited.brand = nil
      edited.status = .gifted
      try store.update(edited)
      #expect(try store.yarn(id: "y-rios") == edited)

      let undone = try store.undo()
      #expect(undone.effects == [LibraryChange.Effect(item: "yarn", action: .changed, count: 1)])
      let back = try #require(try store.yarn(id: "y-rios"))
      #expect(back == rios())
      // 0.1 + 0.2 is 0.30000000000000004: every bit came back.
      #expect(back.remainingOverride?.value == 0.30000000000000004)
    }
  }

  @Test func undoingAForcedRemovalBringsBackEverythingThatWentWithIt() throws {
    try withTemporaryDirectory { root in
      let store = try open(root)
      let photo = try store.importAttachment(
        from: try makeFile("swatch.jpg", Array("abc".utf8), in: root))
      #expect(photo.sha256 == Self.abc)
      try store.insert(rios(photos: [photo]))
      try store.insert(
        Project(
          id: "p-hat", name: "Hat", status: .finished,
          started: CalendarDate(year: 2026, month: 4, day: 1),
          finished: CalendarDate(year: 2026, month: 4, day: 9),
          usages: [YarnUsage(yarnID: "y-rios", amount: Amount(80, .gram))]))
      let first = Note(
        id: "n-1", subject: .yarn("y-rios"), text: "soft", created: Date(timeIntervalSince1970: 1_770_000_000)
      )
      let second = Note(
        id: "n-2", subject: .yarn("y-rios"), text: "pools\nin stripes",
        created: Date(timeIntervalSince1970: 1_770_000_600))
      try store.insert(first)
      try store.insert(second)
      let before = try store.library()

      store.changeLabel = "yarn stash rm Rios --force"
      _ = try store.deleteYarn(id: "y-rios", force: true)
      #expect(try store.yarns() == [])
      #expect(try store.notes() == [])
      // The photo's file stays while the history can bring the yarn back.
      let file = store.attachmentURL(sha256: Self.abc)
      #expect(FileManager.default.fileExists(atPath: file.path))
      // A sweep keeps it too.
      #expect(try store.sweepAttachments() == 0)
      #expect(FileManager.default.fileExists(atPath: file.path))

      let undone = try store.undo()
      #expect(undone.label == "yarn stash rm Rios --force")
      #expect(
        undone.effects == [
          LibraryChange.Effect(item: "yarn", action: .removed, count: 1),
          LibraryChange.Effect(item: "yarn usage", action: .removed, count: 1),
          LibraryChange.Effect(item: "note", action: .removed, count: 2),
          LibraryChange.Effect(item: "photo", action: .removed, count: 1),
        ])
      #expect(try store.library() == before)
      #expect(try Data(contentsOf: file) == Data("abc".utf8))
    }
  }

  @Test func steppingBackGoesThroughEveryChangeInOrder() throws {
    try withTemporaryDirectory { root in
      let store = try open(root)
      for index in 1...3 {
        store.changeLabel = "add \(index)"
        try store.insert(Yarn(id: "y-\(index)", name: "Yarn \(index)"))
      }
      #expect(try store.history().map(\.label) == ["add 3", "add 2", "add 1"])
      #expect(try store.undo().label == "add 3")
      #expect(try store.undo().label == "add 2")
      #expect(try store.yarns().map(\.id) == ["y-1"])
      // Redo takes the most recently undone first.
      #expect(try store.history().map(\.label) == ["add 2", "add 3", "add 1"])
      #expect(try store.redo().label == "add 2")
      #expect(try store.yarns().map(\.id) == ["y-1", "y-2"])
      // A new change ends the redo line.
      store.changeLabel = "add 4"
      try store.insert(Yarn(id: "y-4", name: "Yarn 4"))
      #expect(throws: StoreError.self) { try store.redo() }
      #expect(try store.history().map(\.label) == ["add 4", "add 2", "add 1"])
      #expect(try store.undo().label == "add 4")
      #expect(try store.undo().label == "add 2")
      #expect(try store.undo().label == "add 1")
      #expect(try store.yarns() == [])
      do {
        try store.undo()
        Issue.record("undo of an empty history did not throw")
      } catch StoreError.cannotUndo(.nothingToUndo) {
      }
    }
  }

  @Test func aReadOrAChangeThatChangesNothingIsNotAChange() throws {
    try withTemporaryDirectory { root in
      let store = try open(root)
      try store.insert(Yarn(id: "y-1", name: "One"))
      _ = try store.yarns()
      try store.write {}
      #expect(try store.history().count == 1)
    }
  }

  /// The steps the last change recorded: (item, action, row), in order.
  private func lastSteps(_ store: LibraryStore) throws -> [String] {
    try store.connection.query(
      """
      SELECT item, action, row FROM history_step
      WHERE change = (SELECT max(seq) FROM history_change) ORDER BY seq
      """
    ) { "\($0.text(0) ?? "") \($0.text(1) ?? "") \($0.text(2) ?? "")" }
  }

  /// A project with `count` usages of one yarn, the i-th of i + 1 grams (no two alike).
  private func project(usages count: Int) -> Project {
    Project(
      id: "p", name: "Blanket",
      usages: (0..<count).map { YarnUsage(yarnID: "y", amount: Amount(Double($0 + 1), .gram)) })
  }

  /// One usage removed from the middle of 10,000 (`LibraryStore.writeList`): the rows that
  /// begin and end both lists stay, so the edit takes linear time and memory (the table of
  /// the whole lists was 10,001 × 10,001 integers, 800 MB). Checked by hand: the history
  /// records the delete of row p/5000 and the moves of p/5001 … p/9999 one place down (an
  /// update of the position alone, counted as no change), nothing else.
  @Test func aUsageRemovedFromALongListRecordsOneRemovalAndTheMoves() throws {
    let store = try LibraryStore.inMemory()
    try store.insert(Yarn(id: "y", name: "Rios"))
    var blanket = project(usages: 10_000)
    try store.insert(blanket)
    blanket.usages.remove(at: 5_000)
    try store.update(blanket)
    #expect(try store.project(id: "p")?.usages == blanket.usages)
    let steps = try lastSteps(store)
    #expect(steps.count == 1 + 4_999)
    #expect(steps.first == "yarn_usage delete p/5000")
    #expect(steps.dropFirst() == (5_001..<10_000).map { "yarn_usage update p/\($0)" }[...])
    #expect(
      try store.history().first?.effects == [
        LibraryChange.Effect(item: "yarn usage", action: .removed, count: 1)
      ])
    _ = try store.undo()
    #expect(try store.project(id: "p") == project(usages: 10_000))
  }

  /// The same rule on short lists, where a yarn used twice is unused (A, B, A, B → B, B) and
  /// one is used again in front (A, B → C, A, B): only the rows that differ are written.
  @Test func aShortListEditRecordsOnlyTheRowsThatDiffer() throws {
    let store = try LibraryStore.inMemory()
    for id in ["a", "b", "c"] { try store.insert(Yarn(id: id, name: id)) }
    func usages(_ ids: String) -> [YarnUsage] {
      ids.map { YarnUsage(yarnID: String($0), amount: Amount(10, .gram)) }
    }
    var hat = Project(id: "p", name: "Hat", usages: usages("abab"))
    try store.insert(hat)
    hat.usages = usages("bb")
    try store.update(hat)
    // Kept: the b at 1 (to 0) and the b at 3 (to 1); removed: the a at 2, then the a at 0.
    #expect(
      try lastSteps(store) == [
        "yarn_usage delete p/2", "yarn_usage delete p/0", "yarn_usage update p/1",
        "yarn_usage update p/3",
      ])
    hat.usages = usages("cbb")
    try store.update(hat)
    // The bs move up from the last, and the c goes in at 0.
    #expect(
      try lastSteps(store) == [
        "yarn_usage update p/1", "yarn_usage update p/0", "yarn_usage insert p/0",
      ])
  }

  /// Past `LibraryStore.maximumListTableCells` (1,001 usages reversed: 1,002 × 1,002 cells
  /// between the common start and end, which are empty), no row between them is kept: all
  /// 1,001 are deleted and written again, each row counted as changed, and undo gives the
  /// list back.
  @Test func aListRewrittenPastTheBoundIsWrittenAgainWhole() throws {
    let store = try LibraryStore.inMemory()
    try store.insert(Yarn(id: "y", name: "Rios"))
    var blanket = project(usages: 1_001)
    try store.insert(blanket)
    blanket.usages.reverse()
    try store.update(blanket)
    #expect(try store.project(id: "p")?.usages == blanket.usages)
    let steps = try lastSteps(store)
    #expect(steps.filter { $0.contains(" delete ") }.count == 1_001)
    #expect(steps.filter { $0.contains(" insert ") }.count == 1_001)
    #expect(steps.count == 2_002)
    #expect(
      try store.history().first?.effects == [
        LibraryChange.Effect(item: "yarn usage", action: .changed, count: 1_001)
      ])
    _ = try store.undo()
    #expect(try store.project(id: "p") == project(usages: 1_001))
  }

  @Test func theHistoryKeepsTheLastFiftyChangesAndThenLetsGoOfTheirFiles() throws {
    try withTemporaryDirectory { root in
      let store = try open(root)
      let photo = try store.importAttachment(
        from: try makeFile("swatch.jpg", Array("abc".utf8), in: root))
      try store.insert(Yarn(id: "y-photo", name: "Photo", photos: [photo]))
      _ = try store.deleteYarn(id: "y-photo", force: true)
      let file = store.attachmentURL(sha256: Self.abc)
      // 2 changes so far; 48 more keep the removal within the last 50.
      for index in 1...48 { try store.insert(Yarn(id: "y-\(index)", name: "Yarn \(index)")) }
      #expect(try store.history().count == 50)
      #expect(FileManager.default.fileExists(atPath: file.path))
      // The 51st change forgets the first (the insert); the 52nd the removal, and its file.
      try store.insert(Yarn(id: "y-49", name: "Yarn 49"))
      #expect(FileManager.default.fileExists(atPath: file.path))
      try store.insert(Yarn(id: "y-50", name: "Yarn 50"))
      #expect(try store.history().count == 50)
      #expect(!FileManager.default.fileExists(atPath: file.path))
      for _ in 1...50 { try store.undo() }
      #expect(try store.yarns() == [])
      #expect(throws: StoreError.self) { try store.undo() }
    }
  }

  @Test func aReplaceRestoreCannotBeUndoneAndCutsTheHistory() throws {
    try withTemporaryDirectory { root in
      let store = try open(root)
      try store.insert(Yarn(id: "y-1", name: "One"))
      // A path in the detail may hold any character: the refusal escapes it (QA: a U+202E
      // and a line break in the library's path were printed raw).
      try store.withoutHistory(barrier: "it replaced the whole library; see /tmp/a\u{202E}b\nc.zip") {
        try store.removeAll()
        try store.insert(Yarn(id: "y-2", name: "Two"))
      }
      let history = try store.history()
      #expect(history.map(\.stack) == [.barrier])
      #expect(history.first?.effects == [])
      do {
        try store.undo()
        Issue.record("undo of a barrier did not throw")
      } catch let error as StoreError {
        guard case .cannotUndo(.barrier(let change)) = error else { throw error }
        #expect(change.detail == "it replaced the whole library; see /tmp/a\u{202E}b\nc.zip")
        #expect(
          error.description
            == "the last change cannot be undone: it replaced the whole library; see /tmp/a\\u{202E}b\\nc.zip"
        )
      }
      #expect(try store.yarns().map(\.id) == ["y-2"])
      // Later changes can be undone back to the barrier.
      try store.insert(Yarn(id: "y-3", name: "Three"))
      try store.undo()
      #expect(try store.yarns().map(\.id) == ["y-2"])
      #expect(throws: StoreError.self) { try store.undo() }
    }
  }

  @Test func aChangeThatCanNoLongerBeReversedLeavesTheLibraryAsItWas() throws {
    try withTemporaryDirectory { root in
      let store = try open(root)
      try store.insert(Yarn(id: "y-1", name: "One"))
      _ = try store.deleteYarn(id: "y-1")
      // Outside yarn, with the history off: a row takes the removed yarn's place.
      try store.connection.execute(
        """
        INSERT INTO history_pause VALUES (1);
        INSERT INTO yarn (seq, id, name) VALUES (1, 'y-other', 'Other');
        DELETE FROM history_pause;
        """)
      do {
        try store.undo()
        Issue.record("undo over a changed library did not throw")
      } catch StoreError.cannotUndo(.broken(let change, let reason)) {
        #expect(change.effects == [LibraryChange.Effect(item: "yarn", action: .removed, count: 1)])
        #expect(reason == "another yarn took the place of the yarn y-1 it would bring back")
      }
      #expect(try store.yarns().map(\.id) == ["y-other"])
      #expect(try store.history().count == 2)
    }
  }

  @Test func anUndoWhoseRowWentOutsideYarnIsRefusedAndChangesNothing() throws {
    // Removed outside yarn with the history off: undoing the add would remove nothing,
    // undoing the edit would change nothing.
    for (verb, item) in [("remove", "y-2"), ("change", "y-1")] {
      try withTemporaryDirectory { root in
        let store = try open(root)
        store.changeLabel = "add one"
        try store.insert(Yarn(id: "y-1", name: "One"))
        store.changeLabel = verb == "remove" ? "add two" : "edit one"
        if verb == "remove" {
          try store.insert(Yarn(id: "y-2", name: "Two"))
        } else {
          try store.update(Yarn(id: "y-1", name: "Uno"))
        }
        try changeOutsideYarn(
          root,
          """
          INSERT INTO history_pause VALUES (1);
          DELETE FROM yarn WHERE id = '\(item)';
          DELETE FROM history_pause;
          """)
        let before = try store.yarns()
        do {
          try store.undo()
          Issue.record("undo of a change whose row is gone did not throw")
        } catch StoreError.cannotUndo(.broken(let change, let reason)) {
          #expect(change.label == store.changeLabel)
          #expect(reason == "the yarn \(item) it would \(verb) is no longer in the library")
        }
        #expect(try store.yarns() == before)
        #expect(try store.history().map(\.label) == [store.changeLabel, "add one"])
      }
    }
  }

  /// QA: with the history off, a yarn removed and another added in its row (`seq`) outside
  /// yarn; undoing the first yarn's add removed the other one. A row brought back that is
  /// there again, or whose item is gone, is said in words, not as SQLite's constraint.
  @Test func anUndoNeverTouchesAnotherItemInTheRowsPlace() throws {
    try withTemporaryDirectory { root in
      let store = try open(root)
      store.changeLabel = "add victim"
      try store.insert(Yarn(id: "y-victim", name: "Victim"))
      let seq = try #require(try store.connection.integer("SELECT seq FROM yarn WHERE id = 'y-victim'"))
      try changeOutsideYarn(
        root,
        """
        INSERT INTO history_pause VALUES (1);
        DELETE FROM yarn WHERE id = 'y-victim';
        INSERT INTO yarn (seq, id, name, name_key, status) VALUES (\(seq), 'y-precious', 'Precious', 'precious', 'in-stash');
        DELETE FROM history_pause;
        """)
      do {
        try store.undo()
        Issue.record("undo removed the item in the row's place")
      } catch StoreError.cannotUndo(.broken(_, let reason)) {
        #expect(reason == "the yarn y-victim it would remove is no longer in the library")
      }
      #expect(try store.yarns().map(\.id) == ["y-precious"])
    }
    // Brought back while it is there again (the same ID, another row).
    try withTemporaryDirectory { root in
      let store = try open(root)
      try store.insert(Yarn(id: "y-1", name: "One"))
      _ = try store.deleteYarn(id: "y-1")
      try changeOutsideYarn(
        root,
        """
        INSERT INTO history_pause VALUES (1);
        INSERT INTO yarn (seq, id, name, name_key, status) VALUES (99, 'y-1', 'One', 'one', 'in-stash');
        DELETE FROM history_pause;
        """)
      do {
        try store.undo()
        Issue.record("undo brought back a yarn that is there")
      } catch StoreError.cannotUndo(.broken(_, let reason)) {
        #expect(reason == "the yarn y-1 it would bring back is there again")
      }
    }
    // Brought back while the yarn it belongs to is gone.
    try withTemporaryDirectory { root in
      let store = try open(root)
      try store.insert(Yarn(id: "y-1", name: "One"))
      try store.insert(
        Note(id: "n-1", subject: .yarn("y-1"), text: "soft", created: Date(timeIntervalSince1970: 0)))
      try store.deleteNote(id: "n-1")
      try changeOutsideYarn(
        root,
        """
        INSERT INTO history_pause VALUES (1);
        DELETE FROM yarn WHERE id = 'y-1';
        DELETE FROM history_pause;
        """)
      do {
        try store.undo()
        Issue.record("undo brought back a note of a yarn that is gone")
      } catch StoreError.cannotUndo(.broken(_, let reason)) {
        #expect(reason == "an item it refers to is no longer in the library")
      }
      #expect(try store.notes().isEmpty)
    }
  }

  /// QA: with the history off, another yarn's photo put in the row (`seq`) of the photo an
  /// undo would remove; and a timer started while the undo of its stop would run another.
  @Test func anUndoNeverRemovesAnotherPhotoNorRunsTwoTimers() throws {
    try withTemporaryDirectory { root in
      let store = try open(root)
      let photo = try store.importAttachment(
        from: try makeFile("swatch.jpg", Array("abc".utf8), in: root))
      try store.insert(Yarn(id: "y-alpha", name: "Alpha"))
      try store.insert(Yarn(id: "y-beta", name: "Beta"))
      try store.update(Yarn(id: "y-beta", name: "Beta", photos: [photo]))
      store.changeLabel = "attach alpha"
      try store.update(Yarn(id: "y-alpha", name: "Alpha", photos: [photo]))
      let seq = try #require(
        try store.connection.integer("SELECT seq FROM attachment WHERE yarn_id = 'y-alpha'"))
      try changeOutsideYarn(
        root,
        """
        INSERT INTO history_pause VALUES (1);
        DELETE FROM attachment WHERE seq = \(seq);
        INSERT INTO attachment
          SELECT \(seq), yarn_id, project_id, role, 1, sha256, 'copy.jpg', media_type, byte_count
          FROM attachment WHERE yarn_id = 'y-beta';
        DELETE FROM history_pause;
        """)
      do {
        try store.undo()
        Issue.record("undo removed another yarn's photo")
      } catch StoreError.cannotUndo(.broken(let change, let reason)) {
        #expect(change.label == "attach alpha")
        #expect(reason == "the photo y-alpha/photo/0 it would remove is no longer in the library")
      }
      #expect(try store.yarn(id: "y-beta")?.photos.count == 2)
    }
    try withTemporaryDirectory { root in
      let store = try open(root)
      try store.insert(Project(id: "p-1", name: "Hat"))
      try store.insert(Project(id: "p-2", name: "Flax"))
      let start = Date(timeIntervalSince1970: 1_780_000_000)
      try store.insert(TimeSession(id: "s-1", projectID: "p-1", start: start))
      store.changeLabel = "stop"
      try store.update(TimeSession(id: "s-1", projectID: "p-1", start: start, end: start + 600))
      try changeOutsideYarn(
        root,
        """
        INSERT INTO history_pause VALUES (1);
        INSERT INTO time_session (seq, id, project_id, start_time) VALUES (9, 's-2', 'p-2', 1780001000);
        DELETE FROM history_pause;
        """)
      do {
        try store.undo()
        Issue.record("undo ran a second timer")
      } catch StoreError.cannotUndo(.broken(_, let reason)) {
        #expect(reason == "another timer is running")
      }
      #expect(try store.runningSession()?.id == "s-2")
    }
  }

  @Test func aPauseLeftByAnotherWriterDoesNotStopTheHistory() throws {
    try withTemporaryDirectory { root in
      let store = try open(root)
      store.changeLabel = "add one"
      try store.insert(Yarn(id: "y-1", name: "One"))
      // The sqlite3 shell pauses the history and never ends the pause.
      try changeOutsideYarn(root, "INSERT INTO history_pause VALUES (1)")
      store.changeLabel = "add two"
      try store.insert(Yarn(id: "y-2", name: "Two"))
      #expect(try store.history().map(\.label) == ["add two", "add one"])
      // Undo reverses the newest change, not the one before it.
      #expect(try store.undo().label == "add two")
      #expect(try store.yarns().map(\.id) == ["y-1"])
      // A `.replace` restore pauses the history itself.
      store.changeLabel = "restore"
      try changeOutsideYarn(root, "INSERT INTO history_pause VALUES (1)")
      try store.withoutHistory(barrier: "it replaced the whole library") {
        try store.removeAll()
        try store.insert(Yarn(id: "y-3", name: "Three"))
      }
      #expect(try store.history().map(\.stack) == [.barrier])
      #expect(try store.connection.integer("SELECT count(*) FROM history_pause") == 0)
    }
  }

  @Test func aChangeMadeOutsideYarnIsAChangeOfItsOwn() throws {
    try withTemporaryDirectory { root in
      let store = try open(root)
      store.changeLabel = "add one"
      try store.insert(Yarn(id: "y-1", name: "One"))
      // Another writer (the sqlite3 shell) runs into the triggers but gathers nothing.
      let raw = try Connection(
        path: root.appendingPathComponent("lib/library.sqlite").path, flags: 0x2)
      try raw.execute("UPDATE yarn SET name = 'Uno' WHERE id = 'y-1'")
      try raw.close()
      store.changeLabel = "add two"
      try store.insert(Yarn(id: "y-2", name: "Two"))
      #expect(
        try store.history().map(\.label) == ["add two", "changes made outside yarn", "add one"])
      try store.undo()
      #expect(try store.yarns().map(\.name) == ["Uno"])
      #expect(try store.undo().label == "changes made outside yarn")
      #expect(try store.yarns().map(\.name) == ["One"])
    }
  }

  /// Changes `sql` as another writer (the sqlite3 shell) would: the triggers record its
  /// steps, which nothing gathers into a change.
  func changeOutsideYarn(_ root: URL, _ sql: String) throws {
    let raw = try Connection(path: root.appendingPathComponent("lib/library.sqlite").path, flags: 0x2)
    try raw.execute(sql)
    try raw.close()
  }

  @Test func aChangeMadeOutsideYarnEndsWhatCanBeRedone() throws {
    for sql in [
      "UPDATE yarn SET colorway = 'B' WHERE id = 'y-1'", "DELETE FROM yarn WHERE id = 'y-1'",
    ] {
      try withTemporaryDirectory { root in
        let store = try open(root)
        store.changeLabel = "add one"
        try store.insert(Yarn(id: "y-1", name: "One", colorway: "Orig"))
        store.changeLabel = "add two"
        try store.insert(Yarn(id: "y-2", name: "Two"))
        store.changeLabel = "edit one"
        try store.update(Yarn(id: "y-1", name: "One", colorway: "A"))
        try store.undo()
        try changeOutsideYarn(root, sql)
        let after = try store.yarns()
        #expect(after.map(\.colorway) == (sql.hasPrefix("UPDATE") ? ["B", nil] : [nil]), "\(sql)")
        do {
          try store.redo()
          Issue.record("redo over a change made outside yarn did not throw: \(sql)")
        } catch StoreError.cannotUndo(.nothingToRedo) {
        }
        #expect(try store.yarns() == after, "\(sql)")
        // The outside change is the newest, and undoing it gives back the yarn as it was
        // before it (with its colorway Orig: the undone edit is not made again).
        #expect(
          try store.history().map(\.label) == ["changes made outside yarn", "add two", "add one"],
          "\(sql)")
        #expect(try store.undo().label == "changes made outside yarn")
        #expect(try store.yarns().map(\.colorway) == ["Orig", nil], "\(sql)")
        #expect(try store.history().map(\.stack) == [.redo, .undo, .undo], "\(sql)")
        #expect(try store.redo().label == "changes made outside yarn")
        #expect(try store.yarns() == after, "\(sql)")
      }
    }
  }

  @Test func theHistoryListsAPendingOutsideChangeAsItWillStandWithoutWriting() throws {
    try withTemporaryDirectory { root in
      let store = try open(root)
      for number in 1...LibraryStore.historyLimit {
        store.changeLabel = "add \(number)"
        try store.insert(Yarn(id: "y-\(number)", name: "Yarn \(number)"))
      }
      try changeOutsideYarn(root, "UPDATE yarn SET name = 'Uno' WHERE id = 'y-1'")
      // Read-only, as `yarn undo --list` reads it: the outside change is first, as undo will
      // reverse it, and pushes the oldest change out, as it will once a write gathers it.
      let reader = try LibraryStore(directory: root.appendingPathComponent("lib"), mode: .readOnly)
      let listed = try reader.history()
      try reader.close()
      #expect(
        listed.map(\.label)
          == ["changes made outside yarn"] + (2...50).reversed().map { "add \($0)" })
      #expect(listed.map(\.stack) == Array(repeating: .undo, count: 50))
      #expect(listed.first?.effects == [LibraryChange.Effect(item: "yarn", action: .changed, count: 1)])
      // Nothing was written: its step still waits, and the undone change too.
      #expect(
        try store.connection.integer("SELECT count(*) FROM history_step WHERE change IS NULL") == 1)
      #expect(try store.connection.integer("SELECT count(*) FROM history_change") == 50)
      // Changes 1 to 50 were made, so the outside change will be 51 (SQLite's next number).
      #expect(listed.first?.id == 51)
      store.changeLabel = "add more"
      try store.insert(Yarn(id: "y-more", name: "More"))
      let gathered = try store.history()
      #expect(
        gathered.map(\.label)
          == ["add more", "changes made outside yarn"] + (3...50).reversed().map { "add \($0)" })
      #expect(gathered[1].id == 51)
      #expect(gathered[1].effects == listed.first?.effects)
    }
  }

  @Test func historyRunsOnlyStatementsOfItsOwnShape() throws {
    #expect(LibraryStore.isHistoryStatement("DELETE FROM yarn WHERE seq = 1"))
    #expect(LibraryStore.isHistoryStatement("INSERT INTO yarn_usage (project_id) VALUES ('p')"))
    #expect(LibraryStore.isHistoryStatement("UPDATE time_session SET seq = 1 WHERE seq = 1"))
    #expect(!LibraryStore.isHistoryStatement("DROP TABLE yarn"))
    #expect(!LibraryStore.isHistoryStatement("ATTACH DATABASE 'x' AS x"))
    #expect(!LibraryStore.isHistoryStatement("DELETE FROM history_change WHERE 1"))
    try withTemporaryDirectory { root in
      let store = try open(root)
      try store.insert(Yarn(id: "y-1", name: "One"))
      // A second statement after a well-shaped first one is refused, and nothing runs.
      try store.connection.execute(
        "UPDATE history_step SET sql = 'DELETE FROM yarn WHERE seq = 1; DROP TABLE note'")
      #expect(throws: StoreError.self) { try store.undo() }
      #expect(try store.yarns().map(\.id) == ["y-1"])
      #expect(try store.notes() == [])
    }
  }

  @Test func undoTakesTheWriteLockAndWaitsForAnotherWriter() throws {
    try withTemporaryDirectory { root in
      let holder = try LibraryStore(directory: root, mode: .readWrite)
      let waiter = try LibraryStore(directory: root, mode: .readWrite, busyTimeout: 50)
      try holder.insert(Yarn(id: "y-1", name: "One"))
      try holder.write {
        try holder.insert(Yarn(id: "y-2", name: "Two"))
        do {
          try waiter.undo()
          Issue.record("an undo got through a held lock")
        } catch StoreError.busy {
        } catch {
          Issue.record("expected StoreError.busy, got \(error)")
        }
      }
      // Once the lock is free the undo reverses the newest change, the holder's.
      #expect(try waiter.undo().effects == [LibraryChange.Effect(item: "yarn", action: .added, count: 1)])
      #expect(try waiter.yarns().map(\.id) == ["y-1"])
    }
  }

  @Test func theTriggersCoverEveryColumnOfEveryTable() throws {
    try withTemporaryDirectory { root in
      let store = try open(root)
      for entry in Schema.recordedTables {
        let columns = try store.connection.query(
          "SELECT name FROM pragma_table_info(?) ORDER BY cid", [.text(entry.table)]
        ) { $0.text(0) ?? "" }
        #expect(columns == entry.columns, "table \(entry.table)")
      }
    }
  }
}
