/// A table for people: a header row and rows, columns aligned with two spaces between them,
/// the last column not padded.
struct Table {
  let headers: [String]
  /// The cells as shown: each made one-line and printable once, when its row is added.
  private(set) var rows: [[String]] = []
  /// Each column's width so far, in Characters: updated as rows are added, so that `text`
  /// needs no second pass to measure.
  private var widths: [Int]

  init(_ headers: [String]) {
    self.headers = headers
    widths = headers.map(\.count)
  }

  mutating func add(_ row: [String]) {
    let cells = row.prefix(widths.count).map(Table.flatten)
    for (index, cell) in cells.enumerated() {
      widths[index] = max(widths[index], cell.count)
    }
    rows.append(cells)
  }

  /// The table's text, each line ending in a line feed. Widths count Characters, which is
  /// the display width for the Latin, Greek and Cyrillic names yarns mostly have.
  var text: String {
    var out = ""
    for row in [headers.map(Table.flatten)] + rows {
      var line = ""
      for (index, cell) in row.enumerated() {
        line += cell
        if index < widths.count - 1 {
          line += String(repeating: " ", count: widths[index] - cell.count + 2)
        }
      }
      while line.hasSuffix(" ") { line.removeLast() }
      out += line + "\n"
    }
    return out
  }

  /// A cell on one line, in one pass over its scalars: a line break (CR LF, LF, CR, VT, FF,
  /// NEL, U+2028, U+2029: Swift's `Character.isNewline`) and a tab become a space, any other
  /// control character (C0, DEL, C1) U+FFFD.
  static func flatten(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { isControl($0) || $0.value >= 0x2028 && $0.value <= 0x2029 })
    else { return text }
    var out = String.UnicodeScalarView()
    var afterCR = false
    for scalar in text.unicodeScalars {
      defer { afterCR = scalar == "\r" }
      switch scalar.value {
      case 0x0A where afterCR: continue  // CR LF: one line break, already a space
      case 0x09...0x0D, 0x85, 0x2028, 0x2029: out.append(" ")
      default: out.append(isControl(scalar) ? "\u{FFFD}" : scalar)
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

  /// C0 (U+0000–U+001F), DEL (U+007F) or C1 (U+0080–U+009F).
  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }
}

/// The first 8 characters of an ID, as shown in tables (any unique prefix of 4 or more is
/// accepted back).
func shortID(_ id: String) -> String { String(id.prefix(8)) }
