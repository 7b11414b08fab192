import Lifecycle
import ScriptHost

/// Runs sequences of verbs against the app, one fresh simulated device per run: the app's Lua
/// state (created at each process start) and, with a spec, the worker's own invariant state.
/// No log is written; events are only counted and followed.
final class ExploreWorker {
  let setup: ExploreSetup
  private let invariants: InvariantHost?
  private let rules: InputRules
  private let declared: Set<String>
  private var candidatesByDomain: [DomainKey: [(inputs: [Input], isAdvance: Bool)]] = [:]
  /// `draw`'s scratch, kept between draws: the verbs in their shuffled order, and the indices
  /// of one verb's legal inputs.
  private var verbOrder: [Int] = [], legalInputs: [Int] = []
  /// The app's process states at their checkpoints, shared by this worker's runs (nil: each
  /// process start builds its state).
  private let statePool: AppStatePool?

  init(_ setup: ExploreSetup) throws(ScriptError) {
    self.setup = setup
    invariants = try setup.spec.map { spec throws(ScriptError) in
      try InvariantHost(path: spec.path, source: spec.source, seed: setup.seed)
    }
    rules = InputRules(profile: setup.profile)
    declared = Set(setup.controllers)
    statePool = setup.reusesProcessStates
      ? AppStatePool(path: setup.appPath, source: setup.appSource, profile: setup.profile, seed: setup.seed,
                     wallLimitSeconds: ExploreSetup.wallLimitSeconds)
      : nil
  }

  /// The process starts that restored a checkpoint of the app's state instead of building it.
  var processStatesRestored: Int { statePool?.restores ?? 0 }
  /// Those restored after the app's top level, which they did not run again.
  var processStatesRestoredAfterTopLevel: Int { statePool?.restoresAfterTopLevel ?? 0 }

  /// How a run chooses its verbs.
  enum Plan {
    /// Exactly these verbs, skipping any the state reached makes illegal (shrinking, replay),
    /// with these `choose` outcomes (`SITE@N` keys; other sites are the seed's).
    case fixed([Input], choices: [String: Bool] = [:])
    /// `prefix` first, then verbs drawn at random until `steps` verbs in all, with the `choose`
    /// outcomes `choices` steers (the kept run's for the prefix, fresh draws after).
    case random(prefix: [Input], random: ExploreRandom, choices: SteeredChoices)
  }

  /// Performs the plan until it ends or the app fails.
  func run(_ plan: Plan) -> RunRecord {
    var record = RunRecord()
    let tracker = RunTracker()
    let app = AppHost(path: setup.appPath, source: setup.appSource, loader: setup.loader, modules: setup.modules,
                      profile: setup.profile, seed: setup.seed, output: OutputBudget(),
                      wallLimitSeconds: ExploreSetup.wallLimitSeconds, statePool: statePool)
    let sim = Simulator(profile: setup.profile, driver: app) { tracker.record($0) }
    var fixed: [Input] = []
    var prefix: [Input] = []
    var random: ExploreRandom?
    let steering: SteeredChoices
    switch plan {
    case let .fixed(inputs, choices): fixed = inputs; steering = SteeredChoices(replaying: choices)
    case let .random(p, r, c): prefix = p; random = r; steering = c
    }
    app.choiceSource = steering
    var step = 0
    let total = random == nil ? fixed.count : setup.steps
    while step < total {
      let input: Input
      if random == nil { input = fixed[step] }
      else if step < prefix.count { input = prefix[step] }
      else if var r = random, let drawn = draw(sim, &r) { input = drawn; random = r }
      else { break }
      step += 1
      let clock = sim.clock
      let (transition, allowed) = sim.withState { before in
        (Transition(before, scenes: setup.profile.scenes, verb: input.verb),
         random != nil || rules.allows(input, state: before, clockUs: clock, declares: declared.contains, actions: setup.actions.actions(of:)))
      }
      if !allowed { continue }
      do {
        app.startHostWork(at: nil)
        try sim.perform(input)
      } catch {
        record.failure = FailureSignature(reason: "script_error", place: Self.withoutLocation(app.fatal?.message ?? error.message))
        record.failureDetail = app.fatal?.message ?? error.message
      }
      record.inputs.append(input)
      record.transitions.append(transition)
      if record.failure != nil { break }
      if let (failure, detail) = failure(after: input, app: app, sim: sim, tracker: tracker) {
        record.failure = failure
        record.failureDetail = detail
        break
      }
    }
    app.endProcess()
    record.choices = steering.asked
    record.events = tracker.events
    record.endClockUs = sim.clock
    record.callbacks = tracker.delivered
    return record
  }

  /// How the run failed by the end of `input`, in order: the app's script, a fault of the
  /// model, a rule of scenes, then the spec's invariants; nil while it has not.
  private func failure(after input: Input, app: AppHost, sim: Simulator,
                       tracker: RunTracker) -> (FailureSignature, String)? {
    if let fatal = app.fatal {
      return (FailureSignature(reason: "script_error", place: Self.withoutLocation(fatal.message)), fatal.message)
    }
    if let fault = sim.withState({ $0.unexpectedFaults.first }) {
      let place = tracker.faultPlace.flatMap { $0.isEmpty ? nil : $0 } ?? "during \(input.verb)"
      return (FailureSignature(reason: fault.reason.rawValue, place: place), tracker.faultDetail)
    }
    if let rule = sim.withState({ tracker.scenes.check(after: $0) }) {
      return (FailureSignature(reason: "invariant", place: rule.rawValue), "after \(input.verb)")
    }
    guard let invariants else { return nil }
    invariants.state = sim.state
    return invariants.violated().map { (FailureSignature(reason: "invariant", place: $0), "after \(input.verb)") }
  }

  /// A verb legal now, at random: the verbs in a random order, the first with a legal input
  /// wins (uniform over the verbs legal now, so verbs with many argument combinations are not
  /// drawn more often), then one of its legal inputs.
  private func draw(_ sim: Simulator, _ random: inout ExploreRandom) -> Input? {
    let clock = sim.clock
    return sim.withState { draw(state: $0, clockUs: clock, &random) }
  }

  private func draw(state: borrowing LifecycleState, clockUs clock: Int64, _ random: inout ExploreRandom) -> Input? {
    let deadlineUs = ExploreSetup.deadlineDurationsUs[random.below(ExploreSetup.deadlineDurationsUs.count)]
    let freeUs = Int64(random.below(60_000)) * 1_000
    let work = state.backgroundWork
    let verbs = candidates(DomainKey(tabs: state.frontWindow?.tabs.count ?? 0,
                                     scenes: state.scenes.isEmpty ? [1] : state.scenes.compactMap { InstanceLabel.number($0.label) }.sorted(),
                                     bgTaskRequests: work.pending.map(\.request.identifier),
                                     transferSessions: work.sessionsWithFinishedTransfers(at: clock),
                                     continuedTasks: work.cancellableContinued))
    // The scratch arrays are taken out of the worker for the loop (no exclusivity check per access).
    var order: [Int] = [], legal: [Int] = []
    swap(&order, &verbOrder); swap(&legal, &legalInputs)
    defer { verbOrder = order; legalInputs = legal }
    order.removeAll(keepingCapacity: true)
    order.append(contentsOf: verbs.indices)
    for k in order.indices {
      order.swapAt(k, k + random.below(order.count - k))
      let verb = verbs[order[k]]
      let inputs = verb.isAdvance ? [Input.advance(us: deadlineUs), .advance(us: freeUs)] : verb.inputs
      legal.removeAll(keepingCapacity: true)
      for index in inputs.indices
      where rules.allows(inputs[index], state: state, clockUs: clock, declares: declared.contains, actions: setup.actions.actions(of:)) {
        legal.append(index)
      }
      if !legal.isEmpty { return inputs[random.pick(legal)] }
    }
    return nil
  }

  /// What the verbs' arguments are drawn from besides the app's declarations: the window's
  /// tabs, the connected scenes, the pending BGTask requests and the sessions with a finished transfer.
  private struct DomainKey: Hashable {
    var tabs: Int, scenes: [Int]
    var bgTaskRequests: [String], transferSessions: [String]
    /// The running continued tasks the user can cancel (`cancel_task`).
    var continuedTasks: [String]
  }

  /// Domains whose candidates are kept (an app's requests and sessions make only a few).
  static let cachedDomainsMax = 1_024

  /// Every verb's inputs for the domain `key` (`advance`'s are drawn per step).
  private func candidates(_ key: DomainKey) -> [(inputs: [Input], isAdvance: Bool)] {
    if let known = candidatesByDomain[key] { return known }
    if candidatesByDomain.count >= Self.cachedDomainsMax { candidatesByDomain.removeAll() }
    var domain = ArgumentDomain(controllers: setup.controllers, tabs: key.tabs, urls: [ExploreSetup.exploreURL], durationsUs: [],
                                scenes: key.scenes, actions: setup.actions, bgTaskRequests: key.bgTaskRequests,
                                transferSessions: key.transferSessions)
    domain.continuedTasks = key.continuedTasks
    let verbs = VerbSpec.drawn(on: setup.profile).map { (inputs: $0.candidates(domain), isAdvance: $0.name == "advance") }
    candidatesByDomain[key] = verbs
    return verbs
  }

  /// `notes.lua:12: boom` → `boom`: a signature must not change when lines move.
  static func withoutLocation(_ message: String) -> String {
    let parts = message.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count == 3, !parts[1].isEmpty, parts[1].allSatisfy(\.isNumber), parts[2].hasPrefix(" ") else { return message }
    return String(parts[2].dropFirst())
  }
}
