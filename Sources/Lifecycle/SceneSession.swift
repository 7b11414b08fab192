import JSON

/// A scene session (`UISceneSession`): what the system keeps of one of the app's windows. It
/// outlives its scene and the process (a system kill, `disconnect_scene`, a reboot) and ends
/// when it is discarded (the user closes the window, or force quits the app). The window verbs
/// and the app's requests name it by `number` (docs/model.md §19).
public struct SceneSession: Equatable, Sendable {
  /// The number of the scene that first connected it: `close_window(n)`, `focus(n)`,
  /// `expect_state(s, n)` and the app's requests name it, whichever scene holds it now.
  public var number: Int
  /// The scene connected to it now (`Scene#4` after a relaunch); nil while it is unattached.
  public var scene: String?
  /// `session.stateRestorationActivity`: what its scene's delegate last returned from
  /// `stateRestorationActivity(for:)`; its next scene reads it at the connection (docs/model.md §17).
  public var restorationActivity: JSONValue?

  public init(number: Int, scene: String? = nil, restorationActivity: JSONValue? = nil) {
    self.number = number; self.scene = scene; self.restorationActivity = restorationActivity
  }
}

extension LifecycleState {
  /// The most windows an app keeps (sessions not discarded): the user closes one before opening
  /// another past it, and the fold ignores a session a damaged log makes past it, so no log can
  /// grow the state without end.
  public static let sessionsMax = 1_024

  // MARK: - Derived

  /// The session scene `label` is connected to.
  public func session(ofScene label: String) -> SceneSession? { sessions.first { $0.scene == label } }

  /// The kept session numbered `n` (nil: never opened, or discarded).
  public func session(numbered n: Int) -> SceneSession? { sessions.first { $0.number == n } }

  /// The session a connection that creates none takes: the unattached one whose window was
  /// frontmost last (a launch, a return, `focus(n)` and an activation request move theirs here).
  public var sessionToReconnect: SceneSession? { sessions.last { $0.scene == nil } }

  /// The session whose restoration activity a call without a session number means: the front
  /// scene's, else the one a launch would reconnect (a one-scene run has only one).
  var defaultSession: SceneSession? { frontScene.flatMap { session(ofScene: $0.label) } ?? sessions.last }

  /// `session.stateRestorationActivity` of the session a launch reconnects (the state's
  /// summary; each session keeps its own): after a force quit that kept it (knob
  /// `forceQuitKeepsRestoration`), the activity the next new session receives.
  public var restorationActivity: JSONValue? { defaultSession?.restorationActivity ?? restorationActivityOfDiscardedSession }

  /// The open windows for a message, by number: `1 (Scene#3), 3 (unattached)`, or `none`.
  public var openWindowsText: String {
    let list = sessions.sorted { $0.number < $1.number }.map { "\($0.number) (\($0.scene ?? "unattached"))" }
    return list.isEmpty ? "none" : list.joined(separator: ", ")
  }

  /// The number a change names, as the simulator records it: only once the app has had several
  /// scenes at once, so a one-scene log never names one.
  public func sessionNamedInEvents(_ session: SceneSession?) -> Int? { severalScenesSeen ? session?.number : nil }

  // MARK: - Folding session events

  /// A new session is made for the scene about to connect (it takes that scene's number), with
  /// the activity a force quit left behind, if any; a discarded one is forgotten, and the
  /// activity it still had waits for the next new session (knob `forceQuitKeepsRestoration`:
  /// a window the user closes has its activity deleted first).
  mutating func changeSessions(created: Bool, number: Int?) {
    if created {
      guard sessions.count < Self.sessionsMax else { return }
      sessions.append(SceneSession(number: scenesConnected + 1, restorationActivity: restorationActivityOfDiscardedSession))
      restorationActivityOfDiscardedSession = nil
      return
    }
    sessionDiscardPending = true
    let unnamed = lastDetachedSession.flatMap { n in sessions.firstIndex { $0.number == n } } ?? sessions.indices.first
    guard let i = number.map({ n in sessions.firstIndex { $0.number == n } }) ?? unnamed else { return }
    // A force quit discards the windows frontmost last: the activity left is that window's.
    restorationActivityOfDiscardedSession = sessions.remove(at: i).restorationActivity
  }

  /// Scene `label` connects to unattached session `number`, or without one to the session
  /// `sessionToReconnect` names (a new one is the last).
  mutating func attachSession(to label: String, number: Int?) {
    let named = number.flatMap { n in sessions.firstIndex { $0.number == n && $0.scene == nil } }
    guard let i = named ?? sessions.lastIndex(where: { $0.scene == nil }) else { return }
    var session = sessions.remove(at: i)
    session.scene = label
    sessions.append(session)
  }

  /// Scene `label` is released: its session stays, unattached.
  mutating func detachSession(of label: String) {
    guard let i = sessions.firstIndex(where: { $0.scene == label }) else { return }
    sessions[i].scene = nil
    lastDetachedSession = sessions[i].number
  }

  /// Session `n`'s window was frontmost last: it is the next to reconnect if unattached.
  mutating func moveSessionToFront(_ n: Int) {
    guard let i = sessions.firstIndex(where: { $0.number == n }) else { return }
    sessions.append(sessions.remove(at: i))
  }

  /// A restoration change for session `number` (nil: the default session, as one-scene logs record it).
  mutating func changeRestorationActivity(of number: Int?, to activity: JSONValue?) {
    let target = number ?? defaultSession?.number
    guard let i = sessions.firstIndex(where: { $0.number == target }) else {
      if activity == nil { restorationActivityOfDiscardedSession = nil }
      return
    }
    sessions[i].restorationActivity = activity
  }
}
