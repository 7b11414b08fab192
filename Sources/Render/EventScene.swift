import Lifecycle

/// The scene an event belongs to, for the exports that show a run's scenes apart (the `tables`
/// export's `scene` column, the HTML timeline's groups): a scene's own transitions, a
/// view-controller event's window, a callback's receiver. Asked of every event, whether or not
/// the run has had several scenes; the exports use it only once it has.
package enum EventScene {
  /// `state`: the run's state with `body` folded in.
  package static func of(_ body: EventBody, in state: LifecycleState) -> String? {
    switch body {
    case let .sceneActivationChanged(scene, _, _), let .sceneConnected(scene, _), let .sceneDisconnected(scene):
      return scene
    case .rootBuilt, .pushed, .popped, .presented, .dismissed, .tabSelected:
      return body.viewControllerScene ?? state.frontScene?.label
    case let .callbackDelivered(_, target, _, _, _), let .returned(_, target, _, _, _), let .crashed(_, target, _, _):
      return receiver(target, in: state)
    default:
      return nil
    }
  }

  /// The scene of a callback's receiver: a scene named as the receiver (`Scene#2`), else the
  /// state's answer (`LifecycleState.scene(ofTarget:)`: the scene-delegate call's scene, or the
  /// scene whose window holds the controller); nil for the app delegate, handlers and a sceneless window.
  package static func receiver(_ target: String, in state: LifecycleState) -> String? {
    if SceneID(label: target) != nil { return target }
    return state.scene(ofTarget: target)
  }
}
