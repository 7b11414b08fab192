import Testing
import TestSupport
@testable import JSON

/// `QuickJSONCheck` against `JSONParser`: where the quick check says yes, the parser must too;
/// and on what logs hold, it must say yes (else verify's fast path gains nothing).

/// The quick verdict on `text`, with `padding` in the bytes it may read past the end.
private func quick(_ text: [UInt8], padding: UInt8 = UInt8(ascii: "\"")) -> Bool {
  let bytes = text + [UInt8](repeating: padding, count: QuickJSONCheck.readsPastEnd)
  return bytes.withUnsafeBufferPointer { buffer in
    guard let start = buffer.baseAddress else { return false }
    return QuickJSONCheck().accepts(start, count: text.count)
  }
}

private func quick(_ text: String) -> Bool { quick(Array(text.utf8)) }

private func parserAccepts(_ text: [UInt8]) -> Bool {
  var scratch: [Range<Int>] = []
  return text.withUnsafeBufferPointer { buffer in
    do { try JSONParser.validate(buffer, scratch: &scratch); return true } catch { return false }
  }
}

/// Lines of the kinds logs hold, each of which the quick check accepts.
private let logLikeLines = [
  #"{"seq":1,"t":0,"kind":"callback","name":"application(_:willFinishLaunchingWithOptions:)","target":"AppDelegate","handled":false,"depth":0}"#,
  #"{"seq":12,"t":-5,"kind":"note","text":"tab\tquote\" slash\\ \/ \b\f\n\r \u0001 \u00e9 \ud83d\ude00","ok":true,"none":null}"#,
  #"{"seq":3,"t":999999999999999999,"kind":"call","args":[1,-2,0,[],{},[[{"a":[true,false,null]}]]],"nested":{"a":{"a":{"b":1}},"b":"x"}}"#,
  "{\"seq\":4,\"t\":1,\"kind\":\"input\",\"text\":\"é€😀 ümlaut, 日本語\",\"k\":\"\"}",
  #"{"kind":"end","events":952029,"t":2040000000000,"outcome":{"state":"active","terminations":[],"expectations":{"passed":0,"failed":0},"stored":{}}}"#,
  #"[]"#, #""""#, #"0"#, #"-0"#, #"true"#, #"{"a":1,"b":{"a":1},"c":[{"a":1},{"a":2}]}"#,
]

@Suite struct QuickJSONCheckTests {
  @Test func acceptsWhatLogsHold() {
    for line in logLikeLines {
      #expect(quick(line), "\(line)")
      #expect(parserAccepts(Array(line.utf8)), "\(line)")
    }
  }

  /// What it leaves to `JSONParser`, valid or not: the parser decides these.
  @Test func isNotSureOfWhatLogsSeldomHold() {
    let valid = [#"{"a":1.5}"#, #"{"a":1e3}"#, #"{"a":1234567890123456789}"#, #"{"\u0061":1}"#, #"{"a\"":1}"#,
                 String(repeating: "[", count: 33) + String(repeating: "]", count: 33)]
    for text in valid {
      #expect(!quick(text), "\(text)")
      #expect(parserAccepts(Array(text.utf8)), "\(text)")
    }
    let keys = (0..<300).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
    #expect(!quick("{\(keys)}"))
    #expect(parserAccepts(Array("{\(keys)}".utf8)))
  }

  @Test func refusesWhatTheParserRefuses() {
    let invalid = [
      #"{"a":1,"a":2}"#, #"{"a":{"b":1,"b":1}}"#, #"{"a":1,"b":{"c":2},"a":3}"#, #"{"a":01}"#, #"{"a":-}"#, #"{"a":1,}"#,
      #"{"a":1}x"#, #"{"a":1"#, #"{"a":"x"#, #"{"a":"\x"}"#, #"{"a":"\u12"}"#, #"{"a":"\ud800"}"#, #"{"a":"\udc00"}"#,
      #"{"a":"\ud800\u0041"}"#, #"{"a":tru}"#, #"{"a" :1}"#, #"{ "a":1}"#, #"[1,]"#, #"[1}"#, #"{"a":1]"#, #"{1:2}"#, "",
      "{\"a\":\"\u{01}\"}", "{\"a\":\"\t\"}",
    ]
    for text in invalid {
      #expect(!quick(text), "\(text)")
      #expect(!parserAccepts(Array(text.utf8)), "\(text)")
    }
    let badUTF8: [[UInt8]] = [[0xC0, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xFF], [0xC3], [0xE2, 0x82]]
    for bytes in badUTF8 {
      let text = Array(#"{"a":""#.utf8) + bytes + Array(#""}"#.utf8)
      #expect(!quick(text), "\(bytes)")
      #expect(!parserAccepts(text), "\(bytes)")
    }
  }

  /// A string cut at the end of the text is unterminated, whatever the bytes after the end hold
  /// (in a log line, `"h":"…` follows the body), and wherever the cut falls in a word.
  @Test func neverReadsAValueFromPastTheEnd() {
    for length in 0..<20 {
      let text = Array(#"{"a":""#.utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: length)
      for padding in [UInt8(ascii: "\""), UInt8(ascii: "}"), UInt8(ascii: "x")] {
        #expect(!quick(text, padding: padding), "length \(length)")
        #expect(!quick(text + [UInt8(ascii: "\"")], padding: padding), "length \(length)")
        #expect(quick(text + Array(#""}"#.utf8), padding: padding), "length \(length)")
      }
    }
  }

  /// Damaged log-like lines: wherever the quick check says yes, the parser says yes.
  @Test func neverAcceptsWhatTheParserRefusesAfterDamage() {
    var rng = SplitMix64(seed: 16)
    let alphabet = Array(#"{}[]",:\\u0123456789abcdefxtrulnse-+.E "#.utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xBF, 0xC3, 0xE2, 0xED, 0xF0, 0xFF]
    var quickYes = 0, parserYes = 0
    for round in 0..<40_000 {
      var bytes = Array(logLikeLines[rng.below(logLikeLines.count)].utf8)
      for _ in 0..<(1 + rng.below(3)) where !bytes.isEmpty {
        let i = rng.below(bytes.count)
        switch rng.below(4) {
        case 0: bytes[i] = alphabet[rng.below(alphabet.count)]
        case 1: bytes.remove(at: i)
        case 2: bytes.insert(alphabet[rng.below(alphabet.count)], at: i)
        default: bytes.insert(contentsOf: bytes[i..<min(bytes.count, i + 1 + rng.below(12))], at: i)
        }
      }
      let padding = alphabet[rng.below(alphabet.count)]
      let parser = parserAccepts(bytes)
      if quick(bytes, padding: padding) {
        quickYes += 1
        #expect(parser, "round \(round): \(String(decoding: bytes, as: UTF8.self))")
      }
      if parser { parserYes += 1 }
    }
    // Damage that leaves valid JSON (a changed letter in a string) is common: most of it is
    // accepted quickly, and the rest is left to the parser.
    #expect(quickYes > 5_000)
    #expect(quickYes <= parserYes)
  }
}

/// `JSONMember`: 16 bytes, and the members `validate` records lie where their texts are.
@Suite struct JSONMemberTests {
  @Test func membersAreSixteenBytesAndLieWhereTheirTextsAre() throws {
    #expect(MemoryLayout<JSONMember>.stride == 16)
    let line = Array(#"{"seq":7,"t":-5,"kind":"note","text":"a\"b"}"#.utf8)
    var scratch: [Range<Int>] = [], members: [JSONMember] = []
    try line.withUnsafeBufferPointer { try JSONParser.validate($0, scratch: &scratch, members: &members) }
    let texts = members.map { (String(decoding: line[$0.key], as: UTF8.self), String(decoding: line[$0.value], as: UTF8.self)) }
    #expect(texts.map(\.0) == ["seq", "t", "kind", "text"])
    #expect(texts.map(\.1) == ["7", "-5", #""note""#, #""a\"b""#])
  }
}
