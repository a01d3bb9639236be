import Foundation
import Testing
import YarnCore

/// `-` for standard input (stash import, backup verify and restore, note add and edit), and
/// the progress bar kept off standard error when it is not a terminal, through the built
/// binary.
@Suite struct StandardInputCLITests {
  static let sample = BackupCLITests.sample

  /// A runner, its temporary directory for `TMPDIR` (where standard input is spooled), and a
  /// backup zip of the sample library at `backup.zip`.
  static func withBackup(_ body: (YarnRunner, [String: String], URL) throws -> Void) throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let temporary = yarn.directory.appendingPathComponent("tmp", isDirectory: true)
    try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    let source = yarn.directory.appendingPathComponent("source").path
    let zip = yarn.directory.appendingPathComponent("backup.zip")
    try yarn.ok(["--library", source, "backup", "restore", sample.path])
    try yarn.ok(["--library", source, "backup", "create", zip.path])
    try body(yarn, ["TMPDIR": temporary.path], zip)
  }

  /// The files left in the spool directory.
  static func leftovers(_ environment: [String: String]) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: environment["TMPDIR", default: ""])
  }

  @Test func verifyFromStandardInputNamesItAndLeavesNoTemporaryFile() throws {
    try Self.withBackup { yarn, env, zip in
      let result = try yarn.run(["backup", "verify", "-"], environment: env, stdin: Data(contentsOf: zip))
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stdout.hasPrefix("standard input: a good backup (format 1"))
      // The counts of samples/demo/manifest.json.
      #expect(result.stdout.contains("15 yarns"))
      // Not a terminal: no progress bar.
      #expect(result.stderr.isEmpty)
      #expect(try Self.leftovers(env).isEmpty)
    }
  }

  @Test func aBadArchiveOnStandardInputIsRefusedByThatNameAndRemoved() throws {
    try Self.withBackup { yarn, env, zip in
      var bytes = try Data(contentsOf: zip)
      bytes = bytes.prefix(bytes.count / 2)
      for command in [["backup", "verify", "-"], ["backup", "restore", "-"]] {
        let result = try yarn.run(command, environment: env, stdin: bytes)
        #expect(result.status == 65, "\(command): \(result.stderr)")
        #expect(result.stderr.contains("standard input"), "\(result.stderr)")
        #expect(!result.stderr.contains("yarn-stdin-"), "\(result.stderr)")
        #expect(try Self.leftovers(env).isEmpty)
      }
      #expect(!FileManager.default.fileExists(atPath: yarn.library.path))
    }
  }

  /// A closed standard input (`<&-`) is refused as closed, by every `-` alike: it hung,
  /// reading the descriptor the runtime had opened in its place; then it read as empty, and a
  /// note's text as blank (QA: 65).
  @Test func aClosedStandardInputIsRefusedAtOnce() throws {
    try Self.withBackup { yarn, env, zip in
      guard let executable = YarnRunner.executable else { return }
      for command in [
        "stash import -", "backup verify -", "backup restore -", "weft import -", "note add --yarn Rios -",
        "note edit 1234 -",
      ] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
          "-c", "exec timeout 20 '\(executable.path)' --library '\(yarn.library.path)' \(command) <&-",
        ]
        process.environment = env.merging(ProcessInfo.processInfo.environment) { mine, _ in mine }
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 66, "\(command): \(text)")
        #expect(text.hasPrefix("error: cannot read 'standard input': it is closed\n"), "\(command): \(text)")
        // QA: the hint was `pipe the input in (COMMAND - < FILE)`, for a note's text too.
        let words = command.split(separator: " ")
        let hint =
          words[0] == "note"
          ? "give the note's text on standard input, or as words in place of '-'"
          : "give the file on standard input (as in '\(yarn.command("\(words[0]) \(words[1]) - < FILE"))'), or name it in place of '-'"
        #expect(text.hasSuffix("\nhint: \(hint)\n"), "\(command): \(text)")
      }
      #expect(try Self.leftovers(env).isEmpty)
    }
  }

  @Test func emptyStandardInputIsRefused() throws {
    try Self.withBackup { yarn, env, _ in
      for command in [["backup", "verify", "-"], ["backup", "restore", "-"], ["stash", "import", "-"]] {
        let result = try yarn.run(command, environment: env, stdin: Data())
        #expect(result.status == 66, "\(command): \(result.stderr)")
        #expect(result.stderr.contains("error: cannot read 'standard input': it is empty"))
        // QA: it said `pipe the input in (COMMAND - < FILE)` to input that was a pipe.
        #expect(
          result.stderr.hasSuffix(
            "\nhint: give the file on standard input (as in '\(yarn.command("\(command[0]) \(command[1]) - < FILE"))'), or name it in place of '-'\n"
          ), "\(command): \(result.stderr)")
        #expect(try Self.leftovers(env).isEmpty)
      }
      #expect(!FileManager.default.fileExists(atPath: yarn.library.path))
    }
  }

  @Test func restoreFromStandardInputEqualsRestoreFromTheFile() throws {
    try Self.withBackup { yarn, env, zip in
      let viaFile = yarn.directory.appendingPathComponent("via-file")
      try yarn.ok(["--library", viaFile.path, "backup", "restore", zip.path])
      let result = try yarn.run(["backup", "restore", "-"], environment: env, stdin: Data(contentsOf: zip))
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stderr.contains("\nrestored 15 yarns"))
      #expect(try BackupCLITests.state(of: yarn.library) == BackupCLITests.state(of: viaFile))
      #expect(try Self.leftovers(env).isEmpty)
      // A merge of the same backup from standard input adds nothing, and names it.
      let merge = try yarn.run(
        ["backup", "restore", "-", "--merge"], environment: env, stdin: Data(contentsOf: zip))
      #expect(merge.status == 0, "\(merge.stderr)")
      #expect(merge.stderr.hasPrefix("merged standard input into "))
      #expect(merge.stderr.contains("added 0 yarns"))
      #expect(try Self.leftovers(env).isEmpty)
    }
  }

  @Test func stashImportFromStandardInputEqualsImportFromTheFile() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let csv = Data(
      """
      Name,Brand,Colorway,Quantity,Quantity Unit
      Rios,Malabrigo,Teal Feather,2,skeins
      Arroyo,Malabrigo,,3,skeins

      """.utf8)
    let file = try yarn.file("stash.csv", csv)
    let viaFile = yarn.directory.appendingPathComponent("via-file")
    let fromFile = try yarn.run(["--library", viaFile.path, "stash", "import", file.path])
    #expect(fromFile.status == 0, "\(fromFile.stderr)")
    let fromStdin = try yarn.run(["stash", "import", "-"], stdin: csv)
    #expect(fromStdin.status == 0, "\(fromStdin.stderr)")
    #expect(
      fromStdin.stderr
        == "created a new library at \(yarn.library.path)\nimported standard input: 2 yarns added, 0 updated, 0 unchanged\n"
    )
    let listFile = try yarn.ok(["--library", viaFile.path, "stash", "list", "--json"])
    let listStdin = try yarn.ok(["stash", "list", "--json"])
    // The IDs differ (new yarns); names, colorways and quantities do not.
    func shape(_ json: String) throws -> [String] {
      let items = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [[String: Any]]
      return try items.map { item in
        let quantity = try JSONSerialization.data(
          withJSONObject: item["quantity"] ?? NSNull(), options: [.sortedKeys, .fragmentsAllowed])
        return "\(item["name"] ?? "") \(item["colorway"] ?? "-") " + String(decoding: quantity, as: UTF8.self)
      }.sorted()
    }
    #expect(try shape(listFile.stdout) == shape(listStdin.stdout))
    #expect(try shape(listStdin.stdout).count == 2)
  }

  @Test func stashImportErrorsNameStandardInput() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let result = try yarn.run(["stash", "import", "-"], stdin: Data("Name,Quantity\n\"Rios,2\n".utf8))
    #expect(result.status == 65)
    #expect(
      result.stderr.hasPrefix(
        "error: standard input: line 2, column 1: a quoted field is never closed; nothing was imported"))
    let bad = try yarn.run(["stash", "import", "-"], stdin: Data("Name,Quantity\n,2\n".utf8))
    #expect(bad.status == 65)
    #expect(bad.stderr.contains("standard input: 1 bad row"), "\(bad.stderr)")
    #expect(!FileManager.default.fileExists(atPath: yarn.library.path))
  }

  @Test func noteTextFromStandardInput() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios", "--quantity", "2 skeins"])
    let added = try yarn.run(
      ["note", "add", "--yarn", "Rios", "-", "--json"], stdin: Data("Swatch: 20 sts\r\nblocked\n".utf8))
    #expect(added.status == 0, "\(added.stderr)")
    let note = try added.json() as! [String: Any]
    // One trailing line break is dropped; the one inside is kept.
    #expect(note["text"] as? String == "Swatch: 20 sts\r\nblocked")
    let id = note["id"] as! String
    let edited = try yarn.run(["note", "edit", id, "-", "--json"], stdin: Data("Gauge\n\n".utf8))
    #expect(edited.status == 0, "\(edited.stderr)")
    #expect((try edited.json() as! [String: Any])["text"] as? String == "Gauge\n")

    let invalid = try yarn.run(["note", "add", "--yarn", "Rios", "-"], stdin: Data([0x47, 0xFF, 0x0A]))
    #expect(invalid.status == 65)
    #expect(invalid.stderr.hasPrefix("error: standard input: the note's text is not UTF-8\n"))
    let blank = try yarn.run(["note", "add", "--yarn", "Rios", "-"], stdin: Data(" \n".utf8))
    #expect(blank.status == 65)
    #expect(blank.stderr.hasPrefix("error: standard input: the note's text is blank\n"))
    // Rules.maximumNoteLength is 100,000 characters.
    let long = try yarn.run(
      ["note", "add", "--yarn", "Rios", "-"],
      stdin: Data((String(repeating: "é", count: 100_001) + "\n").utf8))
    #expect(long.status == 65)
    #expect(
      long.stderr.hasPrefix(
        "error: standard input: the note's text is 100001 characters long; the limit is 100000\n"))
    let empty = try yarn.run(["note", "add", "--yarn", "Rios", "-"], stdin: Data())
    #expect(empty.status == 65)
    // An empty standard input is blank text for edit too: 65, as docs/CLI.md says for both
    // (QA: its exit-status table read as 66), and the note keeps its text.
    let emptyEdit = try yarn.run(["note", "edit", id, "-"], stdin: Data())
    #expect(emptyEdit.status == 65)
    #expect(
      emptyEdit.stderr.hasPrefix("error: standard input: the note's text is blank\n"), "\(emptyEdit.stderr)")
    let kept = try yarn.ok(["note", "show", id, "--json"]).json() as? [String: Any]
    #expect(kept?["text"] as? String == "Gauge\n")
    let notes = try yarn.ok(["note", "list", "--json"]).json() as! [[String: Any]]
    #expect(notes.count == 1)
  }

  @Test func progressIsNotDrawnWhenStandardErrorIsNotATerminal() throws {
    try Self.withBackup { yarn, env, zip in
      let restore = try yarn.run(["backup", "restore", zip.path], environment: env)
      #expect(restore.status == 0)
      #expect(!restore.stderr.contains("\r"))
      #expect(!restore.stderr.contains("restoring ["))
      let verify = try yarn.run(["backup", "verify", zip.path], environment: env)
      #expect(verify.stderr.isEmpty)
      let csv = try yarn.file("s.csv", Data("Name,Quantity\nRios,2 skeins\n".utf8))
      let imported = try yarn.run(["stash", "import", csv.path], environment: env)
      #expect(imported.status == 0, "\(imported.stderr)")
      #expect(!imported.stderr.contains("\r"))
    }
  }
}

extension StandardInputCLITests {
  @Test func ctrlCWhileStandardInputIsSpooledRemovesTheTemporaryFile() throws {
    try Self.withBackup { yarn, env, zip in
      guard let executable = YarnRunner.executable else { throw YarnRunner.RunnerError.noExecutable }
      let process = Process()
      process.executableURL = executable
      process.arguments = ["--library", yarn.library.path, "backup", "restore", "-"]
      process.currentDirectoryURL = yarn.directory
      process.environment = [
        "HOME": yarn.directory.path, "TZ": "UTC", "LANG": "C.UTF-8", "TMPDIR": env["TMPDIR"]!,
      ]
      let input = Pipe()
      process.standardInput = input
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      // Half the backup, and the pipe left open: the spool waits for the rest.
      let bytes = try Data(contentsOf: zip)
      try input.fileHandleForWriting.write(contentsOf: bytes.prefix(bytes.count / 2))
      var spooled: [String] = []
      for _ in 0..<200 where spooled.isEmpty {
        spooled = try Self.leftovers(env)
        if spooled.isEmpty { usleep(20_000) }
      }
      #expect(spooled.count == 1 && spooled[0].hasPrefix("yarn-stdin-"))
      usleep(100_000)
      process.interrupt()
      process.waitUntilExit()
      try? input.fileHandleForWriting.close()
      #expect(process.terminationStatus == 130)
      #expect(try Self.leftovers(env).isEmpty)
      #expect(!FileManager.default.fileExists(atPath: yarn.library.path))
    }
  }
}

extension StandardInputCLITests {
  @Test func weftImportReadsOneDocumentFromStandardInput() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let files = WEFTCLITests.examples("ravelry")
    let stash = try Data(contentsOf: URL(fileURLWithPath: files[0]))
    let viaFile = yarn.directory.appendingPathComponent("via-file")
    let fromFile = try yarn.run(["--library", viaFile.path, "weft", "import"] + files)
    #expect(fromFile.status == 0, "\(fromFile.stderr)")
    // The stash from standard input, the project and progress from their files.
    let fromStdin = try yarn.run(["weft", "import", "-"] + files.dropFirst(), stdin: stash)
    #expect(fromStdin.status == 0, "\(fromStdin.stderr)")
    #expect(
      fromStdin.stderr.contains("imported: 1 yarn added, 0 updated, 0 unchanged; 1 project added"))
    #expect(fromStdin.stderr.contains("standard input: not kept (yarn has no place for them): care"))
    #expect(!fromStdin.stderr.contains("\r"))
    let shown = try yarn.ok(["stash", "show", "98765", "--json"])
    let object = try #require(try shown.json() as? [String: Any])
    #expect(object["dyeLot"] as? String == "B1234")
    // The same yarn as from the file.
    let fileShown = try yarn.ok(["--library", viaFile.path, "stash", "show", "98765", "--json"])
    // But for its notes' IDs and instants.
    func withoutNotes(_ json: String) throws -> Data {
      var object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
      #expect(
        (object["notes"] as? [[String: Any]])?.map { $0["text"] as? String } == ["Enough for a sweater."])
      object["notes"] = nil
      return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }
    #expect(try withoutNotes(shown.stdout) == withoutNotes(fileShown.stdout))

    let twice = try yarn.run(["weft", "import", "-", "-"], stdin: stash)
    #expect(twice.status == 64)
    #expect(twice.stderr.contains("standard input can be read once"))
    let empty = try yarn.run(["weft", "import", "-"], stdin: Data())
    #expect(empty.status == 66)
  }
}
