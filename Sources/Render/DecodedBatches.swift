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

  /// Hands each event of `stream` up to `until` to `body`, in order, with its `seq` and `t` and
  /// its body lent for the call; the number handed, and whether `until` stopped it. When it did,
  /// `stream.ending` is no answer: the stream may have read ahead.
  package static func forEach(_ stream: LogEventStream, until: ReplayLimit? = nil,
                              _ body: (_ seq: Int64, _ t: Int64, _ eventBody: borrowing EventBody) -> Void) throws -> (events: Int64, stoppedByLimit: Bool) {
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
        let stop = !part.handOut { seq, t, eventBody in
          if let until, until.excludes(seq: seq, t: t) { return false }
          body(seq, t, eventBody)
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
/// calls `follow`) up to the first that does not decode: each event's `seq` and `t`, and its
/// body in `memo`, lent when handed out.
private final class DecodedEvents: FoldPartFollower, @unchecked Sendable {
  // @unchecked: used by one thread at a time (the stream hands out a part's batch only once
  // its follower is done with it).
  private let strings = EventStrings()
  private let memo = EventBodyMemo()
  /// Each event's `seq` and `t`; its body is the memo's body `i`.
  private var seqs: [Int64] = []
  private var times: [Int64] = []
  /// Events handed out of the `memo.count` decoded.
  private var handedOut = 0
  /// The event after the ones decoded, which does not decode, and why.
  private(set) var failure: (seq: Int64, t: Int64, error: Event.DecodingError)?

  /// Hands each event not handed out yet to `body` in order, with its `seq` and `t`, its body
  /// lent, until `body` answers false; whether it never did.
  func handOut(_ body: (_ seq: Int64, _ t: Int64, _ eventBody: borrowing EventBody) -> Bool) -> Bool {
    // Locals: each access to a property of a class is checked for exclusivity.
    let memo = self.memo, count = memo.count
    var next = handedOut
    defer { handedOut = next }
    return seqs.withUnsafeBufferPointer { seqs in
      times.withUnsafeBufferPointer { times in
        while next < count {
          let i = next
          next += 1
          let more: Bool
          switch memo.lent(at: i) {
          // The memo keeps the box alive until its next batch: lent without a count, or a copy.
          case let .boxed(box): more = box._withUnsafeGuaranteedRef { body(seqs[i], times[i], $0.body) }
          case let .alone(pointer): more = body(seqs[i], times[i], pointer.pointee)
          }
          if !more { return false }
        }
        return true
      }
    }
  }

  /// Decodes `batch`'s events, on the calling thread (a part's follower, or `forEach`).
  func follow(_ batch: LogEventBatch) {
    memo.begin(expected: batch.count)
    handedOut = 0
    failure = nil
    seqs.removeAll(keepingCapacity: true)
    times.removeAll(keepingCapacity: true)
    seqs.reserveCapacity(batch.count)
    times.reserveCapacity(batch.count)
    batch.forEach(in: 0..<batch.count, strings: strings) { e in
      do throws(Event.DecodingError) {
        try memo.decode(e)
        seqs.append(e.seq)
        times.append(e.t)
        return true
      } catch {
        failure = (e.seq, e.t, error)
        return false
      }
    }
  }
}
