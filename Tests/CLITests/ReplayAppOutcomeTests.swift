import Foundation
import Testing
import TestSupport

/// `replay --app` ends with the changed app's outcome (which expectations now fail), not only
/// where it departs.
@Suite struct ReplayAppOutcomeTests {
  @Test func theChangedAppsFailuresAndOutcomeCloseTheReport() throws {
    let log = try recordedRun("app-outcome.lifelog")
    let r = try lifesim(["replay", log, "--app", "Scripts/apps/overrun.lua"], env: ["NO_COLOR": "1"])
    #expect(r.status == 1 && r.out.hasPrefix("Departs at event 48 (t = 0.500000 s):\n"))
    let end = """
      With Scripts/apps/overrun.lua these expectations fail:
         65.000000 ✘ expect_state: expected state suspended, but the app is not_running  Scripts/scenarios/home_and_return.lua:9
         65.000000 ✘ expect_no_calls: covered launch() at line 10: unexpected calls: NoteList#2.viewWillAppear, NoteList#2.viewDidAppear  Scripts/scenarios/home_and_return.lua:12
      Outcome: the app is active after 87 events. Expectations: 4 passed, 2 failed. Terminations: watchdog 0x8badf00d (sceneDidEnterBackground(_:) did not return: exhausted real (wall clock) time allowance of 5.00 seconds) [watchdog, background]. Failed: unexpected termination (watchdog); name it with expect_terminated if the scenario means it. Stored: draft = "!". Seed 1.

      """
    #expect(r.out.hasSuffix("endBackgroundTask\",\"task\":1,\"at\":\"Scripts/apps/notes.lua:24\"}\n" + end), "\(r.out)")
  }

  @Test func theJSONEndLineCarriesTheOutcomeAndTheFailures() throws {
    let log = try recordedRun("app-outcome-json.lifelog")
    let r = try lifesim(["replay", log, "--app", "Scripts/apps/overrun.lua", "--json"])
    let end = try #require(r.out.split(separator: "\n").last.map(String.init))
    #expect(r.status == 1)
    #expect(end.hasSuffix(#","outcome":{"state":"active","terminations":[{"reason":"watchdog","code":"0x8badf00d","description":"sceneDidEnterBackground(_:) did not return: exhausted real (wall clock) time allowance of 5.00 seconds","category":"watchdog","foreground":false}],"expectations":{"passed":4,"failed":2},"stored":{"draft":"!"},"unexpected_terminations":["watchdog"]},"failedExpectations":[{"name":"expect_state","message":"expected state suspended, but the app is not_running","at":"Scripts/scenarios/home_and_return.lua:9"},{"name":"expect_no_calls","message":"covered launch() at line 10: unexpected calls: NoteList#2.viewWillAppear, NoteList#2.viewDidAppear","at":"Scripts/scenarios/home_and_return.lua:12"}]}"#), "\(end)")
  }

  @Test func anAppThatDepartsButHoldsEveryExpectationSaysSo() throws {
    let dir = try scriptFolder("app-outcome-holds", [
      "app.lua": "app { name = \"A\", root = \"Main\" }\ncontroller \"Main\" { }\n",
      "app2.lua": "app { name = \"A\", root = \"Main\" }\ncontroller \"Main\" { }\nfunction AppDelegate.didFinishLaunchingWithOptions(application, options) store(\"k\", 1); return true end\n",
      "s.lua": "scenario { app = \"app.lua\" }\nlaunch()\nexpect_state(\"active\")\n",
    ])
    _ = try lifesim(["run", "s.lua", "-o", "a.lifelog", "-q"], cwd: dir)
    let r = try lifesim(["replay", "a.lifelog", "--app", "app2.lua"], env: ["NO_COLOR": "1"], cwd: dir)
    #expect(r.status == 1)
    #expect(r.out.hasSuffix("\nWith app2.lua every expectation holds.\nOutcome: the app is active after 32 events. Expectations: 1 passed, 0 failed. No termination. Stored: k = 1. Seed 1.\n"), "\(r.out)")
  }

  /// A headline never says more than what ran: a changed app that crashes before any
  /// expectation has run holds none of them, and one that crashes after some held them only.
  @Test func anAppThatCrashesSaysWhatRanNotThatEveryExpectationHolds() throws {
    let dir = try scriptFolder("app-outcome-crash", [
      "app.lua": "app { name = \"A\", root = \"Main\" }\ncontroller \"Main\" { }\n",
      "early.lua": "app { name = \"A\", root = \"Main\" }\ncontroller \"Main\" { viewDidLoad = function(vc) error(\"kaboom\") end }\n",
      "late.lua": "app { name = \"A\", root = \"Main\" }\ncontroller \"Main\" { }\nfunction SceneDelegate.sceneDidEnterBackground(scene) error(\"kaboom\") end\n",
      "s.lua": "scenario { app = \"app.lua\" }\nlaunch()\nhome()\nexpect_state(\"suspended\")\n",
      "t.lua": "scenario { app = \"app.lua\" }\nlaunch()\nexpect_state(\"active\")\nhome()\nlaunch()\nhome()\n",
    ])
    _ = try lifesim(["run", "s.lua", "-o", "s.lifelog", "-q"], cwd: dir)
    let early = try lifesim(["replay", "s.lifelog", "--app", "early.lua"], env: ["NO_COLOR": "1"], cwd: dir)
    #expect(early.status == 1)
    #expect(early.out.hasSuffix("\nWith early.lua no expectation ran.\nOutcome: the app is not running after 16 events. Expectations: 0 passed, 0 failed. "
      + "Terminations: crash (early.lua:2: kaboom) [illegalInstruction, foreground]. Failed: unexpected termination (crash); "
      + "name it with expect_terminated if the scenario means it. Nothing stored. Seed 1.\n"), "\(early.out)")
    _ = try lifesim(["run", "t.lua", "-o", "t.lifelog", "-q"], cwd: dir)
    let late = try lifesim(["replay", "t.lifelog", "--app", "late.lua"], env: ["NO_COLOR": "1"], cwd: dir)
    #expect(late.status == 1)
    #expect(late.out.contains("\nWith late.lua every expectation that ran holds, but the run ended unexpectedly.\n"
      + "Outcome: the app is not running after 79 events. Expectations: 1 passed, 0 failed. "), "\(late.out)")
  }
}
