import JSON

/// Writes the opening of event lines that come in order, `{"seq":N,"t":T,"kind":"K"`, for
/// `BackgroundLogWriter` (the writer of runs). The next `seq` is kept as its digits and counted up in place, and
/// the time's digits are kept until the time changes (most events share their time with the
/// one before). Writing both as integers was a sixth of the instructions of `run`'s main
/// thread. The bytes are `LineBuilder.encodeEvent`'s: `BackgroundLogWriterTests` holds the
/// background writer to the synchronous one's bytes across seq and time of many digit counts.
struct EventOpening {
  /// The decimal digits of the next `seq`, most significant first.
  private var seqDigits: [UInt8]
  private var time: Int64
  /// The decimal digits of `time`.
  private var timeDigits: [UInt8]

  /// For a log whose last event has `lastSeq` (0: none yet) and time `lastTime`.
  init(lastSeq: Int64, lastTime: Int64) {
    precondition(lastSeq >= 0 && lastTime >= 0, "a log's seq and time are never negative")
    seqDigits = Array(String(lastSeq + 1).utf8)
    time = lastTime
    timeDigits = Array(String(lastTime).utf8)
  }

  /// Writes the opening of the event after the last one taken, at time `t`: `seq` and `t` and
  /// `kind`, the object left open for the event's fields.
  mutating func write(into w: inout CanonicalJSONWriter, t: Int64, kind: EventKind) {
    if t != time {
      precondition(t >= 0, "a log's time is never negative")
      time = t
      timeDigits.removeAll(keepingCapacity: true)
      timeDigits.append(contentsOf: String(t).utf8)
    }
    w.beginObject()
    seqDigits.withUnsafeBytes { w.field("seq", digits: $0) }
    timeDigits.withUnsafeBytes { w.field("t", digits: $0) }
    w.field("kind", literal: kind.name)
  }

  /// The event written last was taken: the next one has the following `seq`.
  mutating func taken() {
    var i = seqDigits.count - 1
    while i >= 0, seqDigits[i] == UInt8(ascii: "9") {
      seqDigits[i] = UInt8(ascii: "0")
      i -= 1
    }
    if i >= 0 { seqDigits[i] += 1 } else { seqDigits.insert(UInt8(ascii: "1"), at: 0) }
  }
}

extension EventKind {
  /// The kind as it is written in the log, a literal (its raw value).
  var name: StaticString {
    switch self {
    case .input: return "input"
    case .transition: return "transition"
    case .callback: return "callback"
    case .return: return "return"
    case .call: return "call"
    case .notification: return "notification"
    case .system: return "system"
    case .crash: return "crash"
    case .expect: return "expect"
    case .note: return "note"
    }
  }
}
