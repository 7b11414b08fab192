import Foundation
import Testing
import Lifecycle
@testable import ScriptHost

/// `__close` runs with the count hook off at exits the host cannot stop, so no script may
/// declare a to-be-closed variable, however it spells the attribute; then a `__close`
/// metamethod, however it was set, is never called.
@Suite struct CloseAttributeTests {
  /// The bypass: `__close` added to a metatable after `setmetatable` (which checks only then),
  /// then a to-be-closed variable declared with a comment inside the attribute.
  @Test func closeAddedAfterSetmetatableIsNeverCalled() throws {
    let body = #"""
    local mt = {}
    local t = setmetatable({}, mt)
    mt.__close = function() log("closed") end
    for _, src in ipairs({ "local x <--[[c]]close> = ...", "local x <\nclose\n> = ...", "local x < close > = ..." }) do
      local f, err = load(src)
      log(tostring(f) .. " " .. tostring(err))
      if f then f(t) end
    end
    """#
    let (result, events) = try runApp(body)
    #expect(result.state.terminations.isEmpty)
    let logged = events.compactMap { if case let .appCalled(.log(m), _) = $0.body { return m }; return nil }
    let refusal = "nil to-be-closed variables (<close>) are not available in lifesim scripts"
    #expect(logged == [refusal, refusal, refusal])
  }

  /// The same spelling in the app's own source stops the run before it starts, naming file and line.
  @Test func commentInsideTheAttributeInAnAppIsRefused() throws {
    let (result, events) = try runApp("local mt = {}\nlocal x <--[[c]]close> = setmetatable({}, mt)\nmt.__close = function() log('closed') end")
    #expect(result.exitStatus == 2)
    #expect(result.error?.hasSuffix("app.lua:4: to-be-closed variables (<close>) are not available in lifesim scripts") == true,
            "\(result.error ?? "no error")")
    #expect(!events.contains { if case .appCalled(.log, _) = $0.body { return true }; return false })
  }

  @Test func closeInTheMetatableIsStillRefused() throws {
    let (result, _) = try runApp("setmetatable({}, { __close = function() end })")
    #expect(result.state.terminations.last?.reason == .crash)
  }
}
