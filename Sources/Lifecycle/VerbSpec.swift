import JSON

/// Every scenario verb, declared once: its Lua name, its arguments and their checks, the
/// `Input` it makes, its one-line doc, when it is refused, what UIKit runs for it, what it
/// changes on the device, how the trace shows it and how a shrinker simplifies it.
///
/// ScriptHost installs the verbs from this table, `InputRules` refuses and `Simulator` runs
/// through it, the log records an input's arguments under the keys it declares, explore draws
/// from it, and a test checks that the LuaLS types and docs/lua-api.md list exactly these verbs.
/// The rows are in the `Verbs+…` files; `Input.spec` names each input's row. A class, as every
/// row is a constant: `Input.spec` is read several times a verb, and a copy of a struct of seven
/// closures retained each of them.
public final class VerbSpec: Sendable {
  /// Why a verb is refused now: throws `rule.fail(…)`; returns when the verb may be performed.
  typealias Refusal = @Sendable (VerbRule) throws(ScenarioError) -> Void
  /// UIKit's sequence for the input (after it is recorded).
  typealias Sequence = @Sendable (Input, Simulator) throws(ProcessEnded) -> Void
  /// What the input changes on the device, in the fold (what its sequence does is recorded by
  /// the sequence's own events).
  typealias DeviceChange = @Sendable (Input, inout LifecycleState) -> Void

  /// The Lua name (`end_interrupt`).
  public let name: String
  /// The arguments, in call order; `.options` only last.
  public let arguments: [VerbArgument]
  /// What the verb does, in one line.
  public let doc: String
  /// The input made from read arguments; nil only if an argument is missing or outside its
  /// domain, which the reader has already refused.
  public let make: @Sendable (VerbArguments) -> Input?
  let refusal: Refusal
  let sequence: Sequence
  let deviceChange: DeviceChange
  /// The user takes the device and opens the app (or unlocks it): a running processing task
  /// expires first, and the app hears of transfers a force quit cancelled.
  let userTakesDevice: @Sendable (Input) -> Bool
  /// The trace's words for the input; nil: the name and the recorded values (`push Detail`).
  let traceText: (@Sendable (Input) -> String)?
  /// Simpler inputs, simplest first, for the shrinker.
  let simpler: @Sendable (Input, ShrinkDomain) -> [Input]

  init(_ name: String, _ arguments: [VerbArgument] = [], doc: String,
       make: @escaping @Sendable (VerbArguments) -> Input?,
       refusal: @escaping Refusal = { _ throws(ScenarioError) in },
       sequence: @escaping Sequence,
       deviceChange: @escaping DeviceChange = { _, _ in },
       userTakesDevice: @escaping @Sendable (Input) -> Bool = { _ in false },
       traceText: (@Sendable (Input) -> String)? = nil,
       simpler: @escaping @Sendable (Input, ShrinkDomain) -> [Input] = { _, _ in [] }) {
    self.name = name; self.arguments = arguments; self.doc = doc; self.make = make
    self.refusal = refusal; self.sequence = sequence; self.deviceChange = deviceChange
    self.userTakesDevice = userTakesDevice; self.traceText = traceText; self.simpler = simpler
  }

  /// Every input this verb can make from `domain` (arguments in every combination).
  public func candidates(_ domain: ArgumentDomain) -> [Input] {
    var combinations = [VerbArguments()]
    for argument in arguments {
      combinations = combinations.flatMap { partial in argument.values(domain).map { partial.merging($0) } }
    }
    return combinations.compactMap(make)
  }

  /// The values present in `values`, with their keys, in the order the arguments declare them.
  public func recorded(_ values: VerbArguments) -> [(key: String, value: VerbValue)] {
    var found: [(key: String, value: VerbValue)] = []
    forEachRecorded(values) { found.append(($0, $1)) }
    return found
  }

  /// Calls `body` with each value present in `values` and its key, in the order the arguments
  /// declare them (`recorded`, without building the list: every input event is encoded so).
  public func forEachRecorded(_ values: VerbArguments, _ body: (String, VerbValue) -> Void) {
    guard !values.values.isEmpty else { return }
    func visit(_ key: String) {
      if let value = values.values[key] { body(key, value) }
    }
    for argument in arguments {
      switch argument {
      case let .string(key, _, _), let .choice(key, _, _), let .tab(key, _), let .seconds(key), let .boolean(key),
           let .scene(key, _), let .optionalChoice(key, _, _):
        visit(key)
      case let .options(options): for option in options { visit(option.key) }
      case let .action(key, argumentsKey): visit(key); visit(argumentsKey)
      }
    }
  }
}

/// What the shrinker knows when it simplifies an input: the app's controllers and actions, and
/// the durations at which something falls due.
public struct ShrinkDomain: Sendable {
  public var controllers: [String]
  public var actions: ActionCatalog
  public var deadlinesUs: [Int64]

  public init(controllers: [String], actions: ActionCatalog = ActionCatalog(), deadlinesUs: [Int64] = []) {
    self.controllers = controllers; self.actions = actions; self.deadlinesUs = deadlinesUs
  }
}

/// What a verb's refusal rule reads (the input, the state, the profile, the clock, what the app
/// declares) and the words it refuses with.
struct VerbRule {
  let input: Input
  /// The state, read where the caller holds it: a rule holding a copy retained every reference
  /// in the state at each check, and explore checks every candidate input of every step.
  private let statePlace: UnsafePointer<LifecycleState>
  /// The profile, read in place for the same reason.
  private let profilePlace: UnsafePointer<Profile>
  let clockUs: Int64
  let declares: (String) -> Bool
  let actions: (String) -> [String]
  /// Whether a refusal is worded; without, `fail` returns an empty message (the caller asks only whether).
  let explains: Bool

  init(input: Input, state: UnsafePointer<LifecycleState>, profile: UnsafePointer<Profile>, clockUs: Int64,
       declares: @escaping (String) -> Bool, actions: @escaping (String) -> [String], explains: Bool) {
    self.input = input; statePlace = state; profilePlace = profile; self.clockUs = clockUs
    self.declares = declares; self.actions = actions; self.explains = explains
  }

  var state: LifecycleState { unsafeAddress { statePlace } }

  /// `read` given the state where it lies. Through the pointer, a stored member of `state` is
  /// read in place, but a computed one (`state.isForeground`), or `state` handed to a function,
  /// first copies all of it, as `Simulator.inPlace` explains; an inout access passes the address.
  /// `read` must only read: the state is the caller's.
  @inline(__always)
  func inPlace<Result>(_ read: (inout LifecycleState) -> Result) -> Result {
    read(&UnsafeMutablePointer(mutating: statePlace).pointee)
  }
  var profile: Profile { unsafeAddress { profilePlace } }

  /// The refusal: `<verb>(): <why> (state: …)`. The state's words are made only here.
  func fail(_ why: @autoclosure () -> String) -> ScenarioError {
    guard explains else { return ScenarioError("") }
    let where_ = "(state: \(state.appState.rawValue)\(state.locked ? ", device locked" : "")"
      + "\(state.switcherOpen ? ", app switcher open" : "")\(state.interruption.map { ", \($0.rawValue) in progress" } ?? ""))"
    return ScenarioError("\(input.verb)(): \(why()) \(where_)")
  }

  func needActive() throws(ScenarioError) {
    guard state.appState == .active, state.interruption == nil, !state.switcherOpen else {
      throw fail("the app must be active and frontmost")
    }
  }

  func needDeclared(_ name: String) throws(ScenarioError) {
    guard declares(name) else { throw fail("the app declares no controller \"\(name)\"") }
  }

  /// The user can reach the app's icon, a link or a banner: unlocked, no switcher, no interruption.
  func needReachable() throws(ScenarioError) {
    if state.locked { throw fail("the device is locked; unlock() first") }
    if state.switcherOpen { throw fail("the app switcher is open; use switch_to(\"self\")") }
    if state.interruption != nil { throw fail("an interruption is in progress; end_interrupt() first") }
  }
}

extension Input {
  /// The name and the recorded values, as the trace shows an input (`push Detail`).
  public var traceText: String {
    let spec = self.spec
    if let text = spec.traceText { return text(self) }
    let values = arguments
    return ([spec.name] + spec.recorded(values).map(\.value.text)).joined(separator: " ")
  }

  /// Simpler inputs than this one, simplest first.
  public func simpler(_ domain: ShrinkDomain) -> [Input] { spec.simpler(self, domain) }

  /// The user takes the device and opens the app (or unlocks it).
  var userTakesDevice: Bool { spec.userTakesDevice(self) }
}

extension VerbValue {
  /// The value in a trace line.
  var text: String {
    switch self {
    case let .text(s): return s
    case let .number(n): return String(n)
    case let .flag(b): return b ? "true" : "false"
    case let .list(l): return l.map(\.canonicalText).joined(separator: " ")
    }
  }
}
