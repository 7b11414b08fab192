import TestSupport
@testable import Lifecycle

/// The rules of docs/model.md §14 the invariant suite checks on every random run, event by
/// event, from the events alone (its own bookkeeping, not the model's fold):
/// nothing reaches a scene after its `sceneDidDisconnect`; `didEnterBackgroundNotification`
/// only when no scene is foreground; never suspended while holding a shared lock; the time
/// change's notification comes right before its delegate call; and no protected data is read
/// before the first unlock (nor `complete` data while it is unavailable).
struct SystemEndingsRules {
  /// Scenes that got `sceneDidDisconnect`.
  private var disconnected: Set<String> = []
  /// Shared file locks the process holds (by name).
  private var sharedLocks: Set<String> = []
  private var firstUnlockPending = false
  private var protectedDataAvailable = true
  private var protection: [String: DataProtection] = [:]
  /// The previous callback or notification, as `Harness` writes it.
  private var previous: String?

  /// The key the random app stores and reads back, and the prefix of its read's `log`.
  static let key = "secret"
  static let readPrefix = "read secret="

  /// Gives the random app a lock policy and a protected key it stores and reads back, from `rng`.
  static func equip(_ app: ScriptedApp, _ rng: inout SplitMix64) {
    let lockMode = rng.below(4), protection = DataProtection.allCases[rng.below(3)]
    let enterBackground = [app.handlers["applicationDidEnterBackground"], app.handlers["sceneDidEnterBackground"]]
    for (key, previous) in zip(["applicationDidEnterBackground", "sceneDidEnterBackground"], enterBackground) {
      app.handlers[key] = { sim in
        if lockMode > 0 { try sim.call(.holdLock(name: "db", shared: lockMode != 2)) }
        try previous?(sim)
        if lockMode == 3 { try sim.call(.releaseLock("db")) }
      }
    }
    let read: ScriptedApp.Handler = { sim in
      try sim.call(.log(readPrefix + (sim.state.readableStoredValue(key)?.canonicalText ?? "nil")))
    }
    app.handlers["willFinishLaunchingWithOptions"] = { sim in
      try read(sim)
      try sim.call(.store(key: key, value: .string("s"), protection: protection))
    }
    for handler in ["applicationSignificantTimeChange", "applicationProtectedDataDidBecomeAvailable"] { app.handlers[handler] = read }
    app.handlers["didReceiveRemoteNotification"] = { sim in
      try read(sim)
      if let c = sim.state.completions.last { try sim.call(.complete(c.id)) }
    }
  }

  /// The first rule `e` breaks, given the state before it.
  mutating func check(_ e: Event, before s: LifecycleState) -> String? {
    switch e.body {
    case let .inputPerformed(input, _):
      if input == .reboot { firstUnlockPending = true }
      if input == .unlock { firstUnlockPending = false }
    case let .protectedDataChanged(available): protectedDataAvailable = available
    case .processStarted, .terminated, .crashed: sharedLocks = []
    case let .appCalled(call, _):
      switch call {
      case let .holdLock(name, shared): if shared { sharedLocks.insert(name) } else { sharedLocks.remove(name) }
      case let .releaseLock(name): sharedLocks.remove(name)
      case let .store(key, _, p): protection[key] = p
      case let .log(message) where message.hasPrefix(Self.readPrefix) && !message.hasSuffix("=nil"):
        let p = protection[Self.key] ?? .untilFirstUnlock
        if p != .none, firstUnlockPending { return "\(Self.key) (\(p.rawValue)) read before the first unlock" }
        if p == .complete, !protectedDataAvailable { return "\(Self.key) (complete) read while protected data is unavailable" }
      default: break
      }
    case .suspended:
      if let lock = sharedLocks.sorted().first { return "suspended while holding the shared lock \(lock)" }
    case let .callbackDelivered(cb, _, _, _, arguments):
      defer { previous = cb.key }
      if cb.receiver == .sceneDelegate {
        // The scene the call is for: named once the app has had several, else the only one.
        guard let scene = arguments.scene ?? s.frontScene?.label else { return "\(cb.key) with no scene connected" }
        if disconnected.contains(scene) { return "\(cb.key) to \(scene) after its sceneDidDisconnect" }
        if cb == .sceneDidDisconnect { disconnected.insert(scene) }
      }
      if cb == .applicationSignificantTimeChange, previous != "UIApplication.significantTimeChangeNotification" {
        return "applicationSignificantTimeChange not right after its notification"
      }
    case let .notificationPosted(name, _, _):
      defer { previous = name }
      if name.hasPrefix("UIScene."), name != "UIScene.didDisconnectNotification",
         s.frontScene.map({ disconnected.contains($0.label) }) ?? true {
        return "\(name) with no connected scene"
      }
      if name == "UIApplication.didEnterBackgroundNotification",
         let scene = s.frontScene, scene.activation == .foregroundActive || scene.activation == .foregroundInactive {
        return "didEnterBackgroundNotification while the scene is \(scene.activation.rawValue)"
      }
    default:
      break
    }
    return nil
  }
}

extension Simulator {
  /// An app call the random app makes; a refused one is ignored, a dead process unwinds.
  fileprivate func call(_ request: AppRequest) throws(ProcessEnded) {
    do { try handle(request) } catch let error {
      if error == .processEnded { throw ProcessEnded() }
    }
  }
}
