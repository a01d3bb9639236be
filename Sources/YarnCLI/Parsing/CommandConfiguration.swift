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
}

/// A positional argument.
struct ArgumentSpec {
  /// The name shown in usage, such as `name` (shown `<name>`), and the key in `ParsedValues`.
  var name: String
  var help: String
  var isOptional: Bool = false
  /// Takes every remaining positional value (at least one unless optional).
  var isVariadic: Bool = false

  static func required(_ name: String, _ help: String) -> ArgumentSpec {
    ArgumentSpec(name: name, help: help)
  }
  static func optional(_ name: String, _ help: String) -> ArgumentSpec {
    ArgumentSpec(name: name, help: help, isOptional: true)
  }
  static func variadic(_ name: String, _ help: String) -> ArgumentSpec {
    ArgumentSpec(name: name, help: help, isVariadic: true)
  }
}

/// An option (`--brand <text>`) or a flag (`--force`).
struct OptionSpec {
  enum Kind: Equatable {
    /// Present or not; takes no value.
    case flag
    /// Takes one value, as `--name value` or `--name=value`; given twice, the last one wins.
    case value(placeholder: String)
  }

  /// The long name without dashes, such as `brand`; the key in `ParsedValues`.
  var name: String
  /// A one-letter short name, such as `o` for `-o`.
  var short: Character?
  var kind: Kind
  var help: String
  /// Whether the command cannot run without it (shown outside brackets in the usage line).
  var isRequired: Bool = false

  static func value(
    _ name: String, _ placeholder: String, _ help: String, short: Character? = nil,
    required: Bool = false
  ) -> OptionSpec {
    OptionSpec(
      name: name, short: short, kind: .value(placeholder: placeholder), help: help,
      isRequired: required)
  }
  static func flag(_ name: String, _ help: String, short: Character? = nil) -> OptionSpec {
    OptionSpec(name: name, short: short, kind: .flag, help: help)
  }

  /// `--brand <text>` or `--force`.
  var synopsis: String {
    switch kind {
    case .flag: "--\(name)"
    case .value(let placeholder): "--\(name) <\(placeholder)>"
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
}

/// A long command that Ctrl-C (SIGINT) or SIGTERM stops between two steps, leaving nothing
/// half-written (exit 130 or 143): `main.swift` runs it in a task that the signals cancel, and
/// YarnCore checks `Task.isCancelled` between files and rows. Every other command runs on
/// the main thread with the signals' default action: it is short, and a signal ends it at
/// once, which leaves the library as it was (each change is one SQLite transaction).
protocol CancellableCommand: ParsableCommand {}

/// A command that only groups subcommands (`yarn stash`): never runs itself.
/// The parser never runs a group: a group without a subcommand is `CLIError.missingSubcommand`.
protocol CommandGroup: ParsableCommand {
  init()
}

extension CommandGroup {
  init(from values: ParsedValues) throws { self.init() }
  func run(in context: Context) throws {}
}
