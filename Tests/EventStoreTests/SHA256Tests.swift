import EventStore
import Testing

/// The raw SHA-256 (the HTML pages' Content-Security-Policy hashes) and the hex the chain keeps
/// are one digest.
@Suite struct SHA256Tests {
  @Test func theRawDigestIsFIPSVectorAndTheChainsHex() {
    let abc = Array("abc".utf8)
    let raw = HashChain.sha256(of: abc)
    #expect(raw.count == 32)
    let hex = raw.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    #expect(hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(hex == HashChain.hex(of: abc))
    #expect(HashChain.sha256(of: []).prefix(4) == [0xe3, 0xb0, 0xc4, 0x42])
  }
}
