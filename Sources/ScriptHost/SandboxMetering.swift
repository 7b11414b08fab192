internal import CLua

/// Charges the work of Lua's C library functions to the CPU budget.
///
/// The count hook counts Lua instructions; one instruction calling `table.move({}, 1, 2^40, 1)`
/// or `(""):rep(1e15)` runs in C for hours without the hook seeing it. Each sandbox function
/// whose cost grows with its arguments is wrapped here: the wrapper computes the work from
/// the arguments (elements, results, bytes; see `LuaCost`), charges it with `charge`, then
/// calls the original with a tail call, so the caller's `file:line` in its errors is unchanged.
/// Where only the result tells the size (`table.concat`), the original runs under `pcall` and
/// the bytes are charged after; its error is raised again at the caller's level.
/// Work up to a small threshold per call is not charged: the call's own instructions cover it.
/// The pattern functions are metered inside the matcher (`LuaPatternLibrary`).
enum SandboxMetering {
  /// Runs the metering chunk (before the prelude, which then wraps the metered functions).
  /// The prelude's hooks table must be on top: the chunk adds `charge` and the metered base
  /// functions (`select`, `tonumber`, `rawequal`) to it, for the prelude to put in `_ENV`.
  static func install(on vm: LuaVM) {
    let hooks = vm.top
    guard vm.load(source, chunkName: "=" + Sandbox.preludeName) == nil else { fatalError("the metering chunk does not compile") }
    vm.pushNil()
    vm.pushHostFunction(charge)
    vm.pushRegistry()
    vm.rawGet(-1, "_LOADED")
    vm.insert(-2)
    vm.pop()
    vm.pushValue(hooks)
    for rate in [LuaCost.bytesPerStep, LuaCost.elementSteps, LuaCost.repetitionSteps, LuaCost.compiledByteSteps] { vm.push(rate) }
    switch vm.protectedCall(nargs: 7, nresults: 0, freshBudget: true) {
    case .ok: break
    default: fatalError("the metering chunk failed: \(vm.lastErrorMessage)")
    }
  }

  /// `charge(units [, resultBytes])`: spends `units` of the budget, unless the result of
  /// `resultBytes` cannot fit in memory (then the C function fails on its allocation, as before).
  private static let charge: clua_host_fn = { L in
    luaHostCall(L) { L throws(LuaRaise) in
      let budget = LuaBudget(L)
      if lua_type(L, 2) == LUA_TNUMBER, budget.cannotFit(clua_tonumber(L, 2)) { return 0 }
      let units = clua_tonumber(L, 1)
      guard units >= 1 else { return 0 }
      try budget.charge(units < 0x1p62 ? Int(units) : 1 << 62)
      return 0
    }
  }

  static let source = #"""
  local charge, loaded, hooks, BYTES, ELEMENT, REPETITION, COMPILE = ...
  local type, select, tonumber, error, pcall, next, rawequal = type, select, tonumber, error, pcall, next, rawequal
  local string, table, utf8 = string, table, utf8
  local floor = math.floor
  local FREE_BYTES = 256    -- per call, covered by the call's own instructions
  local FREE_ITEMS = 16
  local MAXSTACK = 1000000  -- LUAI_MAXSTACK: more results than this is an error, not work

  -- Error messages of the originals name them as "string.rep", as in stock Lua.
  for _, lib in next, { "string", "table", "utf8" } do
    local names = {}
    for k, v in next, _ENV[lib] do names[k] = v end
    loaded[lib] = names
  end

  -- An argument as luaL_checkinteger/optinteger reads it (nil if it is not a number);
  -- reading a long numeral string costs its bytes.
  local function num(v, default)
    if v == nil then return default end
    local t = type(v)
    if t == "number" then return v end
    if t == "string" then
      if #v > FREE_BYTES then charge(#v / BYTES) end
      return tonumber(v)
    end
    return nil
  end

  local function bytes(n) if n > FREE_BYTES then charge(n / BYTES) end end
  local function elements(n) if n > FREE_ITEMS then charge(n * ELEMENT) end end
  -- Results beyond the stack's size are an error of the C function, not work.
  local function items(n) if n <= MAXSTACK then elements(n) end end
  local function len(s)
    local t = type(s)
    if t == "string" then return #s elseif t == "number" then return 24 end
    return 0
  end
  -- Positions i..j of a string of length n (negative counts from the end), as a count.
  local function span(n, i, j)
    if i < 0 then i = n + i + 1 end
    if i < 1 then i = 1 end
    if j < 0 then j = n + j + 1 end
    if j > n then j = n end
    local c = j - i + 1
    return c > 0 and c or 0
  end
  local function sumbytes(...)
    local total = 0
    for k = 1, select("#", ...) do total = total + len((select(k, ...))) end
    return total
  end

  hooks.charge, hooks.compile = charge, COMPILE
  hooks.select = function(n, ...)
    local c = select("#", ...)
    if c > FREE_ITEMS then charge(c * ELEMENT) end
    return select(n, ...)
  end
  hooks.tonumber = function(v, base)
    if type(v) == "string" and #v > FREE_BYTES then charge(#v / BYTES) end
    return tonumber(v, base)
  end
  hooks.rawequal = function(a, b)
    if type(a) == "string" and type(b) == "string" and #a == #b then bytes(#a) end
    return rawequal(a, b)
  end
  -- The default order of table.sort compares strings byte by byte.
  hooks.less = function(x, y)
    if type(x) == "string" and type(y) == "string" and #x > FREE_BYTES then charge(#x / BYTES) end
    return x < y
  end

  local rep, sub, byte, char, format = string.rep, string.sub, string.byte, string.char, string.format
  local upper, lower, reverse = string.upper, string.lower, string.reverse
  local pack, unpack, packsize = string.pack, string.unpack, string.packsize
  string.rep = function(s, n, sep)
    local count = num(n)
    if count and count > 0 then
      local total = count * (len(s) + len(sep))
      if count > FREE_ITEMS or total > FREE_BYTES then charge(count * REPETITION + total / BYTES, total) end
    end
    return rep(s, n, sep)
  end
  string.sub = function(s, i, j)
    local n = len(s)
    if n > FREE_BYTES then bytes(span(n, num(i, 1) or 1, num(j, -1) or -1)) end
    return sub(s, i, j)
  end
  string.byte = function(s, i, j)
    if j ~= nil then
      local first = num(i, 1) or 1
      items(span(len(s), first, num(j, first) or first))
    end
    return byte(s, i, j)
  end
  string.char = function(...) items(select("#", ...)) return char(...) end
  string.upper = function(s) bytes(len(s)) return upper(s) end
  string.lower = function(s) bytes(len(s)) return lower(s) end
  string.reverse = function(s) bytes(len(s)) return reverse(s) end
  string.format = function(fmt, ...)
    items(select("#", ...))
    bytes(len(fmt) + sumbytes(...))
    return format(fmt, ...)
  end
  string.pack = function(fmt, ...)
    items(select("#", ...))
    bytes(len(fmt) * BYTES + sumbytes(...))
    return pack(fmt, ...)
  end
  string.unpack = function(fmt, s, pos)
    bytes(len(fmt) * BYTES + len(s))
    return unpack(fmt, s, pos)
  end
  string.packsize = function(fmt) bytes(len(fmt)) return packsize(fmt) end

  local move, tunpack, insert, remove, concat = table.move, table.unpack, table.insert, table.remove, table.concat
  table.move = function(a1, f, e, t, a2)
    local first, last = num(f), num(e)
    if first and last and last >= first then
      elements((last + 0.0) - first + 1)
    end
    return move(a1, f, e, t, a2)
  end
  table.unpack = function(t, i, j)
    local first = num(i, 1)
    local last = num(j)
    if j == nil and type(t) == "table" then last = #t end
    if first and last then items((last + 0.0) - first + 1) end
    return tunpack(t, i, j)
  end
  -- Inserting or removing at a position shifts the elements above it.
  table.insert = function(t, ...)
    if select("#", ...) == 2 and type(t) == "table" then
      local pos, n = num((...)), #t
      if pos and type(n) == "number" then elements(n - pos) end
    end
    return insert(t, ...)
  end
  table.remove = function(t, ...)
    if select("#", ...) > 0 and type(t) == "table" then
      local pos, n = num((...)), #t
      if pos and type(n) == "number" then elements(n - pos) end
    end
    return remove(t, ...)
  end
  table.concat = function(t, sep, i, j)
    local ok, r = pcall(concat, t, sep, i, j)
    if not ok then error(r, 2) end
    local first, last = num(i, 1), num(j)
    if last == nil then last = #t end
    elements((last + 0.0) - first + 1)
    bytes(#r)
    return r
  end

  local uchar, codepoint, ulen, offset = utf8.char, utf8.codepoint, utf8.len, utf8.offset
  utf8.char = function(...) items(select("#", ...)) return uchar(...) end
  utf8.codepoint = function(s, i, j, lax)
    if j ~= nil then
      local first = num(i, 1) or 1
      items(span(len(s), first, num(j, first) or first))
    end
    return codepoint(s, i, j, lax)
  end
  utf8.len = function(s, i, j, lax)
    local n = len(s)
    if n > FREE_BYTES then bytes(span(n, num(i, 1) or 1, num(j, -1) or -1) * 4) end
    return ulen(s, i, j, lax)
  end
  utf8.offset = function(s, n, i)
    local k = num(n)
    if k then
      local most = len(s)
      if k < 0 then k = -k end
      if 4 * k + 4 < most then most = 4 * k + 4 end
      bytes(most * 4)
    end
    return offset(s, n, i)
  end
  """#
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
