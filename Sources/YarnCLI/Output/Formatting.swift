import YarnCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// How values are shown to people.
enum Formatting {
  /// The remaining figure in its unit and, where the put-up allows, in every other unit:
  /// `1.4 skeins ≈ 140 g ≈ 4.94 oz ≈ 308 yd ≈ 281.64 m`. `unknown` without a quantity.
  static func remainingInAllUnits(_ estimate: RemainingEstimate, putUp: PutUp) -> String {
    guard let remaining = estimate.remaining else { return "unknown (no quantity)" }
    return inAllUnits(remaining, putUp: putUp)
  }

  /// `amount` and, where the put-up allows, the same amount in every other unit of
  /// `YarnUnit.shownBeside` (not kg and lb), joined by ` ≈ `; zero is shown once.
  static func inAllUnits(_ amount: Amount, putUp: PutUp) -> String {
    var parts = [amount.description]
    guard amount.value != 0 else { return parts[0] }
    for unit in YarnUnit.shownBeside where unit != amount.unit {
      if let converted = try? UnitConversion.convert(amount, to: unit, putUp: putUp) {
        parts.append(converted.description)
      }
    }
    return parts.joined(separator: " ≈ ")
  }

  /// The remaining figure for a table cell: `2.5 skeins`, `0 skeins (overdrawn)`,
  /// `1 skein (override)`, `-` when unknown; an incomplete figure is marked `(incomplete)`.
  static func remainingCell(_ estimate: RemainingEstimate) -> String {
    DisplayText.remaining(estimate)
  }

  /// `1h 30m`, `45m`, `2h`, `0m`; seconds are shown only under a minute (`40s`), or, when
  /// `exact`, whenever they are not whole minutes (`1m 30s`) (`DisplayText.duration`).
  static func duration(_ seconds: Int64, exact: Bool = false) -> String {
    DisplayText.duration(seconds, exact: exact)
  }

  /// An instant in the local time zone: `2026-03-29 14:30` (`LocalCalendar.text`).
  static func localTime(_ instant: Date, timeZone: any UTCOffsetProvider = SystemTimeZone()) -> String {
    LocalCalendar.text(instant, in: timeZone)
  }

  /// `localTime` with the seconds when they are not 0 (`2026-06-01 10:45:20`): the way a
  /// message names an instant (a timer started or stopped, a time rule's error), typed
  /// (`--at -70s`, `21:10:10`) or recorded, which the log shows without them (a timer stopped
  /// at 10:45:20 is shown 10:45).
  static func exactLocalTime(_ instant: Date, timeZone: any UTCOffsetProvider) -> String {
    let text = LocalCalendar.text(instant, in: timeZone)
    let local =
      Int64(instant.timeIntervalSince1970.rounded(.down)) + Int64(timeZone.secondsFromGMT(for: instant))
    let second = ((local % 60) + 60) % 60
    guard second != 0 else { return text }
    var parts = text.split(separator: " ", maxSplits: 2).map(String.init)
    guard parts.count >= 2 else { return text }
    parts[1] += second < 10 ? ":0\(second)" : ":\(second)"
    return parts.joined(separator: " ")
  }

  /// An attachment's file name as messages and `show` print it: a line break, tab or other
  /// control character in it (a file system allows them) written as an escape (`\n`, `\t`),
  /// so that it stays on its line.
  static func fileName(_ attachment: Attachment) -> String { LineText.visible(attachment.fileName) }

  /// A byte count for people: `512 bytes`, `12.3 KB`, `4.5 MB` (powers of 1000).
  static func bytes(_ count: Int64) -> String {
    if count < 1000 { return "\(count) bytes" }
    let units = ["KB", "MB", "GB", "TB"]
    var value = Double(count)
    var index = -1
    while value >= 1000 && index < units.count - 1 {
      value /= 1000
      index += 1
    }
    return "\(Amount.format((value * 10).rounded() / 10)) \(units[index])"
  }

  /// The manifest's counts for people: `2 yarns, 1 project, 3 notes, 0 time sessions and
  /// 1 attachment`.
  /// `3 yarns, 1 project, 0 notes, 5 time sessions, 2 tools and 4 attachments`; the tools
  /// only when counted (`nil` in an older backup's manifest).
  static func counts(
    yarns: Int, projects: Int, notes: Int, sessions: Int, tools: Int? = nil, attachments: Int
  ) -> String {
    [
      Plural.count(yarns, "yarn"), Plural.count(projects, "project"), Plural.count(notes, "note"),
      Plural.count(sessions, "time session"),
    ].joined(separator: ", ") + (tools.map { ", " + Plural.count($0, "tool") } ?? "") + " and "
      + Plural.count(attachments, "attachment")
  }

  /// Note lines for `show`: `  2026-03-29  text`, continuation lines indented under the text.
  static func notes(_ notes: [Note]) -> String {
    guard !notes.isEmpty else { return "" }
    var text = "Notes:\n"
    for note in notes {
      let day = CalendarDate(containing: note.created).iso8601
      let body = Table.printable(note.text).split(separator: "\n", omittingEmptySubsequences: false)
        .joined(separator: "\n" + String(repeating: " ", count: 4 + day.count))
      text += "  \(day)  \(body)\n"
    }
    return text
  }

  /// Label–value lines with the values aligned at column 14; pairs with a `nil` value are left
  /// out; control characters in values are made inert (`Table.printable`).
  static func fields(_ pairs: [(String, String?)]) -> String {
    let shown = pairs.compactMap { pair in pair.1.map { (pair.0, Table.printable($0)) } }
    // A fixed column (the longest label, "Color family:", and a space) keeps the layout the
    // same from one item to the next; a longer label widens it.
    let width = max(14, (shown.map { $0.0.count }.max() ?? 0) + 2)
    var out = ""
    for (label, value) in shown {
      let head = label + ":" + String(repeating: " ", count: width - label.count - 1)
      let lines = value.split(separator: "\n", omittingEmptySubsequences: false)
      out += head + (lines.first.map(String.init) ?? "") + "\n"
      for line in lines.dropFirst() {
        out += String(repeating: " ", count: width) + line + "\n"
      }
    }
    return out
  }
}

/// How a message shows a value that came from a person, a file or the library (a name, a
/// note, a stored command line, a path, a file name, a value typed): never raw, always
/// through one of these interpolations, which write its control and invisible characters as
/// escapes (`LineText.visible`: `Wo\u{202E}ol`, `two\nlines`), so that the message stays on
/// one line and shows what is there (a U+202E RIGHT-TO-LEFT OVERRIDE would reverse the rest of
/// the line; a U+200B would hide). An ID is shown by `shownID(_:)`, a table's cells by
/// `Table.flatten`.
///
/// - `\(visible: name)`: whole: a name (at most 200 characters), a path, a file name.
/// - `\(shown: value)`: at most its first 80 characters and `…` (`LineText.shown`): a value
///   typed, which may be of any length.
/// - `\(quoted: note)`: as `shown`, in double quotes (`LineText.quoted`, as YarnCore quotes a
///   value): a note, a stored command line.
extension DefaultStringInterpolation {
  mutating func appendInterpolation(visible value: String) { appendLiteral(LineText.visible(value)) }
  mutating func appendInterpolation(shown value: String) { appendLiteral(LineText.shown(value)) }
  mutating func appendInterpolation(quoted value: String) { appendLiteral(LineText.quoted(value)) }
}
