/// How many terminal columns text takes: the width a table aligns and fits by.
///
/// Text is measured a grapheme cluster (`Character`) at a time, so that a letter with its
/// combining marks, an emoji with a skin tone, a ZWJ sequence or a flag counts once:
/// - 2 for a cluster shown as an emoji: its first scalar has `Emoji_Presentation`, or it is
///   an `Emoji` followed by VARIATION SELECTOR-16 (U+FE0F);
/// - 2 for a cluster whose first scalar is East Asian Wide or Fullwidth (`wideRanges`);
/// - 0 for a cluster whose first scalar is a nonspacing or enclosing mark (Mn, Me), a format
///   character (Cf: U+200B ZERO WIDTH SPACE, U+00AD SOFT HYPHEN), or a control character;
/// - 1 otherwise. The rest of a cluster (combining marks, joiners) adds nothing.
///
/// This is what terminals following `wcwidth` (Markus Kuhn's, and glibc's) show for the
/// names, notes and colorways yarn holds; a terminal may differ for rare scalars (ambiguous
/// width ones such as Greek in a CJK locale are counted 1, as outside East Asian locales).
enum DisplayWidth {
  /// The columns `text` takes (see the type's rules).
  static func columns(of text: some StringProtocol) -> Int {
    // Printable ASCII is one column a scalar, and most names are ASCII.
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
    var total = 0
    for character in text { total += columns(of: character) }
    return total
  }

  /// The columns one grapheme cluster takes: 0, 1 or 2.
  static func columns(of character: Character) -> Int {
    let scalars = character.unicodeScalars
    guard let first = scalars.first else { return 0 }
    if first.value < 0x7F {
      if first.value < 0x20 { return 0 }
      return scalars.count > 1 && isEmojiSequence(scalars) ? 2 : 1
    }
    let properties = first.properties
    if properties.isEmojiPresentation { return 2 }
    if isEmojiSequence(scalars) { return 2 }
    switch properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format, .control: return 0
    default: break
    }
    return isWide(first) ? 2 : 1
  }

  /// An emoji asked to show as one by VARIATION SELECTOR-16 (`❤️`, `1️⃣`... keycaps start
  /// with an ASCII digit).
  private static func isEmojiSequence(_ scalars: Character.UnicodeScalarView) -> Bool {
    guard let first = scalars.first, first.properties.isEmoji else { return false }
    return scalars.contains("\u{FE0F}")
  }

  /// Whether `scalar` is East Asian Wide (W) or Fullwidth (F).
  static func isWide(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    guard value >= 0x1100 else { return false }
    var low = 0
    var high = wideRanges.count - 1
    while low <= high {
      let middle = (low + high) / 2
      let range = wideRanges[middle]
      if value < range.lowerBound {
        high = middle - 1
      } else if value > range.upperBound {
        low = middle + 1
      } else {
        return true
      }
    }
    return false
  }

  /// The East Asian Wide (W) and Fullwidth (F) code points, in order.
  ///
  /// Source: Unicode 14.0.0, `EastAsianWidth.txt`
  /// (https://www.unicode.org/Public/14.0.0/ucd/EastAsianWidth.txt, as Python's
  /// `unicodedata` 14.0.0 holds it): the assigned W and F code points, each run merged across
  /// the unassigned code points inside it. The pictographs of U+2300–23FF, U+2600–27BF,
  /// U+2B00–2BFF and U+1F000–1FAFF are left to `Emoji_Presentation` (the W ones there are
  /// exactly the emoji shown as emoji), except U+2329–232A (angle brackets) and
  /// U+1F200–1F265 (enclosed ideographs), which are W without being emoji.
  static let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x2329...0x232A, 0x25FD...0x25FE, 0x2E80...0x303E, 0x3041...0x3247,
    0x3250...0x4DBF, 0x4E00...0xA4C6, 0xA960...0xA97C, 0xAC00...0xD7A3, 0xF900...0xFAD9,
    0xFE10...0xFE19, 0xFE30...0xFE6B, 0xFF01...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x1B2FB,
    0x1F200...0x1F265, 0x20000...0x3134A,
  ]

  /// The ellipsis a shortened cell ends with, one column wide.
  static let ellipsis: Character = "…"

  /// `text` cut to at most `width` columns: whole when it fits, else its longest start
  /// (whole grapheme clusters) of at most `width - 1` columns followed by `…`.
  static func truncate(_ text: String, to width: Int) -> String {
    guard columns(of: text) > width else { return text }
    guard width > 0 else { return "" }
    var out = ""
    var used = 0
    for character in text {
      let next = columns(of: character)
      if used + next > width - 1 { break }
      out.append(character)
      used += next
    }
    out.append(ellipsis)
    return out
  }
}
