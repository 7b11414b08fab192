import Testing
@testable import Lifecycle

/// `Callback.canBeDelivered(on:)`: which callbacks a profile can ever deliver, decided for every
/// callback of the model's table (its switch names each one) and checked here against the
/// table's receivers and the profile's knobs. ScriptHostTests checks it against every callback
/// the bundled scenarios' runs deliver.
@Suite struct DeliverabilityTests {
  static let profiles = IOSRelease.versions.flatMap { ios in
    ios >= 13 ? [Profile(ios: ios, scenes: true), Profile(ios: ios, scenes: false)] : [Profile(ios: ios, scenes: false)]
  }

  @Test func sceneDelegateMethodsNeedScenesAndAppLifeCycleMethodsNeedNone() {
    for profile in Self.profiles {
      for callback in Callback.allCases where callback.receiver == .sceneDelegate {
        #expect(callback.canBeDelivered(on: profile) == (profile.scenes && (callback != .restoreInteractionStateWith || profile.ios >= 15)),
                "\(callback) on \(Callback.profileName(profile))")
      }
      for callback in [Callback.applicationWillResignActive, .applicationDidEnterBackground, .applicationWillEnterForeground,
                       .applicationDidBecomeActive, .openURL, .performActionForShortcutItem] {
        #expect(callback.canBeDelivered(on: profile) == !profile.scenes, "\(callback) on \(Callback.profileName(profile))")
      }
    }
  }

  @Test func versionsAndKnobsDecideTheirCallbacks() {
    var ios12 = Profile(ios: 12, scenes: false)
    #expect(!Callback.viewIsAppearing.canBeDelivered(on: ios12))
    #expect(!Callback.launchHandler.canBeDelivered(on: ios12))
    #expect(!Callback.shouldSaveSecureApplicationState.canBeDelivered(on: ios12))
    #expect(Callback.shouldSaveApplicationState.canBeDelivered(on: ios12))
    ios12.viewIsAppearing = true
    #expect(Callback.viewIsAppearing.canBeDelivered(on: ios12))
    var ios17 = Profile(ios: 17, scenes: true)
    #expect(Callback.viewIsAppearing.canBeDelivered(on: ios17) && !Callback.updateProperties.canBeDelivered(on: ios17))
    #expect(!Callback.encodeRestorableState.canBeDelivered(on: ios17))
    ios17.legacyRestorationInSceneApps = true
    #expect(Callback.encodeRestorableState.canBeDelivered(on: ios17))
    #expect(Callback.updateProperties.canBeDelivered(on: Profile(ios: 26, scenes: true)))
    #expect(Callback.deliverable(on: Profile(ios: 12, scenes: false)).contains(.applicationDidEnterBackground))
    #expect(!Callback.deliverable(on: Profile(ios: 12, scenes: false)).contains(.sceneDidEnterBackground))
  }

  /// A callback no profile delivers would make every `expect_no_calls` naming it vacuous: each is
  /// deliverable on some release and scene mode.
  @Test func everyCallbackIsDeliverableSomewhere() {
    for callback in Callback.allCases {
      #expect(Self.profiles.contains { callback.canBeDelivered(on: $0) }, "\(callback)")
    }
  }
}
