internal import CLua

/// Argument checks for host functions written in Swift, giving the same answers and the
/// same error texts as `lauxlib.c` (`luaL_checklstring`, `luaL_optinteger`, `luaL_argerror`,
/// `luaL_where`), but returning the message instead of raising it: a Swift frame must never
/// be crossed by `lua_error`, so the caller returns -1 to `clua_trampoline`, which raises.
struct LuaArguments {
  let L: OpaquePointer
  /// The name the function has in the string library (used when the call site gives none).
  let libraryName: String

  /// A string argument (numbers are converted in place, as `luaL_checklstring` does).
  func string(_ arg: Int32) throws(LuaRaise) -> (bytes: UnsafePointer<UInt8>, count: Int) {
    var count = 0
    guard let p = lua_tolstring(L, arg, &count) else { throw typeError(arg, expected: "string") }
    return (UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self), count)
  }

  /// An optional integer argument (`luaL_optinteger`).
  func optionalInteger(_ arg: Int32, default value: Int64) throws(LuaRaise) -> Int64 {
    if lua_type(L, arg) <= LUA_TNIL { return value }
    var ok: Int32 = 0
    let n = lua_tointegerx(L, arg, &ok)
    if ok != 0 { return Int64(n) }
    if lua_isnumber(L, arg) != 0 { throw argumentError(arg, "number has no integer representation") }
    throw typeError(arg, expected: "number")
  }

  /// `luaL_typeerror`: "T expected, got U".
  func typeError(_ arg: Int32, expected: String) -> LuaRaise {
    let actual: String
    if let name = metaName(arg) {
      actual = name
    } else if lua_type(L, arg) == LUA_TLIGHTUSERDATA {
      actual = "light userdata"
    } else {
      actual = String(cString: lua_typename(L, lua_type(L, arg)))
    }
    return argumentError(arg, "\(expected) expected, got \(actual)")
  }

  /// `luaL_argerror`: "bad argument #N to 'name' (detail)", counting as the call site does.
  func argumentError(_ arg: Int32, _ detail: String) -> LuaRaise {
    var ar = lua_Debug()
    guard lua_getstack(L, 0, &ar) != 0 else { return error("bad argument #\(arg) (\(detail))") }
    lua_getinfo(L, "n", &ar)
    var arg = arg
    let name = ar.name.map { String(cString: $0) }
    if let namewhat = ar.namewhat, String(cString: namewhat) == "method" {
      arg -= 1
      if arg == 0 { return error("calling '\(name ?? "?")' on bad self (\(detail))") }
    }
    return error("bad argument #\(arg) to '\(name ?? libraryName)' (\(detail))")
  }

  /// `luaL_error`: the message after the caller's `file:line: ` (`luaL_where(L, 1)`).
  func error(_ message: String) -> LuaRaise {
    var ar = lua_Debug()
    if lua_getstack(L, 1, &ar) != 0 {
      lua_getinfo(L, "Sl", &ar)
      if ar.currentline > 0 {
        let src = withUnsafeBytes(of: ar.short_src) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
        return LuaRaise("\(src):\(ar.currentline): \(message)")
      }
    }
    return LuaRaise(message)
  }

  /// The `__name` field of the argument's metatable, if it is a string (`luaL_getmetafield`, raw).
  private func metaName(_ arg: Int32) -> String? {
    guard lua_getmetatable(L, arg) != 0 else { return nil }
    _ = lua_pushstring(L, "__name")
    let type = lua_rawget(L, -2)
    defer { clua_pop(L, 2) }
    guard type == LUA_TSTRING, let p = lua_tolstring(L, -1, nil) else { return nil }
    return String(cString: p)
  }
}
