import JSON

/// Complete lines read from the log, and where each validated one ends (verify's chunks,
/// folding's: `FoldPipeline`, and the batches `BackgroundLogScanner` hands out).
final class LineChunk: @unchecked Sendable {
  // @unchecked: a chunk is written by one thread (the validator, or a scanner's builder) and
  // only then read by another; each user hands it over before the other reads it.
  private(set) var bytes: UnsafeMutablePointer<UInt8>
  private(set) var capacity: Int
  /// Bytes held.
  var count = 0
  /// The complete lines end here (just after the last newline).
  var cut = 0
  /// For each validated line: where its body ends (the `}` written over the `,` before `h`),
  /// where its newline is, and for an event, what the JSON check may skip.
  var lines: [(bodyEnd: Int, lineEnd: Int, prefix: EventPrefix?)] = []
  /// Each event line's span, when the chunk keeps them (`keepsSpans`): for a reader that hands
  /// the events out as `LogScanner` does. A loop takes it as a local and puts it back.
  var spans: RawList<EventSpan>
  /// Whether the validator records `spans`.
  let keepsSpans: Bool

  init(capacity: Int, keepsSpans: Bool = false) {
    self.capacity = capacity
    self.keepsSpans = keepsSpans
    bytes = .allocate(capacity: capacity)
    spans = RawList(capacity: keepsSpans ? 1_024 : 1)
    lines.reserveCapacity(Self.linesMax(bytes: capacity))
  }

  /// The most lines `bytes` can hold: each has at least its `,"h":"…"}` and a newline.
  static func linesMax(bytes: Int) -> Int { bytes / (LogReader.suffixCount + 1) + 1 }

  /// A line's recorded digest (the 64 hex digits of its `h`) starts this far after its body's
  /// end: past the `}` written over the comma, and `"h":"`.
  static let digestAfterBody = 6

  /// The recorded digest of the last line; nil when there is none.
  var lastDigest: UnsafePointer<UInt8>? {
    lines.last.map { UnsafePointer(bytes + $0.bodyEnd + Self.digestAfterBody) }
  }

  deinit {
    bytes.deallocate()
    spans.deallocate()
  }

  /// Makes room for at least `needed` bytes, keeping the first `count`.
  func reserve(_ needed: Int) {
    guard needed > capacity else { return }
    (bytes, capacity) = RawStorage.grown(bytes, keeping: count, capacity: capacity, needed: needed)
  }

  /// Empties the chunk for filling again, its room kept.
  func empty() {
    count = 0
    cut = 0
    lines.removeAll(keepingCapacity: true)
    spans.removeAll()
  }
}

/// An event line as `LogScanner` hands it out, within its chunk: where its body starts and
/// ends (its `}` is at `end`), where its kind's text starts in the body (-1: not read), and
/// its `seq` and `t`. Offsets fit: a chunk holds at most a few lines of `LogLimits.lineBytesMax`
/// past its capacity, far below 2^31.
struct EventSpan {
  var start: Int32
  var end: Int32
  var kindStart: Int32
  var seq: Int64
  var t: Int64

  init(start: Int, end: Int, kindStart: Int?, seq: Int64, t: Int64) {
    self.start = Int32(start)
    self.end = Int32(end)
    self.kindStart = kindStart.map { Int32($0) } ?? -1
    self.seq = seq
    self.t = t
  }
}
