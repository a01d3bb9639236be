import YarnModel
import YarnStore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension StashCSV {
  /// The whole stash as CSV: the header, then one record per yarn in creation order, as
  /// `options` says (RFC 4180 with CRLF line ends and the formula guard by default).
  ///
  /// The library is read in one read transaction, so the file is a consistent snapshot; the
  /// CSV is built in memory (about 200 bytes a yarn). Write the bytes to a file, or hand them
  /// to a share sheet, as they are: they are UTF-8 (with a byte order mark only when
  /// `options.byteOrderMark` is set).
  ///
  /// - Parameters:
  ///   - store: the library.
  ///   - options: delimiter, byte order mark and formula guard.
  ///   - columns: which columns, in which order (all of them, `defaultColumns`, by default).
  ///   - includeActive: count the usages of projects in progress in the remaining estimate,
  ///     not only those of finished projects.
  /// - Returns: the CSV's bytes.
  /// - Throws: `StoreError` when the store cannot be read (such as `.closed` or `.busy`).
  public static func export(
    from store: LibraryStore, options: CSVOptions = CSVOptions(), columns: [Column] = defaultColumns,
    includeActive: Bool = false
  ) throws -> Data {
    var bytes = Data()
    let writer = CSVWriter(options: options) { bytes.append(contentsOf: $0) }
    try export(from: store, to: writer, columns: columns, includeActive: includeActive)
    return bytes
  }

  /// Writes the whole stash as CSV: the header, then one record per yarn in creation order.
  ///
  /// Streams: yarns are read one at a time from the store and written through `writer`'s
  /// buffer, so memory does not grow with the number of yarns (the yarns' notes and their
  /// counted usages, which the Notes and Remaining columns need, are read first, the usages
  /// by one grouped query: `LibraryStore.countedUsagesByYarn(includeActive:)`).
  ///
  /// - Complexity: O(yarns + notes + counted usages); no yarn is compared with every project.
  ///
  /// - Parameters:
  ///   - store: the library; read in one transaction, so the export is a consistent snapshot.
  ///   - writer: where the CSV goes; flushed at the end.
  ///   - columns: which columns, in which order (the default columns by default).
  ///   - includeActive: count usages of projects in progress in the remaining estimate.
  /// - Returns: the number of yarns written.
  /// - Throws: `StoreError` when the store cannot be read; what `writer`'s sink throws.
  @discardableResult
  package static func export(
    from store: LibraryStore, to writer: CSVWriter, columns: [Column] = defaultColumns,
    includeActive: Bool = false
  ) throws -> Int {
    try store.read {
      let counted = try store.countedUsagesByYarn(includeActive: includeActive)
      var notesByYarn: [String: [String]] = [:]
      for note in try store.notes() {
        if let yarnID = note.yarnID { notesByYarn[yarnID, default: []].append(note.text) }
      }
      try writer.write(header(columns))
      var count = 0
      try store.forEachYarn(includingPhotos: false) { yarn in
        let remaining = RemainingEstimate(yarn: yarn, usages: counted[yarn.id] ?? [])
        try writer.write(
          record(for: yarn, remaining: remaining, notes: notesByYarn[yarn.id] ?? [], columns: columns))
        count += 1
      }
      try writer.flush()
      return count
    }
  }
}
