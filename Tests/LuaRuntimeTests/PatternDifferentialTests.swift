import Foundation
import Testing
@testable import LuaRuntime

/// The sandbox's own pattern matcher against stock `lua5.4`: the same seeded cases run once in
/// one `lua5.4` process (Lua's C matcher) and once in a sandbox (lifesim's Swift matcher);
/// every result and every error message must be identical.
@Suite struct PatternDifferentialTests {
  static let caseCount = 12_000

  /// The driver: runs `cases` and returns one line per case (results or the error, every byte escaped).
  static let driver = #"""
  local function ser(v)
    local t = type(v)
    if t == "string" then
      local b = {}
      for i = 1, #v do
        local c = v:byte(i)
        if c >= 32 and c < 127 and c ~= 92 and c ~= 34 then b[#b + 1] = string.char(c) else b[#b + 1] = "\\" .. c .. ";" end
      end
      return '"' .. table.concat(b) .. '"'
    elseif t == "number" then
      return math.type(v) .. ":" .. string.format("%.17g", v)
    end
    return t .. ":" .. (t == "boolean" and (v and "true" or "false") or "")
  end
  local function show(ok, ...)
    local parts = { ok and "ok" or "error" }
    for i = 1, select("#", ...) do parts[#parts + 1] = ser((select(i, ...))) end
    return table.concat(parts, " ")
  end
  local F = {
    function(...) local t = {} for i = 1, select("#", ...) do t[i] = tostring((select(i, ...))) end return select("#", ...) .. ":" .. table.concat(t, ",") end,
    function(a) if a == "" then return nil end if #tostring(a) % 2 == 0 then return false end return tostring(a):upper() end,
    function() return 42 end,
    function() return {} end,
    function(a) error("boom " .. tostring(a)) end,
    function(_, b) return b end,
  }
  local T = {
    { a = "A", b = false, x = 7, ab = "<ab>", [""] = "E", [1] = "one", [2] = 2.5 },
    setmetatable({}, { __index = function(_, k) if type(k) == "string" and #k > 0 then return k:rep(2) end return nil end }),
    { a = {}, b = true, c = "C" },
  }
  local function run(c)
    local op, s, p, a, b = c[1], c[2], c[3], c[4], c[5]
    if op == "find" then return show(pcall(string.find, s, p, a, b))
    elseif op == "mfind" then return show(pcall(function() return s:find(p, a, b) end))
    elseif op == "match" then return show(pcall(function() return string.match(s, p, a) end))
    elseif op == "gmatch" then
      return show(pcall(function()
        local r, n = {}, 0
        for x, y, z in string.gmatch(s, p, a) do
          n = n + 1
          r[n] = ser(x) .. "," .. ser(y) .. "," .. ser(z)
          if n > 40 then break end
        end
        return table.concat(r, "|")
      end))
    else
      local repl = a
      if type(a) == "string" and a:sub(1, 1) == "F" and #a == 2 then repl = F[tonumber(a:sub(2))]
      elseif type(a) == "string" and a:sub(1, 1) == "T" and #a == 2 then repl = T[tonumber(a:sub(2))] end
      return show(pcall(string.gsub, s, p, repl, b))
    end
  end
  local out = {}
  for i, c in ipairs(CASES) do out[i] = i .. " " .. run(c) end
  return table.concat(out, "\n")
  """#

  /// `lua5.4`, or nil when it is not installed (then the test is skipped, saying why).
  static let stockLua: String? = ["/usr/bin/lua5.4", "/usr/local/bin/lua5.4"].first { FileManager.default.isExecutableFile(atPath: $0) }

  static func source(seed: UInt64, count: Int) -> String {
    var generator = PatternCaseGenerator(seed: seed)
    var lines = ["local F1, F2, F3, F4, F5, F6, T1, T2, T3 = 'F1', 'F2', 'F3', 'F4', 'F5', 'F6', 'T1', 'T2', 'T3'", "local CASES = {"]
    for _ in 0..<count { lines.append(generator.luaCase() + ",") }
    lines.append("}")
    return lines.joined(separator: "\n") + "\n" + driver
  }

  /// Runs the driver in stock Lua: `load(source, "@driver")`, output on stdout.
  static func runStock(_ lua: String, _ source: String) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-patterns-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let driverPath = dir.appendingPathComponent("driver.lua").path
    try source.write(toFile: driverPath, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: lua)
    process.arguments = ["-e", "local f = assert(io.open(\(String(reflecting: driverPath)), 'rb')) local src = f:read('a') f:close() io.write(assert(load(src, '@driver', 't'))())"]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }

  /// Runs the driver in a sandbox (the app's VM set-up, with an instruction budget so metering is on).
  static func runSandbox(_ source: String) -> String {
    let vm = LuaVM(memoryLimitBytes: 1 << 30, instructionLimit: 1 << 40)
    vm.register()
    Sandbox.install(on: vm, hooks: Sandbox.Hooks(seed: 1, virtualSeconds: { 0 }, print: { _ in }, require: { _ in 0 }))
    if let error = Sandbox.loadChunk(vm, source: source, name: "driver") { return "load error: \(error)" }
    switch vm.protectedCall(nargs: 0, nresults: 1, freshBudget: true) {
    case .ok: return vm.string(-1) ?? "no result"
    case let other: return "run error: \(other) \(vm.lastErrorMessage)"
    }
  }

  @Test func matcherAgreesWithStockLua() throws {
    guard let lua = Self.stockLua else {
      Issue.record("lua5.4 is not installed (apt-get install -y lua5.4): the differential test cannot run")
      return
    }
    let source = Self.source(seed: 20_2026, count: Self.caseCount)
    let expected = try Self.runStock(lua, source).split(separator: "\n", omittingEmptySubsequences: false)
    let actual = Self.runSandbox(source).split(separator: "\n", omittingEmptySubsequences: false)
    #expect(expected.count == Self.caseCount, "stock lua5.4 ran \(expected.count) cases: \(expected.prefix(3))")
    #expect(actual.count == expected.count, "the sandbox ran \(actual.count) cases: \(actual.prefix(3))")
    let caseLines = source.split(separator: "\n").dropFirst(2)
    var mismatches: [String] = []
    for (i, (e, a)) in zip(expected, actual).enumerated() where e != a {
      mismatches.append("case \(i + 1) \(caseLines.dropFirst(i).first ?? "")\n  lua5.4:  \(e)\n  sandbox: \(a)")
    }
    #expect(mismatches.count == 0, "\(mismatches.count) cases differ:\n\(mismatches.prefix(15).joined(separator: "\n"))")
    // The generator must reach every feature and every error, or the comparison proves little.
    let all = expected.joined(separator: "\n")
    for needle in ["malformed pattern (ends with '%')", "malformed pattern (missing ']')", "missing '[' after '%f' in pattern",
                   "malformed pattern (missing arguments to '%b')", "invalid capture index %", "invalid pattern capture",
                   "unfinished capture", "too many captures", "invalid use of '%' in replacement string",
                   "invalid replacement value (a table)", "boom", "bad argument #", "number has no integer representation",
                   "driver:"] {
      #expect(all.contains(needle), "no case produced \(needle)")
    }
  }
}
