import YarnCore

extension ErrorPresenter {
  /// Reports of the store's, time tracker's and backup's errors; `nil` for other errors.
  static func storeReport(for error: any Error) -> ErrorReport? {
    nil
  }
}
