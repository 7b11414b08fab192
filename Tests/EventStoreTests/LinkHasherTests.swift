@testable import EventStore
import Testing
import TestSupport

/// Four links hashed side by side give libcrypto's digests, whatever the bodies' lengths and
/// however the lanes take up links as others finish.
@Suite struct LinkHasherTests {
  /// `count` links, body i of length `length(i)`, each with its own 64-byte previous digest text.
  private struct Links {
    let previous: [UInt8]
    let bodies: [[UInt8]]

    init(count: Int, seed: UInt64, length: (Int, inout SplitMix64) -> Int) {
      var rng = SplitMix64(seed: seed)
      previous = (0..<(count * HashChain.hexBytes)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
      bodies = (0..<count).map { i in
        let n = length(i, &rng)
        return (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
      }
    }

    /// Each link's digest as `LinkHasher` hands it over, by link.
    func digests(fourAtOnce: Bool) -> [[UInt8]] {
      var found = [[UInt8]](repeating: [], count: bodies.count)
      previous.withUnsafeBytes { previous in
        let bodies = self.bodies.map { body in
          let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: body.count, alignment: 1)
          copy.copyBytes(from: body)
          return UnsafeRawBufferPointer(copy)
        }
        defer { bodies.forEach { $0.deallocate() } }
        let all = LinkHasher.digests(count: bodies.count, fourAtOnce: fourAtOnce) { i in
          (previous.baseAddress! + i * HashChain.hexBytes, bodies[i])
        } check: { i, digest in
          #expect(found[i].isEmpty, "link \(i) handed over twice")
          found[i] = Array(UnsafeBufferPointer(start: digest, count: 32))
          return true
        }
        #expect(all)
      }
      return found
    }
  }

  @Test(.enabled(if: LinkHasher.lanesSupported, "the CPU has no SHA extensions"))
  func everyBodyLengthAcrossTheBlockEdgesHashesAsLibcryptoDoes() {
    // Lengths 0…300 in turn: every place of the padding's 1 bit and length, one tail block
    // or two, and lanes finishing at different blocks.
    let links = Links(count: 301, seed: 41) { i, _ in i }
    let lanes = links.digests(fourAtOnce: true), single = links.digests(fourAtOnce: false)
    #expect(single.allSatisfy { $0.count == 32 })
    for i in lanes.indices where lanes[i] != single[i] {
      Issue.record("body of \(i) bytes: \(lanes[i]) != \(single[i])")
    }
  }

  @Test(.enabled(if: LinkHasher.lanesSupported, "the CPU has no SHA extensions"))
  func linksOfMixedLengthsHashAsLibcryptoDoes() {
    let links = Links(count: 999, seed: 42) { _, rng in rng.below(3) == 0 ? rng.below(5_000) : 150 + rng.below(80) }
    #expect(links.digests(fourAtOnce: true) == links.digests(fourAtOnce: false))
  }

  @Test func aLinkHashesAsTheChainDoes() {
    let previous = [UInt8](repeating: UInt8(ascii: "a"), count: 64), body = Array("abc".utf8)
    for fourAtOnce in [false] + (LinkHasher.lanesSupported ? [true] : []) {
      var hex = ""
      let all = previous.withUnsafeBytes { p in
        body.withUnsafeBytes { b in
          LinkHasher.digests(count: 1, fourAtOnce: fourAtOnce) { _ in (p.baseAddress!, b) } check: { _, digest in
            hex = (0..<32).map { i in String(digest[i] >> 4, radix: 16) + String(digest[i] & 15, radix: 16) }.joined()
            return true
          }
        }
      }
      #expect(all)
      #expect(hex == HashChain.hex(of: previous + body), "four at once: \(fourAtOnce)")
    }
  }

  @Test(arguments: [false] + (LinkHasher.lanesSupported ? [true] : []))
  func aDigestMatchesItsLowercaseHexAndNothingElse(inC: Bool) {
    var rng = SplitMix64(seed: 44)
    func matches(_ digest: [UInt8], _ text: [UInt8]) -> Bool {
      digest.withUnsafeBufferPointer { d in
        text.withUnsafeBufferPointer { LinkHasher.digest(d.baseAddress!, matches: $0.baseAddress!, inC: inC) }
      }
    }
    for round in 0..<256 {
      let digest = (0..<32).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
      let hex = Array(digest.map { String($0 >> 4, radix: 16) + String($0 & 15, radix: 16) }.joined().utf8)
      #expect(matches(digest, hex))
      // One digit, at every place in turn, made another digit, upper case, or a neighbour of the
      // digits' ranges: never a match.
      let i = round % 64
      for other in Array("0123456789abcdefABCDEF/:`g".utf8) where other != hex[i] {
        var wrong = hex
        wrong[i] = other
        #expect(!matches(digest, wrong), "digit \(i) as \(other)")
      }
    }
  }

  @Test func aFailedCheckStopsTheHashing() {
    let links = Links(count: 40, seed: 43) { _, _ in 200 }
    for fourAtOnce in [false] + (LinkHasher.lanesSupported ? [true] : []) {
      var handed = 0
      let all = links.previous.withUnsafeBytes { previous in
        links.bodies[0].withUnsafeBytes { body in
          LinkHasher.digests(count: 40, fourAtOnce: fourAtOnce) { i in
            (previous.baseAddress! + i * HashChain.hexBytes, body)
          } check: { _, _ in
            handed += 1
            return handed < 5
          }
        }
      }
      #expect(!all)
      #expect(handed == 5)
    }
  }
}
