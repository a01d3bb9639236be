#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A crafter's whole library: the stash, the projects, the notes, the time sessions and the
/// tools (needles and hooks).
///
/// This is the document a backup's `library.json` holds (see docs/FORMAT.md). Order is kept:
/// each array is in the order the items were created.
public struct Library: Codable, Hashable, Sendable {
  /// The stash, in creation order.
  public var yarns: [Yarn]
  /// The projects, in creation order.
  public var projects: [Project]
  /// The notes about yarns and projects, in creation order.
  public var notes: [Note]
  /// The time sessions, in creation order (not sorted by start).
  public var sessions: [TimeSession]
  /// The needles and hooks, in creation order. In JSON, `tools` is left out when there are
  /// none (as in backups made before tools existed, which decode with none).
  public var tools: [Tool]

  /// A library of these items, by default empty. References between them (a usage's yarn, a
  /// note's or session's project) are not checked here; `LibraryStore.insert(library:)`
  /// refuses a library whose references are broken.
  public init(
    yarns: [Yarn] = [], projects: [Project] = [], notes: [Note] = [], sessions: [TimeSession] = [],
    tools: [Tool] = []
  ) {
    self.yarns = yarns
    self.projects = projects
    self.notes = notes
    self.sessions = sessions
    self.tools = tools
  }

  private enum CodingKeys: String, CodingKey {
    case yarns, projects, notes, sessions, tools
  }

  /// Decodes the four arrays and `tools`, which may be absent (no tools).
  ///
  /// - Throws: `DecodingError` when an array is missing or an item in it cannot be read.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    yarns = try container.decode([Yarn].self, forKey: .yarns)
    projects = try container.decode([Project].self, forKey: .projects)
    notes = try container.decode([Note].self, forKey: .notes)
    sessions = try container.decode([TimeSession].self, forKey: .sessions)
    tools = try container.decodeIfPresent([Tool].self, forKey: .tools) ?? []
  }

  /// Encodes the four arrays, and `tools` when there are some.
  ///
  /// - Throws: `EncodingError` when an item cannot be encoded (a number that is not finite).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(yarns, forKey: .yarns)
    try container.encode(projects, forKey: .projects)
    try container.encode(notes, forKey: .notes)
    try container.encode(sessions, forKey: .sessions)
    if !tools.isEmpty { try container.encode(tools, forKey: .tools) }
  }

  /// Every attachment of every yarn and project, each distinct digest once, in document order.
  public var attachments: [Attachment] {
    var seen = Set<String>()
    var out: [Attachment] = []
    func add(_ attachment: Attachment) {
      if seen.insert(attachment.sha256).inserted { out.append(attachment) }
    }
    for yarn in yarns { yarn.photos.forEach(add) }
    for project in projects {
      if let pdf = project.pattern?.pdf { add(pdf) }
      project.photos.forEach(add)
    }
    return out
  }
}

/// Makes new identifiers: lower-case random UUIDs (RFC 9562 version 4).
package enum Identifier {
  /// 122 random bits from the system's generator (`SystemRandomNumberGenerator`: getrandom(2)
  /// on Linux), with the version bits (byte 6: 0100) and the variant bits (byte 8: 10) of
  /// RFC 9562, section 5.4. Foundation's `UUID()` on Linux opened, read and closed
  /// /dev/urandom for each one: 5% of a 100,000-row `stash import`.
  package static func make() -> String {
    let high = UInt64.random(in: .min ... .max) & ~(0xF0 << 48) | (0x40 << 48)
    let low = UInt64.random(in: .min ... .max) & ~0xC0 | 0x80
    // The 16 bytes in order as lower-case hex, 8-4-4-4-12: `UUID.uuidString.lowercased()`
    // formatted and lower-cased through Foundation, 8,000 instructions an ID.
    // A nibble as a lower-case hex digit: 0–9 are 0x30…, a–f are 0x61… (no table to allocate).
    func digit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 + nibble : 0x57 + nibble }
    return withUnsafeBytes(of: (high.littleEndian, low.littleEndian)) { bytes in
      String(unsafeUninitializedCapacity: 36) { text in
        var count = 0
        for (offset, byte) in bytes.enumerated() {
          if offset == 4 || offset == 6 || offset == 8 || offset == 10 {
            text[count] = UInt8(ascii: "-")
            count += 1
          }
          text[count] = digit(byte >> 4)
          text[count + 1] = digit(byte & 0x0F)
          count += 2
        }
        return count
      }
    }
  }
}
