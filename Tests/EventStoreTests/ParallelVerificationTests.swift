import Foundation
import Testing
import TestSupport
@testable import EventStore

private let header = LogHeader(lifesim: "0.1.0", lua: "Lua 5.4", profile: .null, scenes: true, seed: 3,
                               scripts: [EmbeddedScript(role: "scenario", path: "s.lua", source: "launch()\n")])

/// A log of `count` events of varied lengths (one longer than the smallest chunks), with
/// every event kind.
private func writeLog(_ name: String, count: Int = 400, finish: Bool = true) throws -> String {
  let path = temporaryPath("lifesim-tests", name)
  var rng = SplitMix64(seed: 11)
  let w = try LogWriter(path: path, header: header)
  let kinds = EventKind.allCases
  for i in 0..<count {
    let size = i == count / 2 ? 5_000 : rng.below(300)
    try w.append(t: Int64(i) * 10, kind: kinds[i % kinds.count]) { $0.field("message", String(repeating: "é\"x", count: size / 4)) }
  }
  if finish { try w.finish(outcome: .object([("state", .string("active"))])) } else { try w.flush() }
  return path
}

/// The chunk sizes the tests read with: smaller than a line, a few lines, the default.
private let chunkSizes = [64, 97, 1_000, 4_096, ChunkedLogFile.chunkBytesMax]

@Suite struct ParallelVerificationTests {
  @Test func anIntactLogIsCheckedInParallelAtEveryChunkSize() throws {
    let path = try writeLog("parallel-intact.lifelog")
    for size in chunkSizes {
      #expect(ParallelVerification.check(path: path, chunkBytes: size) == .intact(events: 400), "chunk \(size)")
    }
    #expect(LogVerification.check(path: path) == LogVerification.checkByReading(path: path))
  }

  @Test func aCutLogIsCheckedInParallelWithTheReadersCount() throws {
    let path = try writeLog("parallel-cut.lifelog", finish: false)
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    #expect(ParallelVerification.check(path: path) == .cutOff(afterEvent: 400))
    bytes.removeLast(30)  // a partial last line
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    for size in chunkSizes {
      #expect(ParallelVerification.check(path: path, chunkBytes: size) == .cutOff(afterEvent: 399), "chunk \(size)")
    }
    #expect(LogVerification.checkByReading(path: path) == .cutOff(afterEvent: 399))
  }

  /// Damage anywhere: the parallel path never calls it intact, and `check` gives exactly the
  /// reader's verdict (message, line and count of valid events).
  @Test func damageGetsTheReadersExactVerdict() throws {
    let clean = try writeLog("parallel-damage-source.lifelog", count: 120)
    let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: clean)))
    let path = temporaryPath("lifesim-tests", "parallel-damage.lifelog")
    var rng = SplitMix64(seed: 99)
    var fellBack = 0
    for round in 0..<300 {
      var bytes = original
      let i = Int(rng.next() % UInt64(bytes.count))
      switch round % 4 {
      case 0: bytes[i] ^= UInt8(1 + rng.next() % 255)
      case 1: bytes.remove(at: i)
      case 2: bytes.insert(UInt8(rng.next() % 256), at: i)
      default: bytes.removeSubrange(i...)
      }
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      let byReading = LogVerification.checkByReading(path: path)
      for size in [97, 4_096] {
        let parallel = ParallelVerification.check(path: path, chunkBytes: size)
        if let parallel { #expect(parallel == byReading, "round \(round), chunk \(size)") } else { fellBack += 1 }
      }
      #expect(LogVerification.check(path: path) == byReading, "round \(round)")
    }
    #expect(fellBack > 0)
  }

  /// Lines whose hash chain holds but whose start is not JSON, or whose later members repeat
  /// `seq`, `t` or `kind` (the quick JSON check skips the start it trusts): never intact, and
  /// `check` gives the reader's exact verdict.
  @Test func aValidChainOverBadJSONGetsTheReadersVerdict() throws {
    let clean = try writeLog("parallel-json-source.lifelog", count: 40)
    // Each line without its `,"h":"…"}` (72 bytes).
    let bodies = try String(contentsOfFile: clean, encoding: .utf8).split(separator: "\n").map { String($0.dropLast(72)) }
    let event20 = #"{"seq":20,"t":190,"kind":"#
    let edits: [(String) -> String] = [
      { $0.replacingOccurrences(of: #"{"seq":20,"#, with: #"{"seq":020,"#) },
      { $0.replacingOccurrences(of: #","t":190,"#, with: #","t":0190,"#) },
      { $0 + #","t":190"# },
      { $0 + #","seq":20"# },
      { $0 + #","kind":"note""# },
      { $0 + #","x":{"t":1},"t":190"# },
    ]
    let path = temporaryPath("lifesim-tests", "parallel-json.lifelog")
    for (index, edit) in edits.enumerated() {
      let edited = bodies.map { $0.hasPrefix(event20) ? edit($0) : $0 }
      #expect(edited != bodies, "case \(index) changes nothing")
      try Data(rechained(edited).utf8).write(to: URL(fileURLWithPath: path))
      let byReading = LogVerification.checkByReading(path: path)
      #expect(byReading.description.hasPrefix("line 21: not JSON"), "case \(index): \(byReading)")
      for size in [97, 4_096, nil] {
        #expect(ParallelVerification.check(path: path, chunkBytes: size) == nil, "case \(index), chunk \(String(describing: size))")
      }
      #expect(LogVerification.check(path: path) == byReading, "case \(index)")
    }
    // Unedited, the same lines are intact: the edits alone make the difference.
    try Data(rechained(bodies).utf8).write(to: URL(fileURLWithPath: path))
    #expect(ParallelVerification.check(path: path) == .intact(events: 40))
  }

  @Test func dataAfterTheTrailerAndALongLineAreLeftToTheReader() throws {
    let path = try writeLog("parallel-after.lifelog", count: 10)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data("\n".utf8))
    try handle.close()
    #expect(ParallelVerification.check(path: path) == nil)
    #expect(LogVerification.check(path: path).description == "line 13: data after the trailer")
  }

  /// A kind it does not know only sends a line to the reader, and one it misses only slows the
  /// fast path, so neither shows in a verdict: the table is held to every kind here.
  @Test func theKindTableKnowsEveryKindAndNothingElse() {
    let table = KindTable()
    func knows(_ text: String) -> Bool {
      // The table reads 16 bytes from the kind's start: a line's closing quote and suffix follow it.
      let bytes = Array(text.utf8) + [UInt8](repeating: UInt8(ascii: "\""), count: 16)
      return bytes.withUnsafeBufferPointer { table.contains($0.baseAddress!, count: text.utf8.count) }
    }
    for kind in EventKind.allCases.map(\.rawValue) {
      #expect(knows(kind), "\(kind)")
      for near in [kind + "s", String(kind.dropLast()), String(kind.dropFirst()), kind.uppercased(), "x" + kind.dropFirst()] {
        #expect(!knows(near), "\(near)")
      }
    }
    #expect(!knows(""))
    #expect(!knows("notificationnote"))
    #expect(!knows("notificationnotes"))
  }
}

/// Lines of a log from their bodies without `}` (`bodies`), each `h` computed again: only the
/// bodies can be wrong.
private func rechained(_ bodies: [String]) -> String {
  var chain = HashChain()
  return bodies.map { body in
    let digest = String(decoding: chain.link(Array((body + "}").utf8)), as: UTF8.self)
    return body + #","h":""# + digest + #""}"#
  }.joined(separator: "\n") + "\n"
}
