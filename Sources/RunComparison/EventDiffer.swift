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

  /// Streams both logs; `emit` gets each hunk as soon as it is complete, `onEvent` is called
  /// once for each event read (for progress).
  public mutating func run(a: LogScanner, b: LogScanner, onEvent: () -> Void = {}, emit: (Hunk) throws -> Void) throws {
    try diff(a: a, b: b, onEvent: onEvent, emit: emit)
  }

  /// Streams both logs, each read ahead on a thread of its own (what `lifesim diff` does:
  /// reading and checking two logs is most of a diff's work); as `run(a:b:onEvent:emit:)`.
  public mutating func run(a: BackgroundLogScanner, b: BackgroundLogScanner, onEvent: () -> Void = {}, emit: (Hunk) throws -> Void) throws {
    try diff(a: a, b: b, onEvent: onEvent, emit: emit)
  }

  /// Either `run`: generic, and specialised for each within this module.
  private mutating func diff<Source: EventLineSource>(a: Source, b: Source, onEvent: () -> Void, emit: (Hunk) throws -> Void) throws {
    var reader = DiffReader(a: a, b: b, scenes: scenes, key: EventKey(ignoreTime: ignoreTime))
    var hunks = HunkBuilder(context: context)
    while try reader.readWhileAgreeing(into: &hunks, onEvent: onEvent, emit: emit) {
      let (i, j) = try reader.realignment(onEvent: onEvent)
      if firstDivergence == nil { firstDivergence = reader.divergence(after: hunks.recentSeq) }
      try reader.take(removed: i, added: j, into: &hunks, emit: emit)
    }
    try hunks.finish(emit: emit)
  }

  /// Events that must agree after a difference for the runs to count as realigned.
  public static let agreeingRun = 3
}
