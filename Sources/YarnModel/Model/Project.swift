/// The craft a project is made in.
public enum Craft: String, Codable, CaseIterable, Hashable, Sendable {
  case knitting, crochet, weaving, spinning, embroidery, other

  /// Reads `knitting`/`knit`, `crochet`/`crocheting`, `weaving`/`weave`, `spinning`/`spin`,
  /// `embroidery`, `other`, in any case.
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

/// Where a project stands.
public enum ProjectStatus: String, Codable, CaseIterable, Hashable, Sendable {
  case planned
  case inProgress = "in-progress"
  /// Done; its yarn usages count against the stash.
  case finished
  /// Unravelled; its yarn went back to the stash.
  case frogged
  /// Set aside for now.
  case hibernating

  /// Reads the raw value, also with a space or underscore (`in progress`), in any case.
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

  public init(yarnID: String, amount: Amount) {
    self.yarnID = yarnID
    self.amount = amount
  }
}

/// A knitting or crochet project.
public struct Project: Codable, Hashable, Sendable, Identifiable {
  /// A stable identifier, a lower-case UUID unless imported from elsewhere.
  public var id: String
  public var name: String
  public var craft: Craft?
  public var status: ProjectStatus
  public var pattern: Pattern?
  /// The day work began.
  public var started: CalendarDate?
  /// The day it was finished (or frogged).
  public var finished: CalendarDate?
  /// The yarns used, in the order recorded.
  public var usages: [YarnUsage]
  /// Photos, in the order they were attached.
  public var photos: [Attachment]

  public init(
    id: String, name: String, craft: Craft? = nil, status: ProjectStatus = .planned,
    pattern: Pattern? = nil, started: CalendarDate? = nil, finished: CalendarDate? = nil,
    usages: [YarnUsage] = [], photos: [Attachment] = []
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
  }
}

extension Project {
  /// What is wrong with the project's days, or `nil` when they agree: a project cannot be
  /// finished before the day it was started.
  package var datesProblem: String? {
    guard let started, let finished, finished < started else { return nil }
    return "'\(name)' cannot finish on \(finished) before it started on \(started)"
  }
}
