import Foundation
import Testing

@testable import YarnCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Faults found by QA in the shared core (AtomicFile, Lookup), each pinned by a test.
@Suite struct AtomicFileQATests {
  private func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("yarn-qa-" + UUID().uuidString, isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  private func mode(_ url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
  }

  /// A new file gets the mode any program's new file gets (0666 less the umask), not
  /// mkstemp's private 0600: an exported CSV is meant to be shared.
  @Test func newFileFollowsTheUmask() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let mask = umask(0)
    umask(mask)
    let url = directory.appendingPathComponent("stash.csv")
    try AtomicFile.write(Data("a\r\n".utf8), to: url)
    #expect(try mode(url) == 0o666 & ~Int(mask))
  }

  /// Replacing a file keeps its mode: a private file stays private.
  @Test func replacedFileKeepsItsMode() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("stash.csv")
    try Data("old".utf8).write(to: url)
    try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: url.path)
    try AtomicFile.write(Data("new".utf8), to: url)
    #expect(try mode(url) == 0o640)
    #expect(try String(contentsOf: url, encoding: .utf8) == "new")
  }

  /// Writing through a symbolic link writes the file it points to and keeps the link.
  @Test func symbolicLinkIsFollowed() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let target = directory.appendingPathComponent("real.csv")
    let link = directory.appendingPathComponent("link.csv")
    try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "real.csv")
    try AtomicFile.write(Data("data".utf8), to: link)
    #expect(try String(contentsOf: target, encoding: .utf8) == "data")
    let type = try FileManager.default.attributesOfItem(atPath: link.path)[.type] as? FileAttributeType
    #expect(type == .typeSymbolicLink)
  }

  /// A target that is not a regular file (a FIFO, a device such as /dev/stdout) is written
  /// to, never replaced by a regular file.
  @Test func specialFileIsWrittenNotReplaced() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let fifo = directory.appendingPathComponent("pipe")
    #expect(mkfifo(fifo.path, 0o600) == 0)
    let reader = open(fifo.path, O_RDONLY | O_NONBLOCK)
    try #require(reader >= 0)
    defer { close(reader) }
    try AtomicFile.write(Data("through the pipe".utf8), to: fifo)
    var buffer = [UInt8](repeating: 0, count: 64)
    let count = read(reader, &buffer, buffer.count)
    #expect(count == 16)
    #expect(String(decoding: buffer.prefix(max(0, count)), as: UTF8.self) == "through the pipe")
    let type = try FileManager.default.attributesOfItem(atPath: fifo.path)[.type] as? FileAttributeType
    #expect(type != .typeRegular)
  }
}

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
