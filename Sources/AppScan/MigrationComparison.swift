import Lifecycle

/// One change a migration made to an app's lifecycle, with where it was and where it is.
package struct MigrationChange: Sendable, Equatable {
  package enum Kind: String, Sendable, CaseIterable {
    case handlerSilenced = "handler_silenced", payloadLost = "payload_lost", movedAfterLaunch = "moved_after_launch"
    case windowWithoutScene = "window_without_scene", appWindowNil = "app_window_nil", workDuplicated = "work_duplicated"
    case workLost = "work_lost", restorationChanged = "restoration_changed", other
  }

  package let kind: Kind
  /// Something the app did before it no longer does, or does wrong; false for a correct move.
  package let regression: Bool
  package let target: String
  /// The place in BEFORE and in AFTER, each file as the scan names it; nil when there is none.
  package let before: SourcePlace?
  package let after: SourcePlace?
  package let message: String
  /// A `payload_lost` about the payload that launches the app (a cold launch), not the one that
  /// reaches it running: only a cold case of the battery can show it.
  package var atLaunch = false
  /// What runs of both mirrors showed (`--check`); nil when none were made.
  package var confirmation: MigrationConfirmation? = nil
}

/// Compares the scans of one app before and after a migration (to scenes, most often) and
/// lists what changed in its lifecycle: statically, from the two reports, by the rules of
/// docs/migration.md. Regressions come first, then moves, each in the order of AFTER's places.
package enum MigrationComparison {
  package static func changes(before: ScanReport, after: ScanReport) -> [MigrationChange] {
    var found = handlers(before, after) + payloads(before, after) + notificationResponses(before, after) + launchWork(before, after)
    found += windows(before, after) + duplicatedWork(before, after) + restoration(before, after)
    return found.enumerated().sorted { a, b in
      a.element.regression != b.element.regression ? a.element.regression : a.offset < b.offset
    }.map(\.element)
  }

  /// Whether UIKit calls an app-delegate method of this app: not when the app uses scenes, the
  /// method has a scene replacement and the app no longer supports iOS 12.
  static func isCalled(_ method: DelegateMethod, in report: ScanReport) -> Bool {
    method.role != .application || !report.scenes || SceneReplacements.replacement(for: method.selector) == nil
      || report.supportsReleaseWithoutScenes
  }

  /// The selectors whose loss is a lost payload (`payloads`), not a silenced handler.
  static let payloadSelectors: Set<String> = [
    "application(_:open:options:)", "application(_:continue:restorationHandler:)", "application(_:performActionFor:completionHandler:)",
  ]

  /// An app-delegate method UIKit called before and not after (the restoration methods aside,
  /// which `restoration` compares): a move when AFTER's scene
  /// delegate implements its replacement (then each function of the app's it called and the
  /// replacement does not is work lost), else a regression.
  private static func handlers(_ before: ScanReport, _ after: ScanReport) -> [MigrationChange] {
    var found: [MigrationChange] = []
    var seen: Set<String> = []
    guard !after.isSwiftUIApp else { return [] }   // SwiftUI's scenePhase is not read
    for method in before.methods where method.role == .application && isCalled(method, in: before) && !payloadSelectors.contains(method.selector)
      && !method.selector.contains("ApplicationState") {
      // An app that still supports iOS 12 keeps the method rightly there, but iOS 13 and later call the scene delegate's.
      guard let replacement = SceneReplacements.replacement(for: method.selector), seen.insert(method.selector).inserted,
            after.scenes else { continue }
      let kept = after.methods.first { $0.role == .application && $0.selector == method.selector }
      guard let moved = after.methods.first(where: { $0.role == .scene && $0.selector == replacement }) else {
        found += silenced(method, replacement: replacement, kept: kept, after: after)
        continue
      }
      found.append(MigrationChange(kind: .handlerSilenced, regression: false, target: after.target, before: method.place, after: moved.place,
                                   message: "\(method.type).\(method.selector) moved to \(moved.type).\(replacement)"))
      let reached = reachable(from: moved.calls, in: after.callGraph)
      for call in method.calls.filter({ before.callGraph[$0] != nil }).subtracting(reached).sorted() {
        found.append(MigrationChange(kind: .workLost, regression: true, target: after.target, before: method.place, after: moved.place,
                                     message: "\(method.type).\(method.selector) called \(call)(); \(moved.type).\(replacement), which replaces it, does not, nor any function it calls"))
      }
    }
    return found
  }

  /// A handler whose replacement AFTER does not implement: nothing lost when it called nothing;
  /// a move when every function it called is reached from one of AFTER's scene-delegate
  /// methods (its work moved to another one), else a regression.
  private static func silenced(_ method: DelegateMethod, replacement: String, kept: DelegateMethod?, after: ScanReport) -> [MigrationChange] {
    let work = method.calls.subtracting(ignoredCalls)
    guard !work.isEmpty else { return [] }
    let sceneMethods = after.methods.filter { $0.role == .scene }
    if let doer = sceneMethods.first(where: { work.isSubset(of: reachable(from: $0.calls, in: after.callGraph)) }) {
      return [MigrationChange(kind: .handlerSilenced, regression: false, target: after.target, before: method.place, after: doer.place,
                              message: "\(method.type).\(method.selector) is no longer called; its work (\(work.sorted().joined(separator: ", "))) now runs from \(doer.type).\(doer.selector)")]
    }
    return [MigrationChange(kind: .handlerSilenced, regression: true, target: after.target, before: method.place, after: kept?.place,
                            message: "\(method.type).\(method.selector) was called before; in the scene app UIKit calls the scene delegate's \(replacement) instead\(onLaterIOS(after)), which AFTER does not implement, and no scene-delegate method does its work")]
  }

  /// For an app that still supports iOS 12, where the app delegate's method is still called.
  static func onLaterIOS(_ report: ScanReport) -> String {
    guard report.supportsReleaseWithoutScenes, let minimum = report.minimumIOS else { return "" }
    return " on iOS \(IOSRelease.firstWithScenes) and later (iOS \(minimum), which the app still supports, calls it)"
  }

  /// Calls that are no work of the app's: logging.
  static let ignoredCalls: Set<String> = ["print", "debugPrint", "NSLog", "os_log", "log", "debug", "info"]

  /// The names `start` calls and every name reached from them through the app's own functions,
  /// at most 4,096 names.
  static func reachable(from start: Set<String>, in graph: [String: Set<String>]) -> Set<String> {
    var seen = start
    var queue = Array(start)
    while let name = queue.popLast(), seen.count < 4_096 {
      for next in graph[name] ?? [] where seen.insert(next).inserted { queue.append(next) }
    }
    return seen
  }

  /// What each payload is, the handler that gets it while the app runs in either life cycle,
  /// and the connection option that carries it to a scene app's cold launch.
  static let payloads: [(name: String, appDelegate: String, scene: String, option: String)] = [
    ("a URL", "application(_:open:options:)", "scene(_:openURLContexts:)", "urlContexts"),
    ("a user activity (a universal link, Handoff)", "application(_:continue:restorationHandler:)", "scene(_:continue:)", "userActivities"),
    ("a quick action", "application(_:performActionFor:completionHandler:)", "windowScene(_:performActionFor:completionHandler:)", "shortcutItem"),
  ]

  /// A payload BEFORE handled that AFTER does not, while running and at a cold launch.
  private static func payloads(_ before: ScanReport, _ after: ScanReport) -> [MigrationChange] {
    var found: [MigrationChange] = []
    // SwiftUI's .onOpenURL and .onContinueUserActivity are not read, so a SwiftUI AFTER is not
    // compared for URLs and activities; SwiftUI has no quick-action API, so a quick action
    // still needs a scene delegate there (one `configurationForConnecting` names).
    for payload in payloads where !after.isSwiftUIApp || payload.option == "shortcutItem" {
      guard let handled = handler(payload, running: true, in: before) ?? handler(payload, running: false, in: before) else { continue }
      let appDelegates = after.methods.first { $0.role == .application && $0.selector == payload.appDelegate }
      if handler(payload, running: true, in: after) == nil {
        found.append(MigrationChange(kind: .payloadLost, regression: true, target: after.target, before: handled, after: appDelegates?.place,
                                     message: "\(payload.name) that reaches the running app is dropped: AFTER has no \(after.scenes ? payload.scene : payload.appDelegate)"))
      }
      if handler(payload, running: false, in: after) == nil {
        let connect = after.methods.first { $0.role == .scene && $0.selector == "scene(_:willConnectTo:options:)" }
        found.append(MigrationChange(kind: .payloadLost, regression: true, target: after.target, before: handled, after: connect?.place ?? appDelegates?.place,
                                     message: "\(payload.name) that launches the app is dropped: scene(_:willConnectTo:options:) does not read connectionOptions.\(payload.option)",
                                     atLaunch: true))
      }
    }
    return found
  }

  /// The place of the code that receives `payload`: while running, the delegate UIKit calls;
  /// at a cold launch, `willConnectTo` reading its connection option in a scene app (the same
  /// handler without scenes, which UIKit calls after launch).
  static func handler(_ payload: (name: String, appDelegate: String, scene: String, option: String), running: Bool, in report: ScanReport) -> SourcePlace? {
    guard report.scenes else { return report.methods.first { $0.role == .application && $0.selector == payload.appDelegate }?.place }
    if running { return report.methods.first { $0.role == .scene && $0.selector == payload.scene }?.place }
    return report.methods.first { method in
      method.role == .scene && method.selector == "scene(_:willConnectTo:options:)"
        && (method.connectionPayloads.contains(payload.option) || method.connectionPayloads.contains("*"))
    }?.place
  }

  /// A notification response BEFORE's notification delegate received that AFTER does not. The
  /// delegate's `didReceive` gets the response in both life cycles, warm and cold, when it is set
  /// at launch; a scene app's cold one also comes in `connectionOptions.notificationResponse`.
  /// A delegate moved after launch is `moved_after_launch`'s, not listed again here.
  private static func notificationResponses(_ before: ScanReport, _ after: ScanReport) -> [MigrationChange] {
    let didReceive = "userNotificationCenter(_:didReceive:withCompletionHandler:)"
    let receiver = { (report: ScanReport) in report.methods.first { $0.role == .notification && $0.selector == didReceive } }
    guard let was = before.notificationDelegate, let handled = receiver(before)?.place else { return [] }
    let now = receiver(after) == nil ? nil : after.notificationDelegate
    let readAtConnect = after.scenes && after.methods.contains { method in
      method.role == .scene && method.selector == "scene(_:willConnectTo:options:)"
        && (method.connectionPayloads.contains("notificationResponse") || method.connectionPayloads.contains("*"))
    }
    var found: [MigrationChange] = []
    if now == nil {
      found.append(MigrationChange(kind: .payloadLost, regression: true, target: after.target, before: handled, after: after.notificationDelegate?.place,
                                   message: "a notification response that reaches the running app is dropped: AFTER sets no notification delegate with \(didReceive)"))
    }
    if !was.reach.isAfterLaunch, now == nil, !readAtConnect {
      let connect = after.methods.first { $0.role == .scene && $0.selector == "scene(_:willConnectTo:options:)" }
      found.append(MigrationChange(kind: .payloadLost, regression: true, target: after.target, before: handled, after: connect?.place,
                                   message: "a notification response that launches the app is dropped: no notification delegate receives it and "
                                     + "scene(_:willConnectTo:options:) does not read connectionOptions.notificationResponse", atLaunch: true))
    }
    return found
  }

  /// A registration or the notification delegate that ran at launch and runs later now.
  private static func launchWork(_ before: ScanReport, _ after: ScanReport) -> [MigrationChange] {
    var found: [MigrationChange] = []
    for registration in before.registrations where !registration.reach.isAfterLaunch {
      guard let identifier = registration.identifier,
            let moved = after.registrations.first(where: { $0.identifier == identifier && $0.reach.isAfterLaunch }) else { continue }
      found.append(MigrationChange(kind: .movedAfterLaunch, regression: true, target: after.target, before: registration.place, after: moved.place,
                                   message: "BGTask \"\(identifier)\" was registered at launch; AFTER registers it \(moved.reach.origin), and BGTaskScheduler throws for that"))
    }
    if let was = before.notificationDelegate, !was.reach.isAfterLaunch, let now = after.notificationDelegate, now.reach.isAfterLaunch {
      found.append(MigrationChange(kind: .movedAfterLaunch, regression: true, target: after.target, before: was.place, after: now.place,
                                   message: "the notification delegate was set at launch; AFTER sets it \(now.reach.origin), so the response that launches the app is dropped"))
    }
    return found
  }

  /// Windows a scene app makes without a scene, and reads of the app delegate's window, new in AFTER.
  private static func windows(_ before: ScanReport, _ after: ScanReport) -> [MigrationChange] {
    guard after.scenes else { return [] }
    let unchanged = before.scenes ? Set(before.windows.map { "\($0.owner ?? ""):\($0.place.line)" }) : []
    // An app that still supports iOS 12 makes that release's window in the app delegate, rightly;
    // a read of the app delegate's window is nil on iOS 13 and later all the same.
    let made = after.supportsReleaseWithoutScenes ? [] : after.windows
    var found = made.filter { !unchanged.contains("\($0.owner ?? ""):\($0.place.line)") }.map { window in
      MigrationChange(kind: .windowWithoutScene, regression: true, target: after.target,
                      before: before.windows.first { $0.owner == window.owner }?.place, after: window.place,
                      message: "\(window.owner ?? "the app delegate") makes UIWindow(frame:) in the scene app: the window belongs to no scene and is never shown")
    }
    if !before.scenes {
      found += after.appWindowReads.map { read in
        MigrationChange(kind: .appWindowNil, regression: true, target: after.target, before: nil, after: read,
                        message: "this reads the app delegate's window, which UIKit set before and never sets in the scene app: it is nil")
      }
    }
    return found
  }

  /// Functions of the app's called both from the app delegate's launch and from `willConnectTo`,
  /// which runs again for every window: work that ran once now runs twice.
  private static func duplicatedWork(_ before: ScanReport, _ after: ScanReport) -> [MigrationChange] {
    guard after.scenes, !after.supportsReleaseWithoutScenes,
          let connect = after.methods.first(where: { $0.role == .scene && $0.selector == "scene(_:willConnectTo:options:)" }) else { return [] }
    let launch = after.methods.filter { $0.role == .application && SceneReplacements.launchSelectors.contains($0.selector) }
    let wasTwice = Set(before.methods.filter { $0.role == .scene && $0.selector == connect.selector }.flatMap(\.calls))
    return launch.flatMap { method in
      method.calls.intersection(connect.calls).subtracting(wasTwice).filter { after.callGraph[$0] != nil }.sorted().map { call in
        MigrationChange(kind: .workDuplicated, regression: true, target: after.target, before: nil, after: connect.place,
                        message: "\(call)() runs in both \(method.type).\(method.selector) and \(connect.type).\(connect.selector): once at launch, and again for every window")
      }
    }
  }

  /// View-controller state restoration (the app delegate's should-save and should-restore) is
  /// not used once the app has scenes: restoration moves to `stateRestorationActivity(for:)`.
  private static func restoration(_ before: ScanReport, _ after: ScanReport) -> [MigrationChange] {
    guard !before.scenes, before.restoration.saveRestorePair, after.scenes else { return [] }
    let place = before.methods.first { $0.selector.contains("shouldSave") }?.place
    let activity = after.methods.first { $0.selector == "stateRestorationActivity(for:)" }
    return [MigrationChange(kind: .restorationChanged, regression: !after.restoration.activity, target: after.target, before: place, after: activity?.place,
                            message: after.restoration.activity
                              ? "state restoration moved to \(activity.map { $0.type + "." } ?? "")stateRestorationActivity(for:)"
                              : "the app delegate's state restoration is not used by a scene app, and AFTER has no stateRestorationActivity(for:): nothing is restored")]
  }
}
