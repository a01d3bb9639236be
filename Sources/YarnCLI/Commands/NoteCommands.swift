import YarnCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `yarn note`: notes about yarns and projects.
struct NoteCommand: CommandGroup {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "note", abstract: "Write, list, show, edit and remove notes about yarns and projects.",
      subcommands: [NoteAdd.self, NoteList.self, NoteShow.self, NoteEdit.self, NoteRemove.self])
  }
}

/// `yarn note add (--project P | --yarn Y) TEXT`.
struct NoteAdd: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "add", abstract: "Add a note to a project or a yarn.",
      discussion: """
        The words of TEXT are joined with spaces; quote it to keep line breaks. TEXT - reads
        the note from standard input (all of it, UTF-8, without its last line break; on a
        terminal, what is typed until Ctrl-D).

        EXAMPLES:
          yarn note add --project Flax "Sleeves: 2 rows shorter than the pattern"
          yarn note add --yarn Rios - < swatch-notes.txt
        """,
      arguments: [.variadic("text", "The note; - for standard input.")],
      options: NoteSubjectOption.options)
  }

  var subject: NoteSubjectOption
  var text: NoteText

  init(from values: ParsedValues) throws {
    guard let subject = try NoteSubjectOption(values) else {
      throw CLIError.needsExactlyOne(command: values.command, options: ["--project", "--yarn"])
    }
    self.subject = subject
    text = try NoteSubjectOption.text(values)
  }

  func run(in context: Context) throws {
    let text = try self.text.read()
    let (note, about) = try context.write { store in
      let (noteSubject, about) = try subject.resolve(in: store)
      let created = Date(timeIntervalSince1970: context.now.timeIntervalSince1970.rounded(.down))
      let note = Note(id: Identifier.make(), subject: noteSubject, text: text, created: created)
      try store.insert(note)
      return (note, about)
    }
    if context.global.json { try context.printJSON(note) }
    context.message("added a note to \(about)")
  }
}

/// `--project P` or `--yarn Y`, naming what notes are about.
enum NoteSubjectOption {
  case project(String)
  case yarn(String)

  static let options: [OptionSpec] = [
    .value("project", "project", "The project the note is about."),
    .value("yarn", "yarn", "The yarn the note is about."),
  ]

  /// The one of `--project` and `--yarn` given; `nil` when neither is.
  ///
  /// - Throws: `CLIError.needsExactlyOne` when both are given.
  init?(_ values: ParsedValues) throws {
    switch (try values.optionalReference(option: "project"), try values.optionalReference(option: "yarn")) {
    case (let project?, nil): self = .project(project)
    case (nil, let yarn?): self = .yarn(yarn)
    case (nil, nil): return nil
    default: throw CLIError.needsExactlyOne(command: values.command, options: ["--project", "--yarn"])
    }
  }

  /// The words of `<text>` joined with spaces, or standard input for `-` alone; words
  /// refused (64) when they break the rule of a note's text (`Rules.noteText(_:field:)`:
  /// blank, too long, a control character). Standard input is read by `NoteText.read()`.
  static func text(_ values: ParsedValues) throws -> NoteText {
    let words = values.argumentList("text")
    if words == ["-"] { return .standardInput }
    let text = words.joined(separator: " ")
    if let violation = Rules.noteText(text) {
      throw CLIError.badValue(
        command: values.command, name: "<text>", value: String(text.prefix(40)),
        reason: violation.reason)
    }
    return .given(text)
  }

  /// The subject and its words (`yarn Rios`).
  func resolve(in store: LibraryStore) throws -> (Note.Subject, String) {
    switch self {
    case .project(let reference):
      let project = try References.project(reference, in: store)
      return (.project(project.id), "project \(visible: project.name)")
    case .yarn(let reference):
      let yarn = try References.yarn(reference, in: store)
      return (.yarn(yarn.id), "yarn \(visible: yarn.name)")
    }
  }

  /// What `note` is about, in words (`yarn Rios`): one look-up of its yarn's or project's name.
  static func about(_ note: Note, in store: LibraryStore) throws -> String {
    switch note.subject {
    case .yarn(let id): "yarn " + (try store.yarnName(id: id) ?? id)
    case .project(let id): "project " + (try store.projectName(id: id) ?? id)
    case nil: "nothing"
    }
  }
}

/// `yarn note list [--yarn Y | --project P]`.
struct NoteList: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "list", abstract: "List notes, oldest first: all, or those about one yarn or project.",
      discussion: """
        The table shows each note's ID (its first 8 characters name it), what it is about, when
        it was written and its first line; 'yarn note show ID' shows the whole note. --json
        prints the notes as 'note show --json' does, in a list.
        """,
      options: NoteSubjectOption.options)
  }

  var subject: NoteSubjectOption?

  init(from values: ParsedValues) throws {
    subject = try NoteSubjectOption(values)
  }

  func run(in context: Context) throws {
    // Read as the notes are printed (a table reads them twice, `printTable`): memory stays
    // flat however many there are.
    let (count, named) = try context.read { store in
      let resolved = try subject.map { try $0.resolve(in: store) }
      let about = resolved?.0
      if context.global.json {
        let count = try context.printJSONArray { (print: (Note) throws -> Void) in
          try store.forEachNote(about: about, print)
        }
        return (count, resolved?.1)
      }
      // Cut to fit a narrow terminal, ABOUT keeps the name (`Hitchhi…`) rather than the kind.
      let count = try context.printTable(
        ["ID", "ABOUT", "WRITTEN", "NOTE"], shrinkable: [1, 3], kindFirst: [1]
      ) { row in
        try store.forEachNote(about: about) { note in
          // The first line (a CRLF ends it too), marked when more follow.
          let lines = note.text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
          let first = String(lines.first ?? "") + (lines.count > 1 ? " …" : "")
          row([
            shortID(note.id), try NoteSubjectOption.about(note, in: store),
            Formatting.localTime(note.created, timeZone: try context.timeZone), first,
          ])
        }
      }
      return (count, resolved?.1)
    }
    if count == 0 && !context.global.json {
      context.message(
        named.map { "no notes about \($0)" }
          ?? "no notes yet; add one with '\(context.yarnCommand("note add"))'")
    }
  }
}

/// `yarn note show NOTE`.
struct NoteShow: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "show", abstract: "Show a note: what it is about, when it was written and changed, its text.",
      discussion: """
        --json prints {"id", "yarnID" or "projectID", "text", "created", "modified"}, the
        instants in ISO 8601 UTC.
        """,
      arguments: [.required("note", "The note: its ID or an ID prefix of at least 4 characters.")])
  }

  var reference: String

  init(from values: ParsedValues) throws {
    reference = try values.reference("note")
  }

  func run(in context: Context) throws {
    let (note, about) = try context.read { store in
      let note = try store.note(matching: reference)
      return (note, try NoteSubjectOption.about(note, in: store))
    }
    if context.global.json {
      try context.printJSON(note)
      return
    }
    let zone = try context.timeZone
    var text = Formatting.fields([
      ("Note", note.id), ("About", about),
      ("Written", Formatting.localTime(note.created, timeZone: zone)),
      ("Changed", note.modified == note.created ? nil : Formatting.localTime(note.modified, timeZone: zone)),
    ])
    text += "\n" + Table.printable(note.text) + "\n"
    context.output.write(text)
  }
}

/// `yarn note edit NOTE TEXT...`.
struct NoteEdit: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "edit", abstract: "Replace a note's text.",
      discussion: """
        The words of TEXT are joined with spaces; quote it to keep line breaks. TEXT - reads
        the text from standard input, as 'note add' does. The note keeps its ID, what it is
        about and when it was written; its changed time is now (unless TEXT is what it
        says already: then nothing changes).
        """,
      arguments: [
        .required("note", "The note: its ID or an ID prefix of at least 4 characters."),
        .variadic("text", "The new text; - for standard input."),
      ])
  }

  var reference: String
  var text: NoteText

  init(from values: ParsedValues) throws {
    reference = try values.reference("note")
    text = try NoteSubjectOption.text(values)
  }

  func run(in context: Context) throws {
    let text = try self.text.read()
    let (note, changed) = try context.write { store in
      var note = try store.note(matching: reference)
      // The same text is no change: the note keeps its changed time, and undo has nothing.
      guard note.text != text else { return (note, false) }
      note.text = text
      note.modified = Date(timeIntervalSince1970: context.now.timeIntervalSince1970.rounded(.down))
      try store.update(note)
      return (note, true)
    }
    if context.global.json { try context.printJSON(note) }
    context.message(
      changed
        ? "changed note \(shownID(note.id))" : "note \(shownID(note.id)) already says that; nothing changed")
  }
}

/// `yarn note rm NOTE`.
struct NoteRemove: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "rm", abstract: "Remove a note.",
      discussion: "--json prints the note removed.",
      arguments: [.required("note", "The note: its ID or an ID prefix of at least 4 characters.")])
  }

  var reference: String

  init(from values: ParsedValues) throws {
    reference = try values.reference("note")
  }

  func run(in context: Context) throws {
    let note = try context.write { store in
      let note = try store.note(matching: reference)
      try store.deleteNote(id: note.id)
      return note
    }
    if context.global.json { try context.printJSON(note) }
    context.message("removed note \(shownID(note.id))")
  }
}

/// A note's text on the command line: given as words, or `-` for standard input.
enum NoteText: Equatable {
  /// The words joined, checked against the rule.
  case given(String)
  /// Read when the command runs (`StandardInput.noteText()`).
  case standardInput

  /// The text: as given, or read from standard input and checked.
  ///
  /// - Throws: the errors of `StandardInput.noteText()`.
  func read() throws -> String {
    switch self {
    case .given(let text): text
    case .standardInput: try StandardInput.noteText()
    }
  }
}
