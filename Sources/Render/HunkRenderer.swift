import EventStore
import JSON
import Lifecycle
import RunComparison

/// A diff hunk as `diff` prints it: each event as its trace shows it, plus what the trace hides.
/// A removed and an added event whose trace lines read the same get the fields that differ
/// appended (`[handled: false]` / `[handled: true]`), and a hunk whose events mostly reappear
/// on the other side at other times is noted as a time shift.
package struct HunkRenderer {
  /// An event of log `path` that cannot be shown (it is no lifesim event), named with its log.
  package struct Unreadable: Error, CustomStringConvertible { package let description: String }

  /// The logs' paths, which a message about an event that cannot be read names.
  private let paths: (a: String, b: String)
  private var trace = (a: TraceFormatter(), b: TraceFormatter())
  private var cache = TraceLineCache()
  private var pairNotes = PairNoteCache()
  private var templates = HunkTemplates()
  /// Whether the caches above are used; without them each line is formatted and each note
  /// computed on its own (the reference the tests hold the caches to).
  private let caching: Bool
  /// The hunk most of whose removed events reappear in B at another time: its first event in A,
  /// how many reappear, and how many were removed. The largest such hunk.
  private(set) var timeShift: (aStart: Int64, shifted: Int, removed: Int)?
  /// The same counts over the pieces so far of a hunk handed out in pieces, while it goes on.
  private var piecesSoFar: (aStart: Int64, shifted: Int, removed: Int)?

  package init(a: String, b: String, caching: Bool = true) {
    paths = (a, b)
    self.caching = caching
  }

  /// Hunks smaller than this are not called a time shift.
  package static let smallestShift = 3

  /// The hunk's lines, one a line (no newline after the last), in UTF-8: a hunk from a template
  /// is assembled as bytes, and making a String of them would check them all once more.
  package mutating func utf8(_ hunk: EventDiffer.Hunk) throws -> [UInt8] {
    let removedCount = hunk.lines.reduce(0) { $0 + ($1.side == .removed ? 1 : 0) }
    // A hunk that may note a time shift is rendered in full; another may match a template.
    let inPieces = hunk.continued || piecesSoFar != nil
    let shape = caching && removedCount < Self.smallestShift && !inPieces ? HunkTemplates.Shape(hunk) : nil
    let times = shape.map { $0.times.map { cache.time($0) } }
    if let shape, let times, let bytes = templates.utf8(hunk, shape, times: times, trace: &trace) { return bytes }
    return Array(try text(hunk, shape: shape, times: times).utf8)
  }

  /// The hunk's lines rendered one by one (kept as a template when `shape` allows).
  private mutating func text(_ hunk: EventDiffer.Hunk, shape: HunkTemplates.Shape?, times: [String]?) throws -> String {
    let removed = hunk.lines.indices.filter { hunk.lines[$0].side == .removed }
    let added = hunk.lines.indices.filter { hunk.lines[$0].side == .added }
    let before = trace
    var texts: [String] = []
    texts.reserveCapacity(hunk.lines.count)
    var timed = true
    for line in hunk.lines {
      let (text, lineTimed): (String, Bool)
      do {
        switch (line.side, caching) {
        case (.same, true), (.removed, true): (text, lineTimed) = try cache.text(of: line, formatter: &trace.a)
        case (.added, true): (text, lineTimed) = try cache.text(of: line, formatter: &trace.b)
        case (.same, false), (.removed, false): (text, lineTimed) = (try TraceLineCache.plainText(of: line, formatter: &trace.a), false)
        case (.added, false): (text, lineTimed) = (try TraceLineCache.plainText(of: line, formatter: &trace.b), false)
        }
      } catch { throw Unreadable(description: "\(line.side == .added ? paths.b : paths.a): \(error)") }
      texts.append(text)
      timed = timed && lineTimed
    }
    // Every member, for the events that differ only, parsed when a note needs them.
    var members: [Int: [(String, JSONValue)]] = [:]
    func membersOf(_ i: Int) -> [(String, JSONValue)] {
      if let known = members[i] { return known }
      let parsed = (try? JSONParser.parse(hunk.lines[i].body))?.objectValue ?? []
      members[i] = parsed
      return parsed
    }
    var notes: [Int: String] = [:]
    for (r, a) in LinePairing.pairs(removed: removed, added: added, key: { texts[$0] }) {
      let (noteR, noteA) = caching ? pairNotes.notes(hunk.lines[r].body, hunk.lines[a].body) { Self.differingFields(membersOf(r), membersOf(a)) }
        : Self.differingFields(membersOf(r), membersOf(a))
      notes[r] = noteR
      notes[a] = noteA
    }
    if removed.count >= Self.smallestShift || hunk.continued || piecesSoFar != nil {
      noteTimeShift(hunk, removed: removed.map(membersOf), added: added.map(membersOf))
    }
    var out = ""
    out.reserveCapacity(texts.reduce(0) { $0 + $1.utf8.count + 3 })
    var cuts: [(at: Int, timeBytes: Int)] = []  // where each line's time starts, while every line's can be cut out
    for i in hunk.lines.indices {
      if i > 0 { out += "\n" }
      let note = Self.bracketed(notes[i])
      let start: Int? = switch hunk.lines[i].side {
      case .same: Self.append("  ", texts[i], note, code: nil, to: &out)
      case .removed: Self.append("- ", texts[i], note, code: "31", to: &out)
      case .added: Self.append("+ ", texts[i], note, code: "32", to: &out)
      }
      if let start, let times { cuts.append((start, times[i].utf8.count)) } else { timed = false }
    }
    if let shape, timed { templates.remember(hunk, shape, before: before, after: trace, text: out, cuts: cuts) }
    return out
  }

  /// Appends `marker`, `text` and `note` to `out`, painted when `code` is given; where `text`
  /// starts in `out` (UTF-8 bytes), unless painting does not wrap the line whole.
  private static func append(_ marker: String, _ text: String, _ note: String, code: String?, to out: inout String) -> Int? {
    guard let code else {
      out += marker
      let start = out.utf8.count
      out += text
      out += note
      return start
    }
    let line = marker + text + note
    let painted = TerminalColour.paint(line, code)
    let start = out.utf8.count
    out += painted
    let wrap = TerminalColour.paint("\u{0}", code).split(separator: "\u{0}", omittingEmptySubsequences: false)
    guard wrap.count == 2, painted == wrap[0] + line + wrap[1] else { return nil }
    return start + wrap[0].utf8.count + marker.utf8.count
  }

  /// `@@ -aStart,aCount +bStart,bCount @@`, as `diff -u` heads a hunk, in UTF-8 (formatted by
  /// hand: interpolating four numbers cost as much as the rest of printing a hunk), then the
  /// scenes its removed and added events belong to, as `git diff` names a function there:
  /// `@@ -63,7 +63,7 @@ Scene#1, Scene#2` (by number; nothing when they belong to none).
  package static func header(_ hunk: EventDiffer.Hunk) -> [UInt8] {
    let scenes = Set(hunk.lines.compactMap { $0.side == .same ? nil : $0.scene.flatMap(SceneID.init(label:)) })
    let range = ASCIIWriter.bytes(capacity: 96) { out in
      out.put("@@ -")
      out.putDecimal(hunk.aStart)
      out.put(",")
      out.putDecimal(hunk.aCount)
      out.put(" +")
      out.putDecimal(hunk.bStart)
      out.put(",")
      out.putDecimal(hunk.bCount)
      out.put(" @@")
    }
    guard !scenes.isEmpty else { return range }
    return range + Array((" " + scenes.sorted().map(\.description).joined(separator: ", ")).utf8)
  }

  /// The note `diff` prints after the hunks, if a time shift made one.
  package var timeShiftNote: String? {
    timeShift.map { s in
      "Note: from event \(s.aStart) of A, \(s.shifted) of the \(s.removed) events that differ appear in B at other times (a time shift); --ignore-time compares events without their time."
    }
  }

  /// A note as a line ends with it, `  [handled: false]`; nothing for no note, or an empty one
  /// (events that only moved differ in nothing a note shows).
  package static func bracketed(_ note: String?) -> String {
    guard let note, !note.isEmpty else { return "" }
    return "  [\(TerminalText.visible(note))]"
  }

  /// The members that differ, other than `seq` and the script line `at`, as `name: value, …` for each side.
  package static func differingFields(_ a: [(String, JSONValue)], _ b: [(String, JSONValue)]) -> (String, String) {
    let names = (a.map(\.0) + b.map(\.0).filter { name in !a.contains { $0.0 == name } }).filter { $0 != "seq" && $0 != "at" }
    var left: [String] = [], right: [String] = []
    for name in names {
      let x = a.first { $0.0 == name }?.1, y = b.first { $0.0 == name }?.1
      guard x != y else { continue }
      left.append("\(name): \(x?.canonicalText ?? "none")")
      right.append("\(name): \(y?.canonicalText ?? "none")")
    }
    return (left.joined(separator: ", "), right.joined(separator: ", "))
  }

  /// Counts the removed events that reappear among the added ones once time is set aside.
  private mutating func noteTimeShift(_ hunk: EventDiffer.Hunk, removed: [[(String, JSONValue)]], added: [[(String, JSONValue)]]) {
    func timeless(_ m: [(String, JSONValue)]) -> String {
      JSONValue.object(m.filter { $0.0 != "seq" && $0.0 != "t" && $0.0 != "at" }).canonicalText
    }
    func timed(_ m: [(String, JSONValue)]) -> String {
      JSONValue.object(m.filter { $0.0 != "seq" && $0.0 != "at" }).canonicalText
    }
    var pool: [String: Int] = [:], samePool: [String: Int] = [:]
    for m in added {
      pool[timeless(m), default: 0] += 1
      samePool[timed(m), default: 0] += 1
    }
    var shifted = 0
    for m in removed {
      let key = timeless(m)
      guard let n = pool[key], n > 0 else { continue }
      pool[key] = n - 1
      // The same event at the same time only moved among its neighbours: no time shift.
      if let same = samePool[timed(m)], same > 0 { samePool[timed(m)] = same - 1 } else { shifted += 1 }
    }
    let first = hunk.lines.first { $0.side == .removed }
    let aStart = piecesSoFar?.aStart ?? first.flatMap { try? $0.decoded().seq } ?? hunk.aStart
    let total = (aStart: aStart, shifted: shifted + (piecesSoFar?.shifted ?? 0), removed: removed.count + (piecesSoFar?.removed ?? 0))
    piecesSoFar = hunk.continued ? total : nil
    guard !hunk.continued, total.removed >= Self.smallestShift, total.shifted * 2 >= total.removed,
          total.shifted > (timeShift?.shifted ?? 0) else { return }
    timeShift = total
  }
}

/// Short ASCII texts written into a buffer of known size, without Array's checks a byte.
package struct ASCIIWriter {
  private let base: UnsafeMutablePointer<UInt8>
  private var count = 0

  /// The bytes `write` puts (at most `capacity` of them).
  package static func bytes(capacity: Int, _ write: (inout ASCIIWriter) -> Void) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
      guard let base = buffer.baseAddress else { return }
      var writer = ASCIIWriter(base: base)
      write(&writer)
      precondition(writer.count <= capacity, "ASCIIWriter: more than \(capacity) bytes")
      initialized = writer.count
    }
  }

  private init(base: UnsafeMutablePointer<UInt8>) { self.base = base }

  package mutating func put(_ text: StaticString) {
    (base + count).update(from: text.utf8Start, count: text.utf8CodeUnitCount)
    count += text.utf8CodeUnitCount
  }

  /// `n` in decimal, as `"\(n)"` writes it.
  package mutating func putDecimal(_ n: Int64) {
    if n < 0 { put("-") }
    var m = n.magnitude
    var digits = 1
    var rest = m / 10
    while rest > 0 { digits += 1; rest /= 10 }
    var k = count + digits - 1
    repeat {
      base[k] = UInt8(ascii: "0") + UInt8(m % 10)
      m /= 10
      k -= 1
    } while m > 0
    count += digits
  }

  /// `n` in decimal with zeros before it to make `width` digits.
  package mutating func putDecimal(_ n: Int64, width: Int) {
    var digits = 1
    var rest = n.magnitude / 10
    while rest > 0 { digits += 1; rest /= 10 }
    for _ in digits..<max(width, digits) { put("0") }
    putDecimal(n)
  }

  /// Spaces before what was written since `start`, to make it `width` bytes wide.
  package mutating func padLeft(from start: Int, width: Int) {
    let written = count - start
    let spaces = width - written
    guard spaces > 0 else { return }
    (base + start + spaces).update(from: base + start, count: written)
    (base + start).update(repeating: UInt8(ascii: " "), count: spaces)
    count += spaces
  }
}
