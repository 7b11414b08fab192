import LuaRuntime
/// A Lua source cut into the tokens `lifesim test` reads, as Lua's own lexer (`llex.c`) cuts it:
/// comments (short ones end at `\n` or `\r`, long ones `--[==[ … ]==]` at their own level),
/// short and long strings, numerals and names. Everything else is one byte of punctuation.
struct LuaTokens {
  enum Token: Equatable {
    case name(String)
    /// A string literal's text; nil when it has escapes (`\n`, `\65`): only plain text is read.
    case string(String?)
    case punctuation(UInt8)
  }

  /// A token and the number of blocks (`function`, `do`, `if`, `repeat`) open around it.
  struct Located: Equatable {
    let token: Token
    let depth: Int
  }

  private(set) var tokens: [Located] = []

  init(_ source: String) {
    var source = source
    source.withUTF8 { tokens = Self.cut($0) }
  }

  private static func cut(_ b: UnsafeBufferPointer<UInt8>) -> [Located] {
    var out: [Located] = []
    var depth = 0
    var line = 1  // counted by the skips, unused here
    var i = 0
    let n = b.count
    func at(_ k: Int) -> UInt8 { k < n ? b[k] : 0 }
    while i < n {
      let c = b[i]
      switch c {
      case 0x0A, 0x0D, 0x20, 0x09, 0x0B, 0x0C:
        i += 1
      case 0x2D where at(i + 1) == 0x2D:  // a comment
        i += 2
        if let level = LuaSourceScanner.longBracketLevel(b, i) {
          i = LuaSourceScanner.skipLong(b, from: i, level: level, line: &line)
        } else {
          while i < n, b[i] != 0x0A, b[i] != 0x0D { i += 1 }
        }
      case 0x5B:  // '[': a long string, or the token '['
        if let level = LuaSourceScanner.longBracketLevel(b, i) {
          let start = i + level + 2
          i = LuaSourceScanner.skipLong(b, from: i, level: level, line: &line)
          let end = max(start, i - level - 2)
          out.append(Located(token: .string(String(decoding: b[start..<min(end, n)], as: UTF8.self)), depth: depth))
        } else {
          out.append(Located(token: .punctuation(c), depth: depth))
          i += 1
        }
      case 0x22, 0x27:  // a short string
        let (text, next) = shortString(b, from: i)
        out.append(Located(token: .string(text), depth: depth))
        i = next
      case _ where LuaSourceScanner.isNameStart(c):
        let start = i
        i = LuaSourceScanner.skipName(b, start)
        let word = String(decoding: b[start..<i], as: UTF8.self)
        if ["end", "until"].contains(word) { depth = max(0, depth - 1) }
        out.append(Located(token: .name(word), depth: depth))
        if ["function", "do", "if", "repeat"].contains(word) { depth += 1 }
      case _ where c &- 0x30 < 10 || (c == 0x2E && at(i + 1) &- 0x30 < 10):
        i = LuaSourceScanner.skipNumeral(b, i)
      default:
        out.append(Located(token: .punctuation(c), depth: depth))
        i += 1
      }
    }
    return out
  }

  /// The short string opened at `from`: its plain text (nil with escapes) and the index after it.
  /// An unescaped line end ends it, as it ends Lua's reading of it (with an error).
  private static func shortString(_ b: UnsafeBufferPointer<UInt8>, from: Int) -> (String?, Int) {
    let quote = b[from]
    var i = from + 1
    var escaped = false
    while i < b.count, b[i] != quote, b[i] != 0x0A, b[i] != 0x0D {
      if b[i] == 0x5C {  // an escape: the next byte never ends the string
        escaped = true
        i += 1
        // An escaped line end is one line end, "\r\n" and "\n\r" included (`inclinenumber`).
        if i + 1 < b.count, b[i] == 0x0D || b[i] == 0x0A, b[i + 1] == 0x0D || b[i + 1] == 0x0A, b[i] != b[i + 1] { i += 1 }
      }
      i += 1
    }
    let end = min(i, b.count)
    let text = escaped ? nil : String(decoding: b[(from + 1)..<max(from + 1, end)], as: UTF8.self)
    return (text, i + 1)
  }
}
