// The standard library's canonical decomposition (`String._nfd`) is behind this SPI (public
// since Swift 5.7, `@available(SwiftStdlib 5.7)`: macOS 13, the package's floor).
@_spi(_Unicode) import Swift

extension Lookup {
  /// Text as a search compares it, case- and accent-insensitively: `Café` and `CAFE` fold
  /// to `cafe`, `Straße` to `strasse`, `Ångström` to `angstrom`.
  ///
  /// The one statement of how a search folds text (`stash list --search`, `project list
  /// --search`, `--brand`); the store registers it as the SQL function `yarn_fold(text)`.
  /// Steps: Unicode's full case mapping to upper case then to lower case (which gives
  /// Unicode's case folding for the Latin, Greek and Cyrillic letters of yarn names:
  /// `ß` → `ss`, a final sigma `ς` → `σ`, the ligature `ﬁ` → `fi`), then the canonical
  /// decomposition NFD, then every combining mark (general category Mn or Me: accents,
  /// cedillas, the dot of `İ`) removed. Spaces are kept as they are. Foundation's
  /// `folding(options: [.caseInsensitive, .diacriticInsensitive])` would need the whole of
  /// Foundation and ICU on Linux, which YarnModel does not link; the standard library's
  /// NFD (`_nfd`, behind the `_Unicode` SPI: the stdlib's own normalization, as
  /// `_nfcCodeUnits` of `key`) is used instead.
  ///
  /// - Complexity: O(n) in the length of `text`; ASCII text is only lower-cased.
  package static func folded(_ text: String) -> String {
    if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
    var out = String.UnicodeScalarView()
    for scalar in text.uppercased().lowercased()._nfd {
      switch scalar.properties.generalCategory {
      case .nonspacingMark, .enclosingMark: continue
      default: out.append(scalar)
      }
    }
    return String(out)
  }
}
