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

  @Test func compareTakesTwoTrees() throws {
    let r = try lifesim(["scan", "--compare", "before"], cwd: migrations + "/BackgroundHandler")
    #expect(r.status == 2)
    #expect(r.err.contains("--compare takes two trees, BEFORE and AFTER (folders or git:REV), not 1"), "\(r.err)")
  }
}
