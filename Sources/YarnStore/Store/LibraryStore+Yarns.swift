import YarnModel

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension LibraryStore {
  static let yarnColumns = """
    id, name, brand, colorway, color_family, dye_lot, weight, fiber,
    length_per_skein_value, length_per_skein_unit, net_weight_per_skein_value,
    net_weight_per_skein_unit, quantity_value, quantity_unit, remaining_value, remaining_unit,
    purchase_location, date_added, status, price_minor, price_currency, stored_in, tags
    """

  /// Every yarn, in creation order, with its photos.
  ///
  /// - Complexity: O(n) rows; the whole stash is held in memory (see `forEachYarn`).
  /// - Throws: `StoreError.invalidData` for a row that cannot be read back; `.busy`,
  ///   `.closed`, `.database`.
  public func yarns() throws -> [Yarn] {
    var out: [Yarn] = []
    try forEachYarn { out.append($0) }
    return out
  }

  /// Hands each yarn to `body` in creation order as it is read, so memory stays flat however
  /// large the stash; all in one read transaction. `body` may read from the store.
  ///
  /// - Parameters:
  ///   - includingPhotos: read each yarn's photos (one more query per yarn); when false,
  ///     `photos` is empty, which is several times faster for exports that show none.
  ///   - body: called with each yarn; throwing stops the walk.
  /// - Throws: what `body` throws (which stops the walk); the errors of `yarns()`.
  public func forEachYarn(includingPhotos: Bool = true, _ body: (Yarn) throws -> Void) throws {
    try read {
      // The photos of every yarn come from one query in the yarns' order, read alongside
      // them, not from a query per yarn.
      let photos = includingPhotos ? try YarnPhotoCursor(connection) : nil
      try connection.forEach("SELECT \(LibraryStore.yarnColumns) FROM yarn ORDER BY seq") {
        var yarn = try yarn(from: $0, includingPhotos: false)
        if let photos { yarn.photos = try photos.take(of: yarn.id) }
        try body(yarn)
      }
    }
  }

  /// Whether the stash holds any yarn.
  ///
  /// - Throws: `StoreError.busy`, `.closed` or `.database`.
  public func hasYarns() throws -> Bool {
    try read { try connection.integer("SELECT EXISTS (SELECT 1 FROM yarn)") == 1 }
  }

  /// The yarn with `id`, or `nil` when there is none.
  ///
  /// - Throws: the errors of `yarns()`.
  public func yarn(id: String) throws -> Yarn? {
    try read {
      // Cached: an import looks up a yarn per row, and compiling the SQL each time cost more
      // than the look-up.
      let statement = try connection.cached(
        "SELECT \(LibraryStore.yarnColumns) FROM yarn WHERE id = ?")
      defer { statement.reset() }
      try statement.bind([.text(id)])
      guard try statement.step() else { return nil }
      return try yarn(from: statement)
    }
  }

  /// Adds `yarn` (after every yarn already there) with its photos.
  ///
  /// - Throws: `StoreError.duplicateID` when its ID is taken; `.missingAttachment` when a
  ///   photo's bytes are not stored; `.brokenRule` naming the first field that breaks a rule
  ///   of `Rules` (a blank ID, a blank name, a negative amount, …); `.invalidData` for a malformed photo
  ///   digest; `.readOnly`, `.busy`, `.closed`, `.database`.
  public func insert(_ yarn: Yarn) throws {
    try insert(yarn, checkingRules: true)
  }

  /// `insert(_:)`, the rules left unchecked when `checkingRules` is false: for a caller that
  /// has just checked `yarn.ruleViolations()` itself (the stash import, which names every
  /// broken rule of a row), so that they are not checked twice.
  package func insert(_ yarn: Yarn, checkingRules: Bool) throws {
    // One statement without photos: no savepoint of its own inside another write.
    let body = {
      // The ID even for an import that checked the rest itself (it does not check IDs).
      try LibraryStore.refuseNew(id: yarn.id, kind: .yarn, name: yarn.name)
      if checkingRules {
        try LibraryStore.refuse(yarn.ruleViolations(), kind: .yarn, id: yarn.id, name: yarn.name)
      }
      do {
        // The UNIQUE constraint on the ID finds a duplicate, without a look-up first.
        try self.connection.run(
          LibraryStore.insertYarnSQL, try self.values(of: yarn))
      } catch let error as DatabaseError where error.isUniqueViolation(of: "yarn.id") {
        throw StoreError.duplicateID(kind: .yarn, id: yarn.id)
      }
      try self.insertAttachments(yarn.photos, owner: .yarn(yarn.id), role: "photo")
    }
    try yarn.photos.isEmpty ? writeOneStatement(body) : write(body)
  }

  private static let insertYarnSQL = """
    INSERT INTO yarn (\(yarnColumns), name_key)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    """

  /// Replaces the stored yarn that has `yarn.id` with `yarn`, photos included; its place in
  /// creation order is kept.
  ///
  /// - Throws: `StoreError.notFound` when no yarn has that ID; otherwise as `insert(_:)`.
  public func update(_ yarn: Yarn) throws {
    try write {
      // A blank tag an older yarn stored stays through an edit of another field.
      let stored = try connection.query("SELECT tags FROM yarn WHERE id = ?", [.text(yarn.id)]) {
        RowReader.tags($0.text(0))
      }
      try LibraryStore.refuse(
        yarn.ruleViolations(keptTags: stored.first ?? []), kind: .yarn, id: yarn.id, name: yarn.name)
      var bound = try values(of: yarn)
      bound.append(bound.removeFirst())  // the ID goes last, into WHERE
      try connection.run(
        """
        UPDATE yarn SET name = ?, brand = ?, colorway = ?, color_family = ?, dye_lot = ?,
          weight = ?, fiber = ?, length_per_skein_value = ?, length_per_skein_unit = ?,
          net_weight_per_skein_value = ?, net_weight_per_skein_unit = ?, quantity_value = ?,
          quantity_unit = ?, remaining_value = ?, remaining_unit = ?, purchase_location = ?,
          date_added = ?, status = ?, price_minor = ?, price_currency = ?, stored_in = ?,
          tags = ?, name_key = ?
        WHERE id = ?
        """, bound)
      guard connection.changes == 1 else { throw StoreError.notFound(kind: .yarn, id: yarn.id) }
      // Written again only when they differ, so that the undo history records what changed.
      let photos = try attachments(of: .yarn(yarn.id), role: "photo")
      if photos != yarn.photos {
        try replaceAttachments(photos, with: yarn.photos, owner: .yarn(yarn.id), role: "photo")
      }
    }
  }

  /// Deletes the yarn with `id`, its photos' records and its notes, and with `force` the
  /// usages projects record of it; once the change commits, the photo files that no other
  /// item refers to are deleted.
  ///
  /// Safe removal: a yarn goes alone, or with what goes with it only when `force` is true.
  ///
  /// - Returns: what went with it (`effectsOfRemoving(yarnID:)`).
  /// - Throws: `StoreError.removalRefused` listing what would go when that is not nothing
  ///   and `force` is false; `.lostAttachment` when a photo's file is missing (undo could not
  ///   give it back); `.notFound` when no yarn has that ID; `.readOnly`, `.busy`,
  ///   `.closed`, `.database`.
  @discardableResult
  public func deleteYarn(id: String, force: Bool = false) throws -> RemovalEffects {
    try write {
      let effects = try effectsOfRemoving(yarnID: id)
      guard effects.isEmpty || force else {
        throw StoreError.removalRefused(
          kind: .yarn, name: try yarn(id: id)?.name ?? id, effects: effects)
      }
      try refuseLostAttachments(of: .yarn(id), name: try yarn(id: id)?.name ?? id)
      // The projects that use it, found by the yarn's index, in creation order.
      let users = try connection.query(
        """
        SELECT DISTINCT p.id, p.seq FROM yarn_usage u JOIN project p ON p.id = u.project_id
        WHERE u.yarn_id = ? ORDER BY p.seq
        """, [.text(id)]
      ) { $0.text(0) ?? "" }
      for projectID in users {
        guard var project = try project(id: projectID) else { continue }
        project.removeUsages(of: id)
        try update(project)
      }
      try dropAttachments(where: "yarn_id = ?", [.text(id)])
      try connection.run("DELETE FROM yarn WHERE id = ?", [.text(id)])
      return effects
    }
  }

  // MARK: Rows

  /// The values of `yarnColumns`, then `name_key`, as one array (grown piece by piece and
  /// copied again for the key, it cost 4,000 instructions a yarn of a stash import).
  private func values(of yarn: Yarn) throws -> [SQLValue] {
    let row = RowWriter(kind: .yarn, id: yarn.id)
    let length = row.amountColumns(yarn.lengthPerSkein)
    let netWeight = row.amountColumns(yarn.netWeightPerSkein)
    let quantity = row.amountColumns(yarn.quantity)
    let remaining = row.amountColumns(yarn.remainingOverride)
    return [
      .text(yarn.id), .text(yarn.name), .text(yarn.brand), .text(yarn.colorway),
      .text(yarn.colorFamily), .text(yarn.dyeLot), .integer(yarn.weight?.rawValue),
      .text(yarn.fiber), length.value, length.unit, netWeight.value, netWeight.unit,
      quantity.value, quantity.unit, remaining.value, remaining.unit, .text(yarn.purchaseLocation),
      row.day(yarn.dateAdded), .text(yarn.status.rawValue), .integer(yarn.price?.minorUnits),
      .text(yarn.price?.currency), .text(yarn.storedIn), .text(RowWriter.tags(yarn.tags)),
      .text(Lookup.key(yarn.name)),
    ]
  }

  /// Every yarn photo, by the owner's creation order then position: handed out yarn by yarn
  /// while the yarns are read in creation order (`seq`), so each yarn's photos are the next
  /// rows.
  private final class YarnPhotoCursor {
    private let statement: Statement
    private var hasRow: Bool

    init(_ connection: Connection) throws {
      statement = try connection.prepare(
        """
        SELECT a.yarn_id, a.sha256, a.file_name, a.media_type, a.byte_count FROM attachment a
        JOIN yarn y ON y.id = a.yarn_id WHERE a.yarn_id IS NOT NULL AND a.role = 'photo'
        ORDER BY y.seq, a.position
        """)
      hasRow = try statement.step()
    }

    /// The photos of the yarn `id`, which must be the yarn after the one asked for last.
    func take(of id: String) throws -> [Attachment] {
      var out: [Attachment] = []
      while hasRow, statement.text(0) == id {
        var row = RowReader(statement, kind: .yarn, id: id)
        row.skip()
        let sha256 = try row.text()
        let fileName = try row.text()
        let mediaType = try row.text()
        let byteCount = try row.integer()
        out.append(
          Attachment(fileName: fileName, mediaType: mediaType, byteCount: byteCount, sha256: sha256))
        hasRow = try statement.step()
      }
      return out
    }
  }

  func yarn(from statement: Statement, includingPhotos: Bool = true) throws -> Yarn {
    var row = RowReader(statement, kind: .yarn)
    let id = try row.id()
    let name = try row.text()
    let brand = row.optionalText()
    let colorway = row.optionalText()
    let colorFamily = row.optionalText()
    let dyeLot = row.optionalText()
    var weight: YarnWeight?
    if let number = try row.optionalInteger() {
      guard let known = YarnWeight(rawValue: Int(truncatingIfNeeded: number)) else {
        throw row.invalid("stored weight \(number) is not a CYC category 0-7")
      }
      weight = known
    }
    let fiber = row.optionalText()
    let lengthPerSkein = try row.amount()
    let netWeightPerSkein = try row.amount()
    let quantity = try row.amount()
    let remaining = try row.amount()
    let purchaseLocation = row.optionalText()
    let dateAdded = try row.day()
    let statusText = try row.text()
    guard let status = StashStatus(rawValue: statusText) else {
      throw row.invalid("stored status \(LineText.quoted(statusText)) is unknown")
    }
    var price: Price?
    let minorUnits = try row.optionalInteger()
    let currency = row.optionalText()
    if let minorUnits, let currency {
      price = Price(minorUnits: minorUnits, currency: currency)
    }
    let storedIn = row.optionalText()
    let tags = RowReader.tags(row.optionalText())
    return Yarn(
      id: id, name: name, brand: brand, colorway: colorway, colorFamily: colorFamily,
      dyeLot: dyeLot, weight: weight, fiber: fiber, lengthPerSkein: lengthPerSkein,
      netWeightPerSkein: netWeightPerSkein, quantity: quantity, remainingOverride: remaining,
      purchaseLocation: purchaseLocation, dateAdded: dateAdded, status: status, price: price,
      storedIn: storedIn, tags: tags,
      photos: includingPhotos ? try attachments(of: .yarn(id), role: "photo") : [])
  }
}
