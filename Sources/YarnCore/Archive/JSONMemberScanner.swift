/// Splits a JSON document read in pieces of any size into the pieces `JSONDecoder` decodes
/// one by one: the members of the top-level object, and each element of a member whose value
/// is an array. What `BackupReader` reads `library.json` with, so that memory holds one item at
/// a time, not the document (`JSONDecoder` has no incremental mode).
///
/// The scanner judges only the structure around the pieces: an optional UTF-8 byte order mark,
/// whitespace (space, tab, line feed, carriage return), the top-level object's braces, keys,
/// colons and commas, and the brackets and commas of each member's array, with a comma allowed
/// before a closing bracket or brace (`[1,]`), as `JSONDecoder` (swift-foundation) allows. Inside
/// a piece it tracks only strings (a backslash escapes the next byte) and the nesting of
/// brackets and braces, to find where the piece ends and to refuse a nesting deeper than
/// `maxDepth` counted from the top; the piece itself is judged by the decoder it is handed to
/// (every piece must be: a key, an element or a value). So a document is refused exactly when
/// `JSONDecoder` would refuse it whole, given that each piece is decoded.
///
/// Hostile input is expected: every byte is looked at once, nothing recurses, and a piece (a
/// key, an element, a value) longer than `maxPieceBytes` is refused (`Failure.tooLarge`)
/// rather than held.
struct JSONMemberScanner {
  /// What the scanner found, in the document's order.
  enum Event: Equatable {
    /// The document is an object; its members follow.
    case object
    /// A member of the top-level object: its key's JSON text, quotes and escapes included.
    case key([UInt8])
    /// The current member's value (or the document, when it is not an object) is an array;
    /// its elements follow, then `arrayEnd`.
    case arrayStart
    /// One element of the array: its JSON text, without the whitespace around it.
    case element([UInt8])
    /// The array's closing bracket.
    case arrayEnd
    /// The current member's value, or the whole document, when it is not an array: its JSON
    /// text.
    case value([UInt8])
  }

  /// Why the document was refused.
  enum Failure: Error, Equatable {
    /// Not JSON: a byte where the structure allows none, or the input ended too early.
    case invalid
    /// Nested deeper than `maxDepth`.
    case tooDeep
    /// A piece longer than `maxPieceBytes` bytes.
    case tooLarge(limit: Int)
  }

  /// The deepest nesting of arrays and objects accepted, the top-level object counted as 1:
  /// 512, as `JSONDecoder` (swift-foundation) refuses a 513th level.
  static let maxDepth = 512

  /// The longest piece (key, element or value) held, in bytes.
  let maxPieceBytes: Int

  private enum State {
    case byteOrderMark(Int)  // bytes of EF BB BF matched so far (0 at the start)
    case beforeDocument
    case objectStart  // after `{`
    case afterKey  // expecting `:`
    case beforeValue  // after `:`
    case afterValue  // after a member's value: `,` or `}`
    case afterMemberComma  // a key or `}`
    case arrayStart  // after `[`: an element or `]`
    case afterElement  // `,` or `]`
    case afterElementComma  // an element or `]`
    case piece  // inside a key, element or value
    case end  // after the document: whitespace only
  }

  private enum PieceKind { case key, element, value }

  private var state = State.byteOrderMark(0)
  /// Whether the array being read is the document itself (not a member's value).
  private var arrayIsDocument = false

  // The piece being read.
  private var piece: [UInt8] = []
  private var pieceKind = PieceKind.value
  /// 0 for a string, number or literal; otherwise the open brackets and braces.
  private var pieceDepth = 0
  private var inString = false
  private var escaped = false
  /// Whether the piece is a number or a literal (ended by whitespace or `,` `]` `}`).
  private var isScalar = false
  /// The nesting around the piece (1 in the top-level object, 2 in a member's array).
  private var outerDepth = 0

  /// A scanner that refuses pieces longer than `maxPieceBytes`.
  init(maxPieceBytes: Int) {
    self.maxPieceBytes = maxPieceBytes
  }

  /// Reads the next bytes of the document, calling `handle` with each event they complete.
  ///
  /// - Throws: `Failure` when the document is refused (the scanner must not be fed again),
  ///   or what `handle` throws.
  mutating func feed(_ bytes: UnsafeRawBufferPointer, _ handle: (Event) throws -> Void) throws {
    var index = 0
    let count = bytes.count
    // Where the piece's bytes begin in `bytes` (0 for a piece begun in earlier bytes).
    var pieceStart = 0
    while index < count {
      let byte = bytes[index]
      switch state {
      case .piece:
        guard let end = try scanPiece(bytes, from: index) else {
          try append(bytes, from: pieceStart, to: count)
          return
        }
        try append(bytes, from: pieceStart, to: end)
        index = end
        try finishPiece(handle)
        continue
      case .byteOrderMark(let matched):
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        if byte == mark[matched] {
          state = matched == 2 ? .beforeDocument : .byteOrderMark(matched + 1)
          index += 1
          continue
        }
        guard matched == 0 else { throw Failure.invalid }
        state = .beforeDocument
        continue
      default:
        break
      }
      if Self.isWhitespace(byte) {
        index += 1
        continue
      }
      switch state {
      case .beforeDocument:
        if byte == UInt8(ascii: "{") {
          state = .objectStart
          try handle(.object)
          index += 1
        } else if byte == UInt8(ascii: "[") {
          arrayIsDocument = true
          state = .arrayStart
          try handle(.arrayStart)
          index += 1
        } else {
          try startPiece(.value, byte, outerDepth: 0)
          pieceStart = index
        }
      case .objectStart, .afterMemberComma:
        if byte == UInt8(ascii: "}") {
          state = .end
          index += 1
        } else if byte == UInt8(ascii: "\"") {
          try startPiece(.key, byte, outerDepth: 1)
          pieceStart = index
        } else {
          throw Failure.invalid
        }
      case .afterKey:
        guard byte == UInt8(ascii: ":") else { throw Failure.invalid }
        state = .beforeValue
        index += 1
      case .beforeValue:
        if byte == UInt8(ascii: "[") {
          arrayIsDocument = false
          state = .arrayStart
          try Self.checkDepth(2)
          try handle(.arrayStart)
          index += 1
        } else {
          try startPiece(.value, byte, outerDepth: 1)
          pieceStart = index
        }
      case .afterValue:
        if byte == UInt8(ascii: ",") {
          state = .afterMemberComma
        } else if byte == UInt8(ascii: "}") {
          state = .end
        } else {
          throw Failure.invalid
        }
        index += 1
      case .arrayStart, .afterElementComma:
        if byte == UInt8(ascii: "]") {
          try endArray(handle)
          index += 1
        } else {
          try startPiece(.element, byte, outerDepth: arrayIsDocument ? 1 : 2)
          pieceStart = index
        }
      case .afterElement:
        if byte == UInt8(ascii: ",") {
          state = .afterElementComma
        } else if byte == UInt8(ascii: "]") {
          try endArray(handle)
        } else {
          throw Failure.invalid
        }
        index += 1
      case .end:
        throw Failure.invalid
      case .piece, .byteOrderMark:
        preconditionFailure("handled above")
      }
    }
  }

  /// Ends the document.
  ///
  /// - Throws: `Failure.invalid` when it is incomplete (or empty); what `handle` throws.
  mutating func finish(_ handle: (Event) throws -> Void) throws {
    if case .piece = state, isScalar, pieceKind == .value, outerDepth == 0 {
      // A number or literal that is the whole document ends with it.
      try finishPiece(handle)
    }
    guard case .end = state else { throw Failure.invalid }
  }

  // MARK: Pieces

  private static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }

  private static func checkDepth(_ depth: Int) throws {
    if depth > maxDepth { throw Failure.tooDeep }
  }

  /// Begins a piece at `byte`, its first byte (not consumed here: `scanPiece` reads it).
  private mutating func startPiece(_ kind: PieceKind, _ byte: UInt8, outerDepth: Int) throws {
    switch byte {
    case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "-"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
      break
    default:
      throw Failure.invalid
    }
    pieceKind = kind
    self.outerDepth = outerDepth
    piece.removeAll(keepingCapacity: piece.capacity <= 1 << 16)
    pieceDepth = 0
    inString = false
    escaped = false
    isScalar = !(byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "\""))
    state = .piece
  }

  /// Reads the piece's bytes from `start` on: the index just past its end (a scalar ends
  /// before the byte that ends it), or `nil` when it goes on past `bytes`.
  private mutating func scanPiece(_ bytes: UnsafeRawBufferPointer, from start: Int) throws -> Int? {
    var index = start
    let count = bytes.count
    if isScalar {
      while index < count {
        let byte = bytes[index]
        if Self.isWhitespace(byte) || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]")
          || byte == UInt8(ascii: "}")
        {
          return index
        }
        index += 1
      }
      return nil
    }
    // Kept in locals while scanning, written back when the bytes run out.
    var inString = self.inString
    var escaped = self.escaped
    var depth = pieceDepth
    defer {
      self.inString = inString
      self.escaped = escaped
      pieceDepth = depth
    }
    while index < count {
      let byte = bytes[index]
      index += 1
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
          if depth == 0 { return index }
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""):
        inString = true
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
        try Self.checkDepth(outerDepth + depth)
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        depth -= 1
        // A closing bracket of the wrong kind ends the piece all the same: the decoder it is
        // handed to refuses it.
        if depth <= 0 { return index }
      default:
        break
      }
    }
    return nil
  }

  private mutating func append(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) throws {
    guard end > start else { return }
    guard piece.count + (end - start) <= maxPieceBytes else {
      throw Failure.tooLarge(limit: maxPieceBytes)
    }
    piece.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
  }

  private mutating func finishPiece(_ handle: (Event) throws -> Void) throws {
    switch pieceKind {
    case .key:
      state = .afterKey
      try handle(.key(piece))
    case .element:
      state = .afterElement
      try handle(.element(piece))
    case .value:
      state = outerDepth == 0 ? .end : .afterValue
      try handle(.value(piece))
    }
  }

  private mutating func endArray(_ handle: (Event) throws -> Void) throws {
    state = arrayIsDocument ? .end : .afterValue
    try handle(.arrayEnd)
  }
}
