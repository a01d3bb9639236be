#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A library's items in document order, handed out one at a time, so that `library.json` can
/// be written without holding the whole library (or its JSON) in memory. `LibraryStore`
/// streams them from SQLite; `Library` from its arrays.
protocol LibraryItems {
  func eachYarn(_ body: (Yarn) throws -> Void) throws
  func eachProject(_ body: (Project) throws -> Void) throws
  func eachNote(_ body: (Note) throws -> Void) throws
  func eachSession(_ body: (TimeSession) throws -> Void) throws
  /// Every distinct attachment in the order `LibraryJSON.write` lists them (each yarn's
  /// photos in stash order, then each project's pattern PDF and photos), found without
  /// reading the items, so that a backup can start zipping the files while `library.json` is
  /// still being written. Checked against what `write` finds afterwards.
  func attachmentsInDocumentOrder() throws -> [Attachment]
}

/// Keeps the first of each SHA-256.
private func distinct(_ list: [Attachment]) -> [Attachment] {
  var seen = Set<String>()
  return list.filter { seen.insert($0.sha256).inserted }
}

extension LibraryStore: LibraryItems {
  func attachmentsInDocumentOrder() throws -> [Attachment] {
    distinct(try attachmentsInBackupOrder())
  }

  func eachYarn(_ body: (Yarn) throws -> Void) throws { try forEachYarn(body) }
  func eachProject(_ body: (Project) throws -> Void) throws { try forEachProject(body) }
  func eachNote(_ body: (Note) throws -> Void) throws { try forEachNote(body) }
  func eachSession(_ body: (TimeSession) throws -> Void) throws {
    try forEachSessionInCreationOrder(body)
  }
}

extension Library: LibraryItems {
  func attachmentsInDocumentOrder() throws -> [Attachment] {
    distinct(
      yarns.flatMap(\.photos)
        + projects.flatMap { ($0.pattern?.pdf.map { [$0] } ?? []) + $0.photos })
  }

  func eachYarn(_ body: (Yarn) throws -> Void) throws { try yarns.forEach(body) }
  func eachProject(_ body: (Project) throws -> Void) throws { try projects.forEach(body) }
  func eachNote(_ body: (Note) throws -> Void) throws { try notes.forEach(body) }
  func eachSession(_ body: (TimeSession) throws -> Void) throws { try sessions.forEach(body) }
}

/// Writes and reads `library.json` one item at a time.
///
/// The bytes written are exactly those of `JSONCoding.encoder().encode(library)` (tested):
/// the top-level keys in sorted order (`notes`, `projects`, `sessions`, `yarns`), each item
/// encoded alone by `JSONCoding.encoder()` and indented four more spaces, items separated by
/// `,\n`, an empty array written as `[\n\n  ]`, no final line feed. Memory is bounded by the
/// largest item, not by the library.
enum LibraryJSON {
  /// The top-level keys, in the order they are written (sorted, as `JSONEncoder` sorts them).
  static let keys = ["notes", "projects", "sessions", "yarns"]

  /// What writing found: the counts and every distinct attachment in document order (each
  /// yarn's photos in stash order, then each project's pattern PDF and photos).
  struct Summary {
    var counts: BackupManifest.Counts
    var attachments: [Attachment]
  }

  /// Writes `items` as `library.json` to `sink`, in pieces of about 256 KiB.
  ///
  /// The items are read on this thread (a store is used by one thread) and encoded on every
  /// core (`ParallelWork`), `ParallelWork.batchSize` at a time: each batch is encoded by a
  /// `JSONEncoder` of its own as `{"a": [items]}`, whose pretty-printed bytes hold the items
  /// exactly as `JSONEncoder` writes them two levels deep in the whole document (the same
  /// depth, so the same indentation). The batches are written in order; at most
  /// `ParallelWork.inFlight` are in flight, so memory stays bounded.
  ///
  /// - Parameter check: given each item as it is read, on this thread, in file order (what
  ///   `verify` checks, so that `Backup.create` finds what a restore would refuse).
  /// - Throws: `EncodingError` when an item cannot be encoded (a non-finite number); what
  ///   `sink` or `items` throw.
  static func write(
    _ items: some LibraryItems, check: LibraryCheck? = nil,
    to sink: (UnsafeRawBufferPointer) throws -> Void
  ) throws -> Summary {
    try withoutActuallyEscaping(sink) { try write(items, check: check, escapingSink: $0) }
  }

  private static func write(
    _ items: some LibraryItems, check: LibraryCheck?,
    escapingSink sink: @escaping (UnsafeRawBufferPointer) throws -> Void
  ) throws -> Summary {
    var out: [UInt8] = []
    out.reserveCapacity((1 << 18) + (1 << 17))
    func flush(ifOver threshold: Int) throws {
      if out.count >= threshold {
        try out.withUnsafeBytes { try sink($0) }
        out.removeAll(keepingCapacity: true)
      }
    }
    func array<Item: Encodable & Sendable>(
      _ key: String, _ each: ((Item) throws -> Void) throws -> Void,
      _ see: @escaping (Item) -> Void
    ) throws -> Int {
      out.append(contentsOf: (key == keys.first ? "{\n  \"" : ",\n  \"").utf8)
      out.append(contentsOf: (key + "\" : [").utf8)
      var count = 0
      var pending: [WorkSlot<[UInt8]>] = []
      var batch: [Item] = []
      batch.reserveCapacity(ParallelWork.batchSize)
      var written = 0
      func takeOldest() throws {
        let bytes = try pending.removeFirst().take()
        if written > 0 { out.append(0x2C) }  // ","
        out.append(contentsOf: bytes)
        written += 1
        try flush(ifOver: 1 << 18)
      }
      func send() throws {
        let items = batch
        batch.removeAll(keepingCapacity: true)
        pending.append(WorkSlot.start { try encodeBatch(items) })
        if pending.count >= ParallelWork.inFlight { try takeOldest() }
      }
      try each { item in
        see(item)
        batch.append(item)
        count += 1
        if batch.count == ParallelWork.batchSize { try send() }
      }
      if !batch.isEmpty { try send() }
      while !pending.isEmpty { try takeOldest() }
      out.append(contentsOf: (count == 0 ? "\n\n  ]" : "\n  ]").utf8)
      return count
    }

    var counts = BackupManifest.Counts(yarns: 0, projects: 0, notes: 0, sessions: 0, attachments: 0)
    var projectAttachments: [Attachment] = []
    var yarnAttachments: [Attachment] = []
    counts.notes = try array("notes", items.eachNote) { (note: Note) in check?.add(note) }
    counts.projects = try array("projects", items.eachProject) { (project: Project) in
      check?.add(project)
      if let pdf = project.pattern?.pdf { projectAttachments.append(pdf) }
      projectAttachments += project.photos
    }
    counts.sessions = try array("sessions", items.eachSession) { (session: TimeSession) in
      check?.add(session)
    }
    counts.yarns = try array("yarns", items.eachYarn) { (yarn: Yarn) in
      check?.add(yarn)
      yarnAttachments += yarn.photos
    }
    out.append(contentsOf: "\n}".utf8)
    try flush(ifOver: 0)

    var seen = Set<String>()
    let attachments = (yarnAttachments + projectAttachments).filter {
      seen.insert($0.sha256).inserted
    }
    counts.attachments = attachments.count
    return Summary(counts: counts, attachments: attachments)
  }

  /// One batch as `JSONEncoder` writes it inside the document: the bytes between `[` and
  /// `\n  ]` of `{"a": items}` pretty-printed (`\n    {…},\n    {…}`).
  static func encodeBatch<Item: Encodable>(_ items: [Item]) throws -> [UInt8] {
    let data = try JSONCoding.encoder().encode(BatchDocument(a: items))
    let head = Array("{\n  \"a\" : [".utf8)
    let tail = Array("\n  ]\n}".utf8)
    return try data.withUnsafeBytes { bytes in
      guard bytes.count >= head.count + tail.count, bytes.starts(with: head),
        bytes.suffix(tail.count).elementsEqual(tail)
      else {
        throw EncodingError.invalidValue(
          items,
          .init(codingPath: [], debugDescription: "JSONEncoder wrote an unexpected layout"))
      }
      return Array(bytes[head.count..<(bytes.count - tail.count)])
    }
  }

  /// The wrapper `encodeBatch` encodes: one key, so its items sit two levels deep.
  private struct BatchDocument<Item: Encodable>: Encodable {
    var a: [Item]
  }

  /// Decodes one item of the array `key` of `library.json` (`"yarns"`: a `Yarn`, `"projects"`:
  /// a `Project`, `"notes"`: a `Note`, `"sessions"`: a `TimeSession`) from its own bytes,
  /// with `decoder` (one made by `JSONCoding.decoder()`, used by one thread at a time).
  ///
  /// - Throws: `DecodingError`, its path inside the item (`photos[0].sha256`). Bytes that are
  ///   not JSON give `JSONDecoder`'s own words (`The given data was not valid JSON.`), which
  ///   on swift-foundation carry no position (its `underlyingError` is `nil`).
  static func decodeItem(
    key: String, from bytes: UnsafeRawBufferPointer, with decoder: JSONDecoder
  ) throws -> LibraryItem {
    let data = Data(bytes)
    switch key {
    case "yarns": return .yarn(try decoder.decode(Yarn.self, from: data))
    case "projects": return .project(try decoder.decode(Project.self, from: data))
    case "notes": return .note(try decoder.decode(Note.self, from: data))
    default: return .session(try decoder.decode(TimeSession.self, from: data))
    }
  }
}

/// Why `library.json` could not be split into its items: its top level is not the object of
/// four arrays the format describes. `offset` is the byte offset in the file.
struct LibraryJSONSyntaxError: Error, Equatable, CustomStringConvertible {
  var offset: Int64
  var reason: String

  var description: String { "at byte \(offset): \(reason)" }
}

/// Splits `library.json` into its items as its bytes arrive, without decoding them: the top
/// level (`{ "notes": [ … ], "projects": [ … ], … }`) is parsed here, and each item of the four
/// arrays is handed over as its own bytes, to be decoded alone. So a library of any size is
/// read with memory bounded by its largest item.
///
/// Grammar (RFC 8259): an object whose values are arrays for the four keys of
/// `LibraryJSON.keys` and any JSON value for other keys (skipped, as `JSONDecoder` skips
/// unknown keys); each key at most once; every key of `LibraryJSON.keys` present. The items
/// themselves are checked by whoever decodes them. In `.array` mode the input is a single
/// array (a range found by an earlier `.document` scan).
struct LibraryJSONScanner {
  enum Mode {
    /// A whole `library.json`.
    case document
    /// One array, whose items belong to `key`.
    case array(key: String)
  }

  /// Receives each item: the key of its array, its index there, its bytes (only valid during
  /// the call).
  typealias Handler = (_ key: String, _ index: Int, _ bytes: UnsafeRawBufferPointer) throws -> Void

  private enum State {
    case start, beforeKeyOrEnd, beforeKey, inKey, afterKey, beforeValue
    case beforeItemOrEnd, beforeItem, inItem, afterItem
    case skipping, afterValue, end
  }

  private let mode: Mode
  private let handler: Handler
  private var state: State
  private(set) var offset: Int64 = 0
  /// The byte range of each known key's array, from `[` to `]` inclusive (`.document` mode).
  private(set) var arrays: [String: Range<Int64>] = [:]
  /// The number of items of each known key's array.
  private(set) var counts: [String: Int] = [:]

  private var seenKeys = Set<String>()
  private var keyBytes: [UInt8] = []
  private var keyHasEscape = false
  private var currentKey = ""
  private var arrayStart: Int64 = 0
  private var item: [UInt8] = []
  private var depth = 0
  private var inString = false
  private var escaped = false
  /// Whether the value being captured is a bare scalar (number, true, false, null), which
  /// ends at the first delimiter rather than at a closing bracket.
  private var scalar = false
  private var capturing = false

  init(mode: Mode = .document, handler: @escaping Handler) {
    self.mode = mode
    self.handler = handler
    switch mode {
    case .document: state = .start
    case .array(let key):
      currentKey = key
      state = .beforeValue
    }
  }

  private func fail(_ reason: String) -> LibraryJSONSyntaxError {
    LibraryJSONSyntaxError(offset: offset, reason: reason)
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }

  private var isKnownKey: Bool { LibraryJSON.keys.contains(currentKey) }

  /// Feeds the next bytes.
  ///
  /// - Throws: `LibraryJSONSyntaxError`; what the handler throws.
  mutating func feed(_ bytes: UnsafeRawBufferPointer) throws {
    var index = 0
    let count = bytes.count
    while index < count {
      let byte = bytes[index]
      switch state {
      case .inItem, .skipping:
        if scalar {
          if byte == 0x2C || byte == 0x5D || byte == 0x7D || LibraryJSONScanner.isSpace(byte) {
            try endValue()
            continue  // the delimiter is read again in the next state
          }
          if capturing { item.append(byte) }
        } else {
          // The hot loop: run to the end of the value (or of the input) with local state,
          // then copy the run at once.
          var end = index
          var depth = self.depth
          var inString = self.inString
          var escaped = self.escaped
          var ended = false
          while end < count {
            let byte = bytes[end]
            end += 1
            if inString {
              if escaped {
                escaped = false
              } else if byte == 0x5C {
                escaped = true
              } else if byte == 0x22 {
                inString = false
                if depth == 0 {
                  ended = true
                  break
                }
              }
            } else if byte == 0x22 {
              inString = true
            } else if byte == 0x7B || byte == 0x5B {
              depth += 1
            } else if byte == 0x7D || byte == 0x5D {
              depth -= 1
              if depth == 0 {
                ended = true
                break
              }
            }
          }
          if capturing { item.append(contentsOf: bytes[index..<end]) }
          offset += Int64(end - index)
          index = end
          self.depth = depth
          self.inString = inString
          self.escaped = escaped
          if ended { try endValue() }
          continue
        }
      case .start:
        if !LibraryJSONScanner.isSpace(byte) {
          guard byte == 0x7B else { throw fail("expected '{' to begin the library") }
          state = .beforeKeyOrEnd
        }
      case .beforeKeyOrEnd, .beforeKey:
        if !LibraryJSONScanner.isSpace(byte) {
          if byte == 0x7D, state == .beforeKeyOrEnd {
            state = .end
          } else {
            guard byte == 0x22 else { throw fail("expected a key in double quotes") }
            keyBytes.removeAll(keepingCapacity: true)
            keyHasEscape = false
            escaped = false
            state = .inKey
          }
        }
      case .inKey:
        if escaped {
          escaped = false
          keyBytes.append(byte)
        } else if byte == 0x5C {
          escaped = true
          keyHasEscape = true
          keyBytes.append(byte)
        } else if byte == 0x22 {
          try endKey()
        } else {
          guard byte >= 0x20 else { throw fail("a control character in a key") }
          keyBytes.append(byte)
        }
      case .afterKey:
        if !LibraryJSONScanner.isSpace(byte) {
          guard byte == 0x3A else { throw fail("expected ':' after the key \"\(currentKey)\"") }
          state = .beforeValue
        }
      case .beforeValue:
        if !LibraryJSONScanner.isSpace(byte) {
          if case .array = mode {
            guard byte == 0x5B else { throw fail("expected '[' to begin the \(currentKey) array") }
            arrayStart = offset
            counts[currentKey] = 0
            state = .beforeItemOrEnd
          } else if isKnownKey {
            guard byte == 0x5B else { throw fail("\(currentKey) is not an array") }
            arrayStart = offset
            counts[currentKey] = 0
            state = .beforeItemOrEnd
          } else {
            startValue(byte, capture: false)
            state = .skipping
            if scalar { item.removeAll(keepingCapacity: true) }
            if !scalar, byte == 0x22 { inString = true }
          }
        }
      case .beforeItemOrEnd, .beforeItem:
        if !LibraryJSONScanner.isSpace(byte) {
          if byte == 0x5D, state == .beforeItemOrEnd {
            try endArray()
          } else {
            guard byte != 0x5D, byte != 0x2C, byte != 0x7D, byte != 0x3A else {
              throw fail("expected an item of \(currentKey)")
            }
            item.removeAll(keepingCapacity: true)
            startValue(byte, capture: true)
            item.append(byte)
            state = .inItem
            if !scalar, byte == 0x22 { inString = true }
          }
        }
      case .afterItem:
        if !LibraryJSONScanner.isSpace(byte) {
          if byte == 0x2C {
            state = .beforeItem
          } else if byte == 0x5D {
            try endArray()
          } else {
            throw fail("expected ',' or ']' after item \((counts[currentKey] ?? 1) - 1) of \(currentKey)")
          }
        }
      case .afterValue:
        if !LibraryJSONScanner.isSpace(byte) {
          if byte == 0x2C {
            state = .beforeKey
          } else if byte == 0x7D {
            state = .end
          } else {
            throw fail("expected ',' or '}' after the value of \"\(currentKey)\"")
          }
        }
      case .end:
        guard LibraryJSONScanner.isSpace(byte) else {
          throw fail("unexpected data after the end of the library")
        }
      }
      index += 1
      offset += 1
    }
  }

  /// Says that the input has ended.
  ///
  /// - Throws: `LibraryJSONSyntaxError` when the document is incomplete or lacks a key.
  mutating func finish() throws {
    if state == .skipping, scalar { try endValue() }
    guard state == .end else { throw fail("the library ends too early") }
    if case .document = mode {
      for key in LibraryJSON.keys where !seenKeys.contains(key) {
        throw fail("missing key \"\(key)\"")
      }
    }
  }

  private mutating func startValue(_ byte: UInt8, capture: Bool) {
    capturing = capture
    depth = 0
    inString = false
    escaped = false
    scalar = false
    if byte == 0x7B || byte == 0x5B {
      depth = 1
    } else if byte != 0x22 {
      scalar = true
    }
  }

  private mutating func endValue() throws {
    if state == .inItem {
      let index = counts[currentKey] ?? 0
      counts[currentKey] = index + 1
      let key = currentKey
      try item.withUnsafeBytes { try handler(key, index, $0) }
      state = .afterItem
    } else {
      state = .afterValue
    }
    scalar = false
    capturing = false
  }

  private mutating func endKey() throws {
    if keyHasEscape {
      let quoted = Data([0x22] + keyBytes + [0x22])
      guard let key = try? JSONDecoder().decode(String.self, from: quoted) else {
        throw fail("a key with a malformed escape")
      }
      currentKey = key
    } else {
      guard let key = String(validating: keyBytes, as: UTF8.self) else {
        throw fail("a key that is not UTF-8")
      }
      currentKey = key
    }
    guard seenKeys.insert(currentKey).inserted else {
      throw fail("the key \"\(currentKey)\" occurs twice")
    }
    state = .afterKey
  }

  private mutating func endArray() throws {
    arrays[currentKey] = arrayStart..<(offset + 1)
    if case .array = mode { state = .end } else { state = .afterValue }
  }
}
