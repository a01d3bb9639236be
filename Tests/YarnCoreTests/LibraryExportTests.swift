import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

/// `LibraryExport`: the zip for people.
@Suite struct LibraryExportTests {
  typealias Support = BackupTestSupport

  @Test func anExportNotListingItsEntriesWritesTheSameZip() throws {
    try Support.withScratch { dir in
      let store = try Support.makeStore(in: dir)
      let listed = dir.appendingPathComponent("listed.zip")
      let unlisted = dir.appendingPathComponent("unlisted.zip")
      let now = Date(timeIntervalSince1970: 1_800_000_000)
      let first = try LibraryExport.write(from: store, to: listed, now: now)
      let second = try LibraryExport.write(from: store, to: unlisted, now: now, listingEntries: false)
      #expect(second.entries.isEmpty)
      // By hand: 3 tables, Flax 3 (PDF, photo, text), the socks 1, Cascade 4, the merino 2, index.html.
      #expect(first.entries.count == 14)
      #expect((second.yarns, second.projects, second.files) == (2, 2, 6))
      let a = try Support.readZip(listed)
      let b = try Support.readZip(unlisted)
      #expect(a.map(\.0) == b.map(\.0))
      #expect(a.map(\.1) == b.map(\.1))
    }
  }

  /// An export onto the library's own files is refused with `force` too, before anything is
  /// written (`OutputError.intoLibrary`): onto its database, the database's write-ahead log,
  /// a photo in its attachments folder. An app calling `LibraryExport.write` replaced the
  /// database with the zip.
  /// A lost file of an attachment fails the export in its own words ("exported", not
  /// "backed up"), naming the items that hold it as `project detach` takes them: the
  /// pattern PDF by `--pattern` (no photo name).
  @Test func aMissingAttachmentFailsTheExportNamingWhatHoldsIt() throws {
    try Support.withScratch { dir in
      let store = try Support.makeStore(in: dir)
      let pdf = try #require(try store.library().projects.first?.pattern?.pdf)
      let file = store.attachmentURL(sha256: pdf.sha256)
      try FileManager.default.removeItem(at: file)
      let zip = dir.appendingPathComponent("export.zip")
      let lost = UnavailableAttachment(
        sha256: pdf.sha256, path: file.path, reason: "no such file or directory",
        uses: [AttachmentUse(kind: .project, item: "Flax sweater", photo: nil)])
      #expect(throws: BackupError.attachmentsUnavailable([lost], exporting: true)) {
        try LibraryExport.write(from: store, to: zip)
      }
      #expect(
        BackupError.attachmentsUnavailable([lost], exporting: true).description
          == "attachment \(pdf.sha256) (\(file.path)) cannot be exported: no such file or directory")
      #expect(!FileManager.default.fileExists(atPath: zip.path))
      // Every one is named in one run, in the export's order (projects first): the PDF the
      // writing found, then care.txt, altered (QA: one a run).
      let text = try #require(try store.library().yarns.first?.photos[2])
      let textFile = store.attachmentURL(sha256: text.sha256)
      try Data("abd".utf8).write(to: textFile)
      // printf abd | sha256sum
      let abd = "a52d159f262b2c6ddb724a61840befc36eb30c88877a4030b65cbe86298449c9"
      let altered = UnavailableAttachment(
        sha256: text.sha256, path: textFile.path, reason: "its SHA-256 is \(abd), expected \(text.sha256)",
        uses: [AttachmentUse(kind: .yarn, item: "Cascade 220 \"Heathers\"", photo: "care.txt")])
      #expect(throws: BackupError.attachmentsUnavailable([lost, altered], exporting: true)) {
        try LibraryExport.write(from: store, to: zip)
      }
      #expect(!FileManager.default.fileExists(atPath: zip.path))
    }
  }

  @Test func neverWritesOntoTheLibrarysOwnFilesEvenWithForce() throws {
    try Support.withScratch { dir in
      let store = try Support.makeStore(in: dir)
      try Support.expectNoWriteOntoLibraryFiles(of: store, in: dir) { url in
        try LibraryExport.write(from: store, to: url, force: true, now: Date(timeIntervalSince1970: 0))
      }
    }
  }

  @Test func holdsTheTablesAndAFolderPerProjectAndYarnWithSafeUniqueNames() throws {
    try Support.withScratch { dir in
      let store = try Support.makeStore(in: dir)
      let file = dir.appendingPathComponent("front.jpg")
      try Data("other front".utf8).write(to: file)
      let otherFront = try store.importAttachment(from: file, fileName: "Front.jpg")
      try store.write {
        try store.insert(Yarn(id: "y-con", name: "CON", photos: [otherFront]))
        try store.insert(Yarn(id: "y-con2", name: "con", photos: []))
        try store.insert(
          Project(id: "p-slash", name: "Socks / Spring: \"v2\"", photos: [otherFront, otherFront]))
      }
      let zip = dir.appendingPathComponent("export.zip")
      let summary = try LibraryExport.write(from: store, to: zip, now: Date(timeIntervalSince1970: 0))
      let entries = try Support.readZip(zip)
      let names = entries.map(\.0)
      #expect(names == summary.entries)
      #expect(
        names == [
          "stash.csv", "projects.csv", "time.csv",
          "projects/Flax sweater/flax.pdf", "projects/Flax sweater/front.jpg",
          "projects/Flax sweater/project.txt",
          "projects/Vanilla socks/project.txt",
          "projects/Socks _ Spring_ _v2_/Front.jpg", "projects/Socks _ Spring_ _v2_/Front (2).jpg",
          "projects/Socks _ Spring_ _v2_/project.txt",
          "yarns/Cascade 220 _Heathers_/front.jpg", "yarns/Cascade 220 _Heathers_/swatch.png",
          "yarns/Cascade 220 _Heathers_/care.txt", "yarns/Cascade 220 _Heathers_/yarn.txt",
          "yarns/Knitting for Olive Merino — ünïcødé/front.jpg",
          "yarns/Knitting for Olive Merino — ünïcødé/yarn.txt",
          "yarns/_CON/Front.jpg", "yarns/_CON/yarn.txt",
          "yarns/_con (2)/yarn.txt",
          "index.html",
        ])
      #expect(summary.yarns == 4 && summary.projects == 3 && summary.files == 9)
      let bytes = Dictionary(entries, uniquingKeysWith: { a, _ in a })
      // The tables are what the CSV exports write.
      var stash = Data()
      try StashCSV.export(from: store, to: CSVWriter { stash.append(contentsOf: $0) })
      #expect(bytes["stash.csv"] == stash)
      var time = Data()
      _ = try TimeCSV.export(from: store, to: CSVWriter { time.append(contentsOf: $0) })
      #expect(bytes["time.csv"] == time)
      // The files are the attachments' bytes.
      #expect(bytes["yarns/_CON/Front.jpg"] == Data("other front".utf8))
      #expect(bytes["yarns/Cascade 220 _Heathers_/care.txt"] == Data("abc".utf8))
      // The text pages.
      let yarnText = String(decoding: bytes["yarns/Cascade 220 _Heathers_/yarn.txt"] ?? Data(), as: UTF8.self)
      #expect(
        yarnText.hasPrefix(
          "Name:                 Cascade 220 \"Heathers\"\nBrand:                Cascade Yarns\n"))
      #expect(yarnText.contains("\nUsed in:\n  Flax sweater (finished): 2.5 skeins\n"))
      #expect(
        yarnText.contains("\nNotes:\n  2025-12-29T09:20:00Z\n  soft, \"squishy\"\n  bloomed after washing\n"))
      let projectText = String(decoding: bytes["projects/Flax sweater/project.txt"] ?? Data(), as: UTF8.self)
      #expect(projectText.contains("Pattern PDF: flax.pdf\n"))
      #expect(projectText.contains("Time:        1h 30m in 1 session\n"))
      // Every component is at most 255 bytes and free of the unsafe characters.
      for name in names {
        for component in name.split(separator: "/") {
          #expect(SafeFileName.make(String(component)) == String(component))
        }
      }
      // An existing file is not replaced without force.
      #expect(throws: BackupError.destinationExists(path: zip.path)) {
        try LibraryExport.write(from: store, to: zip)
      }
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".") }.isEmpty)
    }
  }
}
