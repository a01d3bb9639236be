/// Edit distance, for "did you mean" suggestions: of names (`Lookup.find`), and of the CLI's
/// commands and options.
package enum EditDistance {
  /// The number of single-character insertions, deletions, substitutions and swaps of two
  /// adjacent characters that turn `a` into `b` (Levenshtein, 1966, with Damerau's
  /// transposition, 1964, as one edit: the optimal string alignment distance, no substring
  /// edited twice): `--brnad` is one edit from `--brand`.
  ///
  /// - Complexity: O(*m* × *n*) time, O(*n*) memory, for strings of *m* and *n* characters.
  package static func distance(_ a: String, _ b: String) -> Int {
    distances(a, b)[b.unicodeScalars.count]
  }

  /// The edits (as `distance(_:_:)` counts them) that turn `a` into each start of `b`: the
  /// element at *j* is the distance of `a` to `b`'s first *j* characters, the last element
  /// the distance to the whole of `b`.
  ///
  /// - Complexity: O(*m* × *n*) time, O(*n*) memory, for strings of *m* and *n* characters.
  package static func distances(_ a: String, _ b: String) -> [Int] {
    let left = Array(a.unicodeScalars)
    let right = Array(b.unicodeScalars)
    if left.isEmpty { return Array(0...right.count) }
    if right.isEmpty { return [left.count] }
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
    return previous
  }

  /// What "did you mean" offers for `word`, an unknown name, command or option: the
  /// candidates nearest to it, in their order, all of them when several are equally near,
  /// when they are near enough to be a likely typo. A candidate's distance is the fewer edits
  /// of the whole of it and of its start of as many characters as `word` has, or more (so
  /// that a letter left out is one edit: `merno` of `merino soft`, whose start `merin` is
  /// two); its start counts when exact (`--net-weight` of `--net-weight-per-skein`; `--col`
  /// of `--colorway` and `--color-family`) or when 3 characters or more are typed (`cacsade`
  /// of `cascade 220`, `mreino` of `merino soft`). At equal edits a candidate matched whole is nearer than one matched by
  /// its start only (`strt`: `start`, not `status`, whose start `stat` is one edit too).
  /// Near enough is at most one edit per three characters typed after any leading dashes,
  /// and at least 1 (`--brnad`, `--brnd`: `--brand`; `--forc` is no typo of `--sort`, two
  /// edits of four letters, nor `cs` of `ab`, nor `--x` of `--to`); a word of dashes alone
  /// gets nothing. Never `word` itself, nor a candidate twice.
  ///
  /// - Parameter key: what is compared of `word` and of each candidate: the text as it is
  ///   for commands and options; for names, the text as a search compares it (`Lookup.find`).
  package static func nearest(
    to word: String, in candidates: [String], comparing key: (String) -> String = { $0 }
  ) -> [String] {
    let wanted = key(word)
    let typed = wanted.drop(while: { $0 == "-" }).unicodeScalars.count
    guard typed > 0 else { return [] }
    let length = wanted.unicodeScalars.count
    var seen: Set = [word]
    // Each candidate's edits, and 0 when matched whole, 1 when by its start only.
    let ranked = candidates.filter { seen.insert($0).inserted }.map { candidate in
      let text = key(candidate)
      let row = distances(wanted, text)
      let whole = row[row.count - 1]
      let start = row[min(length, row.count - 1)...].min() ?? whole
      return (candidate, (start == 0 || typed >= 3) && start < whole ? (start, 1) : (whole, 0))
    }
    guard let nearest = ranked.map(\.1).min(by: <), nearest.0 <= max(1, typed / 3) else { return [] }
    return ranked.filter { $0.1 == nearest }.map(\.0)
  }
}
