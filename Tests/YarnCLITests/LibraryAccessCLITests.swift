import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The library directory given with `--library`, through the built binary: a path that is
/// empty, a file, below a file or cannot be created is an error naming the path and the
/// reason, never an empty stash; a `library.sqlite` that is not a database is named, with how
/// to recover.
@Suite struct LibraryAccessCLITests {
  /// `--library ""` (an unset shell variable) must not fall back to the default library.
  @Test func emptyLibraryOptionIsAUsageError() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let result = try yarn.run(["--library", "", "stash", "add", "X"], useLibrary: false)
    #expect(result.status == 64)
    #expect(
      result.stderr.hasPrefix("error: bad value '' for --library: a library directory cannot be empty\n"))
    let home = yarn.directory.appendingPathComponent(".local/share/yarn")
    #expect(!FileManager.default.fileExists(atPath: home.path))
  }

  /// A library path that is a file is an error, for reading as for writing, never an empty
  /// stash.
  @Test func libraryThatIsAFileIsAnError() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let file = try yarn.file("notes.txt", Data("hello".utf8))
    for arguments in [["stash", "list"], ["stash", "add", "X"]] {
      let result = try yarn.run(["--library", file.path] + arguments, useLibrary: false)
      #expect(result.status == 74, "\(arguments)")
      #expect(result.stderr.hasPrefix("error: cannot access \(file.path): it is a file, not a directory\n"))
    }
    #expect(try String(contentsOf: file, encoding: .utf8) == "hello")
  }

  /// A library below a file (or, for another user, below a directory it may not search)
  /// cannot be told missing: an error, never an empty stash.
  @Test func unreachableLibraryIsAnErrorNotEmpty() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let file = try yarn.file("notes.txt", Data("hello".utf8))
    let below = file.appendingPathComponent("library")
    let result = try yarn.run(["--library", below.path, "stash", "list"], useLibrary: false)
    #expect(result.status == 74)
    #expect(result.stdout == "")
    #expect(result.stderr.hasPrefix("error: cannot access \(below.path): not a directory\n"))
  }

  /// A library directory that cannot be created gave Foundation's "The operation could not
  /// be completed." text; the system's reason is said instead.
  @Test func libraryThatCannotBeCreatedSaysWhy() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    // A dangling symbolic link in the way: stat says "no such file", mkdir "file exists".
    let link = yarn.directory.appendingPathComponent("link")
    #expect(symlink(yarn.directory.appendingPathComponent("gone").path, link.path) == 0)
    let library = link.appendingPathComponent("library")
    let result = try yarn.run(["--library", library.path, "stash", "add", "Rios"], useLibrary: false)
    #expect(result.status == 74)
    #expect(
      result.stderr.hasPrefix("error: cannot access \(library.path): cannot create the directory: "))
    #expect(!result.stderr.lowercased().contains("operation could not be completed"))
  }

  /// A library.sqlite that is not a database says so and how to recover.
  @Test func corruptDatabaseGivesAHint() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try FileManager.default.createDirectory(at: yarn.library, withIntermediateDirectories: true)
    let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
    try garbage.write(to: yarn.library.appendingPathComponent("library.sqlite"))
    let result = try yarn.run(["stash", "list"])
    #expect(result.status == 74)
    // The file is named; SQLite's words follow, without its code or the failing statement.
    let file = yarn.library.appendingPathComponent("library.sqlite").path
    #expect(
      result.stderr
        == "error: \(file) is damaged or not a yarn library (SQLite: file is not a database)\n"
        + "hint: restore a backup into a new library with "
        + "'yarn --library NEW_DIR backup restore FILE'; keep the damaged file until the restore is done\n"
    )
    #expect(try Data(contentsOf: yarn.library.appendingPathComponent("library.sqlite")) == garbage)
  }
}
