import Foundation
import Testing
import EventStore
import Lifecycle
@testable import Explore
import ScriptHost

/// Explore steers the app's `choose` sites: each run draws them from a stream of its own, the
/// shrinker leaves to the seed those a failure does not need, and the finding's scenario forces
/// the rest.
@Suite struct ExploreChoiceTests {
  let gate = exploreApps + "/choose_gate.lua"

  @Test("explore finds a crash that needs three choose outcomes the seed does not give, and the finding forces only those")
  func steeredChoicesFindAndReproduce() throws {
    let explorer = try Explorer(ExploreOptions(path: gate, runs: 300, seed: 2, jobs: 2))
    let result = try explorer.explore()
    #expect(result.findings.map(\.signature.text) == ["crash in SceneDelegate.sceneDidEnterBackground(_:)"])
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-choose-\(getpid())-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let report = try ExploreOutput.write(result, explorer: explorer, to: dir)
    #expect(report.findings.map(\.reproduces) == [true])
    let text = String(decoding: FileManager.default.contents(atPath: dir + "/finding-1.lua") ?? Data(), as: UTF8.self)
    let lines = text.split(separator: "\n").map(String.init)
    #expect(lines.dropFirst(3).first == "scenario { app = \"\(ExploreOutput.relativePath(from: dir, to: gate))\", ios = 17, scenes = true, seed = 2, "
      + "choose = { [\"Gate.swift:3@1\"] = true, [\"Gate.swift:4@1\"] = false, [\"Gate.swift:5@1\"] = true } }")
    #expect(Array(lines.dropFirst(4)) == ["launch()", "home()"])
    let run = ScenarioRunner(RunConfiguration(scenarioPath: dir + "/finding-1.lua")) { _, _ in }.run()
    #expect(run.exitStatus == 1)
    #expect(run.state.unexpectedFaults.map(\.reason) == [.crash])
  }

  @Test("the same verbs with the seed's outcomes do not fail, and with the steered ones they do")
  func theSeedAloneDoesNotArmTheGate() throws {
    let worker = try ExploreWorker(ExploreSetup(ExploreOptions(path: gate, seed: 2)))
    let verbs: [Input] = [.launch(url: nil), .lock]
    #expect(worker.run(.fixed(verbs)).failure == nil)
    let armed = ["Gate.swift:3@1": true, "Gate.swift:4@1": false, "Gate.swift:5@1": true]
    let failing = worker.run(.fixed(verbs, choices: armed))
    #expect(failing.failure?.text == "crash in SceneDelegate.sceneDidEnterBackground(_:)")
    #expect(failing.choices == armed)
  }

  @Test("two runs draw their choose outcomes from their own streams; a replay draws none")
  func runsSteerDifferently() throws {
    let worker = try ExploreWorker(ExploreSetup(ExploreOptions(path: gate, seed: 2)))
    func steered(_ stream: Int64) -> [String: Bool] {
      worker.run(.random(prefix: [.launch(url: nil)], random: ExploreRandom(seed: 2, stream: 0),
                         choices: SteeredChoices(drawingFrom: ExploreRandom(seed: 2, stream: stream)))).choices
    }
    let outcomes = Set((1...8).map { steered(-$0) })
    #expect(outcomes.count > 1)
    #expect(steered(-1) == steered(-1))
    #expect(steered(-1).keys.filter { $0.hasSuffix("@1") }.count == 5)
    #expect(worker.run(.fixed([.launch(url: nil)], choices: ["Gate.swift:3@1": true])).choices == ["Gate.swift:3@1": true])
  }

  /// A run that extends a kept run replays its prefix with the kept run's outcomes: drawn
  /// afresh, they could take the prefix to other states, where a verb of it is refused (a false
  /// finding: the refusal of the verb, not a fault of the app).
  @Test("a run extending a kept run replays the kept run's choose outcomes along its prefix")
  func anExtendedRunReplaysTheKeptOutcomes() throws {
    let worker = try ExploreWorker(ExploreSetup(ExploreOptions(path: gate, seed: 2)))
    let kept = worker.run(.random(prefix: [.launch(url: nil)], random: ExploreRandom(seed: 2, stream: 5),
                                  choices: SteeredChoices(drawingFrom: ExploreRandom(seed: 2, stream: -6))))
    #expect(!kept.choices.isEmpty)
    for stream in 1...8 {
      let extended = worker.run(.random(prefix: kept.inputs, random: ExploreRandom(seed: 2, stream: Int64(100 + stream)),
                                        choices: SteeredChoices(drawingFrom: ExploreRandom(seed: 2, stream: -Int64(100 + stream)),
                                                                known: kept.choices)))
      #expect(Array(extended.inputs.prefix(kept.inputs.count)) == kept.inputs)
      #expect(kept.choices.allSatisfy { extended.choices[$0.key] == $0.value }, "stream \(stream)")
    }
  }

  @Test("a site whose SITE@N key a scenario could not force is left to the seed; a site named like a key takes its value")
  func keysAScenarioCannotForceAreNotSteered() {
    let steering = SteeredChoices(drawingFrom: ExploreRandom(seed: 1, stream: -1))
    let long = String(repeating: "s", count: ForcedChoices.maxSiteBytes - 1)
    #expect(steering.value(of: long, launch: 1) == nil)
    #expect(steering.asked.isEmpty)
    let drawn = steering.value(of: "A.swift:3", launch: 1)
    #expect(drawn != nil && steering.value(of: "A.swift:3@1", launch: 2) == drawn)
    #expect(Array(steering.asked.keys) == ["A.swift:3@1"])
  }

  @Test("a steered run forces at most as many outcomes as a scenario may")
  func steeringIsBounded() {
    let steering = SteeredChoices(drawingFrom: ExploreRandom(seed: 1, stream: -1))
    for n in 0..<100 { _ = steering.value(of: "Many.swift:\(n)", launch: 1) }
    #expect(steering.asked.count == ForcedChoices.maxSites)
    #expect(steering.value(of: "Many.swift:99", launch: 1) == nil)
    #expect(ForcedChoices(steered: steering.asked).values.count == ForcedChoices.maxSites)
  }
}
