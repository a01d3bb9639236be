import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

/// The progress callbacks of `Backup.verify`, `Backup.restore` and `StashCSV.importCSV`: the
/// fractions reported, computed by hand from the manifest's sizes or the CSV's bytes.
@Suite struct ProgressCallbackTests {
  /// Collects the fractions a callback receives.
  final class Fractions: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Double] = []
    var all: [Double] { lock.withLock { values } }
    var callback: @Sendable (Double) -> Void { { value in self.lock.withLock { self.values.append(value) } } }
  }

  static let sample = BackupTestSupport.packageRoot.appendingPathComponent("samples/demo")

  /// The fractions expected of reading samples/demo: library.json, then each attachment in
  /// the manifest's order, each the running sum of the manifest's sizes over their total.
  static func expectedSampleFractions() throws -> [Double] {
    let manifest = try #require(
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: sample.appendingPathComponent("manifest.json"))) as? [String: Any])
    let files = try #require(manifest["files"] as? [[String: Any]])
    let sizes = files.map {
      ($0["path"] as? String ?? "", ($0["size"] as? NSNumber)?.int64Value ?? -1)
    }
    let library = try #require(sizes.first { $0.0 == "library.json" }).1
    let attachments = sizes.filter { $0.0.hasPrefix("attachments/") }.map(\.1)
    let total = Double(attachments.reduce(library, +))
    var done = library
    var out = [Double(done) / total]
    for size in attachments {
      done += size
      out.append(Double(done) / total)
    }
    #expect(attachments.count == 5)
    return out
  }

  @Test func verifyReportsTheBytesReadUpToOne() throws {
    let fractions = Fractions()
    try Backup.verify(Self.sample, progress: fractions.callback)
    let expected = try Self.expectedSampleFractions()
    #expect(fractions.all.count == expected.count)
    for (found, wanted) in zip(fractions.all, expected) { #expect(abs(found - wanted) < 1e-12) }
    #expect(fractions.all.last == 1)
  }

  @Test func restoreReportsTheBytesReadUpToOneInADryRunAndForReal() throws {
    let expected = try Self.expectedSampleFractions()
    for dryRun in [true, false] {
      let store = try LibraryStore.inMemory()
      let fractions = Fractions()
      try Backup.restore(
        from: Self.sample, into: store, options: RestoreOptions(dryRun: dryRun),
        progress: fractions.callback)
      #expect(fractions.all.count == expected.count, "dry run \(dryRun)")
      for (found, wanted) in zip(fractions.all, expected) { #expect(abs(found - wanted) < 1e-12) }
      #expect(fractions.all.last == 1)
    }
  }

  @Test func aDamagedBackupStillReportsMonotonicFractions() throws {
    try BackupTestSupport.withScratch { dir in
      let copy = dir.appendingPathComponent("demo")
      try FileManager.default.copyItem(at: Self.sample, to: copy)
      let attachments = copy.appendingPathComponent("attachments")
      let first = try FileManager.default.contentsOfDirectory(atPath: attachments.path).sorted()[0]
      // Other bytes of the same size: the SHA-256 differs.
      let damaged = attachments.appendingPathComponent(first)
      var bytes = try Data(contentsOf: damaged)
      bytes[0] ^= 0xFF
      try bytes.write(to: damaged)
      let fractions = Fractions()
      #expect(throws: BackupError.self) { try Backup.verify(copy, progress: fractions.callback) }
      #expect(fractions.all == fractions.all.sorted())
      #expect(Set(fractions.all).count == fractions.all.count)
      #expect(fractions.all.last == 1)
    }
  }

  /// 14 bytes of header, a row of 10 bytes, a row of 11: 35 bytes.
  static let csv = Data("Name,Quantity\nA,1 skein\nB,2 skeins\n".utf8)

  @Test func importReportsTheBytesReadOnceIntoAnEmptyLibrary() throws {
    let store = try LibraryStore.inMemory()
    let fractions = Fractions()
    let plan = try StashCSV.importCSV(from: Self.csv, into: store, progress: fractions.callback)
    #expect(plan.added == 2)
    // After row A the reader stands at byte 24 of 35; after row B at the end.
    #expect(fractions.all == [24.0 / 35.0, 1])
  }

  @Test func anEmptyFileStillEndsAtOne() throws {
    let store = try LibraryStore.inMemory()
    let fractions = Fractions()
    let plan = try StashCSV.importCSV(from: Data(), into: store, progress: fractions.callback)
    #expect(plan.problems.count == 1)
    #expect(fractions.all == [1])
  }

  @Test func importReportsHalfForEachReadingWhenTheLibraryHoldsYarns() throws {
    let store = try LibraryStore.inMemory()
    _ = try StashCSV.importCSV(from: Self.csv, into: store)
    for dryRun in [true, false] {
      let fractions = Fractions()
      let plan = try StashCSV.importCSV(
        from: Self.csv, into: store, dryRun: dryRun, progress: fractions.callback)
      #expect(plan.unchanged == 2)
      // The first reading (matching) is the first half, the second the rest.
      #expect(fractions.all == [12.0 / 35.0, 0.5, (1 + 24.0 / 35.0) / 2, 1])
    }
  }

  @Test func theCounterNeverGoesDownAndEndsAtOne() {
    let fractions = Fractions()
    var counter = ProgressCounter(total: 10, report: fractions.callback)
    counter.add(4)
    counter.set(0.2)
    counter.add(0)
    counter.add(20)
    counter.finish()
    #expect(fractions.all == [0.4, 1])
    let empty = Fractions()
    var none = ProgressCounter(total: 0, report: empty.callback)
    none.finish()
    #expect(empty.all == [1])
  }
}

extension ProgressCallbackTests {
  static let weft = BackupTestSupport.packageRoot.appendingPathComponent("Tests/Fixtures/weft")

  @Test func weftImportReportsTheSourcesReadAndTheItemsWritten() throws {
    let names = ["yarn-stash-ravelry", "knitting-project-ravelry", "knitting-progress-ravelry"]
    let sources = try names.map {
      WEFTImport.Source(
        name: $0, data: try Data(contentsOf: Self.weft.appendingPathComponent("\($0).weft")))
    }
    let sizes = sources.map { Double($0.data.count) }
    let total = sizes.reduce(0, +)
    let store = try LibraryStore.inMemory()
    let read = Fractions()
    let plan = try WEFTImport.plan(
      sources, store: store, now: Date(timeIntervalSince1970: 1_800_000_000),
      progress: read.callback)
    let expected = [sizes[0] / total, (sizes[0] + sizes[1]) / total, 1]
    #expect(read.all.count == 3)
    for (found, wanted) in zip(read.all, expected) { #expect(abs(found - wanted) < 1e-12) }
    let written = Fractions()
    try WEFTImport.apply(plan, to: store, progress: written.callback)
    // 1 yarn, 1 project and 2 sessions (WEFTCLITests' counts), and the notes the plan adds.
    let items = 4 + plan.notes.count
    #expect(written.all == (1...items).map { Double($0) / Double(items) })
  }

  @Test func weftExportReportsAFifthPerStep() throws {
    try BackupTestSupport.withScratch { dir in
      let store = try LibraryStore.inMemory()
      let fractions = Fractions()
      _ = try WEFTExport.write(
        from: store, to: dir.appendingPathComponent("weft"), force: false,
        now: Date(timeIntervalSince1970: 1_800_000_000), app: nil, progress: fractions.callback)
      #expect(fractions.all == [0.2, 0.4, 0.6, 0.8, 1])
    }
  }
}
