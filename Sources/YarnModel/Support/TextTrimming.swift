/// String helpers that FoundationEssentials lacks (`trimmingCharacters(in:)` and
/// `CharacterSet` live in swift-corelibs Foundation, which `yarn` does not link), with the
/// same character sets. Shared with the `yarn` tool (`package`), not public API.
extension StringProtocol {
  /// Without leading and trailing spaces: Unicode general category Zs and TAB, as
  /// `CharacterSet.whitespaces`.
  package func trimmingSpaces() -> String {
    trimming { scalar in
      if scalar.isASCII { return scalar == " " || scalar == "\t" }
      return scalar.properties.generalCategory == .spaceSeparator
    }
  }

  /// Without leading and trailing spaces and line breaks: categories Zs, Zl and Zp, TAB,
  /// LF, VT, FF, CR and NEL (U+0085), as `CharacterSet.whitespacesAndNewlines`.
  package func trimmingSpacesAndNewlines() -> String {
    trimming { scalar in
      if scalar.isASCII { return scalar == " " || ("\t"..."\r").contains(scalar) }
      switch scalar.properties.generalCategory {
      case .spaceSeparator, .lineSeparator, .paragraphSeparator: return true
      default: return ("\t"..."\r").contains(scalar) || scalar == "\u{85}"
      }
    }
  }

  private func trimming(_ isTrimmed: (Unicode.Scalar) -> Bool) -> String {
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { !isTrimmed($0) }),
      let last = scalars.lastIndex(where: { !isTrimmed($0) })
    else { return "" }
    // Nothing to trim (the usual case): the text as it is, not copied scalar by scalar.
    if first == scalars.startIndex && scalars.index(after: last) == scalars.endIndex {
      return String(self)
    }
    return String(String.UnicodeScalarView(scalars[first...last]))
  }
}
