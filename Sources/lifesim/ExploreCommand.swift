import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import EventStore
import Lifecycle
import Explore
import Render
import ScriptHost

struct Explore: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "explore",
    abstract: "Search for sequences of verbs that break an app, shrink them, write them as scenarios.",
    discussion: helpText("""
      Exit status: 0 no findings, 1 findings (0 with --exit-zero), 2 a usage or script error.
      See docs/explore.md.

      Examples:
        lifesim explore Scripts/apps/notes.lua --runs 10000 -o findings
        lifesim explore spec.lua --seed 7 --shard 2/4 -o shard-2
        lifesim explore merge shard-1 shard-2 shard-3 shard-4 -o all
      """),
    subcommands: [ExploreRun.self, ExploreMerge.self],
    defaultSubcommand: ExploreRun.self
  )
}

struct ExploreRun: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run", abstract: "Explore an app script or an explore spec (the default).")

  @Argument(help: "An app script, or an explore spec (explore { app = … } and invariant(…)).")
  var path: String

  @OptionGroup var profile: ProfileOptions

  @Option(help: "The budget: this many runs (default 1000 unless --time is given).")
  var runs: Int?

  @Option(help: "The budget: this many seconds of wall time.")
  var time: Double?

  @Option(help: "The longest sequence of verbs in a run (default: the spec's, else 30).")
  var steps: Int?

  @Option(help: "The seed (default: the spec's, else 1).")
  var seed: Int64?

  @Option(help: "Worker threads (default: the machine's cores).")
  var jobs: Int?

  @Option(help: ArgumentHelp("Run only the runs whose index is K-1 modulo N (N divides 16).", valueName: "K/N"))
  var shard: String?

  @Option(help: ArgumentHelp(
    "The shard numbered from 0: I/N runs what --shard I+1/N runs (for a Kubernetes Indexed Job's $(JOB_COMPLETION_INDEX)).",
    valueName: "I/N"))
  var shardIndex: String?

  @Flag(help: "Exit 0 when findings were written (a batch job whose product is the findings); trouble still exits 2.")
  var exitZero = false

  @Option(name: .shortAndLong, help: ArgumentHelp("Write report.json and each finding's scenario and log here.", valueName: "DIR"))
  var output: String?

  @Flag(help: "Overwrite the findings and report of an earlier exploration in DIR.")
  var force = false

  @OptionGroup var modules: ModuleOptions

  func validate() throws {
    if let runs, runs < 1 { throw ValidationError("--runs must be at least 1") }
    if let time, !(time > 0) { throw ValidationError("--time must be a positive number of seconds") }
    if runs != nil, time != nil { throw ValidationError("give --runs or --time, not both") }
    if let steps, steps < 1 { throw ValidationError("--steps must be at least 1") }
    if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    if let shard, Shard(shard)?.splitsExploreLanes != true {
      throw ValidationError("--shard must be K/N with 1 ≤ K ≤ N and N dividing 16 (1, 2, 4, 8 or 16), not \(shard)")
    }
    if let shardIndex, Shard(zeroBased: shardIndex)?.splitsExploreLanes != true {
      throw ValidationError("--shard-index must be I/N with 0 ≤ I < N and N dividing 16 (1, 2, 4, 8 or 16), not \(shardIndex)")
    }
    if shard != nil, shardIndex != nil { throw ValidationError("give --shard or --shard-index, not both") }
  }

  func run() throws {
    defer { Terminal.flush() }
    let options = ExploreOptions(
      path: path, ios: profile.ios, sdk: profile.sdk, scenes: profile.scenes, runs: runs ?? (time == nil ? ExploreOptions.defaultRuns : nil),
      timeSeconds: time, steps: steps, seed: seed, jobs: jobs ?? Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))),
      shard: shard.flatMap { Shard($0) } ?? shardIndex.flatMap { Shard(zeroBased: $0) } ?? Shard(index: 1, count: 1), searchPath: modules.searchPath)
    let started = WallTime.now()
    let result: ExploreResult
    let explorer: Explorer
    do {
      explorer = try Explorer(options)
      if isatty(STDERR_FILENO) == 1 {
        explorer.onProgress = { p in
          let rate = Double(p.runs) / max(WallTime.now() - started, 0.001)
          Terminal.progress("explore: \(quantity(p.runs, "run")), \(Int(rate)) runs/s, \(quantity(p.failingRuns, "failing run")), "
                            + "coverage \(p.covered)/\(p.total)")
        }
      }
      result = try explorer.explore()
      Terminal.progress("")
    } catch {
      Terminal.error(error.message)
      throw ExitCode(Status.trouble)
    }
    let seconds = WallTime.now() - started
    if let output {
      do { _ = try ExploreOutput.write(result, explorer: explorer, to: output, overwrite: force) } catch {
        Terminal.error(error.message)
        throw ExitCode(Status.trouble)
      }
    }
    let covered = result.covered.intersection(result.total).count, total = result.total.count
    Terminal.write("\(quantity(result.runs, "run")), \(quantity(result.events, "event")) in \(String(format1: seconds)) s "
                   + "(\(Int(Double(result.runs) / max(seconds, 0.001))) runs/s); coverage \(covered)/\(total) transitions; "
                   + quantity(result.findings.count, "finding"))
    for (i, f) in result.findings.enumerated() {
      // The signature holds the app's names: shown with its control characters made visible.
      Terminal.write("  finding \(i + 1): \(TerminalText.visible(f.signature.text)), \(quantity(f.inputs.count, "verb"))"
                     + (output.map { " (\($0)/finding-\(i + 1).lua)" } ?? ""))
    }
    throw ExitCode(result.findings.isEmpty || exitZero ? Status.ok : Status.failed)
  }
}

struct ExploreMerge: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "merge", abstract: "Merge the reports of shards: counts and coverage add up, each signature keeps its shortest finding.")

  @Argument(help: "Folders written by explore -o.")
  var dirs: [String]

  @Option(name: .shortAndLong, help: ArgumentHelp("The merged folder.", valueName: "DIR"))
  var output: String

  @Flag(help: "Overwrite an earlier merge in DIR.")
  var force = false

  func run() throws {
    defer { Terminal.flush() }
    let report: ExploreReport
    do { report = try ExploreOutput.merge(dirs, into: output, overwrite: force) } catch {
      Terminal.error(error.message)
      throw ExitCode(Status.trouble)
    }
    Terminal.write("\(quantity(report.runs, "run")) merged from \(quantity(dirs.count, "report")); coverage \(report.reached.count)/"
                   + "\(report.reached.count + report.neverReached.count); \(quantity(report.findings.count, "finding"))")
    throw ExitCode(report.findings.isEmpty ? Status.ok : Status.failed)
  }
}

extension String {
  /// One decimal: `12.3`.
  init(format1 value: Double) {
    let tenths = Int((value * 10).rounded())
    self = "\(tenths / 10).\(tenths % 10)"
  }
}
