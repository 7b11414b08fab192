#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where output goes, and whether it may be coloured.
enum Terminal {
  /// Colour only on a TTY with `NO_COLOR` unset.
  static let colour: Bool = isatty(STDOUT_FILENO) == 1 && getenv("NO_COLOR") == nil

  static func paint(_ text: String, _ code: String) -> String {
    colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  /// `lifesim: message` on stderr (after whatever stdout holds).
  static func error(_ message: String) {
    flush()
    let bytes = Array("lifesim: \(message)\n".utf8)
    writeAll(STDERR_FILENO, bytes)
  }

  /// A line on stderr as is.
  static func errorLine(_ line: String) {
    writeAll(STDERR_FILENO, Array((line + "\n").utf8))
  }

  /// A progress line on stderr, redrawn in place; only on a terminal ("" clears it).
  static func progress(_ text: String) {
    guard isatty(STDERR_FILENO) == 1 else { return }
    writeAll(STDERR_FILENO, Array("\r\u{1B}[K\(text)".utf8))
  }

  /// Buffered stdout for long traces (single-threaded: the CLI writes from one thread).
  nonisolated(unsafe) private static var buffer: [UInt8] = []

  static func write(_ line: String) {
    buffer.append(contentsOf: line.utf8)
    buffer.append(0x0A)
    if buffer.count >= 1 << 16 { flush() }
  }

  static func flush() {
    writeAll(STDOUT_FILENO, buffer)
    buffer.removeAll(keepingCapacity: true)
  }

  /// stdout or stderr was closed by its reader (`| head -1`): nothing more is written to it,
  /// and the command goes on, so a run's log is still complete.
  nonisolated(unsafe) private static var closed: Set<Int32> = []

  /// Turns SIGPIPE into EPIPE, which `writeAll` handles: a closed pipe must never kill a run
  /// half-way through its log.
  static func surviveClosedPipes() { signal(SIGPIPE, SIG_IGN) }

  private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
    guard !closed.contains(fd) else { return }
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
      if n <= 0 {
        if errno == EINTR { continue }
        if errno == EPIPE { closed.insert(fd) }
        return
      }
      offset += n
    }
  }
}
