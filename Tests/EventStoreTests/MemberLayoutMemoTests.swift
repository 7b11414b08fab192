import Testing
import TestSupport
@testable import EventStore
import JSON

/// The layouts the fold keeps: found only for the same bytes, several to a slot, at the
/// reading's limits, with ids that name their stream and are one for each text in it.
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

  /// The key of `l` in a memo.
  private func key(_ l: (bytes: [UInt8], anchor: Int), _ body: (MemberLayoutMemo.Key) -> Void) {
    l.bytes.withUnsafeBytes { body(MemberLayoutMemo.Key($0, anchor: l.anchor)!) }
  }

  /// Keeps `l`'s layout (one member, or none) in `memo`; the id given.
  private func remember(_ l: (bytes: [UInt8], anchor: Int), in memo: MemberLayoutMemo, members: [JSONMember] = [],
                        keyBits: UInt64 = 1) -> UInt64? {
    var id: UInt64?
    key(l) { k in members.withUnsafeBufferPointer { id = memo.remember(k, members: $0, kind: .note, keyBits: keyBits) } }
    return id
  }

  /// The id `memo` finds for `l`'s layout; nil when it finds none, 0 when it finds one without an id.
  private func found(_ l: (bytes: [UInt8], anchor: Int), in memo: MemberLayoutMemo) -> UInt64? {
    let room = UnsafeMutableBufferPointer<JSONMember>.allocate(capacity: MemberLayoutMemo.membersMax)
    defer { room.deallocate() }
    var id: UInt64?
    key(l) { k in id = memo.find(k, into: room).map { $0.id ?? 0 } }
    return id
  }

  /// `count` texts after `a`'s, each with a key in the same slot as `a`'s.
  private func sharingTheSlot(of a: (bytes: [UInt8], anchor: Int), count: Int) -> [(bytes: [UInt8], anchor: Int)] {
    var slotOfA = 0
    key(a) { slotOfA = MemberLayoutMemo.slot($0.hash) }
    var texts: [(bytes: [UInt8], anchor: Int)] = []
    var i = 0
    while texts.count < count {
      i += 1
      let b = line(seq: 7, #""name":"b\#(i)""#)
      key(b) { if MemberLayoutMemo.slot($0.hash) == slotOfA { texts.append(b) } }
    }
    return texts
  }

  @Test func aLayoutIsFoundOnlyForTheSameBytesAndMovesWithTheKind() {
    let memo = MemberLayoutMemo(ids: LayoutIDs(streamNumber: 77))
    let room = UnsafeMutableBufferPointer<JSONMember>.allocate(capacity: MemberLayoutMemo.membersMax)
    defer { room.deallocate() }
    // Two texts whose keys share a slot: the second must not be taken for the first.
    let a = line(seq: 7, #""name":"a0""#), b = sharingTheSlot(of: a, count: 1)[0]
    let member = JSONMember(key: (a.anchor + 8)..<(a.anchor + 12), value: (a.anchor + 14)..<(a.anchor + 18))
    let first = remember(a, in: memo, members: [member], keyBits: 9)
    #expect(first.map { $0 & 0xFFFF_FFFF } == 77 << 8)
    #expect(found(b, in: memo) == nil)
    // The same bytes after a longer seq: the members move with the kind.
    let later = line(seq: 1_234_567, #""name":"a0""#)
    let moved = later.bytes.withUnsafeBytes { memo.find(MemberLayoutMemo.Key($0, anchor: later.anchor)!, into: room) }
    #expect(moved?.id == first && moved?.count == 1 && moved?.keyBits == 9)
    let shift = later.anchor - a.anchor
    #expect(room[0] == JSONMember(key: (member.key.lowerBound + shift)..<(member.key.upperBound + shift),
                                  value: (member.value.lowerBound + shift)..<(member.value.upperBound + shift)))
    // The other text takes the next slot, with an id of its own, and both are found.
    let second = remember(b, in: memo)
    #expect(second != nil && second != first && second.map { $0 & 0xFFFF_FFFF } == 77 << 8)
    #expect(found(a, in: memo) == first && found(b, in: memo) == second)
  }

  /// Texts whose keys share a slot are all kept while the slots from theirs are free; one more
  /// takes the place of the one in their slot, and the others stay.
  @Test func layoutsSharingASlotAreKeptInTheSlotsAfterIt() {
    let memo = MemberLayoutMemo(ids: LayoutIDs(streamNumber: 3))
    let a = line(seq: 7, #""name":"a0""#), others = sharingTheSlot(of: a, count: MemberLayoutMemo.probesMax)
    let ids = ([a] + others.dropLast()).map { remember($0, in: memo) }
    #expect(Set(ids.compactMap { $0 }).count == MemberLayoutMemo.probesMax)
    #expect(([a] + others.dropLast()).map { found($0, in: memo) } == ids)
    let last = remember(others.last!, in: memo)
    #expect(found(a, in: memo) == nil)
    #expect((others.dropLast() + [others.last!]).map { found($0, in: memo) } == Array(ids.dropFirst()) + [last])
  }

  /// The memos of one stream give a text the same id, whichever keeps it first; past
  /// `layoutsMax` texts a new one is kept without an id, and one known still has its own.
  @Test func theStreamsMemosShareOneIdForEachText() {
    let ids = LayoutIDs(streamNumber: 5)
    let (one, two) = (MemberLayoutMemo(ids: ids), MemberLayoutMemo(ids: ids))
    let a = line(seq: 7, #""name":"a0""#), b = line(seq: 9, #""name":"b0""#)
    let idOfA = remember(a, in: one)
    #expect(remember(b, in: two) != idOfA)
    #expect(remember(a, in: two) == idOfA && found(a, in: two) == idOfA)
    for i in 2..<LayoutIDs.layoutsMax {
      let text = Array(#""name":"c\#(i)"}"#.utf8)
      #expect(text.withUnsafeBytes { ids.id(of: $0) } != nil)
    }
    let c = line(seq: 7, #""name":"past""#)
    #expect(remember(c, in: one) == nil && found(c, in: one) == 0)
    #expect(a.bytes.withUnsafeBytes { ids.id(of: UnsafeRawBufferPointer(rebasing: $0[a.anchor...])) } == idOfA)
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
