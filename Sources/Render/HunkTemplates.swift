import RunComparison

/// Hunks rendered from templates. A diff of two runs that differ once a cycle prints the same
/// hunk over and over, only at other times; once a hunk's text is known with each line's time
/// cut out, the same hunk at other times is that text with its times put back.
///
/// A hunk is kept only when every line of it reads as its time then a text that does not
/// depend on the time (as `TraceLineCache` checks), and under the formatters' states before it,
/// each line's side, its time relative to the first line's, and its bytes after `t`: the
/// relative times keep which lines read the same (so which get notes) as they were.
package struct HunkTemplates {
  /// One line of a hunk as a template matches it.
  package struct Shape {
    var times: [Int64]
    /// Where each line's members after `t` start.
    var rests: [Int]

    /// nil when a line's time cannot be read from its bytes.
    init?(_ hunk: EventDiffer.Hunk) {
      guard hunk.lines.count <= HunkTemplates.linesMax else { return nil }
      times = []
      rests = []
      times.reserveCapacity(hunk.lines.count)
      rests.reserveCapacity(hunk.lines.count)
      for line in hunk.lines {
        guard let (t, rest) = TraceLineCache.timeAndRest(line.body) else { return nil }
        times.append(t)
        rests.append(rest)
      }
    }
  }

  private struct Template {
    var before: (a: TraceFormatter, b: TraceFormatter)
    var lines: [(side: EventDiffer.Side, dt: Int64, rest: [UInt8])]
    /// The text around the times, in UTF-8: pieces[0], the first line's time, pieces[1], …
    var pieces: [[UInt8]]
    /// All the pieces' bytes together.
    var piecesBytes: Int
    var after: (a: TraceFormatter, b: TraceFormatter)
  }

  private var templates: [Int: [Template]] = [:]
  private var count = 0
  /// Templates at most, and lines in a template at most: memory stays bounded.
  package static let templatesMax = 1024
  package static let linesMax = 32

  /// The text of `hunk` from a template, in UTF-8, moving the formatters on as rendering it
  /// would; nil if no template matches.
  /// `times`: each line's time as the trace prints it.
  package func utf8(_ hunk: EventDiffer.Hunk, _ shape: Shape, times: [String], trace: inout (a: TraceFormatter, b: TraceFormatter)) -> [UInt8]? {
    let key = Self.key(hunk, shape, trace)
    guard let template = templates[key]?.first(where: { Self.matches($0, hunk, shape, trace) }) else { return nil }
    trace = template.after
    // Assembled as bytes: appending to a String cost more than the copying.
    var out: [UInt8] = []
    out.reserveCapacity(template.piecesBytes + times.reduce(0) { $0 + $1.utf8.count })
    out.append(contentsOf: template.pieces[0])
    for (i, time) in times.enumerated() {
      var time = time
      time.withUTF8 { out.append(contentsOf: $0) }  // the generic append of a UTF8View cost more
      out.append(contentsOf: template.pieces[i + 1])
    }
    return out
  }

  /// Keeps `text` (rendered from `before`) as a template; `cuts` are where each line's time
  /// (`timeBytes` long) starts in it, in UTF-8 bytes.
  package mutating func remember(_ hunk: EventDiffer.Hunk, _ shape: Shape, before: (a: TraceFormatter, b: TraceFormatter),
                         after: (a: TraceFormatter, b: TraceFormatter), text: String, cuts: [(at: Int, timeBytes: Int)]) {
    guard count < Self.templatesMax, cuts.count == hunk.lines.count else { return }
    let bytes = Array(text.utf8)
    var pieces: [[UInt8]] = []
    var from = 0
    for cut in cuts {
      guard cut.at >= from, cut.at + cut.timeBytes <= bytes.count else { return }
      pieces.append(Array(bytes[from..<cut.at]))
      from = cut.at + cut.timeBytes
    }
    pieces.append(Array(bytes[from...]))
    let lines = hunk.lines.indices.map { i in
      (side: hunk.lines[i].side, dt: shape.times[i] &- shape.times[0], rest: Array(hunk.lines[i].body[shape.rests[i]...]))
    }
    templates[Self.key(hunk, shape, before), default: []].append(Template(before: before, lines: lines, pieces: pieces, piecesBytes: bytes.count - cuts.reduce(0) { $0 + $1.timeBytes }, after: after))
    count += 1
  }

  private static func key(_ hunk: EventDiffer.Hunk, _ shape: Shape, _ trace: (a: TraceFormatter, b: TraceFormatter)) -> Int {
    var h = withUnsafeBytes(of: trace.a) { a in withUnsafeBytes(of: trace.b) { b in CanonicalBody.hash(b, seed: CanonicalBody.hash(a)) } }
    for (i, line) in hunk.lines.enumerated() {
      let dt = shape.times[i] &- shape.times[0]
      h = line.body.withUnsafeBytes { body in
        CanonicalBody.hash(UnsafeRawBufferPointer(rebasing: body[shape.rests[i]...]), seed: h ^ Int(truncatingIfNeeded: dt) &* 31 ^ sideNumber(line.side))
      }
    }
    return h
  }

  private static func sideNumber(_ side: EventDiffer.Side) -> Int {
    switch side {
    case .same: 0
    case .removed: 1
    case .added: 2
    }
  }

  private static func matches(_ template: Template, _ hunk: EventDiffer.Hunk, _ shape: Shape,
                              _ trace: (a: TraceFormatter, b: TraceFormatter)) -> Bool {
    guard template.lines.count == hunk.lines.count, TraceLineCache.sameState(template.before.a, trace.a),
          TraceLineCache.sameState(template.before.b, trace.b) else { return false }
    // By index, not by copies of the lines: copying each retained its bytes.
    for i in hunk.lines.indices {
      guard template.lines[i].side == hunk.lines[i].side, template.lines[i].dt == shape.times[i] &- shape.times[0],
            TraceLineCache.same(template.lines[i].rest, hunk.lines[i].body, from: shape.rests[i]) else { return false }
    }
    return true
  }
}
