import CLibzip
import YarnModel
import YarnStore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension ZipArchive {
  /// Reads an existing zip archive: lists its entries and streams an entry's bytes with a cap.
  ///
  /// Opened with `ZIP_RDONLY | ZIP_CHECKCONS`, so libzip compares each central-directory entry
  /// with its local header. libzip does not police names, links, sizes or overlapping entries:
  /// that is the caller's job (see `BackupReader`).
  final class Reader {
    /// The archive's path.
    let url: URL
    private let handle: OpaquePointer

    /// Opens `url` for reading.
    ///
    /// - Throws: `SystemLibraryError` when libzip cannot be loaded; `ZipError.cannotOpen` with libzip's message (not a zip archive, premature end
    ///   of file, inconsistent archive, no such file, …), or "two entries have the same name".
    init(url: URL) throws {
      try ZipLibrary.load()
      self.url = url
      var code: Int32 = 0
      guard let handle = zip_open(url.path, ZIP_RDONLY | ZIP_CHECKCONS, &code) else {
        // libzip 1.7.3 refuses a central directory that names an entry twice with
        // ZIP_ER_EXISTS, whose own message ("file already exists") reads as if about `url`.
        let reason =
          code == ZIP_ER_EXISTS ? "two entries have the same name" : ZipError.message(code: code)
        throw ZipError.cannotOpen(path: url.path, reason: reason)
      }
      self.handle = handle
    }

    /// Releases the archive (`zip_discard`: nothing is written).
    deinit {
      zip_discard(handle)
    }

    /// The number of entries in the central directory.
    var count: Int {
      Int(max(0, zip_get_num_entries(handle, 0)))
    }

    /// The entry at `index` (0-based).
    ///
    /// - Throws: `ZipError.cannotRead` when libzip cannot stat it.
    func entry(at index: Int) throws -> Entry {
      var st = zip_stat_t()
      zip_stat_init(&st)
      // The name's own bytes (ZIP_FL_ENC_RAW), not libzip's guess at CP437 for a name without
      // the UTF-8 flag: the caller checks them as a directory's (`BackupChecks.entryName`).
      guard zip_stat_index(handle, zip_uint64_t(index), zip_flags_t(ZIP_FL_ENC_RAW), &st) == 0,
        let cName = st.name
      else {
        throw ZipError.cannotRead(path: url.path, entry: "entry \(index)", reason: message())
      }
      var nameBytes: [UInt8] = []
      var byte = cName
      while byte.pointee != 0 {
        nameBytes.append(UInt8(bitPattern: byte.pointee))
        byte += 1
      }
      var system: zip_uint8_t = 0
      var attributes: zip_uint32_t = 0
      var fileType: UInt32?
      if zip_file_get_external_attributes(handle, zip_uint64_t(index), 0, &system, &attributes)
        == 0,
        system == zip_uint8_t(ZIP_OPSYS_UNIX)
      {
        // The high 16 bits hold the Unix st_mode; its type is S_IFMT 0o170000 of it.
        fileType = (attributes >> 16) & 0o170000
      }
      return Entry(
        index: index, nameBytes: nameBytes,
        size: Int64(clamping: st.size), compressedSize: Int64(clamping: st.comp_size),
        method: Int(st.comp_method), isEncrypted: st.encryption_method != ZIP_EM_NONE,
        fileType: fileType)
    }

    /// Every entry, in central-directory order.
    ///
    /// - Throws: `ZipError.cannotRead`.
    /// - Complexity: O(n) in the number of entries.
    func entries() throws -> [Entry] {
      try (0..<count).map { try entry(at: $0) }
    }

    /// The index of the entry named exactly `name` (case-sensitive), or `nil`.
    func index(of name: String) -> Int? {
      let found = zip_name_locate(handle, name, 0)
      return found >= 0 ? Int(found) : nil
    }

    /// Streams the bytes of the entry at `index` to `body`, in pieces of at most 64 KiB, and
    /// reads until `zip_fread` returns 0, which is when libzip 1.7.3 checks the CRC.
    ///
    /// - Parameters:
    ///   - limit: the most bytes the entry may inflate to; reading stops as soon as more come,
    ///     so a zip bomb costs at most `limit` + 64 KiB of work.
    ///   - body: receives each piece; what it throws stops the reading and is rethrown.
    /// - Returns: the number of bytes read.
    /// - Throws: `ZipError.entryTooLarge` past `limit`; `ZipError.cannotRead` on a CRC error,
    ///   bad compressed data, encryption or an unsupported method.
    /// - Complexity: O(size of the entry), memory O(1).
    @discardableResult
    func read(
      at index: Int, limit: Int64, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> Int64 {
      let name = (try? entry(at: index).name) ?? "entry \(index)"
      guard let file = zip_fopen_index(handle, zip_uint64_t(index), 0) else {
        throw ZipError.cannotRead(path: url.path, entry: name, reason: message())
      }
      defer { zip_fclose(file) }
      let capacity = 1 << 16
      let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
      defer { buffer.deallocate() }
      var total: Int64 = 0
      while true {
        let n = zip_fread(file, buffer, zip_uint64_t(capacity))
        if n < 0 {
          throw ZipError.cannotRead(
            path: url.path, entry: name, reason: String(cString: zip_file_strerror(file)))
        }
        if n == 0 { return total }
        total += Int64(n)
        if total > limit {
          throw ZipError.entryTooLarge(path: url.path, entry: name, limit: limit)
        }
        try body(UnsafeRawBufferPointer(start: buffer, count: Int(n)))
      }
    }

    /// Reads the whole entry at `index` into memory, at most `limit` bytes.
    ///
    /// - Throws: as `read(at:limit:_:)`.
    func data(at index: Int, limit: Int64) throws -> Data {
      var data = Data()
      try read(at: index, limit: limit) { data.append(contentsOf: $0) }
      return data
    }

    private func message() -> String {
      String(cString: zip_strerror(handle))
    }
  }
}
