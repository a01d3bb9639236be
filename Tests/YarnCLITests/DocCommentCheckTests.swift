import Foundation
import Testing

/// scripts/check-doc-comments.py, the check `scripts/docs.sh` (and so CI) runs on the API's
/// symbol graph: which public symbols it refuses, with which file:line, and which it lets be.
/// The graph here is written by hand in the symbol graph format swift-symbolgraph-extract
/// writes (0-based source lines; the report gives 1-based ones, as editors do).
@Suite struct DocCommentCheckTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  static let python: String? = {
    for path in ["/usr/bin/python3", "/usr/local/bin/python3", "/opt/homebrew/bin/python3"]
    where FileManager.default.isExecutableFile(atPath: path) {
      return path
    }
    return nil
  }()

  /// A symbol of the graph: `comment` nil is no doc comment, `line` nil is no location.
  private func symbol(
    _ path: [String], kind: String = "swift.func", id: String? = nil, comment: [String]? = nil,
    module: String = "YarnModel", file: String = "Sources/YarnModel/A.swift", line: Int? = 9,
    declaration: [[String: String]] = []
  ) -> [String: Any] {
    var out: [String: Any] = [
      "kind": ["identifier": kind, "displayName": kind == "swift.struct" ? "Structure" : "Function"],
      "identifier": ["precise": id ?? "s:" + path.joined(separator: "."), "interfaceLanguage": "swift"],
      "pathComponents": path,
      "names": ["title": path.last ?? ""],
      "accessLevel": "public",
      "declarationFragments": declaration,
    ]
    if let comment {
      out["docComment"] = ["module": module, "lines": comment.map { ["text": $0] }]
    }
    if let line {
      out["location"] = [
        "uri": "file://" + file, "position": ["line": line, "character": 2],
      ]
    }
    return out
  }

  private static func keyword(_ word: String) -> [String: String] { ["kind": "keyword", "spelling": word] }
  private static func text(_ text: String) -> [String: String] { ["kind": "text", "spelling": text] }

  /// Runs the check on `symbols` (their files under DIR/Sources) in DIR; gives its exit
  /// status, its standard error and the graph as it rewrote it.
  private func check(_ symbols: (URL) -> [[String: Any]]) throws -> (
    status: Int32, errors: String, graph: [String: Any]
  ) {
    let python = try #require(Self.python)
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("doc-check-\(UUID().uuidString)").resolvingSymlinksInPath()
    defer { try? FileManager.default.removeItem(at: directory) }
    let graphs = directory.appendingPathComponent("graphs")
    try FileManager.default.createDirectory(at: graphs, withIntermediateDirectories: true)
    let graph: [String: Any] = [
      "metadata": ["formatVersion": ["major": 0, "minor": 6, "patch": 0]],
      "module": ["name": "YarnCore"],
      "symbols": symbols(directory),
      "relationships": [],
    ]
    let file = graphs.appendingPathComponent("YarnCore.symbols.json")
    try JSONSerialization.data(withJSONObject: graph).write(to: file)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [
      Self.root.appendingPathComponent("scripts/check-doc-comments.py").path, graphs.path, "Sources",
    ]
    process.currentDirectoryURL = directory
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = Pipe()
    try process.run()
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let rewritten = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
    return (process.terminationStatus, text, try #require(rewritten))
  }

  @Test(.enabled(if: python != nil, "python3 is not installed"))
  func refusesEachPublicSymbolWithoutADocCommentNamingItsFileAndLine() throws {
    let result = try check { directory in
      let file = directory.appendingPathComponent("Sources/YarnModel/A.swift").path
      return [
        symbol(["Fine"], kind: "swift.struct", comment: ["A thing."], file: file, line: 3),
        symbol(["Bare"], kind: "swift.struct", file: file, line: 11),
        symbol(["Fine", "blank()"], comment: ["", "  "], file: file, line: 20),
        symbol(["Fine", "fieldsOnly(x:)"], comment: ["- Parameter x: the x."], file: file, line: 30),
        symbol(
          ["Fine", "load()"], comment: ["Loads it.", "- Returns: it."], file: file, line: 40,
          declaration: [Self.text("func load() "), Self.keyword("throws")]),
        symbol(
          ["Fine", "save()"], comment: ["Saves it.", "", "- Throws: `StoreError.busy`."],
          file: file, line: 50, declaration: [Self.text("func save() "), Self.keyword("throws")]),
        symbol(
          ["Fine", "each(_:)"], comment: ["Hands each to `body`."], file: file, line: 60,
          declaration: [
            Self.text("func each(_ body: () "), Self.keyword("throws"), Self.text(" -> Void)"),
          ]),
      ]
    }
    #expect(result.status == 1)
    let lines = result.errors.split(separator: "\n").map(String.init)
    #expect(
      lines == [
        "error: Sources/YarnModel/A.swift:12: structure Bare has no doc comment",
        "error: Sources/YarnModel/A.swift:21: function Fine.blank() has no doc comment",
        "error: Sources/YarnModel/A.swift:31: function Fine.fieldsOnly(x:) has no doc comment",
        "error: Sources/YarnModel/A.swift:41: function Fine.load() throws, but its doc comment "
          + "has no `- Throws:` (which errors, and when)",
        "check-doc-comments: 4 of 7 public symbols lack a doc comment or its `- Throws:` (say "
          + "what it is, its shape and units, what it throws and when)",
      ])
  }

  @Test(.enabled(if: python != nil, "python3 is not installed"))
  func letsBeWhatNoSourceLineCanDocumentAndMarksReexportedCommentsAsYarnCores() throws {
    let result = try check { directory in
      let file = directory.appendingPathComponent("Sources/YarnStore/B.swift").path
      return [
        // Codable's init(from:): written by the compiler, no location.
        symbol(["Fine", "init(from:)"], kind: "swift.init", line: nil),
        // A protocol's default implementation, as the type gets it.
        symbol(["Fine", "!=(_:_:)"], id: "s:SQsE2neoiySbx_xtFZ::SYNTHESIZED::s:4Fine", file: file),
        // An extension block of another module's type.
        symbol(["Array"], kind: "swift.extension", file: file),
        // Outside Sources.
        symbol(["Other"], file: directory.appendingPathComponent("Elsewhere/C.swift").path),
        symbol(["Fine"], kind: "swift.struct", comment: ["A thing."], module: "YarnStore", file: file),
      ]
    }
    #expect(result.status == 0)
    #expect(result.errors == "")
    let symbols = try #require(result.graph["symbols"] as? [[String: Any]])
    let fine = try #require(symbols.last?["docComment"] as? [String: Any])
    // DocC checks a comment's parameters and links only when it is the documented module's.
    #expect(fine["module"] as? String == "YarnCore")
  }
}
