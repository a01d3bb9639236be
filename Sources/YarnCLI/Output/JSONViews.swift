import YarnCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// The JSON shapes of the CLI's output (docs/CLI.md, "JSON contract"). Each view encodes the
// model value as it is in library.json and adds the computed fields; unknown computed values
// are written as `null`, never left out.

/// A stash yarn: every `Yarn` field, `"quantity"` (`null` when unknown) and `"remaining"`;
/// `stash show` adds `"notes"`, the notes about it (as `note show --json`), oldest first.
struct YarnJSON: Encodable {
  let yarn: Yarn
  let remaining: RemainingEstimate
  /// Project names by ID, for the unconverted usages.
  let projectNames: [String: String]
  var notes: [Note]? = nil

  private enum Key: String, CodingKey { case quantity, remaining, notes }

  func encode(to encoder: any Encoder) throws {
    try yarn.encode(to: encoder)
    var container = encoder.container(keyedBy: Key.self)
    if let notes { try container.encode(notes, forKey: .notes) }
    if yarn.quantity == nil { try container.encodeNil(forKey: .quantity) }
    if remaining.remaining == nil {
      try container.encodeNil(forKey: .remaining)
    } else {
      try container.encode(RemainingJSON(remaining, projectNames: projectNames), forKey: .remaining)
    }
  }
}

extension YarnJSON {
  /// The object as the pretty encoder (`JSONCoding.encoder()`) writes it at the top level
  /// (keys sorted, ` : ` between key and value, two spaces of indentation, no final line
  /// feed), written without the encoder: `stash list --json` writes one per yarn, and the
  /// encoder was 69% of its instructions. `nil` for the shapes left to the encoder: a yarn
  /// with notes (`stash show`) or with usages that do not convert. The same bytes as
  /// `encode(to:)` gives, checked by `JSONTextTests`.
  func prettyBytes() -> [UInt8]? {
    let numbers =
      [
        yarn.lengthPerSkein, yarn.netWeightPerSkein, yarn.quantity, yarn.remainingOverride,
        remaining.remaining,
      ]
      .compactMap { $0?.value } + [remaining.deficit].compactMap { $0 }
    // (The encoder refuses a number that is not finite: it is left to say so.)
    guard notes == nil, remaining.unconverted.isEmpty, numbers.allSatisfy(\.isFinite) else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(640)
    var first = true
    func key(_ name: String) {
      bytes.append(contentsOf: (first ? "{\n  \"" : ",\n  \"").utf8)
      bytes.append(contentsOf: name.utf8)
      bytes.append(contentsOf: "\" : ".utf8)
      first = false
    }
    func text(_ name: String, _ value: String?) {
      guard let value else { return }
      key(name)
      JSONText.appendString(value, to: &bytes)
    }
    func amount(_ name: String, _ value: Amount?) {
      guard let value else { return }
      key(name)
      bytes.append(contentsOf: "{\n    \"unit\" : ".utf8)
      JSONText.appendString(value.unit.rawValue, to: &bytes)
      bytes.append(contentsOf: ",\n    \"value\" : ".utf8)
      JSONText.appendNumber(value.value, to: &bytes)
      bytes.append(contentsOf: "\n  }".utf8)
    }
    text("brand", yarn.brand)
    text("colorFamily", yarn.colorFamily)
    text("colorway", yarn.colorway)
    text("dateAdded", yarn.dateAdded?.iso8601)
    text("dyeLot", yarn.dyeLot)
    text("fiber", yarn.fiber)
    text("id", yarn.id)
    key("isStashed")
    bytes.append(contentsOf: (yarn.isStashed ? "true" : "false").utf8)
    amount("lengthPerSkein", yarn.lengthPerSkein)
    text("name", yarn.name)
    amount("netWeightPerSkein", yarn.netWeightPerSkein)
    key("photos")
    if yarn.photos.isEmpty {
      bytes.append(contentsOf: "[\n\n  ]".utf8)
    } else {
      for (index, photo) in yarn.photos.enumerated() {
        bytes.append(
          contentsOf: (index == 0 ? "[\n    {\n      \"byteCount\" : " : ",\n    {\n      \"byteCount\" : ")
            .utf8)
        bytes.append(contentsOf: String(photo.byteCount).utf8)
        bytes.append(contentsOf: ",\n      \"fileName\" : ".utf8)
        JSONText.appendString(photo.fileName, to: &bytes)
        bytes.append(contentsOf: ",\n      \"mediaType\" : ".utf8)
        JSONText.appendString(photo.mediaType, to: &bytes)
        bytes.append(contentsOf: ",\n      \"sha256\" : ".utf8)
        JSONText.appendString(photo.sha256, to: &bytes)
        bytes.append(contentsOf: "\n    }".utf8)
      }
      bytes.append(contentsOf: "\n  ]".utf8)
    }
    text("purchaseLocation", yarn.purchaseLocation)
    if let quantity = yarn.quantity {
      amount("quantity", quantity)
    } else {
      key("quantity")
      bytes.append(contentsOf: "null".utf8)
    }
    key("remaining")
    if let left = remaining.remaining {
      bytes.append(contentsOf: "{".utf8)
      if let deficit = remaining.deficit {
        bytes.append(contentsOf: "\n    \"deficit\" : ".utf8)
        JSONText.appendNumber(deficit, to: &bytes)
        bytes.append(contentsOf: ",".utf8)
      }
      bytes.append(contentsOf: "\n    \"source\" : ".utf8)
      JSONText.appendString(remaining.source.rawValue, to: &bytes)
      bytes.append(contentsOf: ",\n    \"unit\" : ".utf8)
      JSONText.appendString(left.unit.rawValue, to: &bytes)
      bytes.append(contentsOf: ",\n    \"value\" : ".utf8)
      JSONText.appendNumber(left.value, to: &bytes)
      bytes.append(contentsOf: "\n  }".utf8)
    } else {
      bytes.append(contentsOf: "null".utf8)
    }
    amount("remainingOverride", yarn.remainingOverride)
    if let weight = yarn.weight {
      key("weight")
      bytes.append(contentsOf: String(weight.rawValue).utf8)
    }
    bytes.append(contentsOf: "\n}".utf8)
    return bytes
  }
}

/// `{"value", "unit", "source"}`, plus `"deficit"` when overdrawn and `"unconverted"` when
/// some usage could not be converted.
struct RemainingJSON: Encodable {
  let estimate: RemainingEstimate
  let projectNames: [String: String]

  init(_ estimate: RemainingEstimate, projectNames: [String: String]) {
    self.estimate = estimate
    self.projectNames = projectNames
  }

  private enum Key: String, CodingKey { case value, unit, source, deficit, unconverted }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encodeIfPresent(estimate.remaining?.value, forKey: .value)
    try container.encodeIfPresent(estimate.remaining?.unit, forKey: .unit)
    try container.encode(estimate.source, forKey: .source)
    try container.encodeIfPresent(estimate.deficit, forKey: .deficit)
    if !estimate.unconverted.isEmpty {
      try container.encode(
        estimate.unconverted.map { UnconvertedJSON(usage: $0, projectName: projectNames[$0.projectID]) },
        forKey: .unconverted)
    }
  }
}

/// An unconverted usage: `{"projectID", "project" (name), "amount", "missing": [facts]}`.
struct UnconvertedJSON: Encodable {
  let usage: RemainingEstimate.UnconvertedUsage
  let projectName: String?

  private enum Key: String, CodingKey { case projectID, project, amount, missing }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(usage.projectID, forKey: .projectID)
    try container.encode(projectName, forKey: .project)
    try container.encode(usage.amount, forKey: .amount)
    try container.encode(usage.missing.map(\.rawValue), forKey: .missing)
  }
}

/// A project: every `Project` field plus `"seconds"`, the time logged on it; `project show`
/// adds `"notes"`, the notes about it (as `note show --json`), oldest first.
struct ProjectJSON: Encodable {
  let project: Project
  let seconds: Int64
  var notes: [Note]? = nil

  private enum Key: String, CodingKey { case seconds, notes }

  func encode(to encoder: any Encoder) throws {
    try project.encode(to: encoder)
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(seconds, forKey: .seconds)
    if let notes { try container.encode(notes, forKey: .notes) }
  }
}

/// A time session: `{"id", "project" (its name), "projectID", "start", "end" (null while
/// running), "seconds", "note" (null when none)}`, instants in ISO 8601 UTC.
struct SessionJSON: Encodable {
  let session: TimeSession
  let projectName: String
  let now: Date

  private enum Key: String, CodingKey { case id, project, projectID, start, end, seconds, note }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(session.id, forKey: .id)
    try container.encode(projectName, forKey: .project)
    try container.encode(session.projectID, forKey: .projectID)
    try container.encode(session.start, forKey: .start)
    try container.encode(session.end, forKey: .end)
    try container.encode(session.seconds(now: now), forKey: .seconds)
    try container.encode(session.note, forKey: .note)
  }
}
