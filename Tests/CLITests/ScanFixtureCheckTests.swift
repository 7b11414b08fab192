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
    ("AppWindowApp", [], []),
    ("AsyncExpirationApp", [], []),
    ("BGTaskExpirationApp", [], []),
    ("BGTaskNotCompletedApp", [], []),
    ("BinaryPlistApp", [], []),
    ("ComputedIDsApp", [], ["bgtask_id_not_registered:11 no case of the battery shows it: nothing registers"]),
    ("ConditionalApp", [], []),
    // The notification delegate's condition: the app implements no didReceive, so no tap case runs.
    ("ConditionalRegistrationApp", [], ["registered_conditionally:15 no case that shows it ran in this check (notification tap cold, notification tap warm)"]),
    ("DeferredSetupApp", [], []),
    ("GeneratedPlistApp", [], ["bgtask_id_not_registered:8 no case of the battery shows it"]),
    ("HelperRegistrationApp", [], ["bgtask_id_not_registered:9 no case of the battery shows it"]),
    ("LegacyFetchApp", [], []),
    ("MultiTargetRepo", [], []),
    ("NamedPlistApp", [], ["scene_class_missing:12 no run can show it: the model takes the scene delegate"]),
    ("OnboardingWindowApp", [], []),
    ("OwnHelpersApp", [], ["task_open_after_expiration:18 no run reaches it: the scan cannot tell which delegate method calls"]),
    ("PreprocessedPlistApp", [], ["bgtask_id_not_registered:14 no case of the battery shows it"]),
    ("QuickActionApp", [], []),
    ("SceneClassMissingApp", [], ["scene_class_missing:12 no run can show it"]),
    ("SceneExtensionsApp", [], []),
    // Every launch crashes on the late BGTask registration before a tap could show the delegate.
    ("SceneRegistrationApp", [], ["notification_delegate_late:15 every case of the battery failed, and none showed it (first: cold launch [",
                                  "bgtask_id_not_permitted:23 every case of the battery failed, and none showed it (first: cold launch ["]),
    ("StoryboardApp", [], []),
    ("SwiftUIAdaptorApp", [], []),
    ("TaskNotEndedApp", [], []),
    ("UnlistedIdentifierApp", [], ["bgtask_id_not_registered:7 no case of the battery shows it: nothing registers"]),
  ]

  static let fixedTwins = ["AppWindowAppFixed", "AsyncExpirationAppFixed", "BGTaskExpirationAppFixed", "BGTaskNotCompletedAppFixed",
                           "ConditionalRegistrationAppFixed", "LegacyFetchAppFixed", "QuickActionAppFixed", "SceneClassMissingAppFixed",
                           "TaskNotEndedAppFixed", "UnlistedIdentifierAppFixed", "OnboardingWindowAppFixed",
                           "CarPlayApp"]

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
        // A scan of several apps runs each app's battery: its reproduce lines name the app.
        let target = fixture == "MultiTargetRepo" ? "--target \(finding["target"] ?? "") " : ""
        #expect((confirmed["reproduce"] as? String)?.hasPrefix("lifesim scan \(fixture) \(target)--check ") == true, "\(line)")
      } else {
        let why = finding["why"] as? String ?? ""
        let expected = entry.unconfirmed.first { $0.hasPrefix(place + " ") }
        #expect(expected.map { why.hasPrefix($0.dropFirst(place.count + 1)) } == true, "\(place): \(why)")
        unconfirmed.append(place)
      }
    }
    #expect(unconfirmed == entry.unconfirmed.map { String($0.prefix { $0 != " " }) })
  }

  /// Every fixture folder is in the table or among the twins: a new one is not left out.
  @Test func theTableCoversEveryFixture() throws {
    let folders = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures).filter { name in
      var folder: ObjCBool = false
      return name != "Migrations" && FileManager.default.fileExists(atPath: Self.fixtures + "/" + name, isDirectory: &folder) && folder.boolValue
    }
    #expect(Set(folders) == Set(Self.table.map(\.fixture) + Self.fixedTwins))
  }

  @Test(arguments: fixedTwins)
  func aFixedTwinIsQuiet(_ fixture: String) throws {
    let r = try lifesim(["scan", fixture, "--check"], cwd: Self.fixtures)
    #expect(r.status == 0, "\(r.out)\(r.err)")
  }

  /// A repository with several apps: `--check` runs each app's battery, each case line names its
  /// app, and `--case` runs that case of every app that has it. `--emit-app` still mirrors one.
  @Test func severalAppsEachRunTheirOwnBattery() throws {
    let r = try lifesim(["scan", "MultiTargetRepo", "--check", "--case", "cold launch", "--json"], cwd: Self.fixtures)
    #expect(r.status == 1, "\(r.out)\(r.err)")
    let cases = r.out.split(separator: "\n").filter { $0.hasPrefix(#"{"kind":"case","#) }
    // Notes's also runs once with its launch handler's work past its time (its `in time` choice false).
    #expect(cases.count == 13)
    #expect(cases.filter { $0.hasPrefix(#"{"kind":"case","target":"Notes","#) }.count == 7)
    #expect(cases.filter { $0.hasPrefix(#"{"kind":"case","target":"NotesLite","#) }.count == 6)
    let text = try lifesim(["scan", "MultiTargetRepo", "--check", "--case", "cold launch"], cwd: Self.fixtures)
    #expect(text.out.contains("\ncheck Notes: 1 scenario on iOS 17, 26, 27 × SDK 26, 27, with scenes\n"), "\(text.out)")
    #expect(text.out.contains("\ncheck NotesLite: 1 scenario on iOS 17, 26, 27 × SDK 26, 27, with scenes\n"), "\(text.out)")
    let unknown = try lifesim(["scan", "MultiTargetRepo", "--check", "--case", "no such case"], cwd: Self.fixtures)
    #expect(unknown.status == 2)
    #expect(unknown.err.contains("--case no such case: no such case in the battery of any of the 2 apps; name one with --target to list its cases"),
            "\(unknown.err)")
    let emit = try lifesim(["scan", "MultiTargetRepo", "--emit-app", temp("multi-emit")], cwd: Self.fixtures)
    #expect(emit.status == 2)
    #expect(emit.err.contains("2 app targets (Notes, NotesLite): --emit-app mirrors one app; choose it with --target"), "\(emit.err)")
  }
}
