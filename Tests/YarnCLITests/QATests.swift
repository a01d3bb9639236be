import Foundation
import Testing
import YarnCore

@testable import YarnCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite struct RepeatedColumnTests {
  /// A column named twice would give a file that `stash import` refuses: refused at once.
  @Test func exportRefusesAColumnNamedTwice() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    _ = try yarn.ok(["stash", "add", "Rios"])
    let result = try yarn.run(["stash", "export", "--columns", "Name,name"])
    #expect(result.status == 64)
    #expect(result.stdout == "")
    #expect(result.stderr.contains("the column \"Name\" is named twice"))
  }
}
