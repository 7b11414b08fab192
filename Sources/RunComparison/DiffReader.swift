import EventStore

/// What `EventDiffer.run` reads of two logs: the events read ahead on each side at a
/// difference (`PendingEvents`), compared on their keys.
struct DiffReader<Source: EventLineSource> {
  typealias Emit = HunkBuilder.Emit

  private let a: Source, b: Source
  private let scenes: (a: EventDiffer.SceneNamer?, b: EventDiffer.SceneNamer?)
  private let key: EventKey
  private var pendingA = PendingEvents(), pendingB = PendingEvents()
  private var doneA = false, doneB = false

  init(a: Source, b: Source, scenes: (a: EventDiffer.SceneNamer?, b: EventDiffer.SceneNamer?), key: EventKey) {
    self.a = a
    self.b = b
    self.scenes = scenes
    self.key = key
  }

  /// The next event of `scanner`, its scene as `namer` names it in `scene`; a damaged line is
  /// a failure naming the file. The scene goes out apart: an optional tuple or struct holding
  /// both was destroyed through the runtime's value witnesses, a tenth of `diff`'s time.
  private func next(_ scanner: Source, _ namer: EventDiffer.SceneNamer?, scene: inout String?) throws(EventDiffer.Failure) -> LogScanner.EventLine? {
    let line: LogScanner.EventLine?
    do { line = try scanner.next() } catch { throw EventDiffer.Failure(description: "\(scanner.path): \(error)") }
    scene = nil
    if let line, let namer { scene = namer(line) }
    return line
  }

  /// Reads ahead until `n` events of each side are pending (or its run has ended).
  private mutating func fill(upTo n: Int, onEvent: () -> Void) throws {
    var scene: String? = nil
    while pendingA.count < n, !doneA {
      guard let line = try next(a, scenes.a, scene: &scene) else { doneA = true; break }
      onEvent()
      pendingA.append(line, key: key, scene: scene)
    }
    while pendingB.count < n, !doneB {
      guard let line = try next(b, scenes.b, scene: &scene) else { doneB = true; break }
      onEvent()
      pendingB.append(line, key: key, scene: scene)
    }
  }

  /// Reads on while the runs agree, each agreeing event going to `hunks`. True at a
  /// difference (the differing events are pending), false when both runs have ended.
  mutating func readWhileAgreeing(into hunks: inout HunkBuilder, onEvent: () -> Void, emit: Emit) throws -> Bool {
    while true {
      // While nothing is pending the runs agree so far: compare the next lines in place.
      if pendingA.isEmpty, pendingB.isEmpty {
        var sceneX: String? = nil, sceneY: String? = nil
        let x = doneA ? nil : try next(a, scenes.a, scene: &sceneX)
        if x == nil { doneA = true } else { onEvent() }
        let y = doneB ? nil : try next(b, scenes.b, scene: &sceneY)
        if y == nil { doneB = true } else { onEvent() }
        if let x, let y, key.same(x, y) {
          try hunks.same(x.bodyWithoutBrace, hasBrace: false, emit: emit)
          hunks.recentSeq = (x.seq, y.seq)
          continue
        }
        if let x { pendingA.append(x, key: key, scene: sceneX) }
        if let y { pendingB.append(y, key: key, scene: sceneY) }
        if pendingA.isEmpty && pendingB.isEmpty { return false }
      }
      try fill(upTo: 1, onEvent: onEvent)
      if pendingA.isEmpty && pendingB.isEmpty { return false }
      guard !pendingA.isEmpty, !pendingB.isEmpty, pendingA.sameKey(0, pendingB, 0) else { return true }
      try pendingA.withBody(0) { try hunks.same($0, hasBrace: true, emit: emit) }
      hunks.recentSeq = (pendingA[0].seq, pendingB[0].seq)
      pendingA.removeFirst(1); pendingB.removeFirst(1)
    }
  }

  /// At a difference: looks ahead, further and further, for the nearest point where both
  /// agree again; how many pending events of A and of B differ before it.
  mutating func realignment(onEvent: () -> Void) throws -> (Int, Int) {
    var window = 8
    while true {
      try fill(upTo: window, onEvent: onEvent)
      let realignment = Realignment(a: pendingA, b: pendingB, aDone: doneA, bDone: doneB)
      if let found = realignment.pair(final: window >= EventDiffer.windowEvents) { return found }
      window = min(window * 4, EventDiffer.windowEvents)
    }
  }

  /// The difference pending now as where the runs first part, the last agreeing events
  /// having been `recentSeq`.
  func divergence(after recentSeq: (a: Int64, b: Int64)) -> EventDiffer.Divergence {
    let x = pendingA.isEmpty ? nil : pendingA[0], y = pendingB.isEmpty ? nil : pendingB[0]
    return EventDiffer.Divergence(
      a: x.map { _ in .init(side: .removed, body: pendingA.body(0)) }, b: y.map { _ in .init(side: .added, body: pendingB.body(0)) },
      aSeq: x?.seq ?? recentSeq.a + 1, bSeq: y?.seq ?? recentSeq.b + 1, t: min(x?.t ?? Int64.max, y?.t ?? Int64.max))
  }

  /// Moves the first `i` pending events of A and `j` of B into the hunk `hunks` builds.
  mutating func take(removed i: Int, added j: Int, into hunks: inout HunkBuilder, emit: Emit) throws {
    hunks.openIfNeeded()
    for k in 0..<i { hunks.append(.init(side: .removed, body: pendingA.body(k), scene: pendingA[k].scene)) }
    for k in 0..<j { hunks.append(.init(side: .added, body: pendingB.body(k), scene: pendingB[k].scene)) }
    if i > 0 { hunks.recentSeq.a = pendingA[i - 1].seq }
    if j > 0 { hunks.recentSeq.b = pendingB[j - 1].seq }
    pendingA.removeFirst(i)
    pendingB.removeFirst(j)
    try hunks.differenceTaken(emit: emit)
  }
}

/// The hunks of `EventDiffer.run`: the unchanged events kept as the next hunk's context, and
/// the hunk being built with the unchanged lines it still owes.
struct HunkBuilder {
  typealias Hunk = EventDiffer.Hunk
  /// Where each finished hunk (or piece of one) goes.
  typealias Emit = (Hunk) throws -> Void

  private let context: Int
  private var recent: RecentBodies  // unchanged lines before the next hunk
  /// The `seq` of the last event taken on each side.
  var recentSeq: (a: Int64, b: Int64) = (0, 0)
  private var hunk = Hunk(aStart: 0, aCount: 0, bStart: 0, bCount: 0, lines: [])  // the hunk being built, while `open`
  private var open = false
  private var trailing = 0  // unchanged lines still owed after the hunk

  init(context: Int) {
    self.context = context
    recent = RecentBodies(size: context)
  }

  /// An unchanged event: one of the open hunk's trailing lines, or context for the next hunk.
  mutating func same(_ body: UnsafeRawBufferPointer, hasBrace: Bool, emit: Emit) throws {
    if open, trailing > 0 {
      var copy = [UInt8](body)
      if !hasBrace { copy.append(UInt8(ascii: "}")) }
      hunk.lines.append(.init(side: .same, body: copy)); hunk.aCount += 1; hunk.bCount += 1
      trailing -= 1
      if trailing == 0 { try close(emit: emit) }
    } else {
      recent.push(body, closingBrace: !hasBrace)
    }
  }

  /// Opens a hunk with the context kept, unless one is open.
  mutating func openIfNeeded() {
    guard !open else { return }
    // Into the lines of the hunk closed last, emptied with their room kept: a hunk a few events
    // apart from the last is the common case of a long diff, and each made its array anew.
    var lines = hunk.lines
    hunk.lines = []
    lines.removeAll(keepingCapacity: true)
    recent.drain { lines.append(EventDiffer.Body(side: .same, body: $0)) }
    let n = Int64(lines.count)
    hunk = Hunk(aStart: max(recentSeq.a + 1 - n, 1), aCount: n, bStart: max(recentSeq.b + 1 - n, 1), bCount: n, lines: lines)
    open = true
  }

  /// A removed or added event of the open hunk.
  mutating func append(_ line: EventDiffer.Body) {
    hunk.lines.append(line)
    if line.side == .removed { hunk.aCount += 1 } else { hunk.bCount += 1 }
  }

  /// After a difference's events: the hunk owes `context` unchanged lines, and is handed out
  /// now when it owes none, or a piece of it when it has grown past `EventDiffer.hunkLinesMax`.
  mutating func differenceTaken(emit: Emit) throws {
    trailing = context
    if context == 0 {
      try close(emit: emit)
    } else if hunk.lines.count >= EventDiffer.hunkLinesMax {
      // A hunk grown past its bound: hand out what it has, go on in a piece aligned after it.
      hunk.continued = true
      try emit(hunk)
      hunk = hunk.nextPiece
    }
  }

  /// Hands out the hunk still open when both runs have ended.
  mutating func finish(emit: Emit) throws {
    if open { try close(emit: emit) }
  }

  private mutating func close(emit: Emit) throws {
    try emit(hunk)
    hunk.lines.removeAll(keepingCapacity: true)
    open = false
  }
}
