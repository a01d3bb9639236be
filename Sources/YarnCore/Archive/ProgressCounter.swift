/// Counts work done out of a known total and reports it as a fraction, for the progress
/// callbacks of the long operations (`Backup.verify`, `restore`, `StashCSV.importCSV`).
///
/// The fractions it reports never go down and end at exactly 1 (`finish()`); a total of 0
/// reports 1 at once.
struct ProgressCounter {
  /// The whole, in the caller's unit (bytes).
  let total: Int64
  private(set) var done: Int64 = 0
  private var reported = -1.0
  private let report: ((Double) -> Void)?

  init(total: Int64, report: ((Double) -> Void)?) {
    self.total = max(0, total)
    self.report = report
  }

  /// Adds `amount` to what is done and reports the fraction (capped at 1).
  mutating func add(_ amount: Int64) {
    done += max(0, amount)
    set(total > 0 ? Double(done) / Double(total) : 1)
  }

  /// Reports `fraction` of the work done (clamped to 0...1, never below what was reported).
  mutating func set(_ fraction: Double) {
    guard let report else { return }
    let clamped = fraction.isFinite ? min(1, max(0, fraction)) : 0
    guard clamped > reported else { return }
    reported = clamped
    report(clamped)
  }

  /// Reports 1 unless it was reported already.
  mutating func finish() { set(1) }
}
