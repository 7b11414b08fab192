import EventStore
import JSON
import Testing
@testable import Lifecycle

/// The scene child state, step by step: each event is folded and the whole state compared with
/// the one expected after it, so a change to any field an event should not touch fails.
@Suite struct SceneStateTests {
  /// Folds `events` one at a time; after each, `expected` is changed as its closure says and
  /// must equal the folded state whole.
  private struct Steps {
    var state = LifecycleState()
    var expected = LifecycleState()

    mutating func fold(_ body: EventBody, at t: Int64, sourceLocation: SourceLocation = #_sourceLocation,
                       _ change: (inout LifecycleState) -> Void) {
      state.evolve(Event(t: t, body))
      expected.now = t
      change(&expected)
      #expect(state == expected, "after \(body)", sourceLocation: sourceLocation)
    }
  }

  private func controller(_ id: Int, _ label: String) -> Controller {
    Controller(id: id, className: InstanceLabel.className(label), label: label)
  }

  private func stack(_ ids: [Int], navigation: Bool = true) -> ViewControllerTree {
    ViewControllerTree(container: .navigation, tabs: [ids], navigation: navigation)
  }

  /// A process with `Scene#1` connected and its root `List#1` built (the events a scene launch folds).
  private func oneScene() -> Steps {
    var s = Steps()
    s.fold(.processStarted(mode: .foreground, state: .inactive), at: 1) {
      $0.process = .running; $0.applicationState = .inactive; $0.generation = 1
      $0.foregroundTracker.follow(.processStarted(mode: .foreground, state: .inactive))  // a user's launch is in the foreground
    }
    s.fold(.sceneSessionChanged(created: true), at: 2) { $0.sessions = [SceneSession(number: 1)] }
    s.fold(.sceneConnected(scene: "Scene#1"), at: 3) {
      $0.scenes = [SceneState(label: "Scene#1")]; $0.scenesConnected = 1; $0.sessions[0].scene = "Scene#1"
    }
    s.fold(.rootBuilt(container: .navigation, navigation: true, controllers: ["List#1"]), at: 4) {
      $0.scenes[0].window = stack([1])
      $0.controllers = [1: controller(1, "List#1")]; $0.controllerIDs = ["List#1": 1]
      $0.instancesPerClass = ["List": 1]; $0.controllersCreated = 1
    }
    s.fold(.sceneActivationChanged(scene: "Scene#1", from: .unattached, to: .foregroundActive), at: 5) {
      $0.scenes[0].activation = .foregroundActive
    }
    return s
  }

  @Test func oneSceneEventsWithoutANameChangeTheOnlyScenesWindow() {
    var s = oneScene()
    #expect(s.state.frontScene?.label == "Scene#1" && s.state.sceneNamedInEvents == nil)
    s.fold(.pushed("Detail#1"), at: 6) {
      $0.scenes[0].window = stack([1, 2])
      $0.controllers[2] = controller(2, "Detail#1"); $0.controllerIDs["Detail#1"] = 2
      $0.instancesPerClass["Detail"] = 1; $0.controllersCreated = 2
    }
    s.fold(.presented("Sheet#1", style: .pageSheet, navigation: false), at: 7) {
      $0.scenes[0].window?.presented = [Presentation(stack: [3], style: .pageSheet, navigation: false)]
      $0.controllers[3] = controller(3, "Sheet#1"); $0.controllerIDs["Sheet#1"] = 3
      $0.instancesPerClass["Sheet"] = 1; $0.controllersCreated = 3
    }
    s.fold(.dismissed("Sheet#1"), at: 8) {
      $0.scenes[0].window?.presented = []
      $0.controllers[3] = nil; $0.controllerIDs["Sheet#1"] = nil
    }
    s.fold(.popped("Detail#1"), at: 9) {
      $0.scenes[0].window = stack([1])
      $0.controllers[2] = nil; $0.controllerIDs["Detail#1"] = nil
    }
    s.fold(.sceneDisconnected(scene: "Scene#1"), at: 10) {
      $0.scenes = []; $0.controllers = [:]; $0.controllerIDs = [:]; $0.sessions[0].scene = nil; $0.lastDetachedSession = 1
    }
    s.fold(.sceneConnected(scene: "Scene#2"), at: 11) {
      $0.scenes = [SceneState(label: "Scene#2")]; $0.scenesConnected = 2; $0.sessions[0].scene = "Scene#2"  // window 1 reconnected
    }
    // Scene#2 connected after Scene#1 left: one at a time is still one scene.
    #expect(!s.state.severalScenesSeen && s.state.sceneNamedInEvents == nil)
  }

  @Test func twoScenesKeepTheirOwnWindowsAndTheirEventsNameThem() {
    var s = oneScene()
    s.fold(.sceneSessionChanged(created: true), at: 6) { $0.sessions.append(SceneSession(number: 2)) }
    s.fold(.sceneConnected(scene: "Scene#2"), at: 7) {
      $0.scenes.append(SceneState(label: "Scene#2")); $0.scenesConnected = 2; $0.severalScenesSeen = true
      $0.sessions[1].scene = "Scene#2"
    }
    #expect(s.state.sceneNamedInEvents == "Scene#2" && s.state.frontScene?.label == "Scene#2")
    s.fold(.rootBuilt(container: .tabs, navigation: false, controllers: ["Inbox#1", "Settings#1"], scene: "Scene#2"), at: 8) {
      $0.scenes[1].window = ViewControllerTree(container: .tabs, tabs: [[2], [3]], navigation: false)
      $0.controllers[2] = controller(2, "Inbox#1"); $0.controllers[3] = controller(3, "Settings#1")
      $0.controllerIDs["Inbox#1"] = 2; $0.controllerIDs["Settings#1"] = 3
      $0.instancesPerClass["Inbox"] = 1; $0.instancesPerClass["Settings"] = 1; $0.controllersCreated = 3
    }
    s.fold(.pushed("Detail#1", scene: "Scene#1"), at: 9) {
      $0.scenes[0].window = stack([1, 4])
      $0.controllers[4] = controller(4, "Detail#1"); $0.controllerIDs["Detail#1"] = 4
      $0.instancesPerClass["Detail"] = 1; $0.controllersCreated = 4
    }
    s.fold(.tabSelected(index: 2, controller: "Settings#1", scene: "Scene#2"), at: 10) { $0.scenes[1].window?.selectedTab = 1 }
    s.fold(.sceneActivationChanged(scene: "Scene#1", from: .foregroundActive, to: .background), at: 11) {
      $0.scenes[0].activation = .background
    }
    s.fold(.presented("Sheet#1", style: .formSheet, navigation: true, scene: "Scene#2"), at: 12) {
      $0.scenes[1].window?.presented = [Presentation(stack: [5], style: .formSheet, navigation: true)]
      $0.controllers[5] = controller(5, "Sheet#1"); $0.controllerIDs["Sheet#1"] = 5
      $0.instancesPerClass["Sheet"] = 1; $0.controllersCreated = 5
    }
    #expect(s.state.topController == 5 && s.state.visibleControllers == [3, 5])
    #expect(s.state.windowControllers == [1, 4, 2, 3, 5])
    s.fold(.sceneDisconnected(scene: "Scene#1"), at: 13) {
      $0.scenes.removeFirst()
      $0.controllers[1] = nil; $0.controllers[4] = nil; $0.controllerIDs["List#1"] = nil; $0.controllerIDs["Detail#1"] = nil
      $0.sessions[0].scene = nil; $0.lastDetachedSession = 1
    }
    s.fold(.dismissed("Sheet#1", scene: "Scene#2"), at: 14) {
      $0.scenes[0].window?.presented = []
      $0.controllers[5] = nil; $0.controllerIDs["Sheet#1"] = nil
    }
    // Once several scenes were seen, events name their scene for the rest of the run.
    #expect(s.state.scenes.count == 1 && s.state.sceneNamedInEvents == "Scene#2")
    s.fold(.terminated(Termination(reason: .jetsam, code: nil, description: "reclaimed")), at: 15) {
      $0.scenes = []; $0.controllers = [:]; $0.controllerIDs = [:]; $0.process = .notRunning
      $0.applicationState = .background; $0.sessions[1].scene = nil
      $0.terminations = [Termination(reason: .jetsam, code: nil, description: "reclaimed")]
      $0.terminationsInForeground = [true]  // killed while still in the foreground (MetricKit's split)
      $0.foregroundTracker.follow(.terminated(Termination(reason: .jetsam, code: nil, description: "reclaimed")))
    }
    #expect(s.state.sessions.map(\.number) == [1, 2] && s.state.sessionToReconnect?.number == 2 && s.state.severalScenesSeen)
  }

  /// A run of a scene app that relaunches (so `Scene#2` connects, alone) names no scene in its
  /// view-controller events: its log keeps the bytes it had before scenes were a collection.
  @Test func aOneSceneRunNamesNoSceneInItsViewControllerEvents() throws {
    var recorded: [Event] = []
    let sim = Simulator(profile: Profile(ios: 17, scenes: true), driver: ScriptedApp()) { recorded.append($0) }
    for input: Input in [.launch(url: nil), .appSwitcher, .forceQuit, .launch(url: nil), .home, .disconnectScene(2), .launch(url: nil)] {
      try sim.perform(input, at: "s.lua:1")
    }
    let connected = recorded.compactMap { e -> String? in if case let .sceneConnected(label, _) = e.body { return label }; return nil }
    #expect(connected == ["Scene#1", "Scene#2", "Scene#3"])
    #expect(recorded.contains { if case .rootBuilt = $0.body { return true }; return false })
    #expect(recorded.allSatisfy { $0.body.viewControllerScene == nil })
    #expect(!sim.state.severalScenesSeen && sim.state.scenes.map(\.label) == ["Scene#3"])
  }

  @Test func anEventNamingAnUnknownSceneChangesNoWindow() {
    var s = oneScene()
    s.fold(.sceneActivationChanged(scene: "Scene#9", from: .background, to: .foregroundActive), at: 6) { _ in }
    s.fold(.tabSelected(index: 1, controller: "List#1", scene: "Scene#9"), at: 7) { _ in }
    s.fold(.pushed("Detail#1", scene: "Scene#9"), at: 8) {
      // The instance exists (it was made) but sits in no window.
      $0.controllers[2] = controller(2, "Detail#1"); $0.controllerIDs["Detail#1"] = 2
      $0.instancesPerClass["Detail"] = 1; $0.controllersCreated = 2
    }
  }

  @Test func aScenelessAppsEventsChangeTheApplicationWindow() {
    var s = Steps()
    s.fold(.rootBuilt(container: .none, navigation: false, controllers: ["Main#1"]), at: 1) {
      $0.applicationWindow = stack([1], navigation: false); $0.applicationWindow?.container = .none
      $0.controllers = [1: controller(1, "Main#1")]; $0.controllerIDs = ["Main#1": 1]
      $0.instancesPerClass = ["Main": 1]; $0.controllersCreated = 1
    }
    #expect(s.state.frontWindow == s.state.applicationWindow && s.state.scenes.isEmpty && s.state.topController == 1)
  }

  /// Two windows opened one after the other, both connected: sessions 1 and 2 (no process events).
  private func twoWindows() -> Steps {
    var s = Steps()
    s.fold(.sceneSessionChanged(created: true), at: 1) { $0.sessions = [SceneSession(number: 1)] }
    s.fold(.sceneConnected(scene: "Scene#1"), at: 2) {
      $0.scenes = [SceneState(label: "Scene#1")]; $0.scenesConnected = 1; $0.sessions[0].scene = "Scene#1"
    }
    s.fold(.sceneSessionChanged(created: true), at: 3) { $0.sessions.append(SceneSession(number: 2)) }
    s.fold(.sceneConnected(scene: "Scene#2"), at: 4) {
      $0.scenes.append(SceneState(label: "Scene#2")); $0.scenesConnected = 2; $0.severalScenesSeen = true
      $0.sessions[1].scene = "Scene#2"
    }
    return s
  }

  @Test func sessionsAreKeptByNumberAndADiscardOwesTheReport() {
    var s = twoWindows()
    // A discard that names its session ends that one, wherever it is.
    s.fold(.sceneSessionChanged(created: false, session: 1), at: 5) {
      $0.sessions = [SceneSession(number: 2, scene: "Scene#2")]; $0.sessionDiscardPending = true
    }
    // One without a number (a one-scene log) ends the session of the scene released last, else the first.
    s.fold(.sceneSessionChanged(created: false), at: 6) { $0.sessions = [] }
    s.fold(.sceneSessionChanged(created: false), at: 7) { _ in }
  }

  /// A discard without a number (an iPad log written before windows were named) ends the session
  /// of the scene released last, not the first one kept.
  @Test func anUnnamedDiscardEndsTheSessionOfTheSceneReleasedLast() {
    var s = twoWindows()
    s.fold(.sceneDisconnected(scene: "Scene#2"), at: 5) {
      $0.scenes.removeLast(); $0.sessions[1].scene = nil; $0.lastDetachedSession = 2
    }
    s.fold(.sceneSessionChanged(created: false), at: 6) {
      $0.sessions = [SceneSession(number: 1, scene: "Scene#1")]; $0.sessionDiscardPending = true
    }
    // A discard naming a window no longer kept ends none.
    s.fold(.sceneSessionChanged(created: false, session: 7), at: 7) { _ in }
  }

  /// A damaged log that makes more sessions than an app keeps grows the state no further.
  @Test func theFoldKeepsAtMostTheSessionsAnAppKeeps() {
    var state = LifecycleState()
    for n in 1...(LifecycleState.sessionsMax + 3) {
      state.evolve(Event(t: 0, .sceneSessionChanged(created: true)))
      state.evolve(Event(t: 0, .sceneConnected(scene: SceneState.label(number: n))))
    }
    #expect(state.sessions.count == LifecycleState.sessionsMax && state.sessions.last?.number == LifecycleState.sessionsMax)
  }

  @Test func aReleasedWindowReconnectsByTheOrderItWasLastFrontmost() {
    let activityA = JSONValue.object([("activityType", .string("a"))]), activityB = JSONValue.object([("activityType", .string("b"))])
    var s = twoWindows()
    s.fold(.restorationChanged(.activitySaved(activityA, session: 1)), at: 5) {
      $0.sessions[0].restorationActivity = activityA
    }
    // Unnamed: the front scene's session.
    s.fold(.restorationChanged(.activitySaved(activityB)), at: 6) { $0.sessions[1].restorationActivity = activityB }
    s.fold(.inputPerformed(.focus(1), at: nil), at: 7) {
      $0.scenes = [SceneState(label: "Scene#2"), SceneState(label: "Scene#1")]
      $0.sessions = [SceneSession(number: 2, scene: "Scene#2", restorationActivity: activityB),
                     SceneSession(number: 1, scene: "Scene#1", restorationActivity: activityA)]
    }
    #expect(s.state.restorationActivity == activityA)
    s.fold(.terminated(Termination(reason: .jetsam, code: nil, description: "reclaimed")), at: 8) {
      $0.scenes = []; $0.process = .notRunning; $0.sessions[0].scene = nil; $0.sessions[1].scene = nil
      $0.terminations = [Termination(reason: .jetsam, code: nil, description: "reclaimed")]
      $0.terminationsInForeground = [false]
    }
    #expect(s.state.sessionToReconnect?.number == 1)
    s.fold(.inputPerformed(.focus(2), at: nil), at: 9) { $0.sessions.reverse() }
    s.fold(.sceneConnected(scene: "Scene#3"), at: 10) {
      $0.scenes = [SceneState(label: "Scene#3")]; $0.scenesConnected = 3; $0.sessions[1].scene = "Scene#3"
    }
    #expect(s.state.session(ofScene: "Scene#3")?.restorationActivity == activityB)
  }

  /// A view-controller event writes `scene` last, and only when it names one; both read back.
  @Test func aViewControllerEventsSceneIsWrittenOnlyWhenNamedAndReadBack() throws {
    func line(_ body: EventBody) -> String {
      var w = CanonicalJSONWriter(capacity: 128)
      Event(t: 3, body).canonicalBody(seq: 1, into: &w)
      return w.text
    }
    #expect(line(.pushed("Detail#1")) == #"{"seq":1,"t":3,"kind":"transition","name":"push","target":"Detail#1"}"#)
    #expect(line(.pushed("Detail#1", scene: "Scene#2"))
              == #"{"seq":1,"t":3,"kind":"transition","name":"push","target":"Detail#1","scene":"Scene#2"}"#)
    #expect(line(.tabSelected(index: 2, controller: "B#1", scene: "Scene#3"))
              == #"{"seq":1,"t":3,"kind":"transition","name":"selectTab","target":"B#1","index":2,"scene":"Scene#3"}"#)
    let bodies: [EventBody] = [
      .rootBuilt(container: .tabs, navigation: true, controllers: ["A#1", "B#1"], scene: "Scene#2"),
      .pushed("C#1", scene: "Scene#2"), .popped("C#1", scene: "Scene#1"),
      .presented("S#1", style: .formSheet, navigation: true, scene: "Scene#2"), .dismissed("S#1", scene: "Scene#2"),
      .tabSelected(index: 1, controller: "A#1", scene: "Scene#2"),
      .rootBuilt(container: .none, navigation: false, controllers: ["A#1"]), .pushed("C#1"), .popped("C#1"),
      .presented("S#1", style: .pageSheet, navigation: false), .dismissed("S#1"), .tabSelected(index: 1, controller: "A#1"),
    ]
    for (i, body) in bodies.enumerated() {
      #expect(try Event(Event(t: 5, body).logEvent(seq: Int64(i + 1))) == Event(t: 5, body))
    }
  }
}
