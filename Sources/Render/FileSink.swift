#if canImport(Glibc)
import Glibc
#endif
import EventStore

/// An export's file, at `-o` or in a report's folder: it appears only when complete, and never
/// over one of the command's inputs (see `OutputTarget`).
package final class FileSink: ExportSink {
  private let target: OutputTarget
  /// Open until `commit` or `discard`.
  private var file: UnsafeMutablePointer<FILE>?
  /// The first write error (errno), if any.
  private var failure: Int32?

  /// `inputs`: the files the command reads, which `path` may never name.
  package init(path: String, overwrite: Bool, inputs: [String]) throws {
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

  /// Writes `line` and a newline (a write error is kept for `commit`).
  package func write(_ line: String) {
    guard let file, failure == nil else { return }
    var text = line + "\n"
    text.withUTF8 { bytes in
      if fwrite(bytes.baseAddress, 1, bytes.count, file) < bytes.count { failure = errno }
    }
  }

  /// Writes whole lines, each ended by a newline.
  package func write(lines text: UnsafeRawBufferPointer) {
    guard !text.isEmpty, let file, failure == nil else { return }
    if fwrite(text.baseAddress, 1, text.count, file) < text.count { failure = errno }
  }

  /// Writes out what is buffered and puts the file in place; a write error removes it.
  package func commit() throws {
    guard let file else { return }
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
  package func discard() {
    guard let file else { return }
    self.file = nil
    fclose(file)
    target.discard()
  }

  /// Opens a file of `names` in `folder` (created if needed) for each, refused as `-o` files
  /// are; none is left open when one is refused.
  package static func files(_ names: [String], in folder: String, overwrite: Bool, inputs: [String]) throws -> [FileSink] {
    if let error = POSIXFile.makeDirectory(folder), !POSIXFile.alreadyExists(error) {
      throw OutputTarget.Refused(description: "\(folder): cannot create: \(OutputTarget.reason(error.code))")
    }
    var sinks: [FileSink] = []
    do {
      for name in names { sinks.append(try FileSink(path: folder + "/" + name, overwrite: overwrite, inputs: inputs)) }
    } catch {
      sinks.forEach { $0.discard() }
      throw error
    }
    return sinks
  }
}
