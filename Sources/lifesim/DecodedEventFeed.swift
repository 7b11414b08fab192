import Dispatch
import EventStore
import Lifecycle

/// A log's events read in place and decoded on a thread of their own, for an export that folds
/// them on this one (the chrome trace): reading and decoding the next events runs beside
/// rendering these. The same events, in order, and the same error after the events before it,
/// as the loop `while let e = try stream.next() { … try Event(e) … }`.
///
/// ```swift
/// let feed = DecodedEventFeed(stream)
/// while let batch = try feed.next() { for i in batch.events.indices { … batch.seqs[i], batch.events[i] … } }
/// ```
///
/// Limits: batches of `batchEvents` events, at most `batchesAhead` of them waiting, so memory
/// stays bounded however long the log.
final class DecodedEventFeed {
  static let batchEvents = 2048
  static let batchesAhead = 4

  private let channel: Channel
  /// How the log went on after the batch handed out last: thrown, or nil, at the next call.
  private var after: (failure: (any Error)?, ended: Bool) = (nil, false)

  /// Takes over `stream`: nothing else may use it from now on.
  init(_ stream: LogEventStream) {
    channel = Channel(stream)
    let channel = self.channel
    channel.queue.async { channel.produce() }
  }

  deinit { channel.cancel() }

  /// The next events and their `seq`s (perhaps none); nil at the end. Throws what reading or
  /// decoding threw, once the events before it are handed out. A batch at a time, so that the
  /// caller reads each event in place rather than copying it out.
  func next() throws -> (seqs: [Int64], events: [Event])? {
    if let failure = after.failure { throw failure }
    if after.ended { return nil }
    let batch = channel.take()
    after = (batch.failure, batch.ended)
    return (batch.seqs, batch.events)
  }

  /// Events decoded together, and how the log went on after them: it ended, or `failure`.
  private struct Batch: @unchecked Sendable {
    // @unchecked: a batch is handed from one thread to the other whole, and never shared.
    var seqs: [Int64] = []
    var events: [Event] = []
    var failure: (any Error)?
    var ended = false
  }

  /// The hand-off between the decoding thread and the caller.
  private final class Channel: @unchecked Sendable {
    // @unchecked: `stream` is used only by the decoding thread (`produce`); `ready` and
    // `cancelled` only inside `lock.sync`.
    let queue = DispatchQueue(label: "lifesim.trace.decode")
    private let stream: LogEventStream
    private let lock = DispatchQueue(label: "lifesim.trace.decode.lock")
    /// Free places for batches. Made at 0 and signalled up to the limit: libdispatch traps when
    /// a semaphore is freed below its initial value, as this one is when the caller stops early.
    private let slots = DispatchSemaphore(value: 0)
    private let available = DispatchSemaphore(value: 0)
    private var ready: [Batch] = []
    private var cancelled = false

    init(_ stream: LogEventStream) {
      self.stream = stream
      for _ in 0..<DecodedEventFeed.batchesAhead { slots.signal() }
    }

    /// The decoding thread: fills batches until the log ends, goes wrong, or the caller is gone.
    func produce() {
      while true {
        var batch = Batch()
        batch.seqs.reserveCapacity(DecodedEventFeed.batchEvents)
        batch.events.reserveCapacity(DecodedEventFeed.batchEvents)
        do {
          while batch.events.count < DecodedEventFeed.batchEvents {
            guard let e = try stream.next() else {
              batch.ended = true
              break
            }
            batch.events.append(try Event(e))
            batch.seqs.append(e.seq)
          }
        } catch {
          batch.failure = error
        }
        slots.wait()
        let stop = lock.sync { () -> Bool in
          if !cancelled { ready.append(batch) }
          return cancelled
        }
        if stop { return }
        available.signal()
        if batch.ended || batch.failure != nil { return }
      }
    }

    /// The next batch, waiting for the decoding thread if it is behind.
    func take() -> Batch {
      available.wait()
      let batch = lock.sync { ready.removeFirst() }
      slots.signal()
      return batch
    }

    /// Stops the decoding thread at its next hand-off (the caller no longer wants events).
    func cancel() {
      lock.sync { cancelled = true }
      slots.signal()
    }
  }
}
