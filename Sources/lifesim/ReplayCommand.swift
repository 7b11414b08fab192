import ArgumentParser
import EventStore
#if canImport(Glibc)
import Glibc
#endif
import Lifecycle
import Render
import RunComparison
import ScriptHost


struct Replay: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "replay",
    abstract: "Print a recorded run from its log alone, rebuild its state, or re-run it.",
    discussion: helpText("""
      Without options: prints the trace `run` printed, from the log alone (no script runs).
      --state prints the state rebuilt by folding the events (at the end, or at --until).
      --verify re-executes the scripts embedded in the log with the recorded seed and profile
      and checks that every event is identical. --app re-runs the recorded scenario against a
      changed app and reports where it departs.

      Exit status: 0 (identical / same); 1 diverged or departs; 2 unreadable log or script error
      (also when the recorded run stopped on one), or a log that ends without its trailer (a run
      that was killed: replayed as far as it goes).

      Examples:
        lifesim replay run.lifelog
        lifesim replay run.lifelog --until 40 --state
        lifesim replay run.lifelog --numbers --until 12.5s
        lifesim replay run.lifelog --verify
        lifesim replay run.lifelog --app Scripts/apps/notes_fixed.lua -o fixed.lifelog
      """)
  )

  @Argument(help: "The log to replay.")
  var log: String

  @Option(help: "Stop after this event number (40), or after the last event at or before this virtual time (12.5s).")
  var until: String?

  @Flag(help: "Show each event's number in the trace (what --until takes).")
  var numbers = false

  @Flag(help: "Print the state rebuilt from the events.")
  var state = false

  @Flag(help: "Re-run the embedded scripts and check every event is identical.")
  var verify = false

  @Option(help: "Re-run the recorded scenario against this app script.")
  var app: String?

  @OptionGroup var sdkOption: SDKOption

  @OptionGroup var modules: ModuleOptions

  @OptionGroup var out: OutputOptions

  @OptionGroup var guardOptions: RunGuardOptions

  @Flag(help: "JSON Lines: the events, then a final line with the outcome, state or verdict (docs/json.md).")
  var json = false

  @Flag(help: "With --app: fail (exit 1) on any diagnostic of the re-run, as scenario { strict = true } does.")
  var strict = false

  func validate() throws {
    if verify && app != nil { throw ValidationError("--verify and --app are separate: choose one") }
    if strict && app == nil { throw ValidationError("--strict goes with --app (a replay or --verify runs no new app)") }
    if out.output != nil && app == nil { throw ValidationError("-o goes with --app (a replay writes nothing otherwise)") }
    if sdkOption.sdk != nil && app == nil { throw ValidationError("--sdk goes with --app (a replay otherwise keeps the recorded SDK)") }
    if verify || app != nil {
      // A re-run is compared whole: nothing a trace option asks for would be honoured.
      let mode = verify ? "--verify" : "--app"
      if until != nil { throw ValidationError("--until goes with the trace and --state; \(mode) re-runs the whole log") }
      if state { throw ValidationError("--state goes with the trace; \(mode) re-runs the whole log") }
      if numbers { throw ValidationError("--numbers goes with the trace; \(mode) prints no trace") }
    }
    if let until { _ = try limit(until) }
  }

  private func limit(_ text: String) throws -> ReplayLimit {
    do { return try ReplayLimit.parse(text) } catch { throw ValidationError(error.description) }
  }

  /// The replay from the log alone (no --verify, no --app): what `LogReplay.quick` must make of
  /// the same arguments.
  var logReplay: LogReplay? {
    guard !verify && app == nil else { return nil }
    let until = self.until.flatMap { try? ReplayLimit.parse($0) }  // checked by validate()
    return LogReplay(log: log, until: until, numbers: numbers, state: state, json: json)
  }

  func run() throws {
    if let logReplay { try logReplay.execute() }
    defer { Terminal.flush() }
    if json { JSONLines.begin("replay") }
    do {
      // Read and re-hashed on a thread of its own while the scenario re-runs on this one.
      throw ExitCode(try rerun(BackgroundLogScanner(try LogScanner(path: log, checksChain: true))))
    } catch let problem as LogProblem {
      Terminal.error(problem.description)
      throw ExitCode(Status.trouble)
    }
  }

  /// --verify and --app: re-run and compare event by event.
  private func rerun(_ recording: BackgroundLogScanner) throws -> Int32 {
    let header = recording.header
    if header.lifesim != lifesimVersion {
      Terminal.errorLine("lifesim: note: \(log) was recorded by lifesim \(header.lifesim); this is \(lifesimVersion). The same scripts and seed give identical events only within one version.")
    }
    guard let scenario = header.scripts.first(where: { $0.role == "scenario" }),
          let recordedApp = header.scripts.first(where: { $0.role == "app" }) else {
      Terminal.error("\(log): the header embeds no scenario or app script")
      return Status.trouble
    }
    let profile: Profile
    do { profile = try Profile(json: header.profile) } catch {
      Terminal.error("\(log): \(error)")
      return Status.trouble
    }
    var scripts = header.scripts
    var appPath = recordedApp.path
    if let app {
      do {
        let text = try readScriptFile(app)
        let modules = try requiredModules(of: text, path: app, searchPath: modules.searchPath)
        scripts = ModuleSide.replacingApp(in: scripts, path: app, source: text, modules: modules)
        appPath = app
      } catch {
        Terminal.error(error.message)
        return Status.trouble
      }
    }
    // -o: the new log appears only when the re-run is complete.
    let target: OutputTarget?
    do { target = try out.output.map { try OutputTarget(path: $0, overwrite: out.force, inputs: [log] + (app.map { [$0] } ?? [])) } } catch {
      Terminal.error("\(error)")
      return Status.trouble
    }
    var config = RunConfiguration(
      scenarioPath: scenario.path, appPath: appPath, seed: header.seed, outputPath: target?.writePath,
      overwrite: target?.renames == false, source: .embedded(scripts), recordedProfile: profile)
    config.sdk = sdkOption.sdk
    config.appSDKOverridesRecorded = app != nil
    guardOptions.apply(to: &config)
    config.strict = strict
    let comparison = ReplayComparison(recording: recording, ignoreSource: app != nil)
    var progress = Progress(app == nil ? "replay --verify" : "replay --app")
    var changedApp = ChangedAppOutcome()
    let result = ScenarioRunner(config) { seq, event in
      comparison.check(seq: seq, event)
      if app != nil { changedApp.note(seq: seq, event) }
      progress.tick()
    }.run()
    progress.finish()
    comparison.finish()
    var status = report(result, comparison, changedApp: app == nil ? nil : changedApp, seed: header.seed)
    if let target {
      if status == Status.trouble { target.discard() } else {
        do { try target.commit() } catch {
          Terminal.error("\(error)")
          status = Status.trouble
        }
      }
    }
    return status
  }

  /// The verdict of a re-run, printed (with `--app`, the changed app's outcome after where it
  /// departs); its exit status.
  private func report(_ result: RunResult, _ comparison: ReplayComparison, changedApp: ChangedAppOutcome?, seed: Int64) -> Int32 {
    if let problem = comparison.problem {
      Terminal.error("\(log): \(problem)")
      return Status.trouble
    }
    // A recording cut off before its trailer cannot say whether the re-run matches past the cut.
    if let n = comparison.cutOffAfter {
      Terminal.error("\(log): \(LogEnding.noTrailerMessage(afterEvent: n))")
      return Status.trouble
    }
    // A re-run stopped by a script error is trouble, wherever it departed before it stopped.
    let stopped = result.exitStatus == Status.trouble ? result.error : nil
    guard let d = comparison.divergence else {
      if let stopped {
        Terminal.error(stopped)
        return Status.trouble
      }
      // Under --strict (or the scenario's strict = true) a diagnostic of the new app fails it.
      let failedDiagnostic = app == nil ? nil : result.failedDiagnostic
      let status = failedDiagnostic == nil ? Status.ok : Status.failed
      if json {
        JSONLines.end(status: status, [("verdict", .string(app == nil ? "identical" : "same")), ("events", .int(result.events))]
                        + (failedDiagnostic.map { [("diagnostic", .string($0))] } ?? []))
      } else {
        Terminal.write("\(log): \(app == nil ? "identical" : "same"): \(result.events) events re-ran as recorded")
        if let failedDiagnostic { Terminal.write("Failed: diagnostic \(failedDiagnostic) (--strict).") }
      }
      return status
    }
    let status = stopped == nil ? Status.failed : Status.trouble
    if json {
      JSONLines.end(status: status, [("verdict", .string(app == nil ? "diverged" : "departs")), ("events", .int(result.events)),
                                     ("divergence", d.json)] + (changedApp?.json(result) ?? []) + (stopped.map { [("error", .string($0))] } ?? []))
    } else {
      Terminal.write(d.text(departs: app != nil))
      if let changedApp, let app { Terminal.write(changedApp.text(app: app, result, seed: seed)) }
    }
    if let stopped { Terminal.error(stopped) }
    return status
  }

}
