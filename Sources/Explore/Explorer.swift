import Lifecycle
import ScriptHost

/// One finding: a signature and the shortest failing sequence found for it.
public struct ExploreFinding: Equatable, Sendable {
  public var signature: FailureSignature
  public var inputs: [Input]
  /// The `choose` outcomes the run needs (`SITE@N` keys), which its scenario forces.
  public var choices = ForcedChoices()
  /// The run that first failed this way (its index in the seeded sequence).
  public var run: Int
  public var detail: String
}

/// What an exploration did: counts, coverage and findings. Deterministic for a seed and a
/// run budget, whatever the number of threads.
public struct ExploreResult: Sendable {
  public var runs: Int
  public var events: Int64
  /// Virtual time simulated in all runs, µs.
  public var virtualUs: Int64
  public var seed: Int64
  public var shard: Shard
  public var covered: Set<Transition>
  public var total: Set<Transition>
  public var callbacks: Set<String>
  /// Sorted by signature.
  public var findings: [ExploreFinding]
  /// The shrinker's runs (for the benchmark).
  public var shrinkRuns: Int
}

/// The explore engine: runs seeded random sequences of legal verbs on worker threads, keeps
/// runs that reached new transitions to extend, shrinks each failure, and groups them by
/// signature. `lifesim explore` is a thin command over it.
public final class Explorer {
  let options: ExploreOptions
  let setup: ExploreSetup
  /// Called with the progress so far now and then, from one thread at a time.
  public var onProgress: ((ExploreProgress) -> Void)?

  /// Reads the app or spec; the error is the message for exit 2.
  public init(_ options: ExploreOptions) throws(ScriptError) {
    self.options = options
    setup = try ExploreSetup(options)
  }

  /// The app script's path (from the spec, or as given).
  public var appPath: String { setup.appPath }
  public var profile: Profile { setup.profile }
  public var seed: Int64 { setup.seed }
  /// The spec's invariants: name and source lines, for finding scenarios.
  public var specSource: String? { setup.spec?.source }

  /// Runs the budget and returns the result.
  public func explore() throws(ScriptError) -> ExploreResult {
    let lanes = (0..<ExploreSetup.lanes).filter { options.shard.contains($0) }
    let jobs = max(1, min(options.jobs, lanes.count))
    let deadline = options.runs == nil ? WallTime.now() + (options.timeSeconds ?? 0) : nil
    let budget = options.runs ?? Int.max
    var workers: [ExploreWorker] = []
    for _ in 0..<jobs { workers.append(try ExploreWorker(setup)) }
    let progress = ProgressCounter(total: setup.transitions)
    var outcomes = [LaneOutcome](repeating: LaneOutcome(), count: lanes.count)
    outcomes.withUnsafeMutableBufferPointer { buffer in
      let slots = SendableBuffer(buffer)
      runInParallel(jobs) { job in
        let worker = workers[job]
        var mine = Array(stride(from: job, to: lanes.count, by: jobs)).map { Lane(index: lanes[$0], slot: $0, seed: self.setup.seed) }
        var newlyCovered: [Transition] = []
        while !mine.isEmpty {
          for i in mine.indices.reversed() {
            let failuresBefore = mine[i].outcome.failures.count
            let done = mine[i].step(worker, budget: budget, newlyCovered: &newlyCovered)
            progress.add(failures: mine[i].outcome.failures.count - failuresBefore, covered: newlyCovered, self.onProgress)
            if done || deadline.map({ WallTime.now() >= $0 }) == true {
              slots.buffer[mine[i].slot] = mine[i].outcome
              mine.remove(at: i)
            }
          }
        }
      }
    }
    return combine(outcomes, workers: workers)
  }

  /// Shrinks the first failure of each signature in each lane and keeps, per signature, the
  /// shortest (ties: the earliest run) — what `explore merge` does with shards too.
  private func combine(_ outcomes: [LaneOutcome], workers: [ExploreWorker]) -> ExploreResult {
    var result = ExploreResult(runs: 0, events: 0, virtualUs: 0, seed: setup.seed, shard: options.shard, covered: [],
                               total: setup.transitions,
                               callbacks: [], findings: [], shrinkRuns: 0)
    var failures: [(run: Int, record: RunRecord)] = []
    for lane in outcomes {
      result.runs += lane.runs; result.events += lane.events; result.virtualUs += lane.virtualUs
      result.covered.formUnion(lane.covered); result.callbacks.formUnion(lane.callbacks.names)
      failures += lane.failures
    }
    failures.sort { $0.run < $1.run }
    var shrunk = [FindingSlot?](repeating: nil, count: failures.count)
    shrunk.withUnsafeMutableBufferPointer { buffer in
      let slots = SendableBuffer(buffer)
      runInParallel(workers.count) { job in
        for i in stride(from: job, to: failures.count, by: workers.count) {
          let (run, record) = failures[i]
          guard let signature = record.failure else { continue }
          var shrinker = Shrinker(worker: workers[job], signature: signature)
          let small = shrinker.shrink(record)
          slots.buffer[i] = FindingSlot(finding: ExploreFinding(signature: signature, inputs: small.inputs,
                                                                choices: ForcedChoices(steered: small.choices),
                                                                run: run, detail: small.failureDetail),
                                        attempts: shrinker.attempts)
        }
      }
    }
    var best: [FailureSignature: ExploreFinding] = [:]
    for slot in shrunk.compactMap({ $0 }) {
      result.shrinkRuns += slot.attempts
      let f = slot.finding
      if let kept = best[f.signature], !ExploreFinding.isBetter(f, than: kept) { continue }
      best[f.signature] = f
    }
    result.findings = best.values.sorted { $0.signature < $1.signature }
    return result
  }
}

extension ExploreFinding {
  /// Shorter wins; then the earlier run.
  static func isBetter(_ a: ExploreFinding, than b: ExploreFinding) -> Bool {
    (a.inputs.count, a.run) < (b.inputs.count, b.run)
  }
}

private struct FindingSlot {
  var finding: ExploreFinding
  var attempts: Int
}
