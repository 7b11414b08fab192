import EventStore
import JSON
import Render
import Testing
import TestSupport

/// `TraceJSONBuffer` writes strings (a word-at-a-time scan for bytes to escape), integers (two
/// digits at a time), seconds and JSON values as `CanonicalJSONWriter` does, byte for byte.
@Suite struct TraceJSONBufferTests {
  /// Characters a string is made of: plain ASCII, every byte JSON escapes, DEL, and multi-byte ones.
  private static let palette: [Character] = ["a", "Z", "0", " ", "/", "\"", "\\", "\u{7F}", "é", "→", "😀"]
    + (0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) }

  private static func randomString(_ rng: inout SplitMix64) -> String {
    let length = rng.below(40)
    // Mostly plain runs, so that an escaped byte falls at every place of an 8-byte word.
    return String((0..<length).map { _ in rng.below(4) == 0 ? palette[rng.below(palette.count)] : palette[rng.below(4)] })
  }

  private static func writer(_ write: (inout CanonicalJSONWriter) -> Void) -> [UInt8] {
    var w = CanonicalJSONWriter()
    write(&w)
    return w.bytes
  }

  private static func buffer(_ write: (inout TraceJSONBuffer) -> Void) -> [UInt8] {
    var b = TraceJSONBuffer(capacity: 16)
    write(&b)
    return b.copy(from: 0)
  }

  @Test func stringsAsTheCanonicalWriterEscapesThem() {
    var rng = SplitMix64(seed: 29)
    for _ in 0..<20_000 {
      let s = Self.randomString(&rng)
      #expect(Self.buffer { $0.string(s) } == Self.writer { $0.string(s) }, "\(Array(s.utf8))")
    }
    for c in Self.palette {
      for at in 0..<17 {
        let s = String(repeating: "a", count: at) + String(c) + String(repeating: "b", count: 9)
        #expect(Self.buffer { $0.string(s) } == Self.writer { $0.string(s) }, "\(Array(s.utf8))")
      }
    }
  }

  @Test func numbersAsTheCanonicalWriterWritesThem() {
    var rng = SplitMix64(seed: 30)
    var ints: [Int64] = [0, 1, -1, 9, 10, 99, 100, -100, .max, .min, .max - 1, .min + 1]
    for _ in 0..<20_000 { ints.append(Int64(bitPattern: rng.next()) >> Int64(rng.below(64))) }
    for i in ints { #expect(Self.buffer { $0.int(i) } == Self.writer { $0.int(i) }, "\(i)") }
    var doubles: [Double] = [0, 0.5, 1e-6, 123.456789, 1e15, -2.25]
    for _ in 0..<5_000 { doubles.append(Double(Int64(bitPattern: rng.next()) % 10_000_000_000) / 1_000_000) }
    for d in doubles { #expect(Self.buffer { $0.double(d) } == Self.writer { $0.double(d) }, "\(d)") }
  }

  @Test func valuesAsTheCanonicalWriterWritesThem() {
    var rng = SplitMix64(seed: 31)
    func value(_ depth: Int) -> JSONValue {
      switch rng.below(depth > 2 ? 4 : 6) {
      case 0: return .string(Self.randomString(&rng))
      case 1: return .int(Int64(bitPattern: rng.next()) >> 20)
      case 2: return rng.below(2) == 0 ? .bool(true) : .null
      case 3: return .double(Double(rng.below(1_000_000)) / 64)
      case 4: return .array((0..<rng.below(4)).map { _ in value(depth + 1) })
      default: return .object((0..<rng.below(4)).map { i in ("k\(i)" + Self.randomString(&rng), value(depth + 1)) })
      }
    }
    for _ in 0..<5_000 {
      let v = value(0)
      #expect(Self.buffer { $0.json(v) } == Self.writer { $0.value(v) }, "\(v.canonicalText)")
    }
  }
}
