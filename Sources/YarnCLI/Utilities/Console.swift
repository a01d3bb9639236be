#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A text output: standard output, standard error, or memory (for tests).
///
/// Writes to a descriptor are buffered and flushed at 64 KiB and by `flush()`; a write error
/// (a closed pipe, a full disk) is kept and reported by `flush()`.
final class TextOutput {
  enum Target {
    case fileDescriptor(Int32)
    case memory
  }

  private let target: Target
  private var buffer: [UInt8] = []
  /// What was written, for `.memory`.
  private(set) var captured = ""
  /// The first write error, reported by the next `flush()`.
  private var failure: CLIError?

  init(_ target: Target) {
    self.target = target
  }

  static func standardOutput() -> TextOutput { TextOutput(.fileDescriptor(1)) }
  static func standardError() -> TextOutput { TextOutput(.fileDescriptor(2)) }

  /// Whether the output is a terminal.
  var isTerminal: Bool {
    if case .fileDescriptor(let fd) = target { return isatty(fd) == 1 }
    return false
  }

  /// Writes `text` as is.
  func write(_ text: String) {
    switch target {
    case .memory: captured += text
    case .fileDescriptor:
      buffer.append(contentsOf: text.utf8)
      if buffer.count >= 1 << 16 {
        do { try flush() } catch { failure = failure ?? error }
      }
    }
  }

  /// Writes `bytes` (UTF-8) as they are.
  func write(bytes: UnsafeRawBufferPointer) {
    switch target {
    case .memory: captured += String(decoding: bytes, as: UTF8.self)
    case .fileDescriptor:
      buffer.append(contentsOf: bytes)
      if buffer.count >= 1 << 16 {
        do { try flush() } catch { failure = failure ?? error }
      }
    }
  }

  /// Writes `text` and a line feed.
  func line(_ text: String = "") {
    write(text)
    write("\n")
  }

  /// Writes out what is buffered.
  ///
  /// - Throws: `CLIError.io` when the descriptor refuses the bytes.
  func flush() throws(CLIError) {
    if let failure {
      self.failure = nil
      buffer.removeAll()
      throw failure
    }
    guard case .fileDescriptor(let fd) = target, !buffer.isEmpty else { return }
    defer { buffer.removeAll(keepingCapacity: true) }
    var offset = 0
    while offset < buffer.count {
      let written = buffer.withUnsafeBytes { bytes -> Int in
        guard let base = bytes.baseAddress else { return 0 }
        return systemWrite(fd, base + offset, bytes.count - offset)
      }
      if written < 0 {
        if errno == EINTR { continue }
        let reason = String(cString: strerror(errno)).lowercased()
        throw .io(path: fd == 1 ? "standard output" : "standard error", reason: reason)
      }
      offset += written
    }
  }
}

/// write(2), named apart from `TextOutput.write`.
private func systemWrite(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
  write(fd, pointer, count)
}
