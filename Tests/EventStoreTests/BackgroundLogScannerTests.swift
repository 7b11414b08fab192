import Foundation
import Testing
import TestSupport
@testable import EventStore

/// 500 events of two kinds, messages up to 4 KiB, event 301 longer than the default chunk.
private func writeLog(_ name: String) throws -> String {
  let path = temporaryPath("lifesim-tests", name)
  var rng = SplitMix64(seed: 5)
  let w = try LogWriter(path: path, header: sampleHeader)
  for i in 0..<500 {
    try w.append(t: Int64(i / 3) * 1_000, kind: i % 7 == 0 ? .callback : .note) { f in
      f.field("name", "viewDidLoad()")
      f.field("message", String(repeating: "x", count: i == 301 ? (BackgroundLogScanner.chunkBytesMax + 1_024) : rng.below(4_096)))
    }
  }
  try w.finish(outcome: .object([("state", .string("active"))]))
  return path
}

/// Each event a scanner hands out (its place, time, kind's start and body) and how the reading
/// ends (its ending, or the problem's words).
private struct Scan: Equatable {
  var events: [String] = []
  var end = ""
}

private func scan(_ source: some EventLineSource) -> Scan {
  var s = Scan()
  do {
    while let e = try source.next() {
      s.events.append("\(e.seq) \(e.t) \(e.kindStart ?? -1) \(Array(e.bodyWithoutBrace).hashValue) \(e.bodyWithoutBrace.count)")
    }
    s.end = "\(String(describing: source.ending))"
  } catch {
    s.end = error.description
  }
  return s
}

private func inPlace(_ path: String, chain: Bool) -> Scan {
  do { return scan(try LogScanner(path: path, checksChain: chain)) } catch { return Scan(end: error.description) }
}

private func ahead(_ path: String, chain: Bool, chunkBytes: Int?) -> Scan {
  do { return scan(BackgroundLogScanner(try LogScanner(path: path, checksChain: chain), chunkBytes: chunkBytes)) } catch {
    return Scan(end: error.description)
  }
}

@Suite struct BackgroundLogScannerTests {
  /// Damage of every kind, in the first chunk and after later ones, with lines cut across
  /// chunks of every size: the events before it, and the scanner's own words for it, whether
  /// the chunks read in place take it or the scanner has to read on from there.
  @Test func handsOutWhatTheScannerReadsEventForEvent() throws {
    let path = try writeLog("scan-ahead.lifelog")
    var cases = [path]
    for line in [2, 450] {
      cases += [
        try rehashedCopy(of: path, replacing(line: line, "\"name\"", with: "\"name\" ")),            // not JSON: the scanner does not mind
        try rehashedCopy(of: path, replacing(line: line, "\"kind\":\"", with: "\"kind\":\"x")),      // a kind no writer writes
        try rehashedCopy(of: path, replacing(line: line, "\"seq\":", with: "\"seq\":0")),            // a leading zero
        try rehashedCopy(of: path, replacing(line: line, "\"t\":", with: "\"t\":9")),                // time goes back after it
        try rehashedCopy(of: path, replacing(line: line, "\"seq\":", with: "\"seq\" :")),            // not an event's start
        try rehashedCopy(of: path, rehash: false, replacing(line: line, "\"name\"", with: "\"nam\"")), // hash chain broken
        try rehashedCopy(of: path) { $0.remove(at: line) },                               // a missing event
        try rehashedCopy(of: path) { $0.removeSubrange((line + 1)...) },                   // cut, no trailer
        try rehashedCopy(of: path) { $0[line] = Array($0[line].prefix(30)); $0.removeSubrange((line + 1)...) }, // a partial line
        try rehashedCopy(of: path) { $0[line] = [] },                                     // an empty line
      ]
    }
    cases.append(try rehashedCopy(of: path) { $0.append($0[$0.count - 1]) })             // data after the trailer
    cases.append(try rehashedCopy(of: path, replacing(line: 501, "\"events\":", with: "\"events\":1"))) // a wrong count
    cases.append(try rehashedCopy(of: path) { lines in                                    // a trailer in another order
      let text = String(decoding: lines[501], as: UTF8.self)
      lines[501] = Array(text.replacingOccurrences(of: "{\"kind\":\"end\",", with: "{").replacingOccurrences(of: ",\"h\"", with: ",\"kind\":\"end\",\"h\"").utf8)
    })
    cases.append(try rehashedCopy(of: path) { $0[$0.count - 1] = Array($0[$0.count - 1].dropLast(3)) }) // a trailer cut short
    for damaged in cases {
      for chain in [false, true] {
        let expected = inPlace(damaged, chain: chain)
        // Chunks smaller than a line, of a few lines, of many, and as a log's size asks.
        for size in [97, 1_000, 16_384, nil] {
          #expect(ahead(damaged, chain: chain, chunkBytes: size) == expected,
                  "\(damaged), chain \(chain), chunks of \(size.map(String.init) ?? "default"): \(expected.end)")
        }
      }
    }
  }
}
