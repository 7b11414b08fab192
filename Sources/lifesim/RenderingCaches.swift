import Lifecycle
import RunComparison

/// The trace lines of hunk events, remembered by what they show. Two long runs that differ
/// in one handler differ once a cycle, so `diff` prints the same few events over and over at
/// other times; decoding and formatting each again was most of its time.
///
/// A trace line is the event's time, a space, and a text. The text is kept under the event's
/// bytes after `seq` and `t` and the formatter's state before it (the callback depth), with the
/// state the formatter is left in. An event is cached only when that holds for it: its line
/// starts with its time, and the same event at another time gives the same text and state.
/// Without a plain-data formatter (its bytes are then its state), nothing is cached.
struct TraceLineCache {
  private struct Entry {
    var text: String
    var after: TraceFormatter
  }

  private var entries: [BytesKey: Entry] = [:]
  /// The time last formatted, as the trace prints it: lines of a hunk mostly share it.
  private var lastTime: (t: Int64, text: String)?
  /// Entries at most: a diff of runs that differ everywhere does not keep every event.
  static let entriesMax = 4096

  private static let usable = _isPOD(TraceFormatter.self)

  /// The trace line of `line`, formatted by `formatter` (whose state moves on as if it had
  /// formatted it).
  mutating func text(of line: EventDiffer.Line, formatter: inout TraceFormatter) throws -> String {
    guard Self.usable, let (t, afterTime) = Self.timeAndRest(line.body) else { return try format(line, &formatter) }
    var key = withUnsafeBytes(of: formatter) { Array($0) }
    key.append(contentsOf: line.body[afterTime...])
    if let entry = entries[BytesKey(key)] {
      formatter = entry.after
      return time(t) + " " + entry.text
    }
    let before = formatter
    let decoded = try line.decoded()
    let full = formatter.line(seq: decoded.seq, decoded.event)
    let prefix = time(t) + " "
    guard decoded.event.t == t, full.hasPrefix(prefix), entries.count < Self.entriesMax else { return full }
    let text = String(full.dropFirst(prefix.count))
    // The same event a microsecond later must read the same after its time.
    var probe = before, later = decoded.event
    later.t = t == Int64.max ? t - 1 : t + 1
    let shifted = probe.line(seq: decoded.seq, later)
    guard shifted == time(later.t) + " " + text, Self.sameState(probe, formatter) else { return full }
    entries[BytesKey(key)] = Entry(text: text, after: formatter)
    return full
  }

  private func format(_ line: EventDiffer.Line, _ formatter: inout TraceFormatter) throws -> String {
    let decoded = try line.decoded()
    return formatter.line(seq: decoded.seq, decoded.event)
  }

  /// `t` as the trace prints it (right-aligned in 12 columns, dimmed).
  private mutating func time(_ t: Int64) -> String {
    if let last = lastTime, last.t == t { return last.text }
    let digits = VirtualTime.format(t)
    let text = Terminal.paint(String(repeating: " ", count: max(0, 12 - digits.count)) + digits, "2")
    lastTime = (t, text)
    return text
  }

  private static func sameState(_ x: TraceFormatter, _ y: TraceFormatter) -> Bool {
    withUnsafeBytes(of: x) { a in withUnsafeBytes(of: y) { b in a.elementsEqual(b) } }
  }

  /// `t` and where the members after it start, from `{"seq":N,"t":T,…`; nil if the body does
  /// not start so (then the line is formatted as is).
  static func timeAndRest(_ body: [UInt8]) -> (t: Int64, rest: Int)? {
    guard let comma = body.firstIndex(of: UInt8(ascii: ",")) else { return nil }
    let label = Array("\"t\":".utf8)
    var i = comma + 1
    guard body.count > i + label.count, body[i..<(i + label.count)].elementsEqual(label) else { return nil }
    i += label.count
    let negative = body[i] == UInt8(ascii: "-")
    if negative { i += 1 }
    var magnitude: Int64 = 0
    let digitsStart = i
    while i < body.count, body[i] >= UInt8(ascii: "0"), body[i] <= UInt8(ascii: "9"), i - digitsStart < 18 {
      magnitude = magnitude * 10 + Int64(body[i] - UInt8(ascii: "0"))
      i += 1
    }
    guard i > digitsStart, i < body.count, body[i] == UInt8(ascii: ",") else { return nil }
    return (negative ? -magnitude : magnitude, i + 1)
  }
}

/// The notes of a removed and an added event whose trace lines read the same (the fields
/// that differ), remembered by both events' bytes after `seq` and `t` when both are at the same
/// time (then no note can name `t`, and nothing else in them changes from cycle to cycle).
struct PairNoteCache {
  private var entries: [BytesKey: (String, String)] = [:]

  /// The notes of `removed` and `added`, from `compute` the first time.
  mutating func notes(_ removed: [UInt8], _ added: [UInt8], compute: () -> (String, String)) -> (String, String) {
    guard let r = TraceLineCache.timeAndRest(removed), let a = TraceLineCache.timeAndRest(added), r.t == a.t else {
      return compute()
    }
    var key = Array(removed[r.rest...])
    key.append(0x0A)  // never inside a log line: the two bodies cannot run together
    key.append(contentsOf: added[a.rest...])
    if let known = entries[BytesKey(key)] { return known }
    let notes = compute()
    if entries.count < TraceLineCache.entriesMax { entries[BytesKey(key)] = notes }
    return notes
  }
}

/// Bytes as a dictionary key, hashed in one call rather than one byte at a time.
private struct BytesKey: Hashable {
  let bytes: [UInt8]

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  func hash(into hasher: inout Hasher) {
    bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
  }
}
