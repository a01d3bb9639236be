/// Levenshtein edit distance, for "did you mean" suggestions.
enum EditDistance {
  /// The number of single-character insertions, deletions and substitutions that turn `a`
  /// into `b` (Levenshtein, 1966).
  ///
  /// - Complexity: O(*m* × *n*) time, O(*n*) memory, for strings of *m* and *n* characters.
  static func distance(_ a: String, _ b: String) -> Int {
    let left = Array(a.unicodeScalars)
    let right = Array(b.unicodeScalars)
    if left.isEmpty { return right.count }
    if right.isEmpty { return left.count }
    var previous = Array(0...right.count)
    var current = Array(repeating: 0, count: right.count + 1)
    for i in 1...left.count {
      current[0] = i
      for j in 1...right.count {
        let cost = left[i - 1] == right[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
      }
      swap(&previous, &current)
    }
    return previous[right.count]
  }

  /// The candidate nearest to `word`, when it is near enough to be a likely typo: at most
  /// 2 edits, or a third of the word's length for longer words. Ties go to the first. A word
  /// that begins exactly one candidate (`--net-weight` of `--net-weight-per-skein`) is taken
  /// as that one's start, however far it is.
  static func nearest(to word: String, in candidates: [String]) -> String? {
    let extended = candidates.filter { $0.hasPrefix(word) }
    if extended.count == 1, word.drop(while: { $0 == "-" }).count >= 2 { return extended[0] }
    var best: (name: String, distance: Int)?
    for candidate in candidates {
      let d = distance(word, candidate)
      if best == nil || d < (best?.distance ?? Int.max) { best = (candidate, d) }
    }
    guard let best else { return nil }
    let limit = max(2, word.unicodeScalars.count / 3)
    return best.distance <= limit ? best.name : nil
  }

  /// What "did you mean" offers for an unknown option `word`: every candidate it begins, in
  /// their order, when it has a character besides its dashes and begins one or more (`--c` of
  /// `--chart`; `--col` of `--colorway` and `--color-family`); else `nearest(to:in:)`, if it
  /// keeps at least half the letters typed after the dashes (`--brnd`: `--brand`; `--x` is
  /// no typo of `--to`, two edits of one letter). Never `word` itself (`--help=x`).
  static func suggestions(for word: String, in candidates: [String]) -> [String] {
    let candidates = candidates.filter { $0 != word }
    let extended = candidates.filter { $0.hasPrefix(word) }
    if !extended.isEmpty, word.contains(where: { $0 != "-" }) { return extended }
    guard let guess = nearest(to: word, in: candidates),
      2 * distance(word, guess) <= word.drop(while: { $0 == "-" }).unicodeScalars.count
    else { return [] }
    return [guess]
  }
}
