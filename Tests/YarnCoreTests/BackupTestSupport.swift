import Foundation

@testable import YarnCore

/// Test helpers of the Backup and Zip suites (names prefixed to stay clear of other suites').
enum BackupTestSupport {
  /// Runs `body` with a fresh, empty temporary directory, removed afterwards.
  static func withScratch<T>(_ body: (URL) throws -> T) throws -> T {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("yarn-backup-tests-" + UUID().uuidString, isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try body(url)
  }

  /// The package root, found from this file's path.
  static var packageRoot: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
  }

  /// A file of `../shared/data/zip/` (the shared hostile-archive corpus).
  static func sharedZip(_ relative: String) -> URL {
    packageRoot.appendingPathComponent("../shared/data/zip/" + relative).standardizedFileURL
  }

  /// Every regular file under `directory`, as paths relative to it, sorted.
  static func listing(of directory: URL) -> [String] {
    guard
      let enumerator = FileManager.default.enumerator(
        at: directory, includingPropertiesForKeys: [.isRegularFileKey])
    else { return [] }
    var out: [String] = []
    let base = directory.standardizedFileURL.resolvingSymlinksInPath().path
    for case let url as URL in enumerator {
      let values = try? url.resourceValues(forKeys: [.isRegularFileKey])
      guard values?.isRegularFile == true else { continue }
      let path = url.standardizedFileURL.resolvingSymlinksInPath().path
      out.append(String(path.dropFirst(base.count + 1)))
    }
    return out.sorted()
  }

  /// Bytes that look like a JPEG to nobody but are named one: `count` pseudo-random bytes.
  static func noise(count: Int, seed: UInt64) -> Data {
    var state = seed &+ 0x9E37_79B9_7F4A_7C15
    var out = Data(capacity: count)
    for _ in 0..<count {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      out.append(UInt8(truncatingIfNeeded: state >> 33))
    }
    return out
  }
}
