#if canImport(Glibc)
import Glibc
#endif

/// Progress of a long job on stderr, only when stderr is a terminal.
struct Progress {
  /// Whether it shows (stderr is a terminal): a caller may skip counting when it does not.
  private(set) var enabled = isatty(STDERR_FILENO) == 1
  private let label: String
  private var count: Int64 = 0
  private var shown = false

  init(_ label: String) { self.label = label }

  /// Progress only where it does not interleave with a trace on the same terminal: `run`
  /// shows it when its events are not being printed to the terminal (`-q`, `--json`, or
  /// stdout redirected).
  init(_ label: String, besideTrace traceShown: Bool) {
    self.label = label
    enabled = isatty(STDERR_FILENO) == 1 && !(traceShown && isatty(STDOUT_FILENO) == 1)
  }

  /// Counts one event; every 100,000 redraws the line.
  mutating func tick() {
    count += 1
    guard enabled, count % 100_000 == 0 else { return }
    draw("\r\(label): \(count) events…")
    shown = true
  }

  /// Clears the line.
  func finish() {
    guard enabled, shown else { return }
    draw("\r\u{1B}[K")
  }

  private func draw(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
  }
}
