import Testing

@testable import YarnCLI

/// A small command tree of its own, so that the parser is tested apart from the real commands.
private struct TestRoot: CommandGroup {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "tool", abstract: "A test tool.", subcommands: [TestGroup.self])
  }
}

private struct TestGroup: CommandGroup {
  static var configuration: CommandConfiguration {
    CommandConfiguration(name: "thing", abstract: "Things.", subcommands: [TestAdd.self, TestList.self])
  }
}

private struct TestAdd: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "add", abstract: "Add a thing.",
      arguments: [.required("name", "The name."), .variadic("extra", "More words.").optionalized],
      options: [
        .value("brand", "text", "The maker."),
        .value("colorway", "text", "The color."),
        .flag("force", "Replace it."),
        .value("output", "file", "Where to write.", short: "o"),
        .optionalNumber("year", "year", "A year, or this one."),
      ])
  }
  init(from values: ParsedValues) throws {}
  func run(in context: Context) throws {}
}

private struct TestList: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "list", abstract: "List things.",
      options: [
        .value("to", "unit", "The unit.", required: true),
        .optionalNumber("year", "year", "A year, or this one."),
      ], aliases: ["ls"])
  }
  init(from values: ParsedValues) throws {}
  func run(in context: Context) throws {}
}

extension ArgumentSpec {
  fileprivate var optionalized: ArgumentSpec {
    var copy = self
    copy.isOptional = true
    return copy
  }
}

private var parser: CommandParser { CommandParser(root: TestRoot.self) }

/// The values of a line that must parse into a command to run.
private func values(_ arguments: [String]) throws -> ParsedValues {
  guard case .run(_, let values) = try parser.parse(arguments) else {
    Issue.record("expected a command to run for \(arguments)")
    return ParsedValues(command: [])
  }
  return values
}

/// The usage error a line gives.
private func usageError(_ arguments: [String]) -> CLIError? {
  do {
    _ = try parser.parse(arguments)
    return nil
  } catch {
    return error
  }
}

@Suite struct ParserTests {
  @Test func optionWithSpaceAndWithEquals() throws {
    let parsed = try values(["thing", "add", "Cascade", "--brand", "Cascade Yarns", "--colorway=Ruby"])
    #expect(parsed.command == ["tool", "thing", "add"])
    #expect(parsed.argument("name") == "Cascade")
    #expect(parsed.value("brand") == "Cascade Yarns")
    #expect(parsed.value("colorway") == "Ruby")
  }

  @Test func equalsValueMayHoldEqualsAndBeEmpty() throws {
    let parsed = try values(["thing", "add", "x", "--brand=a=b", "--colorway="])
    #expect(parsed.value("brand") == "a=b")
    #expect(parsed.value("colorway") == "")
  }

  @Test func lastValueWins() throws {
    let parsed = try values(["thing", "add", "x", "--brand", "A", "--brand", "B"])
    #expect(parsed.value("brand") == "B")
    #expect(parsed.options["brand"] == ["A", "B"])
  }

  @Test func valueOptionTakesADashedValue() throws {
    let parsed = try values(["thing", "add", "x", "--brand", "--force"])
    #expect(parsed.value("brand") == "--force")
    #expect(!parsed.flag("force"))
  }

  /// `--year`, `--year 2025`, `--year=2025`: the next word is the value when it starts with
  /// a digit, or when the command takes no positional argument and it is no option.
  @Test func optionalNumberTakesADigitWordOrNothing() throws {
    let alone = try values(["thing", "add", "x", "--year", "--force"])
    #expect(alone.flag("year") && alone.value("year") == nil && alone.flag("force"))
    let spaced = try values(["thing", "add", "--year", "2025", "x"])
    #expect(spaced.value("year") == "2025" && spaced.argument("name") == "x")
    #expect(try values(["thing", "add", "x", "--year=20x5"]).value("year") == "20x5")
    // A word that is no number is the command's argument where it takes one...
    let word = try values(["thing", "add", "--year", "x"])
    #expect(word.flag("year") && word.argument("name") == "x")
    // ... and the option's (bad) value where it takes none.
    #expect(try values(["thing", "list", "--to", "g", "--year", "twenty"]).value("year") == "twenty")
    #expect(try values(["thing", "list", "--to", "g", "--year"]).flag("year"))
  }

  @Test func shortOption() throws {
    let parsed = try values(["thing", "add", "x", "-o", "out.csv"])
    #expect(parsed.value("output") == "out.csv")
  }

  @Test func flagsAndGlobalOptionsAnywhere() throws {
    let parsed = try values(["--library", "/tmp/lib", "thing", "--json", "add", "x", "--force", "-q"])
    #expect(parsed.flag("force"))
    #expect(parsed.flag("json"))
    #expect(parsed.flag("quiet"))
    #expect(parsed.value("library") == "/tmp/lib")
    #expect(GlobalOptions(parsed) == GlobalOptions(library: "/tmp/lib", json: true, quiet: true))
  }

  @Test func doubleDashEndsOptions() throws {
    let parsed = try values(["thing", "add", "--", "--force", "-x", "--help"])
    #expect(parsed.argument("name") == "--force")
    #expect(parsed.argumentList("extra") == ["-x", "--help"])
    #expect(!parsed.flag("force"))
  }

  @Test func negativeNumbersAndDashAreValues() throws {
    let parsed = try values(["thing", "add", "-15m", "-"])
    #expect(parsed.argument("name") == "-15m")
    #expect(parsed.argumentList("extra") == ["-"])
  }

  @Test func aliasSelectsCommand() throws {
    let parsed = try values(["thing", "ls", "--to", "g"])
    #expect(parsed.command == ["tool", "thing", "list"])
  }

  @Test func unknownOptionSuggestsNearest() {
    #expect(
      usageError(["thing", "add", "x", "--brnd", "y"])
        == .unknownOption(command: ["tool", "thing", "add"], given: "--brnd", suggestions: ["--brand"]))
    #expect(
      usageError(["thing", "add", "x", "--colourway=Ruby"])
        == .unknownOption(
          command: ["tool", "thing", "add"], given: "--colourway", suggestions: ["--colorway"]))
    #expect(
      usageError(["thing", "add", "x", "--zzzzzzzz"])
        == .unknownOption(command: ["tool", "thing", "add"], given: "--zzzzzzzz", suggestions: []))
    // QA: `--version` is answered under a command too, but a start or typo of it was offered
    // only at the root.
    #expect(
      usageError(["thing", "add", "x", "--verison"])
        == .unknownOption(command: ["tool", "thing", "add"], given: "--verison", suggestions: ["--version"]))
    #expect(
      usageError(["thing", "--ver"])
        == .unknownOption(command: ["tool", "thing"], given: "--ver", suggestions: ["--version"]))
  }

  @Test func unknownCommandSuggestsNearest() {
    #expect(
      usageError(["thing", "ad"])
        == .unknownCommand(command: ["tool", "thing"], given: "ad", suggestions: ["add"]))
    #expect(
      usageError(["frobnicate"])
        == .unknownCommand(command: ["tool"], given: "frobnicate", suggestions: []))
  }

  @Test func otherUsageErrors() {
    #expect(usageError(["thing"]) == .missingSubcommand(command: ["tool", "thing"]))
    #expect(
      usageError(["thing", "add"]) == .missingArgument(command: ["tool", "thing", "add"], name: "name"))
    #expect(
      usageError(["thing", "add", "x", "--brand"])
        == .missingValue(command: ["tool", "thing", "add"], option: "--brand"))
    #expect(
      usageError(["thing", "add", "x", "--force=yes"])
        == .flagWithValue(command: ["tool", "thing", "add"], option: "--force"))
    // QA: `--help=1` was an unknown option `--help`; it and `--version`, answered anywhere,
    // take no value, as every flag.
    #expect(
      usageError(["thing", "add", "x", "--help=1"])
        == .flagWithValue(command: ["tool", "thing", "add"], option: "--help"))
    #expect(
      usageError(["thing", "add", "x", "--version=yes"])
        == .flagWithValue(command: ["tool", "thing", "add"], option: "--version"))
    #expect(usageError(["--version="]) == .flagWithValue(command: ["tool"], option: "--version"))
    // QA: `-h=1`, `-q=1` were unknown options: a short flag given a value with `=` is told it
    // takes none, named as typed; `-o=FILE`, which getopt(3) reads as the value `=FILE`, is
    // refused for `-o FILE` or `--output=FILE`.
    #expect(usageError(["-h=1"]) == .flagWithValue(command: ["tool"], option: "-h"))
    #expect(usageError(["-h="]) == .flagWithValue(command: ["tool"], option: "-h"))
    #expect(
      usageError(["thing", "list", "-q=1"])
        == .flagWithValue(command: ["tool", "thing", "list"], option: "-q"))
    #expect(
      usageError(["thing", "add", "x", "-o=out.csv"])
        == .shortOptionWithEquals(
          command: ["tool", "thing", "add"], option: "-o", long: "--output", placeholder: "FILE"))
    // QA: an unknown short option was named with its value (`unknown option '-x=1'`).
    #expect(
      usageError(["thing", "list", "-o=out.csv"])
        == .unknownOption(command: ["tool", "thing", "list"], given: "-o", suggestions: []))
    #expect(
      usageError(["thing", "add", "x", "-x=1"])
        == .unknownOption(command: ["tool", "thing", "add"], given: "-x", suggestions: []))
    // QA: short options run together (`-qo=x.csv`) were an unknown option `-qo=x.csv`. They
    // cannot be combined, and are told so, with how to write them apart.
    #expect(
      usageError(["thing", "add", "x", "-qo=out.csv"])
        == .combinedShortOptions(command: ["tool", "thing", "add"], given: "-qo", apart: "-q -o FILE"))
    #expect(
      usageError(["thing", "add", "x", "-hq"])
        == .combinedShortOptions(command: ["tool", "thing", "add"], given: "-hq", apart: "-h -q"))
    // A letter that is no short option makes no combination: the word is unknown.
    #expect(
      usageError(["thing", "list", "-qo"])
        == .unknownOption(command: ["tool", "thing", "list"], given: "-qo", suggestions: []))
    #expect(
      usageError(["thing", "list", "extra", "--to", "g"])
        == .unexpectedArgument(command: ["tool", "thing", "list"], value: "extra"))
    #expect(
      usageError(["thing", "list"]) == .missingOption(command: ["tool", "thing", "list"], option: "--to"))
    #expect(usageError(["thing", "add", "x"]) == nil)
    // QA: an empty file name was taken (and then refused as 73 or 66): every value that
    // names a file or a folder (`CompletionKind.file`, `.directory`) is refused when empty or
    // only spaces, as `--library ""` is.
    #expect(
      usageError(["thing", "add", "x", "-o", ""])
        == .badValue(
          command: ["tool", "thing", "add"], name: "--output", value: "",
          reason: "a file name cannot be empty"))
    #expect(
      usageError(["--library=  ", "thing", "add", "x"])
        == .badValue(
          command: ["tool", "thing", "add"], name: "--library", value: "  ",
          reason: "a directory name cannot be empty"))
    #expect(usageError(["thing", "add", "x", "-o", "", "-o", "out.csv"]) == nil)
  }

  @Test func helpWinsAndFindsTheCommand() throws {
    guard case .help(let path) = try parser.parse(["thing", "add", "--bogus", "--help"]) else {
      Issue.record("expected help")
      return
    }
    #expect(path.map { $0.configuration.name } == ["tool", "thing", "add"])
    guard case .help(let short) = try parser.parse(["--library", "thing", "thing", "-h"]) else {
      Issue.record("expected help")
      return
    }
    // `thing` after --library is the option's value; the next `thing` is the group.
    #expect(short.map { $0.configuration.name } == ["tool", "thing"])
    guard case .run = try parser.parse(["thing", "add", "--", "--help"]) else {
      Issue.record("--help after -- is an argument")
      return
    }
  }

  @Test func versionFlag() throws {
    guard case .version = try parser.parse(["thing", "--version"]) else {
      Issue.record("expected the version")
      return
    }
  }

  @Test func generatedHelp() {
    let help = HelpGenerator.help(for: [TestRoot.self, TestGroup.self, TestAdd.self])
    let expected = """
      OVERVIEW: Add a thing.

      USAGE: tool thing add <name> [<extra> ...] [<options>]

      ARGUMENTS:
        <name>                    The name.
        <extra> ...               More words.

      OPTIONS:
        --brand <text>            The maker.
        --colorway <text>         The color.
        --force                   Replace it.
        -o, --output <file>       Where to write.
        --year [<year>]           A year, or this one.

      GLOBAL OPTIONS:
        --library <dir>           The library directory (default: $YARN_LIBRARY, else
                                  $XDG_DATA_HOME/yarn, else ~/.local/share/yarn).
        --json                    Print data as JSON.
        -q, --quiet               Print no messages, only data and errors.
        -h, --help                Show help information.
        --version                 Show the version.

      """
    #expect(help == expected)
    #expect(
      HelpGenerator.usage(for: [TestRoot.self, TestGroup.self, TestList.self])
        == "tool thing list --to <unit> [<options>]")
    let group = HelpGenerator.help(for: [TestRoot.self, TestGroup.self])
    #expect(group.contains("USAGE: tool thing <subcommand>"))
    #expect(group.contains("\n  add                       Add a thing.\n"))
    #expect(group.contains("\n  list                      List things.\n"))
  }

  /// A command-line argument that is not UTF-8 (a Latin-1 terminal's `Café`: 43 61 66 E9) is
  /// a usage error naming it, its bytes outside ASCII as `\xE9` (QA: stored as `Caf\u{FFFD}`).
  @Test func anArgumentThatIsNotUTF8IsRefused() {
    let cafe: [UInt8] = [0x43, 0x61, 0x66, 0xE9]
    let error = YarnTool.nonUTF8Argument([Array("stash".utf8), Array("add".utf8), cafe])
    #expect(
      error
        == .badValue(
          command: ["yarn"], name: "argument 3", value: "Caf\\xE9",
          reason: "it is not UTF-8 text (set the terminal to UTF-8, such as LANG=en_US.UTF-8)"))
    #expect(YarnTool.nonUTF8Argument([Array("stash".utf8), Array("Café".utf8)]) == nil)
  }

  /// `help` and `completions` print no JSON: `--json` is refused for them, saying they print
  /// text only, before their words as after; every other command still takes it anywhere.
  @Test func jsonIsRefusedWhereThereIsNoJSON() throws {
    let real = CommandParser(root: RootCommand.self)
    func error(_ arguments: [String]) -> CLIError? {
      do {
        _ = try real.parse(arguments)
        return nil
      } catch {
        return error
      }
    }
    for (arguments, command) in [
      (["help", "--json"], ["yarn", "help"]), (["--json", "help", "stash"], ["yarn", "help"]),
      (["completions", "bash", "--json"], ["yarn", "completions"]),
      (["--json", "completions", "zsh"], ["yarn", "completions"]),
    ] {
      // `--json` is a global option these refuse: said so (QA: "unknown option '--json'").
      #expect(
        error(arguments)
          == .optionDoesNotApply(command: command, option: "--json", reason: "it prints text only"),
        "\(arguments)")
    }
    let report = ErrorPresenter.report(for: try #require(error(["help", "--json"])), root: RootCommand.self)
    #expect(report.message == "'--json' does not apply to 'yarn help': it prints text only")
    #expect(report.code == .usage)
    #expect(error(["--json", "stash", "list"]) == nil && error(["undo", "--list", "--json"]) == nil)
  }

  /// A group without a subcommand lists the subcommands people may type, not the hidden
  /// `__complete`.
  @Test func missingSubcommandListsOnlyVisibleCommands() {
    let report = ErrorPresenter.report(
      for: CLIError.missingSubcommand(command: ["yarn"]), root: RootCommand.self)
    #expect(
      report.message
        == "'yarn' needs a subcommand: stash, project, note, backup, time, tool, summary, convert, "
        + "export, weft, undo, redo, help, completions")
  }

  @Test func usageErrorReport() {
    let report = ErrorPresenter.report(
      for: CLIError.unknownOption(
        command: ["tool", "thing", "add"], given: "--brnd", suggestions: ["--brand"]),
      root: TestRoot.self)
    #expect(report.code == .usage)
    #expect(
      report.text == """
        error: unknown option '--brnd' for 'tool thing add'
        usage: tool thing add <name> [<extra> ...] [<options>]
        hint: did you mean '--brand'? (see 'tool thing add --help')

        """)
  }
}

/// Which command lines run as a long command that Ctrl-C stops between two steps
/// (`CancellableCommand`, in a task), and which run on the main thread.
@Suite struct CancellableCommandTests {
  @Test func onlyTheLongCommandsRunInATaskThatSignalsCancel() {
    let long: [[String]] = [
      ["backup", "create", "b.zip"], ["backup", "verify", "b.zip"], ["backup", "restore", "b.zip"],
      ["export", "e.zip"], ["stash", "import", "in.csv"], ["--library", "/tmp/x", "backup", "create"],
      ["weft", "import", "a.weft"],
    ]
    let short: [[String]] = [
      ["time", "start", "Flax"], ["time", "stop"], ["stash", "list"], ["undo"], ["--version"],
      ["backup", "create", "--help"], ["backup"], ["stash", "import"], ["no-such-command"], [],
    ]
    for arguments in long { #expect(YarnTool.isCancellable(arguments), "\(arguments)") }
    for arguments in short { #expect(!YarnTool.isCancellable(arguments), "\(arguments)") }
  }
}
