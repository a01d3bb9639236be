import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The library directory given with `--library`, through the built binary: a path that is
/// empty, a file, below a file or cannot be created is an error naming the path and the
/// reason, never an empty stash; a `library.sqlite` that is not a database is named, with how
/// to recover.
@Suite struct LibraryAccessCLITests {
  /// `--library ""` (an unset shell variable) must not fall back to the default library.
  @Test func emptyLibraryOptionIsAUsageError() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let result = try yarn.run(["--library", "", "stash", "add", "X"], useLibrary: false)
    #expect(result.status == 64)
    #expect(
      result.stderr.hasPrefix("error: bad value '' for --library: a directory name cannot be empty\n"))
    let home = yarn.directory.appendingPathComponent(".local/share/yarn")
    #expect(!FileManager.default.fileExists(atPath: home.path))
  }

  /// QA: `YARN_LIBRARY="   "` made a library in a folder named `   ` of the current directory,
  /// and `--library $'\u200b'` one named U+200B, where `--library "   "` was refused. A blank
  /// name (empty, or only spaces or invisible characters) names no folder: 64 for
  /// `--library`, and for a `YARN_LIBRARY` that is blank but not empty (an empty one is as if
  /// unset; neither is read when `--library` is given). Nothing is created.
  @Test func aBlankLibraryNameIsAUsageError() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    // An invisible character is shown escaped (`LineText.visible`), not as if nothing.
    for (value, shown) in [
      ("   ", "   "), ("\u{200B}", "\\u{200B}"), (" \u{FEFF}\u{2060} ", " \\u{FEFF}\\u{2060} "),
    ] {
      let option = try yarn.run(["--library", value, "stash", "add", "X"], useLibrary: false)
      #expect(option.status == 64, "\(option.stderr)")
      #expect(
        option.stderr.hasPrefix(
          "error: bad value '\(shown)' for --library: a directory name cannot be empty\n"))
      let variable = try yarn.run(
        ["stash", "add", "X"], useLibrary: false, environment: ["YARN_LIBRARY": value])
      #expect(variable.status == 64, "\(variable.stderr)")
      #expect(
        variable.stderr
          == "error: bad value '\(shown)' for YARN_LIBRARY: a directory name cannot be empty\n"
          + "hint: unset YARN_LIBRARY, set it to the library's folder, or give --library DIR\n")
      #expect(try FileManager.default.contentsOfDirectory(atPath: yarn.directory.path) == [])
      // QA: commands that never use a library ran into it too (64).
      for command in [
        ["completions", "bash"], ["help"], ["help", "stash", "add"], ["convert", "100g", "--to", "oz"],
      ] {
        let free = try yarn.run(command, useLibrary: false, environment: ["YARN_LIBRARY": value])
        #expect(free.status == 0, "\(command): \(free.stderr)")
        #expect(free.stderr == "", "\(command)")
      }
    }
    try yarn.ok(["stash", "add", "X"])
    #expect(try yarn.run(["stash", "list"], environment: ["YARN_LIBRARY": "   "]).status == 0)
    let unset = try yarn.run(["stash", "add", "Y"], useLibrary: false, environment: ["YARN_LIBRARY": ""])
    #expect(unset.status == 0, "\(unset.stderr)")
    let home = yarn.directory.appendingPathComponent(".local/share/yarn/library.sqlite")
    #expect(FileManager.default.fileExists(atPath: home.path))
  }

  /// A library path that is a file is an error, for reading as for writing, never an empty
  /// stash.
  @Test func libraryThatIsAFileIsAnError() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let file = try yarn.file("notes.txt", Data("hello".utf8))
    for arguments in [["stash", "list"], ["stash", "add", "X"]] {
      let result = try yarn.run(["--library", file.path] + arguments, useLibrary: false)
      #expect(result.status == 74, "\(arguments)")
      #expect(result.stderr.hasPrefix("error: cannot access \(file.path): it is a file, not a directory\n"))
    }
    #expect(try String(contentsOf: file, encoding: .utf8) == "hello")
  }

  /// A library below a file (or, for another user, below a directory it may not search)
  /// cannot be told missing: an error, never an empty stash.
  @Test func unreachableLibraryIsAnErrorNotEmpty() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let file = try yarn.file("notes.txt", Data("hello".utf8))
    let below = file.appendingPathComponent("library")
    let result = try yarn.run(["--library", below.path, "stash", "list"], useLibrary: false)
    #expect(result.status == 74)
    #expect(result.stdout == "")
    #expect(result.stderr.hasPrefix("error: cannot access \(below.path): not a directory\n"))
  }

  /// Issue 12, item 9: a command that fails creates no library — not its directory, not the
  /// directories above it, not a `library.sqlite` in a directory that exists — so a
  /// mistyped `--library` leaves nothing behind; one that succeeds creates it.
  @Test func aFailingCommandCreatesNoLibrary() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let typo = yarn.directory.appendingPathComponent("yran")
    let library = typo.appendingPathComponent("library")
    for arguments in [
      ["time", "start", "Flax"], ["time", "stop"], ["time", "add", "Flax", "--duration", "1h"],
      ["project", "finish", "Flax"], ["stash", "rm", "Rios"], ["note", "add", "--yarn", "Rios", "soft"],
    ] {
      let result = try yarn.run(["--library", library.path] + arguments, useLibrary: false)
      #expect(result.status == 65, "\(arguments): \(result.stderr)")
      #expect(!FileManager.default.fileExists(atPath: typo.path), "\(arguments) created \(typo.path)")
    }
    // A directory that exists gets no library.sqlite and no attachments/ folder.
    let empty = yarn.directory.appendingPathComponent("empty")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: false)
    let refused = try yarn.run(["--library", empty.path, "time", "start", "Flax"], useLibrary: false)
    #expect(refused.status == 65)
    #expect(try FileManager.default.contentsOfDirectory(atPath: empty.path) == [])
    // A command that succeeds creates the library, with what it wrote in it.
    let added = try yarn.run(["--library", library.path, "project", "add", "Flax"], useLibrary: false)
    #expect(added.status == 0, "\(added.stderr)")
    #expect(
      added.stderr.hasPrefix("created a new library at \(library.path)\nadded project Flax ("),
      "\(added.stderr)")
    // Only the command that made it says so.
    #expect(
      try yarn.run(
        ["--library", library.path, "project", "edit", "Flax", "--made-for", "Leo"], useLibrary: false
      )
      .stderr.hasPrefix("updated project Flax"))
    #expect(FileManager.default.fileExists(atPath: library.appendingPathComponent("library.sqlite").path))
    let listed = try yarn.run(["--library", library.path, "project", "list", "--json"], useLibrary: false)
    let projects = try #require(try listed.json() as? [[String: Any]])
    #expect(projects.map { $0["name"] as? String } == ["Flax"])
    #expect(listed.stderr == "")
  }

  /// Ten commands writing to one missing library at once all succeed, and only the one
  /// whose creation put the library in place says `created a new library`: the others
  /// found it made meanwhile.
  @Test func ofWritesAtOnceToAMissingLibraryOnlyTheCreatorSaysSo() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    for round in 0..<2 {
      try? FileManager.default.removeItem(at: yarn.library)
      let results = try yarn.runAtOnce((1...10).map { ["stash", "add", "C\($0)"] })
      for result in results { #expect(result.status == 0, "round \(round): \(result.stderr)") }
      let said = results.filter { $0.stderr.contains("created a new library at \(yarn.library.path)\n") }
      #expect(said.count == 1, "round \(round): \(results.map(\.stderr))")
      let yarns = try #require(try yarn.ok(["stash", "list", "--json"]).json() as? [[String: Any]])
      #expect(yarns.count == 10)
    }
  }

  /// Issue 12, item 9: reading a library that does not exist succeeds with empty data (so
  /// that scripts keep working) and says so on standard error, naming the path, even with
  /// `--quiet`; it creates nothing. A command about to create the library (`stash import`,
  /// `backup restore`) does not warn.
  @Test func readingAMissingLibrarySaysSoAndReadsAsEmpty() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let typo = yarn.directory.appendingPathComponent("yran")
    let warning = "warning: there is no library at \(typo.path); it reads as empty\n"
    for arguments in [
      ["stash", "list"], ["time", "log", "--json"], ["project", "list", "--json"], ["-q", "time", "status"],
    ] {
      let result = try yarn.run(["--library", typo.path] + arguments, useLibrary: false)
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
      #expect(result.stderr.hasPrefix(warning), "\(arguments): \(result.stderr)")
    }
    let log = try yarn.run(["--library", typo.path, "time", "log", "--json"], useLibrary: false)
    #expect((try log.json() as? [Any])?.isEmpty == true)
    #expect(!FileManager.default.fileExists(atPath: typo.path))
    // An import into a new library says that it made the library (a mistyped path shows),
    // and what it did.
    let csv = try yarn.file("s.csv", Data("Name\r\nRios\r\n".utf8))
    let imported = try yarn.run(["--library", typo.path, "stash", "import", csv.path], useLibrary: false)
    #expect(imported.status == 0)
    #expect(
      imported.stderr
        == "created a new library at \(typo.path)\nimported \(csv.path): 1 yarn added, 0 updated, 0 unchanged\n"
    )
    // The library exists now, and reading it says nothing more.
    let stash = try yarn.run(["--library", typo.path, "stash", "list"], useLibrary: false)
    #expect(stash.status == 0)
    #expect(stash.stderr == "")
  }

  /// QA: the path of a missing library was printed raw in the warning and in the hints that
  /// repeat `--library` (ESC sent as U+FFFD, a line break or U+200B as they are). It is
  /// escaped there as in every message; a hint whose command cannot be copied back shows it
  /// escaped too, in quotes.
  @Test func aLibraryPathThatHidesCharactersIsEscapedInWarningsAndHints() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    for (name, shown) in [
      ("x\u{1B}[31mX", "x\\u{1B}[31mX"), ("x\nX", "x\\nX"), ("x\u{200B}X", "x\\u{200B}X"),
    ] {
      let path = yarn.directory.appendingPathComponent(name).path
      let visible = yarn.directory.path + "/" + shown
      let result = try yarn.run(["--library", path, "stash", "list"], useLibrary: false)
      #expect(result.status == 0)
      #expect(
        result.stderr
          == "warning: there is no library at \(visible); it reads as empty\n"
          + "the stash is empty; add a yarn with 'yarn --library '\(visible)' stash add NAME'\n")
    }
  }

  /// A library directory that cannot be created gave Foundation's "The operation could not
  /// be completed." text; the system's reason is said instead.
  @Test func libraryThatCannotBeCreatedSaysWhy() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    // A dangling symbolic link in the way: stat says "no such file", mkdir "file exists".
    let link = yarn.directory.appendingPathComponent("link")
    #expect(symlink(yarn.directory.appendingPathComponent("gone").path, link.path) == 0)
    let library = link.appendingPathComponent("library")
    let result = try yarn.run(["--library", library.path, "stash", "add", "Rios"], useLibrary: false)
    #expect(result.status == 74)
    #expect(
      result.stderr.hasPrefix("error: cannot access \(library.path): cannot create the directory: "))
    #expect(!result.stderr.lowercased().contains("operation could not be completed"))
  }

  /// A library.sqlite that is not a database says so and how to recover.
  @Test func corruptDatabaseGivesAHint() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try FileManager.default.createDirectory(at: yarn.library, withIntermediateDirectories: true)
    let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
    try garbage.write(to: yarn.library.appendingPathComponent("library.sqlite"))
    let result = try yarn.run(["stash", "list"])
    #expect(result.status == 74)
    // The file is named; SQLite's words follow, without its code or the failing statement.
    let file = yarn.library.appendingPathComponent("library.sqlite").path
    #expect(
      result.stderr
        == "error: \(file) is damaged or not a yarn library (SQLite: file is not a database)\n"
        + "hint: restore a backup into a new library with "
        + "'yarn --library NEW_DIR backup restore FILE'; keep the damaged file until the restore is done\n"
    )
    #expect(try Data(contentsOf: yarn.library.appendingPathComponent("library.sqlite")) == garbage)
  }

  /// The database deleted but its write-ahead log left: every command, reading or writing
  /// (those that would fail on an empty library too), stops and names the log (74).
  @Test func aLogLeftWithoutItsDatabaseStopsEveryCommand() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios"])
    try yarn.ok(["project", "add", "Flax"])
    let database = yarn.library.appendingPathComponent("library.sqlite").path
    #expect(unlink(database) == 0)
    let log = database + "-wal"
    for arguments in [
      ["stash", "add", "New"], ["time", "start", "Flax"], ["stash", "edit", "Rios", "--brand", "M"], ["undo"],
      ["stash", "list"], ["backup", "create", "b.zip"],
    ] {
      let result = try yarn.run(arguments)
      #expect(result.status == 74, "\(arguments): \(result.stderr)")
      #expect(
        result.stderr.hasPrefix(
          "error: cannot access \(log): a write-ahead log is there without library.sqlite"),
        "\(arguments): \(result.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: database))
    #expect(!FileManager.default.fileExists(atPath: yarn.directory.appendingPathComponent("b.zip").path))
  }

  /// An empty `library.sqlite` (0 bytes, which SQLite takes as an empty database): every
  /// command — reading, writing, failing or not, importing, restoring — stops and names the
  /// file (74), and the file stays as it is, with nothing made beside it.
  @Test func anEmptyDatabaseFileStopsEveryCommand() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try FileManager.default.createDirectory(at: yarn.library, withIntermediateDirectories: true)
    let database = yarn.library.appendingPathComponent("library.sqlite").path
    #expect(FileManager.default.createFile(atPath: database, contents: Data()))
    let csv = try yarn.file("s.csv", Data("Name\nRios\n".utf8))
    for arguments in [
      ["time", "start", "Flax"], ["stash", "add", "New"], ["stash", "list"], ["undo"],
      ["backup", "create", "b.zip"], ["stash", "import", csv.path], ["summary"],
    ] {
      let result = try yarn.run(arguments)
      #expect(result.status == 74, "\(arguments): \(result.stderr)")
      #expect(
        result.stderr.hasPrefix(
          "error: cannot access \(database): it is an empty file (0 bytes), not a library"),
        "\(arguments): \(result.stderr)")
      #expect(result.stdout == "", "\(arguments)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: yarn.library.path) == ["library.sqlite"])
    #expect(try FileManager.default.attributesOfItem(atPath: database)[.size] as? Int == 0)
  }

  /// A folder where `library.sqlite` should be: every command — reading, writing, importing,
  /// restoring — stops (74) and says plainly that it is a directory (SQLite said `disk I/O
  /// error` to a read and `unable to open database file` to a write), and adds nothing to the
  /// library directory (it made `attachments/` before opening the database) nor to the folder.
  @Test func aDatabaseThatIsADirectoryStopsEveryCommand() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let folder = yarn.library.appendingPathComponent("library.sqlite")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let csv = try yarn.file("s.csv", Data("Name\nRios\n".utf8))
    for arguments in [
      ["stash", "list"], ["stash", "add", "Rios"], ["time", "start", "Flax"], ["undo"],
      ["backup", "create", "b.zip"], ["stash", "import", csv.path], ["summary"],
      ["backup", "restore", BackupCLITests.sample.path],
    ] {
      let result = try yarn.run(arguments)
      #expect(result.status == 74, "\(arguments): \(result.stderr)")
      #expect(
        result.stderr
          == "error: cannot access \(folder.path): it is a directory, not a library file; move it "
          + "away to start a new library here\n", "\(arguments)")
      #expect(result.stdout == "", "\(arguments)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: yarn.library.path) == ["library.sqlite"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
  }

  /// A write-ahead log that is a directory (SQLite said `unable to open database file` with
  /// its statement) is named in plain words, and the library is left as it was.
  @Test func aWriteAheadLogThatIsADirectoryIsNamed() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios"])
    let wal = yarn.library.appendingPathComponent("library.sqlite-wal")
    // The log holds the committed yarn (it is kept between commands): moved aside, then back.
    let aside = yarn.directory.appendingPathComponent("wal-aside")
    try FileManager.default.moveItem(at: wal, to: aside)
    try FileManager.default.createDirectory(at: wal, withIntermediateDirectories: false)
    for arguments in [["stash", "list"], ["stash", "add", "Cascade"]] {
      let result = try yarn.run(arguments)
      #expect(result.status == 74, "\(arguments): \(result.stderr)")
      #expect(
        result.stderr.hasPrefix(
          "error: cannot access \(wal.path): it is a directory, not a file of the library's database; "
            + "move it away\n"), "\(arguments): \(result.stderr)")
    }
    try FileManager.default.removeItem(at: wal)
    try FileManager.default.moveItem(at: aside, to: wal)
    #expect(try yarn.ok(["stash", "list"]).stdout.contains("Rios"))
    #expect(!(try yarn.ok(["stash", "list"]).stdout.contains("Cascade")))
  }
}
