#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Context {
  /// The display columns a table is fitted to, or `nil` to print it whole.
  ///
  /// Only when standard output is a terminal (`isatty`), or when `$YARN_FORCE_TERMINAL` is
  /// `1` (for tests, which run piped): `$COLUMNS` when it is a whole number from 1 to 10000,
  /// else the terminal's width (`ioctl` `TIOCGWINSZ` on standard output), else `nil`. Piped
  /// or redirected output is never cut, and JSON and CSV never are.
  var tableWidth: Int? {
    guard output.isTerminal || environment["YARN_FORCE_TERMINAL"] == "1" else { return nil }
    if let text = environment["COLUMNS"], let columns = Int(text), (1...10_000).contains(columns) {
      return columns
    }
    var size = winsize()
    guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
  }
}
