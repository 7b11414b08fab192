import EventStore

#if canImport(Glibc)
import Glibc
#endif

/// The comparison key of an event body: from after `seq` (or after `t`, ignoring time) to the
/// end, without a trailing `,"at":"file:line"` (the script line, which differs between two
/// versions of a script) and without the closing brace.
struct EventKey {
  let ignoreTime: Bool

  /// Where the key starts: after the first comma (after `seq`), or the second (after `t`).
  func start(_ body: UnsafeRawBufferPointer) -> Int {
    guard let base = body.baseAddress else { return 0 }
    var start = 0
    for _ in 0..<(ignoreTime ? 2 : 1) {
      guard start < body.count, let comma = memchr(base + start, Int32(UInt8(ascii: ",")), body.count - start) else {
        return body.count
      }
      start = base.distance(to: UnsafeRawPointer(comma)) + 1
    }
    return start
  }

  /// Where the key of a scanned line starts: ignoring time, 8 bytes before the kind's text
  /// (after `,"t":T,`), which the scanner has found already.
  func start(_ line: LogScanner.EventLine) -> Int {
    if ignoreTime, let kindStart = line.kindStart { return kindStart - 8 }
    return start(line.bodyWithoutBrace)
  }

  /// The key's range in `body` (with or without its closing brace), when it starts at `start`.
  func range(_ body: UnsafeRawBufferPointer, hasBrace: Bool, start: Int) -> Range<Int> {
    let end = body.count - (hasBrace ? 1 : 0)
    return start..<max(start, CanonicalBody.sourceStart(body, end: end) ?? end)
  }

  /// Whether two scanned lines have the same key. Bodies that agree from the key's start to
  /// the end (the common case while runs agree) need no search for `at`.
  func same(_ lineX: LogScanner.EventLine, _ lineY: LogScanner.EventLine) -> Bool {
    let x = lineX.bodyWithoutBrace, y = lineY.bodyWithoutBrace
    let sx = start(lineX), sy = start(lineY)
    if x.count - sx == y.count - sy,
       CanonicalBody.samePrefix(UnsafeRawBufferPointer(rebasing: x[sx...]), UnsafeRawBufferPointer(rebasing: y[sy...]), count: x.count - sx) {
      return true
    }
    let kx = range(x, hasBrace: false, start: sx), ky = range(y, hasBrace: false, start: sy)
    return kx.count == ky.count
      && CanonicalBody.samePrefix(UnsafeRawBufferPointer(rebasing: x[kx]), UnsafeRawBufferPointer(rebasing: y[ky]), count: kx.count)
  }
}

/// The events of one run read ahead while the runs differ, oldest first: their bodies (each with
/// its closing brace) in one byte buffer, so reading ahead allocates nothing an event. At most
/// `EventDiffer.windowEvents` are held, plus what a realignment has not yet consumed.
struct PendingEvents {
  struct Entry {
    var start: Int, end: Int
    var key: Range<Int>
    var seq: Int64, t: Int64
    /// The event's scene, as the log's `SceneNamer` named it.
    var scene: String?
  }

  private var bytes: [UInt8] = []
  private var entries: [Entry] = []
  /// Entries before `head` are consumed.
  private var head = 0

  var count: Int { entries.count - head }
  var isEmpty: Bool { head == entries.count }

  subscript(_ i: Int) -> Entry { entries[head + i] }

  /// Copies an event line in, with its closing brace, and indexes its key.
  mutating func append(_ line: LogScanner.EventLine, key: EventKey, scene: String?) {
    let start = bytes.count
    bytes.append(contentsOf: line.bodyWithoutBrace)
    bytes.append(UInt8(ascii: "}"))
    let entry = bytes.withUnsafeBytes { all in
      let body = UnsafeRawBufferPointer(rebasing: all[start...])
      let range = key.range(body, hasBrace: true, start: key.start(line))
      return Entry(start: start, end: all.count, key: (start + range.lowerBound)..<(start + range.upperBound), seq: line.seq, t: line.t, scene: scene)
    }
    entries.append(entry)
  }

  /// Drops the `n` oldest events.
  mutating func removeFirst(_ n: Int) {
    head += n
    if head == entries.count {
      entries.removeAll(keepingCapacity: true)
      bytes.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 1024, head * 2 >= entries.count {
      // Keep the buffers from growing with the number of events passed through.
      let shift = entries[head].start
      bytes.removeFirst(shift)
      entries.removeFirst(head)
      head = 0
      for i in entries.indices {
        entries[i].start -= shift
        entries[i].end -= shift
        entries[i].key = (entries[i].key.lowerBound - shift)..<(entries[i].key.upperBound - shift)
      }
    }
  }

  /// Calls `body` with the `i`th event's bytes (closing brace included).
  func withBody<R>(_ i: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    let e = entries[head + i]
    return try bytes.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[e.start..<e.end])) }
  }

  /// A copy of the `i`th event's body.
  func body(_ i: Int) -> [UInt8] {
    let e = entries[head + i]
    return Array(bytes[e.start..<e.end])
  }

  /// A hash of the `i`th event's key, for indexing a long window (computed when asked: most
  /// differences are realigned within a few events, by comparing keys directly).
  func keyHash(_ i: Int) -> Int {
    let e = entries[head + i]
    return bytes.withUnsafeBytes { CanonicalBody.hash(UnsafeRawBufferPointer(rebasing: $0[e.key])) }
  }

  /// Whether this side's `i`th event and `other`'s `j`th have the same key.
  func sameKey(_ i: Int, _ other: PendingEvents, _ j: Int) -> Bool {
    let x = entries[head + i], y = other.entries[other.head + j]
    guard x.key.count == y.key.count else { return false }
    return bytes.withUnsafeBytes { xs in
      other.bytes.withUnsafeBytes { ys in
        CanonicalBody.samePrefix(UnsafeRawBufferPointer(rebasing: xs[x.key]), UnsafeRawBufferPointer(rebasing: ys[y.key]), count: x.key.count)
      }
    }
  }
}
