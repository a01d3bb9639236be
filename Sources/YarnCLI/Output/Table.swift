/// A table for people: a header row and rows, columns aligned with two spaces between them,
/// the last column not padded.
struct Table {
  var headers: [String]
  var rows: [[String]] = []

  init(_ headers: [String]) {
    self.headers = headers
  }

  mutating func add(_ row: [String]) {
    rows.append(row)
  }

  /// The table's text, each line ending in a line feed. Widths count Characters, which is
  /// the display width for the Latin, Greek and Cyrillic names yarns mostly have.
  var text: String {
    var widths = headers.map(\.count)
    for row in rows {
      for (index, cell) in row.enumerated() where index < widths.count {
        widths[index] = max(widths[index], Table.flatten(cell).count)
      }
    }
    var out = ""
    for row in [headers] + rows {
      var line = ""
      for (index, cell) in row.enumerated() where index < widths.count {
        let text = Table.flatten(cell)
        if index == widths.count - 1 {
          line += text
        } else {
          line += text + String(repeating: " ", count: widths[index] - text.count + 2)
        }
      }
      while line.hasSuffix(" ") { line.removeLast() }
      out += line + "\n"
    }
    return out
  }

  /// A cell on one line: line breaks and tabs become spaces, other control characters U+FFFD.
  static func flatten(_ text: String) -> String {
    printable(String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 }))
  }

  /// `text` safe to send to a terminal: every control character (C0, DEL, C1) other than a
  /// line feed or a tab becomes U+FFFD, so that a name holding an escape sequence (from a
  /// restored backup, say) cannot move the cursor, recolor or retitle the terminal; CR LF
  /// becomes LF.
  static func printable(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    for scalar in text.replacing("\r\n", with: "\n").unicodeScalars {
      let value = scalar.value
      let isControl = value < 0x20 || (0x7F...0x9F).contains(value)
      out.append(isControl && scalar != "\n" && scalar != "\t" ? "\u{FFFD}" : scalar)
    }
    return String(out)
  }
}

/// The first 8 characters of an ID, as shown in tables (any unique prefix of 4 or more is
/// accepted back).
func shortID(_ id: String) -> String { String(id.prefix(8)) }
