import Foundation
import Lifecycle
import Render
import ScriptHost
import Suite
import Testing
import TestSupport

/// Discovery, the iOS matrix, the runner and its reports, called in this process as `lifesim test` calls them.
@Suite struct SuiteRunnerTests {
  @Test func discoversScenariosOnlyAndResolvesScriptsFromTheirFolder() throws {
    let dir = try suiteFixture("discovery")
    let results = try runSuite([dir])
    #expect(results.map(\.name) == ["one [iOS 17]", "failing [iOS 17]", "later [iOS 17]"])
    #expect(results.map(\.status) == [.passed, .failed, .passed])
    #expect(try runSuite([dir], filter: "one").map(\.name) == ["one [iOS 17]"])
    #expect(throws: SuiteError("\(dir)/apps/app.lua: not a scenario (it never calls scenario { … }); name a scenario or a folder")) {
      try ScenarioDiscovery.find([dir + "/apps/app.lua"], filter: nil)
    }
    #expect(try ScenarioDiscovery.find([dir], filter: "nothing-matches").scenarios.isEmpty)
    #expect(throws: SuiteError("/no/such/folder: No such file or directory")) { try ScenarioDiscovery.find(["/no/such/folder"], filter: nil) }
  }

  @Test func theMatrixNamesCasesAndSkipsWhatCannotRun() throws {
    let dir = try suiteFixture("matrix")
    let results = try runSuite([dir + "/b/later.lua"], profiles: [12, 15, 16], scenesBoth: true)
    #expect(results.map(\.name) == ["later [iOS 12]", "later [iOS 12, no scenes]", "later [iOS 15]", "later [iOS 15, no scenes]",
                                    "later [iOS 16]", "later [iOS 16, no scenes]"])
    #expect(results.map(\.status) == [.skipped, .skipped, .passed, .passed, .passed, .passed])
    #expect(results[0].message == "iOS 12 has no scenes: only the sceneless case runs")
    #expect(results[1].message == "ios_range \"15-26\" excludes iOS 12")
    let summary = SuiteSummary(results)
    #expect(summary.skipped == 2 && summary.passed == 4 && summary.exitStatus == 0)
    // A malformed ios_range is a script error naming the file and line (scenario { } reads it strictly).
    let broken = dir + "/b/broken.lua"
    try "\nscenario { ios_range = \"15 to 26\" }\nlaunch()\n".write(toFile: broken, atomically: true, encoding: .utf8)
    let error = try runSuite([broken])
    #expect(error.map(\.status) == [.error])
    #expect(error[0].message == "\(broken):2: scenario: ios_range must be releases and ranges such as \"15-26\" or \"12,15-17\" (\"15 to 26\" is not a release (12 to 18, 26, or 27), a range such as 13-17, or all), not \"15 to 26\"")
    #expect(SuiteSummary(error).exitStatus == 2)
  }

  @Test func aScriptErrorDoesNotStopTheOthers() throws {
    let dir = try suiteFixture("status")
    #expect(SuiteSummary(try runSuite([dir + "/a"])).exitStatus == 0)
    let skippedOnly = SuiteSummary(try runSuite([dir + "/b/later.lua"], profiles: [14]))
    #expect(skippedOnly.noCaseRan && skippedOnly.exitStatus == 2)
    #expect(SuiteSummary(try runSuite([dir])).exitStatus == 1)
    try "scenario { }\nlaunch()\nerror(\"boom\")\n".write(toFile: dir + "/a/crashing.lua", atomically: true, encoding: .utf8)
    let results = try runSuite([dir], jobs: 2)
    #expect(results.map(\.status) == [.error, .passed, .failed, .passed])
    #expect(results[0].message == "\(dir)/a/crashing.lua:3: boom")
    #expect(SuiteSummary(results).exitStatus == 2)
  }

  /// The reports and every log are the same bytes with one worker or two: a state shared between
  /// worker threads would show in the events.
  @Test func reportsAreByteIdenticalWithOneOrTwoWorkers() throws {
    let scenarios = repositoryRoot + "/Scripts/scenarios"
    var reports: [[String]] = []
    var logs: [[String: Data]] = []
    for jobs in [1, 2] {
      let dir = try emptyFolder("det-logs-\(jobs)")
      let results = try runSuite([scenarios], profiles: IOSRelease.versions, scenesBoth: true, jobs: jobs, logs: dir, keepAll: true)
      reports.append([results.map { HumanReport.caseLine($0, paint: { text, _ in text }) }.joined(separator: "\n"),
                      results.map { JSONReport.caseLine($0, wallTimes: false) }.joined(separator: "\n").replacingOccurrences(of: dir, with: "DIR"),
                      JUnitReport.xml(results, wallTimes: false, wallUs: 0).replacingOccurrences(of: dir, with: "DIR"),
                      HumanReport.summary(SuiteSummary(results), wallUs: nil)])
      var files: [String: Data] = [:]
      for name in try FileManager.default.contentsOfDirectory(atPath: dir) {
        files[name] = try Data(contentsOf: URL(fileURLWithPath: dir + "/" + name))
      }
      logs.append(files)
    }
    #expect(reports[0] == reports[1])
    #expect(logs[0].count == 570)
    #expect(logs[0] == logs[1])
    #expect(reports[0][3] == "1152 cases: 570 passed, 0 failed, 582 skipped, 0 errors (virtual time 85096.00 s).")
  }

  @Test func theBundledSuiteIsGreenOnEveryProfile() throws {
    let results = try runSuite([repositoryRoot + "/Scripts"], profiles: IOSRelease.versions, jobs: 2)
    #expect(HumanReport.summary(SuiteSummary(results), wallUs: nil)
              == "576 cases: 456 passed, 0 failed, 120 skipped, 0 errors (virtual time 75179.00 s).",
            "\(results.filter { $0.status == .error }.map { $0.message ?? "" })")
  }

  @Test func shardsTogetherHoldExactlyTheCasesOfOneRun() throws {
    let discovery = try ScenarioDiscovery.find([repositoryRoot + "/Scripts"], filter: nil)
    let whole = SuitePlan.cases(discovery.scenarios, profiles: IOSRelease.versions, scenesBoth: false, shard: nil)
    #expect(whole.count == 576)
    var union: [SuiteCase] = []
    for k in 1...3 {
      let part = SuitePlan.cases(discovery.scenarios, profiles: IOSRelease.versions, scenesBoth: false, shard: try Shard(parsing: "\(k)/3"))
      #expect(part.count == 192)
      union += part
    }
    #expect(union.sorted { $0.index < $1.index } == whole)
    #expect(throws: SuiteError("--shard 4/3: expected K/N with 1 <= K <= N, e.g. 2/4")) { try Shard(parsing: "4/3") }
  }

  @Test func junitIsReadByARealConsumer() throws {
    let dir = try suiteFixture("junit")
    try "scenario { }\nlaunch()\nerror(\"boom\")\n".write(toFile: dir + "/b/crashing.lua", atomically: true, encoding: .utf8)
    // The real trace renderer (Render's, reading the case's log), so the report's text is the trace.
    let results = try runSuite([dir], profiles: [14, 15], renderer: { path, seqs in try TraceText.lines(ofLogAt: path, seqs: seqs) })
    #expect(SuiteSummary(results).exitStatus == 2)
    let suites = try junitSuites(JUnitReport.xml(results, wallTimes: true, wallUs: 1))
    #expect(suites.map { $0["name"] as? String } == ["a/one.lua", "b/crashing.lua", "b/failing.lua", "b/later.lua"].map { dir + "/" + $0 })
    #expect(suites.map { [$0["tests"], $0["failures"], $0["errors"], $0["skipped"]] as? [Int] } == [[2, 0, 0, 0], [2, 0, 2, 0], [2, 2, 0, 0], [2, 0, 0, 1]])
    let failing = try #require(suites[2]["cases"] as? [[String: Any]])
    #expect(failing[0]["classname"] as? String == dir + "/b/failing.lua")
    #expect(failing[0]["name"] as? String == "failing [iOS 14]")
    let failure = try #require((failing[0]["results"] as? [[String: Any]])?.first)
    #expect(failure["type"] as? String == "Failure")
    #expect(failure["message"] as? String == "expect_state: expected state active, but the app is suspended")
    let text = failure["text"] as? String ?? ""
    #expect(text.contains("reproduce: lifesim run \(dir)/b/failing.lua --ios 14 --seed 1\n"))
    #expect(text.hasSuffix("✘ expect_state: expected state active, but the app is suspended  \(dir)/b/failing.lua:4"))
    #expect(text.contains("● suspended"))
    let error = try #require(((suites[1]["cases"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])?.first)
    #expect(error["type"] as? String == "Error")
    #expect(error["message"] as? String == "\(dir)/b/crashing.lua:3: boom")
    let skipped = try #require(((suites[3]["cases"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])?.first)
    #expect(skipped["type"] as? String == "Skipped")
    #expect(skipped["message"] as? String == "ios_range \"15-26\" excludes iOS 14")
  }
}
