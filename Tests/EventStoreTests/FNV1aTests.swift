import Testing
import EventStore

/// FNV-1a takes a fast path over contiguous bytes and a plain loop over any other sequence:
/// both must give the published digests, since run ids and the prelude's source hash rest on them.
struct FNV1aTests {
  @Test func publishedDigests() {
    #expect(FNV1a.hash("".utf8) == 0xcbf2_9ce4_8422_2325)
    #expect(FNV1a.hash("a".utf8) == 0xaf63_dc4c_8601_ec8c)
    #expect(FNV1a.hash("foobar".utf8) == 0x8594_4171_f739_67e8)
  }

  @Test func contiguousAndOtherSequencesAgree() {
    let text = "local hooks = ...\n-- é, 日本\n" + String(repeating: "x", count: 300)
    let bytes = Array(text.utf8)
    let notContiguous = text.utf8.lazy.map { $0 }
    #expect(notContiguous.withContiguousStorageIfAvailable { _ in true } == nil)
    #expect(FNV1a.hash(text.utf8) == FNV1a.hash(notContiguous))
    #expect(FNV1a.hash(bytes) == FNV1a.hash(notContiguous))
    #expect(FNV1a.hash(bytes.dropFirst()) != FNV1a.hash(bytes))
  }
}
