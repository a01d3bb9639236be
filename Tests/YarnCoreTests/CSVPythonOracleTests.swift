import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

/// Our writer and reader against an independent implementation: CPython's `csv` module
/// (`csv.reader`, and `csv.writer` with line terminator `\r\n`), run as a separate process.
@Suite struct CSVPythonOracleTests {
  /// Values that break naive CSV code, each in a field of its own and in company.
  static let tricky: [[String]] = [
    ["quote \" inside", "comma, inside", "cr\rinside", "lf\ninside", "crlf\r\ninside"],
    ["=SUM(A1)", "+1", "-2", "@me", "\tTAB", "\rCR", "\nLF"],
    ["  lead and trail  ", " ", "'apostrophe", "'=x", "''+y, z", "'+safe"],
    ["emoji 🧶🧵", "e\u{301}", "\"\u{301}", ",\u{301}", "\r\n\u{301}", "日本語"],
    ["", "", ""],
    [""],
    ["a;b", "tab\there", "\"\"", "\"", "end"],
  ]

  static let python: String? = {
    for path in ["/usr/bin/python3", "/usr/local/bin/python3", "/opt/homebrew/bin/python3"]
    where FileManager.default.isExecutableFile(atPath: path) {
      return path
    }
    return nil
  }()

  /// Runs `script` with `arguments` under python3; returns standard output.
  func runPython(_ script: String, _ arguments: [String], in directory: URL) throws -> Data {
    let python = try #require(Self.python)
    let scriptURL = directory.appendingPathComponent("oracle.py")
    try Data(script.utf8).write(to: scriptURL)
    let outURL = directory.appendingPathComponent("oracle.out")
    FileManager.default.createFile(atPath: outURL.path, contents: nil)
    let out = try FileHandle(forWritingTo: outURL)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [scriptURL.path] + arguments
    process.standardOutput = out
    try process.run()
    process.waitUntilExit()
    try out.close()
    #expect(process.terminationStatus == 0)
    return try Data(contentsOf: outURL)
  }

  static let readScript = """
    import csv, json, sys
    with open(sys.argv[1], newline='', encoding='utf-8') as f:
        rows = list(csv.reader(f))
    sys.stdout.write(json.dumps(rows))
    """

  static let writeScript = """
    import csv, json, sys
    rows = json.load(open(sys.argv[1], encoding='utf-8'))
    with open(sys.argv[2], 'w', newline='', encoding='utf-8') as f:
        csv.writer(f, lineterminator='\\r\\n').writerows(rows)
    """

  @Test(.enabled(if: python != nil, "python3 is not installed: the oracle cannot run"))
  func pythonReadsWhatWeWriteAndWeReadWhatPythonWrites() throws {
    let directory = try Fixtures.temporaryDirectory()
    defer { Fixtures.cleanUp(directory) }
    // Ours, unguarded: Python reads back exactly the values.
    let plain = CSVWriter.encode(
      Self.tricky.map { $0.map(CSVField.text) }, options: CSVOptions(formulaGuard: false))
    let plainURL = directory.appendingPathComponent("plain.csv")
    try Data(plain).write(to: plainURL)
    let read = try JSONSerialization.jsonObject(
      with: try runPython(Self.readScript, [plainURL.path], in: directory))
    #expect(read as? [[String]] == Self.tricky)
    #expect(try CSVReader.records(in: Data(plain)).map(\.fields) == Self.tricky)

    // Python's writer gives the same bytes as ours for the same rows.
    let jsonURL = directory.appendingPathComponent("rows.json")
    try JSONSerialization.data(withJSONObject: Self.tricky).write(to: jsonURL)
    let pythonURL = directory.appendingPathComponent("python.csv")
    _ = try runPython(Self.writeScript, [jsonURL.path, pythonURL.path], in: directory)
    let pythonBytes = try Data(contentsOf: pythonURL)
    #expect(Array(pythonBytes) == plain)
    #expect(try CSVReader.records(in: pythonBytes).map(\.fields) == Self.tricky)

    // Guarded: Python sees the apostrophes the guard added, and nothing else changes.
    let guarded = CSVWriter.encode(Self.tricky.map { $0.map(CSVField.text) })
    let guardedURL = directory.appendingPathComponent("guarded.csv")
    try Data(guarded).write(to: guardedURL)
    let guardedRead = try JSONSerialization.jsonObject(
      with: try runPython(Self.readScript, [guardedURL.path], in: directory))
    let expected = Self.tricky.map { row in
      row.map { value -> String in
        // By hand: = + - @ TAB CR LF first, or a quoted cell of apostrophes then one of those.
        let formula: Set<Character> = ["=", "+", "-", "@", "\t", "\r", "\n", "\r\n"]
        if let first = value.unicodeScalars.first, formula.contains(Character(first)) { return "'" + value }
        if ["'=x", "''+y, z"].contains(value) && value.contains(",") { return "'" + value }
        return value
      }
    }
    #expect(guardedRead as? [[String]] == expected)
  }
}
