import Foundation
import Suite
import Testing
import TestSupport

/// `SuiteSession`, the one run of a suite `lifesim test` and `scan --check` make, in this process
/// over the suite fixture: what it finds, runs and counts, and what it refuses before any case runs.
@Suite struct SuiteSessionTests {
  /// A request for `paths`, its cases' logs in a folder of this process's own.
  private func makeRequest(_ paths: [String]) throws -> SuiteRequest {
    var options = CaseOptions(logsDirectory: nil, keepAllLogs: false, searchPath: [repositoryRoot + "/Scripts/lib"],
                              wallLimitSeconds: 10, lib: [])
    options.temporaryDirectory = try emptyFolder("session-logs")
    var request = SuiteRequest(paths: paths, caseOptions: options)
    request.jobs = 2
    return request
  }

  @Test func runsEveryCaseOnTheMatrixAndCountsThem() throws {
    let dir = try suiteFixture("session")
    var request = try makeRequest([dir])
    request.profiles = [14, 17]
    let session = try SuiteSession(request)
    #expect(session.cases.count == 6)
    #expect(session.discovery.files.count == 5)
    var reported: [String] = []
    var progress: [Int] = []
    let outcome = session.run(onResult: { reported.append($0.name) }, onProgress: { done, _ in progress.append(done) })
    let names = ["one [iOS 14]", "one [iOS 17]", "failing [iOS 14]", "failing [iOS 17]", "later [iOS 14]", "later [iOS 17]"]
    #expect(outcome.results.map(\.name) == names)
    #expect(reported == names)
    #expect(progress.last == 6)
    #expect(outcome.results.map(\.status) == [.passed, .passed, .failed, .failed, .skipped, .passed])
    #expect(outcome.summary.passed == 3 && outcome.summary.failed == 2 && outcome.summary.skipped == 1)
    #expect(outcome.summary.problemFiles == 0)
    #expect(outcome.exitStatus == 1)
    #expect(outcome.changes.isEmpty && outcome.uncompared.isEmpty && outcome.comparedPairs == 0)
  }

  @Test func comparesEachProfileWithTheNext() throws {
    let dir = try suiteFixture("session-compare")
    var request = try makeRequest([dir + "/a/one.lua"])
    request.profiles = [16, 17]
    request.comparison = .profiles
    let session = try SuiteSession(request)
    let outcome = session.run()
    #expect(outcome.results.map(\.name) == ["one [iOS 16]", "one [iOS 17]"])
    #expect(outcome.comparedPairs == 1 && outcome.uncompared.isEmpty)
    #expect(outcome.exitStatus == 0)
  }

  @Test func noScenarioIsAnErrorUnlessNoneIsRequired() throws {
    let dir = try emptyFolder("session-empty")
    #expect(throws: SuiteError("no scenario in \(dir) matching \"x\" (a scenario is a .lua file that calls scenario { … })")) {
      var request = try makeRequest([dir])
      request.filter = "x"
      _ = try SuiteSession(request)
    }
    var request = try makeRequest([dir])
    request.requiresScenario = false
    let outcome = try SuiteSession(request).run()
    #expect(outcome.results.isEmpty && outcome.summary.noCaseRan)
  }

  @Test func refusesALogsFolderThatHoldsLogsAndAReportOverAScript() throws {
    let dir = try suiteFixture("session-refusals")
    let logs = try emptyFolder("session-old-logs")
    try "".write(toFile: logs + "/old.lifelog", atomically: true, encoding: .utf8)
    var request = try makeRequest([dir])
    request.logs = logs
    #expect(throws: SuiteError("\(logs): already holds logs (old.lifelog); refusing to overwrite them (pass --force to replace them)")) {
      _ = try SuiteSession(request)
    }
    request.force = true
    _ = try SuiteSession(request)
    request.junit = dir + "/a/one.lua"
    #expect(throws: SuiteError.self) { _ = try SuiteSession(request) }
  }
}
