import EventStore
import Lifecycle
import LifecycleLog

/// A log's events, decoded where the log is checked: a stream opened with
/// `DecodedBatches.follower` (`RecordedLog.stream(path, following:)`) decodes each part of a
/// chunk on the thread that hashed and scanned it, while this thread hands out the chunks
/// before, in the log's order. A batch no follower decoded (another stream, or the reader that
/// took over from the fast path) is decoded here. Decoding has no effects, so what the caller
/// sees, and the first problem met (in the log, or decoding an event), are those of reading
/// and decoding one event at a time. `replay --state` folds the events; the chrome-trace
/// export folds and renders them.
package enum DecodedBatches {
  /// What a stream read by `forEach` is best opened with: each part's events are decoded by
  /// the task that checked them.
  package static func follower() -> any FoldPartFollower { DecodedEvents() }

  /// Hands each event of `stream` up to `until` to `body`, in order; the number handed, and
  /// whether `until` stopped it. When it did, `stream.ending` is no answer: the stream may have
  /// read ahead.
  package static func forEach(_ stream: LogEventStream, until: ReplayLimit? = nil,
                      _ body: (_ seq: Int64, _ event: borrowing Event) -> Void) throws -> (events: Int64, stoppedByLimit: Bool) {
    // Batches no follower decoded are decoded here, into this, made when one is met (its memo
    // costs more than a short log's fold).
    var here: DecodedEvents?
    var events: Int64 = 0
    while let batch = try stream.nextBatch() {
      // Decoded by the parts' followers when each of them is one of ours; else decoded here.
      let followers = batch.followers
      var decoded = followers?.compactMap { $0 as? DecodedEvents } ?? []
      if decoded.isEmpty || decoded.count != followers?.count {
        let decoder = here ?? DecodedEvents()
        here = decoder
        decoder.follow(batch)
        decoded = [decoder]
      }
      for part in decoded {
        let stop = !part.handOut { seq, event in
          if let until, until.excludes(seq: seq, t: event.t) { return false }
          body(seq, event)
          events += 1
          return true
        }
        if stop { return (events, true) }
        if let failure = part.failure {
          if let until, until.excludes(seq: failure.seq, t: failure.t) { return (events, true) }
          throw failure.error
        }
      }
    }
    return (events, false)
  }
}

/// A share of a batch's events (a chunk's part, as its follower), decoded (on the thread that
/// calls `follow`) up to the first that does not decode.
private final class DecodedEvents: FoldPartFollower, @unchecked Sendable {
  // @unchecked: used by one thread at a time (the stream hands out a part's batch only once
  // its follower is done with it).
  private let strings = EventStrings()
  private let memo = EventBodyMemo()
  /// The events decoded, in raw storage: `handedOut` of them moved out, `count` made. (In an
  /// array, each would be swapped for a placeholder, and the placeholders destroyed later.)
  private var events = UnsafeMutablePointer<Event>.allocate(capacity: 64)
  private var capacity = 64
  private var count = 0
  private var handedOut = 0
  /// Each event's `seq`, apart: an event copied out with its `seq` would be copied through
  /// the tuple's metadata.
  private var seqs: [Int64] = []
  /// The event after `events`, which does not decode, and why.
  private(set) var failure: (seq: Int64, t: Int64, error: Event.DecodingError)?

  deinit {
    clear()
    events.deallocate()
  }

  /// Moves each event not handed out yet to `body` in order, with its `seq`, until `body`
  /// answers false; whether it never did. Each is destroyed once `body` returns.
  func handOut(_ body: (_ seq: Int64, _ event: borrowing Event) -> Bool) -> Bool {
    // Locals: each access to a property of a class is checked for exclusivity.
    let events = self.events, count = self.count
    var next = handedOut
    defer { handedOut = next }
    return seqs.withUnsafeBufferPointer { seqs in
      while next < count {
        let event = (events + next).move(), seq = seqs[next]
        next += 1
        if !body(seq, event) { return false }
      }
      return true
    }
  }

  /// No events, and no failure.
  func clear() {
    (events + handedOut).deinitialize(count: count - handedOut)
    (count, handedOut) = (0, 0)
    seqs.removeAll(keepingCapacity: true)
    failure = nil
  }

  /// Makes room for `needed` events at once (a batch's count): grown by doubling, each step
  /// touched fresh pages.
  private func reserve(_ needed: Int) {
    guard needed > capacity else { return }
    let bigger = UnsafeMutablePointer<Event>.allocate(capacity: needed)
    bigger.moveInitialize(from: events, count: count)
    events.deallocate()
    (events, capacity) = (bigger, needed)
    seqs.reserveCapacity(needed)
  }

  private func append(_ event: consuming Event, seq: Int64) {
    if count == capacity { reserve(capacity * 2) }
    (events + count).initialize(to: event)
    count += 1
    seqs.append(seq)
  }

  /// Decodes `batch`'s events, on the calling thread (a part's follower, or `forEach`).
  func follow(_ batch: LogEventBatch) {
    clear()
    reserve(batch.count)
    batch.forEach(in: 0..<batch.count, strings: strings) { e in
      do throws(Event.DecodingError) {
        append(try memo.event(e), seq: e.seq)
        return true
      } catch {
        failure = (e.seq, e.t, error)
        return false
      }
    }
  }
}
