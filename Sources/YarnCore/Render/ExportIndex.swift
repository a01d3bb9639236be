import YarnModel
import YarnStore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The `index.html` of `yarn export`: one self-contained page to browse the export, with no
/// scripts, no web fonts and no network: the stash (photos, status, remaining amount as
/// `yarn stash list` shows it) and the projects (photos, status, yarns used, time, the
/// pattern PDF).
///
/// Every `href` and `src` is a relative URL of a file the export writes (the exact entry
/// name, each segment percent-encoded by `MarkupText.relativeURL`); a pattern's web address is
/// shown as text, not linked. Photos of a type browsers show (JPEG, PNG, GIF, WebP) appear as
/// images (lazily loaded); other attachments are links. All text goes through
/// `MarkupText.escape`.
struct ExportIndex {
  /// A file the export wrote, by its entry name.
  struct File {
    var path: String
    var mediaType: String
  }

  private struct ProjectEntry {
    var project: Project
    var textPath: String
    var pdf: File?
    var photos: [File]
    var seconds: Int64
    var sessions: Int
  }

  /// The projects, whole (they are few); the yarns are written as they come (`addYarn`
  /// returns each one's article), so that the page costs no memory per yarn.
  private var projects: [ProjectEntry] = []
  /// The text page of every yarn a project uses, by yarn ID (the projects come first).
  private var yarnPaths: [String: String] = [:]
  private var yarns = 0
  private var held = 0

  /// The media types shown as images: those every current browser shows (HEIC only Safari).
  static let imageTypes: Set<String> = ["image/jpeg", "image/png", "image/gif", "image/webp", "image/avif"]

  /// Records a yarn written to `folder` (ending in `/`), its photos by their entry names
  /// (in `yarn.photos` order), and returns its article of the page's stash: the yarns'
  /// articles, in order, go between `head(tables:now:)` and `tail(yarnNames:)`.
  mutating func addYarn(
    _ yarn: Yarn, folder: String, remaining: RemainingEstimate, photoNames: [String]
  ) -> String {
    let photos = zip(yarn.photos, photoNames).map { File(path: folder + $1, mediaType: $0.mediaType) }
    let textPath = folder + "yarn.txt"
    yarns += 1
    if yarn.isHeld { held += 1 }
    if yarnPaths[yarn.id] != nil { yarnPaths[yarn.id] = textPath }
    let e = MarkupText.escape
    var out = "<article>\n" + Self.photoBlock(photos, alt: yarn.name)
    out += "<h3><a href=\"\(Self.href(textPath))\">\(e(yarn.name))</a></h3>\n"
    let line = [yarn.brand, yarn.colorway].compactMap { $0 }.joined(separator: " · ")
    if !line.isEmpty { out += "<p class=\"meta\">\(e(line))</p>\n" }
    out += "<span class=\"status\(yarn.isHeld ? "" : " gone")\">\(e(yarn.status.rawValue))</span>\n<dl>\n"
    out += Self.row("Remaining", DisplayText.remaining(remaining))
    out += Self.row("Quantity", yarn.quantity?.description)
    out += Self.row("Weight", yarn.weight?.label)
    out += Self.row("Fiber", yarn.fiber)
    out += Self.row("Dye lot", yarn.dyeLot)
    out += Self.row("Stored in", yarn.storedIn)
    out += "</dl>\n" + Self.fileLinks(photos) + "</article>\n"
    return out
  }

  /// Records a project written to `folder` (ending in `/`), its pattern PDF and photos by their
  /// entry names, and its time (all its sessions; a running one ends at `now`).
  mutating func addProject(
    _ project: Project, folder: String, pdfName: String?, photoNames: [String], sessions: [TimeSession],
    now: Date
  ) {
    var project = project
    let photos = zip(project.photos, photoNames).map { File(path: folder + $1, mediaType: $0.mediaType) }
    var pdf: File?
    if let attachment = project.pattern?.pdf, let pdfName {
      pdf = File(path: folder + pdfName, mediaType: attachment.mediaType)
    }
    project.photos = []
    for usage in project.usages where yarnPaths[usage.yarnID] == nil { yarnPaths[usage.yarnID] = "" }
    projects.append(
      ProjectEntry(
        project: project, textPath: folder + "project.txt", pdf: pdf, photos: photos,
        seconds: sessions.reduce(Int64(0)) { $0 + $1.seconds(now: now) }, sessions: sessions.count))
  }

  private static func href(_ path: String) -> String {
    MarkupText.escape(MarkupText.relativeURL(path))
  }

  private static func row(_ label: String, _ value: String?) -> String {
    guard let value, !value.isEmpty else { return "" }
    return "<dt>\(MarkupText.escape(label))</dt><dd>\(MarkupText.escape(value))</dd>\n"
  }

  private static func photoBlock(_ files: [File], alt: String) -> String {
    let images = files.filter { ExportIndex.imageTypes.contains($0.mediaType.lowercased()) }.prefix(4)
    guard !images.isEmpty else { return "" }
    return "<div class=\"photos\(images.count > 1 ? " many" : "")\">"
      + images.map { "<img src=\"\(href($0.path))\" alt=\"\(MarkupText.escape(alt))\" loading=\"lazy\">" }
      .joined()
      + "</div>\n"
  }

  /// Links to the attachments not shown as images, and to images past the fourth.
  private static func fileLinks(_ files: [File]) -> String {
    var shown = 0
    var links: [String] = []
    for file in files {
      if ExportIndex.imageTypes.contains(file.mediaType.lowercased()) && shown < 4 {
        shown += 1
        continue
      }
      let name = String(file.path.split(separator: "/").last ?? "")
      links.append("<a href=\"\(href(file.path))\">\(MarkupText.escape(name))</a>")
    }
    return links.isEmpty ? "" : "<p class=\"files\">Files: \(links.joined(separator: ", "))</p>\n"
  }

  /// The page up to the yarns' articles, once every yarn is added.
  ///
  /// - Parameters:
  ///   - tables: the entry names of the CSV tables, linked at the top.
  ///   - now: the day shown as the export's.
  func head(tables: [String], now: Date) -> String {
    let e = MarkupText.escape
    let href = Self.href
    var out = """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta name="generator" content="yarn export">
      <title>Yarn library</title>
      <style>
      body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
        margin: 0; background: #f7f1e8; color: #2b2622; }
      header { background: #2f4858; color: #fff; padding: 24px 32px; }
      header h1 { margin: 0 0 6px; font-size: 32px; }
      header a { color: #f3c98b; }
      main { padding: 8px 32px 32px; }
      h2 { color: #2f4858; border-bottom: 2px solid #d9cfc3; padding-bottom: 6px; }
      .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(260px, 1fr)); gap: 18px;
        align-items: start; }
      article { background: #fff; border-radius: 14px; padding: 14px; box-shadow: 0 1px 3px rgba(0,0,0,.08);
        overflow-wrap: anywhere; }
      article h3 { margin: 8px 0 4px; font-size: 18px; }
      article h3 a { color: #2f4858; text-decoration: none; }
      .photos { display: flex; gap: 6px; flex-wrap: wrap; }
      .photos img { width: 100%; height: 200px; object-fit: cover; border-radius: 10px; background: #eee5da; }
      .photos.many img { width: calc(50% - 3px); height: 120px; }
      .meta { color: #6b5e55; font-size: 14px; margin: 2px 0; }
      .status { display: inline-block; font-size: 12px; padding: 2px 8px; border-radius: 999px;
        background: #dcebd5; color: #2d5a27; }
      .status.gone { background: #eee5da; color: #6b5e55; }
      dl { display: grid; grid-template-columns: auto 1fr; gap: 2px 10px; margin: 8px 0 0; font-size: 14px; }
      dt { color: #6b5e55; }
      dd { margin: 0; }
      ul { margin: 4px 0 0; padding-left: 18px; font-size: 14px; }
      .files { font-size: 13px; }
      </style>
      </head>
      <body>
      <header>
      <h1>Yarn library</h1>
      <div>\(Plural.count(yarns, "yarn")) (\(held) in the stash), \(Plural.count(projects.count, "project")). \
      Exported \(e(JSONCoding.formatInstant(now))).</div>
      <div>Tables: \(tables.map { "<a href=\"\(href($0))\">\(e($0))</a>" }.joined(separator: " · "))</div>
      </header>
      <main>

      """

    out += "<h2>Stash</h2>\n"
    if yarns == 0 { out += "<p>The stash is empty.</p>\n" }
    out += "<div class=\"grid\">\n"
    return out
  }

  /// The page after the yarns' articles: the projects.
  ///
  /// - Parameter yarnNames: the name of every yarn a project uses, by ID (for usages of
  ///   yarns the export has no folder for).
  func tail(yarnNames: [String: String]) -> String {
    let e = MarkupText.escape
    let href = Self.href
    let row = Self.row
    var out = "</div>\n"
    out += "<h2>Projects</h2>\n"
    if projects.isEmpty { out += "<p>No projects.</p>\n" }
    out += "<div class=\"grid\">\n"
    for entry in projects {
      let project = entry.project
      out += "<article>\n" + Self.photoBlock(entry.photos, alt: project.name)
      out += "<h3><a href=\"\(href(entry.textPath))\">\(e(project.name))</a></h3>\n"
      if let craft = project.craft { out += "<p class=\"meta\">\(e(craft.rawValue))</p>\n" }
      let gone = project.status == .frogged || project.status == .hibernating
      out += "<span class=\"status\(gone ? " gone" : "")\">\(e(project.status.rawValue))</span>\n<dl>\n"
      if let pdf = entry.pdf {
        let name = project.pattern?.name ?? "pattern"
        out += "<dt>Pattern</dt><dd><a href=\"\(href(pdf.path))\">\(e(name)) (PDF)</a></dd>\n"
      } else {
        out += row("Pattern", project.pattern?.name)
      }
      out += row("Pattern URL", project.pattern?.url)
      out += row("Started", project.started?.iso8601)
      out += row("Finished", project.finished?.iso8601)
      out += row(
        "Time",
        entry.sessions == 0
          ? nil
          : DisplayText.duration(entry.seconds) + " in " + Plural.count(entry.sessions, "session"))
      out += "</dl>\n"
      if !project.usages.isEmpty {
        out += "<ul>\n"
        for usage in project.usages {
          let name = e(yarnNames[usage.yarnID] ?? usage.yarnID)
          let linked =
            yarnPaths[usage.yarnID].flatMap { $0.isEmpty ? nil : $0 }.map {
              "<a href=\"\(href($0))\">\(name)</a>"
            } ?? name
          out += "<li>\(linked): \(e(usage.amount.description))</li>\n"
        }
        out += "</ul>\n"
      }
      out += Self.fileLinks(entry.photos) + "</article>\n"
    }
    out += "</div>\n</main>\n</body>\n</html>\n"
    return out
  }
}
