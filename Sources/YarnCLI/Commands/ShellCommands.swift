import YarnCore

/// `yarn help [COMMAND ...] [--man]`: the help of a command, or the manual page.
struct HelpCommand: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "help", abstract: "Show the help of a command, or the manual page (--man).",
      discussion: """
        'yarn help stash export' prints what 'yarn stash export --help' prints.
        --man prints the manual page (roff) of the command and of every command under it:
        'yarn help --man' is yarn(1), every command of yarn. Read it with
        'yarn help --man | man -l -', or install it as man1/yarn.1 (scripts/install.sh does).
        """,
      arguments: [
        .variadic(
          "command", "The command, such as stash export (default: yarn itself).", optional: true,
          completion: .command)
      ],
      options: [.flag("man", "Print the manual page (roff) instead of the help.")], takesJSON: false)
  }

  /// The command path asked about, the root first.
  var path: [any ParsableCommand.Type]
  var man: Bool

  init(from values: ParsedValues) throws {
    var path: [any ParsableCommand.Type] = [YarnTool.root]
    for word in values.argumentList("command") {
      let subcommands = CommandTree.visibleSubcommands(of: path[path.count - 1])
      guard let next = CommandParser.subcommand(named: word, in: subcommands) else {
        let names = HelpGenerator.names(path)
        if subcommands.isEmpty {
          throw CLIError.unexpectedArgument(command: values.command, value: word)
        }
        throw CLIError.unknownCommand(
          command: names, given: word,
          suggestions: EditDistance.nearest(to: word, in: subcommands.map { $0.configuration.name }))
      }
      path.append(next)
    }
    self.path = path
    man = values.flag("man")
  }

  func run(in context: Context) throws {
    context.output.write(man ? ManPage.page(for: path) : HelpGenerator.help(for: path))
  }
}

/// `yarn completions bash|zsh|fish`: the shell completion script.
struct CompletionsCommand: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "completions", abstract: "Print the shell completion script for bash, zsh or fish.",
      discussion: """
        The script completes commands, options, fixed values (crafts, statuses, ...), files,
        and the names of the library's projects and yarns (asking yarn for them).
        INSTALL (or run scripts/install.sh):
          bash: yarn completions bash > ~/.local/share/bash-completion/completions/yarn
          zsh:  yarn completions zsh > ~/.zfunc/_yarn   (with ~/.zfunc in $fpath before compinit)
          fish: yarn completions fish > ~/.config/fish/completions/yarn.fish
        """,
      arguments: [
        .required("shell", "bash, zsh or fish.", completion: .cases(of: CompletionScript.Shell.self))
      ], takesJSON: false)
  }

  var shell: CompletionScript.Shell

  init(from values: ParsedValues) throws {
    shell = try values.typedArgument("shell", expected: "bash, zsh or fish") {
      CompletionScript.Shell(rawValue: $0.trimmingSpaces().lowercased())
    }
  }

  func run(in context: Context) throws {
    context.output.write(CompletionScript.script(for: shell, root: YarnTool.root))
  }
}

/// `yarn __complete projects|yarns [-- PREFIX]`: the names the completion scripts offer,
/// one a line. Hidden: for the scripts, not for people.
///
/// Reads only the names (`LibraryStore.projectNames()`, `yarnNames()`), each once, in the
/// order the items were added; with PREFIX only the names that begin with it (case aside,
/// `Lookup.key`); never a name holding a control character. It creates no library, and says nothing when the library is missing or
/// cannot be read (it prints no names and succeeds): a completion must not print errors into
/// the line being typed.
struct CompleteNamesCommand: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "__complete", abstract: "Print the library's project or yarn names, one a line.",
      arguments: [
        .required("kind", "projects or yarns.", completion: .choices(["projects", "yarns"])),
        .optional("prefix", "Only the names that begin with this text, case aside."),
      ],
      isHidden: true)
  }

  enum Kind: String {
    case projects, yarns
  }

  var kind: Kind
  var prefix: String?

  init(from values: ParsedValues) throws {
    kind = try values.typedArgument("kind", expected: "projects or yarns") { Kind(rawValue: $0) }
    prefix = values.argument("prefix")
  }

  func run(in context: Context) throws {
    let names: [ItemName]
    do {
      names = try context.read(warnIfMissing: false) { store in
        try kind == .projects ? store.projectNames() : store.yarnNames()
      }
    } catch {
      return
    }
    let key = prefix.map(Lookup.key) ?? ""
    var seen: Set<String> = []
    for item in names where seen.insert(item.name).inserted {
      // A name with a control character (in a library changed outside yarn) is left out:
      // it would be a line break in the list, or an escape sequence typed into the line.
      guard !item.name.unicodeScalars.contains(where: Table.isControl) else { continue }
      if key.isEmpty || Lookup.key(item.name).hasPrefix(key) { context.output.line(item.name) }
    }
  }
}
