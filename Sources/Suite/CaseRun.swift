import EventStore
import Lifecycle
import ScriptHost

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An event as the run produced it, for the trace of a failure.
public struct RecordedEvent: Sendable {
  public let seq: Int64
  public let event: Event
}

/// Turns a run's events into trace lines (the command's trace format); called only for failures.
public typealias TraceRenderer = @Sendable (_ events: ArraySlice<RecordedEvent>) -> [String]

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
  /// Options the reproduce command needs besides the profile and seed (`--lib DIR …`).
  public var reproduceOptions: [String]
  /// The scripts of the suite (`Discovery.inputs`): a kept log never lands on one.
  public var inputs: [String] = []
  /// `--strict`: any diagnostic fails a case.
  public var strict = false
  public var traceRenderer: TraceRenderer

  public init(logsDirectory: String?, keepAllLogs: Bool, searchPath: [String], wallLimitSeconds: Int,
              reproduceOptions: [String], traceRenderer: @escaping TraceRenderer) {
    self.logsDirectory = logsDirectory; self.keepAllLogs = keepAllLogs; self.searchPath = searchPath
    self.wallLimitSeconds = wallLimitSeconds; self.reproduceOptions = reproduceOptions; self.traceRenderer = traceRenderer
  }
}

/// Runs one case in this thread: its own two Lua states, simulator and log.
enum CaseRun {
  /// Trace lines shown before a failed expectation, and after it.
  static let linesBefore = 8, linesAfter = 3

  /// Runs `c`, unless `known` (what an earlier case of the same scenario declared) already
  /// says it is skipped: the declaration never depends on the profile, so the result is the same.
  /// Returns the result and the declaration of this run (nil when it did not run).
  static func run(_ c: SuiteCase, _ options: CaseOptions, known: ScenarioDeclaration?) -> (CaseResult, ScenarioDeclaration?) {
    if c.needsScenes, let ios = c.ios, ios < 13 {
      return (skipped(c, ios: ios, "iOS \(ios) has no scenes: only the sceneless case runs", options), nil)
    }
    if let known {
      let ios = c.ios ?? known.ios ?? 17
      if let reason = skipReason(c, known, ios: ios) { return (skipped(c, ios: ios, reason, options), nil) }
    }
    let (result, declared) = runScenario(c, options)
    return (result, declared)
  }

  private static func runScenario(_ c: SuiteCase, _ options: CaseOptions) -> (CaseResult, ScenarioDeclaration?) {
    let started = SuiteClock.nowUs()
    var partial: String?
    if let dir = options.logsDirectory {
      switch PartialLog.create(in: dir) {
      case let .success(path): partial = path
      case let .failure(error): return (notRun(c, ios: c.ios ?? 17, .error, error.message, options), nil)
      }
    }
    var config = RunConfiguration(scenarioPath: c.file.path, ios: c.ios, scenes: c.sceneless ? false : nil,
                                  outputPath: partial, overwrite: true, source: .files(searchPath: options.searchPath))
    config.wallLimitSeconds = options.wallLimitSeconds
    config.maxEvents = options.maxEvents
    config.strict = options.strict
    config.sdk = c.sdk ?? options.sdk
    var events: [RecordedEvent] = []
    let result = ScenarioRunner(config) { seq, event in events.append(RecordedEvent(seq: seq, event: event)) }.run()
    let wallUs = SuiteClock.nowUs() - started
    let declared = result.declaration
    let ios = c.ios ?? result.header?.profile["ios"]?.intValue.map(Int.init) ?? declared.ios ?? 17
    let scenes = result.header?.scenes ?? (!c.sceneless && (declared.scenes ?? (ios >= 13)))
    func discardLog() { if let partial { POSIXFile.remove(partial) } }

    if let reason = skipReason(c, declared, ios: ios) {
      discardLog()
      return (skipped(c, ios: ios, reason, options), declared)
    }
    let seed = result.header?.seed ?? 1
    var status: CaseResult.Status = .passed
    var message: String?, at: String?
    var trace: [String] = []
    if let problem = result.error {
      status = .error
      message = problem
      trace = Array(options.traceRenderer(events[...]).suffix(linesBefore + linesAfter))
    } else if result.exitStatus != 0 {
      status = .failed
      // The first failed expectation, else the termination nobody expected, else (--strict) the
      // first diagnostic no expectation named.
      let failure = events.firstIndex { if case .expectationChecked(_, false, _, _) = $0.event.body { true } else { false } }
        ?? events.firstIndex { e in e.event.body.termination.map(result.state.unexpectedFaults.contains) ?? false }
        ?? events.firstIndex { if case .noted(_, _, result.failedDiagnostic?) = $0.event.body { true } else { false } }
      if let failure {
        let body = events[failure].event.body
        if case let .expectationChecked(name, _, text, line) = body {
          message = "\(name): \(text)"
          at = line
        } else if let stopped = result.stopped {
          message = stopped
        } else if let t = body.termination {
          message = "unexpected termination (\(t.reason.rawValue)\(t.code.map { " \($0)" } ?? "")): \(t.description); name it with expect_terminated if the scenario means it"
        } else if case let .noted(_, text, code?) = body {
          message = "diagnostic \(code): \(text) (--strict)"
        }
        let end = min(failure + linesAfter, events.count - 1)
        trace = Array(options.traceRenderer(events[...end]).suffix(linesBefore + 1 + (end - failure)))
      }
    }
    var logPath: String?
    if let partial, let dir = options.logsDirectory {
      if status == .passed && !options.keepAllLogs {
        discardLog()
      } else {
        let final = "\(dir)/\(c.logBaseName)-ios\(ios)\(c.sceneless ? "-no-scenes" : "")\(c.sdk.map { "-sdk\($0)" } ?? "").lifelog"
        if let refusal = FileIdentity.refusal(writing: final, over: options.inputs) {
          discardLog()
          status = .error
          message = refusal
        } else if let error = POSIXFile.rename(partial, to: final) {
          status = .error
          message = "\(final): cannot keep the log: \(POSIXFile.describe(error.code))"
          discardLog()
        } else {
          logPath = final
        }
      }
    }
    var r = CaseResult(index: c.index, name: name(c, ios: ios), file: c.file.path, ios: ios, sceneless: c.sceneless, scenes: scenes,
                       seed: seed, status: status, message: message, at: at, trace: trace.map(\.withoutColourCodes),
                       reproduce: reproduce(c, ios: ios, seed: seed, options), events: result.events,
                       virtualUs: result.endTime, wallUs: wallUs, logPath: logPath, warnings: result.warnings,
                       diagnostics: result.state.diagnostics)
    r.sdk = c.sdk
    return (r, declared)
  }

  /// Why a case that ran does not count: a combination that cannot exist, or a profile the scenario excludes.
  private static func skipReason(_ c: SuiteCase, _ declared: ScenarioDeclaration, ios: Int) -> String? {
    if c.needsScenes, declared.scenes == false {
      return "the scenario declares scenes = false: only the sceneless case runs"
    }
    if c.sceneless, declared.scenes == true {
      return "the scenario declares scenes = true: only the case with scenes runs"
    }
    if !c.sceneless, declared.scenes == true, ios < 13 {
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
    return r
  }

  static func name(_ c: SuiteCase, ios: Int) -> String {
    "\(c.file.name) [iOS \(ios)\(c.sceneless ? ", no scenes" : "")\(c.sdk.map { ", SDK \($0)" } ?? "")]"
  }

  static func reproduce(_ c: SuiteCase, ios: Int, seed: Int64, _ options: CaseOptions) -> String {
    (["lifesim", "run", c.file.path, "--ios", "\(ios)", "--seed", "\(seed)"] + (c.sceneless ? ["--no-scenes"] : [])
      + (c.sdk.map { ["--sdk", "\($0)"] } ?? [])
      + (options.strict ? ["--strict"] : []) + options.reproduceOptions).map(shellQuoted).joined(separator: " ")
  }

  private static func shellQuoted(_ s: String) -> String {
    let safe = s.utf8.allSatisfy { b in
      (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || "/._-+,:@".utf8.contains(b)
    }
    return safe && !s.isEmpty ? s : "'" + s.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
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
