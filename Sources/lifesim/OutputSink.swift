#if canImport(Glibc)
import Glibc
#endif
import Render
import EventStore

/// Where an export goes: standard output, or a file at `-o` that appears only when complete
/// (see `OutputTarget`).
final class OutputSink: ExportSink {
  private let target: OutputTarget?
  /// Open until `commit` or `discard`.
  private var file: UnsafeMutablePointer<FILE>?
  /// The first write error (errno), if any.
  private var failure: Int32?

  /// `inputs`: the files the command reads, which `-o` may never name.
  init(path: String?, overwrite: Bool, inputs: [String]) throws {
    guard let path else { target = nil; file = nil; return }
    let target = try OutputTarget(path: path, overwrite: overwrite, inputs: inputs)
    let fd = try target.open()
    guard let file = fdopen(fd, "w") else {
      let error = errno
      POSIXFile.close(fd)
      target.discard()
      throw OutputTarget.Refused(description: "\(path): cannot write: \(OutputTarget.reason(error))")
    }
    self.target = target
    self.file = file
  }

  func write(_ line: String) {
    guard target != nil else { Terminal.write(line); return }
    guard let file else { return }
    guard failure == nil else { return }
    var text = line + "\n"
    text.withUTF8 { bytes in
      if fwrite(bytes.baseAddress, 1, bytes.count, file) < bytes.count { failure = errno }
    }
  }

  func write(lines text: UnsafeRawBufferPointer) {
    guard !text.isEmpty else { return }
    guard target != nil else {
      Terminal.write(String(decoding: UnsafeRawBufferPointer(rebasing: text[..<(text.count - 1)]), as: UTF8.self))
      return
    }
    guard let file, failure == nil else { return }
    if fwrite(text.baseAddress, 1, text.count, file) < text.count { failure = errno }
  }

  /// Writes out what is buffered and puts the file in place; a write error removes it.
  func commit() throws {
    guard let target, let file else { return }
    self.file = nil
    if fflush(file) != 0, failure == nil { failure = errno }
    if target.renames, failure == nil, let error = POSIXFile.sync(fileno(file)) { failure = error }
    if fclose(file) != 0, failure == nil { failure = errno }
    if let failure {
      target.discard()
      throw OutputTarget.Refused(description: "\(target.path): cannot write: \(OutputTarget.reason(failure))")
    }
    try target.commit()
  }

  /// The command failed: nothing is left behind.
  func discard() {
    guard let target, let file else { return }
    self.file = nil
    fclose(file)
    target.discard()
  }
}
