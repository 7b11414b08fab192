internal import CLua

/// What work in Lua's C library costs, in the unit of the CPU budget (one Lua VM instruction).
///
/// The count hook only sees Lua instructions; a C function called by one instruction can
/// loop for as long as its arguments ask. Every such function in the sandbox charges its
/// work in these units, before or while doing it, so the same budget bounds it.
/// The rates come from timing Lua 5.4's C library against its VM (one instruction ≈ 1 ns):
/// `memchr`/`memcpy` move ~16 bytes per ns, `table.move`/`concat`/`unpack` spend 10–17 ns per
/// element, an empty `string.rep` repetition 3 ns, `load` ~9 ns per source byte.
enum LuaCost {
  /// Bytes scanned, copied or compared per unit.
  static let bytesPerStep = 16
  /// Units per table element a C loop reads or writes (and per value passed or returned in bulk).
  static let elementSteps = 10
  /// Units per repetition of `string.rep`.
  static let repetitionSteps = 3
  /// Units per byte of source `load` compiles.
  static let compiledByteSteps = 8
  /// Units per step of the pattern matcher (a step takes about as long as three instructions
  /// of the hooked VM: an endless `gsub` then ends in about the time an endless loop does).
  static let matcherStepUnits = 3
  /// Units for `count` bytes: one per `bytesPerStep`, at least one.
  @inline(__always) static func bytes(_ count: Int) -> Int { 1 + max(count, 0) / bytesPerStep }
}

/// The CPU budget of the state running a host function: the count hook's `instructions_left`.
///
/// Charges are deterministic (they depend only on the arguments), so the same script
/// exhausts its budget at the same place on every run.
struct LuaBudget {
  let L: OpaquePointer
  private let limits: UnsafeMutablePointer<clua_limits>

  init(_ L: OpaquePointer) {
    self.L = L
    limits = clua_limits_of(L)
  }

  /// Units left (unbounded while the host itself runs Lua: then nothing is enforced).
  var left: Int { limits.pointee.enforcing != 0 ? limits.pointee.instructions_left : Int.max }

  /// The budget left, in pattern matcher steps.
  var matcherSteps: Int { left / LuaCost.matcherStepUnits }

  /// Records what is left after the matcher counted its steps locally.
  func storeMatcherSteps(_ steps: Int) {
    if limits.pointee.enforcing != 0 { limits.pointee.instructions_left = steps * LuaCost.matcherStepUnits }
  }

  /// Spends `units`; throws the limit error once the budget is gone.
  func charge(_ units: Int) throws(LuaRaise) {
    guard limits.pointee.enforcing != 0 else { return }
    let (rest, overflow) = limits.pointee.instructions_left.subtractingReportingOverflow(max(units, 0))
    limits.pointee.instructions_left = overflow ? Int.min : rest
    if overflow || rest <= 0 { throw exhausted() }
  }

  /// The error that ends the callback, as the count hook raises it (`file:line: lifesim: instruction limit exceeded`),
  /// naming the script line that called the costly function.
  func exhausted() -> LuaRaise {
    limits.pointee.instructions_left = 0
    limits.pointee.instructions_exceeded = 1
    let at = LuaVM.callerLocation(of: L, level: 1).map { "\($0): " } ?? ""
    return LuaRaise("\(at)lifesim: instruction limit exceeded")
  }

  /// Calls Lua code from inside a host function (`lua_pcall`, no message handler), with the
  /// memory limit enforced as for any Lua code; false leaves the error value on top.
  func callLua(nargs: Int32, nresults: Int32) -> Bool {
    let savedHost = limits.pointee.host_active
    limits.pointee.host_active = 0
    let status = clua_pcall(L, nargs, nresults, 0)
    limits.pointee.host_active = savedHost
    return status == LUA_OK
  }

  /// Whether `extraBytes` more would pass the state's memory limit; if so, marks the limit as hit.
  /// Host functions building large results in Swift ask this first: while Swift runs,
  /// the allocator never refuses, so the limit must be checked by hand.
  func wouldExceedMemory(_ extraBytes: Int) -> Bool {
    let lim = limits.pointee
    guard lim.enforcing != 0, lim.bytes_limit != 0 else { return false }
    if lim.bytes_in_use + max(extraBytes, 0) > lim.bytes_limit {
      limits.pointee.memory_exceeded = 1
      return true
    }
    return false
  }
}

/// Runs the body of a host function that is a C function pointer (no closure box):
/// its `LuaRaise` becomes the error message `clua_trampoline` raises.
@inline(__always) func luaHostCall(_ L: OpaquePointer?, _ body: (OpaquePointer) throws(LuaRaise) -> Int32) -> Int32 {
  guard let L else { return 0 }
  do {
    return try body(L)
  } catch {
    if error.valueOnStack { return -1 }
    var message = error.message
    message.withUTF8 { buf in buf.withMemoryRebound(to: CChar.self) { _ = lua_pushlstring(L, $0.baseAddress, $0.count) } }
    return -1
  }
}
