import JSON

/// A log's events read in place for folding (`replay --state`, the exports): the same events,
/// ending and problems, word for word, as `LogReader` in `.inPlace` mode, at a fraction of the
/// cost. A thread of its own reads the log in chunks and has each chunk's lines checked (form,
/// hash chain, sequence, time, JSON and kind, as the reader does) and each event's members
/// located on both cores (`FoldPipeline`); this one only hands the events out, in place.
///
/// At the first thing either does not accept, the stream reads the log again with
/// `LogReader`, from the start, and carries on with it after the events already handed out:
/// every message, and the events before it, are the reader's.
///
/// ```swift
/// let stream = try LogEventStream(path: "run.lifelog")
/// while let event = try stream.next() { … event.kind, event.string("name") … }  // valid until the next call
/// print(stream.ending!)
/// ```
public final class LogEventStream {
  public let path: String
  public let header: LogHeader
  /// Set once `next()` has returned nil.
  public private(set) var ending: LogEnding?

  private var fast: FoldPipeline?
  /// The chunk being handed out, its part and the next event in that part, in one value: an
  /// event costs one exclusivity check.
  private var cursor: (chunk: FoldChunk?, part: Int, index: Int) = (nil, 0, 0)
  /// The reader carrying on after the fast path gave up.
  private var reader: LogReader?
  /// Events handed out so far.
  private var count = 0
  /// The event handed out last by the reader, where an `InPlaceEvent` can point to it.
  private var held = EventCopy()
  private let strings = EventStrings()

  /// Opens the log and reads and checks its header, with exactly `LogReader`'s messages. With
  /// `following`, each part of the log checked is handed to a follower of its own, made by
  /// `makeFollower`, on the thread that checked it (see `FoldPartFollower`).
  public convenience init(path: String, following makeFollower: (() -> any FoldPartFollower)? = nil) throws(LogProblem) {
    try self.init(path: path, chunkBytes: nil, makeFollower: makeFollower)
  }

  /// As `init(path:following:)`, reading `chunkBytes` at a time (for the tests, which cut lines across
  /// chunks; by default, it depends on the log's size), with followers from `makeFollower` if any.
  init(path: String, chunkBytes: Int?, makeFollower: (() -> any FoldPartFollower)? = nil) throws(LogProblem) {
    self.path = path
    // A pipe (or a log that cannot be opened a second time) is read once, from its start, by
    // the reader alone.
    guard let file = try ChunkedLogFile.open(path, chunkBytes: chunkBytes) else {
      let reader = try LogReader(path: path, mode: .inPlace)
      header = reader.header
      self.reader = reader
      return
    }
    header = file.header
    fast = FoldPipeline(file, makeFollower: makeFollower)
  }

  deinit { fast?.cancel() }

  /// The next event, valid until the next call; nil at the end (then `ending` says how it ends).
  public func next() throws(LogProblem) -> InPlaceEvent? {
    if fast != nil {
      while true {
        if let chunk = cursor.chunk, cursor.part < chunk.parts.count {
          let part = chunk.parts[cursor.part]
          if cursor.index < part.events.count {
            cursor.index += 1
            count += 1
            return part.event(cursor.index - 1, in: chunk.lines, strings: strings.table)
          }
          cursor = (chunk, cursor.part + 1, 0)
          continue
        }
        guard try nextChunk() else { break }
      }
    }
    return try nextFromReader()
  }

  /// The events up to the end of the log's next chunk (at least one), valid until the next
  /// call of `next()` or `nextBatch()`; nil at the end (then `ending` says how it ends).
  public func nextBatch() throws(LogProblem) -> LogEventBatch? {
    if fast != nil {
      while true {
        if let chunk = cursor.chunk, cursor.part < chunk.parts.count {
          let batch = LogEventBatch(chunk, part: cursor.part, index: cursor.index)
          cursor = (chunk, chunk.parts.count, 0)
          if batch.count > 0 {
            count += batch.count
            return batch
          }
          continue
        }
        guard try nextChunk() else { break }
      }
    }
    return try nextFromReader().map { LogEventBatch(single: $0) }
  }

  /// Moves on to the fast path's next chunk; false once it has ended or given up (then
  /// `ending` is set, or the reader has taken over).
  private func nextChunk() throws(LogProblem) -> Bool {
    guard let fast else { return false }
    if let done = cursor.chunk {
      cursor = (nil, 0, 0)
      fast.recycle(done)
    }
    switch fast.take() {
    case let .chunk(chunk):
      cursor = (chunk, 0, 0)
      return true
    case let .end(how):
      ending = how
      self.fast = nil
      return false
    case .gaveUp:
      // Something the fast path does not accept: the reader names it, or reads on.
      self.fast = nil
      reader = try Self.reader(path: path, skipping: count)
      return false
    }
  }

  /// The next event from the reader that took over from the fast path.
  private func nextFromReader() throws(LogProblem) -> InPlaceEvent? {
    guard let reader else { return nil }
    while let line = try reader.next() {
      guard case .event = line else { continue }
      count += 1
      let view = reader.lastView
      let (body, members) = view.withParts { body, members in (held.copy(UnsafeRawBufferPointer(body)), held.keep(members)) }
      return held.event(seq: view.seq, t: view.t, kind: view.kind, body: body, members: members, strings: strings.table)
    }
    ending = reader.ending
    return nil
  }

  /// A reader past the first `events` events of the log at `path`.
  private static func reader(path: String, skipping events: Int) throws(LogProblem) -> LogReader {
    let reader = try LogReader(path: path, mode: .inPlace)
    var skipped = 0
    while skipped < events, let line = try reader.next() {
      if case .event = line { skipped += 1 }
    }
    return reader
  }
}

extension EventKind {
  private static let utf8 = allCases.map { ($0, Array($0.rawValue.utf8)) }

  /// The kind spelled `text`; nil if there is none.
  init?(utf8 text: UnsafeRawBufferPointer) {
    for (kind, name) in Self.utf8 where name.count == text.count
      && name.withUnsafeBytes({ memcmp($0.baseAddress!, text.baseAddress!, text.count) }) == 0 {
      self = kind
      return
    }
    return nil
  }
}

/// Storage an `InPlaceEvent` points to: the members of the event handed out last (and, from
/// a `LogReader`, its body).
private struct EventCopy: ~Copyable {
  private var body = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 1)
  /// The members of the event handed out last.
  private var members = UnsafeMutableBufferPointer<JSONMember>.allocate(capacity: 32)

  deinit {
    body.deallocate()
    members.deallocate()
  }

  /// A copy of `bytes`, valid until the next copy.
  mutating func copy(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
    if body.count < bytes.count {
      body.deallocate()
      body = .allocate(byteCount: bytes.count, alignment: 1)
    }
    body.copyMemory(from: bytes)
    return UnsafeRawBufferPointer(rebasing: body[0..<bytes.count])
  }

  /// Keeps `found` as the members; their number.
  mutating func keep(_ found: UnsafeBufferPointer<JSONMember>) -> Int {
    if members.count < found.count {
      members.deallocate()
      members = .allocate(capacity: found.count)
    }
    _ = members.initialize(fromContentsOf: found)
    return found.count
  }

  /// The event of `body` (kept where it is) whose first `count` members are held here.
  func event(seq: Int64, t: Int64, kind: EventKind, body: UnsafeRawBufferPointer, members count: Int,
             strings: UnsafeMutablePointer<StringTable>) -> InPlaceEvent {
    InPlaceEvent(seq: seq, t: t, kind: kind, body: body, members: UnsafeBufferPointer(rebasing: members[0..<count]), strings: strings)
  }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
