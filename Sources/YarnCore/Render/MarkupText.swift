/// Text made safe for XML 1.0 and HTML: the one escaping function of the SVG card
/// (`YearCard`) and the export's `index.html` (`ExportIndex`), for element text and for
/// attribute values (quoted with `"` or `'`) alike.
///
/// Rules (XML 1.0, 5th edition, §2.2 "Characters" and §2.4 "Character Data"; HTML's
/// "escapingString" in the serialization algorithm):
/// - `&` `<` `>` `"` `'` become `&amp;` `&lt;` `&gt;` `&quot;` `&#39;`;
/// - the characters XML 1.0 forbids are removed: U+0000–U+0008, U+000B, U+000C,
///   U+000E–U+001F, U+FFFE and U+FFFF (tab, line feed and carriage return stay; Swift
///   strings hold no lone surrogates). Names can hold anything, and a removed control
///   character is never meaningful in a page.
enum MarkupText {
  /// `text` escaped and stripped by the rules above.
  static func escape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
      case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: continue
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// A relative URL for the zip entry `path` (`/`-separated): each segment percent-encoded
  /// as UTF-8 except the unreserved characters of RFC 3986 (`A–Z a–z 0–9 - . _ ~`), so that
  /// `#`, `%`, `?`, spaces and any letter reach the file of that exact name. Not yet escaped
  /// for markup (pass it through `escape`; it holds no character that needs it).
  static func relativeURL(_ path: String) -> String {
    path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
      var out = ""
      for byte in segment.utf8 {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
          UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
          UInt8(ascii: "~"):
          out.unicodeScalars.append(Unicode.Scalar(byte))
        default:
          let hex = Array("0123456789ABCDEF".unicodeScalars)
          out += "%"
          out.unicodeScalars.append(hex[Int(byte >> 4)])
          out.unicodeScalars.append(hex[Int(byte & 0xF)])
        }
      }
      return out
    }.joined(separator: "/")
  }
}
