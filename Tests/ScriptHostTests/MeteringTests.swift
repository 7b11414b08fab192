import Foundation
import Testing
import Lifecycle
@testable import LuaRuntime
@testable import ScriptHost

/// Work done inside Lua's C library counts against the CPU budget: each case below used to
/// hang the host (100 % CPU until killed); now it is the ordinary watchdog kill, on every run.
@Suite struct MeteringTests {
  static let watchdog = "main thread unresponsive: viewDidLoad() on Home#1 ran past the limit of 50000000 Lua instructions"

  static let formerHangs: [(name: String, body: String)] = [
    ("back-reference find", #"local i = ("a"):rep(2e5):find("(.-)%1b")"#),
    ("table.move of 2^40 elements", "table.move({}, 1, 2^40, 1)"),
    ("a million plain finds over 16 MB", #"local s = ("x"):rep(2^24) for i = 1, 1e6 do s:find("y", 1, true) end"#),
    ("empty string.rep", #"local s = (""):rep(1e15)"#),
    ("table.unpack in a loop", "local t = {} for i = 1, 1e9 do select('#', table.unpack(t, 1, 999000)) end"),
    ("table.concat of a large string in a loop", #"local t = { ("x"):rep(2^24) } for i = 1, 1e9 do table.concat(t) end"#),
    ("insert at the front of a long array", "local t = {} for i = 1, 1e6 do t[i] = i end for i = 1, 1e9 do table.insert(t, 1, i) table.remove(t, 1) end"),
    ("table.remove under a __len of 2^40", "local t = setmetatable({}, { __len = function() return 2^40 end }) table.remove(t, 1)"),
    ("tonumber of a long numeral", #"local s = (" "):rep(2^24) .. "1" for i = 1, 1e9 do tonumber(s) end"#),
    ("load of large text", #"local src = "return " .. ("1 + "):rep(2^20) .. "1" for i = 1, 1e9 do load(src) end"#),
  ]

  @Test(arguments: 0..<MeteringTests.formerHangs.count)
  func formerHangIsAWatchdogKill(_ index: Int) throws {
    let (name, body) = Self.formerHangs[index]
    let start = Date()
    let (result, events) = try runApp(body)
    let seconds = Date().timeIntervalSince(start)
    let termination = result.state.terminations.last
    #expect(termination?.reason == .watchdog, "\(name): \(String(describing: termination))")
    #expect(termination?.description == Self.watchdog, "\(name)")
    // A kill no expect_terminated names fails the run (exit 1), and nothing else went wrong.
    #expect(result.exitStatus == 1 && result.error == nil, "\(name): \(result.error ?? "")")
    #expect(seconds < 20, "\(name) took \(seconds) s")
    print("metering: \(name): watchdog after \(String(format: "%.2f", seconds)) s (debug build)")
    // Deterministic: the same run gives the same events (the first names the scenario's temporary path).
    let (_, again) = try runApp(body)
    #expect(events.dropFirst().elementsEqual(again.dropFirst()), "\(name): a second run differs")
  }

  /// In a scenario the same work is a script error (exit 2) naming the line. (The backtracking
  /// gsub needs the scenario's whole 500 M budget: seconds in a release build, minutes in a
  /// debug one, so the test uses the plain-find and table.move hangs.)
  @Test(arguments: [
    ("local s = (\"x\"):rep(2^24)\nfor i = 1, 1e9 do s:find(\"y\", 1, true) end\n", 2),
    ("local t = {}\ntable.move(t, 1, 2^40, 1)\n", 2),
  ])
  func scenarioHangIsAScriptError(_ source: String, _ line: Int) throws {
    let result = try runScenario(source)
    #expect(result.exitStatus == 2)
    #expect(result.error?.hasSuffix("s.lua:\(line): the scenario ran 500000000 instructions without calling a verb (an endless loop?)") == true,
            "\(result.error ?? "no error")")
  }

  /// The backtracking gsub spends the budget one matcher step at a time (slow in a debug build),
  /// so this test gives the app a budget of 10 M instead of 50 M.
  @Test func backtrackingGsubIsAWatchdogKill() throws {
    let body = #"local s = ("a"):rep(5000):gsub("a-a-a-a-a-b", "")"#
    let (result, events) = try runApp(body, knobs: "instructionLimit = 10000000")
    #expect(result.state.terminations.last?.description
            == "main thread unresponsive: viewDidLoad() on Home#1 ran past the limit of 10000000 Lua instructions")
    let (_, again) = try runApp(body, knobs: "instructionLimit = 10000000")
    #expect(events.dropFirst().elementsEqual(again.dropFirst()))
  }

  /// A state with a memory limit but no instruction limit meters with an unbounded budget.
  @Test func unboundedBudgetDoesNotOverflow() {
    let vm = LuaVM(memoryLimitBytes: 1 << 30, instructionLimit: 0)
    vm.register()
    Sandbox.install(on: vm, hooks: Sandbox.Hooks(seed: 1, virtualSeconds: { 0 }, print: { _ in }, require: { _ in 0 }))
    #expect(Sandbox.loadChunk(vm, source: #"return (("abc"):gsub("b", "x")) .. ("abc"):rep(100):sub(2, 300)"#, name: "t") == nil)
    #expect(vm.protectedCall(nargs: 0, nresults: 1, freshBudget: true) == .ok)
    #expect(vm.string(-1)?.hasPrefix("axcbcabc") == true)
  }

  @Test func pcallCannotSwallowAPatternKill() throws {
    let (result, _) = try runApp(#"while true do pcall(string.find, ("a"):rep(2e5), "(.-)%1b") end"#)
    #expect(result.state.terminations.last?.description == Self.watchdog)
  }

  @Test func gsubCallbacksShareTheBudget() throws {
    let (result, _) = try runApp(#"local s = ("a"):rep(1e5) s:gsub(".", function(c) for i = 1, 100 do end return c end)"#,
                                 knobs: "instructionLimit = 10000000")
    #expect(result.state.terminations.last?.reason == .watchdog)
  }

  @Test func gsubErrorsKeepTheirValue() throws {
    let (_, events) = try runApp(#"local ok, e = pcall(string.gsub, "ab", "%w", function(c) error({ code = c }) end) log(type(e) .. " " .. e.code)"#)
    let logged = events.compactMap { if case let .appCalled(.log(m), _) = $0.body { return m }; return nil }
    #expect(logged == ["table a"])
  }

  @Test func memoryLimitHoldsForGsubResults() throws {
    let (result, _) = try runApp(#"local s = ("x"):rep(2^20) local r = s:gsub("x", ("y"):rep(100))"#)
    #expect(result.state.terminations.last?.reason == .jetsam)
  }

  @Test func ordinaryUseIsUnchanged() throws {
    let body = #"""
    local t = {} for w in ("one two  three"):gmatch("%a+") do t[#t + 1] = w end
    table.insert(t, 1, "zero") table.remove(t, 2)
    log(table.concat(t, ",") .. " " .. ("x"):rep(3, "-") .. " " .. select("#", table.unpack({1, 2, 3}))
      .. " " .. string.format("%5.1f|%s", 3.14159, "s") .. " " .. (("hello"):gsub("l+", { ll = "LL" })) .. " " .. tostring(tonumber(" 42 ")))
    """#
    let (result, events) = try runApp(body)
    #expect(result.state.terminations.isEmpty)
    let logged = events.compactMap { if case let .appCalled(.log(m), _) = $0.body { return m }; return nil }
    #expect(logged == ["zero,two,three x-x-x 3   3.1|s heLLo 42"])
  }

  @Test func errorsOfMeteredFunctionsAreStockLuas() throws {
    let (_, events) = try runApp("""
    local a = select(2, pcall(table.concat, {{}}))
    local b = select(2, pcall(function() local r = table.concat({{}}) return r end))
    local c = select(2, pcall(function() local r = ("x"):rep() return r end))
    log(a) log(b) log(c)
    """)
    let logged = events.compactMap { if case let .appCalled(.log(m), _) = $0.body { return m }; return nil }
    // The script's path is shortened in `file:line:`; the line and the text are stock Lua's.
    let expected = ["invalid value (table) at index 1 in table for 'concat'",
                    "/app.lua:4: invalid value (table) at index 1 in table for 'concat'",
                    "/app.lua:5: bad argument #1 to 'rep' (number expected, got no value)"]
    #expect(logged.count == 3 && zip(logged, expected).allSatisfy { $0.hasSuffix($1) }, "\(logged)")
    #expect(logged.first == expected.first)
  }
}
