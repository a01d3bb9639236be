import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// End-to-end tests: each runs the built `yarn` binary with its own fresh library and checks
/// standard output, standard error and the exit status. Expected figures are worked by hand.
@Suite struct EndToEndTests {
  // MARK: Frame

  /// `project show --json` says what its text shows beside the model's fields: the tools it
  /// uses, its number of time sessions and since when one runs (QA: left out).
  @Test func projectShowJSONSaysWhatItsTextSays() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["project", "add", "Hat"])
    try yarn.ok(["tool", "add", "Addi 4mm", "--kind", "circular", "--size", "4mm"])
    try yarn.ok(["project", "edit", "Hat", "--tool", "Addi"])
    let toolID = try #require(
      (try yarn.ok(["tool", "show", "Addi", "--json"]).json() as? [String: Any])?["id"] as? String)
    let idle = try #require(try yarn.ok(["project", "show", "Hat", "--json"]).json() as? [String: Any])
    #expect(idle["tools"] as? [[String: String]] == [["id": toolID, "name": "Addi 4mm"]])
    #expect(idle["sessions"] as? Int == 0)
    #expect(idle["runningSince"] is NSNull)
    try yarn.ok(["time", "add", "Hat", "--from", "2026-03-01T10:00:00Z", "--to", "2026-03-01T11:00:00Z"])
    try yarn.ok(["time", "start", "Hat"])
    let started = try #require(
      (try yarn.ok(["time", "status", "--json"]).json() as? [String: Any])?["start"] as? String)
    let running = try #require(try yarn.ok(["project", "show", "Hat", "--json"]).json() as? [String: Any])
    #expect(running["sessions"] as? Int == 2)
    #expect(running["runningSince"] as? String == started)
  }

  /// Runs `script` with /bin/sh, `$0` being the built yarn, `$1` the library and `$2` a file
  /// for standard error (bytes a Swift `String` cannot carry are made by `printf` there).
  func shell(_ yarn: YarnRunner, _ script: String) throws -> (status: Int32, stderr: String) {
    let shell = Process()
    shell.executableURL = URL(fileURLWithPath: "/bin/sh")
    let err = yarn.directory.appendingPathComponent("err")
    shell.arguments = ["-c", script, try #require(YarnRunner.executable).path, yarn.library.path, err.path]
    shell.environment = ["TZ": "UTC", "HOME": yarn.directory.path]
    try shell.run()
    shell.waitUntilExit()
    return (shell.terminationStatus, try String(contentsOf: err, encoding: .utf8))
  }

  /// A name typed in a Latin-1 terminal (`Caf` then the byte E9) is refused (64) and nothing
  /// is made, where it was stored as `Caf\u{FFFD}` (QA).
  @Test func anArgumentThatIsNotUTF8ChangesNothing() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let argument = try shell(yarn, "\"$0\" --library \"$1\" stash add \"$(printf 'Caf\\351')\" 2>\"$2\"")
    #expect(argument.status == 64)
    #expect(
      argument.stderr.hasPrefix(
        "error: bad value 'Caf\\xE9' for argument 5: it is not UTF-8 text (set the terminal to "
          + "UTF-8, such as LANG=en_US.UTF-8)\n"), "\(argument.stderr)")
    #expect(!FileManager.default.fileExists(atPath: yarn.library.path))
    // A library's path from the environment, the same (QA: made at `…\u{FFFD}`).
    let variable = try shell(yarn, "YARN_LIBRARY=\"$1$(printf '\\351')\" \"$0\" stash add Rios 2>\"$2\"")
    #expect(variable.status == 64)
    #expect(
      variable.stderr
        == "error: the environment variable YARN_LIBRARY is not UTF-8 text\n"
        + "hint: set it to a UTF-8 path, or give --library DIR\n")
    // TZ is a zone, not a path: its hint says so (QA: it was YARN_LIBRARY's).
    let zone = try shell(yarn, "TZ=\"$(printf '\\377')\" \"$0\" --library \"$1\" time log 2>\"$2\"")
    #expect(zone.status == 64)
    #expect(
      zone.stderr
        == "error: the environment variable TZ is not UTF-8 text\n"
        + "hint: set it to a zone name such as Europe/Berlin, or unset it\n")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: yarn.directory.path).filter { $0.hasPrefix("lib") }
        == [])
  }

  /// QA: a variable that is not UTF-8 stopped every command (64), those that never read it
  /// too (`HOME` with `--library`, `YARN_LIBRARY` for `help`, `TZ` for `convert`). It is
  /// refused only by a command that uses it: the library's place, or local time.
  @Test func aVariableThatIsNotUTF8StopsOnlyACommandThatUsesIt() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let bad = "\"$(printf '\\377')\""
    for (variable, command) in [
      ("HOME", "\"$0\" --library \"$1\" stash list"), ("HOME", "\"$0\" --version"), ("HOME", "\"$0\" help"),
      ("YARN_LIBRARY", "\"$0\" help"), ("YARN_LIBRARY", "\"$0\" completions bash"),
      ("YARN_LIBRARY", "\"$0\" convert 1g --to oz"), ("YARN_LIBRARY", "\"$0\" --library \"$1\" stash list"),
      ("XDG_DATA_HOME", "\"$0\" --library \"$1\" stash list"), ("TZ", "\"$0\" help"),
      ("TZ", "\"$0\" convert 100g --to oz"), ("TZ", "\"$0\" --library \"$1\" stash list"),
    ] {
      let result = try shell(yarn, "\(variable)=\(bad) \(command) >/dev/null 2>\"$2\"")
      #expect(result.status == 0, "\(variable) \(command): \(result.stderr)")
    }
    // The default library is under HOME: needed, refused.
    let home = try shell(yarn, "unset YARN_LIBRARY XDG_DATA_HOME; HOME=\(bad) \"$0\" stash list 2>\"$2\"")
    #expect(home.status == 64)
    #expect(
      home.stderr
        == "error: the environment variable HOME is not UTF-8 text\n"
        + "hint: set it to a UTF-8 path, or give --library DIR\n")
    let library = try shell(yarn, "YARN_LIBRARY=\(bad) \"$0\" stash list 2>\"$2\"")
    #expect(library.status == 64)
    #expect(library.stderr.hasPrefix("error: the environment variable YARN_LIBRARY is not UTF-8 text\n"))
  }

  @Test func unknownCommandIsAUsageError() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let result = try yarn.run(["stahs", "list"])
    #expect(result.status == 64)
    #expect(result.stdout == "")
    #expect(result.stderr.hasPrefix("error: unknown command 'stahs'\n"))
    #expect(result.stderr.contains("hint: did you mean 'stash'?"))
    #expect(!FileManager.default.fileExists(atPath: yarn.library.path))
  }

  @Test func unknownOptionSuggestsTheNearest() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let result = try yarn.run(["stash", "add", "Cascade 220", "--brnd", "Cascade"])
    #expect(result.status == 64)
    #expect(
      result.stderr == """
        error: unknown option '--brnd' for 'yarn stash add'
        usage: yarn stash add <name> [<options>]
        hint: did you mean '--brand'? (see 'yarn stash add --help')

        """)
    #expect(!FileManager.default.fileExists(atPath: yarn.library.path))
  }

  /// QA: the start of several options (`--col`) was offered none of them.
  @Test func anAmbiguousOptionPrefixListsTheOptionsItBegins() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let result = try yarn.run(["stash", "add", "Cascade 220", "--col", "Ruby"])
    #expect(result.status == 64)
    #expect(
      result.stderr == """
        error: unknown option '--col' for 'yarn stash add'
        usage: yarn stash add <name> [<options>]
        hint: did you mean one of '--colorway', '--color-family'? (see 'yarn stash add --help')

        """)
    #expect(!FileManager.default.fileExists(atPath: yarn.library.path))
  }

  /// QA: one letter after `--` got no hint, or a wrong guess by spelling (`time log --f`:
  /// `'--to'`): it names the one option it begins or all of them, global ones too, in the
  /// order of the command's help.
  @Test func aOneLetterOptionPrefixNamesTheOptionsItBegins() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    for (arguments, hint) in [
      (["time", "log", "--f", "x"], "one of '--from', '--format', '--force'? (see 'yarn time log --help')"),
      (["time", "report", "--c"], "one of '--chart', '--columns'? (see 'yarn time report --help')"),
      (["tool", "add", "T", "--k"], "'--kind'? (see 'yarn tool add --help')"),
      (["backup", "restore", "x", "--r"], "'--replace'? (see 'yarn backup restore --help')"),
      (["summary", "--c"], "'--card'? (see 'yarn summary --help')"),
      (["stash", "list", "--j"], "'--json'? (see 'yarn stash list --help')"),
      (["stash", "list", "--q"], "'--quiet'? (see 'yarn stash list --help')"),
      (["stash", "list", "--s"], "one of '--status', '--search', '--sort'? (see 'yarn stash list --help')"),
    ] {
      let result = try yarn.run(arguments)
      #expect(result.status == 64, "\(arguments)")
      let option = arguments.first { $0.hasPrefix("--") } ?? ""
      #expect(result.stderr.hasPrefix("error: unknown option '\(option)' for 'yarn "), "\(arguments)")
      #expect(result.stderr.hasSuffix("\nhint: did you mean \(hint)\n"), "\(arguments): \(result.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: yarn.library.path))
  }

  /// QA: `--h` got no hint (`--help` was no candidate), and a letter that begins nothing a
  /// guess that replaced it (`time log --x`: `'--to'`).
  @Test func aStartOfHelpIsOfferedHelpAndAFarGuessIsNot() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    for (arguments, hint) in [
      (["--h"], "did you mean '--help'? (see 'yarn --help')"),
      (["stash", "list", "--he"], "did you mean '--help'? (see 'yarn stash list --help')"),
      (["tool", "add", "T", "--hel"], "did you mean '--help'? (see 'yarn tool add --help')"),
      (["stash", "list", "--hlep"], "did you mean '--help'? (see 'yarn stash list --help')"),
      (["time", "log", "--x"], "see 'yarn time log --help'"),
      (["stash", "add", "X", "--g"], "see 'yarn stash add --help'"),
      (["stash", "list", "--a"], "see 'yarn stash list --help'"),
      // QA: `--forc` was offered `--sort`, two edits of four letters; a swap is one edit.
      (["stash", "list", "--forc"], "see 'yarn stash list --help'"),
      (["stash", "add", "X", "--brnad"], "did you mean '--brand'? (see 'yarn stash add --help')"),
    ] {
      let result = try yarn.run(arguments)
      #expect(result.status == 64, "\(arguments)")
      #expect(result.stderr.hasSuffix("\nhint: \(hint)\n"), "\(arguments): \(result.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: yarn.library.path))
  }

  /// QA: `yarn --ver` got no hint (`--version` was no candidate), then a start or typo of it
  /// under a command got none, though `--version` is answered anywhere on the line
  /// (`yarn stash list --version`). `--help=1` was an unknown option `--help`.
  @Test func aStartOfVersionAnywhereIsOfferedVersion() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    for (arguments, hint) in [
      (["--v"], "did you mean '--version'? (see 'yarn --help')"),
      (["--ver"], "did you mean '--version'? (see 'yarn --help')"),
      (["--versio"], "did you mean '--version'? (see 'yarn --help')"),
      (["stash", "--ver"], "did you mean '--version'? (see 'yarn stash --help')"),
      (["stash", "list", "--ver"], "did you mean '--version'? (see 'yarn stash list --help')"),
      (["stash", "list", "--verison"], "did you mean '--version'? (see 'yarn stash list --help')"),
    ] {
      let result = try yarn.run(arguments)
      #expect(result.status == 64, "\(arguments)")
      #expect(result.stderr.hasSuffix("\nhint: \(hint)\n"), "\(arguments): \(result.stderr)")
    }
    #expect(try yarn.ok(["stash", "list", "--version"]).stdout == "yarn 0.1.0\n")
    let valued = try yarn.run(["stash", "list", "--help=1"])
    #expect(valued.status == 64)
    #expect(
      valued.stderr
        == "error: option '--help' takes no value\nusage: yarn stash list [<options>]\nhint: see 'yarn stash list --help'\n"
    )
    // QA: `-h=1` was an unknown option `-h=1`; `-o=FILE` is refused, not read as `=FILE`.
    #expect(
      try yarn.run(["-h=1"]).stderr
        == "error: option '-h' takes no value\nusage: yarn <subcommand>\nhint: see 'yarn --help'\n")
    let output = try yarn.run(["stash", "export", "-o=stash.csv"])
    #expect(output.status == 64)
    #expect(
      output.stderr
        == "error: option '-o' takes its value as the next word, not after '='\n"
        + "usage: yarn stash export [<options>]\n"
        + "hint: write '-o FILE' or '--output=FILE' (see 'yarn stash export --help')\n")
    #expect(!FileManager.default.fileExists(atPath: yarn.library.path))
  }

  /// QA: `-x=1` was an unknown option `-x=1`, and `-qo=x.csv` too, where the fault is that
  /// short options cannot be combined (docs/CLI.md promises none).
  @Test func shortOptionsAreNamedWithoutTheirValueAndAreNotCombined() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let unknown = try yarn.run(["stash", "list", "-x=1"])
    #expect(unknown.status == 64)
    #expect(
      unknown.stderr
        == "error: unknown option '-x' for 'yarn stash list'\nusage: yarn stash list [<options>]\n"
        + "hint: see 'yarn stash list --help'\n")
    for arguments in [["stash", "export", "-qo=x.csv"], ["stash", "export", "-qo", "x.csv"]] {
      let combined = try yarn.run(arguments)
      #expect(combined.status == 64)
      #expect(
        combined.stderr
          == "error: short options cannot be combined: '-qo'\nusage: yarn stash export [<options>]\n"
          + "hint: write '-q -o FILE' (see 'yarn stash export --help')\n", "\(arguments)")
    }
    #expect(!FileManager.default.fileExists(atPath: yarn.directory.appendingPathComponent("x.csv").path))
  }

  /// `yarn -- stash list`: the hint must not suggest the very word given.
  @Test func commandWordAfterDoubleDash() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let result = try yarn.run(["--", "stash", "list"])
    #expect(result.status == 64)
    #expect(!result.stderr.contains("did you mean 'stash'"))
    #expect(
      result.stderr.contains("hint: '--' ends the options and commands; put the command words before it"))
  }

  @Test func helpAndVersionGoToStandardOutput() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let help = try yarn.ok(["stash", "add", "--help"])
    #expect(
      help.stdout.hasPrefix(
        "OVERVIEW: Add a yarn to the stash.\n\nUSAGE: yarn stash add <name> [<options>]\n"))
    #expect(help.stdout.contains("\n  --length-per-skein <length>\n"))
    #expect(help.stderr == "")
    let short = try yarn.ok(["time", "-h"])
    #expect(short.stdout.contains("SUBCOMMANDS:\n  start "))
    let version = try yarn.ok(["--version"])
    #expect(version.stdout == "yarn 0.1.0\n")
  }

  @Test func badValuesNameTheOptionAndTheValue() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let weight = try yarn.run(["stash", "add", "X", "--weight", "purple"])
    #expect(weight.status == 64)
    #expect(weight.stderr.hasPrefix("error: bad value 'purple' for --weight: expected a yarn weight"))
    let amount = try yarn.run(["stash", "add", "X", "--quantity", "3 bananas"])
    #expect(amount.status == 64)
    #expect(amount.stderr.contains("bad value '3 bananas' for --quantity"))
    #expect(amount.stderr.contains("unknown unit \"bananas\""))
    let date = try yarn.run(["stash", "add", "X", "--added", "2026-02-30"])
    #expect(date.status == 64)
    // QA: it said only "expected a date as YYYY-MM-DD": what is wrong is said.
    #expect(
      date.stderr.hasPrefix(
        "error: bad value '2026-02-30' for --added: day 30 is past the end of February 2026, which has 28 days\n"
      ))
    let length = try yarn.run(["stash", "add", "X", "--length-per-skein", "100g"])
    #expect(length.status == 64)
    let status = try yarn.run(["project", "add", "P", "--status", "sleeping"])
    #expect(status.status == 64)
    #expect(status.stderr.contains("'sleeping' for --status"))
    let use = try yarn.run(["project", "use", "P", "Y", "-3 skeins"])
    #expect(use.status == 64)
    #expect(use.stderr.contains("for <amount>"))
    #expect(!FileManager.default.fileExists(atPath: yarn.library.path))
  }

  @Test func readingAMissingLibraryCreatesNothing() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let list = try yarn.ok(["stash", "list", "--json"])
    #expect(list.stdout == "[\n\n]\n" || list.stdout == "[]\n")
    try yarn.ok(["project", "list"])
    try yarn.ok(["time", "log"])
    #expect(!FileManager.default.fileExists(atPath: yarn.library.path))
  }

  @Test func libraryFromTheEnvironment() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let env = ["YARN_LIBRARY": yarn.library.path]
    let add = try yarn.run(["stash", "add", "Cascade 220"], useLibrary: false, environment: env)
    #expect(add.status == 0)
    #expect(
      FileManager.default.fileExists(atPath: yarn.library.appendingPathComponent("library.sqlite").path))
    let list = try yarn.run(["stash", "list"], useLibrary: false, environment: env)
    #expect(list.stdout.contains("Cascade 220"))
  }

  // MARK: Stash and projects

  /// Cascade 220: 220 yd and 100 g a skein, 3 skeins. A finished project used 150 g = 1.5
  /// skeins, leaving 1.5 skeins = 150 g = 150 / 28.349523125 = 5.291 oz = 1.5 × 220 = 330 yd
  /// = 330 × 0.9144 = 301.752 m.
  @Test func finishedUsageCountsAgainstTheStash() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let add = try yarn.ok([
      "stash", "add", "Cascade 220", "--brand", "Cascade Yarns", "--colorway", "Ruby",
      "--weight", "worsted", "--length-per-skein", "220yd", "--net-weight-per-skein=100g",
      "--quantity", "3 skeins",
    ])
    #expect(add.stdout == "")
    #expect(add.stderr.hasPrefix("created a new library at \(yarn.library.path)\nadded yarn Cascade 220 ("))
    try yarn.ok(["project", "add", "Flax", "--craft", "knitting", "--status", "in progress"])
    try yarn.ok(["project", "use", "flax", "CASCADE 220", "150 g"])

    let before = try yarn.ok(["stash", "show", "Cascade 220"])
    #expect(
      before.stdout.contains("Remaining:    3 skeins ≈ 300 g ≈ 10.58 oz ≈ 660 yd ≈ 603.5 m (estimate)\n"))
    #expect(before.stdout.contains("Used in:      Flax (in-progress): 150 g\n"))
    // The JSON says what the text says (QA: "Used in" was missing from it).
    let shown = try #require(
      try yarn.ok(["stash", "show", "Cascade 220", "--json"]).json() as? [String: Any])
    let flaxID = try #require(
      (try yarn.ok(["project", "show", "Flax", "--json"]).json() as? [String: Any])?["id"] as? String)
    let usedIn = try #require(shown["usedIn"] as? [[String: Any]])
    #expect(usedIn.count == 1)
    #expect(usedIn.first?["projectID"] as? String == flaxID)
    #expect(usedIn.first?["project"] as? String == "Flax")
    #expect(usedIn.first?["status"] as? String == "in-progress")
    let amount = usedIn.first?["amount"] as? [String: Any]
    #expect(amount?["unit"] as? String == "g" && amount?["value"] as? Double == 150)

    let finish = try yarn.ok(["project", "finish", "Flax", "--on", "2026-03-01"])
    #expect(finish.stderr == "finished project Flax on 2026-03-01\n")
    let after = try yarn.ok(["stash", "show", "Cascade 220"])
    #expect(
      after.stdout.contains("Remaining:    1.5 skeins ≈ 150 g ≈ 5.29 oz ≈ 330 yd ≈ 301.75 m (estimate)\n"))

    let list = try yarn.ok(["stash", "list"])
    let lines = list.stdout.split(separator: "\n").map(String.init)
    try #require(lines.count == 2)
    #expect(lines[0] == "ID        NAME         COLORWAY  WEIGHT              QUANTITY  REMAINING")
    #expect(lines[1].hasSuffix("  Cascade 220  Ruby      4 Medium (worsted)  3 skeins  1.5 skeins"))

    let projects = try yarn.ok(["project", "list"])
    #expect(projects.stdout.contains("  Flax  knitting  finished  "))
    #expect(projects.stdout.contains("2026-03-01"))
  }

  @Test func stashJSONContract() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Malabrigo Sock", "--quantity", "200g", "--length-per-skein", "440yd"])
    try yarn.ok(["stash", "add", "Mystery"])
    try yarn.ok(["stash", "add", "Scraps", "--quantity", "100 g", "--remaining", "20g"])
    try yarn.ok(["stash", "add", "Worsted", "--quantity", "1 skein", "--net-weight-per-skein", "100g"])
    try yarn.ok(["project", "add", "Socks", "--status", "finished"])
    // Length without a net weight per skein: not convertible to grams.
    try yarn.ok(["project", "use", "Socks", "Malabrigo Sock", "50 m"])
    // 150 g of a 100 g skein: half a skein more than owned.
    try yarn.ok(["project", "use", "Socks", "Worsted", "150 g"])

    let list = try yarn.ok(["stash", "list", "--json"])
    let array = try #require(try list.json() as? [[String: Any]])
    try #require(array.count == 4)
    #expect(array.map { $0["name"] as? String } == ["Malabrigo Sock", "Mystery", "Scraps", "Worsted"])
    for object in array {
      #expect(object["id"] is String)
      #expect(object.keys.contains("quantity"))
      #expect(object.keys.contains("remaining"))
    }

    let sock = array[0]
    let quantity = try #require(sock["quantity"] as? [String: Any])
    #expect(quantity["value"] as? Double == 200)
    #expect(quantity["unit"] as? String == "g")
    let remaining = try #require(sock["remaining"] as? [String: Any])
    #expect(remaining["value"] as? Double == 200)
    #expect(remaining["unit"] as? String == "g")
    #expect(remaining["source"] as? String == "incomplete")
    let unconverted = try #require(remaining["unconverted"] as? [[String: Any]])
    try #require(unconverted.count == 1)
    #expect(unconverted.first?["project"] as? String == "Socks")
    #expect(unconverted.first?["missing"] as? [String] == ["net weight per skein"])

    #expect(array[1]["quantity"] is NSNull)
    #expect(array[1]["remaining"] is NSNull)

    let scraps = try #require(array[2]["remaining"] as? [String: Any])
    #expect(scraps["source"] as? String == "override")
    #expect(scraps["value"] as? Double == 20)

    let show = try yarn.ok(["stash", "show", "Worsted", "--json"])
    let worsted = try #require(try show.json() as? [String: Any])
    #expect(worsted["name"] as? String == "Worsted")
    let over = try #require(worsted["remaining"] as? [String: Any])
    #expect(over["source"] as? String == "overdrawn")
    #expect(over["value"] as? Double == 0)
    #expect(over["unit"] as? String == "skein")
    #expect(over["deficit"] as? Double == 0.5)
    #expect(over["unconverted"] == nil)

    // 150 g of 100 g skeins = 1.5 skeins used of 1: short by 0.5 skein = 50 g = 50 / 28.349523125
    // = 1.76 oz.
    let overdrawn = try yarn.ok(["stash", "show", "Worsted"])
    #expect(
      overdrawn.stdout.contains(
        "Remaining:    0 skeins (overdrawn)\n              overdrawn by 0.5 skeins ≈ 50 g ≈ 1.76 oz\n"))
    let human = try yarn.ok(["stash", "show", "Malabrigo Sock"])
    #expect(human.stdout.contains("Not counted:  Socks: 50 m, needs the net weight per skein\n"))
  }

  @Test func projectJSONContract() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["project", "add", "Flax", "--craft", "knit", "--pattern", "Flax", "--started", "2026-01-10"])
    try yarn.ok(["project", "add", "Hat"])
    let list = try yarn.ok(["project", "list", "--json"])
    let array = try #require(try list.json() as? [[String: Any]])
    #expect(array.map { $0["name"] as? String } == ["Flax", "Hat"])
    #expect(array.allSatisfy { ($0["id"] as? String)?.count == 36 })
    #expect(array[0]["status"] as? String == "planned")
    #expect(array[0]["started"] as? String == "2026-01-10")
    #expect(array[0]["craft"] as? String == "knitting")
  }

  @Test func ambiguousNameListsTheCandidates() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Cascade 220", "--colorway", "Ruby"])
    try yarn.ok(["stash", "add", "cascade 220", "--colorway", "Navy"])
    let list = try #require(try yarn.ok(["stash", "list", "--json"]).json() as? [[String: Any]])
    let ids = list.compactMap { $0["id"] as? String }
    try #require(ids.count == 2)
    let result = try yarn.run(["stash", "show", "Cascade 220"])
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("error: 'Cascade 220' matches 2 yarns: "))
    for id in ids { #expect(result.stderr.contains(id)) }
    let none = try yarn.run(["stash", "show", "Noro"])
    #expect(none.status == 65)
    #expect(none.stderr.hasPrefix("error: no yarn matches 'Noro'\nhint: "))
    // An ID prefix picks one.
    let byPrefix = try yarn.ok(["stash", "show", String(ids[1].prefix(8)), "--json"])
    #expect((try byPrefix.json() as? [String: Any])?["colorway"] as? String == "Navy")
  }

  /// An add or a rename to a name another item of its kind has (case, spaces around and
  /// Unicode form aside) is kept, with a warning even under --quiet: a reference by that
  /// name then fits both. A name of its own, or an edit that keeps the name, warns of nothing.
  @Test func aNameAnotherItemHasIsWarnedOf() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Café Lace"])
    let first = try #require(
      (try yarn.ok(["stash", "list", "--json"]).json() as? [[String: Any]])?.first?["id"] as? String)
    // "Cafe" + U+0301 COMBINING ACUTE ACCENT: the same name in NFD.
    let nfd = try yarn.ok(["stash", "add", "  CAFE\u{301} LACE", "-q"])
    #expect(
      nfd.stderr
        == "warning: another yarn is named \"Café Lace\" (\(first.prefix(8))) too; name them by ID, or rename one\n"
    )
    try yarn.ok(["project", "add", "Hitchhiker"])
    try yarn.ok(["project", "add", "Chunky Cowl"])
    let renamed = try yarn.ok(["project", "edit", "Chunky Cowl", "--name", "hitchhiker"])
    #expect(renamed.stderr.contains("warning: another project is named \"Hitchhiker\" ("))
    let third = try yarn.ok(["project", "add", "HITCHHIKER"])
    #expect(
      third.stderr.hasSuffix(
        "warning: 2 other projects are named \"HITCHHIKER\" too; name them by ID, or rename one\n"))
    try yarn.ok(["tool", "add", "Addi", "--kind", "circular", "--size", "4mm"])
    let tool = try yarn.ok(["tool", "add", "addi", "--kind", "hook", "--size", "5mm"])
    #expect(tool.stderr.contains("warning: another tool is named \"Addi\" ("))
    // Its own name: nothing to warn of, nor when an edit leaves the name as it was.
    #expect(!(try yarn.ok(["stash", "add", "Rios"]).stderr.contains("warning")))
    #expect(!(try yarn.ok(["stash", "edit", first, "--brand", "Malabrigo"]).stderr.contains("warning")))
  }

  @Test func editClearsWithAnEmptyValueAndQuietSilences() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Cascade 220", "--brand", "Cascade", "--remaining", "1 skein"])
    let edit = try yarn.ok([
      "stash", "edit", "Cascade 220", "--brand", "", "--remaining=", "--name", "C220", "-q",
    ])
    #expect(edit.stderr == "")
    #expect(edit.stdout == "")
    let shown = try #require(try yarn.ok(["stash", "show", "C220", "--json"]).json() as? [String: Any])
    #expect(shown["brand"] == nil)
    #expect(shown["remainingOverride"] == nil)
    #expect(shown["remaining"] is NSNull)
  }

  @Test func removingAYarnInUseIsRefused() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Cascade 220"])
    try yarn.ok(["project", "add", "Flax"])
    try yarn.ok(["project", "use", "Flax", "Cascade 220", "1 skein"])
    let refused = try yarn.run(["stash", "rm", "Cascade 220"])
    #expect(refused.status == 65)
    #expect(refused.stderr.contains("\"Flax\""))
    try yarn.ok(["project", "rm", "Flax", "--force"])
    try yarn.ok(["stash", "rm", "Cascade 220"])
    #expect(try yarn.ok(["stash", "list", "--json"]).json() as? [Any] != nil)
  }

  @Test func notesNeedExactlyOneSubject() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["project", "add", "Flax"])
    let neither = try yarn.run(["note", "add", "hello"])
    #expect(neither.status == 64)
    #expect(neither.stderr.hasPrefix("error: give exactly one of --project or --yarn\n"))
    try yarn.ok(["note", "add", "--project", "Flax", "Sleeves, \"short\" rows\nsecond line"])
    let show = try yarn.ok(["project", "show", "Flax"])
    #expect(show.stdout.contains("  Sleeves, \"short\" rows\n"))
    #expect(show.stdout.hasSuffix("second line\n"))
  }

  @Test func stashExportIsRFC4180() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok([
      "stash", "add", "Rowan \"Felted\" Tweed", "--quantity", "250g", "--net-weight-per-skein", "50g",
      "--added", "2026-01-05",
    ])
    try yarn.ok(["note", "add", "--yarn", "Rowan \"Felted\" Tweed", "=1+1, then\nmore"])
    let out = try yarn.ok(["stash", "export", "--columns", "Name,Quantity,Quantity Unit,Date Added,Notes"])
    #expect(
      out.stdout
        == "Name,Quantity,Quantity Unit,Date Added,Notes\r\n"
        + "\"Rowan \"\"Felted\"\" Tweed\",250,g,2026-01-05,\"'=1+1, then\nmore\"\r\n")
    let toFile = try yarn.ok([
      "stash", "export", "-o", "stash.csv", "--delimiter", "semicolon", "--columns", "Name,Remaining",
    ])
    #expect(toFile.stdout == "")
    let written = try String(contentsOf: yarn.directory.appendingPathComponent("stash.csv"), encoding: .utf8)
    // Without the Remaining Unit column, Remaining carries its unit.
    #expect(written == "Name;Remaining\r\n\"Rowan \"\"Felted\"\" Tweed\";250 g\r\n")
    let bad = try yarn.run(["stash", "export", "--columns", "Nmae"])
    #expect(bad.status == 64)
    #expect(bad.stderr.contains("unknown column \"Nmae\""))
    let noDirectory = try yarn.run(["stash", "export", "-o", "missing/stash.csv"])
    #expect(noDirectory.status == 73)
  }

  // MARK: Files

  @Test func attachingAMissingFileIsInputMissing() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Cascade 220"])
    try yarn.ok(["project", "add", "Flax"])
    let missing = try yarn.run(["stash", "attach", "Cascade 220", "nope.jpg"])
    #expect(missing.status == 66)
    #expect(missing.stderr.hasPrefix("error: cannot read 'nope.jpg': no such file or directory\n"))
    #expect(try yarn.run(["project", "attach", "Flax", "nope.pdf", "--pattern"]).status == 66)

    _ = try yarn.file("front.jpg", Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]))
    _ = try yarn.file("flax.pdf", Data("%PDF-1.4\n".utf8))
    try yarn.ok(["stash", "attach", "Cascade 220", "front.jpg"])
    try yarn.ok(["project", "attach", "Flax", "flax.pdf", "--pattern"])
    let project = try #require(try yarn.ok(["project", "show", "Flax", "--json"]).json() as? [String: Any])
    let pattern = try #require(project["pattern"] as? [String: Any])
    let pdf = try #require(pattern["pdf"] as? [String: Any])
    #expect(pdf["fileName"] as? String == "flax.pdf")
    #expect(pdf["mediaType"] as? String == "application/pdf")
    #expect(pdf["byteCount"] as? Int == 9)
  }

  /// A path that cannot be looked up says the system's own reason, not always "no such
  /// file" (66 as before): a loop of symbolic links is ELOOP's, a file named as a folder
  /// ENOTDIR's; for `stash attach`, `project attach`, `stash import` and `backup verify`.
  @Test func anUnreadablePathSaysTheSystemsReason() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios"])
    try yarn.ok(["project", "add", "Flax"])
    let l1 = yarn.directory.appendingPathComponent("l1").path
    let l2 = yarn.directory.appendingPathComponent("l2").path
    #expect(symlink("l1", l2) == 0 && symlink("l2", l1) == 0)
    _ = try yarn.file("red.png", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    // strerror(3) of ELOOP and ENOTDIR, lower-cased (glibc and macOS word them alike).
    for (path, reason) in [(l1, "too many levels of symbolic links"), ("red.png/", "not a directory")] {
      for command in [
        ["stash", "attach", "Rios", path], ["project", "attach", "Flax", path],
        ["stash", "import", path], ["backup", "verify", path],
      ] {
        let result = try yarn.run(command)
        #expect(result.status == 66, "\(command)")
        #expect(
          result.stderr == "error: cannot read '\(path)': \(reason)\nhint: check the path\n", "\(command)")
      }
    }
  }

  /// Attaching a directory or a FIFO is refused at once (66), saying what the path is.
  @Test func attachingSomethingOtherThanAFile() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Wool"])
    let directory = try yarn.run(["stash", "attach", "Wool", yarn.directory.path])
    #expect(directory.status == 66)
    #expect(
      directory.stderr.hasPrefix(
        "error: cannot read '\(yarn.directory.path)': it is a directory, not a file\n"))
    let fifo = yarn.directory.appendingPathComponent("pipe")
    #expect(mkfifo(fifo.path, 0o600) == 0)
    let pipe = try yarn.run(["stash", "attach", "Wool", fifo.path])
    #expect(pipe.status == 66)
    #expect(pipe.stderr.hasPrefix("error: cannot read '\(fifo.path)': it is not a regular file\n"))
  }

  @Test func backupRoundTripAndRestoreErrors() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Cascade 220", "--quantity", "3 skeins"])
    try yarn.ok(["project", "add", "Flax"])
    _ = try yarn.file("front.jpg", Data([0xFF, 0xD8, 0xFF, 0xE0, 9, 9, 9]))
    try yarn.ok(["stash", "attach", "Cascade 220", "front.jpg"])

    let create = try yarn.ok(["backup", "create", "b.zip"])
    #expect(create.stdout == "b.zip\n")
    #expect(create.stderr.contains("1 yarn, 1 project, 0 notes, 0 time sessions, 0 tools and 1 attachment"))
    let again = try yarn.run(["backup", "create", "b.zip"])
    #expect(again.status == 73)
    #expect(again.stderr.contains("--force"))
    try yarn.ok(["backup", "create", "b.zip", "--force"])

    let restored = yarn.directory.appendingPathComponent("restored").path
    let restore = try yarn.run(["--library", restored, "backup", "restore", "b.zip"], useLibrary: false)
    #expect(restore.status == 0, "\(restore.stderr)")
    let original = try yarn.ok(["stash", "list", "--json"]).stdout
    let copy = try yarn.run(["--library", restored, "stash", "list", "--json"], useLibrary: false)
    #expect(copy.stdout == original)
    // The restored library exports byte-identical CSV.
    let csv = try yarn.ok(["stash", "export"]).stdout
    let restoredCSV = try yarn.run(["--library", restored, "stash", "export"], useLibrary: false).stdout
    #expect(!csv.isEmpty && restoredCSV == csv)

    // Into a library that is not empty: refused, nothing changed.
    let full = try yarn.run(["backup", "restore", "b.zip"])
    #expect(full.status == 73)
    #expect(try yarn.ok(["stash", "list", "--json"]).stdout == original)

    let missing = try yarn.run(["backup", "restore", "nope.zip"])
    #expect(missing.status == 66)
  }

  @Test func corruptBackupChangesNothing() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Cascade 220", "--quantity", "3 skeins", "--fiber", "wool"])
    // Bulk for the backup: a note of 1,000 characters.
    try yarn.ok(["note", "add", "--yarn", "Cascade 220", String(repeating: "wool ", count: 200)])
    try yarn.ok(["backup", "create", "good.zip"])
    let good = try Data(contentsOf: yarn.directory.appendingPathComponent("good.zip"))

    // Not a zip at all, a truncated zip, and a zip with a byte changed inside its data.
    var flipped = good
    flipped[flipped.count / 3] ^= 0xFF
    let corrupt: [(String, Data)] = [
      ("garbage.zip", Data("this is not a zip file".utf8)),
      ("truncated.zip", good.prefix(good.count / 2)),
      ("flipped.zip", flipped),
    ]
    for (name, bytes) in corrupt {
      _ = try yarn.file(name, bytes)
      // A library that does not exist yet stays absent.
      let fresh = yarn.directory.appendingPathComponent("fresh-\(name)")
      let result = try yarn.run(["--library", fresh.path, "backup", "restore", name], useLibrary: false)
      #expect(result.status == 65, "\(name): \(result.stderr)")
      #expect(result.stderr.hasPrefix("error: "), "\(name)")
      #expect(result.stderr.contains("\nhint: "), "\(name)")
      #expect(!FileManager.default.fileExists(atPath: fresh.path), "\(name)")
    }

    // An existing, empty library keeps its state.
    try yarn.ok(["stash", "rm", "Cascade 220", "--force"])
    let before = try yarn.ok(["stash", "list", "--json"]).stdout
    let files = try FileManager.default.contentsOfDirectory(atPath: yarn.library.path).sorted()
    let result = try yarn.run(["backup", "restore", "flipped.zip"])
    #expect(result.status == 65)
    #expect(try yarn.ok(["stash", "list", "--json"]).stdout == before)
    let filesAfter = try FileManager.default.contentsOfDirectory(atPath: yarn.library.path).sorted()
    #expect(
      filesAfter.filter { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
        == files.filter { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") })
  }

  // MARK: Time

  @Test func timeStartStopLog() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["project", "add", "Flax"])
    let idle = try yarn.ok(["time", "status"])
    #expect(idle.stdout == "no timer is running\n")
    #expect(try yarn.ok(["time", "status", "--json"]).stdout == "null\n")

    // Started two minutes ago: a timer stopped in the second it started is not recorded.
    let start = try yarn.ok(["time", "start", "Flax", "--note", "sleeve cuffs", "--at", "-2m"])
    #expect(start.stderr.hasPrefix("started Flax at "))
    let status = try yarn.ok(["time", "status"])
    #expect(status.stdout.hasPrefix("Flax: running since "))

    let running = try #require(try yarn.ok(["time", "log", "--json"]).json() as? [[String: Any]])
    try #require(running.count == 1)
    #expect(running[0]["project"] as? String == "Flax")
    #expect(running[0]["end"] is NSNull)
    #expect(running[0]["note"] as? String == "sleeve cuffs")
    let startText = try #require(running[0]["start"] as? String)
    #expect(startText.count == 20 && startText.hasSuffix("Z"))

    try yarn.ok(["time", "stop"])
    let log = try #require(try yarn.ok(["time", "log", "--json"]).json() as? [[String: Any]])
    try #require(log.count == 1)
    let endText = try #require(log[0]["end"] as? String)
    #expect(endText.count == 20 && endText.hasSuffix("Z"))
    #expect(endText >= startText)
    #expect((log[0]["seconds"] as? Int).map { (120..<180).contains($0) } == true)
    #expect((log[0]["id"] as? String)?.count == 36)

    let table = try yarn.ok(["time", "log"])
    #expect(table.stdout.hasPrefix("ID        START             END               DURATION  PROJECT  NOTE\n"))
    #expect(table.stdout.contains("  Flax     sleeve cuffs\n"))

    // A cancelled timer leaves no session.
    try yarn.ok(["time", "start", "Flax"])
    let cancel = try yarn.ok(["time", "cancel"])
    #expect(cancel.stderr.hasPrefix("cancelled the timer on Flax started at "))
    #expect((try yarn.ok(["time", "log", "--json"]).json() as? [Any])?.count == 1)
    #expect(try yarn.run(["time", "cancel"]).status == 65)

    let stopAgain = try yarn.run(["time", "stop"])
    #expect(stopAgain.status == 65)
    #expect(stopAgain.stderr.hasPrefix("error: "))
  }

  @Test func secondStartNamesTheRunningProject() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["project", "add", "Flax"])
    try yarn.ok(["project", "add", "Hat"])
    // A minute ago, so that the switch below leaves a Flax session of some time.
    try yarn.ok(["time", "start", "Flax", "--at", "-1m"])
    let second = try yarn.run(["time", "start", "Hat"])
    #expect(second.status == 65)
    #expect(second.stderr.hasPrefix("error: "))
    #expect(second.stderr.contains("Flax"))
    #expect(second.stderr.contains("hint: "))
    let log = try #require(try yarn.ok(["time", "log", "--json"]).json() as? [[String: Any]])
    try #require(log.count == 1)
    #expect(log[0]["project"] as? String == "Flax")

    try yarn.ok(["time", "start", "Hat", "--switch"])
    let switched = try #require(try yarn.ok(["time", "log", "--json"]).json() as? [[String: Any]])
    try #require(switched.map { $0["project"] as? String } == ["Flax", "Hat"])
    #expect(switched[0]["end"] as? String == switched[1]["start"] as? String)
    #expect(switched[1]["end"] is NSNull)
    // --switch to the project running is refused as a plain start is (QA: it split Hat's
    // session), and its hint offers --switch only for another project.
    for args in [["time", "start", "Hat"], ["time", "start", "Hat", "--switch"]] {
      let again = try yarn.run(args)
      #expect(again.status == 65, "\(args)")
      #expect(
        again.stderr.hasPrefix("error: a timer is already running on \"Hat\" since "), "\(again.stderr)")
      #expect(
        again.stderr.hasSuffix(
          "hint: stop it with '\(yarn.command("time stop"))', or start another project with --switch to "
            + "stop it at the same instant\n"), "\(again.stderr)")
    }
    let after = try #require(try yarn.ok(["time", "log", "--json"]).json() as? [[String: Any]])
    #expect(after.map { $0["id"] as? String } == switched.map { $0["id"] as? String })
    #expect(after[1]["end"] is NSNull)
  }

  // MARK: Convert

  @Test func convert() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let ounce = try yarn.ok(["convert", "1oz", "--to", "g", "--json"])
    let object = try #require(try ounce.json() as? [String: Any])
    #expect(object["value"] as? Double == 28.349523125)
    #expect(object["unit"] as? String == "g")
    // 2.5 skeins × 220 yd = 550 yd.
    #expect(
      try yarn.ok(["convert", "2.5 skeins", "--to", "yd", "--length-per-skein", "220yd"]).stdout == "550 yd\n"
    )
    // 150 g of a 100 g / 220 yd skein = 1.5 skeins = 330 yd = 301.752 m.
    try yarn.ok([
      "stash", "add", "Cascade 220", "--length-per-skein", "220yd", "--net-weight-per-skein", "100g",
    ])
    #expect(try yarn.ok(["convert", "150g", "--to", "m", "--yarn", "Cascade 220"]).stdout == "301.75 m\n")
    let missing = try yarn.run(["convert", "2 skeins", "--to", "g"])
    #expect(missing.status == 65)
    #expect(missing.stderr.hasPrefix("error: converting skein to g needs the net weight per skein\n"))
    let noUnit = try yarn.run(["convert", "2 skeins"])
    #expect(noUnit.status == 64)
    #expect(noUnit.stderr.hasPrefix("error: option '--to' is required\n"))
  }
}
