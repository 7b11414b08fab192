import Testing
import LuaRuntime

/// A state built in an arena, checkpointed and restored (`LuaArena`): what explore's process
/// starts rely on (`AppStatePool`).
@Suite struct LuaArenaTests {
  /// A chunk whose upvalue, global and table each call changes.
  private static let chunk = """
    local n = 0
    list = {}
    return function()
      n = n + 1
      for i = 1, 200 do list[#list + 1] = tostring({}) .. i end
      return n .. " " .. #list .. " " .. count() .. " " .. math.random(1000) .. " " .. tostring({})
    end
    """

  /// Gives `vm` the sandbox, a host function counting its calls and the chunk (loaded, not run).
  private func prepare(_ vm: LuaVM, calls: Counter) -> Bool {
    vm.register()
    Sandbox.install(on: vm, hooks: Sandbox.Hooks(seed: 7, virtualSeconds: { 0 }, print: { _ in }, require: { _ in 0 }))
    Sandbox.pushEnvironment(vm)
    vm.push { [calls] vm in calls.value += 1; vm.push(calls.value); return 1 }
    vm.rawSet(-2, "count")
    vm.pop()
    return Sandbox.loadChunk(vm, source: Self.chunk, name: "t.lua") == nil
  }

  private func build(_ arena: LuaArena, calls: Counter) -> LuaVM? {
    guard let vm = arena.makeState(memoryLimitBytes: 8 << 20, instructionLimit: 1_000_000), prepare(vm, calls: calls) else { return nil }
    return vm
  }

  /// Runs the chunk, then its function twice: what one "process" sees.
  private func use(_ vm: LuaVM) -> [String] {
    guard vm.protectedCall(nargs: 0, nresults: 1, freshBudget: true) == .ok else { return ["the chunk failed"] }
    var seen: [String] = []
    for _ in 0..<2 {
      vm.pushValue(-1)
      guard vm.protectedCall(nargs: 0, nresults: 1, freshBudget: true) == .ok else { return seen + ["a call failed"] }
      seen.append(vm.string(-1) ?? "?")
      vm.pop()
    }
    return seen
  }

  @Test("a restored state starts where the checkpoint was: upvalues, globals, tables, random numbers, tostring ids")
  func restoreGivesTheCheckpoint() throws {
    let arena = try #require(LuaArena(bytes: 16 << 20))
    let calls = Counter()
    let built = try #require(build(arena, calls: calls))
    #expect(arena.checkpoint(built))
    let first = use(built)
    #expect(first.count == 2 && first[0].hasPrefix("1 200 1 ") && first[1].hasPrefix("2 400 2 "))
    #expect(arena.restore() == nil, "one state in an arena at a time")
    _ = consume built
    for _ in 0..<3 {
      calls.value = 0
      let restored = try #require(arena.restore())
      #expect(use(restored) == first)
    }
  }

  @Test("a state built the same way without an arena behaves the same")
  func sameAsUnpooled() throws {
    let arena = try #require(LuaArena(bytes: 16 << 20))
    let calls = Counter()
    let built = try #require(build(arena, calls: calls))
    #expect(arena.checkpoint(built))
    let pooled = use(built)
    _ = consume built
    calls.value = 0
    let plain = LuaVM(memoryLimitBytes: 8 << 20, instructionLimit: 1_000_000)
    #expect(prepare(plain, calls: calls))
    #expect(use(plain) == pooled)
  }

  @Test("no checkpoint of a state part of whose heap is outside the arena")
  func refusedWhenOutgrown() throws {
    let arena = try #require(LuaArena(bytes: 1 << 20))
    let vm = try #require(arena.makeState(memoryLimitBytes: 0, instructionLimit: 0))
    vm.register()
    vm.openSafeLibraries()
    #expect(vm.load("big = string.rep('x', 3 << 20)", chunkName: "=t") == nil)
    #expect(vm.protectedCall(nargs: 0, nresults: 0, freshBudget: true) == .ok)
    #expect(!arena.checkpoint(vm))
    #expect(!arena.hasCheckpoint)
  }
}

/// What a host closure holds, to see when the closure is released.
private final class Tracked {}

extension LuaArenaTests {
  /// Sets global `name` to a host closure that holds `object`.
  private func setGlobal(_ vm: LuaVM, _ name: String, holding object: Tracked) {
    vm.pushGlobals()
    vm.push { [object] _ in withExtendedLifetime(object) {}; return 0 }
    vm.rawSet(-2, name)
    vm.pop()
  }

  @Test("a restored state is dropped, not closed: the closures it holds are released once, those it collected not again")
  func droppedStateReleasesItsClosures() throws {
    let arena = try #require(LuaArena(bytes: 16 << 20))
    weak var kept: Tracked?, made: Tracked?, collected: Tracked?
    do {
      let built = try #require(arena.makeState(memoryLimitBytes: 0, instructionLimit: 0))
      built.register()
      built.openSafeLibraries()
      let object = Tracked()
      kept = object
      setGlobal(built, "kept", holding: object)
      #expect(arena.checkpoint(built))
    }
    #expect(kept != nil, "the checkpoint holds its closures")
    for _ in 0..<2 {
      do {
        let vm = try #require(arena.restore())
        do {
          let later = Tracked(), gone = Tracked()
          made = later
          collected = gone
          setGlobal(vm, "made", holding: later)
          setGlobal(vm, "gone", holding: gone)
        }
        #expect(vm.load("gone = nil; collectgarbage(); collectgarbage(); kept()", chunkName: "=t") == nil)
        #expect(vm.protectedCall(nargs: 0, nresults: 0, freshBudget: true) == .ok)
        #expect(collected == nil, "a closure collected during the run is released then")
        #expect(made != nil)
      }
      #expect(made == nil, "dropping the state releases a closure made after the checkpoint")
      #expect(kept != nil, "and the checkpoint's closures once each: the arena still holds them")
    }
  }
}

final class Counter: @unchecked Sendable {
  var value = 0
}
