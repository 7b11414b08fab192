internal import CLua
#if canImport(Glibc)
import Glibc
#endif

/// `string.gsub` on `LuaPatternMatcher` (`str_gsub`, `add_s` and `add_value` of `lstrlib.c`).
///
/// A replacement function or a table with a metatable runs Lua code; it is called with
/// `lua_pcall` (never `lua_call`: no error may cross a Swift frame) and an error it raises
/// is raised again unchanged. The result is built in Swift, so its size is checked against
/// the memory limit by hand and its bytes are charged to the CPU budget.
enum LuaPatternGsub {
  /// Sets `gsub` in the string table on top of the stack.
  static func install(on vm: LuaVM) {
    // Upvalue 2: `t[k]` with metamethods, for tables that have a metatable.
    guard vm.load("local t, k = ... return t[k]", chunkName: "=" + Sandbox.preludeName) == nil else {
      fatalError("the gsub indexer does not compile")
    }
    vm.pushHostFunction(gsub)
    vm.rawSet(-2, "gsub")
  }

  private static let gsub: clua_host_fn = { L in luaHostCall(L) { L throws(LuaRaise) in try substitute(L) } }

  /// What the third argument is.
  private enum Replacement {
    case text(UnsafePointer<UInt8>, Int)
    case function
    case table
  }

  private static func substitute(_ L: OpaquePointer) throws(LuaRaise) -> Int32 {
    let args = LuaArguments(L: L, libraryName: "string.gsub")
    let (s, ls) = try args.string(1)
    var (p, lp) = try args.string(2)
    let type = lua_type(L, 3)
    let maxCount = try args.optionalInteger(4, default: Int64(ls) + 1)
    let replacement: Replacement
    switch type {
    case LUA_TNUMBER, LUA_TSTRING:
      let (r, lr) = try args.string(3)
      replacement = .text(r, lr)
    case LUA_TFUNCTION: replacement = .function
    case LUA_TTABLE: replacement = .table
    default: throw args.typeError(3, expected: "string/function/table")
    }
    let anchored = p[0] == 0x5E
    if anchored { p += 1; lp -= 1 }
    let budget = LuaBudget(L)
    var out: [UInt8] = []
    var changed = false
    var count: Int64 = 0
    var src = 0
    var memoryChecked = 1 << 16
    _ = try LuaPatternLibrary.withCaptures(L, budget, args, subject: s, ls, pattern: p, lp) { (m: inout LuaPatternMatcher) throws(LuaPatternError) -> Int32 in
      var lastMatch = -1
      let start = anchored ? LuaPatternStart.anywhere : m.scanStart(length: ls)
      while count < maxCount {
        let candidate = try m.nextCandidate(src, start)
        if candidate > src {
          out.append(contentsOf: UnsafeBufferPointer(start: s + src, count: candidate - src))
          src = candidate
        }
        m.reset()
        let end = try m.match(src, 0)
        if end != -1 && end != lastMatch {
          count += 1
          let replaced = try add(L, &m, &out, src..<end, replacement, budget)
          changed = replaced || changed
          src = end
          lastMatch = end
        } else if src < ls {
          out.append(s[src])
          src += 1
        } else {
          break
        }
        if out.count >= memoryChecked {
          if budget.wouldExceedMemory(2 * out.count) { throw .memoryExhausted }
          memoryChecked = 2 * out.count
        }
        if anchored { break }
      }
      try m.spend(LuaCost.bytes(ls - src))
      return 0
    }
    if !changed {
      lua_pushvalue(L, 1)
    } else {
      out.append(contentsOf: UnsafeBufferPointer(start: s + src, count: ls - src))
      if budget.wouldExceedMemory(out.count) { throw LuaRaise("not enough memory") }
      out.withUnsafeBufferPointer { buf in
        buf.withMemoryRebound(to: CChar.self) { _ = lua_pushlstring(L, $0.baseAddress, $0.count) }
      }
    }
    lua_pushinteger(L, lua_Integer(count))
    return 2
  }

  /// `add_value`: appends the replacement for the match `whole`; whether the subject changed.
  private static func add(_ L: OpaquePointer, _ m: inout LuaPatternMatcher, _ out: inout [UInt8], _ whole: Range<Int>,
                          _ replacement: Replacement, _ budget: LuaBudget) throws(LuaPatternError) -> Bool {
    switch replacement {
    case let .text(r, lr):
      try addText(L, &m, &out, whole, r, lr)
      return true
    case .function:
      lua_pushvalue(L, 3)
      let n = try LuaPatternLibrary.pushCaptures(L, m, whole: whole)
      try callLua(&m, budget, nargs: n)
    case .table:
      if lua_getmetatable(L, 3) != 0 {
        clua_pop(L, 1)
        lua_pushvalue(L, clua_upvalueindex(2))
        lua_pushvalue(L, 3)
        try LuaPatternLibrary.pushCapture(L, m, 0, whole: whole)
        try callLua(&m, budget, nargs: 2)
      } else {
        try LuaPatternLibrary.pushCapture(L, m, 0, whole: whole)
        lua_rawget(L, 3)
      }
    }
    defer { clua_pop(L, 1) }
    if lua_toboolean(L, -1) == 0 {
      out.append(contentsOf: UnsafeBufferPointer(start: m.subject + whole.lowerBound, count: whole.count))
      return false
    }
    var length = 0
    guard lua_isstring(L, -1) != 0, let value = lua_tolstring(L, -1, &length) else {
      throw .message("invalid replacement value (a \(String(cString: lua_typename(L, lua_type(L, -1)))))")
    }
    try m.spend(LuaCost.bytes(length))
    UnsafeRawPointer(value).withMemoryRebound(to: UInt8.self, capacity: length) {
      out.append(contentsOf: UnsafeBufferPointer(start: $0, count: length))
    }
    return true
  }

  /// Calls the function below `nargs` values for one result, spending its instructions from the same budget.
  private static func callLua(_ m: inout LuaPatternMatcher, _ budget: LuaBudget, nargs: Int32) throws(LuaPatternError) {
    budget.storeMatcherSteps(m.stepsLeft)
    let ok = budget.callLua(nargs: nargs, nresults: 1)
    m.stepsLeft = budget.matcherSteps
    if !ok { throw .raised }
  }

  /// `add_s`: the replacement string with `%0`…`%9` and `%%` expanded.
  private static func addText(_ L: OpaquePointer, _ m: inout LuaPatternMatcher, _ out: inout [UInt8], _ whole: Range<Int>,
                              _ r: UnsafePointer<UInt8>, _ lr: Int) throws(LuaPatternError) {
    try m.spend(LuaCost.bytes(lr))
    var i = 0
    var literal = 0
    while i < lr {
      guard r[i] == 0x25 else { i += 1; continue }
      out.append(contentsOf: UnsafeBufferPointer(start: r + literal, count: i - literal))
      i += 1
      let c = r[i]  // the byte after '%' (the terminating 0 at the end)
      if c == 0x25 {
        out.append(c)
      } else if c == 0x30 {
        out.append(contentsOf: UnsafeBufferPointer(start: m.subject + whole.lowerBound, count: whole.count))
        try m.spend(LuaCost.bytes(whole.count))
      } else if c &- 0x30 < 10 {
        try appendCapture(L, &m, &out, Int(c) - 0x31, whole)
      } else {
        throw .message("invalid use of '%' in replacement string")
      }
      i += 1
      literal = i
    }
    out.append(contentsOf: UnsafeBufferPointer(start: r + literal, count: lr - literal))
  }

  /// `get_onecapture` for `%n` in a replacement string.
  private static func appendCapture(_ L: OpaquePointer, _ m: inout LuaPatternMatcher, _ out: inout [UInt8], _ i: Int,
                                    _ whole: Range<Int>) throws(LuaPatternError) {
    var start = whole.lowerBound
    var length = whole.count
    if i >= m.level {
      if i != 0 { throw .message("invalid capture index %\(i + 1)") }
    } else {
      length = m.captureLength[i]
      start = m.captureStart[i]
      if length == LuaPatternMatcher.unfinished { throw .message("unfinished capture") }
      if length == LuaPatternMatcher.position {
        out.append(contentsOf: String(start + 1).utf8)
        return
      }
    }
    out.append(contentsOf: UnsafeBufferPointer(start: m.subject + start, count: length))
    try m.spend(LuaCost.bytes(length))
  }
}
