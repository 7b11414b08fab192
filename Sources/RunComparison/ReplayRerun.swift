import EventStore
import Lifecycle
import ScriptHost

/// `replay --verify` and `replay --app`: the scenario a log embeds, run again with its seed and
/// profile (with `app`, against a changed app) and compared with the recording event by event.
package struct ReplayRerun {
  /// The recorded log.
  package let log: String
  /// `--app`: the changed app's script; nil: `--verify`, the recorded scripts.
  package var app: String?
  /// Where `require` looks after a script's folder.
  package var searchPath: [String] = []
  /// `--sdk`: the SDK the changed app is built with.
  package var sdk: Int?
  /// `-o`: where the re-run's log goes (it appears only when the re-run is complete).
  package var output: String?
  /// `--force`: `output` may replace a file.
  package var force = false
  /// `--strict`: a diagnostic of the changed app fails it.
  package var strict = false
  /// `--wall-limit`: the guard on one call into a script.
  package var wallLimitSeconds = WallClock.defaultLimitSeconds
  /// `--max-events`: the most events the re-run may record.
  package var maxEvents = RunConfiguration.defaultMaxEvents

  /// A re-run of the log at `log`.
  package init(log: String) { self.log = log }

  /// The note when `header` was written by another version of lifesim, whose runs may differ.
  package func versionNote(_ header: LogHeader) -> String? {
    guard header.lifesim != lifesimVersion else { return nil }
    return "lifesim: note: \(log) was recorded by lifesim \(header.lifesim); this is \(lifesimVersion). The same scripts and seed give identical events only within one version."
  }

  /// Re-runs the recording's scenario and compares each event with it; `onEvent` is called after
  /// each (the command's progress). The verdict holds the `-o` log until `keepOutput`.
  package func run(_ recording: BackgroundLogScanner, onEvent: () -> Void = {}) -> ReplayVerdict {
    let header = recording.header
    guard let scenario = header.scripts.first(where: { $0.role == "scenario" }),
          let recordedApp = header.scripts.first(where: { $0.role == "app" }) else {
      return ReplayVerdict(trouble: "\(log): the header embeds no scenario or app script")
    }
    let profile: Profile
    do { profile = try Profile(json: header.profile) } catch { return ReplayVerdict(trouble: "\(log): \(error)") }
    var scripts = header.scripts
    if let app {
      do {
        let text = try readScriptFile(app)
        let modules = try requiredModules(of: text, path: app, searchPath: searchPath)
        scripts = ModuleSide.replacingApp(in: scripts, path: app, source: text, modules: modules)
      } catch {
        return ReplayVerdict(trouble: error.message)
      }
    }
    let target: OutputTarget?
    do { target = try output.map { try OutputTarget(path: $0, overwrite: force, inputs: [log] + (app.map { [$0] } ?? [])) } } catch {
      return ReplayVerdict(trouble: "\(error)")
    }
    var config = RunConfiguration(
      scenarioPath: scenario.path, appPath: app ?? recordedApp.path, seed: header.seed, outputPath: target?.writePath,
      overwrite: target?.renames == false, source: .embedded(scripts), recordedProfile: profile)
    config.sdk = sdk
    config.appSDKOverridesRecorded = app != nil
    (config.wallLimitSeconds, config.maxEvents, config.strict) = (wallLimitSeconds, maxEvents, strict)
    let comparison = ReplayComparison(recording: recording, ignoreSource: app != nil)
    var changedApp = ChangedAppOutcome()
    // The runner keeps its observer only while it runs.
    let result = withoutActuallyEscaping(onEvent) { onEvent in
      ScenarioRunner(config) { seq, event in
        comparison.check(seq: seq, event)
        if app != nil { changedApp.note(seq: seq, event) }
        onEvent()
      }.run()
    }
    comparison.finish()
    changedApp.end(state: result.state, events: result.events, outcome: result.outcome)
    var verdict = ReplayVerdict(log: log, seed: header.seed, comparison, result, app: app, changedApp: app == nil ? nil : changedApp)
    verdict.output = target
    return verdict
  }
}
