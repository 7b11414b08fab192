import Foundation
import Lifecycle
import Testing
@testable import ScriptHost

/// The Lua side of BGTaskScheduler and background sessions (docs/lua-api.md): what the calls
/// answer, what the handlers receive, and the mistakes a script can make.
@Suite struct BGTaskAPITests {
  /// Runs `scenario` (after its `scenario { … }` line) against `app`; returns the run and its events.
  private func run(app: String, scenario: String, ios: Int = 17) throws -> (RunResult, [Event]) {
    let run = try runScripts(app: app, scenario: "scenario { app = \"app.lua\", ios = \(ios) }\n\(scenario)\n")
    return (run.result, run.events)
  }

  private static let declaring = """
    app { root = "Home", bgTaskIdentifiers = { "r", "p" } }
    controller "Home" {}
    """

  @Test func registerAndSubmitAnswerAsBGTaskSchedulerDoes() throws {
    let app = Self.declaring + """

      function AppDelegate.didFinishLaunchingWithOptions(application)
        local answers = {}
        answers[#answers + 1] = tostring(BGTaskScheduler:register("r", function(task) end))
        answers[#answers + 1] = tostring(BGTaskScheduler:register("undeclared", function(task) end))
        local ok, err = BGTaskScheduler:submit { id = "undeclared", kind = "refresh" }
        answers[#answers + 1] = tostring(ok) .. " " .. tostring(err)
        answers[#answers + 1] = tostring(BGTaskScheduler:submit { id = "r", kind = "refresh", earliestBegin = 60 })
        store("answers", table.concat(answers, ", "))
        return true
      end
      """
    let (result, events) = try run(app: app, scenario: "launch()")
    #expect(result.exitStatus == 0, "\(result.error ?? "")")
    #expect(result.state.store["answers"] == .string("true, false, false notPermitted, true"))
    #expect(result.state.backgroundWork.pending.map(\.dueAt) == [60_000_000])
    let submits = events.compactMap { e -> String? in
      guard case let .appCalled(.submitBGTask(request, result), _) = e.body else { return nil }
      return "\(request.identifier) \(result.rawValue)"
    }
    #expect(submits == ["undeclared notPermitted", "r pending"])
  }

  @Test func theLaunchHandlerGetsItsTaskAndTheExpirationHandlerIsReadAtExpiry() throws {
    let app = Self.declaring + """

      function AppDelegate.didFinishLaunchingWithOptions(application)
        BGTaskScheduler:register("r", function(task)
          store("task", task.identifier .. " " .. task.kind)
          after(1, function()
            task.expirationHandler = function() store("expired", true) task:setTaskCompleted(false) end
          end)
        end)
        return true
      end
      function SceneDelegate.sceneDidEnterBackground(scene) BGTaskScheduler:submit { id = "r", kind = "refresh" } end
      """
    let (result, _) = try run(app: app, scenario: "launch() home() bg_task(\"r\") advance(60) expect_state(\"suspended\")")
    #expect(result.exitStatus == 0, "\(result.error ?? "")")
    #expect(result.state.store["task"] == .string("r refresh") && result.state.store["expired"] == .bool(true))
  }

  @Test func aLateRegistrationCrashesEvenUnderPcall() throws {
    let app = Self.declaring + """

      function SceneDelegate.sceneDidBecomeActive(scene)
        pcall(function() BGTaskScheduler:register("r", function(task) end) end)
        store("survived", true)
      end
      """
    let (result, _) = try run(app: app, scenario: "launch() expect_terminated(\"crash\")")
    #expect(result.exitStatus == 0, "\(result.error ?? "")")
    #expect(result.state.store["survived"] == nil)
    #expect(result.state.terminations.last?.description
      == "NSInternalInconsistencyException: All launch handlers must be registered before application finishes launching")
  }

  @Test func mistakesAreLuaErrorsAtTheLine() throws {
    for (call, message) in [
      ("BGTaskScheduler.register(\"r\", function() end)", "app.lua:4: register: call it with ':' — BGTaskScheduler:register(…), not BGTaskScheduler.register(…)"),
      ("BGTaskScheduler:submit { id = \"r\", kind = \"refresh\", requiresExternalPower = true }", "app.lua:4: submit: only a processing request takes requiresExternalPower"),
      ("BGTaskScheduler:submit { id = \"r\", kind = \"daily\" }", "app.lua:4: submit: kind must be \"refresh\", \"processing\" or \"continued\""),
      ("background_transfer { session = 3 }", "app.lua:4: background_transfer: session must be a string (the background session's identifier)"),
    ] {
      let app = Self.declaring + "\nfunction AppDelegate.didFinishLaunchingWithOptions(application)\n  \(call)\nend\n"
      let (result, _) = try run(app: app, scenario: "launch() expect_terminated(\"crash\")")
      #expect(result.exitStatus == 0 && result.state.terminations.last?.description.hasSuffix("/" + message) == true,
              "\(call): \(result.state.terminations)")
    }
  }

  @Test func anIdentifierDeclaredTwiceIsAScriptErrorAtTheAppLine() throws {
    let app = "app { root = \"Home\", bgTaskIdentifiers = { \"r\", \"p\", \"r\" } }\ncontroller \"Home\" {}\n"
    let (result, _) = try run(app: app, scenario: "launch()")
    #expect(result.exitStatus == 2)
    #expect(result.error?.hasSuffix("app.lua:1: app: bgTaskIdentifiers[3] repeats bgTaskIdentifiers[1], \"r\"") == true,
            "\(result.error ?? "")")
  }

  @Test("registering in the script's top level (a static initialiser) is legal, in the first process too")
  func registrationAtTheTopLevel() throws {
    let app = Self.declaring + "\nstore(\"top\", BGTaskScheduler:register(\"r\", function(task) task:setTaskCompleted(true) end))\n"
      + "function SceneDelegate.sceneDidEnterBackground(scene) BGTaskScheduler:submit { id = \"r\", kind = \"refresh\" } end\n"
    let (result, _) = try run(app: app, scenario: "launch() home() memory_pressure() bg_task(\"r\") expect_state(\"suspended\")")
    #expect(result.exitStatus == 0, "\(result.error ?? "")")
    #expect(result.state.store["top"] == .bool(true))
  }

  @Test func onIOS12ThereIsNoBGTaskScheduler() throws {
    let app = Self.declaring + "\nfunction AppDelegate.didFinishLaunchingWithOptions(application) store(\"scheduler\", tostring(BGTaskScheduler)) return true end\n"
    let (result, _) = try run(app: app, scenario: "launch()", ios: 12)
    #expect(result.exitStatus == 0 && result.state.store["scheduler"] == .string("nil"), "\(result.error ?? "")")
  }

  @Test func sessionHandlersGetTheIdentifierTheTaskAndTheError() throws {
    let app = """
      app { root = "Home" }
      controller "Home" {}
      local done
      function SceneDelegate.sceneDidEnterBackground(scene) store("id", background_transfer { session = "s", seconds = 5 }) end
      function AppDelegate.handleEventsForBackgroundURLSession(application, identifier, completion)
        store("events", identifier) done = completion
      end
      function URLSessionDelegate.didCompleteWithError(session, task, error)
        store("task", session .. " " .. task.taskIdentifier .. " " .. tostring(error))
      end
      function URLSessionDelegate.didFinishEvents(session) done() end
      """
    let (result, _) = try run(app: app, scenario: "launch() home() advance(5) transfer_done(\"s\") expect_state(\"suspended\")")
    #expect(result.exitStatus == 0, "\(result.error ?? "")")
    #expect(result.state.store["id"] == .int(1) && result.state.store["events"] == .string("s")
      && result.state.store["task"] == .string("s 1 nil"))
  }

  @Test("an app that declares identifiers gets no fetch from iOS 13, even before its first launch (its declaration is read without a process)")
  func fetchWithheldBeforeAnyProcess() throws {
    let app = Self.declaring + "\nfunction AppDelegate.performFetchWithCompletionHandler(application, completion) completion() end\n"
    let (result, events) = try run(app: app, scenario: "background_launch(\"fetch\") expect_state(\"not_running\")")
    #expect(result.exitStatus == 0, "\(result.error ?? "")")
    #expect(!events.contains { if case .processStarted = $0.body { return true } else { return false } })
    #expect(events.contains { if case .noted("fetchNotDelivered", _, _) = $0.body { return true } else { return false } })
  }
}
