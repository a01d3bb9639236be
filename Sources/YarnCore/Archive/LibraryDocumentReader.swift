import YarnModel
import YarnStore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// An item of `library.json`.
enum LibraryItem {
  case note(Note)
  case project(Project)
  case session(TimeSession)
  case tool(Tool)
  case yarn(Yarn)
}

/// The arrays of `library.json`, in the order their items' decoding problems are reported
/// (the order `JSONDecoder` decoded the document's members in before it was read item by
/// item: notes, projects, sessions, yarns, then tools, which older backups lack).
enum LibraryArray: String, CaseIterable, Hashable {
  case notes, projects, sessions, yarns, tools
}

/// Reads `library.json` fed in pieces of any size (`JSONMemberScanner`), decoding each item of
/// its arrays on its own with the models' `Codable` conformances as soon as it is complete,
/// so that memory holds one item, not the document.
///
/// It finds what decoding the whole document with `JSONDecoder` found, in the same words:
///
/// - a document that is not JSON (anywhere, items included; bytes that are not UTF-8 too, in
///   any piece, read or skipped, when `validating`) or nested deeper than 512 levels:
///   only `at the top level: the given data was not valid JSON.`;
/// - an item (a key, an element or another member's value) longer than `maxItemBytes`: only
///   `at ARRAY[INDEX]: the item is longer than N bytes` (or `at KEY:` for a member that is
///   not an array), a limit the whole-document read did not have;
/// - else a document that is not an object of the arrays `notes`, `projects`, `sessions`,
///   `yarns` and (optionally, or `null`) `tools`: only the first such problem, in that order
///   (`at the top level: missing key "yarns"`, `at yarns: expected to decode Array<Any> but
///   found a dictionary instead.`), found by decoding a skeleton of the document that holds
///   its members' kinds, not their contents;
/// - else each item that does not decode, by its path (`at yarns[3].weight: …`): the first 20
///   in the order of `LibraryArray`, then a count (`moreItemsDoNotDecode`, which stands for
///   that many problems);
/// - then, when a `LibraryCheck` is given, its problems of the items that did decode (an item
///   that did not is counted and its ID, when it reads, taken as present:
///   `LibraryCheck.addUndecoded(_:id:)`).
///
/// A key that occurs twice in the top-level object counts the first time only (as
/// `JSONDecoder` does); the later value is checked to be JSON, not decoded. Other members
/// are checked to be JSON and ignored.
final class LibraryDocumentReader {
  /// The most item decoding problems reported one by one; the rest are counted.
  static let maxItemProblems = 20

  private var scanner: JSONMemberScanner
  private let arrays: Set<LibraryArray>
  private let validating: Bool
  private let check: LibraryCheck?
  private let visit: (LibraryItem, Bool) -> Void
  private let decoder = JSONCoding.decoder()

  /// The problem that refuses the document as a whole, once found; the rest of the input is
  /// then ignored.
  private var failure: BackupProblem?
  /// The document's kind (`{}` for an object) and, for each array of `LibraryArray` met, the
  /// kind of its first value: the skeleton decoded at the end.
  private var documentKind: String?
  private var memberKinds: [(key: String, kind: String)] = []
  /// The member being read: its key, and its array when it is the first of that name.
  private var key: String?
  private var member: LibraryArray?
  private var inArray = false
  /// The index of the next element of the array being read.
  private var index = 0
  private var failures: [LibraryArray: [String]] = [:]
  private var failureCount = 0
  /// `[`, the piece, `]`: what `JSONDecoder` is handed (reused).
  private var buffer = Data()

  /// A reader that decodes the items of `arrays` and hands each that decoded to `visit`, with
  /// whether the document has had no problem so far (this item's checks included).
  ///
  /// - Parameters:
  ///   - arrays: the arrays whose items are decoded (all by default); the others' are skipped.
  ///   - validating: whether every piece is checked to be JSON, and the document's shape
  ///     (`false` only to read again a document already read with `true`: the same bytes).
  ///   - check: the checks run on each item decoded, whose problems `finish()` adds.
  ///   - maxItemBytes: the longest item (or key, or other member's value) held, in bytes.
  init(
    arrays: Set<LibraryArray> = Set(LibraryArray.allCases), validating: Bool = true,
    check: LibraryCheck?, maxItemBytes: Int,
    visit: @escaping (LibraryItem, _ soundSoFar: Bool) -> Void
  ) {
    scanner = JSONMemberScanner(maxPieceBytes: maxItemBytes)
    self.arrays = arrays
    self.validating = validating
    self.check = check
    self.visit = visit
  }

  /// Reads the next bytes of the document.
  func feed(_ bytes: UnsafeRawBufferPointer) {
    guard failure == nil else { return }
    do { try scanner.feed(bytes, handle) } catch { fail(error) }
  }

  /// Ends the document: every problem found, in the order described above.
  func finish() -> [BackupProblem] {
    if failure == nil {
      do { try scanner.finish(handle) } catch { fail(error) }
    }
    if let failure { return [failure] }
    if validating, let problem = shapeProblem() { return [problem] }
    var problems = LibraryArray.allCases.flatMap { failures[$0] ?? [] }
      .prefix(Self.maxItemProblems).map { BackupProblem.invalidLibrary(reason: $0) }
    if failureCount > Self.maxItemProblems {
      problems.append(.moreItemsDoNotDecode(count: failureCount - Self.maxItemProblems))
    }
    return problems + (check?.finish() ?? [])
  }

  /// Whether nothing is wrong so far.
  private var isSound: Bool { failure == nil && failureCount == 0 && check?.hasProblems != true }

  /// What `finish()` says of a document that is not JSON: without a place, which the
  /// scanner does not track (`BackupReader` finds it on this path only: `locatingSyntax`).
  static let notJSON = "at the top level: the given data was not valid JSON."

  private func fail(_ error: Error) {
    guard failure == nil else { return }
    switch error {
    case JSONMemberScanner.Failure.tooLarge(let limit):
      let place = key.map { inArray ? "\($0)[\(index)]" : $0 } ?? "the top level"
      failure = .invalidLibrary(reason: "at \(place): the item is longer than \(limit) bytes")
    default:
      failure = .invalidLibrary(reason: Self.notJSON)
    }
  }

  private struct NotJSON: Error {}

  private func handle(_ event: JSONMemberScanner.Event) throws {
    // Text that is not UTF-8 is not JSON (RFC 8259 §8.1), in a field no item reads too: the
    // document is refused whole, and `BackupReader.locatingSyntax` names the byte's line and
    // column, as a WEFT import does (an item's own decoder named only the item, and passed
    // such bytes in a key it skips).
    switch event {
    case .key(let text), .element(let text), .value(let text):
      if validating, String(validating: text, as: UTF8.self) == nil { throw NotJSON() }
    case .object, .arrayStart, .arrayEnd: break
    }
    switch event {
    case .object:
      documentKind = "{}"
    case .key(let text):
      guard let key = try? decoder.decode([String].self, from: wrapped(text)).first else {
        throw NotJSON()
      }
      self.key = key
      member = LibraryArray(rawValue: key)
      if member != nil, memberKinds.contains(where: { $0.key == key }) { member = nil }
    case .arrayStart:
      if documentKind == nil { documentKind = "[]" }
      if let member { memberKinds.append((member.rawValue, "[]")) }
      inArray = true
      index = 0
    case .element(let text):
      defer { index += 1 }
      guard let member, arrays.contains(member) else {
        if validating { try validate(text) }
        return
      }
      try decode(text, in: member)
    case .arrayEnd:
      inArray = false
      key = nil
      member = nil
    case .value(let text):
      let kind = Self.standIn(for: text.first ?? 0)
      if documentKind == nil {
        documentKind = kind
      } else if let member {
        memberKinds.append((member.rawValue, kind))
      }
      if validating { try validate(text) }
      key = nil
      member = nil
    }
  }

  /// The JSON of the same kind as the text beginning with `first`, for the skeleton.
  private static func standIn(for first: UInt8) -> String {
    switch first {
    case UInt8(ascii: "{"): return "{}"
    case UInt8(ascii: "["): return "[]"
    case UInt8(ascii: "\""): return "\"\""
    case UInt8(ascii: "t"), UInt8(ascii: "f"): return "true"
    case UInt8(ascii: "n"): return "null"
    default: return "0"
    }
  }

  private func wrapped(_ text: [UInt8]) -> Data {
    buffer.removeAll(keepingCapacity: true)
    buffer.append(UInt8(ascii: "["))
    buffer.append(contentsOf: text)
    buffer.append(UInt8(ascii: "]"))
    return buffer
  }

  /// Refuses `text` unless it is JSON (as `JSONDecoder` reads it: its contents are not
  /// decoded).
  private func validate(_ text: [UInt8]) throws {
    guard (try? decoder.decode([Ignored].self, from: wrapped(text))) != nil else { throw NotJSON() }
  }

  private func decode(_ text: [UInt8], in array: LibraryArray) throws {
    switch array {
    case .notes: if let item = try decode(Note.self, text, array) { see(.note(item)) }
    case .projects: if let item = try decode(Project.self, text, array) { see(.project(item)) }
    case .sessions: if let item = try decode(TimeSession.self, text, array) { see(.session(item)) }
    case .yarns: if let item = try decode(Yarn.self, text, array) { see(.yarn(item)) }
    case .tools: if let item = try decode(Tool.self, text, array) { see(.tool(item)) }
    }
  }

  private func see(_ item: LibraryItem) {
    if let check {
      switch item {
      case .note(let note): check.add(note)
      case .project(let project): check.add(project)
      case .session(let session): check.add(session)
      case .tool(let tool): check.add(tool)
      case .yarn(let yarn): check.add(yarn)
      }
    }
    visit(item, isSound)
  }

  /// The item, or `nil` when it does not decode (the problem is kept).
  ///
  /// - Throws: `NotJSON` when `text` is not JSON.
  private func decode<Item: Decodable>(
    _ type: Item.Type, _ text: [UInt8], _ array: LibraryArray
  ) throws -> Item? {
    // Decoded inside an array, as in the document: `JSONDecoder` reads a bare number or
    // string at the top level more strictly than inside an array.
    guard let decoded = try? decoder.decode([Decoded<Item>].self, from: wrapped(text)),
      decoded.count == 1
    else { throw NotJSON() }
    switch decoded[0].result {
    case .success(let item): return item
    case .failure(let error):
      failureCount += 1
      if let check {
        let id = try? decoder.decode([ItemID].self, from: wrapped(text)).first?.id
        check.addUndecoded(array, id: id)
      }
      if failures[array, default: []].count < Self.maxItemProblems {
        let place = "\(array.rawValue)[\(index)]"
        // The item as JSON, for the value found (its whole coding path starts in the array),
        // and its numbers as written (`1e2`, not 100: docs/FORMAT.md).
        let json = try? decoder.decode(JSONValue.self, from: wrapped(text))
        var locator = JSONSyntaxLocator(strict: true)
        locator.feed(text)
        locator.finish()
        let numbers = locator.numberTexts
        func written(_ path: String) -> String? {
          path.hasPrefix(place) ? JSONSyntaxLocator.written(numbers, at: path.dropFirst(place.count)) : nil
        }
        // JSON no reader reads (`1e400`, a lone surrogate escape): said as a WEFT import says
        // it (QA: `the given data was not valid JSON.`).
        let unreadable =
          json == nil ? locator.place.map { DecodingProblem(path: place, reason: $0.what) } : nil
        failures[array, default: []].append(
          (unreadable
            ?? numberThatDoesNotFit(Item.self, text, error, at: place, numbers: numbers, written: written)
            ?? DecodingProblem(error, in: json, prefix: place, droppingFirst: 1, written: written))
            .description)
      }
      return nil
    }
  }

  /// `at yarns[0].weight: expected a whole number, found 1.5` for an item that is JSON but holds a
  /// number with a fraction or an exponent where a whole number belongs, and `at
  /// yarns[0].quantity.value: "1e-400" is too small: it would be kept as 0` for one too small
  /// to keep (`DecodingProblem.markingTooSmall`), which `JSONDecoder` both report without a path as `The given
  /// data was not valid JSON.`: the number whose replacement by 0 ends that error is the one
  /// (`WEFTPlanner.firstNumberRefused`, as `WEFTPlanner.decode` finds it). `nil` for any other
  /// error.
  /// `numbers` and `written` are the item's numbers as written (`JSONSyntaxLocator.numberTexts`).
  private func numberThatDoesNotFit<Item: Decodable>(
    _ type: Item.Type, _ text: [UInt8], _ error: Error, at place: String, numbers: [Int: String],
    written: (String) -> String?
  ) -> DecodingProblem? {
    // Without a path of its own: none, or the item's place in the array it is decoded in.
    func saysNotJSON(_ error: Error) -> Bool {
      guard case DecodingError.dataCorrupted(let context) = error else { return false }
      return context.codingPath.count <= 1
        && context.debugDescription.hasPrefix("The given data was not valid JSON")
    }
    guard saysNotJSON(error), var value = (try? decoder.decode([JSONValue].self, from: wrapped(text)))?.first
    else { return nil }
    let encoder = JSONEncoder()
    /// The error of decoding `value` as the item, if any.
    func failure(_ value: JSONValue) -> Error? {
      do {
        _ = try decoder.decode([Decoded<Item>].self, from: encoder.encode([value])).first?.result.get()
        return nil
      } catch {
        return error
      }
    }
    // A number too small to keep is read as 0: told by its text, as a WEFT import tells it.
    if numbers.values.contains(where: { DecodingProblem.tooSmall($0) != nil }) {
      value = DecodingProblem.markingTooSmall(value, at: place, written: written)
      if let again = failure(value),
        let problem = DecodingProblem.tooSmall(
          again, at: DecodingProblem(again, in: .array([value]), prefix: place, droppingFirst: 1).path,
          written: written)
      {
        return problem
      }
    }
    return WEFTPlanner.firstNumberRefused(in: value, at: place) { trial in
      failure(trial).map(saysNotJSON) ?? false
    }.map { .wholeNumberExpected(at: $0.path, found: $0.found, written: written($0.path)) }
  }

  /// The first problem of the document's shape: not an object, a required array missing, a
  /// member of `LibraryArray` that is not an array.
  private func shapeProblem() -> BackupProblem? {
    let skeleton =
      documentKind == "{}"
      ? "{" + memberKinds.map { "\"\($0.key)\":\($0.kind)" }.joined(separator: ",") + "}"
      : documentKind ?? "null"
    do {
      _ = try decoder.decode(LibraryShape.self, from: Data(skeleton.utf8))
      return nil
    } catch {
      return .invalidLibrary(reason: DecodingProblem(error).description)
    }
  }
}

/// The shape `library.json` must have (`LibraryDocumentReader.shapeProblem`).
private struct LibraryShape: Decodable {
  var notes: [Ignored]
  var projects: [Ignored]
  var sessions: [Ignored]
  var yarns: [Ignored]
  /// Absent in backups made before tools existed.
  var tools: [Ignored]?
}

/// The `id` of an item that does not decode, when it is a string.
private struct ItemID: Decodable {
  var id: String?

  private enum Key: String, CodingKey { case id }

  init(from decoder: any Decoder) throws {
    id = try? decoder.container(keyedBy: Key.self).decode(String.self, forKey: .id)
  }
}

/// Any JSON value, not looked at.
private struct Ignored: Decodable {
  init(from decoder: any Decoder) throws {}
}

/// One item of an array, decoded by its own `Codable` conformance; a failure is kept (with
/// its full coding path) instead of ending the whole document's decoding.
private struct Decoded<Item: Decodable>: Decodable {
  let result: Result<Item, Error>

  init(from decoder: any Decoder) throws {
    do {
      result = .success(try Item(from: decoder))
    } catch let error as DecodingError {
      result = .failure(error)
    } catch {
      // JSONDecoder checks strings and numbers as an item reads them, throwing its own
      // syntax errors, which it words as "not valid JSON" only at the top level: said so here,
      // at the item's path.
      result = .failure(
        DecodingError.dataCorrupted(
          .init(
            codingPath: decoder.codingPath, debugDescription: "The given data was not valid JSON.",
            underlyingError: error)))
    }
  }
}
