#if canImport(Glibc)
import Glibc
#endif
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
package struct TraceLineCache {
  private struct Entry {
    var before: TraceFormatter
    var rest: [UInt8]
    var text: String
    var after: TraceFormatter
  }

  /// Entries by a hash of the formatter's state and the event's bytes after `t`.
  private var entries: [Int: [Entry]] = [:]
  private var count = 0
  /// The time last formatted, as the trace prints it: lines of a hunk mostly share it.
  private var lastTime: (t: Int64, text: String)?
  /// Entries at most: a diff of runs that differ everywhere does not keep every event.
  package static let entriesMax = 4096

  private static let usable = _isPOD(TraceFormatter.self)

  package init() {}

  /// The trace line of `line`, formatted by `formatter` (whose state moves on as if it had
  /// formatted it); `timed`: the line is `time(t)`, a space, and a text that does not depend
  /// on `t`.
  package mutating func text(of line: EventDiffer.Body, formatter: inout TraceFormatter) throws -> (text: String, timed: Bool) {
    guard Self.usable, let (t, afterTime) = Self.timeAndRest(line.body) else { return (try Self.plainText(of: line, formatter: &formatter), false) }
    let key = line.body.withUnsafeBytes { body in
      withUnsafeBytes(of: formatter) { CanonicalBody.hash(UnsafeRawBufferPointer(rebasing: body[afterTime...]), seed: CanonicalBody.hash($0)) }
    }
    let before = formatter
    if let entry = entries[key]?.first(where: { Self.sameState($0.before, before) && Self.same($0.rest, line.body, from: afterTime) }) {
      formatter = entry.after
      return (time(t) + " " + entry.text, true)
    }
    let decoded = try line.decoded()
    let full = formatter.line(seq: decoded.seq, decoded.event)
    let prefix = time(t) + " "
    guard decoded.event.t == t, full.hasPrefix(prefix) else { return (full, false) }
    let text = String(full.dropFirst(prefix.count))
    // The same event a microsecond later must read the same after its time.
    var probe = before, later = decoded.event
    later.t = t == Int64.max ? t - 1 : t + 1
    let shifted = probe.line(seq: decoded.seq, later)
    guard shifted == time(later.t) + " " + text, Self.sameState(probe, formatter) else { return (full, false) }
    if count < Self.entriesMax {
      entries[key, default: []].append(Entry(before: before, rest: Array(line.body[afterTime...]), text: text, after: formatter))
      count += 1
    }
    return (full, true)
  }

  /// The trace line of `line`, decoded and formatted afresh: what `text(of:formatter:)` gives
  /// without the cache.
  package static func plainText(of line: EventDiffer.Body, formatter: inout TraceFormatter) throws -> String {
    let decoded = try line.decoded()
    return formatter.line(seq: decoded.seq, decoded.event)
  }

  /// `t` as the trace prints it (right-aligned in 12 columns, dimmed).
  package mutating func time(_ t: Int64) -> String {
    if let last = lastTime, last.t == t { return last.text }
    // VirtualTime.format's text (seconds, a point, six digits), right-aligned, written as bytes:
    // formatting it through Strings cost a tenth of printing a hunk.
    let padded = ASCIIWriter.bytes(capacity: 32) { out in
      if t < 0 { out.put("-") }
      out.putDecimal(Int64(t.magnitude / 1_000_000))
      out.put(".")
      out.putDecimal(Int64(t.magnitude % 1_000_000), width: 6)
      out.padLeft(from: 0, width: 12)
    }
    let text = TerminalColour.paint(String(decoding: padded, as: UTF8.self), "2")
    lastTime = (t, text)
    return text
  }

  /// Whether `rest` is `body` from `start` on.
  package static func same(_ rest: [UInt8], _ body: [UInt8], from start: Int) -> Bool {
    rest.count == body.count - start
      && rest.withUnsafeBytes { x in body.withUnsafeBytes { y in CanonicalBody.samePrefix(x, UnsafeRawBufferPointer(rebasing: y[start...]), count: x.count) } }
  }

  /// Whether two formatters are in the same state (plain data: the same bytes).
  package static func sameState(_ x: TraceFormatter, _ y: TraceFormatter) -> Bool {
    withUnsafeBytes(of: x) { a in withUnsafeBytes(of: y) { b in CanonicalBody.samePrefix(a, b, count: a.count) && a.count == b.count } }
  }

  /// `t` and where the members after it start, from `{"seq":N,"t":T,…`; nil if the body does
  /// not start so (then the line is formatted as is).
  package static func timeAndRest(_ body: [UInt8]) -> (t: Int64, rest: Int)? {
    body.withUnsafeBytes { bytes -> (t: Int64, rest: Int)? in
      guard let base = bytes.baseAddress, let comma = memchr(base, Int32(UInt8(ascii: ",")), bytes.count) else { return nil }
      let count = bytes.count
      func at(_ k: Int) -> UInt8 { base.load(fromByteOffset: k, as: UInt8.self) }
      var i = base.distance(to: UnsafeRawPointer(comma)) + 1
      guard count > i + 4, at(i) == UInt8(ascii: "\""), at(i + 1) == UInt8(ascii: "t"),
            at(i + 2) == UInt8(ascii: "\""), at(i + 3) == UInt8(ascii: ":") else { return nil }
      i += 4
      let negative = at(i) == UInt8(ascii: "-")
      if negative { i += 1 }
      var magnitude: Int64 = 0
      let digitsStart = i
      while i < count, i - digitsStart < 18 {
        let digit = at(i) &- UInt8(ascii: "0")
        guard digit < 10 else { break }
        magnitude = magnitude * 10 + Int64(digit)
        i += 1
      }
      guard i > digitsStart, i < count, at(i) == UInt8(ascii: ",") else { return nil }
      return (negative ? -magnitude : magnitude, i + 1)
    }
  }
}

/// The notes of a removed and an added event whose trace lines read the same (the fields
/// that differ), remembered by both events' bytes after `seq` and `t` when both are at the same
/// time (then no note can name `t`, and nothing else in them changes from cycle to cycle).
package struct PairNoteCache {
  private struct Entry {
    var removed: [UInt8], added: [UInt8]
    var notes: (String, String)
  }

  private var entries: [Int: [Entry]] = [:]
  private var count = 0

  /// The notes of `removed` and `added`, from `compute` the first time.
  package mutating func notes(_ removed: [UInt8], _ added: [UInt8], compute: () -> (String, String)) -> (String, String) {
    guard let r = TraceLineCache.timeAndRest(removed), let a = TraceLineCache.timeAndRest(added), r.t == a.t else {
      return compute()
    }
    let key = removed.withUnsafeBytes { x in
      added.withUnsafeBytes { y in
        CanonicalBody.hash(UnsafeRawBufferPointer(rebasing: y[a.rest...]), seed: CanonicalBody.hash(UnsafeRawBufferPointer(rebasing: x[r.rest...])))
      }
    }
    if let known = entries[key]?.first(where: { TraceLineCache.same($0.removed, removed, from: r.rest) && TraceLineCache.same($0.added, added, from: a.rest) }) {
      return known.notes
    }
    let notes = compute()
    if count < TraceLineCache.entriesMax {
      entries[key, default: []].append(Entry(removed: Array(removed[r.rest...]), added: Array(added[a.rest...]), notes: notes))
      count += 1
    }
    return notes
  }
}
