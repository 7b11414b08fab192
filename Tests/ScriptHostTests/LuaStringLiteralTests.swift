import Testing
import TestSupport
@testable import LuaRuntime
@testable import ScriptHost

/// `LuaStringLiteral`: what lifesim writes into Lua source from data loads back as exactly that data.
@Suite struct LuaStringLiteralTests {
  @Test("control characters are three-digit escapes, so a digit after one is not read as part of it")
  func threeDigitEscapes() throws {
    #expect(LuaStringLiteral.quote([0x01, 0x32]) == #""\0012""#)
    #expect(LuaStringLiteral.quote([0x00, 0x1F, 0x7F, 0x39]) == #""\000\031\1279""#)
    #expect(LuaStringLiteral.quote("a\"b\\c\nd\re\tf") == #""a\"b\\c\nd\re\tf""#)
    #expect(try loaded(LuaStringLiteral.quote([0x01, 0x32])) == [0x01, 0x32])
  }

  @Test("valid UTF-8 stays readable; bytes that are not UTF-8, C1 controls and line separators are escaped")
  func highBytes() {
    #expect(LuaStringLiteral.quote("é→😀") == "\"é→😀\"")
    #expect(LuaStringLiteral.quote([0xFF, 0xC3]) == #""\255\195""#)
    #expect(LuaStringLiteral.quote("a\u{2028}b\u{85}") == #""a\226\128\168b\194\133""#)
  }

  @Test("a comment keeps its line: line endings and control characters are written as escapes")
  func commentsStayOnTheirLine() {
    #expect(LuaStringLiteral.comment("disk full\rlaunch()\nos.exit(1)\u{1B}[2J \"q\" \\") == #"disk full\rlaunch()\nos.exit(1)\027[2J "q" \"#)
    #expect(LuaStringLiteral.comment("x\u{2029}y") == #"x\226\128\169y"#)
  }

  @Test("unquote reads back what quote wrote, and the length it took")
  func unquoteInvertsQuote() {
    let bytes: [UInt8] = [0x22, 0x5C, 0x0A, 0x0D, 0x00, 0x31, 0xFF, 0xC3, 0xA9]
    let text = LuaStringLiteral.quote(bytes) + ", ios = 17 }"
    let read = LuaStringLiteral.unquote(Array(text.utf8))
    #expect(read?.bytes == bytes)
    #expect(read.map { Array(text.utf8).dropFirst($0.length) } == Array(", ios = 17 }".utf8)[...])
    #expect(LuaStringLiteral.unquote(Array(#""\x41""#.utf8)) == nil)
    #expect(LuaStringLiteral.unquote(Array(#""open"#.utf8)) == nil)
  }

  /// Seeded random byte strings, the bytes that need care drawn often: each literal, loaded by
  /// Lua, is the same bytes (the reliability suite runs the same check longer, through lua5.4).
  @Test("random byte strings round-trip through Lua, byte for byte")
  func randomBytesRoundTrip() throws {
    var random = SplitMix64(seed: 20261127)
    let special: [UInt8] = [0x00, 0x0A, 0x0D, 0x09, 0x22, 0x5C, 0x7F, 0x80, 0xC2, 0x85, 0xE2, 0x80, 0xA8, 0xFF, 0x31, 0x32]
    for _ in 0..<2_000 {
      let bytes = (0..<random.below(40)).map { _ in
        random.below(2) == 0 ? special[random.below(special.count)] : UInt8(truncatingIfNeeded: random.next())
      }
      let literal = LuaStringLiteral.quote(bytes)
      #expect(try loaded(literal) == bytes, "\(bytes) written as \(literal)")
      #expect(LuaStringLiteral.unquote(Array(literal.utf8))?.bytes == bytes)
    }
  }

  /// The bytes Lua 5.4 makes of `literal` (through the sandbox's own Lua).
  private func loaded(_ literal: String) throws -> [UInt8] {
    let vm = LuaVM(memoryLimitBytes: 1 << 26, instructionLimit: 0)
    vm.openSafeLibraries()
    let source = "local s = \(literal)\nlocal t = {}\nfor i = 1, #s do t[i] = string.format('%02x', s:byte(i)) end\nreturn table.concat(t)"
    if let problem = vm.load(source, chunkName: "literal") { throw LoadProblem(message: problem) }
    guard vm.protectedCall(nargs: 0, nresults: 1, freshBudget: true) == .ok, let hex = vm.string(-1) else {
      throw LoadProblem(message: "did not run")
    }
    let digits = Array(hex.utf8)
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0..<($0 + 2)], as: UTF8.self), radix: 16)! }
  }

  private struct LoadProblem: Error { let message: String }
}
