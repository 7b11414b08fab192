import Lifecycle
import LuaRuntime

/// The app's window requests on iPad (docs/lua-api.md): `UIApplication.shared:requestSceneSessionActivation{…}`
/// and `UIApplication.shared:requestSceneSessionDestruction(n)`.
extension AppHost {
  /// The registry table of the activation requests' `errorHandler`s, by request number.
  static let sceneErrorHandlersTable = "sceneErrorHandlers"

  /// Sets both methods on the `UIApplication.shared` table on top of the stack.
  func installSceneRequests(_ vm: LuaVM) {
    vm.push { [link] vm in
      guard let self = link.host else { return 0 }
      try Self.requireMethodCall(vm, "requestSceneSessionActivation")
      var session: Int?, activity: String?
      switch vm.type(2) {
      case .nil, .none: break
      case .table:
        if let problem = vm.unknownKey(inTableAt: 2, allowed: ["activity", "errorHandler", "session"]) {
          throw LuaRaise(at: vm, "requestSceneSessionActivation: \(problem)")
        }
        session = try Self.sceneNumber(vm, key: "session")
        activity = try Self.activationActivity(vm)
        try Self.checkErrorHandler(vm)
      default:
        throw LuaRaise(at: vm, "requestSceneSessionActivation: expected a table ({ session = n, activity = \"compose\" }), not \(vm.describeValue(2))")
      }
      guard let number = try self.call(.requestSceneActivation(session: session, activity: activity), from: vm) else { return 0 }
      if vm.type(2) == .table {
        self.pushRegistryTable(vm, Self.sceneErrorHandlersTable)
        vm.rawGet(2, "errorHandler")
        vm.rawSet(-2, number)
        vm.pop()
      }
      return 0
    }
    vm.rawSet(-2, "requestSceneSessionActivation")
    vm.push { [link] vm in
      guard let self = link.host else { return 0 }
      try Self.requireMethodCall(vm, "requestSceneSessionDestruction")
      guard let n = vm.wholeNumber(2), n >= 1, n <= Int64(Int32.max) else {
        throw LuaRaise(at: vm, "requestSceneSessionDestruction: expected a window number (1 names the window Scene#1 opened), not \(vm.describeValue(2))")
      }
      try self.call(.requestSceneDestruction(Int(n)), from: vm)
      return 0
    }
    vm.rawSet(-2, "requestSceneSessionDestruction")
  }

  /// UIKit is done with activation request `number`: its `errorHandler` is released.
  package func sceneRequestAnswered(_ number: Int) {
    guard let vm, !vm.aborted else { return }
    let top = vm.top
    defer { vm.setTop(top) }
    pushRegistryTable(vm, Self.sceneErrorHandlersTable)
    vm.pushNil()
    vm.rawSet(-2, number)
  }

  /// The options table's `activity` (at argument 2), or nil when absent.
  private static func activationActivity(_ vm: LuaVM) throws -> String? {
    vm.rawGet(2, "activity")
    defer { vm.pop() }
    guard vm.type(-1) != .nil else { return nil }
    guard vm.type(-1) == .string, let activity = vm.string(-1) else {
      throw LuaRaise(at: vm, "requestSceneSessionActivation: activity must be a string, not \(vm.describeValue(-1))")
    }
    return activity
  }

  /// The options table's `errorHandler` (at argument 2) is a function, or absent.
  private static func checkErrorHandler(_ vm: LuaVM) throws {
    vm.rawGet(2, "errorHandler")
    defer { vm.pop() }
    guard vm.type(-1) == .nil || vm.type(-1) == .function else {
      throw LuaRaise(at: vm, "requestSceneSessionActivation: errorHandler must be a function, not \(vm.describeValue(-1))")
    }
  }

  /// The options table's `key` (at argument 2) as a scene number, or nil when absent.
  private static func sceneNumber(_ vm: LuaVM, key: String) throws -> Int? {
    vm.rawGet(2, key)
    defer { vm.pop() }
    guard vm.type(-1) != .nil else { return nil }
    guard let n = vm.wholeNumber(-1), n >= 1, n <= Int64(Int32.max) else {
      throw LuaRaise(at: vm, "requestSceneSessionActivation: \(key) must be a window number (1 names the window Scene#1 opened), not \(vm.describeValue(-1))")
    }
    return Int(n)
  }
}
