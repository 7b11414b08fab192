/// A file read in large chunks and cut into lines in place (no copy, no allocation a line).
///
/// Why there are two chunked readers, this and `LineValidator.fill` with its `LineChunk`: this
/// one hands out one line at a time to one reader on one thread (`LogReader`, `LogScanner`),
/// while `LineChunk`s are handed whole to other threads (verify's and folding's pipelines) with
/// every line's end already found and checked. One type for both would either make the
/// sequential readers keep a table of lines a chunk, or the pipelines take lines one call at
/// a time; not merged, and not measured.
struct LineSource: ~Copyable {
  struct Line {
    var bytes: UnsafeRawBufferPointer
    /// False for a last line with no newline (a cut write).
    var complete: Bool
  }

  /// Bytes to read at first when only the header is wanted (it embeds the scripts: a few KiB
  /// to tens of KiB).
  static let headerBytes = 64 << 10

  private var fd: Int32
  private var buffer: UnsafeMutableRawPointer
  private var capacity = LogReader.chunkBytes
  /// `buffer[start..<end]` holds bytes read and not yet handed out.
  private var start = 0
  private var end = 0
  private var eof = false
  /// Bytes of the file handed out so far, newlines included: where the next line starts.
  private(set) var consumedBytes = 0

  /// `capacity`: the bytes read at first (it grows for longer lines); less than a chunk for a
  /// reader of the header alone, which would otherwise copy a whole chunk it never reads.
  init(fd: Int32, capacity: Int = LogReader.chunkBytes) {
    self.fd = fd
    self.capacity = capacity
    buffer = .allocate(byteCount: capacity, alignment: 1)
  }

  /// Opens `path` for reading (`path: cannot open: …` when it cannot).
  static func open(_ path: String, capacity: Int = LogReader.chunkBytes) throws(LogProblem) -> LineSource {
    switch POSIXFile.openForReading(path) {
    case let .success(fd): return LineSource(fd: fd, capacity: capacity)
    case let .failure(err): throw .unreadable("\(path): cannot open: \(POSIXFile.describe(err.code))")
    }
  }

  deinit {
    if fd >= 0 { POSIXFile.close(fd) }
    buffer.deallocate()
  }

  mutating func close() {
    if fd >= 0 { POSIXFile.close(fd); fd = -1 }
    eof = true
    start = end
  }

  private func tooLong(_ number: Int) -> LogProblem {
    .damaged(line: number, reason: "longer than \(LogLimits.lineBytesMax >> 20) MiB")
  }

  /// The next line without its newline, valid until the next call; nil at the end of the
  /// file. `number` names the line in errors.
  mutating func next(number: Int) throws(LogProblem) -> Line? {
    var scanned = start
    while true {
      if scanned < end, let nl = memchr(buffer + scanned, 0x0A, end - scanned) {
        let at = buffer.distance(to: nl)
        // Checked here too: a long line can arrive whole in one read.
        if at - start > LogLimits.lineBytesMax { throw tooLong(number) }
        let line = UnsafeRawBufferPointer(start: buffer + start, count: at - start)
        start = at + 1
        consumedBytes += line.count + 1
        return Line(bytes: line, complete: true)
      }
      scanned = end
      if end - start > LogLimits.lineBytesMax { throw tooLong(number) }
      if eof {
        guard start < end else { return nil }
        let line = UnsafeRawBufferPointer(start: buffer + start, count: end - start)
        start = end
        consumedBytes += line.count
        return Line(bytes: line, complete: false)
      }
      // Keep the unscanned tail at the front, make room, read more.
      let kept = end - start
      if start > 0 {
        buffer.copyMemory(from: buffer + start, byteCount: kept)
        scanned -= start
        start = 0
        end = kept
      }
      // Less than half a read's room left: twice the room (a buffer made smaller than a chunk,
      // for a header alone, is read whole first).
      if capacity - end < min(capacity, LogReader.chunkBytes) / 2 {
        let bigger = UnsafeMutableRawPointer.allocate(byteCount: capacity * 2, alignment: 1)
        bigger.copyMemory(from: buffer, byteCount: end)
        buffer.deallocate()
        buffer = bigger
        capacity *= 2
      }
      switch POSIXFile.read(fd, into: buffer + end, count: capacity - end) {
      case let .success(n):
        if n == 0 { eof = true }
        end += n
      case let .failure(err):
        throw .damaged(line: number, reason: "read failed: \(POSIXFile.describe(err.code))")
      }
    }
  }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
