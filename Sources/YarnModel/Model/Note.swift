#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A note about a yarn or a project.
public struct Note: Codable, Hashable, Sendable, Identifiable {
  /// What a note is attached to.
  public enum Subject: Hashable, Sendable {
    /// The yarn with this `Yarn.id`.
    case yarn(String)
    /// The project with this `Project.id`.
    case project(String)
  }

  /// A stable identifier, a lower-case UUID (RFC 9562) unless imported from elsewhere.
  public var id: String
  /// The `Yarn.id` it belongs to, or `nil` when it belongs to a project.
  public var yarnID: String?
  /// The `Project.id` it belongs to, or `nil` when it belongs to a yarn.
  public var projectID: String?
  /// The text, any Unicode, line breaks kept.
  public var text: String
  /// When it was written (UTC instant, whole seconds).
  public var created: Date
  /// When it was last changed (UTC instant, whole seconds).
  public var modified: Date

  /// A note about `subject`; `modified` is `created` when not given. The store keeps both
  /// instants in whole seconds (truncated toward the past).
  public init(id: String, subject: Subject, text: String, created: Date, modified: Date? = nil) {
    self.id = id
    switch subject {
    case .yarn(let yarnID):
      self.yarnID = yarnID
      self.projectID = nil
    case .project(let projectID):
      self.yarnID = nil
      self.projectID = projectID
    }
    self.text = text
    self.created = created
    self.modified = modified ?? created
  }

  /// The yarn or project this note belongs to; `nil` when the document names neither.
  public var subject: Subject? {
    if let yarnID { return .yarn(yarnID) }
    if let projectID { return .project(projectID) }
    return nil
  }
}
