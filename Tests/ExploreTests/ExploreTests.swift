import Foundation
import Testing
import EventStore
import Lifecycle
@testable import Explore
import ScriptHost

/// The planted-bug apps and specs of these tests.
let exploreApps = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("ExploreApps").path

/// Explores `app` (a file in ExploreApps) and writes the findings to a new folder.
private func explore(_ app: String, runs: Int, jobs: Int = 2, seed: Int64 = 1, shard: Shard = Shard(index: 1, count: 1),
                     steps: Int? = nil) throws -> (ExploreResult, ExploreReport, String) {
  let explorer = try Explorer(ExploreOptions(path: exploreApps + "/" + app, runs: runs, steps: steps, seed: seed,
                                             jobs: jobs, shard: shard))
  let result = try explorer.explore()
  let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-explore-\(getpid())-\(UUID().uuidString)").path
  let report = try ExploreOutput.write(result, explorer: explorer, to: dir)
  return (result, report, dir)
}

private func read(_ path: String) -> String {
  FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
}

/// The verb lines of a finding's scenario (what follows `scenario { … }`).
private func verbLines(_ scenario: String) -> [String] {
  let lines = scenario.split(separator: "\n").map(String.init)
  guard let start = lines.firstIndex(where: { $0.hasPrefix("scenario {") }) else { return [] }
  return Array(lines[(start + 1)...])
}

/// `lifesim run` of a written finding, from its file: it must fail (exit 1) the same way.
private func rerun(_ dir: String, _ name: String) -> RunResult {
  ScenarioRunner(RunConfiguration(scenarioPath: dir + "/" + name)) { _, _ in }.run()
}

@Suite(.serialized) struct ExploreTests {
  @Test("a crash that needs a rotation, the Editor on screen and a memory warning, in that order")
  func crashNeedingThreeVerbs() throws {
    let (result, report, dir) = try explore("crash_three.lua", runs: 800)
    #expect(result.findings.map(\.signature.text) == ["crash in Editor.didReceiveMemoryWarning()"])
    let lines = verbLines(read(dir + "/finding-1.lua"))
    #expect(lines.count == 4)
    #expect(lines.first == "launch()")
    #expect(lines.dropFirst().first == "rotate(\"landscape\")")
    #expect(lines.dropFirst(2).first == "present(\"Editor\")" || lines.dropFirst(2).first == "push(\"Editor\")")
    #expect(lines.last == "memory_warning()")
    #expect(report.findings.first?.reproduces == true)
    let run = rerun(dir, "finding-1.lua")
    #expect(run.exitStatus == 1)
    #expect(run.state.unexpectedFaults.map(\.reason) == [.crash])
    #expect(FileManager.default.fileExists(atPath: dir + "/finding-1.lifelog"))
    guard case .intact = LogVerification.check(path: dir + "/finding-1.lifelog") else {
      Issue.record("the finding's log is not intact")
      return
    }
  }

  @Test("a watchdog that needs the sheet on screen when the app goes home")
  func pathDependentWatchdog() throws {
    let (result, _, dir) = try explore("watchdog_path.lua", runs: 400)
    #expect(result.findings.map(\.signature.text) == ["watchdog in SceneDelegate.sceneDidEnterBackground(_:)"])
    let lines = verbLines(read(dir + "/finding-1.lua"))
    #expect(lines.count == 3)
    #expect(lines.first == "launch()")
    #expect(lines.dropFirst().first?.hasSuffix("(\"Sheet\")") == true)
    #expect(["home()", "lock()"].contains(lines.last ?? ""))
    #expect(rerun(dir, "finding-1.lua").exitStatus == 1)
  }

  @Test("a background task leaked after a lock is found once time passes, shrunk to launch, lock, advance")
  func leakedTaskNeedsLockAndTime() throws {
    let (result, _, dir) = try explore("leaked_task.lua", runs: 800)
    #expect(result.findings.map(\.signature.text) == ["background_task_expired during advance"])
    #expect(verbLines(read(dir + "/finding-1.lua")) == ["launch()", "lock()", "advance(30.1)"])
    #expect(rerun(dir, "finding-1.lua").exitStatus == 1)
  }

  @Test("a clean app gives no findings (1,000 runs here in the debug build; bench/explore runs 10,000 in release)")
  func cleanAppNoFindings() throws {
    let (result, report, _) = try explore("clean.lua", runs: 1_000)
    #expect(result.runs == 1_000)
    #expect(result.findings.isEmpty)
    #expect(report.findings.isEmpty)
    #expect(result.covered.count > 40)
  }

  @Test("the same seed gives the same report and findings, byte for byte, with one thread or two")
  func determinismAcrossJobs() throws {
    let (_, _, one) = try explore("crash_three.lua", runs: 300, jobs: 1, seed: 5)
    let (_, _, two) = try explore("crash_three.lua", runs: 300, jobs: 2, seed: 5)
    #expect(!read(one + "/report.json").isEmpty)
    #expect(read(one + "/report.json") == read(two + "/report.json"))
    #expect(read(one + "/finding-1.lua") == read(two + "/finding-1.lua"))
    let (_, _, other) = try explore("crash_three.lua", runs: 300, jobs: 1, seed: 6)
    #expect(read(one + "/report.json") != read(other + "/report.json"))
  }

  @Test("four shards merged equal one process: runs, events, coverage and findings")
  func shardsMergeToOneProcess() throws {
    let (_, whole, wholeDir) = try explore("watchdog_path.lua", runs: 200, seed: 3)
    var dirs: [String] = []
    var shardRuns = 0
    for k in 1...4 {
      let (result, _, dir) = try explore("watchdog_path.lua", runs: 200, seed: 3, shard: Shard(index: k, count: 4))
      shardRuns += result.runs
      dirs.append(dir)
    }
    #expect(shardRuns == 200)
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-merge-\(getpid())-\(UUID().uuidString)").path
    var merged = try ExploreOutput.merge(dirs, into: out)
    #expect(merged.shard == "merged")
    merged.shard = whole.shard
    #expect(merged == whole)
    #expect(!whole.findings.isEmpty)
    #expect(read(out + "/finding-1.lua") == read(wholeDir + "/finding-1.lua"))
  }

  @Test("an invariant of a spec is checked after every verb and written into the finding's scenario")
  func specInvariant() throws {
    let (result, _, dir) = try explore("draft_spec.lua", runs: 400)
    #expect(result.findings.map(\.signature.text) == ["invariant \"the draft survives a memory warning\" violated"])
    let text = read(dir + "/finding-1.lua")
    #expect(text.contains("local invariant = function()"))
    #expect(verbLines(text).last == "expect(invariant(), \"invariant \\\"the draft survives a memory warning\\\" holds\")")
    #expect(rerun(dir, "finding-1.lua").exitStatus == 1)
  }

  @Test("shrinking keeps only the verbs a failure needs, and simplifies advance")
  func shrinkerDeletesAndSimplifies() throws {
    let setup = try ExploreSetup(ExploreOptions(path: exploreApps + "/leaked_task.lua"))
    let worker = try ExploreWorker(setup)
    let noise: [Input] = [.rotate(.landscape), .memoryWarning, .rotate(.portrait)]
    let failing = worker.run(.fixed(noise + [.launch(url: nil)] + noise + [.lock, .advance(us: 179_900_000)] + noise))
    let signature = try #require(failing.failure)
    var shrinker = Shrinker(worker: worker, signature: signature)
    #expect(shrinker.shrink(failing).inputs == [.launch(url: nil), .lock, .advance(us: 30_100_000)])
  }

  @Test("every transition explore performs is one the profile allows, with scenes and without")
  func coveredTransitionsAreAllowed() throws {
    for scenes in [true, false] {
      let explorer = try Explorer(ExploreOptions(path: exploreApps + "/clean.lua", scenes: scenes ? nil : false, runs: 300, jobs: 2))
      let result = try explorer.explore()
      #expect(result.covered.subtracting(result.total).map(\.text).sorted() == [], "scenes: \(scenes)")
    }
  }

  @Test("a time budget stops the runs and still counts each one")
  func timeBudget() throws {
    let explorer = try Explorer(ExploreOptions(path: exploreApps + "/clean.lua", timeSeconds: 0.5, jobs: 2))
    let start = Date()
    let result = try explorer.explore()
    #expect(Date().timeIntervalSince(start) < 20)
    #expect(result.runs > 0)
    #expect(result.findings.isEmpty)
  }

  @Test("a finding's verbs are written as the scenario API spells them")
  func verbText() {
    #expect(VerbCallText.call(.present("A", style: .formSheet, navigation: true)) == "present(\"A\", { navigation = true, style = \"formSheet\" })")
    #expect(VerbCallText.call(.advance(us: 4_900_000)) == "advance(4.9)")
    #expect(VerbCallText.call(.advance(us: 180_000_000)) == "advance(180)")
    #expect(VerbCallText.call(.advance(us: 1)) == "advance(0.000001)")
    #expect(VerbCallText.call(.swipeBack(cancel: true)) == "swipe_back { cancel = true }")
    #expect(VerbCallText.call(.openURL("a\"b")) == "open_url(\"a\\\"b\")")
  }
}

extension ExploreTests {
  @Test("a draft lost when the system reclaims the app after the user typed: the finding needs act(\"type\", …)")
  func dataLossNeedingAUserAction() throws {
    let (result, report, dir) = try explore("editor_spec.lua", runs: 200)
    #expect(result.findings.map(\.signature.text) == ["invariant \"the draft survives any termination\" violated"])
    let text = read(dir + "/finding-1.lua")
    #expect(verbLines(text).filter { !$0.hasPrefix(" ") && !$0.hasPrefix("local") && $0 != "end" } == [
      "launch()", "act(\"type\", \"hello\")", "reboot()",
      "expect(invariant(), \"invariant \\\"the draft survives any termination\\\" holds\")",
    ])
    #expect(rerun(dir, "finding-1.lua").exitStatus == 1)
    #expect(report.reached.contains("active/foregroundActive/act"))
    #expect(!report.neverReached.contains { $0.hasSuffix("/act") })
  }

  @Test("without a spec's argument lists an action is called with none; a spec may not list an action no controller declares")
  func actionArgumentLists() throws {
    let setup = try ExploreSetup(ExploreOptions(path: exploreApps + "/editor.lua"))
    #expect(setup.actions.calls == [.act("save", arguments: []), .act("type", arguments: [])])
    let spec = try ExploreSetup(ExploreOptions(path: exploreApps + "/editor_spec.lua"))
    #expect(spec.actions.calls == [.act("save", arguments: []), .act("type", arguments: [.string("hello")]),
                                   .act("type", arguments: [.string("")])])
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-act-spec-\(getpid())").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let app = dir + "/editor.lua"
    try? FileManager.default.removeItem(atPath: app)
    try FileManager.default.copyItem(atPath: exploreApps + "/editor.lua", toPath: app)
    for (actions, problem) in [
      ("{ tpye = { \"x\" } }", "\(dir)/spec.lua: explore: actions lists \"tpye\", which no controller of the app declares (did you mean type?)"),
      ("{ type = \"x\" }", "\(dir)/spec.lua:1: explore: actions must map action names to lists of arguments: actions = { type = { \"hello\", \"\" } }"),
      ("{ type = { { {} } } }", "\(dir)/spec.lua:1: explore: actions.type[1] must be a string, a number, a boolean or a list of at most 64 of them (the arguments of one call)"),
    ] {
      try "explore { app = \"editor.lua\", actions = \(actions) }\n".write(toFile: dir + "/spec.lua", atomically: true, encoding: .utf8)
      #expect(throws: ScriptError(problem)) { try ExploreSetup(ExploreOptions(path: dir + "/spec.lua")) }
    }
  }
}

extension ExploreTests {
  @Test("a failing user action is named by its action, so two failing actions are two signatures")
  func failingActionsAreNamedByAction() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-act-crash-\(getpid())").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    try """
      app { root = "Editor" }
      controller "Editor" { actions = { save = function(vc) error("disk full") end, sync = function(vc) work(11) end } }
      """.write(toFile: dir + "/app.lua", atomically: true, encoding: .utf8)
    let worker = try ExploreWorker(try ExploreSetup(ExploreOptions(path: dir + "/app.lua")))
    let save = worker.run(.fixed([.launch(url: nil), .act("save", arguments: [])]))
    #expect(save.failure == FailureSignature(reason: "crash", place: "Editor.action(save)"))
    let sync = worker.run(.fixed([.launch(url: nil), .act("sync", arguments: [])]))
    #expect(sync.failure == FailureSignature(reason: "watchdog", place: "Editor.action(sync)"))
    #expect(sync.callbacks.names.contains("Editor.action(_:)"))
  }

  @Test("shrinking an act tries the action's earlier argument lists, simplest first")
  func shrinkingAnActionTriesEarlierArgumentLists() {
    let catalog = ActionCatalog(byController: ["Editor": ["type"]],
                                argumentLists: ["type": [[.string("hello")], [.string("")], [.string("a"), .int(2)]]])
    #expect(Shrinker.simpler(.act("type", arguments: [.string("a"), .int(2)]), controllers: [], actions: catalog) == [
      .act("type", arguments: [.string("hello")]), .act("type", arguments: [.string("")]),
    ])
    #expect(Shrinker.simpler(.act("type", arguments: [.string("hello")]), controllers: [], actions: catalog) == [])
    #expect(Shrinker.simpler(.act("save", arguments: []), controllers: [], actions: catalog) == [])
  }
}

extension ExploreTests {
  @Test("explore draws bg_task from the pending requests: a crashing refresh handler is found and shrunk")
  func backgroundRefreshCrash() throws {
    let (result, _, dir) = try explore("bg_refresh_crash.lua", runs: 300)
    #expect(result.findings.map(\.signature.text) == ["crash in BGTaskScheduler.launchHandler(_:)"])
    let text = read(dir + "/finding-1.lua")
    #expect(verbLines(text).filter { !$0.hasPrefix(" ") && !$0.hasPrefix("local") && $0 != "end" } == [
      "launch()", "lock()", "bg_task(\"com.example.refresh\")",
    ])
    #expect(rerun(dir, "finding-1.lua").exitStatus == 1)
  }
}

extension ExploreTests {
  @Test("explore draws cancel_task from the running continued tasks: a crashing expiration handler only the user's cancel reaches is found")
  func continuedTaskCancelCrash() throws {
    let explorer = try Explorer(ExploreOptions(path: exploreApps + "/continued_cancel_crash.lua", ios: 26, runs: 200, seed: 1, jobs: 2,
                                               shard: Shard(index: 1, count: 1)))
    let result = try explorer.explore()
    #expect(result.findings.map(\.signature.text) == ["crash in BGTask.expirationHandler()"])
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-explore-\(getpid())-\(UUID().uuidString)").path
    _ = try ExploreOutput.write(result, explorer: explorer, to: dir)
    let text = read(dir + "/finding-1.lua")
    #expect(text.contains("cancel_task(\"com.example.export.1\")"), "\(text)")
  }
}
