import AppScan
import Foundation
import Testing
@testable import Suite

/// `MigrationCheck`'s verdicts from the cases each side ran.
@Suite struct MigrationCheckTests {
  private static func result(_ scenario: String, _ callbacks: [String]) -> CaseResult {
    CaseResult(index: 0, name: "\(scenario) [iOS 26, SDK 26]", file: scenario + ".lua", ios: 26, sceneless: false, scenes: true, sdk: 26,
               seed: 1, status: .passed, message: nil, at: nil, trace: [], reproduce: "", events: 1, virtualUs: 0, wallUs: 0,
               callbacksDelivered: callbacks)
  }

  /// A case the model refused on AFTER is absent from its results (`ScanCheck` lists it as not
  /// run): it confirms nothing, and the other pairs still confirm what they show.
  @Test func aCaseRefusedOnOneSideLeavesTheOtherPairsToConfirm() throws {
    let root = fixtures + "/Migrations/BackgroundHandler"
    let before = try AppScanner.scan([root + "/before"]).apps[0], after = try AppScanner.scan([root + "/after"]).apps[0]
    let sides = (MigrationCheck.Side(report: before, root: root + "/before", path: "before", options: []),
                 MigrationCheck.Side(report: after, root: root + "/after", path: "after", options: []))
    let background = "AppDelegate.applicationDidEnterBackground", foreground = "AppDelegate.applicationWillEnterForeground"
    let runs = (before: ScanCheck.Outcome(results: [Self.result("home and return", [background, foreground]), Self.result("lock", [background])],
                                          notRun: []),
                after: ScanCheck.Outcome(results: [Self.result("lock", [])], notRun: ["home and return [iOS 26, SDK 26]: not run, the run stopped"],
                                         refused: 1))
    let verdicts = MigrationComparison.changes(before: before, after: after).map {
      MigrationCheck.confirmation(of: $0, before: sides.0, after: sides.1, runs: runs)
    }
    #expect(verdicts == [
      .confirmed(scenario: "lock", ios: 26, sdk: 26,
                 shows: "BEFORE's run called \(background); AFTER's called neither it nor SceneDelegate.sceneDidEnterBackground",
                 before: "lifesim scan before --check --case lock --ios 26 --sdk 26", after: "lifesim scan after --check --case lock --ios 26 --sdk 26"),
      .unconfirmed(why: "no pair of cases of the battery on this matrix showed it"),
    ])
  }

  /// A payload that launches the app is shown only by a cold case that delivers it: the warm
  /// quick action that shows the running app's loss does not confirm the cold launch's.
  @Test func aColdLaunchsPayloadIsNotConfirmedByAWarmCase() throws {
    let root = fixtures + "/Migrations/SwiftUIQuickAction"
    let before = try AppScanner.scan([root + "/before"]).apps[0], after = try AppScanner.scan([root + "/after"]).apps[0]
    let sides = (MigrationCheck.Side(report: before, root: root + "/before", path: "before", options: []),
                 MigrationCheck.Side(report: after, root: root + "/after", path: "after", options: []))
    let shortcut = "SceneDelegate.performActionForShortcutItem"
    // A cold case of another payload (a notification tap) shows nothing of the quick action's.
    let runs = (before: ScanCheck.Outcome(results: [Self.result("notification tap cold", []), Self.result("quick action", [shortcut])], notRun: []),
                after: ScanCheck.Outcome(results: [Self.result("notification tap cold", []), Self.result("quick action", [])], notRun: []))
    let verdicts = MigrationComparison.changes(before: before, after: after).map {
      MigrationCheck.confirmation(of: $0, before: sides.0, after: sides.1, runs: runs)
    }
    #expect(verdicts == [
      .confirmed(scenario: "quick action", ios: 26, sdk: 26, shows: "BEFORE's run called \(shortcut); AFTER's did not",
                 before: "lifesim scan before --check --case 'quick action' --ios 26 --sdk 26",
                 after: "lifesim scan --compare before after --check --case 'quick action' --ios 26 --sdk 26"),
      .unconfirmed(why: "no case of the battery delivers this payload at a cold launch"),
    ])
  }

  /// Several apps' runs: one app's battery refused whole is trouble, whatever the others did.
  @Test func oneAppsBatteryRefusedWholeIsTroubleBesideAnotherThatPassed() {
    let passed = ScanCheckSession.AppRun(app: 0, outcome: ScanCheck.Outcome(results: [Self.result("cold launch", [])], notRun: []))
    let refused = ScanCheckSession.AppRun(app: 1, outcome: ScanCheck.Outcome(results: [], notRun: ["cold launch: not run, x"], refused: 1))
    #expect(ScanCheckSession.status([passed, refused], scan: 0) == 2)
    #expect(ScanCheckSession.status([passed], scan: 0) == 0)
    #expect(ScanCheckSession.status([passed], scan: 1) == 1)
  }
}
