/// The craft a project is made in. The raw value is the token in JSON, CSV and SQLite.
public enum Craft: String, Codable, CaseIterable, Hashable, Sendable {
  /// Knitting, `knitting`.
  case knitting
  /// Crochet, `crochet`.
  case crochet
  /// Weaving, `weaving`.
  case weaving
  /// Spinning yarn, `spinning`.
  case spinning
  /// Embroidery, `embroidery`.
  case embroidery
  /// Any other craft, `other`.
  case other

  /// Reads `knitting`/`knit`, `crochet`/`crocheting`, `weaving`/`weave`, `spinning`/`spin`,
  /// `embroidery`, `other`, in any case, spaces around ignored; `nil` for anything else.
  public init?(parsing text: String) {
    switch text.lowercased().trimmingSpaces() {
    case "knitting", "knit": self = .knitting
    case "crochet", "crocheting": self = .crochet
    case "weaving", "weave": self = .weaving
    case "spinning", "spin": self = .spinning
    case "embroidery": self = .embroidery
    case "other": self = .other
    default: return nil
    }
  }
}

/// Where a project stands. The raw value is the token in JSON, CSV and SQLite.
public enum ProjectStatus: String, Codable, CaseIterable, Hashable, Sendable {
  /// Not begun, `planned` (the default of a new project).
  case planned
  /// Being worked on, `in-progress`; its usages count against the stash only when asked
  /// (`includeActive`).
  case inProgress = "in-progress"
  /// Done; its yarn usages count against the stash.
  case finished
  /// Unravelled; its yarn went back to the stash.
  case frogged
  /// Set aside for now.
  case hibernating

  /// Reads the raw value, also with a space or underscore (`in progress`), in any case, and
  /// `wip`, `active`, `started` (in progress), `done`, `complete`, `completed` (finished);
  /// `nil` for anything else.
  public init?(parsing text: String) {
    let key = text.lowercased().trimmingSpaces()
      .replacing(" ", with: "-").replacing("_", with: "-")
    switch key {
    case "wip", "active", "started": self = .inProgress
    case "done", "completed", "complete": self = .finished
    default: self.init(rawValue: key)
    }
  }
}

/// A pattern a project follows.
public struct Pattern: Codable, Hashable, Sendable {
  /// The pattern's name, such as `Flax`.
  public var name: String?
  /// Where it is published (any URL the user gave, kept as text).
  public var url: String?
  /// The pattern as a PDF file.
  public var pdf: Attachment?

  /// A pattern; any of the three may be unknown.
  public init(name: String? = nil, url: String? = nil, pdf: Attachment? = nil) {
    self.name = name
    self.url = url
    self.pdf = pdf
  }
}

/// An amount of one stash yarn used in a project.
public struct YarnUsage: Codable, Hashable, Sendable {
  /// The `Yarn.id` used.
  public var yarnID: String
  /// How much, in any unit; converted to the yarn's quantity unit by the remaining estimate.
  public var amount: Amount

  /// A usage of `amount` of the yarn `yarnID`.
  public init(yarnID: String, amount: Amount) {
    self.yarnID = yarnID
    self.amount = amount
  }
}

/// A project: something made, or to be made, in one of the crafts.
public struct Project: Codable, Hashable, Sendable, Identifiable {
  /// A stable identifier, a lower-case UUID (RFC 9562) unless imported from elsewhere.
  public var id: String
  /// The project's name, such as `Flax for Leo`.
  public var name: String
  /// The craft, or `nil` when unknown.
  public var craft: Craft?
  /// Where the project stands; only `finished` projects' usages count against the stash by
  /// default.
  public var status: ProjectStatus
  /// The pattern followed, or `nil` for none.
  public var pattern: Pattern?
  /// The day work began (a local calendar day, no time zone).
  public var started: CalendarDate?
  /// The day it was finished (or frogged): always set when `status` is `finished`, never
  /// when planned, in progress or hibernating, and not before `started` when both are known
  /// (`Rules.days(status:started:finished:)`).
  public var finished: CalendarDate?
  /// The yarns used, in the order recorded.
  public var usages: [YarnUsage]
  /// Photos, in the order they were attached.
  public var photos: [Attachment]
  /// The needle or hook sizes the project calls for, in the order given (`--needle`); `nil`
  /// when it names none, never empty (JSON then leaves the key out, as older backups have
  /// it). The tools it is made with are the tools' `projectIDs`.
  public var needleSizes: [NeedleSize]?
  // Details (issue 14, item 3).
  /// The gauge worked to, such as 18 sts x 24 rows = 10 cm; `nil` when unknown.
  public var gauge: Gauge?
  /// The size made, as the pattern names it, such as `M` or `38 in chest`.
  public var sizeMade: String?
  /// Who it is made for, such as `Leo`.
  public var madeFor: String?
  /// Its tags, in the order added (`Tags`, `Rules.tags(_:field:)`).
  public var tags: [String]

  /// A project; everything but its ID and name may be left out (a planned project with no
  /// craft, pattern, days, usages, photos or details).
  public init(
    id: String, name: String, craft: Craft? = nil, status: ProjectStatus = .planned,
    pattern: Pattern? = nil, started: CalendarDate? = nil, finished: CalendarDate? = nil,
    usages: [YarnUsage] = [], photos: [Attachment] = [], gauge: Gauge? = nil,
    sizeMade: String? = nil, madeFor: String? = nil, tags: [String] = [],
    needleSizes: [NeedleSize]? = nil
  ) {
    self.id = id
    self.name = name
    self.craft = craft
    self.status = status
    self.pattern = pattern
    self.started = started
    self.finished = finished
    self.usages = usages
    self.photos = photos
    self.gauge = gauge
    self.sizeMade = sizeMade
    self.madeFor = madeFor
    self.tags = tags
    self.needleSizes = needleSizes
  }
}

extension Project {
  private enum CodingKeys: String, CodingKey {
    case id, name, craft, status, pattern, started, finished, usages, photos
    case gauge, sizeMade, madeFor, tags, needleSizes
  }

  /// Reads a project as `library.json` and `--json` write it (docs/FORMAT.md); `gauge`,
  /// `sizeMade`, `madeFor`, `tags` and `needleSizes` may be left out (unknown, none), as in
  /// backups made before they existed.
  ///
  /// - Throws: `DecodingError` for a missing `id`, `name`, `status`, `usages` or `photos`,
  ///   or a value of the wrong type.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(String.self, forKey: .id)
    name = try container.decode(String.self, forKey: .name)
    craft = try container.decodeIfPresent(Craft.self, forKey: .craft)
    status = try container.decode(ProjectStatus.self, forKey: .status)
    pattern = try container.decodeIfPresent(Pattern.self, forKey: .pattern)
    started = try container.decodeIfPresent(CalendarDate.self, forKey: .started)
    finished = try container.decodeIfPresent(CalendarDate.self, forKey: .finished)
    usages = try container.decode([YarnUsage].self, forKey: .usages)
    photos = try container.decode([Attachment].self, forKey: .photos)
    gauge = try container.decodeIfPresent(Gauge.self, forKey: .gauge)
    sizeMade = try container.decodeIfPresent(String.self, forKey: .sizeMade)
    madeFor = try container.decodeIfPresent(String.self, forKey: .madeFor)
    tags = try container.decodeIfPresent([String].self, forKey: .tags) ?? []
    needleSizes = try container.decodeIfPresent([NeedleSize].self, forKey: .needleSizes)
  }
}

extension Project {
  /// Sets the status, keeping the finished day in step: a project that becomes finished is
  /// finished on `today` (a local calendar day; a frogged project's day was the day it was
  /// frogged, not finished), one already finished keeps its day, a frogged one that stays
  /// frogged keeps the day it was frogged, and any other loses its finished day, so that the
  /// result keeps the rule of status and days (`Rules.days(status:started:finished:)`) unless
  /// the finished day is before `started`.
  public mutating func setStatus(_ newStatus: ProjectStatus, today: CalendarDate) {
    let old = status
    status = newStatus
    switch newStatus {
    case .finished: if old != .finished || finished == nil { finished = today }
    case .frogged where old == .frogged: break
    default: finished = nil
    }
  }

  /// What became of the finished day `before` had (a frogged project's: the day it was
  /// frogged) in this project, the same one after a change, in words for people: `its
  /// finished day 2026-02-22 is cleared, as it is no longer finished`, `its finished day
  /// 2025-12-30 is replaced by 2026-12-07`, `the day it was frogged, 2026-02-01, is replaced
  /// by its finished day 2026-03-01`; `nil` when it had none or keeps it. Every command that
  /// sets a project's status or days says it, so that no day goes without a word.
  package func finishedDayChange(from before: Project) -> String? {
    guard let day = before.finished, finished != day else { return nil }
    let frogged = before.status == .frogged
    let went = frogged ? "the day it was frogged, \(day)," : "its finished day \(day)"
    guard let finished else {
      return "\(went) is cleared, as it is no longer \(frogged ? "frogged" : "finished")"
    }
    let new =
      status == before.status
      ? "\(finished)"
      : status == .frogged ? "the day it was frogged, \(finished)" : "its finished day \(finished)"
    return "\(went) is replaced by \(new)"
  }
}

// MARK: Usages

extension Project {
  /// Records `amount` of the yarn `yarnID` as used, after the usages already recorded.
  public mutating func addUsage(of yarnID: String, _ amount: Amount) {
    usages.append(YarnUsage(yarnID: yarnID, amount: amount))
  }

  /// Replaces every usage of the yarn `yarnID` by one of `amount`, where the first of them
  /// stood (after the others when there was none).
  public mutating func setUsage(of yarnID: String, to amount: Amount) {
    let first = usages.firstIndex { $0.yarnID == yarnID } ?? usages.count
    usages.removeAll { $0.yarnID == yarnID }
    usages.insert(YarnUsage(yarnID: yarnID, amount: amount), at: min(first, usages.count))
  }

  /// Removes every usage of the yarn `yarnID`.
  ///
  /// - Returns: the usages removed, in their order; empty when the project recorded none.
  @discardableResult
  public mutating func removeUsages(of yarnID: String) -> [YarnUsage] {
    let removed = usages.filter { $0.yarnID == yarnID }
    usages.removeAll { $0.yarnID == yarnID }
    return removed
  }
}
