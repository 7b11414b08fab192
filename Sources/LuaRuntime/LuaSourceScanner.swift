/// Finds the `<close>` attribute in Lua source the way Lua's own lexer sees it.
///
/// To-be-closed variables call `__close` with the count hook off, at exits the host cannot
/// stop, so the sandbox refuses them before compiling. A textual search is not enough: Lua
/// allows spaces, newlines and comments between the tokens (`local x <--[[c]]close> = v`),
/// and `<close>` inside a string or a comment is no attribute. This scanner skips comments,
/// short and long strings, and numerals exactly as `llex.c` does, and reports the tokens
/// `<` `close` `>` wherever they appear. With no `<close>` variable, no `__close` metamethod
/// is ever called, however it was set (Lua calls it for to-be-closed variables only).
package enum LuaSourceScanner {
  /// The line of the first `<close>` attribute in `source`, or nil.
  package static func closeAttributeLine(_ source: String) -> Int? {
    var source = source
    return source.withUTF8 { closeAttributeLine(bytes: $0) }
  }

  /// The tokens the search follows; everything else is `.other`.
  private enum Token: Equatable {
    case less, close, greater, other
  }

  package static func closeAttributeLine(bytes b: UnsafeBufferPointer<UInt8>) -> Int? {
    var line = 1
    var i = 0
    var matched = 0  // tokens of `<` `close` `>` seen in a row
    var attributeLine = 0
    let n = b.count
    func at(_ k: Int) -> UInt8 { k < n ? b[k] : 0 }

    while i < n {
      let c = b[i]
      var token = Token.other
      switch c {
      case 0x0A:
        line += 1
        i += 1
        continue
      case 0x20, 0x09, 0x0D, 0x0B, 0x0C:
        i += 1
        continue
      case 0x2D where at(i + 1) == 0x2D:  // comment
        i += 2
        if let level = longBracketLevel(b, i) {
          i = skipLong(b, from: i, level: level, line: &line)
        } else {
          while i < n, b[i] != 0x0A { i += 1 }
        }
        continue
      case 0x5B:  // '[': a long string, or the token '['
        if let level = longBracketLevel(b, i) {
          i = skipLong(b, from: i, level: level, line: &line)
        } else {
          i += 1
        }
      case 0x22, 0x27:  // short string
        i = skipShortString(b, from: i, line: &line)
      case 0x3C:  // '<', unless '<=' or '<<'
        if at(i + 1) == 0x3D || at(i + 1) == 0x3C {
          i += 2
        } else {
          token = .less
          i += 1
        }
      case 0x3E:  // '>', '>=' or '>>' all end an attribute's name
        token = .greater
        i += 1
      case _ where isNameStart(c):
        let start = i
        i = skipName(b, start)
        if isClose(b, start..<i) { token = .close }
      case _ where c &- 0x30 < 10 || (c == 0x2E && at(i + 1) &- 0x30 < 10):  // numeral
        i = skipNumeral(b, i)
      default:
        i += 1
      }
      switch (matched, token) {
      case (_, .less):
        matched = 1
        attributeLine = line
      case (1, .close): matched = 2
      case (2, .greater): return attributeLine
      default: matched = 0
      }
    }
    return nil
  }

  package static func isNameStart(_ c: UInt8) -> Bool { (c | 0x20) &- 0x61 < 26 || c == 0x5F }

  /// `[` `=`* `[` at `i`: the number of `=`; nil if no long bracket opens there.
  package static func longBracketLevel(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int? {
    guard i < b.count, b[i] == 0x5B else { return nil }
    var k = i + 1
    while k < b.count, b[k] == 0x3D { k += 1 }
    return k < b.count && b[k] == 0x5B ? k - i - 1 : nil
  }

  /// Skips a long string or comment opened at `from`; returns the index after its closing bracket.
  package static func skipLong(_ b: UnsafeBufferPointer<UInt8>, from: Int, level: Int, line: inout Int) -> Int {
    var i = from + level + 2
    while i < b.count {
      if b[i] == 0x0A { line += 1 }
      if b[i] == 0x5D {
        var k = i + 1
        while k < b.count, b[k] == 0x3D { k += 1 }
        if k - i - 1 == level, k < b.count, b[k] == 0x5D { return k + 1 }
      }
      i += 1
    }
    return i
  }

  /// Skips a short string opened by the quote at `from` (it ends at the same quote or at a line
  /// end); returns the index after it. An escape's next byte never ends the string, and an
  /// escaped newline counts as a line.
  package static func skipShortString(_ b: UnsafeBufferPointer<UInt8>, from: Int, line: inout Int) -> Int {
    let quote = b[from]
    var i = from + 1
    while i < b.count, b[i] != quote, b[i] != 0x0A {
      if b[i] == 0x5C {
        i += 1
        if i < b.count, b[i] == 0x0A { line += 1 }
      }
      i += 1
    }
    return i + 1
  }

  /// Skips a name (letters, digits, `_`) starting at `start`; returns the index after it.
  package static func skipName(_ b: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int {
    var i = start
    while i < b.count, isNameStart(b[i]) || b[i] &- 0x30 < 10 { i += 1 }
    return i
  }

  /// Whether the name at `range` is `close`.
  private static func isClose(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
    range.count == 5 && b[range].elementsEqual("close".utf8)
  }

  /// `read_numeral`: digits, letters, dots and an exponent's sign.
  package static func skipNumeral(_ b: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int {
    var i = start
    var exponent: (UInt8, UInt8) = (0x45, 0x65)  // 'E', 'e'
    if b[i] == 0x30, i + 1 < b.count, b[i + 1] | 0x20 == 0x78 {
      exponent = (0x50, 0x70)  // hexadecimal: 'P', 'p'
      i += 2
    }
    while i < b.count {
      let c = b[i]
      if (c == exponent.0 || c == exponent.1), i + 1 < b.count, b[i + 1] == 0x2B || b[i + 1] == 0x2D {
        i += 2
      } else if isNameStart(c) || c &- 0x30 < 10 || c == 0x2E {
        i += 1
      } else {
        break
      }
    }
    return i
  }
}
