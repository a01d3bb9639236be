import YarnCore

/// `--tag`, `--untag` and `--no-tags` of `stash add/edit` and `project add/edit`: the tags of
/// an item (`Tags`, `Rules.tags(_:field:)`).
struct TagOptions {
  static let options: [OptionSpec] = [
    .value(
      "tag", "tag",
      "Add a tag (repeat for more); tags are compared case aside and hold no comma, at most "
        + "\(Rules.maximumTagLength) characters."),
    .value("untag", "tag", "Remove a tag (repeat for more), case aside."),
    .flag("no-tags", "Remove every tag (before any --tag is added)."),
  ]

  /// The tags to add, trimmed, in order.
  var added: [String]
  /// The tags to remove.
  var removed: [String]
  /// Whether every tag goes first.
  var clear: Bool

  /// Reads the options.
  ///
  /// - Throws: `CLIError.badValue` naming `--tag` when a tag breaks the rule of tags (a
  ///   comma, a control character, too long, empty); `CLIError.conflictingOptions` for a tag
  ///   given to both `--tag` and `--untag` (`Rules.tagAddedAndRemoved`).
  init(_ values: ParsedValues) throws {
    added = (values.options["tag"] ?? []).map { $0.trimmingSpaces() }
    removed = (values.options["untag"] ?? []).map { $0.trimmingSpaces() }
    clear = values.flag("no-tags")
    if values.command.last == "add" {
      // A new item has no tag to remove.
      for (name, given) in [("--untag", !removed.isEmpty), ("--no-tags", clear)] where given {
        throw CLIError.optionDoesNotApply(
          command: values.command, option: name, reason: "a new item has no tags to remove; it is for edit")
      }
    }
    for tag in added {
      if let violation = Rules.tags([tag]) {
        throw CLIError.badValue(
          command: values.command, name: "--tag", value: LineText.shortened(tag),
          reason: violation.reason)
      }
    }
    if let violation = Rules.tagAddedAndRemoved(added: added, removed: removed) {
      throw CLIError.conflictingOptions(
        command: values.command, options: ["--tag", "--untag"], reason: violation.description)
    }
  }

  /// `tags` with the options applied: cleared with `--no-tags`, then without the `--untag`
  /// ones, then with the `--tag` ones after them (`Tags.adding`: one already there stays
  /// where it is).
  func applied(to tags: [String]) -> [String] {
    var out = clear ? [] : tags
    out = Tags.removing(removed, from: out)
    return Tags.adding(added, to: out)
  }
}

/// The details of a project set by `project add` and `project edit` (issue 14, item 3):
/// `--gauge`, `--size-made`, `--made-for` and the tag options. `nil` is "not given",
/// `.some(nil)` (an empty value) clears the field in `edit`.
struct ProjectDetailFields {
  static let options: [OptionSpec] =
    [
      .value(
        "gauge", "gauge",
        "The gauge: \"18 sts x 24 rows = 10 cm\", \"18 sts = 4 in\", \"18 sts and 24 rows to 10 cm\"."),
      .value("size-made", "text", "The size made, as the pattern names it, such as M or \"38 in chest\"."),
      .value("made-for", "text", "Who it is made for."),
    ] + TagOptions.options

  var gauge: Gauge??
  var sizeMade: String??
  var madeFor: String??
  var tags: TagOptions

  init(_ values: ParsedValues) throws {
    if let text = values.value("gauge") {
      if text.trimmingSpaces().isEmpty {
        gauge = .some(nil)
      } else {
        do {
          gauge = .some(try Gauge(parsing: text))
        } catch {
          throw CLIError.badValue(
            command: values.command, name: "--gauge", value: text, reason: "\(error)")
        }
      }
    }
    sizeMade = try values.singleLine("size-made")
    madeFor = try values.singleLine("made-for")
    tags = try TagOptions(values)
  }

  /// Sets every given detail of `project`.
  func apply(to project: inout Project) {
    if let gauge { project.gauge = gauge }
    if let sizeMade { project.sizeMade = sizeMade }
    if let madeFor { project.madeFor = madeFor }
    project.tags = tags.applied(to: project.tags)
  }
}

extension ParsedValues {
  /// A stash status (`StashStatus(parsing:)`).
  func stashStatus(_ name: String) throws(CLIError) -> StashStatus? {
    try typed(name, expected: "a stash status: \(StashStatus.tokens)") { StashStatus(parsing: $0) }
  }

  /// A price such as `29.00 USD` (`Price(parsing:)`), its error's reason as the message.
  func price(_ name: String) throws(CLIError) -> Price? {
    guard let text = value(name) else { return nil }
    do {
      return try Price(parsing: text)
    } catch {
      throw .badValue(command: command, name: "--\(name)", value: text, reason: error.reason)
    }
  }
}
