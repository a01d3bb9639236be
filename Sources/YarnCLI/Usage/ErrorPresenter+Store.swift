import YarnCore

extension ErrorPresenter {
  /// Reports of the store's, time tracker's and backup's errors; `nil` for other errors.
  static func storeReport(for error: any Error) -> ErrorReport? {
    if let error = error as? StoreError { return report(for: error) }
    if let error = error as? TimeError { return report(for: error) }
    if let error = error as? BackupError { return report(for: error) }
    return nil
  }

  static func report(for error: BackupError) -> ErrorReport {
    let message = error.description
    switch error {
    case .destinationExists(let path):
      return ErrorReport(
        message: "\(path) already exists", hint: "give another file name, or --force to replace it",
        code: .cannotCreate)
    case .cannotWrite, .cannotStage:
      return ErrorReport(message: message, code: .cannotCreate)
    case .libraryNotEmpty:
      return ErrorReport(
        message: message,
        hint:
          "give --replace (a safety backup is written first) or --merge (adds items by ID), "
          + "--dry-run to see what either would do, or restore into a new library with "
          + "--library NEW_DIR",
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
    case .attachmentUnavailable:
      return ErrorReport(message: message, code: .ioError)
    case .newerFormat:
      return ErrorReport(message: message, hint: "install a newer version of yarn", code: .dataError)
    case .cannotOpen, .missingManifest, .invalidManifest:
      return ErrorReport(
        message: message, hint: "give a backup made by 'yarn backup create'", code: .dataError)
    case .invalidBackup:
      return ErrorReport(
        message: message, hint: "the backup is damaged; nothing was changed", code: .dataError)
    }
  }

  static func report(for error: TimeError) -> ErrorReport {
    switch error {
    case .alreadyRunning(let session, let projectName):
      return ErrorReport(
        message:
          "a timer is already running on \"\(projectName)\" since \(Formatting.localTime(session.start))",
        hint: "stop it with 'yarn time stop', or start with --switch to stop it and start this one",
        code: .dataError)
    case .notRunning:
      return ErrorReport(
        message: error.description, hint: "start one with 'yarn time start PROJECT'",
        code: .dataError)
    case .endBeforeStart:
      return ErrorReport(message: error.description, code: .dataError)
    }
  }

  static func report(for error: StoreError) -> ErrorReport {
    let message = error.description
    switch error {
    case .busy:
      return ErrorReport(
        message: message, hint: "another yarn process is using the library; try again",
        code: .tempFail)
    case .yarnInUse:
      return ErrorReport(
        message: message, hint: "a yarn stays in the stash while a project records a usage of it",
        code: .dataError)
    case .sessionAlreadyRunning:
      return ErrorReport(message: message, hint: "stop it first with 'yarn time stop'", code: .dataError)
    case .newerSchema:
      return ErrorReport(message: message, hint: "install a newer version of yarn", code: .dataError)
    case .notFound, .duplicateID, .missingReference, .missingAttachment, .invalidData:
      return ErrorReport(message: message, code: .dataError)
    case .database, .io:
      return ErrorReport(message: message, code: .ioError)
    case .readOnly, .closed:
      return ErrorReport(message: message, code: .software)
    }
  }
}
