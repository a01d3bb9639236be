/// String helpers that FoundationEssentials lacks (`trimmingCharacters(in:)` and
/// `CharacterSet` live in swift-corelibs Foundation, which `yarn` does not link), with the
/// same character sets. Shared with the `yarn` tool (`package`), not public API.
extension StringProtocol {
  /// Without leading and trailing spaces: Unicode general category Zs and TAB, as
  /// `CharacterSet.whitespaces`.
  package func trimmingSpaces() -> String {
    trimming(\.isSpace)
  }

  fileprivate func trimming(_ isTrimmed: (Unicode.Scalar) -> Bool) -> String {
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

extension String {
  /// `StringProtocol.trimmingSpaces()`, told at once when both ends are printable ASCII other
  /// than a space (nothing to trim): every cell of a stash import passes here, and the
  /// generic scan cost about 1,400 instructions a cell (bench/README.md).
  package func trimmingSpaces() -> String {
    let ends = utf8.withContiguousStorageIfAvailable { ($0.first, $0.last) } ?? (utf8.first, utf8.last)
    if let first = ends.0, let last = ends.1, (0x21...0x7E).contains(first), (0x21...0x7E).contains(last) {
      return self
    }
    return trimming(\.isSpace)
  }
}

extension Unicode.Scalar {
  /// Whether `trimmingSpaces()` drops it: Unicode general category Zs, or TAB.
  fileprivate var isSpace: Bool {
    if isASCII { return self == " " || self == "\t" }
    return properties.generalCategory == .spaceSeparator
  }
}
