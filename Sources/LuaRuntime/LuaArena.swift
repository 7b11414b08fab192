internal import CLua

/// A Lua state's own memory range, and a checkpoint of the state kept in it.
///
/// Lua cannot copy a state, and closures and upvalues cannot be reset. But a state built in an
/// arena keeps its whole heap, and its allocator's lists, in the range's first bytes: copying
/// them out is a checkpoint, and copying them back at the same address gives the state as it
/// was, byte for byte, with every pointer in it still valid. The state's limits (its
/// `clua_limits`) are one allocation per arena, kept for its life, so the allocator and the hook
/// find them at the same address after every restore (a restore copies their values back).
///
/// Swift closures the state holds (`LuaVM.push(function:)`) are counted references: the
/// checkpoint keeps one on each closure the state held when it was taken, and every restore
/// adds the one the restored state gives back: when the closure's userdata is collected, or
/// when the state is dropped (`drops`) with the closure still in it.
///
/// One state lives in an arena at a time (`inUse`).
package final class LuaArena {
  let limits: UnsafeMutablePointer<clua_limits>
  private let base: UnsafeMutablePointer<CChar>
  /// True while a `LuaVM` uses the arena (from `makeState` or `restore` until it is closed).
  package private(set) var inUse = false
  private var image: UnsafeMutableRawBufferPointer?
  private var imageLimits = clua_limits()
  private var imageState: OpaquePointer?
  private var imageClosures: [UnsafeMutableRawPointer] = []
  private var imageWallLimitSeconds = 0
  private var imageInstructionLimit = 0

  /// The most memory past the checkpoint a restore leaves backed (the heap a run grows into).
  static let keptBytes = 4 << 20

  /// Reserves `bytes` of address space (pages are backed only once used); nil when it cannot.
  package init?(bytes: Int) {
    guard let base = clua_arena_create(bytes) else { return nil }
    self.base = base
    limits = .allocate(capacity: 1)
    limits.initialize(to: clua_limits())
  }

  deinit {
    for closure in imageClosures { Unmanaged<HostFunction>.fromOpaque(closure).release() }
    image?.deallocate()
    clua_arena_destroy(base)
    limits.deallocate()
  }

  /// Whether a checkpoint was taken.
  package var hasCheckpoint: Bool { image != nil }

  /// A new, empty state in the arena (nil while another is in use); the host functions it is
  /// given are recorded for `checkpoint`.
  package func makeState(memoryLimitBytes: Int, instructionLimit: Int) -> LuaVM? {
    guard !inUse else { return nil }
    inUse = true
    clua_arena_reset(base)
    limits.pointee = clua_limits()
    limits.pointee.arena = base
    limits.pointee.recording = 1
    return LuaVM(memoryLimitBytes: memoryLimitBytes, instructionLimit: instructionLimit, arena: self)
  }

  /// Takes the checkpoint of `vm`, made by `makeState` and at rest (no Lua code of it running,
  /// its closures recorded since it was made); false (and no checkpoint) when part of its heap
  /// came from outside the arena.
  @discardableResult
  package func checkpoint(_ vm: LuaVM) -> Bool {
    guard vm.arena === self, limits.pointee.recording != 0, vm.guestDepth == 0, vm.isOnMainThread else { return false }
    limits.pointee.recording = 0
    guard clua_arena_outside(base) == 0 else { return false }
    let used = clua_arena_used(base)
    let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: used, alignment: 16)
    copy.copyMemory(from: UnsafeRawBufferPointer(start: base, count: used))
    image?.deallocate()
    image = copy
    imageLimits = limits.pointee
    imageState = vm.mainL
    for closure in imageClosures { Unmanaged<HostFunction>.fromOpaque(closure).release() }
    imageClosures = vm.recordedClosures
    for closure in imageClosures { _ = Unmanaged<HostFunction>.fromOpaque(closure).retain() }
    imageWallLimitSeconds = vm.wallLimitSeconds
    imageInstructionLimit = vm.instructionLimit
    return true
  }

  /// Stops recording `vm`'s closures when it will not be checkpointed (the closures it makes
  /// from now are released by their `__gc`, as any state's).
  package func stopRecording(_ vm: LuaVM) {
    if vm.arena === self { limits.pointee.recording = 0 }
  }

  /// The state as it was at the checkpoint, as a new `LuaVM` (registered); nil without a
  /// checkpoint or while another state uses the arena.
  package func restore() -> LuaVM? {
    guard let image, let imageState, !inUse else { return nil }
    inUse = true
    // Pages the last state used past the checkpoint go back to the system when they are many.
    let reached = clua_arena_used(base)
    if reached > image.count + Self.keptBytes { clua_arena_release(base, image.count, reached) }
    UnsafeMutableRawPointer(base).copyMemory(from: image.baseAddress!, byteCount: image.count)
    limits.pointee = imageLimits
    for closure in imageClosures { _ = Unmanaged<HostFunction>.fromOpaque(closure).retain() }
    let vm = LuaVM(restoring: imageState, instructionLimit: imageInstructionLimit, arena: self, closures: imageClosures)
    vm.wallLimitSeconds = imageWallLimitSeconds
    vm.register()
    return vm
  }

  /// Whether a restored state ending now may be dropped instead of closed: every block it
  /// holds is in the arena, which the next restore or new state overwrites, so freeing them
  /// one by one (`lua_close`, most of a short run's Lua time) would be wasted. Scripts cannot
  /// set finalizers, so closing runs no Lua code; its only other work, releasing the host's
  /// closures, the state's `LuaVM` does itself. A block from malloc needs closing to be freed.
  func drops() -> Bool { clua_arena_outside(base) == 0 }

  /// Called by the state's `LuaVM` once it closed or dropped the state.
  func stateClosed() { inUse = false }
}
