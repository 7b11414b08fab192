import Foundation
import Testing
@testable import LuaRuntime

/// The scanner finds a to-be-closed variable however the attribute is spelled, and nothing else
/// (the sandbox refuses such a script: `CloseAttributeTests` in ScriptHostTests runs them).
@Suite struct LuaSourceScannerTests {
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
}
