import Foundation
import Testing

/// A verdict a CI believes: expectations that cannot pass by accident, faults that fail the run.
@Suite(.serialized) struct VerdictTests {
  static let crashingApp = """
    app { root = "Main" }
    controller "Main" {
      viewDidLoad = function(vc) error("boom") end,
    }
    """

  @Test func expectationsAfterOneVerbAllCheckThatVerb() throws {
    let dir = try scriptFolder("window", [
      "s.lua": "launch() expect_calls { \"sceneDidBecomeActive\" } expect_no_calls { \"viewDidLoad\" }\n",
    ])
    let r = try lifesim(["run", "s.lua"], cwd: dir)
    #expect(r.status == 1)
    #expect(r.out.contains("✘ expect_no_calls: covered launch() at line 1: unexpected calls: ViewController#1.viewDidLoad  s.lua:1"), "\(r.out)")
  }

  @Test func theNextVerbOpensANewWindow() throws {
    let dir = try scriptFolder("window2", [
      "s.lua": """
        launch()
        expect_calls { "viewDidLoad" }
        home()
        expect_no_calls { "viewDidLoad", "sceneWillEnterForeground" }
        expect_calls { "sceneDidEnterBackground" }
        """,
    ])
    let r = try lifesim(["run", "s.lua", "-q"], cwd: dir)
    #expect(r.status == 0, "\(r.out)")
    #expect(r.out.contains("Expectations: 3 passed, 0 failed."))
  }

  @Test func aCrashNoExpectationNamesFailsTheRun() throws {
    let dir = try scriptFolder("crash", ["app.lua": Self.crashingApp, "s.lua": "scenario { app = \"app.lua\" }\nlaunch()\n"])
    let r = try lifesim(["run", "s.lua", "-q"], cwd: dir)
    #expect(r.status == 1)
    #expect(r.out.contains("Terminations: crash (app.lua:3: boom) [illegalInstruction, foreground]. Failed: unexpected termination (crash); name it with expect_terminated if the scenario means it."), "\(r.out)")
  }

  @Test func anExpectedCrashPasses() throws {
    for expectation in ["expect_terminated(\"crash\")", "expect_terminated()"] {
      let dir = try scriptFolder("crash-ok", [
        "app.lua": Self.crashingApp, "s.lua": "scenario { app = \"app.lua\" }\nlaunch()\n\(expectation)\n",
      ])
      let r = try lifesim(["run", "s.lua", "-q"], cwd: dir)
      #expect(r.status == 0, "\(expectation): \(r.out)")
    }
  }

  @Test func systemReclaimAndForceQuitAreNotFaults() throws {
    let dir = try scriptFolder("not-faults", [
      "s.lua": "launch() home() advance(10) memory_pressure() launch() app_switcher() force_quit()\n",
    ])
    let r = try lifesim(["run", "s.lua", "-q"], cwd: dir)
    #expect(r.status == 0, "\(r.out)")
    #expect(r.out.contains("Terminations: jetsam (vm-pageshortage"), "\(r.out)")
  }

  /// Every call expectation of every bundled scenario checks something: turned into its
  /// opposite (`expect_calls` ↔ `expect_no_calls`), the scenario fails.
  @Test func everyBundledCallExpectationCanFail() throws {
    let dir = temp("mutants")
    try? FileManager.default.removeItem(atPath: dir)
    try FileManager.default.createDirectory(atPath: dir + "/scenarios", withIntermediateDirectories: true)
    for folder in ["apps", "lib"] {
      try FileManager.default.createSymbolicLink(atPath: dir + "/" + folder,
                                                 withDestinationPath: repositoryRoot.path + "/Scripts/" + folder)
    }
    var mutants = 0
    for scenario in try bundledScenarios() {
      let lines = try String(contentsOfFile: repositoryRoot.path + "/" + scenario, encoding: .utf8)
        .components(separatedBy: "\n")
      for (i, line) in lines.enumerated() {
        let inverted: String
        if line.hasPrefix("expect_calls") { inverted = "expect_no_calls" + line.dropFirst("expect_calls".count) }
        else if line.hasPrefix("expect_no_calls") { inverted = "expect_calls" + line.dropFirst("expect_no_calls".count) }
        else { continue }
        var mutant = lines
        mutant[i] = inverted
        let path = dir + "/scenarios/" + URL(fileURLWithPath: scenario).lastPathComponent
        try mutant.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let r = try lifesim(["run", path, "-q"])
        #expect(r.status == 1, "\(scenario):\(i + 1) inverted still passes: \(inverted)\n\(r.out)\(r.err)")
        mutants += 1
      }
    }
    #expect(mutants > 40)
  }
}
