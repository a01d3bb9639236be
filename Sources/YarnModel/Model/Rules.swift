#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A value that breaks a rule of the model (`Rules`): the field and why.
///
/// The words are made here only, so that the store (`StoreError.brokenRule`), the `yarn`
/// tool, the stash CSV import and backup verify and restore all say the same thing.
public struct RuleViolation: Error, Hashable, Sendable, CustomStringConvertible {
  /// The field as people call it: `name`, `brand`, `quantity`, `finished day`,
  /// `amount of yarn y-1`, `text`, `end`, `length`.
  public var field: String
  /// Why, lower case, beginning with a verb or a value: `is blank`, `-5 g is negative`.
  public var reason: String

  /// A violation of `field`, for `reason`.
  public init(field: String, reason: String) {
    self.field = field
    self.reason = reason
  }

  /// `FIELD REASON`, such as `name is blank` or `quantity -5 g is negative`.
  public var description: String { "\(field) \(reason)" }
}

/// The rules every yarn, project, note, time session and amount of a library keeps: one
/// place, checked by `LibraryStore` on every insert and update (and so by everything built on
/// it), and by backup verify and restore before anything is written.
///
/// - Names and one-line fields (a yarn's name, brand, colorway, color family, dye lot,
///   fiber, purchase location; a project's name, pattern name and pattern URL): no control character (`LineText.isRefused`: a line break, a tab, …), no spaces
///   around (the tool and the CSV import trim what people type; the store refuses, it does
///   not change a value), at most `maximumNameLength` Characters (`maximumURLLength` for a
///   URL). A name is not blank; an optional field that is unknown is `nil`, never empty.
/// - Every length limit in Characters has a second bound: at most 4 Unicode scalars for each
///   Character of the limit (`LineText.lengthProblem(of:limit:)`), so that a letter with
///   thousands of combining marks, one Character, cannot make a name of any size.
/// - A note's text and a session's note (which may be left out): not blank, at most `maximumNoteLength` Characters, line breaks (LF, CR) and
///   tabs kept, no other control character.
/// - Amounts (quantity, remaining, a usage): finite, at least 0, at most `maximumAmount`.
///   A put-up fact (length or net weight per skein) is more than 0 and in its dimension.
/// - A project's days: a finished project has a finished day; a planned, in-progress or
///   hibernating one has none (a frogged one may keep the day it was frogged); the finished
///   day is not before the started day.
/// - Details: a price's currency is three upper-case letters and its amount 0 to
///   `maximumPrice`; a gauge's counts and length more than 0, at most `maximumGaugeNumber`;
///   tags (of a yarn or a project) one line, at most `maximumTagLength` Characters, no comma,
///   none twice (`Lookup.key`). A yarn's stored-in place and a project's size made and made
///   for are one-line fields.
/// - An ID (of a yarn, project, note, session or tool): not blank (`id(_:)`), checked when a
///   record is made (the store's `insert`, backup verify and restore), not when one is
///   changed: an update keeps the ID it finds, so a library that already holds a blank ID
///   (restored before the rule) can still be edited.
/// - A session: it ends after it starts (at least a second), lasts at most `maximumSessionSeconds`,
///   and neither starts nor ends after now (with `clockSkewSeconds` of tolerance). A running
///   session's length is checked when it stops (`TimeTracker` also refuses to start one
///   longer ago than the maximum), so that a backup made while a timer ran still restores.
public enum Rules {
  /// The most Characters (as `String.count` counts them) a name or one-line field may have:
  /// 200, in line with what sites such as Ravelry allow for a name.
  public static let maximumNameLength = 200
  /// The most Characters a pattern URL may have: 2,000, the length browsers and servers
  /// have long been known to handle.
  public static let maximumURLLength = 2000
  /// The most Characters a note's text may have: 100,000 (some 40 pages; a note, not a
  /// pattern — a pattern belongs in a PDF attachment).
  public static let maximumNoteLength = 100_000
  /// The largest value an amount may have in any unit, 1,000,000,000 (`Amount.maximumValue`):
  /// a billion of anything is no real stash.
  public static let maximumAmount = Amount.maximumValue
  /// The longest a recorded session may last: 24 hours, one sitting (a longer one is a timer
  /// left running). The same for every way a session is made: `time add`, `time edit`,
  /// `time start --at`, `time stop`, restore.
  public static let maximumSessionSeconds: Int64 = 24 * 3600
  /// How far after the store's clock a session may start or end: 5 minutes, for clocks of two
  /// machines that disagree a little (a backup made on one, restored on another).
  /// `TimeTracker`, which is given `now`, allows none.
  public static let clockSkewSeconds: Int64 = 5 * 60
  /// The most Characters a tag may have: 50, a word or a short phrase (Ravelry's tags are
  /// single words; a tag is for sorting, a note is for saying things).
  public static let maximumTagLength = 50
  /// The largest price, in whole units of its currency: 1,000,000,000, as for amounts
  /// (`maximumAmount`): no yarn costs more.
  public static let maximumPrice: Int64 = 1_000_000_000
  /// The largest count of stitches or rows, and the longest length, of a gauge: 1,000
  /// (a gauge is given over a swatch of some 10 cm or 4 in, with some 10 to 40 stitches).
  public static let maximumGaugeNumber: Double = 1000

  // MARK: IDs

  /// An item's ID: not blank, that is neither empty nor only white space and invisible
  /// format characters (`LineText.isBlank`: spaces, tabs, line breaks, U+200B, U+FEFF, …),
  /// which a table or a message would show as nothing.
  /// Any other text is an ID, as it is (not trimmed; yarn makes lower-case UUIDs, another
  /// tool's IDs are kept).
  public static func id(_ id: String, field: String = "ID") -> RuleViolation? {
    LineText.isBlank(id) ? RuleViolation(field: field, reason: "is blank") : nil
  }

  /// `id` as a message shows it: as it is, or quoted with control characters, line breaks
  /// and invisible characters escaped (`LineText.visible`: `""`, `"   "`, `"\t"`,
  /// `"y\u{1B}1"`, `"y\u{200B}1"`) when it is blank or `visible` writes it otherwise, so that
  /// such an ID is seen (an older yarn accepted them). The one place an ID is made visible
  /// in messages.
  package static func shown(id: String) -> String {
    let visible = LineText.visible(id)
    return LineText.isBlank(id) || visible != id ? "\"" + visible + "\"" : id
  }

  // MARK: Text

  /// A required one-line text, such as a name: not blank (`LineText.isBlank`: not only
  /// spaces and invisible format characters such as U+200B), then as `line(_:field:limit:)`.
  public static func name(_ text: String, field: String = "name") -> RuleViolation? {
    if LineText.isBlankLine(text) {
      return RuleViolation(field: field, reason: "is blank")
    }
    return line(text, field: field)
  }

  /// An optional one-line text: `nil` is unknown and fine; empty text is refused (unknown is
  /// `nil`), else as `line(_:field:limit:)`.
  public static func optionalLine(
    _ text: String?, field: String, limit: Int = maximumNameLength
  ) -> RuleViolation? {
    guard let text else { return nil }
    if text.isEmpty { return RuleViolation(field: field, reason: "is empty (an unknown value is left out)") }
    if LineText.isBlankLine(text) {
      return RuleViolation(field: field, reason: "is blank (an unknown value is left out)")
    }
    return line(text, field: field, limit: limit)
  }

  /// One line: no control character, no spaces around it, at most `limit` Characters. A
  /// line break is refused as such (`holds a line break (U+000A); it must be one line`), any
  /// other control character as one (`holds a NUL character (U+0000), a control character,
  /// which is not allowed`; `holds a control character (U+001B), which is not allowed`).
  public static func line(_ text: String, field: String, limit: Int = maximumNameLength) -> RuleViolation? {
    switch LineText.checked(text, limit: limit) {
    case .failure(let problem):
      switch problem {
      case .controlCharacter(let scalar):
        let rule =
          switch LineText.name(of: scalar) {
          case "a line break": "; it must be one line"
          case "a control character": ", which is not allowed"
          default: ", a control character, which is not allowed"
          }
        return RuleViolation(field: field, reason: "\(problem)\(rule)")
      case .tooLong, .tooManyScalars:
        return RuleViolation(field: field, reason: problem.withLimit ?? "\(problem)")
      }
    case .success(let trimmed):
      guard trimmed == text else { return RuleViolation(field: field, reason: "has spaces around it") }
      return nil
    }
  }

  /// A note's text (or a session's note): not blank, at most `maximumNoteLength`
  /// Characters, no control character but line feed, carriage return and tab.
  public static func noteText(_ text: String, field: String = "text") -> RuleViolation? {
    if let scalar = text.unicodeScalars.first(where: {
      LineText.isRefused($0) && !["\n", "\r", "\t"].contains($0)
    }) {
      return RuleViolation(
        field: field,
        reason: "holds \(LineText.name(of: scalar)) (\(LineText.code(of: scalar))); "
          + "a note may hold line feeds (U+000A), carriage returns and tabs, no other "
          + "control or separator character")
    }
    if LineText.isBlank(text) { return RuleViolation(field: field, reason: "is blank") }
    if let problem = LineText.lengthProblem(of: text, limit: maximumNoteLength) {
      return RuleViolation(field: field, reason: problem.withLimit ?? "\(problem)")
    }
    return nil
  }

  // MARK: Amounts

  /// An amount: finite, at least 0, at most `maximumAmount`; with `dimension` (a put-up
  /// fact) also more than 0 and in that dimension (`yd`/`m` or `g`/`kg`/`oz`/`lb`).
  public static func amount(
    _ amount: Amount?, field: String, dimension: YarnUnit.Dimension? = nil
  ) -> RuleViolation? {
    guard let amount else { return nil }
    // Made only for a message (an import checks every amount of every row).
    var shown: String { "\(number(amount.value)) \(amount.unit.rawValue)" }
    let value = amount.value
    if !value.isFinite { return RuleViolation(field: field, reason: "\(shown) is not a finite number") }
    if value < 0 { return RuleViolation(field: field, reason: "\(shown) is negative") }
    if value > maximumAmount {
      return RuleViolation(field: field, reason: "\(shown) is over the limit of \(number(maximumAmount))")
    }
    if let dimension {
      guard amount.unit.dimension == dimension else {
        let units = dimension == .length ? "yd or m" : "g, kg, oz or lb"
        return RuleViolation(field: field, reason: "\(shown) is not in \(units)")
      }
      if value == 0 { return RuleViolation(field: field, reason: "\(shown) must be more than 0") }
    }
    return nil
  }

  /// A number as messages and CSV files show it, in plain digits with full precision (reading
  /// it back gives the same `Double`): whole numbers without a fraction (`-5`, `1000000000`,
  /// `100000000000000000000` for 1e20), others with the shortest round-trip digits and never an
  /// exponent (`2.5`, `0.3333333333333333`, `0.0000001`); `nan`, `inf`.
  package static func number(_ value: Double) -> String {
    if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    let text = "\(value)"
    guard value.isFinite, let e = text.firstIndex(of: "e"), let shift = Int(text[text.index(after: e)...])
    else { return text.hasSuffix(".0") ? String(text.dropLast(2)) : text }
    // `1.2345e+20`: the digits of the mantissa with the decimal point moved by the exponent.
    var mantissa = text[..<e]
    let negative = mantissa.hasPrefix("-")
    if negative { mantissa = mantissa.dropFirst() }
    let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
    let digits = String(parts[0]) + (parts.count > 1 ? String(parts[1]) : "")
    let point = parts[0].count + shift
    var shown: String
    if point <= 0 {
      shown = "0." + String(repeating: "0", count: -point) + digits
    } else if point >= digits.count {
      shown = digits + String(repeating: "0", count: point - digits.count)
    } else {
      shown = String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
    }
    if shown.contains(".") {
      while shown.hasSuffix("0") { shown.removeLast() }
      if shown.hasSuffix(".") { shown.removeLast() }
    }
    return (negative ? "-" : "") + shown
  }

  // MARK: Stash and project details

  /// Tags (`Tags`): each one line without spaces around it (`line(_:field:limit:)`), not
  /// empty (nor blank: only invisible characters such as U+200B, `LineText.isBlank`), at most
  /// `maximumTagLength` Characters, without a comma (the CSV cell's separator); no two the same
  /// by `Lookup.key` (case and Unicode normalization aside).
  ///
  /// A tag among `kept` (the tags the item has stored) is not checked: an older yarn or a
  /// change made outside yarn stored it (blank, empty, spaces around it…), and it stays
  /// through an edit of another field (`--untag` or `--no-tags` removes it).
  public static func tags(_ tags: [String], kept: [String] = [], field: String = "tag")
    -> RuleViolation?
  {
    var keys = Set<String>()
    for tag in tags where !kept.contains(tag) {
      // Spaces alone are an empty tag, not one with spaces around it (QA).
      if tag.isEmpty || LineText.isBlankLine(tag) { return RuleViolation(field: field, reason: "is empty") }
      if let violation = line(tag, field: field, limit: maximumTagLength) {
        // A tag is quoted by its start when over twice the limit (it may be megabytes long).
        let shown = LineText.shortened(LineText.visible(tag), characters: 2 * maximumTagLength)
        return RuleViolation(field: field, reason: "\"\(shown)\" \(violation.reason)")
      }
      // A tag that shows as nothing is empty to a reader, whatever it holds.
      if LineText.isBlank(tag) { return RuleViolation(field: field, reason: "is empty") }
      if tag.contains(",") {
        return RuleViolation(
          field: field, reason: "\(LineText.quoted(tag)) holds a comma; a comma separates tags (use two tags)"
        )
      }
      if !keys.insert(Lookup.key(tag)).inserted {
        return RuleViolation(field: field, reason: "\(LineText.quoted(tag)) is given twice (case aside)")
      }
    }
    return nil
  }

  /// A tag both added and removed by one change (`stash edit --tag lace --untag Lace`), the
  /// first one, compared by `Lookup.key` (case and Unicode form aside) as tags are: which is
  /// meant is not guessed. `tag “lace” is both added and removed`.
  public static func tagAddedAndRemoved(
    added: [String], removed: [String], field: String = "tag"
  ) -> RuleViolation? {
    let keys = Set(removed.map(Lookup.key))
    guard let tag = added.first(where: { keys.contains(Lookup.key($0)) }) else { return nil }
    return RuleViolation(
      field: field, reason: "“\(LineText.visible(tag.trimmingSpaces()))” is both added and removed")
  }

  /// A price: a currency code of three upper-case ASCII letters, an amount of at least 0 and
  /// at most `maximumPrice` whole units.
  public static func price(_ price: Price?, field: String = "price") -> RuleViolation? {
    guard let price else { return nil }
    let code = price.currency
    if code.count != 3 || !code.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) }) {
      return RuleViolation(
        field: field,
        reason: "currency \(LineText.quoted(code)) is not three upper-case letters (ISO 4217, such as USD)")
    }
    if price.minorUnits < 0 { return RuleViolation(field: field, reason: "\(price) is negative") }
    var limit = maximumPrice
    for _ in 0..<Price.decimals(of: code) { limit *= 10 }
    if price.minorUnits > limit {
      return RuleViolation(field: field, reason: "\(price) is over the limit of \(maximumPrice) \(code)")
    }
    return nil
  }

  /// The amount of a price whose currency cannot be read (a file gives one that is not
  /// text): at least 0 and at most `maximumPrice` whole units, as `price(_:field:)` checks
  /// it. (The decimals allowed depend on the currency, so they are not checked.)
  public static func priceAmount(_ amount: Double, field: String = "price") -> RuleViolation? {
    if !(amount >= 0) { return RuleViolation(field: field, reason: "amount \(number(amount)) is negative") }
    if amount > Double(maximumPrice) {
      return RuleViolation(
        field: field, reason: "amount \(number(amount)) is over the limit of \(maximumPrice)")
    }
    return nil
  }

  /// A gauge: stitches, rows (when given) and length finite, more than 0, at most
  /// `maximumGaugeNumber`.
  public static func gauge(_ gauge: Gauge?, field: String = "gauge") -> RuleViolation? {
    guard let gauge else { return nil }
    let parts: [(String, Double?)] = [
      ("stitch count", gauge.stitches), ("row count", gauge.rows), ("length", gauge.length),
    ]
    for case (let name, let value?) in parts {
      if !value.isFinite || value <= 0 {
        return RuleViolation(field: field, reason: "\(name) \(number(value)) must be more than 0")
      }
      if value > maximumGaugeNumber {
        return RuleViolation(
          field: field, reason: "\(name) \(number(value)) is over the limit of \(number(maximumGaugeNumber))")
      }
    }
    return nil
  }

  // MARK: Days

  /// The rule of a project's status and days: a finished project has a finished day; a
  /// planned, in-progress or hibernating one has none; a frogged one may keep one (the day
  /// it was frogged: version-1 backups such as the golden one in Tests record it so); the
  /// finished day is not before the started day.
  public static func days(
    status: ProjectStatus, started: CalendarDate?, finished: CalendarDate?
  ) -> RuleViolation? {
    switch (status, finished) {
    case (.finished, nil):
      return RuleViolation(field: "finished day", reason: "is missing; a finished project has one")
    case (.finished, let finished?):
      if let started, finished < started {
        return RuleViolation(
          field: "finished day", reason: "\(finished) is before the started day \(started)")
      }
      return nil
    case (.frogged, let finished?):
      // The day it was frogged, as `samples/demo` and the golden version-1 backup record.
      if let started, finished < started {
        return RuleViolation(
          field: "finished day", reason: "\(finished) is before the started day \(started)")
      }
      return nil
    case (_, let finished?):
      return RuleViolation(
        field: "finished day",
        reason: "\(finished) is set, but the project is \(status.rawValue); "
          + "only a finished (or frogged) project has one")
    case (_, nil):
      return nil
    }
  }

  // MARK: Instants

  /// A recorded session's end that is not after its start (a session lasts at least a
  /// second): `end 2026-03-29T14:00:00Z is not after the start 2026-03-29T14:00:00Z`.
  public static func endNotAfterStart(start: Date, end: Date) -> RuleViolation {
    RuleViolation(
      field: "end",
      reason: "\(JSONCoding.formatInstant(end)) is not after the start \(JSONCoding.formatInstant(start))")
  }

  /// The rules of a session's instants: `end` (nil: running) after `start`; a recorded
  /// session lasts at most `maximumSessionSeconds`; neither instant after `now` plus
  /// `tolerance` seconds. Instants are compared in whole seconds (truncated), as the store
  /// keeps them.
  public static func session(
    start: Date, end: Date?, now: Date, tolerance: Int64 = clockSkewSeconds
  ) -> RuleViolation? {
    let from = seconds(start)
    let (sum, overflow) = seconds(now).addingReportingOverflow(tolerance)
    let latest = overflow ? Int64.max : sum
    if let end {
      let to = seconds(end)
      if to <= from { return endNotAfterStart(start: start, end: end) }
      if let violation = length(from: start, to: end) { return violation }
      if to > latest { return future(.end, end, now: now) }
    } else if from > latest {
      return future(.start, start, now: now)
    }
    return nil
  }

  /// A session from `start` to `end` (whole seconds, truncated) longer than
  /// `maximumSessionSeconds`, or `nil`. Instants beyond what an `Int64` of seconds holds
  /// count as the farthest it holds.
  public static func length(from start: Date, to end: Date) -> RuleViolation? {
    let (difference, overflow) = seconds(end).subtractingReportingOverflow(seconds(start))
    return length(overflow ? Int64.max : difference)
  }

  /// A session of `seconds` longer than `maximumSessionSeconds`, or `nil`.
  public static func length(_ seconds: Int64) -> RuleViolation? {
    guard seconds > maximumSessionSeconds else { return nil }
    return RuleViolation(
      field: "length",
      reason: "\(duration(seconds)) is over the limit of \(duration(maximumSessionSeconds)) (one sitting)")
  }

  /// Which end of a session an instant is, for `future(_:_:now:)`.
  public enum Edge: String, Sendable {
    /// The session's start.
    case start
    /// The session's end.
    case end
  }

  /// `start 2027-01-01T00:00:00Z is in the future (now is …)`.
  public static func future(_ edge: Edge, _ instant: Date, now: Date) -> RuleViolation {
    RuleViolation(
      field: edge.rawValue,
      reason:
        "\(JSONCoding.formatInstant(instant)) is in the future (now is \(JSONCoding.formatInstant(now)))")
  }

  /// `24h`, `25h 0m 1s`, `1h 30m`: hours, minutes and seconds down to the last that is not 0.
  package static func duration(_ seconds: Int64) -> String {
    let parts = [(seconds / 3600, "h"), (seconds % 3600 / 60, "m"), (seconds % 60, "s")]
    let last = parts.lastIndex { $0.0 != 0 } ?? 0
    return parts[...last].map { "\($0.0)\($0.1)" }.joined(separator: " ")
  }

  /// `date` in whole Unix seconds, truncated toward the past, as the store keeps instants.
  static func seconds(_ date: Date) -> Int64 {
    Int64(exactly: date.timeIntervalSince1970.rounded(.down))
      ?? (date.timeIntervalSince1970 < 0 ? .min : .max)
  }
}

// MARK: The rules of each record

extension Yarn {
  /// Every rule (`Rules`) the yarn breaks, in field order; empty for a valid yarn.
  ///
  /// - Parameter keptTags: the tags the yarn has stored, when it is edited: they are kept as
  ///   they are, unchecked (`Rules.tags(_:kept:field:)`).
  public func ruleViolations(keptTags: [String] = []) -> [RuleViolation] {
    [
      Rules.name(name),
      Rules.optionalLine(brand, field: "brand"),
      Rules.optionalLine(colorway, field: "colorway"),
      Rules.optionalLine(colorFamily, field: "color family"),
      Rules.optionalLine(dyeLot, field: "dye lot"),
      Rules.optionalLine(fiber, field: "fiber"),
      Rules.amount(lengthPerSkein, field: "length per skein", dimension: .length),
      Rules.amount(netWeightPerSkein, field: "net weight per skein", dimension: .mass),
      Rules.amount(quantity, field: "quantity"),
      Rules.amount(remainingOverride, field: "remaining"),
      Rules.optionalLine(purchaseLocation, field: "purchase location"),
      Rules.price(price),
      Rules.optionalLine(storedIn, field: "stored in"),
      Rules.tags(tags, kept: keptTags),
    ].compactMap { $0 }
  }
}

extension Project {
  /// Every rule (`Rules`) the project breaks, in field order; empty for a valid project.
  ///
  /// - Parameter keptTags: the tags the project has stored, when it is edited: they are kept
  ///   as they are, unchecked (`Rules.tags(_:kept:field:)`).
  public func ruleViolations(keptTags: [String] = []) -> [RuleViolation] {
    var out = [
      Rules.name(name),
      Rules.optionalLine(pattern?.name, field: "pattern name"),
      Rules.optionalLine(pattern?.url, field: "pattern url", limit: Rules.maximumURLLength),
      Rules.days(status: status, started: started, finished: finished),
      Rules.gauge(gauge),
      Rules.optionalLine(sizeMade, field: "size made"),
      Rules.optionalLine(madeFor, field: "made for"),
      Rules.tags(tags, kept: keptTags),
    ].compactMap { $0 }
    for usage in usages {
      if let violation = Rules.amount(usage.amount, field: "amount of yarn \(Rules.shown(id: usage.yarnID))")
      {
        out.append(violation)
      }
    }
    return out
  }
}

extension Note {
  /// Every rule (`Rules`) the note breaks; empty for a valid note.
  public func ruleViolations() -> [RuleViolation] {
    [Rules.noteText(text)].compactMap { $0 }
  }
}

extension TimeSession {
  /// Every rule (`Rules`) the session breaks at `now` (the clock of whoever checks, with
  /// `Rules.clockSkewSeconds` of tolerance); empty for a valid session.
  public func ruleViolations(now: Date) -> [RuleViolation] {
    [
      note.flatMap { Rules.noteText($0, field: "note") },
      Rules.session(start: start, end: end, now: now),
    ].compactMap { $0 }
  }
}
