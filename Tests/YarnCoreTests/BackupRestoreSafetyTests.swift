import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

/// Hostile, damaged and foreign archives: each is refused with the library left as it was.
@Suite struct BackupRestoreSafetyTests {
  typealias Support = BackupTestSupport

  // MARK: Building archives by hand

  /// A valid library of one yarn with one attachment holding "abc", as backup entries.
  /// `validEntries()` written as a directory backup, `dir/unpacked`; its URL.
  private func unpackedValidBackup(in dir: URL) throws -> URL {
    let unpacked = dir.appendingPathComponent("unpacked")
    for (name, data) in try validEntries() {
      let url = unpacked.appendingPathComponent(name)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try data.write(to: url)
    }
    return unpacked
  }

  private func validEntries(
    formatVersion: Int = 1, libraryDigest: String? = nil, attachmentSize: Int64 = 3,
    extraFiles: [BackupManifest.File] = [], yarnID usageYarnID: String? = nil,
    toolCount: Int?? = .none
  ) throws -> [(String, Data)] {
    let photo = Attachment(
      fileName: "care.txt", mediaType: "text/plain", byteCount: 3, sha256: Support.abcSHA256)
    let yarn = Yarn(id: "y1", name: "Cascade 220", photos: [photo])
    var projects: [Project] = []
    if let usageYarnID {
      projects.append(
        Project(
          id: "p1", name: "Hat", usages: [YarnUsage(yarnID: usageYarnID, amount: Amount(1, .skein))]
        ))
    }
    let library = Library(yarns: [yarn], projects: projects)
    let libraryData = try JSONCoding.encoder().encode(library)
    var counts = BackupManifest.Counts(of: library)
    if case .some(let tools) = toolCount { counts.tools = tools }
    let manifest = BackupManifest(
      formatVersion: formatVersion, createdAt: Date(timeIntervalSince1970: 1_796_000_000),
      generator: "hand", counts: counts,
      files: [
        BackupManifest.File(
          path: "library.json", size: Int64(libraryData.count),
          sha256: try libraryDigest ?? SHA256Hasher.hexDigest(of: libraryData)),
        BackupManifest.File(
          path: "attachments/" + Support.abcSHA256, size: attachmentSize, sha256: Support.abcSHA256),
      ] + extraFiles)
    return [
      ("manifest.json", try JSONCoding.encoder().encode(manifest)),
      ("library.json", libraryData),
      ("attachments/" + Support.abcSHA256, Data("abc".utf8)),
    ]
  }

  private func problems(_ body: () throws -> Void) -> [BackupProblem] {
    do {
      try body()
      Issue.record("expected BackupError.invalidBackup")
    } catch BackupError.invalidBackup(_, let problems) {
      return problems
    } catch {
      Issue.record("expected BackupError.invalidBackup, got \(error)")
    }
    return []
  }

  @Test func aHandBuiltBackupVerifies() throws {
    try Support.withScratch { dir in
      let zip = dir.appendingPathComponent("ok.zip")
      try Support.writeZip(try validEntries(), to: zip)
      #expect(try Backup.verify(zip).counts.yarns == 1)
    }
  }

  @Test func refusesATraversalEntryEvenWithAManifest() throws {
    try Support.withScratch { dir in
      let zip = dir.appendingPathComponent("evil.zip")
      try Support.writeZip(try validEntries() + [("../evil", Data("x".utf8))], to: zip)
      let found = problems { try Backup.verify(zip) }
      #expect(found.contains(.unsafeName("../evil", reason: "has a \"..\" component")))
      #expect(found.contains(.unlisted("../evil")))
      #expect(
        !FileManager.default.fileExists(
          atPath: dir.deletingLastPathComponent().appendingPathComponent("evil").path))
    }
  }

  /// A traversal entry the manifest lists too is one problem, reported once: the zip's
  /// listing and the manifest's file list both find the name unsafe.
  @Test func aTraversalEntryTheManifestListsIsReportedOnce() throws {
    try Support.withScratch { dir in
      let zip = dir.appendingPathComponent("listed.zip")
      let bytes = Data("x".utf8)
      let listed = BackupManifest.File(
        path: "../../../x", size: 1, sha256: try SHA256Hasher.hexDigest(of: bytes))
      try Support.writeZip(try validEntries(extraFiles: [listed]) + [("../../../x", bytes)], to: zip)
      let found = problems { try Backup.verify(zip) }
      let unsafe = BackupProblem.unsafeName("../../../x", reason: "has a \"..\" component")
      #expect(found.filter { $0 == unsafe }.count == 1)
      #expect(found.count == Set(found).count, "a problem reported twice: \(found)")
    }
  }

  /// One bad line of the manifest is one problem: an unsafe path it lists is not also said to
  /// be of the wrong form, nor missing, whether or not the zip holds such an entry; a safe
  /// path of no form a backup holds is said to be that, not also missing.
  @Test func aBadManifestLineIsOneProblem() throws {
    try Support.withScratch { dir in
      let zip = dir.appendingPathComponent("lines.zip")
      let bytes = Data("x".utf8)
      let digest = try SHA256Hasher.hexDigest(of: bytes)
      let unsafe = BackupManifest.File(path: "../../../x", size: 1, sha256: digest)
      let stray = BackupManifest.File(path: "notes.txt", size: 1, sha256: digest)
      for extra in [[], [("../../../x", bytes)]] {
        try Support.writeZip(try validEntries(extraFiles: [unsafe, stray]) + extra, to: zip)
        let found = problems { try Backup.verify(zip) }
        #expect(
          found.map(\.description).sorted() == [
            "manifest.json lists \"notes.txt\": not library.json or attachments/<sha256> (format version 1)",
            "unsafe entry name \"../../../x\": has a \"..\" component",
          ], "\(extra.count) entries: \(found)")
      }
    }
  }

  @Test func reportsEveryProblemNotOnlyTheFirst() throws {
    try Support.withScratch { dir in
      let zip = dir.appendingPathComponent("many.zip")
      let wrong = String(repeating: "0", count: 64)
      var entries = try validEntries(libraryDigest: wrong, yarnID: "missing-yarn")
      entries += [
        ("/etc/passwd", Data()), ("a\\b", Data()), ("Library.JSON", Data()),
      ]
      try Support.writeZip(entries, to: zip)
      let found = problems { try Backup.verify(zip) }
      #expect(found.contains(.unsafeName("/etc/passwd", reason: "absolute path")))
      #expect(found.contains(.unsafeName("a\\b", reason: "holds a backslash")))
      #expect(found.contains(.caseCollision("library.json", "Library.JSON")))
      #expect(found.contains(.unlisted("/etc/passwd")))
      #expect(found.count >= 6)

      // Names fixed, data still wrong: the digest and the reference are both reported.
      try Support.writeZip(try validEntries(libraryDigest: wrong, yarnID: "missing-yarn"), to: zip)
      let second = problems { try Backup.verify(zip) }
      #expect(second.count == 1)
      #expect(
        second.first.map {
          if case .digestMismatch("library.json", wrong, _) = $0 { true } else { false }
        } == true)

      try Support.writeZip(try validEntries(yarnID: "missing-yarn"), to: zip)
      let third = problems { try Backup.verify(zip) }
      #expect(
        third.contains(
          .inconsistentLibrary(reason: "project p1 (Hat) uses yarn missing-yarn, which is missing"))
      )
      #expect(third.contains(.countMismatch(kind: "projects", manifest: 1, library: 1)) == false)
    }
  }

  /// The manifest counts tools; one written before it did (no `tools` key) is not compared.
  @Test func theToolCountIsCheckedWhenTheManifestHasOne() throws {
    try Support.withScratch { dir in
      let zip = dir.appendingPathComponent("tools.zip")
      let older = try validEntries(toolCount: .some(nil))
      #expect(
        older[0].0 == "manifest.json" && !String(decoding: older[0].1, as: UTF8.self).contains("\"tools\""))
      try Support.writeZip(older, to: zip)
      _ = try Backup.verify(zip)
      try Support.writeZip(try validEntries(toolCount: 2), to: zip)
      #expect(problems { try Backup.verify(zip) } == [.countMismatch(kind: "tools", manifest: 2, library: 0)])
    }
  }

  @Test func refusesANewerFormatNamingTheVersionNeeded() throws {
    try Support.withScratch { dir in
      let zip = dir.appendingPathComponent("v2.zip")
      // A v2 manifest may look different: only its version is read.
      let manifest = Data(
        #"{"format": "yarn-backup", "formatVersion": 2, "files": "elsewhere"}"#.utf8)
      try Support.writeZip([("manifest.json", manifest)], to: zip)
      #expect(throws: BackupError.newerFormat(path: zip.path, found: 2, known: 1)) {
        try Backup.verify(zip)
      }
      #expect(
        BackupError.newerFormat(path: "b.zip", found: 2, known: 1).description.contains(
          "format version 2 is needed"))
    }
  }

  @Test func refusesAnEntryLargerThanItsManifestSize() throws {
    try Support.withScratch { dir in
      let zip = dir.appendingPathComponent("big.zip")
      try Support.writeZip(try validEntries(attachmentSize: 2), to: zip)
      let found = problems { try Backup.verify(zip) }
      #expect(
        found.contains(.sizeMismatch("attachments/" + Support.abcSHA256, expected: 2, found: 3)))

      // Same claim in a directory: the file is read at most to its manifest size.
      let unpacked = dir.appendingPathComponent("unpacked")
      for (name, data) in try validEntries(attachmentSize: 2) {
        let url = unpacked.appendingPathComponent(name)
        try FileManager.default.createDirectory(
          at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
      }
      #expect(problems { try Backup.verify(unpacked) }.count >= 1)
    }
  }

  @Test func readingIsCappedAtTheManifestSizeEvenWhenTheListingAgrees() throws {
    // A directory whose file grows after the listing: reading stops at size + one piece.
    try Support.withScratch { dir in
      let unpacked = try unpackedValidBackup(in: dir)
      let reader = try BackupReader(url: unpacked)
      #expect(reader.structuralProblems.isEmpty)
      try Data("abcdef".utf8).write(
        to: unpacked.appendingPathComponent("attachments/" + Support.abcSHA256))
      let file = try #require(reader.attachmentFiles.first)
      #expect(try reader.readAttachment(file, to: nil) == .tooLarge(file.path, limit: 3))
    }
  }

  @Test func refusesSymbolicLinksInADirectoryBackup() throws {
    try Support.withScratch { dir in
      let unpacked = try unpackedValidBackup(in: dir)
      let attachment = unpacked.appendingPathComponent("attachments/" + Support.abcSHA256)
      let elsewhere = dir.appendingPathComponent("elsewhere")
      try Data("abc".utf8).write(to: elsewhere)
      try FileManager.default.removeItem(at: attachment)
      try FileManager.default.createSymbolicLink(at: attachment, withDestinationURL: elsewhere)
      let found = problems { try Backup.verify(unpacked) }
      #expect(found == [.symbolicLink("attachments/" + Support.abcSHA256)])
    }
  }

  /// A directory backup is held to the rules a zip is (docs/FORMAT.md, steps 2 and 4: no entry
  /// unlisted, no symbolic links), in the same words, by verify and restore alike: a file
  /// beside the backup's, a link and a folder inside attachments/ (QA: all three passed).
  @Test func aDirectoryBackupWithUnlistedEntriesOrALinkIsRefusedAsAZip() throws {
    try Support.withScratch { dir in
      let unpacked = try unpackedValidBackup(in: dir)
      // Hidden files a file manager adds (Finder's) are not the backup's: left out.
      try Data("finder".utf8).write(to: unpacked.appendingPathComponent(".DS_Store"))
      try Data("finder".utf8).write(to: unpacked.appendingPathComponent("attachments/._link"))
      #expect(try Backup.verify(unpacked).counts.yarns == 1)
      try Data("notes".utf8).write(to: unpacked.appendingPathComponent("README.txt"))
      try FileManager.default.createSymbolicLink(
        atPath: unpacked.appendingPathComponent("attachments/link").path, withDestinationPath: "/etc/passwd")
      try FileManager.default.createDirectory(
        at: unpacked.appendingPathComponent("attachments/sub"), withIntermediateDirectories: true)
      // By names in byte order, each folder after the one holding it: the link, then the
      // unlisted names (a folder's with its "/", as Info-ZIP lists one).
      let expected: [BackupProblem] = [
        .symbolicLink("attachments/link"), .unlisted("README.txt"), .unlisted("attachments/link"),
        .unlisted("attachments/sub/"),
      ]
      #expect(problems { try Backup.verify(unpacked) } == expected)
      #expect(
        expected.map(\.description) == [
          "entry \"attachments/link\" is a symbolic link",
          "entry \"README.txt\" is not listed in manifest.json",
          "entry \"attachments/link\" is not listed in manifest.json",
          "entry \"attachments/sub/\" is not listed in manifest.json",
        ])
      let target = try LibraryStore(directory: dir.appendingPathComponent("new"), mode: .readWrite)
      #expect(problems { try Backup.restore(from: unpacked, into: target) } == expected)
      #expect(try target.isEmpty())
    }
  }

  /// What a file manager adds is ignored by one rule, in a zip as in a directory, by verify
  /// and restore alike (docs/FORMAT.md, Container): hidden regular files (Finder's
  /// `.DS_Store`, `._NAME`) and Finder's Compress's `__MACOSX/` folders, which an unzip by
  /// Info-ZIP makes a folder. Any other unlisted entry is refused as before, hidden folders
  /// and files in `__MACOSX/` not hidden too (QA: a zip made by Finder's Compress was
  /// refused, the folder it came from passed).
  @Test func whatAFileManagerAddsIsIgnoredInAZipAsInADirectory() throws {
    try Support.withScratch { dir in
      let finder: [(String, Data)] = [
        (".DS_Store", Data("finder".utf8)),
        ("attachments/._" + Support.abcSHA256, Data("apple double".utf8)),
        ("__MACOSX/", Data()), ("__MACOSX/._manifest.json", Data("apple double".utf8)),
        ("__MACOSX/attachments/", Data()),
        ("__MACOSX/attachments/._" + Support.abcSHA256, Data("apple double".utf8)),
      ]
      let foreign: [(String, Data)] = [(".Trashes/", Data()), ("__MACOSX/notes.txt", Data("x".utf8))]
      func unpack(_ entries: [(String, Data)], into folder: URL) throws {
        for (name, data) in entries {
          let url = folder.appendingPathComponent(name)
          try FileManager.default.createDirectory(
            at: name.hasSuffix("/") ? url : url.deletingLastPathComponent(), withIntermediateDirectories: true
          )
          if !name.hasSuffix("/") { try data.write(to: url) }
        }
      }
      let zip = dir.appendingPathComponent("finder.zip")
      try Support.writeZip(try validEntries() + finder, to: zip)
      #expect(try Backup.verify(zip).counts.yarns == 1)
      let target = try LibraryStore(directory: dir.appendingPathComponent("new"), mode: .readWrite)
      #expect(try Backup.restore(from: zip, into: target).counts.yarns == 1)
      #expect(try target.library().yarns.map(\.id) == ["y1"])
      let unpacked = dir.appendingPathComponent("unpacked")
      try unpack(try validEntries() + finder, into: unpacked)
      #expect(try Backup.verify(unpacked).counts.yarns == 1)

      let other = try LibraryStore(directory: dir.appendingPathComponent("other"), mode: .readWrite)
      let refused: [BackupProblem] = [.unlisted(".Trashes/"), .unlisted("__MACOSX/notes.txt")]
      try unpack(foreign, into: unpacked)
      #expect(problems { try Backup.verify(unpacked) } == refused)
      #expect(problems { try Backup.restore(from: unpacked, into: other) } == refused)
      // A hidden name that is unsafe is not ignored.
      let unsafe = BackupProblem.unsafeName("../.DS_Store", reason: "has a \"..\" component")
      try Support.writeZip(try validEntries() + finder + foreign + [("../.DS_Store", Data())], to: zip)
      #expect(problems { try Backup.verify(zip) } == [unsafe] + refused + [.unlisted("../.DS_Store")])
      #expect(
        problems { try Backup.restore(from: zip, into: other) } == [unsafe] + refused + [
          .unlisted("../.DS_Store")
        ])
      #expect(try other.isEmpty())
    }
  }

  /// The rule itself (`BackupChecks.isFileManagers`), on entries as a zip or a directory
  /// lists them: only hidden regular files, and `__MACOSX/` and the folders in it.
  @Test(arguments: [
    (BackupSourceEntry(name: ".DS_Store", size: 6), true),
    (BackupSourceEntry(name: "attachments/._x", size: 4), true),
    (BackupSourceEntry(name: "__MACOSX/", size: 0), true),
    (BackupSourceEntry(name: "__MACOSX/attachments/", size: 0), true),
    (BackupSourceEntry(name: "__MACOSX/._x", size: 2), true),
    (BackupSourceEntry(name: "__MACOSX/x", size: 2), false),
    (BackupSourceEntry(name: "__MACOSX", size: 2), false),
    (BackupSourceEntry(name: "__macosx/", size: 0), false),
    (BackupSourceEntry(name: "a/__MACOSX/", size: 0), false),
    (BackupSourceEntry(name: ".hidden/", size: 0), false),
    (BackupSourceEntry(name: ".DS_Store", size: 0, isSymbolicLink: true), false),
    (BackupSourceEntry(name: ".fifo", size: 0, notRegular: "not a regular file"), false),
    (BackupSourceEntry(name: "../.DS_Store", size: 0), false),
    (BackupSourceEntry(name: ".\\..\\x", size: 0), false),
    (BackupSourceEntry(name: "README.txt", size: 1), false),
  ])
  func whatAFileManagerAdds(entry: BackupSourceEntry, ignored: Bool) {
    #expect(BackupChecks.isFileManagers(entry) == ignored, "\(entry.name)")
  }

  /// Writes `entries` as a directory backup in `folder` (a name ending in `/` as a folder).
  private func unpack(_ entries: [(String, Data)], into folder: URL) throws {
    for (name, data) in entries {
      let url = folder.appendingPathComponent(name)
      try FileManager.default.createDirectory(
        at: name.hasSuffix("/") ? url : url.deletingLastPathComponent(), withIntermediateDirectories: true)
      if !name.hasSuffix("/") { try data.write(to: url) }
    }
  }

  /// A zip entry's name is checked by its own bytes, whatever its UTF-8 flag says, by the rule
  /// a directory's file name is (docs/FORMAT.md, Container): libzip read a name without the
  /// flag as CP437, so control characters passed as glyphs (QA: `.\u{1B}[31mred` and
  /// `attachments/._\u{1F}` were ignored as hidden files, `x\u{1}` named as "x☺"), and a
  /// name that is not UTF-8 is refused, named by its bytes escaped.
  @Test func aZipEntryNameIsCheckedByItsBytesAsADirectorysFileName() throws {
    try Support.withScratch { dir in
      let control = "holds a NUL or control character"
      for name in [".\u{1B}[31mred", "attachments/._\u{1F}", "x\u{1}.txt"] {
        // ZipArchive.Writer refuses such a name: written with a Q, the Q's byte then replaced.
        let zip = dir.appendingPathComponent("control.zip")
        let placeholder = String(name.unicodeScalars.map { $0.value < 0x20 ? "Q" : Character($0) })
        try Support.writeZip(try validEntries() + [(placeholder, Data("x".utf8))], to: zip)
        try Support.patchZip(zip, replacing: Array(placeholder.utf8), with: Array(name.utf8))
        let expected: [BackupProblem] = [.unsafeName(name, reason: control), .unlisted(name)]
        #expect(problems { try Backup.verify(zip) } == expected, "\(name)")
        let unpacked = dir.appendingPathComponent("unpacked-\(name.utf8.first!)-\(name.utf8.count)")
        try unpack(try validEntries() + [(name, Data("x".utf8))], into: unpacked)
        #expect(problems { try Backup.verify(unpacked) } == expected, "\(name)")
      }
      #expect(BackupProblem.unsafeName("x\u{1}.txt", reason: control).description.contains(#""x\u{1}.txt""#))

      // Not UTF-8: ".caf" and the byte 0xE9 (é in Latin-1), in a zip without the flag and as a file.
      let zip = dir.appendingPathComponent("latin1.zip")
      try Support.writeZip(try validEntries() + [(".cafQ", Data("x".utf8))], to: zip)
      try Support.patchZip(zip, replacing: Array(".cafQ".utf8), with: Array(".caf".utf8) + [0xE9])
      let expected: [BackupProblem] = [
        .unsafeName(".caf\\xE9", reason: "is not UTF-8"), .unlisted(".caf\\xE9"),
      ]
      #expect(problems { try Backup.verify(zip) } == expected)
      #expect(expected[0].description == #"unsafe entry name ".caf\xE9": is not UTF-8"#)
      let unpacked = dir.appendingPathComponent("latin1")
      try unpack(try validEntries(), into: unpacked)
      let path = Array((unpacked.path + "/.caf").utf8) + [0xE9, 0]
      let fd = path.map { CChar(bitPattern: $0) }.withUnsafeBufferPointer {
        open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644)
      }
      #expect(fd >= 0)
      close(fd)
      #expect(problems { try Backup.verify(unpacked) } == expected)
    }
  }

  /// A zip entry's Unix file type (its external attributes) is held to the rule a directory's
  /// `lstat` is: only a regular file (or a folder whose name ends in `/`) is one; a FIFO,
  /// a device or a folder named as a file is not, is never ignored as a file manager's, and is
  /// said to be not a regular file, in a directory as in a zip (QA: a `.DS_Store` FIFO,
  /// character device or folder in a zip was ignored, a listed attachment marked FIFO passed,
  /// and a directory's `.DS_Store` FIFO was said only to be unlisted).
  @Test func aZipEntrysFileTypeIsHeldToTheRuleADirectorysIs() throws {
    try Support.withScratch { dir in
      let notRegular = "not a regular file"
      let hidden: [BackupProblem] = [.unreadable(".DS_Store", reason: notRegular), .unlisted(".DS_Store")]
      for mode: UInt32 in [0o010644, 0o020644, 0o040755] {
        let zip = dir.appendingPathComponent("type.zip")
        try Support.writeZip(try validEntries() + [(".DS_StorQ", Data())], to: zip)
        try Support.patchZip(
          zip, replacing: Array(".DS_StorQ".utf8), with: Array(".DS_Store".utf8), mode: mode)
        #expect(problems { try Backup.verify(zip) } == hidden, "\(String(mode, radix: 8))")
      }
      let attachment = "attachments/" + Support.abcSHA256
      let zip = dir.appendingPathComponent("fifo.zip")
      try Support.writeZip(try validEntries(), to: zip)
      try Support.patchZip(
        zip, replacing: Array(attachment.utf8), with: Array(attachment.utf8), mode: 0o010644)
      let listed: [BackupProblem] = [.unreadable(attachment, reason: notRegular)]
      #expect(problems { try Backup.verify(zip) } == listed)
      // A regular file, a folder entry ending in "/" and a name with no type recorded pass.
      try Support.writeZip(try validEntries() + [("attachments/", Data())], to: zip)
      try Support.patchZip(
        zip, replacing: Array("attachments/".utf8), with: Array("attachments/".utf8), mode: 0o040755)
      #expect(try Backup.verify(zip).counts.yarns == 1)

      let unpacked = dir.appendingPathComponent("unpacked")
      try unpack(try validEntries(), into: unpacked)
      #expect(mkfifo(unpacked.appendingPathComponent(".DS_Store").path, 0o600) == 0)
      #expect(problems { try Backup.verify(unpacked) } == hidden)
      #expect(hidden[0].description == "cannot read .DS_Store: not a regular file")
      try FileManager.default.removeItem(at: unpacked.appendingPathComponent(".DS_Store"))
      try FileManager.default.removeItem(at: unpacked.appendingPathComponent(attachment))
      #expect(mkfifo(unpacked.appendingPathComponent(attachment).path, 0o600) == 0)
      #expect(problems { try Backup.verify(unpacked) } == listed)
    }
  }

  /// The folders a zip's names imply count as a directory's folders do: a hidden file in a
  /// folder the manifest does not list refuses the folder, in a zip without folder entries as
  /// in a directory (QA: `foo/.DS_Store` and `__macosx/._x` passed in a zip).
  @Test func aZipsImpliedFoldersCountAsADirectorysFolders() throws {
    try Support.withScratch { dir in
      for (name, folder) in [("foo/.DS_Store", "foo/"), ("__macosx/._x", "__macosx/")] {
        let zip = dir.appendingPathComponent("implied.zip")
        try Support.writeZip(try validEntries() + [(name, Data("x".utf8))], to: zip)
        #expect(problems { try Backup.verify(zip) } == [.unlisted(folder)], "\(name)")
        let unpacked = dir.appendingPathComponent("unpacked-" + folder.dropLast())
        try unpack(try validEntries() + [(name, Data("x".utf8))], into: unpacked)
        #expect(problems { try Backup.verify(unpacked) } == [.unlisted(folder)], "\(name)")
      }
    }
  }

  @Test func compressionRatioIsCapped() throws {
    try Support.withScratch { dir in
      let zip = dir.appendingPathComponent("ratio.zip")
      let zeros = Data(count: 2 << 20)
      let sha = try SHA256Hasher.hexDigest(of: zeros)
      let photo = Attachment(
        fileName: "zeros.bin", mediaType: "application/octet-stream", byteCount: 2 << 20, sha256: sha)
      let library = Library(yarns: [Yarn(id: "y1", name: "Zeros", photos: [photo])])
      let libraryData = try JSONCoding.encoder().encode(library)
      let manifest = BackupManifest(
        formatVersion: 1, createdAt: Date(timeIntervalSince1970: 0), generator: "hand",
        counts: .init(of: library),
        files: [
          .init(
            path: "library.json", size: Int64(libraryData.count),
            sha256: try SHA256Hasher.hexDigest(of: libraryData)),
          .init(path: "attachments/" + sha, size: Int64(zeros.count), sha256: sha),
        ])
      try Support.writeZip(
        [
          ("manifest.json", try JSONCoding.encoder().encode(manifest)),
          ("library.json", libraryData),
          ("attachments/" + sha, zeros),
        ], to: zip)
      let found = problems { try Backup.verify(zip) }
      #expect(
        found.contains {
          if case .compressionRatio("attachments/" + sha, _, 200) = $0 { true } else { false }
        })
      // With the check relaxed the same archive verifies.
      #expect(
        try Backup.verify(zip, limits: BackupLimits(maxCompressionRatio: 10_000)).files.count == 2)
    }
  }

  /// A path that cannot be looked up is not found, with the system's reason, as other paths
  /// are said (QA: "no such file or directory" for every failure of `stat`).
  @Test func aMissingPathIsNotFoundWithTheSystemsReason() throws {
    try Support.withScratch { dir in
      let url = dir.appendingPathComponent("nothing.zip")
      let missing = BackupError.notFound(path: url.path, reason: "no such file or directory")
      #expect(throws: missing) { try Backup.verify(url) }
      #expect(missing.description == "no backup at \(url.path): no such file or directory")
      // Under a file (ENOTDIR), through a loop of links (ELOOP): glibc's and Darwin's words.
      let file = dir.appendingPathComponent("file.zip")
      try Data("x".utf8).write(to: file)
      let under = file.appendingPathComponent("backup.zip")
      #expect(throws: BackupError.notFound(path: under.path, reason: "not a directory")) {
        try Backup.verify(under)
      }
      let loop = dir.appendingPathComponent("loop.zip")
      try FileManager.default.createSymbolicLink(atPath: loop.path, withDestinationPath: loop.path)
      #expect(throws: BackupError.notFound(path: loop.path, reason: "too many levels of symbolic links")) {
        try Backup.verify(loop)
      }
      let target = try LibraryStore(directory: dir.appendingPathComponent("new"), mode: .readWrite)
      #expect(throws: BackupError.notFound(path: under.path, reason: "not a directory")) {
        try Backup.restore(from: under, into: target)
      }
    }
  }

  @Test func entryCountIsCapped() throws {
    try Support.withScratch { dir in
      let zip = dir.appendingPathComponent("many.zip")
      try Support.writeZip(try validEntries(), to: zip)
      #expect(
        throws: BackupError.invalidBackup(
          path: zip.path, problems: [.tooManyEntries(count: 3, limit: 2)])
      ) {
        try Backup.verify(zip, limits: BackupLimits(maxEntries: 2))
      }
      #expect(
        BackupProblem.tooManyEntries(count: 3, limit: 2).description
          == "the backup has more than 2 entries, the most a backup may have")
    }
  }

  /// A directory's walk stops at the first entry past the limit, ignored ones counted as in
  /// a zip (QA: a directory of millions of files was walked whole before it was refused): of
  /// 4 entries and 50 hidden files, 6 names are read with a limit of 5; verify and restore
  /// alike.
  @Test func aDirectoryBackupsWalkStopsPastTheEntryLimit() throws {
    try Support.withScratch { dir in
      let unpacked = try unpackedValidBackup(in: dir)
      for index in 0..<50 {
        try Data().write(to: unpacked.appendingPathComponent("attachments/._\(index)"))
      }
      let limits = BackupLimits(maxEntries: 5)
      let refused = BackupError.invalidBackup(
        path: unpacked.path, problems: [.tooManyEntries(count: 6, limit: 5)])
      #expect(throws: refused) { try Backup.verify(unpacked, limits: limits) }
      let target = try LibraryStore(directory: dir.appendingPathComponent("new"), mode: .readWrite)
      #expect(throws: refused) { try Backup.restore(from: unpacked, into: target, limits: limits) }
      // 54 in all: attachments/, library.json, manifest.json, the attachment and 50 hidden.
      #expect(try Backup.verify(unpacked, limits: BackupLimits(maxEntries: 54)).counts.yarns == 1)
      #expect(
        throws: BackupError.invalidBackup(
          path: unpacked.path, problems: [.tooManyEntries(count: 54, limit: 53)])
      ) {
        try Backup.verify(unpacked, limits: BackupLimits(maxEntries: 53))
      }
    }
  }

  // MARK: Foreign and hostile archives from ../shared/data/zip

  @Test func aForeignArchiveWithHostileNamesSaysWhatIsWrong() throws {
    let traversal = Support.sharedZip("zipfoundation/testSimpleTraversalAttack.zip")
    let found = problems { try Backup.verify(traversal) }
    #expect(
      found.contains(
        .unsafeName("../testTraversalAttackABC/EVIL_HERE", reason: "has a \"..\" component")))
    #expect(found.contains(.missing("manifest.json")))
    let link = Support.sharedZip("zipfoundation/testUnzipUncontainedSymlink.zip")
    #expect(
      problems { try Backup.verify(link) } == [
        .symbolicLink("evil_symlink"), .missing("manifest.json"),
      ])
    // A harmless foreign zip is simply not a backup.
    let plain = Support.sharedZip("go-archive-zip-testdata/test.zip")
    #expect(throws: BackupError.missingManifest(path: plain.path)) { try Backup.verify(plain) }
  }

  @Test(arguments: [
    "zipfoundation/testSimpleTraversalAttack.zip",
    "zipfoundation/testPathDelimiterTraversalAttack.zip",
    "zipfoundation/testUnzipUncontainedSymlink.zip", "kd2fw-zipbomb/zipbomb_1G.zip",
    "unzip-p-testdata/zbsm.zip", "unzip-p-testdata/badcrc.zip", "unzip-p-testdata/truncated.zip",
    "unzip-p-testdata/cases.zip", "unzip-p-testdata/encrypted.zip",
    "go-archive-zip-testdata/symlink.zip",
    "go-archive-zip-testdata/test-baddirsz.zip", "go-archive-zip-testdata/readme.notzip",
  ])
  func refusesForeignArchivesQuickly(name: String) throws {
    let url = Support.sharedZip(name)
    try #require(FileManager.default.fileExists(atPath: url.path), "fixture \(name) missing")
    let started = Date()
    do {
      try Backup.verify(url)
      Issue.record("\(name) verified")
    } catch let error as BackupError {
      switch error {
      case .missingManifest, .cannotOpen, .invalidBackup: break
      default: Issue.record("\(name): unexpected \(error)")
      }
      #expect(error.description.contains(url.lastPathComponent))
    }
    #expect(Date().timeIntervalSince(started) < 2)
  }

  // MARK: The pure checks

  @Test(arguments: [
    ("", "empty name"), ("/etc/passwd", "absolute path"), ("..", "has a \"..\" component"),
    ("a/../../b", "has a \"..\" component"), ("./a", "has a \".\" component"),
    ("a//b", "has an empty path component"), ("..\\evil", "holds a backslash"),
    ("a\u{0}b", "holds a NUL or control character"), ("C:/x", "starts with a drive letter"),
  ])
  func unsafeNames(name: String, reason: String) {
    #expect(BackupChecks.unsafeReason(name) == reason)
  }

  @Test(arguments: [
    "library.json", "attachments/" + BackupTestSupport.abcSHA256, "attachments/", "a/b.c",
    "ünï/cødé", "..a/b..", "...", "a/.hidden",
  ])
  func safeNames(name: String) {
    #expect(BackupChecks.unsafeReason(name) == nil)
  }

  @Test func duplicatesAndCaseCollisionsAreFound() {
    #expect(
      BackupChecks.nameProblems(["a", "b", "a", "B", "Ä", "ä"])
        == [.duplicateName("a"), .caseCollision("b", "B"), .caseCollision("Ä", "ä")])
  }

  @Test func manifestPathsMustFollowTheFormat() {
    let sha = BackupTestSupport.abcSHA256
    let manifest = BackupManifest(
      formatVersion: 1, createdAt: Date(timeIntervalSince1970: 0), generator: "t",
      counts: .init(yarns: 0, projects: 0, notes: 0, sessions: 0, attachments: 0),
      files: [
        .init(path: "notes.txt", size: 1, sha256: sha),
        .init(path: "attachments/" + String(repeating: "a", count: 64), size: 1, sha256: sha),
        .init(path: "attachments/x", size: -1, sha256: "XYZ"),
      ])
    let found = BackupChecks.manifestProblems(manifest, limits: .standard)
    #expect(found.contains(.missing("library.json")))
    #expect(
      found.contains(
        .invalidManifestEntry(
          "notes.txt", reason: "not library.json or attachments/<sha256> (format version 1)")))
    #expect(found.contains(.invalidManifestEntry("attachments/x", reason: "negative size -1")))
    #expect(
      found.contains(
        .invalidManifestEntry("attachments/x", reason: "sha256 is not 64 lower-case hex digits")))
    #expect(found.count == 6)
  }
}
