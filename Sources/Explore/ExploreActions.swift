import JSON
import Lifecycle
import LuaRuntime
import ScriptHost

// User actions in explore: the spec's argument lists (`explore { actions = { type = { "hello", "" } } }`)
// and the catalog the worker draws `act` moves from.
extension InvariantHost {
  /// `actions = { name = { … } }` of the `explore { … }` table at `idx`: for each action, the
  /// argument lists to call it with. An entry that is a string, a number or a boolean is one
  /// call with that one argument; a list of them is one call with those arguments (`{}`: none).
  static func actionArgumentLists(_ vm: LuaVM, _ idx: Int32) throws -> [String: [[JSONValue]]] {
    vm.rawGet(idx, "actions")
    defer { vm.pop() }
    guard vm.type(-1) != .nil else { return [:] }
    let usage = "explore: actions must map action names to lists of arguments: actions = { type = { \"hello\", \"\" } }"
    guard vm.type(-1) == .table else { throw LuaRaise(at: vm, usage) }
    let table = vm.absIndex(-1)
    var lists: [String: [[JSONValue]]] = [:]
    vm.pushNil()
    while vm.next(table) {
      guard vm.type(-2) == .string, let name = vm.string(-2), vm.type(-1) == .table else { throw LuaRaise(at: vm, usage) }
      let entries = vm.absIndex(-1)
      var calls: [[JSONValue]] = []
      for i in stride(from: 1, through: vm.rawLength(entries), by: 1) {
        vm.rawGet(entries, i)
        let entry = try vm.json(at: -1, what: "explore")
        vm.pop()
        let arguments = entry.arrayValue ?? [entry]
        guard arguments.allSatisfy(UserAction.isArgument), arguments.count <= UserAction.argumentsMax else {
          throw LuaRaise(at: vm, "explore: actions.\(name)[\(i)] must be a string, a number, a boolean or a list of at most \(UserAction.argumentsMax) of them (the arguments of one call)")
        }
        calls.append(arguments)
      }
      lists[name] = calls
      vm.pop()
    }
    return lists
  }
}

extension ExploreSetup {
  /// The transitions coverage counts for this app: its tabs, and `act` when it declares actions.
  var transitions: Set<Transition> {
    TransitionUniverse(profile: profile, tabs: tabs, url: Self.exploreURL, actions: !actions.byController.isEmpty).transitions
  }

  /// The app's actions (read from the probe's declarations) with the spec's argument lists;
  /// a spec that lists an action no controller declares is an error naming the spec.
  static func actionCatalog(_ probe: AppHost, declaration: ExploreDeclaration, specPath: String?) throws(ScriptError) -> ActionCatalog {
    let catalog = ActionCatalog(byController: probe.declaredActions(), argumentLists: declaration.actions)
    let declared = catalog.names
    for name in declaration.actions.keys.sorted() where !declared.contains(name) {
      let near = nearest(name, in: declared).map { " (did you mean \($0)?)" } ?? ""
      throw ScriptError(file: specPath ?? "", "explore: actions lists \"\(name)\", which no controller of the app declares\(near)")
    }
    return catalog
  }
}
