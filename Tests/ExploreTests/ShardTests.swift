import Testing
@testable import Explore
import ScriptHost

/// One `Shard` serves `lifesim test` and `lifesim explore`: any K/N slices a suite's cases, and
/// explore takes only the N that divide its lanes.
@Suite struct ShardTests {
  @Test("K/N reads 1 ≤ K ≤ N; I/N from 0 is the shard I+1/N")
  func reading() {
    #expect(Shard("2/4") == Shard(index: 2, count: 4))
    #expect(Shard(zeroBased: "1/4") == Shard(index: 2, count: 4))
    for bad in ["0/4", "5/4", "1/0", "1/", "/4", "1/4/2", "a/b", "-1/4", ""] { #expect(Shard(bad) == nil, "\(bad)") }
    #expect(Shard(zeroBased: "4/4") == nil)
    #expect(Shard(zeroBased: "\(Int.max)/4") == nil)
    #expect(Shard("2/4")?.text == "2/4")
  }

  @Test("item i is the shard's when i ≡ K−1 (mod N)")
  func membership() {
    let shard = Shard(index: 2, count: 4)
    #expect((0..<10).filter(shard.contains) == [1, 5, 9])
  }

  @Test("explore splits its 16 lanes into 1, 2, 4, 8 or 16 shards, never 3")
  func exploreLanes() {
    #expect([1, 2, 4, 8, 16].allSatisfy { Shard(index: 1, count: $0).splitsExploreLanes })
    #expect(Shard("1/3")?.splitsExploreLanes == false)
    #expect(Shard("3/3") != nil)
  }
}
