internal import CLua
import EventStore

/// Builds the sandboxed environment every script runs in (docs/lua-api.md, "The sandbox").
///
/// Scripts get their own `_ENV` with the safe libraries and deterministic
/// replacements: `pairs`/`next` in a defined key order, a stable merge
/// `table.sort`, `tostring` without addresses, `math.random` seeded by the
/// run's seed, `os.time`/`os.clock` reading virtual time, a text-only `load`,
/// and `pcall`/`xpcall` that cannot swallow a limit. No io, os.execute,
/// debug, package, dofile, loadfile, string.dump or `<close>`. The pattern
/// functions run on lifesim's own matcher and every C function whose work
/// grows with its arguments charges it to the CPU budget (`SandboxMetering`).
package enum Sandbox {
  /// The hooks the prelude needs from the host.
  package struct Hooks {
    package var seed: Int64
    package var virtualSeconds: () -> Double
    package var print: (String) throws -> Void
    package var require: (LuaVM) throws -> Int32

    package init(seed: Int64, virtualSeconds: @escaping () -> Double, print: @escaping (String) throws -> Void,
                 require: @escaping (LuaVM) throws -> Int32) {
      self.seed = seed; self.virtualSeconds = virtualSeconds; self.print = print; self.require = require
    }
  }

  /// Opens the safe libraries, runs the prelude and stores the environment in the registry.
  package static func install(on vm: LuaVM, hooks: Hooks) {
    vm.openSafeLibraries()
    LuaPatternLibrary.install(on: vm)
    LuaPatternLibrary.install(on: vm)
    guard vm.loadHostBytecode(preludeBytecode, chunkName: "=" + preludeName) == nil else {
      fatalError("the sandbox prelude's bytecode does not load")
    }
    vm.newTable()
    vm.push(hooks.seed); vm.rawSet(-2, "seed")
    vm.push { vm in vm.push(hooks.virtualSeconds()); return 1 }; vm.rawSet(-2, "now")
    vm.push { vm in try hooks.print(vm.string(1) ?? ""); return 0 }; vm.rawSet(-2, "print")
    vm.push(function: hooks.require); vm.rawSet(-2, "require")
    vm.pushReraise(); vm.rawSet(-2, "reraise")
    vm.pushCoroutineCreate(); vm.rawSet(-2, "cocreate")
    vm.push(function: { vm in
      guard let source = vm.string(1), let line = LuaSourceScanner.closeAttributeLine(source) else { return 0 }
      vm.push(line)
      return 1
    }); vm.rawSet(-2, "closeline")
    SandboxMetering.install(on: vm)
    vm.pushRegistry(); vm.pushValue(-2); vm.rawSet(-2, hooksKey); vm.pop()
    switch vm.protectedCall(nargs: 1, nresults: 1, freshBudget: true) {
    case .ok: break
    default: fatalError("the sandbox prelude failed")
    }
    vm.pushRegistry()
    vm.insert(-2)
    vm.rawSet(-2, environmentKey)
    vm.pop()
  }

  package static let environmentKey = "lifesim.env"
  /// The chunk name of the prelude (frames from it are skipped when naming a script line).
  package static let preludeName = "lifesim prelude"

  /// The prelude compiled once per process: compiling its text cost about 150 µs at every
  /// process start of the simulated app, most of a short explore run. The same functions load
  /// from it, with their line information. A one-verb `run` would still spend a quarter of its
  /// instructions compiling it, so the build carries it compiled (`PreludeBytecode`), used only
  /// when it was made from this very text by this very Lua release.
  package static let preludeBytecode: [UInt8] = embeddedBytecodeFits(prelude) ? PreludeBytecode.bytes : compile(prelude)

  /// Whether `PreludeBytecode` was compiled from `source` by this build's Lua release.
  package static func embeddedBytecodeFits(_ source: String) -> Bool {
    PreludeBytecode.release == luaRelease && PreludeBytecode.sourceHash == sourceHash(source)
  }

  /// FNV-1a (64 bits) of `source`'s UTF-8: which text the embedded bytecode was compiled from.
  package static func sourceHash(_ source: String) -> UInt64 { FNV1a.hash(source.utf8) }

  /// The bytecode of `source` as the prelude's chunk, debug information kept.
  package static func compile(_ source: String) -> [UInt8] {
    let vm = LuaVM(memoryLimitBytes: 64 << 20, instructionLimit: 1_000_000)
    guard vm.load(source, chunkName: "=" + preludeName) == nil, let bytes = vm.dumpTop() else {
      fatalError("the sandbox prelude does not compile")
    }
    return bytes
  }

  /// The Lua release whose headers this build was compiled against ("5.4.4"): bytecode is
  /// not portable between releases. (The release builds link that release's archive.)
  package static let luaRelease = LUA_VERSION_MAJOR + "." + LUA_VERSION_MINOR + "." + LUA_VERSION_RELEASE
  package static let hooksKey = "lifesim.hooks"

  /// Reseeds `math.random` (a scenario's `seed` is read after the sandbox is built).
  package static func reseed(_ vm: LuaVM, _ seed: Int64) {
    vm.pushRegistry()
    vm.rawGet(-1, hooksKey)
    vm.rawGet(-1, "reseed")
    vm.insert(-3)
    vm.pop(2)
    vm.push(seed)
    _ = vm.protectedCall(nargs: 1, nresults: 0, freshBudget: false)
  }

  /// Pushes the sandbox environment.
  package static func pushEnvironment(_ vm: LuaVM) {
    vm.pushRegistry()
    vm.rawGet(-1, environmentKey)
    vm.insert(-2)
    vm.pop()
  }

  /// The text Lua compiles from a script file, as stock `lua` reads one: a UTF-8 byte-order
  /// mark is dropped and a first line starting with `#` (`#!/usr/bin/env …`) is blanked,
  /// keeping its newline so line numbers stay the file's.
  static func chunkText(_ source: String) -> String {
    var text = Substring(source)
    if text.hasPrefix("\u{FEFF}") { text = text.dropFirst() }
    guard text.hasPrefix("#") else { return String(text) }
    guard let newline = text.firstIndex(of: "\n") else { return "" }
    return String(text[newline...])
  }

  /// Loads `source` as a chunk whose `_ENV` is the sandbox; pushes the function or returns `file:line: message`.
  package static func loadChunk(_ vm: LuaVM, source: String, name: String) -> String? {
    let source = chunkText(source)
    if let line = LuaSourceScanner.closeAttributeLine(source) {
      return "\(name):\(line): to-be-closed variables (<close>) are not available in lifesim scripts"
    }
    if let error = vm.load(source, chunkName: "@" + name) { return error }
    pushEnvironment(vm)
    vm.setEnvironment(ofFunctionAt: -2)
    return nil
  }

  static let prelude = #"""
  local hooks = ...
  local next, type, rawget, rawset, rawequal, rawlen = next, type, rawget, rawset, rawequal, rawlen
  local setmetatable, getmetatable, select, error, tostring = setmetatable, getmetatable, select, error, tostring
  local rawpcall, rawxpcall, rawload, tonumber, ipairs, assert = pcall, xpcall, load, tonumber, ipairs, assert
  local string, table, math, utf8, coroutine = string, table, math, utf8, coroutine
  local reraise, cocreate, rawcg = hooks.reraise, hooks.cocreate, collectgarbage

  -- A stable merge sort: same input, same output, on every run.
  local function msort(a, n, lt)
    if n < 2 then return end
    local tmp, width = {}, 1
    while width < n do
      local i = 1
      while i <= n do
        local mid = i + width; if mid > n + 1 then mid = n + 1 end
        local hi = i + 2 * width; if hi > n + 1 then hi = n + 1 end
        local l, r, k = i, mid, i
        while l < mid and r < hi do
          if lt(a[r], a[l]) then tmp[k] = a[r]; r = r + 1 else tmp[k] = a[l]; l = l + 1 end
          k = k + 1
        end
        while l < mid do tmp[k] = a[l]; l = l + 1; k = k + 1 end
        while r < hi do tmp[k] = a[r]; r = r + 1; k = k + 1 end
        i = i + 2 * width
      end
      for j = 1, n do a[j] = tmp[j] end
      width = width * 2
    end
  end

  -- The default order compares strings byte by byte in C: long ones are charged to the budget.
  local charge = hooks.charge
  local function less(x, y)
    if type(x) == "string" and type(y) == "string" and #x > 256 then charge(#x / 16) end
    return x < y
  end

  table.sort = function(a, lt)
    if type(a) ~= "table" then error("bad argument #1 to 'sort' (table expected, got " .. type(a) .. ")", 2) end
    if lt ~= nil and type(lt) ~= "function" then error("bad argument #2 to 'sort' (function expected)", 2) end
    msort(a, #a, lt or less)
  end

  -- Keys iterate as: false, true, numbers ascending, strings bytewise.
  local function rank(k)
    local t = type(k)
    if t == "boolean" then return 1 elseif t == "number" then return 2 elseif t == "string" then return 3 end
    return nil
  end
  local function keyless(a, b)
    local ra, rb = rank(a), rank(b)
    if ra ~= rb then return ra < rb end
    if ra == 1 then return (not a) and b end
    return a < b
  end
  local function checkkey(k, level)
    if rank(k) == nil then
      error("pairs: a table with " .. type(k) .. " keys has no deterministic order (use string or number keys)", level)
    end
  end

  local function dpairs(t)
    local mt = getmetatable(t)
    if type(mt) == "table" and rawget(mt, "__pairs") then return rawget(mt, "__pairs")(t) end
    if type(t) ~= "table" then error("bad argument #1 to 'pairs' (table expected, got " .. type(t) .. ")", 2) end
    local keys, n = {}, 0
    local k = next(t)
    while k ~= nil do
      checkkey(k, 3)
      n = n + 1; keys[n] = k
      k = next(t, k)
    end
    msort(keys, n, keyless)
    local i = 0
    return function()
      while i < n do
        i = i + 1
        local key = keys[i]
        local v = rawget(t, key)
        if v ~= nil then return key, v end
      end
      return nil
    end, t, nil
  end

  local function dnext(t, k)
    if type(t) ~= "table" then error("bad argument #1 to 'next' (table expected, got " .. type(t) .. ")", 2) end
    local best = nil
    local c = next(t)
    while c ~= nil do
      checkkey(c, 3)
      if (k == nil or keyless(k, c)) and (best == nil or keyless(c, best)) then best = c end
      c = next(t, c)
    end
    if best == nil then return nil end
    return best, rawget(t, best)
  end

  -- tostring without addresses: tables, functions, threads and userdata get
  -- numbers in the order they are first printed.
  local ids, nextid = setmetatable({}, { __mode = "k" }), 0
  local function dtostring(v)
    local t = type(v)
    if t == "table" or t == "function" or t == "thread" or t == "userdata" then
      local mt = getmetatable(v)
      if type(mt) == "table" then
        local f = rawget(mt, "__tostring")
        if f ~= nil then
          local s = f(v)
          if type(s) ~= "string" then error("'__tostring' must return a string", 2) end
          return s
        end
      end
      local id = ids[v]
      if id == nil then nextid = nextid + 1; id = nextid; ids[v] = id end
      return t .. "#" .. id
    end
    return tostring(v)
  end

  local rawformat = string.format
  string.format = function(fmt, ...)
    if type(fmt) == "string" and fmt:gsub("%%%%", ""):find("%%[^%a]*p") then
      error("string.format: %p prints addresses, which differ between runs", 2)
    end
    local n = select("#", ...)
    local args = { ... }
    for i = 1, n do
      local t = type(args[i])
      if t == "table" or t == "function" or t == "thread" or t == "userdata" then args[i] = dtostring(args[i]) end
    end
    return rawformat(fmt, table.unpack(args, 1, n))
  end
  string.dump = nil

  local rawrandomseed = math.randomseed
  rawrandomseed(hooks.seed)
  hooks.reseed = function(seed) rawrandomseed(seed) end
  math.randomseed = function(x, y)
    if x == nil then error("math.randomseed needs a seed: without one it would read the clock", 2) end
    return rawrandomseed(x, y)
  end

  local function pass(...) reraise(); return ... end
  local function dpcall(...) return pass(rawpcall(...)) end
  -- Lua runs a message handler with hooks off when the error came from the count hook,
  -- so the handler must check the budget itself before doing anything.
  local function dxpcall(f, h, ...)
    return pass(rawxpcall(f, function(...) reraise(); return h(...) end, ...))
  end

  -- Finalizers and to-be-closed variables run with hooks off and at GC-dependent times:
  -- neither deterministic nor stoppable, so the sandbox has none.
  local rawsetmetatable = setmetatable
  local function dsetmetatable(t, mt)
    if type(mt) == "table" then
      if rawget(mt, "__gc") ~= nil then error("setmetatable: __gc is not available (finalizers run at times that differ between runs)", 2) end
      if rawget(mt, "__close") ~= nil then error("setmetatable: __close is not available in lifesim scripts", 2) end
    end
    return rawsetmetatable(t, mt)
  end

  local rawresume = coroutine.resume
  coroutine.resume = function(...) return pass(rawresume(...)) end
  coroutine.create = cocreate
  coroutine.wrap = function(f)
    local co = cocreate(f)
    return function(...)
      local r = table.pack(coroutine.resume(co, ...))
      reraise()
      if r[1] then return table.unpack(r, 2, r.n) end
      error(r[2], 0)
    end
  end

  local ENV = {}
  local function dload(chunk, name, mode, ...)
    if mode ~= nil and mode ~= "t" then error("load: only text chunks are allowed (mode \"t\")", 2) end
    if type(chunk) == "function" then
      local parts = {}
      while true do
        local piece = chunk()
        if piece == nil or piece == "" then break end
        if type(piece) ~= "string" then error("load: the reader function must return strings", 2) end
        parts[#parts + 1] = piece
      end
      chunk = table.concat(parts)
    end
    if type(chunk) ~= "string" then error("bad argument #1 to 'load' (string expected)", 2) end
    if hooks.closeline(chunk) then return nil, "to-be-closed variables (<close>) are not available in lifesim scripts" end
    hooks.charge(#chunk * hooks.compile)
    local env = ENV
    if select("#", ...) > 0 then env = (...) end
    return rawload(chunk, name, "t", env)
  end

  local function dprint(...)
    local parts = {}
    for i = 1, select("#", ...) do parts[i] = dtostring((select(i, ...))) end
    hooks.print(table.concat(parts, "\t"))
  end

  local function dcollectgarbage(opt)
    if opt == "count" then return rawcg("count") end
    error("collectgarbage(\"" .. tostring(opt) .. "\") is not available: only \"count\"", 2)
  end

  local now = hooks.now
  local os = {
    time = function(t)
      if t ~= nil then error("os.time with a date table is not available: virtual time only", 2) end
      return math.floor(now())
    end,
    clock = function() return now() end,
  }

  for _, name in ipairs({ "assert", "error", "ipairs", "rawequal", "rawget", "rawlen", "rawset", "select",
                          "getmetatable", "tonumber", "type", "_VERSION" }) do
    ENV[name] = _G[name]
  end
  ENV.pairs, ENV.next, ENV.tostring, ENV.print, ENV.setmetatable = dpairs, dnext, dtostring, dprint, dsetmetatable
  ENV.pcall, ENV.xpcall, ENV.load, ENV.collectgarbage = dpcall, dxpcall, dload, dcollectgarbage
  ENV.select, ENV.tonumber, ENV.rawequal = hooks.select, hooks.tonumber, hooks.rawequal
  ENV.require = hooks.require
  ENV.string, ENV.table, ENV.math, ENV.utf8, ENV.coroutine, ENV.os = string, table, math, utf8, coroutine, os
  ENV._G = ENV
  return ENV
  """#
}
