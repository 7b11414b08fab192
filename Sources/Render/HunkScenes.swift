import EventStore
import Lifecycle
import RunComparison

/// The scene each event of one log belongs to, for the `@@ … @@ Scene#2` of `diff`'s hunk
/// headers: the run folded event by event, and each event asked of `EventScene` (a scene's own
/// transitions, a view-controller event's window, a callback's receiver, as the `tables`
/// export's `scene` column), except that an app call belongs to the callback it is made in and
/// a return to the call it ends. An event has a scene only once the run has had two at once,
/// as the trace names them: a one-scene run's hunks name none.
package struct HunkScenes {
  private var state = LifecycleState()
  /// The scenes of the callbacks under way, by depth (nil: a callback of no scene); at most
  /// `depthsMax`, so a log that only ever goes deeper keeps memory flat.
  private var open: [String?] = []
  private static let depthsMax = 256

  /// Before the log's first event.
  package init() {}

  /// A namer for `EventDiffer`, or nil when the log's profile cannot have two scenes at once
  /// (no `multipleScenes`): then no event of it is decoded for this.
  package static func namer(for header: LogHeader) -> EventDiffer.SceneNamer? {
    guard header.profile["multipleScenes"]?.boolValue == true else { return nil }
    var scenes = HunkScenes()
    return { line in
      let body = EventDiffer.Body(side: .same, body: Array(line.bodyWithoutBrace) + [UInt8(ascii: "}")])
      // An event that cannot be decoded has no scene; a hunk that shows it says why it cannot be read.
      guard let event = try? body.decoded().event else { return nil }
      return scenes.scene(of: event)
    }
  }

  /// Folds `event` in and names its scene (`Scene#n`, as the model numbers scenes), or nil.
  package mutating func scene(of event: Event) -> String? {
    state.evolve(event)
    var scene = EventScene.of(event.body, in: state)
    switch event.body {
    case let .callbackDelivered(_, _, _, depth, _):
      close(from: depth)
      if open.count < Self.depthsMax { open.append(scene) }
    case let .returned(_, _, _, depth, _):
      if depth >= 0, depth < open.count { scene = open[depth] }
      close(from: depth)
    case .appCalled:
      scene = open.last ?? nil
    case .inputPerformed, .processStarted, .terminated, .crashed:
      open = []
    default:
      break
    }
    guard state.severalScenesSeen, let scene, let id = SceneID(label: scene), id.number >= 1 else { return nil }
    return id.description
  }

  /// Forgets the callbacks at `depth` and deeper: they have returned.
  private mutating func close(from depth: Int) {
    if open.count > max(0, depth) { open.removeSubrange(max(0, depth)...) }
  }
}
