#if canImport(Glibc)
import Glibc
#endif

/// Times the cases of `bench/patterns.lua` in a sandbox (for `bench/run`; not used by a run).
public enum PatternBenchmark {
  private static func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
  }

  /// Each case's name and its best time in seconds over `repeats` calls; empty if the file does not load.
  /// The sandbox is an app's, with metering on (charges are computed and spent from a budget too
  /// large to run out). With `countHook` false the instruction hook is left out: Lua 5.4 then runs
  /// the script's own loops at stock speed, so the figure compares the matchers themselves.
  public static func run(source: String, repeats: Int, countHook: Bool) -> [(name: String, seconds: Double)] {
    let vm = LuaVM(memoryLimitBytes: 1 << 32, instructionLimit: countHook ? 1 << 50 : 0)
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
