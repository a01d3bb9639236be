import Foundation
import Testing

/// README's "Using YarnCore from Swift" and the API reference's overview show
/// `Examples/StashReport/main.swift` (built as `stash-report`, so it compiles as written), and
/// it runs.
@Suite struct ExampleTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// Runs the built `stash-report` with `arguments`.
  private func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
    let executable = try #require(YarnRunner.executable).deletingLastPathComponent()
      .appendingPathComponent("stash-report")
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  /// The first Swift code block after `heading` in the file at `path` (from the package root).
  private func firstSwiftBlock(in path: String, after heading: String) throws -> String {
    let text = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    let section = try #require(text.range(of: heading))
    let rest = text[section.upperBound...]
    let start = try #require(rest.range(of: "```swift\n"))
    let end = try #require(rest[start.upperBound...].range(of: "```\n"))
    return String(rest[start.upperBound..<end.lowerBound])
  }

  private var program: String {
    get throws {
      try String(
        contentsOf: Self.root.appendingPathComponent("Examples/StashReport/main.swift"), encoding: .utf8)
    }
  }

  @Test func theREADMEShowsTheExampleProgramAsItIs() throws {
    let shown = try firstSwiftBlock(in: "README.md", after: "## Using YarnCore from Swift")
    #expect(shown == (try program))
  }

  /// The API reference's overview (scripts/docs.sh builds it) shows the same program.
  @Test func theReferenceOverviewShowsTheExampleProgramAsItIs() throws {
    let shown = try firstSwiftBlock(
      in: "Sources/YarnCore/YarnCore.docc/YarnCore.md", after: "## Overview")
    #expect(shown == (try program))
  }

  @Test func theExampleRunsOnAnEmptyLibraryAndOnTheSample() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let empty = try run([yarn.library.path])
    #expect(empty.status == 0)
    #expect(empty.output == "0 yarns, 0 projects\n")

    try yarn.ok(["backup", "restore", Self.root.appendingPathComponent("samples/demo").path])
    let sample = try run([yarn.library.path])
    #expect(sample.status == 0)
    let stash = try #require(try yarn.ok(["stash", "list", "--json"]).json() as? [Any])
    let projects = try #require(try yarn.ok(["project", "list", "--json"]).json() as? [Any])
    #expect(sample.output.hasSuffix("\(stash.count) yarns, \(projects.count) projects\n"))
    // One line per yarn, then the conversion line (or its reason), then the counts.
    #expect(sample.output.split(separator: "\n").count == stash.count + 2)
  }
}
