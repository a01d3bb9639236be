import Foundation
import Testing
import YarnCore

/// Every record can be corrected from the command line: usages (`project use --set`,
/// `project unuse`), photos and pattern PDFs (`stash detach`, `project detach`), whether a
/// yarn is stashed (`stash edit --stashed`), and removals print what they removed.
@Suite struct EditRecordsCLITests {
  private func usages(_ yarn: YarnRunner, _ project: String) throws -> [[String: Any]] {
    let shown = try #require(try yarn.ok(["project", "show", project, "--json"]).json() as? [String: Any])
    return try #require(shown["usages"] as? [[String: Any]])
  }

  /// `{"value", "unit"}` of each usage.
  private func amounts(_ usages: [[String: Any]]) -> [String] {
    usages.map { usage in
      let amount = usage["amount"] as? [String: Any]
      return "\(amount?["value"] ?? "?") \(amount?["unit"] ?? "?")"
    }
  }

  @Test func aUsageCanBeReplacedAndRemoved() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios", "--quantity", "3 skeins", "--net-weight-per-skein", "100g"])
    try yarn.ok(["stash", "add", "Arroyo"])
    try yarn.ok(["project", "add", "Flax", "--status", "finished"])
    try yarn.ok(["project", "use", "Flax", "Rios", "1 skein"])
    try yarn.ok(["project", "use", "Flax", "Arroyo", "20 g"])
    try yarn.ok(["project", "use", "Flax", "Rios", "50 g"])
    #expect(amounts(try usages(yarn, "Flax")) == ["1 skein", "20 g", "50 g"])

    // --set: Rios's two usages become one, where the first stood.
    try yarn.ok(["project", "use", "Flax", "Rios", "2 skeins", "--set"])
    #expect(amounts(try usages(yarn, "Flax")) == ["2 skein", "20 g"])
    // The estimate follows: 3 skeins - 2 skeins = 1 skein (100 g).
    let rios = try #require(try yarn.ok(["stash", "show", "Rios", "--json"]).json() as? [String: Any])
    let remaining = try #require(rios["remaining"] as? [String: Any])
    #expect(remaining["value"] as? Double == 1)

    try yarn.ok(["project", "unuse", "Flax", "Rios"])
    #expect(amounts(try usages(yarn, "Flax")) == ["20 g"])
    // Nothing recorded: refused, nothing changed.
    let again = try yarn.run(["project", "unuse", "Flax", "Rios"])
    #expect(again.status == 65)
    #expect(again.stderr.contains("'Flax' records no use of Rios"))
    #expect(amounts(try usages(yarn, "Flax")) == ["20 g"])
    // A yarn no longer used can be removed; one still used cannot.
    try yarn.ok(["stash", "rm", "Rios"])
    #expect(try yarn.run(["stash", "rm", "Arroyo"]).status == 65)
  }

  @Test func photosAndPatternsCanBeDetachedAndBroughtBack() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios"])
    try yarn.ok(["project", "add", "Flax"])
    let abc = try yarn.file("front.jpg", YarnRunner.jpeg("abc"))
    let xyz = try yarn.file("back.jpg", YarnRunner.jpeg("xyz"))
    try yarn.ok(["stash", "attach", "Rios", abc.path])
    try yarn.ok(["stash", "attach", "Rios", xyz.path])
    try yarn.ok(["project", "attach", "Flax", abc.path])
    // A pattern PDF must be one (ISO 32000's header, `%PDF-`): a JPEG, or a web page saved
    // under a .pdf name, is refused and nothing changes.
    let page = try yarn.file("pattern.pdf", Data("<!DOCTYPE html><title>Sign in</title>".utf8))
    for notPDF in [xyz, page] {
      let refused = try yarn.run(["project", "attach", "Flax", notPDF.path, "--pattern"])
      #expect(refused.status == 65)
      #expect(
        refused.stderr.hasPrefix(
          "error: \(notPDF.path) is not a PDF: its first 1024 bytes hold no PDF header (%PDF-)\n"))
    }
    #expect((try yarn.ok(["project", "show", "Flax", "--json"]).json() as? [String: Any])?["pattern"] == nil)
    let pdf = try yarn.file("back.pdf", Data("\n%PDF-1.4\n%%EOF\n".utf8))
    try yarn.ok(["project", "attach", "Flax", pdf.path, "--pattern"])
    // SHA-256 of FF D8 FF E0 "abc" (Python's hashlib).
    let abcDigest = "964dbefaad551579b528d6dcd6d448aecba5f9017e9bf4c291c257aa10389b78"
    let stored = yarn.library.appendingPathComponent("attachments/96/" + abcDigest)

    // By file name (case-insensitive): the yarn's photo goes; the project still uses the file.
    let detached = try #require(
      try yarn.ok(["stash", "detach", "Rios", "FRONT.JPG", "--json"]).json() as? [String: Any])
    #expect(detached["sha256"] as? String == abcDigest)
    #expect(FileManager.default.fileExists(atPath: stored.path))
    // By SHA-256 prefix: the last use goes; the file stays while `yarn undo` can bring the
    // photo back (it goes once the history forgets the change: UndoHistoryTests).
    try yarn.ok(["project", "detach", "Flax", "964d"])
    #expect(FileManager.default.fileExists(atPath: stored.path))
    try yarn.ok(["undo"])
    let back = try #require(try yarn.ok(["project", "show", "Flax", "--json"]).json() as? [String: Any])
    #expect((back["photos"] as? [[String: Any]])?.map { $0["sha256"] as? String } == [abcDigest])
    try yarn.ok(["project", "detach", "Flax", "964d"])

    try yarn.ok(["project", "detach", "Flax", "--pattern"])
    let flax = try #require(try yarn.ok(["project", "show", "Flax", "--json"]).json() as? [String: Any])
    #expect(flax["pattern"] == nil)
    #expect((flax["photos"] as? [Any])?.isEmpty == true)

    for (command, status, words) in [
      (["stash", "detach", "Rios", "nope.jpg"], Int32(65), "no photo matches 'nope.jpg'"),
      // The hint names the command that shows the photos (QA: it said `see 'show --json'`).
      (["stash", "detach", "Rios", "nope.jpg"], 65, " stash show YARN --json'\n"),
      (["project", "detach", "Flax", "nope.jpg"], 65, " project show PROJECT --json'\n"),
      // The start of a file name names no photo (QA: `g` detached `granny-blanket.jpg`).
      (["stash", "detach", "Rios", "b"], 65, "error: no photo matches 'b'; did you mean 'back.jpg'?\n"),
      (
        ["stash", "detach", "Rios", "back"], 65, "error: no photo matches 'back'; did you mean 'back.jpg'?\n"
      ),
      (
        ["stash", "detach", "Rios", "back.jp"], 65,
        "error: no photo matches 'back.jp'; did you mean 'back.jpg'?\n"
      ),
      (["stash", "detach", "Rios", "back", "--json"], 65, "no photo matches 'back'"),
      (["project", "detach", "Flax", "--pattern"], 65, "'Flax' has no pattern PDF"),
      (["project", "detach", "Flax"], 64, "give exactly one of <name> or --pattern"),
      (["project", "detach", "Flax", "back.jpg", "--pattern"], 64, "give exactly one of"),
    ] {
      let result = try yarn.run(command)
      #expect(result.status == status, "\(command): \(result.stderr)")
      #expect(result.stderr.contains(words), "\(command): \(result.stderr)")
    }
    // The same file attached again adds no second photo (`attachingTheSameFileAgainChangesNothing`).
    let again = try yarn.file("back.jpg", YarnRunner.jpeg("xyz"))
    #expect(try yarn.ok(["stash", "attach", "Rios", again.path]).stderr.hasSuffix("nothing changed\n"))
    let rios = try #require(try yarn.ok(["stash", "show", "Rios", "--json"]).json() as? [String: Any])
    #expect((rios["photos"] as? [[String: Any]])?.map { $0["fileName"] as? String } == ["back.jpg"])
  }

  /// QA: a text file named `x.png` was attached as a PNG photo. A photo's first bytes must
  /// be those of the image type its extension names (65, naming the file); nothing changes.
  @Test func aPhotoWhoseBytesAreNotOfItsExtensionsTypeIsRefused() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios"])
    try yarn.ok(["project", "add", "Flax"])
    let before = try yarn.librarySnapshot()
    let text = try yarn.file("x.png", Data("hello\n".utf8))
    // A JPEG's bytes under a .png name are not a PNG either.
    let jpeg = try yarn.file("y.PNG", YarnRunner.jpeg("abc"))
    for (file, type) in [(text, "PNG"), (jpeg, "PNG")] {
      for command in [["stash", "attach", "Rios", file.path], ["project", "attach", "Flax", file.path]] {
        let refused = try yarn.run(command)
        #expect(refused.status == 65, "\(command): \(refused.stderr)")
        #expect(
          refused.stderr.hasPrefix(
            "error: \(file.path) is not a \(type) image: its first bytes are not those of a \(type) file\n"),
          "\(refused.stderr)")
      }
    }
    // QA: a JPEG's first 3 bytes alone passed (a blank photo), and an AVIF file named .heic
    // was taken for HEIC.
    let stub = try yarn.file("stub.jpg", Data([0xFF, 0xD8, 0xFF]))
    let avif = try yarn.file(
      "a.heic", Data([0, 0, 0, 0x1C] + Array("ftypavif\0\0\0\0mif1avifmiaf\0\0\0\u{8}meta".utf8)))
    let fake = try yarn.file("fake.avif", Data("hi\n".utf8))
    // An ftyp box of size 1, a 64-bit size (24) after its type, refused by what it is.
    let large = try yarn.file(
      "large.avif", Data([0, 0, 0, 1] + Array("ftyp\0\0\0\0\0\0\0\u{18}avif\0\0\0\0\0\0\0\u{8}meta".utf8)))
    // QA: an ftyp box of 0x1010 = 4,112 bytes (16 + 4 × 1,024 brands) whose avif is its last
    // brand, at bytes 4,108 to 4,111, past the 4 KiB read, was refused without saying why.
    let long = try yarn.file(
      "long.avif",
      Data(
        [0, 0, 0x10, 0x10]
          + Array(("ftypmif1\0\0\0\0" + String(repeating: "iso8", count: 1_023) + "avif").utf8)))
    for (file, message, hint) in [
      (
        stub, "is not a JPEG image: its first bytes are not those of a JPEG file",
        "attach the photo itself; a photo of another type needs that type's extension (.jpg, .png, .heic, .avif, .gif or .webp)"
      ),
      (avif, "is not a HEIC image: it is an AVIF image", "an AVIF photo needs the extension .avif"),
      // QA: a .avif was never checked (`fake.avif`, a text, was attached).
      (
        fake, "is not an AVIF image: its first bytes are not those of an AVIF file",
        "attach the photo itself; a photo of another type needs that type's extension (.jpg, .png, .heic, .avif, .gif or .webp)"
      ),
      (
        large,
        "is refused as an AVIF image: its ftyp box has a 64-bit size (size 1), which yarn does not read",
        "a photo app writes the box with a 32-bit size; save the photo again and attach that"
      ),
      (
        long,
        "is refused as an AVIF image: its ftyp box is 4112 bytes long and names no AVIF brand within the file's first 4 KiB, past which yarn does not read",
        "a photo app writes the box with a few brands, in under 100 bytes; save the photo again and attach that"
      ),
    ] {
      for command in [["stash", "attach", "Rios", file.path], ["project", "attach", "Flax", file.path]] {
        let refused = try yarn.run(command)
        #expect(refused.status == 65, "\(command): \(refused.stderr)")
        #expect(refused.stderr == "error: \(file.path) \(message)\nhint: \(hint)\n", "\(refused.stderr)")
      }
    }
    #expect(try yarn.librarySnapshot() == before)
    // A HEIC named .avif is said to be one; the AVIF file under its own name is an AVIF photo.
    let heic = try yarn.file(
      "b.avif", Data([0, 0, 0, 0x18] + Array("ftypheic\0\0\0\0mif1heic\0\0\0\u{8}meta".utf8)))
    let misnamed = try yarn.run(["stash", "attach", "Rios", heic.path])
    #expect(misnamed.status == 65)
    #expect(
      misnamed.stderr
        == "error: \(heic.path) is not an AVIF image: it is a HEIC image\nhint: a HEIC photo needs the extension .heic\n"
    )
    let named = try yarn.file("a.avif", try Data(contentsOf: avif))
    try yarn.ok(["stash", "attach", "Rios", named.path])
    let photos = try #require(try yarn.ok(["stash", "show", "Rios", "--json"]).json() as? [String: Any])[
      "photos"]
    #expect((photos as? [[String: Any]])?.last?["mediaType"] as? String == "image/avif")
    // Its bytes under the right name, and a type yarn does not check, are attached.
    try yarn.ok(["stash", "attach", "Rios", try yarn.file("y.jpeg", YarnRunner.jpeg("abc")).path])
    // QA: an AVIF whose ftyp box (76 bytes, major brand mif1) lists avif 15th, at bytes 72 to
    // 75, past the 64 read, was refused; the whole box is read.
    let late = try yarn.file(
      "late.avif",
      Data(
        [0, 0, 0, 76] + Array(("ftypmif1\0\0\0\0miaf" + String(repeating: "iso8", count: 13) + "avif").utf8)))
    try yarn.ok(["stash", "attach", "Rios", late.path])
    try yarn.ok(["project", "attach", "Flax", try yarn.file("notes.txt", Data("hello\n".utf8)).path])
  }

  /// The same bytes attached again add nothing (no second photo, no undo step) and say so;
  /// a new pattern PDF in place of another names the one it replaces.
  @Test func attachingTheSameFileAgainChangesNothing() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios"])
    try yarn.ok(["project", "add", "Flax"])
    let red = try yarn.file("red.jpg", YarnRunner.jpeg("red"))
    try yarn.ok(["stash", "attach", "Rios", red.path])
    try yarn.ok(["project", "attach", "Flax", red.path])
    let a = try yarn.file("a.pdf", Data("%PDF-1.4 a".utf8))
    let b = try yarn.file("b.pdf", Data("%PDF-1.4 b".utf8))
    try yarn.ok(["project", "attach", "Flax", a.path, "--pattern"])
    let replaced = try yarn.ok(["project", "attach", "Flax", b.path, "--pattern"])
    #expect(
      replaced.stderr
        == "attached b.pdf to project Flax as its pattern, in place of a.pdf ('\(yarn.command("undo"))' gives it back)\n"
    )
    let before = try yarn.librarySnapshot()
    let steps = try yarn.ok(["undo", "--list", "--json"]).stdout
    // The same bytes under another name are the same photo too.
    let again = try yarn.ok([
      "stash", "attach", "Rios", try yarn.file("copy.jpg", YarnRunner.jpeg("red")).path,
    ])
    #expect(again.stderr == "yarn Rios already has this photo, as red.jpg; nothing changed\n")
    let photo = try yarn.ok(["project", "attach", "Flax", red.path])
    #expect(photo.stderr == "project Flax already has this photo, as red.jpg; nothing changed\n")
    let pattern = try yarn.ok(["project", "attach", "Flax", b.path, "--pattern"])
    #expect(pattern.stderr == "project Flax already has this pattern PDF, as b.pdf; nothing changed\n")
    #expect(try yarn.librarySnapshot() == before)
    #expect(try yarn.ok(["undo", "--list", "--json"]).stdout == steps)
  }

  /// Two photos whose names differ only by Unicode form (`Café.jpg` in NFC and in NFD): the
  /// name given byte for byte names one; a name that only folds to both stays ambiguous (QA:
  /// only a SHA-256 prefix could name either).
  @Test func aPhotosExactNameWinsOverItsLookAlike() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios"])
    let composed = "Caf\u{E9}.jpg"
    let decomposed = "Cafe\u{301}.jpg"
    try yarn.ok(["stash", "attach", "Rios", try yarn.file(composed, YarnRunner.jpeg("one")).path])
    try yarn.ok(["stash", "attach", "Rios", try yarn.file(decomposed, YarnRunner.jpeg("two")).path])
    #expect(try yarn.run(["stash", "detach", "Rios", "CAF\u{C9}.JPG"]).status == 64)
    try yarn.ok(["stash", "detach", "Rios", decomposed])
    let rios = try #require(try yarn.ok(["stash", "show", "Rios", "--json"]).json() as? [String: Any])
    let names = (rios["photos"] as? [[String: Any]])?.compactMap { $0["fileName"] as? String } ?? []
    #expect(names.count == 1)
    #expect(names.first.map { Array($0.unicodeScalars) } == Array(composed.unicodeScalars))
  }

  /// Two photos named `front.png` byte for byte and a `FRONT.png`: `detach front.png` lists
  /// the two only (a name given byte for byte wins over one that differs by case), and the
  /// hint asks for what tells them apart, a SHA-256 prefix (the file name was given).
  @Test func twoPhotosOfTheNameGivenAreToldApartBySHA256() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios"])
    for folder in ["one", "two"] {
      try FileManager.default.createDirectory(
        at: yarn.directory.appendingPathComponent(folder), withIntermediateDirectories: true)
    }
    let one = try yarn.file("one/front.png", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1]))
    let two = try yarn.file("two/front.png", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 2]))
    let upper = try yarn.file("FRONT.png", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 3]))
    for file in [one, two, upper] { try yarn.ok(["stash", "attach", "Rios", file.path]) }
    let result = try yarn.run(["stash", "detach", "Rios", "front.png"])
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("error: 'front.png' matches 2 photos: "), "\(result.stderr)")
    #expect(!result.stderr.contains("FRONT.png"))
    #expect(
      result.stderr.hasSuffix(
        "\nhint: they share the file name: name the photo by a prefix of its SHA-256 of at least 4 "
          + "characters; see 'yarn --library \(yarn.library.path) stash show YARN --json'\n"),
      "\(result.stderr)")
  }

  /// A file name may hold a tab or a line break (a file system allows them); messages and
  /// `show` write them as escapes, so that the name stays on its line. The name is kept as
  /// it is (JSON gives it back exactly).
  @Test func aFileNameWithALineBreakStaysOnItsLine() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios"])
    try yarn.ok(["project", "add", "Flax"])
    let odd = try yarn.file("we\tird\nname.jpg", YarnRunner.jpeg("abc"))
    let attached = try yarn.ok(["stash", "attach", "Rios", odd.path])
    #expect(attached.stderr == "attached we\\tird\\nname.jpg to yarn Rios\n")
    // The same name, now a PDF's bytes (`%PDF-`, 5 bytes), as the project's pattern.
    _ = try yarn.file("we\tird\nname.jpg", Data("%PDF-".utf8))
    let pattern = try yarn.ok(["project", "attach", "Flax", odd.path, "--pattern"])
    #expect(pattern.stderr.hasPrefix("attached we\\tird\\nname.jpg to project Flax "))
    let shown = try yarn.ok(["stash", "show", "Rios"]).stdout
    #expect(shown.contains("we\\tird\\nname.jpg (image/jpeg, 7 bytes)\n"))
    let project = try yarn.ok(["project", "show", "Flax"]).stdout
    #expect(project.contains("we\\tird\\nname.jpg (5 bytes)"))
    let json = try #require(try yarn.ok(["stash", "show", "Rios", "--json"]).json() as? [String: Any])
    #expect((json["photos"] as? [[String: Any]])?.first?["fileName"] as? String == "we\tird\nname.jpg")
    // A near miss: the suggestion is escaped too, and the message stays on one line.
    let miss = try yarn.run(["stash", "detach", "Rios", "we\tird\nname.png"])
    #expect(miss.status == 65)
    #expect(
      miss.stderr.hasPrefix(
        "error: no photo matches 'we\\tird\\nname.png'; did you mean 'we\\tird\\nname.jpg'?\n"),
      "\(miss.stderr)")
    let detached = try yarn.ok(["stash", "detach", "Rios", "we\tird\nname.jpg"])
    #expect(detached.stderr == "detached we\\tird\\nname.jpg from yarn Rios\n")
  }

  @Test func aYarnCanBeMarkedUsedUpAndRemovalsPrintWhatTheyRemoved() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios"])
    let edited = try #require(
      try yarn.ok(["stash", "edit", "Rios", "--stashed", "no", "--json"]).json() as? [String: Any])
    #expect(edited["status"] as? String == "used-up")
    let bad = try yarn.run(["stash", "edit", "Rios", "--stashed", "maybe"])
    #expect(bad.status == 64)
    #expect(bad.stderr.contains("expected yes or no"))
    try yarn.ok(["stash", "edit", "Rios", "--stashed", "YES"])

    let removed = try #require(try yarn.ok(["stash", "rm", "Rios", "--json"]).json() as? [String: Any])
    #expect(removed["name"] as? String == "Rios")
    #expect(removed["status"] as? String == "in-stash")
    try yarn.ok(["project", "add", "Flax"])
    let project = try #require(try yarn.ok(["project", "rm", "Flax", "--json"]).json() as? [String: Any])
    #expect(project["name"] as? String == "Flax")
  }
}

/// `stash rm` and `project rm` say what would go with the item and need `--force` for it.
@Suite struct SafeRemovalCLITests {
  @Test func aRemovalThatTakesMoreNeedsForceAndSaysWhat() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Rios", "--quantity", "3 skeins"])
    try yarn.ok(["project", "add", "Flax"])
    try yarn.ok(["project", "use", "Flax", "Rios", "1 skein"])
    try yarn.ok(["project", "finish", "Flax", "--on", "2026-11-01"])
    let photo = try yarn.file("rios.jpg", YarnRunner.jpeg("abc"))
    try yarn.ok(["stash", "attach", "Rios", photo.path])
    try yarn.ok(["note", "add", "--yarn", "Rios", "soft"])
    let before = try yarn.librarySnapshot()

    let yarnRefused = try yarn.run(["stash", "rm", "Rios"])
    #expect(yarnRefused.status == 65)
    #expect(
      yarnRefused.stderr.hasPrefix(
        "error: removing yarn \"Rios\" would also remove 1 note, 1 photo and its usages in project \"Flax\"\n"
      ))
    #expect(yarnRefused.stderr.contains("hint: add --force"))
    // A finished project's usages count against the stash: removing it gives yarn back.
    let projectRefused = try yarn.run(["project", "rm", "Flax"])
    #expect(projectRefused.status == 65)
    #expect(
      projectRefused.stderr.hasPrefix(
        "error: removing project \"Flax\" would also remove its usages of yarn \"Rios\", and give back to "
          + "the stash what it used of \"Rios\"\n"))
    #expect(try yarn.librarySnapshot() == before)

    // Forced: the yarn goes with its note, photo and usage; the project stays.
    let removed = try yarn.ok(["stash", "rm", "Rios", "--force", "--json"])
    #expect(removed.stderr.contains("with 1 note, 1 photo and its usages in project \"Flax\""))
    // --json: the yarn as `stash show --json` showed it, its note and usage read before they went.
    let gone = try #require(removed.json() as? [String: Any])
    #expect(gone["name"] as? String == "Rios")
    #expect((gone["notes"] as? [Any])?.count == 1)
    #expect(((gone["usedIn"] as? [[String: Any]])?.first)?["project"] as? String == "Flax")
    // 3 skeins less the 1 finished Flax used: 2 (was 3, the estimate without its usages).
    #expect((gone["remaining"] as? [String: Any])?["value"] as? Double == 2)
    let flax = try #require(try yarn.ok(["project", "show", "Flax", "--json"]).json() as? [String: Any])
    #expect((flax["usages"] as? [Any])?.isEmpty == true)
    #expect(try yarn.ok(["note", "list", "--json"]).json() as? [Any] != nil)
    #expect((try yarn.ok(["note", "list", "--json"]).json() as? [Any])?.isEmpty == true)
    // Now nothing goes with the project: no --force needed.
    try yarn.ok(["project", "rm", "Flax"])
  }

  /// QA: `project rm` of a planned project took its yarn usages, tool links and needle sizes
  /// without a word (`stash rm` and `tool rm` refuse theirs). Refused without --force, listed;
  /// with it, the message and --json name them; the yarn and the tool stay.
  @Test func aProjectsUsagesToolsAndNeedleSizesNeedForce() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Catona", "--quantity", "4 skeins"])
    try yarn.ok(["project", "add", "Sophie's Universe", "--needle", "4mm", "--needle", "5mm"])
    try yarn.ok(["project", "use", "Sophie's Universe", "Catona", "2 skeins"])
    try yarn.ok(["tool", "add", "Red Lace", "--kind", "circular", "--size", "4mm"])
    try yarn.ok(["project", "edit", "Sophie's Universe", "--tool", "Red Lace"])
    let before = try yarn.librarySnapshot()
    let refused = try yarn.run(["project", "rm", "Sophie's Universe"])
    #expect(refused.status == 65)
    #expect(
      refused.stderr.hasPrefix(
        "error: removing project \"Sophie's Universe\" would also remove its usages of yarn \"Catona\", "
          + "its link to tool \"Red Lace\" and 2 needle sizes\nhint: add --force"), "\(refused.stderr)")
    #expect(try yarn.librarySnapshot() == before)

    let removed = try yarn.ok(["project", "rm", "Sophie's Universe", "--force", "--json"])
    #expect(
      removed.stderr.hasSuffix(
        ") with its usages of yarn \"Catona\", its link to tool \"Red Lace\" and 2 needle sizes\n"),
      "\(removed.stderr)")
    let json = try #require(removed.json() as? [String: Any])
    #expect((json["usages"] as? [[String: Any]])?.count == 1)
    #expect(json["needleSizes"] as? [Double] == [4, 5])
    #expect((json["tools"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Red Lace"])
    #expect(json["sessions"] as? Int == 0)
    // The yarn and the tool stay.
    let tool = try #require(try yarn.ok(["tool", "show", "Red Lace", "--json"]).json() as? [String: Any])
    #expect((tool["projects"] as? [Any])?.isEmpty == true)
    #expect(try yarn.ok(["stash", "list"]).stdout.contains("Catona"))
  }
}

/// Naming things: a unique prefix of a name works, an ambiguous one lists the matches (64),
/// no match suggests the nearest name; amounts may be typed unquoted.
@Suite struct NamingCLITests {
  @Test func namePrefixesSuggestionsAndUnquotedAmounts() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    try yarn.ok(["stash", "add", "Malabrigo Rios", "--net-weight-per-skein", "100g"])
    try yarn.ok(["stash", "add", "Malabrigo Arroyo"])
    try yarn.ok(["project", "add", "Leo's Dino Hat"])

    let shown = try #require(
      try yarn.ok(["stash", "show", "malabrigo r", "--json"]).json() as? [String: Any])
    #expect(shown["name"] as? String == "Malabrigo Rios")
    let edited = try #require(
      try yarn.ok(["project", "edit", "leo", "--craft", "knitting", "--json"]).json() as? [String: Any])
    #expect(edited["name"] as? String == "Leo's Dino Hat")

    let ambiguous = try yarn.run(["stash", "show", "Mala"])
    #expect(ambiguous.status == 64)
    #expect(ambiguous.stderr.contains("'Mala' matches 2 yarns: "))
    #expect(ambiguous.stderr.contains("(Malabrigo Rios)"))
    #expect(ambiguous.stderr.contains("(Malabrigo Arroyo)"))

    let typo = try yarn.run(["stash", "show", "Malabrgo Rios"])
    #expect(typo.status == 65)
    #expect(typo.stderr.hasPrefix("error: no yarn matches 'Malabrgo Rios'; did you mean 'Malabrigo Rios'?\n"))
    let far = try yarn.run(["stash", "show", "Cascade"])
    #expect(far.stderr.hasPrefix("error: no yarn matches 'Cascade'\n"))
    // QA: a typo in the start of a name was offered nothing; the name it begins is offered.
    let start = try yarn.run(["stash", "show", "Malabirgo R"])
    #expect(start.status == 65)
    #expect(start.stderr.hasPrefix("error: no yarn matches 'Malabirgo R'; did you mean 'Malabrigo Rios'?\n"))
    #expect(
      try yarn.run(["project", "show", "Leo's Dnio"]).stderr.hasPrefix(
        "error: no project matches 'Leo's Dnio'; did you mean 'Leo's Dino Hat'?\n"))
    // The start of both Malabrigos, equally near: both, in the order added.
    #expect(
      try yarn.run(["stash", "show", "Malabirgo"]).stderr.hasPrefix(
        "error: no yarn matches 'Malabirgo'; did you mean one of 'Malabrigo Rios', 'Malabrigo Arroyo'?\n"))

    // `2 skeins` unquoted is one amount; 2 skeins of 100 g are 200 g.
    #expect(
      try yarn.ok(["convert", "2", "skeins", "--to", "g", "--yarn", "malabrigo ri"]).stdout == "200 g\n")
    #expect(
      try yarn.ok(["convert", "2 skeins", "--to", "g", "--net-weight-per-skein", "100g"]).stdout == "200 g\n")
  }

  /// QA: a short reference was offered a name with nothing in common (`Cs`: `Ab`), one of two
  /// equally near names was picked (`Wook`: `Wool`, not `Wood`), and a whole name two edits
  /// away beat a name whose start is one edit away (`Rois`: `Rio`, not `Rios Deluxe`). Near is
  /// at most one edit per three characters typed (at least 1), the nearest of whole names and
  /// starts, all of them when several are equally near.
  @Test func suggestionsAreNearEnoughAndTiesAreListed() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    for name in ["Wool", "Wood", "Ab"] { try yarn.ok(["stash", "add", name, "-q"]) }
    for short in ["Z", "Q", "7", "Zz", "Cs", "2a5b"] {
      let result = try yarn.run(["stash", "show", short])
      #expect(result.status == 65)
      #expect(result.stderr.hasPrefix("error: no yarn matches '\(short)'\n"), "\(result.stderr)")
    }
    #expect(
      try yarn.run(["stash", "show", "Wook"]).stderr.hasPrefix(
        "error: no yarn matches 'Wook'; did you mean one of 'Wool', 'Wood'?\n"))
    #expect(
      try yarn.run(["stash", "show", "Wolo"]).stderr.hasPrefix(
        "error: no yarn matches 'Wolo'; did you mean 'Wool'?\n"))
    // QA: a name whose start is as near as a whole name was offered beside it; the whole
    // name wins at equal edits (`Wook` is one edit from `Wool` and from `Wool Tweed`'s start).
    try yarn.ok(["stash", "add", "Wool Tweed", "-q"])
    #expect(
      try yarn.run(["stash", "show", "Wook"]).stderr.hasPrefix(
        "error: no yarn matches 'Wook'; did you mean one of 'Wool', 'Wood'?\n"))
    #expect(
      try yarn.run(["stash", "show", "Wool Twed"]).stderr.hasPrefix(
        "error: no yarn matches 'Wool Twed'; did you mean 'Wool Tweed'?\n"))
    try yarn.ok(["stash", "add", "Rio", "-q"])
    try yarn.ok(["stash", "add", "Rios Deluxe", "-q"])
    #expect(
      try yarn.run(["stash", "show", "Rois"]).stderr.hasPrefix(
        "error: no yarn matches 'Rois'; did you mean 'Rios Deluxe'?\n"))
    try yarn.ok(["stash", "add", "Cascade 220", "-q"])
    #expect(
      try yarn.run(["stash", "show", "Cacsade"]).stderr.hasPrefix(
        "error: no yarn matches 'Cacsade'; did you mean 'Cascade 220'?\n"))
    // QA: a letter left out of a short start was offered nothing.
    try yarn.ok(["stash", "add", "Merino Soft", "-q"])
    for typo in ["Merno", "Mreino", "merno s"] {
      #expect(
        try yarn.run(["stash", "show", typo]).stderr.hasPrefix(
          "error: no yarn matches '\(typo)'; did you mean 'Merino Soft'?\n"), "\(typo)")
    }
    // Photo names alike.
    for name in ["late60.jpg", "late64.jpg"] {
      try yarn.ok(["stash", "attach", "Ab", try yarn.file(name, YarnRunner.jpeg(name)).path, "-q"])
    }
    let photo = try yarn.run(["stash", "detach", "Ab", "late6.jpg"])
    #expect(photo.status == 65)
    #expect(
      photo.stderr.hasPrefix(
        "error: no photo matches 'late6.jpg'; did you mean one of 'late60.jpg', 'late64.jpg'?\n"),
      "\(photo.stderr)")
    // Unknown commands alike: `s` begins `stash` and `summary`; `strt` is one edit from
    // `start`, which wins over `status`, whose start `stat` is one edit too (QA).
    #expect(try yarn.run(["s"]).stderr.contains("hint: did you mean one of 'stash', 'summary'?"))
    #expect(
      try yarn.run(["time", "strt"]).stderr.contains(
        "hint: did you mean 'start'? (see 'yarn time --help')"))
  }

  /// QA: `stash show Strasse` offered nothing for a yarn named "Straße Wolle": suggestions
  /// compared lower-cased text, in which `ß` is no `ss`. Names are compared as a search
  /// compares text (`Lookup.folded`: case, `ß`/`ss` and accents aside), so a name that
  /// differs from the reference only so is the nearest of all.
  @Test func suggestionsFoldCaseAccentsAndSharpS() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    for name in ["Straße Wolle", "Strandgut", "Crème Brûlée"] { try yarn.ok(["stash", "add", name, "-q"]) }
    for (reference, suggested) in [
      ("Strasse", "Straße Wolle"),
      ("STRASSE WOLLE", "Straße Wolle"),
      ("strasse wole", "Straße Wolle"),
      ("Creme Brulee", "Crème Brûlée"),
      ("CREME", "Crème Brûlée"),
    ] {
      let result = try yarn.run(["stash", "show", reference])
      #expect(result.status == 65)
      #expect(
        result.stderr.hasPrefix("error: no yarn matches '\(reference)'; did you mean '\(suggested)'?\n"),
        "\(reference): \(result.stderr)")
    }
  }

  /// `stash show`, `convert --yarn` and `project show` look an item up in the store (by its
  /// ID, or among the IDs and names only) by exactly the rules they had over the whole list:
  /// an exact ID; else a name (any case, spaces around ignored) together with IDs that begin
  /// with it (4 characters or more, any case); else a unique name prefix.
  @Test func showFindsByIDAndNameByTheSameRules() throws {
    let yarn = try YarnRunner()
    defer { yarn.cleanUp() }
    let rios = "a1b2c3d4-0000-4000-8000-000000000001"
    let arroyo = "a1b2ffff-0000-4000-8000-000000000002"
    let other = "e5e5e5e5-0000-4000-8000-000000000003"
    let store = try LibraryStore(directory: yarn.library, mode: .readWrite)
    try store.insert(
      library: Library(
        yarns: [
          Yarn(id: rios, name: "Rios", netWeightPerSkein: Amount(100, .gram), quantity: Amount(300, .gram)),
          Yarn(id: arroyo, name: "Arroyo"),
          Yarn(id: other, name: "A1B2"),
          // A Kelvin sign, which lower-cases to an ASCII k; an uppercase ID; a name in NFD.
          Yarn(id: "ABCDEF00-0000-4000-8000-000000000005", name: "\u{212A}id Mohair"),
          Yarn(id: "f00dface-0000-4000-8000-000000000006", name: "Ne\u{301}ge"),
        ],
        projects: [
          Project(
            id: "c0ffee00-0000-4000-8000-000000000004", name: "Dino Hat", status: .finished,
            finished: CalendarDate(year: 2026, month: 1, day: 10),
            usages: [YarnUsage(yarnID: rios, amount: Amount(1, .skein))])
        ]))
    try store.close()
    func shownName(_ reference: String) throws -> String? {
      (try yarn.ok(["--json", "stash", "show", reference]).json() as? [String: Any])?["name"] as? String
    }
    #expect(try shownName(rios) == "Rios")
    #expect(try shownName("A1B2C") == "Rios")
    #expect(try shownName("  rios ") == "Rios")
    #expect(try shownName("e5e5") == "A1B2")
    #expect(try shownName("arr") == "Arroyo")
    #expect(try shownName("kid") == "\u{212A}id Mohair")
    #expect(try shownName("abcdef") == "\u{212A}id Mohair")
    #expect(try shownName("N\u{E9}GE") == "Ne\u{301}ge")

    // A name that is also two IDs' prefix: the three are listed, the name's first.
    let ambiguous = try yarn.run(["stash", "show", "a1b2"])
    #expect(ambiguous.status == 64)
    #expect(
      ambiguous.stderr.hasPrefix(
        "error: 'a1b2' matches 3 yarns: \(other) (A1B2), \(rios) (Rios), \(arroyo) (Arroyo)\n"))
    let typo = try yarn.run(["stash", "show", "Rois"])
    #expect(typo.status == 65)
    #expect(typo.stderr.hasPrefix("error: no yarn matches 'Rois'; did you mean 'Rios'?\n"))

    let shown = try yarn.ok(["stash", "show", "rios"]).stdout
    #expect(shown.contains("Used in:      Dino Hat (finished): 1 skein\n"))
    #expect(shown.contains("Remaining:    200 g"))
    #expect(try yarn.ok(["convert", "1 skein", "--to", "g", "--yarn", "A1B2C"]).stdout == "100 g\n")
    #expect(try yarn.ok(["project", "show", "c0ff"]).stdout.contains("Yarn used:    Rios: 1 skein\n"))
    #expect(
      try yarn.run(["project", "show", "Dino Hut"]).stderr.hasPrefix(
        "error: no project matches 'Dino Hut'; did you mean 'Dino Hat'?\n"))
  }
}
