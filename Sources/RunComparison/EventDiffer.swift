import EventStore
import Lifecycle
import LifecycleLog

/// Aligns two event streams with a bounded look-ahead (a streaming, linear-space diff).
/// Events are compared on their canonical bytes, without `seq` (and `t` with --ignore-time)
/// and without the script line `at`. While the two runs agree, lines are compared in place
/// as the scanners hand them out. At a difference, events are read ahead into one byte buffer
/// a side (`PendingEvents`) until `Realignment` finds the nearest point where
/// the runs agree again; only the events a hunk prints are decoded (by its renderer).
///
/// Memory: at most `windowEvents` events read ahead a side, the `context` events before a
/// hunk, and the piece of the hunk being built: a hunk that grows past `hunkLinesMax` lines is
/// handed out in pieces (each but the last `continued`), so two runs that never agree again
/// (every time differs) are diffed in flat memory.
public struct EventDiffer {
  /// What went wrong reading or decoding a log (the message names the file where it can).
  public struct Failure: Error, CustomStringConvertible {
    public let description: String
  }

  /// Whether a line is in both runs, only in A, or only in B.
  public enum Side: Sendable { case same, removed, added }

  /// One event of a hunk: its canonical body (with its closing brace).
  public struct Body: Sendable {
    public var side: Side
    public var body: [UInt8]
    /// The scene the event belongs to, as its log's `SceneNamer` said (a removed or added
    /// event only; nil: none, or no namer).
    public var scene: String?

    public init(side: Side, body: [UInt8], scene: String? = nil) {
      self.side = side
      self.body = body
      self.scene = scene
    }

    /// The event, decoded from the body.
    public func decoded() throws -> (seq: Int64, event: Event) {
      guard let view = LogEventView(body: body) else {
        // Damage (not JSON, a key twice) is named as verify names it, with its line.
        if let damage = LogProblem.damage(ofEvent: body) { throw damage }
        throw Failure(description: "an event of the log is not a lifesim event")
      }
      return (view.seq, try Event(view))
    }
  }

  /// A run of differing events with up to `context` unchanged ones around it, as in `diff -u`,
  /// or one piece of a longer one.
  public struct Hunk: Sendable {
    public var aStart: Int64, aCount: Int64, bStart: Int64, bCount: Int64
    public var lines: [Body]
    /// The hunk goes on in the next piece, which starts where this one ends on both sides.
    public var continued = false

    /// The piece that follows this one: it starts after this one's events on both sides.
    var nextPiece: Hunk {
      Hunk(aStart: aStart + aCount, aCount: 0, bStart: bStart + bCount, bCount: 0, lines: [])
    }
  }

  /// Where the runs first part: each side's first differing event (nil: that run ended there).
  public struct Divergence: Sendable {
    public var a: Body?, b: Body?
    public var aSeq: Int64, bSeq: Int64
    public var t: Int64
  }

  /// Events looked ahead on each side when resynchronising after a difference.
  public static let windowEvents = 4096

  /// Lines past which a hunk still open is handed out as a piece (it may exceed this by what
  /// one realignment adds: at most `2 * windowEvents` lines).
  public static let hunkLinesMax = 8192

  /// Says which scene an event of one log belongs to (nil: none). It is called with every
  /// event of its log once, in the log's order, so it can fold the run as it goes; its answer
  /// is kept for the events a hunk shows as removed or added.
  public typealias SceneNamer = (LogScanner.EventLine) -> String?

  public let context: Int
  public let ignoreTime: Bool
  /// Each log's namer of scenes, if any.
  private let scenes: (a: SceneNamer?, b: SceneNamer?)
  public private(set) var firstDivergence: Divergence?

  /// `context`: unchanged events around each hunk; `ignoreTime`: compare events without `t`;
  /// `scenes`: what names the scene of each log's events (none: no event has a scene).
  public init(context: Int, ignoreTime: Bool, scenes: (a: SceneNamer?, b: SceneNamer?) = (nil, nil)) {
    self.context = context
    self.ignoreTime = ignoreTime
    self.scenes = scenes
  }

  private var key: EventKey { EventKey(ignoreTime: ignoreTime) }

  /// The next event of `scanner` and its scene as `namer` names it; a damaged line is a failure naming the file.
  private func next(_ scanner: LogScanner, _ namer: SceneNamer?) throws(Failure) -> (line: LogScanner.EventLine, scene: String?)? {
    let line: LogScanner.EventLine?
    do { line = try scanner.next() } catch { throw Failure(description: "\(scanner.path): \(error)") }
    return line.map { ($0, namer?($0)) }
  }

  /// Streams both logs; `emit` gets each hunk as soon as it is complete, `onEvent` is called
  /// once for each event read (for progress).
  public mutating func run(a: LogScanner, b: LogScanner, onEvent: () -> Void = {}, emit: (Hunk) throws -> Void) throws {
    let key = self.key
    var pendingA = PendingEvents(), pendingB = PendingEvents()
    var doneA = false, doneB = false
    func fill(_ pending: inout PendingEvents, _ scanner: LogScanner, _ namer: SceneNamer?, _ done: inout Bool, upTo n: Int) throws {
      while pending.count < n, !done {
        guard let e = try next(scanner, namer) else { done = true; break }
        onEvent()
        pending.append(e.line, key: key, scene: e.scene)
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
    // A hunk grown past its bound: hand out what it has, go on in a piece aligned after it.
    func flushPiece() throws {
      hunk.continued = true
      try emit(hunk)
      hunk = hunk.nextPiece
    }
    func same(_ body: UnsafeRawBufferPointer, hasBrace: Bool) throws {
      if open, trailing > 0 {
        var copy = [UInt8](body)
        if !hasBrace { copy.append(UInt8(ascii: "}")) }
        hunk.lines.append(Body(side: .same, body: copy)); hunk.aCount += 1; hunk.bCount += 1
        trailing -= 1
        if trailing == 0 { try close() }
      } else {
        recent.push(body, closingBrace: !hasBrace)
      }
    }
    while true {
      // While nothing is pending the runs agree so far: compare the next lines in place.
      if pendingA.isEmpty, pendingB.isEmpty {
        let x = doneA ? nil : try next(a, scenes.a)
        if x == nil { doneA = true } else { onEvent() }
        let y = doneB ? nil : try next(b, scenes.b)
        if y == nil { doneB = true } else { onEvent() }
        if let x, let y, key.same(x.line, y.line) {
          try same(x.line.bodyWithoutBrace, hasBrace: false)
          recentSeq = (x.line.seq, y.line.seq)
          continue
        }
        if let x { pendingA.append(x.line, key: key, scene: x.scene) }
        if let y { pendingB.append(y.line, key: key, scene: y.scene) }
        if pendingA.isEmpty && pendingB.isEmpty { break }
      }
      try fill(&pendingA, a, scenes.a, &doneA, upTo: 1)
      try fill(&pendingB, b, scenes.b, &doneB, upTo: 1)
      if pendingA.isEmpty && pendingB.isEmpty { break }
      if !pendingA.isEmpty, !pendingB.isEmpty, pendingA.sameKey(0, pendingB, 0) {
        try pendingA.withBody(0) { try same($0, hasBrace: true) }
        recentSeq = (pendingA[0].seq, pendingB[0].seq)
        pendingA.removeFirst(1); pendingB.removeFirst(1)
        continue
      }
      // A difference: look ahead, further and further, for the nearest point where both agree again.
      var window = 8
      let i: Int, j: Int
      while true {
        try fill(&pendingA, a, scenes.a, &doneA, upTo: window)
        try fill(&pendingB, b, scenes.b, &doneB, upTo: window)
        let realignment = Realignment(a: pendingA, b: pendingB, aDone: doneA, bDone: doneB)
        if let found = realignment.pair(final: window >= Self.windowEvents) {
          (i, j) = found
          break
        }
        window = min(window * 4, Self.windowEvents)
      }
      if firstDivergence == nil {
        let x = pendingA.isEmpty ? nil : pendingA[0], y = pendingB.isEmpty ? nil : pendingB[0]
        firstDivergence = Divergence(
          a: x.map { _ in Body(side: .removed, body: pendingA.body(0)) }, b: y.map { _ in Body(side: .added, body: pendingB.body(0)) },
          aSeq: x?.seq ?? recentSeq.a + 1, bSeq: y?.seq ?? recentSeq.b + 1, t: min(x?.t ?? Int64.max, y?.t ?? Int64.max))
      }
      if !open {
        let lines = recent.drain().map { Body(side: .same, body: $0) }
        let n = Int64(lines.count)
        hunk = Hunk(aStart: max(recentSeq.a + 1 - n, 1), aCount: n, bStart: max(recentSeq.b + 1 - n, 1), bCount: n, lines: lines)
        open = true
      }
      for k in 0..<i { hunk.lines.append(Body(side: .removed, body: pendingA.body(k), scene: pendingA[k].scene)); hunk.aCount += 1 }
      for k in 0..<j { hunk.lines.append(Body(side: .added, body: pendingB.body(k), scene: pendingB[k].scene)); hunk.bCount += 1 }
      if i > 0 { recentSeq.a = pendingA[i - 1].seq }
      if j > 0 { recentSeq.b = pendingB[j - 1].seq }
      pendingA.removeFirst(i)
      pendingB.removeFirst(j)
      trailing = context
      if context == 0 { try close() } else if hunk.lines.count >= Self.hunkLinesMax { try flushPiece() }
    }
    if open { try close() }
  }

  /// Events that must agree after a difference for the runs to count as realigned.
  public static let agreeingRun = 3
}
