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

  /// `bench/patterns.lua` in a sandbox: each case's name and its best time in seconds over `repeats`
  /// calls; empty if the file does not load. Metering is on (charges are computed and spent from a
  /// budget too large to run out). With `asApp` false there is no instruction hook, as in the `lua5.4`
  /// interpreter, so the figure compares the matchers; with `asApp` true the hook slows every Lua
  /// instruction of the loops around them, as in an app.
  public static func patternSeconds(source: String, repeats: Int, asApp: Bool) -> [(name: String, seconds: Double)] {
    let vm = LuaVM(memoryLimitBytes: 1 << 32, instructionLimit: asApp ? 1 << 50 : 0)
    vm.register()
    Sandbox.install(on: vm, hooks: Sandbox.Hooks(seed: 1, virtualSeconds: { 0 }, print: { _ in }, require: { _ in 0 }))
    guard Sandbox.loadChunk(vm, source: source, name: "bench/patterns.lua") == nil,
          vm.protectedCall(nargs: 0, nresults: 1, freshBudget: true) == .ok else { return [] }
    let cases = vm.top
    var results: [(name: String, seconds: Double)] = []
    for i in 1...vm.rawLength(cases) {
      vm.rawGet(cases, i)
      vm.rawGet(-1, 1)
      let name = vm.string(-1) ?? "?"
      vm.pop()
      var best = Double.infinity
      for _ in 0..<repeats {
        vm.rawGet(-1, 2)
        let start = now()
        guard vm.protectedCall(nargs: 0, nresults: 0, freshBudget: true) == .ok else { return [] }
        best = min(best, now() - start)
      }
      vm.pop()
      results.append((name, best))
    }
    return results
  }
}
