#if canImport(Glibc)
import Glibc
#endif

/// A file named with `-o`, written whole or not at all: the output goes to a temporary file in
/// the same folder, renamed into place only when complete, so a failure leaves nothing behind.
/// An existing file is replaced only with `--force`, and never when it is one of the command's
/// inputs (same device and inode, however it is spelled). An existing device or pipe
/// (`/dev/stdout`, `/dev/full`) is written in place: it cannot be replaced, and need not be.
struct OutputTarget {
  struct Refused: Error, CustomStringConvertible { let description: String }

  /// The path the user gave.
  let path: String
  /// Where the bytes go until `commit`: the temporary file, or `path` itself for a device or pipe.
  let writePath: String
  /// false: `writePath` is `path` (a device or pipe), opened as it is.
  let renames: Bool

  /// Checks `path` against `inputs` and `--force`, and picks the temporary file (not yet created).
  init(path: String, overwrite: Bool, inputs: [String]) throws {
    self.path = path
    var target = stat()
    guard stat(path, &target) == 0 else {
      let error = errno
      guard error == ENOENT else { throw Refused(description: "\(path): cannot write: \(Self.reason(error))") }
      writePath = Self.temporaryPath(beside: path)
      renames = true
      return
    }
    for input in inputs {
      var source = stat()
      if stat(input, &source) == 0, source.st_dev == target.st_dev, source.st_ino == target.st_ino {
        throw Refused(description: "\(path): is the input \(input); refusing to write over it, even with --force")
      }
    }
    switch target.st_mode & S_IFMT {
    case S_IFDIR:
      throw Refused(description: "\(path): is a directory")
    case S_IFREG:
      guard overwrite else {
        throw Refused(description: "\(path): already exists; refusing to overwrite it (pass --force to replace it)")
      }
      writePath = Self.temporaryPath(beside: path)
      renames = true
    default:
      writePath = path
      renames = false
    }
  }

  /// Moves the complete file into place.
  func commit() throws {
    guard renames else { return }
    if rename(writePath, path) != 0 {
      let error = errno
      discard()
      throw Refused(description: "\(path): cannot write: \(Self.reason(error))")
    }
  }

  /// Removes what was written: the command failed.
  func discard() {
    if renames { unlink(writePath) }
  }

  /// Opens `writePath` for writing: the temporary file is new (never an existing one).
  func open() throws -> Int32 {
    let flags = renames ? (O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC) : (O_WRONLY | O_CLOEXEC)
    let fd = Glibc.open(writePath, flags, 0o644)
    if fd < 0 { throw Refused(description: "\(path): cannot write: \(Self.reason(errno))") }
    return fd
  }

  /// `.NAME.PID.tmp` in the folder of `path`.
  private static func temporaryPath(beside path: String) -> String {
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { String(path[...$0]) } ?? ""
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    return "\(folder).\(name).\(getpid()).tmp"
  }

  static func reason(_ error: Int32) -> String { String(cString: strerror(error)) }
}
