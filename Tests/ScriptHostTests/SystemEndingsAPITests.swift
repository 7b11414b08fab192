import Foundation
import Lifecycle
import Testing
@testable import ScriptHost

/// The Lua surface of docs/model.md §14: `store`'s protection classes and its boolean, `stored`
/// under protection, `hold_lock`/`release_lock`, and their errors at the app's line.
@Suite struct SystemEndingsAPITests {
  /// Runs `scenario` (its verbs) against an app whose handlers are `delegate` (Lua source).
  private func run(delegate: String, scenario: String) throws -> (RunResult, [Event]) {
    let run = try runScripts(app: "app { root = \"Home\" }\ncontroller \"Home\" {}\n\(delegate)\n",
                             scenario: "scenario { app = \"app.lua\", ios = 17, scenes = false }\n\(scenario)\n")
    return (run.result, run.events)
  }

  private func logs(_ events: [Event]) -> [String] {
    events.compactMap { if case let .appCalled(.log(m), _) = $0.body { return m } else { return nil } }
  }

  @Test func storeAnswersWhetherItWroteAndStoredHidesUnavailableClasses() throws {
    let (result, events) = try run(delegate: """
      function AppDelegate.didReceiveRemoteNotification(app, info, completion)
        log(tostring(store("a", 1)) .. " " .. tostring(store("b", 2, { protection = "none" })) .. " "
            .. tostring(store("c", 3, { protection = "complete" })))
        log(tostring(stored("a")) .. " " .. tostring(stored("b")) .. " " .. tostring(app.isProtectedDataAvailable))
        completion()
      end
      function AppDelegate.applicationProtectedDataDidBecomeAvailable(app)
        log(tostring(store("a", 1)) .. " " .. tostring(stored("a")) .. " " .. tostring(app.isProtectedDataAvailable))
      end
      """, scenario: "reboot() background_launch(\"push\") unlock() launch()")
    #expect(logs(events) == ["false true false", "nil 2 false", "true 1 true"])
    #expect(result.exitStatus == 0)
    let stores = events.compactMap { e -> String? in
      guard case let .appCalled(.store(key, _, protection), _) = e.body else { return nil }
      return "\(key) \(protection.rawValue)"
    }
    #expect(stores == ["b none", "a untilFirstUnlock"])
  }

  @Test("bad arguments are errors at the app's line", arguments: [
    ("store(\"k\", 1, { protection = \"always\" })",
     "app.lua:4: store: protection must be one of \"none\", \"untilFirstUnlock\", \"complete\", not \"always\""),
    ("store(\"k\", 1, { protecton = \"none\" })",
     "app.lua:4: store: unknown key \"protecton\" (did you mean protection?); the keys are protection"),
    ("hold_lock(3)", "app.lua:4: hold_lock: expected a lock name, not 3"),
    ("hold_lock(\"db\", { shared = \"yes\" })", "app.lua:4: hold_lock: shared must be true or false, not \"yes\""),
    ("hold_lock(\"db\", true)", "app.lua:4: hold_lock: expected an options table ({ shared = true }), not true"),
    ("release_lock()", "app.lua:4: release_lock: expected a lock name, not nil"),
  ])
  func badArguments(_ call: String, _ message: String) throws {
    let (_, events) = try run(delegate: "function AppDelegate.didFinishLaunchingWithOptions(app, options)\n  \(call)\nend",
                              scenario: "launch() expect_terminated(\"crash\")")
    let crashes = events.compactMap { e -> String? in if case let .crashed(_, _, m, _) = e.body { return m } else { return nil } }
    #expect(crashes.count == 1 && crashes[0].hasSuffix("/" + message), "\(crashes)")
  }

  @Test func locksAreRecordedAndASharedOneKillsAtSuspension() throws {
    let (result, events) = try run(delegate: """
      function AppDelegate.applicationDidEnterBackground(app)
        hold_lock("cache")
        hold_lock("db", { shared = true })
        release_lock("cache")
        release_lock("cache")
      end
      """, scenario: "launch() home() expect_terminated(\"suspended_with_locked_file\")")
    let calls = events.compactMap { e -> String? in
      switch e.body {
      case let .appCalled(.holdLock(name, shared), _): return "hold \(name) \(shared)"
      case let .appCalled(.releaseLock(name), _): return "release \(name)"
      case let .noted(name, message, _) where name == "releaseLockIgnored": return message
      case let .terminated(t): return "\(t.reason.rawValue) \(t.code ?? "")"
      default: return nil
      }
    }
    #expect(calls == ["hold cache false", "hold db true", "release cache", "no lock \"cache\" is held: the call does nothing",
                      "suspended_with_locked_file 0xdead10cc"])
    #expect(result.exitStatus == 0)
  }
}
