import Foundation
import Testing

@testable import YarnCore
@testable import YarnModel
@testable import YarnStore

/// The export's `index.html` (`ExportIndex`): one page, links only to the zip's own files.
@Suite struct ExportIndexTests {
  typealias Support = BackupTestSupport

  /// Every value of `attribute="..."` in `html`.
  static func values(of attribute: String, in html: String) -> [String] {
    html.components(separatedBy: " \(attribute)=\"").dropFirst().map {
      String($0.prefix { $0 != "\"" })
    }
  }

  /// `text` with the five escapes of `MarkupText.escape` undone.
  static func unescaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
      .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
      .replacingOccurrences(of: "&amp;", with: "&")
  }

  @Test func everyLinkIsAZipEntryAndNamesAreEscaped() throws {
    try Support.withScratch { dir in
      let store = try Support.makeStore(in: dir)
      let file = dir.appendingPathComponent("odd.png")
      try Data([0x89, 0x50, 0x4E, 0x47, 9]).write(to: file)
      let odd = try store.importAttachment(from: file, fileName: "100% #1 <b>?.png")
      let hostile = "<script>alert(\"x\")</script> & 'co' #5 %20"
      try store.write {
        try store.insert(Yarn(id: "y-hostile", name: hostile, status: .willTrade, photos: [odd]))
        try store.insert(
          Project(
            id: "p-hostile", name: hostile, status: .frogged, pattern: Pattern(name: "P&Q", pdf: nil),
            usages: [YarnUsage(yarnID: "y-hostile", amount: Amount(1, .skein))], photos: [odd]))
      }
      let zip = dir.appendingPathComponent("export.zip")
      let now = Date(timeIntervalSince1970: 1_767_403_600)  // the socks' running session: 1 h
      let summary = try LibraryExport.write(from: store, to: zip, now: now)
      #expect(summary.entries.last == "index.html")
      let entries = try Support.readZip(zip)
      let names = Set(entries.map(\.0))
      let html = String(decoding: try #require(entries.first { $0.0 == "index.html" }?.1), as: UTF8.self)

      // Every href and src is relative and names an entry of the zip, exactly.
      let links = Self.values(of: "href", in: html) + Self.values(of: "src", in: html)
      #expect(links.count >= 15)
      for link in links {
        #expect(!link.contains(":"), "\(link) is not relative")
        #expect(!link.hasPrefix("/") && !link.hasPrefix("#"))
        let path = try #require(Self.unescaped(link).removingPercentEncoding)
        #expect(names.contains(path), "\(link) is not in the zip")
      }
      // The odd names reach their files: the photo's name made safe, then percent-encoded.
      #expect(names.contains("yarns/_script_alert(_x_)__script_ & 'co' #5 %20/100% #1 _b__.png"))
      #expect(
        links.contains(
          "yarns/_script_alert%28_x_%29__script_%20%26%20%27co%27%20%235%20%2520/100%25%20%231%20_b__.png"))
      #expect(links.contains("projects/Flax%20sweater/flax.pdf"))
      #expect(links.contains("stash.csv"))

      // No scripts, no network.
      #expect(!html.lowercased().contains("<script"))
      #expect(!html.contains("http://") && !html.contains("https://example.com/flax\""))
      #expect(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39; #5 %20"))

      // Statuses, remaining as `stash list` shows it (3 skeins less the finished Flax's 2.5;
      // the socks in progress do not count), time, yarns used and the pattern.
      #expect(html.contains("<dt>Remaining</dt><dd>0.5 skeins</dd>"))
      #expect(html.contains("<dt>Remaining</dt><dd>150 g</dd>"))
      #expect(html.contains(">used-up</span>"))
      #expect(html.contains(">will-trade</span>"))
      #expect(html.contains(">finished</span>") && html.contains(">in-progress</span>"))
      #expect(html.contains(">frogged</span>"))
      #expect(html.contains("<dt>Time</dt><dd>1h 30m in 1 session</dd>"))
      #expect(html.contains("<dt>Time</dt><dd>1h in 1 session</dd>"))
      #expect(
        html.contains(
          "<li><a href=\"yarns/Cascade%20220%20_Heathers_/yarn.txt\">Cascade 220 &quot;Heathers&quot;</a>: 2.5 skeins</li>"
        ))
      #expect(html.contains("<a href=\"projects/Flax%20sweater/flax.pdf\">Flax (PDF)</a>"))
      #expect(html.contains("<dt>Pattern</dt><dd>P&amp;Q</dd>"))
      #expect(html.contains("<dt>Pattern URL</dt><dd>https://example.com/flax</dd>"))
      // The text attachment is a link, the photos images.
      #expect(html.contains("<a href=\"yarns/Cascade%20220%20_Heathers_/care.txt\">care.txt</a>"))
      #expect(html.contains("<img src=\"yarns/Cascade%20220%20_Heathers_/front.jpg\""))
    }
  }

  /// AVIF photos are pictures, as every current browser shows them; HEIC ones are links.
  @Test func anAVIFPhotoIsAPictureAndAHEICOneALink() throws {
    try Support.withScratch { dir in
      let store = try Support.makeStore(in: dir)
      var photos: [YarnModel.Attachment] = []
      for (name, byte) in [("a.avif", UInt8(1)), ("b.heic", 2)] {
        let file = dir.appendingPathComponent(name)
        try Data([byte]).write(to: file)
        photos.append(try store.importAttachment(from: file, fileName: name))
      }
      try store.write { try store.insert(Yarn(id: "y-1", name: "Wool", photos: photos)) }
      let zip = dir.appendingPathComponent("export.zip")
      try LibraryExport.write(from: store, to: zip, now: Date(timeIntervalSince1970: 1_767_403_600))
      let entries = try Support.readZip(zip)
      let html = String(decoding: try #require(entries.first { $0.0 == "index.html" }?.1), as: UTF8.self)
      #expect(html.contains("<img src=\"yarns/Wool/a.avif\""))
      #expect(!html.contains("<img src=\"yarns/Wool/b.heic\""))
      #expect(html.contains("<a href=\"yarns/Wool/b.heic\">b.heic</a>"))
    }
  }

  @Test func relativeURLsEncodeAllButTheUnreservedCharacters() {
    #expect(MarkupText.relativeURL("a b/é#?%.txt") == "a%20b/%C3%A9%23%3F%25.txt")
    #expect(MarkupText.relativeURL("A-z_0.9~") == "A-z_0.9~")
  }
}
