import Foundation
import Testing
import Lifecycle
@testable import ScriptHost

/// `__close` runs with the count hook off at exits the host cannot stop, so no script may
/// declare a to-be-closed variable, however it spells the attribute; then a `__close`
/// metamethod, however it was set, is never called.
@Suite struct CloseAttributeTests {
  @Test("every spelling of the attribute is found", arguments: [
    ("local x <close> = nil", 1),
    ("local x < close > = nil", 1),
    ("local x <--[[c]]close> = nil", 1),
    ("local x <--[==[ a ]] b ]==]close--[[d]]> = nil", 1),
    ("local x <-- line comment\nclose\n> = nil", 1),
    ("\n\nlocal x\t<\tclose\t>= nil", 3),
    ("local a <const>, b <close> = 1, nil", 1),
    ("local s = [[ <close> ]]\nlocal y <close> = nil", 2),
    ("local s = '\\'' local y <close> = nil", 1),
    ("local s = \"a\\\nb\" local y <close> = nil", 2),
  ])
  func attributeIsFound(_ source: String, _ line: Int) {
    #expect(LuaSourceScanner.closeAttributeLine(source) == line, "\(source)")
  }

  @Test("text that only looks like the attribute is allowed", arguments: [
    "local s = '<close>'",
    "local s = \"<close>\"",
    "local s = [==[<close>]==]",
    "-- local x <close> = nil",
    "--[[ local x <close> = nil ]]",
    "local x <const> = 1",
    "local close = 1 local y = 2 <= close",
    "local close = 3 print(1 << close >> 1)",
    "local n = 0x1p-2 local closed <const> = 1",
  ])
  func lookalikeIsAllowed(_ source: String) {
    #expect(LuaSourceScanner.closeAttributeLine(source) == nil, "\(source)")
  }

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
