import JSON
import Dispatch

/// `BackgroundLogScanner`'s reading thread and its hand-off to the caller: at most
/// `BackgroundLogScanner.batchesAhead` batches wait.
final class ScanChannel: @unchecked Sendable {
  // @unchecked: `scanner` is used only by the reading thread (`produce`); `ready` and
  // `cancelled` only inside `lock.sync`.
  let queue = DispatchQueue(label: "lifesim.log.read")
  private let scanner: LogScanner
  /// Bytes read at a time in place (nil: as the log's size asks).
  private let chunkBytes: Int?
  private let lock = DispatchQueue(label: "lifesim.log.read.lock")
  /// Free places for batches. Made at 0 and signalled up to the limit: libdispatch traps when
  /// a semaphore is freed below its initial value, as this one is when the caller stops early.
  private let slots = DispatchSemaphore(value: 0)
  private let available = DispatchSemaphore(value: 0)
  private var ready: [ScanBatch] = []
  private var cancelled = false
  private let chunks = ChunkPool()

  init(_ scanner: LogScanner, chunkBytes: Int?) {
    self.scanner = scanner
    self.chunkBytes = chunkBytes
    for _ in 0..<BackgroundLogScanner.batchesAhead { slots.signal() }
  }

  /// The reading thread: hands out the log in place while it can, then through the scanner,
  /// until the log ends, goes wrong, or the caller is gone. (A pipe, or a log that cannot be
  /// opened a second time, is read by the scanner alone.)
  func produce() {
    var handedOut = 0
    if let file = try? ChunkedLogFile.open(scanner.path, chunkBytes: chunkBytes, largest: BackgroundLogScanner.chunkBytesMax) {
      guard let events = produceInPlace(file) else { return }
      handedOut = events
    }
    produceCopies(skipping: handedOut)
  }

  /// Hands out the log's chunks, their lines checked in place, until the log ends or the
  /// caller is gone (nil), or until a line needs the scanner: then the events handed out.
  private func produceInPlace(_ file: ChunkedLogFile) -> Int? {
    defer { POSIXFile.close(file.fd) }
    let validator = LineValidator(fd: file.fd)
    let checker = scanner.checksChain ? ChainChecker(chain: file.chain) : nil
    var handedOut = 0
    var chunk = chunks.take(capacity: file.chunkBytes)
    validator.fill(chunk, after: nil)
    while true {
      if !validator.failed { checker?.check(chunk) }
      if validator.failed || checker?.failed == true {
        chunks.give(chunk)
        return handedOut
      }
      let ending = validator.ending
      // The next chunk is taken before this one goes: its partial last line is read into the
      // next, so the pool must not hand it out again until then.
      let next = ending == nil ? chunks.take(capacity: file.chunkBytes) : nil
      handedOut += chunk.spans.count
      guard handOver(ScanBatch(chunk, pool: chunks, ending: ending)) else { return nil }
      guard let next else { return nil }
      validator.fill(next, after: chunk)
      chunk = next
    }
  }

  /// Hands out the scanner's events after the first `events`, copied into batches, until the
  /// log ends, goes wrong, or the caller is gone.
  private func produceCopies(skipping events: Int) {
    do throws(LogProblem) {
      // Events the chunks already handed out, each of which the scanner accepts as they did.
      var skipped = 0
      while skipped < events, try scanner.next() != nil { skipped += 1 }
    } catch {
      _ = handOver(ScanBatch(chunks.take(capacity: 1), pool: chunks, problem: error))
      return
    }
    while true {
      var builder = ScanBatchBuilder(chunks.take(capacity: BackgroundLogScanner.batchBytes + 4096))
      var ending: LogEnding?, problem: LogProblem?
      do throws(LogProblem) {
        while builder.byteCount < BackgroundLogScanner.batchBytes {
          guard let e = try scanner.next() else {
            ending = scanner.ending
            break
          }
          builder.append(e)
        }
      } catch {
        problem = error
      }
      guard handOver(builder.frozen(pool: chunks, ending: ending, problem: problem)) else { return }
      if ending != nil || problem != nil { return }
    }
  }

  /// Queues `batch` for the caller once a place is free; false when the caller is gone.
  private func handOver(_ batch: ScanBatch) -> Bool {
    slots.wait()
    let stop = lock.sync { () -> Bool in
      if !cancelled { ready.append(batch) }
      return cancelled
    }
    if stop { return false }
    available.signal()
    return true
  }

  /// The next batch, waiting for the reading thread if it is behind.
  func take() -> ScanBatch {
    available.wait()
    let batch = lock.sync { ready.removeFirst() }
    slots.signal()
    return batch
  }

  /// Stops the reading thread at its next hand-off (the caller no longer wants events).
  func cancel() {
    lock.sync { cancelled = true }
    slots.signal()
  }
}

/// A batch being filled on the reading thread with copies of the scanner's events, each body
/// closed with its brace.
private struct ScanBatchBuilder: ~Copyable {
  private let chunk: LineChunk
  /// The chunk's bytes and spans, as locals until `frozen` (a class's property costs an
  /// exclusivity check on every access).
  private var bytes: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  private var spans: RawList<EventSpan>
  /// Bytes of bodies (and their braces) so far.
  private(set) var byteCount = 0

  init(_ chunk: LineChunk) {
    chunk.empty()
    self.chunk = chunk
    bytes = chunk.bytes
    capacity = chunk.capacity
    spans = chunk.spans
  }

  /// Copies the event's body in, closed with its brace.
  mutating func append(_ e: LogScanner.EventLine) {
    let n = e.bodyWithoutBrace.count
    if byteCount + n + 1 > capacity {
      chunk.count = byteCount
      chunk.reserve(byteCount + n + 1)
      (bytes, capacity) = (chunk.bytes, chunk.capacity)
    }
    if n > 0 { UnsafeMutableRawPointer(bytes + byteCount).copyMemory(from: e.bodyWithoutBrace.baseAddress!, byteCount: n) }
    bytes[byteCount + n] = UInt8(ascii: "}")
    spans.append(EventSpan(start: byteCount, end: byteCount + n, kindStart: e.kindStart, seq: e.seq, t: e.t))
    byteCount += n + 1
  }

  /// The finished batch; it takes over the chunk.
  consuming func frozen(pool: ChunkPool, ending: LogEnding?, problem: LogProblem?) -> ScanBatch {
    chunk.count = byteCount
    chunk.spans = spans
    return ScanBatch(chunk, pool: pool, ending: ending, problem: problem)
  }
}

/// Chunks given back when the caller is done with a batch, for the reading thread to fill
/// again: a fresh megabyte a batch cost its page faults and zeroed pages, as much as reading
/// the events into it. Holds at most `keptMax` spare chunks, none grown past `keptBytesMax`
/// (for a long line).
final class ChunkPool: @unchecked Sendable {
  // @unchecked: `spare` is used only inside `lock.sync`.
  static var keptMax: Int { BackgroundLogScanner.batchesAhead + 2 }
  static var keptBytesMax: Int { 4 << 20 }

  private let lock = DispatchQueue(label: "lifesim.log.read.chunks")
  private var spare: [LineChunk] = []

  /// A spare chunk, emptied, or a new one of `capacity` bytes.
  func take(capacity: Int) -> LineChunk {
    if let chunk = lock.sync(execute: { spare.popLast() }) {
      chunk.empty()
      return chunk
    }
    return LineChunk(capacity: capacity, keepsSpans: true)
  }

  /// Takes back a chunk that `take` handed out and nothing else uses now.
  func give(_ chunk: LineChunk) {
    guard chunk.capacity <= Self.keptBytesMax else { return }
    lock.sync {
      if spare.count < Self.keptMax { spare.append(chunk) }
    }
  }
}
