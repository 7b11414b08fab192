import JSON

import Dispatch

/// A `LogWriter` whose hashing and writing run on a thread of their own.
///
/// The caller's thread encodes each event's fields into a batch (`EventFrame`); the log
/// thread writes each event's opening before its fields, chains every body of a batch, in
/// order, and writes the lines. The bytes are exactly `LogWriter`'s. Hashing and the `write`
/// calls cost about as much as encoding, and on two cores they no longer hold up the run
/// (BENCHMARKS.md, docs/decisions.md).
///
/// Limits: a batch holds about `batchBytes` of bodies, and at most `batchesInFlight` batches
/// wait for the log thread; past that `append` waits, so memory stays bounded when the
/// disk is slow. A batch's buffer goes to the log thread as it is and comes back to be
/// filled again (`spare`): none is copied, and while writes succeed at most
/// `batchesInFlight` + 1 exist, each of about a batch (a buffer grown for a long event is let
/// go). A write error is reported by a later `append` and by `finish`, never lost; a process
/// killed outright loses what was still queued, as it loses `LogWriter`'s buffer.
public final class BackgroundLogWriter: @unchecked Sendable {
  // @unchecked: `writer` belongs to the log thread between `submit` and `drain`; the
  // caller's thread touches it only after `drain` (the queue's `sync` orders the two).
  // `failure` is read and written only inside `failureLock.sync`. Everything else is the
  // caller's thread's alone.

  public static var batchBytes: Int { 1 << 20 }
  public static var batchesInFlight: Int { 2 }
  /// The room of a batch's buffer: a batch, and the event that fills it past `batchBytes`.
  private static var bufferBytes: Int { batchBytes + 4096 }

  private let writer: LogWriter
  private let queue = DispatchQueue(label: "lifesim.log")
  /// Free places for batches. Made at 0 and signalled up to the limit: libdispatch traps when
  /// a semaphore is freed below its initial value.
  private let slots = DispatchSemaphore(value: 0)
  /// Guards `failure`: a serial queue used only through `sync`, a lock that never waits for the log.
  private let failureLock = DispatchQueue(label: "lifesim.log.failure")
  private var failure: LogWriteError?
  /// Buffers the log thread has written out, for the next batches; guarded by `failureLock`.
  private var spare: [BatchBuffer] = []
  private var failureReported = false
  /// The caller's side, in one value so that an append costs one exclusivity check.
  private var pending: PendingBatch

  /// Takes over `writer` (its header already written): nothing else may use it from now on.
  public init(_ writer: LogWriter) {
    self.writer = writer
    for _ in 0..<Self.batchesInFlight { slots.signal() }
    pending = PendingBatch(lastSeq: writer.lastSeq, lastTime: writer.lastTime, capacity: Self.bufferBytes)
  }

  // No `deinit` that waits for the log thread: a queued batch holds this writer, so the last
  // reference can be that batch's, released on the log thread itself, where waiting for the
  // queue would trap; and when the caller's is the last, nothing is queued.

  /// Encodes one event (as `LogWriter.append`) and queues it; returns its `seq`. Throws the
  /// first write error of the log thread, once; `finish` throws it again.
  @discardableResult
  public func append(t: Int64, kind: EventKind, fields: (inout CanonicalJSONWriter) -> Void) throws(LogWriteError) -> Int64 {
    switch pending.add(t: t, kind: kind, fields: fields) {
    case let .failure(problem): throw .outOfLimits(path: writer.path, reason: problem.text)
    case let .success((seq, full)):
      if full { try submit() }
      return seq
    }
  }

  /// Writes everything queued, then the trailer; `fsync`s and releases the file.
  public func finish(outcome: JSONValue) throws(LogWriteError) {
    try? submit()
    drain()
    if let failure = currentFailure() { throw failure }
    try writer.finish(outcome: outcome)
  }

  /// Hands the batch to the log thread, waiting while `batchesInFlight` are still queued.
  private func submit() throws(LogWriteError) {
    if !pending.isEmpty {
      slots.wait()
      // A written batch frees its slot only once its buffer is back, so after the wait there is
      // a spare buffer unless fewer than `batchesInFlight` were made (or a write failed, or one
      // grew past a batch for a long event and was let go).
      let batch = failureLock.sync { spare.popLast() } ?? BatchBuffer(capacity: Self.bufferBytes)
      let (seq, t) = pending.take(into: batch)
      queue.async { [self] in
        defer { slots.signal() }
        guard currentFailure() == nil else { return }
        do throws(LogWriteError) {
          try batch.bodies.withBytes { bodies throws(LogWriteError) in try writer.appendFramed(bodies, lastSeq: seq, lastTime: t) }
          // A buffer grown for a long event goes: kept, it would hold its size for the whole run.
          // (`PendingBatch.take` empties a buffer it takes back.)
          if batch.bodies.capacityBytes <= Self.bufferBytes { failureLock.sync { spare.append(batch) } }
        } catch {
          failureLock.sync { failure = error }
        }
      }
    }
    // A failure of a batch still being written shows at a later submit.
    if !failureReported, let failure = currentFailure() {
      failureReported = true
      throw failure
    }
  }

  private func currentFailure() -> LogWriteError? { failureLock.sync { failure } }

  /// Waits until the log thread has handled every batch given to it.
  private func drain() { queue.sync {} }
}

/// Events encoded on the caller's thread and not yet handed to the log thread.
private struct PendingBatch: ~Copyable {
  private var lastSeq: Int64
  private var lastTime: Int64
  /// Events as `EventFrame`s, each followed by a newline, encoded in place.
  private var bodies: CanonicalJSONWriter

  init(lastSeq: Int64, lastTime: Int64, capacity: Int) {
    self.lastSeq = lastSeq
    self.lastTime = lastTime
    bodies = CanonicalJSONWriter(capacity: capacity)
  }

  /// Encodes one event; returns its `seq` and whether the batch is full. An event outside
  /// `LogLimits` is taken back out of the batch and refused.
  mutating func add(t: Int64, kind: EventKind, fields: (inout CanonicalJSONWriter) -> Void) -> Result<(Int64, Bool), LimitProblem> {
    precondition(t >= lastTime, "virtual time went backwards: \(t) < \(lastTime)")
    let seq = lastSeq + 1
    if let problem = LogLimits.problem(seq: seq, t: t) { return .failure(LimitProblem(text: problem)) }
    let start = bodies.count
    EventFrame.begin(t: t, kind: kind, into: &bodies)
    fields(&bodies)
    bodies.endObject()
    // The body the log thread will make: its opening, then the fields and brace written here.
    let written = bodies.count - start - EventFrame.headerBytes
    if written > LogLimits.bodyBytesMax - EventOpening.bytesMax,
       let problem = LogLimits.problem(seq: seq, t: t, bodyBytes: EventOpening.bytes(seq: seq, t: t, kind: kind) + written) {
      bodies.truncate(to: start)
      return .failure(LimitProblem(text: problem))
    }
    bodies.endLine()
    lastSeq = seq
    lastTime = t
    return .success((seq, bodies.count >= BackgroundLogWriter.batchBytes))
  }

  var isEmpty: Bool { bodies.count == 0 }

  /// Moves the batch so far into `buffer` (whose own bytes, emptied, are filled next); the
  /// `seq` and time of its last event.
  mutating func take(into buffer: BatchBuffer) -> (lastSeq: Int64, lastTime: Int64) {
    buffer.bodies.exchange(with: &bodies)
    bodies.removeAll()
    return (lastSeq, lastTime)
  }
}

/// The bytes of one batch on their way to the log thread (a class: the writer cannot be copied,
/// and the buffer comes back to be filled again).
private final class BatchBuffer: @unchecked Sendable {
  // @unchecked: the caller's thread fills it, then only the log thread touches it until it
  // is back in `spare`; the queue and `failureLock` order the hand-overs.
  var bodies: CanonicalJSONWriter

  init(capacity: Int) { bodies = CanonicalJSONWriter(capacity: capacity) }
}
