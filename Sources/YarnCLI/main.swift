import Dispatch
import YarnCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// A closed standard input (`yarn stash import - <&-`) would let the next descriptor opened
// (the runtime's) take number 0, and `-` would then read that: /dev/null is put there first,
// open for writing only, which `StandardInput.readAll` refuses as closed (66).
if fcntl(0, F_GETFD) == -1 { _ = open("/dev/null", O_WRONLY) }

// Writing to a closed pipe (`yarn stash list | head -1`) fails with EPIPE instead of killing
// the process, so that the error is reported and the store closed.
signal(SIGPIPE, SIG_IGN)

/// The environment variables `yarn` reads (`YARN_LIBRARY`, `XDG_DATA_HOME` and `HOME` for the
/// library's place, `TZ` for local time, `COLUMNS` and `YARN_FORCE_TERMINAL` for fitting tables
/// to a terminal, `YARN_TEST_FREE_BYTES` for the free space a restore sees, in tests), through
/// getenv(3): cheaper at start-up than copying
/// the whole environment into `ProcessInfo`, which `yarn time start` would otherwise pay for.
/// A value that is not UTF-8 (a library's path in Latin-1) would be read with U+FFFD in place
/// of its bytes, another path: it is left out and named in `notUTF8`, so that a command that
/// uses it is refused (64) and one that does not runs (`help`, `--library DIR stash list`).
func processEnvironment() -> (variables: [String: String], notUTF8: Set<String>) {
  var variables: [String: String] = [:]
  var notUTF8: Set<String> = []
  for name in [
    "YARN_LIBRARY", "XDG_DATA_HOME", "HOME", "TZ", "COLUMNS", "YARN_FORCE_TERMINAL", "YARN_TEST_FREE_BYTES",
  ] {
    guard let value = getenv(name) else { continue }
    if let text = String(validatingCString: value) { variables[name] = text } else { notUTF8.insert(name) }
  }
  return (variables, notUTF8)
}

let arguments = Array(CommandLine.arguments.dropFirst())

// An argument that is not UTF-8 is refused before anything runs (64), not read with U+FFFD
// in place of its bytes and stored so.
let rawArguments = (1..<Int(CommandLine.argc)).map { index -> [UInt8] in
  guard let argument = CommandLine.unsafeArgv[index] else { return [] }
  return Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
}
if let error = YarnTool.nonUTF8Argument(rawArguments) {
  let messages = TextOutput.standardError()
  messages.write(Table.printable(ErrorPresenter.report(for: error, root: YarnTool.root).text))
  try? messages.flush()
  exit(ExitCode.usage.rawValue)
}

// Before any library is opened (this process owns SQLite).
LibraryStore.turnOffSQLiteMemoryStatistics()

// A short command runs here, on the main thread: a signal ends it at once, as it ends any
// program, and its change is one SQLite transaction, committed whole or not at all. (No
// task and no signal sources: they cost it 1–2 ms of start-up, bench/README.md.)
guard YarnTool.isCancellable(arguments) else {
  let environment = processEnvironment()
  exit(
    YarnTool.main(
      arguments: arguments, environment: environment.variables, notUTF8: environment.notUTF8,
      output: .standardOutput(), messages: .standardError()))
}

// A long command (`CancellableCommand`: backup create, verify, restore, export, stash import)
// runs in a task of its own. Ctrl-C (SIGINT) and SIGTERM cancel it: it stops between two
// files or rows, removes its temporary files, leaves the library as it was, and exits 130
// (SIGINT) or 143 (SIGTERM). The signals' default action is turned off so that the dispatch
// sources receive them.
let command = Task.detached {
  let environment = processEnvironment()
  return YarnTool.main(
    arguments: arguments, environment: environment.variables, notUTF8: environment.notUTF8,
    output: .standardOutput(), messages: .standardError())
}
let caught = SignalCatcher(signals: [SIGINT, SIGTERM]) { command.cancel() }
var status = await command.value
if status == ExitCode.interrupted.rawValue, caught.last == SIGTERM {
  status = ExitCode.terminated.rawValue
}
exit(status)
