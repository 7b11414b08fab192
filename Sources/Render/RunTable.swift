import EventStore
import JSON
import Lifecycle
import LifecycleLog

/// One event of a run as the timeline and the tables show it: the log's own members, with a
/// callback's duration (to its return, or to the kill that ended it).
package struct EventRow {
  package let seq: Int64
  package let t: Int64
  package let kind: EventKind
  package let name: String
  /// As logged: a class, or an instance (`NoteList#2`).
  package let target: String?
  package let depth: Int64?
  /// `file:line` of the script line that caused it.
  package let at: String?
  package let from: String?
  package let to: String?
  /// The event's other members as an object (empty when it has none).
  package let details: JSONValue
  /// Callbacks: virtual µs to the return or the kill; nil while none came (a log cut off).
  package var durationUs: Int64?
  /// A callback the process died in.
  package var killed = false
  /// A kill, a crash or a failed expectation: shown as a flag.
  package let isFlag: Bool
  /// A kill or a crash: MetricKit 27's category, and whether the app was in the foreground.
  package var termination: (category: TerminationCategory, foreground: Bool)?
  /// The scene it belongs to (`EventScene`), whether or not the run has had several.
  package var scene: String?

  /// `target` before `#` (`NoteList`), and the number after it.
  package var className: String? { target.map { String($0.split(separator: "#", maxSplits: 1).first ?? "") } }
  package var instance: Int64? {
    guard let target, let hash = target.firstIndex(of: "#") else { return nil }
    return Int64(target[target.index(after: hash)...])
  }
  /// `at` split at its last colon.
  package var source: (file: String, line: Int64)? {
    guard let at, let colon = at.lastIndex(of: ":"), let line = Int64(at[at.index(after: colon)...]) else { return nil }
    return (String(at[..<colon]), line)
  }
}

/// A state one layer of a run was in, from one event to another. Layers: `process`,
/// `application` (what `expect_state` compares), `scene N`, `controller Class#N` (appearance),
/// `task N` (a background task, its name as the state).
package struct StateInterval {
  package let layer: String
  package let state: String
  package let startSeq: Int64
  package let startUs: Int64
  /// The event that ended it, or the run's last event.
  package var endSeq: Int64
  package var endUs: Int64
  /// The state the run ended in: no event ended it.
  package var lastsToEnd = false
}

/// A run read whole through the log's own read loop (format, sequence and chain checked as it
/// goes): its events as rows, its state as intervals (folded with `LifecycleState.evolve`, as
/// the run folded it) and its ending.
package struct RunTable {
  package let header: LogHeader
  package let identity: RunIdentity
  private(set) var rows: [EventRow] = []
  private(set) var intervals: [StateInterval] = []
  /// The state after the last event.
  private(set) var state = LifecycleState()
  private(set) var trailer: LogTrailer?
  private(set) var lastSeq: Int64 = 0
  private(set) var lastUs: Int64 = 0
  /// Row indexes of callbacks waiting for their return, innermost last.
  private var waiting: [Int] = []
  /// Interval indexes of each layer's current state.
  private var current: [(layer: String, index: Int)] = []

  package init(reading reader: LogReader) throws {
    header = reader.header
    identity = RunIdentity(header: reader.header)
    while let line = try reader.next() {
      switch line {
      case let .event(e): try add(e)
      case let .trailer(t): trailer = t
      }
    }
    let endUs = trailer?.t ?? lastUs
    for (_, i) in current {
      intervals[i].endSeq = lastSeq
      intervals[i].endUs = endUs
      intervals[i].lastsToEnd = true
    }
  }

  /// Members every row has in its own column.
  private static let columns: Set<String> = ["seq", "t", "kind", "name", "target", "depth", "at", "from", "to"]

  private mutating func add(_ e: LogEvent) throws {
    let event = try Event(e)
    state.evolve(event)
    lastSeq = e.seq
    lastUs = e.t
    var isFlag = false
    var kill = false
    switch event.body {
    case let .expectationChecked(_, passed, _, _): isFlag = !passed
    case .terminated, .crashed: isFlag = true; kill = true
    case .inputPerformed, .applicationStateChanged, .sceneActivationChanged, .sceneConnected, .sceneDisconnected, .sceneSessionChanged, .rootBuilt,
         .pushed, .popped, .presented, .dismissed, .tabSelected, .protectedDataChanged, .restorationChanged, .processStarted, .launchContinued,
         .suspended, .resumed, .callbackDelivered, .returned, .appCalled, .notificationPosted, .noted:
      break
    }
    func text(_ key: String) -> String? { if case let .string(s)? = e[key] { return s } else { return nil } }
    func number(_ key: String) -> Int64? { if case let .int(n)? = e[key] { return n } else { return nil } }
    /// A state as text whatever its JSON type (`protectedDataAvailable` goes to `true`).
    func stateText(_ key: String) -> String? { if case let .bool(b)? = e[key] { return String(b) } else { return text(key) } }
    var row = EventRow(seq: e.seq, t: e.t, kind: e.kind, name: text("name") ?? e.kind.rawValue, target: text("target"),
                       depth: number("depth"), at: text("at"), from: stateText("from"), to: stateText("to"),
                       details: .object(e.fields.filter { !Self.columns.contains($0.0) }), isFlag: isFlag)
    row.scene = EventScene.of(event.body, in: state)
    if case let .callbackDelivered(_, _, handled, _, _) = event.body {
      if handled { waiting.append(rows.count) } else { row.durationUs = 0 }
    }
    if case let .returned(name, target, _, _, _) = event.body,
       let w = waiting.lastIndex(where: { rows[$0].name == name && rows[$0].target == target }) {
      let i = waiting.remove(at: w)
      rows[i].durationUs = e.t - rows[i].t
      row.scene = rows[i].scene
    }
    if kill, let ended = event.body.termination, let foreground = state.terminationsInForeground.last {
      row.termination = (TerminationCategory(ended), foreground)
    }
    if kill {
      for i in waiting { rows[i].durationUs = e.t - rows[i].t; rows[i].killed = true }
      waiting.removeAll()
    }
    rows.append(row)
    fold(seq: e.seq, t: e.t)
  }

  /// Each layer's state now.
  private static func layers(of s: LifecycleState) -> [(String, String)] {
    var out = [("process", s.process.rawValue), ("application", s.appState.rawValue)]
    for scene in s.scenes {
      out.append(("scene " + (scene.label.split(separator: "#").last.map(String.init) ?? scene.label), scene.activation.rawValue))
    }
    for c in s.controllers.values.sorted(by: { $0.id < $1.id }) { out.append(("controller " + c.label, c.appearance.rawValue)) }
    for task in s.tasks { out.append(("task \(task.id)", task.name)) }
    return out + continuedLayers(of: s)
  }

  /// A continued task's track (`continued <id>`): its progress (`3/10`), `expired` once its
  /// expiration handler ran, `started` before its first report.
  private static func continuedLayers(of s: LifecycleState) -> [(String, String)] {
    s.backgroundWork.running.filter { $0.kind == .continued }.map { task in
      let progress = s.backgroundWork.continued.progress(of: task.identifier)
      let state = task.expiredAt != nil ? "expired" : progress.map { $0.total > 0 ? "\($0.done)/\($0.total)" : "started" } ?? "started"
      return ("continued " + task.identifier, state)
    }
  }

  /// Ends the intervals whose layer changed or went away at this event, and starts the new ones.
  private mutating func fold(seq: Int64, t: Int64) {
    let now = Self.layers(of: state)
    var next: [(layer: String, index: Int)] = []
    for (layer, index) in current {
      if let s = now.first(where: { $0.0 == layer }), s.1 == intervals[index].state {
        next.append((layer, index))
      } else {
        intervals[index].endSeq = seq
        intervals[index].endUs = t
      }
    }
    for (layer, s) in now where !next.contains(where: { $0.layer == layer }) {
      next.append((layer, intervals.count))
      intervals.append(StateInterval(layer: layer, state: s, startSeq: seq, startUs: t, endSeq: seq, endUs: t))
    }
    current = next
  }

  /// lifesim's own outcome: the trailer's, or (a log cut off) the fold's; each termination with
  /// its category and foreground from the fold.
  package var outcome: JSONValue { state.annotated(outcome: trailer?.outcome ?? Simulator.outcome(of: state)) }

  /// 0: passed; 1: an expectation failed or a fault no expectation named; 2: the run stopped
  /// with an error or its log is cut off — as `lifesim run` exits.
  package var status: Int32 {
    if trailer == nil || outcome["error"] != nil { return Status.trouble }
    return state.expectationsFailed > 0 || !state.unexpectedFaults.isEmpty ? Status.failed : Status.ok
  }
}
