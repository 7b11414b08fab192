import Lifecycle
import LuaRuntime

/// Checkpoints of an app's Lua state at process start, for a host that starts the same app
/// thousands of times (explore's worker). A process start used to build a new state every
/// time: the libraries, the sandbox prelude, the app API and the app's chunk compiled, most of
/// a short run's time. Here the first start for a process seed builds that state in an arena
/// (`LuaArena`) and takes its checkpoint there, with the app's chunk loaded and not yet run;
/// each later start for the same seed copies the checkpoint back, and runs the chunk.
///
/// The restored state is the one building would make, byte for byte: building reads nothing
/// but the script, the profile and the seed (the process seed mixes in the process's
/// generation, so each generation has its own checkpoint). What the app's top level does
/// (`stored`, the clock, `math.random`) runs after the checkpoint, every time.
///
/// Bounds: at most `checkpointsMax` checkpoints (generations past them build their state as
/// before), each in an arena of `arenaBytes` of address space, of which only the pages used
/// are backed; a state that outgrows its arena takes the rest from malloc (and is not
/// checkpointed). One pool serves one thread's hosts, one at a time.
package final class AppStatePool {
  /// How the pooled states' host functions reach the host using them (`attach`).
  let link = HostLink(nil)
  let path: String, source: String, profile: Profile, seed: Int64, wallLimitSeconds: Int
  private var arenas: [Int64: LuaArena] = [:]
  /// The references made in each checkpoint, copied for each restore.
  private var references: [Int64: AppReferences] = [:]

  /// What a trial load of the app declared, when the trial ran its top level to the end and
  /// read nothing of the system (one that did may have asked a `choose` site, or read a stored value).
  var trialLayout: AppLayout?

  /// The process starts that restored a checkpoint.
  package private(set) var restores = 0
  /// Those of them whose checkpoint followed the top level, which they did not run.
  package private(set) var restoresAfterTopLevel = 0

  package static let checkpointsMax = 16
  package static let arenaBytes = 64 << 20

  /// A pool for hosts of the app at `path` with this source, profile, seed and wall-clock limit.
  package init(path: String, source: String, profile: Profile, seed: Int64, wallLimitSeconds: Int) {
    self.path = path; self.source = source; self.profile = profile; self.seed = seed; self.wallLimitSeconds = wallLimitSeconds
  }

  /// Whether a host with these settings builds the states this pool keeps.
  func serves(path: String, source: String, profile: Profile, seed: Int64, wallLimitSeconds: Int) -> Bool {
    path == self.path && source == self.source && profile == self.profile && seed == self.seed
      && wallLimitSeconds == self.wallLimitSeconds
  }

  /// What a process's top level declared, kept with a checkpoint taken after it.
  struct Declarations {
    var layout: AppLayout
    var controllerSites: [String: SourceSite]
    var appSite: SourceSite?
  }
  /// The declarations of each seed whose checkpoint follows its top level.
  private var declarations: [Int64: Declarations] = [:]
  /// The seeds whose top level read the system (or failed): their checkpoints precede it.
  private var topLevelVaries: Set<Int64> = []

  /// The state at its checkpoint for `seed`, its references, and, when the checkpoint follows
  /// the top level, what that declared; nil when there is none (or it is in use).
  func restore(seed: Int64) -> (vm: LuaVM, references: AppReferences, declared: Declarations?)? {
    guard let template = references[seed], let vm = arenas[seed]?.restore() else { return nil }
    restores += 1
    if declarations[seed] != nil { restoresAfterTopLevel += 1 }
    return (vm, AppReferences(copying: template), declarations[seed])
  }

  /// Whether a state built for `seed` is checkpointed before its top level runs (its top level
  /// is known to read the system, or to fail); else it is offered after the top level.
  func checkpointsBeforeTopLevel(seed: Int64) -> Bool { topLevelVaries.contains(seed) }

  /// An empty state in the arena for `seed`, to build and checkpoint; nil when the arena is in
  /// use or `checkpointsMax` arenas are taken.
  func emptyState(seed: Int64, memoryLimitBytes: Int, instructionLimit: Int) -> LuaVM? {
    if arenas[seed] == nil {
      guard arenas.count < Self.checkpointsMax, let arena = LuaArena(bytes: Self.arenaBytes) else { return nil }
      arenas[seed] = arena
    }
    return arenas[seed]?.makeState(memoryLimitBytes: memoryLimitBytes, instructionLimit: instructionLimit)
  }

  /// Takes the checkpoint of `vm`, built from `emptyState(seed:…)`: before its top level runs,
  /// or after a top level that declared `declared` and read nothing of the system. A
  /// checkpoint that cannot be taken after the top level is taken before it from the next state.
  func checkpoint(_ vm: LuaVM, seed: Int64, references made: AppReferences, afterTopLevelDeclaring declared: Declarations? = nil) {
    guard references[seed] == nil, let arena = arenas[seed] else { return }
    guard arena.checkpoint(vm) else {
      if declared != nil { topLevelVaries.insert(seed) }
      return
    }
    references[seed] = AppReferences(copying: made)
    declarations[seed] = declared
  }

  /// The top level of `vm`, built for `seed` and not checkpointed, read the system or failed:
  /// it may differ from one process to the next, so the next state built is checkpointed before it.
  func topLevelVaries(seed: Int64, in vm: LuaVM) {
    topLevelVaries.insert(seed)
    arenas[seed]?.stopRecording(vm)
  }
}

/// The reference from the app API's Lua closures back to their host, cleared when the host is
/// released, so that a closure run afterwards (by a finalizer, as the host's Lua state is
/// closed) finds no host, as a weak reference would. Not `weak`: a weak reference puts the
/// host's reference count in a side table, and every retain of it, at every app call, then takes
/// the runtime's slow path. A pool's link serves its hosts in turn (`attach`).
final class HostLink {
  private(set) unowned(unsafe) var host: AppHost?
  init(_ host: AppHost?) { self.host = host }
  /// Points the link at `host`, the one now using the states whose closures hold it.
  func attach(_ host: AppHost) { self.host = host }
  /// Clears the link when it still points at `host`.
  func clear(ifHost host: AppHost) {
    if self.host.map(ObjectIdentifier.init) == ObjectIdentifier(host) { self.host = nil }
  }
}
