import Foundation
import ScriptHost
import Testing
import TestSupport

/// `ScriptOutline` (how `lifesim test` tells a scenario from any other script without running
/// it) against Lua itself: over random scripts of comments, strings and calls, with every kind
/// of line end, it finds a top-level `scenario { … }` exactly when Lua calls one.
struct ScriptOutlineTests {
  static let lineEnds = ["\n", "\r", "\r\n", "\n\r"]
  static let texts = ["scenario { }", "scenario({ })", "]]", "]=]", "]==]", "=]", "[[", "[=[", "\r", "\n", "\r\n", "x", "\\", "'",
                      "\"", "--", " "]

  static func pick(_ list: [String], _ rng: inout SplitMix64) -> String { list[rng.below(list.count)] }

  static func text(_ rng: inout SplitMix64) -> String {
    (0..<rng.below(4)).map { _ in pick(texts, &rng) }.joined()
  }

  static func fragment(_ rng: inout SplitMix64) -> String {
    switch rng.below(11) {
    case 0: return "--" + text(&rng) + pick(lineEnds, &rng)
    case 1: return "--[[" + text(&rng) + "]]"
    case 2: return "--[==[" + text(&rng) + "]==]"
    case 3: return "--[=" + text(&rng) + pick(lineEnds, &rng)
    case 4: return "local s = \"" + text(&rng) + "\""
    case 5: return "local s = '" + text(&rng) + "'"
    case 6: return "local s = [[" + text(&rng) + "]]"
    case 7: return "local s = [=[" + text(&rng) + "]=]"
    case 8: return "scenario { }"
    case 9: return "scenario({ name = \"n\" })"
    default: return "x = 1"
    }
  }

  /// Runs each script under Lua 5.4 with a `scenario` that notes a call with a table:
  /// "1" called, "0" not, "x" Lua refuses the script.
  static func luaVerdicts(_ scripts: [String], in dir: String) throws -> [String] {
    for (i, script) in scripts.enumerated() { try Data(script.utf8).write(to: URL(fileURLWithPath: "\(dir)/\(i).lua")) }
    let driver = """
      local dir, n = arg[1], arg[2]
      for i = 0, tonumber(n) - 1 do
        local f = assert(io.open(dir .. "/" .. i .. ".lua", "rb")); local source = f:read("a"); f:close()
        local called = false
        local chunk = load(source, "=s", "t", { scenario = function(t) called = called or type(t) == "table" end })
        if chunk then pcall(chunk) end
        io.write(chunk and (called and "1" or "0") or "x", "\\n")
      end
      """
    let r = try runProcess("/usr/bin/env", ["lua5.4", "-e", driver, "/dev/null", dir, "\(scripts.count)"])
    try #require(r.status == 0, "lua5.4: \(r.err)")
    return r.out.split(separator: "\n").map(String.init)
  }

  @Test func findsAScenarioCallExactlyWhenLuaMakesOne() throws {
    var rng = SplitMix64(seed: 2026)
    let scripts = (0..<3_000).map { _ in
      (0..<(1 + rng.below(5))).map { _ in Self.fragment(&rng) }.joined(separator: Self.pick([" ", "\n", "\r", "\r\n", "\t", ";"], &rng))
    }
    let dir = temporaryPath("lifesim-outline", "scripts")
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let verdicts = try Self.luaVerdicts(scripts, in: dir)
    try #require(verdicts.count == scripts.count)
    var compared = 0
    for (script, verdict) in zip(scripts, verdicts) where verdict != "x" {
      compared += 1
      #expect(ScriptOutline(source: script).callsScenario == (verdict == "1"), "\(script.debugDescription)")
    }
    #expect(compared > 1_500, "too few scripts Lua accepts: \(compared)")
  }

  @Test func readsTheDeclaredNameAndAppWhenTheyArePlainStrings() {
    let outline = ScriptOutline(source: "scenario { ios = 17, name = \"cold launch\"; app = 'apps/a.lua', knobs = { name = \"no\" } }\nlaunch()\n")
    #expect(outline.callsScenario && outline.callsVerbs && !outline.callsApp)
    #expect(outline.declaredName == "cold launch")
    #expect(outline.declaredApp == "apps/a.lua")
    #expect(ScriptOutline(source: "scenario { name = \"a\\tb\" }").declaredName == nil)  // escapes: not read
    #expect(ScriptOutline(source: "scenario { name = prefix .. \"x\" }").declaredName == nil)
    #expect(ScriptOutline(source: "function f() scenario { } launch() end").callsScenario == false)
    #expect(ScriptOutline(source: "local function f() launch() end\nf()\n").callsVerbs == false)
    #expect(ScriptOutline(source: "app { name = \"A\" }").callsApp)
  }
}
