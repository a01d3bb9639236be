/// Writes the help of a command from its configuration, in swift-argument-parser's layout:
/// OVERVIEW, USAGE, ARGUMENTS, OPTIONS, GLOBAL OPTIONS, SUBCOMMANDS, then the discussion.
enum HelpGenerator {
  /// The width help text is wrapped to.
  static let width = 80
  /// The column where the description of an option or argument starts.
  static let labelColumn = 28

  /// The full help of the last command of `path` (the root first).
  static func help(for path: [any ParsableCommand.Type]) -> String {
    guard let command = path.last else { return "" }
    let config = command.configuration
    var out = ""
    out += "OVERVIEW: \(config.abstract)\n\n"
    out += "USAGE: \(usage(for: path))\n"

    if !config.arguments.isEmpty {
      out += "\nARGUMENTS:\n"
      for argument in config.arguments {
        out += row(label: argumentLabel(argument), help: argument.help)
      }
    }
    let ownOptions = config.options
    if !ownOptions.isEmpty {
      out += "\nOPTIONS:\n"
      for option in ownOptions { out += row(label: optionLabel(option), help: option.help) }
    }
    out += "\nGLOBAL OPTIONS:\n"
    for option in CommandTree.globalOptions(of: command) {
      out += row(label: optionLabel(option), help: option.help)
    }

    if !config.subcommands.isEmpty {
      out += "\nSUBCOMMANDS:\n"
      for sub in CommandTree.visibleSubcommands(of: command) {
        out += row(label: sub.configuration.name, help: sub.configuration.abstract)
      }
      out += "\n  See '\(names(path).joined(separator: " ")) <subcommand> --help' for detailed help.\n"
    }
    if !config.discussion.isEmpty {
      out += "\n" + config.discussion
      if !config.discussion.hasSuffix("\n") { out += "\n" }
    }
    return out
  }

  /// The usage line without `USAGE:`, such as `yarn stash add <name> [<options>]`.
  static func usage(for path: [any ParsableCommand.Type]) -> String {
    guard let command = path.last else { return "" }
    let config = command.configuration
    var parts = names(path)
    if !config.subcommands.isEmpty {
      parts.append("<subcommand>")
      return parts.joined(separator: " ")
    }
    for argument in config.arguments {
      var text = "<\(argument.name)>"
      if argument.isVariadic { text += " ..." }
      parts.append(argument.isOptional ? "[\(text)]" : text)
    }
    for option in config.options where option.isRequired { parts.append(option.synopsis) }
    if config.options.contains(where: { !$0.isRequired }) { parts.append("[<options>]") }
    return parts.joined(separator: " ")
  }

  static func names(_ path: [any ParsableCommand.Type]) -> [String] {
    path.map { $0.configuration.name }
  }

  private static func argumentLabel(_ argument: ArgumentSpec) -> String {
    "<\(argument.name)>" + (argument.isVariadic ? " ..." : "")
  }

  private static func optionLabel(_ option: OptionSpec) -> String {
    if let short = option.short { return "-\(short), \(option.synopsis)" }
    return option.synopsis
  }

  /// `  label      help`, the help wrapped at `width` and indented to `labelColumn`; a label
  /// too long for its column puts the help on the next line.
  static func row(label: String, help: String) -> String {
    let indent = String(repeating: " ", count: labelColumn)
    var out = "  " + label
    let lines = wrap(help, width: width - labelColumn)
    if out.count + 1 > labelColumn {
      out += "\n"
      for line in lines { out += indent + line + "\n" }
      return out
    }
    out += String(repeating: " ", count: labelColumn - out.count)
    for (index, line) in lines.enumerated() {
      out += (index == 0 ? "" : indent) + line + "\n"
    }
    if lines.isEmpty { out += "\n" }
    return out
  }

  /// Splits `text` into lines of at most `width` characters at spaces (a longer word gets a
  /// line of its own).
  static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ", omittingEmptySubsequences: true) {
      if line.isEmpty {
        line = String(word)
      } else if line.count + 1 + word.count <= width {
        line += " " + word
      } else {
        lines.append(line)
        line = String(word)
      }
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }
}
