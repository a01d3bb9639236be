import YarnCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file a command reads, named on the command line: a path, or `-` for standard input,
/// which is copied (spooled) to a temporary file so that it can be read like any other (a
/// zip needs random access; a CSV import reads its file twice).
///
/// The temporary file is `$TMPDIR/yarn-stdin-XXXXXX` (`/tmp` without `TMPDIR`), created by
/// mkstemp(3) (a new file, mode 0600, that no other process can have opened), and removed by
/// `remove()`: call it in a `defer` right after `InputFile.open`, so that it goes on every
/// way out, errors and Ctrl-C included (a long command's Ctrl-C cancels its task, which
/// throws `CancellationError` through the `defer`). Only `kill -9` can leave one behind.
final class InputSource {
  /// How messages name standard input.
  static let standardInputName = "standard input"

  /// The file to read: the path given, or the temporary copy of standard input.
  let url: URL
  /// How messages name it: the path as given, or `standard input`.
  let name: String
  /// The temporary copy's path, until it is removed; `nil` for a file named by its path.
  private(set) var temporaryPath: String?

  init(url: URL, name: String, temporaryPath: String?) {
    self.url = url
    self.name = name
    self.temporaryPath = temporaryPath
  }

  /// Whether it is standard input.
  var isStandardInput: Bool { name == InputSource.standardInputName }

  /// Removes the temporary copy of standard input (nothing for a named file). Safe to call
  /// twice.
  func remove() {
    guard let path = temporaryPath else { return }
    unlink(path)
    temporaryPath = nil
  }

  deinit { remove() }
}

extension InputFile {
  /// Opens `argument`: `-` spools standard input to a temporary file (see `InputSource`);
  /// anything else must be an existing regular file (`existingFile`), or a directory too when
  /// `directories` is true (`existingItem`). Call `remove()` on the result when done.
  ///
  /// Standard input that is a terminal is refused: a zip or a CSV file is piped in, not
  /// typed (`yarn backup verify - < backup.zip`).
  ///
  /// - Parameters:
  ///   - command: the command path, for the usage error.
  ///   - library: the command line's `--library`, which the command the error shows repeats.
  ///   - name: the argument's name in usage, such as `<backup>`.
  /// - Throws: what `existingFile`/`existingItem` throw; `CLIError.badValue` (64) for `-`
  ///   when standard input is a terminal; `CLIError.inputUnusable` (66) when standard input
  ///   is empty, closed or cannot be read; `CLIError.io` (74) when the temporary file
  ///   cannot be written; `CancellationError` when the task is cancelled while it waits for
  ///   input (the temporary file is removed).
  static func open(
    _ argument: String, directories: Bool = false, command: [String], library: String?, name: String
  ) throws -> InputSource {
    guard argument == "-" else {
      let url = directories ? try existingItem(argument) : try existingFile(argument)
      return InputSource(url: url, name: argument, temporaryPath: nil)
    }
    if isatty(0) == 1 {
      let example = Context.yarnCommand(
        command.dropFirst().joined(separator: " ") + " - < FILE", library: library)
      throw CLIError.badValue(
        command: command, name: name, value: argument,
        reason:
          "standard input is a terminal; pipe the file in (as in '\(example)'), or name it (./- for a file named -)"
      )
    }
    let path = try StandardInput.spool()
    return InputSource(
      url: URL(fileURLWithPath: path), name: InputSource.standardInputName, temporaryPath: path)
  }
}

/// Reading standard input (file descriptor 0).
enum StandardInput {
  /// The directory of temporary files: `$TMPDIR` when set, else `/tmp`.
  static var temporaryDirectory: String {
    if let value = getenv("TMPDIR"), value.pointee != 0 {
      let path = String(cString: value)
      return path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
    }
    return "/tmp"
  }

  /// Copies all of standard input to a new temporary file (`yarn-stdin-XXXXXX` in
  /// `temporaryDirectory`, by mkstemp(3)) and returns its path. Waits for input in steps of
  /// 0.2 s, checking between them whether the current task is cancelled. Nothing is left
  /// behind when it throws.
  ///
  /// - Throws: `CLIError.inputUnusable` when standard input is empty, closed or cannot be
  ///   read; `CLIError.io` when the file cannot be written;
  ///   `CancellationError` when the task is cancelled meanwhile.
  static func spool() throws -> String {
    var template = Array((temporaryDirectory + "/yarn-stdin-XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
      guard let base = buffer.baseAddress else { return -1 }
      return mkstemp(base)
    }
    guard fd >= 0 else {
      throw CLIError.io(
        path: temporaryDirectory,
        reason: "cannot create a temporary file for standard input: " + String(cString: strerror(errno)))
    }
    let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var keep = false
    defer {
      close(fd)
      if !keep { unlink(path) }
    }
    var total = 0
    try readAll { bytes in
      try AtomicFile.writeAll(fd, bytes, path: path)
      total += bytes.count
      return true
    }
    guard total > 0 else {
      throw CLIError.inputUnusable(path: InputSource.standardInputName, reason: "it is empty")
    }
    keep = true
    return path
  }

  /// Reads standard input to its end, handing each piece read to `body`, or until `body`
  /// returns false: the one reading of it, for every `-`.
  ///
  /// - Throws: `CLIError.inputUnusable` (66) when it is closed (`<&-`, which main.swift
  ///   turns into /dev/null open for writing only) or not open for reading, or when it
  ///   cannot be read (a directory); what `body` throws (an `AtomicFile` write error is
  ///   reported as `CLIError.io`); `CancellationError` when the current task is cancelled
  ///   while it waits.
  static func readAll(_ body: (UnsafeRawBufferPointer) throws -> Bool) throws {
    let flags = fcntl(0, F_GETFL)
    if flags == -1 || flags & O_ACCMODE == O_WRONLY {
      throw CLIError.inputUnusable(path: InputSource.standardInputName, reason: "it is closed")
    }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      try Task.checkCancellation()
      var waiting = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
      let ready = poll(&waiting, 1, 200)
      if ready < 0 {
        if errno == EINTR { continue }
        throw CLIError.inputUnusable(
          path: InputSource.standardInputName, reason: String(cString: strerror(errno)))
      }
      if ready == 0 { continue }
      let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        throw CLIError.inputUnusable(
          path: InputSource.standardInputName, reason: String(cString: strerror(errno)))
      }
      if count == 0 { return }
      do {
        let more = try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        if !more { return }
      } catch let error as AtomicFile.WriteError {
        throw CLIError.io(path: temporaryDirectory, reason: error.reason)
      }
    }
  }

  /// The most bytes of note text read from standard input: far more than a note of
  /// `Rules.maximumNoteLength` characters needs, so that `yes | yarn note add -` ends.
  static let maximumNoteBytes = 16 << 20

  /// The text of a note from standard input (`note add … -`, `note edit NOTE -`): all of it,
  /// as UTF-8, without one trailing line break (`\n` or `\r\n`), checked against the rule of
  /// a note's text (`Rules.noteText`). On a terminal it reads what is typed until Ctrl-D,
  /// as `cat` does.
  ///
  /// - Throws: `CLIError.invalidData` (65) when it is not UTF-8, breaks the rule (blank,
  ///   too long, a control character) or exceeds `maximumNoteBytes`; what `readAll` throws
  ///   (66 when standard input is closed or cannot be read).
  static func noteText() throws -> String {
    var bytes: [UInt8] = []
    var tooLong = false
    try readAll { piece in
      bytes.append(contentsOf: piece)
      tooLong = bytes.count > maximumNoteBytes
      return !tooLong
    }
    if tooLong {
      throw CLIError.invalidData(
        message:
          "standard input: the note's text is longer than \(maximumNoteBytes >> 20) MiB; the limit is \(Rules.maximumNoteLength) characters",
        hint: "shorten the text, or split it into several notes")
    }
    guard var text = String(validating: bytes, as: UTF8.self) else {
      throw CLIError.invalidData(
        message: "standard input: the note's text is not UTF-8", hint: "give the text as UTF-8")
    }
    if text.last == "\n" || text.last == "\r\n" { text.removeLast() }
    if let violation = Rules.noteText(text) {
      throw CLIError.invalidData(
        message: "standard input: the note's text \(violation.reason)",
        hint: violation.reason == "is blank" ? "give the note's text on standard input" : nil)
    }
    return text
  }
}

extension BackupError {
  /// The same error with the backup's path `old` (the temporary copy of standard input)
  /// named `new` (`standard input`); other paths (the library's, a safety backup's) are
  /// kept.
  func renamingBackup(_ old: String, to new: String) -> BackupError {
    func name(_ path: String) -> String { path == old ? new : path }
    switch self {
    case .notFound(let path, let reason): return .notFound(path: name(path), reason: reason)
    case .cannotOpen(let path, let reason): return .cannotOpen(path: name(path), reason: reason)
    case .missingManifest(let path): return .missingManifest(path: name(path))
    case .invalidManifest(let path, let reason):
      return .invalidManifest(path: name(path), reason: reason)
    case .newerFormat(let path, let found, let known):
      return .newerFormat(path: name(path), found: found, known: known)
    case .invalidBackup(let path, let problems):
      return .invalidBackup(path: name(path), problems: problems)
    case .mergeConflicts(let path, let conflicts):
      return .mergeConflicts(path: name(path), conflicts: conflicts)
    default: return self
    }
  }
}

extension InputSource {
  /// Runs `body` and names standard input in the backup errors it throws, instead of the
  /// temporary file's path.
  func namingErrors<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch let error as BackupError where isStandardInput {
      throw error.renamingBackup(url.path, to: name)
    }
  }
}
