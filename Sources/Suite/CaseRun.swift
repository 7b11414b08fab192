import EventStore
import Lifecycle
import Render
import ScriptHost

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How every case of a run is run.
public struct CaseOptions: Sendable {
  /// Where `.lifelog`s go; nil: none is written.
  public var logsDirectory: String?
  /// Keep the log of every case that ran, not only of failures and errors.
  public var keepAllLogs: Bool
  /// Where `require` looks after the scenario's own folder.
  public var searchPath: [String]
  /// The last-resort guard on one call into a script.
  public var wallLimitSeconds: Int
  /// The most events one case may record (`--max-events`).
  public var maxEvents = RunConfiguration.defaultMaxEvents
  /// `--sdk`: the SDK every case's app is built with, over its `app { sdk = … }`.
  public var sdk: Int?
  /// `--lib` folders, in the order given: the reproduce command names them.
  public var lib: [String]
  /// The scripts of the suite (`Discovery.inputs`): a kept log never lands on one.
  public var inputs: [String] = []
  /// `--strict`: any diagnostic fails a case.
  public var strict = false
  /// `--choose`: the app's `choose(site)` outcomes every case fixes (a case's own variant wins).
  public var choices = ForcedChoices()
  /// Where a case's log goes without `logsDirectory` (removed when the case ends): `$TMPDIR`, else `/tmp`.
  public var temporaryDirectory = PartialLog.temporaryDirectory
  /// Renders a failure's trace from the case's log.
  public var traceRenderer: TraceRenderer = { path, seqs in try TraceText.lines(ofLogAt: path, seqs: seqs) }

  public init(logsDirectory: String?, keepAllLogs: Bool, searchPath: [String], wallLimitSeconds: Int,
              lib: [String]) {
    self.logsDirectory = logsDirectory; self.keepAllLogs = keepAllLogs; self.searchPath = searchPath
    self.wallLimitSeconds = wallLimitSeconds; self.lib = lib
  }
}

/// Runs one case in this thread: its own two Lua states, simulator and log.
enum CaseRun {
  /// Runs `c`, unless `known` (what an earlier case of the same scenario declared) already
  /// says it is skipped: the declaration never depends on the profile, so the result is the same.
  /// Returns the result and the declaration of this run (nil when it did not run).
  static func run(_ c: SuiteCase, _ options: CaseOptions, known: ScenarioDeclaration?) -> (CaseResult, ScenarioDeclaration?) {
    if c.needsScenes, let ios = c.ios, !IOSRelease.hasScenes(ios) {
      return (skipped(c, ios: ios, "iOS \(ios) has no scenes: only the sceneless case runs", options), nil)
    }
    if let known {
      let ios = c.ios ?? known.ios ?? IOSRelease.defaultVersion
      if let reason = skipReason(c, known, ios: ios) { return (skipped(c, ios: ios, reason, options), nil) }
    }
    let (result, declared) = runScenario(c, options)
    return (result, declared)
  }

  /// Runs `c` with its log written to a partial file, judges it from the log, then keeps the log
  /// (`--logs`) or removes it.
  private static func runScenario(_ c: SuiteCase, _ options: CaseOptions) -> (CaseResult, ScenarioDeclaration?) {
    let started = SuiteClock.nowUs()
    let log: PartialLog
    switch PartialLog.create(in: options.logsDirectory, temporaryDirectory: options.temporaryDirectory) {
    case let .success(made): log = made
    case let .failure(error): return (notRun(c, ios: c.ios ?? IOSRelease.defaultVersion, .error, error.message, options), nil)
    }
    let observed = RunObservations()
    let result = ScenarioRunner(configuration(c, options, log: log.path)) { _, event in observed.observe(event.body) }.run()
    let wallUs = SuiteClock.nowUs() - started
    let declared = result.declaration
    let ios = c.ios ?? result.header?.profile["ios"]?.intValue.map(Int.init) ?? declared.ios ?? IOSRelease.defaultVersion
    let scenes = result.header?.scenes ?? (!c.sceneless && (declared.scenes ?? IOSRelease.hasScenes(ios)))
    if let reason = skipReason(c, declared, ios: ios) {
      log.discard()
      return (skipped(c, ios: ios, reason, options), declared)
    }
    var verdict = CaseVerdict(result, log: log.path, render: options.traceRenderer)
    var logPath: String?
    if log.isTemporary || (verdict.status == .passed && !options.keepAllLogs) {
      log.discard()
    } else {
      switch keep(log, as: keptLogName(c, ios: ios, options), options) {
      case let .success(kept): logPath = kept
      case let .failure(refusal):
        verdict.status = .error
        verdict.message = refusal.message
      }
    }
    let seed = result.header?.seed ?? 1
    var r = CaseResult(index: c.index, name: name(c, ios: ios), file: c.file.path, ios: ios, sceneless: c.sceneless, scenes: scenes,
                       seed: seed, status: verdict.status, message: verdict.message, at: verdict.at, trace: verdict.trace,
                       reproduce: reproduce(c, ios: ios, seed: seed, options), events: result.events,
                       virtualUs: result.endTime, wallUs: wallUs, logPath: logPath, warnings: result.warnings,
                       diagnostics: result.state.diagnostics)
    r.sdk = c.sdk
    r.choices = c.choices
    r.returnedWithoutCompletion = result.state.returnedWithoutCompletion.map(\.signature)
    r.forcedSitesReached = result.state.forcedSitesReached
    r.callbacksDelivered = observed.callbacks.names
    r.notesRecorded = observed.notes.names
    r.nilDelegateWindowReads = observed.nilWindowReads.names
    r.refusedRegistrations = observed.refusedRegistrations.names
    r.unshownFrameWindows = observed.unshownFrameWindows.names
    return (r, declared)
  }

  /// How `c` runs: its profile, its guards, and its log written to `log`.
  private static func configuration(_ c: SuiteCase, _ options: CaseOptions, log: String) -> RunConfiguration {
    var config = RunConfiguration(scenarioPath: c.file.path, ios: c.ios, scenes: c.sceneless ? false : nil,
                                  outputPath: log, overwrite: true, source: .files(searchPath: options.searchPath))
    config.wallLimitSeconds = options.wallLimitSeconds
    config.maxEvents = options.maxEvents
    config.strict = options.strict
    config.sdk = c.sdk ?? options.sdk
    config.choices = options.choices.merging(c.choices)
    return config
  }

  /// Where `--logs` keeps the log of `c`: its name, profile, and variant.
  private static func keptLogName(_ c: SuiteCase, ios: Int, _ options: CaseOptions) -> String {
    "\(options.logsDirectory ?? ".")/\(c.logBaseName)-ios\(ios)\(c.sceneless ? "-no-scenes" : "")\(c.sdk.map { "-sdk\($0)" } ?? "")\(c.choiceVariant == 0 ? "" : "-choice\(c.choiceVariant)").lifelog"
  }

  /// Renames the partial log to `final`, unless that would land on a script of the suite; the
  /// partial log is removed when it cannot be kept.
  private static func keep(_ log: PartialLog, as final: String, _ options: CaseOptions) -> Result<String, SuiteError> {
    if let refusal = FileIdentity.refusal(writing: final, over: options.inputs) {
      log.discard()
      return .failure(SuiteError(refusal))
    }
    if let error = POSIXFile.rename(log.path, to: final) {
      let message = "\(final): cannot keep the log: \(POSIXFile.describe(error.code))"
      log.discard()
      return .failure(SuiteError(message))
    }
    return .success(final)
  }

  /// Why a case that ran does not count: a combination that cannot exist, or a profile the scenario excludes.
  private static func skipReason(_ c: SuiteCase, _ declared: ScenarioDeclaration, ios: Int) -> String? {
    if c.needsScenes, declared.scenes == false {
      return "the scenario declares scenes = false: only the sceneless case runs"
    }
    if c.sceneless, declared.scenes == true {
      return "the scenario declares scenes = true: only the case with scenes runs"
    }
    if !c.sceneless, declared.scenes == true, !IOSRelease.hasScenes(ios) {
      return "the scenario declares scenes = true, and iOS \(ios) has no scenes"
    }
    if let range = declared.iosRange, !range.contains(ios) {
      return "ios_range \"\(range.text)\" excludes iOS \(ios)"
    }
    return nil
  }

  private static func skipped(_ c: SuiteCase, ios: Int, _ reason: String, _ options: CaseOptions) -> CaseResult {
    notRun(c, ios: ios, .skipped, reason, options)
  }

  /// A case that did not run: skipped, or an error before it could start (its log had nowhere to go).
  private static func notRun(_ c: SuiteCase, ios: Int, _ status: CaseResult.Status, _ message: String,
                             _ options: CaseOptions) -> CaseResult {
    var r = CaseResult(index: c.index, name: name(c, ios: ios), file: c.file.path, ios: ios, sceneless: c.sceneless, scenes: !c.sceneless,
                       seed: 1, status: status, message: message, at: nil, trace: [], reproduce: reproduce(c, ios: ios, seed: 1, options),
                       events: 0, virtualUs: 0, wallUs: 0, logPath: nil)
    r.sdk = c.sdk
    r.choices = c.choices
    return r
  }

  static func name(_ c: SuiteCase, ios: Int) -> String {
    "\(c.file.name) [iOS \(ios)\(c.sceneless ? ", no scenes" : "")\(c.sdk.map { ", SDK \($0)" } ?? "")\(c.choices.isEmpty ? "" : ", choose \(c.choices.text)")]"
  }

  /// The command that runs case `c` again: the one `RerunCommand` every reproduce line is.
  static func reproduce(_ c: SuiteCase, ios: Int, seed: Int64, _ options: CaseOptions) -> String {
    let plan = RunPlan.CommandLineLayer(ios: ios, sdk: c.sdk ?? options.sdk, noScenes: c.sceneless,
                                        choices: options.choices.merging(c.choices))
    return RerunCommand(scenario: c.file.path, plan: plan, strict: options.strict, lib: options.lib,
                        maxEvents: options.maxEvents == RunConfiguration.defaultMaxEvents ? nil : options.maxEvents,
                        seed: seed, libraryPath: getenv("LIFESIM_PATH").map { String(cString: $0) }).line
  }
}

extension String {
  /// Without terminal colour codes (SGR sequences such as `ESC[1;31m`).
  public var withoutColourCodes: String {
    guard utf8.contains(0x1B) else { return self }
    var out = ""
    var inEscape = false
    for scalar in unicodeScalars {
      if inEscape { if scalar.value >= 0x40 && scalar.value <= 0x7E && scalar != "[" { inEscape = false }; continue }
      if scalar == "\u{1B}" { inEscape = true; continue }
      out.unicodeScalars.append(scalar)
    }
    return out
  }
}

/// The monotonic clock the suite's wall-clock times come from.
public enum SuiteClock {
  public static func nowUs() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
  }
}
