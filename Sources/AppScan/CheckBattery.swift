import Lifecycle
import ScriptHost

/// `lifesim scan --check`: which scenarios of the bundled battery run against the emitted app,
/// and their text. The battery is a set of templates (`Scripts/scan/NAME.lua.in`): Lua scenario
/// bodies that name no app; each scenario written from one gets a `scenario { … }` line naming
/// the emitted app and its scenes, and the locals its template reads (`taskIdentifier`, `handler`).
package enum CheckBattery {
  /// One scenario of the battery for this app.
  package struct Scenario: Sendable, Equatable {
    /// The template it is written from: `background_refresh` for `background_refresh.lua.in`.
    package let template: String
    /// Its name in `scenario { name = … }` and in the report.
    package let name: String
    /// Its file, beside the others in the battery's folder.
    package let fileName: String
    /// The locals set before the template's text, as names and string values.
    package let locals: [Local]

    package init(template: String, name: String, fileName: String, locals: [Local]) {
      self.template = template; self.name = name; self.fileName = fileName; self.locals = locals
    }
  }

  /// A string local a template reads.
  package struct Local: Sendable, Equatable {
    package let name: String
    package let value: String

    package init(name: String, value: String) { self.name = name; self.value = value }
  }

  /// The battery's templates, in the order their scenarios run.
  package static let templates = [
    "cold_launch", "home_and_return", "lock", "memory_kill", "force_quit", "background_refresh", "background_after_jetsam",
    "notification_tap_cold", "notification_tap_warm", "open_url", "universal_link", "background_fetch", "quick_action",
  ]

  /// The scenarios that run for the app, and one line for each that does not, with why.
  package static func scenarios(for report: ScanReport) -> (run: [Scenario], notRun: [String]) {
    var run = ["cold_launch", "home_and_return", "lock", "memory_kill", "force_quit"].map {
      Scenario(template: $0, name: $0.replacing("_", with: " "), fileName: $0 + ".lua", locals: [])
    }
    var notRun: [String] = []
    let registered = Set(report.registrations.compactMap(\.identifier))
    let requests = MirrorRequests(report)
    for (index, identifier) in report.permittedIdentifiers.enumerated() {
      let kind = requests.kind(of: identifier)
      let name = "background \(kind ?? "refresh") \(identifier)"
      guard registered.contains(identifier) else { notRun.append("\(name): not run, no registration of it was found"); continue }
      guard kind != nil else {
        notRun.append("\(name): not run, \(requests.withheld.first { $0.identifier == identifier }?.why ?? "not submitted")")
        continue
      }
      run.append(Scenario(template: "background_refresh", name: name,
                          fileName: "background_refresh_\(index + 1).lua", locals: [Local(name: "taskIdentifier", value: identifier)]))
      // A registration some launches skip: the background launch after a jetsam is a launch of its own.
      if report.registrations.contains(where: { $0.identifier == identifier && $0.condition != nil }) {
        run.append(Scenario(template: "background_after_jetsam", name: name + " after jetsam",
                            fileName: "background_after_jetsam_\(index + 1).lua", locals: [Local(name: "taskIdentifier", value: identifier)]))
      }
    }
    if report.notificationDelegate != nil && implements(report, .didReceive) {
      for warmth in ["cold", "warm"] {
        run.append(Scenario(template: "notification_tap_\(warmth)", name: "notification tap \(warmth)",
                            fileName: "notification_tap_\(warmth).lua", locals: []))
      }
    } else {
      notRun.append("notification taps: not run, no notification delegate with userNotificationCenter(_:didReceive:withCompletionHandler:) is set")
    }
    let links: [(template: String, name: String, handler: Callback?, missing: String)] = [
      ("open_url", "open URL", urlHandler(report), "no application(_:open:options:) or scene(_:openURLContexts:)"),
      ("universal_link", "universal link", activityHandler(report),
       "no application(_:continue:restorationHandler:) or scene(_:continue:)"),
    ]
    for link in links {
      guard let handler = link.handler else { notRun.append("\(link.name): not run, \(link.missing)"); continue }
      run.append(Scenario(template: link.template, name: link.name, fileName: link.template + ".lua",
                          locals: [Local(name: "handler", value: qualified(handler))]))
    }
    // Legacy background fetch, for an app that still implements it (none is listed as not run:
    // an app without it has nothing to miss).
    if implements(report, .performFetchWithCompletionHandler) {
      run.append(Scenario(template: "background_fetch", name: "background fetch", fileName: "background_fetch.lua",
                          locals: [Local(name: "handler", value: qualified(.performFetchWithCompletionHandler))]))
    }
    // A quick action, for an app that handles one (none is listed as not run, as for fetch).
    if let handler = quickActionHandler(report) {
      run.append(Scenario(template: "quick_action", name: "quick action", fileName: "quick_action.lua",
                          locals: [Local(name: "handler", value: qualified(handler))]))
    }
    return (run, notRun)
  }

  /// The scenario's file: a comment, its `scenario { … }` line (`scenes` only when pinned: an app
  /// that declares its manifest decides them; the `choose` outcomes `sites` gives), its
  /// locals, then the template. Every value taken from the Swift goes through `LuaStringLiteral`.
  package static func text(_ scenario: Scenario, template: String, scenes: Bool?, app: String,
                           choosing sites: [(site: String, value: Bool)] = []) -> String {
    var lines = [
      "-- Written by `lifesim scan --check` from its battery (\(scenario.template).lua.in) for the app it wrote.",
      "scenario { name = \(LuaStringLiteral.quote(scenario.name))\(scenes.map { ", scenes = \($0)" } ?? ""), app = \(LuaStringLiteral.quote(app))"
        + "\(LuaAppWriter.chooseDeclaration(sites, oneLine: true)) }" + (sites.isEmpty ? "" : " -- luacheck: ignore 631"),
    ]
    lines += scenario.locals.map { "local \($0.name) = \(LuaStringLiteral.quote($0.value))" }
    return lines.joined(separator: "\n") + "\n\n" + template + (template.hasSuffix("\n") ? "" : "\n")
  }

  /// `AppDelegate.continueUserActivity`: the delegate that implements it, so that a key both
  /// delegates share is not met by the other's delivery.
  private static func qualified(_ callback: Callback) -> String {
    (callback.receiver == .sceneDelegate ? "SceneDelegate." : "AppDelegate.") + callback.key
  }

  private static func implements(_ report: ScanReport, _ callback: Callback) -> Bool {
    report.methods.contains { Callback(signature: $0.selector) == callback }
  }

  /// The handler a warm URL reaches: the scene delegate's in a scene app, else the app delegate's;
  /// a scene app with only the app delegate's is expected to call it, and fails as UIKit would.
  private static func urlHandler(_ report: ScanReport) -> Callback? {
    let preferred: [Callback] = report.scenes ? [.openURLContexts, .openURL] : [.openURL]
    return preferred.first { implements(report, $0) }
  }

  /// The handler a warm quick action reaches: the scene delegate's in a scene app, else the app
  /// delegate's; a scene app with only the app delegate's is expected to call it, and fails as
  /// UIKit would.
  private static func quickActionHandler(_ report: ScanReport) -> Callback? {
    let preferred: [Callback] = report.scenes ? [.scenePerformActionForShortcutItem, .performActionForShortcutItem] : [.performActionForShortcutItem]
    return preferred.first { implements(report, $0) }
  }

  /// The handler a warm universal link reaches (`continueUserActivity` names either delegate's).
  private static func activityHandler(_ report: ScanReport) -> Callback? {
    [.sceneContinueUserActivity, .continueUserActivity].first { implements(report, $0) }
  }
}
