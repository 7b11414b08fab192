import Foundation
import Testing
import TestSupport
@testable import EventStore
import JSON

private let header = LogHeader(lifesim: "0.1.0", lua: "Lua 5.4", profile: .object([("ios", .int(17))]),
                               scenes: true, seed: 1, scripts: [EmbeddedScript(role: "scenario", path: "s.lua", source: "launch()\n")])

/// `events` events: most plain (what a run writes), some with escapes, non-ASCII text, nested
/// values, arrays and numbers the quick scan leaves to the parser; event 301 is longer than a
/// whole batch of the reading thread.
private func writeLog(_ name: String, events: Int) throws -> String {
  let path = temporaryPath("lifesim-tests", name)
  var rng = SplitMix64(seed: 11)
  let w = try LogWriter(path: path, header: header)
  for i in 0..<events {
    try w.append(t: Int64(i) * 1_000, kind: i % 7 == 0 ? .callback : .note) { f in
      f.field("name", "viewDidLoad()")
      f.field("target", "ViewController#\(i % 13)")
      f.field("handled", i % 2 == 0)
      f.field("depth", Int64(i % 3))
      switch i % 11 {
      case 1: f.field("message", "tab\there \"quoted\" é \u{1F600}")
      case 2: f.field("payload", .object([("a", .array([.int(-3), .double(2.5), .null, .string("x")]))]))
      case 3: f.field("count", Int64.max)
      case 4: f.field("message", String(repeating: "x", count: i == 301 ? (1 << 20) + 1_024 : rng.below(4_096)))
      default: f.field("message", "plain")
      }
    }
  }
  try w.finish(outcome: .object([("state", .string("active"))]))
  return path
}

/// What a reader hands out: each event (its place, kind, body and some members) and how the
/// reading ends (its ending, or the problem's words).
private struct Reading: Equatable {
  var events: [String] = []
  var end = ""
}

private func describe(_ e: some EventFields, body: [UInt8]) -> String {
  let members = ["name", "target", "handled", "depth", "payload", "count", "missing"].map { key in
    "\(key)=\(e[key].map { $0.canonicalText } ?? "-")|\(e.string(key) ?? "-")|\(e.int(key).map(String.init) ?? "-")|\(e.bool(key).map(String.init) ?? "-")"
  }
  // The message may be long: its length and ends tell it apart well enough.
  let message = e.string("message").map { "\($0.utf8.count) \($0.prefix(12)) \($0.suffix(12))" } ?? "-"
  return "\(e.seq) \(e.t) \(e.kind) \(body.count) \(body.prefix(64)) \(body.suffix(80)) \(message) \(members.joined(separator: " "))"
}

private func byStream(_ path: String, chunkBytes: Int? = nil) -> Reading {
  var r = Reading()
  do {
    let stream = try LogEventStream(path: path, chunkBytes: chunkBytes)
    while let e = try stream.next() { r.events.append(describe(e, body: Array(e.body))) }
    r.end = "\(String(describing: stream.ending))"
  } catch {
    r.end = error.description
  }
  return r
}

/// As `byStream`, a batch at a time, each event read with strings of the batch reader's own.
private func byBatches(_ path: String) -> Reading {
  var r = Reading()
  let strings = EventStrings()
  do {
    let stream = try LogEventStream(path: path)
    while let batch = try stream.nextBatch() {
      #expect(batch.count > 0)
      for i in 0..<batch.count {
        let e = batch.event(i, strings: strings)
        r.events.append(describe(e, body: Array(e.body)))
      }
    }
    r.end = "\(String(describing: stream.ending))"
  } catch {
    r.end = error.description
  }
  return r
}

private func byReader(_ path: String) -> Reading {
  var r = Reading()
  do {
    let reader = try LogReader(path: path, mode: .inPlace)
    while let line = try reader.next() {
      if case .event = line { r.events.append(describe(reader.lastView, body: reader.lastBody)) }
    }
    r.end = "\(String(describing: reader.ending))"
  } catch {
    r.end = error.description
  }
  return r
}

/// The quick scan's members of `bytes`, nil when it leaves them to the parser.
private func scan(_ bytes: [UInt8]) -> [JSONMember]? {
  let members = UnsafeMutableBufferPointer<JSONMember>.allocate(capacity: 32)
  defer { members.deallocate() }
  return bytes.withUnsafeBytes { b in PlainObjectScan.members(b, into: members).map { Array(members[..<$0]) } }
}

@Suite struct LogEventStreamTests {
  @Test func readsAnIntactLogAsTheReaderDoes() throws {
    let path = try writeLog("stream.lifelog", events: 3_000)
    let expected = byReader(path)
    #expect(expected.events.count == 3_000)
    #expect(byStream(path) == expected)
    #expect(byBatches(path) == expected)
  }

  /// Damage of every kind, in the first batch of the reading thread and after a later one: the
  /// same events before it, and the reader's own words for it.
  @Test func namesEveryProblemAsTheReaderDoes() throws {
    let path = try writeLog("stream-damage.lifelog", events: 500)
    var cases: [String] = []
    for line in [2, 450] {
      cases += [
        try rehashedCopy(of: path, replacing(line: line, "\"name\"", with: "\"name\" ")),            // not JSON
        try rehashedCopy(of: path, replacing(line: line, "\"depth\"", with: "\"target\"")),          // a key twice
        try rehashedCopy(of: path, replacing(line: line, "\"depth\":", with: "\"depth\":0")),        // a leading zero
        try rehashedCopy(of: path, replacing(line: line, "\"kind\":\"", with: "\"kind\":\"x")),      // unknown kind
        try rehashedCopy(of: path, replacing(line: line, "\"kind\":\"note", with: "\"kind\":\"not\\u0065")), // an escaped kind
        try rehashedCopy(of: path, replacing(line: line, "\"t\":", with: "\"t\":9")),                // time goes back after it
        try rehashedCopy(of: path, replacing(line: line, "\"target\":\"", with: "\"target\":\"\u{07}")), // a control character
        try rehashedCopy(of: path, replacing(line: line, "\"target\":\"V", with: "\"target\":\"\\u0056")), // an escape (valid)
        try rehashedCopy(of: path, rehash: false, replacing(line: line, "\"handled\"", with: "\"handlet\"")), // hash chain broken
        try rehashedCopy(of: path) { $0.remove(at: line) },                              // a missing event
        try rehashedCopy(of: path) { $0.removeSubrange((line + 1)...) },                  // cut, no trailer
        try rehashedCopy(of: path) { $0[line] = Array($0[line].prefix(30)); $0.removeSubrange((line + 1)...) }, // a partial line
      ]
    }
    cases.append(try rehashedCopy(of: path) { $0.append($0[$0.count - 1]) })            // data after the trailer
    cases.append(try rehashedCopy(of: path) { $0[$0.count - 1] = Array(String(decoding: $0[$0.count - 1], as: UTF8.self)
      .replacingOccurrences(of: "\"events\":", with: "\"events\":1").utf8) })   // a wrong count
    for damaged in cases {
      let expected = byReader(damaged)
      #expect(byStream(damaged) == expected, "\(damaged): \(expected.end)")
      // Chunks smaller than a line, of a few lines, of many: lines cut across them.
      for size in [97, 1_000, 16_384] {
        #expect(byStream(damaged, chunkBytes: size) == expected, "\(damaged), chunks of \(size): \(expected.end)")
      }
      #expect(byBatches(damaged) == expected, "\(damaged), in batches: \(expected.end)")
    }
  }

  /// Lines with one layout id have the same bytes from the kind on (their `seq` and `t` may
  /// differ, in length too). Each part of the reading has its own memo and ids.
  @Test func aLayoutIDStandsForTheBytesFromTheKindOn() throws {
    let path = try writeLog("layouts.lifelog", events: 3_000)
    var seen: [UInt64: [UInt8]] = [:], withID = 0
    let strings = EventStrings()
    let stream = try LogEventStream(path: path)
    while let batch = try stream.nextBatch() {
      batch.forEach(in: 0..<batch.count, strings: strings) { e in
        guard let id = e.layoutID else { return true }
        withID += 1
        let body = Array(e.body), kind = Array(#""kind":""#.utf8)
        let from = Array(body[(body.firstRange(of: kind)!.upperBound - 1)...])
        if let known = seen[id] { #expect(known == from, "event \(e.seq)") } else { seen[id] = from }
        return true
      }
    }
    // Escaped, nested and long lines are scanned each time, without an id; the others are met again.
    #expect(withID > 1_800)
    #expect(withID - seen.count > 300)
  }

  @Test func theQuickScanAgreesWithTheParser() {
    let lines = [
      #"{"seq":1,"t":0,"kind":"note","name":"a","ok":true,"no":false,"nil":null,"n":1234567890}"#,
      #"{}"#, #"{"a":1}"#, #"{"a":01}"#, #"{"a":1,}"#, #"{"a":1 }"#, #"{"a":"b","a":"c"}"#, #"{"":0}"#,
      #"{"a":-1}"#, #"{"a":1.5}"#, #"{"a":"\n"}"#, #"{"a":"é"}"#, #"{"a":[1]}"#, #"{"a":{}}"#, #"{"a":tru}"#,
      #"{"a":nul,"b":1}"#, #"{"a":1234567890123456789}"#, #"{"a":"b"}x"#, #"{"a":"b""#, #"{"a""#, #"{"#,
    ]
    for line in lines {
      let bytes = Array(line.utf8)
      var parsed: [JSONMember] = [], keys: [Range<Int>] = []
      let quick = scan(bytes)
      let valid = (try? bytes.withUnsafeBufferPointer { b throws(JSONParser.Failure) in
        try JSONParser.validate(b, scratch: &keys, members: &parsed)
      }) != nil
      // The scan may leave a line to the parser; what it accepts, the parser accepts alike.
      if let quick { #expect(valid && quick == parsed, "\(line)") }
    }
    #expect(scan(Array(lines[0].utf8))?.count == 8)
    // From an event's checked prefix on, the scan finds the members the parser finds, or leaves the line.
    let events = [
      #"{"seq":12,"t":0,"kind":"note","name":"a","ok":true}"#, #"{"seq":1,"t":5,"kind":"note"}"#,
      #"{"seq":1,"t":5,"kind":"note","t":6}"#, #"{"seq":1,"t":5,"kind":"note","seq":1}"#,
      #"{"seq":1,"t":5,"kind":"note","kind":"x"}"#, #"{"seq":1,"t":5,"kind":"note","kinds":"x","s":1}"#,
      #"{"seq":1,"t":5,"kind":"note",}"#, #"{"seq":1,"t":5,"kind":"note"x}"#, #"{"seq":1,"t":5,"kind":"note","a":"\n"}"#,
    ]
    for line in events {
      let bytes = Array(line.utf8)
      func at(_ word: String) -> Int32 { Int32(line.range(of: word)!.lowerBound.utf16Offset(in: line)) }
      let prefix = EventPrefix(tKey: at(#""t":"#) + 1, kindKey: at(#""kind":"#) + 1, rest: at(#""note""#) + 6)
      var parsed: [JSONMember] = [], keys: [Range<Int>] = []
      let valid = (try? bytes.withUnsafeBufferPointer { b throws(JSONParser.Failure) in
        try JSONParser.validate(b, scratch: &keys, members: &parsed)
      }) != nil
      let members = UnsafeMutableBufferPointer<JSONMember>.allocate(capacity: 32)
      defer { members.deallocate() }
      let quick = bytes.withUnsafeBytes { b in PlainObjectScan.eventMembers(b, prefix: prefix, into: members) }
      if let quick {
        // Every key's bit is among the keys' bits.
        for m in parsed {
          let key = Array(bytes[m.key])
          #expect(quick.keys & PlainObjectScan.bit(keyCount: key.count, first: key.first ?? 0) != 0, "\(line)")
        }
      }
      let found = quick.map { Array(members[..<$0.count]) }
      if let found { #expect(valid && found == parsed, "\(line)") }
      if line.hasSuffix(#""ok":true}"#) || line.hasSuffix(#""s":1}"#) || line.hasSuffix(#""note"}"#) { #expect(found != nil, "\(line)") }
      if line.contains(#""t":6"#) || line.contains(#""seq":1}"#) || line.contains(#""kind":"x""#) { #expect(found == nil, "\(line)") }
    }
    #expect(scan(Array(#"{"a":"b","c":"d","a":"e"}"#.utf8)) == nil)
    #expect(scan(Array(#"{"a":1}"#.utf8)) != nil)
  }
}
