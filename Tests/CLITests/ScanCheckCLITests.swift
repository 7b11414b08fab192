import Foundation
import Testing
import TestSupport

/// `lifesim scan --check`: the bundled battery run against the emitted app on the iOS × SDK matrix.
@Suite struct ScanCheckCLITests {
  private let fixtures = repositoryRoot.appendingPathComponent("Tests/AppScanTests/Fixtures").path

  /// A scene app in the shape the battery expects everything of: a BGTask registered at launch,
  /// the notification delegate set at launch, a URL and an activity handler on the scene delegate.
  private static let cleanApp = [
    "Clean/AppDelegate.swift": """
      import BackgroundTasks
      import UIKit
      import UserNotifications

      @main class AppDelegate: UIResponder, UIApplicationDelegate, UNUserNotificationCenterDelegate {
        func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
          BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.clean.refresh", using: nil) { task in
            task.setTaskCompleted(success: true)
          }
          UNUserNotificationCenter.current().delegate = self
          return true
        }

        func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
                                    withCompletionHandler completionHandler: @escaping () -> Void) {
          completionHandler()
        }
      }
      """,
    "Clean/SceneDelegate.swift": """
      import UIKit

      class SceneDelegate: UIResponder, UIWindowSceneDelegate {
        func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {}
        func scene(_ scene: UIScene, openURLContexts URLContexts: Set<UIOpenURLContext>) {}
        func scene(_ scene: UIScene, continue userActivity: NSUserActivity) {}
      }
      """,
    "Clean/Info.plist": """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0">
      <dict>
        <key>BGTaskSchedulerPermittedIdentifiers</key>
        <array><string>com.example.clean.refresh</string></array>
        <key>UIApplicationSceneManifest</key>
        <dict>
          <key>UISceneConfigurations</key>
          <dict>
            <key>UIWindowSceneSessionRoleApplication</key>
            <array><dict><key>UISceneDelegateClassName</key><string>$(PRODUCT_MODULE_NAME).SceneDelegate</string></dict></array>
          </dict>
        </dict>
      </dict>
      </plist>
      """,
  ]

  /// The BGTask registered from the scene delegate: the scan says it is late, and every run
  /// crashes at launch, as BGTaskScheduler throws for it.
  @Test func theLateRegistrationIsFoundStaticallyAndAsACrash() throws {
    let r = try lifesim(["scan", "SceneRegistrationApp", "--check"], cwd: fixtures)
    #expect(r.status == 1)
    #expect(r.err == "")
    let lines = r.out.split(separator: "\n").map(String.init)
    #expect(lines.contains { $0.hasPrefix("SceneRegistrationApp/Runner/SceneDelegate.swift:20: bgtask_registered_late: BGTask \"com.example.runner.fetch\"") })
    #expect(lines.contains("check: 8 scenarios on iOS 17, 26, 27 × SDK 26, 27, with scenes"))
    let crash = "stopped at line 6: home() needs a running app; the app was terminated by crash (NSInternalInconsistencyException: All launch handlers must be registered before application finishes launching) at 0.000000 s"
    #expect(lines.contains("✘ home and return [iOS 17, SDK 26]: " + crash), "\(r.out)")
    #expect(lines.contains("✘ memory kill [iOS 27, SDK 27]: " + crash))
    #expect(lines.contains("✘ background refresh com.example.runner.fetch [iOS 27, SDK 27]: " + crash.replacingOccurrences(of: "line 6", with: "line 7")))
    // The place of a failed expectation is in the battery's folder, removed with the temporary folder.
    let place = "✘ cold launch [iOS 26, SDK 27]: expect_state: expected state active, but the app is not_running  (check/cold_launch.lua:6)"
    #expect(lines.contains(place))
    // Also under a temporary folder whose path Lua shortens in its messages (`...`).
    let long = FileManager.default.temporaryDirectory.path + "/lifesim-scan-check-" + String(repeating: "long-", count: 12)
    try FileManager.default.createDirectory(atPath: long, withIntermediateDirectories: true)
    let deep = try lifesim(["scan", "SceneRegistrationApp", "--check", "--ios", "26", "--sdk", "27"], env: ["TMPDIR": long], cwd: fixtures)
    #expect(deep.out.split(separator: "\n").map(String.init).contains(place), "\(deep.out)")
    #expect(lines.last == "48 cases: 0 passed, 48 failed, 0 skipped, 0 errors (virtual time 90.00 s).")
    #expect(!lines.contains { $0.hasPrefix("wrote ") })
  }

  /// An app with nothing to find: every scenario of the battery runs, and passes, on the matrix.
  @Test func aCleanAppPassesTheWholeBatteryAndExitsZero() throws {
    let dir = try scriptFolder("scan-check-clean", Self.cleanApp)
    let tmp = dir + "/tmp"
    try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
    let r = try lifesim(["scan", "Clean", "--check"], env: ["TMPDIR": tmp], cwd: dir)
    #expect(r.status == 0, "\(r.out)\(r.err)")
    #expect(r.out.hasSuffix("""
      no diagnostics
      check: 10 scenarios on iOS 17, 26, 27 × SDK 26, 27, with scenes
      60 cases: 60 passed, 0 failed, 0 skipped, 0 errors (virtual time 8010.00 s).

      """), "\(r.out)")
    // The temporary folder, with the app, the battery and the cases' logs, is gone.
    #expect(try FileManager.default.contentsOfDirectory(atPath: tmp) == [])
  }

  /// A scene app whose only activity handler is the app delegate's: UIKit calls the scene
  /// delegate's, so the universal-link cases fail. A key both delegates share
  /// (`continueUserActivity`) is matched by the delegate that implements it.
  @Test func aUniversalLinkHandledOnlyByTheAppDelegateOfASceneAppFails() throws {
    var app = Self.cleanApp
    app["Clean/SceneDelegate.swift"] = app["Clean/SceneDelegate.swift"]!.replacingOccurrences(
      of: "  func scene(_ scene: UIScene, continue userActivity: NSUserActivity) {}\n", with: "")
    app["Clean/AppDelegate.swift"] = app["Clean/AppDelegate.swift"]!.replacingOccurrences(
      of: "  func userNotificationCenter",
      with: "  func application(_ application: UIApplication, continue userActivity: NSUserActivity, restorationHandler: @escaping ([UIUserActivityRestoring]?) -> Void) -> Bool { true }\n\n  func userNotificationCenter")
    let dir = try scriptFolder("scan-check-link", app)
    let r = try lifesim(["scan", "Clean", "--check", "--ios", "26", "--sdk", "26"], cwd: dir)
    #expect(r.status == 1)
    let lines = r.out.split(separator: "\n").map(String.init)
    #expect(lines.contains("✘ universal link [iOS 26, SDK 26]: expect_calls: covered launch() at line 6 through universal_link(\"https://lifesim-check.example/link\") at line 9: expected calls AppDelegate.continueUserActivity; got none  (check/universal_link.lua:10)"), "\(r.out)")
    #expect(lines.last == "10 cases: 9 passed, 1 failed, 0 skipped, 0 errors (virtual time 1335.00 s).")
  }

  /// Legacy background fetch in an app that lists BGTask identifiers: the scan's
  /// legacy_fetch_disabled, and the run where iOS 17 never calls the fetch handler.
  @Test func legacyFetchWithBGTaskIdentifiersIsNeverDelivered() throws {
    let r = try lifesim(["scan", "LegacyFetchApp", "--check", "--ios", "17", "--sdk", "26"], cwd: fixtures)
    #expect(r.status == 1)
    let lines = r.out.split(separator: "\n").map(String.init)
    #expect(lines.contains("✘ background fetch [iOS 17, SDK 26]: expect_calls: covered launch() at line 6 through background_launch(\"fetch\") at line 9: expected calls AppDelegate.performFetchWithCompletionHandler; got none  (check/background_fetch.lua:10)"), "\(r.out)")
    let fixed = try lifesim(["scan", "LegacyFetchAppFixed", "--check", "--ios", "17", "--sdk", "26"], cwd: fixtures)
    #expect(fixed.status == 0)
    #expect(!fixed.out.contains("background fetch"))
  }

  /// A second emit into the same folder runs only what it wrote: the battery scenario the first
  /// wrote for a task the app no longer registers is removed, and a file of the user's there is
  /// neither run nor removed.
  @Test func aSecondEmitRunsOnlyWhatItWroteAndKeepsTheUsersFiles() throws {
    let dir = try scriptFolder("scan-check-stale", Self.cleanApp)
    let first = try lifesim(["scan", "Clean", "--check", "--ios", "26", "--sdk", "26", "--emit-app", "out"], cwd: dir)
    #expect(first.status == 0, "\(first.out)\(first.err)")
    #expect(FileManager.default.fileExists(atPath: dir + "/out/check/background_refresh_1.lua"))
    try "scenario { name = \"mine\", app = \"../app.lua\" }\nlaunch()\nexpect_state(\"not_running\")\n"
      .write(toFile: dir + "/out/check/mine.lua", atomically: false, encoding: .utf8)
    var app = Self.cleanApp
    app["Clean/AppDelegate.swift"] = app["Clean/AppDelegate.swift"]!.replacingOccurrences(of: "com.example.clean.refresh", with: "com.example.clean.other")
    for (name, text) in app { try text.write(toFile: dir + "/" + name, atomically: false, encoding: .utf8) }
    let second = try lifesim(["scan", "Clean", "--check", "--ios", "26", "--sdk", "26", "--emit-app", "out", "--force"], cwd: dir)
    #expect(!FileManager.default.fileExists(atPath: dir + "/out/check/background_refresh_1.lua"))
    #expect(FileManager.default.fileExists(atPath: dir + "/out/check/mine.lua"))
    #expect(!second.out.contains("mine"), "\(second.out)")
    #expect(second.err.contains("removed out/check/background_refresh_1.lua: a battery scenario this emit does not write"), "\(second.err)")
    #expect(second.out.contains("- background refresh com.example.clean.refresh: not run, no registration of it was found"), "\(second.out)")
  }

  /// Each diagnostic says whether a run showed it through the model, with a reproduce line that
  /// runs as printed from the same folder; a code no case shows says why.
  @Test func eachDiagnosticCarriesTheRunThatConfirmsItOrWhyNone() throws {
    let r = try lifesim(["scan", "SceneRegistrationApp", "--check", "--ios", "17,27", "--sdk", "27", "--json"], cwd: fixtures)
    #expect(r.status == 1)
    let lines = r.out.split(separator: "\n").map(String.init)
    let late = try #require(lines.first { $0.contains(#""code":"bgtask_registered_late""#) })
    #expect(late.hasSuffix(#""confirmed":{"scenario":"home and return [iOS 17, SDK 27]","ios":17,"sdk":27,"reproduce":"lifesim scan SceneRegistrationApp --check --case 'home and return' --ios 17 --sdk 27"}}"#), "\(late)")
    let unlisted = try #require(lines.first { $0.contains(#""code":"bgtask_id_not_permitted""#) })
    // Every launch crashes on the late registration first, so no run reaches the refused one.
    #expect(unlisted.hasSuffix(#""confirmed":false,"why":"every case of the battery failed, and none showed it (first: "#
      + #"cold launch [iOS 17, SDK 27] failed: expect_state: expected state active, but the app is not_running)"}"#), "\(unlisted)")
    // The reproduce line, run as printed from the same folder, runs that one case and shows it again.
    let again = try shell("cd '\(fixtures)' && '\(lifesimBinary)' scan SceneRegistrationApp --check --case 'home and return' --ios 17 --sdk 27")
    #expect(again.status == 1)
    #expect(again.out.contains("  confirmed by home and return [iOS 17, SDK 27]: lifesim scan SceneRegistrationApp --check --case 'home and return' --ios 17 --sdk 27\n"), "\(again.out)")
    #expect(again.out.hasSuffix("1 case: 0 passed, 1 failed, 0 skipped, 0 errors (virtual time 0.00 s).\n"), "\(again.out)")
    let unknown = try lifesim(["scan", "SceneRegistrationApp", "--check", "--case", "nope"], cwd: fixtures)
    #expect(unknown.status == 2)
    #expect(unknown.err.hasPrefix("lifesim: --case nope: no such case of this app's battery (its cases: cold launch, home and return,"), "\(unknown.err)")
  }

  /// A quick-action handler that never calls its completion is confirmed by the warm quick
  /// action, through the model: the mirror's handler returns without calling it, as the Swift's
  /// does. The fixed twin's handler calls it, and its run shows nothing.
  @Test func aMissingQuickActionCompletionIsConfirmedByTheRun() throws {
    let r = try lifesim(["scan", "QuickActionApp", "--check", "--ios", "17", "--sdk", "26", "--json"], cwd: fixtures)
    #expect(r.status == 1)
    let finding = try #require(r.out.split(separator: "\n").first { $0.contains(#""code":"quick_action_completion_missing""#) })
    #expect(finding.hasSuffix(#""confirmed":{"scenario":"quick action [iOS 17, SDK 26]","ios":17,"sdk":26,"reproduce":"lifesim scan QuickActionApp --check --case 'quick action' --ios 17 --sdk 26"}}"#), "\(finding)")
    let fixed = try lifesim(["scan", "QuickActionAppFixed", "--check", "--ios", "17", "--sdk", "26", "--json"], cwd: fixtures)
    #expect(fixed.status == 0, "\(fixed.out)")
    let quickAction = try #require(fixed.out.split(separator: "\n").first { $0.contains(#""name":"quick action [iOS 17, SDK 26]""#) })
    #expect(quickAction.contains(#""status":"passed""#), "\(quickAction)")
  }

  /// A completion never called confirms only its own method's finding: in a scene app whose
  /// two delegates both ignore it, the run calls the scene delegate's handler, never the app
  /// delegate's, whose finding stays unconfirmed.
  @Test func aCompletionConfirmsOnlyItsOwnMethodsFinding() throws {
    let fixture = fixtures + "/QuickActionApp"
    let swift = try String(contentsOfFile: fixture + "/SceneDelegate.swift", encoding: .utf8).replacingOccurrences(
      of: "class AppDelegate: UIResponder, UIApplicationDelegate {}", with: """
        class AppDelegate: UIResponder, UIApplicationDelegate {
          func application(_ application: UIApplication, performActionFor shortcutItem: UIApplicationShortcutItem,
                           completionHandler: @escaping (Bool) -> Void) {}
        }
        """)
    let dir = try scriptFolder("scan-check-both-quick", [
      "App/SceneDelegate.swift": swift, "App/Info.plist": try String(contentsOfFile: fixture + "/Info.plist", encoding: .utf8),
    ])
    let r = try lifesim(["scan", "App", "--check", "--ios", "17", "--sdk", "26", "--json"], cwd: dir)
    let findings = r.out.split(separator: "\n").filter { $0.contains(#""code":"quick_action_completion_missing""#) }
    #expect(findings.count == 2, "\(r.out)")
    let scene = try #require(findings.first { $0.contains("SceneDelegate.windowScene") })
    let app = try #require(findings.first { $0.contains("AppDelegate.application") })
    #expect(scene.contains(#""confirmed":{"scenario":"quick action [iOS 17, SDK 26]""#), "\(scene)")
    #expect(app.hasSuffix(#""confirmed":false,"why":"no case of the battery on this matrix showed it"}"#), "\(app)")
  }

  /// Three effects under conditions the scan cannot decide: each becomes `choose(site)` in the
  /// mirror. The notification delegate's is confirmed by the cold tap that skips only it (a case
  /// with two sites false never counts: either could be what failed), and its reproduce line,
  /// run as printed, confirms it again. Each BGTask registration is confirmed by its background
  /// case after a jetsam with its condition false in the second launch alone (`SITE@2`): the first
  /// launch registers and submits, the background launch skips the registration, and the task
  /// has no handler. The fixed twin, which registers on every launch, is quiet.
  @Test func eachConditionalEffectIsConfirmedByTheRunThatSkipsOnlyIt() throws {
    let fixture = fixtures + "/ConditionalRegistrationApp"
    let plist = try String(contentsOfFile: fixture + "/Info.plist", encoding: .utf8)
      .replacingOccurrences(of: "com.example.feeds", with: "com.example.two")
    let dir = try scriptFolder("scan-check-choices", [
      "App/AppDelegate.swift": """
        import BackgroundTasks
        import UIKit
        import UserNotifications

        @main class AppDelegate: UIResponder, UIApplicationDelegate, UNUserNotificationCenterDelegate {
          func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
            if Settings.refreshEnabled {
              BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.two.refresh", using: nil) { $0.setTaskCompleted(success: true) }
            }
            if Settings.cleanupEnabled {
              BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.two.cleanup", using: nil) { $0.setTaskCompleted(success: true) }
            }
            let center: UNUserNotificationCenter? = Settings.notify ? .current() : nil
            center?.delegate = self
            return true
          }

          func scheduleCleanup() {
            try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.two.cleanup"))
          }

          func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
                                      withCompletionHandler completionHandler: @escaping () -> Void) {
            completionHandler()
          }
        }
        """,
      "App/SceneDelegate.swift": try String(contentsOfFile: fixture + "/SceneDelegate.swift", encoding: .utf8),
      "App/Info.plist": plist,
    ])
    let emit = try lifesim(["scan", "App", "--emit-app", "out"], cwd: dir)
    let app = try String(contentsOfFile: dir + "/out/app.lua", encoding: .utf8)
    #expect(emit.status == 1, "\(emit.err)")
    for site in ["AppDelegate.swift:7", "AppDelegate.swift:10", "AppDelegate.swift:14"] {
      #expect(app.contains("  if choose(\"\(site)\") then\n"), "\(app)")
    }
    let r = try lifesim(["scan", "App", "--check", "--ios", "17", "--sdk", "26", "--json"], cwd: dir)
    #expect(r.status == 1)
    let findings = r.out.split(separator: "\n").filter { $0.contains(#""code":"registered_conditionally""#) }
    #expect(findings.count == 3, "\(r.out)")
    for (line, site, scenario) in [(8, "AppDelegate.swift:7", "background refresh com.example.two.refresh after jetsam"),
                                   (11, "AppDelegate.swift:10", "background processing com.example.two.cleanup after jetsam")] {
      let finding = try #require(findings.first { $0.contains(#""line":\#(line),"#) }, "\(line)")
      let reproduce = "lifesim scan App --check --case '\(scenario)' --ios 17 --sdk 26"
      #expect(finding.hasSuffix(#""confirmed":{"scenario":"\#(scenario) [iOS 17, SDK 26, choose \#(site)@2=false]","ios":17,"sdk":26,"reproduce":"\#(reproduce)"}}"#),
              "\(finding)")
    }
    // A condition the user fixes is fixed in every launch: neither it nor its SITE@2 is varied.
    let userFixed = try lifesim(["scan", "App", "--check", "--ios", "17", "--sdk", "26", "--choose", "AppDelegate.swift:7=true", "--json"], cwd: dir)
    #expect(!userFixed.out.contains("AppDelegate.swift:7@2") && !userFixed.out.contains("AppDelegate.swift:7=false"), "\(userFixed.out)")
    let relaunch = try lifesim(["scan", "App", "--check", "--case", "background refresh com.example.two.refresh after jetsam", "--ios", "17", "--sdk", "26"], cwd: dir)
    #expect(relaunch.out.contains("  confirmed by background refresh com.example.two.refresh after jetsam [iOS 17, SDK 26, choose AppDelegate.swift:7@2=false]: "),
            "\(relaunch.out)")
    let tap = try #require(findings.first { $0.contains(#""line":14,"#) })
    let shown = #"{"scenario":"notification tap cold [iOS 17, SDK 26, choose AppDelegate.swift:14=false]","ios":17,"sdk":26,"reproduce":"lifesim scan App --check --case 'notification tap cold' --ios 17 --sdk 26"}}"#
    #expect(tap.hasSuffix(#""confirmed":"# + shown), "\(tap)")
    let again = try lifesim(["scan", "App", "--check", "--case", "notification tap cold", "--ios", "17", "--sdk", "26"], cwd: dir)
    #expect(again.status == 1)
    #expect(again.out.contains("  confirmed by notification tap cold [iOS 17, SDK 26, choose AppDelegate.swift:14=false]: "), "\(again.out)")
    let fixed = try lifesim(["scan", "ConditionalRegistrationAppFixed", "--check", "--ios", "17", "--sdk", "26"], cwd: fixtures)
    #expect(fixed.status == 0, "\(fixed.out)")
    #expect(!fixed.out.contains("choose"), "\(fixed.out)")
  }

  /// A task whose expiration handler ends it only inside a dispatch is confirmed by the case
  /// whose work outlasts the allowance (the task's choice false): the model records
  /// `task_open_after_expiration` when the handler returns. A task left open on a path, whose
  /// handler does end it, shows no such diagnostic: it is confirmed by the lock case, where the
  /// open task holds the app in the background past the point it would be suspended.
  @Test func aTaskOpenPastTheAllowanceIsConfirmedOnlyWhereTheHandlerLeavesItOpen() throws {
    let r = try lifesim(["scan", "HelperRegistrationApp", "--check", "--ios", "17", "--sdk", "26", "--json"], cwd: fixtures)
    let open = try #require(r.out.split(separator: "\n").first { $0.contains(#""code":"task_open_after_expiration""#) })
    let site = "App/BackgroundScheduler.swift:23"
    #expect(open.hasSuffix(#""confirmed":{"scenario":"home and return [iOS 17, SDK 26, choose \#(site)=false]","ios":17,"sdk":26,"reproduce":"lifesim scan HelperRegistrationApp --check --case 'home and return' --ios 17 --sdk 26"}}"#), "\(open)")
    let dir = try scriptFolder("scan-check-task-path", ["App/AppDelegate.swift": """
      import UIKit

      @main
      class AppDelegate: UIResponder, UIApplicationDelegate {
        var pending = false

        func applicationDidEnterBackground(_ application: UIApplication) {
          var task = UIBackgroundTaskIdentifier.invalid
          task = application.beginBackgroundTask(withName: "flush") { application.endBackgroundTask(task) }
          guard pending else { return }
          application.endBackgroundTask(task)
        }
      }
      """])
    let path = try lifesim(["scan", "App", "--check", "--ios", "17", "--sdk", "26", "--json"], cwd: dir)
    let finding = try #require(path.out.split(separator: "\n").first { $0.contains(#""code":"task_not_ended""#) })
    #expect(finding.hasSuffix(#""confirmed":{"scenario":"lock [iOS 17, SDK 26, choose AppDelegate.swift:9=false]","ios":17,"sdk":26,"reproduce":"lifesim scan App --check --case lock --ios 17 --sdk 26"}}"#), "\(finding)")
    // The same task ended on every path has no choice, so no case keeps it open.
    try "import UIKit\n\n@main\nclass AppDelegate: UIResponder, UIApplicationDelegate {\n  func applicationDidEnterBackground(_ application: UIApplication) {\n"
      .appending("    var task = UIBackgroundTaskIdentifier.invalid\n    task = application.beginBackgroundTask(withName: \"flush\") { application.endBackgroundTask(task) }\n")
      .appending("    application.endBackgroundTask(task)\n  }\n}\n").write(toFile: dir + "/App/AppDelegate.swift", atomically: true, encoding: .utf8)
    let ended = try lifesim(["scan", "App", "--check", "--ios", "17", "--sdk", "26"], cwd: dir)
    #expect(ended.status == 0, "\(ended.out)")
  }

  /// A launch handler with a path that never completes its task is confirmed by the background
  /// refresh that takes that path while its expiration handler (which calls code the scan does
  /// not follow) does not complete it either: the grace kill, against the same case with only
  /// the path's choice true. The prune handler's case submits its request in place of the
  /// refresh's (one refresh may be pending), so it is confirmed too, and the fixed twin is quiet.
  @Test func aLaunchHandlerThatLeavesItsTaskIncompleteIsConfirmedByTheGraceKill() throws {
    let r = try lifesim(["scan", "BGTaskNotCompletedApp", "--check", "--ios", "17", "--sdk", "26", "--json"], cwd: fixtures)
    #expect(r.status == 1)
    let findings = r.out.split(separator: "\n").filter { $0.contains(#""code":"bgtask_not_completed""#) }
    let refresh = try #require(findings.first { $0.contains(#""line":24,"#) })
    let scenario = "background refresh com.example.feeds.refresh [iOS 17, SDK 26, choose AppDelegate.swift:7=false, AppDelegate.swift:7 expiration=false]"
    let reproduce = "lifesim scan BGTaskNotCompletedApp --check --case 'background refresh com.example.feeds.refresh' --ios 17 --sdk 26"
    #expect(refresh.hasSuffix(#""confirmed":{"scenario":"\#(scenario)","ios":17,"sdk":26,"reproduce":"\#(reproduce)"}}"#), "\(refresh)")
    let prune = try #require(findings.first { $0.contains(#""line":13,"#) })
    let pruneScenario = "background refresh com.example.feeds.prune [iOS 17, SDK 26, choose AppDelegate.swift:10=false, AppDelegate.swift:10 expiration=false]"
    #expect(prune.contains(#""confirmed":{"scenario":"\#(pruneScenario)","#), "\(prune)")
    let again = try lifesim(["scan", "BGTaskNotCompletedApp", "--check", "--case", "background refresh com.example.feeds.refresh", "--ios", "17",
                             "--sdk", "26"], cwd: fixtures)
    #expect(again.out.contains("  confirmed by \(scenario): \(reproduce)\n"), "\(again.out)")
    let fixed = try lifesim(["scan", "BGTaskNotCompletedAppFixed", "--check", "--ios", "17", "--sdk", "26"], cwd: fixtures)
    #expect(fixed.status == 0, "\(fixed.out)")
  }

  /// A launch handler with no expiration handler, and one whose expiration handler does nothing:
  /// each completes its task under an `in time` choice, and the identifier's background case with
  /// it false shows the finding: the model's `bgTaskExpiredUnhandled` note for the first, the grace
  /// kill for the second. The fixed twin, whose expiration handlers complete the task, is quiet.
  @Test func anExpirationHandlerMissingOrDoingNothingIsConfirmedByTheWorkRunningPastItsTime() throws {
    let r = try lifesim(["scan", "BGTaskExpirationApp", "--check", "--ios", "17", "--sdk", "26", "--json"], cwd: fixtures)
    #expect(r.status == 1, "\(r.out)\(r.err)")
    let findings = r.out.split(separator: "\n").filter { $0.contains(#""code":"bgtask_expiration_missing""#) }
    let cases = [("7", "background refresh com.example.feeds.refresh", "AppDelegate.swift:7"),
                 ("17", "background processing com.example.feeds.prune", "AppDelegate.swift:10")]
    #expect(findings.count == cases.count)
    for (line, scenario, site) in cases {
      let finding = try #require(findings.first { $0.contains(#""line":\#(line),"#) })
      let reproduce = "lifesim scan BGTaskExpirationApp --check --case '\(scenario)' --ios 17 --sdk 26"
      #expect(finding.hasSuffix(#""confirmed":{"scenario":"\#(scenario) [iOS 17, SDK 26, choose \#(site) in time=false]","ios":17,"sdk":26,"reproduce":"\#(reproduce)"}}"#),
              "\(finding)")
    }
    let fixed = try lifesim(["scan", "BGTaskExpirationAppFixed", "--check", "--ios", "17", "--sdk", "26"], cwd: fixtures)
    #expect(fixed.status == 0, "\(fixed.out)")
  }

  /// A task the mirror cannot place (begun in code no delegate reaches) has no choice of its own:
  /// the variant that keeps the placed task open records `task_open_after_expiration`, and that
  /// must not confirm the other task's finding, which says no run reaches it.
  @Test func aTaskTheMirrorCannotPlaceIsNotConfirmedByAnotherTasksVariant() throws {
    let dir = try scriptFolder("scan-check-unplaced-task", ["App/AppDelegate.swift": """
      import UIKit

      @main
      class AppDelegate: UIResponder, UIApplicationDelegate {
        var task = UIBackgroundTaskIdentifier.invalid

        func applicationDidEnterBackground(_ application: UIApplication) {
          task = application.beginBackgroundTask(withName: "placed") {
            DispatchQueue.main.async { application.endBackgroundTask(self.task) }
          }
        }
      }

      final class Exporter {
        func export() {
          _ = UIApplication.shared.beginBackgroundTask(withName: "unplaced") {}
        }
      }
      """])
    let r = try lifesim(["scan", "App", "--check", "--ios", "17", "--sdk", "26", "--json"], cwd: dir)
    let findings = r.out.split(separator: "\n").filter { $0.hasPrefix(#"{"kind":"diagnostic""#) && $0.contains(#""code":"task_open_after_expiration""#) }
    #expect(findings.count == 2, "\(r.out)")
    let placed = try #require(findings.first { $0.contains(#""line":8,"#) })
    #expect(placed.contains(#""confirmed":{"scenario":"home and return [iOS 17, SDK 26, choose AppDelegate.swift:8=false]""#), "\(placed)")
    let unplaced = try #require(findings.first { $0.contains(#""line":16,"#) })
    #expect(unplaced.hasSuffix(#""confirmed":false,"why":"no run reaches it: the scan cannot tell which delegate method calls the beginBackgroundTask at App/AppDelegate.swift:16, so the mirror never begins that task"}"#), "\(unplaced)")
  }

  /// The battery's scenarios take the scenes from the app's manifest, not pinned, so
  /// `lifesim test` on a kept battery compares both variants.
  @Test func aKeptBatteryComparesScenes() throws {
    let dir = try scriptFolder("scan-check-scenes", Self.cleanApp)
    let emit = try lifesim(["scan", "Clean", "--check", "--ios", "17", "--sdk", "26", "--emit-app", "out"], cwd: dir)
    #expect(emit.status == 0, "\(emit.out)\(emit.err)")
    #expect(try String(contentsOfFile: dir + "/out/check/cold_launch.lua", encoding: .utf8).contains(#"scenario { name = "cold launch", app = "../app.lua" }"#))
    let r = try lifesim(["test", "out/check", "--ios", "17", "--compare", "scenes"], cwd: dir)
    #expect(!r.out.contains("Nothing to compare"), "\(r.out)")
    #expect(r.out.contains("cold launch: iOS 17: no scenes → scenes"), "\(r.out)")
  }

  /// `--ios` and `--sdk` set the matrix; a sceneless app built with SDK 27 does not launch on iOS 27.
  @Test func theMatrixIsTheUsers() throws {
    let r = try lifesim(["scan", "StoryboardApp", "--check", "--ios", "27", "--sdk", "27", "--json"], cwd: fixtures)
    #expect(r.status == 1)
    let end = try #require(r.out.split(separator: "\n").last.map(String.init))
    #expect(end.hasSuffix(#""check":{"cases":5,"passed":0,"failed":5,"skipped":0,"errors":0,"diagnostics":1,"not_run":["notification taps: not run, no notification delegate with userNotificationCenter(_:didReceive:withCompletionHandler:) is set","open URL: not run, no application(_:open:options:) or scene(_:openURLContexts:)","universal link: not run, no application(_:continue:restorationHandler:) or scene(_:continue:)"]}}"#), "\(end)")
    #expect(r.out.split(separator: "\n").filter { $0.hasPrefix(#"{"kind":"case""#) }.count == 5)
  }

  /// With --emit-app the battery stays in DIR/check, passes luacheck, and runs again with `lifesim test`.
  @Test func theKeptBatteryPassesLuacheckAndRunsAgain() throws {
    let source = try scriptFolder("scan-check-keep", Self.cleanApp)
    let dir = source + "/emitted"
    let r = try lifesim(["scan", "Clean", "--check", "--emit-app", dir, "--ios", "17", "--sdk", "26"], cwd: source)
    #expect(r.status == 0, "\(r.out)")
    #expect(r.out.hasSuffix("wrote \(dir)/check/universal_link.lua\n"
      + "mirror: app.lua carries the effects of 2 of 2 delegate methods with lifecycle effects (100 %); its opening comment lists what it left as comments\n"), "\(r.out)")
    let lint = temp("scan-check-lint")
    try? FileManager.default.removeItem(atPath: lint)
    try FileManager.default.createDirectory(atPath: lint + "/Scripts", withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: dir + "/check", toPath: lint + "/Scripts/scenarios")
    let luacheck = try runProcess("/usr/bin/env", ["luacheck", "--config", repositoryRoot.path + "/.luacheckrc", "--no-color", "Scripts"], cwd: lint)
    #expect(luacheck.status == 0, "\(luacheck.out)")
    let again = try lifesim(["test", dir + "/check", "--ios", "26", "-q", "--no-wall-time"])
    #expect(again.status == 0, "\(again.out)")
  }

  @Test func sarifDoesNotGoWithCheck() throws {
    let r = try lifesim(["scan", "StoryboardApp", "--check", "--format", "sarif"], cwd: fixtures)
    #expect(r.status == 2)
    #expect(r.out == "")
    #expect(r.err.contains("--check reports as text or JSON Lines; SARIF holds the scan's diagnostics only (scan without --check)"), "\(r.err)")
    let matrix = try lifesim(["scan", "StoryboardApp", "--ios", "17"], cwd: fixtures)
    #expect(matrix.status == 2)
    #expect(matrix.err.contains("--ios, --sdk, --case and --choose go with --check"), "\(matrix.err)")
    let choice = try lifesim(["scan", "StoryboardApp", "--choose", "AppDelegate.swift:8=false"], cwd: fixtures)
    #expect(choice.status == 2)
    #expect(choice.err.contains("--ios, --sdk, --case and --choose go with --check"), "\(choice.err)")
  }
}
