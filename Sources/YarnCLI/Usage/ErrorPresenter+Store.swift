import YarnCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension ErrorPresenter {
  /// The command that detaches the attachment of `use` from its item, in the words `use`
  /// names them by (`AttachmentUse`): `yarn stash detach Rios red.png`, `yarn project detach
  /// --pattern Hat`, with `--` before them when one starts with `-` (it would be read as an
  /// option), and `--library` when the command line gave `library`. The one place the detach
  /// of a hint is made: a refused `stash rm` or `project rm`, `backup create`, `export`.
  static func detachCommand(_ use: AttachmentUse, library: String?) -> String {
    let words = [use.item] + (use.photo.map { [$0] } ?? [])
    let end = words.contains { $0.hasPrefix("-") } ? "-- " : ""
    let quoted = words.map(Context.hintQuoted).joined(separator: " ")
    let command =
      use.photo == nil ? "project detach --pattern" : "\(use.kind == .yarn ? "stash" : "project") detach"
    return Context.yarnCommand("\(command) \(end)\(quoted)", library: library)
  }

  /// Reports of the store's, time tracker's and backup's errors; `nil` for other errors.
  /// `library` is the command line's `--library`, which a `yarn` command a hint shows repeats.
  static func storeReport(
    for error: any Error, database: String? = nil, command: [String] = [], library: String? = nil
  ) -> ErrorReport? {
    if let error = error as? StoreError {
      return report(for: error, database: database, command: command, library: library)
    }
    if let error = error as? TimeError { return report(for: error, command: command, library: library) }
    if let error = error as? BackupError { return report(for: error, library: library) }
    return nil
  }

  /// `library` is the command line's `--library`, which a `yarn` command a hint shows repeats.
  static func report(for error: BackupError, library: String? = nil) -> ErrorReport {
    let message = error.description
    switch error {
    case .destinationExists(let path):
      return ErrorReport(
        message: "\(visible: path) already exists",
        hint: "give another file name, or --force to replace it",
        code: .cannotCreate)
    case .notEnoughSpace, .notEnoughSpaceForSafetyBackup:
      return ErrorReport(
        message: message, hint: "free some disk space and try again; nothing was changed", code: .ioError)
    case .cannotWrite, .cannotStage:
      // A full disk is an I/O error (74) as everywhere; a missing or read-only directory is 73.
      if error.isDiskFull {
        return ErrorReport(message: message, hint: "free some disk space and try again", code: .ioError)
      }
      return ErrorReport(message: message, code: .cannotCreate)
    case .libraryNotEmpty:
      return ErrorReport(
        message: message,
        hint:
          "give --replace (a safety backup is written first) or --merge (adds items by ID) "
          + "— with --dry-run to see first what it would do — or restore into a new library "
          + "with --library NEW_DIR",
        code: .cannotCreate)
    case .mergeConflicts:
      return ErrorReport(
        message: message,
        hint:
          "--replace restores the backup as it is (after a safety backup), or restore into a "
          + "new library with --library NEW_DIR",
        code: .dataError)
    case .safetyBackupRequired:
      return ErrorReport(message: message, code: .software)
    case .notFound:
      return ErrorReport(message: message, hint: "check the path", code: .noInput)
    case .attachmentsUnavailable(let attachments, let more, let exporting):
      // The way out: the file's own bytes back, or each record of it gone (`AttachmentUse`).
      let one = attachments.count == 1 && more == 0
      // Two commands or more (up to 20 photos' worth), each on its own line, to be read and copied.
      let commands = attachments.flatMap(\.uses).map { detachCommand($0, library: library) }
      let detach =
        switch commands.count {
        case 0: "detach \(one ? "it" : "each") from the yarn or project that holds it; then"
        case 1: "detach \(one ? "it" : "them") with '\(commands[0])'; then"
        default:
          "detach \(one ? "it" : "them") with these commands, one a line:\n"
            + commands.map { "  \($0)\n" }.joined() + "then"
        }
      return ErrorReport(
        message: message,
        hint: "nothing was written; put \(one ? "the file" : "each file") back (its own bytes, from a copy), "
          + "or \(detach) \(exporting ? "export" : "back up") again",
        code: .ioError)
    case .newerFormat:
      return ErrorReport(message: message, hint: "install a newer version of yarn", code: .dataError)
    case .cannotOpen, .missingManifest, .invalidManifest:
      return ErrorReport(
        message: message, hint: "give a backup made by 'yarn backup create'", code: .dataError)
    case .invalidBackup(_, let problems) where fromOlderYarn(problems):
      return ErrorReport(
        message: message,
        hint:
          "nothing was changed: \(brokenRuleCause); mend the items listed in the library the backup "
          + "was made from (\(mending)), or restore it with the older yarn that wrote it and mend them "
          + "there, then back up again",
        code: .dataError)
    case .invalidBackup:
      return ErrorReport(
        message: message, hint: "the backup is damaged; nothing was changed", code: .dataError)
    case .unrestorable(let path, let problems):
      let refused = problems.contains {
        if case .orphanedRows = $0 { return false }
        return true
      }
      let older = fromOlderYarn(problems)
      let lacks =
        refused
        ? "'yarn backup restore' will refuse it until the library is mended\(older ? " (\(mending))" : "") "
          + "and backed up again"
        : "it lacks the rows listed"
      let cause =
        older
        ? brokenRuleCause
        : "the library was changed outside yarn (such as with the sqlite3 shell, whose foreign "
          + "keys are off by default)"
      return ErrorReport(
        message: message,
        hint:
          "\(cause); the backup is kept at \(visible: path) and holds everything yarn could read, but \(lacks)",
        code: .dataError)
    }
  }

  /// Whether `problems`, which make a backup one that a restore refuses, all break rules of
  /// the model (`BackupProblem.mayBeFromAnOlderYarn`: a blank ID, a negative quantity, …),
  /// which an older yarn may have allowed or a change outside yarn made: hints then say so,
  /// and how to mend them, instead of blaming a damaged file, which only the other problems
  /// come from.
  static func fromOlderYarn(_ problems: [BackupProblem]) -> Bool {
    !problems.isEmpty && problems.allSatisfy(\.mayBeFromAnOlderYarn)
  }

  /// Where items that break a rule of the model came from, both ways: an older yarn that
  /// allowed them, or a change outside yarn (the sqlite3 shell).
  static let brokenRuleCause =
    "an older yarn, or a change made outside yarn (such as with the sqlite3 shell), stored what "
    + "is listed, which this one refuses"

  /// How to mend items that break a rule of the model (in a library, which works with them).
  static let mending =
    "remove an item with a blank ID and add it again, which gives it a new ID; correct another "
    + "field with the item's 'edit', such as 'yarn stash edit ID --quantity …' (a tag: "
    + "'--untag TAG' or '--no-tags')"

  /// The hint for an item named by its ID or an ID prefix (a session, a note: the rule of
  /// `Lookup.tooShortIDPrefix`) that none names, or that is too short: `name a note by its ID
  /// or an ID prefix of at least 4 characters; see 'yarn note list'`, the command that lists
  /// them. The one place these words are made.
  private static func idPrefixHint(_ kind: String, list: String) -> String {
    "name a \(kind) by its ID or an ID prefix of at least 4 characters; see '\(list)'"
  }

  /// A time rule's error, its instants in `timeZone` (`yarn time` passes the one of `$TZ`).
  /// `command` (such as `["yarn", "time", "start"]`) is the command that met it: a hint names
  /// only the options that command takes, and the message names the session it would make
  /// or change; a `yarn` command a hint shows repeats its `--library` (`library`).
  static func report(
    for error: TimeError, timeZone: any UTCOffsetProvider = SystemTimeZone(), command: [String] = [],
    library: String? = nil
  ) -> ErrorReport {
    let verb = command.count == 3 && command[1] == "time" ? command[2] : ""
    func yarn(_ words: String) -> String { Context.yarnCommand(words, library: library) }
    // An instant is named with its seconds when they are not 0, a recorded one the log shows
    // without them (a timer stopped at 13:45:20 is shown 13:45) and a typed one (`--at -70s`,
    // `21:10:10`): they make a typed 13:45 overlap or come too early.
    func exact(_ instant: Date) -> String { Formatting.exactLocalTime(instant, timeZone: timeZone) }
    switch error {
    case .alreadyRunning(let session, let projectName):
      return ErrorReport(
        message:
          "a timer is already running on \(quoted: projectName) since \(exact(session.start))",
        hint: verb == "start"
          ? "stop it with '\(yarn("time stop"))', or start another project with --switch to stop it at the same instant"
          : "stop it first with '\(yarn("time stop"))'",
        code: .dataError)
    case .notRunning:
      return ErrorReport(
        message: error.description, hint: "start one with '\(yarn("time start PROJECT"))'",
        code: .dataError)
    case .endBeforeStart(let session, let end):
      return ErrorReport(
        message: "the timer started at \(exact(session.start)); it cannot stop at \(exact(end))",
        code: .dataError)
    case .endNotAfterStart(let start, let end):
      return ErrorReport(
        // The rule's words (`Rules.endNotAfterStart`), in local time.
        message: "the session's end \(exact(end)) is not after the start \(exact(start))",
        code: .dataError)
    case .inFuture(let edge, let instant, let now):
      return ErrorReport(
        message: "the \(edge.rawValue) \(exact(instant)) is in the future (now: \(exact(now)))",
        hint: "times are read in the local time zone, \(visible: timeZone.identifier)",
        code: .dataError)
    case .overlaps(let session, let projectName, let subject):
      let hint =
        switch verb {
        case "add", "edit": "change the times, or give --allow-overlap to record it anyway"
        case "start", "continue":
          "start it later, or record it with '\(yarn("time add"))', which takes --allow-overlap"
        default: "change the times"
        }
      // YarnCore's words (`TimeError.description`), in local time, the session's ID as tables
      // show it.
      return ErrorReport(
        message: "\(subject.rawValue) "
          + TimeError.overlapping(
            session, projectName: projectName, instant: exact, id: String(session.id.prefix(8))),
        hint: hint, code: .dataError)
    case .brokenRule:
      return ErrorReport(
        message: error.description,
        hint: "a session lasts at most \(Rules.duration(Rules.maximumSessionSeconds)); "
          + "record a longer stretch as several sessions, or stop a forgotten timer with '\(yarn("time stop --at"))'",
        code: .dataError)
    case .sessionNotFound:
      return ErrorReport(
        message: error.description,
        hint: idPrefixHint("session", list: yarn("time log")),
        code: .dataError)
    case .ambiguousSession:
      return ErrorReport(message: error.description, hint: "use a longer ID prefix", code: .dataError)
    }
  }

  /// A failed migration of the database's schema: 74, with a hint that the library is left
  /// as it was (the migrations' transaction was rolled back).
  private static func report(
    forUpgrade reason: StoreError.UpgradeFailure, message: String, file: String
  ) -> ErrorReport {
    let leftAsItWas = "the library is left as it was"
    switch reason {
    case .diskFull:
      return ErrorReport(
        message: message, hint: "free some disk space and try again; \(leftAsItWas)", code: .ioError)
    case .readOnly:
      return ErrorReport(
        message: message,
        hint: "check the permissions of \(file) and of the library directory; \(leftAsItWas)",
        code: .ioError)
    case .database:
      return ErrorReport(message: message, hint: leftAsItWas, code: .ioError)
    }
  }

  /// - Parameters:
  ///   - database: the path of `library.sqlite`, named when the database itself is at fault
  ///     (damaged, not a database, read-only), instead of SQLite's code and statement.
  ///   - command: the words of the command that met the error (`["yarn", "project", "add"]`).
  ///   - library: its `--library`, which a `yarn` command a hint shows repeats.
  static func report(
    for error: StoreError, database: String? = nil, command: [String] = [], library: String? = nil
  ) -> ErrorReport {
    func yarn(_ words: String) -> String { Context.yarnCommand(words, library: library) }
    var message = error.description
    let verb = command.count == 3 ? command[2] : ""
    if case .brokenRule(let kind, let id, let name, let violation) = error {
      // As the commands name an item (`updated tool Red (67848a44)`), not by its whole ID;
      // an add names the new item by its name alone: the ID made for it was never stored.
      let named = name.map { " \(visible: $0)" } ?? ""
      message =
        verb == "add" ? "\(kind)\(named): \(violation)" : "\(kind)\(named) (\(shownID(id))): \(violation)"
    }
    let file = database.map(LineText.visible) ?? "the library's database"
    switch error {
    case .busy:
      return ErrorReport(
        message: message,
        hint: "other yarn commands (or another program) are writing to the library; try again",
        code: .tempFail)
    case .removalRefused:
      return ErrorReport(
        message: message,
        hint: "add --force to remove it with them ('\(yarn("undo"))' right after gives them back)",
        code: .dataError)
    case .sessionAlreadyRunning:
      return ErrorReport(
        message: message, hint: "stop it first with '\(yarn("time stop"))'", code: .dataError)
    case .newerSchema:
      return ErrorReport(message: message, hint: "install a newer version of yarn", code: .dataError)
    case .notFound(.note, _):
      return ErrorReport(
        message: message,
        hint: idPrefixHint("note", list: yarn("note list")),
        code: .dataError)
    case .ambiguousID:
      return ErrorReport(message: message, hint: "use a longer ID prefix", code: .dataError)
    case .brokenRule(.project, _, _, let violation) where violation.field == "finished day":
      // The options of the command that set the days.
      let hint =
        switch command.dropFirst().joined(separator: " ") {
        case "project add": "change --started or --status"
        case "project edit": "change --started or --finished, or --status"
        case "project finish":
          "give --on a day on or after the started day, or change the started day with '\(yarn("project edit"))'"
        default: "change the project's days or status with '\(yarn("project edit"))'"
        }
      return ErrorReport(message: message, hint: hint, code: .dataError)
    case .brokenRule(.tool, _, _, let violation) where violation.field == "size":
      // A cable has no size, every other kind one (`Tool.ruleViolations`): name the option.
      let given = violation == Tool.cableGivenSize
      let hint =
        switch (command.dropFirst().joined(separator: " "), given) {
        case ("tool add", true): "leave out --size for a cable"
        case ("tool edit", true): "clear the size with --size \"\" when it becomes a cable"
        case (_, true): "a cable is given no size"
        case (_, false): "give its size with --size, such as 4.5mm, US 7 or H-8"
        }
      return ErrorReport(message: message, hint: hint, code: .dataError)
    case .lostAttachment(_, _, _, let use):
      // Detached first, the file is no longer the item's; then it can go, and come back.
      return ErrorReport(
        message: message,
        hint: "nothing was removed; put the file back (its own bytes, from a copy), or detach it "
          + "first with '\(detachCommand(use, library: library))'",
        code: .dataError)
    case .invalidData:
      // What yarn cannot read was written by another program: the history records such a
      // change (the triggers are in the database), and undo reverses it.
      return ErrorReport(
        message: message,
        hint: "the library holds what yarn cannot read, written outside yarn (such as with the sqlite3 "
          + "shell); '\(yarn("undo"))' reverses such a change while the history holds it, newest first "
          + "(see '\(yarn("undo --list"))'), else correct the value named above with the program that wrote it",
        code: .dataError)
    case .notFound, .duplicateID, .missingReference, .missingAttachment, .brokenRule:
      return ErrorReport(message: message, code: .dataError)
    case .cannotUndo(.nothingToUndo), .cannotUndo(.nothingToRedo):
      return ErrorReport(message: message, hint: "see '\(yarn("undo --list"))'", code: .dataError)
    case .cannotUndo(.barrier(let change)):
      // A `backup restore --replace` (the one change that ends the history) names its
      // safety backup last: restoring it is the way back.
      let marker = "in the safety backup "
      let safety = change.detail.flatMap { detail in
        detail.ranges(of: marker).last.map { String(detail[$0.upperBound...]) }
      }
      return ErrorReport(
        message: message,
        hint: safety.map {
          "to go back to the library before the restore, restore the safety backup with --replace: "
            + yarn("backup restore \(Context.hintQuoted($0)) --replace")
        }, code: .dataError)
    case .cannotUndo(.broken):
      // Older changes wait behind this one: say what lets the history go on.
      return ErrorReport(
        message: message,
        hint: "the library is as it was; put back what was changed outside yarn (a backup "
          + "holds it) and undo again, or go on without undoing this change",
        code: .dataError)
    case .database(let database) where [11, 26].contains(database.primaryCode):
      // SQLITE_CORRUPT (11) and SQLITE_NOTADB (26), sqlite.org/rescode.html.
      return ErrorReport(
        message: "\(file) is damaged or not a yarn library (SQLite: \(database.message))",
        hint:
          "restore a backup into a new library with 'yarn --library NEW_DIR backup restore FILE'; "
          + "keep the damaged file until the restore is done",
        code: .ioError)
    case .database(let database) where database.primaryCode == 8:
      // SQLITE_READONLY: the file or its directory is not writable by this user.
      return ErrorReport(
        message: "cannot write the library: \(file) is read-only (SQLite: \(database.message))",
        hint:
          "check the permissions of library.sqlite and of the library directory (see 'yarn --help' for where it is)",
        code: .ioError)
    case .diskFull:
      return ErrorReport(
        message: message, hint: "free some disk space and try again; the library is left as it was",
        code: .ioError)
    case .libraryCreatedMeanwhile:
      return ErrorReport(
        message: message, hint: "run the command again: it will work on that library", code: .ioError)
    case .upgradeFailed(let from, let to, let reason):
      // The store's words, naming the file once it is known and a full disk plainly.
      let why = reason == .diskFull ? StoreError.noRoom : reason.description
      let upgrade =
        from == 0
        ? "cannot create the tables of \(file) (schema version \(to)): \(why)"
        : "cannot upgrade \(file) from schema version \(from) to \(to) (it is left as it was): \(why)"
      return report(forUpgrade: reason, message: upgrade, file: file)
    case .database, .io:
      return ErrorReport(message: message, code: .ioError)
    case .readOnly, .closed:
      return ErrorReport(message: message, code: .software)
    }
  }
}
