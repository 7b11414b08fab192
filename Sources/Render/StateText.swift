import EventStore
import JSON
import Lifecycle

/// `replay --state`: the state rebuilt from the events, in words.
package enum StateText {
  package static func describe(_ s: LifecycleState, profile: Profile?) -> String {
    var lines: [String] = []
    lines.append("State at t = \(VirtualTime.format(s.now)) s")
    lines.append("  app: \(s.appState.rawValue) (process \(s.process.rawValue)\(s.process == .running ? ", applicationState \(s.applicationState.rawValue)" : ""))")
    for scene in s.scenes { lines.append("  scene: \(scene.label) \(scene.activation.rawValue)") }
    let owed = s.sessionDiscardPending ? " (discarded; didDiscardSceneSessions owed)" : ""
    if s.severalScenesSeen {
      lines.append("  windows: \(s.openWindowsText)\(owed)")
    } else {
      lines.append("  scene session: \(s.sessions.isEmpty ? "none" : "kept")\(owed)")
    }
    lines.append("  device: \(s.locked ? "locked" : "unlocked"), \(s.orientation.rawValue); protected data \(s.protectedDataAvailable ? "available" : "unavailable")")
    if let i = s.interruption { lines.append("  interruption: \(i.rawValue)") }
    if s.switcherOpen { lines.append("  app switcher: open") }
    if let w = s.frontWindow {
      lines.append("  window: \(w.container == .none ? "plain root" : w.container == .tabs ? "tab bar controller" : "navigation controller")")
      for (i, stack) in w.tabs.enumerated() {
        let prefix = w.container == .tabs ? "tab \(i + 1)\(i == w.selectedTab ? " (selected)" : "")" : "root"
        lines.append("    \(prefix): " + stack.map { controller(s, $0) }.joined(separator: " > "))
      }
      for p in w.presented {
        lines.append("    presented (\(p.style.rawValue)): " + p.stack.map { controller(s, $0) }.joined(separator: " > "))
      }
    } else {
      lines.append("  window: none")
    }
    if s.tasks.isEmpty {
      lines.append("  background tasks: none")
    } else {
      var left = ""
      if let profile, let since = s.backgroundSince {
        left = "; time left \(VirtualTime.format(max(0, since + profile.backgroundTaskAllowance_us - s.now))) s"
      }
      lines.append("  background tasks: " + s.tasks.map { "\"\($0.name)\" (\($0.id))\($0.expirationCalled ? " expired" : "")" }.joined(separator: ", ") + left)
    }
    if !s.completions.isEmpty {
      lines.append("  completion handlers pending: " + s.completions.map { "\($0.id) (\($0.callback.key))" }.joined(separator: ", "))
    }
    if !s.afters.isEmpty {
      lines.append("  scheduled work: " + s.afters.map { "#\($0.id) at \(VirtualTime.format($0.due)) s" }.joined(separator: ", "))
    }
    lines += backgroundWork(s.backgroundWork)
    let stored = s.store.keys.sorted().map { "\($0) = \(s.store[$0]!.canonicalText)" }
    lines.append("  stored: " + (stored.isEmpty ? "nothing" : stored.joined(separator: ", ")))
    lines.append("  memory warnings: \(s.memoryWarnings)")
    if s.severalScenesSeen {
      for session in s.sessions.sorted(by: { $0.number < $1.number }) {
        if let activity = session.restorationActivity { lines.append("  restoration activity of window \(session.number): \(activity.canonicalText)") }
      }
    } else if let activity = s.restorationActivity {
      lines.append("  restoration activity: \(activity.canonicalText)")
    }
    if let archive = s.restorationArchive { lines.append("  restoration archive: \(archive.pathsText)") }
    lines.append("  terminations: " + (s.terminations.isEmpty ? "none" : s.terminations.map { "\($0.reason.rawValue) (\($0.description))" }.joined(separator: "; ")))
    lines.append("  expectations: \(s.expectationsPassed) passed, \(s.expectationsFailed) failed")
    // A label or a value from the app is shown on its line, its control characters visible.
    return lines.map { TerminalText.visible($0) }.joined(separator: "\n")
  }

  private static func controller(_ s: LifecycleState, _ id: Int) -> String {
    guard let c = s.controllers[id] else { return "?" }
    return "\(c.label) [\(c.appearance.rawValue)\(c.viewLoaded ? "" : ", view not loaded")]"
  }
}
