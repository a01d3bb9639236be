import YarnModel

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Where the library directory is: the rule of docs/CLI.md "Where the library is", kept here so that an app and
/// the CLI find the same library.
package enum LibraryLocation {
  /// The library directory, by precedence:
  /// 1. `explicit` (the CLI's `--library DIR`), when given and not empty;
  /// 2. `$YARN_LIBRARY`, when set and not empty (an empty one is as if unset; one that is
  ///    blank, only spaces or invisible characters, names no folder and is refused);
  /// 3. `$XDG_DATA_HOME/yarn`, when `XDG_DATA_HOME` is an absolute path (the XDG Base
  ///    Directory Specification 0.8 says to ignore an empty or relative value);
  /// 4. `~/.local/share/yarn` (the XDG default), or `~/Library/Application Support/yarn` on
  ///    macOS, with `~` the `HOME` of `environment` (else the user's home directory).
  ///
  /// A leading `~/` in `explicit` or `$YARN_LIBRARY` is expanded with that home; a relative
  /// path is taken relative to the current directory. Nothing is created or checked here: the
  /// store creates the directory on its first write.
  ///
  /// - Parameters:
  ///   - explicit: the `--library` value, or `nil`.
  ///   - environment: the process environment (`ProcessInfo.processInfo.environment`).
  /// - Returns: a file URL of the directory, standardized (no `.` or `..` parts).
  /// - Throws: `BlankVariable` when `explicit` is `nil` or empty and `$YARN_LIBRARY` is blank
  ///   but not empty (`LineText.isBlank`: `"   "`, `"\u{200B}"`): taken as a folder, it made
  ///   a library in a folder named `   `; taken as unset, the default library.
  package static func resolve(
    explicit: String?, environment: [String: String]
  ) throws(BlankVariable) -> URL {
    let home = homeDirectory(environment)
    if let explicit, !explicit.isEmpty {
      return directory(expanding: explicit, home: home)
    }
    if let variable = environment["YARN_LIBRARY"], !variable.isEmpty {
      guard !LineText.isBlank(variable) else { throw BlankVariable(name: "YARN_LIBRARY", value: variable) }
      return directory(expanding: variable, home: home)
    }
    if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
      return URL(fileURLWithPath: data, isDirectory: true).appendingPathComponent(
        "yarn", isDirectory: true
      ).standardizedFileURL
    }
    #if os(macOS)
      let base = home.appendingPathComponent("Library/Application Support", isDirectory: true)
    #else
      let base = home.appendingPathComponent(".local/share", isDirectory: true)
    #endif
    return base.appendingPathComponent("yarn", isDirectory: true).standardizedFileURL
  }

  /// An environment variable that names the library directory but is blank (only spaces or
  /// invisible characters), which names no folder.
  package struct BlankVariable: Error, Equatable {
    package let name: String
    package let value: String
  }

  private static func homeDirectory(_ environment: [String: String]) -> URL {
    if let home = environment["HOME"], !home.isEmpty {
      return URL(fileURLWithPath: home, isDirectory: true)
    }
    return FileManager.default.homeDirectoryForCurrentUser
  }

  private static func directory(expanding path: String, home: URL) -> URL {
    if path == "~" { return home.standardizedFileURL }
    if path.hasPrefix("~/") {
      return home.appendingPathComponent(String(path.dropFirst(2)), isDirectory: true)
        .standardizedFileURL
    }
    return URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
  }
}
