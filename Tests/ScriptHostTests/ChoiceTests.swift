import Foundation
import Lifecycle
import Testing
@testable import ScriptHost

/// `choose(site)` (docs/lua-api.md, "Choices"): forced by the run, else drawn from its seed,
/// each outcome recorded as an app call, and a site that cannot be one refused at its line.
@Suite struct ChoiceTests {
  private static let app = """
    app { root = "Home" }
    controller "Home" {}
    function AppDelegate.didFinishLaunchingWithOptions()
      local seen = {}
      for _ = 1, 8 do seen[#seen + 1] = tostring(choose("AppDelegate.swift:12")) end
      seen[#seen + 1] = tostring(choose("Other.swift:3"))
      store("seen", table.concat(seen, " "))
      return true
    end
    """

  /// Runs the app with `choices` forced and `seed` (and the scenario's `declaration` after its
  /// `app`); the value it stored and its `choose` calls.
  private func run(seed: Int64, choices: [(String, Bool)] = [], declaration: String = "", body: String = "launch()\n",
                   reached: ((LifecycleState) -> Void)? = nil) throws -> (seen: String?, calls: [String], header: Profile?) {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ls-choose-\(UUID().uuidString.prefix(12))")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    try Self.app.write(toFile: dir.appendingPathComponent("app.lua").path, atomically: true, encoding: .utf8)
    let path = dir.appendingPathComponent("s.lua").path
    try "scenario { app = \"app.lua\"\(declaration) }\n\(body)".write(toFile: path, atomically: true, encoding: .utf8)
    var config = RunConfiguration(scenarioPath: path, seed: seed)
    for (site, value) in choices { try config.choices.force(site, value) }
    var calls: [String] = []
    let result = ScenarioRunner(config) { _, e in
      if case let .appCalled(.choose(site, value, forced), _) = e.body { calls.append("\(site) \(value)\(forced ? " forced" : "")") }
    }.run()
    #expect(result.exitStatus == 0, "\(result.error ?? "")")
    reached?(result.state)
    return (result.state.store["seen"]?.stringValue, calls, result.header.flatMap { try? Profile(json: $0.profile) })
  }

  @Test func aForcedSiteReturnsItsValueEveryTimeAndTheHeaderRecordsIt() throws {
    let r = try run(seed: 5, choices: [("AppDelegate.swift:12", false)])
    #expect(r.seen?.hasPrefix("false false false false false false false false ") == true, "\(r.seen ?? "nil")")
    #expect(r.calls.prefix(8).allSatisfy { $0 == "AppDelegate.swift:12 false forced" }, "\(r.calls)")
    #expect(r.calls.count == 9 && !r.calls[8].hasSuffix("forced"))
    #expect(r.header?.forcedChoices.value(of: "AppDelegate.swift:12") == false)
    #expect(r.header?.forcedChoices.value(of: "Other.swift:3") == nil)
  }

  /// `SITE@N` forces the site in the run's Nth launch alone, over the site's own value: a
  /// relaunch after a jetsam takes the other branch. The state names the site reached in each.
  @Test func aSiteForcedForOneLaunchTakesItsValueThereAlone() throws {
    var reached: [String] = []
    let r = try run(seed: 3, choices: [("AppDelegate.swift:12", true), ("AppDelegate.swift:12@2", false)],
                    body: "launch()\nhome()\nadvance(10)\nmemory_pressure()\nlaunch()\n") { reached = $0.forcedSitesReached }
    let site = r.calls.filter { $0.hasPrefix("AppDelegate.swift:12 ") }
    #expect(site == Array(repeating: "AppDelegate.swift:12 true forced", count: 8) + Array(repeating: "AppDelegate.swift:12 false forced", count: 8))
    #expect(reached == ["AppDelegate.swift:12", "AppDelegate.swift:12@1", "AppDelegate.swift:12@2"])
    #expect(r.header?.forcedChoices.value(of: "AppDelegate.swift:12", launch: 2) == false)
    #expect(r.header?.forcedChoices.value(of: "AppDelegate.swift:12", launch: 3) == true)
  }

  /// A layer that forces the site itself overrides a lower layer's `SITE@N`: the command line's
  /// `SITE=true` over the scenario's `SITE@2=false`. A launch counted from 0 is refused.
  @Test func theCommandLinesSiteOverridesTheScenariosSiteInOneLaunch() throws {
    let r = try run(seed: 3, choices: [("AppDelegate.swift:12", true)], declaration: #", choose = { ["AppDelegate.swift:12@2"] = false }"#,
                    body: "launch()\nhome()\nadvance(10)\nmemory_pressure()\nlaunch()\n")
    #expect(r.calls.filter { $0.hasPrefix("AppDelegate.swift:12 ") } == Array(repeating: "AppDelegate.swift:12 true forced", count: 16))
    var choices = ForcedChoices()
    #expect(throws: Profile.KnobError.self) { try choices.force("AppDelegate.swift:12@0", false) }
    #expect(throws: Profile.KnobError.self) { try choices.force("AppDelegate.swift:12@02", false) }
    try choices.force("name@host", false)
    #expect(ForcedChoices.siteOfLaunchKey("name@host") == nil && ForcedChoices.siteOfLaunchKey("A.swift:3@12") == "A.swift:3")
  }

  /// Draws come from the seed: the same seed draws the same, and across seeds both outcomes come.
  @Test func anUnforcedSiteDrawsFromTheSeed() throws {
    let first = try run(seed: 7), again = try run(seed: 7)
    #expect(first.seen == again.seen)
    #expect(first.calls == again.calls)
    var outcomes: Set<String> = []
    for seed in 1...6 { outcomes.formUnion(try run(seed: Int64(seed)).seen?.split(separator: " ").map(String.init) ?? []) }
    #expect(outcomes == ["true", "false"])
    #expect(first.header?.forcedChoices.isEmpty == true)
  }

  /// One site's draws do not move another's: forcing the first leaves the second's draw as it was.
  @Test func forcingOneSiteLeavesAnothersDraw() throws {
    for seed in Int64(1)...4 {
      let drawn = try run(seed: seed), forced = try run(seed: seed, choices: [("AppDelegate.swift:12", true)])
      #expect(drawn.calls.last == forced.calls.last, "seed \(seed)")
    }
  }

  /// `scenario { choose = { … } }` forces as `--choose` does, and the command line wins.
  @Test func theScenarioForcesAndTheCommandLineWins() throws {
    let declared = #", choose = { ["Other.swift:3"] = false, ["AppDelegate.swift:12"] = true }"#
    let r = try run(seed: 3, declaration: declared)
    #expect(r.seen == "true true true true true true true true false", "\(r.seen ?? "nil")")
    #expect(r.header?.forcedChoices.text == "AppDelegate.swift:12=true, Other.swift:3=false")
    let over = try run(seed: 3, choices: [("Other.swift:3", true)], declaration: declared)
    #expect(over.seen?.hasSuffix(" true") == true)
    #expect(over.header?.forcedChoices.text == "AppDelegate.swift:12=true, Other.swift:3=true")
  }

  @Test(arguments: [
    ("choose = true", "scenario: choose must be a table of sites and outcomes: choose = { [\"AppDelegate.swift:8\"] = true }, not true"),
    ("choose = { a = 1 }", "scenario: choose must be a table of sites and outcomes: choose = { [\"AppDelegate.swift:8\"] = true } (each site a string, each outcome true or false)"),
    ("choose = { [\"\"] = true }", "scenario: choose must be a table of sites and outcomes: choose = { [\"AppDelegate.swift:8\"] = true } (a choice's site must not be empty)"),
  ])
  func aWrongScenarioChoiceStopsTheRunAtItsLine(declaration: String, message: String) throws {
    let run = try runScripts(app: Self.app, scenario: "scenario { app = \"app.lua\", \(declaration) }\nlaunch()\n")
    #expect(run.result.exitStatus == 2)
    #expect(run.result.error == "\(run.scenarioPath):1: \(message)", "\(run.result.error ?? "nil")")
  }

  @Test(arguments: [
    ("choose(3)", #"choose: expected the condition's site as a string: choose("AppDelegate.swift:57")"#),
    (#"choose("")"#, "choose: a choice's site must not be empty"),
    (#"choose("a\nb")"#, "choose: a choice's site must not hold a control character"),
    (#"choose(string.rep("x", 201))"#, "choose: a choice's site is at most 200 bytes"),
  ])
  func aSiteThatCannotBeOneIsAnErrorAtItsLine(call: String, message: String) throws {
    let (result, _) = try runApp("local x = \(call)")
    #expect(result.state.terminations.first?.description.contains("app.lua:3: \(message)") == true,
            "\(result.state.terminations.map(\.description))")
  }
}
