import ArgumentParser
import EventStore
import Lifecycle
import ScriptHost

#if canImport(Glibc)
import Glibc
#endif

struct Replay: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Print a recorded run from its log alone, rebuild its state, or re-run it.",
    discussion: """
      Without options: prints the trace `run` printed, from the log alone (no script runs).
      --state prints the state rebuilt by folding the events (at the end, or at --until).
      --verify re-executes the scripts embedded in the log with the recorded seed and profile
      and checks that every event is identical. --app re-runs the recorded scenario against a
      changed app and reports where it departs.

      Exit status: 0 (identical / same); 1 diverged or departs; 2 unreadable log or script error.

      Examples:
        lifesim replay run.lifelog
        lifesim replay run.lifelog --until 40 --state
        lifesim replay run.lifelog --verify
        lifesim replay run.lifelog --app Scripts/apps/notes_fixed.lua -o fixed.lifelog
      """
  )

  @Argument(help: "The log to replay.")
  var log: String

  @Option(help: "Stop after this event number.")
  var until: Int64?

  @Flag(help: "Print the state rebuilt from the events.")
  var state = false

  @Flag(help: "Re-run the embedded scripts and check every event is identical.")
  var verify = false

  @Option(help: "Re-run the recorded scenario against this app script.")
  var app: String?

  @Option(name: .customLong("lib"), help: ArgumentHelp(
    "With --app: a folder where require looks for the app's modules (repeatable).", valueName: "DIR"))
  var lib: [String] = []

  @OptionGroup var out: OutputOptions

  @OptionGroup var guardOptions: RunGuardOptions

  @Flag(help: "Machine-readable output.")
  var json = false

  func validate() throws {
    if verify && app != nil { throw ValidationError("--verify and --app are separate: choose one") }
    if out.output != nil && app == nil { throw ValidationError("-o goes with --app (a replay writes nothing otherwise)") }
  }

  func run() throws {
    defer { Terminal.flush() }
    do {
      if verify || app != nil {
        // Read and re-hashed on a thread of its own while the scenario re-runs on this one.
        throw ExitCode(try rerun(BackgroundLogScanner(try LogScanner(path: log, checksChain: true))))
      }
      throw ExitCode(printTrace(try LogReader(path: log)))
    } catch let problem as LogProblem {
      Terminal.error(problem.description)
      throw ExitCode(Status.trouble)
    }
  }

  /// The recorded trace (and state) from the log alone.
  private func printTrace(_ reader: LogReader) -> Int32 {
    var trace = TraceFormatter()
    var folded = LifecycleState()
    var events: Int64 = 0
    var progress = Progress("replay")
    defer { progress.finish() }
    do {
      while let line = try reader.next() {
        guard case let .event(logEvent) = line else { continue }
        if let until, logEvent.seq > until { break }
        let event = try Event(logEvent)
        folded.evolve(event)
        events += 1
        progress.tick()
        if json { Terminal.write(String(decoding: logEvent.canonicalBody, as: UTF8.self)) }
        else if !state { Terminal.write(trace.line(seq: logEvent.seq, event)) }
      }
    } catch {
      Terminal.flush()
      Terminal.error("\(log): \(error)")
      return Status.trouble
    }
    if let ending = reader.ending, case .cutOff = ending, !json {
      Terminal.write("(\(ending.description))")
    }
    if state {
      let profile = try? Profile(json: reader.header.profile)
      Terminal.write(StateText.describe(folded, profile: profile))
    } else if !json {
      Terminal.write("")
      Terminal.write(OutcomeText.paragraph(state: folded, seed: reader.header.seed, events: events, rerun: nil))
    }
    Terminal.flush()
    return Status.ok
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
        let modules = try requiredModules(of: text, path: app, searchPath: ModuleSearchPath.folders(libs: lib))
        scripts.removeAll { s in s.role == "app" || modules.contains { $0.role == s.role } }
        scripts.append(EmbeddedScript(role: "app", path: app, source: text))
        scripts += modules
        appPath = app
      } catch {
        Terminal.error(error.message)
        return Status.trouble
      }
    }
    var config = RunConfiguration(
      scenarioPath: scenario.path, appPath: appPath, seed: header.seed, outputPath: out.output, overwrite: out.force,
      source: .embedded(scripts), recordedProfile: profile)
    guardOptions.apply(to: &config)
    let comparison = Comparison(recording: recording, ignoreSource: app != nil)
    var progress = Progress(app == nil ? "replay --verify" : "replay --app")
    let result = ScenarioRunner(config) { seq, event in
      comparison.check(seq: seq, event)
      progress.tick()
    }.run()
    progress.finish()
    comparison.finish()
    if let problem = comparison.problem {
      Terminal.error("\(log): \(problem)")
      return Status.trouble
    }
    if let error = result.error, result.exitStatus == Status.trouble {
      Terminal.error(error)
      if comparison.divergence == nil { return Status.trouble }
    }
    guard let d = comparison.divergence else {
      Terminal.write(json ? "{\"identical\":true,\"events\":\(result.events)}"
                     : "\(log): \(app == nil ? "identical" : "same"): \(result.events) events re-ran as recorded")
      return Status.ok
    }
    if json { Terminal.write(d.json.canonicalText) } else { Terminal.write(d.text(departs: app != nil)) }
    return Status.failed
  }

}

/// Compares a re-run with the recorded log, event by event, streaming, on canonical bytes:
/// the recorded line (without `h`) must equal the re-run event's encoding exactly.
final class Comparison {
  struct Divergence {
    var seq: Int64
    var t: Int64
    var recorded: String
    var actual: String
    var before: [String]
    var source: String?

    func text(departs: Bool) -> String {
      var lines = ["\(departs ? "Departs" : "Diverged") at event \(seq) (t = \(VirtualTime.format(t)) s):",
                   "  recorded:  \(recorded)",
                   "  this run:  \(actual)"]
      if let source { lines.append("  produced by: \(source)") }
      if !before.isEmpty {
        lines.append("The events before it (identical in both):")
        lines += before.map { "  \($0)" }
      }
      return lines.joined(separator: "\n")
    }

    var json: JSONValue {
      .object([("identical", .bool(false)), ("seq", .int(seq)), ("t", .int(t)), ("recorded", .string(recorded)),
               ("actual", .string(actual)), ("source", source.map { .string($0) } ?? .null),
               ("before", .array(before.map { .string($0) }))])
    }
  }

  /// Everything a check changes, in one value: an event costs one exclusivity check, not one
  /// a property (a class's stored properties are checked at run time).
  private var checker: Checker

  init(recording: BackgroundLogScanner, ignoreSource: Bool) {
    checker = Checker(recording: recording, ignoreSource: ignoreSource)
  }

  var divergence: Divergence? { checker.divergence }
  /// What is wrong with the recording, if reading it failed before the comparison ended.
  var problem: LogProblem? { checker.problem }

  /// Compares one re-run event with the next recorded one, in place.
  func check(seq: Int64, _ event: Event) { checker.check(seq: seq, event) }

  /// After the re-run: a recording with events left over departs there.
  func finish() { checker.finish() }

  fileprivate static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

  fileprivate static func withBrace(_ body: UnsafeRawBufferPointer) -> [UInt8] { Array(body) + [UInt8(ascii: "}")] }

  /// `"at":"file:line"` of a canonical body (always its last member), if any.
  fileprivate static func source(_ body: [UInt8]) -> String? {
    body.withUnsafeBytes { raw in
      guard let start = CanonicalBody.sourceStart(raw, end: raw.count - 1) else { return nil }
      return (try? JSONParser.parse(Array(raw[(start + 6)..<(raw.count - 1)])))?.stringValue
    }
  }

  /// The comparison itself.
  private struct Checker: ~Copyable {
    let recording: BackgroundLogScanner
    /// `--app`: line numbers in `at` differ between scripts; compare without them.
    let ignoreSource: Bool
    private(set) var divergence: Divergence?
    /// What is wrong with the recording, if reading it failed before the comparison ended.
    private(set) var problem: LogProblem?
    /// The last five identical events (text only when a report needs them).
    private var recent = RecentBodies(size: 5)
    private var writer = CanonicalJSONWriter(capacity: 512)

    init(recording: BackgroundLogScanner, ignoreSource: Bool) {
      self.recording = recording
      self.ignoreSource = ignoreSource
    }

    /// The next recorded event's body without its closing brace; nil at the end or on damage.
    private mutating func nextRecorded() -> UnsafeRawBufferPointer? {
      guard problem == nil else { return nil }
      do { return try recording.next()?.bodyWithoutBrace } catch {
        problem = error
        return nil
      }
    }

    /// Compares one re-run event with the next recorded one, in place.
    mutating func check(seq: Int64, _ event: Event) {
      guard divergence == nil else { return }
      event.canonicalBody(seq: seq, into: &writer)
      guard let recorded = nextRecorded() else {
        guard problem == nil else { return }
        let actual = writer.bytes
        divergence = Divergence(seq: seq, t: event.t, recorded: "(the recording ends here)", actual: Comparison.text(actual),
                                before: recent.drain().map(Comparison.text), source: Comparison.source(actual))
        return
      }
      let same = writer.withBytes { actual in
        // The recorded body lacks only the closing brace the encoding ends with.
        let a = UnsafeRawBufferPointer(rebasing: actual[0..<(actual.count - 1)])
        if ignoreSource {
          let aEnd = CanonicalBody.sourceStart(a, end: a.count) ?? a.count
          let rEnd = CanonicalBody.sourceStart(recorded, end: recorded.count) ?? recorded.count
          return aEnd == rEnd && memcmp(a.baseAddress!, recorded.baseAddress!, aEnd) == 0
        }
        return a.count == recorded.count && memcmp(a.baseAddress!, recorded.baseAddress!, a.count) == 0
      }
      if !same {
        let recordedBody = Comparison.withBrace(recorded), actual = writer.bytes
        let recordedT = (try? JSONParser.parse(recordedBody))?["t"]?.intValue ?? event.t
        divergence = Divergence(seq: seq, t: min(recordedT, event.t), recorded: Comparison.text(recordedBody), actual: Comparison.text(actual),
                                before: recent.drain().map(Comparison.text), source: Comparison.source(actual) ?? Comparison.source(recordedBody))
        return
      }
      writer.withBytes { recent.push($0, closingBrace: false) }
    }

    /// After the re-run: a recording with events left over departs there.
    mutating func finish() {
      guard divergence == nil, let extra = nextRecorded().map(Comparison.withBrace) else { return }
      let parsed = try? JSONParser.parse(extra)
      divergence = Divergence(seq: parsed?["seq"]?.intValue ?? 0, t: parsed?["t"]?.intValue ?? 0, recorded: Comparison.text(extra),
                              actual: "(this run ends here)", before: recent.drain().map(Comparison.text), source: Comparison.source(extra))
    }
  }
}

