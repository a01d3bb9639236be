import YarnCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `yarn project`: projects and the yarn they use.
struct ProjectCommand: CommandGroup {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "project",
      abstract: "Add, list, show, edit, finish, remove and export projects; record yarn used.",
      subcommands: [
        ProjectAdd.self, ProjectList.self, ProjectShow.self, ProjectEdit.self, ProjectRemove.self,
        ProjectFinish.self, ProjectUse.self, ProjectUnuse.self, ProjectAttach.self,
        ProjectDetach.self, ProjectExport.self,
      ])
  }
}

/// The fields set by `project add` and `project edit`; `nil` is "not given", `.some(nil)`
/// (an empty value) clears the field in `edit`.
struct ProjectFields {
  static let options: [OptionSpec] = [
    .value(
      "craft", "craft", "knitting, crochet, weaving, spinning, embroidery or other.",
      completion: .cases(of: Craft.self)),
    .value(
      "status", "status", "planned, in-progress, finished, frogged or hibernating.",
      completion: .cases(of: ProjectStatus.self)),
    .value("pattern", "name", "The pattern's name."),
    .value("pattern-url", "url", "Where the pattern is published."),
    .value("started", "date", "The day work began: YYYY-MM-DD, today or yesterday."),
  ]

  var craft: Craft??
  var status: ProjectStatus?
  var patternName: String??
  var patternURL: String??
  var started: CalendarDate??
  var finished: CalendarDate??

  init(_ values: ParsedValues) throws {
    craft = try values.clearing("craft") { try values.craft($0) }
    status = try values.status("status")
    patternName = try values.singleLine("pattern")
    patternURL = try values.singleLine("pattern-url", limit: Rules.maximumURLLength)
    started = try values.clearing("started") { try values.date($0) }
    finished = try values.clearing("finished") { try values.date($0) }
    // A finished day makes a project finished, or is the day a frogged one was frogged: with
    // another status it is refused.
    if case .some(.some) = finished, let status, status != .finished, status != .frogged {
      throw CLIError.optionDoesNotApply(
        command: values.command, option: "--finished",
        reason: "a project that is \(status.rawValue) has no finished day")
    }
  }

  /// Sets every given field; a status through `Project.setStatus`, so that the finished day
  /// follows it (today, when it becomes finished without `--finished`).
  func apply(to project: inout Project, today: CalendarDate) {
    if let craft { project.craft = craft }
    if let status { project.setStatus(status, today: today) }
    if patternName != nil || patternURL != nil {
      var pattern = project.pattern ?? Pattern()
      if let patternName { pattern.name = patternName }
      if let patternURL { pattern.url = patternURL }
      project.pattern =
        pattern.name == nil && pattern.url == nil && pattern.pdf == nil ? nil : pattern
    }
    if let started { project.started = started }
    if let finished {
      // A day finishes the project, unless it is frogged: then it is the day it was frogged.
      if let day = finished, project.status != .finished, project.status != .frogged {
        project.setStatus(.finished, today: day)
      }
      project.finished = finished
    }
  }
}

extension Context {
  /// The project as `--json` prints it (`ProjectJSON`, with the seconds logged on it), read
  /// in the command's transaction; `nil` without `--json`.
  func projectJSON(_ project: Project, in store: LibraryStore) throws -> ProjectJSON? {
    global.json ? try ProjectJSON(project: project, in: store, now: now) : nil
  }
}

/// `yarn project add NAME [options]`.
struct ProjectAdd: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "add", abstract: "Add a project.",
      discussion: """
        EXAMPLE:
          yarn project add "Flax" --craft knitting --status in-progress --pattern "Flax" \\
            --started 2026-01-10
        """,
      arguments: [.required("name", "The project's name.")],
      options: ProjectFields.options + ProjectNeedleFields.options + ProjectDetailFields.options)
  }

  var name: String
  var fields: ProjectFields
  var needleFields: ProjectNeedleFields
  var details: ProjectDetailFields

  init(from values: ParsedValues) throws {
    name = try values.nonEmptyName(values.requiredArgument("name"), label: "<name>")
    fields = try ProjectFields(values)
    needleFields = try ProjectNeedleFields(values)
    details = try ProjectDetailFields(values)
  }

  func run(in context: Context) throws {
    var project = Project(id: Identifier.make(), name: name)
    fields.apply(to: &project, today: try context.today)
    needleFields.apply(to: &project)
    details.apply(to: &project)
    let (json, namesakes) = try context.write { store in
      try store.insert(project)
      _ = try needleFields.link(projectID: project.id, in: store)
      return (
        try context.projectJSON(project, in: store),
        try store.namesakes(of: project.name, kind: .project, besides: project.id)
      )
    }
    if let json { try context.printJSON(json) }
    context.message("added project \(visible: project.name) (\(shownID(project.id)))")
    context.warnOfNamesakes(namesakes, kind: .project, name: project.name)
  }
}

/// `yarn project list [filters] [--sort ORDER]`.
struct ProjectList: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "list", abstract: "List projects with their status and time logged.",
      discussion: """
        Filters combine; --json lists the same projects in the same order. --search compares
        case- and accent-insensitively. --sort: name; started or finished (earliest first,
        projects without the day last). Ties go by name, then ID. Without --sort, the order
        the projects were added in.
        """,
      options: [
        .value(
          "status", "status", "Only projects with this status.",
          completion: .cases(of: ProjectStatus.self)),
        .value("craft", "craft", "Only projects of this craft.", completion: .cases(of: Craft.self)),
        .value("tag", "tag", "Only projects with this tag (case and accents aside)."),
        .value("search", "text", "Only projects whose name, pattern name or notes contain this text."),
        .value(
          "sort", "order", "Sort by name, started or finished.",
          completion: .cases(of: ProjectQuery.Sort.self)),
      ],
      aliases: ["ls"])
  }

  var query: ProjectQuery

  init(from values: ParsedValues) throws {
    query = ProjectQuery(
      status: try values.status("status"), craft: try values.craft("craft"),
      search: try values.searchText("search"), tag: try values.searchText("tag"),
      sort: try values.choice("sort", ProjectQuery.Sort.self))
  }

  func run(in context: Context) throws {
    // The projects the query keeps, one by one (`forEachProject(matching:)`: filters are SQL
    // conditions), with the time of every project from one grouped query.
    let now = context.now
    if context.global.json {
      try context.read { store in
        let seconds = try store.loggedSecondsByProject(countingRunningUntil: now)
        try context.printJSONArray { (print: (ProjectJSON) throws -> Void) in
          try store.forEachProject(matching: query) {
            try print(ProjectJSON(project: $0, seconds: seconds[$0.id] ?? 0))
          }
        }
      }
      return
    }
    // The table reads the projects twice (`printTable`): a pass to measure, a pass to print.
    let count = try context.read { store in
      let seconds = try store.loggedSecondsByProject(countingRunningUntil: now)
      return try context.printTable(
        ["ID", "NAME", "CRAFT", "STATUS", "STARTED", "FINISHED", "TIME"], shrinkable: [1]
      ) { row in
        try store.forEachProject(matching: query) { project in
          row([
            shortID(project.id), project.name, project.craft?.rawValue ?? "", project.status.rawValue,
            project.started?.iso8601 ?? "", project.finished?.iso8601 ?? "",
            Formatting.duration(seconds[project.id] ?? 0),
          ])
        }
      }
    }
    if count == 0 {
      context.message(
        query == ProjectQuery()
          ? "no projects yet; add one with '\(context.yarnCommand("project add NAME"))'"
          : "no project matches")
    }
  }
}

/// `yarn project show PROJECT`.
struct ProjectShow: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "show", abstract: "Show a project: its facts, yarns used, photos, notes and time.",
      arguments: [.required("project", "The project: its name, ID or an ID prefix.")])
  }

  var reference: String

  init(from values: ParsedValues) throws {
    reference = try values.reference("project")
  }

  func run(in context: Context) throws {
    // The project by its ID's index or among the names that may match
    // (`References.projectID(_:in:)`), and the names of just the yarns it uses.
    if context.global.json {
      let json = try context.read { store in
        try ProjectJSON(
          showing: try References.project(reference, in: store), in: store, now: context.now)
      }
      try context.printJSON(json)
      return
    }
    let (project, yarnNames, notes, sessions, tools) = try context.read { store in
      let project = try References.project(reference, in: store)
      var yarnNames: [String: String] = [:]
      for usage in project.usages where yarnNames[usage.yarnID] == nil {
        yarnNames[usage.yarnID] = try store.yarnName(id: usage.yarnID)
      }
      return (
        project, yarnNames, try store.notes(about: .project(project.id)),
        try store.sessions(projectID: project.id), try store.tools(ofProject: project.id)
      )
    }
    let seconds = sessions.reduce(Int64(0)) { $0 + $1.seconds(now: context.now) }
    let usages = project.usages.map { "\(yarnNames[$0.yarnID] ?? $0.yarnID): \($0.amount)" }
    var pattern: [String] = []
    if let name = project.pattern?.name { pattern.append(name) }
    if let url = project.pattern?.url { pattern.append(url) }
    if let pdf = project.pattern?.pdf {
      pattern.append("\(Formatting.fileName(pdf)) (\(Formatting.bytes(pdf.byteCount)))")
    }
    let photos = project.photos.map {
      "\(Formatting.fileName($0)) (\($0.mediaType), \(Formatting.bytes($0.byteCount)))"
    }
    let running = sessions.first { $0.isRunning }
    var time = "\(Formatting.duration(seconds)) in \(Plural.count(sessions.count, "session"))"
    if let running { time += " (running since \(Formatting.localTime(running.start)))" }
    let needles = ProjectNeedleFields.shown(project, tools: tools)
    var text = Formatting.fields([
      ("Name", project.name),
      ("ID", project.id),
      ("Craft", project.craft?.rawValue),
      ("Status", project.status.rawValue),
      ("Pattern", pattern.isEmpty ? nil : pattern.joined(separator: "\n")),
      ("Started", project.started?.iso8601),
      ("Finished", project.finished?.iso8601),
      ("Gauge", project.gauge?.description),
      ("Size made", project.sizeMade),
      ("Made for", project.madeFor),
      ("Tags", project.tags.isEmpty ? nil : Tags.cell(project.tags)),
      ("Yarn used", usages.isEmpty ? nil : usages.joined(separator: "\n")),
      ("Needles", needles.needles),
      ("Tools", needles.tools),
      ("Photos", photos.isEmpty ? nil : photos.joined(separator: "\n")),
      ("Time", time),
    ])
    text += Formatting.notes(notes)
    context.output.write(text)
  }
}

/// `yarn project edit PROJECT [options]`.
struct ProjectEdit: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "edit", abstract: "Change a project's facts; an empty value (--pattern \"\") clears one.",
      arguments: [.required("project", "The project: its name, ID or an ID prefix.")],
      options: [.value("name", "text", "A new name.")] + ProjectFields.options + [
        .value("finished", "date", "The day it was finished: YYYY-MM-DD, today or yesterday.")
      ] + ProjectNeedleFields.editOptions + ProjectDetailFields.options)
  }

  var reference: String
  var newName: String?
  var fields: ProjectFields
  var needleFields: ProjectNeedleFields
  var details: ProjectDetailFields

  init(from values: ParsedValues) throws {
    reference = try values.reference("project")
    newName = try values.value("name").map { try values.nonEmptyName($0, label: "--name") }
    fields = try ProjectFields(values)
    needleFields = try ProjectNeedleFields(values)
    details = try ProjectDetailFields(values)
  }

  func run(in context: Context) throws {
    let (before, project, changed, json, namesakes) = try context.write { store in
      var project = try References.project(reference, in: store)
      let before = project
      if let newName { project.name = newName }
      fields.apply(to: &project, today: try context.today)
      needleFields.apply(to: &project)
      details.apply(to: &project)
      try store.update(project)
      let toolsChanged = try needleFields.link(projectID: project.id, in: store)
      let namesakes =
        project.name == before.name
        ? [] : try store.namesakes(of: project.name, kind: .project, besides: project.id)
      return (
        before, project, project != before || toolsChanged, try context.projectJSON(project, in: store),
        namesakes
      )
    }
    if let json { try context.printJSON(json) }
    // An edit that changes nothing is no change: say so, as `yarn undo` would pass over it.
    context.message(
      changed
        ? "updated project \(visible: project.name) (\(shownID(project.id)))"
        : "project \(visible: project.name) (\(shownID(project.id))) already had those values; nothing changed"
    )
    // Leaving `finished` (or `frogged`) clears the day by the rule of status and days, a
    // frogged project finished takes today, a day given replaces one: say which day went.
    if let went = project.finishedDayChange(from: before) {
      context.message(went + " ('\(context.yarnCommand("undo"))' gives it back)")
    }
    context.warnOfNamesakes(namesakes, kind: .project, name: project.name)
  }
}

/// `yarn project rm PROJECT`.
struct ProjectRemove: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "rm", abstract: "Remove a project.",
      discussion: """
        A project with notes, photos, a pattern PDF, time sessions, yarn usages, tools or
        needle sizes is removed only with --force, since they go with it (the yarns and tools
        stay, without it); so is a finished one, since what it used of the stash then stops
        counting against it. The error lists them, and the message what went; 'yarn undo'
        right after a removal gives them back. --json prints the project removed, as 'project
        show --json' does.
        """,
      arguments: [.required("project", "The project: its name, ID or an ID prefix.")],
      options: [.flag("force", "Remove it even though what is listed goes with it.")],
      aliases: ["remove"])
  }

  var reference: String
  var force: Bool

  init(from values: ParsedValues) throws {
    reference = try values.reference("project")
    force = values.flag("force")
  }

  func run(in context: Context) throws {
    let (project, json, effects) = try context.write { store in
      let project = try References.project(reference, in: store)
      // All it had (its seconds, notes, tools): read before they go with it.
      let json =
        context.global.json ? try ProjectJSON(showing: project, in: store, now: context.now) : nil
      return (project, json, try store.deleteProject(id: project.id, force: force))
    }
    if let json { try context.printJSON(json) }
    let with = effects.removals.isEmpty ? "" : " with " + effects.removalList
    let back =
      effects.yarnsGivenBack.isEmpty
      ? ""
      : "; what it used of " + effects.yarnsGivenBack.map { "\(quoted: $0)" }.joined(separator: ", ")
        + " is back in the stash"
    context.message(
      "removed project \(visible: project.name) (\(shownID(project.id)))\(with)\(back)")
  }
}

/// `yarn project finish PROJECT [--on DATE]`.
struct ProjectFinish: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "finish",
      abstract: "Mark a project finished; its yarn usages then count against the stash.",
      arguments: [.required("project", "The project: its name, ID or an ID prefix.")],
      options: [.value("on", "date", "The day it was finished (default: today).")])
  }

  var reference: String
  var day: CalendarDate?

  init(from values: ParsedValues) throws {
    reference = try values.reference("project")
    day = try values.date("on")
  }

  func run(in context: Context) throws {
    let finished = try day ?? context.today
    let (before, project, json) = try context.write { store in
      var project = try References.project(reference, in: store)
      let before = project
      project.status = .finished
      project.finished = finished
      // The same values are no change (`update` then records none to undo).
      try store.update(project)
      return (before, project, try context.projectJSON(project, in: store))
    }
    if let json { try context.printJSON(json) }
    guard project != before else {
      context.message(
        "project \(visible: project.name) was already finished on \(finished); nothing changed")
      return
    }
    context.message("finished project \(visible: project.name) on \(finished)")
    // A finished project's day, or the day a frogged one was frogged, is replaced: as in edit.
    if let went = project.finishedDayChange(from: before) {
      context.message(went + " ('\(context.yarnCommand("undo"))' gives it back)")
    }
  }
}

/// `yarn project use PROJECT YARN AMOUNT`.
struct ProjectUse: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "use", abstract: "Record an amount of a stash yarn used in a project.",
      discussion: """
        The amount may be in any unit (skeins, g, kg, oz, lb, yd, m); the remaining estimate converts
        it with the yarn's put-up. Usages count against the stash once the project is finished.
        Each use adds to what the project records of the yarn; --set replaces it instead
        (to correct a mistake), and 'yarn project unuse' removes it.

        EXAMPLE:
          yarn project use Flax "Cascade 220" "1.5 skeins"
        """,
      arguments: [
        .required("project", "The project: its name, ID or an ID prefix."),
        .required("yarn", "The yarn: its name, ID or an ID prefix."),
        .required("amount", "How much, such as \"1.5 skeins\", 120g or 300yd."),
      ],
      options: [.flag("set", "Replace what the project records of the yarn with AMOUNT.")])
  }

  var projectReference: String
  var yarnReference: String
  var amount: Amount
  var replacing: Bool

  init(from values: ParsedValues) throws {
    projectReference = try values.reference("project")
    yarnReference = try values.reference("yarn")
    amount = try values.typedArgument("amount", expected: "an amount such as '3 skeins'") {
      try Amount(parsing: $0)
    }
    replacing = values.flag("set")
  }

  func run(in context: Context) throws {
    let (project, yarn, json) = try context.write { store in
      var project = try References.project(projectReference, in: store)
      let yarn = try References.yarn(yarnReference, in: store)
      if replacing {
        project.setUsage(of: yarn.id, to: amount)
      } else {
        project.addUsage(of: yarn.id, amount)
      }
      try store.update(project)
      return (project, yarn, try context.projectJSON(project, in: store))
    }
    if let json { try context.printJSON(json) }
    context.message(
      replacing
        ? "\(visible: project.name) now records \(amount) of \(visible: yarn.name)"
        : "recorded \(amount) of \(visible: yarn.name) in \(visible: project.name)")
  }
}

/// `yarn project unuse PROJECT YARN`.
struct ProjectUnuse: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "unuse", abstract: "Remove what a project records of a yarn's use.",
      discussion: "--json prints the project as it is afterwards.",
      arguments: [
        .required("project", "The project: its name, ID or an ID prefix."),
        .required("yarn", "The yarn: its name, ID or an ID prefix."),
      ])
  }

  var projectReference: String
  var yarnReference: String

  init(from values: ParsedValues) throws {
    projectReference = try values.reference("project")
    yarnReference = try values.reference("yarn")
  }

  func run(in context: Context) throws {
    let (project, yarn, removed, json) = try context.write { store in
      var project = try References.project(projectReference, in: store)
      let yarn = try References.yarn(yarnReference, in: store)
      let removed = project.removeUsages(of: yarn.id)
      guard !removed.isEmpty else {
        throw CLIError.invalidData(
          message: "'\(visible: project.name)' records no use of \(visible: yarn.name)",
          hint: "see '\(context.yarnCommand("project show " + Context.hintQuoted(project.name)))'")
      }
      try store.update(project)
      return (project, yarn, removed, try context.projectJSON(project, in: store))
    }
    if let json { try context.printJSON(json) }
    let amounts = removed.map(\.amount.description).joined(separator: ", ")
    context.message(
      "removed \(amounts) of \(visible: yarn.name) from \(visible: project.name)")
  }
}

/// `yarn project attach PROJECT FILE [--pattern]`.
struct ProjectAttach: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "attach", abstract: "Attach a photo to a project, or its pattern PDF with --pattern.",
      discussion: """
        A photo named .jpg, .jpeg, .png, .gif, .webp, .heic or .avif must begin as a file of
        that type does (a file of another name is attached unchecked); a pattern PDF must hold
        the PDF header (%PDF-) in its first 1024 bytes.
        """,
      arguments: [
        .required("project", "The project: its name, ID or an ID prefix."),
        .required("file", "The photo, or the pattern PDF."),
      ],
      options: [.flag("pattern", "The file is the project's pattern (it replaces an earlier one).")])
  }

  var reference: String
  var file: String
  var isPattern: Bool

  init(from values: ParsedValues) throws {
    reference = try values.reference("project")
    file = try values.requiredArgument("file")
    isPattern = values.flag("pattern")
  }

  func run(in context: Context) throws {
    let url = try InputFile.existingFile(file)
    // A pattern PDF must be one: a web page saved under a .pdf name is the usual mistake.
    if isPattern, !Attachment.hasPDFHeader(try InputFile.firstBytes(url, count: Attachment.pdfHeaderWindow)) {
      throw CLIError.invalidData(
        message:
          "\(visible: file) is not a PDF: its first \(Attachment.pdfHeaderWindow) bytes hold no PDF header (%PDF-)",
        hint:
          "a page saved from a browser under a .pdf name is often a web page; download the PDF itself, or attach it as a photo without --pattern"
      )
    }
    if !isPattern { try InputFile.checkPhoto(url, named: file) }
    let (project, attachment, already, replaced) = try context.write { store in
      var project = try References.project(reference, in: store)
      let attachment = try store.importAttachment(from: url)
      // The same bytes are one file: attached again in the same role they add nothing.
      let held = isPattern ? project.pattern?.pdf.map { [$0] } ?? [] : project.photos
      if let same = held.first(where: { $0.sha256 == attachment.sha256 }) {
        return (project, same, true, Attachment?.none)
      }
      let replaced = isPattern ? project.pattern?.pdf : nil
      if isPattern {
        var pattern = project.pattern ?? Pattern()
        pattern.pdf = attachment
        project.pattern = pattern
      } else {
        project.photos.append(attachment)
      }
      try store.update(project)
      return (project, attachment, false, replaced)
    }
    if context.global.json { try context.printJSON(attachment) }
    let name = Formatting.fileName(attachment)
    if already {
      let what = isPattern ? "this pattern PDF" : "this photo"
      context.message(
        "project \(visible: project.name) already has \(what), as \(name); nothing changed")
    } else if let replaced {
      context.message(
        "attached \(name) to project \(visible: project.name) as its pattern, in place of "
          + "\(Formatting.fileName(replaced)) ('\(context.yarnCommand("undo"))' gives it back)")
    } else {
      context.message(
        "attached \(name) to project \(visible: project.name) \(isPattern ? "as its pattern" : "as a photo")"
      )
    }
  }
}

/// `yarn project detach PROJECT NAME` and `yarn project detach PROJECT --pattern`.
struct ProjectDetach: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "detach", abstract: "Detach a photo from a project, or its pattern PDF with --pattern.",
      discussion: """
        NAME is the photo's whole file name (case aside) or a prefix of at least 4 characters
        of its SHA-256 (see 'project show --json'). The file is deleted from the library once no
        yarn or project uses it. --json prints the attachment detached.
        """,
      arguments: [
        .required("project", "The project: its name, ID or an ID prefix."),
        .optional("name", "The photo: its whole file name or a SHA-256 prefix (not with --pattern)."),
      ],
      options: [.flag("pattern", "Detach the pattern PDF.")])
  }

  var reference: String
  var name: String?
  var isPattern: Bool

  init(from values: ParsedValues) throws {
    reference = try values.reference("project")
    name = try values.optionalReference(argument: "name")
    isPattern = values.flag("pattern")
    if isPattern == (name != nil) {
      throw CLIError.needsExactlyOne(command: values.command, options: ["<name>", "--pattern"])
    }
  }

  func run(in context: Context) throws {
    let (project, attachment) = try context.write { store in
      var project = try References.project(reference, in: store)
      let attachment: Attachment
      if let name {
        attachment = try References.attachment(name, in: project.photos)
        // One photo goes, the first of that name and bytes.
        if let index = project.photos.firstIndex(of: attachment) { project.photos.remove(at: index) }
      } else {
        guard let pdf = project.pattern?.pdf else {
          throw CLIError.invalidData(
            message: "'\(visible: project.name)' has no pattern PDF", hint: nil)
        }
        attachment = pdf
        project.pattern?.pdf = nil
        if project.pattern == Pattern() { project.pattern = nil }
      }
      try store.update(project)
      return (project, attachment)
    }
    if context.global.json { try context.printJSON(attachment) }
    context.message(
      "detached \(Formatting.fileName(attachment)) from project \(visible: project.name)")
  }
}
