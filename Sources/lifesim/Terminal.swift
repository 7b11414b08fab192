import EventStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where output goes, and whether it may be coloured.
enum Terminal {
  /// `lifesim: message` on stderr (after whatever stdout holds), its control characters made
  /// visible: a message may quote a script or a log.
  static func error(_ message: String) {
    lastError = message
    flush()
    let bytes = Array("lifesim: \(TerminalText.visible(message, keepingLayout: true))\n".utf8)
    writeAll(STDERR_FILENO, bytes)
  }

  /// The last message `error` printed (the JSON end line of a command that stopped carries it).
  nonisolated(unsafe) private(set) static var lastError: String?

  /// A line on stderr, its control characters made visible.
  static func errorLine(_ line: String) {
    writeAll(STDERR_FILENO, Array((TerminalText.visible(line, keepingLayout: true) + "\n").utf8))
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

  /// A line given as UTF-8 bytes (text that was assembled as bytes).
  static func write(utf8 line: [UInt8]) {
    buffer.append(contentsOf: line)
    buffer.append(0x0A)
    if buffer.count >= 1 << 16 { flush() }
  }

  static func flush() {
    if stdoutFailure == nil, let error = writeAll(STDOUT_FILENO, buffer) { stdoutFailure = error }
    buffer.removeAll(keepingCapacity: true)
  }

  /// Why standard output could not be written (errno: a full disk, `/dev/full`, a closed
  /// pipe), if it could not; what follows is dropped, the command goes on (a run's log is still
  /// complete), and it ends with status 2.
  nonisolated(unsafe) private(set) static var stdoutFailure: Int32?

  /// The message for `stdoutFailure`.
  static var stdoutFailureMessage: String? {
    stdoutFailure.map { "cannot write to standard output: \(String(cString: strerror($0)))" }
  }

  /// stdout or stderr was closed by its reader (`| head -1`): nothing more is written to it.
  nonisolated(unsafe) private static var closed: Set<Int32> = []

  /// Turns SIGPIPE into EPIPE, which `writeAll` handles: a closed pipe must never kill a run
  /// half-way through its log.
  static func surviveClosedPipes() { signal(SIGPIPE, SIG_IGN) }

  /// Writes every byte; the errno of a failed write, else nil.
  @discardableResult
  private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32? {
    guard !closed.contains(fd) else { return EPIPE }
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
      if n < 0, errno == EINTR { continue }
      if n <= 0 {
        let error = n < 0 ? errno : EIO
        if error == EPIPE { closed.insert(fd) }
        return error
      }
      offset += n
    }
    return nil
  }
}
