@testable import EventStore
import Testing
import TestSupport

/// Four links hashed side by side and compared in C give libcrypto's verdicts, whatever the
/// bodies' lengths and however the lanes take up links as others finish.
@Suite struct LinkHasherTests {
  /// `count` links, body i of length `length(i)`, each with its own 64-byte previous digest
  /// text, and each recorded as libcrypto's digest of its link in lowercase hex.
  private struct Links {
    let previous: [UInt8]
    let bodies: [[UInt8]]
    var recorded: [UInt8]

    init(count: Int, seed: UInt64, length: (Int, inout SplitMix64) -> Int) {
      var rng = SplitMix64(seed: seed)
      let previous = (0..<(count * HashChain.hexBytes)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
      let bodies = (0..<count).map { i in
        let n = length(i, &rng)
        return (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
      }
      recorded = bodies.indices.flatMap { i in
        Array(HashChain.hex(of: Array(previous[(i * HashChain.hexBytes)..<((i + 1) * HashChain.hexBytes)]) + bodies[i]).utf8)
      }
      (self.previous, self.bodies) = (previous, bodies)
    }

    /// The link `LinkHasher` finds does not match, if any, and how many times it asked for each link.
    func mismatch(fourAtOnce: Bool) -> (Int?, asked: [Int]) {
      var asked = [Int](repeating: 0, count: bodies.count)
      let found = previous.withUnsafeBytes { previous in
        recorded.withUnsafeBytes { recorded in
          let bodies = self.bodies.map { body in
            let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: body.count, alignment: 1)
            copy.copyBytes(from: body)
            return UnsafeRawBufferPointer(copy)
          }
          defer { bodies.forEach { $0.deallocate() } }
          return LinkHasher.mismatch(count: bodies.count, fourAtOnce: fourAtOnce) { i in
            asked[i] += 1
            return LinkHasher.Link(previous: previous.baseAddress! + i * HashChain.hexBytes, body: bodies[i],
                                   recorded: recorded.baseAddress! + i * HashChain.hexBytes)
          }
        }
      }
      return (found, asked)
    }
  }

  private static let ways = [false] + (LinkHasher.lanesSupported ? [true] : [])

  @Test(arguments: ways)
  func everyBodyLengthAcrossTheBlockEdgesMatchesLibcrypto(fourAtOnce: Bool) {
    // Lengths 0…300 in turn: every place of the padding's 1 bit and length, one tail block
    // or two, and lanes finishing at different blocks.
    let links = Links(count: 301, seed: 41) { i, _ in i }
    let (found, asked) = links.mismatch(fourAtOnce: fourAtOnce)
    #expect(found == nil)
    #expect(asked == [Int](repeating: 1, count: 301))
  }

  @Test(arguments: ways)
  func linksOfMixedLengthsMatchLibcrypto(fourAtOnce: Bool) {
    let links = Links(count: 999, seed: 42) { _, rng in rng.below(3) == 0 ? rng.below(5_000) : 150 + rng.below(80) }
    #expect(links.mismatch(fourAtOnce: fourAtOnce).0 == nil)
  }

  @Test(arguments: ways)
  func aLinkHashesAsTheChainDoes(fourAtOnce: Bool) {
    let previous = [UInt8](repeating: UInt8(ascii: "a"), count: 64), body = Array("abc".utf8)
    let right = Array(HashChain.hex(of: previous + body).utf8)
    // The digest of 64 a ‖ abc, from Python's hashlib.
    #expect(String(decoding: right, as: UTF8.self) == "18917c887594f95a0a81701c589533ff21c74b1fb567e4521272f37815a64275")
    var wrong = right
    wrong[63] = right[63] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
    for (recorded, expected) in [(right, nil), (wrong, 0)] as [([UInt8], Int?)] {
      let found = previous.withUnsafeBytes { p in
        body.withUnsafeBytes { b in
          recorded.withUnsafeBytes { r in
            LinkHasher.mismatch(count: 1, fourAtOnce: fourAtOnce) { _ in LinkHasher.Link(previous: p.baseAddress!, body: b, recorded: r.baseAddress!) }
          }
        }
      }
      #expect(found == expected)
    }
  }

  @Test(arguments: ways)
  func aDigestMatchesItsLowercaseHexAndNothingElse(fourAtOnce: Bool) {
    // One digit of one link's record, at every place in turn, made another digit, upper case,
    // or a neighbour of the digits' ranges: that link, and no other, does not match.
    var links = Links(count: 8, seed: 44) { _, _ in 120 }
    let original = links.recorded
    for place in 0..<(8 * 64) {
      for other in Array("0123456789abcdefABCDEF/:`g".utf8) where other != original[place] {
        links.recorded = original
        links.recorded[place] = other
        #expect(links.mismatch(fourAtOnce: fourAtOnce).0 == place / 64, "digit \(place % 64) of link \(place / 64) as \(other)")
      }
    }
  }

  @Test(arguments: ways)
  func theFirstMismatchFoundIsTheAnswer(fourAtOnce: Bool) {
    var links = Links(count: 40, seed: 43) { _, _ in 200 }
    links.recorded[4 * 64] ^= 1
    links.recorded[30 * 64 + 9] ^= 1
    let (found, asked) = links.mismatch(fourAtOnce: fourAtOnce)
    #expect(found == 4)
    // One at a time stops asking at the mismatch; four at once asks for every link first.
    #expect(asked == [Int](repeating: 1, count: fourAtOnce ? 40 : 5) + [Int](repeating: 0, count: fourAtOnce ? 0 : 35))
  }

  /// A chain's link hashed in one lane writes libcrypto's digest in hex, wherever the message
  /// splits between its parts and wherever the padding falls: messages of 0 to 300 bytes
  /// after no previous digest or one, the last part empty, a byte or longer.
  @Test(.enabled(if: LinkHasher.lanesSupported))
  func oneLinkInOneLaneWritesLibcryptosDigest() {
    var rng = SplitMix64(seed: 43)
    let bytes = (0..<(300 + HashChain.hexBytes)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
    var differ = 0
    bytes.withUnsafeBytes { all in
      for length in 0...300 {
        for (withPrevious, split) in [(false, length), (true, length), (true, max(length - 1, 0)), (false, length / 3)] {
          let previous = withPrevious ? all.baseAddress! : nil
          let message = all.baseAddress! + HashChain.hexBytes
          let a = UnsafeRawBufferPointer(start: message, count: split)
          let b = UnsafeRawBufferPointer(start: message + split, count: length - split)
          var hex = (lane: [UInt8](repeating: 0, count: 64), libcrypto: [UInt8](repeating: 0, count: 64))
          hex.lane.withUnsafeMutableBytes { LinkHasher.linkHex(previous: previous, a, b, into: $0.baseAddress!, oneLane: true) }
          hex.libcrypto.withUnsafeMutableBytes { LinkHasher.linkHex(previous: previous, a, b, into: $0.baseAddress!, oneLane: false) }
          if hex.lane != hex.libcrypto { differ += 1 }
        }
      }
    }
    #expect(differ == 0)
    // SHA-256 of "abc" (FIPS 180-2, appendix B.1), through each.
    for oneLane in [true, false] {
      var hex = [UInt8](repeating: 0, count: 64)
      Array("abc".utf8).withUnsafeBytes { abc in
        hex.withUnsafeMutableBytes { LinkHasher.linkHex(previous: nil, abc, UnsafeRawBufferPointer(start: nil, count: 0), into: $0.baseAddress!, oneLane: oneLane) }
      }
      #expect(String(decoding: hex, as: UTF8.self) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
  }
}
