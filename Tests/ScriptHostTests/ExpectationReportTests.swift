import Foundation
import Testing
@testable import Lifecycle
@testable import ScriptHost

/// What expectations say beyond passed or failed: the window a failed call expectation covered,
/// a vacuous `expect_no_calls`, and a scenario that checks nothing.
@Suite struct ExpectationReportTests {
  static let app = "app { root = \"Main\" }\ncontroller \"Main\" {}\n"

  private func messages(_ events: [Event]) -> [String] {
    events.compactMap { if case let .expectationChecked(_, _, message, _) = $0.body { message } else { nil } }
  }

  @Test func aFailedCallExpectationNamesTheVerbsOfItsWindow() throws {
    let run = try runScripts(app: Self.app, scenario: """
      scenario { app = "app.lua", ios = 17 }
      launch()
      expect_state("active")
      home()
      advance(5)
      expect_calls { "sceneDidBecomeActive" }
      expect_no_calls { "sceneDidEnterBackground" }
      launch()
      expect_calls { "viewDidLoad" }

      """)
    #expect(run.result.exitStatus == 1)
    #expect(messages(run.events) == [
      "state is active",
      "covered home() at line 4 through advance(5) at line 5: expected calls sceneDidBecomeActive; got none",
      "covered home() at line 4 through advance(5) at line 5: unexpected calls: SceneDelegate.sceneDidEnterBackground",
      "covered launch() at line 8: expected calls viewDidLoad; got none",
    ])
    #expect(run.result.warnings.isEmpty)
  }

  @Test func anExpectNoCallsOfACallbackTheProfileNeverDeliversSaysItIsVacuous() throws {
    let run = try runScripts(app: Self.app, scenario: """
      scenario { app = "app.lua", ios = 12 }
      launch()
      home()
      expect_no_calls { "sceneDidEnterBackground", "applicationWillTerminate", "SceneDelegate.continueUserActivity" }
      expect_no_calls { "continueUserActivity" }

      """)
    #expect(run.result.exitStatus == 0)
    #expect(messages(run.events) == [
      "no calls of sceneDidEnterBackground, applicationWillTerminate, SceneDelegate.continueUserActivity"
        + " (vacuous for sceneDidEnterBackground, SceneDelegate.continueUserActivity: never called on iOS 12 without scenes)",
      "no calls of continueUserActivity",
    ])
    #expect(run.result.warnings == [RunWarning(code: "vacuous_expectation", message: "\(run.scenarioPath):4: expect_no_calls holds "
      + "vacuously for sceneDidEnterBackground, SceneDelegate.continueUserActivity: UIKit never calls them on iOS 12 without scenes")])
  }

  @Test func aScenarioWithNoExpectationWarnsThatItChecksNothing() throws {
    let run = try runScripts(app: Self.app, scenario: "scenario { app = \"app.lua\" }\nlaunch()\nhome()\n")
    #expect(run.result.exitStatus == 0)
    #expect(run.result.warnings == [RunWarning(code: "no_expectations",
                                               message: "\(run.scenarioPath) checks nothing (no expect_* call ran)")])
    #expect(run.result.warnings.first?.line == "warning: no_expectations: \(run.scenarioPath) checks nothing (no expect_* call ran)")
    let checked = try runScripts(app: Self.app, scenario: "scenario { app = \"app.lua\" }\nlaunch()\nexpect(false, \"red\")\n")
    #expect(checked.result.exitStatus == 1 && checked.result.warnings.isEmpty)
    // A fault no expectation names fails the run: that is no run that checked nothing.
    let crashed = try runScripts(app: "app { root = \"Main\" }\ncontroller \"Main\" { viewDidLoad = function(vc) error(\"boom\") end }\n",
                                 scenario: "scenario { app = \"app.lua\" }\nlaunch()\n")
    #expect(crashed.result.exitStatus == 1 && crashed.result.warnings.isEmpty)
  }
}

/// `Callback.canBeDelivered(on:)` is the model's word on what a profile can deliver: no bundled
/// scenario, on any release and scene mode, delivers a callback it calls undeliverable there.
@Suite struct DeliverabilityAgainstRunsTests {
  static let scenarios = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Scripts/scenarios").path

  @Test func noRunDeliversACallbackItsProfileCannotDeliver() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.scenarios).filter { $0.hasSuffix(".lua") }.sorted()
    var delivered = 0
    for file in files {
      for ios in IOSRelease.versions {
        for scenes in ios >= 13 ? [true, false] : [false] {
          let config = RunConfiguration(scenarioPath: Self.scenarios + "/" + file, ios: ios, scenes: scenes ? nil : false)
          var profile: Profile?
          var wrong: [String] = []
          _ = ScenarioRunner(config, onHeader: { profile = try? Profile(json: $0.profile) }) { _, event in
            guard case let .callbackDelivered(callback, _, _, _, _) = event.body, let profile else { return }
            delivered += 1
            if !callback.canBeDelivered(on: profile) { wrong.append("\(callback)") }
          }.run()
          #expect(wrong.isEmpty, "\(file) on iOS \(ios)\(scenes ? "" : " without scenes"): \(wrong)")
        }
      }
    }
    #expect(delivered > 10_000)
  }
}
