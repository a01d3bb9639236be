import Foundation
import Testing

/// libzip and libcrypto are loaded on first use (`Sources/CLibzip/loader.c`,
/// `Sources/CCrypto/loader.c`), so that `yarn time start` and the other commands that touch
/// no archive and hash no file do not pay for loading them. The dynamic loader's own trace
/// (`LD_DEBUG=libs`, glibc) says which libraries a run loaded.
@Suite struct LazyLibraryTests {
  #if os(Linux)
    @Test func timeCommandsLoadNeitherLibzipNorLibcrypto() throws {
      let yarn = try YarnRunner()
      defer { yarn.cleanUp() }
      try yarn.run(["project", "add", "Flax", "-q"])
      for arguments in [
        ["time", "start", "Flax"], ["time", "status"], ["time", "stop"], ["stash", "list"],
      ] {
        let result = try yarn.run(arguments, environment: ["LD_DEBUG": "libs"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("libsqlite3"), "the trace is there: \(arguments)")
        #expect(!result.stderr.contains("libzip"), "\(arguments) loaded libzip")
        #expect(!result.stderr.contains("libcrypto"), "\(arguments) loaded libcrypto")
      }
    }

    @Test func backupsLoadLibzipWhenTheyNeedIt() throws {
      let yarn = try YarnRunner()
      defer { yarn.cleanUp() }
      try yarn.run(["stash", "add", "Tern", "-q"])
      let archive = yarn.directory.appendingPathComponent("b.zip").path
      let result = try yarn.run(["backup", "create", archive, "-q"], environment: ["LD_DEBUG": "libs"])
      #expect(result.status == 0)
      #expect(result.stderr.contains("libzip.so"))
      #expect(try yarn.run(["backup", "verify", archive]).status == 0)
    }
  #endif
}
