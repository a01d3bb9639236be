import Foundation

/// Paths to test material: the package root, and `../shared/data` beside it (see
/// shared/data/README.md), found from this file's own path so that no bundle is needed.
enum Fixtures {
  static let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // Support
    .deletingLastPathComponent()  // YarnCoreTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()

  static let sharedData: URL = packageRoot.deletingLastPathComponent()
    .appendingPathComponent("shared/data")

  static func shared(_ path: String) -> URL { sharedData.appendingPathComponent(path) }

  /// A fresh, empty directory for one test; remove it with `cleanUp`.
  static func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("yarn-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  static func cleanUp(_ url: URL) { try? FileManager.default.removeItem(at: url) }
}
