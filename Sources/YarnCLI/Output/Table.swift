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

  /// A cell on one line: line breaks and tabs become spaces.
  static func flatten(_ text: String) -> String {
    String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
  }
}

/// The first 8 characters of an ID, as shown in tables (any unique prefix of 4 or more is
/// accepted back).
func shortID(_ id: String) -> String { String(id.prefix(8)) }
