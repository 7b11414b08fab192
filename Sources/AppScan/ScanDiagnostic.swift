import Lifecycle

/// One static finding: a code shared with the runtime diagnostics where it means the same thing
/// (Lifecycle's `Diagnostic.Code`), the place in the Swift or plist source, and the rule with its source.
package struct ScanDiagnostic: Sendable {
  package let code: String
  /// The app target it belongs to.
  package var target = "App"
  /// Its file from the repository root, and its fingerprint there (`Fingerprints`).
  package var rootRelativeFile: String?
  package var fingerprint: String?
  /// With `--check`: what the runs say of it.
  package var confirmation: Confirmation?
  /// The handler it is about (`AppDelegate.applicationDidEnterBackground`), as the runtime names it.
  package let handler: String?
  package let place: SourcePlace
  package let message: String

  package var rule: ScanRule { ScanRule.byCode[code]! }
}

/// A rule a scan checks: its code, what it says, and where the rule comes from.
package struct ScanRule: Sendable {
  package let code: String
  package let summary: String
  /// Apple's page the rule comes from.
  package let source: String

  /// SARIF's level: `error` where the app crashes, is terminated or does not launch.
  package var level: String {
    [Diagnostic.Code.sceneLifecycleRequired.rawValue, StaticCode.bgtaskRegisteredLate.rawValue, StaticCode.bgtaskIDNotPermitted.rawValue,
     Diagnostic.Code.taskOpenAfterExpiration.rawValue].contains(code) ? "error" : "warning"
  }

  /// The static codes that have no runtime twin.
  package enum StaticCode: String, CaseIterable, Sendable {
    case bgtaskRegisteredLate = "bgtask_registered_late"
    case bgtaskIDNotPermitted = "bgtask_id_not_permitted"
    case bgtaskIDNotRegistered = "bgtask_id_not_registered"
    case windowWithoutScene = "window_without_scene"
    case legacyFetchDisabled = "legacy_fetch_disabled"
    case quickActionCompletionMissing = "quick_action_completion_missing"
    case bgtaskExpirationMissing = "bgtask_expiration_missing"
    case bgtaskNotCompleted = "bgtask_not_completed"
    case taskNotEnded = "task_not_ended"
    case registeredConditionally = "registered_conditionally"
    case appWindowNil = "app_window_nil"
    case sceneClassMissing = "scene_class_missing"
    case suppressionWithoutReason = "suppression_without_reason"
    case suppressionUnused = "suppression_unused"
  }

  /// Every rule, in the order the docs and SARIF list them.
  package static let all: [ScanRule] = [
    ScanRule(code: Diagnostic.Code.handlerNeverCalled.rawValue,
             summary: "In a scene app UIKit calls the scene delegate, not the app delegate, for the UI life cycle; the app delegate's method is never called.",
             source: "https://developer.apple.com/documentation/uikit/transitioning-to-the-uikit-scene-based-life-cycle"),
    ScanRule(code: Diagnostic.Code.sceneLifecycleRequired.rawValue,
             summary: "An app without scenes does not launch when built with the SDK after iOS 26 (iOS 27); iOS 26 logs a warning.",
             source: "https://developer.apple.com/documentation/technotes/tn3187-migrating-to-the-uikit-scene-based-life-cycle"),
    ScanRule(code: StaticCode.bgtaskRegisteredLate.rawValue,
             summary: "Every BGTaskScheduler launch handler must be registered before application(_:didFinishLaunchingWithOptions:) returns.",
             source: "https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/register(fortaskwithidentifier:using:launchhandler:)"),
    ScanRule(code: StaticCode.bgtaskIDNotPermitted.rawValue,
             summary: "A BGTask identifier must be listed in Info.plist's BGTaskSchedulerPermittedIdentifiers.",
             source: "https://developer.apple.com/documentation/bundleresources/information-property-list/bgtaskschedulerpermittedidentifiers"),
    ScanRule(code: StaticCode.bgtaskIDNotRegistered.rawValue,
             summary: "Every identifier in BGTaskSchedulerPermittedIdentifiers needs a registered launch handler.",
             source: "https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/register(fortaskwithidentifier:using:launchhandler:)"),
    ScanRule(code: Diagnostic.Code.notificationDelegateLate.rawValue,
             summary: "The UNUserNotificationCenter delegate must be set before the app finishes launching, or the response that launched it is lost.",
             source: "https://developer.apple.com/documentation/usernotifications/unusernotificationcenter/delegate"),
    ScanRule(code: Diagnostic.Code.taskOpenAfterExpiration.rawValue,
             summary: "A background task's expiration handler must end the task (endBackgroundTask) before it returns, or the app is terminated.",
             source: "https://developer.apple.com/documentation/uikit/uiapplication/beginbackgroundtask(expirationhandler:)"),
    ScanRule(code: StaticCode.windowWithoutScene.rawValue,
             summary: "In a scene app a window made with UIWindow(frame:) belongs to no scene and is never shown; make it with UIWindow(windowScene:) in the scene delegate.",
             source: "https://developer.apple.com/documentation/technotes/tn3187-migrating-to-the-uikit-scene-based-life-cycle"),
    ScanRule(code: StaticCode.legacyFetchDisabled.rawValue,
             summary: "From iOS 13 an Info.plist that lists BGTaskSchedulerPermittedIdentifiers turns legacy background fetch off: application(_:performFetchWithCompletionHandler:) is never called.",
             source: "https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler"),
    ScanRule(code: StaticCode.quickActionCompletionMissing.rawValue,
             summary: "A quick-action handler calls its completion handler with whether it handled the action.",
             source: "https://developer.apple.com/documentation/uikit/uiwindowscenedelegate/windowscene(_:performactionfor:completionhandler:)"),
    ScanRule(code: StaticCode.bgtaskExpirationMissing.rawValue,
             summary: "A BGTask launch handler sets an expirationHandler that completes the task (setTaskCompleted) or stops the work that will; without one the task's work runs on when its time ends.",
             source: "https://developer.apple.com/documentation/backgroundtasks/bgtask/expirationhandler"),
    ScanRule(code: StaticCode.bgtaskNotCompleted.rawValue,
             summary: "A BGTask launch handler calls setTaskCompleted(success:) on every path; a task never completed holds the app's background time until the system ends it.",
             source: "https://developer.apple.com/documentation/backgroundtasks/bgtask/settaskcompleted(success:)"),
    ScanRule(code: StaticCode.taskNotEnded.rawValue,
             summary: "Every beginBackgroundTask is balanced by endBackgroundTask on every path, early returns and thrown errors included; an open task is ended by its expiration, or the app is terminated.",
             source: "https://developer.apple.com/documentation/uikit/uiapplication/endbackgroundtask(_:)"),
    ScanRule(code: StaticCode.registeredConditionally.rawValue,
             summary: "BGTask launch handlers and the notification center's delegate are set on every launch, before launch finishes; a condition that skips them loses the task or the response on some launches.",
             source: "https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/register(fortaskwithidentifier:using:launchhandler:)"),
    ScanRule(code: StaticCode.appWindowNil.rawValue,
             summary: "In a scene app UIKit sets each scene delegate's window, never the app delegate's: reading UIApplication.shared.delegate's window gives nil unless the app sets it.",
             source: "https://developer.apple.com/documentation/uikit/uiwindowscenedelegate/window"),
    ScanRule(code: StaticCode.sceneClassMissing.rawValue,
             summary: "The scene delegate class a UIApplicationSceneManifest configuration names (UISceneDelegateClassName) must exist in the app, or UIKit cannot make the scene's delegate.",
             source: "https://developer.apple.com/documentation/bundleresources/information-property-list/uiapplicationscenemanifest/uisceneconfigurations"),
    ScanRule(code: StaticCode.suppressionWithoutReason.rawValue,
             summary: "A `lifesim:ignore <code>` suppression says why after its code, so that a reader can judge it.",
             source: "docs/scan.md#suppressions"),
    ScanRule(code: StaticCode.suppressionUnused.rawValue,
             summary: "A `lifesim:ignore <code>` suppression that matches no diagnostic on its line or the next is stale: remove it.",
             source: "docs/scan.md#suppressions"),
  ]

  static let byCode: [String: ScanRule] = Dictionary(uniqueKeysWithValues: all.map { ($0.code, $0) })
}
