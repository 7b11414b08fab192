import Foundation
import Testing
import TestSupport

/// `lifesim scan --compare BEFORE AFTER`: folders and `git:REV`, read without touching the work tree.
@Suite struct ScanCompareCLITests {
  private let migrations = repositoryRoot.appendingPathComponent("Tests/AppScanTests/Fixtures/Migrations").path

  /// A repository of the test's own with the migration's two commits: `git:REV` reads each
  /// revision with git, and the work tree, its files and the index are as they were.
  @Test func gitRevisionsAreComparedWithoutTouchingTheWorkTree() throws {
    let repo = temp("compare-repo")
    try? FileManager.default.removeItem(atPath: repo)
    try FileManager.default.createDirectory(atPath: repo, withIntermediateDirectories: true)
    let git = "git -C '\(repo)' -c user.name=t -c user.email=t@example.com"
    let copy = { (side: String) in "rm -rf '\(repo)/Notes' && cp -R '\(self.migrations)/RegistrationMoved/\(side)/Notes' '\(repo)/Notes'" }
    for step in ["git init -q '\(repo)'", copy("before"), "\(git) add -A", "\(git) commit -qm before",
                 copy("after"), "\(git) add -A", "\(git) commit -qm after", "echo 'uncommitted' > '\(repo)/Notes/Draft.swift'"] {
      let r = try shell(step)
      try #require(r.status == 0, "\(step): \(r.err)")
    }
    let status = try shell("git -C '\(repo)' status --porcelain").out
    let r = try lifesim(["scan", "--compare", "git:HEAD~1", "git:HEAD"], cwd: repo)
    #expect(r.status == 1, "\(r.out)\(r.err)")
    #expect(r.out.hasPrefix("1 regression:\n"))
    #expect(r.out.contains("  before: Notes/AppDelegate.swift:9  after: Notes/SceneDelegate.swift:10"), "\(r.out)")
    #expect(try shell("git -C '\(repo)' status --porcelain").out == status)
    #expect(try String(contentsOfFile: repo + "/Notes/Draft.swift", encoding: .utf8) == "uncommitted\n")
    // From a subfolder, each revision's copy of that subfolder, places from it.
    let sub = try lifesim(["scan", "--compare", "git:HEAD~1", "git:HEAD"], cwd: repo + "/Notes")
    #expect(sub.out.contains("  before: AppDelegate.swift:9  after: SceneDelegate.swift:10"), "\(sub.out)\(sub.err)")
    // The work tree itself as AFTER.
    let head = try lifesim(["scan", "--compare", "git:HEAD~1", "."], cwd: repo)
    #expect(head.status == 1 && head.out.contains("moved_after_launch"), "\(head.out)\(head.err)")
    // With --check, each side's reproduce line names its revision, and runs as printed.
    let checked = try lifesim(["scan", "--compare", "git:HEAD~1", "git:HEAD", "--check", "--json"], cwd: repo)
    let reproduce = "lifesim scan 'git:HEAD~1' --check --case 'background refresh com.example.notes.sync' --ios 26 --sdk 26"
    #expect(checked.out.contains(#""before":"\#(reproduce)""#), "\(checked.out)")
    let again = try lifesim(["scan", "git:HEAD~1", "--check", "--case", "background refresh com.example.notes.sync", "--ios", "26", "--sdk", "26"], cwd: repo)
    #expect(again.out.contains("\n1 case: 1 passed"), "\(again.out)\(again.err)")
    #expect(try shell("git -C '\(repo)' status --porcelain").out == status)
    let unknown = try lifesim(["scan", "--compare", "git:no-such-branch", "."], cwd: repo)
    #expect(unknown.status == 2)
    #expect(unknown.err.contains("git:no-such-branch: not a revision of the repository at"), "\(unknown.err)")
  }

  @Test func aCorrectMigrationExitsZeroAndJSONEndsWithTheCounts() throws {
    let r = try lifesim(["scan", "--compare", "before", "fixed", "--json"], cwd: migrations + "/BackgroundHandler")
    #expect(r.status == 0, "\(r.out)\(r.err)")
    let lines = r.out.split(separator: "\n").map(String.init)
    #expect(lines.count == 3)
    #expect(lines.first?.hasPrefix(#"{"kind":"change","change":"handler_silenced","regression":false,"before":{"file":"Notes/AppDelegate.swift","line":15}"#) == true)
    #expect(lines.last == #"{"kind":"end","command":"scan","status":0,"changes":2,"regressions":0}"#)
  }

  /// `--check` runs the battery on both mirrors: a regression is confirmed by the pair of cases
  /// that shows it, each side's reproduce line runs that case again from the same folder, and a
  /// change no pair shows stays a regression with why. The correct migration is quiet.
  @Test(arguments: [
    ("BackgroundHandler", "home and return",
     "BEFORE's run called AppDelegate.applicationDidEnterBackground; AFTER's called neither it nor SceneDelegate.sceneDidEnterBackground"),
    ("RegistrationMoved", "background refresh com.example.notes.sync", "BEFORE's run passed; AFTER's failed: "),
    ("URLHandler", "open URL", "BEFORE's run called AppDelegate.openURL; AFTER's called neither it nor SceneDelegate.openURLContexts"),
    ("BothDelegates", "cold launch", "AFTER's run called both AppDelegate.didFinishLaunchingWithOptions and SceneDelegate.willConnectTo, and each runs the work"),
    ("SwiftUIQuickAction", "quick action", "BEFORE's run called SceneDelegate.performActionForShortcutItem; AFTER's did not"),
    ("NotificationResponse", "notification tap warm", "BEFORE's run called NotificationDelegate.didReceive; AFTER's did not"),
  ])
  func checkConfirmsARegressionWithAPairOfCases(_ fixture: String, _ scenario: String, _ shows: String) throws {
    let dir = migrations + "/" + fixture
    let r = try lifesim(["scan", "--compare", "before", "after", "--check", "--json"], cwd: dir)
    #expect(r.status == 1, "\(r.out)\(r.err)")
    let first = try #require(r.out.split(separator: "\n").first.map(String.init))
    let quoted = scenario.contains(" ") ? "'\(scenario)'" : scenario
    let line = { (side: String) in "lifesim scan \(side) --check --case \(quoted) --ios 26 --sdk 26" }
    #expect(first.contains(#""confirmed":{"scenario":"\#(scenario)","ios":26,"sdk":26,"shows":"\#(shows)"#), "\(first)")
    // A case only BEFORE's battery has (AFTER no longer handles the quick action) runs on AFTER
    // beside BEFORE's: its AFTER line is the comparison's.
    let afterOwn = !["SwiftUIQuickAction", "NotificationResponse"].contains(fixture)
    let afterLine = afterOwn ? line("after") : "lifesim scan --compare before after --check --case \(quoted) --ios 26 --sdk 26"
    #expect(first.hasSuffix(#","before":"\#(line("before"))","after":"\#(afterLine)"}}"#), "\(first)")
    let again = try lifesim(["scan", "before", "--check", "--case", scenario, "--ios", "26", "--sdk", "26"], cwd: dir)
    #expect(again.out.contains("\n1 case: "), "before: \(again.out)\(again.err)")
    let words = afterOwn ? ["scan", "after", "--check"] : ["scan", "--compare", "before", "after", "--check", "--json"]
    let after = try lifesim(words + ["--case", scenario, "--ios", "26", "--sdk", "26"], cwd: dir)
    #expect(afterOwn ? after.out.contains("\n1 case: ") : after.out.contains(#""shows":"\#(shows)"#), "after: \(after.out)\(after.err)")
    let fixed = try lifesim(["scan", "--compare", "before", "fixed", "--check"], cwd: dir)
    #expect(fixed.status == 0, "\(fixed.out)")
  }

  /// A skipped case delivered nothing: it never confirms a loss. On iOS 12 both scene apps'
  /// cases are skipped, so no pair is made.
  @Test func aSkippedCaseConfirmsNothing() throws {
    let r = try lifesim(["scan", "--compare", "before", "after", "--check", "--ios", "12", "--sdk", "17", "--json"],
                        cwd: migrations + "/SwiftUIQuickAction")
    #expect(r.status == 1, "\(r.out)\(r.err)")
    let changes = r.out.split(separator: "\n").filter { $0.contains(#""kind":"change""#) }
    #expect(changes.count == 2 && changes.allSatisfy { $0.hasSuffix(#""confirmed":false,"why":"no case ran on both sides"}"#) }, "\(r.out)")
  }

  @Test func aRegressionNoPairShowsStaysARegressionWithWhy() throws {
    let r = try lifesim(["scan", "--compare", "before", "after", "--check"], cwd: migrations + "/WorkLost")
    #expect(r.status == 1, "\(r.out)\(r.err)")
    #expect(r.out.hasPrefix("""
      1 regression:
      after: work_lost: AppDelegate.applicationWillEnterForeground(_:) called reconnect(); SceneDelegate.sceneWillEnterForeground(_:), which replaces it, does not, nor any function it calls
        before: Notes/AppDelegate.swift:19  after: Notes/SceneDelegate.swift:17
        not confirmed by a run: no pair of cases of the battery on this matrix showed it
      2 correct moves:

      """), "\(r.out)")
    // What neither side ran, for the same reason, is listed once.
    #expect(r.out.hasSuffix("""
      - both: notification taps: not run, no notification delegate with userNotificationCenter(_:didReceive:withCompletionHandler:) is set
      - both: open URL: not run, no application(_:open:options:) or scene(_:openURLContexts:)
      - both: universal link: not run, no application(_:continue:restorationHandler:) or scene(_:continue:)

      """), "\(r.out)")
  }

  @Test func compareTakesTwoTrees() throws {
    let r = try lifesim(["scan", "--compare", "before"], cwd: migrations + "/BackgroundHandler")
    #expect(r.status == 2)
    #expect(r.err.contains("--compare takes two trees, BEFORE and AFTER (folders or git:REV), not 1"), "\(r.err)")
    let unknownCase = try lifesim(["scan", "--compare", "before", "after", "--check", "--case", "no such"], cwd: migrations + "/BackgroundHandler")
    #expect(unknownCase.status == 2)
    #expect(unknownCase.err == "lifesim: --case no such: no such case of either side's battery (BEFORE's cases: cold launch, home and return, lock, memory kill, force quit)\n",
            "\(unknownCase.err)")
  }
}
