import ArgumentParser
import EventStore
import Lifecycle
import ScriptHost

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

  @OptionGroup var out: OutputOptions

  @Flag(help: "Machine-readable output.")
  var json = false

  func validate() throws {
    if verify && app != nil { throw ValidationError("--verify and --app are separate: choose one") }
    if out.output != nil && app == nil { throw ValidationError("-o goes with --app (a replay writes nothing otherwise)") }
  }

  func run() throws {
    defer { Terminal.flush() }
    let reader: LogReader
    do { reader = try LogReader(path: log, mode: verify || app != nil ? .integrity : .full) } catch {
      Terminal.error(error.description)
      throw ExitCode(Status.trouble)
    }
    if verify || app != nil {
      throw ExitCode(try rerun(reader))
    }
    throw ExitCode(printTrace(reader))
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
  private func rerun(_ reader: LogReader) throws -> Int32 {
    let header = reader.header
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
        let modules = try requiredModules(of: text, path: app, libraryPath: Terminal.libraryPath())
        scripts.removeAll { s in s.role == "app" || modules.contains { $0.role == s.role } }
        scripts.append(EmbeddedScript(role: "app", path: app, source: text))
        scripts += modules
        appPath = app
      } catch {
        Terminal.error(error.message)
        return Status.trouble
      }
    }
    let config = RunConfiguration(
      scenarioPath: scenario.path, appPath: appPath, seed: header.seed, outputPath: out.output, overwrite: out.force,
      source: .embedded(scripts), recordedProfile: profile)
    let comparison = Comparison(reader: reader, ignoreSource: app != nil)
    var progress = Progress(app == nil ? "replay --verify" : "replay --app")
    let result = ScenarioRunner(config) { seq, event in
      comparison.check(seq: seq, event)
      progress.tick()
    }.run()
    progress.finish()
    comparison.finish()
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

  let reader: LogReader
  /// `--app`: line numbers in `at` differ between scripts; compare without them.
  let ignoreSource: Bool
  private(set) var divergence: Divergence?
  /// The last five identical events, as bytes (text only when a report needs them).
  private var recent: [[UInt8]] = []
  private var writer = CanonicalJSONWriter(capacity: 512)

  init(reader: LogReader, ignoreSource: Bool) {
    self.reader = reader
    self.ignoreSource = ignoreSource
  }

  private func nextRecorded() -> [UInt8]? {
    while let line = try? reader.next() {
      if case .event = line { return reader.lastBody }
    }
    return nil
  }

  private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

  /// `"at":"file:line"` of a canonical body (always its last member), if any.
  private static func source(_ body: [UInt8]) -> String? {
    guard let start = atStart(body) else { return nil }
    return (try? JSONParser.parse(Array(body[(start + 6)..<(body.count - 1)])))?.stringValue
  }

  /// Where `,"at":` begins in a canonical body, when `at` is its last member.
  private static func atStart(_ body: [UInt8]) -> Int? {
    let marker = Array(",\"at\":\"".utf8)
    guard body.count > marker.count + 2, body.last == UInt8(ascii: "}") else { return nil }
    var i = body.count - marker.count - 2
    while i > 0 {
      if body[i] == marker[0], body[i..<(i + marker.count)].elementsEqual(marker) { return i }
      i -= 1
    }
    return nil
  }

  private static func withoutSource(_ body: [UInt8]) -> ArraySlice<UInt8> {
    guard let start = atStart(body) else { return body[...] }
    return body[..<start]
  }

  func check(seq: Int64, _ event: Event) {
    guard divergence == nil else { return }
    event.canonicalBody(seq: seq, into: &writer)
    let actual = writer.bytes
    guard let recorded = nextRecorded() else {
      divergence = Divergence(seq: seq, t: event.t, recorded: "(the recording ends here)", actual: Self.text(actual),
                              before: recent.map(Self.text), source: Self.source(actual))
      return
    }
    let same = ignoreSource ? Self.withoutSource(recorded).elementsEqual(Self.withoutSource(actual)) : recorded == actual
    if !same {
      let recordedT = (try? JSONParser.parse(recorded))?["t"]?.intValue ?? event.t
      divergence = Divergence(seq: seq, t: min(recordedT, event.t), recorded: Self.text(recorded), actual: Self.text(actual),
                              before: recent.map(Self.text), source: Self.source(actual) ?? Self.source(recorded))
      return
    }
    recent.append(actual)
    if recent.count > 5 { recent.removeFirst() }
  }

  func finish() {
    guard divergence == nil, let extra = nextRecorded() else { return }
    let parsed = try? JSONParser.parse(extra)
    divergence = Divergence(seq: parsed?["seq"]?.intValue ?? 0, t: parsed?["t"]?.intValue ?? 0, recorded: Self.text(extra),
                            actual: "(this run ends here)", before: recent.map(Self.text), source: Self.source(extra))
  }
}
