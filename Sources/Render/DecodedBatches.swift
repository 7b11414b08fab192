import Dispatch
import EventStore
import Lifecycle
import LifecycleLog

/// A log's events, decoded a batch ahead: the stream's events come in batches (a chunk of the
/// log at a time); while this thread hands one batch's events to its caller in the log's
/// order, the next batch is decoded on the other threads, in two halves. Decoding has no
/// effects, so what the caller sees, and the first problem met (in the log, or decoding an
/// event), are those of reading and decoding one event at a time. `replay --state` folds the
/// events; the chrome-trace export folds and renders them.
package enum DecodedBatches {
  /// Batches smaller than this are decoded as one task: a second would cost more to start
  /// than it saves.
  package static let batchInHalvesMin = 512

  /// Hands each event of `stream` up to `until` to `body`, in order; the number handed, and
  /// whether `until` stopped it. When it did, `stream.ending` is no answer: the stream may have
  /// read to its end (the batch after the last is asked for before the last is handed out).
  package static func forEach(_ stream: LogEventStream, until: ReplayLimit? = nil,
                      _ body: (_ seq: Int64, _ event: borrowing Event) -> Void) throws -> (events: Int64, stoppedByLimit: Bool) {
    // Two sets of halves: one being folded here while the other is decoded.
    var decoding = [DecodedEvents(), DecodedEvents()], folding = [DecodedEvents(), DecodedEvents()]
    let group = DispatchGroup()
    // A batch stays valid until the stream moves on: its decoding must end first.
    defer { group.wait() }
    var events: Int64 = 0
    var more = true
    while more {
      group.wait()
      swap(&decoding, &folding)
      // A problem after this batch comes after the batch decoded before it, folded first.
      var problem: LogProblem?
      var next: LogEventBatch?
      do { next = try stream.nextBatch() } catch { problem = error }
      if let batch = next {
        let n = batch.count, parts = n < batchInHalvesMin ? 1 : 2
        for (h, half) in decoding.enumerated() {
          let range = (n * min(h, parts) / parts)..<(n * min(h + 1, parts) / parts)
          if range.isEmpty { half.clear() } else { DispatchQueue.global().async(group: group) { half.decode(batch, range) } }
        }
      } else {
        more = false
      }
      for half in folding {
        let stop = !half.handOut { seq, event in
          if let until, until.excludes(seq: seq, t: event.t) { return false }
          body(seq, event)
          events += 1
          return true
        }
        if stop { return (events, true) }
        if let failure = half.failure {
          if let until, until.excludes(seq: failure.seq, t: failure.t) { return (events, true) }
          throw failure.error
        }
      }
      if let problem { throw problem }
    }
    return (events, false)
  }
}

/// A share of a batch's events, decoded (on the thread that calls `decode`) up to the first
/// that does not decode.
private final class DecodedEvents: @unchecked Sendable {
  // @unchecked: used by one thread at a time (`DecodedBatches.forEach` joins before reading it).
  private let strings = EventStrings()
  private let memo = EventBodyMemo()
  /// The events decoded, and each one's `seq` (apart: an event copied out with its `seq`
  /// would be copied through the tuple's metadata).
  private var events: [Event] = []
  private var seqs: [Int64] = []
  /// What an event handed out leaves in its place: a body that holds no reference.
  private static let handedOut = Event(t: 0, .suspended)
  /// The event after `events`, which does not decode, and why.
  private(set) var failure: (seq: Int64, t: Int64, error: Event.DecodingError)?

  /// Moves each event out to `body` in order, with its `seq`, until `body` answers false;
  /// whether it never did. Moved, not lent: an event lent from the array was copied for each
  /// call, since the caller's state, mutated meanwhile, might have been the array.
  func handOut(_ body: (_ seq: Int64, _ event: borrowing Event) -> Bool) -> Bool {
    events.withUnsafeMutableBufferPointer { events in
      seqs.withUnsafeBufferPointer { seqs in
        for i in events.indices {
          var event = Self.handedOut
          swap(&event, &events[i])
          if !body(seqs[i], event) { return false }
        }
        return true
      }
    }
  }

  /// No events, and no failure.
  package func clear() {
    events.removeAll(keepingCapacity: true)
    seqs.removeAll(keepingCapacity: true)
    failure = nil
  }

  package func decode(_ batch: LogEventBatch, _ range: Range<Int>) {
    clear()
    batch.forEach(in: range, strings: strings) { e in
      do throws(Event.DecodingError) {
        events.append(try memo.event(e))
        seqs.append(e.seq)
        return true
      } catch {
        failure = (e.seq, e.t, error)
        return false
      }
    }
  }
}
