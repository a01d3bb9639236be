import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

/// File names safe on Windows, macOS and Linux, with collisions numbered.
@Suite struct SafeFileNameTests {
  @Test(arguments: [
    ("Flax", "Flax"),
    ("a:b*c?d\"e<f>g|h\\i/j", "a_b_c_d_e_f_g_h_i_j"),
    ("tab\there\u{0}nul\u{7F}del\u{85}nel", "tab_here_nul_del_nel"),
    ("Flax.", "Flax"),
    ("Flax . . ", "Flax"),
    ("   ", "_"),
    ("", "_"),
    (".", "_"),
    ("..", "_"),
    ("...", "_"),
    ("CON", "_CON"),
    ("con", "_con"),
    ("Con.txt", "_Con.txt"),
    ("nul.tar.gz", "_nul.tar.gz"),
    ("AUX .jpg", "_AUX .jpg"),
    ("PRN", "_PRN"),
    ("com1", "_com1"),
    ("LPT9.pdf", "_LPT9.pdf"),
    ("COM\u{B9}", "_COM\u{B9}"),
    ("COM10", "COM10"),
    ("CONSOLE", "CONSOLE"),
    ("icon", "icon"),
    ("Café — ünïcødé 🧶", "Café — ünïcødé 🧶"),
    ("e\u{301}", "e\u{301}"),
  ])
  func makesNamesSafe(name: String, expected: String) {
    #expect(SafeFileName.make(name) == expected)
  }

  @Test func namesAreCutTo255BytesOnAScalarBoundaryKeepingTheExtension() {
    // 🧶 is 4 bytes of UTF-8: 100 of them are 400 bytes.
    let long = String(repeating: "🧶", count: 100) + ".jpg"
    let safe = SafeFileName.make(long)
    #expect(safe.utf8.count <= 255)
    #expect(safe == String(repeating: "🧶", count: 62) + ".jpg")  // 62 × 4 + 4 = 252
    // A cut that ends on a space or a dot is trimmed again.
    // (". bbbb" is no extension: it holds a space.)
    let spaced = String(repeating: "a", count: 253) + " . bbbb"
    #expect(SafeFileName.make(spaced) == String(repeating: "a", count: 253))
    // A combining mark may be cut from its letter (the cut is on scalars), never a scalar.
    let accents = String(repeating: "e\u{301}", count: 100)  // 3 bytes a pair
    let cut = SafeFileName.make(accents)
    #expect(cut.utf8.count == 255)
    #expect(cut.unicodeScalars.allSatisfy { $0 == "e" || $0 == "\u{301}" })
  }

  @Test func collisionsAreNumberedIgnoringCaseAndNormalization() {
    var namer = SafeFileNamer(reserved: ["project.txt"])
    #expect(namer.claim("Flax", isFolder: true) == "Flax")
    #expect(namer.claim("flax", isFolder: true) == "flax (2)")
    #expect(namer.claim("FLAX", isFolder: true) == "FLAX (3)")
    #expect(namer.claim("Flax.", isFolder: true) == "Flax (4)")
    #expect(namer.claim("v2.0", isFolder: true) == "v2.0")
    #expect(namer.claim("V2.0", isFolder: true) == "V2.0 (2)")
    #expect(namer.claim("front.jpg") == "front.jpg")
    #expect(namer.claim("Front.JPG") == "Front (2).JPG")
    #expect(namer.claim("Project.TXT") == "Project (2).TXT")
    #expect(namer.claim("Café") == "Café")
    #expect(namer.claim("Cafe\u{301}") == "Cafe\u{301} (2)")
    #expect(namer.claim("a/b") == "a_b")
    #expect(namer.claim("a\\b") == "a_b (2)")
  }

  @Test func numberedNamesStayWithin255Bytes() {
    var namer = SafeFileNamer()
    let long = String(repeating: "x", count: 300) + ".jpeg"
    let first = namer.claim(long)
    let second = namer.claim(long)
    #expect(first.utf8.count == 255 && first.hasSuffix(".jpeg"))
    #expect(second.utf8.count == 255 && second.hasSuffix(" (2).jpeg"))
    let folder = String(repeating: "é", count: 200)  // 400 bytes
    let a = namer.claim(folder, isFolder: true)
    let b = namer.claim(folder, isFolder: true)
    #expect(a.utf8.count <= 255 && b.utf8.count <= 255)
    #expect(b.hasSuffix(" (2)") && a != b)
  }
}
