/// A log's events read in place for folding (`replay --state`, the exports): the same events,
/// ending and problems, word for word, as `LogReader` in `.inPlace` mode, at a fraction of the
/// cost on the caller's thread. A second thread reads the log, checks the hash chain and each
/// line's JSON and kind, and locates every event's members; the caller only decodes.
///
/// At the first thing that thread does not accept, the stream reads the log again with
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

  private var fast: BackgroundLogScanner?
  /// The reader carrying on after the fast path gave up.
  private var reader: LogReader?
  /// Events handed out so far.
  private var count = 0
  /// The reader's last event, copied where an `InPlaceEvent` can point to it.
  private var copy = InPlaceCopy()
  private let strings = UnsafeMutablePointer<StringTable>.allocate(capacity: 1)

  /// Opens the log and reads and checks its header, with exactly `LogReader`'s messages.
  public init(path: String) throws(LogProblem) {
    self.path = path
    let scanner = try LogScanner(path: path, checksChain: true)
    header = scanner.header
    fast = BackgroundLogScanner(scanner, locatingMembers: true)
    strings.initialize(to: StringTable())
  }

  deinit {
    fast = nil
    strings.deinitialize(count: 1)
    strings.deallocate()
  }

  /// The next event, valid until the next call; nil at the end (then `ending` says how it ends).
  public func next() throws(LogProblem) -> InPlaceEvent? {
    if let fast {
      do {
        guard let event = try fast.nextInPlace(strings: strings) else {
          ending = fast.ending
          self.fast = nil
          return nil
        }
        count += 1
        return event
      } catch {
        self.fast = nil
        reader = try Self.reader(path: path, skipping: count)
      }
    }
    guard let reader else { return nil }
    while let line = try reader.next() {
      guard case .event = line else { continue }
      count += 1
      return copy.hold(reader.lastView, strings: strings)
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

/// Storage an `InPlaceEvent` can point to, holding a copy of a `LogEventView`.
private struct InPlaceCopy: ~Copyable {
  private var body = UnsafeMutableRawBufferPointer.allocate(byteCount: 0, alignment: 1)
  private var members = UnsafeMutableBufferPointer<JSONMember>.allocate(capacity: 0)

  deinit {
    body.deallocate()
    members.deallocate()
  }

  mutating func hold(_ view: LogEventView, strings: UnsafeMutablePointer<StringTable>) -> InPlaceEvent {
    let (bodyCount, memberCount) = view.withParts { b, m -> (Int, Int) in
      if body.count < b.count {
        body.deallocate()
        body = .allocate(byteCount: b.count, alignment: 1)
      }
      if members.count < m.count {
        members.deallocate()
        members = .allocate(capacity: m.count)
      }
      body.copyMemory(from: UnsafeRawBufferPointer(b))
      _ = members.initialize(fromContentsOf: m)
      return (b.count, m.count)
    }
    return InPlaceEvent(seq: view.seq, t: view.t, kind: view.kind,
                        body: UnsafeRawBufferPointer(rebasing: body[0..<bodyCount]),
                        members: UnsafeBufferPointer(rebasing: members[0..<memberCount]), strings: strings)
  }
}
