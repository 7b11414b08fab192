import Foundation
import Testing
import TestSupport
@testable import EventStore
import JSON

private func tempPath(_ name: String) -> String { temporaryPath("lifesim-tests", name) }

private let header = LogHeader(lifesim: "0.1.0", lua: "Lua 5.4", profile: .object([("ios", .int(17))]),
                               scenes: true, seed: 1, scripts: [EmbeddedScript(role: "scenario", path: "s.lua", source: "launch()\n")])

private func writeSmallLog(_ path: String) throws {
  let w = try LogWriter(path: path, header: header)
  try w.append(t: 0, kind: .input) { $0.field("name", "launch") }
  try w.append(t: 1_500_000, kind: .note) { $0.field("name", "n"); $0.field("message", "tab\there \"quoted\" é") }
  try w.finish(outcome: .object([("state", .string("active"))]))
}

@Suite struct CanonicalJSONTests {
  @Test func escapesOnlyWhatJSONRequires() {
    var w = CanonicalJSONWriter()
    w.beginObject()
    w.field("s", "a\"b\\c\n\u{1}é/")
    w.field("i", Int64(-42))
    w.key("a"); w.beginArray(); w.int(1); w.bool(true); w.null(); w.endArray()
    w.endObject()
    #expect(w.text == #"{"s":"a\"b\\c\n\u0001é/","i":-42,"a":[1,true,null]}"#)
  }

  @Test func growsPastItsCapacityKeepingEveryByte() {
    var w = CanonicalJSONWriter(capacity: 1)  // 64 bytes at least; everything below must grow it
    let long = String(repeating: "ab\"", count: 2_000)
    w.beginArray()
    for i in 0..<50 { w.int(Int64(i) * -1_234_567_891) }
    w.int(.min); w.int(.max); w.int(0)
    w.string(long)
    w.endArray()
    let ints = (0..<50).map { String(Int64($0) * -1_234_567_891) }.joined(separator: ",")
    #expect(w.text == "[" + ints + ",-9223372036854775808,9223372036854775807,0,\"" + String(repeating: #"ab\""#, count: 2_000) + "\"]")
    #expect(w.count == w.bytes.count)
  }

  @Test func parserRoundTripsAndRefusesBadInput() throws {
    let text = #"{"s":"a\"b\\c\n\u0001é/","i":-42,"a":[1,true,null],"o":{"k":"v"}}"#
    #expect(try JSONParser.parse(text).canonicalText == text)
    for bad in [#"{"a":1,"a":2}"#, "{\"a\":01}", "{\"a\":\"\u{1}\"}", "{\"a\":1", "[1,]", "{\"a\":\"\\ud800\"}"] {
      #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(bad) }
    }
    #expect(throws: JSONParser.Failure.self) { try JSONParser.parse([0x22, 0xC3, 0x28, 0x22]) }  // invalid UTF-8
  }
}

@Suite struct LogWriterReaderTests {
  @Test func goldenBytesAndHashes() throws {
    let path = tempPath("golden.lifelog")
    try writeSmallLog(path)
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    #expect(lines.count == 4)
    #expect(lines[1] == #"{"seq":1,"t":0,"kind":"input","name":"launch","h":"\#(lines[1].suffix(66).prefix(64))"}"#)
    #expect(lines[2].hasPrefix(#"{"seq":2,"t":1500000,"kind":"note","name":"n","message":"tab\there \"quoted\" é","h":""#))
    #expect(lines[3].hasPrefix(#"{"kind":"end","events":2,"t":1500000,"outcome":{"state":"active"},"h":""#))
    // The chain, checked by an independent implementation (Python's hashlib), as docs/log-format.md shows.
    let script = """
    import hashlib, sys, re
    prev = ""
    for line in open(sys.argv[1], "rb").read().decode().splitlines():
        m = re.fullmatch(r'(.*),"h":"([0-9a-f]{64})"}', line)
        body = m.group(1) + "}"
        h = hashlib.sha256((prev + body).encode()).hexdigest()
        assert h == m.group(2), line
        prev = h
    print("ok", prev)
    """
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["python3", "-c", script, path]
    let out = Pipe()
    p.standardOutput = out
    try p.run()
    p.waitUntilExit()
    let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(p.terminationStatus == 0)
    #expect(printed == "ok \(lines[3].suffix(66).prefix(64))\n")
  }

  @Test func readerYieldsEveryEventAndTheTrailer() throws {
    let path = tempPath("read.lifelog")
    try writeSmallLog(path)
    let r = try LogReader(path: path)
    #expect(r.header == header)
    guard case let .event(e1)? = try r.next(), case let .event(e2)? = try r.next(), case let .trailer(t)? = try r.next() else {
      Issue.record("wrong lines"); return
    }
    #expect(e1.seq == 1 && e1.kind == .input && e1["name"] == .string("launch"))
    #expect(e2["message"] == .string("tab\there \"quoted\" é"))
    #expect(t.events == 2)
    #expect(try r.next() == nil)
    #expect(LogVerification.check(path: path) == .intact(events: 2))
  }

  @Test func existingFileIsRefusedAndSecondWriterIsLockedOut() throws {
    let path = tempPath("locked.lifelog")
    let first = try LogWriter(path: path, header: header)
    #expect(throws: LogWriteError.exists(path: path)) { _ = try LogWriter(path: path, header: header) }
    #expect(throws: LogWriteError.locked(path: path)) {
      _ = try LogWriter(path: path, header: header, options: .init(overwrite: true))
    }
    try first.append(t: 0, kind: .input) { $0.field("name", "home") }
    try first.finish(outcome: .null)
    #expect(LogVerification.check(path: path) == .intact(events: 1))
    #expect(LogWriteError.exists(path: "x").description == "x: already exists; refusing to overwrite it (pass --force to replace it)")
  }
}

@Suite struct DamageTests {
  private func damaged(_ mutate: (inout [UInt8]) -> Void) throws -> LogVerification {
    let path = tempPath("damage-\(UUID().uuidString).lifelog")
    let w = try LogWriter(path: path, header: header)
    for i in 0..<20 { try w.append(t: Int64(i), kind: .note) { $0.field("name", "n"); $0.field("message", "event \(i)") } }
    try w.finish(outcome: .null)
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    mutate(&bytes)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return LogVerification.check(path: path)
  }

  private func lineStarts(_ b: [UInt8]) -> [Int] { [0] + b.indices.filter { b[$0] == 0x0A }.map { $0 + 1 }.dropLast() }

  @Test func aFlippedByteNamesItsLine() throws {
    let result = try damaged { b in let s = lineStarts(b); b[s[5] + 30] ^= 0x01 }
    guard case let .damaged(line, _, valid) = result else { Issue.record("\(result)"); return }
    #expect(line == 6)
    #expect(valid == 4)
  }

  @Test func truncationIsACutNotDamage() throws {
    #expect(try damaged { b in b.removeLast(40) } == .cutOff(afterEvent: 20))
    #expect(try damaged { b in let s = lineStarts(b); b.removeSubrange((s[8] + 10)...) } == .cutOff(afterEvent: 7))
    #expect(try damaged { b in let s = lineStarts(b); b.removeSubrange(s[9]...) } == .cutOff(afterEvent: 8))
    #expect(LogVerification.cutOff(afterEvent: 5120).description == "cut off after event 5120 (no trailer)")
  }

  @Test func swappedAndDeletedLinesBreakTheChain() throws {
    let swapped = try damaged { b in
      let s = lineStarts(b)
      let a = Array(b[s[3]..<s[4]]), c = Array(b[s[4]..<s[5]])
      b.replaceSubrange(s[3]..<s[5], with: c + a)
    }
    #expect(swapped.description == "line 4: hash chain broken")
    let deleted = try damaged { b in let s = lineStarts(b); b.removeSubrange(s[3]..<s[4]) }
    #expect(deleted.description == "line 4: hash chain broken")
  }

  @Test func crlfEmptyGarbageAndNewerFormatsAreNamed() throws {
    let crlf = try damaged { b in let s = lineStarts(b); b.insert(0x0D, at: s[3] - 1) }
    #expect(crlf.description == "line 3: CRLF line end (a log uses LF only)")
    let path = tempPath("empty.lifelog")
    FileManager.default.createFile(atPath: path, contents: Data())
    #expect(LogVerification.check(path: path) == .unreadable("\(path): empty file: not a lifesim log"))
    FileManager.default.createFile(atPath: path, contents: Data([0xFF, 0x00, 0x12, 0x0A, 0x41]))
    if case .unreadable = LogVerification.check(path: path) {} else { Issue.record("garbage accepted") }
    let newer = LogHeader(format: 9, lifesim: "9", lua: "Lua 5.4", profile: .null, scenes: true, seed: 1, scripts: [])
    try? FileManager.default.removeItem(atPath: path)
    try LogWriter(path: path, header: newer).finish(outcome: .null)
    #expect(LogVerification.check(path: path).description.hasSuffix("line 1: unsupported format version 9 (this lifesim reads version 1)"))
  }

  @Test func randomDamageIsAlwaysDetected() throws {
    var rng = SplitMix64(seed: 42)
    for _ in 0..<200 {
      let pick = Int(rng.next() % 3)
      let result = try damaged { b in
        let i = Int(rng.next() % UInt64(b.count))
        switch pick {
        case 0: b[i] ^= UInt8(1 + rng.next() % 255)
        case 1: b.remove(at: i)
        default: b.insert(UInt8(rng.next() % 256), at: i)
        }
      }
      // Nothing damaged may pass as intact; a cut at the end is the only benign outcome.
      #expect(result != .intact(events: 20))
    }
  }
}
