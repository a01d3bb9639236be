import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

/// The hand-written `Codable` of `Yarn`, `Amount` and `Attachment` against the conformance
/// the compiler would synthesize, given by twins of the same shape below: the same bytes out
/// of `JSONCoding.encoder()`, and each reads what the other writes.
@Suite struct ModelCodingTests {
  /// `Amount` as the compiler would code it.
  struct SynthesizedAmount: Codable, Equatable {
    var value: Double
    var unit: YarnUnit
  }

  /// `Attachment` as the compiler would code it.
  struct SynthesizedAttachment: Codable, Equatable {
    var fileName: String
    var mediaType: String
    var byteCount: Int64
    var sha256: String
  }

  /// `Yarn` as the compiler would code it (same property names, types and order).
  struct SynthesizedYarn: Codable, Equatable {
    var id: String
    var name: String
    var brand: String?
    var colorway: String?
    var colorFamily: String?
    var dyeLot: String?
    var weight: YarnWeight?
    var fiber: String?
    var lengthPerSkein: SynthesizedAmount?
    var netWeightPerSkein: SynthesizedAmount?
    var quantity: SynthesizedAmount?
    var remainingOverride: SynthesizedAmount?
    var purchaseLocation: String?
    var dateAdded: CalendarDate?
    var isStashed: Bool
    var status: StashStatus
    var price: Price?
    var storedIn: String?
    var tags: [String]
    var photos: [SynthesizedAttachment]

    init(_ yarn: Yarn) {
      func amount(_ amount: Amount?) -> SynthesizedAmount? {
        amount.map { SynthesizedAmount(value: $0.value, unit: $0.unit) }
      }
      id = yarn.id
      name = yarn.name
      brand = yarn.brand
      colorway = yarn.colorway
      colorFamily = yarn.colorFamily
      dyeLot = yarn.dyeLot
      weight = yarn.weight
      fiber = yarn.fiber
      lengthPerSkein = amount(yarn.lengthPerSkein)
      netWeightPerSkein = amount(yarn.netWeightPerSkein)
      quantity = amount(yarn.quantity)
      remainingOverride = amount(yarn.remainingOverride)
      purchaseLocation = yarn.purchaseLocation
      dateAdded = yarn.dateAdded
      isStashed = yarn.status.isHeld
      status = yarn.status
      price = yarn.price
      storedIn = yarn.storedIn
      tags = yarn.tags
      photos = yarn.photos.map {
        SynthesizedAttachment(
          fileName: $0.fileName, mediaType: $0.mediaType, byteCount: $0.byteCount, sha256: $0.sha256)
      }
    }
  }

  /// A day is written `YYYY-MM-DD` with its zeros, at the edges of the years kept too.
  @Test func daysAreWrittenWithFourTwoAndTwoDigits() throws {
    let days: [(Int, Int, Int, String)] = [
      (1, 1, 1, "0001-01-01"), (9999, 12, 31, "9999-12-31"), (2026, 3, 9, "2026-03-09"),
      (987, 10, 20, "0987-10-20"), (2024, 2, 29, "2024-02-29"),
    ]
    for (year, month, day, text) in days {
      let date = try #require(CalendarDate(year: year, month: month, day: day))
      #expect(date.iso8601 == text)
      #expect(CalendarDate(iso8601: text) == date)
    }
  }

  @Test func handWrittenCodingIsTheSynthesizedOne() throws {
    try BackupTestSupport.withScratch { dir in
      let files = dir.appendingPathComponent("files")
      try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
      var yarns: [Yarn] = [
        Yarn(id: "bare", name: ""),
        Yarn(
          id: "full", name: "Sock \"Ü\" / 🧶", brand: "B", colorway: "C", colorFamily: "red",
          dyeLot: "7", weight: .jumbo, fiber: "wool", lengthPerSkein: Amount(437.5, .yard),
          netWeightPerSkein: Amount(100, .gram), quantity: Amount(1e-7, .skein),
          remainingOverride: Amount(0, .ounce), purchaseLocation: "Loop",
          dateAdded: CalendarDate(year: 1, month: 1, day: 1), status: .willTrade,
          price: Price(minorUnits: 2999, currency: "EUR"), storedIn: "bin 3", tags: ["a", "B"],
          photos: [
            Attachment(
              fileName: "a.jpg", mediaType: "image/jpeg", byteCount: 0,
              sha256: String(repeating: "a", count: 64))
          ]),
      ]
      for seed in UInt64(200)...230 {
        let store = try LibraryStore(directory: dir.appendingPathComponent("s\(seed)"), mode: .readWrite)
        yarns += try BackupLawTests.library(seed: seed, store: store, files: files).yarns
        try store.close()
      }
      let encoder = JSONCoding.encoder()
      let decoder = JSONCoding.decoder()
      for yarn in yarns {
        let twin = SynthesizedYarn(yarn)
        let ours = try encoder.encode(yarn)
        let synthesized = try encoder.encode(twin)
        #expect(ours == synthesized, "\(yarn.id)")
        #expect(try decoder.decode(Yarn.self, from: synthesized) == yarn, "\(yarn.id)")
        #expect(try decoder.decode(SynthesizedYarn.self, from: ours) == twin, "\(yarn.id)")
      }
      #expect(yarns.count > 20)
    }
  }
}
