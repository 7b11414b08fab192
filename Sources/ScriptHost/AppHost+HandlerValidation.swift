import Lifecycle
import LuaRuntime

// Checking the handler tables an app's top level left: every key a handler of its receiver, the
// root controllers declared. A mistake here is the script's, reported at its line.
extension AppHost {
  /// The keys a handler table of `receiver` may have (a controller's: `restorationIdentifier`
  /// too), in `Callback`'s order for "did you mean", and as a set; made once, not at every process start.
  private static func handlerKeys(_ receiver: Callback.Receiver) -> ([String], Set<String>) {
    switch receiver {
    case .appDelegate: appDelegateKeys
    case .sceneDelegate: sceneDelegateKeys
    case .viewController: controllerKeys
    case .notificationDelegate: notificationDelegateKeys
    case .urlSessionDelegate: urlSessionDelegateKeys
    case .closure: ([], [])
    }
  }
  private static let appDelegateKeys = keySet(Callback.keys(for: .appDelegate))
  private static let sceneDelegateKeys = keySet(Callback.keys(for: .sceneDelegate))
  private static let controllerKeys = keySet(Callback.keys(for: .viewController) + ["restorationIdentifier"])
  private static let notificationDelegateKeys = keySet(Callback.keys(for: .notificationDelegate))
  private static let urlSessionDelegateKeys = keySet(Callback.keys(for: .urlSessionDelegate))
  private static func keySet(_ keys: [String]) -> ([String], Set<String>) { (keys, Set(keys)) }

  /// Unknown handler keys are script errors naming the nearest known key and the function's line.
  func validateHandlers(_ vm: LuaVM) -> ScriptError? {
    let top = vm.top
    defer { vm.setTop(top) }
    var problems: [(SourceSite?, String)] = []
    func check(_ table: Int32, owner: String, receiver: Callback.Receiver, declaredAt: SourceSite?) {
      let (keys, known) = Self.handlerKeys(receiver)
      vm.pushNil()
      while vm.next(table) {
        var line: SourceSite? { Self.definitionSite(ofTop: vm, else: declaredAt) }  // only for a problem
        if let key = vm.type(-2) == .string ? vm.string(-2) : nil {
          if receiver == .viewController, key == "restorationIdentifier" {
            if vm.type(-1) != .string { problems.append((line, "\(owner).restorationIdentifier must be a string")) }
          } else if !known.contains(key) {
            let near = nearest(key, in: keys).map { " (did you mean \($0)?)" } ?? ""
            problems.append((line, "\(owner) has no handler \"\(key)\"\(near)"))
          } else if receiver == .viewController, key == Callback.userAction.key {
            problems += actionTableProblems(vm, owner: owner, line: line)
          } else if vm.type(-1) != .function {
            problems.append((line, "\(owner).\(key) must be a function"))
          }
        } else {
          problems.append((line, "\(owner) keys must be handler names"))
        }
        vm.pop()
      }
    }
    Sandbox.pushEnvironment(vm)
    for (name, receiver) in [("AppDelegate", Callback.Receiver.appDelegate), ("SceneDelegate", .sceneDelegate),
                             ("NotificationDelegate", .notificationDelegate), (URLSessionLabel.delegate, .urlSessionDelegate)] {
      vm.rawGet(-1, name)
      if vm.type(-1) == .table { check(vm.absIndex(-1), owner: name, receiver: receiver, declaredAt: nil) }
      vm.pop()
    }
    pushRegistryTable(vm, "controllers")
    let controllers = vm.absIndex(-1)
    vm.pushNil()
    while vm.next(controllers) {
      let name = vm.string(-2) ?? "?"
      check(vm.absIndex(-1), owner: "controller \"\(name)\"", receiver: .viewController, declaredAt: controllerSites[name])
      vm.pop()
    }
    for root in layout.roots {
      vm.rawGet(controllers, root)
      if vm.type(-1) != .table {
        let near = nearest(root, in: controllerSites.keys.sorted()).map { " (did you mean \"\($0)\"?)" } ?? ""
        problems.append((appSite, "the root controller \"\(root)\" is not declared\(near): add controller \"\(root)\" { }"))
      }
      vm.pop()
    }
    // Problems with a line first, in file and line order; then those with none.
    let first = problems.min { a, b in
      switch (a.0, b.0) {
      case let (x?, y?): (x, a.1) < (y, b.1)
      case (.some, .none): true
      case (.none, .some): false
      case (.none, .none): a.1 < b.1
      }
    }
    guard let (site, message) = first else { return nil }
    return site.map { ScriptError("\($0): \(message)") } ?? ScriptError(file: path, message)
  }
}
