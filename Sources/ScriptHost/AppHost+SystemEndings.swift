import Lifecycle
import LuaRuntime

// The app calls of docs/model.md §14: file locks (`hold_lock`, `release_lock`) and the
// protection class `store` takes as its third argument.
extension AppHost {
  /// `hold_lock(name, {shared = true})` and `release_lock(name)`.
  func installLocks(_ vm: LuaVM, env: Int32) {
    vm.push { [link] vm in
      guard let self = link.host else { return 0 }
      guard let name = vm.type(1) == .string ? vm.string(1) : nil else {
        throw LuaRaise(at: vm, "hold_lock: expected a lock name, not \(vm.describeValue(1))")
      }
      var shared = false
      switch vm.type(2) {
      case .nil, .none: break
      case .table:
        if let problem = vm.unknownKey(inTableAt: 2, allowed: ["shared"]) { throw LuaRaise(at: vm, "hold_lock: \(problem)") }
        vm.rawGet(2, "shared")
        defer { vm.pop() }
        switch vm.type(-1) {
        case .nil: break
        case .boolean: shared = vm.bool(-1)
        default: throw LuaRaise(at: vm, "hold_lock: shared must be true or false, not \(vm.describeValue(-1))")
        }
      default:
        throw LuaRaise(at: vm, "hold_lock: expected an options table ({ shared = true }), not \(vm.describeValue(2))")
      }
      try self.call(.holdLock(name: name, shared: shared), from: vm)
      return 0
    }
    vm.rawSet(env, "hold_lock")
    vm.push { [link] vm in
      guard let self = link.host else { return 0 }
      guard let name = vm.type(1) == .string ? vm.string(1) : nil else {
        throw LuaRaise(at: vm, "release_lock: expected a lock name, not \(vm.describeValue(1))")
      }
      try self.call(.releaseLock(name), from: vm)
      return 0
    }
    vm.rawSet(env, "release_lock")
  }

  /// `store`'s options at `idx`: `{ protection = "none" | "untilFirstUnlock" | "complete" }`
  /// (absent: untilFirstUnlock).
  func protection(_ vm: LuaVM, _ idx: Int32) throws -> DataProtection {
    switch vm.type(idx) {
    case .nil, .none: return .untilFirstUnlock
    case .table:
      if let problem = vm.unknownKey(inTableAt: idx, allowed: ["protection"]) { throw LuaRaise(at: vm, "store: \(problem)") }
      vm.rawGet(idx, "protection")
      defer { vm.pop() }
      if vm.type(-1) == .nil { return .untilFirstUnlock }
      guard let word = vm.type(-1) == .string ? vm.string(-1) : nil, let protection = DataProtection(rawValue: word) else {
        throw LuaRaise(at: vm, "store: protection must be \(VerbSpec.oneOf(DataProtection.allCases.map(\.rawValue))), not \(vm.describeValue(-1))")
      }
      return protection
    default:
      throw LuaRaise(at: vm, "store: expected an options table ({ protection = \"complete\" }), not \(vm.describeValue(idx))")
    }
  }
}
