import YarnModel
import YarnStore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The library as WEFT documents (docs/WEFT.md): `material.weft` (the stash),
/// `project.weft` (the projects), `progress.weft` (each project's recorded time sessions
/// as its timer sessions) and `tool.weft` (the needles and hooks), each valid against WEFT
/// 1.0's JSON schema of its type.
public enum WEFTExport {
  /// The names of the files `write(from:to:force:now:app:)` writes, in order.
  public static let fileNames = ["material.weft", "project.weft", "progress.weft", "tool.weft"]

  /// What an export wrote.
  public struct Summary: Sendable, Encodable {
    /// The files written, as paths.
    public var files: [String] = []
    /// Yarns written as materials.
    public var yarns = 0
    /// Projects written.
    public var projects = 0
    /// Recorded sessions written as timer sessions.
    public var sessions = 0
    /// Tools (needles and hooks) written.
    public var tools = 0
    /// Running sessions left out (a timer session needs its duration).
    public var runningLeftOut = 0
    /// What the library holds that the documents do not carry.
    public var notInWEFT = NotInWEFT()
  }

  /// What a library holds that WEFT documents have no place for, counted: the list of
  /// docs/WEFT.md, "What a round trip keeps" (a running session is
  /// `Summary.runningLeftOut`).
  public struct NotInWEFT: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// The photos of yarns and projects (a file on two items counts twice).
    public var photos = 0
    /// The projects' pattern PDFs.
    public var patternPDFs = 0
    /// The notes of the recorded sessions written.
    public var sessionNotes = 0

    /// The counts given; nothing left out by default.
    public init(photos: Int = 0, patternPDFs: Int = 0, sessionNotes: Int = 0) {
      self.photos = photos
      self.patternPDFs = patternPDFs
      self.sessionNotes = sessionNotes
    }

    /// `5 photos, 1 pattern PDF, 21 session notes`: each kind the library has; empty when
    /// the documents leave nothing out.
    public var description: String {
      [(photos, "photo"), (patternPDFs, "pattern PDF"), (sessionNotes, "session note")]
        .filter { $0.0 > 0 }.map { Plural.count($0.0, $0.1) }.joined(separator: ", ")
    }
  }

  /// The documents of the library in `store`, as UTF-8 JSON, in the order of `fileNames`
  /// (held in memory: `write(from:to:…)` streams them to their files instead).
  ///
  /// - Parameters:
  ///   - store: the library; only read (one read transaction).
  ///   - now: the export's instant (`exported_at`).
  ///   - app: the writer's version, for `exported_from`.
  /// - Returns: each file's name and bytes, and the counts.
  /// - Throws: `StoreError` when the store cannot be read; `EncodingError` (not expected).
  public static func documents(from store: LibraryStore, now: Date, app: String?) throws
    -> (files: [(name: String, data: Data)], summary: Summary)
  {
    var files: [(name: String, data: Data)] = []
    let summary = try stream(from: store, now: now, app: app) { index, body in
      var data = Data()
      try body(JSONStream { data.append(contentsOf: $0) })
      files.append((fileNames[index], data))
    }
    return (files, summary)
  }

  /// Makes the documents of `fileNames` one after the other, in one read transaction: for
  /// each, `document` is called with its index in `fileNames` and the function that writes
  /// it whole to a `JSONStream` (the bytes `JSONEncoder` gives the whole document with
  /// sorted keys, pretty printed, and a line feed), item by item as the items are read.
  ///
  /// Memory: the notes' texts, the tools, and one project's sessions at a time; not the
  /// yarns or all the sessions.
  ///
  /// - Returns: the counts.
  /// - Throws: what `document` throws; `StoreError`; `EncodingError` (not expected).
  static func stream(
    from store: LibraryStore, now: Date, app: String?,
    document: (_ index: Int, _ body: (JSONStream) throws -> Void) throws -> Void
  ) throws -> Summary {
    try store.read {
      var summary = Summary()
      var notesBySubject: [Note.Subject: [String]] = [:]
      try store.forEachNote { note in
        if let subject = note.subject { notesBySubject[subject, default: []].append(note.text) }
      }
      let exportedAt = JSONCoding.formatInstant(now)
      let from = WEFT.App(app: "yarn", version: app, platform: nil)
      /// `{"exported_at", "exported_from", "items", "profile", "type", "weft_version"}`, sorted.
      func write<Item: Encodable>(
        _ type: String, to stream: JSONStream, batchSize: Int = JSONStream.batchSize,
        items: ((Item) throws -> Void) throws -> Void
      ) throws -> Int {
        try stream.write("{\n")
        try stream.key("exported_at", depth: 1, first: true)
        try stream.value(exportedAt, depth: 1)
        try stream.key("exported_from", depth: 1, first: false)
        try stream.value(from, depth: 1)
        try stream.key("items", depth: 1, first: false)
        let count = try stream.array(depth: 1, batchSize: batchSize, items)
        try stream.key("profile", depth: 1, first: false)
        try stream.value(WEFT.profile, depth: 1)
        try stream.key("type", depth: 1, first: false)
        try stream.value(type, depth: 1)
        try stream.key("weft_version", depth: 1, first: false)
        try stream.value(WEFT.version, depth: 1)
        try stream.write("\n}\n")
        return count
      }

      let attachments = try store.attachmentCounts()
      summary.notInWEFT.photos = attachments.photos
      summary.notInWEFT.patternPDFs = attachments.patterns
      let usages = try store.countedUsagesByYarn()
      try document(0) { stream in
        summary.yarns = try write("material", to: stream) { (item: (WEFT.Material) throws -> Void) in
          try store.forEachYarn(includingPhotos: false) { yarn in
            let estimate = RemainingEstimate(yarn: yarn, usages: usages[yarn.id] ?? [])
            try item(
              material(of: yarn, remaining: estimate, notes: notesBySubject[.yarn(yarn.id)]))
          }
        }
      }

      let tools = try store.tools()
      summary.tools = tools.count
      var toolsByProject: [String: [Tool]] = [:]
      for tool in tools {
        for projectID in tool.projectIDs { toolsByProject[projectID, default: []].append(tool) }
      }
      // The yarns the projects use, as materials (a project names each one's name, brand,
      // colorway and weight), looked up as met.
      var yarnsByID: [String: WEFT.Material] = [:]
      try document(1) { stream in
        summary.projects = try write("project", to: stream) { (item: (WEFT.Project) throws -> Void) in
          try store.forEachProject { project in
            for usage in project.usages where yarnsByID[usage.yarnID] == nil {
              guard let yarn = try store.yarn(id: usage.yarnID) else { continue }
              let estimate = RemainingEstimate(yarn: yarn, usages: usages[yarn.id] ?? [])
              yarnsByID[usage.yarnID] = material(
                of: yarn, remaining: estimate, notes: notesBySubject[.yarn(yarn.id)])
            }
            try item(
              self.project(
                of: project, yarns: yarnsByID, tools: toolsByProject[project.id] ?? [],
                notes: notesBySubject[.project(project.id)]))
          }
        }
      }

      // One progress item per project with recorded sessions, in the order of each one's
      // first session by start; its sessions read by the project's index.
      var order: [String] = []
      var seen = Set<String>()
      try store.forEachSession(from: nil, to: nil, namingProjects: false) { session, _ in
        guard session.end != nil else {
          summary.runningLeftOut += 1
          return
        }
        summary.sessions += 1
        if !(session.note ?? "").isEmpty { summary.notInWEFT.sessionNotes += 1 }
        if seen.insert(session.projectID).inserted { order.append(session.projectID) }
      }
      try document(2) { stream in
        // One project's sessions at a time: an item is as large as its project's sessions.
        _ = try write("progress", to: stream, batchSize: 1) { (item: (WEFT.Progress) throws -> Void) in
          for projectID in order {
            var sessions: [WEFT.TimerSession] = []
            try store.forEachSession(from: nil, to: nil, projectID: projectID, namingProjects: false) {
              session, _ in
              guard let end = session.end else { return }
              let seconds =
                Int64(end.timeIntervalSince1970.rounded(.down))
                - Int64(session.start.timeIntervalSince1970.rounded(.down))
              sessions.append(
                WEFT.TimerSession(
                  startedAt: JSONCoding.formatInstant(session.start), durationSeconds: seconds))
            }
            try item(
              WEFT.Progress(
                id: "progress-\(projectID)", projectId: projectID, craft: nil,
                timer: WEFT.Timer(
                  totalSeconds: sessions.reduce(0) { $0 + ($1.durationSeconds ?? 0) },
                  sessions: sessions)))
          }
        }
      }

      try document(3) { stream in
        _ = try write("tool", to: stream) { (item: (WEFT.Tool) throws -> Void) in
          for tool in tools { try item(self.tool(tool)) }
        }
      }
      return summary
    }
  }

  /// Writes the documents into `directory` (created when missing), each file whole or not at
  /// all (`AtomicFile`), streamed to it as its items are read (`stream(from:…)`).
  ///
  /// `progress` is called on the calling thread with the fraction done, 0...1: a fifth at
  /// the start, then a fifth after each file written; the values never go down and the last
  /// is 1.
  ///
  /// - Throws: `OutputError.intoLibrary`, whatever `force`, when a file of `fileNames` in
  ///   `directory` would be one of the own files of the library of `store` (`directory` is
  ///   its attachments folder or in it, …; nothing is written); `WEFTExportError.exists` when
  ///   a file of `fileNames` is there and `force` is false (nothing is written);
  ///   `StoreError`; the I/O errors of `AtomicFile`. The files
  ///   written before an error stay (each whole); the one being written is not kept.
  public static func write(
    from store: LibraryStore, to directory: URL, force: Bool, now: Date, app: String?,
    progress: ((Double) -> Void)? = nil
  ) throws -> Summary {
    let urls = fileNames.map { directory.appendingPathComponent($0) }
    for url in urls { try OutputError.refuseLibraryFile(url.path, of: store.directory) }
    if !force, let existing = urls.first(where: { FileManager.default.fileExists(atPath: $0.path) }) {
      throw WEFTExportError.exists(path: existing.path)
    }
    var counter = ProgressCounter(total: Int64(fileNames.count + 1), report: progress)
    counter.add(1)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    var written: [String] = []
    var summary = try stream(from: store, now: now, app: app) { index, body in
      let url = urls[index]
      try AtomicFile.write(to: url) { fd in
        // Buffered: 64 KiB a write.
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 16)
        try body(
          JSONStream { bytes in
            buffer.append(contentsOf: bytes)
            if buffer.count >= 1 << 16 {
              try buffer.withUnsafeBytes { try AtomicFile.writeAll(fd, $0, path: url.path) }
              buffer.removeAll(keepingCapacity: true)
            }
          })
        try buffer.withUnsafeBytes { try AtomicFile.writeAll(fd, $0, path: url.path) }
      }
      written.append(url.path)
      counter.add(1)
    }
    summary.files = written
    counter.finish()
    return summary
  }

  // MARK: Mapping

  /// A yarn as a WEFT material: `original_quantity` is what was bought (`Yarn.quantity`),
  /// `quantity` what is left (the remaining estimate, or the override) with, beside
  /// `original_quantity`, who made that figure in `yarn.remaining_source` (the stash CSV's
  /// Remaining Source), the put-up a pack's per-unit figures, the notes joined by a blank
  /// line; a status WEFT does not have (`will-trade`) is its nearest key with the status
  /// itself in `yarn.stash_status`.
  static func material(of yarn: Yarn, remaining: RemainingEstimate, notes: [String]?) -> WEFT.Material {
    var pack = WEFT.Pack()
    switch yarn.lengthPerSkein?.unit {
    case .meter?: pack.lengthPerUnitMeters = yarn.lengthPerSkein?.value
    case .yard?: pack.lengthPerUnitYards = yarn.lengthPerSkein?.value
    default: break
    }
    // WEFT gives a pack's weight per unit in grams or ounces only: kilograms and pounds are
    // written as those.
    switch yarn.netWeightPerSkein?.unit {
    case .gram?: pack.weightPerUnitGrams = yarn.netWeightPerSkein?.value
    case .kilogram?: pack.weightPerUnitGrams = yarn.netWeightPerSkein.map { $0.value * 1000 }
    case .ounce?: pack.weightPerUnitOunces = yarn.netWeightPerSkein?.value
    case .pound?: pack.weightPerUnitOunces = yarn.netWeightPerSkein.map { $0.value * 16 }
    default: break
    }
    let status = WEFTTaxonomy.key(of: yarn.status)
    let block = WEFT.YarnBlock(
      weightCategory: yarn.weight.map { WEFTTaxonomy.key(of: $0) },
      stashStatus: status == yarn.status.rawValue ? nil : yarn.status.rawValue,
      remainingSource: yarn.quantity == nil ? nil : remaining.source.rawValue)
    return WEFT.Material(
      id: yarn.id, name: yarn.name, materialType: "yarn", status: status,
      quantity: remaining.remaining.map(quantity), originalQuantity: yarn.quantity.map(quantity),
      packs: pack == WEFT.Pack() ? nil : [pack], fiberContent: yarn.fiber.map(fiberContent),
      colorFamily: yarn.colorFamily, colorway: yarn.colorway, dyeLot: yarn.dyeLot, brand: yarn.brand,
      notes: notes.map { $0.joined(separator: "\n\n") }, acquiredDate: yarn.dateAdded?.iso8601,
      acquiredFrom: yarn.purchaseLocation, acquiredPrice: yarn.price.map(money), location: yarn.storedIn,
      tags: yarn.tags.isEmpty ? nil : yarn.tags,
      yarn: block == WEFT.YarnBlock() ? nil : block)
  }

  /// A price as WEFT money: the amount as a number (`2999` cents of USD are `29.99`).
  static func money(_ price: Price) -> WEFT.Money {
    var scale = 1.0
    for _ in 0..<Price.decimals(of: price.currency) { scale *= 10 }
    return WEFT.Money(amount: Double(price.minorUnits) / scale, currency: price.currency)
  }

  /// A gauge as WEFT's: the counts over `10cm` or `4in` (and `gauge_divisor`, the inches, when
  /// a whole number of inches).
  static func gauge(_ gauge: Gauge) -> WEFT.Gauge {
    let whole = gauge.length == gauge.length.rounded() && abs(gauge.length) < 1e15
    let length = whole ? String(Int64(gauge.length)) : "\(gauge.length)"
    return WEFT.Gauge(
      stitchesPerUnit: gauge.stitches, rowsPerUnit: gauge.rows, unit: length + gauge.unit.rawValue,
      gaugeDivisor: gauge.unit == .inch && whole ? Int(gauge.length) : nil)
  }

  /// An amount as a WEFT quantity, in its own unit: skeins as `units_count` with
  /// `unit_label` `skein`; kilograms and pounds as `units_count` with `unit_label` `kg` or
  /// `pound` (unit.yaml's keys), with the total in grams or ounces beside them; grams,
  /// ounces, meters or yards as the total of that unit.
  static func quantity(_ amount: Amount) -> WEFT.Quantity {
    var out = WEFT.Quantity()
    switch amount.unit {
    case .skein:
      out.unitsCount = amount.value
      out.unitLabel = "skein"
    case .kilogram:
      out.unitsCount = amount.value
      out.unitLabel = "kg"
      out.weightGrams = amount.value * 1000
    case .pound:
      out.unitsCount = amount.value
      out.unitLabel = "pound"
      out.weightOunces = amount.value * 16
    case .gram: out.weightGrams = amount.value
    case .ounce: out.weightOunces = amount.value
    case .meter: out.lengthMeters = amount.value
    case .yard: out.lengthYards = amount.value
    }
    return out
  }

  /// The fiber text as WEFT fiber content: `80% merino, 20% nylon` as two fibers with their
  /// percentages when the text is exactly that list (`fiberText(_:)` gives it back), else
  /// one fiber named by the whole text.
  static func fiberContent(_ text: String) -> [WEFT.FiberContent] {
    let parts = text.components(separatedBy: ", ").map { part -> WEFT.FiberContent in
      guard let percent = part.firstIndex(of: "%"), part[part.index(after: percent)...].hasPrefix(" "),
        let value = Double(part[..<percent]), WEFTImport.fiberPercentages.contains(value)
      else { return WEFT.FiberContent(fiber: part, percentage: nil) }
      return WEFT.FiberContent(fiber: String(part[part.index(percent, offsetBy: 2)...]), percentage: value)
    }
    if parts.allSatisfy({ $0.percentage != nil && !($0.fiber ?? "").isEmpty }),
      WEFTImport.fiberText(parts) == text
    {
      return parts
    }
    return [WEFT.FiberContent(fiber: text, percentage: nil)]
  }

  /// A project as a WEFT project: its usages name their yarns by ID (`material_id`) with the
  /// yarn's name, brand, colorway and weight inline; a project without a craft is `other`
  /// (WEFT requires one); the notes are joined by a blank line.
  static func project(of project: Project, yarns: [String: WEFT.Material], tools: [Tool], notes: [String]?)
    -> WEFT.Project
  {
    let used = project.usages.map { usage in
      let yarn = yarns[usage.yarnID]
      return WEFT.MaterialUsed(
        materialId: usage.yarnID, name: yarn?.name, brand: yarn?.brand, colorway: yarn?.colorway,
        weightCategory: yarn?.yarn?.weightCategory,
        quantityUsed: WEFT.QuantityUsed(
          value: usage.amount.value, unit: WEFTTaxonomy.key(of: usage.amount.unit)))
    }
    let pattern = project.pattern.flatMap { pattern in
      pattern.name == nil && pattern.url == nil ? nil : WEFT.PatternRef(name: pattern.name, url: pattern.url)
    }
    return WEFT.Project(
      id: project.id, name: project.name, craft: (project.craft ?? .other).rawValue,
      status: project.status.rawValue, startedAt: project.started?.iso8601,
      completedAt: project.finished?.iso8601, patternRef: pattern,
      materialsUsed: used.isEmpty ? nil : used, notes: notes.map { $0.joined(separator: "\n\n") },
      sizeMade: project.sizeMade, madeFor: project.madeFor, gauge: project.gauge.map(gauge),
      tags: project.tags.isEmpty ? nil : project.tags,
      toolsUsed: tools.isEmpty
        ? nil
        : tools.map {
          WEFT.ToolRef(
            toolId: $0.id, description: $0.name, sizeMm: $0.size?.millimetres, toolType: toolType($0.kind))
        },
      ext: project.needleSizes.map { sizes in
        let mm = sizes.map(\.millimetres)
        return project.craft == .crochet
          ? WEFT.ProjectExt(crochet: WEFT.CraftSizes(hookSizesMm: mm))
          : WEFT.ProjectExt(knitting: WEFT.CraftSizes(needleSizesMm: mm))
      })
  }

  /// WEFT's `tool_type` of a kind: its own name, `crochet-hook` for a hook.
  static func toolType(_ kind: ToolKind) -> String { kind == .hook ? "crochet-hook" : kind.rawValue }

  /// A tool as WEFT's: category `hook` or `needle`, its size in mm (and its US needle size or
  /// hook name when the tables have one), length, material, count and projects.
  static func tool(_ tool: Tool) -> WEFT.Tool {
    WEFT.Tool(
      id: tool.id, category: tool.kind == .hook ? "hook" : "needle", toolType: toolType(tool.kind),
      name: tool.name,
      material: tool.material, metricSizeMm: tool.size?.millimetres,
      usSize: tool.kind == .hook ? nil : tool.size?.usNeedle,
      hookSize: tool.kind == .hook ? tool.size?.hook : nil,
      lengthCm: tool.lengthCentimetres, quantity: tool.count,
      projectAssignments: tool.projectIDs.isEmpty ? nil : tool.projectIDs)
  }
}

/// Thrown by `WEFTExport.write(from:to:force:now:app:)`.
public enum WEFTExportError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A file the export writes is already there (give `force` to replace it).
  case exists(path: String)

  /// `DIR/material.weft exists; nothing was written`.
  public var description: String {
    switch self {
    case .exists(let path): "\(LineText.visible(path)) exists; nothing was written"
    }
  }
}
