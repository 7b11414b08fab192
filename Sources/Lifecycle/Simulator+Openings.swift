import JSON

// UIKit's sequences for what opens an app besides its icon and URLs (docs/model.md §15):
// notification responses (`notify`, `tap_notification`), Home Screen quick actions, universal
// links and Handoff. The launch and return sequences of Simulator+Lifecycle carry the `opening`
// through three hooks: the launch options, the connection options, and `deliverOpening` around
// the did-become-active callback.

extension Simulator {
  /// `tap_notification{id=, action=, foreground=}`: a tap that opens the app, or an action that
  /// runs it in the background with no scene.
  func tapNotification(id: String, action: String, foreground: Bool) throws(ProcessEnded) {
    guard action == Opening.defaultAction || foreground else {
      let cold = state.process == .notRunning || state.process == .prewarmed
      try wakeInBackground()
      return try deliverResponse(id: id, action: action, coldLaunch: cold)
    }
    try open(.notificationResponse(id: id, action: action))
  }

  /// The user opens the app through `kind`: a cold launch, a return, or (active) the delegate method alone.
  func open(_ kind: Opening.Kind) throws(ProcessEnded) {
    opening = Opening(kind, coldLaunch: state.process == .notRunning || state.process == .prewarmed)
    defer { opening = nil }
    try userLaunch(url: nil)
  }

  // MARK: - Hooks in the launch and return sequences

  /// Launch options for a sceneless app's willFinish/didFinish, besides `url` (nil: none).
  func openingLaunchOptions() -> JSONValue? {
    guard !profile.scenes, var o = opening else { return nil }
    o.inLaunchOptions = true
    opening = o
    return .object([("options", o.launchOptions)])
  }

  /// Connection options for `willConnectTo`, besides `url` (nil: none).
  func openingConnectionOptions() -> JSONValue? {
    guard var o = opening, let options = o.connectionOptions(profile) else { return nil }
    o.inConnectionOptions = true
    opening = o
    return .object([("options", options)])
  }

  /// The opening's delegate method, if it falls at `placement` against the did-become-active
  /// callback (nil: now, the app being active already). Once per verb.
  func deliverOpening(at placement: Profile.OpeningPlacement?) throws(ProcessEnded) {
    guard var o = opening, !o.delivered else { return }
    if let placement, o.placement(profile) != placement { return }
    o.delivered = true
    opening = o
    switch o.kind {
    case let .notificationResponse(id, action):
      if o.inConnectionOptions, profile.coldNotificationResponse == .connectionOptionsOnly { return }
      try deliverResponse(id: id, action: action, coldLaunch: o.coldLaunch)
    case let .shortcutItem(type):
      guard !o.inConnectionOptions else { return }  // a scene launched with it: connection options only
      guard !(o.inLaunchOptions && state.openings.launchDeclined) else { return declinedAtLaunch("quick action") }
      let item = JSONValue.object([("type", .string(type))])
      try deliverWithCompletion(profile.scenes ? .scenePerformActionForShortcutItem : .performActionForShortcutItem,
                                profile.scenes ? "SceneDelegate" : "AppDelegate", payload: .object([("item", item)]))
    case let .userActivity(type, url):
      // A scene launched with it: a universal link stays in the connection options; a Handoff's
      // scene(_:continue:) follows once its data has arrived (the fold's pendingHandoff).
      guard !o.inConnectionOptions else { return }
      guard !(o.inLaunchOptions && state.openings.launchDeclined) else { return declinedAtLaunch("user activity") }
      let target = profile.scenes ? "SceneDelegate" : "AppDelegate"
      try deliver(profile.scenes ? .sceneWillContinueUserActivityWithType : .willContinueUserActivityWithType, target,
                  payload: .object([("type", .string(type))]))
      try continueActivity(type: type, webpageURL: url)
    }
  }

  private func declinedAtLaunch(_ what: String) {
    note("launchOptionHandled", "willFinishLaunchingWithOptions or didFinishLaunchingWithOptions returned false: the \(what) in the launch options is not delivered again")
  }

  // MARK: - Deliveries

  /// `continueUserActivity` (or, knob `continueActivityFails`, `didFailToContinueUserActivity`).
  private func continueActivity(type: String, webpageURL: String?) throws(ProcessEnded) {
    let target = profile.scenes ? "SceneDelegate" : "AppDelegate"
    if profile.continueActivityFails {
      let error = JSONValue.object([("code", .int(4608)), ("domain", .string("NSCocoaErrorDomain"))])
      try deliver(profile.scenes ? .sceneDidFailToContinueUserActivity : .didFailToContinueUserActivity, target,
                  payload: .object([("error", error), ("type", .string(type))]))
    } else {
      try deliver(profile.scenes ? .sceneContinueUserActivity : .continueUserActivity, target,
                  payload: .object([("activity", Opening.activity(type: type, webpageURL: webpageURL))]))
    }
  }

  /// The Handoff that launched a scene app: its data has arrived (the scheduler's `.handoff`).
  func continueHandoff() throws(ProcessEnded) {
    guard let handoff = state.openings.pendingHandoff else { return }
    try continueActivity(type: handoff.activityType, webpageURL: nil)
  }

  /// `notify{id=}`: `willPresent` if the app has a notification delegate.
  func presentNotification(id: String) throws(ProcessEnded) {
    guard state.openings.notificationDelegateSet else {
      return note("notificationNotPresented", "no UNUserNotificationCenter delegate: a notification that arrives while the app is in the foreground is not shown"
        + unsetDelegateHint(.willPresent))
    }
    try deliverWithCompletion(.willPresent, "NotificationDelegate",
                              payload: .object([("notification", .object([("id", .string(id))]))]))
  }

  /// `didReceive`, if the notification delegate was set in time: before didFinishLaunching
  /// returned when the response launched the app, else at any time.
  private func deliverResponse(id: String, action: String, coldLaunch: Bool) throws(ProcessEnded) {
    let o = state.openings
    guard coldLaunch ? o.notificationDelegateSetDuringLaunch : o.notificationDelegateSet else {
      guard coldLaunch else {
        return note("notificationResponseDropped", "no UNUserNotificationCenter delegate: the response is dropped" + unsetDelegateHint(.didReceive))
      }
      return note("notificationResponseDropped",
                  "UNUserNotificationCenter:setDelegate() was not called before didFinishLaunchingWithOptions returned: the response that launched the app is dropped",
                  code: Diagnostic.Code.notificationDelegateLate.rawValue)
    }
    let response = JSONValue.object([("action", .string(action)), ("id", .string(id))])
    try deliverWithCompletion(.didReceive, "NotificationDelegate", payload: .object([("response", response)]))
  }

  /// For an app that defines the handler but never set the delegate: what it forgot.
  private func unsetDelegateHint(_ cb: Callback) -> String {
    guard !state.openings.notificationDelegateSet, driver.implements(cb, target: "NotificationDelegate") else { return "" }
    return " (the app defines NotificationDelegate.\(cb.key) but never called UNUserNotificationCenter:setDelegate())"
  }

  /// A callback with a completion handler. One UIKit does not wait for and that is still
  /// uncalled when the handler returns gets a note: nothing ends the app for it.
  private func deliverWithCompletion(_ cb: Callback, _ target: String, payload: JSONValue) throws(ProcessEnded) {
    let id = state.completionsIssued + 1
    try deliver(cb, target, completion: id, payload: payload)
    if state.openings.softCompletions.contains(where: { $0.id == id }) {
      note("completionNotCalled", "\(cb.signature) returned without calling its completion handler; UIKit does not end the app for it")
    }
  }

  /// `restorationHandler({vc, …})` inside `continueUserActivity`: each controller's
  /// `restoreUserActivityState(_:)`, in the order given.
  func restoreUserActivityState(_ labels: [String], activity: JSONValue, at: String?) throws(AppCallError) {
    for label in labels where state.controller(label) == nil {
      throw .invalid("restorationHandler: no view controller \(label) is alive")
    }
    emit(.appCalled(.restorationHandler(controllers: labels), at: at))
    do {
      for label in labels { try deliver(.restoreUserActivityState, label, payload: .object([("activity", activity)])) }
    } catch {
      throw .processEnded
    }
  }
}
