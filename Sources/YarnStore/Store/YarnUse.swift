import YarnModel

/// One usage of a yarn by a project, as `stash show` lists it: the project's ID, name and
/// status, and the amount it recorded.
public struct YarnUse: Hashable, Sendable {
  /// The `Project.id`.
  public let projectID: String
  /// The project's name.
  public let projectName: String
  /// The project's status, which decides whether the usage counts against the stash.
  public let projectStatus: ProjectStatus
  /// The amount used, in the unit the project recorded.
  public let amount: Amount

  /// A usage of `amount` by the project `projectID`.
  public init(projectID: String, projectName: String, projectStatus: ProjectStatus, amount: Amount) {
    self.projectID = projectID
    self.projectName = projectName
    self.projectStatus = projectStatus
    self.amount = amount
  }
}

extension Array where Element == YarnUse {
  /// The usages of these that count against the stash, in the same order: those whose
  /// project's status `countsAgainstStash(includeActive:)`.
  ///
  /// - Complexity: O(n).
  public func counted(includeActive: Bool = false) -> [RemainingEstimate.CountedUsage] {
    filter { $0.projectStatus.countsAgainstStash(includeActive: includeActive) }
      .map { RemainingEstimate.CountedUsage(projectID: $0.projectID, amount: $0.amount) }
  }
}
