import JSON
import Lifecycle
import LuaRuntime

// User actions: `controller "Editor" { actions = { type = function(vc, text) … end } }`, called
// by the scenario's `act("type", "hello")` on the controller on screen.
extension AppHost {
  /// The actions each declared controller class declares, names in order (explore's `act` moves).
  package func declaredActions() -> [String: [String]] {
    var out: [String: [String]] = [:]
    for name in declaredControllers() {
      let actions = actions(of: name)
      if !actions.isEmpty { out[name] = actions }
    }
    return out
  }

  package func actions(of controller: String) -> [String] {
    guard let vm else { return [] }
    let top = vm.top
    defer { vm.setTop(top) }
    guard pushActionTable(vm, controller) else { return [] }
    return vm.stringKeys(ofTableAt: -1, holding: .function)
  }

  /// Pushes the `actions` table of `controller`'s declaration; false (nothing pushed) if it has none.
  private func pushActionTable(_ vm: LuaVM, _ controller: String) -> Bool {
    let top = vm.top
    pushRegistryTable(vm, "controllers")
    vm.rawGet(-1, controller)
    guard vm.type(-1) == .table else { vm.setTop(top); return false }
    vm.rawGet(-1, Callback.userAction.key)
    guard vm.type(-1) == .table else { vm.setTop(top); return false }
    vm.insert(top + 1)
    vm.setTop(top + 1)
    return true
  }

  /// Pushes the function of the action a `userAction` callback's payload names, declared by
  /// `target`'s class; false (nothing pushed) when there is none.
  func pushActionFunction(_ vm: LuaVM, target: String, payload: JSONValue?) -> Bool {
    let top = vm.top
    guard let call = UserAction.call(in: payload), pushActionTable(vm, InstanceLabel.className(target)) else { return false }
    vm.rawGet(-1, call.name)
    guard vm.type(-1) == .function else { vm.setTop(top); return false }
    vm.insert(top + 1)
    vm.setTop(top + 1)
    return true
  }

  /// Pushes the action's arguments from a `userAction` callback's payload (strings, numbers,
  /// booleans: at most `UserAction.argumentsMax`); their number.
  func pushActionArguments(_ vm: LuaVM, payload: JSONValue?) -> Int32 {
    let values = UserAction.call(in: payload)?.arguments ?? []
    guard vm.ensureStack(Int32(values.count) + 1) else { return 0 }
    for value in values {
      switch value {
      case let .string(s): vm.push(s)
      case let .int(i): vm.push(i)
      case let .double(d): vm.push(d)
      case let .bool(b): vm.push(b)
      case .null, .array, .object: vm.pushNil()
      }
    }
    return Int32(values.count)
  }

  /// What is wrong with the `actions` value on top of the stack in `owner`'s declaration: it
  /// must be a table of functions keyed by the actions' names.
  func actionTableProblems(_ vm: LuaVM, owner: String, line: SourceSite?) -> [(SourceSite?, String)] {
    guard vm.type(-1) == .table else {
      return [(line, "\(owner): actions must be a table of functions: actions = { save = function(vc) … end }")]
    }
    var problems: [(SourceSite?, String)] = []
    let table = vm.absIndex(-1)
    vm.pushNil()
    while vm.next(table) {
      var at: SourceSite? { Self.definitionSite(ofTop: vm, else: line) }  // only for a problem
      if vm.type(-2) != .string {
        problems.append((at, "\(owner): action names must be strings"))
      } else if vm.type(-1) != .function {
        problems.append((at, "\(owner): action \"\(vm.string(-2) ?? "")\" must be a function"))
      }
      vm.pop()
    }
    return problems
  }

  /// Where the value on top of the stack was defined, if it is a Lua function, else `fallback`
  /// (a handler's or an action's line in a problem; `lua_getinfo`, so asked only for one).
  static func definitionSite(ofTop vm: LuaVM, else fallback: SourceSite?) -> SourceSite? {
    vm.type(-1) == .function ? vm.definitionSite(-1) ?? fallback : fallback
  }
}

extension LuaVM {
  /// The string keys of the table at `index` whose values are of type `type`, in order.
  func stringKeys(ofTableAt index: Int32, holding type: LuaType) -> [String] {
    let table = absIndex(index)
    var names: [String] = []
    pushNil()
    while next(table) {
      if self.type(-2) == .string, let name = string(-2), self.type(-1) == type { names.append(name) }
      pop()
    }
    return names.sorted()
  }
}
