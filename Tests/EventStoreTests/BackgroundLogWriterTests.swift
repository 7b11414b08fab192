import Foundation
import Testing
import TestSupport
@testable import EventStore
import JSON

private let header = LogHeader(lifesim: "0.1.0", lua: "Lua 5.4", profile: .object([("ios", .int(17))]),
                               scenes: true, seed: 1, scripts: [EmbeddedScript(role: "scenario", path: "s.lua", source: "launch()\n")])

/// One seeded event: a kind, a time step and members of every shape the log writes,
/// some long enough to make the encoder grow and some needing escapes.
private struct RandomEvent {
  var dt: Int64
  var kind: EventKind
  var name: String
  var count: Int64
  var flag: Bool

  init(_ rng: inout SplitMix64) {
    dt = Int64(rng.below(3)) * 250_000
    kind = [EventKind.input, .callback, .call, .note, .transition][rng.below(5)]
    let pieces = ["viewDidLoad()", "tab\there", "\"quoted\"", "é", "\u{1}", String(repeating: "x", count: 700)]
    name = (0..<(1 + rng.below(4))).map { _ in pieces[rng.below(pieces.count)] }.joined()
    count = Int64(rng.below(1_000_000)) - 500_000
    flag = rng.below(2) == 0
  }

  func fields(_ w: inout CanonicalJSONWriter) {
    w.field("name", name)
    w.field("count", count)
    w.field("handled", flag)
  }
}

/// The one descriptor this process has open on `path` (read from `/proc/self/fd`); nil if
/// none or several.
private func openDescriptor(of path: String) -> Int32? {
  let wanted = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
  let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
  let found = names.compactMap { name -> Int32? in
    guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name) else { return nil }
    return target == wanted ? Int32(name) : nil
  }
  return found.count == 1 ? found[0] : nil
}

@Suite struct BackgroundLogWriterTests {
  @Test func writesExactlyTheBytesOfTheSynchronousWriter() throws {
    let seed: UInt64 = 20_261_122
    var rng = SplitMix64(seed: seed)
    let events = (0..<20_000).map { _ in RandomEvent(&rng) }
    let plain = temporaryPath("lifesim-tests", "plain.lifelog")
    let background = temporaryPath("lifesim-tests", "background.lifelog")
    let outcome = JSONValue.object([("state", .string("active"))])

    let w = try LogWriter(path: plain, header: header)
    var t: Int64 = 0
    for e in events { t += e.dt; try w.append(t: t, kind: e.kind, fields: e.fields) }
    try w.finish(outcome: outcome)

    let b = BackgroundLogWriter(try LogWriter(path: background, header: header))
    t = 0
    for (i, e) in events.enumerated() {
      t += e.dt
      #expect(try b.append(t: t, kind: e.kind, fields: e.fields) == Int64(i + 1))
    }
    try b.finish(outcome: outcome)

    let expected = try Data(contentsOf: URL(fileURLWithPath: plain))
    let actual = try Data(contentsOf: URL(fileURLWithPath: background))
    #expect(expected.count > 4 * BackgroundLogWriter.batchBytes, "the events must span several batches")
    // Not `#expect(actual == expected)`: on a failure the framework would diff two logs of
    // megabytes, for longer than the suite may take. The first differing byte says enough.
    let firstDifference = zip(actual, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(actual.count, expected.count)
    #expect(actual.count == expected.count && firstDifference == expected.count,
            "seed \(seed): the bytes differ from byte \(firstDifference) (\(actual.count) against \(expected.count))")
    let reader = try LogReader(path: background, mode: .integrity)
    #expect(try reader.drain() == .complete(LogTrailer(events: 20_000, t: t, outcome: outcome)))
  }

  /// The background writer writes each kind from a literal of its own, the synchronous one its raw value.
  @Test func everyKindIsWrittenAsItsRawValue() {
    for kind in EventKind.allCases {
      #expect(kind.name.description == kind.rawValue)
      #expect(kind.openingTail.description == #","kind":""# + kind.rawValue + #"""#)
    }
  }

  /// Each kind travels to the log thread as its place in `allCases`, and comes back as itself.
  @Test func everyKindsFrameCodeIsItsPlaceAndReadsBack() throws {
    for (i, kind) in EventKind.allCases.enumerated() {
      #expect(kind.code == UInt8(i))
      var w = CanonicalJSONWriter()
      EventFrame.begin(t: 1_234_567_890_123, kind: kind, into: &w)
      w.field("name", "n")
      w.endObject()
      #expect(w.count == EventFrame.headerBytes + #","name":"n"}"#.utf8.count)
      let read = w.withBytes { EventFrame.read($0.baseAddress!) }
      #expect(read.t == 1_234_567_890_123 && read.kind == kind)
    }
    #expect(EventKind(code: UInt8(EventKind.allCases.count)) == nil)
  }

  /// The length the caller's thread counts for an event's opening is the length the log thread writes.
  @Test func theOpeningsCountedLengthIsItsWrittenLength() {
    for (seq, t) in [(1, 0), (9, 10), (10, 99), (999_999, 1_000_000), (LogLimits.integerMax, LogLimits.integerMax)] as [(Int64, Int64)] {
      for kind in EventKind.allCases {
        var opening = EventOpening(lastSeq: seq - 1, lastTime: 0)
        var w = CanonicalJSONWriter()
        opening.write(into: &w, t: t, kind: kind)
        #expect(w.count == EventOpening.bytes(seq: seq, t: t, kind: kind), "seq \(seq), t \(t), \(kind)")
        #expect(w.count <= EventOpening.bytesMax)
      }
    }
  }

  /// A writer that goes on from a log's last event counts on from its seq, across a digit more.
  @Test func theOpeningCountsOnFromTheLastSeq() {
    var opening = EventOpening(lastSeq: 98, lastTime: 7)
    var w = CanonicalJSONWriter()
    for t: Int64 in [7, 7, 10] {
      opening.write(into: &w, t: t, kind: .note)
      w.verbatim("}\n")
      opening.taken()
    }
    let lines = [#"{"seq":99,"t":7,"kind":"note"}"#, #"{"seq":100,"t":7,"kind":"note"}"#, #"{"seq":101,"t":10,"kind":"note"}"#]
    #expect(w.text == lines.map { $0 + "\n" }.joined())
  }

  /// The log thread's write fails while batches are in flight (its descriptor now points at
  /// `/dev/full`): a later `append` throws the failure once, `finish` throws it again, and the
  /// lines written before it stay in the file, a log cut off after a whole event.
  @Test func aWriteFailingWhileBatchesAreInFlightIsReportedOnceThenByFinish() throws {
    let path = temporaryPath("lifesim-tests", "full-background.lifelog")
    let b = BackgroundLogWriter(try LogWriter(path: path, header: header))
    var rng = SplitMix64(seed: 46)
    var t: Int64 = 0
    for _ in 0..<4_000 {  // about four batches, written or queued
      let e = RandomEvent(&rng)
      t += e.dt
      try b.append(t: t, kind: e.kind, fields: e.fields)
    }
    let fd = try #require(openDescriptor(of: path))
    let full = open("/dev/full", O_WRONLY)
    #expect(full >= 0 && dup2(full, fd) == fd)
    close(full)
    let expected = LogWriteError.io(path: path, operation: "write", reason: "No space left on device")
    var failures: [LogWriteError] = []
    for _ in 0..<8_000 {  // several more batches: each waits for a place, so the failure shows
      let e = RandomEvent(&rng)
      t += e.dt
      do { try b.append(t: t, kind: e.kind, fields: e.fields) } catch { failures.append(error) }
    }
    #expect(failures == [expected])
    #expect(throws: expected) { try b.finish(outcome: .object([])) }
    guard case let .cutOff(afterEvent: written) = try LogReader(path: path, mode: .integrity).drain() else {
      Issue.record("the log should end cut off")
      return
    }
    #expect(written > 0 && written < 12_000)
  }

  @Test func aLogWithNoEventsHasItsHeaderAndTrailer() throws {
    let path = temporaryPath("lifesim-tests", "empty-background.lifelog")
    let b = BackgroundLogWriter(try LogWriter(path: path, header: header))
    try b.finish(outcome: .object([]))
    let reader = try LogReader(path: path)
    #expect(try reader.drain() == .complete(LogTrailer(events: 0, t: 0, outcome: .object([]))))
  }
}
