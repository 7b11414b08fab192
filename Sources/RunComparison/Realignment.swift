/// Where two runs agree again after a difference: the smallest i + j (then the smallest i) with
/// A[i...] and B[j...] agreeing on the next `agreeingRun` events (or both ending), among the
/// pairs the look-ahead windows can judge.
struct Realignment {
  let a: PendingEvents, b: PendingEvents
  let aDone: Bool, bDone: Bool

  /// true: agree; false: differ; nil: a window ends before it can tell.
  func agrees(_ i: Int, _ j: Int) -> Bool? {
    var k = 0
    while k < EventDiffer.agreeingRun {
      let ai = i + k, bj = j + k
      if ai >= a.count || bj >= b.count {
        let aEnds = ai >= a.count && aDone, bEnds = bj >= b.count && bDone
        if aEnds && bEnds { return true }
        if (ai >= a.count && !aDone) || (bj >= b.count && !bDone) { return nil }
        return false  // one log ends, the other goes on
      }
      if !a.sameKey(ai, b, bj) { return false }
      k += 1
    }
    return true
  }

  /// The pair, if the windows are long enough to be sure no smaller one exists; nil: look
  /// further ahead. `final`: the windows cannot grow, take the best there is (everything left
  /// differs if none).
  func pair(final: Bool) -> (Int, Int)? {
    // Small windows (most differences are a few events) are searched diagonal by diagonal,
    // larger ones through an index of B's keys; both find the same pair.
    let best = a.count * b.count <= Self.diagonalSearchPairsMax ? diagonalBest() : indexedBest()
    if final { return best ?? (a.count, b.count) }
    guard let (i, j) = best else { return nil }
    // Sure only if every smaller i' + j' could be judged inside the windows.
    let reach = i + j + EventDiffer.agreeingRun - 1
    return (aDone || reach <= a.count) && (bDone || reach <= b.count) ? (i, j) : nil
  }

  /// Windows of up to this many pairs are searched without an index.
  static let diagonalSearchPairsMax = 256

  /// Both runs ending together, when both have ended inside the windows: everything left differs.
  private var bothEnd: (Int, Int)? { aDone && bDone ? (a.count, b.count) : nil }

  /// Pairs in order of i + j, then i: the first that agrees is the best.
  private func diagonalBest() -> (Int, Int)? {
    guard a.count > 0, b.count > 0 else { return bothEnd }
    for d in 0...(a.count + b.count - 2) {
      for i in max(0, d - (b.count - 1))...min(d, a.count - 1) where agrees(i, d - i) == true {
        return (i, d - i)
      }
    }
    return bothEnd
  }

  /// Each event of A against the events of B with its key, through an index of B's keys, so
  /// the search is linear in the windows, not quadratic.
  private func indexedBest() -> (Int, Int)? {
    var positions: [Int: [Int]] = [:]
    for j in 0..<b.count { positions[b.keyHash(j), default: []].append(j) }
    var best = bothEnd
    for i in 0..<a.count {
      if let b0 = best, i >= b0.0 + b0.1 { break }
      for j in positions[a.keyHash(i)] ?? [] {
        if let b0 = best, i + j >= b0.0 + b0.1 { break }
        if agrees(i, j) == true { best = (i, j); break }
      }
    }
    return best
  }
}
