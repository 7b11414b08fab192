/// Events of a `LogEventStream` handed out together (`nextBatch()`), so that a caller can work
/// on several at once, on several threads: each event is read in place, valid until the stream
/// moves on. Each thread reads its events with strings of its own (`EventStrings`).
public struct LogEventBatch: @unchecked Sendable {
  // @unchecked: the events are only read, and the stream does not move on while they are.
  private enum Source {
    /// A checked chunk's events, from its part `part`'s event `index` to the end of the part
    /// before `endPart`.
    case chunk(FoldChunk, part: Int, index: Int, endPart: Int)
    /// One event, from the reader that took over.
    case single(InPlaceEvent)
  }

  private let source: Source
  public let count: Int

  /// The events of `chunk` from part `part`'s event `index` to the end of the part before
  /// `endPart` (by default, of the chunk).
  init(_ chunk: FoldChunk, part: Int, index: Int, endPart: Int? = nil) {
    let endPart = endPart ?? chunk.parts.count
    source = .chunk(chunk, part: part, index: index, endPart: endPart)
    count = chunk.parts[part..<endPart].reduce(0) { $0 + $1.events.count } - index
  }

  /// The followers of the batch's parts, in order (`FoldPartFollower`), each of which followed
  /// all of its part's events: nil unless the batch starts at a part's first event, and is a
  /// checked chunk's read by a stream with followers.
  public var followers: [any FoldPartFollower]? {
    guard case let .chunk(chunk, part, 0, endPart) = source else { return nil }
    let followers = chunk.parts[part..<endPart].compactMap(\.follower)
    return followers.count == endPart - part ? followers : nil
  }

  init(single event: InPlaceEvent) {
    source = .single(event)
    count = 1
  }

  /// Calls `body` with each event of `range` (within `0..<count`) in order, its strings met
  /// through `strings`; stops at the first that `body` returns false for.
  public func forEach(in range: Range<Int>, strings: EventStrings, _ body: (InPlaceEvent) -> Bool) {
    guard !range.isEmpty else { return }
    switch source {
    case let .chunk(chunk, part, index, _):
      var (p, j) = (part, index + range.lowerBound)
      var left = range.count
      let parts = chunk.parts, lines = chunk.lines, table = strings.table
      while left > 0 {
        let events = parts[p].events.count
        if j >= events {
          j -= events
          p += 1
          continue
        }
        let end = min(events, j + left), current = parts[p]
        for i in j..<end where !body(current.event(i, in: lines, strings: table)) { return }
        left -= end - j
        j = end
      }
    case .single:
      for i in range where !body(event(i, strings: strings)) { return }
    }
  }

  /// Event `i` (`0..<count`), its strings met through `strings`.
  public func event(_ i: Int, strings: EventStrings) -> InPlaceEvent {
    switch source {
    case let .chunk(chunk, part, index, _):
      var (p, j) = (part, index + i)
      let parts = chunk.parts
      while j >= parts[p].events.count {
        j -= parts[p].events.count
        p += 1
      }
      return parts[p].event(j, in: chunk.lines, strings: strings.table)
    case let .single(e):
      return InPlaceEvent(seq: e.seq, t: e.t, kind: e.kind, body: e.body, members: e.members, keys: e.keys,
                          layoutID: e.layoutID, strings: strings.table)
    }
  }
}

/// The strings an `InPlaceEvent` has met (a callback's signature, a target), so that one met
/// again is not built again: one for each thread that reads events.
public final class EventStrings: @unchecked Sendable {
  // @unchecked: used by one thread at a time.
  let table = UnsafeMutablePointer<StringTable>.allocate(capacity: 1)

  public init() { table.initialize(to: StringTable()) }

  deinit {
    table.deinitialize(count: 1)
    table.deallocate()
  }
}
