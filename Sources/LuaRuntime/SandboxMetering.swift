internal import CLua

/// Charges the work of Lua's C library functions to the CPU budget.
///
/// The count hook counts Lua instructions; one instruction calling `table.move({}, 1, 2^40, 1)`
/// or `(""):rep(1e15)` runs in C for hours without the hook seeing it. Each sandbox function
/// whose work grows with its arguments is replaced by `clua_metered` over the original: a cost
/// function below computes the work from the arguments (elements, results, bytes; rates in
/// `LuaCost`), the budget is charged, and the original runs as the called function, so its
/// results and errors are exactly stock Lua's. Work up to a small threshold per call is free:
/// the call's own instructions cover it. The pattern functions are metered inside the matcher.
enum SandboxMetering {
  /// Meters the string, table and utf8 libraries in place, and puts the metered base functions
  /// and `charge` in the prelude's hooks table (on top of the stack), for the prelude to use.
  static func install(on vm: LuaVM) {
    vm.pushGlobals()
    for (library, functions) in library {
      vm.rawGet(-1, library)
      for (name, cost, lengthWhen) in functions { meter(vm, name, cost, lengthWhen) }
      vm.pop()
    }
    vm.pop()
    let hooks = vm.top
    vm.pushGlobals()
    for (name, cost) in base {
      vm.rawGet(-1, name)
      vm.meter(cost, lengthWhen: 0)
      vm.rawSet(hooks, name)
    }
    vm.pop()
    vm.pushNil()
    vm.pushHostFunction(charge)
    vm.rawSet(hooks, "charge")
    vm.push(LuaCost.compiledByteSteps)
    vm.rawSet(hooks, "compile")
  }

  /// Replaces `name` in the table on top by its metered closure.
  private static func meter(_ vm: LuaVM, _ name: String, _ cost: clua_cost_fn, _ lengthWhen: Int32) {
    vm.rawGet(-1, name)
    vm.meter(cost, lengthWhen: lengthWhen)
    vm.rawSet(-2, name)
  }

  /// `charge(units)` for the prelude's own loops (`load`, `table.sort`'s comparisons).
  private static let charge: clua_host_fn = { L in
    luaHostCall(L) { L throws(LuaRaise) in
      let units = clua_tonumber(L, 1)
      guard units >= 1 else { return 0 }
      try LuaBudget(L).charge(units < 0x1p62 ? Int(units) : 1 << 62)
      return 0
    }
  }

  /// `lengthWhen`: when the cost needs `#t` of argument 1 (see `clua_metered`): 0 never,
  /// k when argument k is absent (it defaults to the length), -k when argument k is given.
  private typealias Metered = (name: String, cost: clua_cost_fn, lengthWhen: Int32)

  private static let library: [(String, [Metered])] = [
    ("string", [
      ("rep", { L, _ in
        guard let L, let n = Cost.number(L, 2, nil), n > 0 else { return 0 }
        let total = n * Double(Cost.length(L, 1) + Cost.length(L, 3))
        // A result that cannot be allocated fails in C first, as before (a memory kill, not a CPU one).
        if LuaBudget(L).cannotFit(total) { return 0 }
        return n > Cost.freeItems || total > Cost.freeBytes ? n * Double(LuaCost.repetitionSteps) + total / Double(LuaCost.bytesPerStep) : 0
      }, 0),
      ("sub", { L, _ in
        guard let L else { return 0 }
        let n = Cost.length(L, 1)
        guard Double(n) > Cost.freeBytes else { return 0 }
        return Cost.bytes(Cost.span(n, Cost.number(L, 2, 1), Cost.number(L, 3, -1)))
      }, 0),
      ("byte", { L, _ in
        guard let L, lua_gettop(L) >= 3 else { return 0 }
        let first = Cost.number(L, 2, 1)
        return Cost.results(Cost.span(Cost.length(L, 1), first, Cost.number(L, 3, first ?? 1)))
      }, 0),
      ("char", { L, _ in L.map { Cost.results(Double(lua_gettop($0))) } ?? 0 }, 0),
      ("upper", { L, _ in L.map { Cost.bytes(Double(Cost.length($0, 1))) } ?? 0 }, 0),
      ("lower", { L, _ in L.map { Cost.bytes(Double(Cost.length($0, 1))) } ?? 0 }, 0),
      ("reverse", { L, _ in L.map { Cost.bytes(Double(Cost.length($0, 1))) } ?? 0 }, 0),
      ("format", { L, _ in L.map { Cost.results(Double(lua_gettop($0) - 1)) + Cost.bytes(Cost.allLengths($0)) } ?? 0 }, 0),
      ("pack", { L, _ in
        guard let L else { return 0 }
        return Cost.results(Double(lua_gettop(L) - 1)) + Cost.bytes(Cost.allLengths(L) + Double(Cost.length(L, 1) * (LuaCost.bytesPerStep - 1)))
      }, 0),
      ("unpack", { L, _ in L.map { Cost.bytes(Double(Cost.length($0, 1) * LuaCost.bytesPerStep + Cost.length($0, 2))) } ?? 0 }, 0),
      ("packsize", { L, _ in L.map { Cost.bytes(Double(Cost.length($0, 1))) } ?? 0 }, 0),
    ]),
    ("table", [
      ("move", { L, _ in
        guard let L, let f = Cost.number(L, 2, nil), let e = Cost.number(L, 3, nil), e >= f else { return 0 }
        return Cost.elements(e - f + 1)
      }, 0),
      ("unpack", { L, length in
        guard let L, let i = Cost.number(L, 2, 1), let j = Cost.number(L, 3, Double(length)) else { return 0 }
        return Cost.results(j - i + 1)
      }, 3),
      // Inserting or removing at a position shifts every element above it.
      ("insert", { L, length in
        guard let L, lua_gettop(L) == 3, let pos = Cost.number(L, 2, nil) else { return 0 }
        return Cost.elements(Double(length) - pos)
      }, -3),
      ("remove", { L, length in
        guard let L, lua_gettop(L) >= 2, let pos = Cost.number(L, 2, nil) else { return 0 }
        return Cost.elements(Double(length) - pos)
      }, -2),
      ("concat", { L, length in
        guard let L, let i = Cost.number(L, 3, 1), let j = Cost.number(L, 4, Double(length)), j >= i else { return 0 }
        return Cost.elements(j - i + 1) + Cost.bytes(Cost.concatenatedBytes(L, from: i, to: j))
      }, 4),
    ]),
    ("utf8", [
      ("char", { L, _ in L.map { Cost.results(Double(lua_gettop($0))) } ?? 0 }, 0),
      ("codepoint", { L, _ in
        guard let L, lua_gettop(L) >= 3 else { return 0 }
        let first = Cost.number(L, 2, 1)
        return Cost.results(Cost.span(Cost.length(L, 1), first, Cost.number(L, 3, first ?? 1)))
      }, 0),
      // Decoding runs ~4 times slower per byte than a copy.
      ("len", { L, _ in
        guard let L, Double(Cost.length(L, 1)) > Cost.freeBytes / 4 else { return 0 }
        return 4 * Cost.bytes(Cost.span(Cost.length(L, 1), Cost.number(L, 2, 1), Cost.number(L, 3, -1)))
      }, 0),
      ("offset", { L, _ in
        guard let L, let n = Cost.number(L, 2, nil) else { return 0 }
        return 4 * Cost.bytes(min(Double(Cost.length(L, 1)), 4 * abs(n) + 4))
      }, 0),
    ]),
  ]

  private static let base: [(String, clua_cost_fn)] = [
    ("select", { L, _ in L.map { Cost.elements(Double(lua_gettop($0) - 1)) } ?? 0 }),
    ("tonumber", { L, _ in L.map { Cost.bytes(Double(Cost.length($0, 1))) } ?? 0 }),
    ("rawequal", { L, _ in
      guard let L, lua_type(L, 1) == LUA_TSTRING, lua_type(L, 2) == LUA_TSTRING, Cost.length(L, 1) == Cost.length(L, 2) else { return 0 }
      return Cost.bytes(Double(Cost.length(L, 1)))
    }),
  ]
}

/// Reading a call's arguments for its cost, without raising and without converting anything in place.
private enum Cost {
  static let freeBytes = 256.0
  static let freeItems = 16.0
  /// `LUAI_MAXSTACK`: asking for more results than this is an error of the C function, not work.
  static let maxStack = 1_000_000.0

  /// The length of a string argument (0 for anything else).
  static func length(_ L: OpaquePointer, _ i: Int32) -> Int { lua_type(L, i) == LUA_TSTRING ? Int(lua_rawlen(L, i)) : 0 }

  /// A numeric argument (`default` when absent or nil; nil when it is not a number at all).
  static func number(_ L: OpaquePointer, _ i: Int32, _ fallback: Double?) -> Double? {
    if lua_type(L, i) <= LUA_TNIL { return fallback }
    var ok: Int32 = 0
    let d = lua_tonumberx(L, i, &ok)
    return ok != 0 && d.isFinite ? d : nil
  }

  static func bytes(_ n: Double) -> Double { n > freeBytes ? n / Double(LuaCost.bytesPerStep) : 0 }
  static func elements(_ n: Double) -> Double { n > freeItems ? n * Double(LuaCost.elementSteps) : 0 }
  static func results(_ n: Double) -> Double { n <= maxStack ? elements(n) : 0 }

  /// How many positions `i..j` cover in a string of `n` bytes (negative positions count from the end).
  static func span(_ n: Int, _ i: Double?, _ j: Double?) -> Double {
    guard var i, var j else { return 0 }
    let n = Double(n)
    if i < 0 { i = n + i + 1 }
    if i < 1 { i = 1 }
    if j < 0 { j = n + j + 1 }
    if j > n { j = n }
    return max(j - i + 1, 0)
  }

  /// The bytes of every string argument.
  static func allLengths(_ L: OpaquePointer) -> Double {
    var total = 0
    for i in 1...max(lua_gettop(L), 1) { total += length(L, i) }
    return Double(total)
  }

  /// The bytes `table.concat` will copy: its string elements (read raw) and separators.
  static func concatenatedBytes(_ L: OpaquePointer, from i: Double, to j: Double) -> Double {
    guard lua_type(L, 1) == LUA_TTABLE, j - i < 1e7 else { return 0 }
    var total = Double(length(L, 2)) * (j - i)
    var k = Int(i)
    while Double(k) <= j {
      if lua_rawgeti(L, 1, lua_Integer(k)) == LUA_TSTRING { total += Double(lua_rawlen(L, -1)) }
      clua_pop(L, 1)
      k += 1
    }
    return total
  }
}

extension LuaVM {
  /// Replaces the C function on top by `clua_metered` over it.
  fileprivate func meter(_ cost: clua_cost_fn, lengthWhen: Int32) { clua_push_metered(L, cost, lengthWhen) }
}

extension LuaBudget {
  /// Whether a result of `bytes` cannot be allocated under the memory limit (C then fails on it).
  func cannotFit(_ bytes: Double) -> Bool {
    guard bytes.isFinite, bytes < 0x1p62 else { return true }
    let lim = clua_limits_of(L).pointee
    guard lim.enforcing != 0, lim.bytes_limit != 0 else { return false }
    return Double(lim.bytes_in_use) + bytes > Double(lim.bytes_limit)
  }
}
