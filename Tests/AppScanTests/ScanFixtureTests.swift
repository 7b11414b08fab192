import AppScan
import EventStore
import JSON
import Foundation
import Testing
import TestSupport

/// The fixtures: apps in the shapes real ones take, written here, each with its expected report.
let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").path

/// The `--json` report of a scan, paths relative to the fixtures folder, as `lifesim scan --json` prints it.
func jsonReport(_ report: ScanResult) -> String {
  let end = JSONValue.object([("kind", .string("end")), ("command", .string("scan")), ("status", .int(Int64(report.status)))] + report.endMembers)
  let lines = (report.jsonLines + [end]).map(\.canonicalText)
  return lines.joined(separator: "\n").replacingOccurrences(of: fixtures + "/", with: "") + "\n"
}

@Suite struct ScanFixtureTests {
  @Test(arguments: ["StoryboardApp", "SceneExtensionsApp", "SwiftUIAdaptorApp", "HelperRegistrationApp",
                    "SceneRegistrationApp", "ConditionalApp", "BinaryPlistApp", "GeneratedPlistApp",
                    "MultiTargetRepo", "PreprocessedPlistApp", "NamedPlistApp", "CarPlayApp", "OwnHelpersApp",
                    "ComputedIDsApp", "DeferredSetupApp", "LegacyFetchApp", "LegacyFetchAppFixed", "QuickActionApp", "QuickActionAppFixed"])
  func reportEqualsTheExpectedReport(_ name: String) throws {
    let report = try AppScanner.scan([fixtures + "/" + name])
    let expected = try String(contentsOfFile: "\(fixtures)/\(name)/expected.jsonl", encoding: .utf8)
    #expect(jsonReport(report) == expected)
  }

  @Test func theBGTaskRegisteredFromTheSceneDelegateIsLate() throws {
    let report = try AppScanner.scan([fixtures + "/SceneRegistrationApp"]).apps[0]
    let late = report.diagnostics.filter { $0.code == "bgtask_registered_late" }
    #expect(late.map(\.place.line) == [20, 23])
    #expect(report.registrations.first?.function == "scene(_:willConnectTo:options:)")
  }

  @Test func aBinaryInfoPlistIsRead() throws {
    let report = try AppScanner.scan([fixtures + "/BinaryPlistApp"]).apps[0]
    #expect(report.permittedIdentifiers == ["com.example.legacy.refresh"])
    #expect(report.plistFacts?.backgroundModes == ["fetch"])
  }

  /// A generated Info.plist: the scenes from the target's INFOPLIST_KEY_ setting, the BGTask
  /// identifiers and background modes from the file its INFOPLIST_FILE names (Xcode ignores
  /// `INFOPLIST_KEY_UIBackgroundModes`), read through the target even when only the project
  /// and the Swift are given.
  @Test func aGeneratedInfoPlistMergesItsFile() throws {
    let report = try AppScanner.scan([fixtures + "/GeneratedPlistApp"]).apps[0]
    #expect(report.scenes && report.target == "Recipes" && report.deploymentTarget == "16.0")
    #expect(report.plist == .generated(fixtures + "/GeneratedPlistApp/Recipes.xcodeproj/project.pbxproj",
                                       merged: fixtures + "/GeneratedPlistApp/Recipes/Info.plist"))
    #expect(report.plistFacts?.backgroundModes == ["fetch", "processing"])
    #expect(report.diagnostics.map(\.code) == ["bgtask_id_not_registered"])
    let alone = try AppScanner.scan([fixtures + "/GeneratedPlistApp/Recipes.xcodeproj", fixtures + "/GeneratedPlistApp/Recipes/AppDelegate.swift",
                                     fixtures + "/GeneratedPlistApp/Recipes/SceneDelegate.swift"]).apps[0]
    #expect(alone.plist == report.plist && alone.permittedIdentifiers == report.permittedIdentifiers)
  }

  @Test func methodsOfOtherTypesThatShareADelegateName() throws {
    let report = try AppScanner.scan([fixtures + "/SceneExtensionsApp"]).apps[0]
    #expect(!report.methods.contains { $0.type == "LifecycleObserver" })
    #expect(!report.methods.contains { $0.place.file.contains("/Pods/") || $0.place.file.contains("/build/") })
  }
}

@Suite struct LuaAppWriterTests {
  @Test(arguments: ["HelperRegistrationApp", "SceneExtensionsApp", "ConditionalApp", "DeferredSetupApp"])
  func theEmittedAppIsTheExpectedOne(_ name: String) throws {
    let report = try AppScanner.scan([fixtures + "/" + name]).apps[0]
    let app = LuaAppWriter(report: report, name: name, root: fixtures + "/" + name).app
    #expect(app == (try String(contentsOfFile: "\(fixtures)/\(name)/expected-app.lua", encoding: .utf8)))
  }

  /// The emitted app carries the project's deployment target, which gates the runtime's
  /// handler_never_called as it gates the scan's.
  @Test func theEmittedAppKeepsTheDeploymentTarget() throws {
    let report = try AppScanner.scan([fixtures + "/ComputedIDsApp"]).apps[0]
    let app = LuaAppWriter(report: report, name: report.target, root: fixtures + "/ComputedIDsApp").app
    #expect(app.contains("app { name = \"Tasks\", root = \"Root\", sceneManifest = \"empty\", minimumIOS = 15, bgTaskIdentifiers = {"))
  }

  /// Work the Swift does only when a notification is posted is not run at every launch.
  @Test func workInsideAnObserverIsAComment() throws {
    let root = temporaryPath("appscan-observer", "App")
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    try """
      import BackgroundTasks
      import UIKit

      @main
      class AppDelegate: UIResponder, UIApplicationDelegate {
        func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
          NotificationCenter.default.addObserver(forName: .accountDidSignIn, object: nil, queue: .main) { _ in
            BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.sync", using: nil) { $0.setTaskCompleted(success: true) }
          }
          return true
        }
      }
      """.write(toFile: root + "/AppDelegate.swift", atomically: false, encoding: .utf8)
    let report = try AppScanner.scan([root]).apps[0]
    let app = LuaAppWriter(report: report, name: "App", root: root).app
    #expect(app.contains("""
        -- not lowered: inside NotificationCenter.default.addObserver, which runs only when its notification is posted
        -- BGTaskScheduler:register("com.example.sync", function(task)
        -- the Swift's launch handler at AppDelegate.swift:8
        -- task.expirationHandler = function() task:setTaskCompleted(false) end
        -- task:setTaskCompleted(true)
        -- end)
        -- a refresh request, as the Swift submits one somewhere the scan does not follow (bg_task runs it)
        -- BGTaskScheduler:submit { id = "com.example.sync", kind = "refresh" }
      """), "\(app)")
    #expect(!app.contains("after(0"))
    // The app's opening comment says so, and the launch method is not counted as lowered.
    let summary = LuaAppWriter(report: report, name: "App", root: root).mirror.summary
    #expect(summary.share == "the effects of 0 of 1 delegate method with lifecycle effects (0 %)")
    #expect(app.contains("""
      -- Methods: the effects of 0 of 1 delegate method with lifecycle effects (0 %).
      -- Left as comments:
      --   register(forTaskWithIdentifier:) at AppDelegate.swift:8 (inside a notification observer)
      """), "\(app)")
  }

  /// A completion handler the Swift never calls is not called by the mirror either; the fixed
  /// twin's, called on every path, is.
  @Test func theCompletionIsCalledAsTheSwiftCallsIt() throws {
    func stub(_ name: String) throws -> String {
      let report = try AppScanner.scan([fixtures + "/" + name]).apps[0]
      let app = LuaAppWriter(report: report, name: name, root: fixtures + "/" + name).app
      let start = try #require(app.range(of: "function SceneDelegate.performActionForShortcutItem(...)"))
      return String(app[start.lowerBound...]).components(separatedBy: "\nend")[0]
    }
    #expect(try stub("QuickActionApp") == """
      function SceneDelegate.performActionForShortcutItem(...)
        log("SceneDelegate.performActionForShortcutItem")
        -- the Swift never calls its completionHandler (SceneDelegate.swift:10): nor does the mirror
      """)
    #expect(try stub("QuickActionAppFixed") == """
      function SceneDelegate.performActionForShortcutItem(...)
        log("SceneDelegate.performActionForShortcutItem")
        complete(...)
      """)
  }

  /// A background task the Swift leaves open on a path: the work it covers is a choice whose
  /// false branch keeps the task open past the allowance, as that path does, so the method
  /// counts as lowered; the choice guards the task and each path.
  @Test func aTaskLeftOpenOnAPathIsTheChoicesFalseBranch() throws {
    let root = temporaryPath("appscan-open-task", "App")
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    try """
      import UIKit

      @main
      class AppDelegate: UIResponder, UIApplicationDelegate {
        var pending = false
        func applicationDidEnterBackground(_ application: UIApplication) {
          let task = application.beginBackgroundTask { application.endBackgroundTask(.invalid) }
          guard pending else { return }
          application.endBackgroundTask(task)
        }
      }
      """.write(toFile: root + "/AppDelegate.swift", atomically: false, encoding: .utf8)
    let report = try AppScanner.scan([root]).apps[0]
    let (app, summary) = LuaAppWriter(report: report, name: "App", root: root).mirror
    #expect(app.contains("""
        log("AppDelegate.applicationDidEnterBackground")
        -- beginBackgroundTask at AppDelegate.swift:7
        local task
        task = UIApplication.shared:beginBackgroundTask("task", function()
          UIApplication.shared:endBackgroundTask(task)
        end)
        -- the work it covers: true ends the task a second later, false keeps it open past the allowance
        -- (as the Swift does on the paths that leave it open, at AppDelegate.swift:8)
        if choose("AppDelegate.swift:7") then
          after(1, function() UIApplication.shared:endBackgroundTask(task) end)
        end
      """), "\(app)")
    #expect(summary.share == "the effects of 1 of 1 delegate method with lifecycle effects (100 %)")
    #expect(summary.choices.map { "\($0.site) \($0.guards.line)" } == ["AppDelegate.swift:7 7", "AppDelegate.swift:7 8"])
  }

  /// The opening comment of an app whose effects were all lowered counts each kind, and each
  /// delegate method once however many `#if` branches implement it.
  @Test func theOpeningCommentCountsWhatWasLowered() throws {
    let report = try AppScanner.scan([fixtures + "/DeferredSetupApp"]).apps[0]
    let summary = LuaAppWriter(report: report, name: "DeferredSetupApp", root: fixtures + "/DeferredSetupApp").mirror.summary
    #expect(summary.registrations == 2 && summary.commented.isEmpty && summary.notModelled.isEmpty)
    #expect(summary.methodsLowered == summary.methodsWithEffects && summary.methodsWithEffects > 0)
    #expect(summary.share == "the effects of 2 of 2 delegate methods with lifecycle effects (100 %)")
  }

  /// App source is hostile: an identifier, a type name and a path reach Lua only escaped.
  @Test func swiftTextReachesLuaEscaped() throws {
    let root = temporaryPath("appscan-lua", "Evil\nApp")
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    try #"""
      @main class AppDelegate: UIResponder, UIApplicationDelegate {
        func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
          BGTaskScheduler.shared.register(forTaskWithIdentifier: #"x") os.exit() --"#, using: nil) { _ in }
          return true
        }
      }
      """#.write(toFile: root + "/AppDelegate.swift", atomically: false, encoding: .utf8)
    let report = try AppScanner.scan([root]).apps[0]
    #expect(report.registrations.map(\.identifier) == [#"x") os.exit() --"#])
    let app = LuaAppWriter(report: report, name: "a\"b\n", root: "/elsewhere").app
    #expect(app.contains(#"BGTaskScheduler:register("x\") os.exit() --", function(task)"#))
    #expect(app.contains(#"app { name = "a\"b\n", root = "Root" }"#))
    #expect(app.contains("--   at " + root.replacingOccurrences(of: "\n", with: "\\n") + "/AppDelegate.swift:2"))
  }
}
