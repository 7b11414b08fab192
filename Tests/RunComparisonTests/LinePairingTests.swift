import RunComparison
import Testing
import TestSupport

@Suite struct LinePairingTests {
  /// The pairing as the renderer first did it: for each removed line, a search of the added ones.
  private func linearPairs(removed: [Int], added: [Int], texts: [String]) -> [(Int, Int)] {
    var unpaired = added, out: [(Int, Int)] = []
    for r in removed {
      guard let k = unpaired.firstIndex(where: { texts[$0] == texts[r] }) else { continue }
      out.append((r, unpaired.remove(at: k)))
    }
    return out
  }

  @Test func pairsAsASearchOfTheAddedLinesDoesOnGeneratedHunks() {
    var random = SplitMix64(seed: 34)
    for _ in 0..<200 {
      let count = 1 + random.below(40)
      let texts = (0..<count).map { _ in ["x", "y", "z", "w"][random.below(4)] }
      var removed: [Int] = [], added: [Int] = []
      for i in 0..<count { if random.below(2) == 0 { removed.append(i) } else { added.append(i) } }
      let indexed = LinePairing.pairs(removed: removed, added: added) { texts[$0] }
      let linear = linearPairs(removed: removed, added: added, texts: texts)
      #expect(indexed.map { [$0.removed, $0.added] } == linear.map { [$0.0, $0.1] })
    }
  }

  @Test func readsEachLineOnce() {
    // A hunk whose lines all differ (every time shifted): each key is read once, not once a pair.
    var reads = 0
    let pairs = LinePairing.pairs(removed: Array(0..<1000), added: Array(1000..<2000)) { i -> Int in
      reads += 1
      return i
    }
    #expect(pairs.isEmpty && reads == 2000)
  }
}
