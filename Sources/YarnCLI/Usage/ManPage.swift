/// The man page `yarn help --man` prints: roff for man(7), written from the command tree and
/// the same texts as the help (`HelpGenerator`): every visible command with its usage,
/// arguments, options and discussion.
enum ManPage {
  /// The page of the command at `path` (the root first) and every command under it: for the
  /// root `yarn(1)`, else such as `yarn-stash(1)`.
  static func page(for path: [any ParsableCommand.Type]) -> String {
    guard let command = path.last else { return "" }
    let config = command.configuration
    let title = HelpGenerator.names(path).joined(separator: "-")
    var out = ".\\\" The manual page of \(escaped(title)), written by `yarn help --man`.\n"
    out += ".TH \(quotedArgument(title.uppercased())) 1 \"\" \(quotedArgument("yarn \(YarnTool.version)"))"
    out += " \"User Commands\"\n"
    out += ".SH NAME\n\(escaped(title)) \\- \(escaped(config.abstract))\n"

    out += ".SH SYNOPSIS\n"
    out += synopsis(path)
    out += ".SH DESCRIPTION\n"
    out += paragraph(config.abstract)
    if !config.discussion.isEmpty { out += preformatted(config.discussion) }
    if !config.arguments.isEmpty {
      out += ".SS Arguments\n"
      out += arguments(config.arguments)
    }

    out += ".SH OPTIONS\n"
    out += options(CommandTree.options(of: path))

    let below = CommandTree.paths(from: command).dropFirst()
    if !below.isEmpty {
      out += ".SH COMMANDS\n"
      for tail in below {
        let sub = path + tail.dropFirst()
        let subConfig = sub[sub.count - 1].configuration
        out += ".SS \(quotedArgument(HelpGenerator.names(sub).joined(separator: " ")))\n"
        out += paragraph(subConfig.abstract)
        if !subConfig.aliases.isEmpty {
          out += paragraph("Also: " + subConfig.aliases.joined(separator: ", ") + ".")
        }
        out += ".PP\n" + synopsis(sub)
        if !subConfig.arguments.isEmpty {
          out += ".PP\nArguments:\n.RS\n" + arguments(subConfig.arguments) + ".RE\n"
        }
        if !subConfig.options.isEmpty {
          out += ".PP\nOptions:\n.RS\n" + options(subConfig.options) + ".RE\n"
        }
        if !subConfig.discussion.isEmpty { out += preformatted(subConfig.discussion) }
      }
    }

    out += ".SH EXIT STATUS\n"
    for code in ExitCode.allCases {
      out += ".TP\n.B \(code.rawValue)\n\(escaped(code.meaning))\n"
    }
    out += ".SH ENVIRONMENT\n"
    let environment = [
      (
        "YARN_LIBRARY",
        "The library directory, when --library is not given; an empty one is as if unset, and one "
          + "of only spaces or invisible characters is refused (64)."
      ),
      (
        "XDG_DATA_HOME",
        "Without YARN_LIBRARY, the library is $XDG_DATA_HOME/yarn, when it is an absolute path."
      ),
      (
        "HOME",
        "Without either, the library is ~/.local/share/yarn. A HOME that is blank or not an absolute "
          + "path is refused (64)."
      ),
      ("TZ", "The local time zone, which times are read and shown in."),
      (
        "COLUMNS",
        "On a terminal, the width tables and time report --chart fit (a whole number 1-10000; "
          + "else the terminal's own width)."
      ),
      (
        "YARN_FORCE_TERMINAL",
        "1 fits tables as if standard output were a terminal (for tests and scripts)."
      ),
      (
        "TMPDIR",
        "Where a file read from standard input (-) is copied, to a temporary file removed at the "
          + "end; /tmp when unset."
      ),
    ]
    for (name, help) in environment { out += ".TP\n.B \(name)\n\(escaped(help))\n" }
    out += ".SH FILES\n"
    out += ".TP\n.I ~/.local/share/yarn/library.sqlite\n"
    out +=
      escaped(
        "The library (SQLite 3) in the default library directory; the attachments "
          + "(photos, pattern PDFs) are files beside it.") + "\n"
    out += ".SH SEE ALSO\n"
    out += ".BR sqlite3 (1).\n"
    out += escaped("docs/CLI.md of the yarn sources describes every command at length; ")
    out += escaped("`yarn completions bash|zsh|fish` prints the shell completion scripts.") + "\n"
    return out
  }

  /// `yarn stash add <name> [<options>]` in bold and italics.
  private static func synopsis(_ path: [any ParsableCommand.Type]) -> String {
    let usage = HelpGenerator.usage(for: path)
    let names = HelpGenerator.names(path).joined(separator: " ")
    let rest = usage.dropFirst(names.count).trimmingPrefix(" ")
    var out = ".B \(quotedArgument(names))\n"
    if !rest.isEmpty { out += escaped(String(rest)) + "\n" }
    return out
  }

  private static func arguments(_ arguments: [ArgumentSpec]) -> String {
    arguments.map { argument in
      let label = "<\(argument.name)>" + (argument.isVariadic ? " ..." : "")
      return ".TP\n.I \(quotedArgument(label))\n\(escaped(argument.help))\n"
    }.joined()
  }

  private static func options(_ options: [OptionSpec]) -> String {
    options.map { option in
      var label = option.short.map { "\\fB\\-\($0)\\fR, " } ?? ""
      label += "\\fB\(escaped("--" + option.name))\\fR"
      switch option.kind {
      case .flag: break
      case .value(let placeholder): label += " \\fI\(escaped(placeholder))\\fR"
      case .optionalNumber(let placeholder): label += " [\\fI\(escaped(placeholder))\\fR]"
      }
      return ".TP\n\(label)\n\(escaped(option.help))\n"
    }.joined()
  }

  private static func paragraph(_ text: String) -> String {
    ".PP\n" + escaped(text) + "\n"
  }

  /// Text whose line breaks and indentation matter (a discussion, with examples), shown as
  /// it is; an empty line becomes `.sp`.
  private static func preformatted(_ text: String) -> String {
    var out = ".PP\n.nf\n"
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      out += line.allSatisfy({ $0 == " " }) ? ".sp\n" : escaped(String(line)) + "\n"
    }
    if text.hasSuffix("\n") { out.removeLast(".sp\n".count) }
    return out + ".fi\n"
  }

  /// `text` as roff text: a backslash written `\e`, a hyphen-minus `\-` (so that it stays a
  /// minus sign that can be searched and copied), a character outside ASCII `\[uXXXX]`, and
  /// a line beginning with `.` or `'` (a request to roff) guarded with `\&`.
  static func escaped(_ text: String) -> String {
    var out = ""
    var atLineStart = true
    for scalar in text.unicodeScalars {
      if atLineStart, scalar == "." || scalar == "'" { out += "\\&" }
      atLineStart = scalar == "\n"
      switch scalar {
      case "\\": out += "\\e"
      case "-": out += "\\-"
      case _ where !scalar.isASCII:
        let hex = String(scalar.value, radix: 16, uppercase: true)
        out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// `text` as one argument of a request (`.SS "yarn stash add"`): escaped, in double
  /// quotes, a double quote inside written `""`.
  private static func quotedArgument(_ text: String) -> String {
    "\"" + escaped(text).replacing("\"", with: "\"\"") + "\""
  }
}
