import Foundation
import Testing
import TestSupport
@testable import EventStore

/// `LineSource` reading ahead (`diff`'s readers) hands out exactly the lines of reading in turn.
@Suite struct LineSourceTests {
  /// Lines of every length up to 300 bytes, one of 64 KiB and one over it (the reserve a read
  /// ahead keeps for an unfinished line), one over a chunk, and a last line with no newline.
  private static func lines() -> [[UInt8]] {
    var rng = SplitMix64(seed: 11)
    var lines: [[UInt8]] = []
    for i in 0..<16_000 {
      let size: Int
      switch i {
      case 5_000: size = ReadAhead.reserveBytes
      case 5_001: size = ReadAhead.reserveBytes + 1
      case 10_000: size = LogReader.chunkBytes + 4_321
      default: size = rng.below(300)
      }
      var line = [UInt8](repeating: UInt8(ascii: "a") + UInt8(i % 26), count: size)
      if size > 1 { line[size / 2] = UInt8(ascii: "0") + UInt8(i % 10) }
      lines.append(line)
    }
    return lines
  }

  private static func read(_ path: String, readsAhead: Bool) throws -> [([UInt8], Bool)] {
    var source = try LineSource.open(path, readsAhead: readsAhead)
    var seen: [([UInt8], Bool)] = []
    while let line = try source.next(number: seen.count + 1) { seen.append((Array(line.bytes), line.complete)) }
    return seen
  }

  @Test("reading ahead hands out the same lines, the cut last one too, across every chunk boundary")
  func readingAheadChangesNothing() throws {
    let lines = Self.lines()
    let path = temporaryPath("lifesim-tests", "lines-\(UUID().uuidString).txt")
    try Data(lines.map { $0 + [0x0A] }.joined().dropLast()).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let ahead = try Self.read(path, readsAhead: true), inTurn = try Self.read(path, readsAhead: false)
    #expect(ahead.count == lines.count && inTurn.count == lines.count)
    #expect(zip(ahead, lines).allSatisfy { $0.0 == $1 } && zip(ahead, inTurn).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 })
    #expect(ahead.last?.1 == false && ahead.dropLast().allSatisfy(\.1))
  }
}
