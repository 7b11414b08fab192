import Foundation
import Testing

/// A scenario and its app each `require` their own module, even when both name it `util`: each
/// side resolves from its own folder, and the log embeds both, so `replay --verify` re-runs what ran.
@Suite struct ModuleSideTests {
  static let files = [
    "scen/util.lua": "return { who = \"scenario\" }\n",
    "app/util.lua": "return { who = \"app\" }\n",
    "app/app.lua": """
      local util = require "util"
      app {}
      controller "ViewController" {}
      function AppDelegate.didFinishLaunchingWithOptions(application, options) store("who", util.who) return true end

      """,
    "other/app.lua": """
      local util = require "util"
      app {}
      controller "ViewController" {}
      function AppDelegate.didFinishLaunchingWithOptions(application, options) store("who", "other " .. util.who) return true end

      """,
    "other/util.lua": "return { who = \"other app\" }\n",
    "scen/s.lua": """
      local util = require "util"
      scenario { app = "../app/app.lua", ios = 12 }
      launch()
      expect(util.who == "scenario", "the scenario's util")
      expect(stored("who") == "app", "the app's util")

      """,
  ]

  /// The roles and paths of a log header's scripts, in order.
  private func embedded(_ log: String) throws -> [String] {
    let header = try String(contentsOfFile: log, encoding: .utf8).prefix { $0 != "\n" }
    let regex = try NSRegularExpression(pattern: #""role":"([^"]*)","path":"([^"]*)""#)
    let text = String(header)
    return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { m in
      (text as NSString).substring(with: m.range(at: 1)) + " " + (text as NSString).substring(with: m.range(at: 2))
    }
  }

  @Test func eachScriptLoadsItsOwnModuleAndTheLogEmbedsBoth() throws {
    let dir = try scriptFolder("module-sides", Self.files)
    let log = temp("module-sides.lifelog")
    let run = try lifesim(["run", "scen/s.lua", "-o", log, "--force", "-q"], cwd: dir)
    #expect(run.status == 0, "\(run.out)\(run.err)")
    #expect(run.out.contains("Expectations: 2 passed, 0 failed."), "\(run.out)")
    #expect(try embedded(log) == ["scenario scen/s.lua", "app app/app.lua", "require:util scen/util.lua",
                                  "app-require:util app/util.lua"])
    let verify = try lifesim(["replay", log, "--verify"], cwd: dir)
    #expect(verify.status == 0 && verify.out == "\(log): identical: 20 events re-ran as recorded\n", "\(verify.out)\(verify.err)")
  }

  /// `replay --app` swaps the app and its modules; the scenario keeps the util it recorded.
  @Test func replayWithAnotherAppKeepsTheScenariosModule() throws {
    let dir = try scriptFolder("module-sides-app", Self.files)
    let log = temp("module-sides-app.lifelog"), rerun = temp("module-sides-rerun.lifelog")
    _ = try lifesim(["run", "scen/s.lua", "-o", log, "--force", "-q"], cwd: dir)
    let r = try lifesim(["replay", log, "--app", "other/app.lua", "-o", rerun, "--force"], cwd: dir)
    #expect(r.status == 1, "\(r.out)\(r.err)")
    #expect(r.out.contains(#""key":"who","value":"other other app""#), "\(r.out)")
    #expect(try embedded(rerun) == ["scenario scen/s.lua", "app other/app.lua", "require:util scen/util.lua",
                                    "app-require:util other/util.lua"])
  }

  /// A log recorded before the two sides were told apart (the app then loaded the scenario's
  /// util, which the log embeds alone) still re-runs exactly as it ran.
  @Test func aLogFromBeforeTheSidesStillVerifies() throws {
    let log = repositoryRoot.path + "/Tests/CLITests/Fixtures/lifesim-0.3.0/shared_module_name.lifelog"
    #expect(try embedded(log) == ["scenario scen/s.lua", "app app/app.lua", "require:util scen/util.lua"])
    let r = try lifesim(["replay", log, "--verify"])
    #expect(r.status == 0 && r.out == "\(log): identical: 19 events re-ran as recorded\n", "\(r.out)\(r.err)")
  }
}
