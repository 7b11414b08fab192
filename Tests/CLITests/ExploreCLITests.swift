import Foundation
import Testing

/// `lifesim explore`, `explore merge` and `coverage` as a user runs them.
@Suite(.serialized) struct ExploreCLITests {
  private let apps = repositoryRoot.appendingPathComponent("Tests/ExploreTests/ExploreApps").path

  @Test func aFindingIsAScenarioThatFailsWithRun() throws {
    let dir = temp("explore-cli")
    try? FileManager.default.removeItem(atPath: dir)
    let r = try lifesim(["explore", apps + "/watchdog_path.lua", "--runs", "200", "--seed", "2", "-o", dir])
    #expect(r.status == 1, "\(r.err)")
    #expect(r.out.contains("finding 1: watchdog in SceneDelegate.sceneDidEnterBackground(_:), 3 verbs (\(dir)/finding-1.lua)"), "\(r.out)")
    #expect(r.err.isEmpty, "no progress line when stderr is not a terminal: \(r.err)")
    let run = try lifesim(["run", dir + "/finding-1.lua", "-q"])
    #expect(run.status == 1, "\(run.out)\(run.err)")
    #expect(run.out.contains("unexpected termination (watchdog)"), "\(run.out)")
    let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/report.json"))) as? [String: Any]
    #expect(report?["runs"] as? Int == 200)
    #expect(report?["seed"] as? Int == 2)
    #expect(report?["shard"] as? String == "1/1")
    let findings = report?["findings"] as? [[String: Any]]
    #expect(findings?.first?["scenario"] as? String == "finding-1.lua")
    #expect(findings?.first?["verbs"] as? Int == 3)
    #expect(findings?.first?["reason"] as? String == "watchdog")
    let coverage = report?["coverage"] as? [String: Any]
    #expect((coverage?["covered"] as? Int ?? 0) > 0)
    #expect((coverage?["total"] as? Int ?? 0) >= (coverage?["covered"] as? Int ?? 0))
    let again = try lifesim(["explore", apps + "/watchdog_path.lua", "--runs", "10", "-o", dir])
    #expect(again.status == 2)
    #expect(again.err == "lifesim: \(dir)/report.json: already exists; use --force to overwrite the folder's findings\n", "\(again.err)")
    #expect(try lifesim(["explore", apps + "/watchdog_path.lua", "--runs", "200", "--seed", "2", "-o", dir, "--force"]).status == 1)
  }

  @Test func cleanAppExitsZeroAndUsageErrorsExitTwo() throws {
    let clean = try lifesim(["explore", apps + "/clean.lua", "--runs", "50"])
    #expect(clean.status == 0, "\(clean.out)\(clean.err)")
    #expect(clean.out.contains("50 runs"), "\(clean.out)")
    let shard = try lifesim(["explore", apps + "/clean.lua", "--shard", "2/3"])
    #expect(shard.status == 2)
    #expect(shard.err.contains("--shard must be K/N with 1 ≤ K ≤ N and N dividing 16 (1, 2, 4, 8 or 16), not 2/3"), "\(shard.err)")
    let both = try lifesim(["explore", apps + "/clean.lua", "--runs", "5", "--time", "1"])
    #expect(both.status == 2)
    let missing = try lifesim(["explore", apps + "/no_such_app.lua"])
    #expect(missing.status == 2)
    #expect(missing.err.hasPrefix("lifesim: \(apps)/no_such_app.lua"), "\(missing.err)")
  }

  @Test func coverageOfBundledScenarioLogs() throws {
    var logs: [String] = []
    for name in ["home_and_return", "lock_unlock"] {
      let log = temp("coverage-\(name).lifelog")
      let r = try lifesim(["run", "Scripts/scenarios/\(name).lua", "-q", "-o", log, "--force"])
      #expect(r.status == 0, "\(r.err)")
      logs.append(log)
    }
    let r = try lifesim(["coverage"] + logs)
    #expect(r.status == 0, "\(r.err)")
    #expect(r.out.hasPrefix("2 logs: "), "\(r.out)")
    #expect(r.out.contains("Never reached (app state/scene state/verb):\n  "), "\(r.out)")
    #expect(r.out.contains("  active/foregroundActive/rotate\n"), "rotate is never performed by these two: \(r.out)")
    #expect(!r.out.contains("  active/foregroundActive/home\n"), "home_and_return goes home while active: \(r.out)")
    let json = try lifesim(["coverage", "--json"] + logs)
    let object = try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any]
    #expect(object?["logs"] as? Int == 2)
    #expect((object?["reached"] as? [String])?.contains("active/foregroundActive/home") == true)
  }
}

extension ExploreCLITests {
  @Test("docs/explore.md shows the finding its documented command writes (the run that found it included)")
  func documentedFindingMatchesTheCommand() throws {
    let doc = String(decoding: try Data(contentsOf: repositoryRoot.appendingPathComponent("docs/explore.md")), as: UTF8.self)
    let intro = "finds it in a few runs and shrinks it to three verbs:\n\n```lua\n"
    let start = try #require(doc.range(of: intro)).upperBound
    let shown = String(doc[start..<(try #require(doc[start...].range(of: "```")).lowerBound)])
    let dir = temp("explore-doc")
    try? FileManager.default.removeItem(atPath: dir)
    let r = try lifesim(["explore", "Tests/ExploreTests/ExploreApps/editor_spec.lua", "--seed", "1", "--runs", "200", "-o", dir])
    #expect(r.status == 1, "\(r.err)")
    let written = String(decoding: try Data(contentsOf: URL(fileURLWithPath: dir + "/finding-1.lua")), as: UTF8.self)
    // The doc's folder is `findings` in the repository, the test's a temporary one: only the
    // app's path differs, up to the repository's folders.
    func lines(_ text: String) -> [String] {
      text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
        guard line.hasPrefix("scenario { app = \""), let tail = line.range(of: "Tests/ExploreTests/ExploreApps/editor.lua\"") else {
          return String(line)
        }
        return "scenario { app = \"…/" + line[tail.lowerBound...]
      }
    }
    #expect(lines(written) == lines(shown))
    #expect(shown.contains("scenario { app = \"../Tests/ExploreTests/ExploreApps/editor.lua\", ios = 17"))
  }
}
