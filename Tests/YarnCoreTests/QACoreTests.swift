import Foundation
import Testing

@testable import YarnCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite struct LookupQATests {
  struct Item {
    let id: String
    let name: String
  }

  /// A name stored with spaces around it is still found by its name.
  @Test func namesAreComparedWithoutSurroundingSpaces() throws {
    let items = [Item(id: "aaaa1111", name: " Padded "), Item(id: "bbbb2222", name: "Other")]
    #expect(try Lookup.find("Padded", in: items, id: \.id, name: \.name).id == "aaaa1111")
    #expect(try Lookup.find(" padded ", in: items, id: \.id, name: \.name).id == "aaaa1111")
  }

  /// A reference that is one item's name and another's ID prefix (as the tables show it) is
  /// ambiguous, not silently the named one.
  @Test func nameThatIsAnotherItemsIDPrefixIsAmbiguous() {
    let items = [Item(id: "8d8b89a2-0000", name: "Cascade"), Item(id: "77770000-1111", name: "8d8b89a2")]
    do {
      let found = try Lookup.find("8d8b89a2", in: items, id: \.id, name: \.name)
      Issue.record("found \(found.name)")
    } catch {
      #expect(
        error
          == .ambiguous(
            reference: "8d8b89a2",
            candidates: [
              .init(id: "77770000-1111", name: "8d8b89a2"), .init(id: "8d8b89a2-0000", name: "Cascade"),
            ]))
    }
    // The full ID still names exactly one item, and a name that is no ID prefix still works.
    #expect((try? Lookup.find("8d8b89a2-0000", in: items, id: \.id, name: \.name))?.name == "Cascade")
    #expect((try? Lookup.find("cascade", in: items, id: \.id, name: \.name))?.id == "8d8b89a2-0000")
  }
}
