/// Edit distance, for "did you mean" suggestions.
enum EditDistance {
  /// The number of single-character insertions, deletions, substitutions and swaps of two
  /// adjacent characters that turn `a` into `b` (Levenshtein, 1966, with Damerau's
  /// transposition, 1964, as one edit: the optimal string alignment distance, no substring
  /// edited twice): `--brnad` is one edit from `--brand`.
  ///
  /// - Complexity: O(*m* × *n*) time, O(*n*) memory, for strings of *m* and *n* characters.
  static func distance(_ a: String, _ b: String) -> Int {
    let left = Array(a.unicodeScalars)
    let right = Array(b.unicodeScalars)
    if left.isEmpty { return right.count }
    if right.isEmpty { return left.count }
    var beforePrevious = Array(repeating: 0, count: right.count + 1)
    var previous = Array(0...right.count)
    var current = Array(repeating: 0, count: right.count + 1)
    for i in 1...left.count {
      current[0] = i
      for j in 1...right.count {
        let cost = left[i - 1] == right[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, left[i - 1] == right[j - 2], left[i - 2] == right[j - 1] {
          current[j] = min(current[j], beforePrevious[j - 2] + 1)
        }
      }
      (beforePrevious, previous, current) = (previous, current, beforePrevious)
    }
    return previous[right.count]
  }

  /// The candidate nearest to `word`, when it is near enough to be a likely typo: at most
  /// 2 edits, or a third of the word's length for longer words. Ties go to the first. A word
  /// that begins exactly one candidate (`--net-weight` of `--net-weight-per-skein`) is taken
  /// as that one's start, however far it is. Else, for a word of 3 characters or more, the
  /// candidate whose start of as many characters is nearest to it by the same limit, when
  /// only one is (`cacsade` of `cascade 220`; of `cascade 220` and `cascade heritage`, none).
  static func nearest(to word: String, in candidates: [String]) -> String? {
    let extended = candidates.filter { $0.hasPrefix(word) }
    if extended.count == 1, word.drop(while: { $0 == "-" }).count >= 2 { return extended[0] }
    var best: (name: String, distance: Int)?
    for candidate in candidates {
      let d = distance(word, candidate)
      if best == nil || d < (best?.distance ?? Int.max) { best = (candidate, d) }
    }
    let length = word.unicodeScalars.count
    let limit = max(2, length / 3)
    if let best, best.distance <= limit { return best.name }
    guard length >= 3 else { return nil }
    let starts = candidates.map { candidate in
      distance(word, String(String.UnicodeScalarView(candidate.unicodeScalars.prefix(length))))
    }
    guard let nearest = starts.min(), nearest <= limit, let index = starts.firstIndex(of: nearest),
      starts.lastIndex(of: nearest) == index
    else { return nil }
    return candidates[index]
  }

  /// What "did you mean" offers for an unknown option `word`: every candidate it begins, in
  /// their order, when it has a character besides its dashes and begins one or more (`--c` of
  /// `--chart`; `--col` of `--colorway` and `--color-family`); else `nearest(to:in:)`, if it
  /// is at most a third as many edits as the letters typed after the dashes, and at least
  /// 1 (`--brnd`, `--brnad`: `--brand`; `--verison`: `--version`; `--forc` is no typo of
  /// `--sort`, two edits of four letters, nor `--x` of `--to`). Never `word` itself.
  static func suggestions(for word: String, in candidates: [String]) -> [String] {
    let candidates = candidates.filter { $0 != word }
    let extended = candidates.filter { $0.hasPrefix(word) }
    if !extended.isEmpty, word.contains(where: { $0 != "-" }) { return extended }
    guard let guess = nearest(to: word, in: candidates),
      distance(word, guess) <= max(1, word.drop(while: { $0 == "-" }).unicodeScalars.count / 3)
    else { return [] }
    return [guess]
  }
}
