import Lifecycle
import LuaRuntime

// The app API: the globals an app script calls (`app`, `controller`, `work`, `store`,
// `observe`, `after`, navigation) and `UIApplication.shared`. Every app call goes through
// `call(_:from:)` to the job's `AppServices`.
extension AppHost {
  /// Runs an app call; a dead process unwinds the Lua code that made it.
  /// Returns the id UIKit gave the call (`beginBackgroundTask`, `after`), else nil; a call the
  /// model refuses is a Lua error at `caller`'s line.
  @discardableResult
  func call(_ request: AppRequest, from caller: LuaVM) throws -> Int? {
    guard let services, let vm, !vm.aborted else { throw LuaRaise("lifesim: process ended") }
    do throws(AppCallError) { return try services.handle(request, at: caller.callerLocation()) } catch {
      switch error {
      case .processEnded: vm.abort(); throw LuaRaise("lifesim: process ended")
      case let .invalid(message): throw LuaRaise(at: caller, message)
      }
    }
  }

  func seconds(_ vm: LuaVM, _ idx: Int32, _ fn: String) throws -> Int64 {
    guard let s = vm.number(idx), s.isFinite, s >= 0, s <= 86_400 else {
      throw LuaRaise(at: vm, "\(fn): seconds must be a number from 0 to 86400")
    }
    return VirtualTime.microseconds(seconds: s)
  }

  func installAPI(_ vm: LuaVM) {
    vm.pushRegistry()
    vm.newTable()
    for t in ["controllers", "instances", "expirations", "afters", "observers", Self.sceneErrorHandlersTable] { vm.newTable(); vm.rawSet(-2, t) }
    vm.rawSet(-2, "lifesim.app")
    vm.pop()

    Sandbox.pushEnvironment(vm)
    let env = vm.absIndex(-1)
    vm.newTable(); vm.rawSet(env, "AppDelegate")
    vm.newTable(); vm.rawSet(env, "SceneDelegate")
    vm.newTable(); vm.rawSet(env, "NotificationDelegate")
    controllerSites = [:]
    appSite = nil

    for row in Self.coreAPIRows {
      vm.push(function: row.body(link))
      vm.rawSet(env, row.name)
    }

    installNavigation(vm, env: env)
    installApplication(vm, env: env)
    installLocks(vm, env: env)
    installNotificationCenter(vm, env: env)
    installBackgroundWork(vm, env: env)
    vm.pop()
  }

  /// The globals of the app API this file defines, in the order they are set, and the
  /// functions that make their bodies: data, not code.
  private static var coreAPIRows: [(name: String, body: (HostLink) -> HostFunction.Body)] {
    [("app", appFunction), ("controller", controllerFunction), ("work", workFunction), ("store", storeFunction),
     ("stored", storedFunction), ("log", logFunction), ("observe", observeFunction), ("after", afterFunction),
     ("choose", chooseFunction)]
  }

  /// `app { name = …, root = … }`: the app's layout.
  private static func appFunction(_ link: HostLink) -> HostFunction.Body {
    return { vm in
      guard let self = link.host else { return 0 }
      guard vm.type(1) == .table else { throw self.stopRun(vm, "app: expected a table: app { name = \"Notes\", root = \"NoteList\" }") }
      if let problem = vm.unknownKey(inTableAt: 1, allowed: ["bgTaskIdentifiers", "container", "minimumIOS", "multipleScenes", "name", "root",
                                                               "sceneManifest", "sdk", "tabs"]) {
        throw self.stopRun(vm, "app: \(problem)")
      }
      self.appSite = vm.callerSite()
      var layout = AppLayout()
      vm.rawGet(1, "name"); if let n = vm.string(-1) { layout.name = n }; vm.pop()
      vm.rawGet(1, "sdk")
      if vm.type(-1) != .nil {
        guard let sdk = vm.wholeNumber(-1).map({ Int($0) }), IOSRelease.versions.contains(sdk) else {
          throw self.stopRun(vm, IOSRelease.Refusal("app: sdk", shown: vm.describeValue(-1), as: .sdk).description)
        }
        layout.sdk = sdk
      }
      vm.pop()
      vm.rawGet(1, "multipleScenes")
      if vm.type(-1) != .nil {
        guard vm.type(-1) == .boolean else { throw self.stopRun(vm, "app: multipleScenes must be true or false, not \(vm.describeValue(-1))") }
        layout.multipleScenes = vm.bool(-1)
      }
      vm.pop()
      vm.rawGet(1, "container")
      let container = vm.string(-1); vm.pop()
      vm.rawGet(1, "tabs")
      if vm.type(-1) == .table {
        var tabs: [String] = []
        for i in 1...max(1, vm.rawLength(-1)) {
          vm.rawGet(-1, i)
          if let s = vm.string(-1) { tabs.append(s) }
          vm.pop()
        }
        guard !tabs.isEmpty, tabs.count <= 5 else { throw self.stopRun(vm, "app: tabs must list 1 to 5 controller names") }
        layout.roots = tabs
        layout.container = .tabs
        layout.tabsHaveNavigation = container == "navigation"
      } else {
        vm.rawGet(1, "root"); if let r = vm.string(-1) { layout.roots = [r] }; vm.pop()
        switch container {
        case nil, "none": layout.container = .none
        case "navigation": layout.container = .navigation
        case let other?: throw self.stopRun(vm, "app: container must be \"navigation\" or \"none\", not \"\(other)\"")
        }
      }
      vm.pop()
      do {
        layout.bgTaskIdentifiers = try Self.bgTaskIdentifiers(vm, inTableAt: 1)
        layout.minimumIOS = try Self.minimumIOS(vm, inTableAt: 1)
        layout.sceneManifest = try Self.sceneManifest(vm, inTableAt: 1)
      } catch let raise as LuaRaise {
        throw self.stopRun(vm, raise.message, located: true)
      }
      self.layout = layout
      return 0
    }
  }

  /// `controller "Name" { … }`: a view-controller class and its handlers.
  private static func controllerFunction(_ link: HostLink) -> HostFunction.Body {
    return { vm in
      guard let name = vm.type(1) == .string ? vm.string(1) : nil else {
        throw LuaRaise(at: vm, "controller: expected a class name: controller \"NoteList\" { … }")
      }
      vm.push { [link] vm in
        guard vm.type(1) == .table else { throw LuaRaise(at: vm, "controller \"\(name)\": expected a table of handlers") }
        link.host?.pushRegistryTable(vm, "controllers")
        vm.pushValue(1)
        vm.rawSet(-2, name)
        link.host?.controllerSites[name] = vm.callerSite()
        return 0
      }
      return 1
    }
  }

  /// `work(seconds)`: busy time on the main thread.
  private static func workFunction(_ link: HostLink) -> HostFunction.Body {
    return { vm in
      guard let self = link.host else { return 0 }
      let us = try self.seconds(vm, 1, "work")
      try self.checkClock(vm, adding: us, by: "work")
      try self.call(.work(us: us), from: vm)
      return 0
    }
  }

  /// `store(key, value, protection)`: a value kept across launches.
  private static func storeFunction(_ link: HostLink) -> HostFunction.Body {
    return { vm in
      guard let self = link.host else { return 0 }
      guard let key = vm.type(1) == .string ? vm.string(1) : nil else { throw LuaRaise(at: vm, "store: the key must be a string") }
      let value = try vm.json(at: 2)
      let protection = try self.protection(vm, 3)
      if self.services?.isAvailable(protection) == true { try self.chargeStore(vm, key: key, value: value) }
      let written = try self.call(.store(key: key, value: value == .null ? nil : value, protection: protection), from: vm)
      vm.push(written != nil)
      return 1
    }
  }

  /// `stored(key)`: a kept value, when the device lets the app read it.
  private static func storedFunction(_ link: HostLink) -> HostFunction.Body {
    return { vm in
      guard let key = vm.string(1) else { throw LuaRaise(at: vm, "stored: the key must be a string") }
      try vm.push(json: link.host?.services?.readableStoredValue(key) ?? .null)
      return 1
    }
  }

  /// `log(text)`: a line in the log.
  private static func logFunction(_ link: HostLink) -> HostFunction.Body {
    return { vm in
      guard let self = link.host else { return 0 }
      try self.writeLog(vm, vm.string(1) ?? "", by: "log")
      return 0
    }
  }

  /// `observe(name, fn)`: a NotificationCenter observer.
  private static func observeFunction(_ link: HostLink) -> HostFunction.Body {
    return { vm in
      guard let self = link.host else { return 0 }
      guard let name = vm.type(1) == .string ? vm.string(1) : nil, vm.type(2) == .function else {
        throw LuaRaise(at: vm, "observe: expected a notification name and a function")
      }
      guard NotificationName.all.contains(name) else {
        let near = nearest(name, in: NotificationName.all).map { " (did you mean \($0)?)" } ?? ""
        throw LuaRaise(at: vm, "observe: unknown notification \"\(name)\"\(near)")
      }
      try self.call(.observe(name), from: vm)
      self.pushRegistryTable(vm, "observers")
      vm.newTable()
      vm.push(name); vm.rawSet(-2, 1)
      vm.pushValue(2); vm.rawSet(-2, 2)
      vm.rawSet(-2, vm.rawLength(-2) + 1)
      return 0
    }
  }

  /// `after(seconds, fn)`: a closure run later on the main queue.
  private static func afterFunction(_ link: HostLink) -> HostFunction.Body {
    return { vm in
      guard let self = link.host else { return 0 }
      let us = try self.seconds(vm, 1, "after")
      guard vm.type(2) == .function else { throw LuaRaise(at: vm, "after: expected seconds and a function") }
      try self.checkClock(vm, adding: us, by: "after")
      guard let id = try self.call(.after(us: us), from: vm) else { return 0 }
      self.pushRegistryTable(vm, "afters")
      vm.pushValue(2)
      vm.rawSet(-2, id)
      return 0
    }
  }

  func installNavigation(_ vm: LuaVM, env: Int32) {
    /// A navigation call: the process must be alive before its arguments are read.
    func navigate(_ request: @escaping (LuaVM) throws -> AppRequest) -> HostFunction.Body {
      return { [link] vm in
        guard let self = link.host, self.services != nil, let own = self.vm, !own.aborted else { throw LuaRaise("lifesim: process ended") }
        try self.call(try request(vm), from: vm)
        return 0
      }
    }
    vm.push(function: navigate { vm in
      guard let name = vm.string(1) else { throw LuaRaise(at: vm, "push: expected a controller name") }
      return .push(name)
    })
    vm.rawSet(env, "push")
    vm.push(function: navigate { _ in .pop })
    vm.rawSet(env, "pop")
    vm.push(function: navigate { vm in
      guard let name = vm.string(1) else { throw LuaRaise(at: vm, "present: expected a controller name") }
      var style: PresentationStyle?
      var navigation = false
      if vm.type(2) == .table {
        if let problem = vm.unknownKey(inTableAt: 2, allowed: ["navigation", "style"]) { throw LuaRaise(at: vm, "present: \(problem)") }
        vm.rawGet(2, "style")
        if let s = vm.string(-1) {
          guard let st = PresentationStyle(rawValue: s) else {
            throw LuaRaise(at: vm, "present: style must be fullScreen, pageSheet, formSheet or overFullScreen")
          }
          style = st
        }
        vm.pop()
        vm.rawGet(2, "navigation"); navigation = vm.bool(-1); vm.pop()
      }
      return .present(name, style: style, navigation: navigation)
    })
    vm.rawSet(env, "present")
    vm.push(function: navigate { _ in .dismiss })
    vm.rawSet(env, "dismiss")
  }

  /// `UIApplication.shared`: background tasks, backgroundTimeRemaining, applicationState.
  func installApplication(_ vm: LuaVM, env: Int32) {
    vm.newTable()  // UIApplication
    vm.newTable()  // shared
    vm.push("UIApplication"); vm.rawSet(-2, "class")
    vm.push { [link] vm in
      guard let self = link.host else { return 0 }
      // beginBackgroundTask(self, [name], [expiration])
      try Self.requireMethodCall(vm, "beginBackgroundTask")
      var nameIdx: Int32 = 2, handlerIdx: Int32 = 3
      if vm.type(2) == .function { nameIdx = 0; handlerIdx = 2 }
      if nameIdx > 0, vm.type(nameIdx) != .nil, vm.type(nameIdx) != .none, vm.type(nameIdx) != .string {
        throw LuaRaise(at: vm, "beginBackgroundTask: the name must be a string, not \(vm.describeValue(nameIdx))")
      }
      if vm.type(handlerIdx) != .nil, vm.type(handlerIdx) != .none, vm.type(handlerIdx) != .function {
        throw LuaRaise(at: vm, "beginBackgroundTask: the expiration handler must be a function, not \(vm.describeValue(handlerIdx))")
      }
      let name = nameIdx > 0 ? (vm.string(nameIdx) ?? "") : ""
      guard let id = try self.call(.beginBackgroundTask(name: name), from: vm) else { return 0 }
      if vm.type(handlerIdx) == .function {
        self.pushRegistryTable(vm, "expirations")
        vm.pushValue(handlerIdx)
        vm.rawSet(-2, id)
        vm.pop()
      }
      vm.push(id)
      return 1
    }
    vm.rawSet(-2, "beginBackgroundTask")
    vm.push { [link] vm in
      guard let self = link.host else { return 0 }
      try Self.requireMethodCall(vm, "endBackgroundTask")
      guard let id = vm.wholeNumber(2) else { throw LuaRaise(at: vm, "endBackgroundTask: expected a task id, not \(vm.describeValue(2))") }
      try self.call(.endBackgroundTask(Int(id)), from: vm)
      return 0
    }
    vm.rawSet(-2, "endBackgroundTask")
    installSceneRequests(vm)
    installWindows(vm)
    // Dynamic properties through __index.
    vm.newTable()
    vm.push { [link] vm in
      guard let services = link.host?.services else { vm.pushNil(); return 1 }
      switch vm.string(2) {
      case "backgroundTimeRemaining":
        if let us = services.backgroundTimeRemaining_us { vm.push(Double(us) / 1e6) } else { vm.push(Double.greatestFiniteMagnitude) }
      case "applicationState":
        vm.push(services.applicationState.rawValue)
      case "isProtectedDataAvailable":
        vm.push(services.protectedDataAvailable)
      default:
        vm.pushNil()
      }
      return 1
    }
    vm.rawSet(-2, "__index")
    vm.setMetatable(-2)
    vm.rawSet(-2, "shared")
    vm.rawSet(env, "UIApplication")
  }

  /// `UIApplication.shared:name(…)`: argument 1 must be the shared application, so a call
  /// written with `.` is refused instead of shifting every argument by one.
  static func requireMethodCall(_ vm: LuaVM, _ name: String) throws {
    try requireMethodCall(vm, name, on: "UIApplication", spelled: "UIApplication.shared")
  }

  /// `receiver:name(…)`: argument 1 must be the table whose `class` is `className` (written
  /// `spelled` in the message).
  static func requireMethodCall(_ vm: LuaVM, _ name: String, on className: String, spelled: String) throws {
    var isReceiver = false
    if vm.type(1) == .table {
      vm.rawGet(1, "class")
      isReceiver = vm.string(-1) == className
      vm.pop()
    }
    guard isReceiver else {
      throw LuaRaise(at: vm, "\(name): call it with ':' — \(spelled):\(name)(…), not \(spelled).\(name)(…)")
    }
  }
}
