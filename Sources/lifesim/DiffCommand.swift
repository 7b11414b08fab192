import ArgumentParser
import EventStore
import Lifecycle

struct Diff: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Compare two runs event by event: first divergence, hunks, and both outcomes.",
    discussion: """
      Events are compared by kind, name, target and fields, ignoring seq, h and the script
      line (at); with --ignore-time, also ignoring virtual time. The alignment streams with a
      bounded look-ahead window, so memory stays flat on million-event logs.

      Exit status: 0 same, 1 different, 2 trouble (as diff).

      Example:
        lifesim diff notes.lifelog overrun.lifelog --context 5
      """
  )

  @Argument(help: "The first log (-).")
  var a: String

  @Argument(help: "The second log (+).")
  var b: String

  @Option(help: "Unchanged events shown around each hunk.")
  var context: Int = 3

  @Flag(help: "Compare events without their virtual time.")
  var ignoreTime = false

  @Flag(help: "Print hunks and outcomes as JSON.")
  var json = false

  func validate() throws {
    guard (0...1000).contains(context) else { throw ValidationError("--context must be from 0 to 1000") }
  }

  func run() throws {
    defer { Terminal.flush() }
    let ra: LogReader, rb: LogReader
    do {
      ra = try LogReader(path: a, mode: .integrity)
      rb = try LogReader(path: b, mode: .integrity)
    } catch {
      Terminal.error(error.description)
      throw ExitCode(Status.trouble)
    }
    var differ = EventDiffer(context: context, ignoreTime: ignoreTime)
    var trace = (a: TraceFormatter(), b: TraceFormatter())
    var hunks: [JSONValue] = []
    if !json {
      Terminal.write("--- \(a)")
      Terminal.write("+++ \(b)")
    }
    let output: (EventDiffer.Hunk) throws -> Void = { hunk in
      if json {
        hunks.append(hunk.json)
        return
      }
      Terminal.write(Terminal.paint("@@ -\(hunk.aStart),\(hunk.aCount) +\(hunk.bStart),\(hunk.bCount) @@", "36"))
      for line in hunk.lines {
        let event = try line.decoded()
        switch line.side {
        case .same: Terminal.write("  " + trace.a.line(seq: event.seq, event.event))
        case .removed: Terminal.write(Terminal.paint("- " + trace.a.line(seq: event.seq, event.event), "31"))
        case .added: Terminal.write(Terminal.paint("+ " + trace.b.line(seq: event.seq, event.event), "32"))
        }
      }
    }
    do {
      try differ.run(a: ra, b: rb, emit: output)
    } catch {
      Terminal.error("\(error)")
      throw ExitCode(Status.trouble)
    }
    let outcome = OutcomeComparison(a: ra.ending, b: rb.ending)
    if json {
      var members: [(String, JSONValue)] = [("same", .bool(differ.firstDivergence == nil && outcome.same))]
      if let d = differ.firstDivergence {
        members.append(("firstDivergence", .object([("a", .int(d.a)), ("b", .int(d.b)), ("t", .int(d.t))])))
      }
      members.append(("hunks", .array(hunks)))
      members.append(("outcome", outcome.json))
      Terminal.write(JSONValue.object(members).canonicalText)
    } else {
      if let d = differ.firstDivergence {
        Terminal.write("First divergence: event \(d.a) of A, event \(d.b) of B, at t = \(VirtualTime.format(d.t)) s.")
      } else {
        Terminal.write("No difference in the events.")
      }
      Terminal.write(outcome.table(a: a, b: b))
    }
    throw ExitCode(differ.firstDivergence == nil && outcome.same ? Status.ok : Status.failed)
  }
}

/// Aligns two event streams with a bounded look-ahead (a streaming, linear-space diff).
/// Events are compared on their canonical bytes, without `seq` (and `t` with --ignore-time)
/// and without the script line `at`; only the events a hunk prints are decoded.
struct EventDiffer {
  enum Side { case same, removed, added }

  struct Line {
    var side: Side
    var body: [UInt8]

    func decoded() throws -> (seq: Int64, event: Event) {
      guard case let .object(members) = try JSONParser.parse(body), members.count >= 3,
            let seq = members[0].1.intValue, let t = members[1].1.intValue,
            let kind = members[2].1.stringValue.flatMap(EventKind.init(rawValue:)) else {
        throw ValidationError("an event of the log is not a lifesim event")
      }
      return (seq, try Event(LogEvent(seq: seq, t: t, kind: kind, fields: Array(members[3...]))))
    }
  }

  struct Hunk {
    var aStart: Int64, aCount: Int64, bStart: Int64, bCount: Int64
    var lines: [Line]
    var json: JSONValue {
      .object([("a", .array([.int(aStart), .int(aCount)])), ("b", .array([.int(bStart), .int(bCount)])),
               ("lines", .array(lines.map { l in
                 .object([("op", .string(l.side == .same ? " " : l.side == .removed ? "-" : "+")),
                          ("event", (try? JSONParser.parse(l.body)) ?? .null)])
               }))])
    }
  }

  /// Events looked ahead on each side when resynchronising after a difference.
  static let windowEvents = 4096

  let context: Int
  let ignoreTime: Bool
  private(set) var firstDivergence: (a: Int64, b: Int64, t: Int64)?

  init(context: Int, ignoreTime: Bool) {
    self.context = context
    self.ignoreTime = ignoreTime
  }

  private struct Item {
    var body: [UInt8]
    var seq: Int64
    var t: Int64
    var key: ArraySlice<UInt8>
  }

  /// The comparison key: the canonical body from `"t"` (or from `"kind"`), without a trailing `at`.
  private func item(_ body: [UInt8], seq: Int64, t: Int64) -> Item {
    var start = 0
    var commas = ignoreTime ? 2 : 1
    while start < body.count, commas > 0 {
      if body[start] == UInt8(ascii: ",") { commas -= 1 }
      start += 1
    }
    var end = body.count - 1
    let marker = Array(",\"at\":\"".utf8)
    var i = body.count - marker.count - 2
    while i > start {
      if body[i] == marker[0], body[i..<(i + marker.count)].elementsEqual(marker) { end = i; break }
      i -= 1
    }
    return Item(body: body, seq: seq, t: t, key: body[start..<max(start, end)])
  }

  /// Streams both logs; `emit` gets each hunk as soon as it is complete.
  mutating func run(a: LogReader, b: LogReader, emit: (Hunk) throws -> Void) throws {
    var bufA: [Item] = [], bufB: [Item] = []
    var doneA = false, doneB = false
    var progress = Progress("diff")
    defer { progress.finish() }
    func fill(_ buf: inout [Item], _ reader: LogReader, _ done: inout Bool, upTo n: Int) throws {
      while buf.count < n, !done {
        guard let line = try reader.next() else { done = true; break }
        guard case let .event(e) = line else { continue }
        progress.tick()
        buf.append(item(reader.lastBody, seq: e.seq, t: e.t))
      }
    }
    var recent: [Line] = []          // unchanged lines before the next hunk (at most `context`)
    var recentSeq: (a: Int64, b: Int64) = (0, 0)
    var hunk: Hunk?                  // the hunk being built
    var trailing = 0                 // unchanged lines still owed after the hunk
    while true {
      try fill(&bufA, a, &doneA, upTo: 1)
      try fill(&bufB, b, &doneB, upTo: 1)
      if bufA.isEmpty && bufB.isEmpty { break }
      if let x = bufA.first, let y = bufB.first, x.key == y.key {
        let line = Line(side: .same, body: x.body)
        if hunk != nil, trailing > 0 {
          hunk!.lines.append(line); hunk!.aCount += 1; hunk!.bCount += 1
          trailing -= 1
          if trailing == 0 { try emit(hunk!); hunk = nil }
        } else if context > 0 {
          recent.append(line)
          if recent.count > context { recent.removeFirst() }
        }
        recentSeq = (x.seq, y.seq)
        bufA.removeFirst(); bufB.removeFirst()
        continue
      }
      // A difference: look ahead for the nearest point where both streams agree again.
      try fill(&bufA, a, &doneA, upTo: Self.windowEvents)
      try fill(&bufB, b, &doneB, upTo: Self.windowEvents)
      if firstDivergence == nil {
        let t = min(bufA.first?.t ?? Int64.max, bufB.first?.t ?? Int64.max)
        firstDivergence = (bufA.first?.seq ?? recentSeq.a + 1, bufB.first?.seq ?? recentSeq.b + 1, t)
      }
      let (i, j) = resync(bufA, bufB)
      if hunk == nil {
        let n = Int64(recent.count)
        hunk = Hunk(aStart: max(recentSeq.a + 1 - n, 1), aCount: n, bStart: max(recentSeq.b + 1 - n, 1), bCount: n, lines: recent)
        recent.removeAll()
      }
      for item in bufA.prefix(i) { hunk!.lines.append(Line(side: .removed, body: item.body)); hunk!.aCount += 1 }
      for item in bufB.prefix(j) { hunk!.lines.append(Line(side: .added, body: item.body)); hunk!.bCount += 1 }
      if let last = bufA.prefix(i).last { recentSeq.a = last.seq }
      if let last = bufB.prefix(j).last { recentSeq.b = last.seq }
      bufA.removeFirst(i)
      bufB.removeFirst(j)
      trailing = context
      if context == 0 { try emit(hunk!); hunk = nil }
    }
    if let hunk { try emit(hunk) }
  }

  /// The smallest i + j with A[i...] and B[j...] agreeing on the next few events (or the streams end).
  private func resync(_ a: [Item], _ b: [Item]) -> (Int, Int) {
    let run = 3
    func agrees(_ i: Int, _ j: Int) -> Bool {
      var k = 0
      while k < run {
        let ai = i + k, bj = j + k
        if ai >= a.count || bj >= b.count { return ai >= a.count && bj >= b.count }
        if a[ai].key != b[bj].key { return false }
        k += 1
      }
      return true
    }
    // Index B's keys once so the search is linear in the window, not quadratic.
    var positions: [ArraySlice<UInt8>: [Int]] = [:]
    for (j, item) in b.enumerated() { positions[item.key, default: []].append(j) }
    var best: (Int, Int)?
    for i in 0...a.count {
      if let b0 = best, i >= b0.0 + b0.1 { break }
      if i == a.count {
        let cand = (i, b.count)
        if best == nil || cand.0 + cand.1 < best!.0 + best!.1 { best = cand }
        break
      }
      for j in positions[a[i].key] ?? [] {
        if let b0 = best, i + j >= b0.0 + b0.1 { break }
        if agrees(i, j) { best = (i, j); break }
      }
    }
    return best ?? (a.count, b.count)
  }
}

/// The outcome of two runs side by side (from their trailers): final state, kills, expectations, stored data.
struct OutcomeComparison {
  let rows: [(String, String, String)]
  var same: Bool { rows.allSatisfy { $0.1 == $0.2 } }

  init(a: LogEnding?, b: LogEnding?) {
    func outcome(_ e: LogEnding?) -> JSONValue? {
      if case let .complete(trailer) = e { return trailer.outcome }
      return nil
    }
    func cell(_ e: LogEnding?, _ render: (JSONValue) -> String) -> String {
      guard let o = outcome(e) else {
        if case let .cutOff(n) = e { return "cut off after event \(n)" }
        return "unknown"
      }
      return render(o)
    }
    let kills: (JSONValue) -> String = { o in
      let items = (o["terminations"]?.arrayValue ?? []).map { t in
        (t["reason"]?.stringValue ?? "?") + (t["code"]?.stringValue.map { " \($0)" } ?? "")
      }
      return items.isEmpty ? "none" : items.joined(separator: ", ")
    }
    let expectations: (JSONValue) -> String = { o in
      "\(o["expectations"]?["passed"]?.intValue ?? 0) passed, \(o["expectations"]?["failed"]?.intValue ?? 0) failed"
    }
    let stored: (JSONValue) -> String = { o in
      let items = (o["stored"]?.objectValue ?? []).map { "\($0.0) = \($0.1.canonicalText)" }
      return items.isEmpty ? "nothing" : items.joined(separator: ", ")
    }
    let state: (JSONValue) -> String = { o in o["state"]?.stringValue ?? "?" }
    rows = [
      ("final state", cell(a, state), cell(b, state)),
      ("terminations", cell(a, kills), cell(b, kills)),
      ("expectations", cell(a, expectations), cell(b, expectations)),
      ("stored", cell(a, stored), cell(b, stored)),
    ]
  }

  func table(a: String, b: String) -> String {
    let w0 = 14
    let w1 = max(rows.map { $0.1.count }.max() ?? 0, a.count, 10) + 2
    func pad(_ s: String, _ w: Int) -> String { s + String(repeating: " ", count: max(0, w - s.count)) }
    var lines = ["Outcome".padding(w0) + pad("- " + a, w1) + "+ " + b]
    for (name, x, y) in rows { lines.append(pad(name, w0) + pad(x, w1) + y + (x == y ? "" : "   ← differs")) }
    return lines.joined(separator: "\n")
  }

  var json: JSONValue {
    .object(rows.map { ($0.0, .object([("a", .string($0.1)), ("b", .string($0.2))])) })
  }
}

private extension String {
  func padding(_ w: Int) -> String { self + String(repeating: " ", count: max(0, w - count)) }
}
