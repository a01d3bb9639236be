import Foundation
import Testing
import YarnCore

@testable import YarnCLI
@testable import YarnStore

/// The one mapping from errors to words and exit statuses (sysexits(3)).
@Suite struct ErrorPresenterTests {
  private func code(_ error: any Error) -> ExitCode {
    ErrorPresenter.report(for: error, root: RootCommand.self).code
  }

  @Test func exitStatuses() {
    #expect(code(CLIError.missingSubcommand(command: ["yarn", "stash"])) == .usage)
    #expect(code(CLIError.notFound(kind: "yarn", reference: "x")) == .dataError)
    #expect(code(CLIError.inputMissing(path: "a.zip", reason: "no such file or directory")) == .noInput)
    #expect(code(CLIError.outputExists(path: "a.zip")) == .cannotCreate)
    #expect(code(CLIError.io(path: "standard output", reason: "broken pipe")) == .ioError)
    #expect(code(StoreError.busy) == .tempFail)
    #expect(
      code(StoreError.removalRefused(kind: .yarn, name: "Rios", effects: RemovalEffects())) == .dataError)
    #expect(code(StoreError.io(path: "/x", reason: "denied")) == .ioError)
    #expect(code(TimeError.notRunning) == .dataError)
    #expect(code(BackupError.destinationExists(path: "b.zip")) == .cannotCreate)
    #expect(code(BackupError.cannotOpen(path: "b.zip", reason: "not a zip archive")) == .dataError)
    #expect(code(BackupError.libraryNotEmpty(path: "/lib")) == .cannotCreate)
    #expect(code(BackupError.newerFormat(path: "b.zip", found: 2, known: 1)) == .dataError)
    #expect(
      throws: ConversionError.self,
      performing: { try UnitConversion.convert(Amount(2, .skein), to: .gram) })
    do {
      _ = try UnitConversion.convert(Amount(2, .skein), to: .gram)
    } catch {
      #expect(code(error) == .dataError)
    }
    #expect(code(CocoaError(.fileReadNoSuchFile)) == .noInput)
    // An error yarn has no words for is its own fault, 70 (docs/CLI.md lists no status 1).
    struct Unforeseen: Error {}
    #expect(code(Unforeseen()) == .software)
  }

  /// The hint of a refused variable is the CLI's (the store's error keeps the facts only),
  /// docs/CLI.md "Where the library is".
  @Test func aRefusedVariableGetsTheCommandLinesWayOut() {
    func hint(_ name: String, _ value: String?) -> String? {
      let error = EnvironmentVariableError(name: name, value: value, reason: "r")
      return ErrorPresenter.report(for: error, root: RootCommand.self).hint
    }
    #expect(hint("HOME", "rel") == "set HOME to your home directory's absolute path, or give --library DIR")
    #expect(
      hint("YARN_LIBRARY", " ") == "unset YARN_LIBRARY, set it to the library's folder, or give --library DIR"
    )
    #expect(hint("HOME", nil) == "set it to a UTF-8 path, or give --library DIR")
    #expect(hint("XDG_DATA_HOME", nil) == "set it to a UTF-8 path, or give --library DIR")
    #expect(hint("TZ", nil) == "set it to a zone name such as Europe/Berlin, or unset it")
    #expect(code(EnvironmentVariableError(name: "HOME", value: " ", reason: "r")) == .usage)
  }

  /// Issue 12, item 9: a full disk is 74 everywhere; 73 stays for an output that exists or a
  /// directory that is missing or read-only.
  @Test func aFullDiskIsAnIOError() {
    let full = "no space left on device"
    #expect(code(BackupError.cannotWrite(path: "/b/x.zip", reason: full)) == .ioError)
    #expect(code(BackupError.cannotWrite(path: "/b/x.zip", reason: "write error: \(full)")) == .ioError)
    #expect(code(BackupError.cannotStage(path: "/lib/attachments/ab", reason: full)) == .ioError)
    #expect(code(BackupError.cannotWrite(path: "/b/x.zip", reason: "disk quota exceeded")) == .ioError)
    #expect(
      code(BackupError.cannotWrite(path: "/b/x.zip", reason: "no such file or directory")) == .cannotCreate)
    #expect(
      code(BackupError.cannotStage(path: "/lib/attachments/ab", reason: "permission denied")) == .cannotCreate
    )
    #expect(code(AtomicFile.WriteError(path: "/o/s.csv", reason: full)) == .ioError)
    #expect(code(AtomicFile.WriteError(path: "/o/s.csv", reason: "permission denied")) == .cannotCreate)
    let space = ErrorPresenter.report(
      for: BackupError.notEnoughSpace(path: "/home/u/lib", needed: 1_049_600, free: 4_096),
      root: RootCommand.self)
    #expect(space.code == .ioError)
    #expect(
      space.message
        == "not enough free space for the library at /home/u/lib: the restore needs 1049600 bytes, 4096 are free"
    )
    #expect(space.hint == "free some disk space and try again; nothing was changed")
    // The safety backup's folder on another disk (a linked `safety-backups`), named.
    let safety = ErrorPresenter.report(
      for: BackupError.notEnoughSpaceForSafetyBackup(path: "/mnt/usb/safety", needed: 9_216, free: 4_096),
      root: RootCommand.self)
    #expect(safety.code == .ioError)
    #expect(
      safety.message
        == "not enough free space for the safety backup at /mnt/usb/safety: it needs 9216 bytes, 4096 are free"
    )
    #expect(safety.hint == "free some disk space and try again; nothing was changed")
  }

  @Test func everyReportHasAnErrorLine() {
    let report = ErrorPresenter.report(for: StoreError.busy, root: RootCommand.self)
    // Several writers one after another can keep it locked, not only one, and not only yarn.
    #expect(
      report.text.hasPrefix(
        "error: the library is busy: other processes kept it locked for more than 5 seconds\n"))
    #expect(
      report.text.contains(
        "\nhint: other yarn commands (or another program) are writing to the library; try again\n"))
    let ambiguous = ErrorPresenter.report(
      for: CLIError.ambiguous(
        kind: "project", reference: "Hat",
        candidates: [.init(id: "aaaa1111", name: "Hat"), .init(id: "bbbb2222", name: "hat")]),
      root: RootCommand.self)
    #expect(
      ambiguous.text
        == "error: 'Hat' matches 2 projects: aaaa1111 (Hat), bbbb2222 (hat)\n"
        + "hint: they share the name: use the ID or an ID prefix of at least 4 characters, or rename one\n")
    #expect(ambiguous.code == .usage)
    // Names that differ past the reference: more of the name tells them apart.
    let prefix = ErrorPresenter.report(
      for: CLIError.ambiguous(
        kind: "yarn", reference: "Mala",
        candidates: [
          .init(id: "aaaa1111", name: "Malabrigo Rios"), .init(id: "bbbb2222", name: "Malabrigo Sock"),
        ]),
      root: RootCommand.self)
    #expect(prefix.text.hasSuffix("\nhint: use more of the name, the ID or a longer ID prefix\n"))
    // QA: a name or word holding U+200B looked like the one without it; it is escaped.
    let invisible = ErrorPresenter.report(
      for: CLIError.ambiguous(
        kind: "yarn", reference: "Meri\u{200B}",
        candidates: [
          .init(id: "aaaa1111", name: "Meri\u{200B}no"), .init(id: "bbbb2222", name: "Meri\u{200B}no Soft"),
        ]),
      root: RootCommand.self)
    #expect(
      invisible.text.hasPrefix(
        "error: 'Meri\\u{200B}' matches 2 yarns: aaaa1111 (Meri\\u{200B}no), bbbb2222 (Meri\\u{200B}no Soft)\n"
      ))
    let command = ErrorPresenter.report(
      for: CLIError.unknownCommand(command: ["yarn"], given: "st\u{200B}ash", suggestions: []),
      root: RootCommand.self)
    #expect(command.text.hasPrefix("error: unknown command 'st\\u{200B}ash'\n"))
  }

  @Test func usageLineOfTheCommand() {
    let report = ErrorPresenter.report(
      for: CLIError.missingArgument(command: ["yarn", "project", "use"], name: "amount"),
      root: RootCommand.self)
    #expect(
      report.text == """
        error: missing argument <amount>
        usage: yarn project use <project> <yarn> <amount> [<options>]
        hint: see 'yarn project use --help'

        """)
  }

  /// Writing to a read-only library.sqlite says so in one line, without the SQL.
  @Test func readOnlyDatabaseIsReportedPlainly() {
    let error = StoreError.database(
      DatabaseError(
        extendedCode: 8, message: "attempt to write a readonly database",
        sql: "INSERT INTO yarn (id, name)\nVALUES (?, ?)"))
    let report = ErrorPresenter.report(
      for: error, root: RootCommand.self, database: "/home/ann/yarn/library.sqlite")
    #expect(report.code == .ioError)
    #expect(
      report.message
        == "cannot write the library: /home/ann/yarn/library.sqlite is read-only "
        + "(SQLite: attempt to write a readonly database)")
    // Before the library is known (no path), the words stay general.
    #expect(
      ErrorPresenter.report(for: error, root: RootCommand.self).message
        == "cannot write the library: the library's database is read-only "
        + "(SQLite: attempt to write a readonly database)")
    #expect(
      report.hint
        == "check the permissions of library.sqlite and of the library directory (see 'yarn --help' for where it is)"
    )
  }

  /// A full disk while writing the library (a page limit stands in for it): 74, the file named
  /// in plain words, a hint that nothing was changed, never SQLite's code or statement.
  @Test func aFullDiskNamesTheLibraryFile() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("yarn-full-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    let store = try LibraryStore(directory: root, mode: .readWrite)
    defer { try? store.close() }
    let pages = try store.connection.integer("PRAGMA page_count") ?? 0
    try store.connection.execute("PRAGMA max_page_count = \(pages + 1)")
    let database = root.appendingPathComponent("library.sqlite").path
    do {
      try store.write {
        for index in 1...500 {
          try store.insert(Yarn(id: "y\(index)", name: String(repeating: "n", count: 150)))
        }
      }
      Issue.record("500 yarns fitted in 1 page")
    } catch {
      let report = ErrorPresenter.report(for: error, root: RootCommand.self, database: database)
      #expect(report.code == .ioError)
      #expect(
        report.text
          == "error: cannot write \(database): the disk or your quota is full\n"
          + "hint: free some disk space and try again; the library is left as it was\n")
    }
  }

  /// Two processes creating one library at once (`LibraryStore.create`): the one that loses
  /// says so in plain words, and what to do.
  @Test func aLibraryCreatedMeanwhileSaysToTryAgain() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("yarn-race-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    do {
      try LibraryStore.create(directory: root) { store in
        try store.insert(Yarn(id: "y1", name: "Mine"))
        let other = try LibraryStore(directory: root, mode: .readWrite)
        try other.insert(Yarn(id: "y2", name: "Theirs"))
        try other.close()
      }
      Issue.record("the library made meanwhile was replaced")
    } catch {
      let report = ErrorPresenter.report(for: error, root: RootCommand.self)
      #expect(report.code == .ioError)
      #expect(
        report.text
          == "error: another yarn process created the library at \(root.path) while this command was "
          + "building it; that library was left as it is, and nothing of this command was kept\n"
          + "hint: run the command again: it will work on that library\n")
    }
  }
}
