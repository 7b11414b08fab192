import TestSupport

/// Seeded generation of pattern/subject cases for the differential test against stock `lua5.4`.
///
/// Patterns are built from the grammar of Lua 5.4's manual §6.4.1 (classes, sets, quantifiers,
/// captures, position captures, `%b`, `%f`, back-references, anchors), and a share of them is
/// damaged on purpose so every error of the matcher is exercised. Each case becomes one Lua
/// table in a driver chunk that both interpreters run.
struct PatternCaseGenerator {
  private var random: SplitMix64

  init(seed: UInt64) { random = SplitMix64(seed: seed) }

  private mutating func below(_ n: Int) -> Int { random.below(n) }
  private mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
  private mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

  private static let subjectBytes = Array("aabbcx ( )[].%-+1\n\0\u{7f}".utf8) + [0xC3, 0xA9]
  private static let literalBytes = Array("abcx 1\n\0".utf8) + [0xE9]
  private static let classLetters = Array("adswlupxcgzADSWLUPXCGZ".utf8)
  private static let specials = Array("().%+-*?[]^$".utf8)

  /// One case as a Lua table constructor.
  mutating func luaCase() -> String {
    let roll = below(100)
    let subject = self.subject()
    let pattern = self.pattern()
    switch roll {
    case 0..<22: return "{'find', \(lit(subject)), \(lit(pattern)), \(initArgument()), \(plainArgument())}"
    case 22..<32: return "{'mfind', \(lit(subject)), \(lit(pattern)), \(initArgument()), \(plainArgument())}"
    case 32..<50: return "{'match', \(lit(subject)), \(lit(pattern)), \(initArgument())}"
    case 50..<64: return "{'gmatch', \(lit(subject)), \(lit(pattern)), \(initArgument())}"
    case 64..<96: return "{'gsub', \(lit(subject)), \(lit(pattern)), \(replacement()), \(countArgument())}"
    default: return badArguments(subject, pattern)
    }
  }

  private mutating func badArguments(_ subject: [UInt8], _ pattern: [UInt8]) -> String {
    switch below(6) {
    case 0: return "{'find', nil, \(lit(pattern))}"
    case 1: return "{'match', \(lit(subject)), {}}"
    case 2: return "{'gsub', \(lit(subject)), \(lit(pattern)), true}"
    case 3: return "{'gsub', \(lit(subject)), \(lit(pattern)), nil}"
    case 4: return "{'mfind', \(lit(subject)), nil}"
    default: return "{'gmatch', 12.5, \(lit(pattern))}"
    }
  }

  private mutating func initArgument() -> String {
    if chance(55) { return "nil" }
    return pick(["0", "1", "2", "3", "-1", "-2", "-5", "-100", "100", "\(below(20))", "-\(below(20))",
                 "9007199254740992", "-9007199254740992", "math.maxinteger", "math.mininteger", "2.0", "'2'", "'x'", "1.5"])
  }

  private mutating func plainArgument() -> String { chance(70) ? "nil" : pick(["true", "false", "1"]) }

  private mutating func countArgument() -> String {
    chance(70) ? "nil" : pick(["0", "1", "2", "3", "-1", "'2'", "2.5", "math.maxinteger"])
  }

  private mutating func replacement() -> String {
    switch below(10) {
    case 0..<5:
      var r: [UInt8] = []
      for _ in 0..<below(6) {
        if chance(35) {
          r += [0x25, pick(Array("0123%a9".utf8))]
        } else {
          r.append(pick(Self.literalBytes))
        }
      }
      if chance(5) { r.append(0x25) }
      return lit(r)
    case 5: return pick(["42", "1.5", "-0.0"])
    case 6..<8: return "F\(1 + below(6))"
    default: return "T\(1 + below(3))"
    }
  }

  private mutating func subject() -> [UInt8] {
    if chance(10) {
      // Nested brackets for %b and captures.
      var s: [UInt8] = []
      for _ in 0..<below(12) { s.append(pick(Array("(()x)[]ab".utf8))) }
      return s
    }
    var s: [UInt8] = []
    for _ in 0..<below(18) { s.append(pick(Self.subjectBytes)) }
    return s
  }

  /// A pattern; about one in ten is malformed on purpose.
  mutating func pattern() -> [UInt8] {
    var p: [UInt8] = []
    if chance(15) { p.append(0x5E) }
    var open = 0
    var closed = 0
    for _ in 0..<below(6) { p += item(open: &open, closed: &closed) }
    while open > 0 { p.append(0x29); open -= 1 }
    if chance(12) { p.append(0x24) }
    if chance(10) { p = damage(p) }
    return p
  }

  private mutating func damage(_ p: [UInt8]) -> [UInt8] {
    switch below(10) {
    case 0: return p + [0x25]
    case 1: return p + Array("[a".utf8)
    case 2: return p + [0x29]
    case 3: return [0x28] + p
    case 4: return p + Array("%fa".utf8)
    case 5: return p + Array("%bx".utf8)
    case 6: return p + Array("%\(below(10))".utf8)
    case 7: return Array(repeating: 0x28, count: 33) + p + Array(repeating: 0x29, count: 33)
    case 8: return p + Array("[%".utf8)
    default: return p + Array("[^".utf8)
    }
  }

  private mutating func item(open: inout Int, closed: inout Int) -> [UInt8] {
    switch below(100) {
    case 0..<55:
      var a = single()
      if chance(45) { a.append(pick(Array("*+-?".utf8))) }
      return a
    case 55..<62: return Array("%b".utf8) + (chance(70) ? Array("()".utf8) : [pick(Self.subjectBytes), pick(Self.subjectBytes)])
    case 62..<68: return Array("%f".utf8) + set()
    case 68..<74: return Array("%\(1 + below(3))".utf8)
    case 74..<80: return Array("()".utf8)
    case 80..<92:
      open += 1
      return [0x28]
    default:
      if open > 0 {
        open -= 1
        closed += 1
        return [0x29]
      }
      return single()
    }
  }

  private mutating func single() -> [UInt8] {
    switch below(10) {
    case 0..<4: return [pick(Self.literalBytes)]
    case 4: return [0x25, pick(Self.specials)]
    case 5: return [0x2E]
    case 6..<8: return [0x25, pick(Self.classLetters)]
    default: return set()
    }
  }

  private mutating func set() -> [UInt8] {
    var s: [UInt8] = [0x5B]
    if chance(30) { s.append(0x5E) }
    if chance(10) { s.append(0x5D) }
    for _ in 0..<(1 + below(3)) {
      switch below(6) {
      case 0: s += Array("a-c".utf8)
      case 1: s += [0x25, pick(Self.classLetters)]
      case 2: s += [0x25, pick(Self.specials)]
      case 3: s.append(0x2D)
      default: s.append(pick(Self.subjectBytes))
      }
    }
    s.append(0x5D)
    return s
  }

  /// A Lua string literal for any bytes (decimal escapes, so no byte is interpreted).
  func lit(_ bytes: [UInt8]) -> String {
    var out = "\""
    for b in bytes {
      if b >= 0x20 && b < 0x7F && b != 0x22 && b != 0x5C {
        out.unicodeScalars.append(Unicode.Scalar(b))
      } else {
        let digits = String(b)
        out += "\\" + String(repeating: "0", count: 3 - digits.count) + digits
      }
    }
    return out + "\""
  }
}
