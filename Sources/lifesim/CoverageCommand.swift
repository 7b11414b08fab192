import ArgumentParser
import EventStore
import JSON
import Lifecycle
import Render
import LifecycleLog

struct Coverage: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "coverage",
    abstract: "Report the transitions and callbacks a set of logs covers, and what they never reach.",
    discussion: helpText("""
      A transition is an (app state, scene state, verb) triple the log's profile allows; a
      callback is covered once delivered. Exit status: 0, or 2 for a log that cannot be read.

      Example:
        lifesim coverage logs/*.lifelog
      """)
  )

  @Argument(help: "Logs (.lifelog).")
  var logs: [String]

  @Flag(help: "Print the coverage as one JSON object.")
  var json = false

  func run() throws {
    defer { Terminal.flush() }
    var coverage = LogCoverage()
    for path in logs {
      // An unreadable log's message names it already; a damaged line's does not.
      let reader: LogReader
      do { reader = try RecordedLog.reader(path) } catch {
        Terminal.error(error.description)
        throw ExitCode(Status.trouble)
      }
      do { try coverage.add(reader) } catch {
        Terminal.error("\(path): \(error)")
        throw ExitCode(Status.trouble)
      }
    }
    let reached = coverage.covered.intersection(coverage.total).sorted()
    let never = coverage.neverReached
    let perScene = coverage.coveredPerScene.sorted { Self.sceneOrder($0.key, $1.key) }
      .map { (scene: $0.key, reached: $0.value.intersection(coverage.total).sorted()) }
    if json {
      let scenes: [(String, JSONValue)] = perScene.map { ($0.scene, JSONValue.array($0.reached.map { .string($0.text) })) }
      let value = JSONValue.object([
        ("logs", .int(Int64(coverage.logs))), ("covered", .int(Int64(reached.count))), ("total", .int(Int64(coverage.total.count))),
        ("never_reached", .array(never.map { .string($0.text) })), ("reached", .array(reached.map { .string($0.text) })),
        ("callbacks", .array(coverage.callbacks.sorted().map(JSONValue.string))),
      ] + (scenes.isEmpty ? [] : [("scenes", JSONValue.object(scenes))]))
      Terminal.write(value.canonicalText)
      return
    }
    Terminal.write("\(coverage.logs) log\(coverage.logs == 1 ? "" : "s"): \(reached.count) of \(coverage.total.count) transitions covered, "
                   + "\(coverage.callbacks.count) callbacks delivered")
    for (scene, reached) in perScene { Terminal.write("  \(scene): \(reached.count) of \(coverage.total.count) transitions covered") }
    Terminal.write("Never reached (app state/scene state/verb):")
    for t in never { Terminal.write("  \(t.text)") }
  }

  /// `Scene#2` before `Scene#10`.
  private static func sceneOrder(_ a: String, _ b: String) -> Bool {
    (InstanceLabel.number(a) ?? 0, a) < (InstanceLabel.number(b) ?? 0, b)
  }
}
