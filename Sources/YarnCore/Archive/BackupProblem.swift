import YarnModel
import YarnStore

/// One thing wrong with a backup, naming the entry or record concerned. A verification or a
/// restore collects every problem it finds (`BackupError.invalidBackup`), not only the first.
public enum BackupProblem: Hashable, Sendable, CustomStringConvertible {
  /// An entry name that could escape or confuse a directory: empty, absolute, holding `..`,
  /// `.`, an empty component, a backslash, a NUL or a drive letter; `reason` says which.
  case unsafeName(String, reason: String)
  /// An entry that is a symbolic link.
  case symbolicLink(String)
  /// A name that occurs twice.
  case duplicateName(String)
  /// Two names that differ only in case (they collide on macOS and Windows file systems).
  case caseCollision(String, String)
  /// An entry the manifest does not list.
  case unlisted(String)
  /// A file the manifest lists that the backup lacks.
  case missing(String)
  /// A manifest entry that is not `library.json` or `attachments/<its sha256>`, or that has a
  /// negative size or a malformed digest; `reason` says which.
  case invalidManifestEntry(String, reason: String)
  /// An encrypted entry (backups are never encrypted).
  case encrypted(String)
  /// An entry compressed with a method other than stored (0) or deflated (8), the method
  /// numbers of the zip format (PKWARE's APPNOTE.TXT, 4.4.5).
  case unsupportedMethod(String, method: Int)
  /// An entry whose size differs from the manifest's.
  case sizeMismatch(String, expected: Int64, found: Int64)
  /// An entry whose SHA-256 differs from the manifest's.
  case digestMismatch(String, expected: String, found: String)
  /// An entry that inflates to more than the manifest's size (reading stopped there).
  case tooLarge(String, limit: Int64)
  /// An entry that inflates more than `limit` times its compressed size (a zip bomb's mark).
  case compressionRatio(String, ratio: Int64, limit: Int64)
  /// More entries than the limit: `count` counted, all of a zip's (its central directory's
  /// count) or a manifest's, but of a directory `limit` + 1, where its walk stops.
  case tooManyEntries(count: Int, limit: Int)
  /// More bytes in all than the limit.
  case tooManyBytes(total: Int64, limit: Int64)
  /// An entry that cannot be read: CRC mismatch, bad compressed data, an I/O error.
  case unreadable(String, reason: String)
  /// `library.json` does not decode as a Library; `reason` gives the JSON path.
  case invalidLibrary(reason: String)
  /// A record that refers to something the library lacks, or that breaks a rule of the
  /// model (a duplicate ID, two running sessions); `reason` names the records.
  case inconsistentLibrary(reason: String)
  /// A record of `library.json` that breaks a rule of the model (`Rules`): `kind` (`yarn`,
  /// `project`, `note`, `session`), `id` and `name` (a yarn's or project's) name it,
  /// `violation` the field and why, in the words of `StoreError.brokenRule`.
  case brokenRule(kind: String, id: String, name: String?, violation: RuleViolation)
  /// A record of `library.json` named by its place, `path` (`yarns[0]`), rather than its ID,
  /// because its ID breaks a rule (`Rules.id(_:)`: it is blank): `kind`, `name` (a yarn's,
  /// project's or tool's) and `violation` as `brokenRule`.
  case brokenRuleAt(path: String, kind: String, name: String?, violation: RuleViolation)
  /// More items of `library.json` do not decode than are named one by one
  /// (`LibraryDocumentReader.maxItemProblems`): `count` more. It stands for `count` problems
  /// (`weight`).
  case moreItemsDoNotDecode(count: Int)
  /// The manifest's `counts` disagree with `library.json`.
  case countMismatch(kind: String, manifest: Int, library: Int)
  /// An attachment the manifest lists that no yarn or project uses (a restore would store a
  /// file nothing refers to).
  case unusedAttachment(String)
  /// Found by `create`, not in a backup: the library's database holds `count` rows that no
  /// backup can hold, because the project or yarn they belong to is missing (usages of a
  /// missing project, attachment records of a missing yarn or project); `examples` names up
  /// to five of them, such as `row 3 of attachment refers to yarn y-9`.
  case orphanedRows(count: Int, examples: [String])

  /// Whether an older yarn may have written the problem: a record that breaks a rule of the
  /// model (`brokenRule`, `brokenRuleAt`), whose rules grew stricter over versions (an older
  /// yarn accepted a blank ID, which `Rules.id` now refuses). Such a record may as well come
  /// from a library changed outside yarn (`UPDATE yarn SET quantity_value = -5` in the sqlite3
  /// shell): messages name both causes, and a mending that works for both (edit the item in
  /// the library, then back up again). Every other problem is one no yarn writes: a file
  /// damaged or made by hand, a library changed outside yarn (a missing reference, an instant
  /// out of range, orphaned rows).
  public var mayBeFromAnOlderYarn: Bool {
    switch self {
    case .brokenRule, .brokenRuleAt: true
    default: false
    }
  }

  /// How many problems this one stands for: `count` for `moreItemsDoNotDecode`, else 1.
  public var weight: Int {
    if case .moreItemsDoNotDecode(let count) = self { return count }
    return 1
  }

  /// How many problems `problems` stand for (`weight`): what a verification says it found,
  /// whether or not each is listed.
  public static func total(_ problems: [BackupProblem]) -> Int {
    problems.reduce(0) { $0 + $1.weight }
  }

  /// `1 problem`, `30 problems`: the `total` of `problems`.
  public static func countText(_ problems: [BackupProblem]) -> String {
    Plural.count(total(problems), "problem")
  }

  /// One lower-case line naming the entry or record, such as `attachments/… holds 10 bytes,
  /// manifest.json says 12`; entry names are quoted (`LineText.quoted`) and paths written with
  /// their control and invisible characters escaped (`LineText.visible`).
  public var description: String {
    switch self {
    case .unsafeName(let name, let reason): return "unsafe entry name \(LineText.quoted(name)): \(reason)"
    case .symbolicLink(let name): return "entry \(LineText.quoted(name)) is a symbolic link"
    case .duplicateName(let name): return "entry \(LineText.quoted(name)) occurs more than once"
    case .caseCollision(let a, let b):
      return "entries \(LineText.quoted(a)) and \(LineText.quoted(b)) differ only in case"
    case .unlisted(let name): return "entry \(LineText.quoted(name)) is not listed in manifest.json"
    case .missing(let path): return "\(LineText.visible(path)) is listed in manifest.json but missing"
    case .invalidManifestEntry(let path, let reason):
      return "manifest.json lists \(LineText.quoted(path)): \(reason)"
    case .encrypted(let name): return "entry \(LineText.quoted(name)) is encrypted"
    case .unsupportedMethod(let name, let method):
      return "entry \(LineText.quoted(name)) uses compression method \(method) (only 0 and 8 are read)"
    case .sizeMismatch(let path, let expected, let found):
      return "\(LineText.visible(path)) holds \(found) bytes, manifest.json says \(expected)"
    case .digestMismatch(let path, let expected, let found):
      return "\(LineText.visible(path)) has SHA-256 \(found), manifest.json says \(expected)"
    case .tooLarge(let path, let limit):
      return "\(LineText.visible(path)) inflates to more than its \(limit) bytes; reading stopped"
    case .compressionRatio(let path, let ratio, let limit):
      return
        "\(LineText.visible(path)) inflates \(ratio) times its compressed size (limit \(limit)): a zip bomb?"
    case .tooManyEntries(_, let limit):
      return "the backup has more than \(limit) entries, the most a backup may have"
    case .tooManyBytes(let total, let limit):
      return "the backup holds \(total) bytes, more than the limit of \(limit)"
    case .unreadable(let path, let reason): return "cannot read \(LineText.visible(path)): \(reason)"
    case .invalidLibrary(let reason): return "library.json is not a valid library: \(reason)"
    case .inconsistentLibrary(let reason): return "library.json: \(reason)"
    case .brokenRule(let kind, let id, let name, let violation):
      return
        "library.json: \(kind) \(Rules.shown(id: id))\(name.map { " (\(LineText.visible($0)))" } ?? ""): \(violation)"
    case .brokenRuleAt(let path, let kind, let name, let violation):
      return
        "library.json: \(kind) at \(path)\(name.map { " (\(LineText.visible($0)))" } ?? ""): \(violation)"
    case .moreItemsDoNotDecode(let count):
      return "library.json is not a valid library: "
        + (count == 1 ? "1 more item does not decode" : "\(count) more items do not decode")
    case .countMismatch(let kind, let manifest, let library):
      return "manifest.json counts \(manifest) \(kind), library.json holds \(library)"
    case .unusedAttachment(let path):
      return "\(LineText.visible(path)) is in the backup, but no yarn or project uses it"
    case .orphanedRows(let count, let examples):
      let head =
        count == 1
        ? "the library's database holds 1 row whose project or yarn is missing"
        : "the library's database holds \(count) rows whose project or yarn is missing"
      let list = exampleList(examples, of: count)
      return head + ", which the backup lacks" + (list.isEmpty ? "" : ": " + list)
    }
  }
}
