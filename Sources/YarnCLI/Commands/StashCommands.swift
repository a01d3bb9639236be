import YarnCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `yarn stash`: the yarns.
struct StashCommand: CommandGroup {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "stash",
      abstract: "Add, list, match, show, edit, remove, export and import stash yarns.",
      subcommands: [
        StashAdd.self, StashList.self, StashMatchCommand.self, StashShow.self, StashEdit.self,
        StashRemove.self, StashAttach.self, StashDetach.self, StashExport.self, StashImport.self,
      ])
  }
}

/// The fields a user sets with `stash add` and `stash edit`. For each one, `nil` means "not
/// given"; in `edit`, an empty value (`--brand ""`) clears the field (`.some(nil)`).
struct YarnFields {
  static let options: [OptionSpec] =
    [
      .value("brand", "text", "The maker, such as \"Cascade Yarns\"."),
      .value("colorway", "text", "The maker's name for the color."),
      .value("color-family", "text", "A broad color family for sorting, such as red."),
      .value("dye-lot", "text", "The dye lot printed on the ball band."),
      .value(
        "weight", "weight",
        "The yarn weight: 0-7, lace, fingering, sport, DK, worsted, aran, bulky, ... or '8 ply'.",
        completion: .yarnWeights),
      .value("fiber", "text", "The fiber content, such as \"100% wool\"."),
      .value("length-per-skein", "length", "The length of one skein, such as 220yd or 200m."),
      .value("net-weight-per-skein", "weight", "The net weight of one skein, such as 100g or 3.5oz."),
      .value("quantity", "amount", "How much you have, such as \"3 skeins\", 250g, 8oz, 600yd, 550m."),
      .value("remaining", "amount", "What is left, overriding the estimate."),
      .value("location", "text", "Where it was bought."),
      .value("added", "date", "The day it was added: YYYY-MM-DD, today or yesterday."),
      .value(
        "status", "status",
        "Where it stands: in-stash (default), allocated, in-use, will-trade (still in the stash); "
          + "used-up, gifted, sold, returned, frogged, other.",
        completion: .cases(of: StashStatus.self)),
      .value(
        "stashed", "yes|no",
        "The older form of --status: yes keeps a status still in the stash and makes any other "
          + "in-stash; no keeps a status that is not and makes any other used-up.",
        completion: .choices(["yes", "no"])),
      .value(
        "price", "price", "What you paid, with its ISO 4217 currency: \"29.00 USD\", \"1500 JPY\", 29EUR."),
      .value("stored-in", "text", "Where it is kept, such as \"blue bin, closet\"."),
    ] + TagOptions.options

  var brand: String??
  var colorway: String??
  var colorFamily: String??
  var dyeLot: String??
  var weight: YarnWeight??
  var fiber: String??
  var lengthPerSkein: Amount??
  var netWeightPerSkein: Amount??
  var quantity: Amount??
  var remaining: Amount??
  var location: String??
  var added: CalendarDate??
  var status: StashStatus?
  /// `--stashed yes|no`, the older form of `--status` (`StashStatus.settingStashed`).
  var stashed: Bool?
  var price: Price??
  var storedIn: String??
  var tags: TagOptions

  init(_ values: ParsedValues) throws {
    brand = try values.singleLine("brand")
    colorway = try values.singleLine("colorway")
    colorFamily = try values.singleLine("color-family")
    dyeLot = try values.singleLine("dye-lot")
    fiber = try values.singleLine("fiber")
    location = try values.singleLine("location")
    weight = try values.clearing("weight") { try values.yarnWeight($0) }
    lengthPerSkein = try values.clearing("length-per-skein") { try values.length($0) }
    netWeightPerSkein = try values.clearing("net-weight-per-skein") {
      try values.mass($0)
    }
    quantity = try values.clearing("quantity") { try values.amount($0) }
    remaining = try values.clearing("remaining") { try values.amount($0) }
    added = try values.clearing("added") { try values.date($0) }
    let stashed = try values.typed("stashed", expected: "yes or no") { text in
      switch text.trimmingSpaces().lowercased() {
      case "yes", "true": true
      case "no", "false": false
      default: nil
      }
    }
    status = try values.stashStatus("status")
    self.stashed = stashed
    if values.value("status") != nil, stashed != nil {
      throw CLIError.conflictingOptions(
        command: values.command, options: ["--status", "--stashed"],
        reason: "--stashed is the older yes/no form of --status")
    }
    price = try values.clearing("price") { try values.price($0) }
    storedIn = try values.singleLine("stored-in")
    tags = try TagOptions(values)
  }

  /// Sets every given field of `yarn`.
  func apply(to yarn: inout Yarn) {
    if let brand { yarn.brand = brand }
    if let colorway { yarn.colorway = colorway }
    if let colorFamily { yarn.colorFamily = colorFamily }
    if let dyeLot { yarn.dyeLot = dyeLot }
    if let weight { yarn.weight = weight }
    if let fiber { yarn.fiber = fiber }
    if let lengthPerSkein { yarn.lengthPerSkein = lengthPerSkein }
    if let netWeightPerSkein { yarn.netWeightPerSkein = netWeightPerSkein }
    if let quantity { yarn.quantity = quantity }
    if let remaining { yarn.remainingOverride = remaining }
    if let location { yarn.purchaseLocation = location }
    if let added { yarn.dateAdded = added }
    if let status { yarn.status = status }
    if let stashed { yarn.status = yarn.status.settingStashed(stashed) }
    if let price { yarn.price = price }
    if let storedIn { yarn.storedIn = storedIn }
    yarn.tags = tags.applied(to: yarn.tags)
  }
}

/// The names of the projects `estimate` could not count, by ID, for its messages (read by the
/// projects' IDs: only those projects are read).
private func unconvertedProjectNames(_ estimate: RemainingEstimate, in store: LibraryStore) throws
  -> [String: String]
{
  var names: [String: String] = [:]
  for usage in estimate.unconverted where names[usage.projectID] == nil {
    names[usage.projectID] = try store.projectName(id: usage.projectID)
  }
  return names
}

/// `yarn stash add NAME [options]`.
struct StashAdd: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "add", abstract: "Add a yarn to the stash.",
      discussion: """
        EXAMPLE:
          yarn stash add "Cascade 220" --brand "Cascade Yarns" --colorway Ruby --weight worsted \\
            --length-per-skein 220yd --net-weight-per-skein 100g --quantity "3 skeins"
        """,
      arguments: [.required("name", "The product name, such as \"Cascade 220\".")],
      options: YarnFields.options)
  }

  var name: String
  var fields: YarnFields

  init(from values: ParsedValues) throws {
    name = try values.nonEmptyName(values.requiredArgument("name"), label: "<name>")
    fields = try YarnFields(values)
  }

  func run(in context: Context) throws {
    var yarn = Yarn(id: Identifier.make(), name: name)
    fields.apply(to: &yarn)
    if yarn.dateAdded == nil { yarn.dateAdded = try context.today }
    let namesakes = try context.write { store in
      try store.insert(yarn)
      return try store.namesakes(of: yarn.name, kind: .yarn, besides: yarn.id)
    }
    if context.global.json {
      try context.printJSON(
        YarnJSON(yarn: yarn, remaining: Library().remaining(of: yarn), projectNames: [:]))
    }
    context.message("added yarn \(visible: yarn.name) (\(shownID(yarn.id)))")
    context.warnOfNamesakes(namesakes, kind: .yarn, name: yarn.name)
  }
}

/// `yarn stash list [filters] [--sort ORDER]`.
struct StashList: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "list", abstract: "List the stash with what is left of each yarn.",
      discussion: """
        Filters combine (a yarn is listed when it passes every one given); --json lists the
        same yarns in the same order. Text is compared case- and accent-insensitively:
        --search cafe finds "Café".
        --status: one stash status (in-stash, allocated, in-use, will-trade, used-up, gifted,
        sold, returned, frogged, other); --in-stash: any status still in the stash.
        --sort: name; added (oldest first, undated last); remaining (most left first: lengths,
        then weights without a length per skein, then bare skeins, unknown last); weight (CYC
        0 Lace to 7 Jumbo, unknown last). Ties go by name, then ID. Without --sort, the order
        the yarns were added in.

        EXAMPLE:
          yarn stash list --weight worsted --search merino --sort remaining
        """,
      options: [
        .flag("include-active", "Count the usages of projects in progress, not only finished ones."),
        .value(
          "status", "status", "Only yarns with this stash status (such as used-up).",
          completion: .cases(of: StashStatus.self)),
        .flag("in-stash", "Only yarns still in the stash: in-stash, allocated, in-use, will-trade."),
        .value("tag", "tag", "Only yarns with this tag (case and accents aside)."),
        .value(
          "weight", "weight", "Only yarns of this weight: 0-7, lace, fingering, DK, worsted, ...",
          completion: .yarnWeights),
        .value("brand", "text", "Only yarns whose brand contains this text."),
        .value(
          "search", "text", "Only yarns whose name, brand, colorway, fiber or notes contain this text."),
        .value(
          "sort", "order", "Sort by name, added, remaining or weight.",
          completion: .cases(of: YarnQuery.Sort.self)),
      ],
      aliases: ["ls"])
  }

  var includeActive: Bool
  var query: YarnQuery

  init(from values: ParsedValues) throws {
    includeActive = values.flag("include-active")
    if values.flag("in-stash"), values.value("status") != nil {
      throw CLIError.conflictingOptions(
        command: values.command, options: ["--in-stash", "--status"],
        reason: "--in-stash already names four statuses; give one of them with --status")
    }
    query = YarnQuery(
      status: try values.stashStatus("status"),
      inStash: values.flag("in-stash"),
      tag: try values.searchText("tag"),
      weight: try values.yarnWeight("weight"),
      brand: try values.searchText("brand"),
      search: try values.searchText("search"),
      sort: try values.choice("sort", YarnQuery.Sort.self))
  }

  func run(in context: Context) throws {
    // The yarns the query keeps are read one by one (`forEachYarn(matching:)`: filters are
    // SQL conditions); their counted usages come from one grouped query, and a project's
    // name is read only for a usage that could not be counted. JSON is printed yarn by yarn.
    if context.global.json {
      _ = try context.read { store in
        try context.printJSONArray { (print: (YarnJSON) throws -> Void) in
          try store.forEachYarn(matching: query, includeActive: includeActive) { yarn, estimate in
            try print(
              YarnJSON(
                yarn: yarn, remaining: estimate,
                projectNames: try unconvertedProjectNames(estimate, in: store)))
          }
        }
      }
      return
    }
    // The table reads the yarns twice (`printTable`): a pass to measure, a pass to print.
    let count = try context.read { store in
      try context.printTable(
        ["ID", "NAME", "COLORWAY", "WEIGHT", "QUANTITY", "REMAINING"], shrinkable: [1, 2, 3]
      ) { row in
        try store.forEachYarn(matching: query, includeActive: includeActive, includingPhotos: false) {
          yarn, estimate in
          row([
            shortID(yarn.id), yarn.name, yarn.colorway ?? "", yarn.weight?.label ?? "",
            yarn.quantity?.description ?? "-", Formatting.remainingCell(estimate),
          ])
        }
      }
    }
    if count == 0 {
      context.message(
        query == YarnQuery()
          ? "the stash is empty; add a yarn with '\(context.yarnCommand("stash add NAME"))'"
          : "no yarn matches")
    }
  }
}

/// `yarn stash match --length L | --mass M [--weight W] [--same-dye-lot]`.
struct StashMatchCommand: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "match", abstract: "Is there enough? The stash yarns with at least this much left.",
      discussion: """
        Looks at the yarns in the stash (--status in-stash) and converts what is left of each
        to the unit asked for through its put-up (3 skeins of 220 yd are 660 yd). Yarns with
        the same name, colorway and dye lot count together and are shown as one row. The yarns
        that have enough are listed first; apart, those where the answer is unknown, with the
        missing fact named (no length per skein, an incomplete estimate, ...). --json gives
        every yarn, with "enough": true, false or null.

        EXAMPLE:
          yarn stash match --length 1200yd --weight worsted
        """,
      options: [
        .value("length", "length", "The length needed, such as 1200yd or 1100m."),
        .value("mass", "weight", "The weight needed, such as 400g or 14oz."),
        .value(
          "weight", "weight", "Only yarns of this weight: 0-7, lace, fingering, DK, worsted, ...",
          completion: .yarnWeights),
        .flag("same-dye-lot", "All of it from one dye lot: a yarn without one is never sure to do."),
        .flag("include-active", "Count the usages of projects in progress, not only finished ones."),
      ])
  }

  var needed: Amount
  var weight: YarnWeight?
  var sameDyeLot: Bool
  var includeActive: Bool

  init(from values: ParsedValues) throws {
    let length = try values.length("length")
    let mass = try values.mass("mass")
    switch (length, mass) {
    case (let length?, nil): needed = length
    case (nil, let mass?): needed = mass
    default: throw CLIError.needsExactlyOne(command: values.command, options: ["--length", "--mass"])
    }
    weight = try values.yarnWeight("weight")
    sameDyeLot = values.flag("same-dye-lot")
    includeActive = values.flag("include-active")
  }

  func run(in context: Context) throws {
    // The yarns in the stash of the weight asked, by name (one filtered query), each with its
    // estimate; the rule is `StashMatch.entries`.
    var yarns: [(yarn: Yarn, estimate: RemainingEstimate)] = []
    try context.read { store in
      try store.forEachYarn(
        matching: YarnQuery(status: .inStash, weight: weight, sort: .name),
        includeActive: includeActive, includingPhotos: false
      ) { yarns.append(($0, $1)) }
    }
    let entries = StashMatch.entries(needing: needed, among: yarns, sameDyeLot: sameDyeLot)
    if context.global.json {
      try context.printJSON(entries.map(MatchJSON.init))
      return
    }
    let enough = entries.filter { $0.enough == true }
    let unknown = entries.filter { $0.enough == nil }
    // Counted as they would be listed: a yarn alone, or a group (QA: two groups of two and a
    // yarn were "3 yarns", then "5 other yarns" beside rows that count a group once).
    let short = entries.filter { $0.enough == false }
    let shortGroups = short.filter(\.isGroup).count
    let shortYarns = short.count - shortGroups
    func cells(_ entry: StashMatch.Entry) -> [String] {
      let first = entry.members[0].yarn
      return [
        entry.members.map { shortID($0.yarn.id) }.joined(separator: "+"),
        first.name + (entry.isGroup ? " (\(entry.members.count) together)" : ""),
        first.colorway ?? "", first.dyeLot ?? "", remainingCell(entry),
      ]
    }
    // An unknown answer's figure is an upper bound (an incomplete estimate, a yarn of no
    // known lot); an answer sure of enough without a whole figure shows what is certain.
    func remainingCell(_ entry: StashMatch.Entry) -> String {
      switch (entry.enough, entry.remaining) {
      case (nil, let remaining?): "at most \(shown(remaining))"
      case (_, let remaining?): shown(remaining)
      case (true, nil): "at least \(shown(entry.certain))"
      case (_, nil): "-"
      }
    }
    // Every figure listed reaches the need (within the comparison's tolerance), so its cell
    // never shows less: 2 decimals, as everywhere, unless they would show it under the need
    // (8.8141 oz under "Enough for 8.814 oz" as 8.81 oz); then as many decimals as the need
    // has (at most 15), never under the need itself (8.814 oz). A figure short of the need
    // within the comparison's tolerance is enough, as the need itself: it shows as the need.
    func shown(_ figure: Amount) -> String {
      guard let two = Double(Amount.format(figure.value)), two < needed.value else {
        return figure.description
      }
      let decimals = Rules.number(needed.value).split(separator: ".").dropFirst().first?.count ?? 0
      let scale = (0..<min(decimals, 15)).reduce(1.0) { power, _ in power * 10 }
      return Amount(max(needed.value, (figure.value * scale).rounded() / scale), figure.unit).exactDescription
    }
    // The need with every digit given: rounded (8.8185 oz as 8.82 oz) it could disagree with
    // the comparison, made with the need as given.
    let need = needed.exactDescription
    var text = ""
    if enough.isEmpty {
      text += "No yarn in the stash is sure to have \(need).\n"
    } else {
      text += "Enough for \(need):\n"
      var table = Table(["ID", "NAME", "COLORWAY", "DYE LOT", "REMAINING"], shrinkable: [1, 2, 3])
      for entry in enough { table.add(cells(entry)) }
      text += table.text(fitting: context.tableWidth)
    }
    if !unknown.isEmpty {
      text += "\nUnknown:\n"
      var table = Table(
        ["ID", "NAME", "COLORWAY", "DYE LOT", "REMAINING", "MISSING"], shrinkable: [1, 2, 3, 5])
      for entry in unknown {
        table.add(cells(entry) + [entry.missing.map(\.rawValue).joined(separator: ", ")])
      }
      text += table.text(fitting: context.tableWidth)
    }
    if !short.isEmpty {
      // "other" than the yarns listed as enough; with none, these are not others.
      let other = enough.isEmpty ? "" : "other "
      var counts: [String] = []
      if shortYarns > 0 { counts.append(Plural.count(shortYarns, other + "yarn")) }
      if shortGroups > 0 {
        counts.append(
          Plural.count(shortGroups, (counts.isEmpty ? other : "") + "group") + " of yarns")
      }
      text += "\n\(counts.joined(separator: " and ")) \(short.count == 1 ? "has" : "have") less.\n"
    }
    context.output.write(text)
  }
}

/// `yarn stash show YARN`.
struct StashShow: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "show",
      abstract: "Show a yarn: its facts, what is left in every unit, its usages and notes.",
      arguments: [.required("yarn", "The yarn: its name, ID or an ID prefix.")],
      options: [
        .flag("include-active", "Count the usages of projects in progress, not only finished ones.")
      ])
  }

  var reference: String
  var includeActive: Bool

  init(from values: ParsedValues) throws {
    reference = try values.reference("yarn")
    includeActive = values.flag("include-active")
  }

  func run(in context: Context) throws {
    // The yarn by its ID's index or among the names that may match
    // (`References.yarnID(_:in:)`), then its usages by the yarn's index with their projects'
    // names and statuses: nothing else of the library is read.
    let (yarn, uses, notes) = try context.read { store in
      let yarn = try References.yarn(reference, in: store)
      return (yarn, try store.uses(ofYarn: yarn.id), try store.notes(about: .yarn(yarn.id)))
    }
    let shown = YarnJSON(showing: yarn, uses: uses, notes: notes, includeActive: includeActive)
    if context.global.json {
      try context.printJSON(shown)
      return
    }
    let estimate = shown.remaining
    var putUp: String?
    switch (yarn.lengthPerSkein, yarn.netWeightPerSkein) {
    case (let length?, let mass?): putUp = "\(length) / \(mass) per skein"
    case (let length?, nil): putUp = "\(length) per skein"
    case (nil, let mass?): putUp = "\(mass) per skein"
    case (nil, nil): putUp = nil
    }
    var remaining = Formatting.remainingInAllUnits(estimate, putUp: yarn.putUp)
    if estimate.remaining != nil { remaining += " (\(estimate.source.rawValue))" }
    if let deficit = estimate.deficit, let unit = estimate.remaining?.unit {
      remaining += "\noverdrawn by \(Formatting.inAllUnits(Amount(deficit, unit), putUp: yarn.putUp))"
    }
    let usages = uses.map { "\($0.projectName) (\($0.projectStatus.rawValue)): \($0.amount)" }
    let unconverted = estimate.unconverted.map { usage in
      let facts = usage.missing.map { "the \($0)" }.joined(separator: " and ")
      return "\(shown.projectNames[usage.projectID] ?? usage.projectID): \(usage.amount), needs \(facts)"
    }
    let photos = yarn.photos.map {
      "\(Formatting.fileName($0)) (\($0.mediaType), \(Formatting.bytes($0.byteCount)))"
    }
    var text = Formatting.fields([
      ("Name", yarn.name),
      ("ID", yarn.id),
      ("Brand", yarn.brand),
      ("Colorway", yarn.colorway),
      ("Color family", yarn.colorFamily),
      ("Dye lot", yarn.dyeLot),
      ("Weight", yarn.weight?.label),
      ("Fiber", yarn.fiber),
      ("Put-up", putUp),
      ("Quantity", yarn.quantity?.description ?? "unknown"),
      ("Remaining", remaining),
      ("Not counted", unconverted.isEmpty ? nil : unconverted.joined(separator: "\n")),
      ("Used in", usages.isEmpty ? nil : usages.joined(separator: "\n")),
      ("Status", yarn.status.rawValue + (yarn.isHeld ? " (in the stash)" : "")),
      ("Price", yarn.price?.description),
      ("Bought at", yarn.purchaseLocation),
      ("Added", yarn.dateAdded?.iso8601),
      ("Stored in", yarn.storedIn),
      ("Tags", yarn.tags.isEmpty ? nil : Tags.cell(yarn.tags)),
      ("Photos", photos.isEmpty ? nil : photos.joined(separator: "\n")),
    ])
    text += Formatting.notes(notes)
    context.output.write(text)
  }
}

/// `yarn stash edit YARN [options]`.
struct StashEdit: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "edit", abstract: "Change a yarn's facts; an empty value (--brand \"\") clears one.",
      arguments: [.required("yarn", "The yarn: its name, ID or an ID prefix.")],
      options: [.value("name", "text", "A new name.")] + YarnFields.options)
  }

  var reference: String
  var newName: String?
  var fields: YarnFields

  init(from values: ParsedValues) throws {
    reference = try values.reference("yarn")
    newName = try values.value("name").map { try values.nonEmptyName($0, label: "--name") }
    fields = try YarnFields(values)
  }

  func run(in context: Context) throws {
    let (yarn, uses, changed, namesakes) = try context.write { store in
      var yarn = try References.yarn(reference, in: store)
      let before = yarn
      if let newName { yarn.name = newName }
      fields.apply(to: &yarn)
      try store.update(yarn)
      let namesakes =
        yarn.name == before.name ? [] : try store.namesakes(of: yarn.name, kind: .yarn, besides: yarn.id)
      return (yarn, try store.uses(ofYarn: yarn.id), yarn != before, namesakes)
    }
    if context.global.json {
      try context.printJSON(
        YarnJSON(
          yarn: yarn, remaining: RemainingEstimate(yarn: yarn, usages: uses.counted()),
          projectNames: Dictionary(
            uses.map { ($0.projectID, $0.projectName) }, uniquingKeysWith: { first, _ in first })))
    }
    // An edit that changes nothing is no change: say so, as `yarn undo` would pass over it.
    context.message(
      changed
        ? "updated yarn \(visible: yarn.name) (\(shownID(yarn.id)))"
        : "yarn \(visible: yarn.name) (\(shownID(yarn.id))) already had those values; nothing changed"
    )
    context.warnOfNamesakes(namesakes, kind: .yarn, name: yarn.name)
  }
}

/// `yarn stash rm YARN`.
struct StashRemove: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "rm", abstract: "Remove a yarn from the stash.",
      discussion: """
        A yarn with notes or photos, or one a project records a usage of, is removed only with
        --force, since they go with it (its usages too); the error lists them. Make a backup
        first ('yarn backup create') to keep them. --json prints the yarn removed as 'stash show --json' does.
        """,
      arguments: [.required("yarn", "The yarn: its name, ID or an ID prefix.")],
      options: [.flag("force", "Remove it even though its notes, photos and usages go with it.")],
      aliases: ["remove"])
  }

  var reference: String
  var force: Bool

  init(from values: ParsedValues) throws {
    reference = try values.reference("yarn")
    force = values.flag("force")
  }

  func run(in context: Context) throws {
    let (yarn, json, effects) = try context.write { store in
      let yarn = try References.yarn(reference, in: store)
      // All it had (its usages, notes): read before they go with it.
      let json =
        context.global.json
        ? YarnJSON(
          showing: yarn, uses: try store.uses(ofYarn: yarn.id), notes: try store.notes(about: .yarn(yarn.id)))
        : nil
      return (yarn, json, try store.deleteYarn(id: yarn.id, force: force))
    }
    if let json { try context.printJSON(json) }
    let with = effects.removals.isEmpty ? "" : " with " + effects.removalList
    context.message("removed yarn \(visible: yarn.name) (\(shownID(yarn.id)))\(with)")
  }
}

/// `yarn stash attach YARN FILE`.
struct StashAttach: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "attach", abstract: "Attach a photo to a yarn.",
      discussion: """
        A photo named .jpg, .jpeg, .png, .gif, .webp, .heic or .avif must begin as a file of
        that type does; a file of another name is attached unchecked.
        """,
      arguments: [
        .required("yarn", "The yarn: its name, ID or an ID prefix."),
        .required("file", "The photo (JPEG, PNG, HEIC, ...)."),
      ])
  }

  var reference: String
  var file: String

  init(from values: ParsedValues) throws {
    reference = try values.reference("yarn")
    file = try values.requiredArgument("file")
  }

  func run(in context: Context) throws {
    let url = try InputFile.existingFile(file)
    try InputFile.checkPhoto(url, named: file)
    let (yarn, attachment, already) = try context.write { store in
      var yarn = try References.yarn(reference, in: store)
      let attachment = try store.importAttachment(from: url)
      // The same bytes are one photo: attached again they add nothing.
      if let same = yarn.photos.first(where: { $0.sha256 == attachment.sha256 }) { return (yarn, same, true) }
      yarn.photos.append(attachment)
      try store.update(yarn)
      return (yarn, attachment, false)
    }
    if context.global.json { try context.printJSON(attachment) }
    context.message(
      already
        ? "yarn \(visible: yarn.name) already has this photo, as \(Formatting.fileName(attachment)); nothing changed"
        : "attached \(Formatting.fileName(attachment)) to yarn \(visible: yarn.name)")
  }
}

/// `yarn stash detach YARN NAME`.
struct StashDetach: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "detach", abstract: "Detach a photo from a yarn.",
      discussion: """
        NAME is the photo's whole file name (case aside) or a prefix of at least 4 characters
        of its SHA-256 (see 'stash show --json'). The file is deleted from the library once no
        yarn or project uses it. --json prints the attachment detached.
        """,
      arguments: [
        .required("yarn", "The yarn: its name, ID or an ID prefix."),
        .required("name", "The photo: its whole file name or a SHA-256 prefix."),
      ])
  }

  var reference: String
  var name: String

  init(from values: ParsedValues) throws {
    reference = try values.reference("yarn")
    name = try values.reference("name")
  }

  func run(in context: Context) throws {
    let (yarn, attachment) = try context.write { store in
      var yarn = try References.yarn(reference, in: store)
      let attachment = try References.attachment(name, in: yarn.photos)
      // One photo goes, the first of that name and bytes (the same file may be attached twice).
      if let index = yarn.photos.firstIndex(of: attachment) { yarn.photos.remove(at: index) }
      try store.update(yarn)
      return (yarn, attachment)
    }
    if context.global.json { try context.printJSON(attachment) }
    context.message("detached \(Formatting.fileName(attachment)) from yarn \(visible: yarn.name)")
  }
}

/// Checks on files named on the command line.
enum InputFile {
  /// Refuses a photo whose first bytes are not those of the image type its name's extension
  /// names (`Attachment.missingImageSignature(_:mediaType:fileSize:)`): a text or a web page
  /// saved as `x.png`. Other extensions are not checked (`Attachment.mediaType(forFileName:)`).
  ///
  /// - Parameters:
  ///   - url: the photo, an existing regular file.
  ///   - file: the path as given, for the message.
  /// - Throws: `CLIError.invalidData` (65) naming the file and the type; what `firstBytes`
  ///   throws; `CLIError.inputUnusable` when its size cannot be read.
  static func checkPhoto(_ url: URL, named file: String) throws(CLIError) {
    let bytes = try firstBytes(url, count: Attachment.imageSignatureWindow)
    var status = stat()
    guard stat(url.path, &status) == 0 else {
      throw .inputUnusable(path: url.path, reason: POSIX.errnoText())
    }
    let mediaType = Attachment.mediaType(forFileName: url.lastPathComponent)
    guard
      let mismatch = Attachment.missingImageSignature(
        bytes, mediaType: mediaType, fileSize: Int(status.st_size))
    else { return }
    // `an AVIF`, `a HEIC`, `a PNG`: the names are said as words or letters, AVIF alone with
    // a vowel first.
    func a(_ format: String) -> String { (format == "AVIF" ? "an " : "a ") + format }
    let format = mismatch.format
    if mismatch.largeFTYPSize {
      throw .invalidData(
        message:
          "\(visible: file) is refused as \(a(format)) image: its ftyp box has a 64-bit size (size 1), which yarn does not read",
        hint: "a photo app writes the box with a 32-bit size; save the photo again and attach that")
    }
    if let size = mismatch.longFTYPBoxSize {
      throw .invalidData(
        message:
          "\(visible: file) is refused as \(a(format)) image: its ftyp box is \(size) bytes long and names no \(format) brand within the file's first \(Attachment.imageSignatureWindow / 1024) KiB, past which yarn does not read",
        hint:
          "a photo app writes the box with a few brands, in under 100 bytes; save the photo again and attach that"
      )
    }
    if let actual = mismatch.actual {
      throw .invalidData(
        message: "\(visible: file) is not \(a(format)) image: it is \(a(actual)) image",
        hint: "\(a(actual)) photo needs the extension .\(actual.lowercased())")
    }
    throw .invalidData(
      message:
        "\(visible: file) is not \(a(format)) image: its first bytes are not those of \(a(format)) file",
      hint:
        "attach the photo itself; a photo of another type needs that type's extension (.jpg, .png, .heic, .avif, .gif or .webp)"
    )
  }

  /// Up to `count` first bytes of the regular file `url` (fewer when it is shorter).
  ///
  /// - Throws: `CLIError.inputUnusable` with the system's reason when it cannot be read.
  static func firstBytes(_ url: URL, count: Int) throws(CLIError) -> [UInt8] {
    let fd = POSIX.open(url.path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw .inputUnusable(path: url.path, reason: POSIX.errnoText()) }
    defer { _ = POSIX.close(fd) }
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
      let got = bytes.withUnsafeMutableBytes { raw in
        POSIX.read(fd, raw.baseAddress.map { $0 + filled }, count - filled)
      }
      if got < 0, errno == EINTR { continue }
      guard got >= 0 else { throw .inputUnusable(path: url.path, reason: POSIX.errnoText()) }
      if got == 0 { break }
      filled += got
    }
    return Array(bytes.prefix(filled))
  }

  /// The URL of `path`, which must be an existing, readable regular file (not a directory, a
  /// FIFO that would block, or a device).
  ///
  /// - Throws: `CLIError.inputMissing` when it cannot be looked up (no such file, a loop of
  ///   links), with the system's reason; `CLIError.inputUnusable`
  ///   when it is a directory, not a regular file, or not readable.
  static func existingFile(_ path: String) throws(CLIError) -> URL {
    var status = stat()
    guard stat(path, &status) == 0 else { throw .inputMissing(path: path, reason: POSIX.errnoText()) }
    switch status.st_mode & S_IFMT {
    case S_IFREG: break
    case S_IFDIR: throw .inputUnusable(path: path, reason: "it is a directory, not a file")
    default: throw .inputUnusable(path: path, reason: "it is not a regular file")
    }
    guard FileManager.default.isReadableFile(atPath: path) else {
      throw .inputUnusable(path: path, reason: "permission denied")
    }
    return URL(fileURLWithPath: path)
  }

  /// Whether `path` names a directory (or a symbolic link to one).
  static func isDirectory(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
  }

  /// The URL of `path`, which must exist and be a regular file or a directory (a FIFO would
  /// block and a device is no backup).
  ///
  /// - Throws: `CLIError.inputMissing` when it cannot be looked up (no such item, a loop of
  ///   links), with the system's reason; `CLIError.inputUnusable`
  ///   when it is neither a regular file nor a directory, or cannot be read.
  static func existingItem(_ path: String) throws(CLIError) -> URL {
    var status = stat()
    guard stat(path, &status) == 0 else { throw .inputMissing(path: path, reason: POSIX.errnoText()) }
    switch status.st_mode & S_IFMT {
    case S_IFREG:
      guard access(path, R_OK) == 0 else { throw .inputUnusable(path: path, reason: "permission denied") }
    case S_IFDIR:
      guard access(path, R_OK | X_OK) == 0 else {
        throw .inputUnusable(path: path, reason: "permission denied")
      }
    default: throw .inputUnusable(path: path, reason: "it is not a regular file or a directory")
    }
    return URL(fileURLWithPath: path)
  }
}
