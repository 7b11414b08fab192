import Foundation
import Testing
import TestSupport
@testable import EventStore

private let header = LogHeader(lifesim: "0.1.0", lua: "Lua 5.4", profile: .object([("ios", .int(17))]),
                               scenes: true, seed: 1, scripts: [EmbeddedScript(role: "scenario", path: "s.lua", source: "launch()\n")])

/// 3,000 events of up to 2 KiB (several 1 MiB chunks), and one line longer than a chunk.
private func writeLog(_ name: String) throws -> String {
  let path = temporaryPath("lifesim-tests", name)
  var rng = SplitMix64(seed: 7)
  let w = try LogWriter(path: path, header: header)
  for i in 0..<3_000 {
    let size = i == 1_500 ? 3 << 20 : rng.below(2_048)
    try w.append(t: Int64(i) * 1_000, kind: .note) { $0.field("name", "n"); $0.field("message", String(repeating: "é\"", count: size / 3)) }
  }
  try w.finish(outcome: .object([("state", .string("active"))]))
  return path
}

/// The same log with its bytes changed by `mutate`.
private func damaged(_ path: String, _ mutate: (inout [UInt8]) -> Void) throws -> String {
  var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
  mutate(&bytes)
  let copy = temporaryPath("lifesim-tests", "damaged-\(UUID().uuidString).lifelog")
  try Data(bytes).write(to: URL(fileURLWithPath: copy))
  return copy
}

private func lineStarts(_ b: [UInt8]) -> [Int] { [0] + b.indices.filter { b[$0] == 0x0A }.map { $0 + 1 }.dropLast() }

@Suite struct LogScannerTests {
  @Test func yieldsWhatTheReaderReadsEventByEvent() throws {
    let path = try writeLog("scan.lifelog")
    let scanner = try LogScanner(path: path)
    let reader = try LogReader(path: path, mode: .integrity)
    #expect(scanner.header == reader.header)
    var events = 0
    while let line = try reader.next() {
      guard case let .event(e) = line else { continue }
      let scanned = try #require(try scanner.next())
      #expect(scanned.seq == e.seq && scanned.t == e.t)
      #expect(Array(scanned.bodyWithoutBrace) + [UInt8(ascii: "}")] == reader.lastBody)
      events += 1
    }
    #expect(try scanner.next() == nil)
    #expect(events == 3_000)
    #expect(scanner.ending == reader.ending)
  }

  @Test func aCutLogEndsAfterItsLastWholeEvent() throws {
    let path = try writeLog("scan-cut.lifelog")
    let cut = try damaged(path) { b in let s = lineStarts(b); b.removeSubrange((s[11] + 5)...) }
    let scanner = try LogScanner(path: cut)
    var last: Int64 = 0
    while let e = try scanner.next() { last = e.seq }
    #expect(last == 10)
    #expect(scanner.ending == .cutOff(afterEvent: 10))
  }

  @Test func aMissingEventOrDataAfterTheTrailerIsNamed() throws {
    let path = try writeLog("scan-damage.lifelog")
    let gap = try LogScanner(path: try damaged(path) { b in let s = lineStarts(b); b.removeSubrange(s[4]..<s[5]) })
    #expect(throws: LogProblem.damaged(line: 5, reason: "expected event 4, found event 5")) { while try gap.next() != nil {} }
    let extra = try LogScanner(path: try damaged(path) { b in b += Array("{}\n".utf8) })
    #expect(throws: LogProblem.damaged(line: 3_003, reason: "data after the trailer")) { while try extra.next() != nil {} }
    let notAnEvent = try LogScanner(path: try damaged(path) { b in let s = lineStarts(b); b[s[2] + 2] = UInt8(ascii: "x") })
    #expect(throws: LogProblem.damaged(line: 3, reason: "an event must start with \"seq\", \"t\" and \"kind\"")) {
      while try notAnEvent.next() != nil {}
    }
  }

  @Test func theBackgroundScannerHandsOverTheSameEventsThenTheBrokenLink() throws {
    let path = try writeLog("scan-background.lifelog")
    // Line 2,501 (event 2,500) loses a byte of its message: the chain breaks there.
    let tampered = try damaged(path) { b in let s = lineStarts(b); b.remove(at: s[2_500] + 60) }
    let plain = try LogScanner(path: path)
    let background = BackgroundLogScanner(try LogScanner(path: tampered, checksChain: true))
    for _ in 1..<2_500 {
      let a = try #require(try plain.next()), b = try #require(try background.next())
      #expect(a.seq == b.seq && a.t == b.t && Array(a.bodyWithoutBrace) == Array(b.bodyWithoutBrace))
    }
    #expect(throws: LogProblem.damaged(line: 2_501, reason: "hash chain broken")) { _ = try background.next() }
    // A reader may be dropped before the end of its log (its thread stops at its next hand-off).
    let dropped = BackgroundLogScanner(try LogScanner(path: path, checksChain: true))
    #expect(try dropped.next()?.seq == 1)
  }

  @Test func theBackgroundScannerReadsAWholeLogToItsTrailer() throws {
    let path = try writeLog("scan-background-whole.lifelog")
    let background = BackgroundLogScanner(try LogScanner(path: path, checksChain: true))
    var count = 0
    while try background.next() != nil { count += 1 }
    #expect(count == 3_000)
    #expect(background.ending == .complete(LogTrailer(events: 3_000, t: 2_999_000, outcome: .object([("state", .string("active"))]))))
  }

  /// libdispatch traps when a semaphore is freed below its initial value; a reader dropped
  /// early (replay --verify stopping at a divergence) frees its channel with places taken.
  @Test func readersDroppedEarlyFreeTheirThreadsCleanly() throws {
    let path = try writeLog("scan-dropped.lifelog")
    for _ in 0..<5 {
      let dropped = BackgroundLogScanner(try LogScanner(path: path, checksChain: true))
      #expect(try dropped.next()?.seq == 1)
      usleep(100_000)  // the reading thread fills every place ahead, then waits
    }
    usleep(300_000)  // the reading threads stop and free their channels meanwhile
  }
}
