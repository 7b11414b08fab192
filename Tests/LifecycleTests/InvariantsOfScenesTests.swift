import Testing
@testable import Lifecycle

/// The built-in rules of several scenes, each against a stream of two scenes' events that keeps
/// every rule and the same stream with one fault planted. No verb connects a second scene here:
/// the events are written directly.
@Suite struct InvariantsOfScenesTests {
  private typealias Rule = InvariantsOfScenes.Rule

  private static func callback(_ cb: Callback, _ target: String) -> EventBody {
    .callbackDelivered(cb, target: target, handled: false, depth: 0, arguments: CallbackArguments())
  }

  private static func posted(_ name: String) -> EventBody { .notificationPosted(name: "UIApplication.\(name)Notification", handled: false, depth: 0) }

  /// A launch into two scenes, each with its root; Scene#2 closes, Scene#1 goes to the background.
  private static let twoScenes: [EventBody] = [
    .processStarted(mode: .foreground, state: .background),
    .sceneSessionChanged(created: true),
    .sceneConnected(scene: "Scene#1"),
    .rootBuilt(container: .navigation, navigation: true, controllers: ["List#1"]),
    .sceneActivationChanged(scene: "Scene#1", from: .unattached, to: .foregroundActive),
    .applicationStateChanged(from: .background, to: .active),
    posted("didBecomeActive"),
    .sceneSessionChanged(created: true),
    .sceneConnected(scene: "Scene#2"),
    .rootBuilt(container: .navigation, navigation: true, controllers: ["Editor#1"], scene: "Scene#2"),
    .pushed("Detail#1", scene: "Scene#2"),
    .sceneActivationChanged(scene: "Scene#2", from: .unattached, to: .foregroundActive),
    callback(.viewDidAppear, "Detail#1"),
    callback(.sceneDidDisconnect, "Scene#2"),
    .sceneDisconnected(scene: "Scene#2"),
    .sceneSessionChanged(created: false),
    callback(.sceneWillResignActive, "Scene#1"),
    .sceneActivationChanged(scene: "Scene#1", from: .foregroundActive, to: .foregroundInactive),
    .applicationStateChanged(from: .active, to: .inactive),
    posted("willResignActive"),
    callback(.viewWillDisappear, "List#1"),
    .sceneActivationChanged(scene: "Scene#1", from: .foregroundInactive, to: .background),
    .applicationStateChanged(from: .inactive, to: .background),
    posted("didEnterBackground"),
  ]

  /// The first rule broken by `bodies`, checked after every event as explore checks after every verb.
  private static func broken(_ bodies: [EventBody]) -> Rule? {
    var rules = InvariantsOfScenes()
    var state = LifecycleState()
    for (i, body) in bodies.enumerated() {
      let event = Event(t: Int64(i) * 1_000, body)
      state.evolve(event)
      rules.record(event)
      // Mid-transition the application state may lag its scene: explore checks between verbs.
      if case .applicationStateChanged = body, let rule = rules.check(after: state) { return rule }
    }
    return rules.check(after: state)
  }

  @Test func aRunOfTwoScenesKeepsEveryRule() {
    #expect(Self.broken(Self.twoScenes) == nil)
  }

  @Test func theApplicationStateMustBeTheMostActiveScenes() {
    // Scene#1 went to the background; the application stays inactive.
    let lagging = Array(Self.twoScenes.prefix(22)) + [.applicationStateChanged(from: .inactive, to: .inactive)]
    #expect(Self.broken(lagging) == .applicationStateIsTheMostActiveScenes)
    // Scene#1 is active; the application says inactive.
    let ahead = Array(Self.twoScenes.prefix(5)) + [.applicationStateChanged(from: .background, to: .inactive)]
    #expect(Self.broken(ahead) == .applicationStateIsTheMostActiveScenes)
  }

  @Test func noCallbackReachesADisconnectedScene() {
    #expect(Self.broken(Self.twoScenes + [Self.callback(.sceneDidBecomeActive, "Scene#2")]) == .noCallbackReachesADisconnectedScene)
    // The simulator's form: the scene delegate, with the scene the call is for.
    let forScene2 = EventBody.callbackDelivered(.sceneDidBecomeActive, target: "SceneDelegate", handled: false, depth: 0,
                                                arguments: CallbackArguments(scene: "Scene#2"))
    #expect(Self.broken(Self.twoScenes + [forScene2]) == .noCallbackReachesADisconnectedScene)
    // A controller of the closed window, pushed there by name.
    #expect(Self.broken(Self.twoScenes + [Self.callback(.viewDidDisappear, "Detail#1")]) == .noCallbackReachesADisconnectedScene)
    #expect(Self.broken(Self.twoScenes + [Self.callback(.viewDidDisappear, "Editor#1")]) == .noCallbackReachesADisconnectedScene)
    // Scene#1's controllers stay reachable.
    #expect(Self.broken(Self.twoScenes + [Self.callback(.viewDidDisappear, "List#1")]) == nil)
  }

  @Test func everyDiscardedSessionWasConnectedOnce() {
    #expect(Self.broken(Self.twoScenes + [.sceneSessionChanged(created: false)]) == nil)
    #expect(Self.broken(Self.twoScenes + [.sceneSessionChanged(created: false), .sceneSessionChanged(created: false)])
      == .everyDiscardedSessionWasConnected)
  }

  @Test func theAggregateNotificationsAreNeverPostedTwiceInARow() {
    let again = Self.twoScenes + [Self.posted("didEnterBackground")]
    #expect(Self.broken(again) == .noAggregateNotificationTwiceInARow)
    // Scene notifications and other application notifications do not count.
    let other = Self.twoScenes + [.notificationPosted(name: "UIScene.didEnterBackgroundNotification", handled: false, depth: 0),
                                  Self.posted("significantTimeChange")]
    #expect(Self.broken(other) == nil)
    // A suspended app woken in the background hears didEnterBackground again; only that one.
    #expect(Self.broken(Self.twoScenes + [.suspended, .resumed, Self.posted("didEnterBackground")]) == nil)
    #expect(Self.broken(Self.twoScenes + [.suspended, .resumed, Self.posted("didEnterBackground"), Self.posted("didEnterBackground")])
      == .noAggregateNotificationTwiceInARow)
    // A new process starts its own sequence.
    let relaunched = Self.twoScenes + [.terminated(Termination(reason: .user, code: nil, description: "force quit")),
                                       .processStarted(mode: .background, state: .background), Self.posted("didEnterBackground")]
    #expect(Self.broken(relaunched) == nil)
  }
}
