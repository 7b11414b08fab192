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
private let chunkSizes = [64, 97, 1_000, 4_096, ParallelVerification.chunkBytes]

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

  @Test func dataAfterTheTrailerAndALongLineAreLeftToTheReader() throws {
    let path = try writeLog("parallel-after.lifelog", count: 10)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data("\n".utf8))
    try handle.close()
    #expect(ParallelVerification.check(path: path) == nil)
    #expect(LogVerification.check(path: path).description == "line 13: data after the trailer")
  }
}
