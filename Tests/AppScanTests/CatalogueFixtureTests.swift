import AppScan
import Foundation
import Testing
import TestSupport

/// Each code of the catalogue has a fixture pair written here: the fixture reports exactly that
/// code at the lines a reader points at, and its fixed twin reports nothing.
@Suite struct CatalogueFixtureTests {
  static let pairs: [(fixture: String, code: String, places: [String])] = [
    ("TaskNotEndedApp", "task_not_ended", ["DraftUploader.swift:12", "DraftUploader.swift:14", "DraftUploader.swift:26", "DraftUploader.swift:35"]),
    ("AsyncExpirationApp", "task_open_after_expiration", ["SyncCoordinator.swift:7"]),
    ("BGTaskNotCompletedApp", "bgtask_not_completed", ["AppDelegate.swift:13", "AppDelegate.swift:24", "CleanupScheduler.swift:14"]),
    ("BGTaskExpirationApp", "bgtask_expiration_missing", ["AppDelegate.swift:7", "AppDelegate.swift:17"]),
    ("ConditionalRegistrationApp", "registered_conditionally", ["AppDelegate.swift:9", "AppDelegate.swift:15"]),
    ("AppWindowApp", "app_window_nil", ["AppDelegate.swift:8", "Banner.swift:5"]),
    ("SceneClassMissingApp", "scene_class_missing", ["Info.plist:12"]),
    ("LegacyFetchApp", "legacy_fetch_disabled", ["AppDelegate.swift:13"]),
    ("QuickActionApp", "quick_action_completion_missing", ["SceneDelegate.swift:10"]),
  ]

  @Test(arguments: pairs.map(\.fixture))
  func theFixtureReportsExactlyItsCodeAtItsLines(_ fixture: String) throws {
    let pair = Self.pairs.first { $0.fixture == fixture }!
    let result = try AppScanner.scan([fixtures + "/" + fixture])
    #expect(result.diagnostics.map { "\($0.code) \(($0.place.file as NSString).lastPathComponent):\($0.place.line)" }
      == pair.places.map { "\(pair.code) \($0)" })
  }

  @Test(arguments: pairs.map { $0.fixture + "Fixed" })
  func theFixedTwinReportsNothing(_ fixture: String) throws {
    let result = try AppScanner.scan([fixtures + "/" + fixture])
    #expect(result.diagnostics.map(\.code) == [])
    #expect(result.status == 0)
  }

  /// Where the scan does not follow the code it says so with `--explain`, and gives no finding.
  @Test func whatIsNotFollowedIsExplainedNotGuessed() throws {
    let root = temporaryPath("appscan-explain", "App")
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    try """
      import BackgroundTasks
      import UIKit

      @main
      class AppDelegate: UIResponder, UIApplicationDelegate {
        func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
          BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.sync", using: nil) { task in
            SyncService.shared.run(task)
          }
          return true
        }
      }
      """.write(toFile: root + "/AppDelegate.swift", atomically: false, encoding: .utf8)
    var result = try AppScanner.scan([root])
    result.explain = true
    #expect(result.diagnostics.isEmpty)
    #expect(result.apps[0].notFollowed.map { "\($0.code) \($0.place.line): \($0.why)" }
      == ["bgtask_expiration_missing 7: it hands the task to run, which the scanned files do not define as a function taking a BGTask"])
    #expect(result.textLines.suffix(2) == ["not followed (no finding given, the scan does not guess):",
                                           "  \(root)/AppDelegate.swift:7: bgtask_expiration_missing: it hands the task to run, which the scanned files do not define as a function taking a BGTask"])
  }
}

/// The paths the scan does not call broken: a check of the task itself, `guard let self`, a
/// task held in a property with the type's own code called, and the task under a cast's name.
@Suite struct PathPrecisionTests {
  @Test func pathsThatDoNotProvablyBreakTheRuleGiveNoFinding() throws {
    let root = temporaryPath("appscan-paths", "App")
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    try """
      import BackgroundTasks
      import UIKit

      @main
      class AppDelegate: UIResponder, UIApplicationDelegate {
        var saveTask = UIBackgroundTaskIdentifier.invalid

        func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
          BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
            guard let refresh = task as? BGAppRefreshTask else { return }
            self.handle(refresh)
          }
          return true
        }

        func handle(_ task: BGAppRefreshTask) {
          task.expirationHandler = { task.setTaskCompleted(success: false) }
          Store.shared.refresh { [weak self] in
            guard let self else { return }
            self.log()
            task.setTaskCompleted(success: true)
          }
        }

        func upload() {
          let id = UIApplication.shared.beginBackgroundTask { }
          guard id != .invalid else { return }
          Store.shared.upload()
          UIApplication.shared.endBackgroundTask(id)
        }

        func save() {
          saveTask = UIApplication.shared.beginBackgroundTask { UIApplication.shared.endBackgroundTask(self.saveTask) }
          finishIfIdle()
          if Store.shared.isEmpty { return }
          UIApplication.shared.endBackgroundTask(saveTask)
        }
      }
      """.write(toFile: root + "/AppDelegate.swift", atomically: false, encoding: .utf8)
    let report = try AppScanner.scan([root]).apps[0]
    // Only the empty expiration handler of upload()'s task is a finding.
    #expect(report.diagnostics.map { "\($0.code) \($0.place.line)" } == ["task_open_after_expiration 26"])
  }

  /// A `throw` a `catch` handles, an expiration handler that sets a flag, an expiration handler
  /// the closure sets before handing the task on, and a `guard` whose else ends the process
  /// give no finding; a `default: break` that skips the end does.
  @Test func caughtThrowsFlagsHandedOnTasksAndFatalGuardsAreNotFindings() throws {
    let root = temporaryPath("appscan-paths-2", "App")
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    try """
      import BackgroundTasks
      import UIKit

      @main
      class AppDelegate: UIResponder, UIApplicationDelegate {
        var stop = false

        func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
          guard let config = Config.load() else { fatalError("no configuration") }
          BGTaskScheduler.shared.register(forTaskWithIdentifier: config.refreshID, using: nil) { task in
            task.expirationHandler = { task.setTaskCompleted(success: false) }
            self.refresh(task: task as! BGAppRefreshTask)
          }
          BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.prune", using: nil) { task in
            task.expirationHandler = { self.stop = true }
            Store.shared.prune(until: { self.stop }) { task.setTaskCompleted(success: true) }
          }
          return true
        }

        func refresh(task: BGAppRefreshTask) { Feed.shared.refresh { task.setTaskCompleted(success: $0) } }

        func upload(_ data: Data?) {
          let id = UIApplication.shared.beginBackgroundTask { UIApplication.shared.endBackgroundTask(id) }
          do {
            guard let data else { throw UploadError.noData }
            try Uploader.send(data)
          } catch {
            Log.failed(error)
          }
          UIApplication.shared.endBackgroundTask(id)
        }

        func sync(_ result: SyncResult) {
          let id = UIApplication.shared.beginBackgroundTask { UIApplication.shared.endBackgroundTask(id) }
          switch result {
          case .changed: UIApplication.shared.endBackgroundTask(id)
          default: break
          }
        }
      }
      """.write(toFile: root + "/AppDelegate.swift", atomically: false, encoding: .utf8)
    let report = try AppScanner.scan([root]).apps[0]
    #expect(report.diagnostics.map { "\($0.code) \($0.place.line)" } == ["task_not_ended 36"])
  }
}

@Suite struct QuickActionPathTests {
  /// A quick-action handler that calls its completion handler on some paths only is reported
  /// at its `func` line, naming the path; one that hands the handler on is not.
  @Test func aPathThatSkipsTheCompletionIsReportedAtTheFuncLine() throws {
    let root = temporaryPath("appscan-quick-action", "App")
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    try """
      import UIKit

      class SceneDelegate: UIResponder, UIWindowSceneDelegate {
        func windowScene(_ windowScene: UIWindowScene, performActionFor shortcutItem: UIApplicationShortcutItem,
                         completionHandler: @escaping (Bool) -> Void) {
          guard let action = QuickAction(rawValue: shortcutItem.type) else { return }
          switch action {
          case .compose: Router.shared.compose(then: completionHandler)
          case .search: completionHandler(Router.shared.search())
          }
        }
      }
      """.write(toFile: root + "/SceneDelegate.swift", atomically: false, encoding: .utf8)
    let report = try AppScanner.scan([root]).apps[0]
    #expect(report.diagnostics.map { "\($0.code) \($0.place.line): \($0.message)" }
      == ["quick_action_completion_missing 4: SceneDelegate.windowScene(_:performActionFor:completionHandler:) leaves without calling its completionHandler on the path at line 6: UIKit is not told whether the quick action was handled"])
  }
}

@Suite struct ReaderResolutionTests {
  /// A bare `taskIdentifier` is the constant of the type it is written in, as Swift looks it up,
  /// though another type has a constant of the same name: both registrations are named.
  @Test func aBareNameResolvesInTheTypeItIsWrittenIn() throws {
    let report = try AppScanner.scan([fixtures + "/BGTaskNotCompletedAppFixed"]).apps[0]
    #expect(report.registrations.map { $0.identifier ?? "?" }
      == ["com.example.feeds.refresh", "com.example.feeds.prune", "com.example.feeds.cleanup", "com.example.feeds.archive"])
  }

  /// A nested completion function counts where it is called, not where it is declared: a
  /// handler that only declares one and calls it from a closure has no expiration handler, and a
  /// closure that returns before calling it leaves the task open.
  @Test func aNestedCompletionFunctionCountsWhereItIsCalled() throws {
    let root = temporaryPath("appscan-nested-completion", "App")
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    try """
      import BackgroundTasks
      import UIKit

      @main
      class AppDelegate: UIResponder, UIApplicationDelegate {
        func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
          BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.sync", using: nil) { task in
            func finish(_ ok: Bool) { task.setTaskCompleted(success: ok) }
            Store.shared.refresh { ok in
              guard ok else { return }
              finish(true)
            }
          }
          return true
        }
      }
      """.write(toFile: root + "/AppDelegate.swift", atomically: false, encoding: .utf8)
    let report = try AppScanner.scan([root]).apps[0]
    #expect(report.diagnostics.map { "\($0.code) \($0.place.line)" } == ["bgtask_expiration_missing 7", "bgtask_not_completed 10"])
  }

  /// `configuration.delegateClass = T.self` on `UISceneConfiguration(name: "Legacy", …)` replaces
  /// the class the manifest names for "Legacy": UIKit never looks for it, so no finding (a note
  /// says why), while a configuration the code leaves alone still gets one.
  @Test func aDelegateClassSetInCodeReplacesTheManifests() throws {
    let root = temporaryPath("appscan-delegate-class", "App")
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    let entry = { (name: String, delegate: String) in
      "<dict><key>UISceneConfigurationName</key><string>\(name)</string><key>UISceneDelegateClassName</key><string>\(delegate)</string></dict>"
    }
    try """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0">
      <dict><key>UIApplicationSceneManifest</key><dict><key>UISceneConfigurations</key><dict>
      <key>UIWindowSceneSessionRoleApplication</key><array>
      \(entry("Legacy", "RemovedSceneDelegate"))
      \(entry("Other", "GoneSceneDelegate"))
      </array></dict></dict></dict>
      </plist>
      """.write(toFile: root + "/Info.plist", atomically: false, encoding: .utf8)
    try """
      import UIKit

      @main
      class AppDelegate: UIResponder, UIApplicationDelegate {
        func application(_ application: UIApplication, configurationForConnecting session: UISceneSession,
                         options: UIScene.ConnectionOptions) -> UISceneConfiguration {
          let configuration = UISceneConfiguration(name: "Legacy", sessionRole: session.role)
          configuration.delegateClass = SceneDelegate.self
          return configuration
        }

        func register(_ plugin: Plugin) {
          plugin.delegateClass = PluginDelegate.self   // not a scene configuration: says nothing of the manifest
        }
      }

      class SceneDelegate: UIResponder, UIWindowSceneDelegate {}
      """.write(toFile: root + "/AppDelegate.swift", atomically: false, encoding: .utf8)
    let report = try AppScanner.scan([root]).apps[0]
    #expect(report.diagnostics.map { "\($0.code) \($0.place.line): \($0.message)" }
      == ["scene_class_missing 6: the scene manifest names GoneSceneDelegate as a scene delegate, and no scanned file defines it: UIKit cannot make the scene's delegate"])
    #expect(report.notFollowed.map { "\($0.code) \($0.place.line): \($0.why)" }
      == ["scene_class_missing 8: the scene manifest names RemovedSceneDelegate, which no scanned file defines; the code sets the delegateClass of configuration \"Legacy\", so UIKit does not look for it"])
  }
}
