import EventStore
import Testing
@testable import ScriptHost

/// How a header names each side's modules, and how each side finds its own again.
@Suite struct ModuleSideHeaderTests {
  static func module(_ role: String, _ path: String, _ source: String = "return {}") -> EmbeddedScript {
    EmbeddedScript(role: role, path: path, source: source)
  }

  @Test func aModuleBothSidesLoadFromOneFileIsEmbeddedOnceAndAClashIsTheAppsOwn() {
    let scenario = [Self.module("require:util", "s/util.lua"), Self.module("require:steps", "lib/steps.lua")]
    let app = [Self.module("require:steps", "lib/steps.lua"), Self.module("require:util", "a/util.lua"),
               Self.module("require:notes", "a/notes.lua")]
    let entries = ModuleSide.headerEntries(scenario: scenario, app: app)
    #expect(entries.map { "\($0.role) \($0.path)" } == ["require:util s/util.lua", "require:steps lib/steps.lua",
                                                         "app-require:util a/util.lua", "require:notes a/notes.lua"])
    #expect(ModuleSide.scenario.embedded("util", in: entries)?.path == "s/util.lua")
    #expect(ModuleSide.app.embedded("util", in: entries)?.path == "a/util.lua")
    #expect(ModuleSide.app.embedded("steps", in: entries)?.path == "lib/steps.lua")
    #expect(ModuleSide.scenario.embedded("missing", in: entries) == nil)
  }

  @Test func replayWithAnotherAppEmbedsItsModulesAsTheAppsOwn() {
    let recorded = [Self.module("scenario", "s.lua"), Self.module("app", "a/app.lua"), Self.module("require:util", "s/util.lua"),
                    Self.module("app-require:util", "a/util.lua")]
    let replaced = ModuleSide.replacingApp(in: recorded, path: "b/app.lua", source: "app {}",
                                           modules: [Self.module("require:util", "b/util.lua")])
    #expect(replaced.map { "\($0.role) \($0.path)" } == ["scenario s.lua", "require:util s/util.lua", "app b/app.lua",
                                                         "app-require:util b/util.lua"])
  }
}
