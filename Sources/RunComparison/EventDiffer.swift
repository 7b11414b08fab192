import EventStore
import Lifecycle

/// Aligns two event streams with a bounded look-ahead (a streaming, linear-space diff).
/// Events are compared on their canonical bytes, without `seq` (and `t` with --ignore-time)
/// and without the script line `at`. While the two runs agree, lines are compared in place
/// as the scanners hand them out; only differing events are copied, and only the events a
/// hunk prints are decoded.
public struct EventDiffer {
  /// What went wrong reading or decoding a log (the message names the file where it can).
  public struct Failure: Error, CustomStringConvertible {
    public let description: String
  }

  /// Whether a line is in both runs, only in A, or only in B.
  public enum Side: Sendable { case same, removed, added }

  /// One event of a hunk: its canonical body (with its closing brace).
  public struct Line: Sendable {
    public var side: Side
    public var body: [UInt8]

    public init(side: Side, body: [UInt8]) {
      self.side = side
      self.body = body
    }

    /// The event, decoded from the body.
    public func decoded() throws -> (seq: Int64, event: Event) {
      guard let view = LogEventView(body: body) else {
        throw Failure(description: "an event of the log is not a lifesim event")
      }
      return (view.seq, try Event(view))
    }
  }

  /// A run of differing events with up to `context` unchanged ones around it, as in `diff -u`.
  public struct Hunk: Sendable {
    public var aStart: Int64, aCount: Int64, bStart: Int64, bCount: Int64
    public var lines: [Line]
  }

  /// Where the runs first part: each side's first differing event (nil: that run ended there).
  public struct Divergence: Sendable {
    public var a: Line?, b: Line?
    public var aSeq: Int64, bSeq: Int64
    public var t: Int64
  }

  /// Events looked ahead on each side when resynchronising after a difference.
  public static let windowEvents = 4096

  public let context: Int
  public let ignoreTime: Bool
  public private(set) var firstDivergence: Divergence?

  /// `context`: unchanged events around each hunk; `ignoreTime`: compare events without `t`.
  public init(context: Int, ignoreTime: Bool) {
    self.context = context
    self.ignoreTime = ignoreTime
  }

  private struct Item {
    var body: [UInt8]
    var seq: Int64
    var t: Int64
    var key: Range<Int>
    /// A hash of the key's bytes, taken once: resynchronising indexes items by it (equal
    /// hashes are then compared byte by byte).
    var keyHash: Int
    func sameKey(_ other: Item) -> Bool { body[key].elementsEqual(other.body[other.key]) }
  }

  /// The comparison key of a body (with or without its closing brace): from after `seq`
  /// (or after `t`) to the end, without a trailing `,"at":"file:line"`.
  private func keyRange(_ body: UnsafeRawBufferPointer, hasBrace: Bool) -> Range<Int> {
    var start = 0
    var commas = ignoreTime ? 2 : 1
    while start < body.count, commas > 0 {
      if body[start] == UInt8(ascii: ",") { commas -= 1 }
      start += 1
    }
    let end = body.count - (hasBrace ? 1 : 0)
    return start..<max(start, CanonicalBody.sourceStart(body, end: end) ?? end)
  }

  private func item(_ e: LogScanner.EventLine) -> Item {
    var body = [UInt8](e.bodyWithoutBrace)
    body.append(UInt8(ascii: "}"))
    let (key, keyHash) = body.withUnsafeBytes { raw in
      let key = keyRange(raw, hasBrace: true)
      var hasher = Hasher()
      hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: raw[key]))
      return (key, hasher.finalize())
    }
    return Item(body: body, seq: e.seq, t: e.t, key: key, keyHash: keyHash)
  }

  /// The next event of `scanner`; a damaged line is a failure naming the file.
  private func next(_ scanner: LogScanner) throws(Failure) -> LogScanner.EventLine? {
    do { return try scanner.next() } catch { throw Failure(description: "\(scanner.path): \(error)") }
  }

  /// Streams both logs; `emit` gets each hunk as soon as it is complete, `onEvent` is called
  /// once for each event read (for progress).
  public mutating func run(a: LogScanner, b: LogScanner, onEvent: () -> Void = {}, emit: (Hunk) throws -> Void) throws {
    var bufA: [Item] = [], bufB: [Item] = []
    var doneA = false, doneB = false
    func fill(_ buf: inout [Item], _ scanner: LogScanner, _ done: inout Bool, upTo n: Int) throws {
      while buf.count < n, !done {
        guard let e = try next(scanner) else { done = true; break }
        onEvent()
        buf.append(item(e))
      }
    }
    var recent = RecentBodies(size: context)  // unchanged lines before the next hunk
    var recentSeq: (a: Int64, b: Int64) = (0, 0)
    var hunk = Hunk(aStart: 0, aCount: 0, bStart: 0, bCount: 0, lines: [])  // the hunk being built, while `open`
    var open = false
    var trailing = 0                 // unchanged lines still owed after the hunk
    func close() throws {
      try emit(hunk)
      hunk.lines.removeAll()
      open = false
    }
    func same(_ body: UnsafeRawBufferPointer, hasBrace: Bool) throws {
      if open, trailing > 0 {
        var copy = [UInt8](body)
        if !hasBrace { copy.append(UInt8(ascii: "}")) }
        hunk.lines.append(Line(side: .same, body: copy)); hunk.aCount += 1; hunk.bCount += 1
        trailing -= 1
        if trailing == 0 { try close() }
      } else {
        recent.push(body, closingBrace: !hasBrace)
      }
    }
    while true {
      // While both windows are empty the runs agree so far: compare the next lines in place.
      if bufA.isEmpty, bufB.isEmpty {
        let x = doneA ? nil : try next(a)
        if x == nil { doneA = true } else { onEvent() }
        let y = doneB ? nil : try next(b)
        if y == nil { doneB = true } else { onEvent() }
        if let x, let y {
          let kx = keyRange(x.bodyWithoutBrace, hasBrace: false), ky = keyRange(y.bodyWithoutBrace, hasBrace: false)
          if kx.count == ky.count,
             CanonicalBody.samePrefix(UnsafeRawBufferPointer(rebasing: x.bodyWithoutBrace[kx]),
                                      UnsafeRawBufferPointer(rebasing: y.bodyWithoutBrace[ky]), count: kx.count) {
            try same(x.bodyWithoutBrace, hasBrace: false)
            recentSeq = (x.seq, y.seq)
            continue
          }
        }
        if let x { bufA.append(item(x)) }
        if let y { bufB.append(item(y)) }
        if bufA.isEmpty && bufB.isEmpty { break }
      }
      try fill(&bufA, a, &doneA, upTo: 1)
      try fill(&bufB, b, &doneB, upTo: 1)
      if bufA.isEmpty && bufB.isEmpty { break }
      if let x = bufA.first, let y = bufB.first, x.sameKey(y) {
        try x.body.withUnsafeBytes { try same($0, hasBrace: true) }
        recentSeq = (x.seq, y.seq)
        bufA.removeFirst(); bufB.removeFirst()
        continue
      }
      // A difference: look ahead, further and further, for the nearest point where both agree again.
      var window = 8
      let i: Int, j: Int
      while true {
        try fill(&bufA, a, &doneA, upTo: window)
        try fill(&bufB, b, &doneB, upTo: window)
        if let found = resync(bufA, bufB, aDone: doneA, bDone: doneB, final: window >= Self.windowEvents) {
          (i, j) = found
          break
        }
        window = min(window * 4, Self.windowEvents)
      }
      if firstDivergence == nil {
        let t = min(bufA.first?.t ?? Int64.max, bufB.first?.t ?? Int64.max)
        firstDivergence = Divergence(
          a: bufA.first.map { Line(side: .removed, body: $0.body) }, b: bufB.first.map { Line(side: .added, body: $0.body) },
          aSeq: bufA.first?.seq ?? recentSeq.a + 1, bSeq: bufB.first?.seq ?? recentSeq.b + 1, t: t)
      }
      if !open {
        let lines = recent.drain().map { Line(side: .same, body: $0) }
        let n = Int64(lines.count)
        hunk = Hunk(aStart: max(recentSeq.a + 1 - n, 1), aCount: n, bStart: max(recentSeq.b + 1 - n, 1), bCount: n, lines: lines)
        open = true
      }
      for item in bufA.prefix(i) { hunk.lines.append(Line(side: .removed, body: item.body)); hunk.aCount += 1 }
      for item in bufB.prefix(j) { hunk.lines.append(Line(side: .added, body: item.body)); hunk.bCount += 1 }
      if let last = bufA.prefix(i).last { recentSeq.a = last.seq }
      if let last = bufB.prefix(j).last { recentSeq.b = last.seq }
      bufA.removeFirst(i)
      bufB.removeFirst(j)
      trailing = context
      if context == 0 { try close() }
    }
    if open { try close() }
  }

  /// Events that must agree after a difference for the runs to count as realigned.
  public static let agreeingRun = 3

  /// The smallest i + j with A[i...] and B[j...] agreeing on the next `agreeingRun` events
  /// (or both ending), if the windows are long enough to be sure no smaller one exists;
  /// nil: look further ahead. `final`: the windows cannot grow, take the best there is.
  private func resync(_ a: [Item], _ b: [Item], aDone: Bool, bDone: Bool, final: Bool) -> (Int, Int)? {
    let run = Self.agreeingRun
    /// true: agree; false: differ; nil: the window ends before it can tell.
    func agrees(_ i: Int, _ j: Int) -> Bool? {
      var k = 0
      while k < run {
        let ai = i + k, bj = j + k
        if ai >= a.count || bj >= b.count {
          let aEnds = ai >= a.count && aDone, bEnds = bj >= b.count && bDone
          if aEnds && bEnds { return true }
          if (ai >= a.count && !aDone) || (bj >= b.count && !bDone) { return nil }
          return false  // one log ends, the other goes on
        }
        if !a[ai].sameKey(b[bj]) { return false }
        k += 1
      }
      return true
    }
    // Index B's keys once so the search is linear in the window, not quadratic. Keys are
    // indexed by hash; `agrees` compares the bytes, so a collision only costs a comparison.
    var positions: [Int: [Int]] = [:]
    for (j, item) in b.enumerated() { positions[item.keyHash, default: []].append(j) }
    var best: (Int, Int)?
    if aDone && bDone { best = (a.count, b.count) }  // everything left differs
    for i in 0..<a.count {
      if let b0 = best, i >= b0.0 + b0.1 { break }
      for j in positions[a[i].keyHash] ?? [] {
        if let b0 = best, i + j >= b0.0 + b0.1 { break }
        if agrees(i, j) == true { best = (i, j); break }
      }
    }
    if final { return best ?? (a.count, b.count) }
    guard let (i, j) = best else { return nil }
    // Sure only if every smaller i' + j' could be judged inside the windows.
    let reach = i + j + run - 1
    return (aDone || reach <= a.count) && (bDone || reach <= b.count) ? (i, j) : nil
  }
}

