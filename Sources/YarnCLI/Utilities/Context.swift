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

/// What a running command works with: the global options, the environment, the instant the
/// command started, its outputs, and the library store.
///
/// Data goes to `output` (standard output); messages go to `messages` (standard error) unless
/// `--quiet`. Errors are not printed here: commands throw, and `YarnTool.main` prints.
final class Context {
  let global: GlobalOptions
  let environment: [String: String]
  /// The variables yarn reads whose value is not UTF-8 text (left out of `environment`): a
  /// command that uses one fails (64, `EnvironmentVariableError`), any other runs.
  let notUTF8: Set<String>
  /// The instant the command started: every "now" and "today" of one command is this one.
  let now: Date
  let output: TextOutput
  let messages: TextOutput
  /// The command line as typed, `yarn` and its arguments (quoted where a shell would need
  /// it) but `--library DIR`, which every change of one history shares: what the library's
  /// undo history calls the change the command makes.
  let commandLine: String

  init(
    global: GlobalOptions, environment: [String: String], notUTF8: Set<String> = [], now: Date,
    output: TextOutput, messages: TextOutput, arguments: [String] = []
  ) {
    var shown: [String] = []
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      if argument == "--" {
        shown += ["--"] + rest
        break
      }
      if argument == "--library" {
        _ = rest.popFirst()
      } else if !argument.hasPrefix("--library=") {
        shown.append(argument)
      }
    }
    commandLine = (["yarn"] + shown.map(Context.shellQuoted)).joined(separator: " ")
    self.global = global
    self.environment = environment
    self.notUTF8 = notUTF8
    self.now = now
    self.output = output
    self.messages = messages
    location = Result { () throws(EnvironmentVariableError) in
      try LibraryLocation.resolve(explicit: global.library, environment: environment, notUTF8: notUTF8)
    }
  }

  /// The library directory: `--library`, else `$YARN_LIBRARY`, else the platform default.
  /// Worked out once, when the command starts (a command asks up to three times, and each
  /// standardization of the path was 0.1 M instructions of `yarn time start`).
  ///
  /// - Throws: `EnvironmentVariableError` when the library would be a blank `$YARN_LIBRARY` or
  ///   under a blank or relative `HOME`, or would be read from a variable that is not UTF-8:
  ///   only a command that uses the library fails so (`completions` does not).
  var libraryURL: URL {
    get throws(EnvironmentVariableError) { try location.get() }
  }
  private let location: Result<URL, EnvironmentVariableError>

  /// Today in the local time zone.
  var today: CalendarDate {
    get throws(EnvironmentVariableError) { LocalCalendar.day(containing: now, in: try timeZone) }
  }

  /// The local time zone, which times are read and shown in: the process's own zone through
  /// the C library (`SystemTimeZone`, no ICU) when `environment` is the process's (same
  /// `$TZ`), else the IANA zone `$TZ` of `environment` names (a leading `:` ignored).
  ///
  /// A `$TZ` that names no zone (`TZ=Europe/Berlinn`) gets a warning: the C library would read
  /// it as UTC without a word.
  ///
  /// - Throws: `EnvironmentVariableError` when `$TZ` is not UTF-8: only a command that works with
  ///   local time fails so.
  var timeZone: any UTCOffsetProvider {
    get throws(EnvironmentVariableError) { try zone.get() }
  }
  private lazy var zone: Result<any UTCOffsetProvider, EnvironmentVariableError> = {
    guard !notUTF8.contains("TZ") else {
      return .failure(.notUTF8("TZ"))
    }
    if let name = environment["TZ"], !SystemTimeZone.isKnown(name) {
      warning("TZ=\(visible: name) names no time zone this system knows; local time is UTC")
    }
    return .success(Context.timeZone(from: environment))
  }()

  static func timeZone(from environment: [String: String]) -> any UTCOffsetProvider {
    let own = getenv("TZ").map { String(cString: $0) }
    guard var name = environment["TZ"], !name.isEmpty, name != own else { return SystemTimeZone() }
    if name.hasPrefix(":") { name.removeFirst() }
    return TimeZone(identifier: name) ?? SystemTimeZone()
  }

  /// Opens the library in `mode`, runs `body`, and closes the store.
  ///
  /// A read-only store on a missing library is empty and creates nothing; unless
  /// `warnIfMissing` is false, a warning on standard error says so and names the path
  /// (the command still succeeds with empty data, so that scripts keep working).
  func withStore<T>(
    _ mode: LibraryStore.Mode, warnIfMissing: Bool = true, _ body: (LibraryStore) throws -> T
  ) throws -> T {
    let store = try LibraryStore(directory: try libraryURL, mode: mode)
    prepare(store)
    if warnIfMissing, mode == .readOnly, store.isInMemory {
      warning("there is no library at \(visible: store.directory.path); it reads as empty")
    }
    let result: T
    do {
      result = try body(store)
    } catch {
      try? store.close()
      throw error
    }
    try store.close()
    // Only the process whose creation put the library in place says so: of several commands
    // writing to one missing library at once, the others found it made meanwhile.
    if store.createdLibrary { madeLibrary(store.directory) }
    return result
  }

  /// Says on standard error that the command made the library, so that a mistyped
  /// `--library` or `$YARN_LIBRARY` does not go unnoticed.
  private func madeLibrary(_ directory: URL) {
    message("created a new library at \(visible: directory.standardizedFileURL.path)")
  }

  /// Names the changes `store` commits after the command line, and reads its rule that no
  /// session is in the future against this command's now.
  private func prepare(_ store: LibraryStore) {
    store.changeLabel = commandLine
    let now = self.now
    store.clock = { now }
  }

  /// Runs `body` on a new library built in a temporary file, put in place only when `keep`
  /// accepts what `body` returns (`LibraryStore.create`): a failure creates no library.
  func create<T>(_ body: (LibraryStore) throws -> T, keep: (T) -> Bool) throws -> T {
    let directory = try libraryURL
    let result = try LibraryStore.create(
      directory: directory,
      { store in
        prepare(store)
        return try body(store)
      }, keep: keep)
    if keep(result) { madeLibrary(directory) }
    return result
  }

  /// Runs `body` in one read transaction of the library opened read-only (see `withStore`
  /// for a missing library).
  func read<T>(warnIfMissing: Bool = true, _ body: (LibraryStore) throws -> T) throws -> T {
    try withStore(.readOnly, warnIfMissing: warnIfMissing) { store in try store.read { try body(store) } }
  }

  /// Runs `body` in one write transaction (rolled back when it throws) of the library opened
  /// read-write, which creates the library when missing.
  ///
  /// A command that fails creates no library: when the library has no `library.sqlite` yet,
  /// `body` first runs in a rehearsal on an empty library in memory, and only when it
  /// succeeds there is the library created and `body` run again on it. A failure of `body`
  /// (a project that is not there, in a mistyped `--library`) so leaves nothing behind, and
  /// nothing is ever deleted that another process could have written. `body` must have no
  /// effect outside the store it is given (the commands' bodies only read and write it).
  func write<T>(_ body: (LibraryStore) throws -> T) throws -> T {
    // (Without a temporary directory for the rehearsal's attachments, the command runs as
    // before: the rehearsal only spares a failure its library.)
    if try libraryIsMissing, let rehearsal = try? LibraryStore.inMemory() {
      defer { try? rehearsal.close() }
      _ = try rehearsal.write { try body(rehearsal) }
    }
    return try withStore(.readWrite) { store in try store.write { try body(store) } }
  }

  /// Whether the library has no `library.sqlite` (nothing, or no directory, at the path).
  /// Any other answer (permission denied, a file where the directory should be) is left to
  /// the store to report when it opens the library.
  ///
  /// - Throws: `StoreError.io` when the database is missing but its write-ahead log or
  ///   journal is there (`LibraryStore.refuseOrphanLog`): such a library is not missing.
  var libraryIsMissing: Bool {
    get throws {
      var status = stat()
      let library = try libraryURL
      let database = library.appendingPathComponent(LibraryStore.databaseFileName).path
      guard stat(database, &status) != 0 && errno == ENOENT else { return false }
      try LibraryStore.refuseOrphanLog(in: library)
      return true
    }
  }

  /// A `yarn` command line for people to type, shown in a hint or a message: `yarn` and
  /// `words` (whose arguments the caller quotes, `hintQuoted`), with `--library DIR` after
  /// `yarn` when the command line gave `library`, so that the command typed works on the same
  /// library (`yarn --library "my lib" undo`). A library of `$YARN_LIBRARY` or the default
  /// needs none: the shell it is typed in has the same.
  static func yarnCommand(_ words: String, library: String?) -> String {
    library.map { "yarn --library \(hintQuoted($0)) \(words)" } ?? "yarn \(words)"
  }

  /// `argument` as a POSIX shell reads it back, for a command shown inside the single quotes
  /// of a hint (`see 'yarn --library "my lib" stash list'`): as it is when `shellQuoted` leaves
  /// it so, else in double quotes when it holds nothing a shell reads there (`"`, `$`, `` ` ``,
  /// `\`, and `!`, which interactive bash expands), else as `shellQuoted` quotes it. An
  /// argument that does not show as itself (`LineText.hidesCharacters`: ESC, a line break,
  /// U+200B), which no command copied from the hint could give back, is shown as every
  /// message shows a value, escaped (`LineText.visible`), then as `shellQuoted` quotes it:
  /// never raw.
  static func hintQuoted(_ argument: String) -> String {
    if LineText.hidesCharacters(argument) { return shellQuoted(LineText.visible(argument)) }
    let quoted = shellQuoted(argument)
    guard quoted != argument, !argument.contains(where: { "\"$`\\!".contains($0) }) else { return quoted }
    return "\"\(argument)\""
  }

  /// `yarnCommand(_:library:)` with this command line's `--library`.
  func yarnCommand(_ words: String) -> String {
    Context.yarnCommand(words, library: global.library)
  }

  /// `argument` as a POSIX shell reads it back: as it is when it holds only letters, digits
  /// and `-_./:=@%+,`; else in single quotes, a single quote written `'\''`.
  static func shellQuoted(_ argument: String) -> String {
    let allowed = "-_./:=@%+,".unicodeScalars
    let plain =
      !argument.isEmpty
      && argument.unicodeScalars.allSatisfy { scalar in
        scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || allowed.contains(scalar)
      }
    return plain ? argument : "'" + argument.replacing("'", with: "'\\''") + "'"
  }

  /// A message for people on standard error, silenced by `--quiet`.
  func message(_ text: String) {
    if !global.quiet { messages.line(Table.printable(text)) }
  }

  /// Warns (even under `--quiet`) when an item's new name is one other items of its kind
  /// have (`LibraryStore.namesakes`): a reference by that name then fits several, so they
  /// must be named by ID. Nothing for none.
  func warnOfNamesakes(_ namesakes: [ItemName], kind: StoreError.Kind, name: String) {
    guard let first = namesakes.first else { return }
    let others =
      namesakes.count == 1
      ? "another \(kind) is named \(quoted: first.name) (\(shownID(first.id)))"
      : "\(namesakes.count) other \(kind)s are named \(quoted: name)"
    warning("\(others) too; name them by ID, or rename one")
  }

  /// A warning on standard error, printed even with `--quiet`.
  func warning(_ text: String) {
    messages.line(Table.printable("warning: \(text)"))
  }

  /// A table on standard output, fitted to a terminal (`tableWidth`), in two passes over its
  /// rows: `rows` is called twice and must hand the same rows, in the same order, both times
  /// (a query run again in the same read transaction). The first pass measures the columns,
  /// the second writes each line as it comes, so memory does not grow with the number of
  /// rows. The lines are those `Table.text(fitting:)` gives for the same rows; a cut cell of
  /// a `kindFirst` column loses its kind word first (`StreamedTable`).
  ///
  /// - Returns: the number of rows; with none, nothing is written (not even the header).
  /// - Throws: what `rows` throws.
  func printTable(
    _ headers: [String], shrinkable: Set<Int> = [], kindFirst: Set<Int> = [],
    rows: ((_ row: [String]) -> Void) throws -> Void
  ) throws -> Int {
    var table = StreamedTable(headers, shrinkable: shrinkable, kindFirst: kindFirst)
    var count = 0
    try rows { row in
      table.measure(row)
      count += 1
    }
    guard count > 0 else { return 0 }
    table.fit(to: tableWidth)
    let output = self.output
    output.write(table.headerLine)
    var line: [UInt8] = []
    try rows { row in
      line.removeAll(keepingCapacity: true)
      table.append(row, to: &line)
      line.withUnsafeBytes { output.write(bytes: $0) }
    }
    return count
  }

  /// `value` as pretty JSON with sorted keys (`JSONCoding.encoder()`) on standard output.
  func printJSON<T: Encodable>(_ value: T) throws {
    let data = try JSONCoding.encoder().encode(value)
    output.line(String(decoding: data, as: UTF8.self))
  }

  /// A JSON array on standard output, element by element, in exactly the bytes `printJSON`
  /// gives the whole array (`JSONStream`): memory does not grow with the number of elements.
  ///
  /// - Parameter body: hands each element, in order, to the function it is given.
  /// - Throws: what `body` or the encoder throws; the elements before it are printed (but
  ///   for the encoder's error those of its batch, `JSONStream.array`).
  /// - Returns: the number of elements printed.
  @discardableResult
  func printJSONArray<T: Encodable>(_ body: ((T) throws -> Void) throws -> Void) throws -> Int {
    let output = self.output
    let count = try JSONStream { output.write(bytes: $0) }.array(body)
    output.line()
    return count
  }
}
