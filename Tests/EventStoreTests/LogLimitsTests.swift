import Foundation
import Testing
import TestSupport
@testable import EventStore

/// What the writer writes, every reader reads: the writer refuses what a reader would refuse.
@Suite struct LogLimitsTests {
  private let header = LogHeader(lifesim: "0.1.0", lua: "Lua 5.4", profile: .object([("ios", .int(17))]),
                                 scenes: true, seed: 1, scripts: [EmbeddedScript(role: "scenario", path: "s.lua", source: "launch()\n")])

  private func readAll(_ path: String) throws -> (events: [LogEvent], ending: String) {
    let reader = try LogReader(path: path)
    var events: [LogEvent] = []
    while let line = try reader.next() { if case let .event(e) = line { events.append(e) } }
    return (events, "\(reader.ending.map { "\($0)" } ?? "none")")
  }

  @Test func theLatestTimeIsWrittenAndReadBack() throws {
    for background in [false, true] {
      let path = temporaryPath("lifesim-limits", "latest-\(background).lifelog")
      let w = try LogWriter(path: path, header: header)
      if background {
        let bw = BackgroundLogWriter(w)
        try bw.append(t: LogLimits.timeMaxUs, kind: .note) { $0.field("name", "n"); $0.field("message", "last") }
        #expect(throws: LogWriteError.outOfLimits(path: path, reason: "event 2: virtual time 1000000000000000000 µs is past the latest the log format allows (999999999999999999 µs)")) {
          try bw.append(t: LogLimits.timeMaxUs + 1, kind: .note) { $0.field("name", "n") }
        }
        try bw.finish(outcome: .object([]))
      } else {
        try w.append(t: LogLimits.timeMaxUs, kind: .note) { $0.field("name", "n"); $0.field("message", "last") }
        #expect(throws: LogWriteError.self) { try w.append(t: LogLimits.timeMaxUs + 1, kind: .note) { $0.field("name", "n") } }
        try w.finish(outcome: .object([]))
      }
      #expect(LogVerification.check(path: path) == .intact(events: 1))
      let read = try readAll(path)
      #expect(read.events.map(\.t) == [LogLimits.timeMaxUs])
    }
  }

  @Test func anEventLongerThanALineMayBeIsRefusedAndTheLogStaysWhole() throws {
    let big = String(repeating: "\u{1}", count: LogLimits.bodyBytesMax / 6 + 10)  // escaped as \u0001: 6 bytes each
    var reasons: [String] = []
    for background in [false, true] {
      let path = temporaryPath("lifesim-limits", "long-\(background).lifelog")
      let w = try LogWriter(path: path, header: header)
      let bw = background ? BackgroundLogWriter(w) : nil
      func append(_ t: Int64, _ message: String) throws(LogWriteError) {
        if let bw { try bw.append(t: t, kind: .note) { $0.field("name", "n"); $0.field("message", message) } }
        else { try w.append(t: t, kind: .note) { $0.field("name", "n"); $0.field("message", message) } }
      }
      try append(0, "before")
      do {
        try append(1, big)
        Issue.record("an over-long event was accepted")
      } catch {
        guard case let .outOfLimits(_, reason) = error else { Issue.record("\(error)"); continue }
        #expect(reason.hasPrefix("event 2: ") && reason.hasSuffix(" bytes is longer than a log line may be (64 MiB)"), "\(reason)")
        reasons.append(reason)
      }
      try append(2, "after")
      if let bw { try bw.finish(outcome: .object([])) } else { try w.finish(outcome: .object([])) }
      #expect(LogVerification.check(path: path) == .intact(events: 2))
      #expect(try readAll(path).events.map(\.seq) == [1, 2])
    }
    // The background writer counts the body it will write, opening and all, as the other does.
    #expect(reasons.count == 2 && reasons[0] == reasons[1], "\(reasons)")
  }

  /// An event just inside the limit is written by both writers, and one byte more is refused by
  /// both: the background writer counts the opening its log thread writes to the byte.
  @Test func bothWritersDrawTheLineAtTheSameByte() throws {
    // The body of event 1 at t 0 of kind note with one field `message`: its opening, the
    // field's key and quotes, the brace.
    let fixed = EventOpening.bytes(seq: 1, t: 0, kind: .note) + #","message":""}"#.utf8.count
    for (extra, fits) in [(0, true), (1, false)] {
      let message = String(repeating: "x", count: LogLimits.bodyBytesMax - fixed + extra)
      for background in [false, true] {
        let path = temporaryPath("lifesim-limits", "edge-\(extra)-\(background).lifelog")
        let w = try LogWriter(path: path, header: header)
        let bw = background ? BackgroundLogWriter(w) : nil
        let written = Result { () throws(LogWriteError) in
          if let bw { try bw.append(t: 0, kind: .note) { $0.field("message", message) } }
          else { try w.append(t: 0, kind: .note) { $0.field("message", message) } }
        }
        if let bw { try bw.finish(outcome: .object([])) } else { try w.finish(outcome: .object([])) }
        let accepted = (try? written.get()) != nil
        #expect(accepted == fits, "extra \(extra), background \(background)")
      }
    }
  }

  @Test func aLineLongerThanTheLimitIsRefusedByTheReaderWhereverItFalls() throws {
    // One long line that arrives whole in one read must be refused like one that spans reads.
    let path = temporaryPath("lifesim-limits", "hand-made.lifelog")
    let w = try LogWriter(path: path, header: header)
    try w.finish(outcome: .object([]))
    let written = try Data(contentsOf: URL(fileURLWithPath: path))
    guard let headerEnd = written.firstIndex(of: 0x0A) else { Issue.record("no header line"); return }
    var bytes = written[...headerEnd]
    bytes.append(Data(repeating: UInt8(ascii: "x"), count: LogLimits.lineBytesMax + 1))
    bytes.append(0x0A)
    bytes.append(written[(headerEnd + 1)...])
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    #expect(LogVerification.check(path: path).description == "line 2: longer than 64 MiB")
  }
}
