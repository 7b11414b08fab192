import Foundation
import EventStore
import Lifecycle
@testable import ScriptHost

/// Runs a scenario that launches an app whose viewDidLoad runs `body`, and returns the run.
func runApp(_ body: String, knobs: String = "") throws -> (RunResult, [Event]) {
  let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-sandbox-\(getpid())-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
  let app = dir.appendingPathComponent("app.lua").path
  let scenario = dir.appendingPathComponent("s.lua").path
  try "app { root = \"Home\" }\ncontroller \"Home\" { viewDidLoad = function(vc)\n\(body)\nend }\n"
    .write(toFile: app, atomically: true, encoding: .utf8)
  try "scenario { app = \"app.lua\", knobs = { \(knobs) } }\nlaunch()\n".write(toFile: scenario, atomically: true, encoding: .utf8)
  var events: [Event] = []
  let result = ScenarioRunner(RunConfiguration(scenarioPath: scenario)) { _, e in events.append(e) }.run()
  return (result, events)
}

/// Runs `source` as a scenario with no app; returns the run.
func runScenario(_ source: String) throws -> RunResult {
  let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-scenario-\(getpid())-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
  let scenario = dir.appendingPathComponent("s.lua").path
  try source.write(toFile: scenario, atomically: true, encoding: .utf8)
  return ScenarioRunner(RunConfiguration(scenarioPath: scenario)) { _, _ in }.run()
}
