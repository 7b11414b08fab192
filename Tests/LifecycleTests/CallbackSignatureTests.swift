import Testing
@testable import Lifecycle

/// The log and the trace show callbacks by signature, so a naming rule in `Callback.signature`
/// that gives a wrong one changes every log that has that callback.
@Suite struct CallbackSignatureTests {
  /// Every signature a naming rule gives, spelled out (the irregular ones are spelled out in the
  /// source and pinned by the logs in the fixtures).
  private static let byRule: [Callback: String] = [
    .willFinishLaunchingWithOptions: "application(_:willFinishLaunchingWithOptions:)",
    .didFinishLaunchingWithOptions: "application(_:didFinishLaunchingWithOptions:)",
    .didDiscardSceneSessions: "application(_:didDiscardSceneSessions:)",
    .applicationWillResignActive: "applicationWillResignActive(_:)",
    .applicationDidEnterBackground: "applicationDidEnterBackground(_:)",
    .applicationWillEnterForeground: "applicationWillEnterForeground(_:)",
    .applicationDidBecomeActive: "applicationDidBecomeActive(_:)",
    .applicationWillTerminate: "applicationWillTerminate(_:)",
    .applicationDidReceiveMemoryWarning: "applicationDidReceiveMemoryWarning(_:)",
    .applicationProtectedDataWillBecomeUnavailable: "applicationProtectedDataWillBecomeUnavailable(_:)",
    .applicationProtectedDataDidBecomeAvailable: "applicationProtectedDataDidBecomeAvailable(_:)",
    .performFetchWithCompletionHandler: "application(_:performFetchWithCompletionHandler:)",
    .applicationSignificantTimeChange: "applicationSignificantTimeChange(_:)",
    .sceneDidDisconnect: "sceneDidDisconnect(_:)",
    .sceneWillEnterForeground: "sceneWillEnterForeground(_:)",
    .sceneDidBecomeActive: "sceneDidBecomeActive(_:)",
    .sceneWillResignActive: "sceneWillResignActive(_:)",
    .sceneDidEnterBackground: "sceneDidEnterBackground(_:)",
    .loadView: "loadView()",
    .viewDidLoad: "viewDidLoad()",
    .viewWillAppear: "viewWillAppear(_:)",
    .viewIsAppearing: "viewIsAppearing(_:)",
    .viewWillLayoutSubviews: "viewWillLayoutSubviews()",
    .viewDidLayoutSubviews: "viewDidLayoutSubviews()",
    .updateProperties: "updateProperties()",
    .viewDidAppear: "viewDidAppear(_:)",
    .viewWillDisappear: "viewWillDisappear(_:)",
    .viewDidDisappear: "viewDidDisappear(_:)",
    .didReceiveMemoryWarning: "didReceiveMemoryWarning()",
    .traitCollectionDidChange: "traitCollectionDidChange(_:)",
    .expirationHandler: "expirationHandler()",
    .willContinueUserActivityWithType: "application(_:willContinueUserActivityWithType:)",
    .restoreUserActivityState: "restoreUserActivityState(_:)",
    .launchHandler: "launchHandler(_:)",
    .shouldSaveSecureApplicationState: "application(_:shouldSaveSecureApplicationState:)",
    .shouldRestoreSecureApplicationState: "application(_:shouldRestoreSecureApplicationState:)",
    .shouldSaveApplicationState: "application(_:shouldSaveApplicationState:)",
    .shouldRestoreApplicationState: "application(_:shouldRestoreApplicationState:)",
    .willEncodeRestorableStateWith: "application(_:willEncodeRestorableStateWith:)",
    .didDecodeRestorableStateWith: "application(_:didDecodeRestorableStateWith:)",
    .encodeRestorableState: "encodeRestorableState(with:)",
    .decodeRestorableState: "decodeRestorableState(with:)",
    .applicationFinishedRestoringState: "applicationFinishedRestoringState()",
  ]

  @Test func everyCallbackHasItsUIKitSignature() {
    #expect(Self.byRule.count == 43)
    for (callback, signature) in Self.byRule { #expect(callback.signature == signature) }
    // None falls back to its bare name, and no two share one (a log line names its callback by it).
    #expect(Callback.allCases.allSatisfy { $0.signature.hasSuffix(")") && $0.signature != $0.rawValue })
    #expect(Set(Callback.allCases.map(\.signature)).count == Callback.allCases.count)
  }
}
