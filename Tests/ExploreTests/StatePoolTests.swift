import Foundation
import Testing
import Lifecycle
@testable import Explore
import ScriptHost

/// Explore's workers start the app's processes from checkpoints of their Lua state
/// (`AppStatePool`): the results must be the ones building every state gives, byte for byte.
@Suite(.serialized) struct StatePoolTests {
  /// The report and findings of `runs` runs of `app`, with or without the pool.
  private func explore(_ app: String, runs: Int, seed: Int64, pooled: Bool) throws -> [String] {
    var options = ExploreOptions(path: exploreApps + "/" + app, runs: runs, seed: seed, jobs: 2)
    options.reusesProcessStates = pooled
    let explorer = try Explorer(options)
    let result = try explorer.explore()
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-pool-\(getpid())-\(UUID().uuidString)").path
    let report = try ExploreOutput.write(result, explorer: explorer, to: dir)
    let files = ["report.json"] + report.findings.indices.map { "finding-\($0 + 1).lua" }
    return ["runs \(result.runs) events \(result.events) virtual \(result.virtualUs)"]
      + files.map { name in FileManager.default.contents(atPath: dir + "/" + name).map { String(decoding: $0, as: UTF8.self) } ?? "" }
  }

  @Test("reports and findings are the same with process states restored from checkpoints as with states built at every start",
        arguments: ["process_state.lua", "crash_three.lua", "draft_spec.lua", "trial_probe.lua", "top_level_reads.lua"])
  func pooledEqualsBuilt(app: String) throws {
    for seed: Int64 in [1, 2, 3] {
      let pooled = try explore(app, runs: 150, seed: seed, pooled: true)
      let built = try explore(app, runs: 150, seed: seed, pooled: false)
      #expect(pooled.count > 1 && !pooled[1].isEmpty)
      #expect(pooled == built, "seed \(seed)")
    }
  }

  @Test("the planted process-state crash is found with its values as a fresh state has them")
  func freshStateFinding() throws {
    let found = try explore("process_state.lua", runs: 300, seed: 1, pooled: true)
    #expect(found.contains { $0.contains("third process: ") })
    #expect(!found.contains { $0.contains("state from an earlier process") })
  }

  @Test("a worker restores its states: a second run's process starts copy the checkpoints back")
  func workerRestores() throws {
    let setup = try ExploreSetup(ExploreOptions(path: exploreApps + "/process_state.lua"))
    let worker = try ExploreWorker(setup)
    // Two processes: the system reclaims the suspended app, and the user launches it again.
    let inputs: [Input] = [.launch(url: nil), .home, .advance(us: 10_000_000), .memoryPressure, .launch(url: nil)]
    let first = worker.run(.fixed(inputs))
    #expect(first.inputs == inputs)
    #expect(worker.processStatesRestored == 0)
    let second = worker.run(.fixed(inputs))
    #expect(worker.processStatesRestored == 2)
    #expect(first.events == second.events && first.failure == second.failure)
  }

  @Test("a top level that read the system runs again in every process: restored states still count their launches")
  func topLevelReadingTheSystemRunsEachTime() throws {
    let setup = try ExploreSetup(ExploreOptions(path: exploreApps + "/top_level_reads.lua"))
    let worker = try ExploreWorker(setup)
    let relaunch: [Input] = [.home, .advance(us: 10_000_000), .memoryPressure, .launch(url: nil)]
    let inputs: [Input] = [.launch(url: nil)] + relaunch + relaunch
    // The first run learns the top level varies, the second checkpoints before it, the third restores.
    let runs = (1...3).map { _ in worker.run(.fixed(inputs)) }
    #expect(runs[0].failureDetail.hasSuffix("third launch"))
    #expect(worker.processStatesRestored == 3 && worker.processStatesRestoredAfterTopLevel == 0)
    #expect(runs.allSatisfy { $0.failure == runs[0].failure && $0.failureDetail == runs[0].failureDetail && $0.inputs == inputs })
  }

  @Test("a top level that read nothing of the system is checkpointed after it: its declarations come back with the state")
  func pureTopLevelIsCheckpointedAfterIt() throws {
    let setup = try ExploreSetup(ExploreOptions(path: exploreApps + "/process_state.lua"))
    let worker = try ExploreWorker(setup)
    let inputs: [Input] = [.launch(url: nil), .home, .advance(us: 10_000_000), .memoryPressure, .launch(url: nil)]
    let first = worker.run(.fixed(inputs)), second = worker.run(.fixed(inputs))
    #expect(worker.processStatesRestored == 2 && worker.processStatesRestoredAfterTopLevel == 2)
    #expect(second.inputs == inputs && first.events == second.events && second.failure == nil)
    #expect(second.callbacks.names == first.callbacks.names && second.callbacks.names.contains("Main.viewDidLoad()"))
  }

  @Test("a trial load that made an app call is made again by the next run, not shared: it asked a choose site")
  func trialWithAnAppCallIsNotShared() throws {
    let setup = try ExploreSetup(ExploreOptions(path: exploreApps + "/trial_probe.lua", steps: 2))
    let worker = try ExploreWorker(setup)
    func probe() -> RunRecord {
      worker.run(.random(prefix: [.backgroundLaunch(.fetch)], random: ExploreRandom(seed: 1, stream: 1),
                         choices: SteeredChoices(drawingFrom: ExploreRandom(seed: 1, stream: 2))))
    }
    let first = probe(), second = probe()
    #expect(first.inputs.first == .backgroundLaunch(.fetch))
    #expect(first.choices.keys.sorted() == ["Probe.swift:1@1"])
    #expect(second.choices == first.choices && second.inputs == first.inputs)
  }
}
