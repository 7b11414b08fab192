import EventStore
import Foundation
import ScriptHost
import Suite
import TestSupport

/// The repository's root folder (the bundled scripts are found from it).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().path

/// Writes `files` (name → text) into a new temporary folder and returns its path.
func scriptFolder(_ name: String, _ files: [String: String]) throws -> String {
  let dir = temporaryPath("lifesim-suite", name)
  try? FileManager.default.removeItem(atPath: dir)
  for (file, text) in files {
    let path = dir + "/" + file
    try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try text.write(toFile: path, atomically: true, encoding: .utf8)
  }
  return dir
}

/// A new empty temporary folder.
func emptyFolder(_ name: String) throws -> String {
  let dir = temporaryPath("lifesim-suite", name + "-" + String(UInt64.random(in: 0...UInt64.max)))
  try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
  return dir
}

/// An app with one controller, enough for any scenario.
let tinyApp = """
  app { name = "tiny" }
  controller "ViewController" { }
  """

/// What the trace renderer was asked for, case by case: the log's path, whether it was a readable
/// log then, and the events asked for.
final class RenderCalls: @unchecked Sendable {
  struct Call: Equatable {
    let path: String
    let seqs: ClosedRange<Int64>
    /// The events the log held when the renderer read it.
    let events: Int64
  }
  private let lock = NSLock()
  private var recorded: [Call] = []

  var calls: [Call] { lock.withLock { recorded } }

  /// A renderer that reads the log as the real one does and renders each event as `#seq kind`.
  var renderer: TraceRenderer {
    { [self] path, seqs in
      let stream = try LogEventStream(path: path)
      var lines: [String] = []
      var events: Int64 = 0
      while let event = try stream.next() {
        events += 1
        if seqs.contains(event.seq) { lines.append("#\(event.seq)") }
      }
      lock.withLock { recorded.append(Call(path: path, seqs: seqs, events: events)) }
      return lines
    }
  }
}

/// Runs the suite under `paths` in this process, as `lifesim test` does; the results in case order.
/// `temporary`: where a case's log goes without `logs` (default: a folder of this process's own).
func runSuite(_ paths: [String], filter: String? = nil, profiles: [Int]? = nil, scenesBoth: Bool = false, shard: Shard? = nil,
              jobs: Int = 1, logs: String? = nil, keepAll: Bool = false, temporary: String? = nil,
              renderer: @escaping TraceRenderer = RenderCalls().renderer) throws -> [CaseResult] {
  let discovery = try ScenarioDiscovery.find(paths, filter: filter)
  let cases = SuitePlan.cases(discovery.scenarios, profiles: profiles, scenesBoth: scenesBoth, shard: shard)
  // The bundled helpers, as `lifesim test` finds them beside its binary.
  var options = CaseOptions(logsDirectory: logs, keepAllLogs: keepAll, searchPath: [repositoryRoot + "/Scripts/lib"], wallLimitSeconds: 10,
                            lib: [])
  options.traceRenderer = renderer
  options.inputs = discovery.inputs
  options.temporaryDirectory = try temporary ?? emptyFolder("temporary-logs")
  return SuiteRunner(cases: cases, options: options, jobs: jobs).run(onResult: { _ in })
}

/// Runs a Python program; its status and output.
func python(_ program: String, _ args: [String] = []) throws -> (status: Int32, out: String, err: String) {
  try runProcess("/usr/bin/env", ["python3", "-c", program] + args)
}

/// The case names of a JUnit report as Python's junitparser reads them, suite by suite
/// (`make test-tools` installs junitparser).
func junitSuites(_ xml: String) throws -> [[String: Any]] {
  let path = temporaryPath("lifesim-suite", "report-\(UInt64.random(in: 0...UInt64.max)).xml")
  try xml.write(toFile: path, atomically: true, encoding: .utf8)
  let program = """
    import json, sys
    from junitparser import JUnitXml
    suites = []
    for s in JUnitXml.fromfile(sys.argv[1]):
        cases = []
        for c in s:
            results = [{"type": type(r).__name__, "message": r.message, "text": r.text or ""} for r in c.result]
            cases.append({"classname": c.classname, "name": c.name, "results": results})
        suites.append({"name": s.name, "tests": s.tests, "failures": s.failures, "errors": s.errors,
                       "skipped": s.skipped, "cases": cases})
    print(json.dumps(suites))
    """
  let r = try python(program, [path])
  guard r.status == 0, let suites = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [[String: Any]] else {
    throw SuiteError("junitparser (make test-tools installs it): \(r.err)")
  }
  return suites
}
