/// What a command is: its name, what it does, and what it accepts.
///
/// Modelled on swift-argument-parser's `CommandConfiguration`: every command type carries one
/// as static data, from which the parser reads the grammar and `HelpGenerator` writes the help.
struct CommandConfiguration {
  /// The word that selects the command (`add` in `yarn stash add`).
  var name: String
  /// A one-line summary, shown in the parent's command list and at the top of the help.
  var abstract: String
  /// Longer text shown after the usage in the help: rules, examples.
  var discussion: String = ""
  /// Positional arguments in order. Only the last may be `variadic`; optional ones follow
  /// required ones.
  var arguments: [ArgumentSpec] = []
  /// Options and flags of this command (the global options are added by the parser).
  var options: [OptionSpec] = []
  /// Subcommands: a command with subcommands is a group and does not run itself.
  var subcommands: [any ParsableCommand.Type] = []
  /// Other words that select the command (`ls` for `list`).
  var aliases: [String] = []
  /// Left out of the help, the man page and the completions (`yarn __complete`, which the
  /// completion scripts call); it still runs.
  var isHidden: Bool = false
  /// Whether it takes the global `--json`: not a command whose output has no JSON form
  /// (`help`, `completions`), which refuse `--json` saying they print text only
  /// (`CommandParser.jsonRefused`).
  var takesJSON: Bool = true
}

/// What the value of an argument or option names, so that shell completion can offer it
/// (`yarn completions`).
///
/// An argument or option says nothing and gets the kind its name (argument) or placeholder
/// (option) implies (`implied(by:)`): `project`, `yarn`, `file`, `dir`. A fixed set of
/// values is given explicitly (`.choices`).
enum CompletionKind: Equatable {
  /// Free text: nothing to offer.
  case none
  /// A project's name (from the library, through `yarn __complete projects`).
  case project
  /// A stash yarn's name (from the library, through `yarn __complete yarns`).
  case yarn
  /// A file path.
  case file
  /// A directory path.
  case directory
  /// One of these words.
  case choices([String])
  /// The words of a command (`yarn help stash export`): the subcommands under the words
  /// given before.
  case command

  /// The kind a name implies: `project` a project's name, `yarn` a yarn's, `file` a file,
  /// `dir` or `directory` a directory; any other name `.none`.
  static func implied(by name: String) -> CompletionKind {
    switch name {
    case "project": .project
    case "yarn": .yarn
    case "file": .file
    case "dir", "directory": .directory
    default: .none
    }
  }

  /// The raw values of `T`, such as every `Craft`.
  static func cases<T: RawRepresentable & CaseIterable>(of type: T.Type) -> CompletionKind
  where T.RawValue == String {
    .choices(T.allCases.map(\.rawValue))
  }
}

/// A positional argument.
struct ArgumentSpec {
  /// The name shown in usage, such as `name` (shown `<name>`), and the key in `ParsedValues`.
  var name: String
  var help: String
  var isOptional: Bool = false
  /// Takes every remaining positional value (at least one unless optional).
  var isVariadic: Bool = false
  /// What the value names, for completion (by default what `name` implies).
  var completion: CompletionKind = .none

  static func required(_ name: String, _ help: String, completion: CompletionKind? = nil)
    -> ArgumentSpec
  {
    ArgumentSpec(name: name, help: help, completion: completion ?? .implied(by: name))
  }
  static func optional(_ name: String, _ help: String, completion: CompletionKind? = nil)
    -> ArgumentSpec
  {
    ArgumentSpec(
      name: name, help: help, isOptional: true, completion: completion ?? .implied(by: name))
  }
  static func variadic(
    _ name: String, _ help: String, optional: Bool = false, completion: CompletionKind? = nil
  ) -> ArgumentSpec {
    ArgumentSpec(
      name: name, help: help, isOptional: optional, isVariadic: true,
      completion: completion ?? .implied(by: name))
  }
}

/// An option (`--brand <text>`) or a flag (`--force`).
struct OptionSpec {
  enum Kind: Equatable {
    /// Present or not; takes no value.
    case flag
    /// Takes one value, as `--name value` or `--name=value`; given twice, the last one wins.
    case value(placeholder: String)
    /// Given alone (`--year`), or with a value as `--name=value` or as `--name value` when
    /// the next word starts with an ASCII digit (`--year 2025`): a number, never mistaken
    /// for a command's argument or the next option.
    case optionalNumber(placeholder: String)
  }

  /// The long name without dashes, such as `brand`; the key in `ParsedValues`.
  var name: String
  /// A one-letter short name, such as `o` for `-o`.
  var short: Character?
  var kind: Kind
  var help: String
  /// Whether the command cannot run without it (shown outside brackets in the usage line).
  var isRequired: Bool = false
  /// What the value names, for completion (by default what the placeholder implies; always
  /// `.none` for a flag).
  var completion: CompletionKind = .none

  static func value(
    _ name: String, _ placeholder: String, _ help: String, short: Character? = nil,
    required: Bool = false, completion: CompletionKind? = nil
  ) -> OptionSpec {
    OptionSpec(
      name: name, short: short, kind: .value(placeholder: placeholder), help: help,
      isRequired: required, completion: completion ?? .implied(by: placeholder))
  }
  static func flag(_ name: String, _ help: String, short: Character? = nil) -> OptionSpec {
    OptionSpec(name: name, short: short, kind: .flag, help: help)
  }
  static func optionalNumber(_ name: String, _ placeholder: String, _ help: String) -> OptionSpec {
    OptionSpec(name: name, kind: .optionalNumber(placeholder: placeholder), help: help)
  }

  /// `--brand <text>`, `--force` or `--year [<year>]`.
  var synopsis: String {
    switch kind {
    case .flag: "--\(name)"
    case .value(let placeholder): "--\(name) <\(placeholder)>"
    case .optionalNumber(let placeholder): "--\(name) [<\(placeholder)>]"
    }
  }
}

/// A command of the `yarn` tool: static configuration plus a `run`.
///
/// The root parses the whole command line into `ParsedValues` before anything runs;
/// `init(from:)` then reads and checks the typed values (throwing `CLIError` for a bad one), and
/// `run(in:)` does the work in one store transaction.
protocol ParsableCommand {
  static var configuration: CommandConfiguration { get }
  init(from values: ParsedValues) throws
  func run(in context: Context) throws
  /// Whether the command is a `CancellableCommand` (true) or runs on the main thread (false,
  /// the default). A requirement, so that `main.swift` asks the parsed type itself: the
  /// dynamic cast `type is any CancellableCommand.Type` searched every protocol conformance
  /// of the program, 0.16 M instructions at every start (bench/README.md).
  static var isCancellable: Bool { get }
}

extension ParsableCommand {
  static var isCancellable: Bool { false }
}

/// A long command that Ctrl-C (SIGINT) or SIGTERM stops between two steps, leaving nothing
/// half-written (exit 130 or 143): `main.swift` runs it in a task that the signals cancel, and
/// YarnCore checks `Task.isCancelled` between files and rows. Every other command runs on
/// the main thread with the signals' default action: it is short, and a signal ends it at
/// once, which leaves the library as it was (each change is one SQLite transaction).
protocol CancellableCommand: ParsableCommand {}

extension CancellableCommand {
  static var isCancellable: Bool { true }
}

/// A command that only groups subcommands (`yarn stash`): never runs itself.
/// The parser never runs a group: a group without a subcommand is `CLIError.missingSubcommand`.
protocol CommandGroup: ParsableCommand {
  init()
}

extension CommandGroup {
  init(from values: ParsedValues) throws { self.init() }
  func run(in context: Context) throws {}
}
