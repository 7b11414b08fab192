import Foundation
import Lifecycle
import Testing
@testable import ScriptHost

/// What a handler returns reaches the model, and the log, only for callbacks whose return
/// UIKit reads (`Callback.returnsValue`); a value lifesim cannot keep crashes the app there.
@Suite struct ReturnedValueTests {
  /// Launches an app whose `AppDelegate` is `delegate` (Lua source); returns the run's events.
  private func launch(delegate: String) throws -> (RunResult, [Event]) {
    let run = try runScripts(app: "app { root = \"Home\" }\ncontroller \"Home\" {}\n\(delegate)\n",
                             scenario: "scenario { app = \"app.lua\" }\nlaunch()\n")
    return (run.result, run.events)
  }

  private func returns(_ events: [Event]) -> [String] {
    events.compactMap {
      guard case let .returned(name, _, _, _, value) = $0.body else { return nil }
      return "\(name) \(value?.canonicalText ?? "-")"
    }
  }

  @Test func theLaunchMethodsValueIsRecordedAndOthersAreNot() throws {
    let (_, events) = try launch(delegate: """
      function AppDelegate.willFinishLaunchingWithOptions(app, options) return false end
      function AppDelegate.didFinishLaunchingWithOptions(app, options) return { handled = true } end
      function SceneDelegate.sceneDidBecomeActive(scene) return 42 end
      """)
    #expect(returns(events) == [
      "application(_:willFinishLaunchingWithOptions:) false",
      #"application(_:didFinishLaunchingWithOptions:) {"handled":true}"#,
      "sceneDidBecomeActive(_:) -",
    ])
  }

  @Test func returningNothingRecordsNoValue() throws {
    let (_, events) = try launch(delegate: "function AppDelegate.didFinishLaunchingWithOptions(app, options) end")
    #expect(returns(events) == ["application(_:didFinishLaunchingWithOptions:) -"])
  }

  @Test func aValueThatCannotBeKeptCrashesTheApp() throws {
    let (result, events) = try launch(delegate: "function AppDelegate.didFinishLaunchingWithOptions(app, options) return print end")
    let crash = events.compactMap { e -> String? in
      if case let .crashed(name, _, message, _) = e.body { return "\(name): \(message)" }
      return nil
    }
    #expect(crash == ["application(_:didFinishLaunchingWithOptions:): AppDelegate.application(_:didFinishLaunchingWithOptions:) returned a value lifesim cannot keep: a function cannot be stored (strings, numbers, booleans and tables only)"])
    #expect(result.exitStatus == 1)
  }

  @Test func aValueOverTheLimitCrashesTheApp() throws {
    let (_, events) = try launch(delegate: "function AppDelegate.didFinishLaunchingWithOptions(app, options) return string.rep('x', 1100000) end")
    let crash = events.compactMap { e -> String? in
      if case let .crashed(_, _, message, _) = e.body { return message }
      return nil
    }
    #expect(crash == ["AppDelegate.application(_:didFinishLaunchingWithOptions:) returned 1100002 bytes, over the 1024 KiB a return value may have"])
  }
}
