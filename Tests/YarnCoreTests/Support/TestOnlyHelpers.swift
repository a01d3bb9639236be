import Foundation

@testable import YarnCore

// Conveniences only the tests use, kept out of the product: they build on the product's own
// paths (the streamed backup writer, the CSV reader's records one at a time).

extension BackupWriter.Items {
  /// The items of `library`, held in memory.
  init(_ library: Library) {
    self.init(
      read: { try $0() }, forEachNote: { try library.notes.forEach($0) },
      forEachProject: { try library.projects.forEach($0) },
      forEachSession: { try library.sessions.forEach($0) }, tools: { library.tools },
      forEachYarn: { try library.yarns.forEach($0) })
  }
}

extension BackupWriter {
  /// Writes the backup of `library` to `url`, on the calling thread: `write(_:to:…)` of its
  /// items.
  static func write(
    _ library: Library, to url: URL, generator: String, now: Date, force: Bool,
    attachmentURL: (String) -> URL, progress: ((Double) -> Void)? = nil
  ) throws -> Written {
    try write(
      Items(library), to: url, generator: generator, now: now, force: force,
      attachmentURL: attachmentURL, progress: progress)
  }
}

extension CSVReader {
  /// Reads every record of `data`.
  ///
  /// - Throws: `CSVReadError` (strict mode, or invalid UTF-8 in any mode).
  static func records(in data: Data, delimiter: UInt8 = UInt8(ascii: ","), lenient: Bool = false)
    throws -> [CSVRecord]
  {
    var reader = CSVReader(data: data, delimiter: delimiter, lenient: lenient)
    var out: [CSVRecord] = []
    while let record = try reader.next() { out.append(record) }
    return out
  }
}
