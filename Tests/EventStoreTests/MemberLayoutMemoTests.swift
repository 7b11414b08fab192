import Testing
import TestSupport
@testable import EventStore
import JSON

/// The layouts the fold keeps: found only for the same bytes, at the reading's limits, with
/// ids that name their stream and memo.
@Suite struct MemberLayoutMemoTests {
  private static let keys: [StaticString] = ["k00", "k01", "k02", "k03", "k04", "k05", "k06", "k07", "k08", "k09",
                                              "k10", "k11", "k12", "k13", "k14", "k15", "k16"]
  private static let header = LogHeader(lifesim: "0.1.0", lua: "Lua 5.4", profile: .object([("ios", .int(17))]),
                                        scenes: true, seed: 1, scripts: [])

  /// A line as the scan sees it: `{"seq":S,"t":T,"kind":"note",REST}`, and where its kind's value starts.
  private func line(seq: Int, _ rest: String) -> (bytes: [UInt8], anchor: Int) {
    let head = #"{"seq":\#(seq),"t":0,"kind":"#
    return (Array((head + #""note","# + rest + "}").utf8), head.utf8.count)
  }

  @Test func aLayoutIsFoundOnlyForTheSameBytesAndMovesWithTheKind() {
    let memo = MemberLayoutMemo(memoNumber: 5, streamNumber: 77)
    let room = UnsafeMutableBufferPointer<JSONMember>.allocate(capacity: MemberLayoutMemo.membersMax)
    defer { room.deallocate() }
    // Two texts whose keys share a slot: the second must not be taken for the first.
    let a = line(seq: 7, #""name":"a0""#)
    var b = a
    for i in 1... {
      b = line(seq: 7, #""name":"b\#(i)""#)
      let slots = [a, b].map { l in
        l.bytes.withUnsafeBytes { MemberLayoutMemo.slot(MemberLayoutMemo.Key($0, anchor: l.anchor)!.hash) }
      }
      if slots[0] == slots[1] { break }
    }
    let member = JSONMember(key: (a.anchor + 8)..<(a.anchor + 12), value: (a.anchor + 14)..<(a.anchor + 18))
    let first = a.bytes.withUnsafeBytes { bytes in
      [member].withUnsafeBufferPointer {
        memo.remember(MemberLayoutMemo.Key(bytes, anchor: a.anchor)!, members: $0, kind: .note, keyBits: 9)
      }
    }
    #expect(first.map { $0 & 0xFFFF_FFFF } == 77 << 8 | 5)
    #expect(b.bytes.withUnsafeBytes { memo.find(MemberLayoutMemo.Key($0, anchor: b.anchor)!, into: room) } == nil)
    // The same bytes after a longer seq: the members move with the kind.
    let later = line(seq: 1_234_567, #""name":"a0""#)
    let found = later.bytes.withUnsafeBytes { memo.find(MemberLayoutMemo.Key($0, anchor: later.anchor)!, into: room) }
    #expect(found?.id == first && found?.count == 1 && found?.keyBits == 9)
    let moved = later.anchor - a.anchor
    #expect(room[0] == JSONMember(key: (member.key.lowerBound + moved)..<(member.key.upperBound + moved),
                                  value: (member.value.lowerBound + moved)..<(member.value.upperBound + moved)))
    // The other text takes the slot, with an id of its own.
    let second = b.bytes.withUnsafeBytes { bytes in
      [JSONMember]().withUnsafeBufferPointer {
        memo.remember(MemberLayoutMemo.Key(bytes, anchor: b.anchor)!, members: $0, kind: .note, keyBits: 1)
      }
    }
    #expect(second != nil && second != first && second.map { $0 & 0xFFFF_FFFF } == 77 << 8 | 5)
    #expect(a.bytes.withUnsafeBytes { memo.find(MemberLayoutMemo.Key($0, anchor: a.anchor)!, into: room) } == nil)
  }

  /// Lines at the limits of what is kept (16 members after the kind, 512 bytes from the kind's
  /// value) and just past them, each met many times: read as the reader reads them, with an id
  /// only within the limits.
  @Test func linesAtTheLimitsReadAsTheReaderReadsThem() throws {
    let path = temporaryPath("lifesim-memo-tests", "limits.lifelog")
    let writer = try LogWriter(path: path, header: Self.header)
    // From `"note"` to the closing brace: `"note","m":"…"}` is 14 bytes and the text.
    let shapes: [(members: Int, text: Int?)] = [(16, nil), (17, nil), (1, 512 - 14), (1, 512 - 14 + 1)]
    for i in 0..<400 {
      let shape = shapes[i % shapes.count]
      try writer.append(t: Int64(i), kind: .note) { f in
        if let text = shape.text {
          f.field("m", String(repeating: "x", count: text))
        } else {
          for k in Self.keys.prefix(shape.members) { f.field(k, Int64(1)) }
        }
      }
    }
    try writer.finish(outcome: .null)

    let reader = try LogReader(path: path, mode: .inPlace)
    var expected: [[UInt8]] = []
    while let line = try reader.next() { if case .event = line { expected.append(reader.lastBody) } }
    let stream = try LogEventStream(path: path), strings = EventStrings()
    var i = 0
    while let batch = try stream.nextBatch() {
      batch.forEach(in: 0..<batch.count, strings: strings) { e in
        let shape = shapes[i % shapes.count]
        #expect(Array(e.body) == expected[i], "event \(e.seq)")
        let keys = shape.text == nil ? (0..<shape.members).map { "k\($0 < 10 ? "0" : "")\($0)" } : ["m"]
        #expect(keys.allSatisfy { e[$0] != nil }, "event \(e.seq)")
        #expect(e.int("k16") == (shape.members == 17 ? 1 : nil), "event \(e.seq)")
        let kept = shape.members == 16 || shape.text == 512 - 14
        #expect((e.layoutID != nil) == kept, "event \(e.seq): \(shape)")
        i += 1
        return true
      }
    }
    #expect(i == 400)
  }
}
