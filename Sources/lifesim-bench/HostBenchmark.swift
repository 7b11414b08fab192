import Lifecycle
import ScriptHost
import LuaRuntime

#if canImport(Glibc)
import Glibc
#endif

/// Measures the host's own call costs (for `bench/run`; not used by a run).
enum HostBenchmark {
  private static func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
  }

  /// CPU seconds of this thread, as the baseline's `os.clock()` counts them (time other
  /// processes take on a shared machine is not counted).
  private static func cpuNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
  }

  /// The app the call benchmarks run: an empty scene handler (the callback), and handlers that
  /// loop `n` times over an app API call or an empty Lua function (the in-sandbox floor).
  private static func callsApp(_ n: Int) -> String {
    """
    app { name = "Bench", root = "Main" }
    controller "Main" { }
    local n = \(n)
    local function f() end
    function SceneDelegate.sceneWillResignActive(scene) end
    function SceneDelegate.sceneWillEnterForeground(scene) for i = 1, n do stored("k") end end
    function SceneDelegate.sceneDidEnterBackground(scene) for i = 1, n do f() end end
    """
  }

  /// Per-call costs of the host's real paths, in CPU nanoseconds: an app launched by the
  /// simulator (the sandbox, its instruction hook and budget, the app API), then called as the
  /// simulator calls it (its own recording of the callback is the model's cost, not counted).
  /// `swiftToLua`: `implements` and `run` of a callback with an empty handler, its scene argument
  /// pushed; `luaToSwift`: a handler's loop calling the app API `stored("k")` (argument read, state
  /// read, result pushed), loop included; `luaToLuaInApp`: the same loop calling an empty Lua
  /// function, the floor the sandbox's hook leaves. Nil if the app does not launch or run.
  static func callNanoseconds(calls: Int) -> (swiftToLua: Double, luaToSwift: Double, luaToLuaInApp: Double)? {
    var profile = Profile()
    // The loops are one callback each: a budget they cannot exhaust, still charged as in a run.
    profile.instructionLimit = 1 << 40
    let app = AppHost(path: "bench-app.lua", source: callsApp(calls), loader: ScriptLoader(source: .embedded([])), modules: [],
                      profile: profile, seed: 1, output: OutputBudget(), wallLimitSeconds: 0)
    let sim = Simulator(profile: profile, driver: app) { _ in }
    guard (try? sim.perform(.launch(url: nil))) != nil, app.vm != nil else { return nil }
    func job(_ cb: Callback) -> AppJob { .callback(cb, target: "SceneDelegate", arguments: CallbackArguments()) }
    let callback = job(.sceneWillResignActive)
    var start = cpuNow()
    for _ in 0..<calls {
      guard app.implements(.sceneWillResignActive, target: "SceneDelegate"), case .success = app.run(callback, services: sim) else {
        return nil
      }
    }
    let swiftToLua = (cpuNow() - start) / Double(calls) * 1e9
    start = cpuNow()
    guard case .success = app.run(job(.sceneWillEnterForeground), services: sim) else { return nil }
    let luaToSwift = (cpuNow() - start) / Double(calls) * 1e9
    start = cpuNow()
    guard case .success = app.run(job(.sceneDidEnterBackground), services: sim) else { return nil }
    let luaToLua = (cpuNow() - start) / Double(calls) * 1e9
    return (swiftToLua, luaToSwift, luaToLua)
  }

  /// `bench/patterns.lua` in a sandbox: each case's name and its best time in seconds over `repeats`
  /// calls; empty if the file does not load. Metering is on (charges are computed and spent from a
  /// budget too large to run out). With `asApp` false there is no instruction hook, as in the `lua5.4`
  /// interpreter, so the figure compares the matchers; with `asApp` true the hook slows every Lua
  /// instruction of the loops around them, as in an app.
  static func patternSeconds(source: String, repeats: Int, asApp: Bool) -> [(name: String, seconds: Double)] {
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
