#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The few POSIX calls the log needs, each wrapped once.
/// An `errno` value as a Swift error.
struct Errno: Error { let code: Int32 }

enum POSIXFile {
  /// The text of `errno` (the C function `strerror`).
  static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }

  /// Opens for writing; `exclusive` refuses an existing file (the C function `open`
  /// with `O_CREAT|O_EXCL`). Never truncates: the caller does, after locking.
  static func openForWriting(_ path: String, exclusive: Bool) -> Result<Int32, Errno> {
    let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (exclusive ? O_EXCL : 0)
    let fd = open(path, flags, 0o644)
    return fd >= 0 ? .success(fd) : .failure(Errno(code: errno))
  }

  /// Opens for reading (the C function `open`).
  static func openForReading(_ path: String) -> Result<Int32, Errno> {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    return fd >= 0 ? .success(fd) : .failure(Errno(code: errno))
  }

  /// Takes an exclusive advisory lock without waiting (the C function `flock`).
  static func lockExclusive(_ fd: Int32) -> Int32? { flock(fd, LOCK_EX | LOCK_NB) == 0 ? nil : errno }

  /// Empties the file (the C function `ftruncate`).
  static func truncate(_ fd: Int32) -> Int32? { ftruncate(fd, 0) == 0 ? nil : errno }

  /// Writes every byte, retrying short writes and `EINTR` (the C function `write`).
  static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
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
  static func read(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int) -> Result<Int, Errno> {
    while true {
      let n = Glibc.read(fd, buffer, count)
      if n >= 0 { return .success(n) }
      if errno != EINTR { return .failure(Errno(code: errno)) }
    }
  }

  /// Forces written data to the disk (the C function `fsync`).
  static func sync(_ fd: Int32) -> Int32? { fsync(fd) == 0 ? nil : errno }

  /// The file's size in bytes, found by moving the read position to its end; nil if it has
  /// none (the C function `lseek` with `SEEK_END`).
  static func size(_ fd: Int32) -> Int? {
    let end = lseek(fd, 0, SEEK_END)
    return end < 0 ? nil : Int(end)
  }

  /// Moves the read position to `offset` from the start (the C function `lseek`).
  static func seek(_ fd: Int32, to offset: Int) -> Int32? { lseek(fd, off_t(offset), SEEK_SET) < 0 ? errno : nil }

  /// Whether `path` names a regular file, which can be opened twice and read from any offset
  /// (a pipe such as `<(zcat run.lifelog.gz)` cannot); false if it cannot be examined (the C
  /// function `stat`).
  static func isRegularFile(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
  }

  /// Closes (the C function `close`).
  static func close(_ fd: Int32) { _ = Glibc.close(fd) }
}
