import Lifecycle
import LuaRuntime

// The app API of BGTaskScheduler and background URL sessions: the `BGTaskScheduler` global
// (iOS 13 and later; absent before, as the class is), the task table a launch handler
// receives, `background_transfer{…}`, and the `URLSessionDelegate` handler table
// (docs/lua-api.md, docs/model.md §16).
extension AppHost {
  /// Registry tables: launch handlers by identifier, and each started task's Lua table.
  private static let launchHandlersTable = "bgLaunchHandlers"
  private static let tasksTable = "bgTasks"

  func installBackgroundWork(_ vm: LuaVM, env: Int32) {
    vm.pushRegistry()
    vm.rawGet(-1, "lifesim.app")
    for t in [Self.launchHandlersTable, Self.tasksTable] { vm.newTable(); vm.rawSet(-2, t) }
    vm.pop(2)
    vm.newTable(); vm.rawSet(env, URLSessionLabel.delegate)

    vm.push { [link] vm in
      guard let self = link.host else { return 0 }
      guard vm.type(1) == .table else {
        throw LuaRaise(at: vm, "background_transfer: expected a table: background_transfer { session = \"uploads\", seconds = 20 }")
      }
      if let problem = vm.unknownKey(inTableAt: 1, allowed: ["seconds", "session"]) { throw LuaRaise(at: vm, "background_transfer: \(problem)") }
      vm.rawGet(1, "session")
      guard vm.type(-1) == .string, let session = vm.string(-1) else {
        throw LuaRaise(at: vm, "background_transfer: session must be a string (the background session's identifier)")
      }
      vm.pop()
      vm.rawGet(1, "seconds")
      let us: Int64 = vm.type(-1) == .nil ? 0 : try self.seconds(vm, -1, "background_transfer")
      vm.pop()
      guard let id = try self.call(.backgroundTransfer(session: session, us: us), from: vm) else { return 0 }
      vm.push(id)
      return 1
    }
    vm.rawSet(env, "background_transfer")

    guard profile.bgTaskScheduler else { return }
    vm.newTable()
    vm.push("BGTaskScheduler"); vm.rawSet(-2, "class")
    vm.push { [link] vm in
      guard let self = link.host else { return 0 }
      try Self.requireSchedulerCall(vm, "register")
      guard vm.type(2) == .string, let identifier = vm.string(2), vm.type(3) == .function else {
        throw LuaRaise(at: vm, "register: expected a task identifier and a launch handler: BGTaskScheduler:register(\"com.example.refresh\", function(task) … end)")
      }
      let reply = try self.call(.registerBGTask(identifier), from: vm)
      let registered = reply.flatMap(BGTaskRegisterResult.init(reply:)) == .registered
      if registered {
        self.pushRegistryTable(vm, Self.launchHandlersTable)
        vm.pushValue(3)
        vm.rawSet(-2, identifier)
        vm.pop()
      }
      vm.push(registered)
      return 1
    }
    vm.rawSet(-2, "register")
    vm.push { [link] vm in
      guard let self = link.host else { return 0 }
      try Self.requireSchedulerCall(vm, "submit")
      let request = try Self.readRequest(vm, at: 2)
      let reply = try self.call(.submitBGTask(request), from: vm)
      switch reply.flatMap(BGTaskSubmitResult.init(reply:)) {
      case .pending?:
        vm.push(true)
        return 1
      case let refused?:
        vm.push(false)
        vm.push(refused.rawValue)
        return 2
      case nil:
        return 0
      }
    }
    vm.rawSet(-2, "submit")
    vm.rawSet(env, "BGTaskScheduler")
  }

  /// `BGTaskScheduler:name(…)`: argument 1 must be the scheduler, so a call written with `.`
  /// is refused instead of shifting every argument by one.
  private static func requireSchedulerCall(_ vm: LuaVM, _ name: String) throws {
    try requireMethodCall(vm, name, on: "BGTaskScheduler", spelled: "BGTaskScheduler")
  }

  /// The request table of `submit{ id =, kind =, earliestBegin =, requiresExternalPower =, requiresNetwork = }`.
  private static func readRequest(_ vm: LuaVM, at idx: Int32) throws -> BGTaskRequest {
    let usage = "submit: expected a request: BGTaskScheduler:submit{ id = \"com.example.refresh\", kind = \"refresh\" }"
    guard vm.type(idx) == .table else { throw LuaRaise(at: vm, usage) }
    let keys = ["earliestBegin", "id", "kind", "requiresExternalPower", "requiresNetwork"] + Self.continuedKeys
    if let problem = vm.unknownKey(inTableAt: idx, allowed: keys) { throw LuaRaise(at: vm, "submit: \(problem)") }
    vm.rawGet(idx, "id")
    guard vm.type(-1) == .string, let identifier = vm.string(-1) else { throw LuaRaise(at: vm, usage) }
    vm.pop()
    vm.rawGet(idx, "kind")
    guard let kind = vm.string(-1).flatMap(BGTaskKind.init(rawValue:)) else {
      throw LuaRaise(at: vm, "submit: kind must be \"refresh\", \"processing\" or \"continued\"")
    }
    vm.pop()
    vm.rawGet(idx, "earliestBegin")
    var earliestBeginUs: Int64 = 0
    if vm.type(-1) != .nil {
      guard let s = vm.number(-1), s.isFinite, s >= 0, s <= 86_400 * 365 else {
        throw LuaRaise(at: vm, "submit: earliestBegin must be a number of seconds from 0 to 31536000")
      }
      earliestBeginUs = VirtualTime.microseconds(seconds: s)
    }
    vm.pop()
    var flags: [Bool] = []
    for key in ["requiresExternalPower", "requiresNetwork"] {
      vm.rawGet(idx, key)
      switch vm.type(-1) {
      case .nil: flags.append(false)
      case .boolean:
        guard kind == .processing else { throw LuaRaise(at: vm, "submit: only a processing request takes \(key)") }
        flags.append(vm.bool(-1))
      default: throw LuaRaise(at: vm, "submit: \(key) must be true or false, not \(vm.describeValue(-1))")
      }
      vm.pop()
    }
    return BGTaskRequest(identifier: identifier, kind: kind, earliestBeginUs: earliestBeginUs,
                         requiresExternalPower: flags[0], requiresNetwork: flags[1],
                         continued: try readContinued(vm, at: idx, kind: kind, earliestBeginUs: earliestBeginUs))
  }

  /// Pushes a BGTask closure (`launchHandler` from the scheduler's registrations,
  /// `expirationHandler` from the task's table, read now) or nil.
  func pushBackgroundTaskClosure(_ vm: LuaVM, _ callback: Callback, identifier: String) {
    if callback == .launchHandler {
      pushRegistryTable(vm, Self.launchHandlersTable)
      vm.rawGet(-1, identifier)
    } else {
      pushRegistryTable(vm, Self.tasksTable)
      vm.rawGet(-1, identifier)
      if vm.type(-1) == .table { vm.rawGet(-1, "expirationHandler") } else { vm.pushNil() }
    }
  }

  /// The launch handler's argument: a new task table (`task.identifier`, `task.kind`,
  /// `task:setTaskCompleted(ok)`, and the `expirationHandler` field the app may set), kept
  /// for its expiry. Returns the number of arguments pushed.
  func pushLaunchHandlerArguments(_ vm: LuaVM, identifier: String, _ arguments: CallbackArguments) -> Int32 {
    vm.newTable()
    vm.push(identifier); vm.rawSet(-2, "identifier")
    vm.push(arguments.payload?["kind"]?.stringValue ?? BGTaskKind.refresh.rawValue); vm.rawSet(-2, "kind")
    vm.push { [link] vm in
      guard let self = link.host else { return 0 }
      guard vm.type(1) == .table else {
        throw LuaRaise(at: vm, "setTaskCompleted: call it with ':' — task:setTaskCompleted(true), not task.setTaskCompleted(true)")
      }
      guard vm.type(2) == .boolean else {
        throw LuaRaise(at: vm, "setTaskCompleted: expected true or false (success), not \(vm.describeValue(2))")
      }
      try self.call(.setTaskCompleted(identifier: identifier, success: vm.bool(2)), from: vm)
      return 0
    }
    vm.rawSet(-2, "setTaskCompleted")
    if arguments.payload?["kind"]?.stringValue == BGTaskKind.continued.rawValue { pushUpdateProgress(vm, identifier: identifier) }
    pushRegistryTable(vm, Self.tasksTable)
    vm.pushValue(-2)
    vm.rawSet(-2, identifier)
    vm.pop()
    return 1
  }

  /// A session delegate callback's arguments: the session's identifier, then for
  /// `didCompleteWithError` the task (`task.taskIdentifier`) and the error (nil, or `{ code = }`).
  func pushURLSessionArguments(_ vm: LuaVM, _ cb: Callback, _ arguments: CallbackArguments) -> Int32 {
    vm.push(arguments.payload?["session"]?.stringValue ?? "")
    guard cb == .didCompleteWithError else { return 1 }
    vm.newTable()
    vm.push(Int(arguments.payload?["task"]?.intValue ?? 0)); vm.rawSet(-2, "taskIdentifier")
    if let code = arguments.payload?["error"]?["code"]?.intValue {
      vm.newTable()
      vm.push(Int(code)); vm.rawSet(-2, "code")
    } else {
      vm.pushNil()
    }
    return 3
  }

  /// The global table holding a receiver's handlers (nil: controllers and closures are not globals).
  static func handlerTable(_ receiver: Callback.Receiver) -> String? {
    switch receiver {
    case .appDelegate: return "AppDelegate"
    case .sceneDelegate: return "SceneDelegate"
    case .urlSessionDelegate: return URLSessionLabel.delegate
    case .notificationDelegate: return "NotificationDelegate"
    case .viewController, .closure: return nil
    }
  }
}

extension AppHost {
  /// `app { bgTaskIdentifiers = { "com.example.refresh", … } }`: a list of distinct non-empty strings (absent: none).
  static func bgTaskIdentifiers(_ vm: LuaVM, inTableAt idx: Int32) throws -> [String] {
    vm.rawGet(idx, "bgTaskIdentifiers")
    defer { vm.pop() }
    switch vm.type(-1) {
    case .nil: return []
    case .table: break
    default: throw LuaRaise(at: vm, "app: bgTaskIdentifiers must be a list of task identifiers, not \(vm.describeValue(-1))")
    }
    var identifiers: [String] = []
    for i in 1...max(1, vm.rawLength(-1)) where vm.rawLength(-1) > 0 {
      vm.rawGet(-1, i)
      guard vm.type(-1) == .string, let s = vm.string(-1), !s.isEmpty else {
        throw LuaRaise(at: vm, "app: bgTaskIdentifiers[\(i)] must be a non-empty string, not \(vm.describeValue(-1))")
      }
      vm.pop()
      if let problem = BGTaskIdentifierPattern.problem(s) {
        throw LuaRaise(at: vm, "app: bgTaskIdentifiers[\(i)] \"\(s)\": \(problem)")
      }
      if let first = identifiers.firstIndex(of: s) {
        throw LuaRaise(at: vm, "app: bgTaskIdentifiers[\(i)] repeats bgTaskIdentifiers[\(first + 1)], \"\(s)\"")
      }
      identifiers.append(s)
    }
    return identifiers
  }
}
