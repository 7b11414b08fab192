import Dispatch

/// A `LogScanner` on a thread of its own: it reads (and checks) the log ahead of the caller,
/// handing over batches of event lines. `replay --verify` re-runs a scenario while this reads
/// and re-hashes the recording; each costs about as much as the other.
///
/// Limits: a batch holds about `batchBytes` of events, and at most `batchesAhead` wait for
/// the caller, so memory stays bounded however long the log. A problem in the log is thrown
/// by `next()` once the events before it have been handed out.
public final class BackgroundLogScanner {
  public static var batchBytes: Int { 1 << 20 }
  public static var batchesAhead: Int { 2 }

  public let header: LogHeader
  /// Set once `next()` has returned nil.
  public private(set) var ending: LogEnding?

  private let channel: Channel
  private var current: Batch
  private var index = 0

  /// Takes over `scanner` (its header read): nothing else may use it from now on.
  public init(_ scanner: LogScanner) {
    header = scanner.header
    channel = Channel(scanner)
    current = Batch(capacity: 0)
    let channel = self.channel
    channel.queue.async { channel.produce() }
  }

  deinit { channel.cancel() }

  /// The next event, valid until the next call; nil at the end (then `ending` says how it ends).
  public func next() throws(LogProblem) -> LogScanner.EventLine? {
    while index >= current.seqs.count {
      if let problem = current.problem { throw problem }
      if let end = current.ending {
        ending = end
        return nil
      }
      current = channel.take()
      index = 0
    }
    defer { index += 1 }
    return current.line(index)
  }
}

/// Events copied out of the scanner's buffer, in one allocation that lives as long as the batch.
private final class Batch: @unchecked Sendable {
  // @unchecked: filled by the reading thread, then handed over whole (through `Channel`'s
  // lock) and only read after that.
  private var bytes: UnsafeMutableRawPointer
  private var capacity: Int
  private var count = 0
  private var ends: [Int] = []
  private(set) var seqs: [Int64] = []
  private var times: [Int64] = []
  /// How the log ends, when this is its last batch.
  var ending: LogEnding?
  /// What is wrong with the log after this batch's events.
  var problem: LogProblem?

  init(capacity: Int) {
    self.capacity = max(capacity, 64)
    bytes = .allocate(byteCount: self.capacity, alignment: 1)
  }

  deinit { bytes.deallocate() }

  var byteCount: Int { count }

  func append(_ e: LogScanner.EventLine) {
    let n = e.bodyWithoutBrace.count
    if count + n > capacity {
      var bigger = capacity * 2
      while bigger < count + n { bigger *= 2 }
      let moved = UnsafeMutableRawPointer.allocate(byteCount: bigger, alignment: 1)
      moved.copyMemory(from: bytes, byteCount: count)
      bytes.deallocate()
      bytes = moved
      capacity = bigger
    }
    if n > 0 { (bytes + count).copyMemory(from: e.bodyWithoutBrace.baseAddress!, byteCount: n) }
    count += n
    ends.append(count)
    seqs.append(e.seq)
    times.append(e.t)
  }

  func line(_ i: Int) -> LogScanner.EventLine {
    let start = i == 0 ? 0 : ends[i - 1]
    return LogScanner.EventLine(seq: seqs[i], t: times[i],
                                bodyWithoutBrace: UnsafeRawBufferPointer(start: bytes + start, count: ends[i] - start))
  }
}

/// The hand-off between the reading thread and the caller: at most `batchesAhead` batches wait.
private final class Channel: @unchecked Sendable {
  // @unchecked: `scanner` is used only by the reading thread (`produce`); `ready` and
  // `cancelled` only inside `lock.sync`.
  let queue = DispatchQueue(label: "lifesim.log.read")
  private let scanner: LogScanner
  private let lock = DispatchQueue(label: "lifesim.log.read.lock")
  private let slots = DispatchSemaphore(value: BackgroundLogScanner.batchesAhead)
  private let available = DispatchSemaphore(value: 0)
  private var ready: [Batch] = []
  private var cancelled = false

  init(_ scanner: LogScanner) { self.scanner = scanner }

  /// The reading thread: fills batches until the log ends, goes wrong, or the reader is gone.
  func produce() {
    while true {
      let batch = Batch(capacity: BackgroundLogScanner.batchBytes + 4096)
      do throws(LogProblem) {
        while batch.byteCount < BackgroundLogScanner.batchBytes {
          guard let e = try scanner.next() else {
            batch.ending = scanner.ending
            break
          }
          batch.append(e)
        }
      } catch {
        batch.problem = error
      }
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
