import YarnCore

/// What a command line asks for, once parsed.
enum ParseResult {
  /// Run `command` with `values`.
  case run(any ParsableCommand.Type, ParsedValues)
  /// Print the help of the command at this path (`--help`, `-h`).
  case help([any ParsableCommand.Type])
  /// Print the version (`--version`).
  case version
}

/// Parses a command line against a command tree, modelled on swift-argument-parser: the whole
/// line is read before anything runs.
///
/// Grammar: words select subcommands of groups (`yarn stash add`); `--name value` and
/// `--name=value` give option values; `-x value` for a short name (`-x=value` is refused, and
/// so are short names run together, `-qo`);
/// flags take no value; an optional number (`--year`, `--year 2025`) takes the next word when
/// it starts with a digit or the command takes no positional argument; other words are
/// positional arguments; after `--` every word is positional. The global options
/// (`GlobalOptions.specs`) are accepted by every command, anywhere on the line. `--help`/`-h`
/// and `--version` before any `--` win over everything else, even over errors.
struct CommandParser {
  let root: any ParsableCommand.Type

  /// Parses `arguments` (without the program name).
  ///
  /// - Throws: a usage `CLIError` (unknown command or option, missing value or argument, extra
  ///   argument, a group with no subcommand).
  func parse(_ arguments: [String]) throws(CLIError) -> ParseResult {
    let beforeTerminator = arguments.prefix { $0 != "--" }
    if beforeTerminator.contains("--help") || beforeTerminator.contains("-h") {
      return .help(commandPath(of: arguments))
    }
    if beforeTerminator.contains("--version") { return .version }

    var path: [any ParsableCommand.Type] = [root]
    var values = ParsedValues(command: [root.configuration.name])
    var positionals: [String] = []
    var index = 0
    var afterTerminator = false

    while index < arguments.count {
      let word = arguments[index]
      index += 1
      let command = path[path.count - 1]
      if !afterTerminator && word == "--" {
        afterTerminator = true
        continue
      }
      if !afterTerminator && CommandParser.looksLikeOption(word) {
        let (spec, inline) = try option(for: word, in: path, values: values)
        switch spec.kind {
        case .flag:
          if inline != nil {
            throw .flagWithValue(command: values.command, option: "--\(spec.name)")
          }
          values.flags.insert(spec.name)
        case .value:
          var value = inline
          if value == nil, index < arguments.count {
            value = arguments[index]
            index += 1
          }
          guard let value else {
            throw .missingValue(command: values.command, option: "--\(spec.name)")
          }
          values.options[spec.name, default: []].append(value)
        case .optionalNumber:
          var value = inline
          if value == nil, index < arguments.count,
            CommandParser.isOptionalNumber(arguments[index], of: command)
          {
            value = arguments[index]
            index += 1
          }
          if let value {
            values.options[spec.name, default: []].append(value)
          } else {
            values.flags.insert(spec.name)
          }
        }
        continue
      }
      let subcommands = command.configuration.subcommands
      if !subcommands.isEmpty && !afterTerminator {
        guard let next = CommandParser.subcommand(named: word, in: subcommands) else {
          let names = CommandTree.visibleSubcommands(of: command).map { $0.configuration.name }
          throw .unknownCommand(
            command: values.command, given: word,
            suggestions: EditDistance.nearest(to: word, in: names))
        }
        path.append(next)
        values.command.append(next.configuration.name)
        continue
      }
      positionals.append(word)
    }

    let command = path[path.count - 1]
    if !command.configuration.subcommands.isEmpty {
      if let first = positionals.first {
        if CommandParser.subcommand(named: first, in: command.configuration.subcommands) != nil {
          // Only a word after `--` gets here: `yarn -- stash list`.
          throw .commandAfterTerminator(command: values.command, given: first)
        }
        let names = CommandTree.visibleSubcommands(of: command).map { $0.configuration.name }
        throw .unknownCommand(
          command: values.command, given: first,
          suggestions: EditDistance.nearest(to: first, in: names))
      }
      throw .missingSubcommand(command: values.command)
    }
    // `--json` given before the command's words (`yarn --json help`), where every command
    // took it: refused as after them.
    if values.flags.contains("json") && !command.configuration.takesJSON {
      throw CommandParser.jsonRefused(values.command)
    }
    values.arguments = try assign(positionals, to: command.configuration.arguments, values)
    for spec in command.configuration.options where spec.isRequired {
      if values.options[spec.name] == nil && !values.flags.contains(spec.name) {
        throw .missingOption(command: values.command, option: "--\(spec.name)")
      }
    }
    try CommandParser.refuseEmptyNames(in: values, of: command)
    return .run(command, values)
  }

  /// The command path a help request is about: the subcommand words up to the first that is
  /// not one; options and their values are skipped leniently.
  func commandPath(of arguments: [String]) -> [any ParsableCommand.Type] {
    var path: [any ParsableCommand.Type] = [root]
    var index = 0
    while index < arguments.count {
      let word = arguments[index]
      index += 1
      if word == "--" { break }
      let command = path[path.count - 1]
      if CommandParser.looksLikeOption(word) {
        // Skip the value of a known value option given as `--name value`.
        if !word.contains("="), let spec = CommandParser.spec(for: word, in: command) {
          switch spec.kind {
          case .value: index += 1
          case .optionalNumber
          where arguments.indices.contains(index)
            && CommandParser.isOptionalNumber(arguments[index], of: command):
            index += 1
          case .flag, .optionalNumber: break
          }
        }
        continue
      }
      guard let next = CommandParser.subcommand(named: word, in: command.configuration.subcommands)
      else { break }
      path.append(next)
    }
    return path
  }

  // MARK: Pieces

  /// Whether `word` is meant as an option: it starts with `-` and is not `-` alone or a
  /// negative number (`-2`, `-1.5`), which are values.
  static func looksLikeOption(_ word: String) -> Bool {
    guard word.hasPrefix("-"), word != "-" else { return false }
    let rest = word.dropFirst()
    if let first = rest.first, first.isASCII, first.isNumber { return false }
    return true
  }

  /// Whether `word`, after an optional number option (`--year`), is its value: it starts
  /// with an ASCII digit, or it is no option and `command` takes no positional argument (so
  /// that `--year twenty` is a bad year, not an unexpected argument).
  static func isOptionalNumber(_ word: String, of command: any ParsableCommand.Type) -> Bool {
    if let first = word.first, first.isASCII, first.isNumber { return true }
    return !looksLikeOption(word) && word != "--" && command.configuration.arguments.isEmpty
      && command.configuration.subcommands.isEmpty
  }

  /// Refuses a file or folder name that is blank (`LineText.isBlank`: empty, or only spaces
  /// or invisible characters such as U+200B, as a blank reference is): the value (the last one
  /// given) of every option, and each value of every argument, of `command` that names a file
  /// or a folder (`CompletionKind.file`, `.directory`). Such a name (an unset shell
  /// variable, say) names nothing: it must not quietly mean the default library, the current
  /// directory or standard output, nor be tried as a file.
  ///
  /// - Throws: `CLIError.badValue` naming the option (`--output`, as the long name) or the
  ///   argument (`<file>`): `a file name cannot be empty`, `a directory name cannot be empty`.
  static func refuseEmptyNames(
    in values: ParsedValues, of command: any ParsableCommand.Type
  ) throws(CLIError) {
    let options = allOptions(of: command).map { option in
      ("--\(option.name)", option.completion, values.value(option.name).map { [$0] } ?? [])
    }
    let arguments = command.configuration.arguments.map { argument in
      ("<\(argument.name)>", argument.completion, values.argumentList(argument.name))
    }
    for (label, kind, given) in options + arguments {
      let noun: String
      switch kind {
      case .file: noun = "file name"
      case .directory: noun = "directory name"
      default: continue
      }
      if let empty = given.first(where: { LineText.isBlank($0) }) {
        throw .badValue(
          command: values.command, name: label, value: empty,
          reason: "a \(noun) cannot be empty")
      }
    }
  }

  /// The global `--json` given to a command that prints text only (`help`, `completions`:
  /// `CommandConfiguration.takesJSON`), wherever on the line: said so, not as an unknown
  /// option (64).
  static func jsonRefused(_ command: [String]) -> CLIError {
    .optionDoesNotApply(command: command, option: "--json", reason: "it prints text only")
  }

  static func subcommand(named word: String, in subcommands: [any ParsableCommand.Type])
    -> (any ParsableCommand.Type)?
  {
    subcommands.first {
      $0.configuration.name == word || $0.configuration.aliases.contains(word)
    }
  }

  /// Every option `command` accepts: its own, then the global ones it takes.
  static func allOptions(of command: any ParsableCommand.Type) -> [OptionSpec] {
    command.configuration.options + GlobalOptions.specs(for: command)
  }

  static func spec(for word: String, in command: any ParsableCommand.Type) -> OptionSpec? {
    let options = allOptions(of: command)
    if word.hasPrefix("--") {
      let name =
        word.dropFirst(2).split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        .first.map(String.init) ?? ""
      return options.first { $0.name == name }
    }
    let letters = Array(word.dropFirst())
    guard letters.count == 1 else { return nil }
    return options.first { $0.short == letters[0] }
  }

  private func option(
    for word: String, in path: [any ParsableCommand.Type], values: ParsedValues
  ) throws(CLIError) -> (OptionSpec, String?) {
    let command = path[path.count - 1]
    var inline: String?
    if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
      inline = String(word[word.index(after: equals)...])
    }
    guard let spec = CommandParser.spec(for: word, in: command) else {
      // The option as typed, without a value given with `=` (`--brnd=x`, `-x=1`).
      let typed = word.firstIndex(of: "=").map { String(word[..<$0]) } ?? word
      if typed == "--json" { throw CommandParser.jsonRefused(values.command) }
      let given = typed.count > 1 ? typed : word
      // `--help` and `--version` are answered before parsing, anywhere on the line, but a
      // start or a typo of them (`--h`, `stash --ver`, `--verison`) is offered them too
      // (they are among every command's options), and either given a value (`--help=1`) is
      // told it takes none, as every flag is.
      let names = CommandTree.options(of: path).map { "--\($0.name)" }
      if inline != nil, names.contains(given) {
        throw .flagWithValue(command: values.command, option: given)
      }
      if !word.hasPrefix("--") {
        let options = CommandTree.options(of: path)
        let shorts = given.dropFirst().compactMap { letter in options.first { $0.short == letter } }
        // A short option written with `=` (`-h=1`, `-o=FILE`): a flag is told it takes no
        // value, as `--help=1` is; a value is refused, not read as `=FILE` as getopt(3)
        // reads it.
        if shorts.count == 1, given.count == 2, given != word {
          switch shorts[0].kind {
          case .flag: throw .flagWithValue(command: values.command, option: given)
          case .value(let placeholder), .optionalNumber(let placeholder):
            throw .shortOptionWithEquals(
              command: values.command, option: given, long: "--\(shorts[0].name)",
              placeholder: placeholder.uppercased())
          }
        }
        // Short options run together (`-qo FILE`, `-qo=FILE`), which getopt(3) reads as
        // `-q -o FILE`: not combined here, and told how to write them apart.
        if shorts.count > 1, shorts.count == given.count - 1 {
          let apart = shorts.map { option in
            switch option.kind {
            case .flag: "-\(option.short ?? "?")"
            case .value(let placeholder), .optionalNumber(let placeholder):
              "-\(option.short ?? "?") \(placeholder.uppercased())"
            }
          }
          throw .combinedShortOptions(
            command: values.command, given: given, apart: apart.joined(separator: " "))
        }
      }
      throw .unknownOption(
        command: values.command, given: given,
        suggestions: EditDistance.nearest(to: given, in: names))
    }
    return (spec, inline)
  }

  private func assign(
    _ positionals: [String], to specs: [ArgumentSpec], _ values: ParsedValues
  ) throws(CLIError) -> [String: [String]] {
    var assigned: [String: [String]] = [:]
    var remaining = positionals[...]
    for spec in specs {
      if spec.isVariadic {
        if remaining.isEmpty && !spec.isOptional {
          throw .missingArgument(command: values.command, name: spec.name)
        }
        if !remaining.isEmpty { assigned[spec.name] = Array(remaining) }
        remaining = []
      } else if let value = remaining.first {
        assigned[spec.name] = [value]
        remaining = remaining.dropFirst()
      } else if !spec.isOptional {
        throw .missingArgument(command: values.command, name: spec.name)
      }
    }
    if let extra = remaining.first {
      throw .unexpectedArgument(command: values.command, value: extra)
    }
    return assigned
  }
}
