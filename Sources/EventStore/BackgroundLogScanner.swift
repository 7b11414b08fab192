import Dispatch

/// A `LogScanner` on a thread of its own: it reads (and checks) the log ahead of the caller,
/// handing over batches of event lines. `replay --verify` re-runs a scenario while this reads
/// and re-hashes the recording, each costing about as much as the other; `diff` reads both
/// logs so while it compares them.
///
/// Limits: a batch holds about `batchBytes` of events, and at most `batchesAhead` wait for
/// the caller, so memory stays bounded however long the log. A problem in the log is thrown
/// by `next()` once the events before it have been handed out.
public final class BackgroundLogScanner: EventLineSource {
  public static var batchBytes: Int { 1 << 20 }
  public static var batchesAhead: Int { 4 }

  public let path: String
  public let header: LogHeader
  /// Set once `next()` has returned nil.
  @exclusivity(unchecked) public private(set) var ending: LogEnding?

  private let channel: Channel
  /// The batch being handed out and the next event in it, in one value. Unchecked: a scanner
  /// is read from one thread at a time and `next()` is not reentrant, and the runtime's check
  /// was a tenth of the caller's cost an event in `diff`.
  @exclusivity(unchecked) private var cursor = (batch: Batch.empty(), index: 0)

  /// Takes over `scanner` (its header read): nothing else may use it from now on.
  public init(_ scanner: LogScanner) {
    path = scanner.path
    header = scanner.header
    channel = Channel(scanner)
    let channel = self.channel
    channel.queue.async { channel.produce() }
  }

  deinit { channel.cancel() }

  /// The next event, valid until the next call; nil at the end (then `ending` says how it ends).
  public func next() throws(LogProblem) -> LogScanner.EventLine? {
    while cursor.index >= cursor.batch.count {
      if let problem = cursor.batch.problem { throw problem }
      if let end = cursor.batch.ending {
        ending = end
        return nil
      }
      cursor = (channel.take(), 0)
    }
    defer { cursor.index += 1 }
    return cursor.batch.line(cursor.index)
  }
}

/// Events copied out of the scanner's buffer, each body followed by its closing brace, in one
/// allocation that lives as long as the batch. Immutable once built, so reading it needs no
/// exclusivity checks.
private final class Batch: @unchecked Sendable {
  // @unchecked: every property is a `let`; the bytes are written only by the builder, before.
  private let bytes: UnsafeMutableRawPointer
  /// Where the bytes go back when the batch is done with (nil: they are freed).
  private let pool: BufferPool?
  /// `(end of body, seq, t, kindStart)` for each event, in order (the body's brace is at its
  /// end; `kindStart` is -1 where the scanner gave none).
  private let entries: [Entry]
  /// How the log ends, when this is its last batch.
  let ending: LogEnding?
  /// What is wrong with the log after this batch's events.
  let problem: LogProblem?

  typealias Entry = (end: Int, seq: Int64, t: Int64, kindStart: Int32)

  init(bytes: UnsafeMutableRawPointer, pool: BufferPool?, entries: [Entry], ending: LogEnding?, problem: LogProblem?) {
    self.bytes = bytes
    self.pool = pool
    self.entries = entries
    self.ending = ending
    self.problem = problem
  }

  deinit {
    if let pool { pool.give(bytes) } else { bytes.deallocate() }
  }

  /// A batch with no events, before the first one arrives.
  static func empty() -> Batch {
    Batch(bytes: .allocate(byteCount: 1, alignment: 1), pool: nil, entries: [], ending: nil, problem: nil)
  }

  var count: Int { entries.count }

  func line(_ i: Int) -> LogScanner.EventLine {
    let start = i == 0 ? 0 : entries[i - 1].end + 1
    let e = entries[i]
    return LogScanner.EventLine(seq: e.seq, t: e.t, bodyWithoutBrace: UnsafeRawBufferPointer(start: bytes + start, count: e.end - start),
                                kindStart: e.kindStart < 0 ? nil : Int(e.kindStart))
  }
}

/// A batch being filled on the reading thread.
private struct BatchBuilder: ~Copyable {
  /// nil once `frozen()` handed the bytes to the batch.
  private var bytes: UnsafeMutableRawPointer?
  private var capacity: Int
  /// Where the bytes came from, while they are the pool's size (not grown for a long line).
  private var pool: BufferPool?
  /// Bytes of bodies (and their braces) so far.
  private(set) var byteCount = 0
  private var entries: [Batch.Entry] = []
  var ending: LogEnding?
  var problem: LogProblem?

  init(pool: BufferPool) {
    self.pool = pool
    capacity = pool.capacity
    bytes = pool.take()
  }

  deinit { bytes?.deallocate() }

  /// Copies the event's body in, closed with its brace.
  mutating func append(_ e: LogScanner.EventLine) {
    let n = e.bodyWithoutBrace.count
    if byteCount + n + 1 > capacity {
      var bigger = capacity * 2
      while bigger < byteCount + n + 1 { bigger *= 2 }
      let moved = UnsafeMutableRawPointer.allocate(byteCount: bigger, alignment: 1)
      moved.copyMemory(from: bytes!, byteCount: byteCount)
      if let pool { pool.give(bytes!) } else { bytes!.deallocate() }
      pool = nil
      bytes = moved
      capacity = bigger
    }
    if n > 0 { (bytes! + byteCount).copyMemory(from: e.bodyWithoutBrace.baseAddress!, byteCount: n) }
    bytes!.storeBytes(of: UInt8(ascii: "}"), toByteOffset: byteCount + n, as: UInt8.self)
    // A kind starts within its line, and a line is at most `LogLimits.lineBytesMax` (< 2^31).
    entries.append((byteCount + n, e.seq, e.t, e.kindStart.map { Int32($0) } ?? -1))
    byteCount += n + 1
  }

  /// The finished batch; it takes over the bytes.
  mutating func frozen() -> Batch {
    let batch = Batch(bytes: bytes!, pool: pool, entries: entries, ending: ending, problem: problem)
    bytes = nil
    return batch
  }
}

/// The hand-off between the reading thread and the caller: at most `batchesAhead` batches wait.
private final class Channel: @unchecked Sendable {
  // @unchecked: `scanner` is used only by the reading thread (`produce`); `ready` and
  // `cancelled` only inside `lock.sync`.
  let queue = DispatchQueue(label: "lifesim.log.read")
  private let scanner: LogScanner
  private let lock = DispatchQueue(label: "lifesim.log.read.lock")
  /// Free places for batches. Made at 0 and signalled up to the limit: libdispatch traps when
  /// a semaphore is freed below its initial value, as this one is when the caller stops early.
  private let slots = DispatchSemaphore(value: 0)
  private let available = DispatchSemaphore(value: 0)
  private var ready: [Batch] = []
  private var cancelled = false
  private let buffers = BufferPool(capacity: BackgroundLogScanner.batchBytes + 4096)

  init(_ scanner: LogScanner) {
    self.scanner = scanner
    for _ in 0..<BackgroundLogScanner.batchesAhead { slots.signal() }
  }

  /// The reading thread: fills batches until the log ends, goes wrong, or the reader is gone.
  func produce() {
    while true {
      var builder = BatchBuilder(pool: buffers)
      do throws(LogProblem) {
        while builder.byteCount < BackgroundLogScanner.batchBytes {
          guard let e = try scanner.next() else {
            builder.ending = scanner.ending
            break
          }
          builder.append(e)
        }
      } catch {
        builder.problem = error
      }
      let batch = builder.frozen()
      slots.wait()
      let stop = lock.sync { () -> Bool in
        if !cancelled { ready.append(batch) }
        return cancelled
      }
      if stop { return }
      available.signal()
      if batch.ending != nil || batch.problem != nil { return }
    }
  }

  /// The next batch, waiting for the reading thread if it is behind.
  func take() -> Batch {
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

/// Batch buffers of one size, given back when the caller is done with a batch, for the
/// reading thread to fill again: a fresh megabyte a batch cost its page faults and zeroed
/// pages, as much as copying the events in. Holds at most `keptMax` spare buffers.
private final class BufferPool: @unchecked Sendable {
  // @unchecked: `spare` is used only inside `lock.sync`.
  static var keptMax: Int { BackgroundLogScanner.batchesAhead + 2 }

  /// Bytes of each buffer.
  let capacity: Int
  private let lock = DispatchQueue(label: "lifesim.log.read.buffers")
  private var spare: [UnsafeMutableRawPointer] = []

  init(capacity: Int) {
    precondition(capacity >= 64, "a batch buffer holds at least one short line")
    self.capacity = capacity
  }

  deinit { for buffer in spare { buffer.deallocate() } }

  /// A spare buffer, or a new one.
  func take() -> UnsafeMutableRawPointer {
    lock.sync { spare.popLast() } ?? .allocate(byteCount: capacity, alignment: 1)
  }

  /// Takes back a buffer of `capacity` bytes that `take()` handed out.
  func give(_ buffer: UnsafeMutableRawPointer) {
    let kept = lock.sync { () -> Bool in
      guard spare.count < Self.keptMax else { return false }
      spare.append(buffer)
      return true
    }
    if !kept { buffer.deallocate() }
  }
}
