/// Where a stash yarn stands. The raw value is the token in JSON, CSV and SQLite.
///
/// The keys are WEFT's `material_status` list (`../shared/data/weft/99-taxonomy/status.yaml`:
/// in-stash, allocated, in-use, used-up, gifted, sold, returned, frogged, other), so that every
/// WEFT value reads in and writes out as itself, plus `will-trade` for Ravelry's "will trade or
/// sell". Ravelry's four stash states map so: in stash → `in-stash`, used up → `used-up`, will
/// trade or sell → `will-trade`, traded/sold/gifted → `sold` or `gifted` (`other` for a trade).
///
/// **Still in the stash** (`isHeld`) — the one place this is decided: `in-stash`, `allocated`,
/// `in-use` and `will-trade` are yarn the crafter still holds; `used-up`, `gifted`, `sold`,
/// `returned`, `frogged` and `other` are gone. A library of schema v4 or older, and a backup
/// with the older `isStashed` flag, read `true` as `in-stash` and `false` as `used-up`.
public enum StashStatus: String, Codable, CaseIterable, Hashable, Sendable {
  /// In the stash, free for any project, `in-stash` (the default of a new yarn).
  case inStash = "in-stash"
  /// Set aside for a planned project, `allocated`.
  case allocated
  /// Being knit (or crocheted, woven…) in a project, `in-use`.
  case inUse = "in-use"
  /// Still held, but offered to trade or sell, `will-trade` (Ravelry's "will trade or sell").
  case willTrade = "will-trade"
  /// All used in projects, `used-up`.
  case usedUp = "used-up"
  /// Given away, `gifted`.
  case gifted
  /// Sold (or traded), `sold`.
  case sold
  /// Taken back to the shop, `returned`.
  case returned
  /// Frogged from a project and not kept, `frogged` (WEFT's "reclaimed").
  case frogged
  /// Gone some other way, `other`.
  case other

  /// Whether the yarn is still in the stash: `in-stash`, `allocated`, `in-use` and
  /// `will-trade` are; every other status is not (see the type's documentation).
  public var isHeld: Bool {
    switch self {
    case .inStash, .allocated, .inUse, .willTrade: true
    case .usedUp, .gifted, .sold, .returned, .frogged, .other: false
    }
  }

  /// The status of the older yes/no flag (`isStashed`, `is_stashed`, the CSV's `Stashed`):
  /// `in-stash` for true, `used-up` for false.
  public init(stashed: Bool) {
    self = stashed ? .inStash : .usedUp
  }

  /// This status after the older yes/no flag is set to `stashed` (`stash edit --stashed`, a
  /// CSV's `Stashed` cell): yes keeps a status still in the stash (`isHeld`) and makes any
  /// other `in-stash`; no keeps a status that is not and makes any other `used-up`, so that
  /// a gifted yarn stays gifted.
  public func settingStashed(_ stashed: Bool) -> StashStatus {
    stashed == isHeld ? self : StashStatus(stashed: stashed)
  }

  /// Reads the raw value, also with spaces or underscores for the hyphens, in any case; WEFT's
  /// aliases (`active`, `available` → in-stash; `assigned`, `reserved` → allocated;
  /// `in progress` → in-use; `finished`, `consumed` → used-up; `traded`, `gone/sold` → sold;
  /// `reclaimed`, `ripped back` → frogged); Ravelry's words (`in stash`, `used up`,
  /// `will trade or sell`, WEFT's `will trade/sell`, `for trade`, `for sale` → will-trade);
  /// `stashed`, `given` and `given away` (gifted). `nil` for anything else.
  public init?(parsing text: String) {
    let key = text.lowercased().trimmingSpaces()
      .replacing("_", with: " ").replacing("-", with: " ")
      .split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    switch key {
    case "in stash", "stashed", "active", "available": self = .inStash
    case "allocated", "assigned", "reserved": self = .allocated
    case "in use", "in progress": self = .inUse
    case "will trade", "will trade or sell", "will trade/sell", "for trade", "for sale":
      self = .willTrade
    case "used up", "finished", "consumed": self = .usedUp
    case "gifted", "given", "given away": self = .gifted
    case "sold", "traded", "gone/sold": self = .sold
    case "returned": self = .returned
    case "frogged", "reclaimed", "ripped back": self = .frogged
    case "other": self = .other
    default: return nil
    }
  }

  /// The tokens, for messages: `in-stash, allocated, …, other`.
  public static var tokens: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// The tags of a yarn or a project: short words or phrases to sort and find them by.
///
/// A tag is one line without spaces around it, not empty, at most `Rules.maximumTagLength`
/// Characters, without a comma (the separator of the CSV cell, docs/CSV.md); two tags are the
/// same when their `Lookup.key`s are (case, spaces around and Unicode normalization aside).
/// The first spelling given is kept; tags keep the order they were added in.
public enum Tags {
  /// `tags` with each of `added` (trimmed) after them, unless an equal tag is already there.
  /// Blank ones (empty, or only invisible characters such as U+200B: `LineText.isBlankLine`)
  /// are dropped; the rules are checked by `Rules.tags(_:field:)`, not here.
  public static func adding(_ added: [String], to tags: [String]) -> [String] {
    var out = tags
    var keys = Set(tags.map(Lookup.key))
    for tag in added {
      let trimmed = tag.trimmingSpaces()
      guard !LineText.isBlankLine(trimmed), keys.insert(Lookup.key(trimmed)).inserted else { continue }
      out.append(trimmed)
    }
    return out
  }

  /// `tags` without the ones equal to any of `removed` (compared by `Lookup.key`).
  public static func removing(_ removed: [String], from tags: [String]) -> [String] {
    let keys = Set(removed.map(Lookup.key))
    return tags.filter { !keys.contains(Lookup.key($0)) }
  }

  /// Reads a CSV cell's tags: split at commas, each trimmed, blank ones dropped, equal ones
  /// once (`adding`). `cozy, gift ,Cozy` is `["cozy", "gift"]`.
  public static func parsing(_ cell: String) -> [String] {
    adding(cell.split(separator: ",", omittingEmptySubsequences: false).map(String.init), to: [])
  }

  /// The tags as one CSV cell: joined by `, ` (`cozy, gift`); empty for none.
  public static func cell(_ tags: [String]) -> String { tags.joined(separator: ", ") }
}
