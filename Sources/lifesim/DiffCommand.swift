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
      ra = try LogReader(path: a)
      rb = try LogReader(path: b)
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
    let output: (EventDiffer.Hunk) -> Void = { hunk in
      if json {
        hunks.append(hunk.json)
        return
      }
      Terminal.write(Terminal.paint("@@ -\(hunk.aStart),\(hunk.aCount) +\(hunk.bStart),\(hunk.bCount) @@", "36"))
      for line in hunk.lines {
        switch line.side {
        case .same: Terminal.write("  " + trace.a.line(seq: line.event.seq, line.decoded))
        case .removed: Terminal.write(Terminal.paint("- " + trace.a.line(seq: line.event.seq, line.decoded), "31"))
        case .added: Terminal.write(Terminal.paint("+ " + trace.b.line(seq: line.event.seq, line.decoded), "32"))
        }
      }
    }
    var stateA = LifecycleState(), stateB = LifecycleState()
    do {
      try differ.run(a: ra, b: rb, foldA: { stateA.evolve($0) }, foldB: { stateB.evolve($0) }, emit: output)
    } catch {
      Terminal.error("\(error)")
      throw ExitCode(Status.trouble)
    }
    let outcome = OutcomeComparison(a: stateA, b: stateB)
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
struct EventDiffer {
  enum Side { case same, removed, added }
  struct Line { var side: Side; var event: LogEvent; var decoded: Event }
  struct Hunk {
    var aStart: Int64, aCount: Int64, bStart: Int64, bCount: Int64
    var lines: [Line]
    var json: JSONValue {
      .object([("a", .array([.int(aStart), .int(aCount)])), ("b", .array([.int(bStart), .int(bCount)])),
               ("lines", .array(lines.map { l in
                 .object([("op", .string(l.side == .same ? " " : l.side == .removed ? "-" : "+")),
                          ("event", (try? JSONParser.parse(l.event.canonicalBody)) ?? .null)])
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
    var event: LogEvent
    var decoded: Event
    var key: [UInt8]
  }

  private func key(_ e: LogEvent) -> [UInt8] {
    var copy = e
    copy.seq = 0
    if ignoreTime { copy.t = 0 }
    copy.fields.removeAll { $0.0 == "at" }
    return copy.canonicalBody
  }

  /// Streams both logs; `emit` gets each hunk as soon as it is complete.
  mutating func run(a: LogReader, b: LogReader, foldA: (Event) -> Void, foldB: (Event) -> Void,
                    emit: (Hunk) -> Void) throws {
    var bufA: [Item] = [], bufB: [Item] = []
    var doneA = false, doneB = false
    func fill(_ buf: inout [Item], _ reader: LogReader, _ done: inout Bool, _ fold: (Event) -> Void, upTo n: Int) throws {
      while buf.count < n, !done {
        guard let line = try reader.next() else { done = true; break }
        guard case let .event(e) = line else { continue }
        let decoded = try Event(e)
        fold(decoded)
        buf.append(Item(event: e, decoded: decoded, key: key(e)))
      }
    }
    var recent: [Line] = []          // unchanged lines before the next hunk (at most `context`)
    var hunk: Hunk?                  // the hunk being built
    var trailing = 0                 // unchanged lines still owed after the hunk
    func closeHunk() {
      if let h = hunk { emit(h) }
      hunk = nil
    }
    while true {
      try fill(&bufA, a, &doneA, foldA, upTo: 1)
      try fill(&bufB, b, &doneB, foldB, upTo: 1)
      if bufA.isEmpty && bufB.isEmpty { break }
      if let x = bufA.first, let y = bufB.first, x.key == y.key {
        let line = Line(side: .same, event: x.event, decoded: x.decoded)
        if hunk != nil, trailing > 0 {
          hunk!.lines.append(line); hunk!.aCount += 1; hunk!.bCount += 1
          trailing -= 1
          if trailing == 0 { closeHunk() }
        } else {
          recent.append(line)
          if recent.count > context { recent.removeFirst() }
        }
        bufA.removeFirst(); bufB.removeFirst()
        continue
      }
      // A difference: look ahead for the nearest point where both streams agree again.
      try fill(&bufA, a, &doneA, foldA, upTo: Self.windowEvents)
      try fill(&bufB, b, &doneB, foldB, upTo: Self.windowEvents)
      if firstDivergence == nil {
        let t = min(bufA.first?.event.t ?? Int64.max, bufB.first?.event.t ?? Int64.max)
        firstDivergence = (bufA.first?.event.seq ?? 0, bufB.first?.event.seq ?? 0, t)
      }
      let (i, j) = resync(bufA, bufB)
      if hunk == nil {
        let aStart = (bufA.first?.event.seq ?? (recent.last?.event.seq ?? 0) + 1) - Int64(recent.count)
        let bStart = (bufB.first?.event.seq ?? (recent.last?.event.seq ?? 0) + 1) - Int64(recent.count)
        hunk = Hunk(aStart: max(aStart, 1), aCount: Int64(recent.count), bStart: max(bStart, 1), bCount: Int64(recent.count), lines: recent)
        recent.removeAll()
      }
      for item in bufA.prefix(i) { hunk!.lines.append(Line(side: .removed, event: item.event, decoded: item.decoded)); hunk!.aCount += 1 }
      for item in bufB.prefix(j) { hunk!.lines.append(Line(side: .added, event: item.event, decoded: item.decoded)); hunk!.bCount += 1 }
      bufA.removeFirst(i)
      bufB.removeFirst(j)
      trailing = context
      if context == 0 { closeHunk() }
    }
    closeHunk()
  }

  /// The smallest i + j with A[i...] and B[j...] agreeing on the next few events (or the stream ends).
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
    var positions: [[UInt8]: [Int]] = [:]
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

/// The outcome of two runs side by side: final state, kills, expectations, stored data.
struct OutcomeComparison {
  let rows: [(String, String, String)]
  var same: Bool { rows.allSatisfy { $0.1 == $0.2 } }

  init(a: LifecycleState, b: LifecycleState) {
    func kills(_ s: LifecycleState) -> String {
      s.terminations.isEmpty ? "none" : s.terminations.map { "\($0.reason.rawValue)\($0.code.map { " \($0)" } ?? "")" }.joined(separator: ", ")
    }
    func stored(_ s: LifecycleState) -> String {
      let items = s.store.keys.sorted().map { "\($0) = \(s.store[$0]!.canonicalText)" }
      return items.isEmpty ? "nothing" : items.joined(separator: ", ")
    }
    rows = [
      ("final state", a.appState.rawValue, b.appState.rawValue),
      ("terminations", kills(a), kills(b)),
      ("expectations", "\(a.expectationsPassed) passed, \(a.expectationsFailed) failed", "\(b.expectationsPassed) passed, \(b.expectationsFailed) failed"),
      ("stored", stored(a), stored(b)),
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
