import YarnStore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Why a file that a writer of a library was given to write is refused, whatever its `force`:
/// one rule for every writer that takes a store and a destination (`Backup.create`,
/// `LibraryExport.write`, `WEFTExport.write`) and for the command line's own outputs, in the
/// same words.
public enum OutputError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file at `path` is one of the library's own, in the library directory `library`:
  /// its database (`library.sqlite`) or that file's `-wal`, `-shm` or `-journal` file, its
  /// `attachments` or `safety-backups` folder, or a file in one of those (one that does not
  /// exist yet too), however the path reaches it (a symbolic link, `..`, a hard link,
  /// another case). Writing there would destroy the library, so it is refused with `force`
  /// too. Thrown before anything is read or written: nothing was changed. `part` says which
  /// (`the library's database (library.sqlite)`, `inside the library's attachments folder`).
  case intoLibrary(path: String, part: String, library: String)

  /// The file at `path` is the backup being read, `backup` (a zip), or inside it (a directory
  /// backup), however the path reaches it (a symbolic link, `..`): written there, it would
  /// change the backup, which would no longer verify. Refused before anything is read or
  /// written. `part` says which (`the backup being read`, `inside the backup being read`).
  case intoBackup(path: String, part: String, backup: String)

  /// `cannot create 'PATH': it is the library's database (library.sqlite), in LIBRARY; no
  /// output is written there` (no caller's option is named: the command line adds `, even
  /// with --force` where the command has one).
  public var description: String {
    switch self {
    case .intoLibrary(let path, let part, let library):
      "cannot create '\(LineText.visible(path))': it is \(part), in \(LineText.visible(library)); no output is written there"
    case .intoBackup(let path, let part, let backup):
      "cannot create '\(LineText.visible(path))': it is \(part), \(LineText.visible(backup)); no output is written there"
    }
  }

  /// Refuses `path`, a file to be written, when it is one of the own files of the library in
  /// the directory `library` (`LibraryLocation.ownPart`); with `safetyBackup`, a file inside
  /// the library's `safety-backups` folder, where a `.replace` restore writes its safety
  /// backup, is not refused.
  ///
  /// - Throws: `OutputError.intoLibrary` naming `path` as given and what of the library it is.
  package static func refuseLibraryFile(
    _ path: String, of library: URL, safetyBackup: Bool = false
  ) throws(OutputError) {
    let inside = safetyBackup ? LibraryStore.safetyBackupsFolderName : nil
    guard let part = LibraryLocation.ownPart(path, of: library, allowingInside: inside) else { return }
    throw .intoLibrary(path: path, part: part, library: library.path)
  }

  /// Refuses `path`, a file to be written, when it is the backup `backup` being read or inside
  /// it (`LibraryLocation.isOrIsInside`).
  ///
  /// - Throws: `OutputError.intoBackup` naming `path` and `backup` as given.
  package static func refuseBackupFile(_ path: String, of backup: URL) throws(OutputError) {
    guard LibraryLocation.isOrIsInside(path, backup.path) else { return }
    let part =
      LibraryLocation.isOrIsInside(backup.path, path)
      ? "the backup being read" : "inside the backup being read"
    throw .intoBackup(path: path, part: part, backup: backup.path)
  }
}
