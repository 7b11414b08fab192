import EventStore
import LuaRuntime

extension AppHost {
  func require(_ vm: LuaVM) throws -> Int32 {
    try Self.require(vm, modules: modules, from: path)
  }

  /// `require(name)` for either script, from that side's `modules` (`ModuleSide`): modules were
  /// found before the run, so a log records them all.
  static func require(_ vm: LuaVM, modules: [EmbeddedScript], from path: String) throws -> Int32 {
    guard let name = vm.type(1) == .string ? vm.string(1) : nil else { throw LuaRaise(at: vm, "require: expected a module name") }
    guard ScriptLoader.isModuleName(name) else {
      throw LuaRaise(at: vm, "require \"\(name)\": module names are dotted names of files under the script's folder or Scripts/lib (no paths)")
    }
    vm.pushRegistry()
    vm.rawGet(-1, "lifesim.loaded")
    if vm.type(-1) != .table {
      vm.pop(); vm.newTable(); vm.pushValue(-1); vm.rawSet(-3, "lifesim.loaded")
    }
    let loaded = vm.absIndex(-1)
    vm.rawGet(loaded, name)
    if vm.type(-1) != .nil { return 1 }
    vm.pop()
    guard let module = modules.first(where: { $0.role == ModuleSide.role(name) }) else {
      throw LuaRaise(at: vm, "require \"\(name)\": not found before the run (require needs a constant module name)")
    }
    if let error = Sandbox.loadChunk(vm, source: module.source, name: module.path) { throw LuaRaise(error) }
    switch vm.protectedCall(nargs: 0, nresults: 1, freshBudget: false) {
    case .ok: break
    case let .error(message, _): throw LuaRaise(message)
    default: throw LuaRaise("lifesim: limit exceeded")
    }
    if vm.type(-1) == .nil { vm.pop(); vm.push(true) }
    vm.pushValue(-1)
    vm.rawSet(loaded, name)
    return 1
  }
}
