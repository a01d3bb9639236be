import YarnCore

/// The command tree as the man page and the completion scripts read it: every visible
/// command (`CommandConfiguration.isHidden` left out), each with every option it accepts.
enum CommandTree {
  /// `--help`/`-h`, which every command accepts (the parser answers it before anything else).
  static let helpOption = OptionSpec.flag("help", "Show help information.", short: "h")
  /// `--version`, which every command accepts too (the parser answers it before anything
  /// but `--help`).
  static let versionOption = OptionSpec.flag("version", "Show the version.")

  /// Every visible command path under `root`, depth first in the order of the tree, the root
  /// (`[root]`) first; a path lists the commands from the root down.
  static func paths(from root: any ParsableCommand.Type) -> [[any ParsableCommand.Type]] {
    var result: [[any ParsableCommand.Type]] = []
    func visit(_ path: [any ParsableCommand.Type]) {
      result.append(path)
      for sub in visibleSubcommands(of: path[path.count - 1]) { visit(path + [sub]) }
    }
    visit([root])
    return result
  }

  /// The subcommands of `command` that help, the man page and completions show.
  static func visibleSubcommands(of command: any ParsableCommand.Type) -> [any ParsableCommand.Type] {
    command.configuration.subcommands.filter { !$0.configuration.isHidden }
  }

  /// Every option the last command of `path` accepts: its own, then its global ones
  /// (`globalOptions(of:)`).
  static func options(of path: [any ParsableCommand.Type]) -> [OptionSpec] {
    guard let command = path.last else { return [] }
    return command.configuration.options + globalOptions(of: command)
  }

  /// The options `command` accepts as every command does: the global options it takes
  /// (`GlobalOptions.specs(for:)`), `--help` and `--version`. The one list the help's GLOBAL
  /// OPTIONS, the man page, the completions and the parser's suggestions are written from.
  static func globalOptions(of command: any ParsableCommand.Type) -> [OptionSpec] {
    GlobalOptions.specs(for: command) + [helpOption, versionOption]
  }

  /// The words of `path`, such as `yarn stash add`.
  static func words(_ path: [any ParsableCommand.Type]) -> String {
    path.map { $0.configuration.name }.joined(separator: " ")
  }

  /// The option's spellings on a command line: `--brand`, and `-o` when it has a short name.
  static func spellings(of option: OptionSpec) -> [String] {
    ["--\(option.name)"] + (option.short.map { ["-\($0)"] } ?? [])
  }

  /// Whether the option takes a value.
  static func takesValue(_ option: OptionSpec) -> Bool {
    if case .value = option.kind { return true }
    return false
  }
}

extension CompletionKind {
  /// The CSV delimiters' names (`CSVOptions.delimiter(named:)`).
  static let delimiters = CompletionKind.choices(["comma", "semicolon", "tab"])

  /// A word for each CYC weight category that `YarnWeight(parsing:)` reads, both `worsted`
  /// and `aran` for 4 (it reads more: numbers 0-7, "8 ply", "light worsted", ...).
  static let yarnWeights = CompletionKind.choices([
    "lace", "fingering", "sport", "dk", "worsted", "aran", "bulky", "superbulky", "jumbo",
  ])

  /// The word naming the kind in the completion scripts' tables: `none`, `project`, `yarn`,
  /// `file`, `directory`, or `choices`.
  var scriptWord: String {
    switch self {
    case .none: "none"
    case .project: "project"
    case .yarn: "yarn"
    case .file: "file"
    case .directory: "directory"
    case .choices: "choices"
    case .command: "command"
    }
  }
}
