import Foundation
import Testing
import TestSupport

/// `lifesim scan --check` on every scan fixture, on the default matrix: it exits 0 or 1, never 2;
/// a fixed twin is quiet; and every finding is confirmed by a run, but for those listed here,
/// each of which says why no run shows it. A finding newly confirmed, or newly not, fails this
/// table until it is updated.
@Suite struct ScanFixtureCheckTests {
  private static let fixtures = repositoryRoot.appendingPathComponent("Tests/AppScanTests/Fixtures").path

  /// Each fixture (with the options that pick its app) and the findings no run confirms, as
  /// `code:line` and the start of the why.
  static let table: [(fixture: String, options: [String], unconfirmed: [String])] = [
    ("AppWindowApp", [], ["app_window_nil:8 no case of the battery shows it yet: the mirror does not carry", "app_window_nil:5 no case of the battery shows it yet"]),
    ("AsyncExpirationApp", [], []),
    ("BGTaskExpirationApp", [], []),
    ("BGTaskNotCompletedApp", [], []),
    ("BinaryPlistApp", [], []),
    ("ComputedIDsApp", [], ["bgtask_id_not_registered:11 no run can show it: nothing registers"]),
    ("ConditionalApp", [], ["window_without_scene:10 no case of the battery shows it yet: the mirror does not carry the app's own windows"]),
    // The mirror cannot yet take one launch's branch true and a later launch's false.
    ("ConditionalRegistrationApp", [], ["registered_conditionally:9 no case of the battery on this matrix showed it",
                                        "registered_conditionally:15 no case of the battery on this matrix showed it"]),
    ("DeferredSetupApp", [], []),
    ("GeneratedPlistApp", [], ["bgtask_id_not_registered:8 no run can show it"]),
    ("HelperRegistrationApp", [], ["bgtask_id_not_registered:9 no run can show it"]),
    ("LegacyFetchApp", [], []),
    ("MultiTargetRepo", ["--target", "Notes"], []),
    ("NamedPlistApp", [], ["scene_class_missing:12 no run can show it: the model takes the scene delegate"]),
    ("OwnHelpersApp", [], ["task_open_after_expiration:18 no run reaches it: the scan cannot tell which delegate method calls"]),
    ("PreprocessedPlistApp", [], ["bgtask_id_not_registered:14 no run can show it"]),
    ("QuickActionApp", [], []),
    ("SceneClassMissingApp", [], ["scene_class_missing:12 no run can show it"]),
    ("SceneExtensionsApp", [], []),
    // Every launch crashes on the late BGTask registration before a tap could show the delegate.
    ("SceneRegistrationApp", [], ["notification_delegate_late:15 no case of the battery on this matrix showed it",
                                  "bgtask_id_not_permitted:23 no case of the battery shows it yet: the battery runs"]),
    ("StoryboardApp", [], []),
    ("SwiftUIAdaptorApp", [], []),
    ("TaskNotEndedApp", [], []),
  ]

  static let fixedTwins = ["AppWindowAppFixed", "AsyncExpirationAppFixed", "BGTaskExpirationAppFixed", "BGTaskNotCompletedAppFixed",
                           "ConditionalRegistrationAppFixed", "LegacyFetchAppFixed", "QuickActionAppFixed", "SceneClassMissingAppFixed",
                           "TaskNotEndedAppFixed", "CarPlayApp"]

  @Test(arguments: table.map(\.fixture))
  func everyFindingIsConfirmedOrSaysWhyNot(_ fixture: String) throws {
    let entry = try #require(Self.table.first { $0.fixture == fixture })
    let r = try lifesim(["scan", fixture] + entry.options + ["--check", "--json"], cwd: Self.fixtures)
    #expect(r.status == 1, "\(r.out)\(r.err)")
    var unconfirmed: [String] = []
    for line in r.out.split(separator: "\n") where line.contains(#""kind":"diagnostic""#) {
      let finding = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      let place = "\(finding["code"] ?? ""):\(finding["line"] ?? "")"
      if let confirmed = finding["confirmed"] as? [String: Any] {
        #expect((confirmed["reproduce"] as? String)?.hasPrefix("lifesim scan \(fixture) ") == true, "\(line)")
      } else {
        let why = finding["why"] as? String ?? ""
        let expected = entry.unconfirmed.first { $0.hasPrefix(place + " ") }
        #expect(expected.map { why.hasPrefix($0.dropFirst(place.count + 1)) } == true, "\(place): \(why)")
        unconfirmed.append(place)
      }
    }
    #expect(unconfirmed == entry.unconfirmed.map { String($0.prefix { $0 != " " }) })
  }

  @Test(arguments: fixedTwins)
  func aFixedTwinIsQuiet(_ fixture: String) throws {
    let r = try lifesim(["scan", fixture, "--check"], cwd: Self.fixtures)
    #expect(r.status == 0, "\(r.out)\(r.err)")
  }
}
