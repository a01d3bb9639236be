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

/// A time zone as the time code needs it: its name and its offset from UTC at an instant.
///
/// `TimeZone` is one: an app passes `TimeZone.current` or `TimeZone(identifier:
/// "Europe/Berlin")`. `SystemTimeZone` is the process's own zone read through the C library,
/// which the CLI uses so that `yarn time start` does not set up ICU's time zone service.
/// Local days, weeks and months are computed from `secondsFromGMT(for:)` alone, so an
/// implementation must give the offset in force at any instant, DST included.
public protocol UTCOffsetProvider: Sendable {
  /// The zone's name, such as `America/New_York`, for messages.
  var identifier: String { get }
  /// Seconds east of UTC in force at `date` (−18,000 for EST, 7,200 for CEST).
  func secondsFromGMT(for date: Date) -> Int
}

extension TimeZone: UTCOffsetProvider {}

/// The process's local time zone through the C library (`localtime_r`, which reads `$TZ`,
/// else `/etc/localtime`, from the system's tz database).
///
/// The same zone as `TimeZone.current` in a process whose environment is its own, without
/// ICU: no time zone service to load, and no silent fall-back to GMT in a statically linked
/// binary whose Foundation carries no ICU data.
public struct SystemTimeZone: UTCOffsetProvider, Sendable {
  /// The process's zone. The value holds nothing: the C library is asked at each call.
  public init() {}

  /// `$TZ` without a leading `:`, else the zone `/etc/localtime` links to, else `local time`.
  public var identifier: String {
    if let value = getenv("TZ") {
      var name = String(cString: value)
      if name.hasPrefix(":") { name.removeFirst() }
      return name.isEmpty ? "UTC" : name
    }
    if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime"),
      let range = target.firstRange(of: "zoneinfo/")
    {
      return String(target[range.upperBound...])
    }
    return "local time"
  }

  /// Whether the C library reads `value` (a `$TZ`) as a real zone rather than falling back to
  /// UTC without a word: a tz database file (an absolute path, or a name under `$TZDIR`, else
  /// `/usr/share/zoneinfo`, such as `Europe/Berlin`: a regular file that begins with the
  /// TZif magic, RFC 8536 §3.1, so not `/etc/passwd`), or a POSIX rule (`EST5EDT`,
  /// `<+0530>-5:30`: a name of 3 or more letters, then an offset; POSIX.1-2017, 8.3 "TZ").
  /// Empty is UTC by definition, so known.
  package static func isKnown(_ value: String) -> Bool {
    var name = Substring(value)
    if name.hasPrefix(":") { name.removeFirst() }
    if name.isEmpty { return true }
    let folder = getenv("TZDIR").map { String(cString: $0) } ?? "/usr/share/zoneinfo"
    let path = name.hasPrefix("/") ? String(name) : folder + "/" + name
    var status = stat()
    if !name.contains(".."), stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG {
      return beginsWithTZif(path)
    }
    // A POSIX rule: std name, then an offset that begins with a sign or a digit.
    var rest = name.unicodeScalars[...]
    if rest.first == "<" {
      guard let close = rest.firstIndex(of: ">") else { return false }
      guard rest.distance(from: rest.startIndex, to: close) >= 4 else { return false }
      rest = rest[rest.index(after: close)...]
    } else {
      let letters = rest.prefix { ("A"..."Z").contains($0) || ("a"..."z").contains($0) }
      guard letters.count >= 3 else { return false }
      rest = rest.dropFirst(letters.count)
    }
    if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
    return rest.first.map { ("0"..."9").contains($0) } ?? false
  }

  /// Whether the file at `path` begins with `TZif`, the magic of a tz database file.
  private static func beginsWithTZif(_ path: String) -> Bool {
    let file = open(path, O_RDONLY | O_CLOEXEC)
    guard file >= 0 else { return false }
    defer { close(file) }
    var magic = [UInt8](repeating: 0, count: 4)
    return read(file, &magic, 4) == 4 && magic == Array("TZif".utf8)
  }

  /// Seconds east of UTC in force at `date` in the process's zone (`tm_gmtoff` of
  /// `localtime_r`, whole seconds), such as −18,000 for EST or 7,200 for CEST; 0 (UTC) when the
  /// C library cannot convert the instant.
  public func secondsFromGMT(for date: Date) -> Int {
    var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
    var parts = tm()
    guard localtime_r(&seconds, &parts) != nil else { return 0 }
    return Int(parts.tm_gmtoff)
  }
}
