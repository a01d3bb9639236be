import YarnCore

/// A table for people: a header row and rows, columns aligned with two spaces between them,
/// the last column not padded.
///
/// Widths are display columns (`DisplayWidth`): a CJK character or an emoji takes two, a
/// combining mark none, so columns line up on a terminal. On a terminal a table can be fitted
/// to its width (`text(fitting:)`): the widest of the columns marked `shrinkable` (names,
/// notes: never IDs, numbers or amounts) are shortened, ending in `…`.
///
/// This one holds its rows, for the short tables of a report (a row a month, a weight, a
/// project of a year); a list of the library's items is printed by `Context.printTable`,
/// which holds none. Both measure, fit and write through `StreamedTable`.
struct Table {
  /// The fewest columns a shrinkable column is shortened to: below that a table is left to
  /// wrap.
  static let minimumWidth = 8

  let headers: [String]
  /// The positions of the columns that may be shortened to fit.
  let shrinkable: Set<Int>
  /// The cells as given.
  private(set) var rows: [[String]] = []

  /// A table with `headers`, whose columns at the positions `shrinkable` may be shortened.
  init(_ headers: [String], shrinkable: Set<Int> = []) {
    self.headers = headers
    self.shrinkable = shrinkable
  }

  mutating func add(_ row: [String]) {
    rows.append(row)
  }

  /// The table's text, each line ending in a line feed, nothing shortened.
  var text: String { text(fitting: nil) }

  /// The table's text fitted to `width` display columns (`nil`: as wide as it is): the
  /// shrinkable columns are shortened as `fittedWidths` says, their longer cells cut with
  /// `…`. A table that cannot be fitted is as narrow as it can be and wraps.
  func text(fitting width: Int?) -> String {
    var table = StreamedTable(headers, shrinkable: shrinkable)
    for row in rows { table.measure(row) }
    table.fit(to: width)
    var out = table.headerLine
    for row in rows { out += table.line(row) }
    return out
  }

  /// Column widths that fit a line of `limit` display columns (two between columns): when
  /// `widths` are wider, the widest shrinkable column is narrowed a column at a time (ties:
  /// the leftmost) until the line fits or every shrinkable column is down to
  /// `minimumWidth` (one narrower than that to begin with is never narrowed).
  static func fittedWidths(_ widths: [Int], shrinkable: Set<Int>, within limit: Int) -> [Int] {
    var fitted = widths
    var total = widths.reduce(0, +) + 2 * max(0, widths.count - 1)
    while total > limit {
      var widest: Int?
      for index in fitted.indices where shrinkable.contains(index) && fitted[index] > minimumWidth {
        if widest.map({ fitted[index] > fitted[$0] }) ?? true { widest = index }
      }
      guard let column = widest else { break }
      fitted[column] -= 1
      total -= 1
    }
    return fitted
  }

  /// A cell on one line, in one pass over its scalars: a line break (CR LF, LF, CR, VT, FF,
  /// NEL, U+2028, U+2029: Swift's `Character.isNewline`) and a tab become a space, any other
  /// control character (C0, DEL, C1) U+FFFD, and so does a bidirectional embedding, override
  /// or isolate (U+202A–U+202E, U+2066–U+2069), which would reorder the rest of the row
  /// (Unicode's bidirectional algorithm, UAX #9 §2: they hold until the paragraph ends).
  static func flatten(_ text: String) -> String {
    // Printable ASCII, most cells, is as it is.
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
    guard
      text.unicodeScalars.contains(where: {
        isControl($0) || $0.value >= 0x2028 && $0.value <= 0x2029 || isBidiControl($0)
      })
    else { return text }
    var out = String.UnicodeScalarView()
    var afterCR = false
    for scalar in text.unicodeScalars {
      defer { afterCR = scalar == "\r" }
      switch scalar.value {
      case 0x0A where afterCR: continue  // CR LF: one line break, already a space
      case 0x09...0x0D, 0x85, 0x2028, 0x2029: out.append(" ")
      default: out.append(isControl(scalar) || isBidiControl(scalar) ? "\u{FFFD}" : scalar)
      }
    }
    return String(out)
  }

  /// `text` safe to send to a terminal, in one pass over its scalars: every control
  /// character (C0, DEL, C1) other than a line feed or a tab becomes U+FFFD, so that a name
  /// holding an escape sequence (from a restored backup, say) cannot move the cursor,
  /// recolor or retitle the terminal; CR LF becomes LF.
  static func printable(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { isControl($0) && $0 != "\n" && $0 != "\t" })
    else { return text }
    var out = String.UnicodeScalarView()
    var pendingCR = false
    for scalar in text.unicodeScalars {
      if pendingCR {
        pendingCR = false
        if scalar == "\n" {
          out.append(scalar)
          continue
        }
        out.append("\u{FFFD}")
      }
      if scalar == "\r" {
        pendingCR = true
      } else {
        out.append(isControl(scalar) && scalar != "\n" && scalar != "\t" ? "\u{FFFD}" : scalar)
      }
    }
    if pendingCR { out.append("\u{FFFD}") }
    return String(out)
  }

  /// A bidirectional embedding, override, pop or isolate: U+202A–U+202E, U+2066–U+2069.
  static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
    (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
  }

  /// C0 (U+0000–U+001F), DEL (U+007F) or C1 (U+0080–U+009F).
  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }
}

/// The first 8 characters of an ID, as shown in tables (any unique prefix of 4 or more is
/// accepted back).
func shortID(_ id: String) -> String { String(id.prefix(8)) }

/// `shortID(id)` as a message shows it (`added yarn Rios (1d23abcd)`): quoted with control
/// characters escaped when it is blank or holds any (`Rules.shown(id:)`: `"  "`), so that
/// an ID an older yarn accepted is seen.
func shownID(_ id: String) -> String { Rules.shown(id: shortID(id)) }
