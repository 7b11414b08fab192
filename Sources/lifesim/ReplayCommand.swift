import ArgumentParser
import EventStore
#if canImport(Glibc)
import Glibc
#endif
import Lifecycle
import Render
import RunComparison
import ScriptHost
import LifecycleLog


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
    let recording: BackgroundLogScanner
    do {
      // Read and re-hashed on a thread of its own while the scenario re-runs on this one.
      recording = BackgroundLogScanner(try RecordedLog.scanner(log, checksChain: true))
    } catch {
      Terminal.error(error.description)
      throw ExitCode(Status.trouble)
    }
    if let note = rerun.versionNote(recording.header) { Terminal.errorLine(note) }
    var progress = Progress(app == nil ? "replay --verify" : "replay --app")
    let tick: () -> Void = progress.enabled ? { progress.tick() } : {}  // as `diff`: no call an event when nothing shows
    let verdict = rerun.run(recording, onEvent: tick)
    progress.finish()
    switch verdict.finding {
    case let .trouble(message): Terminal.error(message)
    case .same, .departed:
      if json { JSONLines.end(status: verdict.status, verdict.endMembers) } else { verdict.text(log: log).forEach(Terminal.write) }
      if case let .departed(_, stopped?) = verdict.finding { Terminal.error(stopped) }
    }
    let (status, error) = verdict.keepOutput()
    if let error { Terminal.error(error) }
    throw ExitCode(status)
  }

  /// The re-run the options ask for (--verify, --app).
  private var rerun: ReplayRerun {
    var rerun = ReplayRerun(log: log)
    (rerun.app, rerun.searchPath, rerun.sdk, rerun.strict) = (app, modules.searchPath, sdkOption.sdk, strict)
    (rerun.output, rerun.force) = (out.output, out.force)
    (rerun.wallLimitSeconds, rerun.maxEvents) = (guardOptions.wallLimit, guardOptions.maxEvents)
    return rerun
  }
}
