import YarnModel

// Search, filter and sort (issue 14, item 5): every filter is a condition of one SQL query,
// text compared through `yarn_fold` (`Lookup.folded`, registered on every connection), so a
// list streams only the rows it shows. A search is a scan of the table (`instr` on folded
// text uses no index): at 3,000 yarns or 800 projects that is a few milliseconds, and an
// index of folded words would have to be kept by every write.

/// What `stash list` shows: filters that all apply (an absent one does not filter) and an
/// order.
public struct YarnQuery: Hashable, Sendable {
  /// The orders of a list; ties go by the folded name (`Lookup.folded`, compared by its
  /// UTF-8 bytes), then in the order the items were added.
  public enum Sort: String, CaseIterable, Hashable, Sendable {
    /// By name, case and accents aside.
    case name
    /// By the day added, oldest first; yarns without one last.
    case added
    /// By what is left, most first (`RemainingEstimate.sortMeasure(putUp:)`): lengths, then
    /// weights that cannot become lengths, then bare skeins; unknown last.
    case remaining
    /// By CYC weight category, 0 Lace to 7 Jumbo; yarns without one last.
    case weight
  }

  /// Only yarns of this stash status.
  public var status: StashStatus?
  /// Only yarns still in the stash (`StashStatus.isHeld`: in-stash, allocated, in-use,
  /// will-trade).
  public var inStash: Bool
  /// Only yarns with this tag, case and accents aside (`Lookup.folded`).
  public var tag: String?
  /// Only yarns of this CYC weight category.
  public var weight: YarnWeight?
  /// Only yarns whose brand contains this text, case and accents aside (`Lookup.folded`).
  public var brand: String?
  /// Only yarns whose name, brand, colorway, fiber or a note about them contains this text,
  /// case and accents aside (`Lookup.folded`).
  public var search: String?
  /// The order; `nil` is creation order.
  public var sort: Sort?

  /// A query; with no argument, every yarn in creation order.
  public init(
    status: StashStatus? = nil, inStash: Bool = false, tag: String? = nil,
    weight: YarnWeight? = nil, brand: String? = nil, search: String? = nil, sort: Sort? = nil
  ) {
    self.status = status
    self.inStash = inStash
    self.tag = tag
    self.weight = weight
    self.brand = brand
    self.search = search
    self.sort = sort
  }

  /// Whether the query filters nothing and keeps creation order.
  var isEverything: Bool { self == YarnQuery() }
}

/// What `project list` shows: filters that all apply and an order.
public struct ProjectQuery: Hashable, Sendable {
  /// The orders of a list; ties go by the folded name, then in the order the items were
  /// added.
  public enum Sort: String, CaseIterable, Hashable, Sendable {
    /// By name, case and accents aside.
    case name
    /// By the day work began, earliest first; projects without one last.
    case started
    /// By the day finished, earliest first; projects without one last.
    case finished
  }

  /// Only projects with this status.
  public var status: ProjectStatus?
  /// Only projects of this craft.
  public var craft: Craft?
  /// Only projects whose name, pattern name or a note about them contains this text, case
  /// and accents aside (`Lookup.folded`).
  public var search: String?
  /// Only projects with this tag, case and accents aside (`Lookup.folded`).
  public var tag: String?
  /// The order; `nil` is creation order.
  public var sort: Sort?

  /// A query; with no argument, every project in creation order.
  public init(
    status: ProjectStatus? = nil, craft: Craft? = nil, search: String? = nil,
    tag: String? = nil, sort: Sort? = nil
  ) {
    self.status = status
    self.craft = craft
    self.search = search
    self.tag = tag
    self.sort = sort
  }
}

extension LibraryStore {
  /// Hands `body` each yarn that `query` keeps, in its order, with its remaining estimate;
  /// all in one read transaction. `body` may read from the store.
  ///
  /// - Parameters:
  ///   - query: the filters and the order.
  ///   - includeActive: count the usages of projects in progress too.
  ///   - includingPhotos: read each yarn's photos (`photos` is empty otherwise).
  ///   - body: called with each kept yarn and its remaining estimate (counting usages as
  ///     `includeActive` says); throwing stops the walk.
  /// - Complexity: one query over the yarn table (a scan when there is a text filter) and the
  ///   grouped query of counted usages; memory stays flat but for `Sort.remaining`, which
  ///   holds the kept yarns to sort them.
  /// - Throws: what `body` throws; the errors of `forEachYarn(includingPhotos:_:)`.
  public func forEachYarn(
    matching query: YarnQuery, includeActive: Bool = false, includingPhotos: Bool = true,
    _ body: (Yarn, RemainingEstimate) throws -> Void
  ) throws {
    try read {
      let counted = try countedUsagesByYarn(includeActive: includeActive)
      func estimate(_ yarn: Yarn) -> RemainingEstimate {
        RemainingEstimate(yarn: yarn, usages: counted[yarn.id] ?? [])
      }
      if query.isEverything {
        try forEachYarn(includingPhotos: includingPhotos) { try body($0, estimate($0)) }
        return
      }
      var conditions: [String] = []
      var arguments: [SQLValue] = []
      if let status = query.status {
        conditions.append("status = ?")
        arguments.append(.text(status.rawValue))
      }
      if query.inStash {
        let held = StashStatus.allCases.filter(\.isHeld).map { "'\($0.rawValue)'" }
        conditions.append("status IN (\(held.joined(separator: ", ")))")
      }
      if let tag = query.tag {
        conditions.append(LibraryStore.tagCondition)
        arguments.append(.text(LibraryStore.tagArgument(tag)))
      }
      if let weight = query.weight {
        conditions.append("weight = ?")
        arguments.append(.integer(weight.rawValue))
      }
      if let brand = query.brand {
        conditions.append("instr(yarn_fold(brand), ?) > 0")
        arguments.append(.text(Lookup.folded(brand)))
      }
      if let search = query.search {
        // One numbered parameter for every field searched.
        let index = arguments.count + 1
        conditions.append(
          """
          (instr(yarn_fold(name), ?\(index)) > 0 OR instr(yarn_fold(brand), ?\(index)) > 0
            OR instr(yarn_fold(colorway), ?\(index)) > 0 OR instr(yarn_fold(fiber), ?\(index)) > 0
            OR EXISTS (SELECT 1 FROM note WHERE note.yarn_id = yarn.id
              AND instr(yarn_fold(note.text), ?\(index)) > 0))
          """)
        arguments.append(.text(Lookup.folded(search)))
      }
      let order: String
      switch query.sort {
      case nil, .remaining: order = "seq"
      case .name: order = "yarn_fold(name), seq"
      case .added: order = "date_added IS NULL, date_added, yarn_fold(name), seq"
      case .weight: order = "weight IS NULL, weight, yarn_fold(name), seq"
      }
      let sql =
        "SELECT \(LibraryStore.yarnColumns) FROM yarn"
        + (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "))
        + " ORDER BY " + order
      if query.sort == .remaining {
        // Read in the order added (`seq`): `added` breaks the last ties.
        var kept:
          [(yarn: Yarn, estimate: RemainingEstimate, measure: (rank: Int, value: Double), added: Int)] = []
        try connection.forEach(sql, arguments) {
          let yarn = try yarn(from: $0, includingPhotos: includingPhotos)
          let estimate = estimate(yarn)
          kept.append((yarn, estimate, estimate.sortMeasure(putUp: yarn.putUp), kept.count))
        }
        kept.sort { left, right in
          if left.measure.rank != right.measure.rank { return left.measure.rank < right.measure.rank }
          if left.measure.value != right.measure.value { return left.measure.value > right.measure.value }
          return LibraryStore.nameOrder(left.yarn.name, left.added, right.yarn.name, right.added)
        }
        for item in kept { try body(item.yarn, item.estimate) }
      } else {
        try connection.forEach(sql, arguments) {
          let yarn = try yarn(from: $0, includingPhotos: includingPhotos)
          try body(yarn, estimate(yarn))
        }
      }
    }
  }

  /// Hands `body` each project that `query` keeps, in its order, with its usages, photos
  /// and pattern; all in one read transaction. `body` may read from the store.
  ///
  /// - Complexity: one query over the project table (a scan when searching), and each kept
  ///   project's parts by its index.
  /// - Throws: what `body` throws; the errors of `projects()`.
  public func forEachProject(matching query: ProjectQuery, _ body: (Project) throws -> Void) throws {
    var conditions: [String] = []
    var arguments: [SQLValue] = []
    if let status = query.status {
      conditions.append("status = ?")
      arguments.append(.text(status.rawValue))
    }
    if let craft = query.craft {
      conditions.append("craft = ?")
      arguments.append(.text(craft.rawValue))
    }
    if let tag = query.tag {
      conditions.append(LibraryStore.tagCondition)
      arguments.append(.text(LibraryStore.tagArgument(tag)))
    }
    if let search = query.search {
      let index = arguments.count + 1
      conditions.append(
        """
        (instr(yarn_fold(name), ?\(index)) > 0 OR instr(yarn_fold(pattern_name), ?\(index)) > 0
          OR EXISTS (SELECT 1 FROM note WHERE note.project_id = project.id
            AND instr(yarn_fold(note.text), ?\(index)) > 0))
        """)
      arguments.append(.text(Lookup.folded(search)))
    }
    let order: String
    switch query.sort {
    case nil: order = "seq"
    case .name: order = "yarn_fold(name), seq"
    case .started: order = "started IS NULL, started, yarn_fold(name), seq"
    case .finished: order = "finished IS NULL, finished, yarn_fold(name), seq"
    }
    let sql =
      "SELECT \(LibraryStore.projectColumns) FROM project"
      + (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "))
      + " ORDER BY " + order
    try read {
      try connection.forEach(sql, arguments) { try body(try project(from: $0)) }
    }
  }

  /// The condition that an item's `tags` (its tags joined by line feeds, schema v6) hold the
  /// tag `tagArgument(_:)` gives, case and accents aside: the folded tags, framed by line
  /// feeds, contain the folded tag framed the same way.
  static let tagCondition =
    "instr(char(10) || yarn_fold(tags) || char(10), ?) > 0"

  /// The argument of `tagCondition` for `tag`: the folded tag between line feeds.
  static func tagArgument(_ tag: String) -> String { "\n" + Lookup.folded(tag) + "\n" }

  /// Whether the item (`leftName`, added `leftAdded`-th) comes before (`rightName`,
  /// `rightAdded`) by the ties of a sorted list: the folded names by their UTF-8 bytes (as
  /// SQLite compares `yarn_fold(name)`), then the order added.
  static func nameOrder(_ leftName: String, _ leftAdded: Int, _ rightName: String, _ rightAdded: Int)
    -> Bool
  {
    let left = Lookup.folded(leftName)
    let right = Lookup.folded(rightName)
    if !left.utf8.elementsEqual(right.utf8) { return left.utf8.lexicographicallyPrecedes(right.utf8) }
    return leftAdded < rightAdded
  }
}
