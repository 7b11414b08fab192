#if canImport(Glibc)
import Glibc
#endif

/// Measures the host's own call costs (for `bench/run`; not used by a run).
public enum HostBenchmark {
  private static func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
  }

  /// Nanoseconds per Swift → Lua call: a cached Lua function through the host's protected call.
  public static func swiftToLuaNanoseconds(calls: Int) -> Double {
    let vm = LuaVM(memoryLimitBytes: 0, instructionLimit: 0)
    vm.register()
    guard vm.load("return function() end", chunkName: "=bench") == nil,
          vm.protectedCall(nargs: 0, nresults: 1, freshBudget: true) == .ok else { return .nan }
    let fn = vm.top
    let start = now()
    for _ in 0..<calls {
      vm.pushValue(fn)
      _ = vm.protectedCall(nargs: 0, nresults: 0, freshBudget: false)
    }
    return (now() - start) / Double(calls) * 1e9
  }

  /// Nanoseconds per Lua → Swift call: a Lua loop calling a host function through the trampoline.
  public static func luaToSwiftNanoseconds(calls: Int) -> Double {
    let vm = LuaVM(memoryLimitBytes: 0, instructionLimit: 0)
    vm.register()
    guard vm.load("local f, n = ... for i = 1, n do f() end", chunkName: "=bench") == nil else { return .nan }
    vm.push { _ in 0 }
    vm.push(calls)
    let start = now()
    guard vm.protectedCall(nargs: 2, nresults: 0, freshBudget: true) == .ok else { return .nan }
    return (now() - start) / Double(calls) * 1e9
  }
}
