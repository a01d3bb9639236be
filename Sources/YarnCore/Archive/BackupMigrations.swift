import YarnModel
import YarnStore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The chain of migrations that turns the documents of every older backup format version into
/// the current one, so that a backup made by any earlier yarn restores forever
/// (docs/FORMAT.md, "Compatibility promise").
///
/// Each `Step` upgrades version `from` to `from + 1`, working on the decoded JSON (objects as
/// `[String: JSONValue]`) of `manifest.json` and of `library.json`; the steps run in order, then the
/// result is decoded as the current `BackupManifest` and `Library`. Version 1 is the first and
/// the current version, so the chain is empty today; a format change adds a step here, raises
/// `Backup.formatVersion`, and adds a golden archive of the new version under Tests/Fixtures.
///
/// A backup of the current version is never converted (its bytes are read as they are).
enum BackupMigrations {
  /// One upgrade, from `from` to `from + 1`.
  struct Step: Sendable {
    /// The version this step reads; it writes `from + 1`.
    let from: Int
    /// What changed, for people (`"yarns: 'colour' renamed 'colorway'"`).
    let summary: String
    let manifest: @Sendable (inout [String: JSONValue]) throws -> Void
    let library: @Sendable (inout [String: JSONValue]) throws -> Void

    /// A step; `manifest` and `library` change the decoded documents in place and throw
    /// `BackupMigrations.Failure` when a document cannot be upgraded.
    init(
      from: Int, summary: String,
      manifest: @escaping @Sendable (inout [String: JSONValue]) throws -> Void = { _ in },
      library: @escaping @Sendable (inout [String: JSONValue]) throws -> Void = { _ in }
    ) {
      self.from = from
      self.summary = summary
      self.manifest = manifest
      self.library = library
    }
  }

  /// Why a document could not be upgraded.
  struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
    var reason: String
    init(_ reason: String) { self.reason = reason }
    var description: String { reason }
  }

  /// The chain: `chain[i].from == i + 1`, one step for every version below
  /// `Backup.formatVersion`. Empty while version 1 is the only version.
  static let chain: [Step] = []

  /// Whether `chain` holds exactly one step from each version in `1..<target`, in order.
  static func isComplete(_ chain: [Step], upTo target: Int) -> Bool {
    chain.map(\.from) == Array(1..<max(1, target))
  }

  /// Upgrades `data`, a document of format version `version`, to `target`.
  ///
  /// - Parameters:
  ///   - document: which document (`\.manifest` or `\.library` of a step).
  ///   - chain: the steps (the real chain by default; tests give their own).
  /// - Returns: `data` itself when `version == target`, else the upgraded JSON.
  /// - Throws: `Failure` when the data is not a JSON object, a step is missing, or a step
  ///   throws.
  static func migrate(
    _ data: Data, from version: Int, to target: Int = Backup.formatVersion,
    document: KeyPath<Step, @Sendable (inout [String: JSONValue]) throws -> Void>,
    chain: [Step] = chain
  ) throws -> Data {
    if version == target { return data }
    guard var object = try? JSONDecoder().decode([String: JSONValue].self, from: data) else {
      throw Failure("the document is not a JSON object")
    }
    for from in version..<target {
      guard let step = chain.first(where: { $0.from == from }) else {
        throw Failure("no migration from format version \(from) to \(from + 1)")
      }
      try step[keyPath: document](&object)
    }
    do {
      return try JSONCoding.encoder(pretty: false).encode(object)
    } catch {
      throw Failure("the upgraded document cannot be written as JSON: \(error)")
    }
  }
}
