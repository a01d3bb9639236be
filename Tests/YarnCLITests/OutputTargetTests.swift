import Foundation
import Testing
import YarnCore

/// Where a command's output goes, through the built binary: `-o FILE` is kept unless
/// `--force`, `-` is standard output, an empty name is refused and a device is written in
/// place; a reader of standard output or error that goes away ends the command quietly, and a
/// device that fails is named.
@Suite struct OutputTargetTests {
  /// Runs `yarn --library LIB arguments…` with standard error a pipe whose reader is already
  /// gone, and standard output a file; returns the exit status and what reached stdout.
  private func runWithClosedStandardError(
    _ yarn: YarnRunner, _ arguments: [String], errorsTo device: String? = nil
  ) throws -> (status: Int32, stdout: String) {
    let executable = try #require(YarnRunner.executable)
    let process = Process()
    process.executableURL = executable
    process.arguments = ["--library", yarn.library.path] + arguments
    process.environment = ["HOME": yarn.directory.path, "TZ": "UTC", "LANG": "C.UTF-8"]
    let outURL = yarn.directory.appendingPathComponent("stdout-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    let out = try FileHandle(forWritingTo: outURL)
    let errors = Pipe()
    try errors.fileHandleForReading.close()
    process.standardOutput = out
    if let device {
      process.standardError = try #require(FileHandle(forWritingAtPath: device))
    } else {
      process.standardError = errors
    }
    process.standardInput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    try out.close()
    #expect(process.terminationReason == .exit)
    return (process.terminationStatus, try String(contentsOf: outURL, encoding: .utf8))
  }

  /// `-o -` is standard output; `-o /dev/stdout` on a pipe writes the pipe (no --force: a
  /// device cannot be lost by writing it); `-o ""` is refused as a usage error (64; QA: it
  /// was 73, "cannot create ''", where `--library ""` was 64).
  @Test func dashDevStdoutAndEmptyName() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    _ = try yarn.ok(["stash", "add", "Rios"])
    let dash = try yarn.run(["stash", "export", "-o", "-", "--columns", "Name"])
    #expect(dash.status == 0)
    #expect(dash.stdout == "Name\r\nRios\r\n")
    #expect(dash.stderr == "")
    // Through a real pipe (the runner's standard output is a regular file).
    let executable = try #require(YarnRunner.executable)
    let shell = Process()
    shell.executableURL = URL(fileURLWithPath: "/bin/sh")
    shell.arguments = [
      "-c", "\"$0\" --library \"$1\" stash export -o /dev/stdout --columns Name | cat",
      executable.path, yarn.library.path,
    ]
    let pipe = Pipe()
    shell.standardOutput = pipe
    try shell.run()
    let piped = pipe.fileHandleForReading.readDataToEndOfFile()
    shell.waitUntilExit()
    #expect(shell.terminationStatus == 0)
    #expect(String(decoding: piped, as: UTF8.self) == "Name\r\nRios\r\n")
    let empty = try yarn.run(["stash", "export", "-o", "", "--columns", "Name"])
    #expect(empty.status == 64)
    #expect(empty.stderr.hasPrefix("error: bad value '' for --output: a file name cannot be empty\n"))
  }

  /// `time log --format csv -o FILE` (and `time report`) replaced an existing FILE without a
  /// word — the spreadsheet someone edited was lost — and `-o -` wrote a file named `-`.
  /// They now behave as `stash export -o` does: refused without `--force` (73), `-` is
  /// standard output, an empty name is refused (64).
  @Test func timeCSVOutputKeepsAnExistingFile() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["project", "add", "Flax"])
    try yarn.ok(["time", "add", "Flax", "--from", "2026-01-05 10:00", "--to", "2026-01-05 11:30"])
    let file = try yarn.file("mine.csv", Data("my own sums\n".utf8))
    for command in [["time", "log"], ["time", "report"]] {
      let refused = try yarn.run(command + ["--format", "csv", "-o", file.path])
      #expect(refused.status == 73, "\(command)")
      #expect(
        refused.stderr
          == "error: '\(file.path)' already exists\nhint: give another file name, or --force to replace it\n")
      #expect(try String(contentsOf: file, encoding: .utf8) == "my own sums\n")
      let dash = try yarn.ok(command + ["--format", "csv", "-o", "-"])
      #expect(dash.stdout.hasPrefix(command[1] == "log" ? "Project,Start," : "Project,Seconds,"))
      #expect(!FileManager.default.fileExists(atPath: yarn.directory.appendingPathComponent("-").path))
      let empty = try yarn.run(command + ["--format", "csv", "-o", ""])
      #expect(empty.status == 64)
      #expect(empty.stderr.hasPrefix("error: bad value '' for --output: a file name cannot be empty\n"))
      // --force is a CSV option like the others.
      #expect(try yarn.run(command + ["--force"]).status == 64)
    }
    try yarn.ok(["time", "report", "--format", "csv", "-o", file.path, "--force"])
    #expect(
      try String(contentsOf: file, encoding: .utf8) == "Project,Seconds,Duration\r\nFlax,5400,1:30\r\n")
  }

  /// `backup create -` and `export -` wrote a zip named `-` (where `stash export -o -` means
  /// standard output), and an empty name was taken as the current directory ("… already
  /// exists"); both are refused before anything is written, as usage errors (64).
  @Test func zipOutputNamedDashOrEmptyIsRefused() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios"])
    for command in [["backup", "create"], ["export"]] {
      let dash = try yarn.run(command + ["-"])
      #expect(dash.status == 64, "\(command)")
      #expect(
        dash.stderr.hasPrefix(
          "error: bad value '-' for <file>: a zip is not written to standard output; give a file name (./- for a file named -)\n"
        ))
      #expect(!FileManager.default.fileExists(atPath: yarn.directory.appendingPathComponent("-").path))
      let empty = try yarn.run(command + ["", "--force"])
      #expect(empty.status == 64, "\(command)")
      #expect(empty.stderr.hasPrefix("error: bad value '' for <file>: a file name cannot be empty\n"))
    }
    // A file really named "-" is still possible.
    try yarn.ok(["backup", "create", "./-"])
    #expect(FileManager.default.fileExists(atPath: yarn.directory.appendingPathComponent("-").path))
  }

  /// QA: `-o ""` and `backup create ""` were 73 ("cannot create ''"), reading a file named
  /// `""` was 66 and `weft export ""` wrote into the current directory, while `--library ""`
  /// was 64. An empty (or only spaces) file or folder name, of every option and argument that
  /// takes one, is one usage error naming it, found before the library is read.
  @Test func anEmptyFileOrFolderNameIsAUsageError() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios", "-q"])
    try yarn.ok(["project", "add", "Flax", "-q"])
    let file = "a file name cannot be empty"
    let cases: [([String], String, String)] = [
      (["stash", "import", ""], "<file>", file),
      (["stash", "attach", "Rios", " "], "<file>", file),
      (["project", "attach", "Flax", ""], "<file>", file),
      (["backup", "create", ""], "<file>", file),
      (["backup", "verify", ""], "<backup>", file),
      (["backup", "restore", "", "--merge"], "<backup>", file),
      (["export", ""], "<file>", file),
      (["weft", "import", "-", ""], "<file>", file),
      (["weft", "export", ""], "<dir>", "a directory name cannot be empty"),
      (["stash", "export", "--output", ""], "--output", file),
      (["project", "export", "-o", ""], "--output", file),
      (["time", "report", "--format", "csv", "--output="], "--output", file),
      (["summary", "--card", ""], "--card", file),
      (["--library", "", "stash", "list"], "--library", "a directory name cannot be empty"),
    ]
    for (arguments, name, reason) in cases {
      let result = try yarn.run(arguments)
      #expect(result.status == 64, "\(arguments): \(result.stderr)")
      let value = arguments.contains(" ") ? " " : ""
      #expect(
        result.stderr.hasPrefix("error: bad value '\(value)' for \(name): \(reason)\nusage: "),
        "\(arguments): \(result.stderr)")
    }
    // Nothing was written into the current directory.
    #expect(
      !FileManager.default.fileExists(atPath: yarn.directory.appendingPathComponent("material.weft").path))
    // The last value given is the one read: an empty one before it is no error.
    try yarn.ok(["stash", "export", "-o", "", "-o", "-", "--columns", "Name"])
  }

  /// A zip is built beside its target and renamed over it: with `--force` that replaced a
  /// FIFO or a device (`/dev/full`, for root) with a file. Such a target is refused (73) and
  /// left as it is; so is a directory.
  @Test func aZipDoesNotReplaceAFIFOOrADirectory() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios"])
    let fifo = yarn.directory.appendingPathComponent("pipe").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let folder = yarn.directory.appendingPathComponent("folder").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    for command in [["backup", "create"], ["export"]] {
      // Without --force too: what no zip can replace is said first (QA: "already exists …
      // or --force", which then said this).
      let asked = try yarn.run(command + [fifo])
      #expect(asked.status == 73, "\(command): \(asked.stderr)")
      #expect(asked.stderr.contains("which a zip cannot replace\n"), "\(command): \(asked.stderr)")
      let piped = try yarn.run(command + [fifo, "--force"])
      #expect(piped.status == 73, "\(command): \(piped.stderr)")
      #expect(
        piped.stderr.hasPrefix(
          "error: cannot write \(fifo): it is not a regular file (a device, FIFO or socket), "
            + "which a zip cannot replace\n"), "\(command): \(piped.stderr)")
      var info = stat()
      #expect(stat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "\(command) replaced the FIFO")
      let directory = try yarn.run(command + [folder, "--force"])
      #expect(directory.status == 73, "\(command): \(directory.stderr)")
      #expect(directory.stderr.hasPrefix("error: cannot create '\(folder)': it is a directory\n"))
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [])
    }
  }

  /// A symbolic link given as a zip's target with `--force` is followed, as every output
  /// follows one: the file it points to becomes the zip and the link stays (QA: the link was
  /// replaced, and `/dev/stdout` with it).
  @Test func aZipFollowsASymbolicLink() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios"])
    for command in [["backup", "create"], ["export"]] {
      let target = yarn.directory.appendingPathComponent("target-\(command[0]).zip").path
      let link = yarn.directory.appendingPathComponent("link-\(command[0]).zip").path
      try Data("old".utf8).write(to: URL(fileURLWithPath: target))
      #expect(symlink(target, link) == 0)
      try yarn.ok(command + [link, "--force"])
      #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target, "\(command)")
      let bytes = try Data(contentsOf: URL(fileURLWithPath: target))
      #expect(Array(bytes.prefix(4)) == [0x50, 0x4B, 0x03, 0x04], "\(command): not a zip")  // "PK\3\4"
    }
  }

  /// The system's reasons were printed as the C library writes them ("No such file or
  /// directory"); every message of yarn is lower case.
  @Test func systemReasonsAreLowerCase() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios"])
    let missing = yarn.directory.appendingPathComponent("missing")
    let zip = missing.appendingPathComponent("b.zip").path
    let backup = try yarn.run(["backup", "create", zip])
    #expect(backup.status == 73)
    #expect(backup.stderr == "error: cannot write \(zip): no such file or directory\n")
    let csv = missing.appendingPathComponent("s.csv").path
    let export = try yarn.run(["stash", "export", "-o", csv])
    #expect(export.status == 73)
    #expect(export.stderr == "error: cannot write \(csv): no such file or directory\n")
  }

  @Test func aDeviceThatFailsMidwayIsNamedAndAnIOError() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    _ = try yarn.ok(["stash", "add", "Rios"])
    let full = try yarn.run(["stash", "export", "-o", "/dev/full"])
    #expect(full.status == 74)
    #expect(
      full.stderr.hasPrefix("error: cannot write /dev/full: no space left on device\n"), "\(full.stderr)")
    // A reader that leaves a pipe given by name is a broken pipe like `-o -`'s: quiet, 0.
    // 20,000 yarns' worth of CSV is more than a pipe holds, so the write meets EPIPE.
    let executable = try #require(YarnRunner.executable)
    let many = (0..<2_000).map { "Yarn \($0) with a long enough name to fill the pipe" }
    let csv = yarn.directory.appendingPathComponent("many.csv")
    try ("Name\r\n" + many.joined(separator: "\r\n") + "\r\n").write(
      to: csv, atomically: true, encoding: .utf8)
    _ = try yarn.ok(["stash", "import", csv.path])
    let shell = Process()
    shell.executableURL = URL(fileURLWithPath: "/bin/sh")
    shell.arguments = [
      "-c",
      "\"$0\" --library \"$1\" stash export -o /dev/stdout 2>\"$2\" | head -c 10 >/dev/null; echo $(( $? ))",
      executable.path, yarn.library.path, yarn.directory.appendingPathComponent("err").path,
    ]
    shell.environment = ["TZ": "UTC", "HOME": yarn.directory.path]
    try shell.run()
    shell.waitUntilExit()
    let stderr = try String(contentsOf: yarn.directory.appendingPathComponent("err"), encoding: .utf8)
    #expect(!stderr.contains("error"), "\(stderr)")
  }

  /// `yarn stash list | head -1`: the reader going away ends the command quietly (status 0),
  /// with no error about a broken pipe.
  @Test func brokenPipeIsQuiet() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    // One row longer than the 64 KiB buffer, so that yarn writes while the pipe is closed (a
    // name longer than the rules allow, as a library changed outside yarn may hold).
    try yarn.storeBreakingTheRules(
      Yarn(id: Identifier.make(), name: String(repeating: "long name ", count: 8000)))
    guard let executable = YarnRunner.executable else { throw YarnRunner.RunnerError.noExecutable }
    let process = Process()
    process.executableURL = executable
    process.arguments = ["--library", yarn.library.path, "stash", "list"]
    process.environment = ["HOME": yarn.directory.path, "TZ": "UTC", "LANG": "C.UTF-8"]
    let output = Pipe()
    let errorURL = yarn.directory.appendingPathComponent("stderr")
    _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
    let errors = try FileHandle(forWritingTo: errorURL)
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try output.fileHandleForReading.close()
    try process.run()
    process.waitUntilExit()
    try errors.close()
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 0)
    #expect(try String(contentsOf: errorURL, encoding: .utf8) == "")
  }

  /// `yarn stash add X 2>&1 >/dev/null | true`: the reader of the messages going away does
  /// not turn a change that was made into a failure (it exited 74 after adding the yarn,
  /// so a script would add it again).
  @Test func messagesReaderGoneAwayIsNotAFailure() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let add = try runWithClosedStandardError(yarn, ["stash", "add", "Rios"])
    #expect(add.status == 0)
    // Messages that cannot be written at all (`2>/dev/full`, QA): the change was made, 0.
    let full = try runWithClosedStandardError(yarn, ["stash", "add", "Malabrigo"], errorsTo: "/dev/full")
    #expect(full.status == 0)
    let list = try #require(try yarn.ok(["stash", "list", "--json"]).json() as? [[String: Any]])
    #expect(list.map { $0["name"] as? String } == ["Rios", "Malabrigo"])
    // A data command whose total goes to standard error: the data is delivered, status 0.
    try yarn.ok(["project", "add", "Flax"])
    try yarn.ok(["time", "add", "Flax", "--from", "2026-01-05 10:00", "--to", "2026-01-05 11:00"])
    let log = try runWithClosedStandardError(yarn, ["time", "log", "--format", "csv"])
    #expect(log.status == 0)
    #expect(
      log.stdout
        == "Project,Start,End,Seconds,Duration\r\nFlax,2026-01-05T10:00:00Z,2026-01-05T11:00:00Z,3600,1:00\r\n"
    )
  }

  /// QA: any output could replace the library's own database: `stash export -o
  /// LIB/library.sqlite --force` exited 0 and every later command said the library was
  /// damaged (74). No command writes into the library's own files — the database, its `-wal`,
  /// `-shm` and `-journal` files, the attachments and safety-backups folders and anything in
  /// them, there or not yet — however the path reaches them (a symbolic link, `..`, a hard
  /// link, the library's folder through a link, another spelling): 73 naming the file, with
  /// `--force` or without, and the library byte for byte as it was.
  @Test func noOutputIsWrittenIntoTheLibrarysOwnFiles() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios"])
    try yarn.ok(["stash", "attach", "Rios", try yarn.file("rios.jpg", YarnRunner.jpeg("rios")).path])
    try yarn.ok(["project", "add", "Flax"])
    try yarn.ok(["time", "add", "Flax", "--from", "2026-01-05 10:00", "--to", "2026-01-05 11:30"])
    let library = yarn.library.path
    let database = library + "/library.sqlite"
    let attachments = library + "/attachments"
    let photo = try #require(
      try FileManager.default.subpathsOfDirectory(atPath: attachments).first { $0.contains("/") })
    // Every file of the library with its bytes (but the shared-memory index, which a reader
    // writes its read marks to).
    func files() throws -> [String: Data] {
      var out: [String: Data] = [:]
      for path in try FileManager.default.subpathsOfDirectory(atPath: library) where !path.hasSuffix("-shm") {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: library + "/" + path, isDirectory: &isDirectory),
          !isDirectory.boolValue
        {
          out[path] = try Data(contentsOf: URL(fileURLWithPath: library + "/" + path))
        }
      }
      return out
    }
    let before = try files()
    let snapshot = try yarn.librarySnapshot()
    #expect(before["library.sqlite"] != nil)

    let symbolic = yarn.directory.appendingPathComponent("link.csv").path
    #expect(symlink(database, symbolic) == 0)
    let dangling = yarn.directory.appendingPathComponent("dangling.csv").path
    #expect(symlink(attachments + "/new.csv", dangling) == 0)
    let hard = yarn.directory.appendingPathComponent("hard.csv").path
    #expect(link(database, hard) == 0)
    let alias = yarn.directory.appendingPathComponent("alias").path
    #expect(symlink(library, alias) == 0)
    let own = "the library's database (library.sqlite)"
    let targets: [(String, String)] = [
      (database, own),
      (library + "/library.sqlite-wal", "the library's write-ahead log (library.sqlite-wal)"),
      (library + "/library.sqlite-shm", "the library's shared-memory file (library.sqlite-shm)"),
      (library + "/library.sqlite-journal", "the library's rollback journal (library.sqlite-journal)"),
      (attachments + "/new.csv", "inside the library's attachments folder"),
      (attachments + "/" + photo, "inside the library's attachments folder"),
      (attachments, "the library's attachments folder"),
      (library + "/safety-backups/new.csv", "inside the library's safety-backups folder"),
      (library + "/attachments/../library.sqlite", own),
      (library + "//./library.sqlite", own),
      (library + "/Library.SQLITE", own),
      (yarn.library.lastPathComponent + "/library.sqlite", own),
      (symbolic, own), (dangling, "inside the library's attachments folder"), (hard, own),
      (alias + "/library.sqlite", own),
    ]
    for (target, part) in targets {
      for force in [["--force"], []] {
        let result = try yarn.run(["stash", "export", "-o", target, "--columns", "Name"] + force)
        #expect(result.status == 73, "\(target) \(force): \(result.stderr)")
        #expect(
          result.stderr
            == "error: cannot create '\(target)': it is \(part), in \(library); "
            + "no output is written there, even with --force\n", "\(target)")
      }
    }
    // Every command that writes a file.
    let writers: [[String]] = [
      ["project", "export", "-o", database, "--force"],
      ["time", "log", "--format", "csv", "-o", database, "--force"],
      ["time", "report", "--format", "csv", "-o", database, "--force"],
      ["summary", "--year", "2026", "--card", database, "--force"],
      ["backup", "create", database, "--force"],
      ["export", database, "--force"],
    ]
    for command in writers {
      let result = try yarn.run(command)
      #expect(result.status == 73, "\(command): \(result.stderr)")
      #expect(
        result.stderr.hasPrefix("error: cannot create '\(database)': it is \(own), in \(library); "),
        "\(command)")
      // The command line's words: each of these commands takes `--force`.
      #expect(result.stderr.contains("; no output is written there, even with --force\n"), "\(command)")
    }
    // The library read by another path: through a link to its folder.
    let viaAlias = try yarn.run(
      ["--library", alias, "backup", "create", database, "--force"], useLibrary: false)
    #expect(viaAlias.status == 73, "\(viaAlias.stderr)")
    // A WEFT export is refused when a document it would write is one of them.
    for folder in [attachments, attachments + "/new", library + "/safety-backups"] {
      let result = try yarn.run(["weft", "export", folder, "--force"])
      #expect(result.status == 73, "\(folder): \(result.stderr)")
      #expect(
        result.stderr.hasPrefix("error: cannot create '\(folder)/material.weft': it is inside "), "\(folder)")
      #expect(!FileManager.default.fileExists(atPath: attachments + "/new"))
    }
    #expect(try files() == before)
    #expect(try yarn.librarySnapshot() == snapshot)
    #expect(try yarn.ok(["stash", "list", "--json"]).json() as? [Any] != nil)
    #expect(try yarn.ok(["stash", "export", "-o", "-", "--columns", "Name"]).stdout == "Name\r\nRios\r\n")
    #expect(try yarn.ok(["project", "list"]).stdout.contains("Flax"))
    // A file of the library's folder that is none of its own is an output as any other.
    try yarn.ok(["stash", "export", "-o", library + "/stash.csv", "--columns", "Name"])
    try yarn.ok(["weft", "export", library])
  }
}
