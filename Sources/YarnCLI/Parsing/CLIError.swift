/// Everything that can go wrong in the `yarn` tool itself, as data.
///
/// Commands throw these (and YarnCore's own errors); `ErrorPresenter` alone turns any of them
/// into the `error:` and `hint:` lines and the exit status, and `YarnTool.main` alone prints
/// them. `command` is the command path such as `["yarn", "stash", "add"]`, used for the usage
/// line and the `See 'yarn stash add --help'` hint.
enum CLIError: Error, Equatable {
  // MARK: Usage errors (exit 64, EX_USAGE)

  /// Thrown when a word names no subcommand of a group; `suggestions` are the nearest ones
  /// (`EditDistance.nearest(to:in:)`).
  case unknownCommand(command: [String], given: String, suggestions: [String])
  /// Thrown when a command word comes after `--` (`yarn -- stash list`), where it is an
  /// argument.
  case commandAfterTerminator(command: [String], given: String)
  /// Thrown when a group (`yarn stash`) is given without a subcommand.
  case missingSubcommand(command: [String])
  /// Thrown when an option is not known to the command; `suggestions` are the options it
  /// may mean (`EditDistance.nearest(to:in:)`): all those it begins, else the nearest.
  case unknownOption(command: [String], given: String, suggestions: [String])
  /// Thrown when an option that takes a value comes last with none.
  case missingValue(command: [String], option: String)
  /// Thrown when a flag is given a value (`--force=yes`).
  case flagWithValue(command: [String], option: String)
  /// Thrown when a short option that takes a value is written with `=` (`-o=FILE`, which
  /// getopt(3) would read as the value `=FILE`): `option` is `-o`, `long` `--output`,
  /// `placeholder` `FILE`.
  case shortOptionWithEquals(command: [String], option: String, long: String, placeholder: String)
  /// Thrown when short options are run together in one word (`-qo`, `-qo=FILE`), which
  /// getopt(3) reads as `-q -o`: `given` is `-qo`, `apart` how to write them (`-q -o FILE`).
  case combinedShortOptions(command: [String], given: String, apart: String)
  /// Thrown when an option or argument value cannot be read: `name` is `--quantity` or
  /// `<amount>`, `value` as typed (`ErrorPresenter` escapes what is invisible), `reason` says
  /// why in lower case.
  case badValue(command: [String], name: String, value: String, reason: String)
  /// Thrown when an option the command needs is not given (`yarn convert` without `--to`).
  case missingOption(command: [String], option: String)
  /// Thrown when a required positional argument is missing.
  case missingArgument(command: [String], name: String)
  /// Thrown when more positional arguments are given than the command takes.
  case unexpectedArgument(command: [String], value: String)
  /// Thrown when exactly one of several options is needed and none or more than one is given.
  case needsExactlyOne(command: [String], options: [String])
  /// Thrown when at least one of several options is needed and none is given (`time edit`
  /// with nothing to change).
  case needsOneOf(command: [String], options: [String])
  /// Thrown when an option the command accepts cannot be used in this case (`--json` with an
  /// export that writes CSV); `reason` says why in lower case. `to` names the case when it is
  /// not the command's every use (`a needle or hook size`, which `convert` takes as well as
  /// an amount); the command is named otherwise.
  case optionDoesNotApply(command: [String], option: String, to: String? = nil, reason: String)
  /// Thrown when options the command accepts are given together but cannot be (`--status`
  /// and `--stashed`); `reason` says why in lower case.
  case conflictingOptions(command: [String], options: [String], reason: String)

  // MARK: Other errors

  /// Thrown when a yarn or project reference matches nothing (exit 65). `kind` is `yarn`,
  /// `project` or `session`; `suggestions` the nearest names, when near enough.
  case notFound(kind: String, reference: String, suggestions: [String] = [])
  /// Thrown when a reference matches several items (exit 64, as it is the reference that is
  /// not precise enough): `(id, name)` of each.
  case ambiguous(kind: String, reference: String, candidates: [Candidate])
  /// Thrown when an input file or directory does not exist or cannot be looked up (exit 66):
  /// `reason` is the system's (`POSIX.errnoText()`: no such file or directory, too many levels
  /// of symbolic links, not a directory, permission denied, …).
  case inputMissing(path: String, reason: String)
  /// Thrown when an input path exists but cannot be used as the file wanted (exit 66): a
  /// directory, a FIFO or device, or a file without read permission; or when standard input
  /// (`-`) is empty, closed or cannot be read.
  case inputUnusable(path: String, reason: String)
  /// Thrown when an output file exists and `--force` was not given (exit 73).
  case outputExists(path: String)
  /// Thrown when an output file cannot be created (exit 73).
  case cannotCreateOutput(path: String, reason: String)
  /// Thrown when reading or writing fails midway (exit 74).
  case io(path: String, reason: String)
  /// Thrown when the input is well formed but breaks a rule (exit 65), with a hint.
  case invalidData(message: String, hint: String?)

  /// An item a reference could mean.
  struct Candidate: Equatable {
    var id: String
    var name: String
  }

  /// The command path of a usage error.
  var command: [String]? {
    switch self {
    case .unknownCommand(let command, _, _), .commandAfterTerminator(let command, _),
      .missingSubcommand(let command),
      .unknownOption(let command, _, _), .missingValue(let command, _),
      .flagWithValue(let command, _), .shortOptionWithEquals(let command, _, _, _),
      .combinedShortOptions(let command, _, _),
      .badValue(let command, _, _, _),
      .missingOption(let command, _),
      .missingArgument(let command, _), .unexpectedArgument(let command, _),
      .needsExactlyOne(let command, _), .needsOneOf(let command, _),
      .optionDoesNotApply(let command, _, _, _),
      .conflictingOptions(let command, _, _):
      command
    default: nil
    }
  }
}

/// Exit statuses, from BSD's sysexits.h (sysexits(3)).
enum ExitCode: Int32, CaseIterable {
  case success = 0
  /// EX_USAGE: the command was used wrongly (unknown option, bad value, missing argument).
  case usage = 64
  /// EX_DATAERR: the input data was incorrect (a corrupt backup, a reference that matches
  /// nothing, a rule broken).
  case dataError = 65
  /// EX_NOINPUT: an input file did not exist or was not readable.
  case noInput = 66
  /// EX_UNAVAILABLE: a system library the command needs (libzip, libcrypto) is missing.
  case unavailable = 69
  /// EX_SOFTWARE: an internal error.
  case software = 70
  /// EX_CANTCREAT: an output file cannot be created.
  case cannotCreate = 73
  /// EX_IOERR: an error while doing I/O.
  case ioError = 74
  /// EX_TEMPFAIL: a temporary failure (the library stayed busy); try again.
  case tempFail = 75
  /// 128 + SIGINT: stopped by Ctrl-C (the shells' convention for a signal).
  case interrupted = 130
  /// 128 + SIGTERM: stopped by SIGTERM.
  case terminated = 143
}

extension ExitCode {
  /// What the status means, for the man page's EXIT STATUS.
  var meaning: String {
    switch self {
    case .success: "Success."
    case .usage:
      "The command was used wrongly: an unknown command or option, a bad value (an empty file or "
        + "folder name too), a blank YARN_LIBRARY, a missing argument."
    case .dataError:
      "Bad input data: a rule broken, a reference that matches nothing, a corrupt backup or CSV."
    case .noInput: "An input file does not exist or cannot be read, or standard input (-) is closed."
    case .unavailable: "A system library the command needs (libzip, libcrypto) is missing."
    case .software: "An internal error."
    case .cannotCreate:
      "An output file cannot be created (it exists: --force replaces it; its directory is missing "
        + "or read-only; it is one of the library's own files, which --force never replaces), or a "
        + "restore into a library that is not empty was given neither --replace nor --merge."
    case .ioError: "An error while reading or writing."
    case .tempFail: "The library stayed busy (other commands were writing to it); try again."
    case .interrupted: "Stopped by Ctrl-C (SIGINT); the library is as it was."
    case .terminated: "Stopped by SIGTERM; the library is as it was."
    }
  }
}
