import JSON
import Testing
@testable import Lifecycle
import LifecycleLog

/// The handler-never-called table is the delivery table's: what a scene run takes away from
/// the same profile without scenes. A new callback lands here without a hand list.
@Suite struct DiagnosticTableTests {
  @Test func theHandlersAScenesRunSkipsAreTheDeliveryTablesAndEachHasAReplacement() {
    let skipped = Callback.skippedForScenes(on: Profile(ios: 17))
    #expect(skipped == [
      .applicationWillResignActive, .applicationDidEnterBackground, .applicationWillEnterForeground, .applicationDidBecomeActive,
      .openURL, .willContinueUserActivityWithType, .continueUserActivity, .didFailToContinueUserActivity,
      .performActionForShortcutItem, .shouldSaveSecureApplicationState, .shouldRestoreSecureApplicationState,
      .shouldSaveApplicationState, .shouldRestoreApplicationState, .willEncodeRestorableStateWith,
      .didDecodeRestorableStateWith, .viewControllerWithRestorationIdentifierPath,
    ])
    for profile in IOSRelease.versions.filter(IOSRelease.hasScenes).map({ Profile(ios: $0) }) {
      for callback in Callback.skippedForScenes(on: profile) {
        #expect(callback.receiver == .appDelegate)
        #expect(!callback.canBeDelivered(on: profile))
        #expect(callback.sceneReplacement.map { $0.canBeDelivered(on: profile) } == true, "\(callback) has no scene replacement")
      }
    }
    // Every deprecated method is one a scene app never hears (never both codes for one method).
    #expect(Callback.allCases.filter(\.deprecatedInSDK26).allSatisfy(skipped.contains))
    #expect(!Callback.applicationDidEnterBackground.deprecatedInSDK26)
  }

  @Test func aScenelessProfileSkipsNothingAndTheRestorationKnobKeepsThePair() {
    #expect(Callback.skippedForScenes(on: Profile(ios: 26, scenes: false)).isEmpty)
    var legacy = Profile(ios: 17)
    legacy.legacyRestorationInSceneApps = true
    #expect(!Callback.skippedForScenes(on: legacy).contains(.viewControllerWithRestorationIdentifierPath))
  }

  @Test func aNoteWithACodeIsADiagnosticAndItsCodeSurvivesTheLog() throws {
    let event = Event(t: 3, .noted(name: "AppDelegate.openURL", message: "m", code: "handler_never_called"))
    var state = LifecycleState()
    state.evolve(event)
    #expect(state.diagnostics == [Diagnostic(code: "handler_never_called", message: "m", handler: "AppDelegate.openURL")])
    state.evolve(Event(t: 4, .noted(name: "print", message: "x")))
    #expect(state.diagnostics.count == 1)
  }

  @Test func aNoteWritesItsCodeAfterItsMessageOnlyWhenItHasOne() {
    func body(_ e: EventBody) -> String {
      var w = CanonicalJSONWriter(capacity: 128)
      Event(t: 3, e).canonicalBody(seq: 1, into: &w)
      return w.text
    }
    #expect(body(.noted(name: "n", message: "m")) == #"{"seq":1,"t":3,"kind":"note","name":"n","message":"m"}"#)
    #expect(body(.noted(name: "n", message: "m", code: "no_expectations"))
              == #"{"seq":1,"t":3,"kind":"note","name":"n","message":"m","code":"no_expectations"}"#)
  }
}
