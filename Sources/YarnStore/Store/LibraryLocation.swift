import YarnModel

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

/// Where the library directory is: the rule of docs/CLI.md "Where the library is", kept here so that an app and
/// the CLI find the same library.
package enum LibraryLocation {
  /// The library directory, by precedence:
  /// 1. `explicit`, the directory the user chose (the CLI's `--library`), when given and not
  ///    empty;
  /// 2. `$YARN_LIBRARY`, when set and not empty (an empty one is as if unset; one that is
  ///    blank, only spaces or invisible characters, names no folder and is refused);
  /// 3. `$XDG_DATA_HOME/yarn`, when `XDG_DATA_HOME` is an absolute path (the XDG Base
  ///    Directory Specification 0.8 says to ignore an empty or relative value);
  /// 4. `~/.local/share/yarn` (the XDG default), or `~/Library/Application Support/yarn` on
  ///    macOS, with `~` the `HOME` of `environment` (else the user's home directory). A
  ///    blank or relative `HOME` names no home and is refused: taken as a path, it made the
  ///    library in a folder under the current directory (`./ /.local/share/yarn`).
  ///
  /// A leading `~/` in `explicit` or `$YARN_LIBRARY` is expanded with that home; a relative
  /// path is taken relative to the current directory. Nothing is created or checked here: the
  /// store creates the directory on its first write.
  ///
  /// - Parameters:
  ///   - explicit: the `--library` value, or `nil`.
  ///   - environment: the process environment (`ProcessInfo.processInfo.environment`).
  /// - Returns: a file URL of the directory, standardized (no `.` or `..` parts).
  /// - Throws: `EnvironmentVariableError` when `explicit` is `nil` or empty and
  ///   `$YARN_LIBRARY` is blank but not empty (`LineText.isBlank`: `"   "`, `"\u{200B}"`):
  ///   taken as a folder, it made a library in a folder named `   `; taken as unset, the
  ///   default library. The same when the home is needed (the default place, a leading `~`)
  ///   and `HOME` is set, not empty, but blank or not an absolute path; and when a variable of
  ///   `notUTF8` (the process's that are not UTF-8 text, left out of `environment`) is one the
  ///   place is read from: a variable the rule does not reach (`HOME` with `--library /x`,
  ///   `YARN_LIBRARY` with `--library`) is not read.
  package static func resolve(
    explicit: String?, environment: [String: String], notUTF8: Set<String> = []
  ) throws(EnvironmentVariableError) -> URL {
    func variable(_ name: String) throws(EnvironmentVariableError) -> String? {
      guard !notUTF8.contains(name) else {
        throw .notUTF8(name)
      }
      return environment[name]
    }
    func home() throws(EnvironmentVariableError) -> URL {
      if let home = try variable("HOME"), !home.isEmpty {
        guard !LineText.isBlank(home) else {
          throw .init(name: "HOME", value: home, reason: "a directory name cannot be empty")
        }
        guard home.hasPrefix("/") else {
          throw .init(name: "HOME", value: home, reason: "the home directory must be an absolute path")
        }
        return URL(fileURLWithPath: home, isDirectory: true)
      }
      return FileManager.default.homeDirectoryForCurrentUser
    }
    if let explicit, !explicit.isEmpty {
      return try directory(expanding: explicit, home: home)
    }
    if let value = try variable("YARN_LIBRARY"), !value.isEmpty {
      guard !LineText.isBlank(value) else {
        throw .init(name: "YARN_LIBRARY", value: value, reason: "a directory name cannot be empty")
      }
      return try directory(expanding: value, home: home)
    }
    if let data = try variable("XDG_DATA_HOME"), data.hasPrefix("/") {
      return URL(fileURLWithPath: data, isDirectory: true).appendingPathComponent(
        "yarn", isDirectory: true
      ).standardizedFileURL
    }
    #if os(macOS)
      let base = try home().appendingPathComponent("Library/Application Support", isDirectory: true)
    #else
      let base = try home().appendingPathComponent(".local/share", isDirectory: true)
    #endif
    return base.appendingPathComponent("yarn", isDirectory: true).standardizedFileURL
  }

  /// `path` with a leading `~` expanded by `home`, which is asked only then.
  private static func directory(
    expanding path: String, home: () throws(EnvironmentVariableError) -> URL
  ) throws(EnvironmentVariableError) -> URL {
    if path == "~" { return try home().standardizedFileURL }
    if path.hasPrefix("~/") {
      return try home().appendingPathComponent(String(path.dropFirst(2)), isDirectory: true)
        .standardizedFileURL
    }
    return URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
  }

  /// What `path`, a file a command is to write (an export, a backup, a share card), is of the
  /// library in `library`, when it is one of the library's own: its database
  /// (`library.sqlite`) or the database's write-ahead log, shared-memory file or rollback
  /// journal (`-wal`, `-shm`, `-journal`), the `attachments` or `safety-backups` folder, or
  /// anything inside one of those (a file that does not exist yet too); `nil` for any other
  /// path. No output may be written there, `--force` or not: it would destroy the library.
  ///
  /// Compared as the file system finds them, not as spelled: symbolic links are followed
  /// (those of the last component as `AtomicFile` follows them, to the file it would
  /// replace), `.` and `..` resolved, a name in the library directory compared case aside (a
  /// case-insensitive file system takes `Library.SQLITE` for the database), and what exists
  /// compared by device and inode too, so that a hard link to the database, or the library
  /// reached by another path (a bind mount), is caught as well.
  ///
  /// - Parameter inside: the name of one of the library's own folders (`safety-backups`) where
  ///   the file may be, being that folder's own kind of file (a safety backup): a path inside
  ///   it (not the folder itself) is then `nil`, unless it is in another of the own folders too
  ///   (`safety-backups` a link to `attachments/24`).
  /// - Returns: `the library's database (library.sqlite)`, `the library's attachments
  ///   folder`, `inside the library's attachments folder`, … or `nil`.
  package static func ownPart(_ path: String, of library: URL, allowingInside inside: String? = nil)
    -> String?
  {
    let home = resolved(library.path)
    let target = resolved(AtomicFile.resolvingLinks(path))
    let name = LibraryStore.databaseFileName
    let files = [
      (name, "database"), (name + "-wal", "write-ahead log"), (name + "-shm", "shared-memory file"),
      (name + "-journal", "rollback journal"),
    ]
    let folders = [LibraryStore.attachmentsFolderName, LibraryStore.safetyBackupsFolderName]
    if let id = identity(target),
      let file = files.first(where: { identity(POSIX.join(home, $0.0)) == id })
    {
      return "the library's \(file.1) (\(file.0))"
    }
    // The target, then each folder above it: one of the library's own, or in one. A path in
    // the `inside` folder is allowed only when no other own folder holds it too (a
    // `safety-backups` that links to `attachments/24` is found as both, walking up).
    var current = target
    var isTarget = true
    while true {
      let parent = POSIX.directory(of: current)
      let inHome = same(parent, home)
      let last = POSIX.lastComponent(of: current).lowercased()
      if isTarget, inHome, let file = files.first(where: { $0.0 == last }) {
        return "the library's \(file.1) (\(file.0))"
      }
      if let folder = folders.first(where: { (inHome && $0 == last) || same(current, POSIX.join(home, $0)) })
      {
        if isTarget || folder != inside {
          return isTarget ? "the library's \(folder) folder" : "inside the library's \(folder) folder"
        }
      }
      guard !parent.isEmpty, parent != current else { return nil }
      current = parent
      isTarget = false
    }
  }

  /// Whether `path`, a file a command is to write, is `other` or inside it, compared as the
  /// file system finds them (symbolic links followed, those of the last component as
  /// `AtomicFile` follows them, `.` and `..` resolved, each folder above compared by device
  /// and inode too): a file written there would change `other` (a backup being read).
  package static func isOrIsInside(_ path: String, _ other: String) -> Bool {
    let outer = resolved(other)
    var current = resolved(AtomicFile.resolvingLinks(path))
    while true {
      if same(current, outer) { return true }
      let parent = POSIX.directory(of: current)
      guard !parent.isEmpty, parent != current else { return false }
      current = parent
    }
  }

  /// `path` made absolute with its symbolic links, `.` and `..` resolved (realpath(3)) as
  /// far as it exists; the part that does not exist yet is appended, its `.` and `..`
  /// resolved by name.
  private static func resolved(_ path: String) -> String {
    var head = path.hasPrefix("/") ? path : POSIX.join(FileManager.default.currentDirectoryPath, path)
    var tail: [String] = []
    while true {
      if let real = realpath(head, nil) {
        var result = String(cString: real)
        free(real)
        for part in tail.reversed() where part != "." {
          result = part == ".." ? POSIX.directory(of: result) : POSIX.join(result, part)
        }
        return result
      }
      let parent = POSIX.directory(of: head)
      guard !parent.isEmpty, parent != head else { return path }
      tail.append(POSIX.lastComponent(of: head))
      head = parent
    }
  }

  /// The device and inode of what is at `path` (links followed), or `nil` when nothing is.
  private static func identity(_ path: String) -> [UInt64]? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return [UInt64(info.st_dev), UInt64(info.st_ino)]
  }

  /// Whether `a` and `b` are the same path, or name the same file or folder.
  private static func same(_ a: String, _ b: String) -> Bool {
    if a == b { return true }
    guard let first = identity(a) else { return false }
    return first == identity(b)
  }
}

/// An environment variable a command uses (`HOME`, `XDG_DATA_HOME` or `YARN_LIBRARY` for the
/// library's place, `TZ` for local time) whose value it cannot take: one that names no folder
/// (`YARN_LIBRARY` or `HOME` blank, `HOME` not an absolute path), or one that is not UTF-8
/// text, which read with U+FFFD in place of its bytes would be another path or zone. A command
/// that does not use the variable never reads it, and runs.
///
/// The facts only: what to do instead is the caller's to say, in its own terms (the CLI's
/// hint names its `--library DIR`), as the store knows no command line.
package struct EnvironmentVariableError: Error, Equatable {
  /// The variable: `HOME`.
  package let name: String
  /// Its value, or `nil` when it is not UTF-8 text.
  package let value: String?
  /// Why the value is refused: `a directory name cannot be empty`, `not UTF-8 text`.
  package let reason: String

  package init(name: String, value: String?, reason: String) {
    self.name = name
    self.value = value
    self.reason = reason
  }

  /// The variable `name` is not UTF-8 text.
  package static func notUTF8(_ name: String) -> Self {
    Self(name: name, value: nil, reason: "not UTF-8 text")
  }
}
