import Foundation
import Lifecycle
import Testing
@testable import ScriptHost

/// The Lua side of docs/model.md §15: what the app's handlers receive (launch and connection
/// options, items, activities, notifications, responses, the restoration handler), the
/// notification delegate, and the errors a script gets for misusing them.
@Suite struct OpeningHostTests {
  /// Runs `scenario` (verbs, after `scenario { … }`) against an app with a `Home` root and
  /// `handlers`; returns the result, the events and the app's `log` messages.
  private func run(scenes: Bool = true, handlers: String, scenario: String) throws -> (RunResult, [Event], [String]) {
    let (result, events, _) = try runScripts(app: "app { root = \"Home\" }\n\(handlers)\n",
                                             scenario: "scenario { app = \"app.lua\", scenes = \(scenes) }\n\(scenario)\n")
    let logs = events.compactMap { e -> String? in
      if case let .appCalled(.log(message), _) = e.body { return message }
      return nil
    }
    return (result, events, logs)
  }

  private let sceneHandlers = """
    UNUserNotificationCenter:setDelegate()
    controller "Home" {}
    function SceneDelegate.willConnectTo(scene, session, o)
      local r, a = o.notificationResponse, o.userActivities
      log("connect " .. tostring(r and (r.id .. "/" .. r.action)) .. " " .. tostring(o.shortcutItem and o.shortcutItem.type)
        .. " " .. tostring(a and (#a .. " " .. a[1].activityType .. " " .. a[1].webpageURL)) .. " " .. tostring(o.handoffUserActivityType))
    end
    function NotificationDelegate.willPresent(center, n, completion) log("present " .. n.id .. " " .. center.class) completion({}) end
    function NotificationDelegate.didReceive(center, r, completion) log("receive " .. r.id .. "/" .. r.action) completion() end
    function SceneDelegate.performActionForShortcutItem(scene, item, completion) log("item " .. scene.id .. " " .. item.type) completion(true) end
    function SceneDelegate.willContinueUserActivityWithType(scene, type) log("will " .. type) end
    function SceneDelegate.continueUserActivity(scene, a) log("continue " .. a.activityType .. " " .. tostring(a.webpageURL)) end
    """

  @Test func aSceneAppReceivesEveryOptionAndArgument() throws {
    let (result, _, logs) = try run(handlers: sceneHandlers, scenario: """
      tap_notification { id = "m1", action = "reply", foreground = true }
      notify { id = "m2" }
      home() quick_action("compose")
      home() universal_link("https://a.example/1")
      app_switcher() force_quit() universal_link("https://a.example/2")
      app_switcher() force_quit() quick_action("search")
      app_switcher() force_quit() handoff("com.example.reading") advance(1)
      """)
    #expect(result.exitStatus == 0, "\(result.error ?? "")")
    #expect(logs == [
      "connect m1/reply nil nil nil", "receive m1/reply", "present m2 UNUserNotificationCenter", "item Scene#1 compose",
      "will NSUserActivityTypeBrowsingWeb", "continue NSUserActivityTypeBrowsingWeb https://a.example/1",
      "connect nil nil 1 NSUserActivityTypeBrowsingWeb https://a.example/2 nil", "connect nil search nil nil",
      "connect nil nil nil com.example.reading", "continue com.example.reading nil",
    ])
  }

  @Test func aScenelessAppReadsLaunchOptionsAndRestoresControllers() throws {
    let (result, _, logs) = try run(scenes: false, handlers: """
      UNUserNotificationCenter:setDelegate()
      function AppDelegate.didFinishLaunchingWithOptions(app, o)
        local d, n = o.userActivityDictionary, o.remoteNotification
        log("launch " .. tostring(o.shortcutItem and o.shortcutItem.type) .. " " .. tostring(d and d.webpageURL) .. " " .. tostring(n and n.id))
        return true
      end
      function AppDelegate.continueUserActivity(app, a, restorationHandler)
        restorationHandler({ home })
        return true
      end
      controller "Home" { viewDidLoad = function(vc) home = vc end,
                          restoreUserActivityState = function(vc, a) log("restore " .. vc.id .. " " .. a.webpageURL) end }
      function NotificationDelegate.didReceive(center, r, completion) log("receive " .. r.id) completion() end
      """, scenario: """
      universal_link("https://a.example/1")
      app_switcher() force_quit() quick_action("compose")
      app_switcher() force_quit() tap_notification { id = "m1" }
      """)
    #expect(result.exitStatus == 0, "\(result.error ?? "")")
    #expect(logs == ["launch nil https://a.example/1 nil", "restore Home#1 https://a.example/1", "launch compose nil nil",
                     "launch nil nil m1", "receive m1"])
  }

  @Test func misusesAreErrorsNamingTheCall() throws {
    let (_, dot, _) = try run(handlers: "controller \"Home\" {}\nfunction AppDelegate.didFinishLaunchingWithOptions(a, o) UNUserNotificationCenter.setDelegate() end",
                              scenario: "launch()")
    #expect(dot.contains { if case let .crashed(_, _, message, _) = $0.body { message.hasSuffix("setDelegate: call it with ':' — UNUserNotificationCenter:setDelegate(…), not UNUserNotificationCenter.setDelegate(…)") } else { false } })
    let (_, handler, _) = try run(scenes: false, handlers: "controller \"Home\" {}\nfunction AppDelegate.continueUserActivity(a, activity, restore) restore({ 1 }) end",
                                  scenario: "universal_link(\"https://a.example/1\")")
    #expect(handler.contains { if case let .crashed(_, _, message, _) = $0.body { message.hasSuffix("restorationHandler: item 1 is not a view controller (a controller handler's vc)") } else { false } })
    let (typo, _, _) = try run(handlers: "controller \"Home\" {}\nfunction NotificationDelegate.didRecieve(c, r, done) end", scenario: "launch()")
    #expect(typo.error?.hasSuffix("NotificationDelegate has no handler \"didRecieve\" (did you mean didReceive?)") == true, "\(typo.error ?? "")")
    let (noID, _, _) = try run(handlers: "controller \"Home\" {}", scenario: "tap_notification { action = \"archive\" }")
    #expect(noID.error?.hasSuffix("tap_notification: id is required ({ id = … })") == true, "\(noID.error ?? "")")
    let (noTable, _, _) = try run(handlers: "controller \"Home\" {}", scenario: "notify()")
    #expect(noTable.error?.hasSuffix("notify: expected a table: notify { id = … }") == true, "\(noTable.error ?? "")")
  }
}
