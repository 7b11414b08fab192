import Lifecycle
import Testing
@testable import ScriptHost

/// The host keeps references into the app's Lua state to find handlers fast (`AppReferences`),
/// but a handler is whatever the app's tables hold at the moment UIKit calls it: app code may
/// add, replace or remove handlers, or replace a whole handler table, at any time.
@Suite struct HandlerLookupTests {
  private func logged(_ events: [Event]) -> [String] {
    events.compactMap { if case let .appCalled(.log(m), _) = $0.body { return m }; return nil }
  }

  private func handled(_ events: [Event], _ callback: Callback) -> [Bool] {
    events.compactMap {
      guard case let .callbackDelivered(cb, _, handled, _, _) = $0.body, cb == callback else { return nil }
      return handled
    }
  }

  @Test func handlersAddedReplacedAndRemovedLaterAreTheOnesCalled() throws {
    let run = try runScripts(app: """
      app { root = "Home" }
      controller "Home" {}
      local round = 0
      function SceneDelegate.sceneDidEnterBackground(scene)
        round = round + 1
        if round == 1 then
          SceneDelegate.sceneWillEnterForeground = function(s) log("added " .. s.id) end
        elseif round == 2 then
          SceneDelegate.sceneWillEnterForeground = function(s) log("replaced " .. s.id) end
        elseif round == 3 then
          SceneDelegate.sceneWillEnterForeground = nil
        else
          SceneDelegate = { sceneWillEnterForeground = function(s) log("new table " .. s.id) end }
        end
      end
      """, scenario: """
      scenario { app = "app.lua" }
      launch()
      for i = 1, 4 do home() launch() end
      """)
    #expect(run.result.error == nil)
    #expect(logged(run.events) == ["added Scene#1", "replaced Scene#1", "new table Scene#1"])
    #expect(handled(run.events, .sceneWillEnterForeground) == [false, true, true, false, true])
  }

  @Test func eachInstanceKeepsItsOwnTableAcrossCallbacks() throws {
    let run = try runScripts(app: """
      app { root = "Home", container = "navigation" }
      controller "Home" {
        viewDidLoad = function(vc) vc.mark = "home" end,
        viewDidAppear = function(vc) log(vc.id .. " " .. tostring(vc.mark)) end,
      }
      controller "Detail" {
        viewDidLoad = function(vc) vc.mark = "detail" end,
        viewDidAppear = function(vc) log(vc.id .. " " .. tostring(vc.mark)) end,
      }
      function SceneDelegate.sceneWillResignActive(scene) scene.count = (scene.count or 0) + 1 end
      function SceneDelegate.sceneDidEnterBackground(scene) log(scene.id .. " " .. scene.count) end
      """, scenario: """
      scenario { app = "app.lua" }
      launch()
      push("Detail")
      pop()
      home()
      launch()
      home()
      """)
    #expect(run.result.error == nil)
    #expect(logged(run.events) == ["Home#1 home", "Detail#1 detail", "Home#1 home", "Scene#1 1", "Scene#1 2"])
  }

  @Test func everyCallbackHasItsOrdinalInAllCases() {
    for (index, callback) in Callback.allCases.enumerated() { #expect(callback.ordinal == index) }
  }
}
