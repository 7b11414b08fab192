/// A log's events read in place for folding (`replay --state`, the exports): the same events,
/// ending and problems, word for word, as `LogReader` in `.inPlace` mode, at a fraction of the
/// cost. A second thread reads the log and checks each line's form, the hash chain, sequence
/// and time (`BackgroundLogScanner`); this one checks each event's JSON and kind as the reader
/// does, and locates its members for the caller to decode.
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

  private var fast: BackgroundLogScanner?
  /// The reader carrying on after the fast path gave up.
  private var reader: LogReader?
  /// Events handed out so far.
  private var count = 0
  /// `JSONParser`'s storage, for events the quick scan leaves to it.
  private var members: [JSONMember] = []
  private var keys: [Range<Int>] = []
  /// The event handed out last, where an `InPlaceEvent` can point to it.
  private var held = EventCopy()
  private let strings = UnsafeMutablePointer<StringTable>.allocate(capacity: 1)

  /// Opens the log and reads and checks its header, with exactly `LogReader`'s messages.
  public init(path: String) throws(LogProblem) {
    self.path = path
    let scanner = try LogScanner(path: path, checksChain: true)
    header = scanner.header
    fast = BackgroundLogScanner(scanner)
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
        guard let line = try fast.nextWithBrace() else {
          ending = fast.ending
          self.fast = nil
          return nil
        }
        if let (kind, members) = checkedKind(line.body) {
          count += 1
          return held.event(seq: line.seq, t: line.t, kind: kind, body: line.body, members: members, strings: strings)
        }
      } catch {}
      // Something the fast path does not accept: the reader names it, or reads on.
      self.fast = nil
      reader = try Self.reader(path: path, skipping: count)
    }
    guard let reader else { return nil }
    while let line = try reader.next() {
      guard case .event = line else { continue }
      count += 1
      let view = reader.lastView
      let (body, members) = view.withParts { body, members in (held.copy(UnsafeRawBufferPointer(body)), held.keep(members)) }
      return held.event(seq: view.seq, t: view.t, kind: view.kind, body: body, members: members, strings: strings)
    }
    ending = reader.ending
    return nil
  }

  /// The event's kind, and how many members it has (located in `held`), when its JSON and
  /// kind are as `LogReader` accepts them; nil otherwise.
  private func checkedKind(_ body: UnsafeRawBufferPointer) -> (EventKind, Int)? {
    var found = PlainObjectScan.members(body, into: held.members)
    if found == nil {
      do {
        try JSONParser.validate(body.assumingMemoryBound(to: UInt8.self), scratch: &keys, members: &members)
      } catch {
        return nil
      }
      found = members.withUnsafeBufferPointer { held.keep($0) }
    }
    // The scanner checked that the line starts {"seq":…,"t":…,"kind":"; the kind runs to the next quote.
    guard let found, found >= 3 else { return nil }
    let value = held.members[2].value
    return EventKind(utf8: UnsafeRawBufferPointer(rebasing: body[(value.lowerBound + 1)..<(value.upperBound - 1)])).map { ($0, found) }
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
  /// Where the quick scan writes an event's members (more than fit go through `keep`).
  private(set) var members = UnsafeMutableBufferPointer<JSONMember>.allocate(capacity: 32)

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
