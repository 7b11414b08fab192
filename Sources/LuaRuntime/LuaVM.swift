internal import CLua

/// One `lua_State` and its limits: the type through which the host calls `lua_*`. (The host
/// functions of the pattern library and the metering, `LuaPattern*`, `LuaArguments`, `LuaBudget`
/// and `SandboxMetering`, work on the raw state too, with functions that never raise.)
///
/// Its `package` members are the Swift API ScriptHost and Explore use: typed pushes and reads,
/// raw table access, references, host functions and protected calls, each wrapping one C call
/// that its comment names. The raw state and every C type stay inside LuaRuntime, which is the
/// only module that imports CLua.
///
/// Every wrapper is raw (no metamethods) or protected, so no Lua error can
/// longjmp through a Swift frame: Lua code runs only inside `protectedCall`,
/// Swift functions are reached through `clua_trampoline`, and the capped
/// allocator never refuses memory while Swift is on the stack.
package final class LuaVM {
  /// The thread host calls operate on: the main state, or the coroutine that called the host.
  private(set) var L: OpaquePointer
  let mainL: OpaquePointer
  private let limits: UnsafeMutablePointer<clua_limits>
  /// Lua code currently running on this state (nested pcalls count).
  package private(set) var guestDepth = 0
  /// The error message (with traceback) of the last protected call that failed.
  package private(set) var lastErrorMessage = ""

  /// The line number in `file:line:` at the start of the last error, if any.
  package var lastErrorLine: Int? {
    let head = lastErrorMessage.split(separator: " ", maxSplits: 1).first ?? ""
    let parts = head.split(separator: ":")
    return parts.count >= 2 ? Int(parts[parts.count - 1]) : nil
  }

  /// The arena the state lives in (`LuaArena`), if any.
  let arena: LuaArena?
  /// The Swift closures given to the state while its arena records them for a checkpoint.
  private(set) var recordedClosures: [UnsafeMutableRawPointer] = []
  /// A restored state's live Swift closures (nil for any other state): it is dropped, not
  /// closed, and they are released here instead of by their `__gc` (`LuaArena.drops`).
  private var heldClosures: [UnsafeMutableRawPointer]?

  /// A state with a memory cap (0: none) and an instruction budget per protected call (0: none).
  package convenience init(memoryLimitBytes: Int, instructionLimit: Int) {
    let limits = UnsafeMutablePointer<clua_limits>.allocate(capacity: 1)
    limits.initialize(to: clua_limits())
    self.init(limits: limits, memoryLimitBytes: memoryLimitBytes, instructionLimit: instructionLimit, arena: nil)
  }

  /// A new state in `arena` (`LuaArena.makeState`).
  convenience init(memoryLimitBytes: Int, instructionLimit: Int, arena: LuaArena) {
    self.init(limits: arena.limits, memoryLimitBytes: memoryLimitBytes, instructionLimit: instructionLimit, arena: arena)
  }

  private init(limits: UnsafeMutablePointer<clua_limits>, memoryLimitBytes: Int, instructionLimit: Int, arena: LuaArena?) {
    self.limits = limits
    self.arena = arena
    limits.pointee.bytes_limit = memoryLimitBytes
    limits.pointee.host_active = 1
    limits.pointee.instructions_step = 1000
    self.instructionLimit = instructionLimit
    guard let state = clua_newstate(limits) else { fatalError("lua_newstate failed: out of memory") }
    L = state
    mainL = state
    if instructionLimit > 0 { clua_install_hook(L) }
  }

  /// The state `state`, just copied back into `arena` (`LuaArena.restore`), holding `closures`.
  init(restoring state: OpaquePointer, instructionLimit: Int, arena: LuaArena, closures: [UnsafeMutableRawPointer]) {
    limits = arena.limits
    self.arena = arena
    self.instructionLimit = instructionLimit
    L = state
    mainL = state
    heldClosures = closures
  }

  deinit {
    limits.pointee.recording = 0
    if let arena, let held = heldClosures, arena.drops() {
      for closure in held { Unmanaged<HostFunction>.fromOpaque(closure).release() }
    } else {
      // Closing runs no Lua code (scripts cannot set finalizers); the `__gc` of each host
      // closure must not reach this object, which is going away.
      limits.pointee.host = nil
      lua_close(mainL)
    }
    if let arena { arena.stateClosed() } else { limits.deallocate() }
  }

  /// Whether host calls operate on the main state (not on a coroutine).
  var isOnMainThread: Bool { L == mainL }

  package let instructionLimit: Int

  package var aborted: Bool { limits.pointee.aborted != 0 }

  /// Makes every Lua frame on this state unwind (the process ended under it).
  package func abort() { limits.pointee.aborted = 1 }

  /// Restarts the instruction budget and the wall-clock guard (the scenario gets one per verb).
  package func resetInstructionBudget() {
    limits.pointee.instructions_left = instructionLimit > 0 ? instructionLimit : Int.max
    startWallClock()
  }

  /// Starts the wall-clock guard over for a new host call. Its time starts when the count
  /// hook first looks (after `instructions_step` instructions): a verb or callback too short
  /// to reach the hook reads no clock, which was 1.5 % of a long run's main thread.
  private func startWallClock() {
    limits.pointee.wall_limit_ns = wallLimitSeconds > 0 ? Int64(wallLimitSeconds) * 1_000_000_000 : 0
    limits.pointee.wall_deadline_ns = 0
  }

  // MARK: Stack

  /// The corresponding C function is `lua_gettop`.
  package var top: Int32 { lua_gettop(L) }
  /// The corresponding C function is `lua_settop`.
  package func setTop(_ n: Int32) { lua_settop(L, n) }
  /// The macro `lua_pop`.
  package func pop(_ n: Int32 = 1) { clua_pop(L, n) }
  /// The corresponding C function is `lua_pushvalue`.
  package func pushValue(_ idx: Int32) { lua_pushvalue(L, idx) }
  /// Makes room for `n` more values on the stack, or says it cannot: a C function is only
  /// promised 20 slots, and pushing past them corrupts the heap. The corresponding C function
  /// is `lua_checkstack`.
  package func ensureStack(_ n: Int32) -> Bool { lua_checkstack(L, n) != 0 }
  /// The corresponding C function is `lua_absindex`.
  package func absIndex(_ idx: Int32) -> Int32 { lua_absindex(L, idx) }
  /// The corresponding C function is `lua_type`.
  package func type(_ idx: Int32) -> LuaType { LuaType(rawValue: lua_type(L, idx)) ?? .none }
  /// The macro `lua_insert`.
  package func insert(_ idx: Int32) { clua_insert(L, idx) }

  // MARK: Push

  /// The corresponding C function is `lua_pushnil`.
  package func pushNil() { lua_pushnil(L) }
  /// The corresponding C function is `lua_pushboolean`.
  package func push(_ b: Bool) { lua_pushboolean(L, b ? 1 : 0) }
  /// The corresponding C function is `lua_pushinteger`.
  package func push(_ i: Int64) { lua_pushinteger(L, lua_Integer(i)) }
  /// The corresponding C function is `lua_pushinteger`.
  package func push(_ i: Int) { lua_pushinteger(L, lua_Integer(i)) }
  /// The corresponding C function is `lua_pushnumber`.
  package func push(_ d: Double) { lua_pushnumber(L, d) }
  /// The corresponding C function is `lua_pushlstring`.
  package func push(_ s: String) {
    var s = s
    s.withUTF8 { buf in
      buf.withMemoryRebound(to: CChar.self) { _ = lua_pushlstring(L, $0.baseAddress, $0.count) }
    }
  }
  /// The macro `lua_newtable`.
  package func newTable() { clua_newtable(L) }
  /// Pushes the registry table (`LUA_REGISTRYINDEX`).
  package func pushRegistry() { lua_pushvalue(L, clua_registryindex()) }

  // MARK: Read

  /// The corresponding C function is `lua_tolstring` (only for strings and numbers; never converts in place).
  package func string(_ idx: Int32) -> String? {
    let t = lua_type(L, idx)
    guard t == LUA_TSTRING else {
      if t == LUA_TNUMBER {
        if lua_isinteger(L, idx) != 0 { return String(lua_tointegerx(L, idx, nil)) }
        return String(clua_tonumber(L, idx))
      }
      return nil
    }
    var len = 0
    guard let p = lua_tolstring(L, idx, &len) else { return nil }
    return p.withMemoryRebound(to: UInt8.self, capacity: len) {
      String(decoding: UnsafeBufferPointer(start: $0, count: len), as: UTF8.self)
    }
  }
  /// The corresponding C function is `lua_tointegerx`; nil unless an integral number.
  package func integer(_ idx: Int32) -> Int64? {
    var ok: Int32 = 0
    let v = lua_tointegerx(L, idx, &ok)
    return ok != 0 && lua_type(L, idx) == LUA_TNUMBER ? Int64(v) : nil
  }
  /// The corresponding C function is `lua_tonumberx`.
  package func number(_ idx: Int32) -> Double? {
    guard lua_type(L, idx) == LUA_TNUMBER else { return nil }
    return clua_tonumber(L, idx)
  }
  /// The corresponding C function is `lua_isinteger`.
  package func isInteger(_ idx: Int32) -> Bool { lua_isinteger(L, idx) != 0 }
  /// The corresponding C function is `lua_toboolean`.
  package func bool(_ idx: Int32) -> Bool { lua_toboolean(L, idx) != 0 }

  // MARK: Tables (raw: no metamethods ever run from Swift)

  /// `t[key]` with `lua_rawget`; pushes the value.
  package func rawGet(_ table: Int32, _ key: String) {
    let t = absIndex(table)
    push(key)
    lua_rawget(L, t)
  }
  /// `t[i]` with `lua_rawgeti`; pushes the value.
  package func rawGet(_ table: Int32, _ i: Int) { lua_rawgeti(L, table, lua_Integer(i)) }
  /// `t[key] = top` with `lua_rawset`; pops the value.
  package func rawSet(_ table: Int32, _ key: String) {
    let t = absIndex(table)
    push(key)
    insert(-2)
    lua_rawset(L, t)
  }
  /// `t[i] = top` with `lua_rawseti`; pops the value.
  package func rawSet(_ table: Int32, _ i: Int) { lua_rawseti(L, table, lua_Integer(i)) }
  /// The corresponding C function is `lua_rawlen`.
  package func rawLength(_ idx: Int32) -> Int { Int(lua_rawlen(L, idx)) }
  /// The corresponding C function is `lua_next` (raw). Order is the table's own: callers must not let it reach a log.
  package func next(_ table: Int32) -> Bool { lua_next(L, table) != 0 }
  /// The corresponding C function is `lua_setmetatable`.
  package func setMetatable(_ idx: Int32) { lua_setmetatable(L, idx) }
  /// The corresponding C function is `lua_pushglobaltable`: the globals table, read raw from the registry.
  package func pushGlobals() { lua_rawgeti(L, clua_registryindex(), lua_Integer(LUA_RIDX_GLOBALS)) }

  // MARK: References (values kept in the registry, pushed by number)

  /// Keeps the value on top of the stack in the registry and pops it; `pushReference` pushes it
  /// back with one array read, where reaching it by name hashes and interns strings. The
  /// corresponding C function is `luaL_ref`.
  package func makeReference() -> Int32 { luaL_ref(L, clua_registryindex()) }
  /// Pushes the value kept as `reference`.
  package func pushReference(_ reference: Int32) { lua_rawgeti(L, clua_registryindex(), lua_Integer(reference)) }
  /// Lets the value kept as `reference` go (`luaL_unref`).
  package func releaseReference(_ reference: Int32) { luaL_unref(L, clua_registryindex(), reference) }
  /// `t[key]` with `lua_rawget`, the key the value kept as `key` (a string made once); pushes the value.
  package func rawGet(_ table: Int32, keyReference key: Int32) {
    let t = absIndex(table)
    pushReference(key)
    lua_rawget(L, t)
  }

  // MARK: Functions

  /// Registers a Swift function as a Lua closure (through `clua_trampoline`) and pushes it.
  package func push(function body: @escaping HostFunction.Body) {
    let box = Unmanaged.passRetained(HostFunction(body))
    if limits.pointee.recording != 0 { recordedClosures.append(box.toOpaque()) }
    heldClosures?.append(box.toOpaque())
    let raw = lua_newuserdatauv(L, MemoryLayout<UnsafeRawPointer>.size, 0)!
    raw.storeBytes(of: box.toOpaque(), as: UnsafeRawPointer.self)
    newTable()
    lua_pushcclosure(L, hostFunctionCollect, 0)
    rawSet(-2, "__gc")
    setMetatable(-2)
    clua_push_host_function(L, hostDispatch)
  }

  /// The bytecode of the Lua function on top of the stack (left there), or nil.
  package func dumpTop() -> [UInt8]? {
    var bytes = clua_bytes(data: nil, length: 0, capacity: 0, failed: 0)
    defer { free(bytes.data) }
    guard clua_dump_top(L, &bytes) != 0, let data = bytes.data else { return nil }
    return data.withMemoryRebound(to: UInt8.self, capacity: bytes.length) { Array(UnsafeBufferPointer(start: $0, count: bytes.length)) }
  }

  /// Loads bytecode from `dumpTop` of the host's own chunks (never a script's): pushes the
  /// function, or returns the error.
  package func loadHostBytecode(_ bytes: [UInt8], chunkName: String) -> String? {
    let status: Int32 = bytes.withUnsafeBufferPointer { buf in
      buf.withMemoryRebound(to: CChar.self) { clua_load_host_bytecode(L, $0.baseAddress, $0.count, chunkName) }
    }
    return loadError(status, chunkName)
  }

  /// nil when `status` is LUA_OK; else pops and returns the error message.
  private func loadError(_ status: Int32, _ chunkName: String) -> String? {
    guard status != LUA_OK else { return nil }
    let message = string(-1) ?? "cannot load \(chunkName)"
    pop()
    return message
  }

  /// Loads a text chunk (never bytecode); pushes the function or returns the syntax error.
  package func load(_ source: String, chunkName: String) -> String? {
    var source = source
    let status: Int32 = source.withUTF8 { buf in
      buf.withMemoryRebound(to: CChar.self) { clua_load_text(L, $0.baseAddress, $0.count, chunkName) }
    }
    return loadError(status, chunkName)
  }

  /// How a protected call ended.
  package enum CallResult: Equatable {
    case ok
    case error(message: String, traceback: String)
    case instructionLimit
    case memoryLimit
    case aborted
    /// The wall-clock guard fired (`wallLimitSeconds`); `at` is the line that was running.
    case wallClockLimit(at: String)
  }

  /// Wall-clock seconds one host call may run before the guard stops it (0: no guard). Not
  /// model behaviour: a last resort against a call that would otherwise never return.
  package var wallLimitSeconds = 0
  /// Where the wall-clock guard fired, once it has.
  private var wallClockStoppedAt: String?

  /// Calls the function below `nargs` arguments with `lua_pcall` and a traceback handler.
  /// The instruction budget restarts when `budget` is set; results are left on the stack (`nresults`).
  package func protectedCall(nargs: Int32, nresults: Int32, freshBudget: Bool) -> CallResult {
    let base = top - nargs
    clua_push_message_handler(L)
    insert(base)
    let lim = limits
    let savedHost = lim.pointee.host_active
    let savedEnforcing = lim.pointee.enforcing
    if freshBudget || guestDepth == 0 {
      lim.pointee.instructions_left = instructionLimit > 0 ? instructionLimit : Int.max
      lim.pointee.instructions_exceeded = 0
      lim.pointee.memory_exceeded = 0
      startWallClock()
    }
    lim.pointee.enforcing = instructionLimit > 0 || lim.pointee.bytes_limit > 0 ? 1 : 0
    lim.pointee.host_active = 0
    guestDepth += 1
    let status = clua_pcall(L, nargs, nresults, base)
    guestDepth -= 1
    lim.pointee.host_active = savedHost
    lim.pointee.enforcing = savedEnforcing
    if status == LUA_OK {
      clua_remove(L, base)
      return .ok
    }
    let message = string(-1) ?? "error"
    lastErrorMessage = message
    setTop(base - 1)
    if lim.pointee.wall_exceeded != 0 {
      // The innermost call names the line ("file:line: lifesim: wall-clock …"); outer ones repeat it.
      let at = wallClockStoppedAt ?? message.split(separator: " ", maxSplits: 1).first.map { String($0.dropLast()) } ?? ""
      wallClockStoppedAt = at
      return .wallClockLimit(at: at)
    }
    if lim.pointee.aborted != 0 { return .aborted }
    if lim.pointee.instructions_exceeded != 0 { return .instructionLimit }
    if status == LUA_ERRMEM || lim.pointee.memory_exceeded != 0 { return .memoryLimit }
    let firstLine = message.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? message
    return .error(message: firstLine, traceback: message)
  }

  /// The script line calling the current host function, as `file:line` (nil when unknown).
  package func callerLocation(level: Int32 = 1) -> String? { Self.callerSite(of: L, level: level)?.description }

  /// The script line calling the current host function, its file named whole (nil when unknown).
  package func callerSite(level: Int32 = 1) -> SourceSite? { Self.callerSite(of: L, level: level, wholeName: true) }

  /// The script line calling at `level` or above on thread `L`, as `file:line`, skipping the prelude's frames.
  static func callerLocation(of L: OpaquePointer, level: Int32) -> String? { callerSite(of: L, level: level)?.description }

  /// The script line calling at `level` or above on thread `L`, skipping the prelude's frames.
  /// Its file is named as Lua's own messages name it (`short_src`: a long path loses its
  /// start), or whole with `wholeName`.
  static func callerSite(of L: OpaquePointer, level: Int32, wholeName: Bool = false) -> SourceSite? {
    var ar = lua_Debug()
    var lvl = level
    while lua_getstack(L, lvl, &ar) != 0 {
      lua_getinfo(L, "Sl", &ar)
      let src = chunkName(ar, whole: wholeName)
      // The sandbox's own wrappers (print, pcall, …) are not where the user's code is.
      if ar.currentline > 0, src != Sandbox.preludeName { return SourceSite(file: src, line: Int(ar.currentline)) }
      lvl += 1
    }
    return nil
  }

  /// Where a Lua function at `idx` was defined: its chunk's whole name and first line
  /// (`lua_getinfo` with ">S"); nil for a C function.
  package func definitionSite(_ idx: Int32) -> SourceSite? {
    var ar = lua_Debug()
    pushValue(idx)
    lua_getinfo(L, ">S", &ar)
    guard ar.linedefined > 0 else { return nil }
    return SourceSite(file: Self.chunkName(ar, whole: true), line: Int(ar.linedefined))
  }

  /// The name of the chunk `ar` describes: `short_src`, or whole, the `source` a file's chunk
  /// was loaded with (`@path` or `=name`) without its first character.
  private static func chunkName(_ ar: lua_Debug, whole: Bool) -> String {
    if whole, let source = ar.source, source.pointee == UInt8(ascii: "@") || source.pointee == UInt8(ascii: "=") {
      return String(cString: source + 1)
    }
    var short = ar.short_src
    return withUnsafeBytes(of: &short) { raw in
      let end = memchr(raw.baseAddress!, 0, raw.count).map { raw.baseAddress!.distance(to: UnsafeRawPointer($0)) } ?? raw.count
      return String(decoding: UnsafeRawBufferPointer(rebasing: raw[..<end]), as: UTF8.self)
    }
  }

  /// The first and last lines of a Lua function at `idx` (`lua_getinfo` with ">S").
  package func definitionLines(_ idx: Int32) -> ClosedRange<Int>? {
    var ar = lua_Debug()
    pushValue(idx)
    lua_getinfo(L, ">S", &ar)
    guard ar.linedefined > 0, ar.lastlinedefined >= ar.linedefined else { return nil }
    return Int(ar.linedefined)...Int(ar.lastlinedefined)
  }

  /// Opens the base, table, string, math, utf8 and coroutine libraries (never io, os, debug, package).
  package func openSafeLibraries() {
    let libs: [(String, lua_CFunction)] = [
      ("_G", luaopen_base), ("table", luaopen_table), ("string", luaopen_string),
      ("math", luaopen_math), ("utf8", luaopen_utf8), ("coroutine", luaopen_coroutine),
    ]
    for (name, open) in libs {
      luaL_requiref(L, name, open, 1)
      pop()
    }
  }

  /// Pushes the C `coroutine.create` that hooks new coroutines (the shim's `clua_push_coroutine_create`).
  package func pushCoroutineCreate() { clua_push_coroutine_create(L) }
  /// Pushes the limit re-raiser (the shim's `clua_push_reraise`).
  package func pushReraise() { clua_push_reraise(L) }

  package static let version: String = "Lua 5.4"
}

/// `lua_type`'s answers.
package enum LuaType: Int32 {
  case none = -1, `nil` = 0, boolean, lightUserdata, number, string, table, function, userdata, thread
}

extension LuaVM {
  /// Makes `hostDispatch` able to find this VM from its `lua_State` or any of its coroutines:
  /// the pointer lives in the state's limits (its extra space), never in a global.
  package func register() { limits.pointee.host = Unmanaged.passUnretained(self).toOpaque() }

  static func vm(for L: OpaquePointer) -> LuaVM? {
    guard let host = clua_limits_of(L).pointee.host else { return nil }
    return Unmanaged<LuaVM>.fromOpaque(host).takeUnretainedValue()
  }

  /// Runs `body` with host calls aimed at thread `l` (a coroutine calling the host).
  func withState<T>(_ l: OpaquePointer, _ body: () throws -> T) rethrows -> T {
    let saved = L
    L = l
    defer { L = saved }
    return try body()
  }

  /// A closure was collected: a checkpoint taken later does not hold it, nor does a dropped state.
  func closureCollected(_ closure: UnsafeMutableRawPointer) {
    if limits.pointee.recording != 0, let i = recordedClosures.lastIndex(of: closure) { recordedClosures.remove(at: i) }
    if let i = heldClosures?.lastIndex(of: closure) { heldClosures?.remove(at: i) }
  }

  /// Sets the first upvalue (`_ENV`) of the function at `fn` to the value on top (`lua_setupvalue`).
  package func setEnvironment(ofFunctionAt fn: Int32) { _ = lua_setupvalue(L, fn, 1) }
}
