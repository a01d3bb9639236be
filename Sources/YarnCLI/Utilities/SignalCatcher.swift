import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Receives signals (SIGINT, SIGTERM) on a serial dispatch queue instead of letting them end
/// the process, and calls `handler` for each; `last` is the last one received (0 for none).
/// Keep the catcher alive as long as the signals should be caught.
final class SignalCatcher {
  private let sources: [any DispatchSourceSignal]
  private static let queue = DispatchQueue(label: "yarn.signals")
  /// Written and read only on `queue`.
  nonisolated(unsafe) private static var lastSignal: Int32 = 0

  init(signals: [Int32], handler: @escaping @Sendable () -> Void) {
    sources = signals.map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: SignalCatcher.queue)
      source.setEventHandler {
        SignalCatcher.lastSignal = number
        handler()
      }
      source.resume()
      return source
    }
  }

  /// The last signal received, 0 for none.
  var last: Int32 { SignalCatcher.queue.sync { SignalCatcher.lastSignal } }
}
