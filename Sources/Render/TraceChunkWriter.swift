import Dispatch

/// Writes a chrome trace's chunks to its sink on a thread of its own, one chunk at a time, so
/// that the kernel's copy of the bytes runs beside the reading and rendering of the next events.
/// The caller hands a chunk over with `write` and must not touch its bytes until the next
/// `write` or `wait` returns (`TraceJSONBuffer` keeps two buffers for this).
package final class TraceChunkWriter: @unchecked Sendable {
  // @unchecked: `sink` is used by one thread at a time: the queue's between `write` and the
  // next `wait`, the caller's otherwise (the semaphore orders the two).
  private let sink: any ExportSink
  private let queue = DispatchQueue(label: "lifesim.trace.write")
  /// Signalled when no chunk is being written. Made at 0 and signalled once: libdispatch traps
  /// when a semaphore is freed below its initial value.
  private let idle = DispatchSemaphore(value: 0)

  package init(sink: any ExportSink) {
    self.sink = sink
    idle.signal()
  }

  /// Waits for the chunk before to be written, then writes `chunk` (whole lines) in the background.
  package func write(_ chunk: UnsafeRawBufferPointer) {
    idle.wait()
    let handed = Chunk(bytes: chunk)
    queue.async { [self] in
      sink.write(lines: handed.bytes)
      idle.signal()
    }
  }

  /// Bytes the caller leaves alone until the writer is idle again.
  private struct Chunk: @unchecked Sendable { let bytes: UnsafeRawBufferPointer }

  /// Returns once every chunk handed over is written: the sink is the caller's again.
  package func wait() {
    idle.wait()
    idle.signal()
  }
}
