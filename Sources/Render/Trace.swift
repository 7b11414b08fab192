import EventStore
import JSON
import Lifecycle

/// One line per event: virtual time, then the layer's indent (input, system,
/// app and scene state, callbacks by nesting depth, app calls, kills).
package struct TraceFormatter {
  private var depth = 0
  /// Whether the app is in the foreground, for the category line of a termination.
  private var foreground = ForegroundTracker()
  /// `--numbers`: each line starts with its event's number (`#12`), as `replay --until` takes it.
  package let numbered: Bool

  package init(numbered: Bool = false) { self.numbered = numbered }

  package mutating func line(seq: Int64, _ event: Event) -> String {
    let time = (numbered ? Self.paint(pad("#\(seq)", 7), "2") + " " : "") + Self.paint(pad(VirtualTime.format(event.t), 12), "2")
    let text: String
    defer { foreground.follow(event.body) }
    switch event.body {
    case let .inputPerformed(input, at):
      depth = 0
      text = Self.paint("▶ \(input.traceText)", "1;36") + (at.map { Self.paint("  \($0)", "2") } ?? "")
    case let .applicationStateChanged(from, to):
      text = "  ◆ applicationState \(from.rawValue) → \(to.rawValue)"
    case let .sceneActivationChanged(scene, from, to):
      text = Self.plain("  ◆ \(scene) \(from.rawValue) → \(to.rawValue)")
    case let .sceneConnected(scene, session): text = Self.plain("  ◆ \(scene) connected" + (session.map { " (window \($0))" } ?? ""))
    case let .sceneDisconnected(scene): text = Self.plain("  ◆ \(scene) disconnected")
    case let .sceneSessionChanged(created, session):
      text = "  ◆ " + (session.map { "window \($0)'s scene session" } ?? "scene session") + (created ? " created" : " discarded")
    case let .rootBuilt(container, _, controllers, scene):
      text = Self.plain("  ◆ window root: \(controllers.joined(separator: ", "))\(container == .none ? "" : " in a \(container == .tabs ? "tab bar" : "navigation") controller")"
                        + Self.inScene(scene))
    case let .pushed(c, scene): text = Self.plain("  ◆ push \(c)" + Self.inScene(scene))
    case let .popped(c, scene): text = Self.plain("  ◆ pop \(c)" + Self.inScene(scene))
    case let .presented(c, style, _, scene): text = Self.plain("  ◆ present \(c) (\(style.rawValue))" + Self.inScene(scene))
    case let .dismissed(c, scene): text = Self.plain("  ◆ dismiss \(c)" + Self.inScene(scene))
    case let .tabSelected(i, c, scene): text = Self.plain("  ◆ tab \(i) selected: \(c)" + Self.inScene(scene))
    case let .protectedDataChanged(available): text = "  ◆ protected data \(available ? "available" : "unavailable")"
    case let .restorationChanged(change): text = Self.plain("  ◆ " + Self.describe(change))
    case let .processStarted(mode, state):
      text = Self.paint("  ● process started (\(mode.rawValue); applicationState \(state.rawValue))", "33")
    case let .launchContinued(state): text = Self.paint("  ● prewarmed process continues its launch (\(state.rawValue))", "33")
    case .suspended: text = Self.paint("  ● suspended", "33")
    case .resumed: text = Self.paint("  ● resumed", "33")
    case let .terminated(t):
      text = Self.paint("  ✖ terminated: \(t.reason.rawValue)\(t.code.map { " \($0)" } ?? ""): \(t.description)", "1;31") + counted(t)
    case let .callbackDelivered(cb, target, handled, depth, arguments):
      self.depth = depth
      let name = "\(target).\(cb.signature)" + Self.inScene(arguments.scene) + (arguments.url.map { " url=\($0)" } ?? "")
        + (arguments.payload.map { " \($0.canonicalText)" } ?? "")
      text = indent(depth) + (handled ? Self.paint("→ \(name)", "32") : Self.paint("→ \(name)", "2"))
    case let .returned(name, target, used, depth, value):
      text = indent(depth) + Self.paint("← \(target).\(name) after \(VirtualTime.format(used)) s"
                                              + (value.map { " → \($0.canonicalText)" } ?? ""), "2")
    case let .appCalled(call, _):
      text = indent(depth + 1) + Self.plain("· \(Self.describe(call))")
    case let .notificationPosted(name, handled, depth):
      text = indent(depth) + Self.paint("✉ \(name)\(handled ? " (observed)" : "")", handled ? "0" : "2")
    case let .crashed(name, target, message, traceback):
      text = Self.paint("  ✖ crash in \(target).\(name): \(message)", "1;31") + counted(.crash(message))
        + Self.frames(of: traceback).map { "\n" + String(repeating: " ", count: 17) + Self.paint($0, "2") }.joined()
    case let .expectationChecked(name, passed, message, at):
      text = Self.paint("\(passed ? "✔" : "✘") \(name): \(message)", passed ? "32" : "1;31") + (at.map { Self.paint("  \($0)", "2") } ?? "")
    case let .noted(name, message, code):
      text = code.map { Self.paint("  ⚠ \($0): \(message)", "33") } ?? Self.paint("  ℹ \(name): \(message)", "35")
    }
    return "\(time) \(text)"
  }

  /// ` in Scene#2` after a view-controller event or a scene-delegate call that names its scene
  /// (only a run that has had several does), so `diff` never pairs one scene's line with
  /// another's and one-scene lines keep their text.
  private static func inScene(_ scene: String?) -> String { scene.map { " in \($0)" } ?? "" }

  /// How MetricKit 27 counts a termination: its category, in the foreground or the background.
  private func counted(_ termination: Termination) -> String {
    Self.paint(" [\(TerminationCategory(termination).rawValue), \(foreground.foreground ? "foreground" : "background")]", "2")
  }

  /// Text from the event (an app's, a scenario's or a log's) in colour, its control characters visible.
  private static func paint(_ text: String, _ code: String) -> String { TerminalColour.paint(TerminalText.visible(text), code) }

  /// Text from the event uncoloured, its control characters visible.
  private static func plain(_ text: String) -> String { TerminalText.visible(text) }

  /// Frames shown under a crash: the first few of Lua's traceback, one a line.
  package static let crashFramesMax = 4

  /// The frames of a Lua traceback (`stack traceback:` and the message above it dropped),
  /// at most `crashFramesMax`, and a last line saying how many more there were.
  package static func frames(of traceback: String) -> [String] {
    let lines = traceback.split(separator: "\n", omittingEmptySubsequences: true)
    guard let start = lines.firstIndex(where: { $0 == "stack traceback:" }) else { return [] }
    let frames = lines[(start + 1)...].map { $0.drop { $0 == "\t" || $0 == " " } }.filter { !$0.isEmpty }
    var shown = frames.prefix(crashFramesMax).map { "at " + $0 }
    if frames.count > crashFramesMax { shown.append("… \(frames.count - crashFramesMax) more frames (lifesim run --json shows them all)") }
    return shown
  }

  private func indent(_ depth: Int) -> String { String(repeating: "  ", count: 2 + depth) }

  private func pad(_ s: String, _ width: Int) -> String {
    s.count >= width ? s : String(repeating: " ", count: width - s.count) + s
  }

  /// An app call in words (`work 0.200000 s`, `beginBackgroundTask "upload" → 1`).
  package static func describe(_ call: AppCall) -> String {
    switch call {
    case let .work(us): return "work \(VirtualTime.format(us)) s"
    case let .beginBackgroundTask(name, task): return "beginBackgroundTask \"\(name)\" → \(task)"
    case let .endBackgroundTask(task): return "endBackgroundTask \(task)"
    case let .store(key, value, protection):
      return "store \(key) = \(value?.canonicalText ?? "nil")" + (protection == .untilFirstUnlock ? "" : " (\(protection.rawValue))")
    case let .holdLock(name, shared): return "hold_lock \"\(name)\"\(shared ? " (shared)" : "")"
    case let .releaseLock(name): return "release_lock \"\(name)\""
    case let .log(message): return "log \(message)"
    case let .observe(n): return "observe \(n)"
    case let .after(us, id): return "after \(VirtualTime.format(us)) s (#\(id))"
    case let .completion(id): return "completion handler \(id) called"
    case let .push(c): return "push \(c)"
    case let .present(c, style, _): return "present \(c) (\(style.rawValue))"
    case .pop: return "pop"
    case .dismiss: return "dismiss"
    case .setNotificationDelegate: return "UNUserNotificationCenter setDelegate"
    case let .restorationHandler(controllers): return "restorationHandler \(controllers.joined(separator: ", "))"
    case let .registerBGTask(identifier, result): return "BGTaskScheduler.register \(identifier) → \(result.rawValue)"
    case let .submitBGTask(request, result):
      return "BGTaskScheduler.submit \(request.kind.rawValue) \(request.identifier) → \(result.rawValue)"
    case let .setTaskCompleted(identifier, success): return "setTaskCompleted \(identifier) \(success)"
    case let .updateProgress(identifier, done, total): return "updateProgress \(identifier) \(done)/\(total)"
    case let .requestSceneActivation(session, activity):
      return "requestSceneSessionActivation" + (session.map { " \(SceneID(number: $0))" } ?? " (new window)") + (activity.map { " activity=\($0)" } ?? "")
    case let .requestSceneDestruction(session): return "requestSceneSessionDestruction \(SceneID(number: session))"
    case let .backgroundTransfer(session, task, us):
      return "background_transfer \(session) #\(task) (\(VirtualTime.format(us)) s)"
    case .extendStateRestoration: return "extendStateRestoration"
    case .completeStateRestoration: return "completeStateRestoration"
    case let .choose(site, value, forced): return "choose \(site) → \(value)\(forced ? " (forced)" : "")"
    case let .delegateWindow(present, site): return "delegateWindow\(site.map { " " + $0 } ?? "") → \(present ? "set" : "nil")"
    case let .frameWindow(shown, site): return "frameWindow\(site.map { " " + $0 } ?? "") → \(shown ? "shown" : "not shown")"
    }
  }

  /// ` of window 2` when a change names its session.
  private static func ofWindow(_ session: Int?) -> String { session.map { " of window \($0)" } ?? "" }

  /// A change to what survives for state restoration, in words.
  package static func describe(_ change: RestorationChange) -> String {
    switch change {
    case let .activitySaved(activity, session): return "restoration activity\(ofWindow(session)) saved: \(activity.canonicalText)"
    case let .activityDeleted(why, session): return "restoration activity\(ofWindow(session)) deleted (\(why))"
    case let .archiveWritten(archive): return "restoration archive written: \(archive.pathsText)"
    case let .archiveDeleted(why): return "restoration archive deleted (\(why))"
    }
  }
}

extension String {
  package var replacingUnderscores: String { split(separator: "_").map(String.init).joinedText(separator: " ") }
}
