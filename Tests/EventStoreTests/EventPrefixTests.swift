import Testing
import TestSupport
@testable import EventStore
import JSON

/// `{"seq":N,"t":T,"kind":"` read one byte at a time, as the definition of what
/// `LogScanner.eventPrefix` (which reads eight at a time) must return.
private func prefixByteByByte(_ b: [UInt8]) -> (seq: Int64, t: Int64, kindStart: Int)? {
  var i = 0
  func skip(_ text: String) -> Bool {
    let t = Array(text.utf8)
    guard i + t.count <= b.count, Array(b[i..<(i + t.count)]) == t else { return false }
    i += t.count
    return true
  }
  func integer() -> Int64? {
    let start = i
    var value: Int64 = 0
    while i < b.count, (0x30...0x39).contains(b[i]), i - start < LogLimits.integerDigitsMax {
      value = value * 10 + Int64(b[i] - 0x30)
      i += 1
    }
    return i > start ? value : nil
  }
  guard skip("{\"seq\":"), let seq = integer(), skip(",\"t\":"), let t = integer(), skip(",\"kind\":\"") else { return nil }
  return (seq, t, i)
}

@Suite struct EventPrefixTests {
  private func check(_ text: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
    let fast = text.withUnsafeBytes { LogScanner.eventPrefix($0) }
    let slow = prefixByteByByte(text)
    #expect(fast?.seq == slow?.seq && fast?.t == slow?.t && fast?.kindStart == slow?.kindStart,
            "\(String(decoding: text, as: UTF8.self))", sourceLocation: sourceLocation)
  }

  @Test func readsEveryNumberLengthAndEveryCutAsTheByteByByteReading() {
    var numbers = ["0", "7", "12", "00012"]
    for digits in 1...20 { numbers.append(String(repeating: "9", count: digits)); numbers.append("1" + String(repeating: "0", count: digits - 1)) }
    numbers += ["123456789012345678", "1234567890123456789", "", "-1", "1a", "12 "]
    for seq in numbers {
      for t in numbers {
        let line = Array("{\"seq\":\(seq),\"t\":\(t),\"kind\":\"input\",\"name\":\"x\"".utf8)
        check(line)
        // Every cut of the line, so that the words near its end are read short.
        for end in stride(from: 0, through: min(line.count, 48), by: 1) { check(Array(line[..<end])) }
      }
    }
  }

  @Test func rejectsEachAlteredByteOfTheKeysAsTheByteByByteReading() {
    let line = Array("{\"seq\":42,\"t\":1199940000000,\"kind\":\"callback\"".utf8)
    check(line)
    #expect(line.withUnsafeBytes { LogScanner.eventPrefix($0) }.map { [$0.seq, $0.t, Int64($0.kindStart)] } == [42, 1_199_940_000_000, 36])
    for k in line.indices {
      for replacement in [UInt8(ascii: "x"), UInt8(ascii: "0"), 0x80, 0] {
        var altered = line
        altered[k] = replacement
        check(altered)
      }
    }
  }

  @Test func agreesOnRandomLines() {
    var rng = SplitMix64(seed: 16)
    let alphabet = Array("{}\"seqtkind:,0123456789-".utf8)
    for _ in 0..<20_000 {
      var line = Array("{\"seq\":\(rng.below(1_000_000)),\"t\":\(rng.below(1 << 40)),\"kind\":\"".utf8)
      for _ in 0..<rng.below(3) { line[rng.below(line.count)] = alphabet[rng.below(alphabet.count)] }
      check(Array(line[..<(line.count - rng.below(4))]))
    }
  }
}

/// `EventPrefixReader` guesses each line from the one before: over any sequence of lines it
/// must answer as `eventPrefix` does on each line alone.
@Suite struct EventPrefixReaderTests {
  private func readsAsEventPrefix(_ lines: [[UInt8]], sourceLocation: SourceLocation = #_sourceLocation) {
    var reader = EventPrefixReader()
    for line in lines {
      let guessed = line.withUnsafeBytes { reader.read($0) }
      let alone = line.withUnsafeBytes { LogScanner.eventPrefix($0) }
      #expect(guessed?.seq == alone?.seq && guessed?.t == alone?.t && guessed?.kindStart == alone?.kindStart,
              "\(String(decoding: line, as: UTF8.self))", sourceLocation: sourceLocation)
    }
  }

  private func line(_ seq: String, _ t: String, kind: String = "input") -> [UInt8] {
    Array("{\"seq\":\(seq),\"t\":\(t),\"kind\":\"\(kind)\",\"name\":\"x\"".utf8)
  }

  @Test func readsEachLineAfterEachOtherAsAlone() {
    // Every pair of lines whose lengths or time differ in one place from the line before.
    let numbers = ["0", "7", "10", "99", "12345678", "99999999", "100000000", "1234567890123456", "12345678901234567", "07", ""]
    var lines: [[UInt8]] = []
    for seq in numbers {
      for t in numbers {
        lines.append(line(seq, t))
        lines.append(line(seq, t))  // the guess holds
        lines.append(line(seq, t, kind: "x"))  // the shortest kind
        lines.append(Array(line(seq, t)[..<(line(seq, t).count - 14)]))  // cut in the kind's infix
      }
    }
    readsAsEventPrefix(lines)
    readsAsEventPrefix(lines.reversed())
  }

  @Test func rejectsEachAlteredByteOfALineThatFollowsItsGuess() {
    let guessed = line("42", "1199940000000", kind: "callback")
    for k in guessed.indices {
      for replacement in [UInt8(ascii: "x"), UInt8(ascii: "0"), UInt8(ascii: "5"), UInt8(ascii: ","), 0x80, 0] {
        var altered = guessed
        altered[k] = replacement
        readsAsEventPrefix([guessed, altered, guessed])
      }
    }
  }

  @Test func agreesOnRandomRunsOfLines() {
    var rng = SplitMix64(seed: 46)
    let alphabet = Array("{}\"seqtkind:,0123456789-".utf8)
    var lines: [[UInt8]] = []
    var seq = 1, t = 1_000
    for _ in 0..<40_000 {
      seq += 1 + (rng.below(50) == 0 ? 1_000 : 0)
      if rng.below(20) == 0 { t += rng.below(1 << 20) }
      var line = line(String(seq), String(t))
      if rng.below(10) == 0 { line[rng.below(line.count)] = alphabet[rng.below(alphabet.count)] }
      lines.append(Array(line[..<(line.count - (rng.below(10) == 0 ? rng.below(20) : 0))]))
    }
    readsAsEventPrefix(lines)
  }
}

@Suite struct ScannedKindStartTests {
  @Test func eachScannedLineSaysWhereItsKindStarts() throws {
    let header = LogHeader(lifesim: "0.1.0", lua: "Lua 5.4", profile: .object([("ios", .int(17))]),
                           scenes: true, seed: 1, scripts: [EmbeddedScript(role: "scenario", path: "s.lua", source: "launch()\n")])
    let path = temporaryPath("lifesim-tests", "kind-start.lifelog")
    let w = try LogWriter(path: path, header: header)
    for i in 0..<200 { try w.append(t: Int64(i) * 1_234_567, kind: .note) { $0.field("name", "n\(i)") } }
    try w.finish(outcome: .object([("state", .string("active"))]))
    let scanner = try LogScanner(path: path)
    var events = 0
    while let line = try scanner.next() {
      let body = Array(line.bodyWithoutBrace)
      let kindStart = try #require(line.kindStart)
      #expect(Array(body[(kindStart - 9)..<kindStart]) == Array(",\"kind\":\"".utf8))
      #expect(body[..<(kindStart - 9)].filter { $0 == UInt8(ascii: ",") }.count == 1)
      events += 1
    }
    #expect(events == 200)
    #expect(LogScanner.EventLine(seq: 1, t: 0, bodyWithoutBrace: UnsafeRawBufferPointer(start: nil, count: 0)).kindStart == nil)
  }
}

/// `EventPrefix.Layout`'s words are its texts, read eight bytes at a time.
@Suite struct EventPrefixLayoutTests {
  private func word(_ text: [UInt8]) -> (word: UInt64, mask: UInt64) {
    var word: UInt64 = 0, mask: UInt64 = 0
    for (i, byte) in text.prefix(8).enumerated() {
      word |= UInt64(byte) << (8 * UInt64(i)); mask |= 0xFF << (8 * UInt64(i))
    }
    return (word, mask)
  }

  @Test func theWordsAreTheTexts() {
    typealias Layout = EventPrefix.Layout
    #expect(word(Layout.seqOpening) == Layout.seqOpeningWord)
    #expect(word(Layout.timeInfix) == Layout.timeInfixWord)
    #expect(word(Layout.kindInfix) == Layout.kindInfixWord)
    #expect(Layout.seqStart == Layout.seqOpening.count)
    #expect(Layout.timeAfterSeq == Layout.timeInfix.count)
    #expect(Layout.kindAfterTime == Layout.kindInfix.count)
  }

  @Test func thePrefixMembersAreWhereTheParserFindsThem() throws {
    let line = Array(#"{"seq":12,"t":3400,"kind":"note","name":"x"}"#.utf8)
    var scratch: [Range<Int>] = [], members: [JSONMember] = []
    try line.withUnsafeBufferPointer { buf in try JSONParser.validate(buf, scratch: &scratch, members: &members, recording: true) }
    let prefix = EventPrefix(seqEnd: 9, kindStart: 27, kindEnd: 31)
    #expect([prefix.members.0, prefix.members.1, prefix.members.2] == Array(members.prefix(3)))
  }
}
