import AppScan
import Foundation
import Testing
import TestSupport

/// `lifesim scan --check`'s battery: which scenarios run for an app, and their text.
@Suite struct CheckBatteryTests {
  @Test func theSceneRegistrationAppGetsItsRefreshAndItsNotificationTaps() throws {
    let report = try AppScanner.scan([fixtures + "/SceneRegistrationApp"]).apps[0]
    let battery = CheckBattery.scenarios(for: report)
    #expect(battery.run.map(\.name) == ["cold launch", "home and return", "lock", "memory kill", "force quit",
                                        "background refresh com.example.runner.fetch", "notification tap cold", "notification tap warm"])
    #expect(battery.run.map(\.fileName).count == Set(battery.run.map(\.fileName)).count)
    #expect(battery.notRun == [
      "open URL: not run, no application(_:open:options:) or scene(_:openURLContexts:)",
      "universal link: not run, no application(_:continue:restorationHandler:) or scene(_:continue:)",
    ])
  }

  /// A permitted identifier nobody registers has no request to run: it is listed, not run.
  /// Two refresh identifiers each run in their own case, the second submitted in place of the
  /// first (one refresh request may be pending).
  @Test func aPermittedIdentifierNeverRegisteredIsNotRun() throws {
    let report = try AppScanner.scan([fixtures + "/HelperRegistrationApp"]).apps[0]
    let battery = CheckBattery.scenarios(for: report)
    #expect(battery.run.filter { $0.template == "background_refresh" }.map(\.locals) == [
      [CheckBattery.Local(name: "taskIdentifier", value: "com.example.notes.refresh")],
      [CheckBattery.Local(name: "taskIdentifier", value: "com.example.notes.cleanup")],
    ])
    #expect(battery.notRun.prefix(1) == ["background refresh com.example.notes.sync: not run, no registration of it was found"])
    let requests = MirrorRequests(report)
    let text = { (choices: [(site: String, value: Bool)]) in choices.map { "\($0.site)=\($0.value)" } }
    #expect(text(requests.choices()) == ["submit com.example.notes.refresh=true", "submit com.example.notes.cleanup=false"])
    #expect(text(requests.choices(running: "com.example.notes.cleanup"))
      == ["submit com.example.notes.refresh=false", "submit com.example.notes.cleanup=true"])
    #expect(text(requests.choices(running: "com.example.notes.refresh")) == text(requests.choices()))
  }

  /// Each identifier gets the kind of request the Swift makes, within iOS's pending limits, and
  /// one registered in both branches of an `#if` is registered once.
  @Test func theMirrorSubmitsWhatTheSwiftMakesAndRegistersEachIdentifierOnce() throws {
    let root = temporaryPath("appscan-requests", "App")
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    try """
      import BackgroundTasks
      import UIKit

      @main
      class AppDelegate: UIResponder, UIApplicationDelegate {
        func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
      #if DEBUG
          BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.sync", using: nil) { $0.setTaskCompleted(success: true) }
      #else
          BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.sync", using: nil) { $0.setTaskCompleted(success: true) }
      #endif
          BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.prune", using: nil) { $0.setTaskCompleted(success: true) }
          return true
        }

        func schedule() {
          try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.prune"))
        }
      }
      """.write(toFile: root + "/AppDelegate.swift", atomically: false, encoding: .utf8)
    try "<plist><dict><key>BGTaskSchedulerPermittedIdentifiers</key><array><string>com.example.sync</string><string>com.example.prune</string><string>com.example.sync</string></array></dict></plist>"
      .write(toFile: root + "/Info.plist", atomically: false, encoding: .utf8)
    let report = try AppScanner.scan([root]).apps[0]
    let app = LuaAppWriter(report: report, name: "App", root: root).app
    #expect(app.components(separatedBy: "BGTaskScheduler:register(\"com.example.sync\"").count == 2)
    #expect(app.contains("BGTaskScheduler:submit { id = \"com.example.sync\", kind = \"refresh\" }"))
    #expect(app.contains("BGTaskScheduler:submit { id = \"com.example.prune\", kind = \"processing\" }"))
    #expect(app.contains("registers com.example.sync as AppDelegate.swift:8 does: mirrored once"))
    #expect(CheckBattery.scenarios(for: report).run.filter { $0.template == "background_refresh" }.map(\.name)
      == ["background refresh com.example.sync", "background processing com.example.prune"])
  }

  /// A scene app's URL handler is the scene delegate's; with only the app delegate's, the battery
  /// expects that one, and the run fails as UIKit never calls it.
  @Test func theURLHandlerFollowsTheScenes() throws {
    let root = temporaryPath("check-battery", "links")
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    try #"""
      @main class AppDelegate: UIResponder, UIApplicationDelegate {
        func application(_ application: UIApplication, configurationForConnecting session: UISceneSession, options: UIScene.ConnectionOptions) -> UISceneConfiguration { .init() }
        func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool { true }
        func application(_ application: UIApplication, continue userActivity: NSUserActivity, restorationHandler: @escaping ([UIUserActivityRestoring]?) -> Void) -> Bool { true }
      }
      class SceneDelegate: UIResponder, UIWindowSceneDelegate {
        func scene(_ scene: UIScene, openURLContexts URLContexts: Set<UIOpenURLContext>) {}
      }
      """#.write(toFile: root + "/App.swift", atomically: true, encoding: .utf8)
    let report = try AppScanner.scan([root]).apps[0]
    #expect(report.scenes)
    let links = CheckBattery.scenarios(for: report).run.filter { ["open_url", "universal_link"].contains($0.template) }
    #expect(links.map(\.locals) == [[CheckBattery.Local(name: "handler", value: "SceneDelegate.openURLContexts")],
                                    [CheckBattery.Local(name: "handler", value: "AppDelegate.continueUserActivity")]])
  }

  /// The scenario line names the app and the scenes; a value from the Swift reaches Lua escaped.
  @Test func theScenarioTextEscapesWhatComesFromTheSwift() {
    let scenario = CheckBattery.Scenario(template: "background_refresh", name: "background refresh a\"]]\n",
                                         fileName: "background_refresh_1.lua",
                                         locals: [CheckBattery.Local(name: "taskIdentifier", value: "a\"]]\n")])
    let text = CheckBattery.text(scenario, template: "bg_task(taskIdentifier)", scenes: false, app: "../app.lua")
    #expect(text == """
      -- Written by `lifesim scan --check` from its battery (background_refresh.lua.in) for the app it wrote.
      scenario { name = "background refresh a\\"]]\\n", scenes = false, app = "../app.lua" }
      local taskIdentifier = "a\\"]]\\n"

      bg_task(taskIdentifier)

      """)
  }

  /// Every template the battery names is bundled, and every bundled one is named.
  @Test func theTemplatesAreTheBundledFiles() throws {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Scripts/scan").standardized.path
    let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".lua.in") }
    #expect(Set(files) == Set(CheckBattery.templates.map { $0 + ".lua.in" }))
  }
}
