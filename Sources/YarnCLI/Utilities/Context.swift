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
  /// The instant the command started: every "now" and "today" of one command is this one.
  let now: Date
  let output: TextOutput
  let messages: TextOutput

  init(
    global: GlobalOptions, environment: [String: String], now: Date, output: TextOutput,
    messages: TextOutput
  ) {
    self.global = global
    self.environment = environment
    self.now = now
    self.output = output
    self.messages = messages
  }

  /// The library directory: `--library`, else `$YARN_LIBRARY`, else the platform default.
  var libraryURL: URL {
    LibraryLocation.resolve(explicit: global.library, environment: environment)
  }

  /// Today in the local time zone.
  var today: CalendarDate { LocalCalendar.day(containing: now, in: timeZone) }

  /// The local time zone, which times are read and shown in: the process's own zone through
  /// the C library (`SystemTimeZone`, no ICU) when `environment` is the process's (same
  /// `$TZ`), else the IANA zone `$TZ` of `environment` names (a leading `:` ignored).
  ///
  /// A `$TZ` that names no zone (`TZ=Europe/Berlinn`) gets a warning: the C library would read
  /// it as UTC without a word.
  lazy var timeZone: any UTCOffsetProvider = {
    if let name = environment["TZ"], !SystemTimeZone.isKnown(name) {
      warning("TZ=\(name) names no time zone this system knows; local time is UTC")
    }
    return Context.timeZone(from: environment)
  }()

  static func timeZone(from environment: [String: String]) -> any UTCOffsetProvider {
    let own = getenv("TZ").map { String(cString: $0) }
    guard var name = environment["TZ"], !name.isEmpty, name != own else { return SystemTimeZone() }
    if name.hasPrefix(":") { name.removeFirst() }
    return TimeZone(identifier: name) ?? SystemTimeZone()
  }

  /// Opens the library in `mode`, runs `body`, and closes the store.
  ///
  /// A read-only store on a missing library is empty and creates nothing.
  func withStore<T>(_ mode: LibraryStore.Mode, _ body: (LibraryStore) throws -> T) throws -> T {
    let store = try LibraryStore(directory: libraryURL, mode: mode)
    // The store's rule that no session is in the future is read against this command's now.
    let now = self.now
    store.clock = { now }
    let result: T
    do {
      result = try body(store)
    } catch {
      try? store.close()
      throw error
    }
    try store.close()
    return result
  }

  /// Runs `body` in one read transaction of the library opened read-only.
  func read<T>(_ body: (LibraryStore) throws -> T) throws -> T {
    try withStore(.readOnly) { store in try store.read { try body(store) } }
  }

  /// Runs `body` in one write transaction (rolled back when it throws) of the library opened
  /// read-write, which creates the library when missing.
  func write<T>(_ body: (LibraryStore) throws -> T) throws -> T {
    try withStore(.readWrite) { store in try store.write { try body(store) } }
  }

  /// A message for people on standard error, silenced by `--quiet`.
  func message(_ text: String) {
    if !global.quiet { messages.line(Table.printable(text)) }
  }

  /// A warning on standard error, printed even with `--quiet`.
  func warning(_ text: String) {
    messages.line(Table.printable("warning: \(text)"))
  }

  /// `value` as pretty JSON with sorted keys (`JSONCoding.encoder()`) on standard output.
  func printJSON<T: Encodable>(_ value: T) throws {
    let data = try JSONCoding.encoder().encode(value)
    output.line(String(decoding: data, as: UTF8.self))
  }
}
