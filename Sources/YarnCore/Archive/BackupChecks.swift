import YarnModel
import YarnStore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The pure checks of a backup: entry names, the manifest's file list and the library's
/// internal references. No I/O; used by `BackupReader`.
enum BackupChecks {
  /// Why `name` is unsafe as a path inside a backup, or `nil` when it is safe.
  ///
  /// Refused: the empty name; an absolute path (`/x`); a backslash (a separator on Windows,
  /// used by `..\x` attacks); a NUL or other control character; a Windows drive (`C:`); an
  /// empty, `.` or `..` component. A trailing `/` (a directory entry) is allowed when
  /// `allowDirectory`.
  static func unsafeReason(_ name: String, allowDirectory: Bool = true) -> String? {
    if name.isEmpty { return "empty name" }
    if name.hasPrefix("/") { return "absolute path" }
    if name.unicodeScalars.contains("\\") { return "holds a backslash" }
    if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) {
      return "holds a NUL or control character"
    }
    var body = Substring(name)
    if allowDirectory, body.hasSuffix("/") { body = body.dropLast() }
    let components = body.split(separator: "/", omittingEmptySubsequences: false)
    if let first = components.first, first.count == 2, first.hasSuffix(":") {
      return "starts with a drive letter"
    }
    for component in components {
      switch component {
      case "": return "has an empty path component"
      case ".": return "has a \".\" component"
      case "..": return "has a \"..\" component"
      default: continue
      }
    }
    return nil
  }

  /// Problems of a list of entry names: unsafe names, duplicates, and names that collide
  /// when case is ignored (each reported once).
  static func nameProblems(_ names: [String]) -> [BackupProblem] {
    var problems: [BackupProblem] = []
    var seen = Set<String>()
    var folded: [String: String] = [:]
    for name in names {
      if let reason = unsafeReason(name) { problems.append(.unsafeName(name, reason: reason)) }
      guard seen.insert(name).inserted else {
        problems.append(.duplicateName(name))
        continue
      }
      let key = name.lowercased()
      if let other = folded[key] {
        problems.append(.caseCollision(other, name))
      } else {
        folded[key] = name
      }
    }
    return problems
  }

  /// Problems of the manifest's file list: each path must be `library.json` or
  /// `attachments/<sha256>` (its own digest), listed once, with a size ≥ 0 and a well-formed
  /// digest; `library.json` must be listed.
  static func manifestProblems(_ manifest: BackupManifest, limits: BackupLimits) -> [BackupProblem] {
    var problems = nameProblems(manifest.files.map(\.path))
    if manifest.files.count > limits.maxEntries {
      problems.append(.tooManyEntries(count: manifest.files.count, limit: limits.maxEntries))
    }
    var total: Int64 = 0
    for file in manifest.files {
      if file.size < 0 {
        problems.append(.invalidManifestEntry(file.path, reason: "negative size \(file.size)"))
      } else {
        total = total.addingReportingOverflow(file.size).overflow ? Int64.max : total + file.size
      }
      if !Attachment.isValidDigest(file.sha256) {
        problems.append(
          .invalidManifestEntry(file.path, reason: "sha256 is not 64 lower-case hex digits"))
      }
      if file.path == BackupManifest.libraryPath { continue }
      if file.path.hasPrefix(BackupManifest.attachmentsDirectory) {
        let name = String(file.path.dropFirst(BackupManifest.attachmentsDirectory.count))
        if name != file.sha256 {
          problems.append(
            .invalidManifestEntry(file.path, reason: "an attachment must be named by its sha256"))
        }
      } else {
        problems.append(
          .invalidManifestEntry(
            file.path, reason: "not library.json or attachments/<sha256> (format version 1)"))
      }
    }
    if !manifest.files.contains(where: { $0.path == BackupManifest.libraryPath }) {
      problems.append(.missing(BackupManifest.libraryPath))
    }
    if total > limits.maxTotalBytes {
      problems.append(.tooManyBytes(total: total, limit: limits.maxTotalBytes))
    }
    return problems
  }

  /// A readable account of a decoding error: what was wrong, in the words of JSON and of the
  /// field, and at which JSON path; never Swift's names of types.
  ///
  /// - `typeMismatch`: `at yarns[0].notes: expected a list, found an object` (the kinds:
  ///   a list, an object, a string, a number, a whole number, true or false, null);
  /// - `valueNotFound`: `at yarns[0].notes: expected a list, found null`;
  /// - `keyNotFound`: `at yarns[0]: missing key "name"`;
  /// - `dataCorrupted` of a value that is none of a field's choices:
  ///   `at yarns[0].weight: 9 is not a yarn weight (0–7)` (`choices`), else the error's own
  ///   words (those of the models' decoders, and `the given data was not valid JSON.`).
  ///
  /// - Parameters:
  ///   - prefix: the path of the decoded value in its document (`yarns[3]`), put before the
  ///     error's own path.
  ///   - droppingFirst: how many keys of the error's own path to leave out (the value's place
  ///     in what it was decoded from, which `prefix` names instead).
  static func describe(_ error: Error, prefix: String = "", droppingFirst: Int = 0) -> String {
    guard let error = error as? DecodingError else {
      return (prefix.isEmpty ? "" : "at \(prefix): ") + String(describing: error)
    }
    func path(_ context: DecodingError.Context) -> String {
      var out = prefix
      for key in context.codingPath.dropFirst(droppingFirst) {
        if let index = key.intValue {
          out += "[\(index)]"
        } else {
          out += (out.isEmpty ? "" : ".") + key.stringValue
        }
      }
      return out.isEmpty ? "the top level" : out
    }
    switch error {
    case .typeMismatch(let type, let context):
      let found = foundKind(context.debugDescription).map { ", found \($0)" } ?? ""
      return "at \(path(context)): expected \(kind(of: type))\(found)"
    case .valueNotFound(let type, let context):
      return "at \(path(context)): expected \(kind(of: type)), found null"
    case .keyNotFound(let key, let context):
      return "at \(path(context)): missing key \"\(key.stringValue)\""
    case .dataCorrupted(let context):
      return
        "at \(path(context)): \(invalidValue(context.debugDescription) ?? context.debugDescription.lowercasedFirst)"
    @unknown default:
      return (prefix.isEmpty ? "" : "at \(prefix): ") + "the value does not fit its field"
    }
  }

  /// The kind of JSON value `type` is decoded from, as `describe` says it: `a list`,
  /// `an object`, `a string`, `a whole number`, `a number`, `true or false`.
  static func kind(of type: Any.Type) -> String {
    switch type {
    case is String.Type, is Substring.Type: return "a string"
    case is Bool.Type: return "true or false"
    case is Double.Type, is Float.Type: return "a number"
    case is any BinaryInteger.Type: return "a whole number"
    default:
      // `Array<Any>` and the unkeyed container are lists; `Dictionary<String, Any>`, the
      // keyed container and every other type (a model's struct) are objects.
      let name = String(describing: type)
      return name.hasPrefix("Array<") || name.contains("Unkeyed") ? "a list" : "an object"
    }
  }

  /// What Foundation's `typeMismatch` says it found (`… but found a dictionary instead.`),
  /// in JSON's words (`an object`), or `nil` when it does not say.
  static func foundKind(_ debugDescription: String) -> String? {
    let words = debugDescription.split(separator: " ")
    guard
      let found = words.indices.dropLast().first(where: { words[$0] == "but" && words[$0 + 1] == "found" })
    else { return nil }
    switch words[(found + 2)...].first(where: { $0 != "a" && $0 != "an" }) {
    case "dictionary": return "an object"
    case "array": return "a list"
    case "string": return "a string"
    case "number": return "a number"
    case "bool", "boolean": return "true or false"
    case "null": return "null"
    default: return nil
    }
  }

  /// The words of a field's choices, by the name of the type Foundation says it cannot
  /// initialize (`Cannot initialize YarnWeight from invalid Int value 9`): the model's enums
  /// decoded from their raw values.
  static let choices: [String: String] = {
    func list<T: CaseIterable & RawRepresentable>(_: T.Type) -> String where T.RawValue == String {
      T.allCases.map(\.rawValue).joined(separator: ", ")
    }
    return [
      "YarnWeight": "a yarn weight (0–7)",
      "YarnUnit": "a unit (\(list(YarnUnit.self)))",
      "StashStatus": "a yarn status (\(list(StashStatus.self)))",
      "Craft": "a craft (\(list(Craft.self)))",
      "ProjectStatus": "a project status (\(list(ProjectStatus.self)))",
      "ToolKind": "a tool kind (\(list(ToolKind.self)))",
      "GaugeUnit": "a gauge unit (\(list(GaugeUnit.self)))",
    ]
  }()

  /// `9 is not a yarn weight (0–7)`, `"knit" is not a craft (…)`, `9 is not a valid value`
  /// for Foundation's `Cannot initialize TYPE from invalid RAW value VALUE`; `nil` for any
  /// other description.
  static func invalidValue(_ debugDescription: String) -> String? {
    let words = debugDescription.split(separator: " ", maxSplits: 6, omittingEmptySubsequences: false)
    guard words.count == 7, words[0] == "Cannot", words[1] == "initialize", words[3] == "from",
      words[4] == "invalid", words[6].hasPrefix("value ")
    else { return nil }
    let raw = words[6].dropFirst("value ".count)
    let value = words[5] == "String" ? "\"\(LineText.visible(String(raw)))\"" : String(raw)
    return "\(value) is not \(choices[String(words[2])] ?? "a valid value")"
  }
}

extension String {
  fileprivate var lowercasedFirst: String {
    guard let first else { return self }
    return first.lowercased() + dropFirst()
  }
}
