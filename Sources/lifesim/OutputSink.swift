import Render

/// Where an export goes: standard output, or a file at `-o` that appears only when complete.
func outputSink(path: String?, overwrite: Bool, inputs: [String]) throws -> any ExportSink {
  try path.map { try FileSink(path: $0, overwrite: overwrite, inputs: inputs) } ?? StandardOutputSink()
}

/// An export on standard output, through `Terminal`'s buffer.
final class StandardOutputSink: ExportSink {
  func write(_ line: String) { Terminal.write(line) }

  func write(lines text: UnsafeRawBufferPointer) {
    guard !text.isEmpty else { return }
    Terminal.write(String(decoding: UnsafeRawBufferPointer(rebasing: text[..<(text.count - 1)]), as: UTF8.self))
  }

  func commit() {}

  func discard() {}
}
