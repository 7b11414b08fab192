import JSON
import Lifecycle
import ScriptHost

/// Why a run failed, as a finding names it: the termination reason (or `invariant`,
/// `script_error`) and the callback or invariant where it happened. Two failures with the
/// same signature are one finding.
public struct FailureSignature: Hashable, Comparable, Sendable {
  /// `crash`, `watchdog`, `background_task_expired`, `jetsam`, `invariant` or `script_error`.
  public var reason: String
  /// `SceneDelegate.sceneDidEnterBackground(_:)`, `during advance`, or the invariant's name.
  public var place: String

  public init(reason: String, place: String) { self.reason = reason; self.place = place }

  /// `watchdog in SceneDelegate.sceneDidEnterBackground(_:)`, `jetsam during advance`.
  public var text: String {
    if reason == "invariant" { return "invariant \"\(place)\" violated" }
    return place.hasPrefix("during ") ? "\(reason) \(place)" : "\(reason) in \(place)"
  }

  public static func < (a: Self, b: Self) -> Bool { (a.reason, a.place) < (b.reason, b.place) }
}

/// What one run did: the verbs performed (verbs a shrunk sequence made illegal are left out),
/// how it failed, and what it covered.
struct RunRecord {
  var inputs: [Input] = []
  /// The `choose` outcomes the run steered (`SITE@N` keys): part of what it did, as its verbs are.
  var choices: [String: Bool] = [:]
  var failure: FailureSignature?
  /// The failure in words (the crash message, the termination description).
  var failureDetail = ""
  var events: Int64 = 0
  var endClockUs: Int64 = 0
  /// The transitions of its verbs, in order, repeats kept (the lane keeps the set).
  var transitions: [Transition] = []
  /// The callbacks delivered, by class.
  var callbacks = CallbackCoverage()
}

/// Follows one run's events: counts them, keeps the stack of app code running (to name the
/// callback where a fault happened) and the callbacks delivered.
final class RunTracker {
  private(set) var events: Int64 = 0
  /// The handlers running, innermost last: named only when one fails (a name per callback cost
  /// more than following it).
  private var running: [RunningHandler] = []
  /// Where the first fault happened, when it happened inside app code.
  private(set) var faultPlace: String?
  private(set) var faultDetail = ""
  /// The built-in rules of scenes, followed over the run's events.
  var scenes = InvariantsOfScenes()
  /// The callbacks delivered.
  private(set) var delivered = CallbackCoverage()

  private struct RunningHandler {
    var className: String
    var callback: Callback
    var payload: JSONValue?

    /// `Class.callback()`; a user action by its action (`Editor.action(save)`), so two that fail are two findings.
    var name: String {
      if callback == .userAction, let action = UserAction.call(in: payload) { return "\(className).action(\(action.name))" }
      return "\(className).\(callback.signature)"
    }
  }

  func record(_ event: Event) {
    events += 1
    scenes.record(event)
    switch event.body {
    case let .callbackDelivered(cb, target, handled, _, arguments):
      let className = InstanceLabel.className(target)
      delivered.insert(className: className, callback: cb)
      guard handled else { break }
      running.append(RunningHandler(className: className, callback: cb, payload: cb == .userAction ? arguments.payload : nil))
    case .returned:
      _ = running.popLast()
    case let .crashed(name, target, message, _):
      if faultPlace == nil {
        let action = name == Callback.userAction.signature ? running.last?.name : nil
        faultPlace = action ?? "\(InstanceLabel.className(target)).\(name)"; faultDetail = message
      }
      running.removeAll()
    case let .terminated(t):
      if faultPlace == nil, t.isFault { faultPlace = running.last?.name ?? ""; faultDetail = t.description }
      running.removeAll()
    case .inputPerformed, .applicationStateChanged, .sceneActivationChanged, .sceneConnected, .sceneDisconnected, .sceneSessionChanged,
         .rootBuilt, .pushed, .popped, .presented, .dismissed, .tabSelected, .protectedDataChanged, .restorationChanged, .processStarted,
         .launchContinued, .suspended, .resumed, .appCalled, .notificationPosted, .expectationChecked, .noted:
      break
    }
  }
}
