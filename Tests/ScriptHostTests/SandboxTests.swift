import Foundation
import Testing
import Lifecycle
@testable import ScriptHost

@Suite struct SandboxTests {
  @Test("removed libraries are not reachable", arguments: [
    "io.write('x')", "os.execute('true')", "os.exit(1)", "debug.traceback()", "package.loadlib('x','y')",
    "dofile('/etc/passwd')", "loadfile('/etc/passwd')", "string.dump(print)", "os.getenv('HOME')",
  ])
  func removed(_ code: String) throws {
    let (result, _) = try runApp(code)
    #expect(result.state.terminations.last?.reason == .crash)
  }

  @Test func bytecodeIsRefused() throws {
    let (result, events) = try runApp("local f, err = load('\\27Lua...') ; log(tostring(f) .. ' ' .. err)")
    #expect(result.state.terminations.isEmpty)
    let logged = events.compactMap { if case let .appCalled(.log(m), _) = $0.body { return m }; return nil }
    #expect(logged.first?.hasPrefix("nil ") == true)
    #expect(logged.first?.contains("binary chunk") == true)
  }

  @Test func endlessLoopIsAWatchdogKill() throws {
    let (result, _) = try runApp("while true do end")
    let t = result.state.terminations.last
    #expect(t?.reason == .watchdog)
    #expect(t?.description.contains("Lua instructions") == true)
  }

  @Test func pcallCannotSwallowTheLimit() throws {
    let (result, _) = try runApp("while true do pcall(function() while true do end end) end")
    #expect(result.state.terminations.last?.reason == .watchdog)
  }

  @Test func coroutinesAreHookedToo() throws {
    let (result, _) = try runApp("local co = coroutine.wrap(function() while true do end end) co()")
    #expect(result.state.terminations.last?.reason == .watchdog)
  }

  @Test func memoryBombIsJetsam() throws {
    // The 1 KiB string is built once: repeating it every iteration costs CPU (string.rep is metered) faster than memory.
    let (result, _) = try runApp("local kb, t = string.rep('x', 1000), {} for i = 1, 1e9 do t[i] = kb .. i end")
    #expect(result.state.terminations.last?.reason == .jetsam)
  }

  @Test func luaErrorIsACrashWithMessageAndTraceback() throws {
    let (result, events) = try runApp("local x = nil\nreturn x.field")
    #expect(result.state.terminations.last?.reason == .crash)
    let crash = events.compactMap { if case let .crashed(_, _, m, tb) = $0.body { return (m, tb) }; return nil }.first
    #expect(crash?.0.contains("attempt to index a nil value") == true)
    #expect(crash?.1.contains("stack traceback") == true)
  }

  @Test func errorObjectsThatAreNotStrings() throws {
    for obj in ["{}", "nil", "42", "setmetatable({}, {__tostring = function() error('boom') end})"] {
      let (result, _) = try runApp("error(\(obj))")
      #expect(result.state.terminations.last?.reason == .crash, "\(obj)")
    }
  }

  @Test func pairsOrderIsDefined() throws {
    let (_, events) = try runApp("local t = {b=1, a=2, [3]=3, [true]=4, c=5} local s = '' for k in pairs(t) do s = s .. tostring(k) .. ',' end log(s)")
    let logged = events.compactMap { if case let .appCalled(.log(m), _) = $0.body { return m }; return nil }
    #expect(logged == ["true,3,a,b,c,"])
  }

  @Test func requireRefusesPaths() throws {
    let (result, _) = try runApp("require('../secret')")
    #expect(result.exitStatus == 2)
    #expect(result.error?.contains("require \"../secret\": module names are dotted names") == true)
  }

  @Test func printIsALogCallAtTheUsersLine() throws {
    let (_, events) = try runApp("print('hello', 42, {})")
    let calls = events.compactMap { e -> (String, String?)? in
      if case let .appCalled(.log(m), at) = e.body { return (m, at) }; return nil
    }
    #expect(calls.count == 1)
    #expect(calls.first?.0 == "hello\t42\ttable#1")
    #expect(calls.first?.1?.hasSuffix("app.lua:3") == true)
  }
}
