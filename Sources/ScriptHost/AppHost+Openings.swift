import JSON
import Lifecycle
import LuaRuntime

// The app side of notification responses, quick actions, universal links and Handoff
// (docs/model.md §15): `UNUserNotificationCenter:setDelegate()`, the options UIKit adds to the
// launch methods and `willConnectTo`, and the arguments of the new delegate methods.
extension AppHost {
  /// `UNUserNotificationCenter:setDelegate()`: from then on this process's `NotificationDelegate` is called.
  func installNotificationCenter(_ vm: LuaVM, env: Int32) {
    vm.newTable()
    vm.push("UNUserNotificationCenter"); vm.rawSet(-2, "class")
    vm.push { [link] vm in
      guard let self = link.host else { return 0 }
      try Self.requireMethodCall(vm, "setDelegate", on: "UNUserNotificationCenter", spelled: "UNUserNotificationCenter")
      try self.call(.setNotificationDelegate, from: vm)
      return 0
    }
    vm.rawSet(-2, "setDelegate")
    vm.rawSet(env, "UNUserNotificationCenter")
  }

  /// Copies the members of `payload.options` into the options table on top of the stack.
  func mergeOptions(_ vm: LuaVM, _ payload: JSONValue?) {
    guard case let .object(members)? = payload?["options"] else { return }
    for (key, value) in members {
      pushJSON(vm, value)
      vm.rawSet(-2, key)
    }
  }

  /// Pushes a payload member (nil when absent).
  private func pushJSON(_ vm: LuaVM, _ value: JSONValue?) {
    guard let value, (try? vm.push(json: value)) != nil else { vm.pushNil(); return }
  }

  /// What each of this feature's callbacks receives after its receiver: these payload members
  /// in order, then (maybe) a function.
  private static let openingArguments: [Callback: (members: [String], then: OpeningFunction?)] = [
    .willContinueUserActivityWithType: (["type"], nil),
    .sceneWillContinueUserActivityWithType: (["type"], nil),
    .continueUserActivity: (["activity"], .restorationHandler),
    .sceneContinueUserActivity: (["activity"], nil),
    .restoreUserActivityState: (["activity"], nil),
    .didFailToContinueUserActivity: (["type", "error"], nil),
    .sceneDidFailToContinueUserActivity: (["type", "error"], nil),
    .performActionForShortcutItem: (["item"], .completion),
    .scenePerformActionForShortcutItem: (["item"], .completion),
    .willPresent: (["notification"], .completion),
    .didReceive: (["response"], .completion),
  ]

  private enum OpeningFunction { case completion, restorationHandler }

  /// Pushes the UIKit arguments of this feature's callbacks after their receiver; returns how many.
  func pushOpeningArguments(_ vm: LuaVM, _ cb: Callback, _ arguments: CallbackArguments) -> Int32 {
    guard let spec = Self.openingArguments[cb] else { return 0 }
    for member in spec.members { pushJSON(vm, arguments.payload?[member]) }
    switch spec.then {
    case .completion?: pushCompletion(vm, arguments.completion)
    case .restorationHandler?: pushRestorationHandler(vm, activity: arguments.payload?["activity"] ?? .null)
    case nil: return Int32(spec.members.count)
    }
    return Int32(spec.members.count + 1)
  }

  /// `restorationHandler({vc, …})`: each controller (an instance table with its `id`) gets
  /// `restoreUserActivityState(vc, activity)` inside the call.
  private func pushRestorationHandler(_ vm: LuaVM, activity: JSONValue) {
    vm.push { [link] vm in
      guard let self = link.host else { return 0 }
      guard vm.type(1) == .table else {
        throw LuaRaise(at: vm, "restorationHandler: expected a list of view controllers, not \(vm.describeValue(1))")
      }
      var labels: [String] = []
      for i in stride(from: 1, through: vm.rawLength(1), by: 1) {
        vm.rawGet(1, i)
        defer { vm.pop() }
        var label: String?
        if vm.type(-1) == .table { vm.rawGet(-1, "id"); label = vm.string(-1); vm.pop() }
        guard let label else {
          throw LuaRaise(at: vm, "restorationHandler: item \(i) is not a view controller (a controller handler's vc)")
        }
        labels.append(label)
      }
      try self.call(.restorationHandler(controllers: labels, activity: activity), from: vm)
      return 0
    }
  }
}
