import YarnCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `yarn time`: time spent on projects.
struct TimeCommand: CommandGroup {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "time", abstract: "Track time spent on projects.",
      subcommands: [
        TimeStart.self, TimeContinue.self, TimeStop.self, TimeStatus.self, TimeCancel.self, TimeAdd.self,
        TimeEdit.self,
        TimeRemove.self, TimeLog.self, TimeReportCommand.self,
      ])
  }
}

/// `yarn time start PROJECT [--at TIME] [--note TEXT] [--switch]`.
struct TimeStart: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "start", abstract: "Start a timer on a project.",
      discussion: """
        Only one timer runs at a time: starting while another runs is an error naming the
        running project, unless --switch, which stops it at the same instant (not on the
        project already running: that is refused too).

        TIME is read in the local time zone ($TZ): 14:30, yesterday 20:00, 2026-03-29 14:30,
        2026-03-29T14:30:00+02:00, -15m, -2h. A start in the future, or more than 24 hours
        ago (the longest a session may last), is refused.
        """,
      arguments: [.required("project", "The project: its name, ID or an ID prefix.")],
      options: [
        .value("at", "time", "When work began (default: now)."),
        .value("note", "text", "A note for the session, such as \"sleeve cuffs\"."),
        .flag("switch", "Stop the running timer first, at the same instant."),
      ])
  }

  var reference: String
  var at: String?
  var note: String?
  var switching: Bool
  var command: [String]

  init(from values: ParsedValues) throws {
    reference = try values.reference("project")
    at = values.value("at")
    note = try values.note("note") ?? nil
    switching = values.flag("switch")
    command = values.command
  }

  func run(in context: Context) throws {
    let now = context.now
    let start =
      try at.map { try TimeOptions.instant($0, option: "--at", command: command, context: context) } ?? now
    let (session, project, stopped) = try TimeOptions.presenting(context, command: command) {
      try context.write { store in
        let project = try TimeOptions.project(reference, in: store)
        // With --switch, the timer this start stops (read in the same transaction).
        var stopped: (session: TimeSession, name: String)?
        if switching, let running = try store.runningSession() {
          stopped = (running, try store.projectName(id: running.projectID) ?? running.projectID)
        }
        let session = try TimeTracker(store: store).start(
          projectID: project.id, at: start, note: note, switching: switching, now: now)
        return (session, project, stopped)
      }
    }
    if context.global.json {
      try context.printJSON(SessionJSON(session: session, projectName: project.name, now: now))
    }
    if let stopped {
      let seconds = Int64(session.start.timeIntervalSince(stopped.session.start))
      if seconds == 0 {
        context.message(
          "stopped \(visible: stopped.name) in the second it started: a session of no time is not recorded"
        )
      } else {
        context.message(
          "stopped \(visible: stopped.name) after \(Formatting.duration(seconds, exact: true))")
      }
    }
    context.message(
      "started \(visible: project.name) at \(Formatting.exactLocalTime(session.start, timeZone: try context.timeZone))"
    )
  }
}

/// `yarn time continue [--same-note | --note TEXT] [--at TIME]`.
struct TimeContinue: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "continue", abstract: "Start a timer on the project of the latest session.",
      discussion: """
        The latest session is the one that started last, running or not. A timer already
        running is an error naming its project (stop it first), as is a library with no
        session yet. The new session has no note unless --same-note copies the latest
        session's or --note gives one. TIME is read as for 'yarn time start --at'.
        """,
      options: [
        .value("at", "time", "When work began (default: now)."),
        .flag("same-note", "Copy the latest session's note."),
        .value("note", "text", "A note for the session (not with --same-note)."),
      ])
  }

  var at: String?
  var sameNote: Bool
  var note: String?
  var command: [String]

  init(from values: ParsedValues) throws {
    at = values.value("at")
    sameNote = values.flag("same-note")
    note = try values.note("note") ?? nil
    command = values.command
    if sameNote && values.value("note") != nil {
      throw CLIError.conflictingOptions(
        command: command, options: ["--same-note", "--note"],
        reason: "--same-note copies the latest session's note")
    }
  }

  func run(in context: Context) throws {
    let now = context.now
    let start =
      try at.map { try TimeOptions.instant($0, option: "--at", command: command, context: context) } ?? now
    let (session, name) = try TimeOptions.presenting(context, command: command) {
      try context.write { store in
        guard let latest = try store.latestSession() else {
          throw CLIError.invalidData(
            message: "there is no session to continue",
            hint: "start a timer with '\(context.yarnCommand("time start PROJECT"))'")
        }
        let name = try store.projectName(id: latest.projectID) ?? latest.projectID
        let session = try TimeTracker(store: store).start(
          projectID: latest.projectID, at: start, note: sameNote ? latest.note : note, switching: false,
          now: now)
        return (session, name)
      }
    }
    if context.global.json {
      try context.printJSON(SessionJSON(session: session, projectName: name, now: now))
    }
    context.message(
      "started \(visible: name) at \(Formatting.exactLocalTime(session.start, timeZone: try context.timeZone))"
        + (session.note.map { " (\(quoted: $0))" } ?? ""))
  }
}

/// `yarn time stop [--at TIME]`.
struct TimeStop: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "stop", abstract: "Stop the running timer.",
      discussion: """
        TIME is read as for 'yarn time start --at'; a stop in the future is refused. A timer
        stopped in the second it started lasted no time and is not recorded; --json then prints
        null.
        """,
      options: [.value("at", "time", "When work ended (default: now).")])
  }

  var at: String?
  var command: [String]

  init(from values: ParsedValues) throws {
    at = values.value("at")
    command = values.command
  }

  func run(in context: Context) throws {
    let now = context.now
    let end =
      try at.map { try TimeOptions.instant($0, option: "--at", command: command, context: context) } ?? now
    let (session, name) = try TimeOptions.presenting(context, command: command) {
      try context.write { store in
        do {
          let session = try TimeTracker(store: store).stop(at: end, now: now)
          return (session, try store.projectName(id: session.projectID) ?? session.projectID)
        } catch TimeError.brokenRule(let violation) where violation.field == "length" {
          // A timer forgotten for longer than a sitting: say until when it can be stopped.
          guard let running = try store.runningSession() else { throw TimeError.brokenRule(violation) }
          let latest = running.start.addingTimeInterval(TimeInterval(Rules.maximumSessionSeconds))
          let shown = Formatting.localTime(latest, timeZone: try context.timeZone)
          throw CLIError.invalidData(
            message: "the session's \(violation)",
            hint:
              "stop it at \(shown) at the latest (\(context.yarnCommand("time stop --at \"\(shown)\""))), or "
              + "discard it with '\(context.yarnCommand("time cancel"))'")
        }
      }
    }
    if context.global.json {
      // A session of no time is not recorded: no session to print, as `time status` prints
      // `null` when no timer runs.
      if session.end == session.start {
        context.output.line("null")
      } else {
        try context.printJSON(SessionJSON(session: session, projectName: name, now: now))
      }
    }
    if session.end == session.start {
      context.message(
        "stopped \(visible: name) in the second it started: a session of no time is not recorded")
    } else {
      context.message(
        "stopped \(visible: name) after \(Formatting.duration(session.seconds(now: now), exact: true))"
      )
    }
  }
}

/// `yarn time add PROJECT (--from TIME --to TIME | [--from TIME] --duration D) [--note TEXT]
/// [--allow-overlap]`.
struct TimeAdd: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "add", abstract: "Record time spent on a project after the fact.",
      discussion: """
        Give --from and --to, --from and --duration, or --duration alone. --duration alone
        ends the session at the present minute (13:15 when it is 13:15:53), so the end that
        'yarn time log' shows can be typed back as the next start without overlapping it.
        yarn never makes up a clock time: for another day, say when the work began with
        --from "2026-03-28 14:00".

        A session must end after it starts, last at most 24 hours (one sitting) and not end
        in the future, and must not overlap another one (which the error names) unless
        --allow-overlap. Durations are absolute: 01:30 to 03:30 on a spring-forward night is
        1 hour.

        EXAMPLES:
          yarn time add Flax --from "yesterday 20:00" --to "yesterday 21:30"
          yarn time add Flax --from "2026-03-28 14:00" --duration 1h30m --note "sleeve"
          yarn time add Flax --duration 45m
        """,
      arguments: [.required("project", "The project: its name, ID or an ID prefix.")],
      options: [
        .value("from", "time", "When work began."),
        .value("to", "time", "When work ended."),
        .value("duration", "duration", "How long: 1h30m, 1h 30m, 90m, 1:30, 45s."),
        .value("on", "date", "Not accepted: give the day in --from (--from \"2026-03-28 14:00\")."),
        .value("note", "text", "A note for the session."),
        .flag("allow-overlap", "Record it even when it overlaps another session."),
      ])
  }

  var reference: String
  var from: String?
  var to: String?
  var duration: Int64?
  var on: String?
  var note: String?
  var allowOverlap: Bool
  var command: [String]

  init(from values: ParsedValues) throws {
    reference = try values.reference("project")
    command = values.command
    from = values.value("from")
    to = values.value("to")
    on = values.value("on")
    duration = try values.value("duration").map { text throws(CLIError) in
      try TimeOptions.duration(text, command: values.command)
    }
    if let on {
      // A day without a clock time would make one up (it used to: midnight, or the end of
      // the day's last session).
      let example = "--from \"\(on) 14:00\""
      throw CLIError.badValue(
        command: command, name: "--on", value: on,
        reason: from == nil
          ? "yarn does not make up when the work began; add --from with the day and time, such as \(example)"
          : "give the day in --from instead, such as \(example)")
    }
    if from == nil && to == nil && duration == nil {
      throw CLIError.needsExactlyOne(command: command, options: ["--from with --to", "--duration"])
    }
    if to != nil && from == nil {
      throw CLIError.missingOption(command: command, option: "--from")
    }
    if from != nil && (to == nil) == (duration == nil) {
      // --from with both, or with neither: the end is --to, or --from plus the duration.
      throw CLIError.needsExactlyOne(command: command, options: ["--to", "--duration"])
    }
    note = try values.note("note") ?? nil
    allowOverlap = values.flag("allow-overlap")
  }

  func run(in context: Context) throws {
    let now = context.now
    let zone = try context.timeZone
    let start = try from.map {
      try TimeOptions.instant($0, option: "--from", command: command, context: context)
    }
    let end = try to.map { try TimeOptions.instant($0, option: "--to", command: command, context: context) }
    let (session, project) = try TimeOptions.presenting(context, command: command) {
      try context.write { store in
        let project = try TimeOptions.project(reference, in: store)
        let tracker = TimeTracker(store: store)
        let session: TimeSession
        if let start, let end {
          session = try tracker.add(
            projectID: project.id, start: start, end: end, note: note, allowOverlap: allowOverlap, now: now)
        } else {
          session = try tracker.add(
            projectID: project.id, seconds: duration ?? 0, from: start, note: note,
            allowOverlap: allowOverlap,
            now: now)
        }
        return (session, project)
      }
    }
    if context.global.json {
      try context.printJSON(SessionJSON(session: session, projectName: project.name, now: now))
    }
    context.message(
      "added \(Formatting.duration(session.seconds(now: now), exact: true)) on \(visible: project.name): "
        + "\(TimeOptions.span(session, timeZone: zone, exact: true)) (session \(shownID(session.id)))")
  }
}

/// `yarn time edit SESSION [--from TIME] [--to TIME] [--project P] [--note TEXT]
/// [--allow-overlap]`.
struct TimeEdit: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "edit", abstract: "Change a session's times, project or note.",
      discussion: """
        SESSION is its ID or a unique ID prefix of at least 4 characters (the ID column of
        'yarn time log'). The same rules as 'yarn time add' hold for the result. --to on the
        running session stops it; --note "" clears the note.
        """,
      arguments: [.required("session", "The session: its ID or a unique ID prefix.")],
      options: [
        .value("from", "time", "A new start."),
        .value("to", "time", "A new end."),
        .value("project", "project", "Move the session to this project."),
        .value("note", "text", "A new note (empty clears it)."),
        .flag("allow-overlap", "Accept a result that overlaps another session."),
      ])
  }

  var reference: String
  var from: String?
  var to: String?
  var project: String?
  var note: String??
  var allowOverlap: Bool
  var command: [String]

  init(from values: ParsedValues) throws {
    reference = try values.reference("session")
    from = values.value("from")
    to = values.value("to")
    project = try values.optionalReference(option: "project")
    note = try values.note("note", clearing: true)
    allowOverlap = values.flag("allow-overlap")
    command = values.command
    if from == nil && to == nil && project == nil && note == nil {
      throw CLIError.needsOneOf(command: command, options: ["--from", "--to", "--project", "--note"])
    }
  }

  func run(in context: Context) throws {
    let now = context.now
    let start = try from.map {
      try TimeOptions.instant($0, option: "--from", command: command, context: context)
    }
    let end = try to.map { try TimeOptions.instant($0, option: "--to", command: command, context: context) }
    let (session, name, changed) = try TimeOptions.presenting(context, command: command) {
      try context.write { store in
        let tracker = TimeTracker(store: store)
        let found = try tracker.session(matching: reference)
        let projectID = try project.map { try TimeOptions.projectID($0, in: store) }
        let session = try tracker.edit(
          sessionID: found.id, start: start, end: end, projectID: projectID, note: note,
          allowOverlap: allowOverlap, now: now)
        return (
          session, try store.projectNames(ids: [session.projectID])[session.projectID] ?? session.projectID,
          session != found
        )
      }
    }
    if context.global.json {
      try context.printJSON(SessionJSON(session: session, projectName: name, now: now))
    }
    // An edit that changes nothing is no change: say so, as `stash edit` does.
    context.message(
      changed
        ? "session \(shownID(session.id)) on \(visible: name): "
          + "\(TimeOptions.span(session, timeZone: try context.timeZone, exact: true)) "
          + "(\(Formatting.duration(session.seconds(now: now), exact: true)))"
        : "session \(shownID(session.id)) on \(visible: name) already had those values; nothing changed"
    )
  }
}

/// `yarn time rm SESSION`.
struct TimeRemove: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      name: "rm", abstract: "Delete a session.",
      discussion: "SESSION is its ID or a unique ID prefix of at least 4 characters.",
      arguments: [.required("session", "The session: its ID or a unique ID prefix.")],
      aliases: ["remove"])
  }

  var reference: String
  var command: [String]

  init(from values: ParsedValues) throws {
    reference = try values.reference("session")
    command = values.command
  }

  func run(in context: Context) throws {
    let now = context.now
    let (session, name) = try TimeOptions.presenting(context, command: command) {
      try context.write { store in
        let tracker = TimeTracker(store: store)
        let session = try tracker.remove(sessionID: try tracker.session(matching: reference).id)
        return (session, try store.projectName(id: session.projectID) ?? session.projectID)
      }
    }
    if context.global.json {
      try context.printJSON(SessionJSON(session: session, projectName: name, now: now))
    }
    context.message(
      "removed session \(shownID(session.id)) on \(visible: name): \(TimeOptions.span(session, timeZone: try context.timeZone))"
    )
  }
}

/// `yarn time cancel`.
struct TimeCancel: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(name: "cancel", abstract: "Discard the running timer without recording it.")
  }

  init(from values: ParsedValues) throws {}

  func run(in context: Context) throws {
    let (session, name) = try context.write { store in
      let session = try TimeTracker(store: store).cancel()
      return (session, try store.projectName(id: session.projectID) ?? session.projectID)
    }
    if context.global.json {
      try context.printJSON(SessionJSON(session: session, projectName: name, now: context.now))
    }
    context.message(
      "cancelled the timer on \(visible: name) started at \(Formatting.exactLocalTime(session.start, timeZone: try context.timeZone))"
    )
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

  init(from values: ParsedValues) throws {}

  func run(in context: Context) throws {
    let zone = try context.timeZone
    let status = try context.read { store in try TimeTracker(store: store).status(now: context.now) }
    guard let (session, projectName) = status else {
      context.output.line(context.global.json ? "null" : "no timer is running")
      return
    }
    let elapsed = session.seconds(now: context.now)
    if context.global.json {
      try context.printJSON(SessionJSON(session: session, projectName: projectName, now: context.now))
    } else {
      context.output.line(
        "\(visible: projectName): running since \(Formatting.localTime(session.start, timeZone: zone)) "
          + "(\(Formatting.duration(elapsed)))"
      )
    }
    // On standard error, with --json too (QA: only the text said it).
    if TimeTracker.isLikelyForgotten(session, now: context.now) {
      // A session lasts at most a day: past that, only an earlier --at can stop it.
      let latest = session.start.addingTimeInterval(TimeInterval(Rules.maximumSessionSeconds))
      let how =
        elapsed > Rules.maximumSessionSeconds
        ? context.yarnCommand("time stop --at \"\(Formatting.localTime(latest, timeZone: zone))\"")
          + " (at the latest) or '\(context.yarnCommand("time cancel"))'"
        : "'\(context.yarnCommand("time stop"))'"
      context.warning("this timer has run for over 12 hours; stop it with \(how) if it was forgotten")
    }
  }
}
