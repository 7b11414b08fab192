import JSON

/// What the app's code asked of UIKit (an app call), as recorded.
public enum AppCall: Equatable, Sendable {
  case work(us: Int64)
  case beginBackgroundTask(name: String, task: Int)
  case endBackgroundTask(task: Int)
  /// `value == nil` removes the key; `protection` is the data-protection class it is kept under.
  case store(key: String, value: JSONValue?, protection: DataProtection = .untilFirstUnlock)
  case log(String)
  case observe(String)
  case after(us: Int64, id: Int)
  case completion(id: Int)
  case push(String)
  case pop
  case present(String, style: PresentationStyle, navigation: Bool)
  case dismiss
  /// `scene:extendStateRestoration()` / `scene:completeStateRestoration()`: recorded, no effect.
  case extendStateRestoration, completeStateRestoration
  /// `hold_lock(name, {shared=})`: the app holds a file lock (`shared`: in a shared app-group container).
  case holdLock(name: String, shared: Bool)
  /// `release_lock(name)`.
  case releaseLock(name: String)
  /// `UNUserNotificationCenter:setDelegate()`: the app's `NotificationDelegate` receives notifications.
  case setNotificationDelegate
  /// A `continueUserActivity` restoration handler called with these controllers.
  case restorationHandler(controllers: [String])
  case registerBGTask(identifier: String, result: BGTaskRegisterResult)
  case submitBGTask(BGTaskRequest, result: BGTaskSubmitResult)
  case setTaskCompleted(identifier: String, success: Bool)
  /// `task:updateProgress(done, total)` of a continued task.
  case updateProgress(identifier: String, done: Int64, total: Int64)
  case backgroundTransfer(session: String, task: Int, us: Int64)
  /// `UIApplication.shared:requestSceneSessionActivation{session=, activity=}`: the session of
  /// `Scene#session` comes frontmost, or (nil) a new window opens.
  case requestSceneActivation(session: Int?, activity: String?)
  /// `UIApplication.shared:requestSceneSessionDestruction(n)`: the window of `Scene#n` closes.
  case requestSceneDestruction(session: Int)
  /// `choose(site)`: a condition the app's code cannot decide here, and its outcome: forced by
  /// the run (`--choose`) or drawn from its seed.
  case choose(site: String, value: Bool, forced: Bool)
  /// A read of the app delegate's `window`: whether UIKit had set it (only without scenes), and
  /// the app's code that read it (a `file:line` of the Swift, in a scan's mirror).
  case delegateWindow(present: Bool, site: String?)
  /// A window the app made from a frame (`UIWindow(frame:)`) and made key and visible: whether
  /// it is shown (only without scenes: with scenes it belongs to no scene), and the app's code
  /// that made it.
  case frameWindow(shown: Bool, site: String?)

  public var name: String {
    switch self {
    case .work: return "work"
    case .beginBackgroundTask: return "beginBackgroundTask"
    case .endBackgroundTask: return "endBackgroundTask"
    case .store: return "store"
    case .log: return "log"
    case .observe: return "observe"
    case .after: return "after"
    case .completion: return "completion"
    case .push: return "push"
    case .pop: return "pop"
    case .present: return "present"
    case .dismiss: return "dismiss"
    case .extendStateRestoration: return "extendStateRestoration"
    case .completeStateRestoration: return "completeStateRestoration"
    case .holdLock: return "hold_lock"
    case .releaseLock: return "release_lock"
    case .setNotificationDelegate: return "UNUserNotificationCenter.setDelegate"
    case .restorationHandler: return "restorationHandler"
    case .registerBGTask: return "BGTaskScheduler.register"
    case .submitBGTask: return "BGTaskScheduler.submit"
    case .setTaskCompleted: return "setTaskCompleted"
    case .updateProgress: return "updateProgress"
    case .backgroundTransfer: return "background_transfer"
    case .requestSceneActivation: return "UIApplication.requestSceneSessionActivation"
    case .requestSceneDestruction: return "UIApplication.requestSceneSessionDestruction"
    case .choose: return "choose"
    case .delegateWindow: return "delegateWindow"
    case .frameWindow: return "frameWindow"
    }
  }
}

/// How the process was started.
public enum LaunchMode: String, Sendable { case foreground, background, prewarm }

/// A kill or an exit, with a crash-report style description in virtual time.
public struct Termination: Equatable, Sendable {
  public var reason: TerminationReason
  /// The termination code (`0x8badf00d`), when the system uses one.
  public var code: String?
  public var description: String

  public init(reason: TerminationReason, code: String?, description: String) {
    self.reason = reason; self.code = code; self.description = description
  }

  /// A crash in app code, described by its error (how the fold records a `crash` event).
  public static func crash(_ message: String) -> Termination {
    Termination(reason: .crash, code: nil, description: message)
  }

  /// The jetsam description prefix of a kill for going over the app's own memory limit
  /// (iOS's JetsamEvent reason), as opposed to the system reclaiming a suspended app.
  public static let memoryLimitJetsamPrefix = "per-process-limit"

  /// A termination the app caused: a crash, a watchdog kill, an expired background
  /// assertion, or going over its memory limit. The system reclaiming a suspended app and
  /// the user's force quit are not faults. A run whose fault no `expect_terminated` names fails.
  public var isFault: Bool {
    switch reason {
    case .crash, .watchdog, .backgroundTaskExpired, .suspendedWithLockedFile: return true
    case .jetsam: return description.hasPrefix(Self.memoryLimitJetsamPrefix)
    case .user, .reboot: return false
    }
  }
}

/// One fact of a run. `evolve` folds these into `LifecycleState`; the log stores them.
public enum EventBody: Equatable, Sendable {
  case inputPerformed(Input, at: String?)
  // transitions
  case applicationStateChanged(from: ApplicationState, to: ApplicationState)
  case sceneActivationChanged(scene: String, from: SceneActivation, to: SceneActivation)
  /// A scene connected to a session: a new one (made just before), or a kept one. It names the
  /// window it reconnects once the app has had several scenes (nil: the session
  /// `sessionToReconnect` names, the only one in a one-scene log).
  case sceneConnected(scene: String, session: Int? = nil)
  case sceneDisconnected(scene: String)
  /// A scene session was created (for the scene about to connect) or discarded. A discard names
  /// its session once the app has had several scenes (nil: the session of the scene released
  /// last, else the only one).
  case sceneSessionChanged(created: Bool, session: Int? = nil)
  // A view-controller event's `scene` is the scene whose window changed; nil names the app's
  // only window (`LifecycleState.sceneNamedInEvents`), so a one-scene log never names a scene.
  case rootBuilt(container: Container, navigation: Bool, controllers: [String], scene: String? = nil)
  case pushed(String, scene: String? = nil)
  case popped(String, scene: String? = nil)
  case presented(String, style: PresentationStyle, navigation: Bool, scene: String? = nil)
  case dismissed(String, scene: String? = nil)
  case tabSelected(index: Int, controller: String, scene: String? = nil)
  case protectedDataChanged(available: Bool)
  /// What survives for state restoration changed (docs/model.md §17).
  case restorationChanged(RestorationChange)
  // system decisions
  case processStarted(mode: LaunchMode, state: ApplicationState)
  case launchContinued(state: ApplicationState)
  case suspended
  case resumed
  case terminated(Termination)
  // the app
  /// `arguments`: what UIKit passes besides the receiver (a URL, a completion, `animated`, options…).
  case callbackDelivered(Callback, target: String, handled: Bool, depth: Int, arguments: CallbackArguments)
  /// `value`: what the handler returned, for a callback whose return UIKit reads (`Callback.returnsValue`).
  case returned(name: String, target: String, usedUs: Int64, depth: Int, value: JSONValue?)
  case appCalled(AppCall, at: String?)
  case notificationPosted(name: String, handled: Bool, depth: Int)
  case crashed(name: String, target: String, message: String, traceback: String)
  // the scenario
  case expectationChecked(name: String, passed: Bool, message: String, at: String?)
  /// `code`: a diagnostic's stable code (`handler_never_called`…), nil for a plain note.
  case noted(name: String, message: String, code: String? = nil)
}

extension EventBody {
  /// The scene a view-controller event names (nil: the app's only window, or not such an event).
  public var viewControllerScene: String? {
    switch self {
    case let .rootBuilt(_, _, _, scene), let .pushed(_, scene), let .popped(_, scene), let .presented(_, _, _, scene),
         let .dismissed(_, scene), let .tabSelected(_, _, scene):
      return scene
    default: return nil
    }
  }

  /// The termination this event records: a system kill, or a crash in app code; nil for any other event.
  public var termination: Termination? {
    if case let .terminated(t) = self { return t }
    if case let .crashed(_, _, message, _) = self { return .crash(message) }
    return nil
  }
}

/// An event with its virtual time (µs).
public struct Event: Equatable, Sendable {
  public var t: Int64
  public var body: EventBody

  public init(t: Int64, _ body: EventBody) { self.t = t; self.body = body }

  /// The deepest nesting a log's `depth` may record: app code nests callbacks through Lua, whose C
  /// stack allows 200 nested calls, so no run comes near it. A deeper one is damage (it indented
  /// the trace by Int64.max spaces).
  public static let depthMax: Int64 = 1_000
}
