import Testing
@testable import JSON

/// `CanonicalJSONWriter.string`: the escapes of RFC 8259 for exactly the bytes that need one,
/// wherever the byte falls in the text. The scan reads 8 bytes at a time (the last 8 again
/// when the length is not a multiple), and one at a time below 8, so each length from 0 to 40
/// is tried with the byte at each place. The writer's output cannot show a scan that says yes
/// too often (the slow path writes the same bytes), so the scan's answer is checked too.
@Suite struct CanonicalStringTests {
  /// Bytes that need an escape, and bytes either side of each (which must be copied as they are).
  static let needing: [UInt8] = [0x00, 0x01, 0x09, 0x0A, 0x1F, 0x22, 0x5C]
  static let plain: [UInt8] = [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0x80, 0xA2, 0xDC, 0xFF]

  /// What the writer must produce, written one byte at a time.
  static func expected(_ bytes: [UInt8]) -> String {
    var out = "\""
    for b in bytes {
      switch b {
      case 0x22: out += "\\\""
      case 0x5C: out += "\\\\"
      case 0x0A: out += "\\n"
      case 0x09: out += "\\t"
      case 0x00..<0x20: out += "\\u00" + String(b >> 4, radix: 16) + String(b & 0xF, radix: 16)
      default: out += String(UnicodeScalar(b))
      }
    }
    return out + "\""
  }

  static func written(_ bytes: [UInt8]) -> String {
    var w = CanonicalJSONWriter()
    w.string(String(decoding: bytes, as: UTF8.self))
    return w.text
  }

  @Test func everyLengthAndPlaceOfAByteThatNeedsAnEscape() {
    for length in 1...40 {
      for place in 0..<length {
        for b in Self.needing {
          var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
          bytes[place] = b
          #expect(Self.written(bytes) == Self.expected(bytes), "length \(length), 0x\(String(b, radix: 16)) at \(place)")
        }
      }
    }
  }

  /// `EscapeScan` itself: no for text of bytes next to the ones to catch (and of bytes of 0x80
  /// and above), yes as soon as one such byte stands anywhere among them.
  @Test func theScanSaysYesExactlyForTextWithAByteToEscape() {
    for length in 0...40 {
      for fill in Self.plain {
        var bytes = [UInt8](repeating: fill, count: length)
        #expect(!bytes.withUnsafeBufferPointer(EscapeScan.needsEscaping), "length \(length) of 0x\(String(fill, radix: 16))")
        for place in 0..<length {
          for b in Self.needing {
            bytes[place] = b
            #expect(bytes.withUnsafeBufferPointer(EscapeScan.needsEscaping), "0x\(String(b, radix: 16)) at \(place) of \(length)")
            bytes[place] = fill
          }
        }
      }
    }
  }

  @Test func bytesBesideTheOnesThatNeedAnEscapeAreCopied() {
    for length in 0...40 {
      for b in Self.plain where b < 0x80 {
        let bytes = [UInt8](repeating: b, count: length)
        #expect(Self.written(bytes) == "\"" + String(repeating: String(UnicodeScalar(b)), count: length) + "\"", "length \(length), 0x\(String(b, radix: 16))")
      }
      // Multi-byte characters: every byte at 0x80 or above, none needing an escape.
      let text = String(repeating: "é¢ü", count: length)
      var w = CanonicalJSONWriter()
      w.string(text)
      #expect(w.text == "\"" + text + "\"", "\(length) × é¢ü")
    }
  }

  /// The writer's own copy (keys, kinds, numbers' digits and plain strings go through it): two
  /// words that may overlap up to 16 bytes, `memcpy` past that. Each length copies exactly its
  /// bytes, in order, and writes nothing after them.
  @Test func theShortCopyWritesExactlyItsBytesAtEveryLength() {
    let source = (0..<40).map { UInt8(ascii: "A") &+ UInt8($0) }
    for length in 0...40 {
      var target = [UInt8](repeating: 0, count: 48)
      source.withUnsafeBufferPointer { from in
        target.withUnsafeMutableBufferPointer { to in CanonicalJSONWriter.copy(to: to.baseAddress!, from: from.baseAddress!, count: length) }
      }
      #expect(Array(target[..<length]) == Array(source[..<length]) && target[length...].allSatisfy { $0 == 0 }, "length \(length)")
    }
  }
}
