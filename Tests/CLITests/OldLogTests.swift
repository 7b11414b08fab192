import Foundation
import Testing

/// Logs are users' records: logs written by an older lifesim are read by every command, and a
/// re-run that departs from one says which version recorded it. The fixtures were recorded by
/// lifesim 0.1.0 (before 0.2.0 gave the appearance callbacks `animated`), 0.2.0 (before
/// 0.3.0 recorded what the launch methods return) and 0.3.0 (before 0.4.0 made every restored
/// controller before decoding any, added diagnostics and the SDK, and gave the iOS 26 scene note
/// its code).
@Suite(.serialized) struct OldLogTests {
  static let versions = ["0.1.0", "0.2.0"]
  static let logs = ["home_and_return.lifelog", "did_enter_background_overrun.lifelog"]

  static func folder(_ version: String) -> String {
    repositoryRoot.path + "/Tests/CLITests/Fixtures/lifesim-\(version)"
  }

  @Test(arguments: versions) func everyCommandReadsAnOlderLog(_ version: String) throws {
    for name in Self.logs {
      let log = Self.folder(version) + "/" + name
      let verify = try lifesim(["verify", log])
      #expect(verify.status == 0 && verify.out.hasPrefix("\(log): intact and complete: "), "\(name): \(verify.out)\(verify.err)")
      let replay = try lifesim(["replay", log, "--state"])
      #expect(replay.status == 0 && replay.out.contains("expectations: "), "\(name): \(replay.err)")
      for format in ["chrome-trace", "mermaid", "jsonl", "html"] {
        let out = temp("old-\(version)-\(name).\(format)")
        let export = try lifesim(["export", log, "--format", format, "-o", out])
        #expect(export.status == 0, "\(name) \(format): \(export.err)")
      }
      let tables = try lifesim(["export", log, "--format", "tables", "-o", temp("old-\(version)-\(name)-tables")])
      #expect(tables.status == 0, "\(name) tables: \(tables.err)")
    }
    let diff = try lifesim(["diff", Self.folder(version) + "/" + Self.logs[0], Self.folder(version) + "/" + Self.logs[1]])
    #expect(diff.status == 1 && diff.out.contains("← differs"), "\(diff.err)")
  }

  /// An older log's terminations get MetricKit 27's category and foreground at read time, from
  /// the recorded reason and the events before it: in the outcome, the trace and the tables.
  @Test(arguments: versions) func anOlderLogsTerminationsGetTheirCategory(_ version: String) throws {
    let log = Self.folder(version) + "/did_enter_background_overrun.lifelog"
    let json = try lifesim(["replay", log, "--json"])
    #expect(json.status == 0 && json.out.hasSuffix(#"of 5.00 seconds","category":"watchdog","foreground":false}],"expectations":{"passed":2,"failed":0},"stored":{"draft":"!"}}}"# + "\n"), "\(json.out)")
    let trace = try lifesim(["replay", log], env: ["NO_COLOR": "1"])
    #expect(trace.out.contains("allowance of 5.00 seconds [watchdog, background]\n"), "\(trace.out)")
    let dir = temp("old-\(version)-categories")
    try? FileManager.default.removeItem(atPath: dir)
    #expect(try lifesim(["export", log, "--format", "tables", "-o", dir]).status == 0)
    let events = try String(contentsOfFile: dir + "/events.jsonl", encoding: .utf8)
    #expect(events.contains(#""killed":false,"termination_category":"watchdog","foreground":false,"value_json":{"reason":"watchdog""#), "\(events)")
  }

  /// Both versions depart at the process start: their notes app, which declares no deployment
  /// target, keeps an app-delegate method a scene app never hears, and the run now says so.
  @Test(arguments: versions) func aReRunThatDepartsNamesTheVersionThatRecordedTheLog(_ version: String) throws {
    let log = Self.folder(version) + "/home_and_return.lifelog"
    let r = try lifesim(["replay", log, "--verify"])
    #expect(r.status == 1)
    #expect(r.err.hasPrefix("lifesim: note: \(log) was recorded by lifesim \(version); this is 0.4.0. The same scripts and seed give identical events only within one version.\n"))
    #expect(r.out.hasPrefix("Diverged at event 3 (t = 0.000000 s):\n"), "\(r.out)")
    #expect(r.out.contains(#""kind":"note","name":"AppDelegate.applicationDidEnterBackground","#), "\(r.out)")
    #expect(r.out.contains(#""code":"handler_never_called"}"#), "\(r.out)")
  }

  /// A 0.3.0 log of the bundled legacy_restoration scenario departs where 0.4.0 makes the second
  /// controller before the first one's view loads, and the note names the recording version.
  @Test func aReRunOfARestorationRecordedBeforeTheNewOrderNamesItsVersion() throws {
    let log = Self.folder("0.3.0") + "/legacy_restoration.lifelog"
    let r = try lifesim(["replay", log, "--verify"])
    #expect(r.status == 1)
    #expect(r.err == "lifesim: note: \(log) was recorded by lifesim 0.3.0; this is 0.4.0. The same scripts and seed give identical events only within one version.\n")
    #expect(r.out.hasPrefix("""
      Diverged at event 59 (t = 0.000000 s):
        recorded:  {"seq":59,"t":0,"kind":"callback","name":"loadView()","target":"ArticleList#2","handled":false,"depth":0}
        this run:  {"seq":59,"t":0,"kind":"callback","name":"application(_:viewControllerWithRestorationIdentifierPath:coder:)","target":"AppDelegate","handled":false,"depth":0,"payload":{"path":["article"],"coder":{"article":1}}}

      """), "\(r.out)")
  }

  /// An iOS 26 sceneless run recorded by 0.3.0: every command reads it; its re-run departs at
  /// the scene note, which 0.4.0 gives a code, and says that 0.3.0 recorded it.
  @Test func aLogFromBeforeTheSDKReadsAsTheDefaultAndNamesItsVersionWhereItDeparts() throws {
    let log = Self.folder("0.3.0") + "/ios26_sceneless.lifelog"
    let verify = try lifesim(["verify", log])
    #expect(verify.status == 0 && verify.out.hasPrefix("\(log): intact and complete: "), "\(verify.out)\(verify.err)")
    let state = try lifesim(["replay", log, "--state"])
    #expect(state.status == 0 && state.out.contains("expectations: "), "\(state.err)")
    let r = try lifesim(["replay", log, "--verify"])
    #expect(r.status == 1)
    #expect(r.err.hasPrefix("lifesim: note: \(log) was recorded by lifesim 0.3.0; this is 0.4.0. The same scripts and seed give identical events only within one version.\n"))
    #expect(r.out.hasPrefix("Diverged at event 3 (t = 0.000000 s):\n"), "\(r.out)")
    #expect(r.out.contains(#""message":"UIScene lifecycle will soon be required. Failure to adopt will result in an assert in the future.","code":"scene_lifecycle_required"}"#), "\(r.out)")
  }
}
