internal import CLua
#if canImport(Glibc)
import Glibc
#endif

/// `string.find`, `string.match`, `string.gmatch` and `string.gsub` for the sandbox, on
/// `LuaPatternMatcher`: the same results and error texts as Lua 5.4's own, but every step
/// is charged to the CPU budget (Lua's C matcher runs outside the count hook).
///
/// Each is a C function pointer called through `clua_trampoline` (no closure box, no VM
/// lookup: these are the hottest host functions a script calls).
enum LuaPatternLibrary {
  /// Replaces the four functions in the string library table, which is also the
  /// `__index` of the string metatable, so `s:find(...)` reaches them too.
  static func install(on vm: LuaVM) {
    vm.pushGlobals()
    vm.rawGet(-1, "string")
    for (name, fn) in [("find", find), ("match", match), ("gmatch", gmatch)] {
      vm.pushNil()
      vm.pushHostFunction(fn)
      vm.rawSet(-2, name)
    }
    LuaPatternGsub.install(on: vm)
    vm.pop(2)
  }

  private static let find: clua_host_fn = { L in luaHostCall(L) { L throws(LuaRaise) in try findOrMatch(L, find: true) } }
  private static let match: clua_host_fn = { L in luaHostCall(L) { L throws(LuaRaise) in try findOrMatch(L, find: false) } }
  private static let gmatch: clua_host_fn = { L in luaHostCall(L) { L throws(LuaRaise) in try startGmatch(L) } }
  private static let gmatchStep: clua_host_fn = { L in luaHostCall(L) { L throws(LuaRaise) in try nextGmatch(L) } }

  /// `posrelatI` minus one: a 0-based start for `init`, possibly past the end.
  static func startOffset(_ pos: Int64, count: Int) -> Int64 {
    if pos > 0 { return pos - 1 }
    if pos == 0 || pos < -Int64(count) { return 0 }
    return Int64(count) + pos
  }

  /// `str_find_aux`.
  private static func findOrMatch(_ L: OpaquePointer, find: Bool) throws(LuaRaise) -> Int32 {
    let args = LuaArguments(L: L, libraryName: find ? "string.find" : "string.match")
    let (s, ls) = try args.string(1)
    var (p, lp) = try args.string(2)
    let start = startOffset(try args.optionalInteger(3, default: 1), count: ls)
    if start > Int64(ls) {
      lua_pushnil(L)
      return 1
    }
    let initial = Int(start)
    let budget = LuaBudget(L)
    if find && (lua_toboolean(L, 4) != 0 || LuaPatternMatcher.hasNoSpecials(p, lp)) {
      if let at = try plainFind(s + initial, ls - initial, p, lp, budget) {
        lua_pushinteger(L, lua_Integer(initial + at + 1))
        lua_pushinteger(L, lua_Integer(initial + at + lp))
        return 2
      }
      lua_pushnil(L)
      return 1
    }
    let anchored = p[0] == 0x5E
    if anchored { p += 1; lp -= 1 }
    return try withCaptures(L, budget, args, subject: s, ls, pattern: p, lp) { (m: inout LuaPatternMatcher) throws(LuaPatternError) -> Int32 in
      var s1 = initial
      let start = anchored ? LuaPatternStart.anywhere : m.scanStart(length: ls - initial)
      while true {
        s1 = try m.nextCandidate(s1, start)
        m.reset()
        let end = try m.match(s1, 0)
        if end != -1 {
          if find {
            lua_pushinteger(L, lua_Integer(s1 + 1))
            lua_pushinteger(L, lua_Integer(end))
            return try pushCaptures(L, m, whole: nil) + 2
          }
          return try pushCaptures(L, m, whole: s1..<end)
        }
        if anchored || s1 >= ls { break }
        s1 += 1
      }
      lua_pushnil(L)
      return 1
    }
  }

  /// Runs `body` with a matcher whose steps come from the budget (and go back to it).
  static func withCaptures(_ L: OpaquePointer, _ budget: LuaBudget, _ args: LuaArguments,
                           subject s: UnsafePointer<UInt8>, _ ls: Int, pattern p: UnsafePointer<UInt8>, _ lp: Int,
                           _ body: (inout LuaPatternMatcher) throws(LuaPatternError) -> Int32) throws(LuaRaise) -> Int32 {
    let outcome: Result<Int32, LuaPatternError> = withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * LuaPatternMatcher.maxCaptures) { caps in
      guard let captures = caps.baseAddress else { return .failure(.memoryExhausted) }
      var m = LuaPatternMatcher(subject: s, count: ls, pattern: p, count: lp, captures: captures, stepsLeft: budget.matcherSteps)
      let r: Result<Int32, LuaPatternError>
      do throws(LuaPatternError) { r = .success(try body(&m)) } catch { r = .failure(error) }
      if m.stepsLeft >= 0 { budget.storeMatcherSteps(m.stepsLeft) }
      return r
    }
    switch outcome {
    case let .success(n): return n
    case let .failure(.message(text)): throw args.error(text)
    case .failure(.budgetExhausted): throw budget.exhausted()
    case .failure(.memoryExhausted): throw LuaRaise("not enough memory")
    case .failure(.raised): throw LuaRaise.valueOnTop
    }
  }

  /// `lmemfind`, charging every candidate position: the offset of `p` in `s`, or nil.
  static func plainFind(_ s: UnsafePointer<UInt8>, _ ls: Int, _ p: UnsafePointer<UInt8>, _ lp: Int,
                        _ budget: LuaBudget) throws(LuaRaise) -> Int? {
    if lp == 0 { return 0 }
    if lp > ls { return nil }
    let rest = lp - 1
    let perCandidate = LuaCost.bytes(rest)
    var from = 0
    var room = ls - rest
    while room > 0 {
      guard let hit = memchr(s + from, Int32(p[0]), room) else {
        try budget.charge(LuaCost.bytes(room))
        return nil
      }
      let at = UnsafeRawPointer(hit).assumingMemoryBound(to: UInt8.self) - s
      try budget.charge(LuaCost.bytes(at - from) + perCandidate)
      if rest == 0 || memcmp(s + at + 1, p + 1, rest) == 0 { return at }
      room -= at + 1 - from
      from = at + 1
    }
    return nil
  }

  /// `push_captures`: the captures, or the whole match when there are none; their number.
  static func pushCaptures(_ L: OpaquePointer, _ m: LuaPatternMatcher, whole: Range<Int>?) throws(LuaPatternError) -> Int32 {
    let n = m.level == 0 && whole != nil ? 1 : m.level
    for i in 0..<n { try pushCapture(L, m, i, whole: whole ?? 0..<0) }
    return Int32(n)
  }

  /// `push_onecapture`.
  static func pushCapture(_ L: OpaquePointer, _ m: LuaPatternMatcher, _ i: Int, whole: Range<Int>) throws(LuaPatternError) {
    if i >= m.level {
      if i != 0 { throw .message("invalid capture index %\(i + 1)") }
      pushBytes(L, m.subject + whole.lowerBound, whole.count)
      return
    }
    let length = m.captureLength[i]
    if length == LuaPatternMatcher.unfinished { throw .message("unfinished capture") }
    if length == LuaPatternMatcher.position {
      lua_pushinteger(L, lua_Integer(m.captureStart[i] + 1))
    } else {
      pushBytes(L, m.subject + m.captureStart[i], length)
    }
  }

  @inline(__always) static func pushBytes(_ L: OpaquePointer, _ p: UnsafePointer<UInt8>, _ count: Int) {
    _ = UnsafeRawPointer(p).withMemoryRebound(to: CChar.self, capacity: max(count, 1)) { lua_pushlstring(L, $0, count) }
  }

  // MARK: gmatch

  /// Where a `gmatch` iterator is: kept in a userdata whose user values hold the subject and the pattern.
  private struct GmatchState {
    var next: Int
    var lastMatch: Int
    /// The subject and the pattern (kept alive by the userdata's user values; Lua strings never move).
    let subject: UnsafePointer<UInt8>
    let subjectCount: Int
    let pattern: UnsafePointer<UInt8>
    let patternCount: Int
    /// Computed at the first step, kept for the others.
    var start: LuaPatternStart?
  }

  private static func startGmatch(_ L: OpaquePointer) throws(LuaRaise) -> Int32 {
    let args = LuaArguments(L: L, libraryName: "string.gmatch")
    let (s, ls) = try args.string(1)
    let (p, lp) = try args.string(2)
    var start = startOffset(try args.optionalInteger(3, default: 1), count: ls)
    if start > Int64(ls) { start = Int64(ls) + 1 }
    lua_settop(L, 2)
    guard let raw = lua_newuserdatauv(L, MemoryLayout<GmatchState>.size, 2) else { throw LuaRaise("not enough memory") }
    let state = GmatchState(next: Int(start), lastMatch: -1, subject: s, subjectCount: ls, pattern: p, patternCount: lp, start: nil)
    raw.initializeMemory(as: GmatchState.self, repeating: state, count: 1)
    lua_pushvalue(L, 1)
    lua_setiuservalue(L, -2, 1)
    lua_pushvalue(L, 2)
    lua_setiuservalue(L, -2, 2)
    clua_push_host_function(L, gmatchStep)
    return 1
  }

  /// `gmatch_aux`: the next match's captures, or nothing at the end.
  private static func nextGmatch(_ L: OpaquePointer) throws(LuaRaise) -> Int32 {
    let ud = clua_upvalueindex(2)
    guard let raw = lua_touserdata(L, ud) else { return 0 }
    let state = raw.assumingMemoryBound(to: GmatchState.self)
    let args = LuaArguments(L: L, libraryName: "string.gmatch")
    let (s, ls) = (state.pointee.subject, state.pointee.subjectCount)
    let (p, lp) = (state.pointee.pattern, state.pointee.patternCount)
    return try withCaptures(L, LuaBudget(L), args, subject: s, ls, pattern: p, lp) { (m: inout LuaPatternMatcher) throws(LuaPatternError) -> Int32 in
      var src = state.pointee.next
      let start = state.pointee.start ?? m.scanStart(length: ls)
      state.pointee.start = start
      while src <= ls {
        src = try m.nextCandidate(src, start)
        m.reset()
        let end = try m.match(src, 0)
        if end != -1 && end != state.pointee.lastMatch {
          state.pointee.next = end
          state.pointee.lastMatch = end
          return try pushCaptures(L, m, whole: src..<end)
        }
        src += 1
      }
      return 0
    }
  }
}

extension LuaVM {
  /// Pushes a C host function (through `clua_trampoline`) closing over the value on top.
  func pushHostFunction(_ fn: clua_host_fn) { clua_push_host_function(L, fn) }
}
