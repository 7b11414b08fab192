import Testing
import LuaRuntime

/// The Swift API of `LuaVM` in-process, without a host: what ScriptHost and Explore rely on.
@Suite struct LuaVMTests {
  /// A VM with the sandbox's libraries and a host function registered, for the calls below.
  private func vm(instructions: Int = 1_000_000, memory: Int = 8 << 20) -> LuaVM {
    let vm = LuaVM(memoryLimitBytes: memory, instructionLimit: instructions)
    vm.register()
    vm.openSafeLibraries()
    return vm
  }

  /// Loads and calls `source`, leaving one result on the stack.
  private func run(_ vm: LuaVM, _ source: String) -> LuaVM.CallResult {
    if let error = vm.load(source, chunkName: "@t.lua") { return .error(message: error, traceback: error) }
    return vm.protectedCall(nargs: 0, nresults: 1, freshBudget: true)
  }

  @Test("values pushed from Swift read back as the same values, integers apart from floats")
  func pushAndRead() {
    let vm = vm()
    vm.push(Int64.min); vm.push(2.5); vm.push("a\u{0}b"); vm.push(true); vm.pushNil()
    #expect(vm.top == 5)
    #expect(vm.integer(1) == .min && vm.isInteger(1))
    #expect(vm.number(2) == 2.5 && vm.integer(2) == nil)
    #expect(vm.string(3) == "a\u{0}b")
    #expect(vm.bool(4) && vm.type(4) == .boolean)
    #expect(vm.type(5) == .nil && vm.string(5) == nil)
    #expect(vm.string(1) == "-9223372036854775808", "a number reads as its text, never converted in place")
    #expect(vm.type(1) == .number)
  }

  @Test("raw table access by key, by index and through a reference; length and traversal")
  func tables() {
    let vm = vm()
    vm.newTable()
    vm.push("x"); vm.rawSet(-2, "k")
    vm.push(7); vm.rawSet(-2, 1)
    vm.push(8); vm.rawSet(-2, 2)
    #expect(vm.rawLength(-1) == 2)
    vm.rawGet(-1, "k"); #expect(vm.string(-1) == "x"); vm.pop()
    vm.rawGet(-1, 2); #expect(vm.integer(-1) == 8); vm.pop()
    vm.push("k"); let key = vm.makeReference()
    vm.rawGet(-1, keyReference: key); #expect(vm.string(-1) == "x"); vm.pop()
    var count = 0
    vm.pushNil()
    while vm.next(1) { count += 1; vm.pop() }
    #expect(count == 3)
    vm.releaseReference(key)
    #expect(vm.top == 1)
  }

  @Test("a Swift function called from Lua gets its arguments and returns its results; LuaRaise is a Lua error")
  func hostFunctions() {
    let vm = vm()
    vm.pushGlobals()
    vm.push { vm in vm.push((vm.integer(1) ?? 0) * 2); return 1 }
    vm.rawSet(-2, "double")
    vm.push { vm in throw LuaRaise(at: vm, "refused") }
    vm.rawSet(-2, "refuse")
    vm.pop()
    #expect(run(vm, "return double(21)") == .ok)
    #expect(vm.integer(-1) == 42)
    vm.pop()
    guard case let .error(message, traceback) = run(vm, "\nrefuse()") else { Issue.record("no error"); return }
    #expect(message == "t.lua:2: refused")
    #expect(traceback.hasPrefix("t.lua:2: refused\nstack traceback:"))
    #expect(vm.lastErrorLine == 2)
    #expect(vm.top == 0)
  }

  @Test("an endless loop ends at the instruction limit, a growing table at the memory limit, a syntax error at load")
  func limits() {
    let vm = vm(instructions: 100_000, memory: 4 << 20)
    #expect(run(vm, "while true do end") == .instructionLimit)
    let roomy = self.vm(instructions: 0, memory: 1 << 20)
    #expect(run(roomy, "local t = {} for i = 1, 1e9 do t[i] = ('x'):rep(64) .. i end") == .memoryLimit)
    #expect(vm.load("x = = 1", chunkName: "@s.lua") == "s.lua:1: unexpected symbol near '='")
    #expect(run(vm, "return 1") == .ok, "the budget is fresh for the next call")
  }

  @Test("an aborted state unwinds the Lua running on it")
  func abort() {
    let vm = vm()
    vm.pushGlobals()
    vm.push { vm in vm.abort(); return 0 }
    vm.rawSet(-2, "die")
    vm.pop()
    #expect(run(vm, "die() while true do end") == .aborted)
    #expect(vm.aborted)
  }

  @Test("where a function was written: its chunk and lines")
  func definitions() {
    let vm = vm()
    #expect(run(vm, "\nreturn function()\n  return 1\nend") == .ok)
    #expect(vm.definitionLines(-1) == 2...4)
    #expect(vm.definitionSite(-1) == SourceSite(file: "t.lua", line: 2))
  }
}
