import Foundation
import Lifecycle
@testable import ScriptHost

/// Writes `app` and `scenario` (whole sources) as app.lua and s.lua in a fresh folder and runs
/// the scenario; returns the run, its events and the scenario's path. The folder's name is short,
/// so that Lua names the scripts whole in error messages (it shortens long chunk names).
func runScripts(app: String, scenario: String) throws -> (result: RunResult, events: [Event], scenarioPath: String) {
  let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ls-\(UUID().uuidString.prefix(12))")
  try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
  let path = dir.appendingPathComponent("s.lua").path
  try app.write(toFile: dir.appendingPathComponent("app.lua").path, atomically: true, encoding: .utf8)
  try scenario.write(toFile: path, atomically: true, encoding: .utf8)
  var events: [Event] = []
  let result = ScenarioRunner(RunConfiguration(scenarioPath: path)) { _, e in events.append(e) }.run()
  return (result, events, path)
}

/// Runs a scenario that launches an app whose viewDidLoad runs `body`, and returns the run.
func runApp(_ body: String, knobs: String = "") throws -> (RunResult, [Event]) {
  let run = try runScripts(app: "app { root = \"Home\" }\ncontroller \"Home\" { viewDidLoad = function(vc)\n\(body)\nend }\n",
                           scenario: "scenario { app = \"app.lua\", knobs = { \(knobs) } }\nlaunch()\n")
  return (run.result, run.events)
}

/// Runs `source` as a scenario with no app; returns the run.
func runScenario(_ source: String) throws -> RunResult {
  let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-scenario-\(getpid())-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
  let scenario = dir.appendingPathComponent("s.lua").path
  try source.write(toFile: scenario, atomically: true, encoding: .utf8)
  return ScenarioRunner(RunConfiguration(scenarioPath: scenario)) { _, _ in }.run()
}
