/// Skipping ahead while scanning a subject for the start of a match.
///
/// When every match must begin with one byte of the pattern's first item (a single class
/// with no suffix or with `+`), positions whose byte is not in that class cannot start a
/// match. `lstrlib.c` tries `match` at each of them; the scan skips them in a tight loop
/// but charges one step for each, exactly what `match` spends to reject one, so the budget
/// used is the same either way.
struct LuaPatternStart {
  /// The end of the mandatory first item, or -1 when a match may start anywhere.
  fileprivate let firstItemEnd: Int
  /// The first item's bytes as a 256-bit set (built only for long scans).
  fileprivate var set: (UInt64, UInt64, UInt64, UInt64)?

  /// No skipping (anchored patterns and short scans).
  static let anywhere = LuaPatternStart(firstItemEnd: -1, set: nil)

  @inline(__always) fileprivate func contains(_ c: UInt8) -> Bool {
    guard let set else { return true }
    let word: UInt64
    switch c >> 6 {
    case 0: word = set.0
    case 1: word = set.1
    case 2: word = set.2
    default: word = set.3
    }
    return word & (1 << UInt64(c & 63)) != 0
  }
}

extension LuaPatternMatcher {
  /// What a scan of `length` bytes can skip for this pattern.
  func scanStart(length: Int) -> LuaPatternStart {
    guard patternCount > 0 else { return .anywhere }
    switch pattern[0] {
    case 0x28, 0x29: return .anywhere
    case 0x24 where patternCount == 1: return .anywhere
    case 0x25 where pattern[1] == 0x62 || pattern[1] == 0x66 || pattern[1] &- 0x30 < 10: return .anywhere
    default: break
    }
    guard let ep = try? text.classEnd(0) else { return .anywhere }
    let suffix = pattern[ep]
    if suffix == 0x2A || suffix == 0x3F || suffix == 0x2D { return .anywhere }
    var start = LuaPatternStart(firstItemEnd: ep, set: nil)
    if length >= 64 {
      var words: [UInt64] = [0, 0, 0, 0]
      for c in 0...255 where text.classContains(UInt8(c), 0, ep) { words[c >> 6] |= 1 << UInt64(c & 63) }
      start.set = (words[0], words[1], words[2], words[3])
    }
    return start
  }

  /// The first position from `s` (before the subject's end) whose byte can start a match,
  /// or the subject's end; one step is spent per position skipped.
  @inline(__always) mutating func nextCandidate(_ s: Int, _ start: LuaPatternStart) throws(LuaPatternError) -> Int {
    let ep = start.firstItemEnd
    guard ep >= 0 else { return s }
    var i = s
    if start.set != nil {
      while i < subjectCount, !start.contains(subject[i]) { i += 1 }
    } else {
      while i < subjectCount, !text.classContains(subject[i], 0, ep) { i += 1 }
    }
    try spend(i - s)
    return i
  }
}
