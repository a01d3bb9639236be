import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

/// The tool inventory in the store (schema v5): tools and their projects, a project's needle
/// sizes, undo of each write, safe removal, and backups.
@Suite struct ToolStoreTests {
  private let five = millimetres(5)

  @Test func toolsAreStoredWithTheirProjectsAndUndone() throws {
    try withTemporaryDirectory { dir in
      let store = try LibraryStore(directory: dir, mode: .readWrite)
      defer { try? store.close() }
      try store.insert(Project(id: "p-1", name: "Flax"))
      try store.insert(Project(id: "p-2", name: "Hat"))
      let tool = Tool(
        id: "t-1", name: "Red Lace", kind: .circular, size: five, lengthCentimetres: 80,
        material: "metal", projectIDs: ["p-1"])
      try store.insert(tool)
      #expect(try store.tool(id: "t-1") == tool)
      #expect(try store.tools(ofProject: "p-1").map(\.id) == ["t-1"])

      var edited = tool
      edited.projectIDs = ["p-1", "p-2"]
      edited.lengthCentimetres = 100
      try store.update(edited)
      #expect(try store.tool(id: "t-1") == edited)
      _ = try store.undo()
      #expect(try store.tool(id: "t-1") == tool)
      _ = try store.redo()
      #expect(try store.tool(id: "t-1") == edited)

      // In projects: refused without force, naming them; with force it leaves them.
      do {
        try store.deleteTool(id: "t-1")
        Issue.record("a tool in use was removed")
      } catch StoreError.removalRefused(let kind, let name, let effects) {
        #expect(kind == .tool && name == "Red Lace")
        #expect(effects.projectsWithTool == ["Flax", "Hat"])
        #expect(effects.summary == "remove its place in 2 projects (\"Flax\", \"Hat\")")
      }
      try store.deleteTool(id: "t-1", force: true)
      #expect(try store.tool(id: "t-1") == nil)
      #expect(try store.tools(ofProject: "p-1").isEmpty)
      _ = try store.undo()
      #expect(try store.tool(id: "t-1") == edited)
      // Undoing the add.
      _ = try store.undo()
      _ = try store.undo()
      #expect(try store.tools().isEmpty)
      // The name key is given back with an undo: the tool is found by name after a redo.
      _ = try store.redo()
      #expect(try store.connection.integer("SELECT count(*) FROM tool WHERE name_key = 'red lace'") == 1)
    }
  }

  @Test func theStoreRefusesWhatTheRulesRefuse() throws {
    try withTemporaryDirectory { dir in
      let store = try LibraryStore(directory: dir, mode: .readWrite)
      defer { try? store.close() }
      #expect(throws: StoreError.self) { try store.insert(Tool(id: "t", name: "Bare", kind: .dpn)) }
      do {
        try store.insert(Tool(id: "t", name: "Lost", kind: .hook, size: five, projectIDs: ["p-9"]))
        Issue.record("a tool in a missing project was stored")
      } catch StoreError.missingReference(let kind, let id, let from, let fromID) {
        #expect(kind == .project && id == "p-9" && from == .tool && fromID == "t")
      }
      #expect(try store.tools().isEmpty)
    }
  }

  /// A size under 0.5 mm (`Rules.needleSize`) is refused when it is given, by insert and by
  /// an update that changes it; one an older yarn stored (a library document's, restored by
  /// `insert(library:)`) is kept, and stays through an edit of another field.
  @Test func aSizeUnderHalfAMillimetreIsRefusedWhenGivenAndKeptWhenStored() throws {
    try withTemporaryDirectory { dir in
      let store = try LibraryStore(directory: dir, mode: .readWrite)
      defer { try? store.close() }
      let tiny = millimetres(0.001)
      func refusal(_ body: () throws -> Void) -> String? {
        do {
          try body()
          return nil
        } catch {
          return "\(error)"
        }
      }
      #expect(
        refusal { try store.insert(Tool(id: "t-1", name: "Pin", kind: .dpn, size: tiny)) }
          == "tool t-1 (Pin): size 0.001 mm is under the smallest needle or hook size, 0.5 mm")
      var project = Project(id: "p-1", name: "Lace")
      project.needleSizes = [five, tiny]
      #expect(
        refusal { try store.insert(project) }
          == "project p-1 (Lace): needle size 0.001 mm is under the smallest needle or hook size, 0.5 mm")
      #expect(try store.tools().isEmpty && store.projects().isEmpty)

      // As an older yarn stored them: restored, and edited in another field.
      let old = Tool(id: "t-1", name: "Pin", kind: .dpn, size: tiny)
      try store.insert(library: Library(projects: [project], tools: [old]))
      var renamed = old
      renamed.name = "Pin 2"
      try store.update(renamed)
      #expect(try store.tool(id: "t-1") == renamed)
      var retitled = project
      retitled.name = "Lace 2"
      try store.update(retitled)
      #expect(try store.project(id: "p-1")?.needleSizes == [five, tiny])
      // A new size under the smallest is refused in an update too.
      renamed.size = millimetres(0.3)
      #expect(
        refusal { try store.update(renamed) }
          == "tool t-1 (Pin 2): size 0.3 mm is under the smallest needle or hook size, 0.5 mm")
      retitled.needleSizes = [tiny, millimetres(0.2)]
      #expect(
        refusal { try store.update(retitled) }
          == "project p-1 (Lace 2): needle size 0.2 mm is under the smallest needle or hook size, 0.5 mm")
      #expect(try store.tool(id: "t-1")?.size == tiny)
    }
  }

  /// A project names each needle size once, equal in thousandths (`Rules.repeatedNeedleSize`;
  /// QA: a WEFT import stored 4.5 and 4.4999 mm, shown as `4.5 mm (US 7)` twice): insert and
  /// an update that adds a repeat refuse it; a repeat an older yarn stored (it kept 4.5 and
  /// 4.4999 apart) is restored and stays through an edit of another field.
  @Test func aProjectsNeedleSizeGivenTwiceIsRefusedAndAnOlderRepeatKept() throws {
    try withTemporaryDirectory { dir in
      let store = try LibraryStore(directory: dir, mode: .readWrite)
      defer { try? store.close() }
      func refusal(_ body: () throws -> Void) -> String? {
        do {
          try body()
          return nil
        } catch {
          return "\(error)"
        }
      }
      var project = Project(id: "p-1", name: "Lace")
      project.needleSizes = [millimetres(4.5), five, millimetres(4.4999)]
      #expect(
        refusal { try store.insert(project) }
          == "project p-1 (Lace): needle size 4.5 mm is given twice; a project lists each needle size once")
      #expect(try store.projects().isEmpty)

      try store.insert(library: Library(projects: [project]))
      var retitled = project
      retitled.name = "Lace 2"
      try store.update(retitled)
      #expect(try store.project(id: "p-1")?.needleSizes == [millimetres(4.5), five, millimetres(4.5)])
      retitled.needleSizes = [five, five]
      #expect(
        refusal { try store.update(retitled) }
          == "project p-1 (Lace 2): needle size 5 mm is given twice; a project lists each needle size once")
      retitled.needleSizes = [five]
      try store.update(retitled)
      #expect(try store.project(id: "p-1")?.needleSizes == [five])
    }
  }

  @Test func aProjectsNeedleSizesAreKeptInOrderAndUndone() throws {
    try withTemporaryDirectory { dir in
      let store = try LibraryStore(directory: dir, mode: .readWrite)
      defer { try? store.close() }
      var project = Project(id: "p-1", name: "Flax")
      project.needleSizes = [five, millimetres(4.2)]
      try store.insert(project)
      #expect(try store.project(id: "p-1")?.needleSizes == project.needleSizes)
      var edited = project
      edited.needleSizes = [millimetres(3.25)]
      try store.update(edited)
      #expect(try store.project(id: "p-1")?.needleSizes == edited.needleSizes)
      _ = try store.undo()
      #expect(try store.project(id: "p-1")?.needleSizes == project.needleSizes)
      edited.needleSizes = nil
      try store.update(edited)
      #expect(try store.project(id: "p-1")?.needleSizes == nil)
      // Removing the project takes its sizes and its place in tools with it.
      try store.insert(Tool(id: "t-1", name: "Hook", kind: .hook, size: five, projectIDs: ["p-1"]))
      try store.deleteProject(id: "p-1", force: true)
      #expect(try store.tool(id: "t-1")?.projectIDs == [])
      #expect(try store.connection.integer("SELECT count(*) FROM project_needle") == 0)
    }
  }

  /// A backup holds the tools and needle sizes and restores them; one made before tools
  /// (no `tools` key) restores with none; verify names a tool's missing project.
  @Test func backupsHoldTools() throws {
    try withTemporaryDirectory { dir in
      let store = try LibraryStore(directory: dir.appendingPathComponent("a"), mode: .readWrite)
      defer { try? store.close() }
      var project = Project(id: "p-1", name: "Flax")
      project.needleSizes = [five]
      try store.insert(project)
      try store.insert(Tool(id: "t-1", name: "Red Lace", kind: .circular, size: five, projectIDs: ["p-1"]))
      try store.insert(Tool(id: "t-2", name: "Cable", kind: .cable, lengthCentimetres: 60))
      let zip = dir.appendingPathComponent("b.zip")
      try Backup.create(from: store, to: zip, generator: "test", now: Date(timeIntervalSince1970: 0))
      let other = try LibraryStore(directory: dir.appendingPathComponent("b"), mode: .readWrite)
      defer { try? other.close() }
      try Backup.restore(from: zip, into: other)
      #expect(try other.library() == store.library())
      #expect(try other.tools().count == 2)

      let json = try JSONCoding.encoder().encode(Library(projects: [Project(id: "p", name: "P")]))
      #expect(!String(decoding: json, as: UTF8.self).contains("tools"))
      #expect(try JSONCoding.decoder().decode(Library.self, from: json).tools.isEmpty)

      // A merge: the same tool is left alone; one of another name with the same ID is a
      // conflict naming what differs; a new one is added.
      var merged = RestoreOptions()
      merged.mode = .merge
      _ = try Backup.restore(from: zip, into: other, options: merged)
      try other.update(Tool(id: "t-2", name: "Long cable", kind: .cable, lengthCentimetres: 60))
      do {
        _ = try Backup.restore(from: zip, into: other, options: merged)
        Issue.record("a conflicting tool was merged")
      } catch BackupError.mergeConflicts(_, let conflicts) {
        #expect(conflicts.map(\.description) == ["tool t-2 (Cable): name differs from the library's"])
      }
      let broken = Library(tools: [Tool(id: "t", name: "Lost", kind: .hook, size: five, projectIDs: ["p-9"])])
      #expect(
        LibraryCheck.problems(of: broken).map(\.description)
          == ["library.json: tool t (Lost) is in project p-9, which is missing"])
    }
  }
}

/// The size of `value` mm, which the test knows to be valid.
func millimetres(_ value: Double) -> NeedleSize {
  guard let size = NeedleSize(millimetres: value) else { preconditionFailure("\(value) mm") }
  return size
}

/// Rows of a project's tools and needle sizes whose project or tool a writer other than yarn
/// removed (foreign keys off) are named by `backup create`, not lost without a word.
@Suite struct ToolOrphanTests {
  @Test func orphanedToolRowsAreCounted() throws {
    try withTemporaryDirectory { dir in
      let store = try LibraryStore(directory: dir, mode: .readWrite)
      defer { try? store.close() }
      var project = Project(id: "p-1", name: "Flax")
      project.needleSizes = [millimetres(5)]
      try store.insert(project)
      try store.insert(Tool(id: "t-1", name: "Hook", kind: .hook, size: millimetres(5), projectIDs: ["p-1"]))
      try store.connection.execute("PRAGMA foreign_keys = OFF")
      try store.connection.execute("DELETE FROM tool; DELETE FROM project")
      try store.connection.execute("PRAGMA foreign_keys = ON")
      let orphans = try store.orphanedRows(limit: 5)
      // project_tool: its project and its tool are gone (2); project_needle: its project (1).
      #expect(orphans.count == 3)
      #expect(orphans.examples.contains("a row of project_tool refers to a tool that is not in the library"))
    }
  }
}
