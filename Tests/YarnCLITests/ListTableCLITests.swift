import Foundation
import Testing

/// The tables of `stash list` and `project list` are written in two passes over the query
/// (issue 13: memory independent of the number of rows): the columns are as wide as their
/// widest cell wherever it comes, even in the last of more rows than the output's buffer
/// (64 KiB) holds. Expected lines are padded here by hand from the cells' lengths (ASCII).
@Suite struct ListTableCLITests {
  /// `text` padded with spaces to `width` characters.
  private func pad(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: width - text.count)
  }

  @Test func theWidestCellOfTheLastOfThousandsOfRowsSetsItsColumn() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let count = 3000
    let last = "The last yarn has the longest name of all"  // 41 characters
    var csv = "Name,Colorway,Quantity,Quantity Unit,ID\r\n"
    for index in 1..<count {
      csv += "Yarn \(index),,,,y\(String(format: "%07d", index))-0000-4000-8000-000000000000\r\n"
    }
    csv += "\(last),Rose,2,skein,zzzzzzzz-0000-4000-8000-000000000000\r\n"
    _ = try yarn.file("stash.csv", Data(csv.utf8))
    try yarn.ok(["stash", "import", "stash.csv", "-q"])

    let listed = try yarn.ok(["stash", "list"]).stdout
    // ID 8, NAME 41, COLORWAY 8 (its header), WEIGHT 6 (its header), QUANTITY 8 ("2 skeins"
    // and the header), REMAINING last, not padded; two spaces between columns.
    var expected = "ID        \(pad("NAME", 41))  COLORWAY  WEIGHT  QUANTITY  REMAINING\n"
    for index in 1..<count {
      let id = "y" + String(format: "%07d", index)
      expected += "\(id)  \(pad("Yarn \(index)", 41))  \(pad("", 8))  \(pad("", 6))  \(pad("-", 8))  -\n"
    }
    expected += "zzzzzzzz  \(last)  Rose      \(pad("", 6))  2 skeins  2 skeins\n"
    #expect(listed.utf8.count > 1 << 16)
    #expect(listed == expected)
  }

  @Test func theProjectListIsAlignedToItsWidestName() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["project", "add", "Hat", "--craft", "knitting"])
    try yarn.ok(["project", "add", "A much longer project name"])  // 26 characters
    let listed = try yarn.ok(["project", "list"]).stdout
    let lines = listed.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 4 && lines[3].isEmpty)
    // ID 8, NAME 26, CRAFT 8 ("knitting"), STATUS 7 ("planned"), STARTED 7 and FINISHED 8
    // (their headers, no days), TIME last.
    #expect(lines[0] == "ID        \(pad("NAME", 26))  CRAFT     STATUS   STARTED  FINISHED  TIME")
    #expect(
      lines[1].dropFirst(8) == "  \(pad("Hat", 26))  knitting  planned  \(pad("", 7))  \(pad("", 8))  0m")
    #expect(
      lines[2].dropFirst(8)
        == "  A much longer project name  \(pad("", 8))  planned  \(pad("", 7))  \(pad("", 8))  0m")
  }
}
