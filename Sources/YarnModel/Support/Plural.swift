/// How a message counts things, in English: `1 note`, `2 notes`, `0 notes`; the one rule, so
/// that no message writes its own `count == 1 ? "" : "s"`. Shared with the `yarn` tool
/// (`package`), not public API.
package enum Plural {
  /// `1 note`, `2 notes`: `count` and `noun`, plural unless `count` is 1 (`word(_:count:)`).
  package static func count(_ count: Int, _ noun: String) -> String {
    "\(count) \(word(noun, count: count))"
  }

  /// `noun` when `count` is 1, else its plural, `noun` and `s` (`note`, `notes`).
  package static func word(_ noun: String, count: Int) -> String {
    count == 1 ? noun : noun + "s"
  }
}
