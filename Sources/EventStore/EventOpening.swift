import JSON

/// Writes the opening of event lines that come in order, `{"seq":N,"t":T,"kind":"K"`, on the
/// log thread of `BackgroundLogWriter` (the writer of runs). The next `seq` is kept as its
/// digits and counted up in place, and the time's digits are kept until the time changes
/// (most events share their time with the one before). Writing both as integers was a sixth
/// of the instructions of `run`'s main thread. The bytes are `LineBuilder.encodeEvent`'s:
/// `BackgroundLogWriterTests` holds the background writer to the synchronous one's bytes
/// across seq and time of many digit counts. `replay --verify` writes the events it re-runs
/// with one too, to compare them with the recording.
package struct EventOpening {
  /// `{"seq":N,"t":T` of the next event: N counted up in place, T rewritten when the time changes.
  private var prefix: [UInt8]
  /// Where N's digits end in `prefix`.
  private var seqEnd: Int
  private var time: Int64
  private static let seqStart = 7  // after `{"seq":`

  /// The longest opening: `{"seq":`, `,"t":`, `,"kind":"` and `"` around two integers of
  /// `LogLimits.integerDigitsMax` digits and the longest kind.
  static let bytesMax = 22 + 2 * LogLimits.integerDigitsMax + 12

  /// For a log whose last event has `lastSeq` (0: none yet) and time `lastTime`.
  package init(lastSeq: Int64, lastTime: Int64) {
    precondition(lastSeq >= 0 && lastTime >= 0, "a log's seq and time are never negative")
    prefix = Array(#"{"seq":"#.utf8) + Array(String(lastSeq + 1).utf8)
    seqEnd = prefix.count
    time = lastTime
    prefix += Array(#","t":"#.utf8) + Array(String(lastTime).utf8)
  }

  /// Writes the opening of the event after the last one taken, at time `t`: `seq` and `t` and
  /// `kind`, as bytes between complete values (the object's fields and brace follow).
  package mutating func write(into w: inout CanonicalJSONWriter, t: Int64, kind: EventKind) {
    if t != time {
      precondition(t >= 0, "a log's time is never negative")
      time = t
      prefix.removeSubrange((seqEnd + 5)...)  // keeps `,"t":`
      prefix.append(contentsOf: String(t).utf8)
    }
    prefix.withUnsafeBytes { w.verbatim($0) }
    w.verbatim(kind.openingTail)
  }

  /// The event written last was taken: the next one has the following `seq`.
  package mutating func taken() {
    var i = seqEnd - 1
    while i >= Self.seqStart, prefix[i] == UInt8(ascii: "9") {
      prefix[i] = UInt8(ascii: "0")
      i -= 1
    }
    if i >= Self.seqStart {
      prefix[i] += 1
    } else {
      prefix.insert(UInt8(ascii: "1"), at: Self.seqStart)
      seqEnd += 1
    }
  }

  /// The length of the opening `write` gives an event `seq` at `t` of `kind`, in bytes.
  static func bytes(seq: Int64, t: Int64, kind: EventKind) -> Int {
    22 + decimalDigits(seq) + decimalDigits(t) + kind.name.utf8CodeUnitCount
  }

  private static func decimalDigits(_ n: Int64) -> Int {
    precondition(n >= 0, "a log's seq and time are never negative")
    var digits = 1, rest = n
    while rest >= 10 { digits += 1; rest /= 10 }
    return digits
  }
}

/// How `BackgroundLogWriter` hands an event to its log thread: the event's time and kind as
/// `headerBytes` of binary, then its fields as canonical JSON (each after its comma, then the
/// closing brace), then a newline. Canonical JSON holds no newline, and the header is of fixed
/// length, so the newline after it ends the event. The log thread writes the opening
/// (`EventOpening`) in the header's place, so the caller's thread, which sets the pace of a
/// run, no longer spends a tenth of its time on digits.
enum EventFrame {
  /// The time, 8 bytes little-endian, then the kind's code, 1 byte.
  static let headerBytes = 9

  /// Writes the header of an event at `t` of `kind`, and opens the object for its fields.
  static func begin(t: Int64, kind: EventKind, into w: inout CanonicalJSONWriter) {
    let header = (t.littleEndian, kind.code)
    withUnsafeBytes(of: header) { w.verbatim(UnsafeRawBufferPointer(rebasing: $0[0..<headerBytes])) }
    w.continueObject()
  }

  /// The time and kind of the header at `header` (its `headerBytes` written by `begin`).
  static func read(_ header: UnsafeRawPointer) -> (t: Int64, kind: EventKind) {
    let t = Int64(littleEndian: header.loadUnaligned(as: Int64.self))
    guard let kind = EventKind(code: header.load(fromByteOffset: 8, as: UInt8.self)) else {
      preconditionFailure("a batch holds an event of no kind")
    }
    return (t, kind)
  }
}

extension EventKind {
  /// The end of an event's opening, `,"kind":"K"`: a literal for each kind.
  var openingTail: StaticString {
    switch self {
    case .input: return #","kind":"input""#
    case .transition: return #","kind":"transition""#
    case .callback: return #","kind":"callback""#
    case .return: return #","kind":"return""#
    case .call: return #","kind":"call""#
    case .notification: return #","kind":"notification""#
    case .system: return #","kind":"system""#
    case .crash: return #","kind":"crash""#
    case .expect: return #","kind":"expect""#
    case .note: return #","kind":"note""#
    }
  }

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

  /// The kind in an `EventFrame` header: its place in `allCases` (a test holds the two to each other).
  var code: UInt8 {
    switch self {
    case .input: return 0
    case .transition: return 1
    case .callback: return 2
    case .return: return 3
    case .call: return 4
    case .notification: return 5
    case .system: return 6
    case .crash: return 7
    case .expect: return 8
    case .note: return 9
    }
  }

  /// The kind whose `code` is `code`, if any.
  init?(code: UInt8) {
    switch code {
    case 0: self = .input
    case 1: self = .transition
    case 2: self = .callback
    case 3: self = .return
    case 4: self = .call
    case 5: self = .notification
    case 6: self = .system
    case 7: self = .crash
    case 8: self = .expect
    case 9: self = .note
    default: return nil
    }
  }
}
