/// Where an export's lines go: a file or standard output (the command's), or memory (`TextSink`).
/// A sink is used by one thread at a time.
package protocol ExportSink: AnyObject {
  /// Writes `line` and a newline.
  func write(_ line: String)
  /// Writes `text`, whole lines each ended by a newline: as many `write` calls would.
  func write(lines text: UnsafeRawBufferPointer)
  /// Puts what was written in place; throws when it could not be (nothing is left behind then).
  func commit() throws
  /// The export failed: nothing is left behind.
  func discard()
}

/// An export's bytes in memory: what a file would hold (a page of the suite's report, a test).
package final class TextSink: ExportSink {
  /// Every byte written, in order.
  package private(set) var bytes: [UInt8] = []

  package init() {}

  /// The bytes as text.
  package var text: String { String(decoding: bytes, as: UTF8.self) }

  package func write(_ line: String) {
    bytes.append(contentsOf: line.utf8)
    bytes.append(0x0A)
  }

  package func write(lines text: UnsafeRawBufferPointer) { bytes.append(contentsOf: text) }

  package func commit() {}

  package func discard() { bytes.removeAll() }
}
