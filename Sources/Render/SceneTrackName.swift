import Lifecycle

/// The track (chrome trace) or participant (Mermaid) an export draws a target on: its own name
/// while the app has had one scene at a time, so one-scene exports keep their names; once it
/// has had several at once, the name after its scene (`Scene#2 SceneDelegate`, `Scene#2 List#3`),
/// so each scene's delegate and controllers show as one group.
package enum SceneTrackName {
  package static func of(_ target: String, in state: LifecycleState) -> String {
    state.exportSceneGroup(of: target).map { "\($0) \(target)" } ?? target
  }

  /// The scene delegate's track for an event that names its scene.
  package static func sceneDelegate(of scene: String, in state: LifecycleState) -> String {
    state.severalScenesSeen ? "\(scene) SceneDelegate" : "SceneDelegate"
  }

  /// The chrome trace's track for a callback or call on `target`: background tasks, `after` work
  /// and notification observers share one track (an expiration handler may end its task, and
  /// the two would overlap on the task's own), the rest as `of(_:in:)` names them.
  package static func chromeTrack(for target: String, in state: LifecycleState) -> String {
    if target.hasPrefix("BackgroundTask#") || target.hasPrefix("after#") || target == "NotificationCenter" { return "Background tasks" }
    return of(target, in: state)
  }
}
