internal import CLua

/// A Swift function Lua can call. It throws `LuaRaise` to raise a Lua error.
package final class HostFunction {
  package typealias Body = (LuaVM) throws -> Int32
  package let body: Body
  package init(_ body: @escaping Body) { self.body = body }
}

/// An error a host function raises in Lua, with only C frames between it and the pcall.
package struct LuaRaise: Error {
  package let message: String
  /// Set when the error value to raise is already on top of the Lua stack (an error
  /// caught from Lua code the host called, re-raised as it was).
  package private(set) var valueOnStack = false
  /// A message that is complete as it is (it names its own location, or none applies).
  package init(_ message: String) { self.message = message }
  /// A misuse of the API at the script line that made the call: `file:line: message`, as
  /// `luaL_error` words it.
  package init(at vm: LuaVM, _ message: String) {
    self.message = vm.callerLocation().map { "\($0): \(message)" } ?? message
  }

  /// Raises the value on top of the stack unchanged.
  package static let valueOnTop: LuaRaise = {
    var raise = LuaRaise("")
    raise.valueOnStack = true
    return raise
  }()
}

/// The Swift half of `clua_trampoline`: finds the closure in upvalue 2 and runs it.
let hostDispatch: clua_host_fn = { L in
  guard let L, let raw = lua_touserdata(L, clua_upvalueindex(2)) else { return -1 }
  let box = Unmanaged<HostFunction>.fromOpaque(raw.load(as: UnsafeRawPointer.self)).takeUnretainedValue()
  guard let vm = LuaVM.vm(for: L) else {
    lua_pushstring(L, "lifesim: no host for this Lua state")
    return -1
  }
  // Host calls operate on the calling thread (a coroutine's L differs from the main one).
  do {
    return try vm.withState(L) { try box.body(vm) }
  } catch let raise as LuaRaise {
    vm.push(raise.message)
    return -1
  } catch {
    vm.push("\(error)")
    return -1
  }
}

/// `__gc` of a host function's userdata: releases the Swift closure.
let hostFunctionCollect: lua_CFunction = { L in
  guard let L, let raw = lua_touserdata(L, 1) else { return 0 }
  let box = raw.load(as: UnsafeMutableRawPointer.self)
  if let vm = LuaVM.vm(for: L) { vm.closureCollected(box) }
  Unmanaged<HostFunction>.fromOpaque(box).release()
  return 0
}
