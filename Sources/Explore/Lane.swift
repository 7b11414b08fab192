import Lifecycle
import ScriptHost

/// What one lane did.
struct LaneOutcome {
  var runs = 0
  var events: Int64 = 0
  var virtualUs: Int64 = 0
  var covered: Set<Transition> = []
  var callbacks = CallbackCoverage()
  /// The first failing run of each signature in this lane.
  var failures: [(run: Int, record: RunRecord)] = []
}

/// One lane of the seeded run sequence: runs lane, lane + lanes, lane + 2·lanes, …; its corpus
/// holds the runs that reached transitions new to the lane, which later runs extend.
struct Lane {
  let index: Int
  let slot: Int
  let seed: Int64
  var next: Int
  /// The kept runs: their verbs and the `choose` outcomes they steered, which a run extending
  /// one replays, so that its prefix reaches the same states (and stays legal).
  var corpus: [(inputs: [Input], choices: [String: Bool])] = []
  var outcome = LaneOutcome()
  private var signatures: Set<FailureSignature> = []

  init(index: Int, slot: Int, seed: Int64) {
    self.index = index; self.slot = slot; self.seed = seed; next = index
  }

  /// Runs the lane's next run; true when the lane has no run left within `budget`. `newlyCovered`
  /// is what the run covered first in this lane.
  mutating func step(_ worker: ExploreWorker, budget: Int, newlyCovered: inout [Transition]) -> Bool {
    newlyCovered.removeAll(keepingCapacity: true)
    guard next < budget else { return true }
    var random = ExploreRandom(seed: seed, stream: Int64(next))
    var prefix: [Input] = []
    var known: [String: Bool] = [:]
    // Steering: two runs in three extend a kept run (a prefix of it) when there is one.
    if !corpus.isEmpty, random.below(3) < 2 {
      let kept = random.pick(corpus)
      prefix = Array(kept.inputs.prefix(kept.inputs.count / 2 + random.below(kept.inputs.count / 2 + 1)))
      known = kept.choices
    }
    // Its `choose` outcomes come from a stream of their own (negative: no run's): they take
    // nothing from the verbs' stream.
    let choices = ExploreRandom(seed: seed, stream: -1 - Int64(next))
    let record = worker.run(.random(prefix: prefix, random: random, choices: SteeredChoices(drawingFrom: choices, known: known)))
    outcome.runs += 1
    outcome.events += record.events
    outcome.virtualUs += record.endClockUs
    outcome.callbacks.formUnion(record.callbacks)
    for transition in record.transitions where outcome.covered.insert(transition).inserted { newlyCovered.append(transition) }
    if let failure = record.failure {
      if signatures.insert(failure).inserted { outcome.failures.append((next, record)) }
    } else if !newlyCovered.isEmpty {
      corpus.append((record.inputs, record.choices))
    }
    next += ExploreSetup.lanes
    return next >= budget
  }
}
