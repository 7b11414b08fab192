import JSON
import Lifecycle
import LuaRuntime

// The Lua side of state restoration (docs/model.md §17): coders are plain tables (what an encode
// handler wrote, the next process's decode reads), a controller opts in with the string
// `restorationIdentifier` in its table, the session argument of `willConnectTo` carries
// `stateRestorationActivity`, and scenes have `extendStateRestoration()` /
// `completeStateRestoration()`.
extension AppHost {
  /// The callbacks whose value is the coder the handler filled, not what it returned.
  static func fillsCoder(_ job: AppJob) -> Bool {
    guard case let .callback(cb, _, _) = job else { return false }
    return fillsCoder(cb)
  }

  static func fillsCoder(_ cb: Callback) -> Bool { cb == .willEncodeRestorableStateWith || cb == .encodeRestorableState }

  /// The controller class's `restorationIdentifier` (a string in its `controller` table), if any.
  package func restorationIdentifier(ofController name: String) -> String? {
    guard let vm else { return nil }
    let top = vm.top
    defer { vm.setTop(top) }
    pushRegistryTable(vm, "controllers")
    vm.rawGet(-1, name)
    guard vm.type(-1) == .table else { return nil }
    vm.rawGet(-1, "restorationIdentifier")
    return vm.type(-1) == .string ? vm.string(-1) : nil
  }

  /// Pushes one JSON value of a callback's payload as Lua (nil when absent).
  func pushPayloadValue(_ vm: LuaVM, _ value: JSONValue?) {
    do { try vm.push(json: value ?? .null) } catch { vm.pushNil() }
  }

  /// Pushes the coder of a restoration callback: the payload's `coder` as a fresh table. For
  /// the encode callbacks it is also kept, so what the handler writes in it is read back after
  /// the call (`fillsCoder`).
  func pushCoder(_ vm: LuaVM, _ payload: JSONValue?, kept: Bool) {
    pushPayloadValue(vm, payload?["coder"])
    if vm.type(-1) != .table { vm.pop(); vm.newTable() }
    guard kept else { return }
    vm.pushRegistry()
    vm.rawGet(-1, "lifesim.app")
    vm.pushValue(-3)
    vm.rawSet(-2, "coder")
    vm.pop(2)
  }

  /// `willConnectTo`'s session: `stateRestorationActivity` when the payload has one.
  func pushSession(_ vm: LuaVM, _ payload: JSONValue?) {
    pushPayloadValue(vm, payload?["session"])
    if vm.type(-1) != .table { vm.pop(); vm.newTable() }
  }

  /// The scene's restoration methods, recorded as app calls with no other effect.
  func installSceneMethods(_ vm: LuaVM) {
    for (name, request) in [("extendStateRestoration", AppRequest.extendStateRestoration),
                            ("completeStateRestoration", AppRequest.completeStateRestoration)] {
      vm.push { [link] vm in
        guard let self = link.host else { return 0 }
        guard vm.type(1) == .table else {
          throw LuaRaise(at: vm, "\(name): call it with ':' — scene:\(name)(), not scene.\(name)()")
        }
        try self.call(request, from: vm)
        return 0
      }
      vm.rawSet(-2, name)
    }
  }
}
