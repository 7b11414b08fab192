import JSON
import Lifecycle

/// `replay --state --json`: the state rebuilt from the events, as the object docs/json.md
/// describes (the same facts `StateText` puts in words; times in µs).
package enum StateJSON {
  package static func object(_ s: LifecycleState, profile: Profile?) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("t", .int(s.now)),
      ("app", .string(s.appState.rawValue)),
      ("process", .string(s.process.rawValue)),
      ("applicationState", s.process == .running ? .string(s.applicationState.rawValue) : .null),
      ("scene", s.frontScene.map { .object([("label", .string($0.label)), ("activation", .string($0.activation.rawValue))]) } ?? .null),
      ("sceneSession", .bool(!s.sessions.isEmpty)),
      ("sessionDiscardPending", .bool(s.sessionDiscardPending)),
      ("locked", .bool(s.locked)),
      ("orientation", .string(s.orientation.rawValue)),
      ("protectedDataAvailable", .bool(s.protectedDataAvailable)),
      ("interruption", s.interruption.map { .string($0.rawValue) } ?? .null),
      ("switcherOpen", .bool(s.switcherOpen)),
      ("window", s.frontWindow.map { window(s, $0) } ?? .null),
    ]
    // Once the app has had several scenes: every open window (a one-scene state keeps its members).
    if s.severalScenesSeen { members.append(("windows", .array(s.sessions.sorted { $0.number < $1.number }.map { windowOf(s, $0) }))) }
    members += [
      ("backgroundTasks", .array(s.tasks.map { task in
        .object([("id", .int(Int64(task.id))), ("name", .string(task.name)), ("expired", .bool(task.expirationCalled))])
      })),
    ]
    if let profile, let since = s.backgroundSince, !s.tasks.isEmpty {
      members.append(("backgroundTimeRemaining_us", .int(max(0, since + profile.backgroundTaskAllowance_us - s.now))))
    } else {
      members.append(("backgroundTimeRemaining_us", .null))
    }
    members += [
      ("pendingCompletions", .array(s.completions.map { .object([("id", .int(Int64($0.id))), ("callback", .string($0.callback.key))]) })),
      ("scheduledWork", .array(s.afters.map { .object([("id", .int(Int64($0.id))), ("due_us", .int($0.due))]) })),
      ("stored", .object(s.store.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })),
      ("memoryWarnings", .int(Int64(s.memoryWarnings))),
      ("terminations", .array(s.terminations.map { t in
        .object([("reason", .string(t.reason.rawValue)), ("code", t.code.map { .string($0) } ?? .null),
                 ("description", .string(t.description))])
      })),
      ("expectations", .object([("passed", .int(Int64(s.expectationsPassed))), ("failed", .int(Int64(s.expectationsFailed)))])),
    ]
    return .object(members)
  }

  /// One open window: its number, its scene and that scene's state (null while unattached), its restoration activity.
  private static func windowOf(_ s: LifecycleState, _ session: SceneSession) -> JSONValue {
    let activation = session.scene.flatMap { label in s.scenes.first { $0.label == label }?.activation }
    return .object([("number", .int(Int64(session.number))), ("scene", session.scene.map(JSONValue.string) ?? .null),
                    ("activation", .string((activation ?? .unattached).rawValue)),
                    ("restorationActivity", session.restorationActivity ?? .null)])
  }

  private static func window(_ s: LifecycleState, _ w: ViewControllerTree) -> JSONValue {
    func stack(_ ids: [Int]) -> JSONValue {
      .array(ids.map { id in
        guard let c = s.controllers[id] else { return .null }
        return .object([("label", .string(c.label)), ("appearance", .string(c.appearance.rawValue)), ("viewLoaded", .bool(c.viewLoaded))])
      })
    }
    return .object([
      ("container", .string(w.container.rawValue)),
      ("tabs", .array(w.tabs.map(stack))),
      ("selectedTab", .int(Int64(w.selectedTab))),
      ("presented", .array(w.presented.map { .object([("style", .string($0.style.rawValue)), ("stack", stack($0.stack))]) })),
    ])
  }
}
