import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `AtomicFile.write`: the permissions of a new or replaced file, a symbolic link followed,
/// a target that is not a regular file (a FIFO, a device) written in place, and files named
/// like its temporary files left alone.
@Suite struct AtomicFileTests {
  private func mode(_ url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
  }

  /// A file named like a temporary file of the target (`.NAME.tmp-XXXXXX`) is never removed
  /// by a write: its name and the absence of a lock do not prove it is yarn's (a user's file
  /// of that name was lost).
  @Test func aFileNamedLikeATemporaryFileIsLeftAloneByAWrite() throws {
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let target = dir.appendingPathComponent("stash.csv")
    let others = [
      ".stash.csv.tmp-Ab3xZ9", ".stash.csv.tmp-toolong7", ".other.csv.tmp-Ab3xZ9", "stash.csv.tmp-Ab3xZ9",
    ]
    for name in others { try Data("mine".utf8).write(to: dir.appendingPathComponent(name)) }

    try AtomicFile.write(Data("new".utf8), to: target)
    #expect(try Data(contentsOf: target) == Data("new".utf8))
    let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
    #expect(names == (others + ["stash.csv"]).sorted())
    for name in others {
      #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent(name).path), "\(name)")
    }
  }

  /// A new file gets the mode any program's new file gets (0666 less the umask), not
  /// mkstemp's private 0600: an exported CSV is meant to be shared.
  @Test func newFileFollowsTheUmask() throws {
    let directory = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let mask = umask(0)
    umask(mask)
    let url = directory.appendingPathComponent("stash.csv")
    try AtomicFile.write(Data("a\r\n".utf8), to: url)
    #expect(try mode(url) == 0o666 & ~Int(mask))
  }

  /// Replacing a file keeps its mode: a private file stays private.
  @Test func replacedFileKeepsItsMode() throws {
    let directory = try Fixtures.temporaryDirectory()
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
    let directory = try Fixtures.temporaryDirectory()
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
    let directory = try Fixtures.temporaryDirectory()
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
