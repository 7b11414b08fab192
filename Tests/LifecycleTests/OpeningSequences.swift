import JSON
import Testing
@testable import Lifecycle

/// The sequences of docs/model.md §15 built from the standard ones: where a notification
/// response, a quick action or a user activity falls in a cold launch and in a return.
enum Opened {
  static let AD = "AppDelegate.", SD = "SceneDelegate.", ND = "NotificationDelegate."
  static let didReceive = ND + "userNotificationCenter(_:didReceive:withCompletionHandler:)"

  /// The profile's standard cold launch with `calls` after sceneWillEnterForeground (scene app)
  /// or just before applicationDidBecomeActive (sceneless).
  static func coldLaunch(_ p: PlatformUnderTest, inserting calls: [String]) -> [String] {
    var s = p.scenes ? StandardLaunch.sceneCalls(ios: p.ios) : StandardLaunch.scenelessCalls(ios: p.ios)
    let anchor = p.scenes ? SD + "sceneDidBecomeActive(_:)" : AD + "applicationDidBecomeActive(_:)"
    s.insert(contentsOf: calls, at: s.firstIndex(of: anchor) ?? s.endIndex)
    return s
  }

  /// Back from the background: will-enter-foreground, `calls`, did-become-active (`after`: the
  /// calls follow did-become-active).
  static func back(scenes: Bool, inserting calls: [String], after: Bool = false) -> [String] {
    let enter = scenes ? SD + "sceneWillEnterForeground(_:)" : AD + "applicationWillEnterForeground(_:)"
    let active = scenes ? SD + "sceneDidBecomeActive(_:)" : AD + "applicationDidBecomeActive(_:)"
    return after ? [enter, active] + calls : [enter] + calls + [active]
  }

  /// The payload of the latest callback `cb` (nil: none was delivered).
  static func payload(of cb: Callback, in h: Harness) -> JSONValue? {
    for e in h.allEvents.reversed() {
      if case let .callbackDelivered(c, _, _, _, arguments) = e.body, c == cb { return arguments.payload }
    }
    return nil
  }
}

extension Simulator {
  /// `UNUserNotificationCenter:setDelegate()` from app code.
  func setNotificationDelegate() throws(ProcessEnded) {
    do { try handle(.setNotificationDelegate) } catch { throw ProcessEnded() }
  }

  /// Calls the completion handler UIKit gave most recently.
  func completeLatest() throws(ProcessEnded) { try complete(state.completionsIssued) }
}

extension ScriptedApp {
  /// An app that sets its notification delegate in didFinishLaunching and implements didReceive
  /// (calling its completion when `completes`) and willPresent.
  static func withNotificationDelegate(completes: Bool = true) -> ScriptedApp {
    let app = ScriptedApp()
    app.handlers["didFinishLaunchingWithOptions"] = { sim in try sim.setNotificationDelegate() }
    app.handlers["didReceive"] = { sim in if completes { try sim.completeLatest() } }
    app.handlers["willPresent"] = { _ in }
    return app
  }
}
