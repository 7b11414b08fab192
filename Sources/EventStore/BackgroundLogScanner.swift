/// A `LogScanner` on a thread of its own: it reads (and checks) the log ahead of the caller,
/// handing over batches of event lines. `replay --verify` re-runs a scenario while this reads
/// and re-hashes the recording, each costing about as much as the other; `diff` reads both
/// logs so while it compares them.
///
/// Where it can, the thread reads as `verify` does: the log in chunks, each line's form,
/// sequence, time and kind checked in place (`LineValidator`), and its `h` (`ChainChecker`)
/// when the scanner checks the chain; each chunk then goes to the caller whole, its events in
/// place, none copied. At the first line it does not accept, or for a log that is no regular
/// file, the scanner itself reads on, after the events already handed out, each event copied
/// into a batch: every event, ending and message is the scanner's.
///
/// Limits: a batch holds a chunk (at most `chunkBytesMax`, and a line longer) or
/// `batchBytes` of events, and at most `batchesAhead` wait for the caller, so memory stays
/// bounded however long the log. A problem in the log is thrown by `next()` once the events
/// before it have been handed out.
public final class BackgroundLogScanner: EventLineSource {
  /// Bytes of events copied into a batch, once the scanner reads.
  public static var batchBytes: Int { 1 << 20 }
  /// Bytes read at a time in place, at most: a quarter of `verify`'s chunks. The caller reads a
  /// chunk soon after the kernel copied it in, and finds more of it in the caches: `diff`
  /// took 0.84× the CPU with chunks from 128 KiB to 384 KiB, 0.96× with 1 MiB, against
  /// copying each event into a batch.
  static var chunkBytesMax: Int { 256 << 10 }
  public static var batchesAhead: Int { 4 }

  public let path: String
  public let header: LogHeader
  /// Set once `next()` has returned nil.
  @exclusivity(unchecked) public private(set) var ending: LogEnding?

  private let channel: ScanChannel
  /// The batch being handed out and the next event in it, in one value. Unchecked: a scanner
  /// is read from one thread at a time and `next()` is not reentrant, and the runtime's check
  /// was a tenth of the caller's cost an event in `diff`.
  @exclusivity(unchecked) private var cursor = (batch: ScanBatch.empty(), index: 0)

  /// Takes over `scanner` (its header read): nothing else may use it from now on.
  public convenience init(_ scanner: LogScanner) {
    self.init(scanner, chunkBytes: nil)
  }

  /// As `init(_:)`, reading `chunkBytes` at a time (for the tests, which cut lines across
  /// chunks; by default, it depends on the log's size).
  init(_ scanner: LogScanner, chunkBytes: Int?) {
    path = scanner.path
    header = scanner.header
    channel = ScanChannel(scanner, chunkBytes: chunkBytes)
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

/// A chunk of event lines handed to the caller, each body followed by its closing brace, and
/// how the log goes on after them. Immutable once handed over, so reading it needs no
/// exclusivity checks; its chunk goes back to the pool when the caller is done with it.
final class ScanBatch: @unchecked Sendable {
  // @unchecked: every property is a `let`; the chunk is written only before, by the reading thread.
  private let chunk: LineChunk
  /// Where the chunk goes back (nil: it is freed).
  private let pool: ChunkPool?
  private let bytes: UnsafeRawPointer
  private let spans: UnsafePointer<EventSpan>
  let count: Int
  /// How the log ends, when this is its last batch.
  let ending: LogEnding?
  /// What is wrong with the log after this batch's events.
  let problem: LogProblem?

  init(_ chunk: LineChunk, pool: ChunkPool?, ending: LogEnding? = nil, problem: LogProblem? = nil) {
    self.chunk = chunk
    self.pool = pool
    bytes = UnsafeRawPointer(chunk.bytes)
    spans = UnsafePointer(chunk.spans.base)
    count = chunk.spans.count
    self.ending = ending
    self.problem = problem
  }

  deinit { pool?.give(chunk) }

  /// A batch with no events, before the first one arrives.
  static func empty() -> ScanBatch { ScanBatch(LineChunk(capacity: 1), pool: nil) }

  @inline(__always)
  func line(_ i: Int) -> LogScanner.EventLine {
    let s = spans[i]
    return LogScanner.EventLine(seq: s.seq, t: s.t, bodyWithoutBrace: UnsafeRawBufferPointer(start: bytes + Int(s.start), count: Int(s.end &- s.start)),
                                kindStart: s.kindStart < 0 ? nil : Int(s.kindStart))
  }
}
