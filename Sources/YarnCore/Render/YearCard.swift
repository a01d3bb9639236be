import YarnModel
import YarnStore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The year-in-review share card (`yarn summary --year YYYY --card FILE.svg`): one SVG image
/// of a fixed portrait size showing the figures of a `PeriodSummary` of a calendar year, in
/// the same words as the text summary (`DisplayText`), and a few photos of the projects
/// finished that year. The headline is the period's name (`DisplayText.period`), sized for a
/// year such as `2026`: the card is drawn for a calendar year (the CLI makes no other).
///
/// Rules:
/// - **Size**: 1080 × 1350 user units and pixels (`width`, `height`), Instagram's portrait
///   post (4:5), which other networks also show uncropped.
/// - **Figures**: projects finished; the time on them (total, and average per project); the
///   grams of yarn they used (all weights, then per weight); the busiest month; the time
///   logged in the year. See `PeriodSummary` for each definition.
/// - **Photos**: for each finished project in the summary's order, its first photo whose media
///   type is `image/jpeg` or `image/png`; at most `maxPhotos` (4), and at most
///   `maxPhotoBytes` (8 MiB) of them together. A photo that would pass the byte cap is left
///   out (the next project's photo is tried) and the card says how many were. Photos are
///   embedded whole as `data:` URIs (base64 of the stored file): they are not downscaled,
///   as no image library is available and the project writes no image codec.
/// - **Text**: system font stacks only (no web fonts), no scripts; every name is escaped by
///   `MarkupText.escape` and long names are cut with `…`.
public enum YearCard {
  /// The card's width, 1080 px.
  public static let width = 1080
  /// The card's height, 1350 px (4:5 portrait).
  public static let height = 1350
  /// The most photos on a card, 4.
  public static let maxPhotos = 4
  /// The most bytes of photos on a card together, 8 MiB (8,388,608 bytes) before base64.
  public static let maxPhotoBytes: Int64 = 8 * 1024 * 1024

  /// A photo to embed.
  public struct Photo: Hashable, Sendable {
    /// The caption: the project's name.
    public var caption: String
    /// `image/jpeg` or `image/png`.
    public var mediaType: String
    /// The file's bytes, embedded as they are.
    public var data: Data

    /// A photo; `mediaType` should be `image/jpeg` or `image/png`.
    public init(caption: String, mediaType: String, data: Data) {
      self.caption = caption
      self.mediaType = mediaType
      self.data = data
    }
  }

  /// The photos chosen for a card, and those left out.
  public struct Photos: Hashable, Sendable {
    /// The photos shown, at most `maxPhotos`.
    public var chosen: [Photo]
    /// Photos left out because they would pass `maxPhotoBytes`.
    public var overLimit: Int
    /// Photos left out because their stored file could not be read (names of the projects).
    public var unreadable: [String]

    /// Photos as given.
    public init(chosen: [Photo] = [], overLimit: Int = 0, unreadable: [String] = []) {
      self.chosen = chosen
      self.overLimit = overLimit
      self.unreadable = unreadable
    }
  }

  /// The media types embedded: JPEG and PNG, which every SVG viewer shows.
  static let embeddedTypes: Set<String> = ["image/jpeg", "image/png"]

  /// Chooses the photos of `summary`'s finished projects by the rules above and reads their
  /// bytes from `store`'s attachment files.
  ///
  /// - Complexity: reads at most `maxPhotos` files, `maxPhotoBytes` together.
  /// - Throws: nothing for a missing or unreadable file (it is listed in `unreadable`); the
  ///   function throws only if a future store access does.
  public static func photos(for summary: PeriodSummary, in store: LibraryStore) throws -> Photos {
    var photos = Photos()
    var total: Int64 = 0
    for entry in summary.finished where photos.chosen.count < maxPhotos {
      guard
        let photo = entry.project.photos.first(where: { embeddedTypes.contains($0.mediaType.lowercased()) })
      else { continue }
      if total + photo.byteCount > maxPhotoBytes {
        photos.overLimit += 1
        continue
      }
      guard let data = try? Data(contentsOf: store.attachmentURL(sha256: photo.sha256)),
        Int64(data.count) == photo.byteCount
      else {
        photos.unreadable.append(entry.project.name)
        continue
      }
      total += photo.byteCount
      photos.chosen.append(
        Photo(caption: entry.project.name, mediaType: photo.mediaType.lowercased(), data: data))
    }
    return photos
  }

  /// The card of `summary` with `photos`, as an SVG document (UTF-8 text, LF line ends).
  ///
  /// - Complexity: O(n + b) for the n finished projects and b bytes of photos.
  public static func svg(_ summary: PeriodSummary, photos: Photos = Photos()) -> String {
    let e = MarkupText.escape
    let name = DisplayText.period(from: summary.first, through: summary.last)
    let ink = "#2f4858"
    let soft = "#6b5e55"
    let sand = "#f3c98b"
    var out = """
      <?xml version="1.0" encoding="UTF-8"?>
      <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" \
      viewBox="0 0 \(width) \(height)" role="img" aria-label="\(e("\(name) in review"))">
      <title>\(e("\(name) in review"))</title>
      <style>
      text { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
      .big { font-size: 64px; font-weight: 700; fill: \(ink); }
      .label { font-size: 28px; fill: \(soft); }
      .small { font-size: 24px; fill: \(soft); }
      </style>
      <rect width="\(width)" height="\(height)" fill="#f7f1e8"/>
      <rect width="\(width)" height="300" fill="\(ink)"/>
      <text x="60" y="110" font-size="30" letter-spacing="6" fill="\(sand)">YEAR IN REVIEW</text>
      <text x="60" y="250" font-size="150" font-weight="700" fill="#ffffff">\(e(name))</text>
      <g fill="none" stroke="\(ink)" stroke-width="5">
      <circle cx="900" cy="150" r="95" fill="\(sand)" stroke="none"/>
      <path d="M 820 100 C 880 130 930 200 935 240"/>
      <path d="M 840 75 C 910 110 975 170 985 200"/>
      <path d="M 808 140 C 850 160 885 210 885 245"/>
      <path d="M 870 58 C 940 90 990 130 995 150"/>
      </g>

      """

    // The four figures.
    let count = summary.finished.count
    let tiles: [(String, String)] = [
      ("\(count)", Plural.word("project", count: count) + " finished"),
      (DisplayText.duration(summary.finishedSeconds), "on finished projects"),
      (summary.averageSecondsPerFinished.map { DisplayText.duration($0) } ?? "-", "average per project"),
      (DisplayText.grams(summary.totalGrams), "of yarn used"),
    ]
    for (index, tile) in tiles.enumerated() {
      let x = 60 + (index % 2) * 500
      let y = 330 + (index / 2) * 190
      out += """
        <rect x="\(x)" y="\(y)" width="460" height="170" rx="24" fill="#ffffff"/>
        <text x="\(x + 32)" y="\(y + 92)" class="big">\(e(tile.0))</text>
        <text x="\(x + 32)" y="\(y + 140)" class="label">\(e(tile.1))</text>

        """
    }

    // The busiest month.
    let busiest =
      summary.busiestMonth.map {
        DisplayText.month($0) + " · " + DisplayText.duration($0.seconds)
      } ?? "no time logged"
    out += """
      <rect x="60" y="720" width="960" height="80" rx="24" fill="\(sand)"/>
      <text x="92" y="772" font-size="30" fill="\(ink)">Busiest month</text>
      <text x="988" y="772" font-size="34" font-weight="700" fill="\(ink)" text-anchor="end">\(e(busiest))</text>

      """

    // Yarn by weight: a bar of the grams, then the figures.
    out += "<text x=\"60\" y=\"845\" class=\"small\">Yarn used by weight</text>\n"
    let palette = ["#2f4858", "#86bbd8", "#f6ae2d", "#f26419", "#758e4f", "#9b5de5", "#33658a", "#b0a8a0"]
    let uses = summary.yarnByWeight.filter { $0.grams > 0 }
    if summary.totalGrams > 0 {
      var x = 60.0
      for (index, use) in uses.enumerated() {
        let w = 960 * use.grams / summary.totalGrams
        out +=
          "<rect x=\"\(number(x))\" y=\"860\" width=\"\(number(w))\" height=\"22\" "
          + "fill=\"\(palette[index % palette.count])\"/>\n"
        x += w
      }
      // The legend: two columns of two, the fourth slot saying how many more when over four.
      var parts = uses.prefix(4).map {
        ($0.weight?.label ?? "unknown weight") + " " + DisplayText.grams($0.grams)
      }
      if uses.count > 4 { parts[3] = "and \(uses.count - 3) more weights" }
      for (index, part) in parts.enumerated() {
        let x = 60 + (index % 2) * 500
        let y = 915 + (index / 2) * 40
        let color = index == 3 && uses.count > 4 ? "#d9cfc3" : palette[index % palette.count]
        out += "<rect x=\"\(x)\" y=\"\(y - 20)\" width=\"20\" height=\"20\" rx=\"4\" fill=\"\(color)\"/>\n"
        out +=
          "<text x=\"\(x + 32)\" y=\"\(y)\" font-size=\"26\" fill=\"\(ink)\">\(e(cut(part, 32)))</text>\n"
      }
    } else {
      out += "<rect x=\"60\" y=\"860\" width=\"960\" height=\"22\" fill=\"#e6ddd2\"/>\n"
      out +=
        "<text x=\"60\" y=\"915\" font-size=\"26\" fill=\"\(ink)\">no yarn recorded on finished projects</text>\n"
    }

    // Photos, or the finished projects' names, or a word for an empty year.
    if !photos.chosen.isEmpty {
      let side = 225
      let gap = 20
      let shown = photos.chosen.prefix(maxPhotos)
      let span = shown.count * side + (shown.count - 1) * gap
      var x = (width - span) / 2
      for (index, photo) in shown.enumerated() {
        let uri = "data:\(photo.mediaType);base64,\(photo.data.base64EncodedString())"
        out += """
          <clipPath id="photo\(index)"><rect x="\(x)" y="985" width="\(side)" height="\(side)" rx="20"/></clipPath>
          <image x="\(x)" y="985" width="\(side)" height="\(side)" preserveAspectRatio="xMidYMid slice" \
          clip-path="url(#photo\(index))" href="\(e(uri))"/>
          <text x="\(x + side / 2)" y="1245" class="small" text-anchor="middle">\(e(cut(photo.caption, 16)))</text>

          """
        x += side + gap
      }
    } else if !summary.finished.isEmpty {
      for (index, entry) in summary.finished.prefix(5).enumerated() {
        let day = entry.project.finished?.iso8601 ?? ""
        let y = 1020 + index * 46
        out += """
          <text x="60" y="\(y)" font-size="30" fill="\(ink)">\(e(cut(entry.project.name, 40)))</text>
          <text x="1020" y="\(y)" class="small" text-anchor="end">\(e(day + "  " + DisplayText.duration(entry.seconds)))</text>

          """
      }
      if summary.finished.count > 5 {
        out += "<text x=\"60\" y=\"1245\" class=\"small\">and \(summary.finished.count - 5) more</text>\n"
      }
    } else {
      out += """
        <text x="540" y="1120" font-size="34" fill="\(soft)" text-anchor="middle">\(e("No projects finished in \(name) — yet."))</text>

        """
    }

    // Footer: the time logged in the year, and any photo left out.
    let logged =
      "Time logged in \(name): \(DisplayText.duration(summary.loggedSeconds))"
      + " on " + Plural.count(summary.perProject.count, "project")
    out += "<line x1=\"60\" y1=\"1280\" x2=\"1020\" y2=\"1280\" stroke=\"#d9cfc3\" stroke-width=\"2\"/>\n"
    out += "<text x=\"60\" y=\"1305\" class=\"small\">\(e(logged))</text>\n"
    if photos.overLimit > 0 {
      let note =
        Plural.count(photos.overLimit, "photo") + " over the 8 MiB limit left out"
      out += "<text x=\"60\" y=\"1336\" font-size=\"22\" fill=\"#8a7d72\">\(e(note))</text>\n"
    }
    out += "</svg>\n"
    return out
  }

  /// `text` cut to at most `limit` characters, ending in `…` when cut.
  static func cut(_ text: String, _ limit: Int) -> String {
    text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
  }

  /// A coordinate with at most two decimals: `12`, `12.5`.
  private static func number(_ value: Double) -> String {
    Amount.format((value * 100).rounded() / 100)
  }
}
