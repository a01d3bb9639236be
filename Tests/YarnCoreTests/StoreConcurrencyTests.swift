import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

/// Runs `body` on a new thread of its own (not the cooperative pool, which blocking SQLite
/// waits must not starve) and returns its result.
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Result { try body() }) }.start()
  }
}

@Suite struct StoreConcurrencyTests {
  @Test func twoStoresOnOneDirectoryTakeTurnsAndLoseNothing() throws {
    try withTemporaryDirectory { root in
      let a = try LibraryStore(directory: root, mode: .readWrite)
      let b = try LibraryStore(directory: root, mode: .readWrite)
      try a.insert(Yarn(id: "1", name: "one"))
      try b.insert(Yarn(id: "2", name: "two"))
      try a.insert(Yarn(id: "3", name: "three"))
      try b.write {
        try b.insert(Project(id: "p", name: "P"))
        try b.insert(Yarn(id: "4", name: "four"))
      }
      #expect(try a.yarns().map(\.id) == ["1", "2", "3", "4"])
      #expect(try b.yarns().map(\.id) == ["1", "2", "3", "4"])
      #expect(try a.projects().map(\.id) == ["p"])
    }
  }

  @Test func twoThreadsWritingAtOnceLoseNothing() async throws {
    try await withTemporaryDirectoryAsync { root in
      try LibraryStore(directory: root, mode: .readWrite).close()
      let perWriter = 25
      let written = try await withThrowingTaskGroup(of: [String].self) { group in
        for writer in 0..<2 {
          group.addTask {
            try await onThread {
              let store = try LibraryStore(directory: root, mode: .readWrite)
              var ids: [String] = []
              for index in 0..<perWriter {
                let id = "w\(writer)-\(index)"
                try store.write {
                  try store.insert(Yarn(id: id, name: id))
                  if index % 5 == 0 {
                    try store.insert(
                      Note(id: "n-" + id, subject: .yarn(id), text: id, created: instant(index)))
                  }
                }
                ids.append(id)
              }
              try store.close()
              return ids
            }
          }
        }
        var all: [String] = []
        for try await ids in group { all += ids }
        return all
      }
      let store = try LibraryStore(directory: root, mode: .readOnly)
      let stored = try store.yarns().map(\.id)
      #expect(stored.count == 2 * perWriter)
      #expect(Set(stored) == Set(written))
      #expect(try store.notes().count == 2 * 5)
      // Each writer's own yarns keep their order.
      for writer in 0..<2 {
        #expect(
          stored.filter { $0.hasPrefix("w\(writer)-") }
            == (0..<perWriter).map { "w\(writer)-\($0)" })
      }
    }
  }

  @Test func aWriterWaitsForAnotherWritersLock() async throws {
    try await withTemporaryDirectoryAsync { root in
      try LibraryStore(directory: root, mode: .readWrite).close()
      let locked = DispatchSemaphore(value: 0)
      async let holder: Void = onThread {
        let store = try LibraryStore(directory: root, mode: .readWrite)
        try store.write {
          try store.insert(Yarn(id: "first", name: "first"))
          locked.signal()
          Thread.sleep(forTimeInterval: 0.3)  // well under the 5 s busy timeout
        }
      }
      async let waiter: Void = onThread {
        locked.wait()
        let store = try LibraryStore(directory: root, mode: .readWrite)
        try store.insert(Yarn(id: "second", name: "second"))
      }
      try await holder
      try await waiter
      let store = try LibraryStore(directory: root, mode: .readOnly)
      #expect(try store.yarns().map(\.id) == ["first", "second"])
    }
  }

  @Test func aLockHeldPastTheTimeoutIsBusy() throws {
    try withTemporaryDirectory { root in
      let holder = try LibraryStore(directory: root, mode: .readWrite)
      let waiter = try LibraryStore(directory: root, mode: .readWrite, busyTimeout: 50)
      try holder.write {
        try holder.insert(Yarn(id: "held", name: "held"))
        do {
          try waiter.insert(Yarn(id: "late", name: "late"))
          Issue.record("a write got through a held lock")
        } catch StoreError.busy {
        } catch {
          Issue.record("expected StoreError.busy, got \(error)")
        }
        // Reading is not blocked by the writer (WAL), and sees the last commit.
        #expect(try waiter.yarns().isEmpty)
      }
      #expect(try waiter.yarns().map(\.id) == ["held"])
      #expect(String(describing: StoreError.busy).contains("5 seconds"))
    }
  }
}

@Suite struct StoreLocationTests {
  @Test func precedenceIsFlagThenVariableThenXDGThenHome() throws {
    let environment = [
      "YARN_LIBRARY": "/env/lib", "XDG_DATA_HOME": "/xdg", "HOME": "/home/knitter",
    ]
    #expect(
      try LibraryLocation.resolve(explicit: "/flag/lib", environment: environment).path == "/flag/lib")
    #expect(try LibraryLocation.resolve(explicit: nil, environment: environment).path == "/env/lib")
    #expect(try LibraryLocation.resolve(explicit: "", environment: environment).path == "/env/lib")
    var noVariable = environment
    noVariable["YARN_LIBRARY"] = ""
    #expect(try LibraryLocation.resolve(explicit: nil, environment: noVariable).path == "/xdg/yarn")
    noVariable["XDG_DATA_HOME"] = "relative/dir"  // ignored, as the XDG spec says
    #if os(macOS)
      let fallback = "/home/knitter/Library/Application Support/yarn"
    #else
      let fallback = "/home/knitter/.local/share/yarn"
    #endif
    #expect(try LibraryLocation.resolve(explicit: nil, environment: noVariable).path == fallback)
    noVariable["XDG_DATA_HOME"] = nil
    #expect(try LibraryLocation.resolve(explicit: nil, environment: noVariable).path == fallback)
    // Blank but not empty: no folder, refused (QA: a library in a folder named "   ").
    for blank in ["   ", "\u{200B}"] {
      noVariable["YARN_LIBRARY"] = blank
      #expect(
        throws: EnvironmentVariableError(
          name: "YARN_LIBRARY", value: blank, reason: "a directory name cannot be empty")
      ) {
        try LibraryLocation.resolve(explicit: nil, environment: noVariable)
      }
      #expect(try LibraryLocation.resolve(explicit: "/flag/lib", environment: noVariable).path == "/flag/lib")
    }
    // QA: a blank or relative HOME was a folder under the current directory (`./ /.local/share/
    // yarn`): refused where the home is needed, the default place or a leading `~`.
    noVariable["YARN_LIBRARY"] = nil
    for (home, reason) in [
      (" ", "a directory name cannot be empty"), ("rel", "the home directory must be an absolute path"),
      ("./home", "the home directory must be an absolute path"),
    ] {
      noVariable["HOME"] = home
      let refusal = EnvironmentVariableError(name: "HOME", value: home, reason: reason)
      #expect(throws: refusal) { try LibraryLocation.resolve(explicit: nil, environment: noVariable) }
      #expect(throws: refusal) { try LibraryLocation.resolve(explicit: "~/lib", environment: noVariable) }
      #expect(try LibraryLocation.resolve(explicit: "/flag/lib", environment: noVariable).path == "/flag/lib")
      var withXDG = noVariable
      withXDG["XDG_DATA_HOME"] = "/xdg"
      #expect(try LibraryLocation.resolve(explicit: nil, environment: withXDG).path == "/xdg/yarn")
    }
  }

  /// The store's refusal of a variable holds the facts (variable, value, reason), no word of
  /// the CLI's options: the CLI's hint says `give --library DIR` (`ErrorPresenter.wayOut`).
  @Test func aRefusedVariableNamesNoOptionOfTheCommandLine() {
    let cases: [([String: String], Set<String>)] = [
      (["YARN_LIBRARY": "   "], []), (["HOME": "rel"], []), ([:], ["YARN_LIBRARY"]), ([:], ["HOME"]),
    ]
    for (environment, notUTF8) in cases {
      do {
        let url = try LibraryLocation.resolve(explicit: nil, environment: environment, notUTF8: notUTF8)
        Issue.record("\(environment) \(notUTF8): \(url.path)")
      } catch {
        #expect(!String(describing: error).contains("--library"), "\(error)")
      }
    }
  }

  @Test func tildeAndRelativePathsAreExpanded() throws {
    let environment = ["HOME": "/home/knitter"]
    #expect(
      try LibraryLocation.resolve(explicit: "~/stash", environment: environment).path
        == "/home/knitter/stash")
    #expect(
      try LibraryLocation.resolve(explicit: nil, environment: ["YARN_LIBRARY": "~/y", "HOME": "/h"])
        .path == "/h/y")
    let relative = try LibraryLocation.resolve(explicit: "some/lib", environment: environment)
    #expect(relative.path == FileManager.default.currentDirectoryPath + "/some/lib")
    #expect(
      try LibraryLocation.resolve(explicit: "/a/b/../c/./d", environment: environment).path == "/a/c/d")
  }
}
