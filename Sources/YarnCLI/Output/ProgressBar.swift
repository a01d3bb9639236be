#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A progress bar on standard error, drawn only when standard error is a terminal and
/// `--quiet` is not given; otherwise every call does nothing, so pipes and logs never see it.
///
/// One line, redrawn in place with a carriage return: `backing up [#######.......]  47%`;
/// `finish()` erases it, so the messages that follow start on a clean line.
final class ProgressBar {
  private let label: String
  private let output: TextOutput?
  private var shown = -1
  private let width = 30

  init(_ label: String, context: Context) {
    self.label = label
    output = context.messages.isTerminal && !context.global.quiet ? context.messages : nil
  }

  /// Whether the bar is drawn at all.
  var isVisible: Bool { output != nil }

  /// A progress callback for YarnCore that updates the bar; `nil` when it is not drawn.
  var callback: ((Double) -> Void)? {
    guard isVisible else { return nil }
    return { fraction in self.update(fraction) }
  }

  /// Shows `fraction` (clamped to 0...1); redraws only when the whole percentage changes.
  func update(_ fraction: Double) {
    guard let output else { return }
    let clamped = fraction.isFinite ? min(1, max(0, fraction)) : 0
    let percent = Int(clamped * 100)
    guard percent != shown else { return }
    shown = percent
    let filled = Int(clamped * Double(width))
    let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
    let number = String(repeating: " ", count: 3 - String(percent).count) + String(percent)
    output.write("\r\(label) [\(bar)] \(number)%")
    try? output.flush()
  }

  /// Erases the bar.
  func finish() {
    guard let output, shown >= 0 else { return }
    output.write("\r" + String(repeating: " ", count: label.count + width + 8) + "\r")
    try? output.flush()
    shown = -1
  }
}
