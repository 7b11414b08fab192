import ArgumentParser
import EventStore
import Lifecycle

#if canImport(Glibc)
import Glibc
#endif

struct Diff: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Compare two runs event by event: first divergence, hunks, and both outcomes.",
    discussion: """
      Events are compared by kind, name, target and fields, ignoring seq, h and the script
      line (at); with --ignore-time, also ignoring virtual time. The alignment streams with a
      bounded look-ahead window, so memory stays flat on million-event logs. Each log's form,
      event sequence and trailer are checked; its hash chain is not (lifesim verify does that).
      What set the runs up differently (iOS, scenes, knobs, seed, scripts) is shown first. Two
      events whose trace lines read the same show the fields that differ ([handled: false]); a
      hunk that is mostly the same events at other times is named a time shift.

      Exit status: 0 same, 1 different, 2 trouble (as diff), including a log whose run stopped
      on a script error (its trailer says so; the diff is printed all the same).

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

  @Flag(help: "JSON Lines: one line a hunk, then a final line with the verdict and both outcomes (docs/json.md).")
  var json = false

  func validate() throws {
    guard (0...1000).contains(context) else { throw ValidationError("--context must be from 0 to 1000") }
  }

  func run() throws {
    defer { Terminal.flush() }
    let ra: LogScanner, rb: LogScanner
    do {
      ra = try LogScanner(path: a)
      rb = try LogScanner(path: b)
    } catch {
      Terminal.error(error.description)
      throw ExitCode(Status.trouble)
    }
    var differ = EventDiffer(context: context, ignoreTime: ignoreTime)
    var renderer = HunkRenderer()
    // Header differences first: they explain the event differences that follow.
    let headers = HeaderComparison(a: ra.header, b: rb.header)
    if json {
      JSONLines.begin("diff")
      if !headers.differences.isEmpty { JSONLines.write(headers.json) }
    } else {
      Terminal.write("--- \(a)")
      Terminal.write("+++ \(b)")
      for line in headers.text { Terminal.write(line) }
    }
    let output: (EventDiffer.Hunk) throws -> Void = { hunk in
      if json {
        JSONLines.write(hunk.json)
        return
      }
      Terminal.write(Terminal.paint("@@ -\(hunk.aStart),\(hunk.aCount) +\(hunk.bStart),\(hunk.bCount) @@", "36"))
      for line in try renderer.lines(hunk) { Terminal.write(line) }
    }
    do {
      try differ.run(a: ra, b: rb, emit: output)
    } catch {
      Terminal.error("\(error)")
      throw ExitCode(Status.trouble)
    }
    let outcome = OutcomeComparison(a: ra.ending, b: rb.ending)
    // A log of a run that stopped on a script error is trouble, as replaying it is.
    let recordedErrors = [(a, ra.ending?.scriptError), (b, rb.ending?.scriptError)].compactMap { path, error in
      error.map { "\(path): the recorded run stopped on a script error: \($0)" }
    }
    let status = !recordedErrors.isEmpty ? Status.trouble
      : differ.firstDivergence == nil && outcome.same ? Status.ok : Status.failed
    if json {
      var members: [(String, JSONValue)] = [("same", .bool(differ.firstDivergence == nil && outcome.same))]
      members.append(("firstDivergence", differ.firstDivergence.map { d in
        .object([("a", .int(d.aSeq)), ("b", .int(d.bSeq)), ("t", .int(d.t)),
                 ("aEvent", d.a.flatMap { try? JSONParser.parse($0.body) } ?? .null),
                 ("bEvent", d.b.flatMap { try? JSONParser.parse($0.body) } ?? .null)])
      } ?? .null))
      members.append(("outcomes", outcome.json))
      JSONLines.end(status: status, members)
    } else {
      if !ignoreTime, let note = renderer.timeShiftNote { Terminal.write(note) }
      if let d = differ.firstDivergence {
        Terminal.write("First divergence: event \(d.aSeq) of A, event \(d.bSeq) of B, at t = \(VirtualTime.format(d.t)) s.")
        // What each run did there, as its trace shows it, and which script line did it.
        let sides = [("A", d.a), ("B", d.b)].map { side, line in
          var trace = TraceFormatter()
          let decoded = try? line.map { try $0.decoded() }
          let text = decoded.flatMap { $0 }.map { trace.line(seq: $0.seq, $0.event).trimmingLeadingSpaces }
          let object = line.flatMap { try? JSONParser.parse($0.body) }
          return (side: side, text: text, object: object)
        }
        // Two lines that read the same: say which fields differ.
        let notes = sides[0].text != nil && sides[0].text == sides[1].text
          ? HunkRenderer.differingFields(sides[0].object?.objectValue ?? [], sides[1].object?.objectValue ?? []) : nil
        for (i, side) in sides.enumerated() {
          let source = side.object?["at"]?.stringValue.flatMap { side.text?.contains($0) == true ? nil : $0 }  // inputs show it already
          let note = notes.map { i == 0 ? $0.0 : $0.1 }.map { "  [\($0)]" } ?? ""
          Terminal.write("  \(side.side): " + (side.text ?? "(the run ends here)") + note + (source.map { "  (\($0))" } ?? ""))
        }
      } else {
        Terminal.write("No difference in the events.")
      }
      Terminal.write(outcome.table(a: a, b: b))
    }
    for error in recordedErrors { Terminal.error(error) }
    throw ExitCode(status)
  }
}

/// Aligns two event streams with a bounded look-ahead (a streaming, linear-space diff).
/// Events are compared on their canonical bytes, without `seq` (and `t` with --ignore-time)
/// and without the script line `at`. While the two runs agree, lines are compared in place
/// as the scanners hand them out; only differing events are copied, and only the events a
/// hunk prints are decoded.
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
      .object([("kind", .string("hunk")),
               ("a", .object([("start", .int(aStart)), ("count", .int(aCount))])),
               ("b", .object([("start", .int(bStart)), ("count", .int(bCount))])),
               ("lines", .array(lines.map { l in
                 .object([("op", .string(l.side == .same ? " " : l.side == .removed ? "-" : "+")),
                          ("event", (try? JSONParser.parse(l.body)) ?? .null)])
               }))])
    }
  }

  /// Where the runs first part: each side's first differing event (nil: that run ended there).
  struct Divergence {
    var a: Line?, b: Line?
    var aSeq: Int64, bSeq: Int64
    var t: Int64
  }

  /// Events looked ahead on each side when resynchronising after a difference.
  static let windowEvents = 4096

  let context: Int
  let ignoreTime: Bool
  private(set) var firstDivergence: Divergence?

  init(context: Int, ignoreTime: Bool) {
    self.context = context
    self.ignoreTime = ignoreTime
  }

  private struct Item {
    var body: [UInt8]
    var seq: Int64
    var t: Int64
    var key: Range<Int>
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
    let key = body.withUnsafeBytes { keyRange($0, hasBrace: true) }
    return Item(body: body, seq: e.seq, t: e.t, key: key)
  }

  /// The next event of `scanner`; a damaged line is trouble naming the file.
  private func next(_ scanner: LogScanner) throws -> LogScanner.EventLine? {
    do { return try scanner.next() } catch { throw ValidationError("\(scanner.path): \(error)") }
  }

  /// Streams both logs; `emit` gets each hunk as soon as it is complete.
  mutating func run(a: LogScanner, b: LogScanner, emit: (Hunk) throws -> Void) throws {
    var bufA: [Item] = [], bufB: [Item] = []
    var doneA = false, doneB = false
    var progress = Progress("diff")
    defer { progress.finish() }
    func fill(_ buf: inout [Item], _ scanner: LogScanner, _ done: inout Bool, upTo n: Int) throws {
      while buf.count < n, !done {
        guard let e = try next(scanner) else { done = true; break }
        progress.tick()
        buf.append(item(e))
      }
    }
    var recent = RecentBodies(size: context)  // unchanged lines before the next hunk
    var recentSeq: (a: Int64, b: Int64) = (0, 0)
    var hunk: Hunk?                  // the hunk being built
    var trailing = 0                 // unchanged lines still owed after the hunk
    func same(_ body: UnsafeRawBufferPointer, hasBrace: Bool) throws {
      if hunk != nil, trailing > 0 {
        var copy = [UInt8](body)
        if !hasBrace { copy.append(UInt8(ascii: "}")) }
        hunk!.lines.append(Line(side: .same, body: copy)); hunk!.aCount += 1; hunk!.bCount += 1
        trailing -= 1
        if trailing == 0 { try emit(hunk!); hunk = nil }
      } else {
        recent.push(body, closingBrace: !hasBrace)
      }
    }
    while true {
      // While both windows are empty the runs agree so far: compare the next lines in place.
      if bufA.isEmpty, bufB.isEmpty {
        let x = doneA ? nil : try next(a)
        if x == nil { doneA = true } else { progress.tick() }
        let y = doneB ? nil : try next(b)
        if y == nil { doneB = true } else { progress.tick() }
        if let x, let y {
          let kx = keyRange(x.bodyWithoutBrace, hasBrace: false), ky = keyRange(y.bodyWithoutBrace, hasBrace: false)
          if kx.count == ky.count,
             memcmp(x.bodyWithoutBrace.baseAddress! + kx.lowerBound, y.bodyWithoutBrace.baseAddress! + ky.lowerBound, kx.count) == 0 {
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
      var found: (Int, Int)?
      while found == nil {
        try fill(&bufA, a, &doneA, upTo: window)
        try fill(&bufB, b, &doneB, upTo: window)
        found = resync(bufA, bufB, aDone: doneA, bDone: doneB, final: window >= Self.windowEvents)
        window = min(window * 4, Self.windowEvents)
      }
      let (i, j) = found!
      if firstDivergence == nil {
        let t = min(bufA.first?.t ?? Int64.max, bufB.first?.t ?? Int64.max)
        firstDivergence = Divergence(
          a: bufA.first.map { Line(side: .removed, body: $0.body) }, b: bufB.first.map { Line(side: .added, body: $0.body) },
          aSeq: bufA.first?.seq ?? recentSeq.a + 1, bSeq: bufB.first?.seq ?? recentSeq.b + 1, t: t)
      }
      if hunk == nil {
        let lines = recent.drain().map { Line(side: .same, body: $0) }
        let n = Int64(lines.count)
        hunk = Hunk(aStart: max(recentSeq.a + 1 - n, 1), aCount: n, bStart: max(recentSeq.b + 1 - n, 1), bCount: n, lines: lines)
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

  /// Events that must agree after a difference for the runs to count as realigned.
  static let agreeingRun = 3

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
    // Index B's keys once so the search is linear in the window, not quadratic.
    var positions: [ArraySlice<UInt8>: [Int]] = [:]
    for (j, item) in b.enumerated() { positions[item.body[item.key], default: []].append(j) }
    var best: (Int, Int)?
    if aDone && bDone { best = (a.count, b.count) }  // everything left differs
    for i in 0..<a.count {
      if let b0 = best, i >= b0.0 + b0.1 { break }
      for j in positions[a[i].body[a[i].key]] ?? [] {
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

/// The outcome of two runs side by side (from their trailers): final state, kills, expectations,
/// stored data, and the script error that stopped a run.
struct OutcomeComparison {
  let rows: [(String, String, String)]
  var same: Bool { rows.allSatisfy { $0.1 == $0.2 } }
  /// Each log's ending (nil: unknown).
  let a: LogEnding?, b: LogEnding?
  /// The key in `json`'s `differs` of each row.
  private static let keys = ["state", "terminations", "expectations", "stored", "error"]

  init(a: LogEnding?, b: LogEnding?) {
    self.a = a
    self.b = b
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
      let items = (o["stored"]?.objectValue ?? []).map { "\($0.0) = \(OutcomeText.abbreviated($0.1))" }
      return items.isEmpty ? "nothing" : items.joined(separator: ", ")
    }
    let state: (JSONValue) -> String = { o in o["state"]?.stringValue ?? "?" }
    let scriptError: (JSONValue) -> String = { o in o["error"]?.stringValue ?? "none" }
    rows = [
      ("final state", cell(a, state), cell(b, state)),
      ("terminations", cell(a, kills), cell(b, kills)),
      ("expectations", cell(a, expectations), cell(b, expectations)),
      ("stored", cell(a, stored), cell(b, stored)),
      ("script error", cell(a, scriptError), cell(b, scriptError)),
    ]
  }

  func table(a: String, b: String) -> String {
    let w0 = 14
    let w1 = max(rows.map { $0.1.count }.max() ?? 0, a.count + 2, 10) + 2  // a + its "- "
    func pad(_ s: String, _ w: Int) -> String { s + String(repeating: " ", count: max(0, w - s.count)) }
    var lines = ["Outcome".padding(w0) + pad("- " + a, w1) + "+ " + b]
    for (name, x, y) in rows { lines.append(pad(name, w0) + pad(x, w1) + y + (x == y ? "" : "   ← differs")) }
    return lines.joined(separator: "\n")
  }

  /// Both outcomes as the trailers hold them, and which parts differ.
  var json: JSONValue {
    func side(_ ending: LogEnding?) -> JSONValue {
      switch ending {
      case let .complete(trailer):
        return .object([("complete", .bool(true)), ("events", .int(trailer.events)), ("outcome", trailer.outcome)])
      case let .cutOff(n): return .object([("complete", .bool(false)), ("cutOffAfter", .int(n))])
      case nil: return .null
      }
    }
    let differs = zip(Self.keys, rows).filter { $0.1.1 != $0.1.2 }.map { JSONValue.string($0.0) }
    return .object([("a", side(a)), ("b", side(b)), ("differs", .array(differs))])
  }
}

private extension String {
  func padding(_ w: Int) -> String { self + String(repeating: " ", count: max(0, w - count)) }
  var trimmingLeadingSpaces: String { String(drop { $0 == " " }) }
}
