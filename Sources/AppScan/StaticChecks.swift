import Lifecycle

/// The static diagnostics of a scanned app, each from the shape the scan found. Anything the
/// scan could not resolve (an identifier it cannot read, a call it cannot place) gives none.
enum StaticChecks {
  static func diagnostics(_ report: ScanReport) -> [ScanDiagnostic] {
    var found = handlersNeverCalled(report) + sceneLifecycle(report) + registrations(report)
    found += notificationDelegate(report) + backgroundTasks(report) + windows(report) + legacyFetch(report) + quickActionCompletions(report)
    found += pathDiagnostics(report)
    for index in found.indices { found[index].target = report.target }
    return found.sorted { $0.place < $1.place }
  }

  /// Not given while the deployment target is below iOS 13: an app that still runs on iOS 12
  /// rightly keeps the app delegate's methods, as the runtime diagnostic's `minimumIOS` says.
  private static func handlersNeverCalled(_ report: ScanReport) -> [ScanDiagnostic] {
    guard report.scenes, !report.supportsReleaseWithoutScenes else { return [] }
    let sceneDelegate = report.types(.scene).first
    var seen: Set<String> = []
    return report.methods.compactMap { method in
      guard method.role == .application, let replacement = SceneReplacements.replacement(for: method.selector),
            let callback = Callback(signature: method.selector), seen.insert(method.type + method.selector).inserted else { return nil }
      let instead = sceneDelegate.map { "\($0).\(replacement)" } ?? "the scene delegate's \(replacement)"
      return ScanDiagnostic(code: Diagnostic.Code.handlerNeverCalled.rawValue, handler: "\(method.type).\(callback.key)", place: method.place,
                            message: "\(method.type).\(method.selector) is never called in a scene app: UIKit calls \(instead) instead")
    }
  }

  /// iOS 27's mandate, as runs apply it (SceneAdoption): an app built with SDK 27 without scenes
  /// does not launch on iOS 27.
  private static func sceneLifecycle(_ report: ScanReport) -> [ScanDiagnostic] {
    guard !report.scenes, let manifest = report.sceneManifest,
          !SceneAdoption.launches(manifest: manifest, hasConfigurationMethod: report.hasConfigurationMethod, ios: 27, sdk: 27) else { return [] }
    let place: SourcePlace
    switch report.plist {
    case .unknown: return []
    case let .file(path): place = SourcePlace(file: path, line: report.plistFacts?.manifestLine ?? 1)
    case let .generated(path, _): place = SourcePlace(file: path, line: 1)
    }
    let why: String
    switch manifest {
    case .none: why = report.hasConfigurationMethod
      ? "no UIApplicationSceneManifest: application(_:configurationForConnecting:options:) is not called without it"
      : "no UIApplicationSceneManifest, no application(_:configurationForConnecting:options:)"
    case .empty: why = "a UIApplicationSceneManifest without scene configurations, and no application(_:configurationForConnecting:options:)"
    case .configured: why = "no scene configuration"
    }
    return [ScanDiagnostic(code: Diagnostic.Code.sceneLifecycleRequired.rawValue, handler: nil, place: place,
                           message: "the app declares no scenes (\(why)): built with the iOS 27 SDK it does not launch")]
  }

  private static func registrations(_ report: ScanReport) -> [ScanDiagnostic] {
    var found: [ScanDiagnostic] = []
    for registration in report.registrations {
      let shown = registration.identifier.map { "\"\($0)\"" } ?? "(an identifier the scan cannot read)"
      if registration.reach.isAfterLaunch {
        found.append(ScanDiagnostic(code: ScanRule.StaticCode.bgtaskRegisteredLate.rawValue, handler: nil, place: registration.place,
                                    message: "BGTask \(shown) is registered \(registration.reach.origin): BGTaskScheduler throws for a registration made after application(_:didFinishLaunchingWithOptions:) returns"))
      }
      guard let plist = report.plistFacts?.path, let identifier = registration.identifier,
            !isPermitted(identifier, report.permittedIdentifiers) else { continue }
      found.append(ScanDiagnostic(code: ScanRule.StaticCode.bgtaskIDNotPermitted.rawValue, handler: nil, place: registration.place,
                                  message: "BGTask \(shown) is not in \(plist)'s BGTaskSchedulerPermittedIdentifiers: registering it returns false, and the system never runs its task"))
    }
    // A permitted id nobody registers, only when every registration's identifier is known.
    guard let plist = report.plistFacts?.path, report.registrations.allSatisfy({ $0.identifier != nil }) else { return found }
    let registered = Set(report.registrations.compactMap(\.identifier))
    for (identifier, line) in report.plistFacts?.permittedIdentifiers ?? [] where !identifier.hasSuffix("*") && !registered.contains(identifier) {
      found.append(ScanDiagnostic(code: ScanRule.StaticCode.bgtaskIDNotRegistered.rawValue, handler: nil, place: SourcePlace(file: plist, line: line),
                                  message: "BGTask \"\(identifier)\" is permitted in \(plist) but never registered: the system cannot launch the app for it"))
    }
    return found
  }

  /// An identifier listed, or matched by a listed `prefix.*` wildcard.
  static func isPermitted(_ identifier: String, _ permitted: [String]) -> Bool {
    permitted.contains { $0 == identifier || ($0.hasSuffix(".*") && identifier.hasPrefix($0.dropLast())) }
  }

  private static func notificationDelegate(_ report: ScanReport) -> [ScanDiagnostic] {
    guard let assignment = report.notificationDelegate, assignment.reach.isAfterLaunch else { return [] }
    return [ScanDiagnostic(code: Diagnostic.Code.notificationDelegateLate.rawValue, handler: nil, place: assignment.place,
                           message: "the UNUserNotificationCenter delegate is set \(assignment.reach.origin): a notification response that launches the app is dropped")]
  }

  private static func backgroundTasks(_ report: ScanReport) -> [ScanDiagnostic] {
    report.backgroundTasks.compactMap { task in
      guard task.fact.expiration == .leavesTaskOpen else { return nil }
      let shown = task.name.map { " \"\($0)\"" } ?? ""
      return ScanDiagnostic(code: Diagnostic.Code.taskOpenAfterExpiration.rawValue, handler: nil, place: task.fact.place,
                            message: "background task\(shown): its expiration handler does not call endBackgroundTask itself, so the task is still open when the handler returns")
    }
  }

  /// From iOS 13 an Info.plist listing BGTask identifiers turns legacy background fetch off.
  private static func legacyFetch(_ report: ScanReport) -> [ScanDiagnostic] {
    guard !report.permittedIdentifiers.isEmpty, let plist = report.plistFacts?.path else { return [] }
    return report.methods.filter { $0.role == .application && $0.selector == "application(_:performFetchWithCompletionHandler:)" }.map { method in
      ScanDiagnostic(code: ScanRule.StaticCode.legacyFetchDisabled.rawValue, handler: "\(method.type).performFetchWithCompletionHandler", place: method.place,
                     message: "\(method.type).\(method.selector) is never called from iOS 13: \(plist) lists BGTaskSchedulerPermittedIdentifiers, which turns legacy background fetch off; schedule a BGAppRefreshTaskRequest instead")
    }
  }

  /// A quick-action handler with a path that leaves without calling its completion handler
  /// (none calls it when its body never names it), at its `func` line.
  private static func quickActionCompletions(_ report: ScanReport) -> [ScanDiagnostic] {
    report.methods.filter { SwiftFactCollector.quickActionSelectors.contains($0.selector) && ($0.ignoresCompletion || !$0.completionOpenExits.isEmpty) }.map { method in
      let why = method.ignoresCompletion ? "never calls its completionHandler"
        : "leaves without calling its completionHandler on the path at line\(method.completionOpenExits.count == 1 ? "" : "s") \(method.completionOpenExits.map(String.init).joined(separator: ", "))"
      return ScanDiagnostic(code: ScanRule.StaticCode.quickActionCompletionMissing.rawValue, handler: nil, place: method.place,
                            message: "\(method.type).\(method.selector) \(why): UIKit is not told whether the quick action was handled")
    }
  }

  private static func windows(_ report: ScanReport) -> [ScanDiagnostic] {
    guard report.scenes else { return [] }
    return report.windows.map { window in
      ScanDiagnostic(code: ScanRule.StaticCode.windowWithoutScene.rawValue, handler: nil, place: window.place,
                     message: "\(window.owner ?? "the app delegate") makes UIWindow(frame:) in a scene app: the window belongs to no scene and is never shown")
    }
  }
}
