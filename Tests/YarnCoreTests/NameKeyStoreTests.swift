import Foundation
import Testing

@testable import YarnModel
@testable import YarnStore

/// The name key (`Lookup.key`, column `name_key`, schema v4): the rule of `Lookup.find`, an
/// upgraded library's keys, and the keys an undo of a change recorded before v4 gives back.
@Suite struct NameKeyStoreTests {
  @Test func theKeyIsTheNameAsFindComparesIt() {
    #expect(Lookup.key("  Rios\u{3000}") == "rios")
    #expect(Lookup.key("\u{212A}id") == "kid")  // KELVIN SIGN
    #expect(Array(Lookup.key("Ne\u{301}ge").unicodeScalars) == Array("n\u{E9}ge".unicodeScalars))
    #expect(Array(Lookup.key("\u{212B}").unicodeScalars) == ["\u{E5}"])  // ANGSTROM SIGN
    #expect(Lookup.key("Tab\there") == "tab\there")
    #expect(Lookup.idBegins("AB12-x", with: "ab12"))
    #expect(!Lookup.idBegins("AB1", with: "ab1"))
  }

  @Test func theEndOfAKeyRangeIsTheNextScalar() {
    #expect(LibraryStore.keyRangeEnd("ab") == "ac")
    #expect(LibraryStore.keyRangeEnd("n\u{E9}") == "n\u{EA}")
    #expect(LibraryStore.keyRangeEnd("a\u{D7FF}") == "a\u{E000}")
    #expect(LibraryStore.keyRangeEnd("a\u{10FFFF}") == "b")
    #expect(LibraryStore.keyRangeEnd("\u{10FFFF}") == nil)
    #expect(LibraryStore.keyRangeEnd("") == nil)
  }

  /// A version 3 library, with a history of two changes (a yarn added, then renamed)
  /// recorded by v3's triggers, which know no key.
  private func makeVersion3Library(at root: URL) throws {
    let path = root.appendingPathComponent("library.sqlite").path
    let raw = try Connection(path: path, flags: 0x2 | 0x4)  // READWRITE | CREATE
    defer { try? raw.close() }
    try raw.execute("PRAGMA journal_mode = WAL")
    try LibraryStore.migrate(raw, migrations: Array(Schema.migrations.prefix(3)))
    func change(_ sql: String, _ label: String) throws {
      try raw.execute(sql)
      try raw.execute(
        """
        INSERT INTO history_change (stack, made, label) VALUES ('undo', 0, '\(label)');
        UPDATE history_step SET change = last_insert_rowid() WHERE change IS NULL;
        """)
    }
    try change(
      """
      INSERT INTO yarn (id, name, is_stashed) VALUES ('y-1', 'Rios', 1);
      INSERT INTO project (id, name, status, has_pattern) VALUES ('p-1', 'Flax', 'planned', 0);
      """, "add")
    try change(
      "UPDATE yarn SET name = 'Ne\u{301}ge' WHERE id = 'y-1'; UPDATE project SET name = 'Hat'",
      "rename")
  }

  private func keys(_ store: LibraryStore) throws -> [String?] {
    try store.connection.query(
      "SELECT name_key FROM yarn UNION ALL SELECT name_key FROM project"
    ) { $0.text(0) }
  }

  @Test func aVersion3LibraryGetsItsKeysEvenWhenOpenedToRead() throws {
    try withTemporaryDirectory { root in
      try makeVersion3Library(at: root)
      let reader = try LibraryStore(directory: root, mode: .readOnly)
      defer { try? reader.close() }
      #expect(try reader.connection.integer("PRAGMA user_version") == 7)
      #expect(try keys(reader) == ["n\u{E9}ge", "hat"])
      #expect(try reader.yarnNames(mayMatch: "NE\u{301}GE").map(\.id) == ["y-1"])
      #expect(try reader.projectNames(mayMatch: "ha").map(\.id) == ["p-1"])
      // Filling the keys is not a change of the history.
      #expect(try reader.history().map(\.label) == ["rename", "add"])
      #expect(
        try reader.connection.integer("SELECT count(*) FROM history_step WHERE change IS NULL") == 0)
    }
  }

  @Test func undoingAChangeRecordedBeforeVersion4ComputesTheKeysAgain() throws {
    try withTemporaryDirectory { root in
      try makeVersion3Library(at: root)
      let store = try LibraryStore(directory: root, mode: .readWrite)
      defer { try? store.close() }
      try store.undo()
      #expect(try store.yarns().map(\.name) == ["Rios"])
      #expect(try keys(store) == ["rios", "flax"])
      #expect(try store.yarnNames(mayMatch: "rios").map(\.id) == ["y-1"])
      try store.redo()
      #expect(try keys(store) == ["n\u{E9}ge", "hat"])
      try store.undo()
      try store.undo()
      #expect(try store.yarns() == [])
      try store.redo()
      #expect(try keys(store) == ["rios", "flax"])
      #expect(try store.projectNames(mayMatch: "FLAX").map(\.id) == ["p-1"])
    }
  }

  /// A name changed by a writer other than yarn: found by its new name before yarn writes
  /// (a candidate always), and keyed once yarn writes.
  @Test func aNameChangedOutsideYarnIsFoundAndKeyedAtTheNextWrite() throws {
    try withTemporaryDirectory { root in
      let store = try LibraryStore(directory: root, mode: .readWrite)
      defer { try? store.close() }
      try store.insert(Yarn(id: "y-1", name: "Rios"))
      try store.connection.execute("UPDATE yarn SET name = 'Arroyo' WHERE id = 'y-1'")
      #expect(try store.yarnNames(mayMatch: "arroyo").map(\.id) == ["y-1"])
      #expect(try store.yarnNames(mayMatch: "rios").map(\.id) == ["y-1"])
      try store.insert(Yarn(id: "y-2", name: "Sock"))
      #expect(try keys(store) == ["arroyo", "sock"])
      #expect(try store.yarnNames(mayMatch: "rios").isEmpty)
      #expect(try store.yarnNames(mayMatch: "arroyo").map(\.id) == ["y-1"])
      // The outside change undone gives back the name and, computed again, its key.
      try store.undo()
      try store.undo()
      #expect(try keys(store) == ["rios"])
    }
  }
}

extension NameKeyStoreTests {
  /// `Lookup.find` over the candidates the store finds by index picks what it picks over
  /// every name, and fails alike (the same candidates of an ambiguity), for many references:
  /// every name, its prefixes, in upper case and in NFD, IDs and their prefixes.
  @Test func findOverTheCandidatesAgreesWithFindOverEveryName() throws {
    try withTemporaryDirectory { root in
      let store = try LibraryStore(directory: root, mode: .readWrite)
      defer { try? store.close() }
      let names = [
        "Malabrigo Rios", "Mala", "Malabrigo Sock", "malabrigo", "Mal\u{E0}", "\u{212A}id Mohair",
        "Ne\u{301}ge", "n\u{E9}ge", "Kidsilk", "abcd", "\u{E9}1 Sock", "Ab Cd", "\u{130}stanbul",
      ]
      for (index, name) in names.enumerated() {
        try store.insert(Yarn(id: index == 9 ? "ABCD-9" : "y-\(index)-\(name.count)", name: name))
      }
      try store.insert(Yarn(id: "e\u{301}1", name: "Plain"))  // an ID in NFD
      try store.insert(Yarn(id: "abcd", name: "Named Like An ID"))
      // Changed outside yarn: a stale key, and a row with none.
      try store.connection.execute(
        """
        UPDATE yarn SET name = 'Rios Outside' WHERE id = 'y-2-14';
        INSERT INTO yarn (id, name) VALUES ('y-out', 'Malabrigo Outside');
        """)
      var references = [
        "", " ", "\u{E9}1", "E\u{301}1", "abcd", "ABCD", "abcd-", "y-0-", "Y-1", "Rios Outside",
        "rios", "mal", "MALA", "malab", "\u{130}", "i\u{307}stanbul", "istanbul", "kid",
        "KID MOHAIR", "NE\u{301}GE", "zz", "Named", "malabrigo o",
      ]
      for name in names {
        references += [name, name.uppercased(), " \(name) "]
        references += (1...name.count).map { String(name.prefix($0)) }
        // In NFD, and every prefix of it by scalars (an accent cut off).
        let nfd = name.decomposedScalars
        references += (1...nfd.count).map {
          String(String.UnicodeScalarView(nfd.prefix($0)))
        }
      }
      let all = try store.yarnNames()
      for reference in references {
        let candidates = try store.yarnNames(mayMatch: reference.trimmingSpaces())
        #expect(
          outcome(reference, candidates) == outcome(reference, all), "reference \(reference)")
      }
      // An exact name: not the names that begin with it. With it, always, the ID outside
      // ASCII and the two rows changed outside yarn.
      #expect(
        try store.yarnNames(mayMatch: "mala").map(\.name) == [
          "Mala", "Rios Outside", "Plain", "Malabrigo Outside",
        ])
    }
  }

  private func outcome(_ reference: String, _ items: [ItemName]) -> String {
    do {
      return "found " + (try Lookup.find(reference, in: items, id: \.id, name: \.name)).id
    } catch .ambiguous(_, let candidates) {
      return "ambiguous " + candidates.map(\.id).joined(separator: ",")
    } catch {
      // A miss among the candidates reads every name (`References.itemID`).
      return "not found"
    }
  }
}

extension String {
  fileprivate var decomposedScalars: [Unicode.Scalar] {
    // NFD by the standard library's canonical decomposition of the few letters used here.
    unicodeScalars.flatMap { scalar -> [Unicode.Scalar] in
      switch scalar {
      case "\u{E9}": ["e", "\u{301}"]
      case "\u{E0}": ["a", "\u{300}"]
      case "\u{130}": ["I", "\u{307}"]
      default: [scalar]
      }
    }
  }
}
