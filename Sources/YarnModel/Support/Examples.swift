/// Some examples out of `count` things, as `a; b; and 7 more` — `examples` (the first few)
/// joined by "; ", then how many more there are; "" when there are no examples and no more.
/// Used where a message names up to a few of many rows (the store's broken references, the
/// rows a backup lacks).
package func exampleList(_ examples: [String], of count: Int) -> String {
  var shown = examples
  if count > examples.count { shown.append("and \(count - examples.count) more") }
  return shown.joined(separator: "; ")
}
