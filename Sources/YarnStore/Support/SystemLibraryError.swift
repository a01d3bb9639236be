import YarnModel

/// Thrown when a C library that YarnCore loads on first use (libzip for zip archives,
/// OpenSSL's libcrypto for SHA-256 on Linux) cannot be loaded: not installed, or too old.
///
/// Commands that need neither (time tracking, listing, CSV) never load them, so a machine
/// without them still runs those.
public struct SystemLibraryError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The library's name: `libzip` or `libcrypto`.
  public var library: String
  /// Why, with the fix: `libzip could not be loaded (libzip.so.4: cannot open shared object
  /// file: No such file or directory); install it (Debian: apt-get install libzip4)`.
  public var reason: String

  package init(library: String, reason: String) {
    self.library = library
    self.reason = reason
  }

  /// `reason`.
  public var description: String { reason }
}
