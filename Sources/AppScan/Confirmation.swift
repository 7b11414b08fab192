import Lifecycle

/// What `--check`'s runs say of one static diagnostic: the run that shows it through the model,
/// or why none does. A diagnostic is never confirmed by the mirror asserting it: only a runtime
/// diagnostic of the same code, a crash or a failed expectation of a run confirms it.
package enum Confirmation: Sendable, Equatable {
  case confirmed(scenario: String, ios: Int, sdk: Int?, reproduce: String)
  case unconfirmed(why: String)

  /// The codes whose effect sits behind a `choose` the mirror writes, which a run shows by taking
  /// the other branch: a condition that skips a registration, work that outlasts the allowance.
  package static let shownWithConditionOff: Set<String> = [
    "registered_conditionally", Diagnostic.Code.taskOpenAfterExpiration.rawValue, "task_not_ended", "bgtask_not_completed",
    "bgtask_expiration_missing",
  ]

  /// How a run shows each code, for the runs that can; nil for a code no battery case shows.
  package static func evidence(for code: String) -> Evidence? { evidence[code] }

  /// Why no run shows a code that has no evidence.
  package static func whyNoRun(_ code: String) -> String {
    whyNoRun[code] ?? "no case of the battery shows \(code) yet"
  }

  private static let whyNoRun: [String: String] = [
    "scene_class_missing": "no run can show it: the model takes the scene delegate from the app's Lua, not from a class name, so a class the Info.plist names and the app lacks never reaches a run",
    "bgtask_id_not_registered": "no case of the battery shows it: nothing registers this identifier, and the battery runs only registered ones",
  ]

  /// What of a run shows a diagnostic.
  package enum Evidence: Sendable, Equatable {
    /// The run recorded the runtime diagnostic of the same code.
    case runtimeDiagnostic
    /// The run recorded the runtime diagnostic of this code (what the static one leads to), in a
    /// case that took the finding's own `choose` branch false where the mirror has one.
    case runtimeDiagnosticOf(String)
    /// The run recorded the system's note of this name, in a case that took the finding's own
    /// `choose` branch false (and no other).
    case noteOf(String)
    /// Any one of these.
    indirect case anyOf([Evidence])
    /// The mirror's read of the app delegate's window at the finding's place found it nil.
    case delegateWindowReadNil
    /// The window the mirror made from a frame at the finding's place was not shown.
    case frameWindowNotShown
    /// The system refused the registration at the finding's place as not permitted.
    case registrationRefused
    /// The run failed with a message holding this text (a crash's reason).
    case failureMessage(String)
    /// The case of this scenario failed (its expectation of the handler's call).
    case failedCase(String)
    /// A handler of these returned without calling its completion handler in the run.
    case completionNotCalled([String])
    /// A case failed with the condition that guards the finding's effect forced false (`choose`),
    /// where the same case with only that condition true passed: the run shows what skipping
    /// the effect does.
    case failedWithConditionOff

    /// Whether a variant of the battery (a case with choices forced) may show it: only evidence
    /// judged against the finding's own branch.
    var comesOfAChoice: Bool {
      switch self {
      case .failedWithConditionOff, .runtimeDiagnosticOf, .noteOf: return true
      case let .anyOf(all): return all.contains(where: \.comesOfAChoice)
      default: return false
      }
    }
  }

  private static let evidence: [String: Evidence] = [
    "handler_never_called": .runtimeDiagnostic,
    "task_open_after_expiration": .runtimeDiagnosticOf(Diagnostic.Code.taskOpenAfterExpiration.rawValue),
    // A task left open is ended by its expiration handler, or is still open after it: either
    // way the app is held in the background past the point it would be suspended.
    "task_not_ended": .anyOf([.runtimeDiagnosticOf(Diagnostic.Code.taskOpenAfterExpiration.rawValue), .failedWithConditionOff]),
    "scene_lifecycle_required": .runtimeDiagnostic,
    "notification_delegate_late": .runtimeDiagnostic,
    "bgtask_registered_late": .failureMessage("All launch handlers must be registered"),
    "registered_conditionally": .failedWithConditionOff,
    "bgtask_not_completed": .failedWithConditionOff,
    "app_window_nil": .delegateWindowReadNil,
    "bgtask_id_not_permitted": .registrationRefused,
    "window_without_scene": .frameWindowNotShown,
    // The work outlasts the task's time (its `in time` choice false): with no expiration handler
    // the system marks the task complete, unsuccessful, and notes it; with one that does nothing
    // the task is still incomplete after its grace, and the app is killed.
    "bgtask_expiration_missing": .anyOf([.noteOf("bgTaskExpiredUnhandled"), .failedWithConditionOff]),
    "legacy_fetch_disabled": .failedCase("background fetch"),
    "quick_action_completion_missing": .completionNotCalled([
      Callback.performActionForShortcutItem.signature, Callback.scenePerformActionForShortcutItem.signature,
    ]),
  ]
}
