import Lifecycle
import LuaRuntime

/// Registry references into one process's Lua state, made once after its API is installed, so
/// that a callback reaches its handler and its receiver by reading the registry by number
/// instead of interning strings and walking the registry by name at every call. Each refers to exactly what its
/// name leads to: the registry's tables are out of a script's reach and are never replaced.
/// The handler tables (`SceneDelegate`, a controller's table) are globals and tables a script
/// may replace or change at any time, so they are still looked up, raw, at every call.
final class AppReferences {
  let environment: Int32
  let controllers: Int32
  let instances: Int32
  let expirations: Int32
  let afters: Int32
  /// `AppHost.runObservers`, made once instead of a closure for every notification.
  let runObservers: Int32
  /// The handler tables' global names as Lua strings.
  private let appDelegate: Int32, sceneDelegate: Int32, notificationDelegate: Int32, urlSessionDelegate: Int32
  /// The handler keys as Lua strings by `Callback.ordinal`, made with the others before the
  /// app's chunk runs: so they are in a pool's checkpoint, and a process start looks its
  /// handlers up without interning a string.
  private let handlerKeys: [Int32]
  /// The instance table pushed last, by label: an instance keeps its table for its whole life.
  private var lastInstance: (label: String, table: Int32)?

  init(_ vm: LuaVM) {
    Sandbox.pushEnvironment(vm)
    environment = vm.makeReference()
    func table(_ name: String) -> Int32 {
      vm.pushRegistry()
      vm.rawGet(-1, "lifesim.app")
      vm.rawGet(-1, name)
      let reference = vm.makeReference()
      vm.pop(2)
      return reference
    }
    controllers = table("controllers")
    instances = table("instances")
    expirations = table("expirations")
    afters = table("afters")
    vm.push(function: AppHost.runObservers)
    runObservers = vm.makeReference()
    func name(_ text: String) -> Int32 {
      vm.push(text)
      return vm.makeReference()
    }
    appDelegate = name("AppDelegate")
    sceneDelegate = name("SceneDelegate")
    notificationDelegate = name("NotificationDelegate")
    urlSessionDelegate = name(URLSessionLabel.delegate)
    handlerKeys = Callback.allCases.map { name($0.key) }
    assert(Callback.allCases.enumerated().allSatisfy { $0.offset == $0.element.ordinal })
  }

  /// The same references into a copy of the state they were made in (`AppStatePool`), none of
  /// the ones made later (handler keys, the last instance).
  init(copying other: AppReferences) {
    environment = other.environment; controllers = other.controllers; instances = other.instances
    expirations = other.expirations; afters = other.afters; runObservers = other.runObservers
    appDelegate = other.appDelegate; sceneDelegate = other.sceneDelegate
    notificationDelegate = other.notificationDelegate; urlSessionDelegate = other.urlSessionDelegate
    handlerKeys = other.handlerKeys
  }

  /// The global name of the table holding `receiver`'s handlers (AppDelegate for those without one).
  func handlerTableName(_ receiver: Callback.Receiver) -> Int32 {
    switch receiver {
    case .appDelegate, .viewController, .closure: return appDelegate
    case .sceneDelegate: return sceneDelegate
    case .notificationDelegate: return notificationDelegate
    case .urlSessionDelegate: return urlSessionDelegate
    }
  }

  /// `callback.key` as a Lua string.
  func handlerKey(_ callback: Callback) -> Int32 { handlerKeys[callback.ordinal] }

  /// Pushes the instance table kept for `label`, if it was the last one pushed; else false.
  func pushLastInstance(_ vm: LuaVM, label: String) -> Bool {
    guard let lastInstance, lastInstance.label == label else { return false }
    vm.pushReference(lastInstance.table)
    return true
  }

  /// Keeps the instance table on top of the stack (left there) as the last one pushed.
  func keepLastInstance(_ vm: LuaVM, label: String) {
    if let lastInstance { vm.releaseReference(lastInstance.table) }
    vm.pushValue(-1)
    lastInstance = (label, vm.makeReference())
  }
}

// Finding the app's handlers and the instances they receive.
extension AppHost {
  /// Calls, with the notification's name, every observer of it in the observer list, in the
  /// order they were added: a Lua function whose arguments are the list and the name.
  static func runObservers(_ vm: LuaVM) throws -> Int32 {
    let list: Int32 = 1
    let name = vm.string(2)
    var i = 1
    while true {
      vm.rawGet(list, i)
      if vm.type(-1) != .table { vm.pop(); break }
      vm.rawGet(-1, 1)
      let matches = vm.string(-1) == name
      vm.pop()
      if matches {
        vm.rawGet(-1, 2)
        vm.pushValue(2)
        switch vm.protectedCall(nargs: 1, nresults: 0, freshBudget: false) {
        case .ok: break
        case let .error(message, _): throw LuaRaise(message)
        default: throw LuaRaise("lifesim: limit exceeded")
        }
      }
      vm.pop()
      i += 1
    }
    return 0
  }

  package func implements(_ callback: Callback, target: String) -> Bool {
    guard let vm, let references, !vm.aborted else { return false }
    let top = vm.top
    defer { vm.setTop(top) }
    return pushHandler(vm, references, callback, target: target)
  }

  func pushRegistryTable(_ vm: LuaVM, _ name: String) {
    vm.pushRegistry()
    vm.rawGet(-1, "lifesim.app")
    vm.rawGet(-1, name)
    vm.insert(-3)
    vm.pop(2)
  }

  /// Pushes the Lua function for `callback` on `target`; false (nothing pushed) if there is none.
  func pushHandler(_ vm: LuaVM, _ references: AppReferences, _ callback: Callback, target: String) -> Bool {
    let top = vm.top
    switch callback.receiver {
    case .appDelegate, .sceneDelegate, .notificationDelegate, .urlSessionDelegate:
      vm.pushReference(references.environment)
      vm.rawGet(-1, keyReference: references.handlerTableName(callback.receiver))
      guard vm.type(-1) == .table else { vm.setTop(top); return false }
      vm.rawGet(-1, keyReference: references.handlerKey(callback))
    case .viewController:
      vm.pushReference(references.controllers)
      vm.rawGet(-1, InstanceLabel.className(target))
      guard vm.type(-1) == .table else { vm.setTop(top); return false }
      vm.rawGet(-1, keyReference: references.handlerKey(callback))
    case .closure:
      if callback == .asyncAfter { return false }
      if callback == .sceneRequestErrorHandler {
        pushRegistryTable(vm, Self.sceneErrorHandlersTable)
        vm.rawGet(-1, InstanceLabel.number(target) ?? 0)
      } else if let identifier = BGTaskLabel.identifier(of: target) {
        pushBackgroundTaskClosure(vm, callback, identifier: identifier)
      } else {
        vm.pushReference(references.expirations)
        vm.rawGet(-1, InstanceLabel.number(target) ?? 0)
      }
    }
    guard vm.type(-1) == .function else { vm.setTop(top); return false }
    vm.insert(top + 1)
    vm.setTop(top + 1)
    return true
  }

  /// The table standing for one instance (`vc.id == "NoteList#1"`): the same table for its whole life.
  func pushInstance(_ vm: LuaVM, _ references: AppReferences, label: String, className: String) {
    guard !references.pushLastInstance(vm, label: label) else { return }
    vm.pushReference(references.instances)
    vm.rawGet(-1, label)
    if vm.type(-1) != .table {
      vm.pop()
      vm.newTable()
      vm.push(label); vm.rawSet(-2, "id")
      vm.push(className); vm.rawSet(-2, "class")
      if className == "UIWindowScene" { installSceneMethods(vm) }
      vm.pushValue(-1)
      vm.rawSet(-3, label)
    }
    vm.insert(-2)
    vm.pop()
    references.keepLastInstance(vm, label: label)
  }
}
