#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A stretch of time spent on a project.
///
/// Instants are absolute (stored and written in UTC) with whole-second resolution, so a
/// duration never depends on a time zone or a DST change.
public struct TimeSession: Codable, Hashable, Sendable, Identifiable {
  /// A stable identifier, a lower-case UUID (RFC 9562) unless imported from elsewhere.
  public var id: String
  /// The `Project.id` worked on.
  public var projectID: String
  /// When work began (an absolute instant; the store keeps whole seconds).
  public var start: Date
  /// When work ended (an absolute instant, not before `start`); `nil` while the session is
  /// running.
  public var end: Date?
  /// A note, such as `sleeve cuffs`.
  public var note: String?

  /// A session on `projectID` from `start` to `end` (`nil`: still running).
  public init(id: String, projectID: String, start: Date, end: Date? = nil, note: String? = nil) {
    self.id = id
    self.projectID = projectID
    self.start = start
    self.end = end
    self.note = note
  }

  /// Whether the session is still running.
  public var isRunning: Bool { end == nil }

  /// Whole seconds from start to end (rounded to the nearest second), or while running to
  /// `now` truncated to a whole second, the end a stop at `now` records (the store keeps
  /// instants in whole seconds, truncated); never negative.
  public func seconds(now: Date = Date()) -> Int64 {
    let stop = end ?? Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
    return max(0, Int64((stop.timeIntervalSince1970 - start.timeIntervalSince1970).rounded()))
  }

  /// The part of the session inside `range`, `[start, end)` with either bound optional (UTC
  /// instants), a running session ending at `now` truncated to a whole second, as
  /// `seconds(now:)` counts it (or at its start, when that is later); `nil` when no time of
  /// it is inside. The rule by which `time report`, `summary` and the total of `time log`
  /// count only the time inside the days asked for.
  public func span(inside range: (start: Date?, end: Date?), now: Date) -> (start: Date, end: Date)? {
    var from = start
    var to = end ?? max(Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down)), start)
    if let lower = range.start { from = max(from, lower) }
    if let upper = range.end { to = min(to, upper) }
    return to > from ? (from, to) : nil
  }

  /// Whole seconds of the session inside `range` (`span(inside:now:)`, rounded to the nearest
  /// second as `seconds(now:)` is), 0 when none.
  public func seconds(inside range: (start: Date?, end: Date?), now: Date) -> Int64 {
    guard let span = span(inside: range, now: now) else { return 0 }
    return Int64((span.end.timeIntervalSince1970 - span.start.timeIntervalSince1970).rounded())
  }
}

extension TimeSession {
  /// Whether the session shares an instant with `other`, each taken as `[start, end)`: the
  /// rule of overlap of `TimeTracker` (`time add`, `time edit`, `time start --at`) and of a
  /// merging restore. A running session counts until `now` (or its start, when that is
  /// later); a session of no time overlaps nothing; one ending as the other starts does not
  /// overlap it.
  public func overlaps(_ other: TimeSession, now: Date) -> Bool {
    let mine = (start, end ?? max(now, start))
    let theirs = (other.start, other.end ?? max(now, other.start))
    guard mine.1 > mine.0, theirs.1 > theirs.0 else { return false }
    return mine.0 < theirs.1 && theirs.0 < mine.1
  }
}
