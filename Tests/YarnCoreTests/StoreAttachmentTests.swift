import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

@Suite struct StoreAttachmentTests {
  /// SHA-256("abc"), FIPS 180-2 appendix B.1.
  static let abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
  /// SHA-256 of no bytes.
  static let empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

  /// Every file below `folder`, as paths relative to it, sorted.
  func files(in folder: URL) throws -> [String] {
    let base = folder.standardizedFileURL.path
    var out: [String] = []
    let enumerator = FileManager.default.enumerator(atPath: base)
    while let relative = enumerator?.nextObject() as? String {
      var isDirectory: ObjCBool = false
      _ = FileManager.default.fileExists(atPath: base + "/" + relative, isDirectory: &isDirectory)
      if !isDirectory.boolValue { out.append(relative) }
    }
    return out.sorted()
  }

  /// A PDF is told by its header, `%PDF-`, within the first 1,024 bytes (ISO 32000-1 §7.5.2
  /// puts it first; Adobe's readers look that far).
  @Test func aPDFIsToldByItsHeaderInTheFirst1024Bytes() {
    let header = Array("%PDF-1.7".utf8)
    #expect(Attachment.hasPDFHeader(header))
    #expect(Attachment.hasPDFHeader([UInt8](repeating: 0x20, count: 1019) + header))  // ends at 1,024
    #expect(!Attachment.hasPDFHeader([UInt8](repeating: 0x20, count: 1020) + header))
    #expect(!Attachment.hasPDFHeader(Array("%PDF".utf8)))
    #expect(!Attachment.hasPDFHeader(Array("<!DOCTYPE html>".utf8)))
    #expect(!Attachment.hasPDFHeader([0xFF, 0xD8, 0xFF, 0xE0]))  // a JPEG
    #expect(!Attachment.hasPDFHeader([]))
  }

  /// A photo's first bytes must be those of the image type its extension names (QA: a text
  /// file named `x.png` was attached as `image/png`). The signatures, from the formats'
  /// specifications: PNG §5.2, ITU-T T.81 (JPEG's SOI and first marker segment), GIF89a §17,
  /// RFC 9649 (WebP's RIFF header), ISO/IEC 14496-12 §4.3 (the `ftyp` box) with HEIF's brands.
  @Test func aPhotoIsToldByTheSignatureOfItsType() {
    func missing(_ bytes: [UInt8], _ mediaType: String) -> String? {
      Attachment.missingImageSignature(bytes, mediaType: mediaType, fileSize: bytes.count)?.format
    }
    let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D]
    #expect(missing(png, "image/png") == nil)
    #expect(missing(Array(png.prefix(7)), "image/png") == "PNG")
    #expect(missing(Array("hello\n".utf8), "image/png") == "PNG")
    // A JFIF file: SOI, then APP0 of 16 bytes (`FF E0 00 10`, "JFIF\0"); an Exif one: APP1.
    #expect(missing([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF\0".utf8), "image/jpeg") == nil)
    #expect(missing([0xFF, 0xD8, 0xFF, 0xE1, 0x1C, 0x2A] + Array("Exif\0\0".utf8), "image/jpeg") == nil)
    #expect(missing([0xFF, 0xD8, 0x00], "image/jpeg") == "JPEG")
    #expect(missing(png, "image/jpeg") == "JPEG")
    #expect(missing(Array("GIF87a".utf8), "image/gif") == nil)
    #expect(missing(Array("GIF89a".utf8), "image/gif") == nil)
    #expect(missing(Array("GIF88a".utf8), "image/gif") == "GIF")
    #expect(missing(Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WEBPVP8 ".utf8), "image/webp") == nil)
    #expect(missing(Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WAVEfmt ".utf8), "image/webp") == "WebP")
    // Other types are not images yarn checks.
    #expect(missing(Array("hello".utf8), "text/plain") == nil)
    #expect(missing([], "application/octet-stream") == nil)
  }

  /// QA: `FF D8 FF` alone, 3 bytes, passed as a JPEG (and showed blank). After the SOI comes
  /// a marker segment (T.81 B.2.1): `FF`, a table, APPn, COM or frame code (Table B.1), a
  /// length of at least 2 (B.1.1.4); fill bytes `FF` may come before the code (B.1.1.2).
  @Test func aJPEGIsItsSOIThenAMarkerSegment() {
    func missing(_ bytes: [UInt8]) -> String? {
      Attachment.missingImageSignature(bytes, mediaType: "image/jpeg", fileSize: bytes.count)?.format
    }
    #expect(missing([0xFF, 0xD8, 0xFF]) == "JPEG")
    #expect(missing([0xFF, 0xD8, 0xFF, 0xE0]) == "JPEG")  // no length
    #expect(missing([0xFF, 0xD8, 0xFF, 0xE0, 0x00]) == "JPEG")
    #expect(missing([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01]) == "JPEG")  // a length under 2
    #expect(missing([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x02]) == nil)
    #expect(missing([0xFF, 0xD8, 0xFF, 0xFF, 0xFF, 0xDB, 0x00, 0x43]) == nil)  // fill bytes, DQT
    #expect(missing([0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11]) == nil)  // SOF0
    #expect(missing([0xFF, 0xD8, 0xFF, 0xC4, 0x01, 0xA2]) == nil)  // DHT
    #expect(missing([0xFF, 0xD8, 0xFF, 0xFE, 0x00, 0x05]) == nil)  // COM
    // EOI, SOI again, SOS before a frame, RST0, TEM, a reserved code: no segment after SOI.
    for code: UInt8 in [0xD9, 0xD8, 0xDA, 0xD0, 0x01, 0x02, 0xBF, 0x00] {
      #expect(missing([0xFF, 0xD8, 0xFF, code, 0x00, 0x10]) == "JPEG", "\(code)")
    }
    #expect(missing([0xFF, 0xD8] + [UInt8](repeating: 0xFF, count: 62)) == "JPEG")  // fill to the end
  }

  /// A `ftyp` box of `major` and `compatible` brands, minor version 0, and a `meta` box after.
  func ftyp(_ major: String, _ compatible: [String]) -> [UInt8] {
    let size = 16 + 4 * compatible.count
    return [0, 0, 0, UInt8(size)] + Array("ftyp\(major)".utf8) + [0, 0, 0, 0]
      + compatible.flatMap { Array($0.utf8) } + Array("\0\0\0\u{8}meta".utf8)
  }

  /// HEIC is an HEVC-coded HEIF file: one of its brands (ISO/IEC 23008-12) is `heic`, `heix`,
  /// `heim`, `heis` or, for a sequence, `hevc`, `hevx`, `hevm`, `hevs`. QA: an AVIF file
  /// (major brand `avif`, compatible `mif1`) named `.heic` was taken for HEIC.
  @Test func aHEICIsAHEIFFileOfAnHEVCBrand() {
    func mismatch(_ bytes: [UInt8]) -> YarnModel.Attachment.ImageSignatureMismatch? {
      Attachment.missingImageSignature(bytes, mediaType: "image/heic", fileSize: bytes.count)
    }
    // An iPhone's HEIC: a box of 24 bytes, major brand heic, minor version 0, compatible
    // brands mif1 and heic.
    #expect(mismatch(ftyp("heic", ["mif1", "heic"])) == nil)
    #expect(mismatch(ftyp("mif1", ["heic"])) == nil)
    for brand in ["heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs"] {
      #expect(mismatch(ftyp(brand, [])) == nil, "\(brand)")
      #expect(mismatch(ftyp("msf1", ["iso8", brand])) == nil, "\(brand)")
    }
    // mif1 or msf1 alone names no coding: no HEIC.
    #expect(mismatch(ftyp("mif1", ["mif1", "miaf"])) == .init("HEIC"))
    #expect(mismatch(ftyp("msf1", [])) == .init("HEIC"))
    // AVIF, as libavif writes it: avif, then mif1, miaf, MA1B; an AVIF sequence: avis.
    #expect(mismatch(ftyp("avif", ["mif1", "avif", "miaf", "MA1B"])) == .init("HEIC", actual: "AVIF"))
    #expect(mismatch(ftyp("mif1", ["avif"])) == .init("HEIC", actual: "AVIF"))
    #expect(mismatch(ftyp("avis", ["msf1", "avif"])) == .init("HEIC", actual: "AVIF"))
    // An MP4 video (isom) is no HEIF image; nor is a brand found past the box's end.
    #expect(mismatch(ftyp("isom", ["iso2", "mp41"])) == .init("HEIC"))
    #expect(mismatch(ftyp("isom", []) + Array("heic".utf8)) == .init("HEIC"))
    #expect(mismatch(Array("....ftyp".utf8)) == .init("HEIC"))
  }

  /// QA: a `.avif` was stored as `application/octet-stream` and never checked (a text named
  /// `fake.avif` was attached), though a `.heic` holding AVIF was told to take that name. An
  /// AVIF is a HEIF file whose `ftyp` box names `avif` (an image) or `avis` (a sequence): AV1
  /// Image File Format, AOMedia; ISO/IEC 14496-12 §4.3 for the box.
  @Test func anAVIFIsAHEIFFileOfAnAV1Brand() {
    #expect(Attachment.mediaType(forFileName: "a.avif") == "image/avif")
    #expect(Attachment.mediaType(forFileName: "B.AVIF") == "image/avif")
    func mismatch(_ bytes: [UInt8]) -> YarnModel.Attachment.ImageSignatureMismatch? {
      Attachment.missingImageSignature(bytes, mediaType: "image/avif", fileSize: bytes.count)
    }
    // As libavif writes a still image and a sequence; a major brand mif1 with avif compatible.
    #expect(mismatch(ftyp("avif", ["mif1", "avif", "miaf", "MA1B"])) == nil)
    #expect(mismatch(ftyp("avis", ["avif", "avis", "msf1", "iso8", "mif1", "miaf"])) == nil)
    #expect(mismatch(ftyp("mif1", ["avif"])) == nil)
    // Text, HEIF of no coding, an MP4 video, a brand past the box's end: no AVIF.
    #expect(mismatch(Array("hi\n".utf8)) == .init("AVIF"))
    #expect(mismatch(ftyp("mif1", ["mif1", "miaf"])) == .init("AVIF"))
    #expect(mismatch(ftyp("isom", ["iso2", "mp41"])) == .init("AVIF"))
    #expect(mismatch(ftyp("isom", []) + Array("avif".utf8)) == .init("AVIF"))
    // An iPhone's HEIC named .avif is said to be HEIC.
    #expect(mismatch(ftyp("heic", ["mif1", "heic"])) == .init("AVIF", actual: "HEIC"))
  }

  /// The brands are read within the `ftyp` box alone (ISO/IEC 14496-12 §4.2, §4.3): its size
  /// counts at least itself, its type, the major brand and the minor version (16 bytes) and
  /// ends within the file; 0 is to the end of the file; 1, a 64-bit size after the type, is
  /// refused. QA: a box of size 8 (ending before its major brand) and one of size 0xFFFFFFF0 in
  /// a 32-byte file were attached as AVIF.
  @Test func theBrandsAreReadWithinTheFTYPBox() {
    func mismatch(_ bytes: [UInt8], _ mediaType: String, fileSize: Int? = nil) -> String? {
      Attachment.missingImageSignature(bytes, mediaType: mediaType, fileSize: fileSize ?? bytes.count)?.format
    }
    let minor: [UInt8] = [0, 0, 0, 0]
    // 16 bytes, the box's size 8: no major brand in the box.
    #expect(mismatch([0, 0, 0, 8] + Array("ftypavif".utf8) + minor, "image/avif") == "AVIF")
    #expect(mismatch([0, 0, 0, 8] + Array("ftypheic".utf8) + minor, "image/heic") == "HEIC")
    #expect(mismatch([0, 0, 0, 15] + Array("ftypavif".utf8) + minor, "image/avif") == "AVIF")
    // 32 bytes, the box's size 0xFFFFFFF0: past the file's end, whether the file is 32 bytes
    // or longer than the window.
    let huge = [0xFF, 0xFF, 0xFF, 0xF0] + Array("ftypavif".utf8) + minor + Array("mif1avifmiafMA1B".utf8)
    #expect(mismatch(huge, "image/avif") == "AVIF")
    #expect(mismatch(huge, "image/avif", fileSize: 1_000) == "AVIF")
    // Size 1: a 64-bit size (here 24) before the brands, refused, and said to be that.
    let large = [0, 0, 0, 1] + Array("ftyp".utf8) + [0, 0, 0, 0, 0, 0, 0, 24] + Array("avif".utf8) + minor
    #expect(mismatch(large, "image/avif") == "AVIF")
    #expect(
      Attachment.missingImageSignature(large, mediaType: "image/avif", fileSize: large.count)
        == .init("AVIF", largeFTYPSize: true))
    #expect(
      Attachment.missingImageSignature(large, mediaType: "image/heic", fileSize: large.count)
        == .init("HEIC", largeFTYPSize: true))
    // Size 0: the box runs to the end of the file, 20 bytes here, 12 too few.
    #expect(
      mismatch([0, 0, 0, 0] + Array("ftypmif1".utf8) + minor + Array("avif".utf8), "image/avif") == nil)
    #expect(mismatch([0, 0, 0, 0] + Array("ftypavif".utf8), "image/avif") == "AVIF")
    // Exactly 16 (no compatible brands) is a box; one of 24 bytes in a 23-byte file is not.
    #expect(mismatch([0, 0, 0, 16] + Array("ftypavif".utf8) + minor, "image/avif") == nil)
    #expect(mismatch(Array(ftyp("mif1", ["avif", "miaf"]).prefix(23)), "image/avif") == "AVIF")
    // A box of 80 bytes (16 compatible brands) in a file of 80 or more: its first 64 are read.
    let long = ftyp("mif1", ["miaf", "avif"] + Array(repeating: "iso8", count: 14))
    #expect(mismatch(Array(long.prefix(64)), "image/avif", fileSize: 80) == nil)
    #expect(mismatch(Array(long.prefix(64)), "image/avif", fileSize: 79) == "AVIF")
    // QA: a box of 76 bytes (16 + 4 × 15), major brand mif1, whose 15th compatible brand,
    // avif or heic, is at bytes 72 to 75, past the first 64, was refused. The whole box is read.
    let iso8 = Array(repeating: "iso8", count: 13)
    #expect(mismatch(ftyp("mif1", ["miaf"] + iso8 + ["avif"]), "image/avif") == nil)
    #expect(mismatch(ftyp("mif1", ["miaf"] + iso8 + ["heic"]), "image/heic") == nil)
    // A box larger than the 4 KiB read (here 4,112 bytes: 16 + 4 × 1,024 brands): its brands
    // within the first 4,096 bytes are read, one past them is not.
    func box(_ compatible: [String]) -> [UInt8] {
      [0, 0, 0x10, 0x10] + Array("ftypmif1".utf8) + minor + compatible.flatMap { Array($0.utf8) }
    }
    let first = box(["avif"] + Array(repeating: "iso8", count: 1_023))
    let last = box(Array(repeating: "iso8", count: 1_023) + ["avif"])
    #expect(first.count == 0x1010 && last.count == 4_112)
    #expect(mismatch(first, "image/avif") == nil)
    #expect(mismatch(last, "image/avif") == "AVIF")
    // QA: refused without saying why; the mismatch says the box, of 4,112 bytes, is longer
    // than what is read. A box of the file's whole length (size 0) alike; one within the
    // window is not long.
    #expect(
      Attachment.missingImageSignature(last, mediaType: "image/avif", fileSize: last.count)
        == .init("AVIF", longFTYPBoxSize: 4_112))
    #expect(
      Attachment.missingImageSignature(last, mediaType: "image/heic", fileSize: last.count)
        == .init("HEIC", longFTYPBoxSize: 4_112))
    let open = [0, 0, 0, 0] + last.dropFirst(4)
    #expect(
      Attachment.missingImageSignature(open, mediaType: "image/avif", fileSize: 5_000)
        == .init("AVIF", longFTYPBoxSize: 5_000))
    #expect(
      Attachment.missingImageSignature(ftyp("mif1", ["miaf"]), mediaType: "image/avif", fileSize: 28)
        == .init("AVIF"))
    // Bytes read that name the other format's brand say that, not the box's length.
    let heic = box(["heic"] + Array(repeating: "iso8", count: 1_023))
    #expect(
      Attachment.missingImageSignature(heic, mediaType: "image/avif", fileSize: heic.count)
        == .init("AVIF", actual: "HEIC"))
  }

  @Test func importIsContentAddressedAndDeduplicated() throws {
    try withTemporaryDirectory { root in
      let store = try LibraryStore(directory: root.appendingPathComponent("lib"), mode: .readWrite)
      let first = try store.importAttachment(
        from: try makeFile("swatch.JPG", Array("abc".utf8), in: root))
      #expect(
        first
          == Attachment(
            fileName: "swatch.JPG", mediaType: "image/jpeg", byteCount: 3, sha256: Self.abc))
      let stored = root.appendingPathComponent("lib/attachments/ba/" + Self.abc)
      #expect(
        store.attachmentURL(sha256: Self.abc).standardizedFileURL == stored.standardizedFileURL)
      #expect(try Data(contentsOf: stored) == Data("abc".utf8))
      #expect(store.hasAttachment(sha256: Self.abc))

      let again = try store.importAttachment(
        from: try makeFile("other.bin", Array("abc".utf8), in: root), fileName: "copy.png",
        mediaType: "text/plain")
      #expect(
        again
          == Attachment(
            fileName: "copy.png", mediaType: "text/plain", byteCount: 3, sha256: Self.abc))
      // One stored file, no temporary files left behind.
      #expect(try files(in: root.appendingPathComponent("lib/attachments")) == ["ba/" + Self.abc])

      let nothing = try store.importAttachment(from: try makeFile("empty", [], in: root))
      #expect(nothing.sha256 == Self.empty)
      #expect(nothing.byteCount == 0)
      #expect(nothing.mediaType == "application/octet-stream")
      #expect(
        try files(in: root.appendingPathComponent("lib/attachments")) == [
          "ba/" + Self.abc, "e3/" + Self.empty,
        ])
    }
  }

  @Test func largeFilesAreStreamedAcrossChunks() throws {
    try withTemporaryDirectory { root in
      let store = try LibraryStore(directory: root.appendingPathComponent("lib"), mode: .readWrite)
      // 2.5 chunks of a pattern that differs in every chunk.
      let count = AttachmentFiles.chunkSize * 5 / 2 + 7
      let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 20) }
      let source = try makeFile("big.pdf", bytes, in: root)
      let attachment = try store.importAttachment(from: source)
      #expect(attachment.byteCount == Int64(count))
      #expect(attachment.mediaType == "application/pdf")
      #expect(try Data(contentsOf: store.attachmentURL(sha256: attachment.sha256)) == Data(bytes))
      // An independent oracle: coreutils' sha256sum, when present.
      let tool = URL(fileURLWithPath: "/usr/bin/sha256sum")
      if FileManager.default.isExecutableFile(atPath: tool.path) {
        let process = Process()
        process.executableURL = tool
        process.arguments = [source.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(
          decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(text.hasPrefix(attachment.sha256 + " "))
      }
    }
  }

  @Test func aMissingSourceIsAnIOErrorAndLeavesNothing() throws {
    try withTemporaryDirectory { root in
      let store = try LibraryStore(directory: root.appendingPathComponent("lib"), mode: .readWrite)
      let missing = root.appendingPathComponent("nope.jpg")
      do {
        _ = try store.importAttachment(from: missing)
        Issue.record("a missing file was imported")
      } catch StoreError.io(let path, _) {
        #expect(path == missing.path)
      }
      // A directory cannot be read as a file either.
      #expect(throws: StoreError.self) { _ = try store.importAttachment(from: root) }
      #expect(try files(in: root.appendingPathComponent("lib/attachments")) == [])
    }
  }

  @Test func digestsThatAreNotHexNeverLeaveTheFolder() throws {
    try withTemporaryDirectory { root in
      let store = try LibraryStore(directory: root, mode: .readWrite)
      for bad in ["../../etc/passwd", "", "AB" + String(repeating: "0", count: 62), "ab"] {
        let url = store.attachmentURL(sha256: bad)
        #expect(url.deletingLastPathComponent().lastPathComponent == "attachments")
        #expect(store.hasAttachment(sha256: bad) == false)
      }
    }
  }

  @Test func recordsNeedTheirBytesStoredAndAValidDigest() throws {
    try withTemporaryDirectory { root in
      let store = try LibraryStore(directory: root, mode: .readWrite)
      let unstored = Attachment(
        fileName: "a.jpg", mediaType: "image/jpeg", byteCount: 3, sha256: Self.abc)
      do {
        try store.insert(Yarn(id: "y", name: "Y", photos: [unstored]))
        Issue.record("a photo without bytes was recorded")
      } catch StoreError.missingAttachment(let sha256) {
        #expect(sha256 == Self.abc)
      }
      #expect(try store.yarns().isEmpty)
      let malformed = Attachment(
        fileName: "a.jpg", mediaType: "image/jpeg", byteCount: 3, sha256: "../x")
      #expect(throws: StoreError.self) {
        try store.insert(Project(id: "p", name: "P", photos: [malformed]))
      }
      // Once imported, the same record is accepted.
      _ = try store.importAttachment(from: try makeFile("a.jpg", Array("abc".utf8), in: root))
      try store.insert(Yarn(id: "y", name: "Y", photos: [unstored, unstored]))
      #expect(try store.yarn(id: "y")?.photos == [unstored, unstored])
    }
  }
}

/// Attachment files are collected: once a change that drops attachment records commits, the
/// files no record and no step of the undo history refers to any more are deleted (a removal
/// keeps its files until the history forgets it); `sweepAttachments` deletes every file no
/// record or history refers to (what a killed restore or import left).
@Suite struct AttachmentCollectionTests {
  /// Forgets the whole undo history, as a `.replace` restore does: the files only the history
  /// kept are deleted once that commits.
  private func forgetHistory(_ store: LibraryStore) throws {
    try store.withoutHistory(barrier: "forgotten") {}
  }

  private func photo(_ store: LibraryStore, _ bytes: String, in root: URL) throws -> YarnCore.Attachment {
    try store.importAttachment(from: try makeFile(bytes + ".jpg", Array(bytes.utf8), in: root))
  }

  /// QA: detaching a photo moves the later ones up, and moving one needed its file: with a
  /// later photo's file lost, the good one could not be detached. A record the owner had
  /// already may move without its file; a new one still needs its own.
  @Test func photosThatOnlyMoveNeedNoFileButNewOnesDo() throws {
    try withTemporaryDirectory { root in
      let store = try LibraryStore(directory: root.appendingPathComponent("lib"), mode: .readWrite)
      let a = try store.importAttachment(from: try makeFile("a.png", Array("abc".utf8), in: root))
      let b = try store.importAttachment(from: try makeFile("b.png", [], in: root))
      try store.insert(Yarn(id: "y", name: "Y", photos: [a, b]))
      try store.insert(Project(id: "p", name: "P", photos: [a, b]))
      try FileManager.default.removeItem(at: store.attachmentURL(sha256: StoreAttachmentTests.empty))
      try store.update(Yarn(id: "y", name: "Y", photos: [b]))
      #expect(try store.yarn(id: "y")?.photos == [b])
      try store.update(Project(id: "p", name: "P", photos: [b]))
      #expect(try store.project(id: "p")?.photos == [b])
      // A photo new to the yarn still needs its file.
      let lost = String(repeating: "0", count: 64)
      let new = Attachment(fileName: "c.png", mediaType: "image/png", byteCount: 1, sha256: lost)
      do {
        try store.update(Yarn(id: "y", name: "Y", photos: [b, new]))
        Issue.record("a new photo without its file was recorded")
      } catch StoreError.missingAttachment(let sha256) {
        #expect(sha256 == lost)
      }
      #expect(try store.yarn(id: "y")?.photos == [b])
    }
  }

  /// QA: `stash rm --force` of a yarn whose photo file was lost succeeded, and its undo then
  /// failed (the file it would bring back is missing). The removal is refused, naming the
  /// photo, until it is detached; a project's likewise, its pattern PDF too.
  @Test func anItemWithALostFileIsNotRemovedUntilTheFileIsDetached() throws {
    try withTemporaryDirectory { root in
      let store = try LibraryStore(directory: root.appendingPathComponent("lib"), mode: .readWrite)
      let a = try store.importAttachment(from: try makeFile("a.png", Array("abc".utf8), in: root))
      let b = try store.importAttachment(from: try makeFile("b.png", [], in: root))
      let pdf = Attachment(fileName: "p.pdf", mediaType: "application/pdf", byteCount: 0, sha256: b.sha256)
      try store.insert(Yarn(id: "y", name: "Y", photos: [a, b]))
      try store.insert(Project(id: "p", name: "P", pattern: Pattern(pdf: pdf)))
      try FileManager.default.removeItem(at: store.attachmentURL(sha256: StoreAttachmentTests.empty))
      func expectLost(_ name: String, _ pattern: Bool, _ remove: () throws -> Void) {
        do {
          try remove()
          Issue.record("an item with a lost file was removed")
        } catch StoreError.lostAttachment(let item, let fileName, let sha256, let use) {
          #expect(item == name && sha256 == StoreAttachmentTests.empty)
          #expect(fileName == (pattern ? "p.pdf" : "b.png"))
          #expect(
            use
              == AttachmentUse(kind: pattern ? .project : .yarn, item: name, photo: pattern ? nil : "b.png"))
        } catch { Issue.record("\(error)") }
      }
      expectLost("Y", false) { try store.deleteYarn(id: "y", force: true) }
      expectLost("P", true) { try store.deleteProject(id: "p", force: true) }
      #expect(try store.yarn(id: "y")?.photos == [a, b])
      #expect(
        StoreError.lostAttachment(
          name: "Y", fileName: "b.png", sha256: "e3b0",
          use: AttachmentUse(kind: .yarn, item: "Y", photo: "b.png")
        )
        .description
          == "cannot remove yarn \"Y\": the file of its photo b.png (e3b0) is missing from attachments/, "
          + "so undo could not give it back")
      // Detached, it goes, and undo gives back the yarn with the photo it kept.
      try store.update(Yarn(id: "y", name: "Y", photos: [a]))
      try store.deleteYarn(id: "y", force: true)
      _ = try store.undo()
      #expect(try store.yarn(id: "y")?.photos == [a])
    }
  }

  @Test func removingTheLastItemThatUsesAFileDeletesItAndSharedFilesStay() throws {
    try withTemporaryDirectory { root in
      let store = try LibraryStore(directory: root.appendingPathComponent("lib"), mode: .readWrite)
      let shared = try photo(store, "abc", in: root)
      let own = try photo(store, "own", in: root)
      try store.insert(Yarn(id: "y1", name: "One", photos: [shared, own]))
      try store.insert(
        Project(id: "p1", name: "Hat", craft: .knitting, status: .planned, photos: [shared]))
      #expect(shared.sha256 == StoreAttachmentTests.abc)

      try store.deleteYarn(id: "y1", force: true)
      #expect(store.hasAttachment(sha256: own.sha256))  // undo can bring y1 back
      try forgetHistory(store)
      #expect(!store.hasAttachment(sha256: own.sha256))  // used by y1 only
      #expect(store.hasAttachment(sha256: shared.sha256))  // the project still uses it
      try store.deleteProject(id: "p1", force: true)
      #expect(store.hasAttachment(sha256: shared.sha256))
      try forgetHistory(store)
      #expect(!store.hasAttachment(sha256: shared.sha256))
    }
  }

  @Test func anEditThatDropsAPhotoDeletesItsFileOnlyOnceItCommits() throws {
    try withTemporaryDirectory { root in
      let store = try LibraryStore(directory: root.appendingPathComponent("lib"), mode: .readWrite)
      let first = try photo(store, "first", in: root)
      var yarn = Yarn(id: "y1", name: "One", photos: [first])
      try store.insert(yarn)
      yarn.photos = []
      // Rolled back: the record stays, and so does its file.
      struct Stop: Error {}
      #expect(throws: Stop.self) {
        try store.write {
          try store.update(yarn)
          throw Stop()
        }
      }
      #expect(store.hasAttachment(sha256: first.sha256))
      #expect(try store.yarn(id: "y1")?.photos == [first])
      try store.update(yarn)
      #expect(store.hasAttachment(sha256: first.sha256))  // undo can bring it back
      try forgetHistory(store)
      #expect(!store.hasAttachment(sha256: first.sha256))
    }
  }

  @Test func removeAllDeletesEveryFileOnceItCommits() throws {
    try withTemporaryDirectory { root in
      let store = try LibraryStore(directory: root.appendingPathComponent("lib"), mode: .readWrite)
      let one = try photo(store, "one", in: root)
      try store.insert(Yarn(id: "y1", name: "One", photos: [one]))
      try store.removeAll()
      #expect(try store.isEmpty())
      #expect(store.hasAttachment(sha256: one.sha256))  // undo can bring it back
      try forgetHistory(store)
      #expect(!store.hasAttachment(sha256: one.sha256))
    }
  }

  @Test func theSweepDeletesFilesAndTemporariesNoRecordUses() throws {
    try withTemporaryDirectory { root in
      let store = try LibraryStore(directory: root.appendingPathComponent("lib"), mode: .readWrite)
      let kept = try photo(store, "abc", in: root)
      try store.insert(Yarn(id: "y1", name: "One", photos: [kept]))
      // What a restore killed before its commit leaves: a placed file no record uses, and a
      // temporary file of its own.
      let stray = try store.importAttachment(
        from: try makeFile("stray.jpg", Array("stray".utf8), in: root))
      let folder = root.appendingPathComponent("lib/attachments")
      let killed = ".restore-0b6f1c52-3f4e-4d7a-9a51-6c2e8d0b7f11"
      try Data("partial".utf8).write(to: folder.appendingPathComponent(killed))
      #expect(store.hasAttachment(sha256: stray.sha256))

      // Files yarn did not write are not its to delete.
      let foreign = ["README.txt", ".hidden", "zz/mine.txt", ".import-mine", ".restore-notes.txt"]
      for folderName in ["zz", "ok", "e3"] {
        try FileManager.default.createDirectory(
          at: folder.appendingPathComponent(folderName), withIntermediateDirectories: true)
      }
      for name in foreign { try Data("mine".utf8).write(to: folder.appendingPathComponent(name)) }

      #expect(try store.sweepAttachments() == 2)
      #expect(!store.hasAttachment(sha256: stray.sha256))
      #expect(store.hasAttachment(sha256: kept.sha256))
      #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(killed).path))
      // The stray file's shard folder, now empty, is gone; the kept one's stays.
      let strayShard = store.attachmentURL(sha256: stray.sha256).deletingLastPathComponent()
      #expect(!FileManager.default.fileExists(atPath: strayShard.path))
      for name in foreign {
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path), "\(name)")
      }
      // An empty folder that is not a shard (not two hex digits) is not yarn's; an empty
      // shard is.
      #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("ok").path))
      #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("e3").path))
      #expect(try store.sweepAttachments() == 0)
    }
  }
}
