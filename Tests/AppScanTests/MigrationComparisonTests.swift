import AppScan
import Foundation
import Testing

/// `scan --compare`: each migration fixture (written here) has a BEFORE, an AFTER that
/// regresses, and a FIXED that migrates correctly and reports no regression.
@Suite struct MigrationComparisonTests {
  static let cases: [(fixture: String, changes: [String])] = [
    ("BackgroundHandler", ["handler_silenced true Notes/AppDelegate.swift:15 Notes/AppDelegate.swift:10",
                           "handler_silenced true Notes/AppDelegate.swift:19 Notes/AppDelegate.swift:14"]),
    ("WorkLost", ["work_lost true Notes/AppDelegate.swift:19 Notes/SceneDelegate.swift:17",
                  "handler_silenced false Notes/AppDelegate.swift:15 Notes/SceneDelegate.swift:13",
                  "handler_silenced false Notes/AppDelegate.swift:19 Notes/SceneDelegate.swift:17"]),
    ("URLHandler", ["payload_lost true Notes/AppDelegate.swift:15 Notes/AppDelegate.swift:10",
                    "payload_lost true Notes/AppDelegate.swift:15 Notes/SceneDelegate.swift:6"]),
    ("ConnectionPayloads", ["payload_lost true Notes/AppDelegate.swift:15 Notes/SceneDelegate.swift:6",
                            "payload_lost true Notes/AppDelegate.swift:21 Notes/SceneDelegate.swift:6"]),
    ("AlertOnAppWindow", ["app_window_nil true none Notes/Alerts.swift:6"]),
    ("WindowWithoutScene", ["window_without_scene true Notes/AppDelegate.swift:9 Notes/AppDelegate.swift:9"]),
    ("BothDelegates", ["work_duplicated true none Notes/SceneDelegate.swift:6"]),
    ("RegistrationMoved", ["moved_after_launch true Notes/AppDelegate.swift:9 Notes/SceneDelegate.swift:10"]),
    ("Restoration", ["restoration_changed true Notes/AppDelegate.swift:15 none"]),
    ("NotificationResponse", ["payload_lost true Notes/AppDelegate.swift:16 none"]),
    ("SwiftUIQuickAction", ["payload_lost true Notes/MainSceneDelegate.swift:15 none",
                            "payload_lost true Notes/MainSceneDelegate.swift:15 none"]),
  ]

  static func compare(_ fixture: String, _ after: String) throws -> MigrationReport {
    let root = fixtures + "/Migrations/" + fixture
    return try MigrationReport(before: try AppScanner.scan([root + "/before"]), beforeRoot: root + "/before",
                           after: try AppScanner.scan([root + "/" + after]), afterRoot: root + "/" + after)
  }

  static func shown(_ place: SourcePlace?) -> String { place.map { "\($0.file):\($0.line)" } ?? "none" }

  @Test(arguments: cases.map(\.fixture))
  func theRegressionsAreExactlyTheFixtures(_ fixture: String) throws {
    let report = try Self.compare(fixture, "after")
    #expect(report.changes.map { "\($0.kind.rawValue) \($0.regression) \(Self.shown($0.before)) \(Self.shown($0.after))" }
      == Self.cases.first { $0.fixture == fixture }!.changes)
    #expect(report.status == 1)
  }

  @Test(arguments: cases.map(\.fixture))
  func theCorrectMigrationReportsNoRegression(_ fixture: String) throws {
    let report = try Self.compare(fixture, "fixed")
    #expect(report.regressions == 0, "\(report.textLines)")
    #expect(report.status == 0)
  }

  /// Several targets pair by name; a target on one side only is listed, not compared.
  @Test func targetsPairByName() throws {
    let both = try AppScanner.scan([fixtures + "/MultiTargetRepo"])
    let same = try MigrationReport(before: both, beforeRoot: fixtures + "/MultiTargetRepo", after: both, afterRoot: fixtures + "/MultiTargetRepo")
    #expect(same.changes.isEmpty && same.unpaired.isEmpty)
    var one = both
    one.apps.removeLast()
    let report = try MigrationReport(before: both, beforeRoot: fixtures, after: one, afterRoot: fixtures)
    #expect(report.unpaired == ["NotesLite: in BEFORE only"])
  }

  /// Work moved into a helper the scene delegate calls is not lost; a handler whose work now
  /// runs from another scene-delegate method is a move, not a regression.
  @Test func workMovedIntoHelpersIsFollowed() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("appscan-helper-move-\(getpid())").path
    try? FileManager.default.removeItem(atPath: root)
    let files = [
      "before/AppDelegate.swift": """
        import UIKit
        @main class AppDelegate: UIResponder, UIApplicationDelegate {
          func applicationDidEnterBackground(_ application: UIApplication) { Store.shared.save() }
          func applicationDidBecomeActive(_ application: UIApplication) { Feeds.shared.refreshIfStale() }
        }
        final class Store { static let shared = Store(); func save() {} }
        final class Feeds { static let shared = Feeds(); func refreshIfStale() {} }
        """,
      "after/AppDelegate.swift": """
        import UIKit
        @main class AppDelegate: UIResponder, UIApplicationDelegate {
          func application(_ application: UIApplication, configurationForConnecting session: UISceneSession, options: UIScene.ConnectionOptions) -> UISceneConfiguration { .init() }
          func prepareForBackground() { Store.shared.save() }
          func prepareForForeground() { Feeds.shared.refreshIfStale() }
        }
        final class Store { static let shared = Store(); func save() {} }
        final class Feeds { static let shared = Feeds(); func refreshIfStale() {} }
        """,
      "after/SceneDelegate.swift": """
        import UIKit
        class SceneDelegate: UIResponder, UIWindowSceneDelegate {
          func sceneDidEnterBackground(_ scene: UIScene) { appDelegate.prepareForBackground() }
          func sceneWillEnterForeground(_ scene: UIScene) { appDelegate.prepareForForeground() }
        }
        """,
    ]
    for (name, text) in files {
      try FileManager.default.createDirectory(atPath: (root + "/" + name as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try text.write(toFile: root + "/" + name, atomically: false, encoding: .utf8)
    }
    defer { try? FileManager.default.removeItem(atPath: root) }
    let report = try MigrationReport(before: try AppScanner.scan([root + "/before"]), beforeRoot: root + "/before",
                                 after: try AppScanner.scan([root + "/after"]), afterRoot: root + "/after")
    #expect(report.changes.map { "\($0.kind.rawValue) \($0.regression): \($0.message)" } == [
      "handler_silenced false: AppDelegate.applicationDidEnterBackground(_:) moved to SceneDelegate.sceneDidEnterBackground(_:)",
      "handler_silenced false: AppDelegate.applicationDidBecomeActive(_:) is no longer called; its work (refreshIfStale) now runs from SceneDelegate.sceneWillEnterForeground(_:)",
    ])
  }

  /// SARIF holds the regressions, located in AFTER, with a rule for each change kind.
  @Test func sarifHoldsTheRegressionsInAfter() throws {
    let sarif = try Self.compare("WorkLost", "after").sarif(toolVersion: "0", afterRoot: "/repo/after").canonicalText
    #expect(sarif.contains(#""results":[{"ruleId":"work_lost","ruleIndex":6,"level":"error","message":{"text":"AppDelegate.applicationWillEnterForeground(_:) called reconnect(); SceneDelegate.sceneWillEnterForeground(_:), which replaces it, does not, nor any function it calls"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"Notes/SceneDelegate.swift","uriBaseId":"%SRCROOT%"},"region":{"startLine":17}}}],"properties":{"target":"after","confirmed":false,"why":"static comparison: --check runs both mirrors to confirm it"}}]"#), "\(sarif)")
    #expect(sarif.contains(#""originalUriBaseIds":{"%SRCROOT%":{"uri":"file:///repo/after/"}}"#))
  }

  /// The JSON line of a change, as docs/json.md gives it.
  @Test func aChangeLineHasBothPlacesFromEachTreesRoot() throws {
    let report = try Self.compare("RegistrationMoved", "after")
    #expect(report.jsonLines.map(\.canonicalText) == [
      #"{"kind":"change","change":"moved_after_launch","regression":true,"before":{"file":"Notes/AppDelegate.swift","line":9},"after":{"file":"Notes/SceneDelegate.swift","line":10},"target":"after","message":"BGTask \"com.example.notes.sync\" was registered at launch; AFTER registers it from SceneDelegate.scene(_:willConnectTo:options:), after launch, and BGTaskScheduler throws for that","confirmed":false,"why":"static comparison: --check runs both mirrors to confirm it"}"#,
    ])
  }
}
