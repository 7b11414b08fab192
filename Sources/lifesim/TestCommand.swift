import ArgumentParser
import EventStore
#if canImport(Glibc)
import Glibc
#endif
import JSON
import Lifecycle
import Render
import ScriptHost
import Suite


struct Test: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "test",
    abstract: "Run a suite of scenarios: folders, an iOS matrix, parallel cases, JUnit and JSON reports.",
    discussion: helpText("""
      A scenario is a .lua file that calls scenario { … }; every other .lua file found is
      reported as an app, a module or not a case (and why). A case is a scenario on one
      profile, named `name [iOS 15]` (`name [iOS 15, no scenes]` for the sceneless variant),
      name being scenario { name = "…" } or the file's name. A scenario may say where it
      applies with scenario { ios_range = "15-26" }: on other profiles its case is skipped.

      Exit status: 0 every case passed or was skipped, 1 a case failed, 2 a script error in a case
      (the other cases still run and are reported), a file that calls verbs but cannot run,
      no case run at all, or a usage error.

      Examples:
        lifesim test Scripts --ios all
        lifesim test Scripts/scenarios --ios 12,15-17,26 --scenes both -j 2 --junit report.xml
        lifesim test Scripts --ios all --compare profiles --filter prewarm
        lifesim test Scripts/scenarios/home_and_return.lua --ios 17 --compare scenes
        lifesim test Scripts --ios 12,17 --html report     # open report/index.html
      """)
  )

  @Argument(help: "Scenario files and folders (searched recursively).")
  var paths: [String] = ["."]

  @Option(help: "Keep the scenarios whose name or path contains this text.")
  var filter: String?

  @OptionGroup var modules: ModuleOptions

  @OptionGroup var guardOptions: RunGuardOptions

  @Option(help: "The profiles: versions, ranges and all, e.g. 12,15,17,26 or 13-17 or all (default: each scenario's own).")
  var ios: String?

  @Option(help: "both: run each case with scenes and without (declared: as the scenario says).")
  var scenes: ScenesMode = .declared

  @OptionGroup var sdkOption: SDKOption

  @OptionGroup var choice: ChoiceOptions

  @Option(name: [.customShort("j"), .customLong("jobs")], help: "Cases run at once, each on a thread of this process (default: the processors).")
  var jobs: Int?

  @Flag(name: .shortAndLong, help: "Print only the failures and the summary.")
  var quiet = false

  @Option(help: "Write a JUnit XML report here.")
  var junit: String?

  @Flag(help: "Print JSON Lines: one object per case, then a summary.")
  var json = false

  @Option(help: "Keep the .lifelog of each failing case in this folder (one that holds logs needs --force).")
  var logs: String?

  @Option(help: ArgumentHelp("Write an HTML report in this folder: index.html, and each failing case's timeline (its log kept in DIR/logs unless --logs says where).", valueName: "DIR"))
  var html: String?

  @Option(help: "Which logs --logs keeps: failed or all.")
  var keep: KeptLogs = .failed

  @Option(help: "Run only shard K of N: the cases whose index is K-1 modulo N.")
  var shard: String?

  @Option(help: ArgumentHelp("""
    For each scenario, what differs between two runs: profiles (each iOS and the next), scenes (without \
    scenes and with, on each iOS) or sdk=A,B (built with SDK A and with B). Callbacks that appear and \
    disappear, outcome changes, new diagnostics, and the first divergence.
    """, valueName: "AXIS"))
  var compare: ComparisonAxis?

  @Flag(help: "The same as --compare profiles.")
  var compareProfiles = false

  @Flag(help: "Leave wall-clock times out of the reports, so two runs give identical bytes.")
  var noWallTime = false

  @Flag(help: "Replace an existing --junit file or --html report, and logs of the same name in --logs.")
  var force = false

  @Flag(help: "Fail a case (exit 1) on any diagnostic, as scenario { strict = true } does.")
  var strict = false

  enum ScenesMode: String, ExpressibleByArgument, CaseIterable { case declared, both }
  enum KeptLogs: String, ExpressibleByArgument, CaseIterable { case failed, all }

  func validate() throws {
    if let jobs, !(1...256).contains(jobs) { throw ValidationError("-j must be from 1 to 256") }
    if keep == .all && logs == nil { throw ValidationError("--keep all goes with --logs DIR") }
    if let ios {
      do throws(ScenarioError) { _ = try IOSVersionSet(parsing: ios) } catch {
        throw ValidationError("--ios \(ios): \(error.message)")
      }
    }
    if let shard {
      do { _ = try Shard(parsing: shard) } catch { throw ValidationError(error.message) }
    }
    if compareProfiles, let compare, compare != .profiles {
      throw ValidationError("--compare-profiles is --compare profiles; it cannot go with --compare \(compare.text)")
    }
    if case .sdk = comparisonAxis, sdkOption.sdk != nil {
      throw ValidationError("--compare sdk=A,B names the SDKs to run with; it cannot go with --sdk")
    }
  }

  /// `--compare AXIS`, or `profiles` for its alias `--compare-profiles`.
  private var comparisonAxis: ComparisonAxis? { compare ?? (compareProfiles ? .profiles : nil) }

  func run() throws {
    defer { Terminal.flush() }
    do {
      throw ExitCode(try runSuite())
    } catch let error as SuiteError {
      Terminal.error(error.message)
      throw ExitCode(Status.trouble)
    }
  }

  private func runSuite() throws -> Int32 {
    let session = try SuiteSession(request)
    var progress = SuiteProgress(total: session.cases.count)
    let wallTimes = !noWallTime
    let outcome = session.run(
      onResult: { r in
        if json { Terminal.write(JSONReport.caseLine(r, wallTimes: wallTimes)) }
        else if !quiet {
          progress.clear()
          Terminal.write(HumanReport.caseLine(r, paint: TerminalColour.paint))
          if progress.isLive { Terminal.flush() }
        }
      },
      onProgress: { done, failed in progress.show(done: done, failed: failed) })
    progress.clear()
    if let comparison = session.comparison {
      for change in outcome.changes { Terminal.write(json ? change.json(axis: comparison.axis).canonicalText : change.text) }
      for pair in outcome.uncompared { Terminal.write(json ? pair.json(axis: comparison.axis).canonicalText : pair.text) }
      if !json && outcome.changes.isEmpty { Terminal.write(comparison.noChangeText(pairs: outcome.comparedPairs)) }
    }
    let wallUs = wallTimes ? outcome.wallUs : nil
    printReport(outcome.results, outcome.summary, files: session.discovery.files, wallUs: wallUs)
    try session.writeReports(outcome, wallTimes: wallTimes)
    return outcome.exitStatus
  }

  /// The suite the options ask for.
  private var request: SuiteRequest {
    var options = CaseOptions(logsDirectory: nil, keepAllLogs: false, searchPath: modules.searchPath,
                              wallLimitSeconds: guardOptions.wallLimit,
                              lib: modules.lib)
    options.maxEvents = guardOptions.maxEvents
    options.strict = strict
    options.choices = choice.choices
    options.sdk = sdkOption.sdk
    var request = SuiteRequest(paths: paths, caseOptions: options)
    request.filter = filter
    request.profiles = ios.flatMap { try? IOSVersionSet(parsing: $0).profiles }  // checked by validate()
    request.scenesBoth = scenes == .both
    request.shard = shard.flatMap { try? Shard(parsing: $0) }
    request.comparison = comparisonAxis
    request.jobs = jobs ?? SuiteRunner.processorCount
    (request.logs, request.html, request.junit) = (logs, html, junit)
    request.keepAllLogs = keep == .all
    request.force = force
    return request
  }

  /// The end of the report on standard output: the failures, the files found and the summary
  /// (or their JSON lines); on standard error, why a suite that ran nothing is trouble.
  private func printReport(_ results: [CaseResult], _ summary: SuiteSummary, files: [DiscoveredFile], wallUs: Int64?) {
    if json {
      for file in files { Terminal.write(JSONReport.fileLine(file)) }
      Terminal.write(JSONReport.summaryLine(summary, wallUs: wallUs))
    } else {
      for r in results { for line in HumanReport.failureBlock(r, paint: TerminalColour.paint) { Terminal.write(line) } }
      // Scenarios are named by their cases; -q keeps only the problems.
      for file in files where file.role != .scenario && (file.isProblem || !quiet) {
        Terminal.write(HumanReport.fileLine(file, paint: TerminalColour.paint))
      }
      if !quiet { Terminal.write(HumanReport.filesSummary(files)) }
      for r in results { for line in HumanReport.warningLines(r, diagnostics: !quiet) { Terminal.write(line) } }
      Terminal.write(HumanReport.summary(summary, wallUs: wallUs))
    }
    if summary.noCaseRan { Terminal.error(HumanReport.noCaseRan(results)) }
    if summary.problemFiles > 0 { Terminal.error(HumanReport.problemFiles(files.filter(\.isProblem))) }
  }
}

/// The live line on stderr while a suite runs (only when stderr is a terminal).
private struct SuiteProgress {
  /// Whether the line is drawn: stderr is a terminal.
  let isLive = isatty(STDERR_FILENO) == 1
  private let total: Int
  private var shown = false

  init(total: Int) { self.total = total }

  mutating func show(done: Int, failed: Int) {
    guard isLive else { return }
    Terminal.flush()
    draw("\r\u{1B}[K[\(done)/\(total)] \(failed) failing")
    shown = true
  }

  mutating func clear() {
    guard isLive, shown else { return }
    draw("\r\u{1B}[K")
    shown = false
  }

  private func draw(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
  }
}

