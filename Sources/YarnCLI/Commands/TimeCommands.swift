import Foundation
import YarnCore

/// `yarn time`: time spent on projects.
struct TimeCommand: CommandGroup {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "time", abstract: "Track time spent on projects.",
      subcommands: [TimeStart.self, TimeStop.self, TimeStatus.self, TimeCancel.self, TimeLog.self])
  }
}

/// An instant truncated to whole seconds, as the store keeps it.
private func wholeSeconds(_ date: Date) -> Date {
  Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
}

/// `yarn time start PROJECT [--note TEXT] [--switch]`.
struct TimeStart: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "start", abstract: "Start a timer on a project.",
      discussion: """
        Only one timer runs at a time: starting while another runs is an error naming the
        running project, unless --switch, which stops it at the same instant.
        """,
      arguments: [.required("project", "The project: its name, ID or an ID prefix.")],
      options: [
        .value("note", "text", "A note for the session, such as \"sleeve cuffs\"."),
        .flag("switch", "Stop the running timer first, at the same instant."),
      ])
  }

  var reference: String
  var note: String?
  var switching: Bool

  init(from values: ParsedValues) throws {
    reference = try values.requiredArgument("project")
    note = values.value("note").flatMap {
      $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0
    }
    switching = values.flag("switch")
  }

  func run(in context: Context) throws {
    let start = wholeSeconds(context.now)
    let (session, project) = try context.write { store in
      let project = try References.project(reference, in: try store.projects())
      let session = try TimeTracker(store: store).start(
        projectID: project.id, at: start, note: note, switching: switching)
      return (session, project)
    }
    if context.global.json {
      try context.printJSON(SessionJSON(session: session, projectName: project.name, now: context.now))
    }
    context.message("started \(project.name) at \(Formatting.localTime(session.start))")
  }
}

/// `yarn time stop`.
struct TimeStop: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(name: "stop", abstract: "Stop the running timer.")
  }

  init(from values: ParsedValues) throws {}

  func run(in context: Context) throws {
    let end = wholeSeconds(context.now)
    let (session, project) = try context.write { store in
      let session = try TimeTracker(store: store).stop(at: end)
      return (session, try store.project(id: session.projectID))
    }
    let name = project?.name ?? session.projectID
    if context.global.json {
      try context.printJSON(SessionJSON(session: session, projectName: name, now: context.now))
    }
    context.message("stopped \(name) after \(Formatting.duration(session.seconds(now: end)))")
  }
}

/// `yarn time cancel`.
struct TimeCancel: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(name: "cancel", abstract: "Discard the running timer without recording it.")
  }

  init(from values: ParsedValues) throws {}

  func run(in context: Context) throws {
    let (session, project) = try context.write { store in
      let session = try TimeTracker(store: store).cancel()
      return (session, try store.project(id: session.projectID))
    }
    let name = project?.name ?? session.projectID
    if context.global.json {
      try context.printJSON(SessionJSON(session: session, projectName: name, now: context.now))
    }
    context.message("cancelled the timer on \(name) started at \(Formatting.localTime(session.start))")
  }
}

/// `yarn time status`.
struct TimeStatus: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "status",
      abstract: "Show the running timer: its project, since when, and for how long.",
      discussion: "With --json: the running session, or null when none runs.")
  }

  /// A timer running longer than this is likely forgotten (12 hours).
  static let forgottenAfterSeconds: Int64 = 12 * 3600

  init(from values: ParsedValues) throws {}

  func run(in context: Context) throws {
    let status = try context.read { store in try TimeTracker(store: store).status(now: context.now) }
    if context.global.json {
      if let status {
        try context.printJSON(
          SessionJSON(session: status.session, projectName: status.project.name, now: context.now))
      } else {
        context.output.line("null")
      }
      return
    }
    guard let (session, project) = status else {
      context.output.line("no timer is running")
      return
    }
    let elapsed = session.seconds(now: context.now)
    context.output.line(
      "\(project.name): running since \(Formatting.localTime(session.start)) (\(Formatting.duration(elapsed)))"
    )
    if elapsed > TimeStatus.forgottenAfterSeconds {
      context.warning(
        "this timer has run for over 12 hours; stop it with 'yarn time stop' if it was forgotten")
    }
  }
}

/// `yarn time log [--project P]`.
struct TimeLog: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "log", abstract: "List time sessions, oldest first, in local time.",
      options: [.value("project", "project", "Only the sessions of this project.")])
  }

  var projectReference: String?

  init(from values: ParsedValues) throws {
    projectReference = values.value("project")
  }

  func run(in context: Context) throws {
    let (sessions, names) = try context.read { store in
      let projects = try store.projects()
      let names = Dictionary(projects.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
      if let projectReference {
        let project = try References.project(projectReference, in: projects)
        return (try store.sessions(projectID: project.id), names)
      }
      return (try store.sessions(), names)
    }
    let now = context.now
    if context.global.json {
      try context.printJSON(
        sessions.map {
          SessionJSON(session: $0, projectName: names[$0.projectID] ?? $0.projectID, now: now)
        })
      return
    }
    if sessions.isEmpty {
      context.message("no time logged; start a timer with 'yarn time start PROJECT'")
      return
    }
    var table = Table(["ID", "START", "END", "DURATION", "PROJECT", "NOTE"])
    var total: Int64 = 0
    for session in sessions {
      let seconds = session.seconds(now: now)
      total += seconds
      table.add([
        shortID(session.id), Formatting.localTime(session.start),
        session.end.map { Formatting.localTime($0) } ?? "running",
        Formatting.duration(seconds), names[session.projectID] ?? session.projectID,
        session.note ?? "",
      ])
    }
    context.output.write(table.text)
    context.message(
      "total: \(Formatting.duration(total)) in \(sessions.count) session\(sessions.count == 1 ? "" : "s")")
  }
}
