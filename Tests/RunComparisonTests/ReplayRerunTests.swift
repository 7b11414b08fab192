import EventStore
import Foundation
import RunComparison
import ScriptHost
import Testing
import TestSupport

/// `ReplayRerun`, what `replay --verify` and `replay --app` call, in this process over a run
/// recorded here: the same events, a changed app that departs, and trouble before any re-run.
@Suite struct ReplayRerunTests {
  static let app = "app { name = \"tiny\" }\ncontroller \"ViewController\" { }\n"
  static let scenario = "scenario { }\nlaunch()\nexpect_state(\"active\")\n"

  /// A run of `scenario` against `app`, recorded in a new folder `name`; the log and the folder.
  private func record(_ name: String) throws -> (log: String, folder: String, events: Int64) {
    let folder = temporaryPath("lifesim-rerun", name)
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try Self.app.write(toFile: folder + "/app.lua", atomically: true, encoding: .utf8)
    try Self.scenario.write(toFile: folder + "/s.lua", atomically: true, encoding: .utf8)
    let log = folder + "/run.lifelog"
    let result = ScenarioRunner(RunConfiguration(scenarioPath: folder + "/s.lua", appPath: folder + "/app.lua", seed: 7,
                                                 outputPath: log)) { _, _ in }.run()
    #expect(result.exitStatus == 0)
    return (log, folder, result.events)
  }

  private func recording(_ log: String) throws -> BackgroundLogScanner {
    BackgroundLogScanner(try LogScanner(path: log, checksChain: true))
  }

  @Test func theRecordedScriptsReRunIdentically() throws {
    let (log, folder, events) = try record("identical")
    var rerun = ReplayRerun(log: log)
    rerun.output = folder + "/again.lifelog"
    var seen: Int64 = 0
    let verdict = rerun.run(try recording(log)) { seen += 1 }
    guard case .same(failedDiagnostic: nil) = verdict.finding else { Issue.record("\(verdict.finding)"); return }
    #expect(verdict.status == 0 && verdict.events == events && seen == events && verdict.seed == 7)
    #expect(verdict.keepOutput() == (0, nil))
    #expect(FileManager.default.contents(atPath: folder + "/again.lifelog") == FileManager.default.contents(atPath: log))
  }

  @Test func aChangedAppThatLogsMoreDeparts() throws {
    let (log, folder, _) = try record("departs")
    let changed = folder + "/changed.lua"
    try (Self.app + "function SceneDelegate.sceneDidBecomeActive(scene) log(\"changed\") end\n")
      .write(toFile: changed, atomically: true, encoding: .utf8)
    var rerun = ReplayRerun(log: log)
    rerun.app = changed
    let verdict = rerun.run(try recording(log))
    guard case let .departed(d, stopped: nil) = verdict.finding else { Issue.record("\(verdict.finding)"); return }
    #expect(verdict.status == 1)
    #expect(d.actual.contains(#""name":"sceneDidBecomeActive(_:)","target":"SceneDelegate","handled":true"#))
    #expect(verdict.changedApp?.failedEvents.isEmpty == true)
    #expect(verdict.changedApp?.json.map(\.0) == ["outcome", "failedExpectations"])
  }

  @Test func anOutputOverTheLogIsTroubleBeforeAnyReRun() throws {
    let (log, _, _) = try record("trouble")
    var rerun = ReplayRerun(log: log)
    rerun.output = log
    var seen = 0
    let verdict = rerun.run(try recording(log)) { seen += 1 }
    guard case let .trouble(message) = verdict.finding else { Issue.record("\(verdict.finding)"); return }
    #expect(message.hasPrefix(log) && seen == 0 && verdict.status == 2)
    #expect(rerun.versionNote(try recording(log).header) == nil)
  }
}
