import EventStore

#if canImport(Glibc)
import Glibc
#endif

/// Standard output, or a new file that is never silently overwritten.
struct OutputSink {
  struct Refused: Error, CustomStringConvertible { let description: String }

  private let file: UnsafeMutablePointer<FILE>?
  let path: String?

  init(path: String?, overwrite: Bool) throws {
    self.path = path
    guard let path else { file = nil; return }
    let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (overwrite ? O_TRUNC : O_EXCL), 0o644)
    if fd < 0 {
      if errno == EEXIST { throw Refused(description: "\(path): already exists; refusing to overwrite it (pass --force to replace it)") }
      throw Refused(description: "\(path): cannot write: \(String(cString: strerror(errno)))")
    }
    file = fdopen(fd, "w")
  }

  func write(_ line: String) {
    if let file {
      var text = line + "\n"
      text.withUTF8 { _ = fwrite($0.baseAddress, 1, $0.count, file) }
    } else {
      Terminal.write(line)
    }
  }

  func close() throws {
    guard let file else { return }
    if fclose(file) != 0 { throw Refused(description: "\(path ?? "output"): write failed") }
  }
}
