import JSON
import Lifecycle
import LuaRuntime
import ScriptHost

/// What `explore { … }` declares in an explore spec.
struct ExploreDeclaration: Equatable {
  var app: String?
  var ios: Int?
  var scenes: Bool?
  /// `device = "ipad"`: explore draws the window verbs too.
  var device: Profile.Device?
  var steps: Int?
  var seed: Int64?
  /// The argument lists explore calls each user action with (`actions = { type = { "hello" } }`).
  var actions: [String: [[JSONValue]]] = [:]
  static let keys = ["actions", "app", "device", "ios", "scenes", "seed", "steps"]
}

/// One `invariant(name, fn)` of a spec: its name and the lines of its function, copied into
/// a finding's scenario so the scenario checks it too.
struct InvariantSource: Equatable {
  var name: String
  var lines: ClosedRange<Int>
}

/// An explore spec's own sandboxed Lua state: reads `explore { … }`, keeps the invariants and
/// checks them against the run's state after every verb (`app_state()`, `stored(key)`).
/// One per worker thread, next to the worker's app state.
final class InvariantHost {
  let path: String
  private let vm: LuaVM
  private(set) var declaration = ExploreDeclaration()
  private(set) var invariants: [InvariantSource] = []
  /// The state the invariants read (set before each check).
  var state = LifecycleState()

  static let registryKey = "lifesim.invariants"
  static let instructionLimit = 10_000_000
  static let memoryBytes = 64 << 20

  /// Loads the spec; the error is `file:line: message`.
  init(path: String, source: String, seed: Int64) throws(ScriptError) {
    self.path = path
    vm = LuaVM(memoryLimitBytes: Self.memoryBytes, instructionLimit: Self.instructionLimit)
    vm.register()
    Sandbox.install(on: vm, hooks: Sandbox.Hooks(
      seed: seed, virtualSeconds: { 0 }, print: { _ in },
      require: { vm in throw LuaRaise(at: vm, "require is not available in an explore spec") }))
    installAPI()
    vm.pushRegistry(); vm.newTable(); vm.rawSet(-2, Self.registryKey); vm.pop()
    if let error = Sandbox.loadChunk(vm, source: source, name: path) { throw ScriptError(error) }
    switch vm.protectedCall(nargs: 0, nresults: 0, freshBudget: true) {
    case .ok: break
    case let .error(message, _): throw ScriptError(message)
    case .instructionLimit, .memoryLimit, .wallClockLimit, .aborted:
      throw ScriptError(file: path, "the spec's top level did not finish (a loop, or too much memory)")
    }
  }

  /// The name of the first invariant that does not hold now (an error counts as not holding).
  func violated() -> String? {
    let top = vm.top
    defer { vm.setTop(top) }
    vm.pushRegistry()
    vm.rawGet(-1, Self.registryKey)
    let list = vm.absIndex(-1)
    for (i, invariant) in invariants.enumerated() {
      vm.rawGet(list, i + 1)
      if vm.protectedCall(nargs: 0, nresults: 1, freshBudget: true) != .ok { return invariant.name }
      let holds = vm.bool(-1)
      vm.pop()
      if !holds { return invariant.name }
    }
    return nil
  }

  private func installAPI() {
    Sandbox.pushEnvironment(vm)
    let env = vm.absIndex(-1)
    func def(_ name: String, _ body: @escaping HostFunction.Body) {
      vm.push(function: body)
      vm.rawSet(env, name)
    }
    def("explore") { [unowned self] vm in
      guard vm.type(1) == .table else { throw LuaRaise(at: vm, "explore: expected a table: explore { app = \"app.lua\" }") }
      if let problem = vm.unknownKey(inTableAt: 1, allowed: ExploreDeclaration.keys) { throw LuaRaise(at: vm, "explore: \(problem)") }
      var d = ExploreDeclaration()
      vm.rawGet(1, "app"); d.app = vm.string(-1); vm.pop()
      vm.rawGet(1, "ios"); d.ios = vm.wholeNumber(-1).map(Int.init); vm.pop()
      vm.rawGet(1, "steps"); d.steps = vm.wholeNumber(-1).map(Int.init); vm.pop()
      vm.rawGet(1, "seed"); d.seed = vm.wholeNumber(-1); vm.pop()
      vm.rawGet(1, "scenes"); d.scenes = vm.type(-1) == .boolean ? vm.bool(-1) : nil; vm.pop()
      vm.rawGet(1, "device")
      if vm.type(-1) != .nil {
        guard let name = vm.string(-1), vm.type(-1) == .string, let device = Profile.Device(rawValue: name) else {
          throw LuaRaise(at: vm, "explore: device must be \"iphone\" or \"ipad\", not \(vm.describeValue(-1))")
        }
        d.device = device
      }
      vm.pop()
      d.actions = try Self.actionArgumentLists(vm, 1)
      guard d.app != nil else { throw LuaRaise(at: vm, "explore: app must be the app script's path (a string)") }
      if let steps = d.steps, steps < 1 { throw LuaRaise(at: vm, "explore: steps must be at least 1") }
      self.declaration = d
      return 0
    }
    def("invariant") { [unowned self] vm in
      guard let name = vm.string(1), vm.type(1) == .string, vm.type(2) == .function else {
        throw LuaRaise(at: vm, "invariant: expected a name and a function: invariant(\"name\", function() … end)")
      }
      if self.invariants.contains(where: { $0.name == name }) { throw LuaRaise(at: vm, "invariant: \"\(name)\" is declared twice") }
      guard let lines = vm.definitionLines(2) else { throw LuaRaise(at: vm, "invariant: the function must be written in the spec") }
      vm.pushRegistry()
      vm.rawGet(-1, Self.registryKey)
      vm.pushValue(2)
      vm.rawSet(-2, self.invariants.count + 1)
      self.invariants.append(InvariantSource(name: name, lines: lines))
      return 0
    }
    def("app_state") { [unowned self] vm in vm.push(self.state.appState.rawValue); return 1 }
    def("stored") { [unowned self] vm in
      guard let key = vm.string(1) else { throw LuaRaise(at: vm, "stored: expected a key") }
      try vm.push(json: self.state.store[key] ?? .null)
      return 1
    }
    vm.pop()
  }
}
