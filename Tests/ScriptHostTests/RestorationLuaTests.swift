import Foundation
import Lifecycle
import Testing
@testable import ScriptHost

/// The Lua side of state restoration (docs/lua-api.md, "State restoration"): coders are tables
/// that carry what encode wrote to the next process's decode, the session carries the activity,
/// the scene's restoration calls are recorded, and a bad `restorationIdentifier` is refused.
@Suite struct RestorationLuaTests {
  /// Runs `scenario` (its verbs) against an app made of `source`; returns the result and events.
  private func run(app source: String, scenario: String, ios: Int = 17, scenes: Bool = true) throws -> (RunResult, [Event]) {
    let run = try runScripts(app: "app { root = \"List\", container = \"navigation\" }\n\(source)\n",
                             scenario: "scenario { app = \"app.lua\", ios = \(ios), scenes = \(scenes) }\n\(scenario)\n")
    return (run.result, run.events)
  }

  private func stored(_ events: [Event]) -> [String] {
    events.compactMap {
      guard case let .appCalled(.store(key, value, _), _) = $0.body else { return nil }
      return "\(key)=\(value?.canonicalText ?? "nil")"
    }
  }

  @Test func theCoderEncodeFilledIsWhatTheNextProcessDecodes() throws {
    let (result, events) = try run(app: """
      function AppDelegate.shouldSaveSecureApplicationState(app, coder) return true end
      function AppDelegate.shouldRestoreSecureApplicationState(app, coder) store("appCoder", coder); return true end
      function AppDelegate.willEncodeRestorableStateWith(app, coder) coder.version = 2 end
      function AppDelegate.viewControllerWithRestorationIdentifierPath(app, path, coder)
        store("path", path)
        return nil
      end
      controller "List" { restorationIdentifier = "list" }
      controller "Detail" {
        restorationIdentifier = "detail",
        encodeRestorableState = function(vc, coder) coder.note = 42; coder.tags = { "a", "b" } end,
        decodeRestorableState = function(vc, coder) store("decoded", coder) end,
      }
      """, scenario: "launch()\npush(\"Detail\")\nhome()\nmemory_pressure()\nlaunch()", scenes: false)
    #expect(result.exitStatus == 0)
    #expect(stored(events) == [#"appCoder={"version":2}"#, #"path=["list"]"#, #"path=["detail"]"#,
                               #"decoded={"note":42,"tags":["a","b"]}"#])
  }

  @Test func theSessionCarriesTheActivityAndTheSceneCallsAreRecorded() throws {
    let (result, events) = try run(app: """
      controller "List" {}
      function SceneDelegate.stateRestorationActivity(scene)
        return { activityType = "com.example.list", userInfo = { row = 3 } }
      end
      function SceneDelegate.willConnectTo(scene, session, options)
        store("connected", session.stateRestorationActivity or "none")
      end
      function SceneDelegate.restoreInteractionStateWith(scene, activity)
        scene:extendStateRestoration()
        store("row", activity.userInfo.row)
        scene:completeStateRestoration()
      end
      """, scenario: "launch()\nhome()\nmemory_pressure()\nlaunch()")
    #expect(result.exitStatus == 0)
    #expect(stored(events) == [#"connected="none""#, #"connected={"activityType":"com.example.list","userInfo":{"row":3}}"#, "row=3"])
    let calls = events.compactMap { e -> String? in
      if case let .appCalled(call, _) = e.body, call == .extendStateRestoration || call == .completeStateRestoration { return call.name }
      return nil
    }
    #expect(calls == ["extendStateRestoration", "completeStateRestoration"])
  }

  @Test func aRestorationIdentifierMustBeAString() throws {
    let (result, _) = try run(app: "controller \"List\" { restorationIdentifier = 3 }", scenario: "launch()")
    #expect(result.exitStatus == 2)
    #expect(result.error?.hasSuffix("app.lua:2: controller \"List\".restorationIdentifier must be a string") == true, "\(result.error ?? "")")
  }

  @Test func aMisspelledRestorationIdentifierGetsASuggestion() throws {
    let (result, _) = try run(app: "controller \"List\" { restorationIdentifer = \"list\" }", scenario: "launch()")
    #expect(result.exitStatus == 2)
    #expect(result.error?.hasSuffix("app.lua:2: controller \"List\" has no handler \"restorationIdentifer\" (did you mean restorationIdentifier?)") == true,
            "\(result.error ?? "")")
  }

  @Test func aSceneMethodCalledWithADotIsRefused() throws {
    let (_, events) = try run(app: """
      controller "List" {}
      function SceneDelegate.sceneDidBecomeActive(scene) scene.completeStateRestoration() end
      """, scenario: "launch()")
    let crash = events.compactMap { e -> String? in
      if case let .crashed(_, _, message, _) = e.body { return message }
      return nil
    }
    #expect(crash.count == 1 && crash[0].hasSuffix("completeStateRestoration: call it with ':' — scene:completeStateRestoration(), not scene.completeStateRestoration()"), "\(crash)")
  }
}
