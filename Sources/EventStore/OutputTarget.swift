#if canImport(Glibc)
import Glibc
#endif

/// A file written whole or not at all (a command's `-o`, a suite's reports): the output goes to
/// a temporary file in the same folder, renamed into place only when complete, so a failure
/// leaves nothing behind.
/// An existing file is replaced only with `--force`, and never when it is one of the command's
/// inputs (same device and inode, however it is spelled). An existing device or pipe
/// (`/dev/stdout`, `/dev/full`) is written in place: it cannot be replaced, and need not be.
package struct OutputTarget {
  package struct Refused: Error, CustomStringConvertible {
    package let description: String
    package init(description: String) { self.description = description }
  }

  /// The path the user gave.
  package let path: String
  /// Where the bytes go until `commit`: the temporary file, or `path` itself for a device or pipe.
  package let writePath: String
  /// false: `writePath` is `path` (a device or pipe), opened as it is.
  package let renames: Bool

  /// Checks `path` against `inputs` and `--force`, and picks the temporary file (not yet created).
  package init(path: String, overwrite: Bool, inputs: [String]) throws {
    self.path = path
    switch try Self.check(path, overwrite: overwrite, inputs: inputs) {
    case nil, S_IFREG?:
      writePath = Self.temporaryPath(beside: path)
      renames = true
      InterruptCleanup.watch(writePath)
    default:
      writePath = path
      renames = false
    }
  }

  /// Refuses `path` as an output when it is one of `inputs` (same device and inode), a
  /// directory, or an existing file without `overwrite`. The kind of file there (`S_IFMT`
  /// bits), nil if there is none.
  package static func check(_ path: String, overwrite: Bool, inputs: [String]) throws -> mode_t? {
    let kind: mode_t
    switch POSIXFile.kind(path) {
    case let .failure(error): throw Refused(description: "\(path): cannot write: \(reason(error.code))")
    case .success(nil): return nil
    case let .success(found?): kind = found
    }
    if let refusal = FileIdentity.refusal(writing: path, over: inputs) { throw Refused(description: refusal) }
    if kind == S_IFDIR { throw Refused(description: "\(path): is a directory") }
    if kind == S_IFREG, !overwrite {
      throw Refused(description: "\(path): already exists; refusing to overwrite it (pass --force to replace it)")
    }
    return kind
  }

  /// Writes the file `path` whole, replacing one already there (the caller has refused what
  /// must not be replaced): `write` fills the new file and returns the `errno` that stopped
  /// it; a failure leaves nothing behind.
  package static func writeWhole(_ path: String, _ write: (Int32) -> Int32?) throws {
    let target = try OutputTarget(path: path, overwrite: true, inputs: [])
    let fd = try target.open()
    let failure = write(fd)
    POSIXFile.close(fd)
    if let failure {
      target.discard()
      throw Refused(description: "\(path): cannot write: \(reason(failure))")
    }
    try target.commit()
  }

  /// Moves the complete file into place.
  package func commit() throws {
    guard renames else { return }
    defer { InterruptCleanup.forget() }
    if let error = POSIXFile.rename(writePath, to: path) {
      discard()
      throw Refused(description: "\(path): cannot write: \(Self.reason(error.code))")
    }
  }

  /// Removes what was written: the command failed.
  package func discard() {
    guard renames else { return }
    POSIXFile.remove(writePath)
    InterruptCleanup.forget()
  }

  /// Opens `writePath` for writing: the temporary file is new (never an existing one).
  package func open() throws -> Int32 {
    let opened = renames ? POSIXFile.openForWriting(writePath, exclusive: true) : POSIXFile.openExistingForWriting(writePath)
    switch opened {
    case let .success(fd): return fd
    case let .failure(error): throw Refused(description: "\(path): cannot write: \(Self.reason(error.code))")
    }
  }

  /// `.NAME.PID.tmp` in the folder of `path`.
  private static func temporaryPath(beside path: String) -> String {
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { String(path[...$0]) } ?? ""
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    return "\(folder).\(name).\(getpid()).tmp"
  }

  package static func reason(_ error: Int32) -> String { POSIXFile.describe(error) }
}

/// The temporary file being written, removed if lifesim is interrupted (SIGINT, SIGTERM, SIGHUP)
/// before it is complete, so that an interrupted export leaves nothing behind either.
enum InterruptCleanup {
  /// A C copy of the path, for the signal handler (which may not allocate or take locks).
  nonisolated(unsafe) fileprivate static var pending: UnsafeMutablePointer<CChar>?

  /// Removes `path` if a signal ends lifesim before `forget` is called.
  static func watch(_ path: String) {
    forget()
    pending = strdup(path)
    for signal in [SIGINT, SIGTERM, SIGHUP] {
      let previous = Glibc.signal(signal) { received in
        if let path = InterruptCleanup.pending { POSIXFile.remove(cString: path) }
        // Then end as the signal would have ended lifesim.
        Glibc.signal(received, SIG_DFL)
        raise(received)
      }
      // A signal the caller ignores (nohup's SIGHUP) stays ignored.
      if unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) { Glibc.signal(signal, SIG_IGN) }
    }
  }

  /// The file is complete (or already removed): a signal no longer touches it.
  static func forget() {
    let path = pending
    pending = nil
    free(path)
  }
}
