#if os(Linux)
internal import CSystem
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file's type and permission bits (`mode_t`), named by the C library's own module: the
/// name alone also reaches this file through `CSystem`, imported `internal`, and which of the
/// two the compiler picked changed with the files in the module.
#if canImport(Glibc)
package typealias FileMode = Glibc.mode_t
#elseif canImport(Musl)
package typealias FileMode = Musl.mode_t
#elseif canImport(Darwin)
package typealias FileMode = Darwin.mode_t
#endif

/// An `errno` value as a Swift error.
package struct Errno: Error {
  package let code: Int32
  package init(code: Int32) { self.code = code }
}

/// Every C file call of the package, each wrapped once: nothing outside this type calls
/// `open`, `stat`, `rename`, `unlink`, `mkdir` and the like.
package enum POSIXFile {
  /// The text of `errno` (the C function `strerror`).
  package static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }

  /// Opens for writing; `exclusive` refuses an existing file (the C function `open`
  /// with `O_CREAT|O_EXCL`). Never truncates: the caller does, after locking.
  package static func openForWriting(_ path: String, exclusive: Bool) -> Result<Int32, Errno> {
    let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (exclusive ? O_EXCL : 0)
    let fd = open(path, flags, 0o644)
    return fd >= 0 ? .success(fd) : .failure(Errno(code: errno))
  }

  /// Opens for reading (the C function `open`).
  package static func openForReading(_ path: String) -> Result<Int32, Errno> {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    return fd >= 0 ? .success(fd) : .failure(Errno(code: errno))
  }

  /// Takes an exclusive advisory lock without waiting (the C function `flock`).
  package static func lockExclusive(_ fd: Int32) -> Int32? { flock(fd, LOCK_EX | LOCK_NB) == 0 ? nil : errno }

  /// Empties the file (the C function `ftruncate`).
  package static func truncate(_ fd: Int32) -> Int32? { ftruncate(fd, 0) == 0 ? nil : errno }

  /// Writes `text`'s UTF-8 bytes with `writeAll(_:_:)`.
  package static func writeAll(_ fd: Int32, text: String) -> Int32? {
    var text = text
    return text.withUTF8 { writeAll(fd, UnsafeRawBufferPointer($0)) }
  }

  /// Writes every byte, retrying short writes and `EINTR` (the C function `write`).
  package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
    var offset = 0
    while offset < bytes.count {
      let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
      if n < 0 {
        if errno == EINTR { continue }
        return errno
      }
      offset += n
    }
    return nil
  }

  /// Reads up to `count` bytes (the C function `read`); 0 at end of file.
  package static func read(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int) -> Result<Int, Errno> {
    while true {
      let n = Glibc.read(fd, buffer, count)
      if n >= 0 { return .success(n) }
      if errno != EINTR { return .failure(Errno(code: errno)) }
    }
  }

  /// Every byte of the file at `path`; nil when it cannot be opened or read (the C functions
  /// `open` and `read`).
  package static func readAll(_ path: String) -> [UInt8]? {
    guard case let .success(fd) = openForReading(path) else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let result = chunk.withUnsafeMutableBytes { Self.read(fd, into: $0.baseAddress!, count: $0.count) }
      guard case let .success(n) = result else { return nil }
      if n == 0 { return bytes }
      bytes.append(contentsOf: chunk[0..<n])
    }
  }

  /// At most `count` bytes from the start of the file at `path`, or the error that stopped
  /// the reading (the C functions `open`, `fstat` and `read`). Room is made for the file's size,
  /// not for `count`: a limit of megabytes costs nothing for a file of a few bytes.
  package static func read(_ path: String, upTo count: Int) -> Result<[UInt8], Errno> {
    let fd: Int32
    switch openForReading(path) {
    case let .success(opened): fd = opened
    case let .failure(error): return .failure(error)
    }
    defer { close(fd) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(min(count, max(0, typeAndSize(fd)?.size ?? 0) &+ 1))
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while bytes.count < count {
      let wanted = min(chunk.count, count - bytes.count)
      switch chunk.withUnsafeMutableBytes({ Self.read(fd, into: $0.baseAddress!, count: wanted) }) {
      case let .failure(error): return .failure(error)
      case let .success(n):
        if n == 0 { return .success(bytes) }
        bytes.append(contentsOf: chunk[0..<n])
      }
    }
    return .success(bytes)
  }

  /// The file's first `count` bytes (fewer when it is shorter); nil when it cannot be opened or
  /// read (the C functions `open` and `read`).
  package static func readPrefix(_ path: String, count: Int) -> [UInt8]? {
    precondition(count >= 0 && count <= 1 << 20, "a prefix is a header, not a file")
    guard case let .success(fd) = openForReading(path) else { return nil }
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
      let result = bytes.withUnsafeMutableBytes { Self.read(fd, into: $0.baseAddress! + filled, count: count - filled) }
      guard case let .success(n) = result else { return nil }
      if n == 0 { break }
      filled += n
    }
    return Array(bytes[0..<filled])
  }

  /// Forces written data to the disk (the C function `fsync`).
  package static func sync(_ fd: Int32) -> Int32? { fsync(fd) == 0 ? nil : errno }

  /// Asks the kernel to start writing `count` bytes from `offset` to the disk, without waiting
  /// for them (Linux's `sync_file_range` with `SYNC_FILE_RANGE_WRITE`; elsewhere nothing). Only
  /// advice: `sync` still decides, and reports, whether the data reached the disk.
  package static func startWriteback(_ fd: Int32, offset: Int, count: Int) {
    #if os(Linux)
    _ = csystem_start_writeback(fd, Int64(offset), Int64(count))
    #endif
  }

  /// The file's size in bytes, found by moving the read position to its end; nil if it has
  /// none (the C function `lseek` with `SEEK_END`).
  package static func size(_ fd: Int32) -> Int? {
    let end = lseek(fd, 0, SEEK_END)
    return end < 0 ? nil : Int(end)
  }

  /// Moves the read position to `offset` from the start (the C function `lseek`).
  package static func seek(_ fd: Int32, to offset: Int) -> Int32? { lseek(fd, off_t(offset), SEEK_SET) < 0 ? errno : nil }

  /// Whether `path` names a regular file, which can be opened twice and read from any offset
  /// (a pipe such as `<(zcat run.lifelog.gz)` cannot); false if it cannot be examined (the C
  /// function `stat`).
  package static func isRegularFile(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
  }

  /// Closes (the C function `close`).
  package static func close(_ fd: Int32) { _ = Glibc.close(fd) }

  /// Opens an existing file (a device or pipe) for writing, as it is (the C function `open`
  /// without `O_CREAT`).
  package static func openExistingForWriting(_ path: String) -> Result<Int32, Errno> {
    let fd = open(path, O_WRONLY | O_CLOEXEC)
    return fd >= 0 ? .success(fd) : .failure(Errno(code: errno))
  }

  /// The type of the file at `path` (its `S_IFMT` bits), following links (the C function `stat`).
  package static func fileType(_ path: String) -> Result<FileMode, Errno> {
    var info = stat()
    return stat(path, &info) == 0 ? .success(info.st_mode & S_IFMT) : .failure(Errno(code: errno))
  }

  /// As `fileType`, for a path given as bytes (a name that is not UTF-8).
  package static func fileType(bytes path: [UInt8]) -> Result<FileMode, Errno> {
    var info = stat()
    let cPath = (path + [0]).map { CChar(bitPattern: $0) }
    return stat(cPath, &info) == 0 ? .success(info.st_mode & S_IFMT) : .failure(Errno(code: errno))
  }

  /// As `fileType`; nil when there is nothing at `path`.
  package static func kind(_ path: String) -> Result<FileMode?, Errno> {
    switch fileType(path) {
    case let .success(kind): return .success(kind)
    case let .failure(error): return error.code == ENOENT ? .success(nil) : .failure(error)
    }
  }

  /// The device and inode of the file at `path`, links resolved; nil when nothing is there
  /// (the C functions `realpath` and `stat`).
  package static func deviceAndInode(_ path: String) -> (device: UInt64, inode: UInt64)? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    var info = stat()
    guard stat(resolved, &info) == 0 else { return nil }
    return (UInt64(info.st_dev), UInt64(info.st_ino))
  }

  /// Whether `path` names a folder, following links (the C function `stat`).
  package static func isDirectory(_ path: String) -> Bool {
    if case let .success(kind?) = kind(path) { return kind == S_IFDIR }
    return false
  }

  /// The type of what is at `path` itself, a link not followed (the C function `lstat`).
  package static func fileTypeWithoutFollowing(_ path: String) -> Result<FileMode, Errno> {
    var info = stat()
    return lstat(path, &info) == 0 ? .success(info.st_mode & S_IFMT) : .failure(Errno(code: errno))
  }

  /// Whether `path` names something, a dangling link included (the C function `lstat`).
  package static func existsWithoutFollowing(_ path: String) -> Bool {
    if case .success = fileTypeWithoutFollowing(path) { return true }
    return false
  }

  /// The type (`S_IFMT` bits) and size of an open file (the C function `fstat`).
  package static func typeAndSize(_ fd: Int32) -> (type: FileMode, size: Int)? {
    var info = stat()
    return fstat(fd, &info) == 0 ? (info.st_mode & S_IFMT, Int(info.st_size)) : nil
  }

  /// Whether something is at `path`, following links (the C function `access` with `F_OK`).
  package static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

  /// Whether the file at `path` may be read (the C function `access` with `R_OK`).
  package static func isReadable(_ path: String) -> Bool { access(path, R_OK) == 0 }

  /// `path` with every link, `.` and `..` resolved; nil when it names nothing (the C function
  /// `realpath`).
  package static func resolvedPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// Creates a new folder named `prefix` and six random characters (the C function `mkdtemp`).
  package static func makeTemporaryDirectory(prefix: String) -> Result<String, Errno> {
    var template = Array("\(prefix)XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ $0.baseAddress.flatMap { mkdtemp($0) } }) else {
      return .failure(Errno(code: errno))
    }
    return .success(String(cString: made))
  }

  /// Moves `from` to `to`, replacing what is there (the C function `rename`).
  package static func rename(_ from: String, to: String) -> Errno? {
    Glibc.rename(from, to) == 0 ? nil : Errno(code: errno)
  }

  /// Removes the file at `path` (the C function `unlink`).
  @discardableResult
  package static func remove(_ path: String) -> Errno? { unlink(path) == 0 ? nil : Errno(code: errno) }

  /// Removes the file at the C string `path`, from a signal handler: no allocation, no lock
  /// (the C function `unlink`).
  package static func remove(cString path: UnsafePointer<CChar>) { unlink(path) }

  /// Creates the folder `path` (the C function `mkdir`); an existing one is an `EEXIST` error.
  @discardableResult
  package static func makeDirectory(_ path: String) -> Errno? { mkdir(path, 0o755) == 0 ? nil : Errno(code: errno) }

  /// Creates the folder `path` and every folder above it that is missing, as `mkdir -p` does
  /// (the C function `mkdir`): the first folder that could not be made and why, or nil.
  /// Something already at a prefix counts as made: a file there fails at the next folder
  /// down, and one at `path` itself is for the caller to refuse.
  package static func makeDirectories(_ path: String) -> (folder: String, error: Errno)? {
    var prefix = path.hasPrefix("/") ? "/" : ""
    for part in path.split(separator: "/") {
      prefix += part
      if let error = makeDirectory(prefix), !alreadyExists(error) { return (prefix, error) }
      prefix += "/"
    }
    return nil
  }

  /// Copies the rest of `source` into `target`, a chunk at a time (the C functions `read` and
  /// `write`); the `errno` that stopped it, or nil at the end of `source`.
  package static func copy(from source: Int32, to target: Int32) -> Int32? {
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      switch chunk.withUnsafeMutableBytes({ read(source, into: $0.baseAddress!, count: $0.count) }) {
      case let .failure(error): return error.code
      case let .success(n):
        guard n > 0 else { return nil }
        if let code = chunk.withUnsafeBytes({ writeAll(target, UnsafeRawBufferPointer(rebasing: $0[0..<n])) }) { return code }
      }
    }
  }

  /// Whether `error` says that something is already there (`EEXIST`).
  package static func alreadyExists(_ error: Errno) -> Bool { error.code == EEXIST }

  /// Removes the folder `path` if it is empty (the C function `rmdir`).
  @discardableResult
  package static func removeDirectory(_ path: String) -> Errno? { rmdir(path) == 0 ? nil : Errno(code: errno) }

  /// The names in the folder `path`, `.` and `..` included, in the order the system gives
  /// them; nil when it cannot be read (the C functions `opendir`, `readdir`, `closedir`).
  package static func directoryEntries(_ path: String) -> [String]? {
    guard case let .success(names) = directoryEntryBytes(path) else { return nil }
    return names.map { String(decoding: $0, as: UTF8.self) }
  }

  /// As `directoryEntries`, each name as its bytes (it need not be UTF-8).
  package static func directoryEntryBytes(_ path: String) -> Result<[[UInt8]], Errno> {
    guard let handle = opendir(path) else { return .failure(Errno(code: errno)) }
    defer { closedir(handle) }
    var names: [[UInt8]] = []
    while let entry = readdir(handle) {
      names.append(withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) })
    }
    return .success(names)
  }
}
