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
      name: "note", abstract: "Write notes about yarns and projects.", subcommands: [NoteAdd.self])
  }
}

/// `yarn note add (--project P | --yarn Y) TEXT`.
struct NoteAdd: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "add", abstract: "Add a note to a project or a yarn.",
      discussion: """
        The words of TEXT are joined with spaces; quote it to keep line breaks.

        EXAMPLE:
          yarn note add --project Flax "Sleeves: 2 rows shorter than the pattern"
        """,
      arguments: [.variadic("text", "The note.")],
      options: [
        .value("project", "project", "The project the note is about."),
        .value("yarn", "yarn", "The yarn the note is about."),
      ])
  }

  enum Subject {
    case project(String)
    case yarn(String)
  }

  var subject: Subject
  var text: String

  init(from values: ParsedValues) throws {
    switch (values.value("project"), values.value("yarn")) {
    case (let project?, nil): subject = .project(project)
    case (nil, let yarn?): subject = .yarn(yarn)
    default: throw CLIError.needsExactlyOne(command: values.command, options: ["--project", "--yarn"])
    }
    text = values.argumentList("text").joined(separator: " ")
    guard !text.trimmingSpacesAndNewlines().isEmpty else {
      throw CLIError.badValue(
        command: values.command, name: "<text>", value: text, reason: "a note cannot be empty")
    }
  }

  func run(in context: Context) throws {
    let (note, about) = try context.write { store in
      let noteSubject: Note.Subject
      let about: String
      switch subject {
      case .project(let reference):
        let project = try References.project(reference, in: try store.projects())
        noteSubject = .project(project.id)
        about = "project \(project.name)"
      case .yarn(let reference):
        let yarn = try References.yarn(reference, in: try store.yarns())
        noteSubject = .yarn(yarn.id)
        about = "yarn \(yarn.name)"
      }
      let created = Date(timeIntervalSince1970: context.now.timeIntervalSince1970.rounded(.down))
      let note = Note(id: Identifier.make(), subject: noteSubject, text: text, created: created)
      try store.insert(note)
      return (note, about)
    }
    if context.global.json { try context.printJSON(note) }
    context.message("added a note to \(about)")
  }
}
