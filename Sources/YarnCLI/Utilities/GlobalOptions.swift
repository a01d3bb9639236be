import YarnCore

/// The options every command accepts, anywhere on the line.
struct GlobalOptions: Equatable {
  /// `--library DIR`: the library directory, before `$YARN_LIBRARY` and the default.
  var library: String?
  /// `--json`: data as JSON on standard output.
  var json: Bool
  /// `--quiet`: no messages on standard error other than errors and warnings.
  var quiet: Bool

  static let specs: [OptionSpec] = [
    .value(
      "library", "dir",
      "The library directory (default: $YARN_LIBRARY, else $XDG_DATA_HOME/yarn, else ~/.local/share/yarn)."),
    .flag("json", "Print data as JSON."),
    .flag("quiet", "Print no messages, only data and errors.", short: "q"),
  ]

  /// The global options `command` takes: all of them, but `--json` only when it takes it
  /// (`CommandConfiguration.takesJSON`).
  static func specs(for command: any ParsableCommand.Type) -> [OptionSpec] {
    command.configuration.takesJSON ? specs : specs.filter { $0.name != "json" }
  }

  init(library: String? = nil, json: Bool = false, quiet: Bool = false) {
    self.library = library
    self.json = json
    self.quiet = quiet
  }

  /// The global options of a parsed command line; the parser has refused `--library ""`
  /// (`CommandParser.refuseEmptyNames(in:of:)`), which must not quietly mean the default
  /// library.
  init(_ values: ParsedValues) {
    self.init(library: values.value("library"), json: values.flag("json"), quiet: values.flag("quiet"))
  }
}
