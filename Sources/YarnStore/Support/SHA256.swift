import YarnModel

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(CryptoKit)
  import CryptoKit
#else
  import CCrypto
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// SHA-256 (FIPS 180-4) of bytes fed in pieces, through OpenSSL's libcrypto on Linux and
/// CryptoKit on Apple systems. Not `Sendable`: one hasher belongs to one task.
package final class SHA256Hasher {
  #if canImport(CryptoKit)
    private var hasher = CryptoKit.SHA256()
  #else
    private let context: OpaquePointer?
    /// Why libcrypto could not be loaded (`Sources/CCrypto/loader.c` loads it on first use).
    private let loadFailure: String?
  #endif
  private var finished = false

  package init() {
    #if !canImport(CryptoKit)
      var message = [CChar](repeating: 0, count: 512)
      if yarn_crypto_load(&message, message.count) == 1 {
        loadFailure = nil
        context = EVP_MD_CTX_new()
        if let context { EVP_DigestInit_ex(context, EVP_sha256(), nil) }
      } else {
        loadFailure = String(
          decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        context = nil
      }
    #endif
  }

  deinit {
    #if !canImport(CryptoKit)
      if let context { EVP_MD_CTX_free(context) }
    #endif
  }

  /// Adds `bytes` to the digest.
  package func update(_ bytes: UnsafeRawBufferPointer) {
    guard !finished, bytes.count > 0 else { return }
    #if canImport(CryptoKit)
      hasher.update(bufferPointer: bytes)
    #else
      if let context { EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) }
    #endif
  }

  /// Adds `data` to the digest.
  package func update(_ data: Data) {
    data.withUnsafeBytes { update($0) }
  }

  /// The digest as 64 lower-case hexadecimal digits. Call once; later updates are ignored.
  ///
  /// - Throws: `SystemLibraryError` when libcrypto could not be loaded; `SHA256Error.failed`
  ///   when libcrypto could not allocate or finish the digest.
  package func finalize() throws -> String {
    finished = true
    #if canImport(CryptoKit)
      return SHA256Hasher.hex(Array(hasher.finalize()))
    #else
      if let loadFailure { throw SystemLibraryError(library: "libcrypto", reason: loadFailure) }
      var digest = [UInt8](repeating: 0, count: 32)
      var length: UInt32 = 0
      guard let context, EVP_DigestFinal_ex(context, &digest, &length) == 1, length == 32 else {
        throw SHA256Error.failed
      }
      return SHA256Hasher.hex(digest)
    #endif
  }

  /// The SHA-256 of `data`, as 64 lower-case hexadecimal digits.
  package static func hexDigest(of data: Data) throws -> String {
    let hasher = SHA256Hasher()
    hasher.update(data)
    return try hasher.finalize()
  }

  /// The SHA-256 and size (bytes) of the file at `url`, read in 1 MiB pieces (memory stays
  /// flat).
  ///
  /// - Throws: `SHA256Error.unreadable` when the file cannot be opened or read (with the
  ///   system's reason); `SHA256Error.failed`.
  package static func hexDigest(ofFileAt url: URL) throws -> (sha256: String, byteCount: Int64) {
    let path = url.path
    let (fd, reason) = POSIX.openRegularFile(path)
    guard fd >= 0 else { throw SHA256Error.unreadable(path: path, reason: reason ?? POSIX.errnoText()) }
    defer { POSIX.close(fd) }
    let hasher = SHA256Hasher()
    var count: Int64 = 0
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let got = buffer.withUnsafeMutableBytes { POSIX.read(fd, $0.baseAddress, $0.count) }
      if got < 0 {
        if errno == EINTR { continue }
        throw SHA256Error.unreadable(path: path, reason: POSIX.errnoText())
      }
      if got == 0 { break }
      buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<got])) }
      count += Int64(got)
    }
    return (try hasher.finalize(), count)
  }

  static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out = [UInt8]()
    out.reserveCapacity(bytes.count * 2)
    for byte in bytes {
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 0x0f)])
    }
    return String(decoding: out, as: UTF8.self)
  }
}

/// Thrown when the platform's SHA-256 implementation fails.
package enum SHA256Error: Error, Equatable {
  /// Thrown when libcrypto cannot allocate a context or finish a digest.
  case failed
  /// Thrown when the file to hash cannot be opened or read: its path and the system's reason.
  case unreadable(path: String, reason: String)
}
