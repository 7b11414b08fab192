import EventStore
import Foundation
import Lifecycle
import RunComparison
import Testing

@Suite struct EventDifferTests {
  /// The diff of two runs, read on this thread; read ahead on a thread a log (as `lifesim
  /// diff` reads them), it must give the same hunks, divergence and count of events read.
  private func diff(_ a: [Recorded], _ b: [Recorded], context: Int = 1, ignoreTime: Bool = false, name: String) throws -> (EventDiffer, [EventDiffer.Hunk], Int) {
    let pa = try writeLog(name + "-a.lifelog", a), pb = try writeLog(name + "-b.lifelog", b)
    var differ = EventDiffer(context: context, ignoreTime: ignoreTime)
    var hunks: [EventDiffer.Hunk] = []
    var read = 0
    try differ.run(a: try LogScanner(path: pa), b: try LogScanner(path: pb), onEvent: { read += 1 }) { hunks.append($0) }
    var ahead = EventDiffer(context: context, ignoreTime: ignoreTime)
    var hunksAhead: [EventDiffer.Hunk] = []
    var readAhead = 0
    try ahead.run(a: BackgroundLogScanner(try LogScanner(path: pa)), b: BackgroundLogScanner(try LogScanner(path: pb)),
                  onEvent: { readAhead += 1 }) { hunksAhead.append($0) }
    #expect(hunksAhead.map(summary) == hunks.map(summary) && readAhead == read)
    #expect(ahead.firstDivergence.map(summary) == differ.firstDivergence.map(summary))
    return (differ, hunks, read)
  }

  private func summary(_ hunk: EventDiffer.Hunk) -> String {
    "\(hunk.aStart),\(hunk.aCount) \(hunk.bStart),\(hunk.bCount) \(hunk.continued) " + hunk.lines.map { "\($0.side) \(text($0))" }.joined(separator: "\n")
  }

  private func summary(_ d: EventDiffer.Divergence) -> String {
    "\(d.aSeq) \(d.bSeq) \(d.t) \(d.a.map(text) ?? "-") \(d.b.map(text) ?? "-")"
  }

  private func text(_ line: EventDiffer.Body) -> String { String(decoding: line.body, as: UTF8.self) }

  @Test func identicalRunsHaveNoHunk() throws {
    let events: [Recorded] = [.launch(at: 1), .note("a"), .note("b")]
    let (differ, hunks, read) = try diff(events, events, name: "same")
    #expect(hunks.isEmpty && differ.firstDivergence == nil && read == 6)
  }

  @Test func oneChangedEventIsOneHunkWithItsContext() throws {
    let (differ, hunks, _) = try diff([.launch(at: 1), .note("a"), .note("b"), .note("c"), .note("d")],
                                      [.launch(at: 9), .note("a"), .note("B"), .note("c"), .note("d")], name: "changed")
    #expect(hunks.count == 1)
    let h = try #require(hunks.first)
    #expect((h.aStart, h.aCount, h.bStart, h.bCount) == (2, 3, 2, 3))
    #expect(h.lines.map(\.side) == [.same, .removed, .added, .same])
    #expect(text(h.lines[1]) == #"{"seq":3,"t":0,"kind":"note","name":"print","message":"b"}"#)
    #expect(try h.lines[2].decoded().seq == 3)
    let d = try #require(differ.firstDivergence)
    #expect(d.aSeq == 3 && d.bSeq == 3 && d.t == 0)
  }

  @Test func timeIsComparedUnlessIgnored() throws {
    let a: [Recorded] = [.launch(at: 1), .note("a", t: 1)], b: [Recorded] = [.launch(at: 1), .note("a", t: 2)]
    #expect(try diff(a, b, name: "time").1.count == 1)
    let (differ, hunks, _) = try diff(a, b, ignoreTime: true, name: "time-ignored")
    #expect(hunks.isEmpty && differ.firstDivergence == nil)
  }

  @Test func anInsertedEventIsFoundAndTheRunsRealign() throws {
    let (_, hunks, _) = try diff([.launch(at: 1), .note("a"), .note("b"), .note("c"), .note("d")],
                                 [.launch(at: 1), .note("a"), .note("new"), .note("b"), .note("c"), .note("d")], context: 0, name: "insert")
    #expect(hunks.count == 1)
    #expect(hunks.first?.lines.map(\.side) == [.added])
    #expect((hunks.first?.bStart, hunks.first?.bCount, hunks.first?.aCount) == (3, 1, 0))
  }

  @Test func aLongInsertionIsFoundBeyondTheFirstWindow() throws {
    // 300 events only in B: past the first look-ahead windows, found through the index of B's keys.
    let common: [Recorded] = [.launch(at: 1)] + (0..<20).map { .note("a\($0)") }
    let tail: [Recorded] = (0..<20).map { .note("z\($0)") }
    let inserted: [Recorded] = (0..<300).map { .note("new\($0)") }
    let (differ, hunks, read) = try diff(common + tail, common + inserted + tail, context: 0, name: "long-insert")
    #expect(hunks.count == 1 && read == 41 + 341)
    let h = try #require(hunks.first)
    #expect((h.aStart, h.aCount, h.bStart, h.bCount) == (22, 0, 22, 300))
    #expect(h.lines.allSatisfy { $0.side == .added })
    #expect(text(h.lines[0]) == #"{"seq":22,"t":0,"kind":"note","name":"print","message":"new0"}"#)
    #expect(text(h.lines[299]) == #"{"seq":321,"t":0,"kind":"note","name":"print","message":"new299"}"#)
    #expect(differ.firstDivergence?.aSeq == 22 && differ.firstDivergence?.bSeq == 22)
  }

  @Test func ofTwoEquallyNearRealignmentsTheOneSkippingFewerEventsOfAWins() throws {
    // a b a b a b against b a b a b a: skipping B's first event or A's first both realign;
    // the one that skips none of A is taken, and A's last event is left over.
    let a: [Recorded] = [.launch(at: 1)] + (0..<6).map { .note($0 % 2 == 0 ? "a" : "b") }
    let b: [Recorded] = [.launch(at: 1)] + (0..<6).map { .note($0 % 2 == 0 ? "b" : "a") }
    let (_, hunks, _) = try diff(a, b, context: 0, name: "tie")
    #expect(hunks.map { $0.lines.map(\.side) } == [[.added], [.removed]])
    #expect(hunks.map { [$0.aStart, $0.aCount, $0.bStart, $0.bCount] } == [[2, 0, 2, 1], [7, 1, 8, 0]])
  }

  @Test func aHunkPastItsBoundIsHandedOutInAlignedPieces() throws {
    // Run B is run A one second later: no event agrees again, the hunk never closes.
    let a: [Recorded] = [.launch(at: 1)] + (0..<10_000).map { .note("n\($0)", t: Int64($0)) }
    let b: [Recorded] = [.launch(at: 1)] + (0..<10_000).map { .note("n\($0)", t: Int64($0) + 1_000_000) }
    let (differ, hunks, _) = try diff(a, b, context: 1, name: "pieces")
    #expect(hunks.map(\.continued) == [true, true, false])
    #expect(hunks.allSatisfy { $0.lines.count <= EventDiffer.hunkLinesMax + 2 * EventDiffer.windowEvents })
    for (piece, next) in zip(hunks, hunks.dropFirst()) {
      #expect((next.aStart, next.bStart) == (piece.aStart + piece.aCount, piece.bStart + piece.bCount))
    }
    for piece in hunks {
      #expect(piece.aCount == Int64(piece.lines.filter { $0.side != .added }.count))
      #expect(piece.bCount == Int64(piece.lines.filter { $0.side != .removed }.count))
    }
    #expect((hunks.first?.aStart, hunks.map(\.aCount).reduce(0, +), hunks.map(\.bCount).reduce(0, +)) == (1, 10_001, 10_001))
    #expect(hunks.first?.lines.first?.side == .same && differ.firstDivergence?.aSeq == 2)
  }

  @Test func aDamagedLogIsAFailureNamingTheFileAndLine() throws {
    let pa = try writeLog("damaged-a.lifelog", [.launch(at: 1), .note("a"), .note("b")])
    var lines = try String(contentsOfFile: pa, encoding: .utf8).components(separatedBy: "\n")
    lines.remove(at: 2)
    try lines.joined(separator: "\n").write(toFile: pa, atomically: false, encoding: .utf8)
    var differ = EventDiffer(context: 3, ignoreTime: false)
    do {
      try differ.run(a: try LogScanner(path: pa), b: try LogScanner(path: pa)) { _ in }
      Issue.record("no failure")
    } catch let failure as EventDiffer.Failure {
      #expect(failure.description == "\(pa): line 3: expected event 2, found event 3")
    }
    // Read ahead on a thread a log: the same failure, once the events before it are compared.
    var ahead = EventDiffer(context: 3, ignoreTime: false)
    do {
      try ahead.run(a: BackgroundLogScanner(try LogScanner(path: pa)), b: BackgroundLogScanner(try LogScanner(path: pa))) { _ in }
      Issue.record("no failure")
    } catch let failure as EventDiffer.Failure {
      #expect(failure.description == "\(pa): line 3: expected event 2, found event 3")
    }
  }

  /// Each log's namer sees every event of its log once, in order, and the hunk keeps its answer
  /// for the removed and added events (each side its own), not for the unchanged ones.
  @Test func eachLogsNamerNamesItsRemovedAndAddedEvents() throws {
    let pa = try writeLog("named-a.lifelog", [.launch(at: 1), .note("a"), .note("b"), .note("c")])
    let pb = try writeLog("named-b.lifelog", [.launch(at: 1), .note("a"), .note("B"), .note("c")])
    var seen: (a: [Int64], b: [Int64]) = ([], [])
    var differ = EventDiffer(context: 1, ignoreTime: false, scenes: (
      { seen.a.append($0.seq); return "A\($0.seq)" }, { seen.b.append($0.seq); return "B\($0.seq)" }))
    var hunks: [EventDiffer.Hunk] = []
    try differ.run(a: try LogScanner(path: pa), b: try LogScanner(path: pb)) { hunks.append($0) }
    #expect(seen.a == [1, 2, 3, 4] && seen.b == [1, 2, 3, 4])
    #expect(hunks.count == 1)
    #expect(hunks.first?.lines.map(\.scene) == [nil, "A3", "B3", nil])
  }

  /// A log of scenes diffed with one without: the other log's events belong to no scene, even
  /// when they are read right after the named ones (a difference of several events).
  @Test func aLogWithoutANamerHasNoScenesBesideOneWithANamer() throws {
    let pa = try writeLog("one-named-a.lifelog", [.launch(at: 1), .note("a"), .note("x"), .note("y"), .note("c")])
    let pb = try writeLog("one-named-b.lifelog", [.launch(at: 1), .note("a"), .note("X"), .note("Y"), .note("c")])
    func scenes(_ namers: (a: EventDiffer.SceneNamer?, b: EventDiffer.SceneNamer?)) throws -> [String?]? {
      var differ = EventDiffer(context: 1, ignoreTime: false, scenes: namers)
      var hunks: [EventDiffer.Hunk] = []
      try differ.run(a: try LogScanner(path: pa), b: try LogScanner(path: pb)) { hunks.append($0) }
      return hunks.first?.lines.map(\.scene)
    }
    #expect(try scenes(({ "A\($0.seq)" }, nil)) == [nil, "A3", "A4", nil, nil, nil])
    #expect(try scenes((nil, { "B\($0.seq)" })) == [nil, nil, nil, "B3", "B4", nil])
  }

  @Test func aBodyThatIsNotAnEventFailsToDecode() {
    let line = EventDiffer.Body(side: .same, body: Array(#"{"seq":1}"#.utf8))
    #expect(throws: EventDiffer.Failure.self) { try line.decoded() }
  }
}
