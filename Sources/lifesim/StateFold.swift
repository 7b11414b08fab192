import Dispatch
import EventStore
import Lifecycle

/// `replay --state`'s fold: the stream's events come in batches (a chunk of the log at a time),
/// each batch is decoded on both cores, and the decoded events are folded in the log's order on
/// this thread. Decoding has no effects, so the outcome, and the first problem met (in the
/// log, or decoding an event), are those of folding one event at a time.
enum StateFold {
  /// Batches smaller than this are decoded on this thread alone: a second thread would cost
  /// more to wake than it saves.
  static let batchInParallelMin = 512

  /// Folds the events of `stream` up to `until` into `state`; the number folded.
  static func fold(_ stream: LogEventStream, until: ReplayLimit?, into state: inout LifecycleState,
                   progress: inout Progress) throws -> Int64 {
    let halves = [DecodedEvents(), DecodedEvents()]
    var events: Int64 = 0
    while let batch = try stream.nextBatch() {
      let n = batch.count
      if n < batchInParallelMin {
        halves[0].decode(batch, 0..<n)
        halves[1].decode(batch, n..<n)
      } else {
        DispatchQueue.concurrentPerform(iterations: 2) { h in halves[h].decode(batch, (n * h / 2)..<(n * (h + 1) / 2)) }
      }
      for half in halves {
        for (seq, t, decoded) in half.events {
          if let until, until.excludes(seq: seq, t: t) { return events }
          state.evolve(try decoded.get())
          events += 1
          progress.tick()
        }
      }
    }
    return events
  }
}

/// A share of a batch's events, decoded (on the thread that calls `decode`).
private final class DecodedEvents: @unchecked Sendable {
  // @unchecked: used by one thread at a time (`StateFold.fold` joins before reading it).
  private let strings = EventStrings()
  private(set) var events: [(seq: Int64, t: Int64, event: Result<Event, Event.DecodingError>)] = []

  func decode(_ batch: LogEventBatch, _ range: Range<Int>) {
    events.removeAll(keepingCapacity: true)
    for i in range {
      let e = batch.event(i, strings: strings)
      events.append((e.seq, e.t, Result { () throws(Event.DecodingError) in try Event(e) }))
    }
  }
}
