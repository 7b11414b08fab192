import EventStore
import Lifecycle
import ScriptHost

/// What a suite run is asked for: where its scenarios are, the matrix they run on, and where its
/// logs and reports go (`lifesim test`'s options; `lifesim scan --check` asks for its battery).
package struct SuiteRequest: Sendable {
  /// Scenario files and folders (searched recursively).
  package var paths: [String]
  /// Keep the scenarios whose name or path contains this text.
  package var filter: String?
  /// The profiles; nil: each scenario's own (every release with `--compare profiles`).
  package var profiles: [Int]?
  /// Run each case with scenes and without (`--scenes both`, and `--compare scenes`).
  package var scenesBoth = false
  /// The SDKs each case is built with; nil: the run's own.
  package var sdks: [Int?] = [nil]
  /// Only the cases of this shard.
  package var shard: Shard?
  /// `--compare AXIS`: what differs between two runs of each scenario.
  package var comparison: ComparisonAxis?
  /// Cases run at once, each on a thread of this process.
  package var jobs = SuiteRunner.processorCount
  /// `--logs DIR`: where the logs of failing cases (or of all, with `keepAllLogs`) are kept.
  package var logs: String?
  /// `--html DIR`: the HTML report's folder (its logs go to `DIR/logs` unless `logs` says where).
  package var html: String?
  /// `--junit FILE`: the JUnit report.
  package var junit: String?
  /// `--keep all`: keep the log of every case, not only of failures.
  package var keepAllLogs = false
  /// `--force`: a logs folder that already holds logs may be written into.
  package var force = false
  /// No scenario found is an error (`lifesim test`); `scan --check` may have none to run.
  package var requiresScenario = true
  /// One case per set of forced `choose` outcomes, for each scenario, profile and SDK (`scan --check`).
  package var choiceVariants = [ForcedChoices()]
  /// How each case runs; the session sets its logs folder, which logs it keeps and the inputs.
  package var caseOptions: CaseOptions

  /// A request for the scenarios under `paths`, each case run as `caseOptions` says.
  package init(paths: [String], caseOptions: CaseOptions) {
    self.paths = paths
    self.caseOptions = caseOptions
  }

  /// The reports' files: the JUnit report and the HTML report's index.
  var reports: [String] { [junit, html.map { $0 + "/index.html" }].compactMap { $0 } }

  /// The folder logs are kept in: `logs`, else the HTML report's `logs` folder.
  var logsFolder: String? { logs ?? html.map { $0 + "/logs" } }
}

/// One run of a suite, for `lifesim test` and `lifesim scan --check`: the scenarios found, the
/// cases planned, every case run on worker threads of this process, and the comparison of
/// `--compare`. Made before any case runs, so that what would be refused (a report over a
/// script, a logs folder that holds logs) is refused first.
package struct SuiteSession {
  /// What was asked for.
  package let request: SuiteRequest
  /// The scenarios found, and every other `.lua` file with what it is.
  package let discovery: Discovery
  /// The cases, in report order.
  package let cases: [SuiteCase]
  /// `--compare`'s pairing and its logs folder.
  package let comparison: SuiteComparison?
  private let options: CaseOptions

  /// Finds the scenarios, plans the cases and makes the folders logs and reports go to.
  package init(_ request: SuiteRequest) throws(SuiteError) {
    self.request = request
    // A report written earlier is never replaced by accident.
    for existing in request.reports where !request.force && POSIXFile.exists(existing) {
      throw SuiteError("\(existing): already exists; refusing to overwrite it (pass --force to replace it)")
    }
    discovery = try ScenarioDiscovery.find(request.paths, filter: request.filter, searchPath: request.caseOptions.searchPath)
    if request.requiresScenario && discovery.scenarios.isEmpty {
      throw SuiteError("no scenario in \(request.paths.joined(separator: " "))\(request.filter.map { " matching \"\($0)\"" } ?? "") (a scenario is a .lua file that calls scenario { … })")
    }
    let axis = request.comparison
    let profiles = axis == .profiles && request.profiles == nil ? IOSRelease.versions : request.profiles
    cases = SuitePlan.cases(discovery.scenarios, profiles: profiles, scenesBoth: request.scenesBoth || axis == .scenes,
                            sdks: axis?.sdkVariants ?? request.sdks, choiceVariants: request.choiceVariants, shard: request.shard)
    comparison = try axis.map { axis throws(SuiteError) in
      try SuiteComparison(axis: axis, logs: request.logsFolder, keepPassing: request.keepAllLogs)
    }
    let logsDirectory = comparison?.directory ?? request.logsFolder
    try Self.checkOutputs(request, inputs: discovery.inputs)
    if let logsDirectory { try ReportFile.makeDirectory(logsDirectory) }
    if let html = request.html { try ReportFile.makeDirectory(html) }
    var options = request.caseOptions
    options.logsDirectory = logsDirectory
    options.keepAllLogs = request.keepAllLogs || comparison != nil
    options.inputs = discovery.inputs
    self.options = options
  }

  /// Runs every case; `onResult` gets each result (as `--compare` reports it) in case order, and
  /// `onProgress` (cases done, failures so far) whenever a case ends, both on the calling thread.
  package func run(onResult: (CaseResult) -> Void = { _ in }, onProgress: (Int, Int) -> Void = { _, _ in }) -> SuiteOutcome {
    let started = SuiteClock.nowUs()
    var results = SuiteRunner(cases: cases, options: options, jobs: request.jobs).run(
      onResult: { onResult(comparison?.reported($0) ?? $0) }, onProgress: onProgress)
    // The cases' time: the comparison after them is not counted.
    var outcome = SuiteOutcome(wallUs: SuiteClock.nowUs() - started)
    if let comparison {
      let pairs = comparison.pairs(results)
      (outcome.changes, outcome.uncompared) = comparison.compareAll(pairs)
      outcome.comparedPairs = pairs.count - outcome.uncompared.count
      results = comparison.finish(results)
    }
    outcome.results = results
    outcome.summary = SuiteSummary(results)
    outcome.summary.problemFiles = discovery.files.filter(\.isProblem).count
    return outcome
  }

  /// Writes the JUnit and HTML reports asked for; `wallTimes`: with the wall-clock times.
  package func writeReports(_ outcome: SuiteOutcome, wallTimes: Bool) throws(SuiteError) {
    if let junit = request.junit {
      try ReportFile.write(JUnitReport.xml(outcome.results, wallTimes: wallTimes, wallUs: outcome.wallUs), to: junit)
    }
    if let html = request.html {
      try SuiteHTMLReport.write(outcome.results, summary: outcome.summary, wallUs: wallTimes ? outcome.wallUs : nil, to: html,
                                inputs: discovery.inputs, changes: outcome.changes)
    }
  }

  /// Refuses a report or log that would land on a script of the suite (even with `force`), and a
  /// logs folder that already holds logs (without `force`).
  private static func checkOutputs(_ request: SuiteRequest, inputs: [String]) throws(SuiteError) {
    for output in request.reports {
      if let refusal = FileIdentity.refusal(writing: output, over: inputs) { throw SuiteError(refusal) }
    }
    guard let logsDirectory = request.logsFolder, !request.force, let old = ReportFile.firstLog(in: logsDirectory) else { return }
    throw SuiteError("\(logsDirectory): already holds logs (\(old)); refusing to overwrite them (pass --force to replace them)")
  }
}

/// What a suite run found: every case's result in case order, the counts, and `--compare`'s
/// changes and the pairs it could not compare.
package struct SuiteOutcome {
  /// Every case's result, in case order.
  package var results: [CaseResult] = []
  /// The counts, with the files that look like cases but cannot run.
  package var summary = SuiteSummary()
  /// `--compare`: the pairs whose runs differ.
  package var changes: [ComparisonChange] = []
  /// `--compare`: the pairs that could not be compared.
  package var uncompared: [UncomparedPair] = []
  /// `--compare`: the pairs compared.
  package var comparedPairs = 0
  /// The wall-clock time the cases took.
  package var wallUs: Int64

  /// The exit status: the summary's, but a pair that could not be compared is trouble, even
  /// where every case passed.
  package var exitStatus: Int32 { uncompared.isEmpty ? summary.exitStatus : 2 }
}
