import Lifecycle
import ScriptHost

/// Shrinks a failing sequence of verbs to a short one that fails the same way, in the manner
/// of Hypothesis's shrinker: delete chunks of verbs (largest first), then single verbs, then
/// simplify arguments (a shorter `advance`, an earlier tab, the first controller, no
/// options), then leave each steered `choose` outcome to the seed. A change is kept only if the
/// run still fails with the same signature; the kept sequence is what the run performed (verbs
/// the change made illegal drop out).
struct Shrinker {
  let worker: ExploreWorker
  let signature: FailureSignature
  /// Runs tried (for the benchmark).
  private(set) var attempts = 0

  init(worker: ExploreWorker, signature: FailureSignature) {
    self.worker = worker; self.signature = signature
  }

  /// The shortest failing sequence found from `failing` (which fails with `signature`).
  mutating func shrink(_ failing: RunRecord) -> RunRecord {
    var best = failing
    var changed = true
    while changed {
      changed = false
      var size = max(1, best.inputs.count / 2)
      while size >= 1 {
        if deleteChunks(of: size, from: &best) { changed = true }
        size /= 2
      }
      if simplifyArguments(&best) { changed = true }
      if releaseChoices(&best) { changed = true }
    }
    return best
  }

  /// Tries leaving each steered `choose` outcome to the seed, so that a finding forces only
  /// the outcomes it needs; true if any was left.
  private mutating func releaseChoices(_ best: inout RunRecord) -> Bool {
    var released = false
    for key in best.choices.keys.sorted() where best.choices[key] != nil {
      var choices = best.choices
      choices[key] = nil
      if let better = tryRun(best.inputs, choices: choices, against: best) {
        best = better
        released = true
      }
    }
    return released
  }

  /// Tries deleting every chunk of `size` verbs, from the end back; true if any was deleted.
  private mutating func deleteChunks(of size: Int, from best: inout RunRecord) -> Bool {
    var deleted = false
    var start = best.inputs.count - size
    while start >= 0 {
      var candidate = best.inputs
      candidate.removeSubrange(start..<min(start + size, candidate.count))
      if let better = tryRun(candidate, choices: best.choices, against: best) {
        best = better
        deleted = true
      }
      start = min(start - 1, best.inputs.count - size)
    }
    return deleted
  }

  private mutating func simplifyArguments(_ best: inout RunRecord) -> Bool {
    var simplified = false
    var i = 0
    while i < best.inputs.count {
      for simpler in Self.simpler(best.inputs[i], controllers: worker.setup.controllers, actions: worker.setup.actions) {
        var candidate = best.inputs
        candidate[i] = simpler
        if let better = tryRun(candidate, choices: best.choices, against: best) {
          best = better
          simplified = true
          break
        }
      }
      i += 1
    }
    return simplified
  }

  /// Runs `inputs` with `choices`; the record if it fails the same way with fewer verbs, or as
  /// many but simpler.
  private mutating func tryRun(_ inputs: [Input], choices: [String: Bool], against best: RunRecord) -> RunRecord? {
    attempts += 1
    let record = worker.run(.fixed(inputs, choices: choices))
    guard record.failure == signature, record.inputs.count <= best.inputs.count else { return nil }
    return record
  }

  /// Simpler versions of an input, simplest first, as its row of the verb table says (for
  /// `act`: the action's earlier argument lists).
  static func simpler(_ input: Input, controllers: [String], actions: ActionCatalog = ActionCatalog()) -> [Input] {
    input.simpler(ShrinkDomain(controllers: controllers, actions: actions, deadlinesUs: ExploreSetup.deadlineDurationsUs))
  }
}

/// A sequence shrunk by `Explorer.shrink`.
public struct ShrinkOutcome: Sendable {
  public var signature: FailureSignature
  public var inputs: [Input]
  /// Runs the shrinker tried.
  public var attempts: Int
}

extension Explorer {
  /// Runs `inputs` (skipping verbs illegal where they fall) and, if the run fails, shrinks it;
  /// nil when it does not fail.
  public func shrink(_ inputs: [Input]) throws(ScriptError) -> ShrinkOutcome? {
    let worker = try ExploreWorker(setup)
    let record = worker.run(.fixed(inputs))
    guard let signature = record.failure else { return nil }
    var shrinker = Shrinker(worker: worker, signature: signature)
    let small = shrinker.shrink(record)
    return ShrinkOutcome(signature: signature, inputs: small.inputs, attempts: shrinker.attempts)
  }
}
