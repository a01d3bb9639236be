import CLibzip
import YarnModel
import YarnStore

/// libzip, which `Sources/CLibzip/loader.c` loads on first use rather than at process start.
enum ZipLibrary {
  /// Loads libzip once (later calls return at once); every zip archive is opened after it.
  ///
  /// - Throws: `SystemLibraryError` when libzip is not installed or lacks a function used.
  static func load() throws {
    var message = [CChar](repeating: 0, count: 512)
    guard yarn_libzip_load(&message, message.count) == 0 else { return }
    let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    throw SystemLibraryError(library: "libzip", reason: reason)
  }
}
