import Foundation
import Testing
import YarnCore

@testable import YarnStore

/// Runs the built `yarn` executable in a fresh temporary directory, for end-to-end tests.
///
/// Every test makes its own `YarnRunner` (its own directory and library) and calls `cleanUp()`
/// at the end; `HOME` and the XDG variables point into the directory so that nothing outside
/// it is touched.
struct YarnRunner {
  /// The result of one run.
  struct Result {
    let status: Int32
    let stdout: String
    let stderr: String

    /// The standard output parsed as JSON.
    func json() throws -> Any {
      try JSONSerialization.jsonObject(with: Data(stdout.utf8), options: [.fragmentsAllowed])
    }
  }

  /// The temporary directory, also the working directory of every run.
  let directory: URL
  /// The library directory passed with `--library` (not created by the runner).
  let library: URL

  init() throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("yarn-cli-tests-" + UUID().uuidString, isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    library = directory.appendingPathComponent("library", isDirectory: true)
  }

  func cleanUp() {
    try? FileManager.default.removeItem(at: directory)
  }

  /// The `yarn` executable built next to the test bundle.
  static let executable: URL? = {
    #if os(macOS)
      for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
        return bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("yarn")
      }
      return nil
    #else
      // On Linux the test runner is `<products>/<package>PackageTests.xctest`, an executable.
      let candidates = [
        Bundle.main.bundleURL,
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
      ]
      for directory in candidates {
        let url = directory.appendingPathComponent("yarn")
        if FileManager.default.isExecutableFile(atPath: url.path) { return url }
      }
      return nil
    #endif
  }()

  /// Runs `yarn --library <library> arguments…` and waits for it.
  ///
  /// - Parameters:
  ///   - useLibrary: pass `--library`; when false the library comes from the environment.
  ///   - environment: variables added to the run's environment.
  ///   - stdin: the bytes of its standard input (a file in the directory, removed after the
  ///     run); `/dev/null` when `nil`.
  @discardableResult
  func run(
    _ arguments: [String], useLibrary: Bool = true, environment: [String: String] = [:],
    stdin: Data? = nil
  ) throws -> Result {
    guard let executable = YarnRunner.executable else {
      throw RunnerError.noExecutable
    }
    let process = Process()
    process.executableURL = executable
    process.arguments = (useLibrary ? ["--library", library.path] : []) + arguments
    process.currentDirectoryURL = directory
    var env = [
      "HOME": directory.path, "TZ": "UTC", "LANG": "C.UTF-8",
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
    ]
    env.merge(environment) { _, new in new }
    process.environment = env
    let id = UUID().uuidString
    let outURL = directory.appendingPathComponent(".out-\(id)")
    let errURL = directory.appendingPathComponent(".err-\(id)")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let out = try FileHandle(forWritingTo: outURL)
    let err = try FileHandle(forWritingTo: errURL)
    process.standardOutput = out
    process.standardError = err
    var input: FileHandle?
    let inURL = directory.appendingPathComponent(".in-\(id)")
    if let stdin {
      try stdin.write(to: inURL)
      input = try FileHandle(forReadingFrom: inURL)
    }
    process.standardInput = input ?? FileHandle.nullDevice
    defer {
      try? input?.close()
      try? FileManager.default.removeItem(at: inURL)
    }
    try process.run()
    process.waitUntilExit()
    try out.close()
    try err.close()
    let stdout = try String(contentsOf: outURL, encoding: .utf8)
    let stderr = try String(contentsOf: errURL, encoding: .utf8)
    try? FileManager.default.removeItem(at: outURL)
    try? FileManager.default.removeItem(at: errURL)
    return Result(status: process.terminationStatus, stdout: stdout, stderr: stderr)
  }

  /// `yarn --library <library> words`: a command as a hint or message shows it, with the
  /// `--library` every run gives (the runner's path needs no quotes).
  func command(_ words: String) -> String { "yarn --library \(library.path) \(words)" }

  /// Runs and records an issue unless the exit status is 0.
  @discardableResult
  func ok(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> Result {
    let result = try run(arguments)
    #expect(
      result.status == 0, "yarn \(arguments.joined(separator: " ")) failed: \(result.stderr)",
      sourceLocation: sourceLocation)
    return result
  }

  /// Starts every command line at once (real processes, on this runner's library, `TZ` set
  /// to `timeZone`), then waits for all of them: their exit statuses and standard errors.
  func runAtOnce(_ lines: [[String]], timeZone: String = "UTC") throws -> [(status: Int32, stderr: String)] {
    let executable = try #require(YarnRunner.executable)
    var running: [(Process, URL)] = []
    for (index, arguments) in lines.enumerated() {
      let process = Process()
      process.executableURL = executable
      process.arguments = ["--library", library.path] + arguments
      process.environment = ["HOME": directory.path, "TZ": timeZone, "LANG": "C.UTF-8"]
      let errURL = directory.appendingPathComponent(".concurrent-\(index)")
      _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
      process.standardError = try FileHandle(forWritingTo: errURL)
      process.standardOutput = FileHandle.nullDevice
      process.standardInput = FileHandle.nullDevice
      running.append((process, errURL))
    }
    for (process, _) in running { try process.run() }
    return try running.map { process, errURL in
      process.waitUntilExit()
      return (process.terminationStatus, try String(contentsOf: errURL, encoding: .utf8))
    }
  }

  /// A file in the directory with `contents`.
  /// `text` behind the first bytes of a JPEG file (`FF D8 FF E0`: the SOI marker and an APP0
  /// marker, ITU-T T.81): a photo `attach` takes as a `.jpg`, with bytes a test knows.
  static func jpeg(_ text: String) -> Data { Data([0xFF, 0xD8, 0xFF, 0xE0] + Array(text.utf8)) }

  func file(_ name: String, _ contents: Data) throws -> URL {
    let url = directory.appendingPathComponent(name)
    try contents.write(to: url)
    return url
  }

  /// What the library holds, to compare before and after: the whole `Library` document as
  /// JSON, and every file outside the database with its bytes. SQLite's own files are left
  /// out: its write-ahead log and shared-memory index change on a rolled-back transaction
  /// too, while the data does not.
  func librarySnapshot() throws -> [String: Data] {
    var out: [String: Data] = [:]
    if FileManager.default.fileExists(atPath: library.appendingPathComponent("library.sqlite").path) {
      let store = try LibraryStore(directory: library, mode: .readOnly)
      defer { try? store.close() }
      out["library.json"] = try JSONCoding.encoder().encode(try store.read { try store.library() })
    }
    guard let enumerator = FileManager.default.enumerator(at: library, includingPropertiesForKeys: nil)
    else { return out }
    for case let url as URL in enumerator {
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
        !isDirectory.boolValue, !url.lastPathComponent.hasPrefix("library.sqlite")
      {
        out[url.path] = try Data(contentsOf: url)
      }
    }
    return out
  }

  enum RunnerError: Error {
    case noExecutable
  }
}

extension YarnRunner {
  /// Stores `yarn` in the runner's library with its name and colorway as they are, past the
  /// store's rules (`Rules`): as a library changed outside yarn (with `sqlite3`) may hold
  /// them, for tests of how such values are shown.
  func storeBreakingTheRules(_ yarn: Yarn) throws {
    let store = try LibraryStore(directory: library, mode: .readWrite)
    defer { try? store.close() }
    var valid = yarn
    valid.name = "placeholder"
    valid.colorway = nil
    try store.insert(valid)
    try store.connection.run(
      "UPDATE yarn SET name = ?, colorway = ? WHERE id = ?",
      [.text(yarn.name), .text(yarn.colorway), .text(yarn.id)])
  }

  /// Runs `sql` on the library past the store's rules, as the sqlite3 shell would.
  func runSQL(_ sql: String) throws {
    let store = try LibraryStore(directory: library, mode: .readWrite)
    defer { try? store.close() }
    try store.connection.run(sql, [])
  }

  /// Gives the item of `table` named `name` (the only row, when `nil`) the ID `id`, past the
  /// store's rules: as an older yarn, which accepted blank IDs, may have restored it.
  func setID(of table: String, named name: String? = nil, to id: String) throws {
    let store = try LibraryStore(directory: library, mode: .readWrite)
    defer { try? store.close() }
    if let name {
      try store.connection.run("UPDATE \(table) SET id = ? WHERE name = ?", [.text(id), .text(name)])
    } else {
      try store.connection.run("UPDATE \(table) SET id = ?", [.text(id)])
    }
  }
}
