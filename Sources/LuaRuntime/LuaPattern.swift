#if canImport(Glibc)
import Glibc
#endif

/// Lua 5.4 patterns (the reference manual, §6.4.1), matched by the same backtracking
/// algorithm as Lua's `lstrlib.c`, with one addition: every step is counted against a
/// budget, so no pattern can run longer than the script's CPU budget allows.
///
/// The subject and the pattern are byte buffers that must be readable one byte past
/// their end, where a 0 byte sits (Lua strings are always stored that way, and the C
/// matcher relies on it: `%f` and `%b` read that byte at the end of the subject).
/// Positions are byte offsets from the start of the subject; `-1` means no match.
struct LuaPatternMatcher {
  /// `LUA_MAXCAPTURES`.
  static let maxCaptures = 32
  /// `MAXCCALLS` of `lstrlib.c`: how deep `match` may recurse before "pattern too complex".
  static let maxDepth = 200
  /// A capture's length while it is still open.
  static let unfinished = -1
  /// The length of a position capture `()`.
  static let position = -2

  /// The bytes matched (a small value, so the read-only helpers never copy the whole matcher).
  let text: LuaPatternText
  var subject: UnsafePointer<UInt8> { text.subject }
  var subjectCount: Int { text.subjectCount }
  var pattern: UnsafePointer<UInt8> { text.pattern }
  var patternCount: Int { text.patternCount }
  /// Captures: start offset and length (or `unfinished` / `position`).
  let captureStart: UnsafeMutablePointer<Int>
  let captureLength: UnsafeMutablePointer<Int>
  /// Captures opened so far (finished or not).
  var level = 0
  private var depthLeft = LuaPatternMatcher.maxDepth
  /// Steps still allowed; going below zero throws `LuaPatternError.budgetExhausted`.
  var stepsLeft: Int

  /// A matcher over `subject` and `pattern` (neither copied); `captures` holds room for `maxCaptures`.
  init(subject: UnsafePointer<UInt8>, count: Int, pattern: UnsafePointer<UInt8>, count patternCount: Int,
       captures: UnsafeMutablePointer<Int>, stepsLeft: Int) {
    text = LuaPatternText(subject: subject, subjectCount: count, pattern: pattern, patternCount: patternCount)
    self.captureStart = captures
    self.captureLength = captures + Self.maxCaptures
    self.stepsLeft = stepsLeft
  }

  /// Forgets the captures of the previous attempt (`reprepstate`).
  mutating func reset() { level = 0 }

  /// Spends `n` steps of the budget.
  @inline(__always) mutating func spend(_ n: Int) throws(LuaPatternError) {
    stepsLeft &-= n
    if stepsLeft < 0 { throw .budgetExhausted }
  }

  /// Matches the pattern from byte `p` against the subject from byte `s`; the end of the match or -1.
  mutating func match(_ sStart: Int, _ pStart: Int) throws(LuaPatternError) -> Int {
    if depthLeft == 0 { throw .message("pattern too complex") }
    depthLeft &-= 1
    var s = sStart
    var p = pStart
    scan: while p != patternCount {
      try spend(1)
      switch pattern[p] {
      case 0x28:  // '(' start capture
        if pattern[p &+ 1] == 0x29 {
          s = try startCapture(s, p &+ 2, Self.position)
        } else {
          s = try startCapture(s, p &+ 1, Self.unfinished)
        }
        break scan
      case 0x29:  // ')' end capture
        s = try endCapture(s, p &+ 1)
        break scan
      case 0x24 where p &+ 1 == patternCount:  // '$' as the last byte: end of subject
        s = s == subjectCount ? s : -1
        break scan
      case 0x25 where pattern[p &+ 1] == 0x62:  // '%b'
        s = try matchBalance(s, p &+ 2)
        if s != -1 { p &+= 4; continue scan }
        break scan
      case 0x25 where pattern[p &+ 1] == 0x66:  // '%f'
        p &+= 2
        guard pattern[p] == 0x5B else { throw .message("missing '[' after '%f' in pattern") }
        let ep = try text.classEnd(p)
        let previous = s == 0 ? 0 : subject[s &- 1]
        if !text.matchBracketClass(previous, p, ep &- 1) && text.matchBracketClass(subject[s], p, ep &- 1) {
          p = ep
          continue scan
        }
        s = -1
        break scan
      case 0x25 where pattern[p &+ 1] &- 0x30 < 10:  // '%0'...'%9': back-reference
        s = try matchCapture(s, Int(pattern[p &+ 1]))
        if s != -1 { p &+= 2; continue scan }
        break scan
      default:
        switch try matchItem(s, p) {
        case let .next(nextS, nextP):
          s = nextS; p = nextP
          continue scan
        case let .end(end):
          s = end
          break scan
        }
      }
    }
    depthLeft &+= 1
    return s
  }

  /// Where `match` goes after a pattern item: on with the scan, or to its end with this result.
  private enum MatchStep {
    case next(s: Int, p: Int)
    case end(Int)
  }

  /// One single-character class at `p` and its quantifier (`?`, `+`, `*`, `-` or none) against
  /// the subject at `s` (the `default` case of `do_match`).
  @inline(__always)
  private mutating func matchItem(_ s: Int, _ p: Int) throws(LuaPatternError) -> MatchStep {
    let ep = try text.classEnd(p)
    let suffix = pattern[ep]
    if !text.singleMatch(s, p, ep) {
      // '*', '?', '-' accept the empty match.
      return suffix == 0x2A || suffix == 0x3F || suffix == 0x2D ? .next(s: s, p: ep &+ 1) : .end(-1)
    }
    switch suffix {
    case 0x3F:  // '?'
      let res = try match(s &+ 1, ep &+ 1)
      return res != -1 ? .end(res) : .next(s: s, p: ep &+ 1)
    case 0x2B:  // '+'
      return .end(try maxExpand(s &+ 1, p, ep))
    case 0x2A:  // '*'
      return .end(try maxExpand(s, p, ep))
    case 0x2D:  // '-'
      return .end(try minExpand(s, p, ep))
    default:
      return .next(s: s &+ 1, p: ep)
    }
  }

  private mutating func matchBalance(_ start: Int, _ p: Int) throws(LuaPatternError) -> Int {
    if p >= patternCount &- 1 { throw .message("malformed pattern (missing arguments to '%b')") }
    if subject[start] != pattern[p] { return -1 }
    let open = pattern[p]
    let close = pattern[p &+ 1]
    var depth = 1
    var s = start &+ 1
    while s < subjectCount {
      try spend(1)
      let c = subject[s]
      if c == close {
        depth &-= 1
        if depth == 0 { return s &+ 1 }
      } else if c == open {
        depth &+= 1
      }
      s &+= 1
    }
    return -1
  }

  private mutating func maxExpand(_ s: Int, _ p: Int, _ ep: Int) throws(LuaPatternError) -> Int {
    var i = 0
    while text.singleMatch(s &+ i, p, ep) {
      try spend(1)
      i &+= 1
    }
    while i >= 0 {
      let res = try match(s &+ i, ep &+ 1)
      if res != -1 { return res }
      i &-= 1
    }
    return -1
  }

  private mutating func minExpand(_ start: Int, _ p: Int, _ ep: Int) throws(LuaPatternError) -> Int {
    var s = start
    while true {
      let res = try match(s, ep &+ 1)
      if res != -1 { return res }
      guard text.singleMatch(s, p, ep) else { return -1 }
      s &+= 1
    }
  }

  private mutating func startCapture(_ s: Int, _ p: Int, _ what: Int) throws(LuaPatternError) -> Int {
    if level >= Self.maxCaptures { throw .message("too many captures") }
    captureStart[level] = s
    captureLength[level] = what
    level &+= 1
    let res = try match(s, p)
    if res == -1 { level &-= 1 }
    return res
  }

  private mutating func endCapture(_ s: Int, _ p: Int) throws(LuaPatternError) -> Int {
    var l = level &- 1
    while l >= 0, captureLength[l] != Self.unfinished { l &-= 1 }
    if l < 0 { throw .message("invalid pattern capture") }
    captureLength[l] = s - captureStart[l]
    let res = try match(s, p)
    if res == -1 { captureLength[l] = Self.unfinished }
    return res
  }

  /// `%1`…`%9` in a pattern: the capture's text again at `s`.
  private mutating func matchCapture(_ s: Int, _ digit: Int) throws(LuaPatternError) -> Int {
    let l = digit &- 0x31
    if l < 0 || l >= level || captureLength[l] == Self.unfinished {
      throw .message("invalid capture index %\(l &+ 1)")
    }
    let length = captureLength[l]
    try spend(1 + max(length, 0) / LuaCost.bytesPerStep)
    guard length >= 0, subjectCount &- s >= length else { return -1 }
    return memcmp(subject + captureStart[l], subject + s, length) == 0 ? s &+ length : -1
  }

  /// Whether the pattern has none of `^$*+?.([%-` (then `find` searches for it as plain text).
  static func hasNoSpecials(_ p: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    for i in 0..<count {
      switch p[i] {
      case 0x5E, 0x24, 0x2A, 0x2B, 0x3F, 0x2E, 0x28, 0x5B, 0x25, 0x2D: return false
      default: continue
      }
    }
    return true
  }
}

/// The subject and the pattern, and the helpers that only read them.
struct LuaPatternText {
  let subject: UnsafePointer<UInt8>
  let subjectCount: Int
  let pattern: UnsafePointer<UInt8>
  let patternCount: Int

  /// The byte after the single-character class starting at `p` (`classend`).
  @inline(__always) func classEnd(_ start: Int) throws(LuaPatternError) -> Int {
    var p = start
    let c = pattern[p]
    p &+= 1
    if c == 0x25 {
      if p == patternCount { throw .message("malformed pattern (ends with '%')") }
      return p &+ 1
    }
    if c == 0x5B {
      if pattern[p] == 0x5E { p &+= 1 }
      repeat {
        if p == patternCount { throw .message("malformed pattern (missing ']')") }
        let ch = pattern[p]
        p &+= 1
        if ch == 0x25 && p < patternCount { p &+= 1 }
      } while pattern[p] != 0x5D
      return p &+ 1
    }
    return p
  }

  /// Whether the subject byte at `s` matches the class `p..<ep` (`singlematch`).
  @inline(__always) func singleMatch(_ s: Int, _ p: Int, _ ep: Int) -> Bool {
    if s >= subjectCount { return false }
    return classContains(subject[s], p, ep)
  }

  /// Whether byte `c` is in the single-character class `p..<ep`.
  @inline(__always) func classContains(_ c: UInt8, _ p: Int, _ ep: Int) -> Bool {
    switch pattern[p] {
    case 0x2E: return true
    case 0x25: return LuaCharacterClass.matches(c, pattern[p &+ 1])
    case 0x5B: return matchBracketClass(c, p, ep &- 1)
    default: return pattern[p] == c
    }
  }

  /// Whether `c` is in the set `[...]` from `p` (at '[') to `ec` (at ']').
  @inline(__always) func matchBracketClass(_ c: UInt8, _ start: Int, _ ec: Int) -> Bool {
    var p = start
    var inSet = true
    if pattern[p &+ 1] == 0x5E {
      inSet = false
      p &+= 1
    }
    p &+= 1
    while p < ec {
      let item = pattern[p]
      if item == 0x25 {
        if LuaCharacterClass.matches(c, pattern[p &+ 1]) { return inSet }
        p &+= 2
      } else if pattern[p &+ 1] == 0x2D && p &+ 2 < ec {
        if item <= c && c <= pattern[p &+ 2] { return inSet }
        p &+= 3
      } else {
        if item == c { return inSet }
        p &+= 1
      }
    }
    return !inSet
  }
}

/// Why a match stopped without an answer.
enum LuaPatternError: Error {
  /// A malformed pattern or a bad capture: the message `lstrlib.c` gives (without location).
  case message(String)
  /// The CPU budget ran out.
  case budgetExhausted
  /// The result would pass the memory limit.
  case memoryExhausted
  /// Lua code called by the matcher (a `gsub` replacement) raised; its error value is on top of the stack.
  case raised
}

/// The classes `%a %c %d %g %l %p %s %u %w %x` (and their complements) in the C locale.
enum LuaCharacterClass {
  /// `match_class`: whether byte `c` is in the class named by `cl` (an upper-case name negates).
  @inline(__always) static func matches(_ c: UInt8, _ cl: UInt8) -> Bool {
    let res: Bool
    switch cl | 0x20 {
    case 0x61: res = isAlpha(c)                                   // a
    case 0x63: res = c < 0x20 || c == 0x7F                        // c
    case 0x64: res = c &- 0x30 < 10                               // d
    case 0x67: res = c > 0x20 && c < 0x7F                         // g
    case 0x6C: res = c &- 0x61 < 26                               // l
    case 0x70: res = c > 0x20 && c < 0x7F && !isAlnum(c)          // p
    case 0x73: res = c == 0x20 || (c >= 0x09 && c <= 0x0D)        // s
    case 0x75: res = c &- 0x41 < 26                               // u
    case 0x77: res = isAlnum(c)                                   // w
    case 0x78: res = c &- 0x30 < 10 || (c | 0x20) &- 0x61 < 6     // x
    case 0x7A: res = c == 0                                       // z (deprecated)
    default: return cl == c
    }
    return cl &- 0x61 < 26 ? res : !res
  }

  @inline(__always) static func isAlpha(_ c: UInt8) -> Bool { (c | 0x20) &- 0x61 < 26 }
  @inline(__always) static func isAlnum(_ c: UInt8) -> Bool { isAlpha(c) || c &- 0x30 < 10 }
}
