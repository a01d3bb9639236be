import Foundation
import YarnCore

// Prints each yarn of a library with what is left of it, and what 2 skeins of the first yarn
// weigh. Usage: stash-report LIBRARY_DIRECTORY (a missing library reads as empty).
let path = CommandLine.arguments.dropFirst().first ?? "."
do {
  let store = try LibraryStore(directory: URL(fileURLWithPath: path), mode: .readOnly)
  defer { try? store.close() }
  let library = try store.library()
  for yarn in library.yarns {
    let left = library.remaining(of: yarn)  // RemainingEstimate: an Amount and its source
    print(yarn.name, left.remaining?.description ?? "unknown", left.source.rawValue)
  }
  if let yarn = library.yarns.first {
    do {
      let grams = try UnitConversion.convert(Amount(2, .skein), to: .gram, putUp: yarn.putUp)
      print("2 skeins of \(yarn.name) weigh \(grams)")
    } catch {
      print("2 skeins of \(yarn.name): \(error)")  // ConversionError names the missing fact
    }
  }
  print("\(library.yarns.count) yarns, \(library.projects.count) projects")
} catch {
  print("error: \(error)")
  exit(1)
}
